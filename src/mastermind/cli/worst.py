"""worst: the least number of guesses that always suffices, with a tree and a checkable proof."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ..core.text import guess_count, plural
from . import cli
from .common import fail
from .console import color_option, console_for
from .files import check_output
from .game_options import asked_game, game_options
from .run_options import executor_in_use

if TYPE_CHECKING:
    from ..core.rules import Rules
    from ..research.runner import DaskExecutor
    from ..strategies.optimal.worst import Decision
    from ..verify.check import Checked, ProofHead
    from ..verify.parts import Parts
    from ..verify.tree import TreeNode


@cli.command("worst")
@game_options
@click.option(
    "--save",
    metavar="TREE",
    help="Write the tree that finds every secret within the least number of guesses (or within "
    "--max-guesses) as a tree file ('mastermind verify' checks it).",
)
@click.option(
    "--proof",
    metavar="FILE",
    help="Write the proof that one guess fewer (or --max-guesses) does not suffice as a proof file "
    "('mastermind verify' checks it; gzip-compressed if FILE ends in .gz).",
)
@click.option(
    "--seed",
    metavar="TREE",
    help="A tree file of the same game (from 'tree --save' or 'evaluate --save'): its subtrees "
    "are kept where they fit within the limit and its guesses tried first, which can make a yes "
    "far quicker (a no is searched as without it).",
)
@click.option(
    "--workers",
    type=click.IntRange(min=1, max=1024),
    default=1,
    metavar="N",
    help="Worker processes [1: the search in this process]. With N > 1 the sets two guesses "
    "down (and every small set) are handed to N processes, the cells of a guess decided at once.",
)
@click.option(
    "--width",
    type=click.IntRange(min=1),
    metavar="W",
    help="Try at most W guesses at each set (the first in the search's order; the seed's "
    "besides): a far quicker search for a yes, whose no proves nothing. Needs --max-guesses.",
)
@click.option(
    "--checkpoint",
    metavar="FILE",
    help="Record every set of more than 200 secrets decided (with its tree or proof) in FILE as the "
    "search goes; the same command run again takes them from it, so a stopped or killed run "
    "resumes. Runs the search on worker processes (--workers, 1 by default then).",
)
@click.option(
    "--first",
    "firsts",
    metavar="CODES",
    help="Ask only whether a tree within --max-guesses begins with one of these first guesses "
    "(comma-separated, e.g. 11111,11112): a tree beginning with the first that can, or a proof "
    "that none can (--proof), a step toward the whole game's answer.",
)
@click.option(
    "--join",
    "joins",
    metavar="PROOF",
    multiple=True,
    help="Instead of searching, join proofs written with --first (on other machines, say) into "
    "the one written by --proof: a proof on the whole game once they refute every first guess "
    "up to symmetry. Repeat it for each file.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@color_option
def worst(
    rules: Rules,
    save: str | None,
    proof: str | None,
    seed: str | None,
    workers: int,
    width: int | None,
    checkpoint: str | None,
    firsts: str | None,
    joins: tuple[str, ...],
    as_json: bool,
) -> None:
    """The worst case: the least number of guesses that always finds the secret.

    A decision search ("can every secret be found within D guesses, the winning guess
    counted?") answers yes with a tree and no with a proof that 'mastermind verify' replays in
    plain Python. Without --max-guesses it finds the least D that works (a tree) and proves that
    D - 1 does not; with --max-guesses D it answers for D alone. The least total among trees of
    at most D guesses is 'mastermind evaluate -s optimal --max-guesses D'.

    \b
    Examples:
      mastermind worst                                   # classic: 5 (Knuth 1977); 4 cannot
      mastermind worst -p 5 -c 6 --save 5x6.tree.gz --proof 5x6-not5.proof.gz
      mastermind worst -p 5 -c 8 --max-guesses 6 --json  # does every 5x8 code fall in 6?
      mastermind worst -p 5 -c 8 --max-guesses 6 --seed 5x8-rollout.tree.gz   # from a good tree
      mastermind worst -p 4 -c 9 --max-guesses 6 --workers 16  # on 16 processes
      mastermind worst -p 5 -c 8 --max-guesses 6 --width 20   # a quick look for a yes only
      mastermind worst -p 5 -c 8 --max-guesses 6 --workers 16 --checkpoint 5x8.jsonl   # resumable
      mastermind worst -p 5 -c 8 --max-guesses 6 --first 11111,11112 --proof no-11111.proof.gz
      mastermind worst -p 5 -c 8 --join no-11111.proof.gz --join no-11123.proof.gz --proof no6.proof.gz
      mastermind verify 5x6-not5.proof.gz                # the proof, checked in plain Python
    """
    limit = rules.max_guesses if _given("max_guesses") else None
    if joins:
        _join(joins, rules, limit, proof, as_json)
        return
    _refuse_unanswerable(limit, width, proof, firsts)
    first = None if firsts is None else _codes(firsts, rules)
    for path, what in ((save, "--save"), (proof, "--proof"), (checkpoint, "--checkpoint")):
        if path is not None:
            check_output(path, what)
    root = None if seed is None else _seed(seed, rules)
    started = time.monotonic()
    best, below, decisions = _search(rules, limit, root, first, workers, width, checkpoint)
    seconds = time.monotonic() - started
    if save is not None and best is not None and best.tree is not None:
        _write(best.tree.write, save, "--save")
    elif save is not None:
        click.echo(f"mastermind: note: no tree was found, so none is written to {save}", err=True)
    if proof is not None and below is not None and below.proof is not None:
        _write(below.proof.write, proof, "--proof")
    elif proof is not None:
        click.echo(
            f"mastermind: note: no limit was proved impossible, so no proof is written to {proof}", err=True
        )
    _report(rules, limit, best, below, decisions, seconds, save, proof, width, as_json, firsts)


def _refuse_unanswerable(limit: int | None, width: int | None, proof: str | None, firsts: str | None) -> None:
    """Refuse the options that ask what the search cannot answer."""
    if width is not None and limit is None:
        fail("--width needs --max-guesses: with some guesses left untried, a no proves nothing")
    if width is not None and proof is not None:
        fail("--width writes no proof: with some guesses left untried, a no proves nothing")
    if firsts is not None and limit is None:
        fail("--first asks whether a tree within --max-guesses begins with these guesses: give --max-guesses")


def _search(
    rules: Rules,
    limit: int | None,
    root: TreeNode | None,
    first: list[int] | None,
    workers: int,
    width: int | None,
    checkpoint: str | None,
) -> tuple[Decision | None, Decision | None, list[Decision]]:
    """The decision search, under a progress bar: the tree found (within ``limit``, or the least
    number of guesses), the limit proved impossible, and every decision made."""
    from ..strategies.optimal.worst import WorstSearch
    from ..strategies.optimal.worst_in_pieces import WorstSearchInPieces

    decisions: list[Decision] = []
    game = rules.short_name(limit=False)
    with fraction_bar(f"worst case of {game}") as bar:
        searching: list[WorstSearch] = []

        def advance(fraction: float) -> None:
            if bar is not None and searching:
                bar(fraction, f"{game}: within {searching[0].limit} guesses?")

        report = advance if bar is not None else None
        search: WorstSearch
        if workers > 1 or checkpoint is not None:
            split = WorstSearchInPieces(rules, workers, progress=report, width=width, checkpoint=checkpoint)
            search = split
            if split.resumed:
                sets = f"{split.resumed:,} set{'s' * (split.resumed != 1)}"
                click.echo(f"resuming from {checkpoint}: {sets} decided", err=True)
        else:
            search = WorstSearch(rules, report, width=width)
        searching.append(search)
        if limit is None:
            best, below = search.least(decisions.append, root)
            return best, below, decisions
        found = search.decide(limit, root, first)
        decisions.append(found)
        return (found, None, decisions) if found.possible else (None, found, decisions)


def _report(
    rules: Rules,
    limit: int | None,
    best: Decision | None,
    below: Decision | None,
    decisions: list[Decision],
    seconds: float,
    save: str | None,
    proof: str | None,
    width: int | None,
    as_json: bool,
    firsts: str | None = None,
) -> None:
    """Say what the search found: one JSON object (``as_json``), or a line for each answer."""
    from ..verify.files import code_text

    if as_json:
        figures = _figures(rules, limit, best, below, decisions, seconds, save, proof, width, firsts)
        click.echo(json.dumps(figures))
        return
    game = rules.describe()
    # with --first, the answer is about trees beginning with those guesses
    starting = "" if firsts is None else f" beginning with {_listed(firsts.split(','))}"
    if best is not None and best.tree is not None:
        h = best.tree.header
        lead = (
            f"{best.guesses} guesses always suffice"
            if limit is None
            else f"yes: within {guess_count(best.guesses)}"
        )
        if firsts is not None:
            lead += f", beginning with {code_text(rules, best.tree.root.guess)}"
        click.echo(
            f"{game}: {lead} (a tree: total {h['total']:,}, mean {h['total'] / h['secrets']:.4f}, "
            f"max {h['max']}{_where(save)})"
        )
    if below is not None and below.proof is not None:
        nodes = below.proof.header["nodes"]
        why = "counting alone" if _counted(below) else f"a proof of {plural(nodes, 'node')}"
        click.echo(
            f"{game}: no tree finds every secret within {guess_count(below.guesses)}{starting} ({why}"
            f"{_where(proof)})"
        )
    if width is not None and best is None:
        click.echo(
            f"{game}: no tree within {guess_count(limit or 0)} found trying {width} guesses at "
            "each set (not a proof: the other guesses were not tried)"
        )
    if limit is None and best is not None:
        click.echo(f"least number of guesses that always suffices: {best.guesses}")
    searched = sum(d.nodes for d in decisions)
    click.echo(f"searched {searched:,} set{'s' * (searched != 1)} in {seconds:.1f} s")


def _figures(
    rules: Rules,
    limit: int | None,
    best: Decision | None,
    below: Decision | None,
    decisions: list[Decision],
    seconds: float,
    save: str | None,
    proof: str | None,
    width: int | None,
    firsts: str | None,
) -> dict[str, Any]:
    """What the search found, for --json."""
    out: dict[str, Any] = {
        "game": {"pegs": rules.pegs, "colors": rules.colors, "repeats": rules.repeats, "blank": rules.blank},
        "secrets": rules.size,
    }
    if limit is not None:
        out["max_guesses"] = limit
        out["possible"] = True if best is not None else (None if width is not None else False)
    if firsts is not None:
        out["first"] = firsts.split(",")
    if width is not None:
        out["width"] = width
    if best is not None and best.tree is not None:
        h = best.tree.header
        if limit is None:
            out["least"] = best.guesses
        out["tree"] = {
            "guesses": best.guesses,
            "total": h["total"],
            "max": h["max"],
            "nodes": h["nodes"],
            "file": save,
        }
    if below is not None and below.proof is not None:
        out["proof"] = {
            "guesses": below.guesses,
            "nodes": below.proof.header["nodes"],
            "file": proof,
            "counting_alone": _counted(below),
        }
    out["searched"] = [
        {
            "guesses": d.guesses,
            "possible": d.possible if d.possible or width is None else None,
            "nodes": d.nodes,
        }
        for d in decisions
    ]
    out["seconds"] = round(seconds, 3)
    return out


def _join(paths: tuple[str, ...], rules: Rules, limit: int | None, out: str | None, as_json: bool) -> None:
    """--join: the proofs on first guesses at ``paths``, joined into ``out`` (see
    :func:`mastermind.verify.proof.join`); the game and limit, where given, must be theirs."""
    from ..errors import ProofError
    from ..verify.proof import ProofFile, join

    if out is None:
        fail("--join writes the joined proof to the file given by --proof: give --proof")
    check_output(out, "--proof")
    try:
        joined = join((path, ProofFile.read(path)) for path in paths)
    except ProofError as err:
        fail(f"--join: {err}")
    theirs = joined.rules
    if asked_game(theirs, rules).describe() != theirs.describe():  # (the limit is checked next)
        fail(f"--join: the proofs are about {theirs.describe()}, not {rules.describe()}")
    if limit is not None and limit != joined.guesses:
        fail(f"--join: the proofs are about {joined.guesses} guesses, not --max-guesses {limit}")
    _write(joined.write, out, "--proof")
    nodes, first = joined.header["nodes"], joined.header.get("first")
    if as_json:
        click.echo(
            json.dumps(
                {
                    "game": joined.header["game"],
                    "guesses": joined.guesses,
                    "first": first,
                    "joined": len(paths),
                    "nodes": nodes,
                    "file": out,
                }
            )
        )
        return
    starting = "" if first is None else f" beginning with {_listed(first)}"
    proofs, size = plural(len(paths), "proof"), plural(nodes, "node")
    click.echo(
        f"{theirs.describe()}: {proofs} joined: no tree finds every secret within "
        f"{guess_count(joined.guesses)}{starting} (a proof of {size}; written to {out}; "
        f"'mastermind verify {out}' checks it)"
    )


def _codes(text: str, rules: Rules) -> list[int]:
    """The codes of a comma-separated list (as the game writes them), as code indices; a code
    that is not one of the game's, or one given twice, is one line and exit 2."""
    from ..core.code import CodeSpace
    from ..core.notation import Notation

    notation, space, out = Notation(rules), CodeSpace.of(rules), []
    for word in text.split(","):
        try:
            code = space.index(notation.parse_code(word).colors)
        except ValueError as err:
            fail(f"--first: {err}")
        if code in out:
            fail(f"--first: {word.strip()} is given twice")
        out.append(code)
    return out


def _listed(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def _counted(below: Decision) -> bool:
    """Whether the proof is counting alone at the root (no guess needed refuting)."""
    return below.proof is not None and below.proof.root.kind == "count"


def _where(path: str | None) -> str:
    return f"; written to {path}" if path else ""


def _given(name: str) -> bool:
    ctx = click.get_current_context()
    return ctx.get_parameter_source(name) not in (None, click.core.ParameterSource.DEFAULT)


def _seed(path: str, rules: Rules) -> TreeNode:
    """The root of the tree file at ``path``, checked to be a tree of this game that finds every
    secret (replayed in plain Python: seconds on the largest games)."""
    from ..errors import StrategyError, TreeFileError
    from ..strategies.optimal.worst import seed_of
    from ..verify.tree import TreeFile

    try:
        tree = TreeFile.read(path)  # its errors name the file
    except TreeFileError as err:
        fail(f"--seed: {err}")
    try:
        return seed_of(tree, rules)
    except (TreeFileError, StrategyError) as err:
        fail(f"--seed: {path}: {err}")


def _write(write: Callable[[str], None], path: str, option: str) -> None:
    try:
        write(path)
    except OSError as err:
        fail(f"{option}: cannot write {path}: {err.strerror or err}")


@contextmanager
def fraction_bar(label: str) -> Iterator[Callable[[float, str], None] | None]:
    """A progress bar of a fraction done (per thousand), on stderr when it is a terminal; yields
    the callback that moves it, given the fraction and the label to show."""
    from .progress import live_note, progress_display, progress_note

    console = console_for(stderr=True)
    if not console.is_terminal:
        yield None
        return
    with progress_display(console) as bar, live_note(progress_note(bar)):
        task = bar.add_task(label, total=1000)
        yield lambda fraction, text: bar.update(task, completed=int(1000 * fraction), description=text)


def compact_proof(path: str, out: str) -> None:
    """``mastermind verify PROOF --compact OUT``: the proof written in the compact format."""
    from ..errors import ProofError
    from ..verify.check import compact_file

    check_output(out, "--compact")
    try:
        nodes = compact_file(path, out)
    except ProofError as err:
        fail(str(err))
    size = Path(out).stat().st_size
    click.echo(
        f"{path} written to {out} in the compact format: {nodes:,} lines, {size:,} bytes (not checked yet)"
    )


def verify_proof(
    path: str,
    rules: Rules,
    as_json: bool,
    workers: int | None = None,
    parts: Parts | None = None,
    cluster: tuple[str | None, int | None] | None = None,
) -> None:
    """``mastermind verify`` given a proof file: check it in plain Python (on ``workers``
    processes, every usable core if None; or in parts on a Dask ``cluster``: its scheduler's
    address, or None and the worker processes of a local one), or only some ``parts`` of its
    check (each said as it passes), and say what it proves."""
    found, checked_nodes = _proof_head(path, rules, parts)
    executor = None if cluster is None else _dask(*cluster)
    with contextlib.nullcontext() if executor is None else executor_in_use(executor):
        if executor is not None and parts is None:
            from ..research.runner.proofs import whole_check

            parts = whole_check(executor)  # (every part: the nodes are those counted above)
        checked = _checked(path, found, checked_nodes, parts, as_json, workers, executor)
    claim, figure = _proved(found.rules, checked)
    if parts is not None:
        figure["part"] = parts.text()
    if as_json:
        said = {"file": path, "kind": "proof", "game": found.header["game"], **figure}
        # passed: every node checked here holds; verified: the claim is proved (all parts checked)
        checks = {"nodes": checked.nodes, "passed": True, "verified": checked.whole}
        click.echo(json.dumps({**said, **checks, "claim": claim}))
        return
    nodes = plural(checked.nodes, "node")
    if parts is None or checked.whole:
        click.echo(f"proof checked ({nodes}, plain Python): {claim}")
        return
    others = " and ".join(f"--part {rest.text()}" for rest in parts.others())
    click.echo(
        f"parts {parts.text()} of the proof checked ({nodes}, plain Python): once the others pass too "
        f"({others}, on any machine), it proves that {claim}"
    )


def _checked(
    path: str,
    found: ProofHead,
    nodes: int,
    parts: Parts | None,
    as_json: bool,
    workers: int | None,
    executor: DaskExecutor | None,
) -> Checked:
    """The check of :func:`verify_proof`, with its progress bar, each part said as it passes;
    refused (status 2) at the first claim that does not hold."""
    from ..errors import ProofError
    from ..strategies.piece_control import usable_cores
    from ..verify.check import check_file
    from .progress import count_bar

    began = time.monotonic()

    def passed(part: int, lines: int) -> None:
        if not as_json:
            spent = int(time.monotonic() - began)
            click.echo(
                f"part {part} of {parts.count if parts else 1} checked ({plural(lines, 'node')} of its own; "
                f"{spent // 60} min {spent % 60} s in)"
            )

    with count_bar(nodes, f"checking {path}") as advance:
        try:
            if executor is None:
                return check_file(path, advance, workers or usable_cores(), found, parts, passed)
            from ..research.runner.proofs import check_on

            assert parts is not None
            return check_on(executor, found, parts, advance, passed)
        except ProofError as err:
            fail(str(err))


def _dask(address: str | None, workers: int | None) -> DaskExecutor:
    """The Dask executor asked for (not started yet); refused (status 2) if Dask is missing."""
    from ..errors import ExecutorError
    from ..research.runner import DaskExecutor

    try:
        DaskExecutor.require()
        return DaskExecutor(address, workers)
    except ExecutorError as err:
        fail(str(err))


def _proof_head(path: str, rules: Rules, parts: Parts | None) -> tuple[ProofHead, int]:
    """The proof file read through once (its header and nodes), and the nodes the check of these
    ``parts`` checks; refused (status 2) if it is damaged, or about another game than the one
    asked."""
    from ..errors import ProofError
    from ..verify.check import scan

    try:
        found = scan(path)
        checked_nodes = found.nodes_checked(parts)  # (with parts: a pass to find the cut)
    except ProofError as err:
        fail(str(err))
    # a claim on guesses is about trees within them; one on the total, within its game's limit
    theirs = dataclasses.replace(
        found.rules, max_guesses=found.header.get("guesses") or found.within or found.rules.max_guesses
    )
    asked = asked_game(theirs, rules)
    if asked != theirs:
        fail(
            f"{path} is a proof about {theirs.describe()}, within {guess_count(theirs.max_guesses)}, not "
            f"{asked.describe()}, within {guess_count(asked.max_guesses)}"
        )
    return found, checked_nodes


def _proved(rules: Rules, checked: Checked) -> tuple[str, dict[str, object]]:
    """What a checked proof proves, in words and as figures for --json."""
    if checked.claim == "total" and checked.vacuous:  # (every first guess refuted)
        claim = (
            f"no tree for {rules.describe()} finds every secret within {guess_count(checked.guesses)} "
            f"(every first guess is refuted), so the total claimed, {checked.total:,}, holds of none"
        )
        return claim, {"total": checked.total, "within": checked.guesses, "no_tree": True}
    if checked.claim == "total" and checked.guesses:  # (within a guess limit)
        claim = (
            f"every tree for {rules.describe()} that finds every secret within "
            f"{guess_count(checked.guesses)} takes at least {checked.total:,} guesses in all"
        )
        return claim, {"total": checked.total, "within": checked.guesses}
    if checked.claim == "total":
        claim = f"every tree for {rules.describe()} takes at least {checked.total:,} guesses in all"
        return claim, {"total": checked.total}
    claim = f"no tree finds every secret of {rules.describe()} within {guess_count(checked.guesses)}"
    figure: dict[str, object] = {"guesses": checked.guesses}
    if checked.first:
        claim += f" beginning with {_listed(list(checked.first))}"
        figure["first"] = list(checked.first)
    return claim, figure
