"""evaluate --budget: a strategy's own search of its whole tree bounded in time (the optimal
strategy's), as the command shows it, and the proof file of a lower bound.

The search itself, its checkpoint and Ctrl-C are the library's
(:func:`mastermind.research.bounded.search_within`); this module draws its progress, writes its
trees and prints what it proved.
"""

from __future__ import annotations

import contextlib
import json
import sys
from typing import TYPE_CHECKING, Any

import click

from ..core.text import guess_count
from . import runs
from .common import fail
from .console import console_for
from .game_options import game_notation
from .progress import LogLines
from .run_options import executor_in_use, save_run, taken_from_history
from .runs import print_stats, rules_dict, words

if TYPE_CHECKING:
    import numpy as np

    from ..research.bounded import BoundedSearch, Bounds, ProvedBound
    from ..research.results import Stats
    from ..research.session import Session
    from ..strategies import Strategy
    from ..strategies.capabilities import TreeSearch
    from ..strategies.optimal.lower import LowerBound


def evaluate_bounded(
    player: Strategy,
    search: TreeSearch,
    seconds: float,
    save: str | None,
    as_json: bool,
    session: Session,
    proof: str | None = None,
    piece_size: int | None = None,
) -> None:
    """The player's own search (``search``) for at most ``seconds``: the optimum if it finishes
    (as a normal evaluation), else a proven lower bound, the best tree and the gap. Ctrl-C stops
    it the same way (the best tree written), then exits with status 130. With ``proof``, a proof
    file of a lower bound is written after the search (:func:`_prove_lower`); ``piece_size``
    (--unit-size): the largest set searched in one compiled call."""
    from ..research.bounded import evaluate_searched

    rules = player.rules
    stats = session.stored(player, None, None, drawn=False)
    searched: float | None = None  # the seconds of a search run here that found the optimum
    if stats is not None:
        taken_from_history(session, stats, f"{player.name} on {words(rules)}")
    if stats is None and search.known_tree() is None:
        # What the search finishes is checkpointed (a default file if none is named), so that
        # the same command again starts from it and narrows the bounds.
        outcome = _search_shown(player, search, seconds, save, session, piece_size)
        if not outcome.bounds.complete or outcome.interrupted:
            _stopped(player, outcome, seconds, save, as_json, proof)
            return
        if save is not None and outcome.bounds.flat is not None:
            _save_best(player, outcome.bounds, save)
        searched = outcome.seconds
    elif save is not None:
        runs.save_tree(player, save, exact=True, flat=None)
    if stats is None:
        stats = evaluate_searched(player, searched)
        save_run(session, player, stats, None, None)
    _print_exact(player, stats, session, as_json, proof, seconds)


def _search_shown(
    player: Strategy,
    search: TreeSearch,
    seconds: float,
    save: str | None,
    session: Session,
    piece_size: int | None,
) -> BoundedSearch:
    """The search within ``seconds``, its bounds shown as they improve (on a terminal, one line
    written over; off one, a line a minute in the run's log), its best tree written to ``save``
    as it improves."""
    from ..research.bounded import search_within

    label = f"{player.name} on {player.rules.short_name()}"
    shown = console_for(stderr=True)

    def bounds_words(lower: int, upper: int | None) -> str:
        return f"lower bound {lower:,}, best tree {'none yet' if upper is None else f'{upper:,}'}"

    log = LogLines(label, bounds_words)

    def on_better(lower: int, upper: int | None, _: object) -> None:
        if shown.is_terminal:
            click.echo(f"\r{label}: {bounds_words(lower, upper)}   ", err=True, nl=False)
        else:
            log(lower, upper)

    def on_tree(lower: int, upper: int | None, flat: np.ndarray | None) -> None:
        if save is not None and flat is not None:
            runs.save_tree(player, save, exact=lower == upper, lower=lower, flat=flat, midway=True)

    try:
        return search_within(
            session, player, search, seconds, on_better=on_better, on_tree=on_tree, piece_size=piece_size
        )
    finally:
        if shown.is_terminal:
            click.echo("", err=True)


def _stopped(
    player: Strategy,
    outcome: BoundedSearch,
    seconds: float,
    save: str | None,
    as_json: bool,
    proof: str | None,
) -> None:
    """A search that stopped before its end (its budget spent, or Ctrl-C): the proof file of a
    lower bound where one is asked for (not after Ctrl-C), the best tree written, the bounds
    printed; Ctrl-C exits with status 130."""
    from ..core.text import duration

    found, proved = outcome.bounds, None
    if proof is not None and not outcome.interrupted:
        # aimed at the best tree: a proof that reaches it proves that tree optimal
        proved = _prove_lower(player, found.upper, proof, seconds)
        found = found.raised(proved.found.total)
    if outcome.kept is not None:
        click.echo(
            f"what the search finished is kept in {outcome.kept}: the same command resumes from it", err=True
        )
    if save is not None and found.flat is not None:
        _save_best(player, found, save)
    if outcome.interrupted:
        _print_bounds(player, found, outcome.seconds, as_json, "interrupted")
        click.echo("mastermind: interrupted", err=True)
        sys.exit(130)
    _print_bounds(
        player, found, outcome.seconds, as_json, f"stopped after {duration(seconds)}", proved, proof
    )
    if proved is not None and proved.stopped:
        click.echo("mastermind: interrupted", err=True)
        sys.exit(130)


def _save_best(player: Strategy, found: Bounds, save: str) -> None:
    runs.save_tree(player, save, exact=found.exact, lower=found.lower, flat=found.flat)
    click.echo(f"best tree written to {save}", err=True)


def _print_exact(
    player: Strategy, stats: Stats, session: Session, as_json: bool, proof: str | None, seconds: float
) -> None:
    """The optimum found (or at hand), with the proof file of it where one is asked for (a proof
    cut short by Ctrl-C exits with status 130, after the result)."""
    proved = None if proof is None else _prove_lower(player, stats.total, proof, seconds, True, session)
    if as_json:
        out = session.to_dict(stats, game_notation(player.rules))
        out |= {"lower_bound": stats.total, "upper_bound": stats.total, "exact": True}
        if proved is not None and proof is not None:
            out["proof"] = _proof_dict(proved.found, proof)
        click.echo(json.dumps(out))
    else:
        print_stats(stats)
        click.echo(f"exact: the least total, proved (lower bound = upper bound = {stats.total:,})")
        if proved is not None and proof is not None:
            click.echo(f"proof file: {_proof_text(proved.found, proof)}")
    if proved is not None and proved.stopped:
        click.echo("mastermind: interrupted", err=True)
        sys.exit(130)


def _prove_lower(
    player: Strategy,
    target: int | None,
    path: str,
    seconds: float,
    exact: bool = False,
    session: Session | None = None,
) -> ProvedBound:
    """A proof file of a lower bound on the least total, raised toward ``target`` (the best tree
    found, or, ``exact``, the optimum: the proof is then guided by the exact search) for at most
    ``seconds``, written to ``path`` (see :func:`mastermind.research.bounded.prove_lower`), its
    progress shown; a guided proof on the ``session``'s Dask cluster where it has one."""
    import time

    from ..research.bounded import proof_journal, prove_lower

    shown = console_for(stderr=True)
    began = time.monotonic()
    aim = "" if target is None else f" of {target:,}"
    # (off a terminal, a line a minute in the log: a guided proof of a large game runs for hours)
    log = LogLines("proof of a lower bound", lambda bound: f"{bound:,}{aim}")

    def on_progress(bound: int, goal: int | None) -> None:
        if not shown.is_terminal:
            log(bound)
            return
        minutes, secs = divmod(int(time.monotonic() - began), 60)
        line = f"proof of a lower bound: {bound:,}{aim} ({minutes}:{secs:02d})"
        click.echo(f"\r{line}   ", err=True, nl=False)

    journal = proof_journal(path)
    if exact and target is not None and journal.exists():
        click.echo(f"resuming the proof from {journal}", err=True)
    try:
        try:
            executor = None if session is None or not exact else session.executor
            executor = executor if executor is not None and executor.name == "dask" else None
            with contextlib.nullcontext() if executor is None else executor_in_use(executor):
                proved = prove_lower(
                    player.rules, target, path, seconds, exact=exact, progress=on_progress, executor=executor
                )
        finally:
            if shown.is_terminal:
                click.echo("", err=True)
    except OSError as err:
        fail(f"cannot write {path}: {err.strerror or err}")
    if proved.kept is not None:
        click.echo(
            f"what the proof has proved is kept in {proved.kept}: the same command resumes from it", err=True
        )
    return proved


def _proof_dict(found: LowerBound, path: str) -> dict[str, Any]:
    within = {"within": found.proof.guesses} if found.proof.guesses else {}
    return {
        "file": path,
        "total": found.total,
        **within,
        "nodes": found.proof.header["nodes"],
        "seconds": round(found.seconds, 3),
    }


def _proof_text(found: LowerBound, path: str) -> str:
    nodes = found.proof.header["nodes"]
    trees = f"every tree within {guess_count(found.proof.guesses)}" if found.proof.guesses else "every tree"
    return (
        f"{path}: {trees} costs at least {found.total:,} ({nodes:,} line{'s' * (nodes != 1)}, "
        f"{found.seconds:.1f} s; 'mastermind verify {path}' checks it)"
    )


def _print_bounds(
    player: Strategy,
    found: Bounds,
    seconds: float,
    as_json: bool,
    why: str,
    proved: ProvedBound | None = None,
    proof: str | None = None,
) -> None:
    """What a search stopped before its end proved (and the proof file of a lower bound)."""
    from ..strategies.optimal.search import parse

    rules = player.rules
    n = rules.size
    root = None if found.flat is None else parse(found.flat)
    if as_json:
        # laid out as an exact run's (its total and mean: the best tree's, the upper bound)
        out = {
            "strategy": player.name,
            **rules_dict(rules),
            "codes": n,
            "total": found.upper,
            "mean": None if found.upper is None else found.upper / n,
            "lower_bound": found.lower,
            "upper_bound": found.upper,
            "exact": found.exact,
            "gap": found.gap,
            "seconds": round(seconds, 3),
            "stopped": why,
            "first_guess": None
            if root is None
            else game_notation(rules).format_code(player.space.code(root.guess)),
            "max": None if root is None else root.depth(),
            "distribution": None if root is None else {str(k): v for k, v in root.distribution().items()},
        }
        if proved is not None and proof is not None:
            out["proof"] = _proof_dict(proved.found, proof)
        click.echo(json.dumps(out))
        return
    from rich.table import Table

    table = Table(
        title=f"{player.name} on {words(rules)} ({n:,} codes): {why}", show_header=False, title_justify="left"
    )
    table.add_column(style="bold")
    table.add_column()
    table.add_row("lower bound", f"{found.lower:,} (mean {found.lower / n:.4f})")
    if found.upper is None or root is None:
        table.add_row("best tree", "none found yet")
    else:
        table.add_row(
            "best tree",
            f"{found.upper:,} (mean {found.upper / n:.4f}), first guess "
            f"{game_notation(rules).format_code(player.space.code(root.guess))}, at most "
            f"{root.depth()} guesses",
        )
        table.add_row("gap", f"{found.gap:,} ({100 * (found.gap or 0) / found.upper:.2f} % of the best tree)")
    table.add_row("exact", "yes: the bounds meet" if found.exact else "no")
    table.add_row("seconds", f"{seconds:.1f}")
    if proved is not None and proof is not None:
        table.add_row("proof file", _proof_text(proved.found, proof))
    console_for().print(table)
