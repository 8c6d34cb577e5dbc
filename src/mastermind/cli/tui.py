"""tui: the game on a board in the terminal (the optional ``tui`` extra)."""

from __future__ import annotations

import contextlib
import sys
from typing import TYPE_CHECKING, Any

import click

from . import cli
from .common import fail
from .game_options import game_options, notation_style, rules_given

if TYPE_CHECKING:
    from .. import Rules
    from ..tui.app import MastermindApp


def need(module: str, what: str) -> None:
    """One line and exit 2 when the optional extra is not installed."""
    import importlib

    try:
        importlib.import_module(module)
    except ImportError:
        from ..runtime.install import install_command

        fail(f"{what} needs the tui extra ({module} is not installed): {install_command('tui')}")


def need_terminal() -> None:
    """One line and exit 2 when the standard input is not a terminal: the app reads its keys
    there, and on a file or a pipe it would wait for them until killed."""
    if not sys.stdin.isatty():
        fail(
            "mastermind tui needs a terminal, and its input is not one "
            "(to play from a file or a pipe, use mastermind play or mastermind guess)"
        )


GAME_OPTIONS_HELP = """
    The game options (--preset, --pegs, --colors, --no-repeats, --blank, --max-guesses,
    --notation, as for play) start the app with that game instead of the remembered one, for
    this run: they are not saved, unless you start a game from the settings screen (Escape,
    s), which saves what it starts. Without them the remembered game is played."""


def app_for(rules: Rules, **kwargs: Any) -> MastermindApp:
    """The app, with ``rules`` and the --notation if the command line gave them (the games package's error
    if they make no game with the remembered mode and players: one line, exit 2)."""
    from ..tui.app import MastermindApp

    return MastermindApp(rules=rules if rules_given() else None, notation=notation_style(), **kwargs)


@cli.command(
    help=f"""Play on a board in the terminal: keys or mouse, hints, undo, matches, history.

    You break the computer's code, the computer breaks yours, or two players (people or
    strategies) play a match. Escape opens the menu (new game, settings, history, help);
    Ctrl+Q quits, and a game left unfinished is kept: --resume ID goes on with it (as the
    history screen does: Escape, h). Settings are remembered in the user config directory (MASTERMIND_CONFIG
    names another file).
    {GAME_OPTIONS_HELP}

    \b
    Examples:
      mastermind tui
      mastermind tui --preset bulls-and-cows
      mastermind tui --blank --max-guesses 12 --no-history
      mastermind tui --resume 3                # go on with game 3 of the history
    """
)
@game_options
@click.option(
    "--db",
    metavar="PATH",
    type=click.Path(dir_okay=False),
    help="The history database [MASTERMIND_DB, or history.sqlite3 in the user data directory].",
)
@click.option("--no-history", is_flag=True, help="Do not save the games in the history.")
@click.option(
    "--resume",
    type=int,
    metavar="ID",
    help="Start on game (or match) ID of the history, left unfinished, from its last move.",
)
def tui(rules: Rules, db: str | None, no_history: bool, resume: int | None) -> None:
    need("textual", "the terminal UI")
    app = app_for(rules, history=False)  # bad options are said before the history is opened
    from .common import open_store, resumable

    app.store = None if no_history else open_store(db, "; use --no-history to play without it")
    if resume is not None:
        if rules_given():
            fail("--resume goes on with the saved game's own rules: it takes no game options")
        if app.store is None:
            fail("--resume needs the history, and --no-history turns it off")
        app.resume_first = resumable(app.store, app.store.get(resume).kind, str(resume))
    need_terminal()  # after the options and the history, whose errors are said first
    from .progress import live_note

    # the app owns the screen: the command's compile notice (a line on stderr) would be written
    # across it and stay through its redraws; the app says it in its own status instead
    with live_note(lambda note: None):
        app.run()
    say_unfinished(app)
    if app.return_code:  # the app stopped on an error it has shown: the command did not succeed
        raise SystemExit(app.return_code)


def say_unfinished(app: MastermindApp) -> None:
    """After the app, the terminal given back: the game it was left with, if unfinished, and how to
    go on with it, in one line (as play says it when stopped)."""
    stored = app.left_unfinished()
    if stored is None:
        return
    from .recording import Recorder

    noun = "match" if stored.kind == "match" else "game"
    with contextlib.suppress(OSError):  # a hung-up terminal (SIGHUP) takes no more lines: the game is kept
        click.echo(f"Stopped {noun} {stored.id}{Recorder(app.store, stored.id).resume_hint('tui')}.")
