"""tree: a strategy's whole decision tree, printed or written as a tree file."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import click

from ..core.tree import TREE_FORMATS
from . import cli
from .common import fail, note_long_search, strategy_option
from .console import color_option
from .files import check_output
from .game_options import game_notation, game_options
from .progress import progress_bar, search_progress
from .runs import given_words, make_player, words

if TYPE_CHECKING:
    from ..core.rules import Rules
    from ..core.tree import Node
    from ..strategies import Strategy


@cli.command()
@game_options
@strategy_option
@click.option(
    "--format",
    "fmt",
    type=click.Choice(TREE_FORMATS),
    default="text",
    show_default=True,
    help="text: an outline like Knuth's table; json: nested objects; dot: Graphviz.",
)
@click.option(
    "--depth",
    type=click.IntRange(min=1),
    metavar="N",
    help=(
        "Show only the first N guesses (the last with the classes its replies leave; dot draws the "
        "guesses alone)."
    ),
)
@click.option("--first", metavar="CODE", help="Override the strategy's first guess.")
@click.option(
    "--no-tables", is_flag=True, help="counter: numeric order (Shapiro's strategy), which has a tree."
)
@click.option(
    "--no-cache",
    is_flag=True,
    help="optimal: search the tree again instead of reading it from the cache of trees already searched.",
)
@click.option(
    "--save",
    metavar="FILE",
    help="Write the whole tree to FILE as a tree file (gzip-compressed if FILE ends in .gz), which "
    "'mastermind verify' checks against every secret, or, where FILE ends in .json (or .json.gz), "
    "as the nested objects --format json prints; prints a summary instead of the tree.",
)
@color_option
def tree(
    rules: Rules,
    strategy: str,
    fmt: str,
    depth: int | None,
    first: str | None,
    no_tables: bool,
    no_cache: bool,
    save: str | None,
) -> None:
    """The whole decision tree of a strategy: each reply, how many codes it leaves, the next guess.

    Only deterministic strategies have a single tree.

    \b
    Examples:
      mastermind tree --strategy knuth --depth 2      # Knuth's second guesses
      mastermind tree --strategy knuth --depth 1      # 1122 and the classes of its replies
      mastermind tree -s most-parts --pegs 3 --colors 4
      mastermind tree -s knuth --format json > knuth.json
      mastermind tree -s knuth --format dot --depth 3 | dot -Tsvg > knuth.svg
      mastermind tree -s counter --no-tables --depth 2  # Shapiro's strategy
      mastermind tree -s optimal --save classic.tree.gz && mastermind verify classic.tree.gz
    """
    from ..research.evaluation import strategy_tree

    if save is not None:
        _check_save(save, depth)
    player = make_player(strategy, rules, first, no_tables, no_cache)
    note_long_search(player, None, "a heuristic strategy's tree takes seconds; ")
    with (
        search_progress(player, f"{strategy} tree on {words(rules)}"),
        progress_bar(rules.size, f"{strategy} tree on {words(rules)}") as advance,
    ):
        root = strategy_tree(player, progress=advance, depth=depth)
    if save is not None:
        _write_tree(player, strategy, root, save)
    else:
        _print_tree(strategy, rules, root, fmt, depth)


def _check_save(save: str, depth: int | None) -> None:
    ctx = click.get_current_context()
    check_output(save, "--save")
    if depth is not None:
        fail("--save writes the whole tree: leave out --depth")
    if ctx.get_parameter_source("fmt") == click.core.ParameterSource.COMMANDLINE:
        fail("--save writes a tree file: leave out --format (it says how to print a tree)")


def _write_tree(player: Strategy, strategy: str, root: Node, save: str) -> None:
    """The tree as a tree file, or as --format json prints it where the name ends in .json (or
    .json.gz), and a line that sums it up."""
    from .. import TreeFile
    from ..research.evaluation import run_key
    from ..verify.files import write_file

    rules = player.rules
    key = run_key(player)
    info = {"strategy": strategy, "first": key["first"], "options": key["options"]}
    tree_file = TreeFile.of_tree(rules, root, **info)  # (also refuses a tree that loses a secret)
    as_json = save.lower().endswith((".json", ".json.gz"))
    try:
        if as_json:
            write_file(save, json.dumps(_tree_json(strategy, rules, root, None)) + "\n")
        else:
            tree_file.write(save)
    except OSError as err:
        fail(f"cannot write {save}: {err.strerror or err}")
    h = tree_file.header
    click.echo(
        f"{strategy} on {words(rules)}{given_words(h)}: total {h['total']:,} over {h['secrets']:,} "
        f"secrets (mean {h['total'] / h['secrets']:.4f}), at most {h['max']} guesses; "
        f"{h['nodes']:,} nodes written to {save}"
        + (" as JSON (as --format json prints them)" if as_json else "")
    )


def _tree_json(strategy: str, rules: Rules, root: Node, depth: int | None) -> dict:
    """The tree as nested objects: what --format json prints, and --save writes to a .json file."""
    return {
        "strategy": strategy,
        "pegs": rules.pegs,
        "colors": rules.colors,
        "repeats": rules.repeats,
        "max_guesses": rules.max_guesses,
        "blank": rules.blank,
        "tree": root.to_dict(game_notation(rules), depth),
    }


def _print_tree(strategy: str, rules: Rules, root: Node, fmt: str, depth: int | None) -> None:
    """The tree as an outline (text), nested objects (json) or a Graphviz graph (dot)."""
    notation = game_notation(rules)
    if fmt == "json":
        click.echo(json.dumps(_tree_json(strategy, rules, root, depth)))
    elif fmt == "dot":
        click.echo(root.to_dot(notation, depth, title=f"{strategy} on {words(rules)}"))
    else:
        reply = notation.terms.reply_form.lower()  # black,white or bulls,cows
        # (a guess that is the secret wins: that reply leaves no class, so the classes add up to one less)
        head = f"{strategy} on {words(rules)}: reply ({reply}): codes left -> next guess"
        click.echo(f"{head} (the winning reply left out)")
        click.echo(root.format(notation, depth))
