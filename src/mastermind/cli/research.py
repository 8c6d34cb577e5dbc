"""evaluate, compare and tree: strategies studied over every secret."""

from __future__ import annotations

import dataclasses
import json
from typing import IO, TYPE_CHECKING, Any

import click

from ..core.seeds import fresh_seed
from ..core.text import guess_count
from ..core.tree import TREE_FORMATS
from . import cli
from .common import (
    check_output,
    check_plot,
    color_option,
    console_for,
    fail,
    game_notation,
    game_options,
    note_long_search,
    seed_option,
    strategy_option,
)
from .progress import LogLines, progress_bar, search_progress
from .scale import (
    History,
    Scale,
    executor_options,
    open_session,
    refuse_runner_options,
    run_history_options,
    run_progress,
    save_run,
    started,
    taken_from_history,
)

if TYPE_CHECKING:
    import numpy as np

    from ..core.rules import Rules
    from ..research.results import Stats
    from ..research.session import Session
    from ..strategies import Strategy
    from ..strategies.optimal.anytime import Bounds
    from ..strategies.optimal.lower import LowerBound
    from ..strategies.progress import OnProgress, Progress
    from ..verify.parts import Parts


@cli.command("evaluate")
@game_options
@strategy_option
@click.option("--first", metavar="CODE", help="Override the strategy's first guess, e.g. 1122.")
@click.option(
    "--sample",
    type=click.IntRange(min=1),
    metavar="N",
    help="Evaluate a random sample of N secrets instead of all of them.",
)
@seed_option("Seed for sampling and randomised strategies.")
@click.option(
    "--no-tables", is_flag=True, help="counter: plain numeric order instead of random colour tables."
)
@click.option(
    "--no-cache",
    is_flag=True,
    help="optimal: search the tree again instead of reading it from the cache of trees already "
    "searched (to check a result); the run is not taken from the history either.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--plot", metavar="FILE", help="Also draw the distribution as a bar chart (.png, .svg, .pdf).")
@click.option("--log", is_flag=True, help="With --plot: a logarithmic count axis (for small counts).")
@click.option(
    "--per-secret",
    metavar="FILE",
    help="Also write each secret, its number of guesses and the guesses played as CSV, one row per "
    "secret (the games are played again, recording each); - writes them on stdout, the summary "
    "then on stderr.",
)
@click.option(
    "--budget",
    metavar="DURATION",
    callback=lambda ctx, param, value: _duration(value),
    help="optimal: stop the search after DURATION (90s, 10m, 2h, 1h30m; a first run's compile not "
    "counted) and report what it proved: a lower bound on the least total, the best tree found (an "
    "upper bound) and the gap.",
)
@click.option(
    "--save",
    metavar="FILE",
    help="Write the strategy's tree to FILE as a tree file (see 'mastermind verify'); with --budget, "
    "the best tree found, written again every minute while it improves, and when the search stops; "
    "an optimal search cut into pieces (with a checkpoint) writes its best tree as it improves, "
    "then the optimal one.",
)
@click.option(
    "--proof",
    metavar="FILE",
    help="With --budget: then, for up to DURATION again, prove a lower bound on the least total and "
    "write the proof to FILE ('mastermind verify' checks it in plain Python). When the search "
    "finished, the proof is guided by it and aims at the optimum (on every core; what it proves is "
    "kept in FILE.journal until it ends, and the same command resumes from there); else it counts "
    "a few levels down and aims at the best tree: reaching it proves that tree optimal. The lower "
    "bound reported is the higher of the search's and the proof's.",
)
@executor_options(
    "Record each finished subtree (optimal: each piece of its root search) in this file; the same "
    "command run again after an interruption finishes only what is left [for a tree of more than "
    "one subtree, or an optimal search of more than 3,125 codes: a file under the user cache "
    "directory, removed when done; other runs are not checkpointed]."
)
@run_history_options
@color_option
def evaluate_command(
    rules: Rules,
    strategy: str,
    first: str | None,
    sample: int | None,
    seed: int | None,
    no_tables: bool,
    no_cache: bool,
    as_json: bool,
    plot: str | None,
    log: bool,
    per_secret: str | None,
    budget: float | None,
    save: str | None,
    proof: str | None,
    scale: Scale,
    history: History,
) -> None:
    """Play a strategy against every secret and report exact statistics.

    Each complete run is saved in the history; the same run asked for again (same strategy,
    first guess and options, rules, sample and seed, package version) is taken from there, as
    stderr says, unless --recompute. A randomised strategy's run is reused only when --seed is given.

    \b
    Examples:
      mastermind evaluate --strategy knuth            # 5801 guesses, at most 5
      mastermind evaluate -s most-parts --first 1123 --json
      mastermind evaluate -s entropy --preset bulls-and-cows
      mastermind evaluate -s knuth --plot knuth.png
      mastermind evaluate -s knuth --per-secret knuth.csv    # secret,guesses,played
      mastermind evaluate -p 6 -c 9 --checkpoint knuth69.jsonl     # Ctrl-C, then again: resumes
      mastermind evaluate -p 6 -c 9 --executor dask --workers 4      # a local Dask cluster
      mastermind evaluate -p 7 -c 7 --executor dask --scheduler tcp://head:8786
      mastermind evaluate -s optimal -p 5 -c 5 --executor dask --workers 2   # root guesses split
      mastermind evaluate -s optimal -p 4 -c 9 --budget 10m --save 4x9.tree.gz  # bounds, best tree
      mastermind evaluate -s optimal -p 4 -c 10 --budget 5m --proof 4x10.proof.gz  # a checkable bound
    """
    from ..core.code import ENUMERATION_LIMIT
    from ..research.evaluation import sample_secrets

    if log and plot is None:
        fail("--log draws the chart's counts on a log scale: give --plot FILE too")
    if plot is not None:
        check_plot(plot)
    if per_secret is not None:
        check_output(per_secret, "--per-secret", stdout=True)
        if per_secret == "-" and as_json:
            fail("--json and --per-secret - both write on stdout: name a file for one of them")
    player = _strategy(strategy, rules, first, no_tables, no_cache)
    if no_cache:
        history = History(history.store, recompute=True)
    if proof is not None and budget is None:
        fail("--proof writes the proof of the lower bound that --budget reports: give --budget too")
    if budget is not None or save is not None:
        _check_budget(player, budget, save, sample, scale, plot, per_secret, proof)
    if budget is not None:
        session = open_session(scale, history, per_run=False)
        _evaluate_bounded(player, budget, save, as_json, session, proof, scale.unit_size)
        return
    if sample is None and rules.size > ENUMERATION_LIMIT:
        fail(
            f"{_words(rules)} has {rules.size:,} codes, too many to play every secret; "
            "evaluate a sample of them with --sample N"
        )
    drawn = seed is None and (sample is not None or player.randomized)
    if drawn:
        seed = fresh_seed()  # drawn here and reported, so the run can be repeated
    secrets = sample_secrets(rules, sample, seed) if sample is not None else None
    note_whole_sample(rules, sample)
    label = f"{strategy} on {rules.short_name()}"
    session = open_session(scale, history, per_run=False)
    stats = session.stored(player, sample, seed, drawn=drawn)
    if stats is not None:
        taken_from_history(session, stats, f"{player.name} on {_words(rules)}")
    else:
        if secrets is None:
            warn_if_long(player)
        refuse_runner_options(session, player, secrets)
        with started(session):
            stats = _run_evaluation(session, player, secrets, seed, label, save)
        save_run(session, player, stats, sample, seed)
    if plot is not None:
        _draw([stats], plot, log)
    if per_secret is not None:
        _write_games(player, secrets, seed, per_secret, label)
    if save is not None:
        _save_tree(player, save, exact=True)
    if as_json:
        click.echo(json.dumps(session.to_dict(stats, game_notation(rules))))
        return
    _print_stats(stats, stderr=per_secret == "-")  # stdout holds the games


def _strategy(
    name: str, rules: Rules, first: str | None, no_tables: bool, no_cache: bool = False
) -> Strategy:
    """The strategy asked for; --no-tables and --no-cache are refused, named as typed, by a
    strategy without colour tables or without a cache (the registry says which have them)."""
    from ..strategies import STRATEGIES, find_strategy, make_strategy

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
            having = " and ".join(cls.name for cls in STRATEGIES if option in cls.options)
            fail(refusal.format(having=having, name=name))
        options[option] = False
    return make_strategy(name, rules, first=first, **options)


def _run_evaluation(
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
            return session.evaluate(player, progress=_keeping_best(player, save, show))
    total = player.space.size if secrets is None else len(secrets)
    with search_progress(player, label), progress_bar(total, label) as advance:
        return session.evaluate(player, secrets, seed=seed, progress=advance)


def _keeping_best(player: Strategy, save: str | None, show: OnProgress | None) -> OnProgress | None:
    """``show``, and with ``save`` the best tree a search reports written there as it improves."""
    if save is None or not player.searches:
        return show
    written: int | None = None  # the total of the tree written last

    def report(status: Progress) -> None:
        nonlocal written
        # a lower total only (a tie found later is not written: the end writes the optimum)
        if status.tree is not None and status.best is not None and (written is None or status.best < written):
            _save_tree(player, save, exact=False, flat=status.tree, midway=True)
            written = status.best
        if show is not None:
            show(status)

    return report


def _part(value: str | None) -> Parts | None:
    from ..verify.parts import Parts

    if value is None:
        return None
    try:
        return Parts.parse(value)
    except ValueError as err:
        fail(f"--part: {err}")


def _duration(value: str | None) -> float | None:
    from ..core.text import parse_duration

    if value is None:
        return None
    try:
        return parse_duration(value)
    except ValueError as err:
        fail(f"--budget: {err}")


def _check_budget(
    player: Strategy,
    budget: float | None,
    save: str | None,
    sample: int | None,
    scale: Scale,
    plot: str | None,
    per_secret: str | None,
    proof: str | None = None,
) -> None:
    """--budget, --save and --proof: for the optimal strategy's whole tree, searched in this process."""
    if save is not None and player.randomized:
        fail(f"--save writes a strategy's tree: {player.name} is randomised and has none")
    for path, option in ((save, "--save"), (proof, "--proof")):
        if path is not None:
            check_output(path, option)
    if budget is None:
        return
    if player.name != "optimal":
        fail("--budget bounds the optimal strategy's search: give --strategy optimal")
    for given, option in ((sample, "--sample"), (plot, "--plot"), (per_secret, "--per-secret")):
        if given is not None:
            fail(f"--budget reports bounds on the whole game: leave out {option}")
    if scale.executor != "local":
        fail("--budget searches in this process: leave out --executor")


def _save_tree(
    player: Strategy,
    path: str,
    exact: bool,
    lower: int | None = None,
    flat: np.ndarray | None = None,
    midway: bool = False,
) -> None:
    """Write the player's whole tree (or the optimal search's tree ``flat``) as a tree file. A
    file that cannot be written is an error (exit 2), but ``midway`` through a search (its best
    tree so far): then a note, and the search goes on (the file is written again as it improves,
    and at the end)."""
    from .. import Node, TreeFile
    from ..research.evaluation import run_key, strategy_tree

    key = run_key(player)
    info: dict = {"strategy": player.name, "first": key["first"], "options": key["options"]}
    if player.name == "optimal":
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


def _evaluate_bounded(
    player: Strategy,
    seconds: float,
    save: str | None,
    as_json: bool,
    session: Session,
    proof: str | None = None,
    piece_size: int | None = None,
) -> None:
    """The optimal search for at most ``seconds``: the optimum if it finishes (as a normal
    evaluation), else a proven lower bound, the best tree and the gap. Ctrl-C stops it the same
    way (the best tree written), then exits with status 130. With ``proof``, a proof file of a
    lower bound is written after the search (:func:`_prove_lower`); ``piece_size``
    (--unit-size): the largest set searched in one compiled call."""
    import signal
    import sys
    import threading
    import time

    from ..core.text import duration
    from ..errors import StrategyError
    from ..research.evaluation import evaluate as run

    searcher: Any = player  # the optimal strategy (_check_budget said so): its bounds
    rules = player.rules
    label = f"optimal on {rules.short_name()}"
    stats = session.stored(player, None, None, drawn=False)
    searched: float | None = None  # the seconds of a search run here that found the optimum
    if stats is not None:
        taken_from_history(session, stats, f"optimal on {_words(rules)}")
    if stats is None and searcher.known_tree() is None:
        # What the search finishes is checkpointed (a default file if none is named), so that
        # the same command again starts from it and narrows the bounds.
        path, own = session.checkpoint_for(player)
        book = None
        if path is not None:
            from ..research.runner.checkpoint import Checkpoint, run_identity

            book = Checkpoint(path, run_identity(player.spec(), None))
            book.open()
            if book.pieces and session.notify is not None:
                session.notify(f"resuming from {path}: {len(book.pieces)} results of an earlier run")
        stop = threading.Event()
        interrupted = threading.Event()

        def on_interrupt(signum: int, frame: object) -> None:
            if interrupted.is_set():
                raise KeyboardInterrupt  # a second Ctrl-C: at once
            interrupted.set()
            stop.set()

        shown = console_for(stderr=True)

        def words(lower: int, upper: int | None) -> str:
            return f"lower bound {lower:,}, best tree {'none yet' if upper is None else f'{upper:,}'}"

        log = LogLines(label, words)  # off a terminal: a line a minute in the run's log

        def on_better(lower: int, upper: int | None, _: object) -> None:
            if shown.is_terminal:
                click.echo(f"\r{label}: {words(lower, upper)}   ", err=True, nl=False)
            else:
                log(lower, upper)

        def on_tree(lower: int, upper: int | None, flat: np.ndarray | None) -> None:
            if save is not None and flat is not None:
                _save_tree(player, save, exact=lower == upper, lower=lower, flat=flat, midway=True)

        began = time.perf_counter()
        previous = signal.signal(signal.SIGINT, on_interrupt)
        try:
            found = searcher.bounds(
                seconds, on_better=on_better, stop=stop, on_tree=on_tree, book=book, piece_size=piece_size
            )
        except StrategyError:  # no tree within the limit: a settled answer, nothing to resume
            if own and path is not None:
                path.unlink(missing_ok=True)
            raise
        finally:
            signal.signal(signal.SIGINT, previous)
            if book is not None:
                book.close()
            if shown.is_terminal:
                click.echo("", err=True)
        elapsed = time.perf_counter() - began
        proved = None
        if proof is not None and not interrupted.is_set() and not found.complete:
            # aimed at the best tree: a proof that reaches it proves that tree optimal
            proved = _prove_lower(player, found.upper, proof, seconds)
            if proved[0].total > found.lower:
                found = dataclasses.replace(found, lower=proved[0].total)
        if found.complete and own and path is not None:
            path.unlink(missing_ok=True)
        elif path is not None and not found.complete:
            click.echo(
                f"what the search finished is kept in {path}: the same command resumes from it", err=True
            )
        if save is not None and found.flat is not None:
            _save_tree(player, save, exact=found.exact, lower=found.lower, flat=found.flat)
            click.echo(f"best tree written to {save}", err=True)
        if interrupted.is_set():
            _print_bounds(player, found, elapsed, as_json, "interrupted")
            click.echo("mastermind: interrupted", err=True)
            sys.exit(130)
        if not found.complete:
            why = f"stopped after {duration(seconds)}"
            _print_bounds(player, found, elapsed, as_json, why, proved, proof)
            if proved is not None and proved[1]:
                click.echo("mastermind: interrupted", err=True)
                sys.exit(130)
            return
        searched = elapsed
    elif save is not None:
        _save_tree(player, save, exact=True, flat=None)
    if stats is None:
        stats = run(player)
        if searched is not None:  # the search ran here, within the budget: it is the run's time
            stats.seconds, stats.tree_at_hand = searched + stats.seconds, False
        save_run(session, player, stats, None, None)
    proved = None if proof is None else _prove_lower(player, stats.total, proof, seconds, exact=True)
    if as_json:
        out = session.to_dict(stats, game_notation(rules))
        out |= {"lower_bound": stats.total, "upper_bound": stats.total, "exact": True}
        if proved is not None and proof is not None:
            out["proof"] = _proof_dict(proved[0], proof)
        click.echo(json.dumps(out))
    else:
        _print_stats(stats)
        click.echo(f"exact: the least total, proved (lower bound = upper bound = {stats.total:,})")
        if proved is not None and proof is not None:
            click.echo(f"proof file: {_proof_text(proved[0], proof)}")
    if proved is not None and proved[1]:
        click.echo("mastermind: interrupted", err=True)
        sys.exit(130)


def _prove_lower(
    player: Strategy, target: int | None, path: str, seconds: float, exact: bool = False
) -> tuple[LowerBound, bool]:
    """A proof file of a lower bound on the least total, raised toward ``target`` (the best tree
    found, or, ``exact``, the optimum: the proof is then guided by the exact search) for at most
    ``seconds``, written to ``path``; and whether Ctrl-C cut it short (the bound reached so far is
    written then)."""
    import threading
    import time

    from ..strategies.optimal.lower import prove, prove_optimum
    from .progress import LogLines

    stop = threading.Event()
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

    from pathlib import Path

    journal = Path(f"{path}.journal")  # (what a guided proof has proved: the same command resumes)
    try:
        if exact and target is not None:
            if journal.exists():
                click.echo(f"resuming the proof from {journal}", err=True)
            found = prove_optimum(
                player.rules, target, seconds=seconds, stop=stop, progress=on_progress, checkpoint=journal
            )
        else:
            found = prove(player.rules, target=target, seconds=seconds, stop=stop, progress=on_progress)
    finally:
        if shown.is_terminal:
            click.echo("", err=True)
    try:
        found.proof.write(path)
    except OSError as err:
        fail(f"cannot write {path}: {err.strerror or err}")
    if exact and target is not None:
        if found.ended:
            journal.unlink(missing_ok=True)
        else:
            click.echo(
                f"what the proof has proved is kept in {journal}: the same command resumes from it", err=True
            )
    return found, stop.is_set()


def _proof_dict(found: LowerBound, path: str) -> dict[str, Any]:
    return {
        "file": path,
        "total": found.total,
        "nodes": found.proof.header["nodes"],
        "seconds": round(found.seconds, 3),
    }


def _proof_text(found: LowerBound, path: str) -> str:
    nodes = found.proof.header["nodes"]
    return (
        f"{path}: every tree costs at least {found.total:,} ({nodes:,} line{'s' * (nodes != 1)}, "
        f"{found.seconds:.1f} s; 'mastermind verify {path}' checks it)"
    )


def _print_bounds(
    player: Strategy,
    found: Bounds,
    seconds: float,
    as_json: bool,
    why: str,
    proved: tuple[LowerBound, bool] | None = None,
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
            "strategy": "optimal",
            **_rules_dict(rules),
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
            out["proof"] = _proof_dict(proved[0], proof)
        click.echo(json.dumps(out))
        return
    from rich.table import Table

    table = Table(
        title=f"optimal on {_words(rules)} ({n:,} codes): {why}", show_header=False, title_justify="left"
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
        table.add_row("proof file", _proof_text(proved[0], proof))
    console_for().print(table)


#: What the seconds of a run whose tree was at hand measure (the search ran before, or elsewhere).
AT_HAND = "the tree was read from the cache, not searched"


def _words(rules: Rules) -> str:
    """The game in its own words (Bulls and Cows speaks of digits), as every output names it."""
    return game_notation(rules).describe_game()


def _rules_dict(rules: Rules) -> dict[str, object]:
    from ..core.records import rules_to_dict

    return rules_to_dict(rules)


def _write_games(
    player: Strategy, secrets: np.ndarray | None, seed: int | None, path: str, label: str
) -> None:
    """Each secret, its number of guesses and the guesses, as CSV: the games of the evaluation."""
    import csv
    import sys

    from ..core.code import CodeSpace
    from ..research.evaluation import games_per_secret

    notation = game_notation(player.rules)
    space = CodeSpace.of(player.rules)
    total = space.size if secrets is None else len(secrets)
    with progress_bar(total, f"{label}: each game") as advance:
        games = games_per_secret(player, secrets, seed=seed, progress=advance)

    def write_rows(out: IO[str]) -> None:
        writer = csv.writer(out)
        writer.writerow(["secret", "guesses", "played"])
        for secret, played in games.items():
            codes = " ".join(notation.format_code(space.code(g)) for g in played)
            writer.writerow([notation.format_code(space.code(secret)), len(played), codes])

    if path == "-":
        write_rows(sys.stdout)
        return
    try:
        with open(path, "w", newline="", encoding="utf-8") as out:
            write_rows(out)
    except OSError as err:
        fail(f"cannot write {path}: {err.strerror or err}")
    click.echo(f"games written to {path}", err=True)


#: Games with fewer codes than this are evaluated without an estimate (the calibration would cost more
#: than it saves); runs estimated at more seconds than LONG_RUN are announced, off a terminal (no
#: progress shown) those of more than FEW_SECONDS.
ESTIMATE_FROM, LONG_RUN, FEW_SECONDS = 100_000, 60, 5

#: The way out of a long optimal evaluation.
BUDGET_WAY_OUT = (
    "with --budget DURATION it stops then and reports bounds on the optimum and its best tree; a "
    "heuristic strategy takes seconds; "
)


def note_whole_sample(rules: Rules, sample: int | None) -> None:
    """Say on stderr when --sample asks for as many secrets as the game has, or more: every secret
    is played, none drawn."""
    if sample is not None and sample >= rules.size:
        click.echo(
            f"mastermind: note: a sample of {sample:,} covers every secret: all {rules.size:,} secrets "
            f"of {_words(rules)} are played",
            err=True,
        )


def warn_if_long(player: Strategy) -> None:
    """Before a long evaluation, say on stderr about how long it will take, and how to stop it:
    an exact search that is not quick, or a whole tree estimated at LONG_RUN seconds or more (off
    a terminal, where no progress is shown until the end, FEW_SECONDS)."""
    from ..core.text import duration
    from ..research.evaluation import estimate_seconds

    way_out = BUDGET_WAY_OUT if player.searches else "a criterion such as entropy takes seconds; "
    if note_long_search(player, None, way_out, resumes=True):
        return
    if player.space.size < ESTIMATE_FROM:
        return
    seconds = estimate_seconds(player)
    shown = console_for(stderr=True).is_terminal
    if seconds is not None and seconds >= (LONG_RUN if shown else FEW_SECONDS):
        click.echo(
            f"mastermind: note: {player.name} on {player.space.size:,} codes: roughly {duration(seconds)} on "
            "this machine (scaled from a small game timed just now: an order of magnitude); "
            "Ctrl-C stops, and the same command again resumes",
            err=True,
        )


def _draw(stats: list[Stats], path: str, log: bool) -> None:
    from ..research.plot import plot_distributions

    written = plot_distributions(stats, path, log=log)
    click.echo(f"chart written to {written}", err=True)


def _first_text(stats: Stats) -> str:
    first = stats.first_guess
    return "random" if first is None else game_notation(stats.rules).format_code(first)


def _print_stats(stats: Stats, stderr: bool = False) -> None:
    from rich.table import Table

    console = console_for(stderr=stderr)
    rules = stats.rules
    title = f"{stats.strategy} on {_words(rules)} ({stats.codes:,} codes)"
    table = Table(title=title, show_header=False, title_justify="left")
    table.add_column(style="bold")
    table.add_column()
    table.add_row("first guess", _first_text(stats))
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
@click.option("--depth", type=click.IntRange(min=1), metavar="N", help="Show only the first N guesses.")
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
    "'mastermind verify' checks against every secret; prints a summary instead of the tree.",
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
      mastermind tree -s most-parts --pegs 3 --colors 4
      mastermind tree -s knuth --format json > knuth.json
      mastermind tree -s knuth --format dot --depth 3 | dot -Tsvg > knuth.svg
      mastermind tree -s counter --no-tables --depth 2  # Shapiro's strategy
      mastermind tree -s optimal --save classic.tree.gz && mastermind verify classic.tree.gz
    """
    from ..research.evaluation import run_key, strategy_tree

    if save is not None:
        ctx = click.get_current_context()
        check_output(save, "--save")
        if depth is not None:
            fail("--save writes the whole tree: leave out --depth")
        if ctx.get_parameter_source("fmt") == click.core.ParameterSource.COMMANDLINE:
            fail("--save writes a tree file: leave out --format (it says how to print a tree)")
    player = _strategy(strategy, rules, first, no_tables, no_cache)
    note_long_search(player, None, "a heuristic strategy's tree takes seconds; ")
    with (
        search_progress(player, f"{strategy} tree on {_words(rules)}"),
        progress_bar(rules.size, f"{strategy} tree on {_words(rules)}") as advance,
    ):
        root = strategy_tree(player, progress=advance, depth=depth)
    notation = game_notation(rules)
    if save is not None:
        from .. import TreeFile

        key = run_key(player)
        info = {"strategy": strategy, "first": key["first"], "options": key["options"]}
        tree_file = TreeFile.of_tree(rules, root, **info)
        try:
            tree_file.write(save)
        except OSError as err:
            fail(f"cannot write {save}: {err.strerror or err}")
        h = tree_file.header
        click.echo(
            f"{strategy} on {_words(rules)}{_given(h)}: total {h['total']:,} over {h['secrets']:,} secrets "
            f"(mean {h['total'] / h['secrets']:.4f}), at most {h['max']} guesses; "
            f"{h['nodes']:,} nodes written to {save}"
        )
        return
    if fmt == "json":
        out = {
            "strategy": strategy,
            "pegs": rules.pegs,
            "colors": rules.colors,
            "repeats": rules.repeats,
            "max_guesses": rules.max_guesses,
            "blank": rules.blank,
            "tree": root.to_dict(notation, depth),
        }
        click.echo(json.dumps(out))
    elif fmt == "dot":
        click.echo(root.to_dot(notation, depth, title=f"{strategy} on {_words(rules)}"))
    else:
        reply = notation.terms.reply_form.lower()  # black,white or bulls,cows
        click.echo(f"{strategy} on {_words(rules)}: reply ({reply}): codes left -> next guess")
        click.echo(root.format(notation, depth))


@cli.command()
@click.argument("tree_file", metavar="TREE_FILE")
@game_options
@click.option("--json", "as_json", is_flag=True, help="Print the result as a JSON object.")
@click.option(
    "--workers",
    type=click.IntRange(min=1, max=1024),
    metavar="N",
    help="Check a proof file on N processes [every core this process may use]; its subproofs are "
    "shared among them (a proof of 20,000 lines or more, on a system with fork: not Windows).",
)
@click.option(
    "--part",
    metavar="I/N",
    callback=lambda ctx, param, value: _part(value),
    help="Check only part I of a proof file's check cut into N (or parts I to J: I-J/N, downwards "
    "if J is below I), so that several machines can share it: the proof holds once every part has "
    "passed, anywhere. Every machine cuts it alike, from the file alone; each part's verdict is "
    "printed as it passes (two machines taking 1-N/N and N-1/N meet where their speeds put them).",
)
@color_option
def verify(tree_file: str, rules: Rules, as_json: bool, workers: int | None, part: Parts | None) -> None:
    """Check a tree file: play its tree against every secret of its game (or a proof file).

    The replay uses the plain-Python scoring rule (nothing compiled), then checks what the
    file's header claims (the number of secrets, the total, the most guesses, the distribution)
    and prints the total, the mean, the most guesses and the distribution. Given game options,
    the file must be a tree of that game. Exit status 0 when every claim holds, 2 when the file
    cannot be read, is of another game, or its tree or a claim is wrong. A proof file (of a lower
    bound, written by 'evaluate --budget --proof', or that no tree is within some guesses, by
    'worst --proof') is recognised by its first line and checked node by node; with --json,
    "passed" says the nodes checked hold and "verified" that the whole claim does (a --part that
    passes is passed, not yet verified).

    \b
    Examples:
      mastermind tree -s knuth --save knuth.tree && mastermind verify knuth.tree
      mastermind verify results/5x6-optimal.tree.gz --pegs 5 --colors 6
      mastermind verify big.proof.gz --part 1-8/16     # half a long check; 9-16/16 elsewhere
    """
    from .. import TreeFile, TreeFileError
    from ..verify.proof import is_proof_file
    from .common import asked_game
    from .progress import count_bar

    if not tree_file.strip():
        fail("no file named: give the path of a tree file or a proof file")
    if is_proof_file(tree_file):  # a proof that no tree does it within some guesses (mastermind worst)
        from .worst import verify_proof

        return verify_proof(tree_file, rules, as_json, workers, part)
    tree = TreeFile.read(tree_file)
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
    if as_json:
        click.echo(json.dumps(out))
        return
    dist = "  ".join(f"{k}:{n}" for k, n in result.distribution.items())
    strategy = h.get("strategy") if isinstance(h.get("strategy"), str) else None
    who = "tree" if strategy is None else f"{strategy} tree"
    if strategy is not None and h.get("exact") is False:  # not (yet) the optimum
        who = f"best tree of the {strategy} search"
    game = _game_text(tree.rules) + _given(h)
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


def _given(header: dict) -> str:
    """The words for a tree file saved with its first guess given (--first): ", first guess X given"."""
    return f", first guess {header['first']} given" if isinstance(header.get("first"), str) else ""


def _game_text(rules: Rules) -> str:
    limit = f", at most {guess_count(rules.max_guesses)}" if rules.max_guesses != 10 else ""
    return _words(rules) + limit


@cli.command()
@game_options
@click.option(
    "--strategies",
    metavar="NAMES",
    help="Comma-separated strategy names [every registered strategy; optimal only on games of at "
    "most 3,125 codes or with its tree already cached: its search can take minutes to hours; "
    "rollout on games of at most 50,000 codes].",
)
@click.option(
    "--sample",
    type=click.IntRange(min=1),
    metavar="N",
    help="Evaluate a random sample of N secrets instead of all of them.",
)
@seed_option("Seed for sampling and randomised strategies.")
@click.option("--plot", metavar="FILE", help="Draw the distributions as a bar chart (.png, .svg, .pdf).")
@click.option("--log", is_flag=True, help="With --plot: a logarithmic count axis (for small counts).")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list, one object per strategy.")
@executor_options(
    "A directory in which each whole-tree evaluation records its finished subtrees (one file per "
    "strategy); the same command run again finishes only what is left [the user cache directory, "
    "for the runs evaluate checkpoints without being asked]."
)
@run_history_options
@color_option
def compare(
    rules: Rules,
    strategies: str | None,
    sample: int | None,
    seed: int | None,
    plot: str | None,
    log: bool,
    as_json: bool,
    scale: Scale,
    history: History,
) -> None:
    """Evaluate several strategies on the same secrets, side by side.

    Each complete run is saved in the history, and a strategy's run that is there already is
    taken from it (see 'mastermind evaluate --help'); --recompute evaluates every strategy again.

    \b
    Examples:
      mastermind compare
      mastermind compare --strategies knuth,expected-size,entropy,most-parts --plot dist.png
      mastermind compare --strategies knuth,entropy --preset bulls-and-cows --sample 500 --seed 1
      mastermind compare --json
      mastermind compare --pegs 5 --colors 8 --executor dask --workers 2
    """
    from ..errors import StrategyError
    from ..research.evaluation import sample_secrets
    from ..strategies import STRATEGIES, find_strategy, make_strategy

    names = [n.strip() for n in strategies.split(",") if n.strip()] if strategies is not None else None
    if names is not None and not names:
        fail("--strategies is empty: give names separated by commas, e.g. knuth,entropy")
    chosen = names is not None
    names = names or [cls.name for cls in STRATEGIES]
    names = list(dict.fromkeys(find_strategy(n).name for n in names))  # checked, each once
    if log and plot is None:
        fail("--log draws the chart's counts on a log scale: give --plot FILE too")
    if plot is not None:
        check_plot(plot)
    players: list[Strategy] = []
    for name in names:
        try:
            players.append(make_strategy(name, rules))
        except StrategyError as err:
            if chosen:
                raise
            # By default every registered strategy that can play this game takes part.
            click.echo(f"mastermind: skipped {name}: {err}", err=True)
            continue
        if not chosen and not players[-1].quick():
            players.pop()  # a search of minutes or hours is not run unasked
            click.echo(
                f"mastermind: skipped {name}: its search of {_words(rules)} ({rules.size:,} "
                "codes) may take minutes or hours; name it in --strategies to run it",
                err=True,
            )
    if not players:
        fail(f"no strategy can play {_words(rules)} as a whole; try --sample N")
    drawn = seed is None and (sample is not None or any(p.randomized for p in players))
    if drawn:
        seed = fresh_seed()  # drawn here and reported, so the run can be repeated
    secrets = sample_secrets(rules, sample, seed) if sample is not None else None
    note_whole_sample(rules, sample)
    session = open_session(scale, history, per_run=True)
    if not any(session.whole_tree(p, secrets) for p in players):
        refuse_runner_options(session, players[0], secrets)  # says why not, exit 2
    found: dict[int, Stats | None] = {}
    for player in players:
        found[id(player)] = stats = session.stored(player, sample, seed, drawn=drawn)
        if stats is not None:
            taken_from_history(session, stats, f"{player.name} on {_words(rules)}")
    todo = [p for p in players if found[id(p)] is None]
    if todo:
        with started(session):
            for player in todo:
                label = f"{player.name} on {rules.short_name()}"
                if secrets is None:
                    warn_if_long(player)
                found[id(player)] = stats = _run_evaluation(session, player, secrets, seed, label)
                save_run(session, player, stats, sample, seed)
    results = [s for s in (found[id(p)] for p in players) if s is not None]
    if plot is not None:
        _draw(results, plot, log)
    if as_json:
        click.echo(json.dumps([session.to_dict(s, game_notation(rules)) for s in results]))
        return
    from rich import box
    from rich.table import Table

    codes = results[0].codes
    what = f"a sample of {results[0].games:,} secrets" if results[0].sample else f"all {codes:,} secrets"
    title = f"{_words(rules)}, at most {guess_count(rules.max_guesses)}: {what}"
    table = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD)
    # lost: the games played past the guess limit the title names, as evaluate counts them
    for column in ("strategy", "first", "total", "mean", "max", "lost", "distribution", "seconds"):
        table.add_column(column, justify="left" if column in ("strategy", "distribution") else "right")
    best_mean = min(s.mean for s in results)
    for s in results:
        mean = f"[bold]{s.mean:.4f}[/]" if s.mean == best_mean else f"{s.mean:.4f}"
        dist = " ".join(f"{k}:{n}" for k, n in s.distribution.items())
        table.add_row(
            s.strategy,
            _first_text(s),
            f"{s.total:,}",
            mean,
            str(s.max),
            f"{s.lost:,}",
            dist,
            f"{s.seconds:.2f}" + ("*" if s.tree_at_hand else ""),
        )
    console_for().print(table)
    if any(s.tree_at_hand for s in results):
        console_for().print(f"* {AT_HAND}: the seconds are those of reading it", markup=False)
