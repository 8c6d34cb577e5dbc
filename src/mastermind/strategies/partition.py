"""Strategies that choose the guess whose partition of the candidates scores best.

Every guess of the game is scored by how it splits the candidates into reply classes. Ties are
broken by one shared key: (score, 0 if the guess is still a candidate else 1, numeric order).
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from .._kernels import compiled, reference
from ..code import Code
from ..rules import Rules
from ..solver import SolverState
from .base import Strategy


class PartitionStrategy(Strategy):
    """Score every code of the game against the candidates; play the least key.

    Args:
        rules: the game.
        first: overrides the first guess (which is otherwise chosen by the same rule).
        kernel: ``"numba"`` (compiled, the default) or ``"numpy"`` (the reference).
    """

    criterion: ClassVar[int]

    def __init__(self, rules: Rules, first: Code | str | None = None, kernel: str = "numba"):
        super().__init__(rules, first)
        if kernel not in ("numba", "numpy"):
            raise ValueError(f"kernel must be 'numba' or 'numpy', not {kernel!r}")
        self.kernel = kernel
        space = self.space
        self.pool = np.arange(space.size, dtype=np.int64)
        self.nclasses = rules.feedback_classes
        self.weights = (
            reference.entropy_weights(space.size)
            if self.criterion == reference.ENTROPY
            else np.zeros(1, dtype=np.int64)
        )
        self._table: np.ndarray | None = None
        self._own_first: int | None = None

    @property
    def table(self) -> np.ndarray:
        """The all-pairs feedback table, or an empty array when it would not fit."""
        if self._table is None:
            space = self.space
            if space.size <= reference.TABLE_LIMIT:
                self._table = _table(space)
            else:
                self._table = np.zeros((0, 0), dtype=np.uint8)
        return self._table

    def scores(self, guesses: np.ndarray, candidates: np.ndarray) -> np.ndarray:
        """The criterion's integer score of each guess (lower is better)."""
        if self.kernel == "numpy":
            counts = reference.partition_counts(self.space, guesses, candidates)
            return reference.criterion_scores(counts, self.criterion, self.weights)
        return compiled.guess_scores(
            self.table, self.space.digits(), self.space.counts(), guesses, candidates,
            self.nclasses, self.criterion, self.weights,
        )  # fmt: skip

    def choose(self, state: SolverState) -> int:
        if not state.history:
            if self.first is not None:
                return self.first
            if self._own_first is not None:
                return self._own_first
        cands = state.candidate_indices()
        if len(cands) <= 2:
            # Any candidate splits one or two candidates perfectly, and candidates win ties.
            return int(cands[0])
        choice = self._best(cands)
        if not state.history:
            self._own_first = choice
        return choice

    def _best(self, cands: np.ndarray) -> int:
        if self.kernel == "numpy":
            return reference.best_guess(self.space, self.pool, cands, self.criterion, self.weights)
        is_candidate = np.zeros(self.space.size, dtype=np.bool_)
        is_candidate[cands] = True
        return compiled.best_guess(
            self.table, self.space.digits(), self.space.counts(), self.pool, cands,
            is_candidate, self.nclasses, self.criterion, self.weights,
        )  # fmt: skip


_TABLES: dict[tuple[int, int, bool], np.ndarray] = {}


def _table(space) -> np.ndarray:
    # At most a few small games (<= 64 MiB each) are ever tabled in one process.
    key = (space.pegs, space.colors, space.rules.repeats)
    if key not in _TABLES:
        if len(_TABLES) >= 4:
            _TABLES.pop(next(iter(_TABLES)))
        _TABLES[key] = compiled.feedback_table(space.digits(), space.counts())
    return _TABLES[key]


class Knuth(PartitionStrategy):
    """Knuth (1977): minimise the largest reply class."""

    name = "knuth"
    summary = "minimax: smallest worst-case number of candidates left (Knuth 1977)"
    criterion = reference.MAX_CLASS


class ExpectedSize(PartitionStrategy):
    """Irving's criterion: minimise the expected number of candidates left (sum of squares)."""

    name = "expected-size"
    summary = "smallest expected number of candidates left (Irving 1979)"
    criterion = reference.SUM_SQUARES


class Entropy(PartitionStrategy):
    """Neuwirth's criterion: maximise the information of the reply (least sum of n log n)."""

    name = "entropy"
    summary = "most information: largest entropy of the reply (Neuwirth 1982)"
    criterion = reference.ENTROPY


class MostParts(PartitionStrategy):
    """Kooi's criterion: maximise the number of distinct replies."""

    name = "most-parts"
    summary = "most distinct replies (Kooi 2005)"
    criterion = reference.MOST_PARTS
