"""verify: a tree file replayed against every secret of its game, or a proof file checked."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import click

from ..core.rules import DEFAULT_MAX_GUESSES
from ..core.text import guess_count
from . import cli
from .common import fail, fail_as_json
from .console import color_option
from .game_options import game_options
from .run_options import executor_option, scheduler_option
from .runs import given_words, words

if TYPE_CHECKING:
    from ..core.rules import Rules
    from ..verify.parts import Parts
    from ..verify.tree import Replay, TreeFile


@cli.command()
@click.argument("tree_file", metavar="TREE_FILE")
@game_options
@click.option("--json", "as_json", is_flag=True, help="Print the result as a JSON object.")
@click.option(
    "--workers",
    type=click.IntRange(min=1, max=1024),
    metavar="N",
    help="Check a proof file on N processes [every core this process may use]; its subproofs are "
    "shared among them (a proof of 20,000 lines or more, on a system with fork: not Windows). With "
    "--executor dask and no --scheduler: the local cluster's worker processes.",
)
@executor_option("Where a proof file is checked: processes of this machine")
@scheduler_option
@click.option(
    "--part",
    metavar="I/N",
    callback=lambda ctx, param, value: _part(value),
    help="Check only part I of a proof file's check cut into N (or parts I to J: I-J/N, downwards "
    "if J is below I), so that several machines can share it: the proof holds once every part has "
    "passed, anywhere. Every machine cuts it alike, from the file alone; each part's verdict is "
    "printed as it passes (two machines taking 1-N/N and N-1/N meet where their speeds put them).",
)
@click.option(
    "--compact",
    metavar="OUT",
    help="Write the proof file in the compact format (version 3: its leaves left out, which the "
    "checker works out itself) to OUT (xz if OUT ends in .xz) instead of checking it; then check OUT.",
)
@color_option
def verify(
    tree_file: str,
    rules: Rules,
    as_json: bool,
    workers: int | None,
    part: Parts | None,
    compact: str | None,
    executor: str,
    scheduler: str | None,
) -> None:
    """Check a tree file: play its tree against every secret of its game (or a proof file).

    The replay uses the plain-Python scoring rule (nothing compiled), then checks what the
    file's header claims (the number of secrets, the total, the most guesses, the distribution)
    and prints the total, the mean, the most guesses and the distribution. Given game options,
    the file must be a tree of that game. Exit status 0 when every claim holds, 2 when the file
    cannot be read, is of another game, or its tree or a claim is wrong. A proof file (of a lower
    bound, written by 'evaluate --budget --proof', or that no tree is within some guesses, by
    'worst --proof') is recognised by its first line and checked node by node; with --json,
    "passed" says the nodes checked hold and "verified" that the whole claim does (a --part that
    passes is passed, not yet verified); a file that fails prints {"file", "passed": false,
    "verified": false, "error"} on stdout (with the error's line on stderr, exit status 2).
    A tree saved as JSON (tree --save NAME.json) is for reading: verify replays a tree file.

    \b
    Examples:
      mastermind tree -s knuth --save knuth.tree && mastermind verify knuth.tree
      mastermind verify results/5x6-optimal.tree.gz --pegs 5 --colors 6
      mastermind verify big.proof.gz --part 1-8/16     # half a long check; 9-16/16 elsewhere
      mastermind verify old.proof.gz --compact new.proof.xz && mastermind verify new.proof.xz
      mastermind verify big.proof.xz --executor dask --scheduler tcp://head:8786   # in parts, one task each
    """
    from .. import TreeFile, TreeFileError
    from ..verify.files import first_word
    from ..verify.proof import FORMAT as PROOF_FORMAT
    from ..verify.tree import FORMAT as TREE_FORMAT
    from ..verify.tree import VERSION as TREE_VERSION
    from .game_options import asked_game
    from .progress import count_bar

    if as_json:  # a file that fails its check is a result too: {"passed": false, ...}
        fail_as_json({"file": tree_file, "passed": False, "verified": False})
    if not tree_file.strip():
        fail("no file named: give the path of a tree file or a proof file")
    if scheduler is not None and executor != "dask":
        fail("--scheduler goes with --executor dask")
    if scheduler is not None and workers is not None:
        fail("a cluster given by --scheduler has its own workers: drop --workers")
    kind = first_word(tree_file)  # (None if it cannot be read: the tree file's reader says why)
    if kind == PROOF_FORMAT:  # a proof of a lower bound, or that no tree is within some guesses
        from .worst import compact_proof, verify_proof

        if compact is not None:
            if executor == "dask":
                fail("--compact rewrites the file here: not with --executor dask")
            return compact_proof(tree_file, compact)

        cluster = (scheduler, workers) if executor == "dask" else None
        return verify_proof(tree_file, rules, as_json, workers, part, cluster)
    if kind is not None and kind.startswith(("{", "[")):  # as `tree --format json` prints, or --save x.json
        fail(
            f"{tree_file}: a tree as JSON (for reading), not a tree file: verify replays a tree file, "
            "which 'mastermind tree --save NAME.tree' writes (a NAME not ending in .json)"
        )
    if kind not in (None, TREE_FORMAT):
        fail(
            f"{tree_file}: neither a tree file nor a proof file (they start with "
            f"'{TREE_FORMAT} {TREE_VERSION}' and '{PROOF_FORMAT} N')"
        )
    tree = TreeFile.read(tree_file)
    if compact is not None:
        fail(f"--compact rewrites a proof file; {tree_file} is a tree file")
    if executor == "dask":
        fail(f"--executor dask shares the check of a proof file; {tree_file} is a tree file, replayed here")
    if part is not None:
        fail(f"--part cuts the check of a proof file; {tree_file} is a tree file, replayed whole")
    asked = asked_game(tree.rules, rules)
    if asked != tree.rules:
        fail(f"{tree_file} is a tree of {_game_text(tree.rules)}, not of {_game_text(asked)}")
    with count_bar(tree.rules.size, f"replaying {tree_file}") as advance:
        try:
            result = tree.verify(advance)
        except TreeFileError as err:
            fail(f"{tree_file}: {err}")
    if as_json:
        click.echo(json.dumps(_verified_dict(tree_file, tree, result)))
        return
    _print_verified(tree, result)


def _verified_dict(tree_file: str, tree: TreeFile, result: Replay) -> dict[str, Any]:
    """What --json prints of a tree file that holds: its replay, and what its header adds."""
    h = tree.header
    given = h.get("first") if isinstance(h.get("first"), str) else None  # saved with --first
    out = {
        "file": tree_file,
        "game": h["game"],
        "strategy": h.get("strategy"),
        "first_guess": tree.first_guess,
        "secrets": result.secrets,
        "total": result.total,
        "mean": result.mean,
        "max": result.max,
        "distribution": {str(k): n for k, n in result.distribution.items()},
        "verified": True,
    }
    for key in ("exact", "lower_bound"):
        if key in h:
            out[key] = h[key]
    if given is not None:
        out["first_given"] = given
    return out


def _print_verified(tree: TreeFile, result: Replay) -> None:
    h = tree.header
    given = h.get("first") if isinstance(h.get("first"), str) else None  # saved with --first
    dist = "  ".join(f"{k}:{n}" for k, n in result.distribution.items())
    strategy = h.get("strategy") if isinstance(h.get("strategy"), str) else None
    who = "tree" if strategy is None else f"{strategy} tree"
    if strategy is not None and h.get("exact") is False:  # not (yet) the optimum
        who = f"best tree of the {strategy} search"
    game = _game_text(tree.rules) + given_words(h)
    click.echo(f"{who} of {game}: verified against each of its {result.secrets:,} secrets")
    tally = f"total {result.total:,}  mean {result.mean:.4f}  max {result.max}"
    click.echo(f"{tally}  first guess {tree.first_guess}")
    click.echo(f"distribution {dist}")
    if given and h.get("exact") is True:
        click.echo(f"the least total after the first guess {given}: another first guess may do better")
    if h.get("exact") is False:  # the best tree of a search stopped early or still running
        low = h.get("lower_bound")
        known = f"; the file says the least total is at least {low:,}" if isinstance(low, int) else ""
        click.echo(f"not proved optimal: written before the search had finished{known}")


def _part(value: str | None) -> Parts | None:
    from ..verify.parts import Parts

    if value is None:
        return None
    try:
        return Parts.parse(value)
    except ValueError as err:
        fail(f"--part: {err}")


def _game_text(rules: Rules) -> str:
    limit = f", at most {guess_count(rules.max_guesses)}" if rules.max_guesses != DEFAULT_MAX_GUESSES else ""
    return words(rules) + limit
