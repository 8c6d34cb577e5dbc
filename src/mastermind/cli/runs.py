"""What evaluate, compare and tree share: the strategy asked for, an evaluation run with its progress
drawn, its tree written, its statistics printed, and the notes before a long run."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from .common import fail, note_long_search
from .console import console_for, stderr_is_terminal
from .game_options import game_notation
from .progress import progress_bar, search_progress
from .run_options import (
    run_progress,
)

if TYPE_CHECKING:
    import numpy as np

    from ..core.rules import Rules
    from ..research.results import Stats
    from ..research.session import Session
    from ..strategies import Strategy
    from ..strategies.progress import OnProgress, Progress


#: What the seconds of a run whose tree was at hand measure (the search ran before, or elsewhere).
AT_HAND = "the tree was read from the cache, not searched"


#: Games with fewer codes than this are evaluated without an estimate (the calibration would cost more
#: than it saves); runs estimated at more seconds than LONG_RUN are announced, off a terminal (no
#: progress shown) those of more than FEW_SECONDS.
ESTIMATE_FROM, LONG_RUN, FEW_SECONDS = 100_000, 60, 5


#: The way out of a long optimal evaluation.
BUDGET_WAY_OUT = (
    "with --budget DURATION it stops then and reports bounds on the optimum and its best tree; a "
    "heuristic strategy takes seconds; "
)


def words(rules: Rules) -> str:
    """The game in its own words (Bulls and Cows speaks of digits), as every output names it."""
    return game_notation(rules).describe_game()


def rules_dict(rules: Rules) -> dict[str, object]:
    from ..core.records import rules_to_dict

    return rules_to_dict(rules)


def given_words(header: dict) -> str:
    """The words for a tree file saved with its first guess given (--first): ", first guess X given"."""
    return f", first guess {header['first']} given" if isinstance(header.get("first"), str) else ""


def make_player(
    name: str, rules: Rules, first: str | None, no_tables: bool, no_cache: bool = False
) -> Strategy:
    """The strategy asked for; --no-tables and --no-cache are refused, named as typed, by a
    strategy without colour tables or without a cache (the registry says which have them)."""
    from .. import strategies as registry
    from ..strategies import find_strategy, make_strategy

    options = {}
    for flag, option, refusal in (
        (no_tables, "tables", "--no-tables turns off the colour tables of {having}: {name} has none"),
        (
            no_cache,
            "cache",
            "--no-cache searches again instead of reading the cache of {having}: {name} keeps none",
        ),
    ):
        if not flag:
            continue
        if option not in find_strategy(name).options:
            having = " and ".join(cls.name for cls in registry.STRATEGIES if option in cls.options)
            fail(refusal.format(having=having, name=name))
        options[option] = False
    return make_strategy(name, rules, first=first, **options)


def run_evaluation(
    session: Session,
    player: Strategy,
    secrets: np.ndarray | None,
    seed: int | None,
    label: str,
    save: str | None = None,
) -> Stats:
    """One evaluation by the session, its progress drawn: the runner's stages for a whole tree,
    else the secrets played (and a strategy's own search, as it goes). With ``save``, the best
    tree that a search cut into pieces has found is written there each time it improves (not
    proved optimal: the whole tree is written again when the run ends)."""
    if session.whole_tree(player, secrets):
        with run_progress(label) as show:
            return session.evaluate(player, progress=keeping_best(player, save, show))
    total = player.space.size if secrets is None else len(secrets)
    with search_progress(player, label), progress_bar(total, label) as advance:
        return session.evaluate(player, secrets, seed=seed, progress=advance)


def keeping_best(player: Strategy, save: str | None, show: OnProgress | None) -> OnProgress | None:
    """``show``, and with ``save`` the best tree a search reports written there as it improves."""
    from ..strategies.capabilities import tree_search

    if save is None or tree_search(player) is None:
        return show
    written: int | None = None  # the total of the tree written last

    def report(status: Progress) -> None:
        nonlocal written
        # a lower total only (a tie found later is not written: the end writes the optimum)
        if status.tree is not None and status.best is not None and (written is None or status.best < written):
            save_tree(player, save, exact=False, flat=status.tree, midway=True)
            written = status.best
        if show is not None:
            show(status)

    return report


def save_tree(
    player: Strategy,
    path: str,
    exact: bool,
    lower: int | None = None,
    flat: np.ndarray | None = None,
    midway: bool = False,
) -> None:
    """Write the player's whole tree (or the tree ``flat`` its search found) as a tree file; the
    tree of a search says whether it is ``exact`` (proved the least total) and its ``lower``
    bound. A file that cannot be written is an error (exit 2), but ``midway`` through a search
    (its best tree so far): then a note, and the search goes on (the file is written again as it
    improves, and at the end)."""
    from .. import Node, TreeFile
    from ..research.evaluation import run_key, strategy_tree
    from ..strategies.capabilities import tree_search

    key = run_key(player)
    info: dict = {"strategy": player.name, "first": key["first"], "options": key["options"]}
    if tree_search(player) is not None:
        info |= {"exact": exact, **({} if lower is None else {"lower_bound": lower})}
    if flat is not None:
        from ..strategies.optimal.search import parse

        root: Node = parse(flat)
    else:
        root = strategy_tree(player)
    tree = TreeFile.of_tree(player.rules, root, **info)
    try:
        tree.write(path)
    except OSError as err:
        if not midway:
            fail(f"cannot write {path}: {err.strerror or err}")
        click.echo(
            f"mastermind: note: cannot write the best tree so far to {path} ({err.strerror or err}); "
            "the search goes on",
            err=True,
        )


def whole_sample(rules: Rules, sample: int | None) -> int | None:
    """``sample``, or None where it asks for as many secrets as the game has, or more (said on
    stderr): every secret is played, none drawn, as the whole run without --sample (one walk of
    the tree, found in the history as that run). A game too large to list keeps its sample,
    which is refused as too large to hold."""
    from ..core.code import ENUMERATION_LIMIT

    if sample is None or sample < rules.size or rules.size > ENUMERATION_LIMIT:
        return sample
    click.echo(
        f"mastermind: note: a sample of {sample:,} covers every secret: all {rules.size:,} secrets "
        f"of {words(rules)} are played",
        err=True,
    )
    return None


def warn_if_long(player: Strategy) -> None:
    """Before a long evaluation, say on stderr about how long it will take, and how to stop it:
    an exact search that is not quick, or a whole tree estimated at LONG_RUN seconds or more (off
    a terminal, where no progress is shown until the end, FEW_SECONDS)."""
    from ..core.text import duration
    from ..research.evaluation import estimate_seconds
    from ..strategies.capabilities import tree_search

    way_out = (
        BUDGET_WAY_OUT if tree_search(player) is not None else "a criterion such as entropy takes seconds; "
    )
    if note_long_search(player, None, way_out, resumes=True):
        return
    if player.space.size < ESTIMATE_FROM:
        return
    seconds = estimate_seconds(player)
    shown = stderr_is_terminal()
    if seconds is not None and seconds >= (LONG_RUN if shown else FEW_SECONDS):
        click.echo(
            f"mastermind: note: {player.name} on {player.space.size:,} codes: roughly {duration(seconds)} on "
            "this machine (scaled from a small game timed just now: an order of magnitude); "
            "Ctrl-C stops, and the same command again resumes",
            err=True,
        )


def draw(stats: list[Stats], path: str, log: bool) -> None:
    from ..research.plot import plot_distributions

    written = plot_distributions(stats, path, log=log)
    click.echo(f"chart written to {written}", err=True)


def first_text(stats: Stats) -> str:
    first = stats.first_guess
    return "random" if first is None else game_notation(stats.rules).format_code(first)


def print_stats(stats: Stats, stderr: bool = False) -> None:
    from rich.table import Table

    console = console_for(stderr=stderr)
    rules = stats.rules
    title = f"{stats.strategy} on {words(rules)} ({stats.codes:,} codes)"
    table = Table(title=title, show_header=False, title_justify="left")
    table.add_column(style="bold")
    table.add_column()
    table.add_row("first guess", first_text(stats))
    table.add_row("total guesses", f"{stats.total:,}")
    table.add_row("mean", f"{stats.mean:.4f}")
    table.add_row("max", str(stats.max))
    dist = "  ".join(f"{k}:{n}" for k, n in stats.distribution.items())
    table.add_row("distribution", dist)
    table.add_row(f"lost (> {rules.max_guesses})", str(stats.lost))
    table.add_row("seconds", f"{stats.seconds:.3f}" + (f" ({AT_HAND})" if stats.tree_at_hand else ""))
    if stats.seed is not None and not stats.sample:
        table.add_row("seed", f"{stats.seed} (repeat with --seed {stats.seed})")
    if stats.sample:
        table.add_row(
            "note",
            f"a random sample of {stats.games:,} of the {stats.codes:,} secrets"
            + (f" (seed {stats.seed})" if stats.seed is not None else ""),
        )
    console.print(table)
