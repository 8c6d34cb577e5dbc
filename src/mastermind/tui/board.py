"""The pieces of the board: code pegs, key pegs, the rows, the palette.

Every colour is drawn as a coloured peg that also shows the colour's symbol in the game's
notation (what the player types), so the board reads without telling colours apart. Key pegs
are shapes (● black, ○ white, · none) followed by their count in the initials of the game's
words (2B 1W; in Bulls and Cows, 2B 1C).
"""

from __future__ import annotations

import colorsys
from dataclasses import dataclass

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static

from ..core.display import PEG_COLOURS
from ..core.feedback import Feedback
from ..core.notation import COLOR_NAMES, Notation, Terms

BLACK_KEY, WHITE_KEY, NO_KEY = "●", "○", "·"


def peg_color(color: int) -> str:
    """The background of a code peg: the palette's colours first (the notebook's and the web board's),
    then hues spread around the wheel, as hex (which the terminal takes)."""
    if color < len(PEG_COLOURS):
        return PEG_COLOURS[color]
    hue = (color * 0.618034) % 1.0
    r, g, b = colorsys.hls_to_rgb(hue, 0.45 + 0.15 * (color % 3) / 2, 0.75)
    return f"#{int(r * 255):02x}{int(g * 255):02x}{int(b * 255):02x}"


def ink_for(background: str) -> str:
    """Black or white, whichever reads better on ``background``."""
    r, g, b = (int(background[i : i + 2], 16) for i in (1, 3, 5))
    return "#000000" if 0.299 * r + 0.587 * g + 0.114 * b > 140 else "#ffffff"


def color_name(color: int) -> str:
    return COLOR_NAMES[color] if color < len(COLOR_NAMES) else f"colour {color + 1}"


def peg_text(notation: Notation, color: int | None, width: int = 3) -> Text:
    """One code peg: its symbol on its colour, or a hole not filled yet; the blank (a hole left
    empty on purpose, one more colour) is its symbol - in a dark hole."""
    if color is None:
        return Text("·".center(width), style="#6b7b86")
    symbol = notation.format_code([color])
    if color == notation.rules.blank_color:
        return Text(symbol.center(width), style="bold #aeb8c0 on #161d22")
    bg = peg_color(color)
    return Text(symbol.center(width), style=f"bold {ink_for(bg)} on {bg}")


def pegs_text(notation: Notation, colors, gap: str = " ") -> Text:
    """A code as a row of pegs (see :func:`peg_text`), ``gap`` between them."""
    text = Text()
    for i, c in enumerate(colors):
        if i:
            text.append(gap)
        text.append_text(peg_text(notation, c))
    return text


#: The key pegs' colours: a black peg is drawn black and a white one white, as the words say, in
#: holes on a grey strip (a black peg on the dark board would not be seen).
KEY_STRIP, KEY_HOLE, KEY_BLACK, KEY_WHITE = "#7b8791", "#3d4850", "#000000", "#f4f4f4"


def key_width(pegs: int) -> int:
    """Columns of one key peg: two, larger than a character, where the row has room for them (a
    game of up to six pegs); one beyond."""
    return 2 if pegs <= 6 else 1


def keys_text(reply: Feedback | None, pegs: int, gap: str = " ") -> Text:
    """Key pegs, one hole per peg of the code, black pegs first, then white ones, then the empty
    holes, each a block of its colour with its shape inside (● black, ○ white, · none: the row still
    reads without colour), ``gap`` (a column of the grey strip) between two."""
    width = key_width(pegs)
    black, white = (reply.black, reply.white) if reply is not None else (0, 0)
    shapes = [BLACK_KEY] * black + [WHITE_KEY] * white
    shapes += [NO_KEY] * (pegs - len(shapes))
    text = Text(style=f"on {KEY_STRIP}")
    for i, shape in enumerate(shapes):
        if i:
            text.append(gap)
        if shape == BLACK_KEY:
            style = f"bold #8a8a8a on {KEY_BLACK}"
        elif shape == WHITE_KEY:
            style = f"bold #5a5a5a on {KEY_WHITE}"
        else:
            style = f"#6b7b86 on {KEY_HOLE}"
        text.append(shape.center(width), style=style)
    return text


def reply_count(reply: Feedback, terms: Terms) -> str:
    """A reply in the initials of the game's words: 2B 1W, or 2B 1C for 2 bulls and 1 cow."""
    return f"{reply.black}{terms.keys[0]} {reply.white}{terms.keys[1]}"


def count_text(reply: Feedback | None, terms: Terms) -> Text:
    if reply is None:
        return Text("")
    return Text(reply_count(reply, terms), style="bold")


class Peg(Static):
    """One hole of a row (row 0: the code's row); a click on it in the row being entered puts
    the cursor there."""

    @dataclass
    class Clicked(Message):
        row: int
        index: int

    def __init__(self, row: int, index: int) -> None:
        super().__init__(id=f"peg-{row}-{index}", classes="peg")
        self.row = row
        self.index = index

    def on_click(self, event: events.Click) -> None:
        self.post_message(self.Clicked(self.row, self.index))


class KeyHoles(Static):
    """The key pegs of a row; in a row whose reply is being entered, a click on a hole cycles it
    through none, black and white."""

    @dataclass
    class Clicked(Message):
        row: int
        hole: int

    def __init__(self, row: int, pegs: int) -> None:
        super().__init__(id=f"keys-{row}", classes="keys")
        self.row = row
        self.pegs = pegs

    def on_click(self, event: events.Click) -> None:
        event.stop()
        offset = event.get_content_offset(self)
        x = offset.x if offset is not None else event.x
        self.post_message(self.Clicked(self.row, max(0, x) // (key_width(self.pegs) + 1)))


class BoardRow(Horizontal):
    """One row of the board: its number, the code pegs, the key pegs and their count."""

    @dataclass
    class Clicked(Message):
        row: int

    def __init__(self, row: int, pegs: int) -> None:
        super().__init__(id=f"row-{row}", classes="row")
        self.row = row
        self.pegs = pegs

    def compose(self) -> ComposeResult:
        yield Static(f" {self.row:>3}", classes="number")
        with Horizontal(classes="code"):
            for i in range(self.pegs):
                yield Peg(self.row, i)
        yield KeyHoles(self.row, self.pegs)
        yield Static("", classes="count")

    def on_click(self, event: events.Click) -> None:
        self.post_message(self.Clicked(self.row))

    def show(
        self,
        notation: Notation,
        colors,
        reply: Feedback | None,
        cursor: int | None = None,
        marked: bool = False,
    ) -> None:
        """Draw the row: ``colors`` (None for an empty hole), the reply (None: not given yet) and,
        in the row being entered, the cursor under one hole; ``marked``: the row being played."""
        self.query_one(".number", Static).update(f"{'▶' if marked else ' '}{self.row:>3}")
        for i, peg in enumerate(self.query(Peg).results(Peg)):
            color = colors[i] if i < len(colors) else None
            text = peg_text(notation, color)
            if cursor == i:
                text.stylize("underline reverse" if color is None else "underline")
            peg.update(text)
            peg.set_class(cursor == i, "cursor")
        self.query_one(KeyHoles).update(keys_text(reply, self.pegs))
        self.query_one(".count", Static).update(count_text(reply, notation.terms))


class PaletteColor(Static):
    """A colour to pick with the mouse (or by typing its symbol)."""

    @dataclass
    class Picked(Message):
        color: int

    def __init__(self, notation: Notation, color: int) -> None:
        super().__init__(id=f"color-{color}", classes="chip")
        self.color = color
        symbol, word = notation.format_code([color]), notation.terms.symbol
        if color == notation.rules.blank_color:
            self.tooltip = f"the blank, a hole left empty: type {symbol} or ."
        else:  # in Bulls and Cows a peg is a digit, whatever colour it is drawn in
            self.tooltip = f"{color_name(color)}: type {symbol}" if word == "colour" else f"{word} {symbol}"
        self.update(peg_text(notation, color))

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(self.Picked(self.color))


class Palette(Widget):
    """Every colour of the game, in order, with its symbol."""

    def __init__(self, notation: Notation) -> None:
        super().__init__(id="palette")
        self.notation = notation

    def compose(self) -> ComposeResult:
        for color in range(self.notation.rules.colors):
            yield PaletteColor(self.notation, color)

    def on_resize(self, event: events.Resize) -> None:
        """As many colours to a line as the width takes (a chip and a space each)."""
        self.styles.grid_size_columns = max(1, (event.size.width + 1) // 4)


#: The narrowest side panel beside the board: narrower, words would be cut, and it goes under it.
SIDE_MIN = 28


def board_width(pegs: int) -> int:
    """The columns the board takes beside the panel: its padding and border, the row number, the
    code pegs (3 and a gap each), the key pegs on their strip, the count (as app.CSS draws them)."""
    keys = pegs * key_width(pegs) + (pegs - 1) + 2
    return 2 + 1 + 5 + 4 * pegs + keys + 7


def board_layout(size: tuple[int, int], pegs: int, rows: int) -> tuple[bool, bool]:
    """(stacked, spaced) for a screen of ``size`` (columns, lines): the panel under the board when
    it would be narrower than SIDE_MIN beside it; a blank line between rows when every row, and the
    code's row, still fit the screen (pegs of one colour in consecutive rows then do not merge)."""
    width, height = size
    stacked = width - board_width(pegs) < SIDE_MIN
    spaced = not stacked and height - 2 >= 2 * rows + 2  # the header and the footer: a line each
    return stacked, spaced
