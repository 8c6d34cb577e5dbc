"""Rich displays for Jupyter: the HTML and SVG that the library's values draw themselves with
(``_repr_html_``), so a notebook shows a game as a board, a set of candidates as rows of pegs, a
partition as a table, a distribution as a chart and a strategy tree as an outline to unfold.

Plain strings of HTML with inline styles: nothing to install, nothing loaded from elsewhere, and
the same in a notebook, a static export or a documentation page. Each peg shows its symbol, so a
board reads without telling colours apart (the palette is the web board's).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape
from typing import TYPE_CHECKING

from .feedback import Feedback
from .notation import Notation
from .text import plural

if TYPE_CHECKING:
    from .tree import Node

#: The usual peg colours, in the order of the game's colour names (red, green, blue, ...).
PEG_COLOURS = (
    "#d7263d",
    "#2e9e44",
    "#2f6fdf",
    "#f4d03f",
    "#f07f13",
    "#8e44ad",
    "#1fb5c4",
    "#eeeeee",
    "#3b3b3b",
    "#e040a0",
)

#: How many codes a set of candidates shows before saying how many more there are.
CODES_SHOWN = 60

#: How many guesses of a strategy tree are drawn; below them, a line says how many codes are left.
TREE_NODES_SHOWN = 400

_FONT = "font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace"


def peg_colour(color: int) -> str:
    """A colour's fill: the palette's, then hues spread by the golden ratio for more colours."""
    if color < len(PEG_COLOURS):
        return PEG_COLOURS[color]
    hue = round((color * 0.618034) % 1 * 360)
    return f"hsl({hue} 70% {45 + (color % 3) * 8}%)"


def _ink(colour: str) -> str:
    if not colour.startswith("#"):
        return "#fff"
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return "#000" if 0.299 * r + 0.587 * g + 0.114 * b > 140 else "#fff"


def peg(notation: Notation, color: int) -> str:
    """One code peg: a disc of its colour with its symbol (the blank, an empty dashed hole)."""
    symbol = notation.symbols[color]
    symbol = escape(symbol.upper() if notation.style == "colors" else symbol)
    size = "display:inline-block;width:1.6em;line-height:1.6em;border-radius:50%;"
    centre = "text-align:center;margin:0 1px;font-weight:bold"
    if color == notation.rules.blank_color:
        return f'<span style="{size}{centre};border:1px dashed #888;color:#888">{symbol}</span>'
    fill = peg_colour(color)
    return f'<span style="{size}{centre};background:{fill};color:{_ink(fill)}">{symbol}</span>'


def code(notation: Notation, colors: Iterable[int]) -> str:
    """A code as a row of pegs."""
    return '<span style="white-space:nowrap">' + "".join(peg(notation, c) for c in colors) + "</span>"


def keys(fb: Feedback, pegs: int) -> str:
    """Key pegs: a black disc per black, a white disc per white, an empty ring for the rest."""
    dot = (
        "display:inline-block;width:0.7em;height:0.7em;border-radius:50%;margin:0 1px;vertical-align:middle;"
    )
    out = [f'<span style="{dot}background:#111;border:1px solid #111"></span>'] * fb.black
    out += [f'<span style="{dot}background:#fff;border:1px solid #111"></span>'] * fb.white
    out += [f'<span style="{dot}border:1px solid #bbb"></span>'] * (pegs - fb.black - fb.white)
    return '<span style="white-space:nowrap">' + "".join(out) + "</span>"


def board(
    notation: Notation,
    rows: Sequence[tuple[Sequence[int], Feedback | None]],
    title: str,
    status: str,
    marked: Iterable[int] = (),
) -> str:
    """A board: a row per guess (its number, its pegs, its key pegs and its reply in words; a row
    still waiting for its reply has none), the rows of ``marked`` (0-based) in red, then ``status``."""
    marked = set(marked)
    terms = notation.terms
    lines = []
    for n, (guess, fb) in enumerate(rows):
        shade = "background:#fde8e6;" if n in marked else ""
        reply = "" if fb is None else keys(fb, notation.rules.pegs)
        words = "waiting for its reply" if fb is None else terms.reply(fb)
        lines.append(
            f'<tr style="{shade}"><td style="text-align:right;color:#777">{n + 1}</td>'
            f"<td>{code(notation, guess)}</td><td>{reply}</td>"
            f'<td style="color:#555">{escape(words)}</td></tr>'
        )
    return (
        f'<div><div style="font-weight:bold">{escape(title)}</div>'
        f'<table style="border-collapse:collapse">{"".join(lines)}</table>'
        f"<div>{escape(status)}</div></div>"
    )


def codes(notation: Notation, shown: Sequence[Sequence[int]], total: int, title: str) -> str:
    """A set of codes as rows of pegs: the first ``CODES_SHOWN`` and how many more there are."""
    pegs = "".join(
        f'<span style="display:inline-block;margin:2px 8px 2px 0">{code(notation, c)}</span>'
        for c in shown[:CODES_SHOWN]
    )
    more = total - min(len(shown), CODES_SHOWN)
    tail = f'<div style="color:#777">and {plural(more, "more code")}</div>' if more > 0 else ""
    return f'<div><div style="font-weight:bold">{escape(title)}</div><div>{pegs}</div>{tail}</div>'


def table(header: Sequence[str], rows: Iterable[Sequence[str]], title: str = "") -> str:
    """A table of cells already in HTML (the header is escaped)."""
    head = "".join(f'<th style="text-align:left;padding:2px 8px">{escape(h)}</th>' for h in header)
    cell_style = "padding:2px 8px;vertical-align:top"
    body = "".join(
        "<tr>" + "".join(f'<td style="{cell_style}">{cell}</td>' for cell in row) + "</tr>" for row in rows
    )
    caption = f'<div style="font-weight:bold">{escape(title)}</div>' if title else ""
    return f'<div>{caption}<table style="border-collapse:collapse"><tr>{head}</tr>{body}</table></div>'


def bar_chart(counts: dict[int, int], title: str, x_label: str, y_label: str) -> str:
    """A bar chart of ``counts`` (a count per whole number) as inline SVG, each bar labelled."""
    keys_ = sorted(counts)
    width, height, left, bottom, top = 40 * max(len(keys_), 1) + 60, 200, 50, 30, 20
    most = max(counts.values(), default=0) or 1
    bars = []
    for i, k in enumerate(keys_):
        h = (height - top - bottom) * counts[k] / most
        x = left + 40 * i + 6
        y = height - bottom - h
        bars.append(
            f'<rect x="{x}" y="{y:.1f}" width="28" height="{h:.1f}" fill="#2f6fdf"><title>{k}: '
            f"{counts[k]:,}</title></rect>"
            f'<text x="{x + 14}" y="{y - 3:.1f}" font-size="10" text-anchor="middle">{counts[k]:,}</text>'
            f'<text x="{x + 14}" y="{height - bottom + 14}" font-size="11" text-anchor="middle">{k}</text>'
        )
    axis = (
        f'<line x1="{left}" y1="{height - bottom}" x2="{width - 10}" y2="{height - bottom}" stroke="#555"/>'
        f'<text x="{(left + width) / 2}" y="{height - 2}" font-size="11" text-anchor="middle">'
        f"{escape(x_label)}</text>"
        f'<text x="12" y="{(height - bottom) / 2}" font-size="11" text-anchor="middle" '
        f'transform="rotate(-90 12 {(height - bottom) / 2})">{escape(y_label)}</text>'
    )
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'style="font-family:sans-serif">{axis}{"".join(bars)}</svg>'
    )
    return f'<div><div style="font-weight:bold">{escape(title)}</div>{svg}</div>'


def tree(node: Node, notation: Notation, open_levels: int = 1) -> str:
    """A strategy tree as nested ``<details>``: each guess with the codes that reach it, a line per
    reply to unfold; the first ``open_levels`` guesses unfolded. Past ``TREE_NODES_SHOWN`` guesses
    the subtrees are summed up (their codes and depth) instead of drawn."""
    from .code import CodeSpace

    space = CodeSpace.of(notation.rules)
    pegs = notation.rules.pegs
    budget = [TREE_NODES_SHOWN]

    def draw(n: Node, level: int, reply: Feedback | None) -> str:
        budget[0] -= 1
        head = "" if reply is None else f"{keys(reply, pegs)} {escape(str(reply))} &rarr; "
        found = n.size - sum(c.size for c in n.children.values())
        wins = f", {found} found by this guess" if n.children and found else ""
        label = (
            f"{head}{code(notation, space.code(n.guess))} "
            f'<span style="color:#777">{plural(n.size, "code")}{wins}</span>'
        )
        if not n.children:
            return f'<div style="margin-left:1.2em">{label}</div>'
        if budget[0] <= 0:
            deep = plural(n.depth() - 1, "more guess", "more guesses")
            then = f'<span style="color:#777">(then {deep})</span>'
            return f'<div style="margin-left:1.2em">{label} {then}</div>'
        opened = " open" if level < open_levels else ""
        inner = "".join(
            draw(child, level + 1, Feedback.from_int(f, pegs)) for f, child in sorted(n.children.items())
        )
        return f'<details{opened} style="margin-left:1.2em"><summary>{label}</summary>{inner}</details>'

    return f'<div style="{_FONT}">{draw(node, 0, None)}</div>'
