"""The valuing of a game's positions and moves, for a review (:mod:`.review`) and a hint that
teaches (:mod:`.advice`): the :class:`Valuer` walks a game's positions and values a guess at each.

A guess is valued exactly (the optimal search from the position, within the game's guess limit)
wherever the search finishes within a time budget per move; otherwise by the line of a named
heuristic, which plays every move after the guess. The rule is the same in every game: the
number of codes says nothing of the search's cost (10 pegs of 2 colours have 1,024 codes, and
their whole tree is a search of many minutes), only the clock does. What is cheap stays exact
whatever the budget: a position read from the book, the optimal tree or the cache, and a small
position (its search is bounded by its count, not by the clock). A search that ran out of its
time is remembered with the time it had (in the same cache): it is not tried again with as
little, and a larger budget tries it again.

The first move of a game with a book of openings (the classic game and 4x7,
:mod:`.openings`), and the best play after it, are read from the book. Positions along the
optimal tree (the whole tree of the game, kept in the cache, see
:class:`~mastermind.strategies.optimal.strategy.Optimal`; searched by the review itself, within
the budget, only in games of at most :data:`WHOLE_TREE` codes that have no book) are read from
it; a position off it is searched when it comes (in numpy when it is small, :mod:`.positions`)
and its value kept, in memory and in the cache directory, so that a position is searched once.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..core.code import Code, CodeSpace
from ..core.feedback import Feedback
from ..core.rules import Rules
from ..deduction.state import SolverState
from ..errors import StrategyError
from .openings import openings_of
from .positions import Clock, positions_of

if TYPE_CHECKING:
    from ..core.tree import Node
    from ..strategies import Strategy

#: Games of at most this many codes (the classic game and smaller) search their whole optimal
#: tree when it is not cached, within the budget of a move (most take well under a second; some,
#: such as 10 pegs of 2 colours, far longer: the positions are then valued one by one).
WHOLE_TREE = 1296


@dataclass
class _Value:
    """A move's values: totals over the position's codes (None: not every code can be found)."""

    total: int | None
    best_total: int
    best: int
    exact: bool
    within_limit: bool = True


@dataclass
class Place:
    """A position of a game being reviewed: what is known, the codes possible, the node of the
    optimal tree there (None off it), and a cached optimal tree that starts with the guess played
    there (the first move only)."""

    state: SolverState
    codes: np.ndarray
    line: Node | None
    first_tree: Node | None


class Valuer:
    """Values moves of one game: the optimal tree where the game follows it, the positions'
    values elsewhere, the heuristic's line where the search runs out of time."""

    def __init__(self, rules: Rules, budget: float | None, heuristic: str) -> None:
        self.rules = rules
        self.space = CodeSpace.of(rules)
        self.budget = budget
        self.heuristic_name = heuristic
        self.positions = positions_of(rules)
        self.win = rules.pegs * (rules.pegs + 1)
        self._heuristic: Strategy | None = None
        self._seeded: set[int] = set()  # first guesses whose positions the book has valued
        self.book = openings_of(rules)
        if self.book is not None:  # the first moves are read from the book (games/openings.py)
            everything = np.arange(self.space.size, dtype=np.int64)
            self.positions.seed(everything, rules.max_guesses, (self.book.total, self.book.best))
        # a game with a book needs no tree; a larger one still follows a cached tree (only read)
        small_with_book = self.book is not None and self.space.size <= WHOLE_TREE
        self.tree = None if small_with_book else self._tree(None)

    def _tree(self, first: int | None) -> Node | None:
        """The optimal tree (with the first guess forced to ``first``): read from the cache
        (``mastermind evaluate -s optimal`` puts it there), else, for the whole game of at most
        :data:`WHOLE_TREE` codes, searched now within the budget (and cached); None if not at
        hand: the search ran past the budget (or did before, with as much), it is being
        compiled, or no tree finds every code within the guess limit."""
        from ..strategies.optimal.strategy import Optimal

        try:
            optimal = Optimal(self.rules, first=first)
            known = optimal.known_tree()
            if known is not None or first is not None or self.space.size > WHOLE_TREE:
                return known
            everything = np.arange(self.space.size, dtype=np.int64)
            found = self.positions.search(everything, self.rules.max_guesses, Clock(self.budget))
            return None if found is None else optimal.adopt(found)
        except (StrategyError, TimeoutError):  # positions are then valued one by one
            return None

    def heuristic(self) -> Strategy:
        if self._heuristic is None:
            from ..strategies import make_strategy

            self._heuristic = make_strategy(self.heuristic_name, self.rules)
        return self._heuristic

    def move(
        self,
        state: SolverState,
        codes: np.ndarray,
        guess: int,
        line: Node | None,
        first_tree: Node | None,
        clock: Clock,
    ) -> _Value:
        """The values of ``guess`` at a position (``line``: the optimal tree's node there, if
        the game is on it; ``first_tree``: a cached optimal tree that starts with this guess)."""
        left = self.rules.max_guesses - len(state.history)
        if not state.history and self.book is not None:  # a first move: the book values it
            self.seed_first(guess, codes)
        try:
            value = self._exact(state, codes, guess, left, line, first_tree, clock)
            if value is None:  # no play finds every code in time: measured past the limit
                value = self._exact(state, codes, guess, len(codes) + 1, None, None, clock)
                assert value is not None
                value.within_limit = False
            return value
        except TimeoutError:
            return self._heuristic_value(state, codes, guess)

    def _exact(
        self,
        state: SolverState,
        codes: np.ndarray,
        guess: int,
        left: int,
        line: Node | None,
        first_tree: Node | None,
        clock: Clock,
    ) -> _Value | None:
        guesses = [self.space.index(g.colors) for g, _ in state.history]
        if line is not None:
            best = (line.cost, line.guess)  # type: ignore[attr-defined]
        else:
            found = self.positions.value(codes, guesses, left, clock)
            if found is None:
                return None
            best = found
        if line is not None and line.guess == guess:
            return _Value(best[0], best[0], best[1], exact=True)
        if first_tree is not None:
            return _Value(first_tree.cost, best[0], best[1], exact=True)  # type: ignore[attr-defined]
        total = self.positions.after(codes, guesses, left, guess, self._cells(guess, codes), self.win, clock)
        return _Value(total, best[0], best[1], exact=True)

    def _heuristic_value(self, state: SolverState, codes: np.ndarray, guess: int) -> _Value:
        from ..strategies.walk import walk

        strategy = self.heuristic()

        def line_total(first: int) -> int:
            distribution: dict[int, int] = {}
            walk(strategy, state, 1, distribution, None, guess=first)
            return sum(k * n for k, n in distribution.items())

        own = strategy.choose(state)
        best_total = line_total(own)
        total = best_total if own == guess else line_total(guess)
        if total < best_total:
            own, best_total = guess, total
        return _Value(total, best_total, own, exact=False)

    def _cells(self, guess: int, codes: np.ndarray) -> list[tuple[int, np.ndarray]]:
        from .._kernels import cells

        return [(f, np.asarray(c, dtype=np.int64)) for f, c in cells(self.space, guess, codes)]

    def walk(self, history: Sequence[tuple[Code, Feedback]]) -> Iterator[Place]:
        """The position before each move of ``history``, then the one after the last."""
        pegs = self.rules.pegs
        place = Place(SolverState(self.rules), np.arange(self.space.size, dtype=np.int64), self.tree, None)
        for number, (guess, reply) in enumerate(history, 1):
            g = self.space.index(guess.colors)
            line = place.line
            if number == 1 and self.book is not None:
                self.seed_first(g, place.codes)
            elif number == 1 and (line is None or line.guess != g):
                place.first_tree = self._tree(g)
            yield place
            f, won = reply.to_int(pegs), reply.black == pegs
            after = self.after(g, reply, place.codes)
            # the game goes on along an optimal tree only while it plays the tree's guesses
            node = line if line is not None and line.guess == g else place.first_tree
            line = None if node is None or won else node.children.get(f)
            place = Place(place.state.child(guess, reply, after), after, line, None)
        yield place

    def after(self, guess: int, reply: Feedback, codes: np.ndarray) -> np.ndarray:
        """The codes of ``codes`` left after ``guess`` got ``reply`` (the guess alone on a win)."""
        if reply.black == self.rules.pegs:
            return np.array([guess], dtype=np.int64)
        return codes[_replies(self.space, guess, codes) == reply.to_int(self.rules.pegs)]

    def seed_first(self, guess: int, codes: np.ndarray) -> None:
        """The positions after the first guess, valued by the book of openings (once: a review's
        walk and its first move both ask)."""
        assert self.book is not None
        if guess in self._seeded:
            return
        self._seeded.add(guess)
        _, cells = self.book.first(guess)
        left = self.rules.max_guesses - 1
        for f, cell in self._cells(guess, codes):
            if f != self.win:
                self.positions.seed(cell, left, cells[f])

    def split(self, guess: int, codes: np.ndarray) -> tuple[int, ...]:
        """The sizes of the classes ``guess`` splits ``codes`` into by reply, largest first."""
        counts = np.bincount(_replies(self.space, guess, codes))
        return tuple(sorted((int(k) for k in counts if k), reverse=True))

    def best_after(self, best: int, codes: np.ndarray, secret: Code | None) -> float:
        """The codes ``best`` leaves: with the secret, or expected over ``codes``."""
        split = self._cells(best, codes)
        if secret is not None:
            s = self.space.index(secret.colors)
            for f, cell in split:
                if s in cell:
                    return 1.0 if f == self.win else float(len(cell))
        return sum(len(c) ** 2 for _, c in split) / len(codes)


def _replies(space: CodeSpace, guess: int, codes: np.ndarray) -> np.ndarray:
    from .._kernels import replies

    return replies(space, guess, codes)
