"""compare: several strategies evaluated on the same secrets, side by side."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import click

from ..core.seeds import fresh_seed
from ..core.text import guess_count
from . import cli
from .common import fail, seed_option
from .console import color_option, console_for
from .files import check_plot
from .game_options import game_notation, game_options
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
from .runs import AT_HAND, draw, first_text, run_evaluation, warn_if_long, whole_sample, words

if TYPE_CHECKING:
    import numpy as np

    from ..core.rules import Rules
    from ..research.results import Stats
    from ..research.session import Session
    from ..strategies import Strategy


@cli.command()
@game_options
@click.option(
    "--strategies",
    "-s",
    metavar="NAMES",
    multiple=True,
    help="Strategy names, separated by commas or given one per -s [every registered strategy; "
    "optimal only on games of at most 3,125 codes or with its tree already cached: its search "
    "can take minutes to hours; rollout on games of at most 50,000 codes].",
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
    strategies: tuple[str, ...],
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
    from ..research.evaluation import sample_secrets

    names, chosen = _names(strategies)
    if log and plot is None:
        fail("--log draws the chart's counts on a log scale: give --plot FILE too")
    if plot is not None:
        check_plot(plot)
    players = _players(names, chosen, rules)
    sample = whole_sample(rules, sample)
    drawn = seed is None and (sample is not None or any(p.randomized for p in players))
    if drawn:
        seed = fresh_seed()  # drawn here and reported, so the run can be repeated
    secrets = sample_secrets(rules, sample, seed) if sample is not None else None
    session = open_session(scale, history, per_run=True)
    if not any(session.whole_tree(p, secrets) for p in players):
        refuse_runner_options(session, players[0], secrets)  # says why not, exit 2
    results = _evaluated(session, players, secrets, sample, seed, drawn)
    if plot is not None:
        draw(results, plot, log)
    if as_json:
        click.echo(json.dumps([session.to_dict(s, game_notation(rules)) for s in results]))
        return
    _print_table(rules, results)


def _names(given: tuple[str, ...]) -> tuple[list[str], bool]:
    """The strategies named in --strategies (checked, each once), or every registered one; and
    whether they were named."""
    from ..strategies import STRATEGIES, find_strategy

    strategies = ",".join(given) if given else None
    names = [n.strip() for n in strategies.split(",") if n.strip()] if strategies is not None else None
    if names is not None and not names:
        fail("--strategies is empty: give names separated by commas, e.g. knuth,entropy")
    chosen = names is not None
    names = names or [cls.name for cls in STRATEGIES]
    return list(dict.fromkeys(find_strategy(n).name for n in names)), chosen


def _players(names: list[str], chosen: bool, rules: Rules) -> list[Strategy]:
    """The strategies that take part: those named, or by default every registered strategy that
    can play this game and whose whole tree is quick."""
    from ..errors import StrategyError
    from ..strategies import make_strategy
    from ..strategies.capabilities import quick

    players: list[Strategy] = []
    for name in names:
        try:
            players.append(make_strategy(name, rules))
        except StrategyError as err:
            if chosen:
                raise
            click.echo(f"mastermind: skipped {name}: {err}", err=True)
            continue
        if not chosen and not quick(players[-1]):
            players.pop()  # a search of minutes or hours is not run unasked
            click.echo(
                f"mastermind: skipped {name}: its search of {words(rules)} ({rules.size:,} "
                "codes) may take minutes or hours; name it in --strategies to run it",
                err=True,
            )
    if not players:
        fail(f"no strategy can play {words(rules)} as a whole; try --sample N")
    return players


def _evaluated(
    session: Session,
    players: list[Strategy],
    secrets: np.ndarray | None,
    sample: int | None,
    seed: int | None,
    drawn: bool,
) -> list[Stats]:
    """Each player's run, in their order: from the history, or run now (and saved there)."""
    found: dict[int, Stats | None] = {}
    for player in players:
        found[id(player)] = stats = session.stored(player, sample, seed, drawn=drawn)
        if stats is not None:
            taken_from_history(session, stats, f"{player.name} on {words(player.rules)}")
    todo = [p for p in players if found[id(p)] is None]
    if todo:
        with started(session):
            for player in todo:
                label = f"{player.name} on {player.rules.short_name()}"
                if secrets is None:
                    warn_if_long(player)
                found[id(player)] = stats = run_evaluation(session, player, secrets, seed, label)
                save_run(session, player, stats, sample, seed)
    return [s for s in (found[id(p)] for p in players) if s is not None]


def _print_table(rules: Rules, results: list[Stats]) -> None:
    from rich import box
    from rich.table import Table

    codes = results[0].codes
    what = f"a sample of {results[0].games:,} secrets" if results[0].sample else f"all {codes:,} secrets"
    title = f"{words(rules)}, at most {guess_count(rules.max_guesses)}: {what}"
    # one space between columns: the distribution wraps less in an 80-column terminal
    table = Table(
        title=title, title_justify="left", box=box.SIMPLE_HEAD, collapse_padding=True, pad_edge=False
    )
    # lost: the games played past the guess limit the title names, as evaluate counts them
    for column in ("strategy", "first", "total", "mean", "max", "lost", "distribution", "seconds"):
        table.add_column(column, justify="left" if column in ("strategy", "distribution") else "right")
    best_mean = min(s.mean for s in results)
    for s in results:
        mean = f"[bold]{s.mean:.4f}[/]" if s.mean == best_mean else f"{s.mean:.4f}"
        dist = " ".join(f"{k}:{n}" for k, n in s.distribution.items())
        table.add_row(
            s.strategy,
            first_text(s),
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
