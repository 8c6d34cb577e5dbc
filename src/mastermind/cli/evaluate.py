"""evaluate: a strategy played against every secret (or a sample), its exact statistics."""

from __future__ import annotations

import json
from typing import IO, TYPE_CHECKING

import click

from ..core.seeds import fresh_seed
from . import cli, runs
from .bounded import evaluate_bounded
from .common import fail, seed_option, strategy_option
from .console import color_option
from .files import check_output, check_plot
from .game_options import game_notation, game_options
from .progress import progress_bar
from .run_options import (
    History,
    Scale,
    executor_options,
    open_session,
    refuse_runner_options,
    run_history_options,
    save_run,
    started,
    taken_from_history,
)
from .runs import draw, make_player, print_stats, run_evaluation, warn_if_long, whole_sample, words

if TYPE_CHECKING:
    import numpy as np

    from ..core.rules import Rules
    from ..research.results import Stats
    from ..research.session import Session
    from ..strategies import Strategy
    from ..strategies.capabilities import TreeSearch


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
    "finished, the proof is guided by it and aims at the optimum (on every core, or with --executor "
    "dask on the cluster, the search staying here; what it proves is "
    "kept in FILE.journal until it ends, and the same command resumes from there); else it counts "
    "a few levels down and aims at the best tree: reaching it proves that tree optimal. With "
    "--max-guesses below 10, a guided proof is of the least total within that limit (on this "
    "machine). The lower bound reported is the higher of the search's and the proof's.",
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
      mastermind evaluate -s optimal -p 4 -c 9 --budget 2h --proof 4x9.proof.xz --executor dask --workers 2
    """
    _check_outputs(log, plot, per_secret, as_json)
    player = make_player(strategy, rules, first, no_tables, no_cache)
    if no_cache:
        history = History(history.store, recompute=True)
    search = _check_budget(player, budget, save, sample, scale, plot, per_secret, proof)
    if budget is not None and search is not None:
        session = open_session(scale, history, per_run=False)
        evaluate_bounded(player, search, budget, save, as_json, session, proof, scale.unit_size)
        return
    label = f"{strategy} on {rules.short_name()}"
    session, stats, secrets, seed = _evaluated(player, sample, seed, label, save, scale, history)
    if plot is not None:
        draw([stats], plot, log)
    if per_secret is not None:
        _write_games(player, secrets, seed, per_secret, label)
    if save is not None:
        runs.save_tree(player, save, exact=True)
    if as_json:
        click.echo(json.dumps(session.to_dict(stats, game_notation(rules))))
        return
    print_stats(stats, stderr=per_secret == "-")  # stdout holds the games


def _check_outputs(log: bool, plot: str | None, per_secret: str | None, as_json: bool) -> None:
    if log and plot is None:
        fail("--log draws the chart's counts on a log scale: give --plot FILE too")
    if plot is not None:
        check_plot(plot)
    if per_secret is not None:
        check_output(per_secret, "--per-secret", stdout=True)
        if per_secret == "-" and as_json:
            fail("--json and --per-secret - both write on stdout: name a file for one of them")


def _evaluated(
    player: Strategy,
    sample: int | None,
    seed: int | None,
    label: str,
    save: str | None,
    scale: Scale,
    history: History,
) -> tuple[Session, Stats, np.ndarray | None, int | None]:
    """The evaluation asked for, from the history or run now (and saved there): the session, the
    statistics, the secrets played (None: every one) and the seed (drawn here where none was
    given and one is needed, and reported)."""
    from ..core.code import ENUMERATION_LIMIT
    from ..research.evaluation import sample_secrets

    rules = player.rules
    sample = whole_sample(rules, sample)
    if sample is None and rules.size > ENUMERATION_LIMIT:
        fail(
            f"{words(rules)} has {rules.size:,} codes, too many to play every secret; "
            "evaluate a sample of them with --sample N"
        )
    drawn = seed is None and (sample is not None or player.randomized)
    if drawn:
        seed = fresh_seed()  # drawn here and reported, so the run can be repeated
    secrets = sample_secrets(rules, sample, seed) if sample is not None else None
    session = open_session(scale, history, per_run=False)
    stats = session.stored(player, sample, seed, drawn=drawn)
    if stats is not None:
        taken_from_history(session, stats, f"{player.name} on {words(rules)}")
        return session, stats, secrets, seed
    if secrets is None:
        warn_if_long(player)
    refuse_runner_options(session, player, secrets)
    with started(session):
        stats = run_evaluation(session, player, secrets, seed, label, save)
    save_run(session, player, stats, sample, seed)
    return session, stats, secrets, seed


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
) -> TreeSearch | None:
    """--budget, --save and --proof: for a strategy's own search of its whole tree (the optimal
    strategy's), searched in this process; that search, where --budget asks for it."""
    from ..strategies.capabilities import tree_search

    if proof is not None and budget is None:
        fail("--proof writes the proof of the lower bound that --budget reports: give --budget too")
    if budget is None and save is None:
        return None
    if save is not None and player.randomized:
        fail(f"--save writes a strategy's tree: {player.name} is randomised and has none")
    for path, option in ((save, "--save"), (proof, "--proof")):
        if path is not None:
            check_output(path, option)
    search = tree_search(player)
    if budget is None:
        return None
    if search is None:
        fail("--budget bounds the optimal strategy's search: give --strategy optimal")
    for given, option in ((sample, "--sample"), (plot, "--plot"), (per_secret, "--per-secret")):
        if given is not None:
            fail(f"--budget reports bounds on the whole game: leave out {option}")
    if scale.executor != "local" and proof is None:
        fail("--budget searches in this process: leave out --executor (with --proof, the proof runs there)")
    return search


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
