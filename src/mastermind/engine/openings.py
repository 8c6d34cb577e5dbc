"""The classic game's openings, shipped with the package (``openings-4x6.json`` beside this
module), so that a review of a classic game values its first move, and knows the best play after
it, without a search and without loading the compiled search.

Up to the symmetries of the game (permuting the pegs, permuting the colours) there are five first
guesses: 1111, 1112, 1122, 1123 and 1234. For each the file holds the least total over the 1,296
secrets when it is played first (5625 for 1123, the optimum, Koyama and Lai 1993) and, for each
reply, the least total of the codes left within the guesses left and a guess that reaches it:
the first level of the optimal tree with that first guess forced (``mastermind evaluate -s
optimal --first G``). Any other first guess is mapped onto its pattern by a symmetry, and the
best guesses found there are mapped back.

The figures are exact facts of the game, independent of any version of the search;
tests/test_review.py rebuilds the file with the compiled search (:func:`build`) and checks that
it is the same. ``python -m mastermind.engine.openings`` writes it.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from ..core.code import CodeSpace
from ..core.rules import Rules

#: The file's name, beside this module.
BOOK = "openings-4x6.json"

#: The game the book is of (the guess limit included: the totals are within it).
RULES = Rules()


def pattern(colors: tuple[int, ...], n_colors: int) -> tuple[tuple[int, ...], list[int], list[int]]:
    """A first guess's pattern and a symmetry that maps the guess onto it.

    Returns (the pattern's colours, peg order, colour map): the pattern is the guess with its
    colours renamed 0, 1, 2... by how often they occur (most first, then by colour) and its pegs
    sorted by the new names, so 6 3 6 1 becomes 0 0 1 2. A code c maps to
    ``tuple(colour_map[c[p]] for p in peg_order)``; the guess maps onto the pattern.
    """
    counts: dict[int, int] = {}
    for c in colors:
        counts[c] = counts.get(c, 0) + 1
    named = sorted(counts, key=lambda c: (-counts[c], c))
    others = [c for c in range(n_colors) if c not in counts]
    colour_map = [0] * n_colors
    for new, old in enumerate(named + others):
        colour_map[old] = new
    peg_order = sorted(range(len(colors)), key=lambda p: (colour_map[colors[p]], p))
    return tuple(colour_map[colors[p]] for p in peg_order), peg_order, colour_map


class Openings:
    """The book of the classic game's first moves (see the module)."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.space = CodeSpace.of(RULES)
        self.openings = {tuple(o["guess"]): o for o in data["openings"]}
        self.total = int(data["total"])
        self.best = self.space.index(tuple(data["best"]))

    def first(self, guess: int) -> tuple[int, dict[int, tuple[int, int]]]:
        """The least total of the game with ``guess`` (a code index) played first, and for each
        of its replies (but the win) the least total of the codes left and a guess reaching it."""
        colors = self.space.code(guess).colors
        shape, peg_order, colour_map = pattern(colors, RULES.colors)
        opening = self.openings[shape]
        back = [0] * RULES.colors
        for old, new in enumerate(colour_map):
            back[new] = old
        cells = {}
        for reply, cost, best in opening["cells"]:
            code = [0] * RULES.pegs
            for i, p in enumerate(peg_order):  # the inverse of the symmetry that took guess to shape
                code[p] = back[best[i]]
            cells[int(reply)] = (int(cost), self.space.index(tuple(code)))
        return int(opening["total"]), cells


@cache
def _book() -> Openings:
    return Openings(json.loads(resources.files(__package__).joinpath(BOOK).read_text()))


def openings_of(rules: Rules) -> Openings | None:
    """The book of ``rules``'s openings, or None where there is none (any game but the classic
    one with its guess limit of 10)."""
    return _book() if rules == RULES else None


def build() -> dict[str, Any]:
    """The book, searched now by the compiled search (each pattern's optimal tree with it
    forced first; seconds each)."""
    from ..strategies.optimal.strategy import Optimal

    space = CodeSpace.of(RULES)
    openings = []
    shapes = sorted({pattern(space.code(i).colors, RULES.colors)[0] for i in range(space.size)})
    best: tuple[int, tuple[int, ...]] | None = None
    for shape in shapes:
        root = Optimal(RULES, first=space.index(shape), cache=False).decision_tree()
        cells = [[f, child.cost, list(space.code(child.guess).colors)]
                 for f, child in sorted(root.children.items())]  # fmt: skip
        openings.append({"guess": list(shape), "total": root.cost, "cells": cells})
        if best is None or root.cost < best[0]:
            best = (root.cost, shape)
    assert best is not None
    return {"rules": "4 pegs, 6 colours, repeats, 10 guesses", "total": best[0], "best": list(best[1]),
            "openings": openings}  # fmt: skip


def main() -> None:  # pragma: no cover - writes the shipped file
    from pathlib import Path

    path = Path(__file__).with_name(BOOK)
    path.write_text(json.dumps(build(), separators=(",", ":")) + "\n")
    print(f"written {path}")


if __name__ == "__main__":  # pragma: no cover
    main()
