"""The guesses of one position raced against each other: the exact search's tie-break and
budget rules, once, for the search on this process's threads (:func:`.search.solve_position`)
and the search cut into pieces at any depth for any executor (:func:`.split.search_in_pieces`).

A guess is searched with the best total so far as its budget, and a guess before the best one
in the search's order (lower bound, then code) with one more: it wins ties. A guess whose lower
bound reaches its budget is pruned unsearched. The guess kept is therefore the first in the order
that reaches the least total, whatever order the searches finish in, so the tree does not depend
on the workers.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Best:
    """The best tree of a race so far: its total, the rank of its guess in the search's order,
    and the tree (None while there is none: ``cost`` is then the budget and ``rank`` past the end)."""

    cost: int
    rank: int
    tree: np.ndarray | None = None


class Race:
    """The guesses of one position, ``roots`` as (guess, lower bound) in the search's order,
    searched against each other within ``budget`` (see the module). Safe to use from threads.

    >>> race = Race([(7, 10), (3, 12), (5, 30)], budget=1000)
    >>> race.offer(1, 20, np.array([3, 1]))
    >>> race.budget(0), race.budget(2)  # the guess before the best may tie it; 5 is pruned
    (21, None)
    >>> race.offer(0, 20, np.array([7, 1]))
    >>> race.best.rank, race.best.cost
    (0, 20)
    """

    def __init__(
        self, roots: Sequence[tuple[int, int]], budget: int, ceiling: Callable[[], int] | None = None
    ) -> None:
        self.roots = list(roots)
        self._best = Best(budget, len(self.roots))
        #: the budget of the whole position where it can fall while the race runs (the search cut
        #: into pieces at any depth: a position that is one cell of a guess with a budget)
        self.ceiling = ceiling
        self._lock = threading.Lock()
        #: ranks of the guesses searched (or read back from a checkpoint), and of those pruned
        self.searched: set[int] = set()
        self.pruned: set[int] = set()

    @property
    def best(self) -> Best:
        return self._best

    def limit(self, rank: int) -> int:
        """What the guess of ``rank`` must cost less than to matter now."""
        best = self._best
        limit = best.cost + (1 if rank < best.rank else 0)
        return limit if self.ceiling is None else min(limit, self.ceiling())

    def budget(self, rank: int) -> int | None:
        """The budget for searching the guess of ``rank`` now, or None: its bound prunes it."""
        with self._lock:
            limit = self.limit(rank)
            if self.roots[rank][1] >= limit:
                self.pruned.add(rank)
                return None
            return limit

    def offer(self, rank: int, cost: int, tree: np.ndarray | None) -> None:
        """The search of the guess of ``rank`` is done: ``tree`` (None: nothing within its budget)."""
        with self._lock:
            self.searched.add(rank)
            if tree is not None and (cost, rank) < (self._best.cost, self._best.rank):
                self._best = Best(cost, rank, tree)

    def settled(self) -> tuple[int, int]:
        """(guesses settled, of how many): searched, or ruled out by their bounds."""
        return len(self.roots) - self.waiting(), len(self.roots)

    def waiting(self, start: int = 0) -> int:
        """How many guesses from rank ``start`` on are still to search and might beat the best."""
        with self._lock:
            best = self._best.cost
            return sum(
                1
                for r, (_, bound) in enumerate(self.roots)
                if r >= start and r not in self.searched and r not in self.pruned and bound < best
            )
