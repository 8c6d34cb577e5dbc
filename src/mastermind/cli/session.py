"""A session driven at the terminal: its lines read at its prompts (a secret without echo) and
what it gives shown as it comes."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING

import click

from .console import EMPHASIS, board, board_row, escape

if TYPE_CHECKING:  # names for the annotations only: `mastermind --help` imports none of them
    from rich.console import Console

    from .. import Notation
    from ..games.sessions import Out, Session


def ask(prompt: str, err: bool = False) -> str | None:
    """One line from the user, stripped; None at end of input. ``err``: prompt on stderr."""
    try:
        if err:
            click.echo(prompt, nl=False, err=True)
            line = input()
        else:
            line = input(prompt)
    except EOFError:
        click.echo(err=err)
        return None
    line = readable(line)
    if not sys.stdin.isatty():  # scripted input: show it, so the transcript reads like a session
        click.echo(line, err=err)
    return line.strip()


def readable(line: str) -> str:
    """A line as typed, each byte of it that is not text (which Python reads as a lone surrogate)
    made the replacement character, so that a message quoting the line shows that character
    rather than Python's escape of the surrogate."""
    return line.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def show(console: Console, notation: Notation, outs: Iterable[Out]) -> None:
    """What a session gives, printed as it comes: its words in their colours, the board, a row."""
    from ..games.sessions import Board, Row

    rules = notation.rules
    for out in outs:
        if isinstance(out, Board):
            board(console, notation, out.history, rules, out.secret)
        elif isinstance(out, Row):
            board_row(console, notation, out.number, out.guess, out.reply, rules)
        elif any(emphasis for _, emphasis in out.parts):
            console.print("".join(f"[{EMPHASIS[e]}]{escape(t)}[/]" if e else escape(t) for t, e in out.parts))
        else:
            console.print(str(out), markup=False)


def drive(session: Session, console: Console, err: bool) -> bool:
    """A session connected to the terminal: its opening shown, then each line read at its prompt
    (a secret without echo) and what it leads to shown, until it is done (True) or the input
    ends (False). Ctrl-C is the caller's."""
    show(console, session.notation, session.start())
    while not session.done:
        line = (hidden if session.hidden else ask)(session.prompt, err)
        if line is None:
            return False
        show(console, session.notation, session.answer(line))
    return True


def hidden(prompt: str, err: bool) -> str | None:
    """A secret typed without echo: on a terminal through getpass, and scripted input is not
    copied to the transcript either (as every other answer is)."""
    if sys.stdin.isatty():
        import getpass

        try:
            return getpass.getpass(prompt).strip()
        except EOFError:
            return None
    click.echo(prompt, nl=False, err=err)
    try:
        line = input()
    except EOFError:
        click.echo(err=err)
        return None
    click.echo(err=err)
    return readable(line).strip()
