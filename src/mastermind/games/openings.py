"""The openings of the classic game and of 4 pegs and 7 colours, shipped with the package
(``openings-4x6.json``, ``openings-4x7.json`` beside this module), so that a review of such a
game values its first move, and knows the best play after it, without a search, without the
optimal tree and without loading the compiled search.

Up to the symmetries of a game of 4 pegs (permuting the pegs, permuting the colours) there are
five first guesses: 1111, 1112, 1122, 1123 and 1234. For each the file holds the least total
over all the secrets when it is played first (5625 of 1,296 for 1123, the classic optimum,
Koyama and Lai 1993) and, for each reply, the least total of the codes left within the guesses
left and a guess that reaches it: the first level of the optimal tree with that first guess
forced (``mastermind evaluate -s optimal --first G``). Any other first guess is mapped onto its
pattern by a symmetry, and the best guesses found there are mapped back.

The figures are exact facts of the game, independent of any version of the search:
tests/test_review.py rebuilds the classic book with the compiled search (:func:`build`) and
checks that it is the same, and checks the 4x7 book's optimum against results/4x7-optimal.tree.gz.
``python -m mastermind.games.openings [classic|4x7]`` writes them (4x7: minutes).
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from ..core.code import CodeSpace
from ..core.rules import Rules

#: The games with a book (the guess limit included: the totals are within it), and its file.
BOOKS = {"classic": (Rules(), "openings-4x6.json"), "4x7": (Rules(pegs=4, colors=7), "openings-4x7.json")}

#: The classic game's book, its file.
BOOK = BOOKS["classic"][1]


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

    def __init__(self, rules: Rules, data: dict[str, Any]) -> None:
        self.rules = rules
        self.space = CodeSpace.of(rules)
        self.openings = {tuple(o["guess"]): o for o in data["openings"]}
        self.total = int(data["total"])
        self.best = self.space.index(tuple(data["best"]))

    def first(self, guess: int) -> tuple[int, dict[int, tuple[int, int]]]:
        """The least total of the game with ``guess`` (a code index) played first, and for each
        of its replies (but the win) the least total of the codes left and a guess reaching it."""
        colors = self.space.code(guess).colors
        shape, peg_order, colour_map = pattern(colors, self.rules.colors)
        opening = self.openings[shape]
        back = [0] * self.rules.colors
        for old, new in enumerate(colour_map):
            back[new] = old
        cells = {}
        for reply, cost, best in opening["cells"]:
            code = [0] * self.rules.pegs
            for i, p in enumerate(peg_order):  # the inverse of the symmetry that took guess to shape
                code[p] = back[best[i]]
            cells[int(reply)] = (int(cost), self.space.index(tuple(code)))
        return int(opening["total"]), cells


@cache
def _book(name: str) -> Openings:
    rules, file = BOOKS[name]
    return Openings(rules, json.loads(resources.files(__package__).joinpath(file).read_text()))


def openings_of(rules: Rules) -> Openings | None:
    """The book of ``rules``'s openings, or None where there is none (a game of :data:`BOOKS`
    with its guess limit of 10 has one)."""
    for name, (game, _) in BOOKS.items():
        if rules == game:
            return _book(name)
    return None


def build(rules: Rules = BOOKS["classic"][0]) -> dict[str, Any]:
    """The book of ``rules``, searched now by the compiled search (each pattern's optimal tree
    with it forced first: seconds each in the classic game, minutes in 4x7)."""
    from ..strategies.optimal.strategy import Optimal

    space = CodeSpace.of(rules)
    openings = []
    shapes = sorted({pattern(space.code(i).colors, rules.colors)[0] for i in range(space.size)})
    best: tuple[int, tuple[int, ...]] | None = None
    for shape in shapes:
        root = Optimal(rules, first=space.index(shape), cache=False).decision_tree()
        cells = [
            [f, child.cost, list(space.code(child.guess).colors)]
            for f, child in sorted(root.children.items())
        ]
        openings.append({"guess": list(shape), "total": root.cost, "cells": cells})
        if best is None or root.cost < best[0]:
            best = (root.cost, shape)
    assert best is not None
    return {
        "rules": f"{rules.describe()}, {rules.max_guesses} guesses",
        "total": best[0],
        "best": list(best[1]),
        "openings": openings,
    }


def main() -> None:  # pragma: no cover - writes the shipped files
    import sys
    from pathlib import Path

    for name in sys.argv[1:] or list(BOOKS):
        rules, file = BOOKS[name]
        path = Path(__file__).with_name(file)
        path.write_text(json.dumps(build(rules), separators=(",", ":")) + "\n")
        print(f"written {path}")


if __name__ == "__main__":  # pragma: no cover
    main()
