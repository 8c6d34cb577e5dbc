"""Puzzles drawn from the optimal trees: positions of a game with a book of openings (the
classic game and 4x7, :mod:`.openings`) whose best play is known at once, for a player with no
saved game as well as for one with many.

Two depths of the tree are drawn on:

* **after a first guess**: each of the five first guesses of a game of 4 pegs up to symmetry
  (1111, 1112, 1122, 1123, 1234), and each reply that leaves between :data:`FEWEST` and
  :data:`~.puzzles.PUZZLE_LIMIT` codes: the book knows the least total there and a guess that
  reaches it;
* **after the optimal tree's second guess**: the classic optimum's first guess (1123), each
  reply, the book's best guess there, and each reply to it that leaves as many codes.

Only the classic game's trees are drawn on (:data:`TREE_GAMES`): each puzzle's rating needs a
try of every code possible there (about a minute and a half for them all on a fresh cache), so
the counts of accepted codes are shipped with the package (``tree-puzzles-4x6.json`` beside this
module, written by ``python -m mastermind.games.tree_puzzles``; tests/test_puzzles.py checks
them against the search). A position is valued by the exact search of small positions
(:mod:`.positions`, in numpy: no compiled kernel, no wait), and a try at it exactly as a
practice's try (:mod:`.practice`): accepted within :data:`~.practice.MARGIN` expected guesses
of the best. Each puzzle says what the best guess achieves: its expected guesses from there and
the codes it leaves on average (``find the guess that leaves at most 1.2 codes on average here``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from importlib import resources

import numpy as np

from ..core.code import Code, CodeSpace
from ..core.feedback import Feedback
from ..core.rules import Rules
from .openings import Openings, openings_of
from .positions import Positions
from .practice import Position, Practice
from .review import HEURISTIC, LIST_LIMIT

#: The games whose trees give puzzles, and the file of their puzzles' counts of accepted codes.
TREE_GAMES = {"classic": (Rules(), "tree-puzzles-4x6.json")}

#: What takes a position found: its rows, its codes, and (its least total, a guess reaching it).
Adder = Callable[[tuple[tuple[Code, Feedback], ...], np.ndarray, tuple[int, int]], None]

#: A tree puzzle leaves at least this many codes: with two, either is as good as the other.
FEWEST = 3


@dataclass(frozen=True)
class TreeGame:
    """What values a tree puzzle's tries (see :class:`~.practice.Valued`): every position of
    the trees is small enough to be valued exactly, so no time budget."""

    rules: Rules
    budget: float | None = None
    heuristic: str = HEURISTIC


@dataclass(frozen=True)
class TreePosition:
    """A position of the optimal tree, before its guess ``position.number``, and its name: the
    rows as text, the same in every process (``1123-00_4456-02``: 1123 got no peg, then 4456
    got two whites; the web page's puzzles are named by it)."""

    key: str
    position: Position
    best_mean_left: float


def _position(
    space: CodeSpace, rows: tuple[tuple[Code, Feedback], ...], cell: np.ndarray, best: tuple[int, int]
) -> Position:
    n = len(cell)
    total, guess = best
    return Position(
        number=len(rows) + 1,
        rows=rows,
        count=n,
        codes=tuple(space.code(int(i)) for i in cell) if n <= LIST_LIMIT else None,
        played=space.code(guess),  # no game played here: the tree's own guess stands for it
        verdict="best",
        loss=Fraction(0),
        best=space.code(guess),
        best_expected=Fraction(total, n),
    )


def _cells(space: CodeSpace, guess: int, codes: np.ndarray) -> Iterator[tuple[int, np.ndarray]]:
    from .._kernels import cells

    for f, cell in cells(space, guess, codes):
        yield int(f), np.asarray(cell, dtype=np.int64)


def _mean_left(space: CodeSpace, guess: int, codes: np.ndarray) -> float:
    return sum(len(c) ** 2 for _, c in _cells(space, guess, codes)) / len(codes)


def _row(space: CodeSpace, rules: Rules, guess: int, f: int) -> tuple[Code, Feedback]:
    return space.code(guess), Feedback.from_int(f, rules.pegs)


@cache
def tree_positions(rules: Rules) -> tuple[TreePosition, ...]:
    """The positions of the optimal trees of ``rules`` drawn as puzzles (none for a game without
    a book of openings), in the order of the tree: first guess, reply, then deeper."""
    from .positions import positions_of
    from .puzzles import PUZZLE_LIMIT

    book = openings_of(rules)
    if book is None or all(rules != game for game, _ in TREE_GAMES.values()):
        return ()
    space = CodeSpace.of(rules)
    everything = np.arange(space.size, dtype=np.int64)
    win = rules.pegs * (rules.pegs + 1)
    positions = positions_of(rules)
    found: list[TreePosition] = []

    def add(rows: tuple[tuple[Code, Feedback], ...], cell: np.ndarray, best: tuple[int, int]) -> None:
        key = "_".join(f"{''.join(str(c + 1) for c in g.colors)}-{r.black}{r.white}" for g, r in rows)
        found.append(TreePosition(key, _position(space, rows, cell, best), _mean_left(space, best[1], cell)))

    for shape in book.openings:
        first = space.index(shape)
        _, values = book.first(first)
        for f, cell in _cells(space, first, everything):
            if f != win and FEWEST <= len(cell) <= PUZZLE_LIMIT:
                add((_row(space, rules, first, f),), cell, values[f])
    _second(book, space, rules, positions, add)
    return tuple(found)


def _second(book: Openings, space: CodeSpace, rules: Rules, positions: Positions, add: Adder) -> None:
    """The positions after the optimal first guess, a reply and the book's best guess there."""
    from .positions import TooLarge
    from .puzzles import PUZZLE_LIMIT

    everything = np.arange(space.size, dtype=np.int64)
    win = rules.pegs * (rules.pegs + 1)
    _, values = book.first(book.best)
    for f, cell in _cells(space, book.best, everything):
        if f == win:
            continue
        second = values[f][1]
        for g, part in _cells(space, second, cell):
            if g == win or not FEWEST <= len(part) <= PUZZLE_LIMIT:
                continue
            # only positions the numpy search of small positions values (never the compiled search,
            # which may have to be compiled first): one it gives up on is no puzzle
            try:
                best = positions.small.solve(part, rules.max_guesses - 2)
            except TooLarge:
                continue
            if best is not None:
                rows = (_row(space, rules, book.best, f), _row(space, rules, second, g))
                add(rows, part, best)


def tree_practice(rules: Rules) -> Practice:
    """A practice of the tree's positions (each tried as often as wished)."""
    return Practice(TreeGame(rules), tuple(t.position for t in tree_positions(rules)))


def accepted_counts(rules: Rules) -> dict[str, int]:
    """The shipped counts of accepted codes of ``rules``'s tree puzzles, by their key ({} where
    none is shipped)."""
    for game, file in TREE_GAMES.values():
        if game == rules:
            return dict(json.loads(resources.files(__package__).joinpath(file).read_text()))
    return {}


def build(rules: Rules = TREE_GAMES["classic"][0]) -> dict[str, int]:
    """The counts of accepted codes of ``rules``'s tree puzzles, by trying every code possible at
    each now (the exact search of small positions)."""
    from .puzzles import rate

    practice = tree_practice(rules)
    return {t.key: rate(practice, t.position).accepted for t in tree_positions(rules)}


def main() -> None:  # pragma: no cover - writes the shipped file
    from pathlib import Path

    for rules, file in TREE_GAMES.values():
        path = Path(__file__).with_name(file)
        path.write_text(json.dumps(build(rules), indent=0, sort_keys=True) + "\n")
        print(f"written {path}")


if __name__ == "__main__":  # pragma: no cover
    main()
