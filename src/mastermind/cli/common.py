"""What every command shares: exit statuses and errors, the strategy and seed options, the
player and the history given on the line, and the history's options."""

from __future__ import annotations

import functools
import itertools
import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

import click

from .game_options import game_notation

if TYPE_CHECKING:  # names for the annotations only: `mastermind --help` imports none of them
    import numpy as np

    from .. import Code, Feedback, Rules, SolverState, Strategy
    from ..history.store import Store, StoredGame

#: Exit statuses: 0 done (a game won), 1 a game not won (lost, or given up), 2 bad input.
EXIT_OK, EXIT_NOT_WON, EXIT_USAGE = 0, 1, 2


#: The key of the context's meta where a command whose --json a program reads keeps the object
#: it prints on stdout when it fails (:func:`fail_as_json`).
_FAILURE_JSON = "mastermind.failure_json"


def fail(message: str) -> NoReturn:
    """One line on stderr and exit status 2 (and, under :func:`fail_as_json`, the command's JSON
    object with the line as its ``error`` on stdout)."""
    click.echo(f"mastermind: error: {message}", err=True)
    ctx = click.get_current_context(silent=True)
    report = None if ctx is None else ctx.meta.get(_FAILURE_JSON)
    if report is not None:
        import json

        click.echo(json.dumps({**report, "error": message}))
    sys.exit(EXIT_USAGE)


def fail_as_json(report: dict[str, Any]) -> None:
    """From here on this command fails with ``report`` and the error on stdout as well: its
    --json is a result a program reads, and a failure is one too (the line on stderr stays)."""
    click.get_current_context().meta[_FAILURE_JSON] = report


def strategy_help() -> str:
    """The registry's strategies and their summaries (imported only when help is shown)."""
    from ..strategies import STRATEGIES

    return "; ".join(f"{s.name}: {s.summary}" for s in STRATEGIES)


class StrategyOption(click.Option):
    """An option whose help lists the registered strategies, read from the registry when shown."""

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        plain = self.help
        self.help = f"{plain} {strategy_help()}."
        try:
            return super().get_help_record(ctx)
        finally:
            self.help = plain


def registered_name(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """The registry's own spelling of a strategy name (KNUTH is knuth); an unknown one is refused."""
    from ..strategies import find_strategy

    return None if value is None else find_strategy(value).name


def strategy_given() -> bool:
    """Whether --strategy was given on the command line (not its default)."""
    ctx = click.get_current_context()
    return ctx.get_parameter_source("strategy") == click.core.ParameterSource.COMMANDLINE


def strategy_option(command: Callable) -> Callable:
    return click.option(
        "--strategy",
        "-s",
        cls=StrategyOption,
        default="knuth",
        show_default=True,
        metavar="NAME",
        help="Codebreaking strategy:",
        callback=registered_name,
    )(command)


# --- shared pieces of the commands below ------------------------------------------------------------


def long_search_note(
    player: Strategy, state: SolverState | None = None, way_out: str = "", resumes: bool = False
) -> str | None:
    """:func:`mastermind.games.sessions.search_note`: before a strategy's exact search that may
    be long, what it costs and how to stop it, in a line; None where the search is quick."""
    from ..games.sessions import search_note

    return search_note(player, state, way_out, resumes)


def note_long_search(
    player: Strategy, state: SolverState | None = None, way_out: str = "", resumes: bool = False
) -> bool:
    """:func:`long_search_note` on stderr, where there is one (on a terminal or not: it is the one
    line a run off a terminal shows before its end); whether there was one."""
    note = long_search_note(player, state, way_out, resumes)
    if note is not None:
        click.echo(f"mastermind: note: {note}", err=True)
    return note is not None


#: The way out of a long exact search when a guess is asked for (solve, hints).
HEURISTIC_WAY_OUT = "a heuristic strategy answers in seconds (--strategy entropy); "


def seed_option(help: str) -> Callable:
    """--seed N, checked as it is read (a negative seed is refused even where no seed is used)."""

    def check(ctx: click.Context, param: click.Parameter, value: int | None) -> int | None:
        from ..core.seeds import check_seed

        return check_seed(value)

    return click.option("--seed", type=int, metavar="N", callback=check, help=help)


def make_player(name: str, rules: Rules, seed: int | None, first: str | None = None) -> Strategy:
    """A strategy from the registry, ready for a game (randomised ones get a generator from ``seed``)."""

    from ..core.seeds import generator
    from ..strategies import make_strategy

    player = make_strategy(name, rules, first=first)
    player.new_game(generator(seed))
    return player


def parse_history(rules: Rules, items: tuple[str, ...]) -> list[tuple[Code, Feedback]]:
    return game_notation(rules).parse_history(list(items))


def candidates_or_fail(
    rules: Rules, history: Sequence[tuple[Code, Feedback]]
) -> tuple[SolverState, np.ndarray]:
    """The candidate indices of a history; one no game could have had ends the command in one
    line (:func:`check_history_or_fail`)."""
    from ..deduction.state import SolverState

    check_history_or_fail(rules, history)
    state = SolverState(rules, history)
    return state, state.candidate_indices()


def check_history_or_fail(rules: Rules, history: Sequence[tuple[Code, Feedback]]) -> None:
    """End the command in one line on a history no game could have had: a guess after a win, more
    guesses than the game allows, replies that contradict each other (which rows, and the
    corrections that mend them): the engine's :func:`~mastermind.games.moves.check_history`."""
    from ..errors import MastermindError
    from ..games.moves import check_history

    try:
        check_history(rules, history, game_notation(rules))
    except MastermindError as err:
        fail(str(err))


# --- the history: where games are saved as they are played ------------------------------------------


def open_store(db: str | None, hint: str = "", write: bool = True, missing_ok: bool = False) -> Store:
    """The history database (``--db``, MASTERMIND_DB or the default); one line and exit 2 if unusable
    (``write``: also if it cannot be written; a command that only reads: also if ``--db`` names a
    file that is not there, where an empty history would hide a mistyped path, unless
    ``missing_ok``: a command with more to do than read it)."""
    from ..errors import StoreError
    from ..history.store import Store

    if not write and not missing_ok and db and not os.path.lexists(db):
        from ..core.text import PATH_LIMIT, quote

        fail(f"the history database {quote(db, PATH_LIMIT)} does not exist (no game was saved there)")

    def read_stored(record: dict[str, Any]) -> object:  # the engine loaded only when a game is asked for
        from ..games.game_record import read_stored

        return read_stored(record)

    try:
        store = Store(db, write=write, reader=read_stored)
    except StoreError as err:
        fail(f"{err}{hint}")
    ctx = click.get_current_context(silent=True)
    if ctx is not None:
        ctx.call_on_close(store.close)
    return store


def note_left_out(store: Store) -> None:
    """On stderr, once: the damaged games the listing left out (asked for alone, each says why)."""
    ids = store.left_out
    if ids:
        which = ", ".join(map(str, ids))
        games = f"game {which} is" if len(ids) == 1 else f"games {which} are"
        click.echo(
            f"mastermind: warning: {games} damaged in the history and left out "
            f"(mastermind history {ids[0]} says why)",
            err=True,
        )


def db_option(command: Callable) -> Callable:
    return click.option(
        "--db",
        metavar="PATH",
        type=click.Path(dir_okay=False),
        help="The history database [MASTERMIND_DB, or history.sqlite3 in the user data directory].",
    )(command)


def history_options(command: Callable) -> Callable:
    """``--db PATH`` and ``--no-history``; passes ``store`` (None when the history is off)."""

    @db_option
    @click.option("--no-history", is_flag=True, help="Do not save this game in the history.")
    @functools.wraps(command)
    def wrapper(**kwargs: Any) -> Any:
        db, off = kwargs.pop("db"), kwargs.pop("no_history")
        kwargs["store"] = None if off else open_store(db, "; use --no-history to play without it")
        return command(**kwargs)

    return wrapper


class TakesGameId(click.Command):
    """A command that takes a game's id, where click reads a negative one (-1) as an option and
    says "No such option '-1'": ``--resume -1`` (or ``--resume=-1``) and an ID argument of -1
    are refused as the history refuses any number it has not, "there is no game -1 in the
    history", in one line (no game has a number below 1)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        for arg, after in itertools.zip_longest(args, args[1:], fillvalue=""):
            if arg == "--":
                break
            name, _, value = arg.partition("=")
            value = after if arg == "--resume" else value if name == "--resume" else ""
            if _negative(value):
                fail(f"there is no game {value} in the history")
        try:
            return super().parse_args(ctx, args)
        except click.NoSuchOption as err:
            takes_id = any(isinstance(p, click.Argument) and p.name == "game_id" for p in self.params)
            if takes_id and _negative(err.option_name):
                fail(f"there is no game {err.option_name} in the history")
            raise


def _negative(text: str) -> bool:
    """Whether ``text`` is a negative whole number (which click takes for an option)."""
    return text.startswith("-") and text[1:].isdigit()


def resume_option(command: Callable) -> Callable:
    return click.option(
        "--resume",
        is_flag=False,
        flag_value="latest",
        default=None,
        metavar="[ID]",
        help="Go on with the latest unfinished game of this kind in the history (or game ID): the same "
        "secret and rows; the game keeps its own settings (an option that would change them, such as "
        "--pegs, --strategy, --seed or --hard, is refused).",
    )(command)


def refuse_with_resume(*names: str) -> None:
    """--resume goes on with a saved game as it was made: an option among ``names`` (the
    parameters that make a game: its rules, strategy, seed, mode) given on the command line
    would be silently ignored, so it is refused in one line (exit status 2)."""
    ctx = click.get_current_context()
    typed = click.core.ParameterSource.COMMANDLINE  # (not a default, nor an environment variable)
    for param in ctx.command.params:
        if param.name in names and ctx.get_parameter_source(param.name) == typed:
            option = next(o for o in param.opts if o.startswith("--"))  # --pegs, not -p
            fail(
                "--resume goes on with the saved game as it was made (its rules, players, strategy, seed and "
                f"mode): it takes no {option}"
            )


def resumable(store: Store | None, kind: str, which: str) -> StoredGame:
    """The stored game to resume: the latest unfinished one of ``kind``, or game ``which``."""

    def noun_of(kind: str) -> str:
        return "match" if kind == "match" else f"{kind} game"

    noun = noun_of(kind)
    if store is None:
        fail("--resume needs the history, and --no-history turns it off")
    if which == "latest":
        stored = store.latest_unfinished(kind)
        if stored is None:
            fail(f"there is no unfinished {noun} in the history {store.path} to resume")
        return stored
    if not which.isdigit():
        from ..core.text import quote

        fail(f"--resume takes a game's id (a number, see 'mastermind history'), not {quote(which)}")
    stored = store.get(int(which))
    if stored.kind != kind:
        fail(f"game {stored.id} is a {noun_of(stored.kind)}, not a {noun}")
    if stored.finished:
        fail(
            f"{'match' if kind == 'match' else 'game'} {stored.id} is over ({stored.outcome}): there is "
            "nothing to resume"
        )
    return stored
