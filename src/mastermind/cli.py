"""The ``mastermind`` command line: thin, no rules logic; heavy modules are imported lazily."""

from __future__ import annotations

import functools
import json
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import click

STRATEGY_NAMES = ["knuth", "expected-size", "entropy", "most-parts", "six-guess", "counter", "random"]

EXIT_USAGE = 2


def _fail(message: str) -> None:
    click.echo(f"mastermind: error: {message}", err=True)
    sys.exit(EXIT_USAGE)


def _rules_from(options: dict[str, Any]):
    from .rules import PRESETS, Rules, find_rules

    base = find_rules(options["preset"]) if options["preset"] else PRESETS["classic"]
    pegs = options["pegs"] if options["pegs"] is not None else base.pegs
    colors = options["colors"] if options["colors"] is not None else base.colors
    repeats = base.repeats and not options["no_repeats"]
    max_guesses = options["max_guesses"] if options["max_guesses"] is not None else base.max_guesses
    return Rules(pegs=pegs, colors=colors, repeats=repeats, max_guesses=max_guesses)


def game_options(command: Callable) -> Callable:
    """The options every command takes to say which game is played; passes ``rules``."""

    @click.option(
        "--preset",
        metavar="NAME",
        help="classic (4x6), super (5x8) or bulls-and-cows (4 of 10 digits, no repeats).",
    )
    @click.option("--pegs", "-p", type=int, metavar="N", help="Pegs per code, 1-10 [4].")
    @click.option("--colors", "--colours", "-c", type=int, metavar="N", help="Colours, 2-36 [6].")
    @click.option("--no-repeats", is_flag=True, help="A colour may appear only once in a code.")
    @click.option("--max-guesses", type=int, metavar="N", help="Guesses allowed per game [10].")
    @functools.wraps(command)
    def wrapper(**kwargs: Any) -> Any:
        keys = ("preset", "pegs", "colors", "no_repeats", "max_guesses")
        options = {k: kwargs.pop(k) for k in keys}
        kwargs["rules"] = _rules_from(options)
        return command(**kwargs)

    return wrapper


def strategy_option(command: Callable) -> Callable:
    return click.option(
        "--strategy", "-s", default="knuth", show_default=True, metavar="NAME",
        help="Codebreaking strategy: " + ", ".join(STRATEGY_NAMES) + ".",
    )(command)  # fmt: skip


@contextmanager
def progress_bar(total: int, label: str) -> Iterator[Callable[[int], None] | None]:
    """A progress bar on stderr when it is a terminal; yields the callback to advance it."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    console = Console(stderr=True)
    if not console.is_terminal:
        yield None
        return
    with Progress(
        "[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
        TimeElapsedColumn(), console=console, transient=True,
    ) as bar:  # fmt: skip
        task = bar.add_task(label, total=total)
        yield lambda n: bar.advance(task, n)


class Main(click.Group):
    """Turns the package's errors into one line and exit status 2, Ctrl-C into status 130."""

    def invoke(self, ctx: click.Context) -> Any:
        from .errors import MastermindError

        try:
            return super().invoke(ctx)
        except MastermindError as err:
            _fail(str(err))
        except KeyboardInterrupt:
            click.echo("mastermind: interrupted", err=True)
            sys.exit(130)


@click.group(cls=Main, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="mastermind-lab")
def cli() -> None:
    """Mastermind: play, solve, and study codebreaking strategies.

    \b
    Examples:
      mastermind evaluate --strategy knuth
      mastermind evaluate --strategy entropy --pegs 4 --colors 7 --json
    """


@cli.command()
@game_options
@strategy_option
@click.option("--first", metavar="CODE", help="Override the strategy's first guess, e.g. 1122.")
@click.option(
    "--sample",
    type=click.IntRange(min=1),
    metavar="N",
    help="Evaluate a random sample of N secrets instead of all of them.",
)
@click.option("--seed", type=int, metavar="N", help="Seed for sampling and randomised strategies.")
@click.option(
    "--no-tables", is_flag=True, help="counter: plain numeric order instead of random colour tables."
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def evaluate(
    rules,
    strategy: str,
    first: str | None,
    sample: int | None,
    seed: int | None,
    no_tables: bool,
    as_json: bool,
) -> None:
    """Play a strategy against every secret and report exact statistics.

    \b
    Examples:
      mastermind evaluate --strategy knuth            # 5801 guesses, at most 5
      mastermind evaluate -s most-parts --first 1123 --json
      mastermind evaluate -s entropy --preset bulls-and-cows
    """
    from .evaluation import evaluate as run
    from .evaluation import sample_secrets
    from .strategies import make_strategy

    player = make_strategy(strategy, rules, first=first, tables=not no_tables)
    secrets = sample_secrets(rules, sample, seed) if sample is not None else None
    total = rules.size if secrets is None else len(secrets)
    with progress_bar(total, f"{strategy} on {rules.describe()}") as advance:
        stats = run(player, secrets, seed=seed, progress=advance)
    if as_json:
        click.echo(json.dumps(stats.to_dict()))
        return
    _print_stats(stats)


def _print_stats(stats) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(no_color=bool(os.environ.get("NO_COLOR")) or None)
    rules = stats.rules
    title = f"{stats.strategy} on {rules.describe()} ({stats.codes:,} codes)"
    table = Table(title=title, show_header=False, title_justify="left")
    table.add_column(style="bold")
    table.add_column()
    table.add_row("first guess", stats.first_guess)
    table.add_row("total guesses", f"{stats.total:,}")
    table.add_row("mean", f"{stats.mean:.4f}")
    table.add_row("max", str(stats.max))
    dist = "  ".join(f"{k}:{n}" for k, n in stats.distribution.items())
    table.add_row("distribution", dist)
    table.add_row(f"lost (> {rules.max_guesses})", str(stats.lost))
    table.add_row("seconds", f"{stats.seconds:.3f}")
    if stats.sample:
        table.add_row(
            "note",
            f"a random sample of {stats.games:,} of the {stats.codes:,} secrets"
            + (f" (seed {stats.seed})" if stats.seed is not None else ""),
        )
    console.print(table)


def main() -> None:
    cli(prog_name="mastermind")


if __name__ == "__main__":
    main()
