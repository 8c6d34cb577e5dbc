"""The terminal's look: --no-color, the rich console of a command, and the board drawn on it
(code pegs in their colours, key pegs, one row per guess)."""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:  # names for the annotations only: `mastermind --help` imports none of them
    from rich.console import Console
    from rich.text import Text

    from .. import Code, Feedback, Notation, Rules
    from ..core.notation import Terms


_NO_COLOR_KEY = "mastermind.no_color"


def color_option(command: Callable) -> Callable:
    """``--no-color``: plain text. NO_COLOR in the environment does the same; colour is only ever
    used when the output is a terminal that supports it."""

    @click.option(
        "--no-color",
        "--no-colour",
        "no_color",
        is_flag=True,
        help="No colour or styles (also when NO_COLOR is set).",
    )
    @functools.wraps(command)
    def wrapper(**kwargs: Any) -> Any:
        click.get_current_context().meta[_NO_COLOR_KEY] = kwargs.pop("no_color")
        return command(**kwargs)

    return wrapper


#: What makes rich take a stream for a terminal whatever the stream says (see
#: :func:`stderr_is_terminal`).
_TERMINAL_SAYS = ("FORCE_COLOR", "FORCE_TERMINAL", "TTY_COMPATIBLE")


def stderr_is_terminal() -> bool:
    """Whether stderr is a terminal, as the command's rich console judges it (for a progress bar
    or a note), without importing rich where stderr is plainly a file or a pipe: a command whose
    output goes to a script (``--json``) then never loads it."""
    if not sys.stderr.isatty() and not any(name in os.environ for name in _TERMINAL_SAYS):
        return False
    return console_for(stderr=True).is_terminal


def console_for(stderr: bool = False, file: Any = None) -> Console:
    """A rich console for this command: styled only on a colour terminal and unless told not to
    (on stdout, stderr, or the stream ``file``)."""
    from rich.console import Console

    ctx = click.get_current_context(silent=True)
    plain = bool(os.environ.get("NO_COLOR")) or bool(ctx and ctx.meta.get(_NO_COLOR_KEY))
    console = Console(
        file=file,
        stderr=stderr,
        color_system=None if plain else "auto",
        highlight=False,
        emoji=False,
        soft_wrap=True,
    )
    if not console.is_terminal and "COLUMNS" not in os.environ:
        console.width = 160  # a file or a pipe: do not fold tables at 80 columns
    return console


#: Background colours of the code pegs, by colour number; more colours cycle through the 256-colour set.
_PEG_STYLES = [
    "bold white on red",
    "bold black on green",
    "bold white on blue",
    "bold black on yellow",
    "bold black on dark_orange",
    "bold white on purple",
    "bold black on cyan",
    "bold black on white",
    "bold white on grey35",
    "bold white on magenta",
]


def peg_style(color: int) -> str:
    if color < len(_PEG_STYLES):
        return _PEG_STYLES[color]
    return f"bold black on color({16 + (color * 37) % 216})"


#: The blank is an empty hole: its symbol on no colour.
BLANK_STYLE = "dim"


def styled_code(notation: Notation, code: Code | Sequence[int]) -> Text:
    """A code as coloured pegs for the terminal (its symbols on their colours)."""
    from rich.text import Text

    text = Text()
    symbols = notation.format_code(code)
    blank = notation.rules.blank_color
    for color, symbol in zip(code, symbols, strict=True):
        text.append(f" {symbol} ", style=BLANK_STYLE if color == blank else peg_style(color))
    return text


def keys_text(console: Console, fb: Feedback, pegs: int, terms: Terms | None = None) -> Text:
    from rich.text import Text

    from ..core.notation import MASTERMIND

    utf = (console.encoding or "").lower().startswith("utf")
    keys = (terms or MASTERMIND).keys
    black, white, empty = ("●", "○", "·") if utf else (keys[0], keys[1], ".")
    # black pegs drawn black and white ones white, as the words say, on a grey strip (a black
    # peg on a dark terminal would not be seen; the shapes tell them apart without colour)
    text = Text()
    text.append(black * fb.black, style=f"bold black on {KEY_STRIP}")
    text.append(white * fb.white, style=f"bold bright_white on {KEY_STRIP}")
    text.append(empty * (pegs - fb.black - fb.white), style=f"grey23 on {KEY_STRIP}")
    return text


#: The strip the key pegs sit on, on a terminal.
KEY_STRIP = "grey62"


def board(
    console: Console,
    notation: Notation,
    history: Sequence[tuple[Code, Feedback]],
    rules: Rules,
    secret: Code | None = None,
) -> None:
    """The decoding board: one row per guess, its code pegs and key pegs."""
    from rich.text import Text

    width = len(str(rules.max_guesses))
    if not history and secret is None:
        console.print("  (no guesses yet)")
    for i, (code, fb) in enumerate(history, 1):
        board_row(console, notation, i, code, fb, rules)
    if secret is not None:
        row = Text(f"  {'':>{width}}  ")
        row.append_text(styled_code(notation, secret))
        row.append("   the secret")
        console.print(row)


def board_row(
    console: Console, notation: Notation, number: int, code: Code, fb: Feedback, rules: Rules
) -> None:
    """One row of the board: its number, the code pegs, the key pegs and the reply in words."""
    from rich.text import Text

    row = Text(f"  {number:>{len(str(rules.max_guesses))}}  ")
    row.append_text(styled_code(notation, code))
    row.append("   ")
    row.append_text(keys_text(console, fb, rules.pegs, notation.terms))
    row.append(f"   {notation.terms.reply(fb)}", style="dim")
    console.print(row)


#: How a session's emphasis looks on a terminal.
EMPHASIS = {"error": "red", "alarm": "bold red", "strong": "bold", "won": "bold green"}


def escape(text: str) -> str:
    from rich.markup import escape

    return escape(text)
