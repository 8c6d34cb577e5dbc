"""tui and web: the game on a board, in the terminal or in a browser (the optional ``tui`` extra)."""

from __future__ import annotations

import click

from . import cli
from .common import fail

INSTALL = "pip install 'mastermind-lab[tui]'"


def need(module: str, what: str) -> None:
    """One line and exit 2 when the optional extra is not installed."""
    import importlib

    try:
        importlib.import_module(module)
    except ImportError:
        fail(f"{what} needs the tui extra ({module} is not installed): {INSTALL}")


@cli.command()
@click.option(
    "--db", metavar="PATH", type=click.Path(dir_okay=False),
    help="The history database [MASTERMIND_DB, or history.sqlite3 in the user data directory].",
)  # fmt: skip
@click.option("--no-history", is_flag=True, help="Do not save the games in the history.")
def tui(db: str | None, no_history: bool) -> None:
    """Play on a board in the terminal: keys or mouse, hints, undo, matches, history.

    You break the computer's code, the computer breaks yours, or two players (people or
    strategies) play a match. Escape opens the menu (new game, settings, history, help);
    Ctrl+Q quits. Settings are remembered in the user config directory (MASTERMIND_CONFIG
    names another file).

    \b
    Examples:
      mastermind tui
      mastermind tui --no-history
    """
    need("textual", "the terminal UI")
    from .common import open_store

    store = None if no_history else open_store(db, "; use --no-history to play without it")
    from ..tui.app import MastermindApp

    MastermindApp(store=store, history=not no_history).run()


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535), help="Port.")
def web(host: str, port: int) -> None:
    """Serve the terminal UI to web browsers: each tab its own game.

    Open the address it prints. Every tab runs its own app process, ended with its process
    group when the tab closes or the server stops (Ctrl+C). The page needs no internet.

    \b
    Examples:
      mastermind web
      mastermind web --host 0.0.0.0 --port 8080
    """
    need("textual_serve", "the web page")
    from ..tui.web import serve

    try:
        serve(host, port)
    except OSError as err:  # the port is taken, the address is not this machine's...
        fail(f"cannot serve on {host}:{port}: {err.strerror or err}")
