"""Strategies that choose the guess whose partition of the candidates scores best.

Every guess of the game is scored by how it splits the candidates into reply classes. Ties are
broken by one shared key: (score, 0 if the guess is still a candidate else 1, numeric order).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import numpy as np

from .._kernels import feedback, reference, tree
from .._kernels.tables import CodeTables, symmetry, tables_of
from ..code import Code
from ..errors import StrategyError
from ..feedback import possible_feedbacks
from ..rules import Rules
from ..solver import SolverState
from .base import Strategy

#: Deeper than this a game has stopped making progress (shared with evaluation).
RUNAWAY_GUESSES = 200

#: Games up to this many codes are evaluated in one compiled call on one core (milliseconds).
SERIAL_GAME = 8192


class PartitionStrategy(Strategy):
    """Score every code of the game against the candidates; play the least key.

    Args:
        rules: the game.
        first: overrides the first guess (which is otherwise chosen by the same rule).
        kernel: ``"numba"`` (compiled, the default) or ``"numpy"`` (the reference).
    """

    criterion: ClassVar[int]
    whole_tree = True
    options: ClassVar[dict[str, Any]] = {"kernel": "numba"}

    def __init__(self, rules: Rules, first: Code | str | int | None = None, **options: Any):
        super().__init__(rules, first, **options)
        kernel = self.settings["kernel"]
        if kernel not in ("numba", "numpy"):
            raise StrategyError(f"kernel must be 'numba' or 'numpy', not {kernel!r}")
        self.kernel = kernel
        # The reference kernel is tested move by move: it does not compute a whole tree at once.
        self.whole_tree = kernel == "numba"  # type: ignore[misc]
        space = self.space
        self.pool = np.arange(space.size, dtype=np.int64)
        self.nclasses = rules.feedback_classes
        # replies a guess that is not the secret can get: all possible ones but the win
        self.replies = len(possible_feedbacks(rules.pegs, rules.colors, rules.repeats)) - 1
        self.weights = (
            reference.entropy_weights(space.size)
            if self.criterion == reference.ENTROPY
            else np.zeros(1, dtype=np.int64)
        )
        self._own_first: int | None = None

    def pick(self, state: SolverState) -> int:
        if not state.history and self._own_first is not None:
            return self._own_first
        cands = state.candidate_indices()
        if self.kernel == "numpy":
            choice = reference.best_guess(self.space, self.pool, cands, self.criterion, self.weights)
        else:
            guesses = [self.space.index(code.colors) for code, _ in state.history]
            choice = self._fast_choice(cands, guesses)
        if not state.history:
            self._own_first = choice
        return choice

    def prepare(self) -> None:
        """Packed codes of the game, and the compiled search loaded (on three candidates)."""
        if self.kernel == "numba":
            t = tables_of(self.space)
            used, blocks = symmetry(t, ())
            cands = np.arange(min(3, self.space.size), dtype=np.int64)
            self._subtree(t, cands, used, blocks, 1, -1, True)

    def _fast_choice(self, cands: np.ndarray, guesses: Sequence[int]) -> int:
        """The compiled choice: same key as the reference, on a symmetry-reduced pool."""
        if len(cands) <= 2:
            return int(cands[0])
        t = tables_of(self.space)
        used, blocks = symmetry(t, guesses)
        return int(self._subtree(t, cands, used, blocks, 1, -1, True)[0])

    def _subtree(self, t: CodeTables, cands, used, blocks, depth, first, choose_only) -> np.ndarray:
        """Entry 0: the node's guess; entry k >= 1: secrets found with the k-th guess."""
        work = np.empty(self._work_size(t, len(cands)), dtype=np.int64)
        tree.subtree(t, self.weights, cands, used, blocks, depth, self.criterion, self.replies,
                     RUNAWAY_GUESSES, first, choose_only, work)  # fmt: skip
        return work[: RUNAWAY_GUESSES + 1]

    def _work_size(self, t: CodeTables, n: int) -> int:
        return tree.workspace_size(n, t.pegs, t.colors, t.shared.shape[0], RUNAWAY_GUESSES)

    def tree_distribution(self, progress: Callable[[int], None] | None = None) -> dict[int, int]:
        """Guesses -> number of secrets over every secret, computed as one tree in numba.

        The top of the tree is expanded here; every subtree of at most ``unit`` secrets is then
        solved whole in compiled code, many at a time on all cores, in batches so that the
        progress bar moves and Ctrl-C is honoured between batches.
        """
        space = self.space
        t = tables_of(space)
        pegs = self.rules.pegs
        win = pegs * (pegs + 1)
        dist = np.zeros(RUNAWAY_GUESSES + 1, dtype=np.int64)
        unit = max(64, space.size // 64)
        first = self.first_guess()
        if space.size <= SERIAL_GAME:
            root = np.arange(space.size, dtype=np.int64)
            used, blocks = symmetry(t, ())
            dist = self._subtree(t, root, used, blocks, 1, first, False)
            if progress:
                progress(space.size)
            return {k: int(n) for k, n in enumerate(dist[1:], 1) if n}
        # Expand the top of the tree level by level, choosing each level's guesses on all cores.
        Level = list[tuple[np.ndarray, tuple[int, ...], int]]
        level: Level = [(np.arange(space.size, dtype=np.int64), (), 1)]
        guesses = [first]
        units: Level = []
        while level:
            below: Level = []
            for (cands, history, depth), g in zip(level, guesses, strict=True):
                fbs = feedback.replies(t, g, cands)
                order = np.argsort(fbs, kind="stable")
                classes, begins = np.unique(fbs[order], return_index=True)
                for f, group in zip(classes, np.split(cands[order], begins[1:]), strict=True):
                    if f == win:
                        dist[depth] += 1
                        if progress:
                            progress(1)
                    elif len(group) <= unit:
                        units.append((group, (*history, g), depth + 1))
                    else:
                        below.append((group, (*history, g), depth + 1))
            level = below
            guesses = self._choose_many(t, level) if level else []
        units.sort(key=lambda u: -len(u[0]))
        batch_size = max(unit, space.size // 20)
        i = 0
        while i < len(units):
            j, size = i, 0
            while j < len(units) and (size < batch_size or j == i):
                size += len(units[j][0])
                j += 1
            dist += self._units(t, units[i:j])
            if progress:
                progress(size)
            i = j
        return {k: int(n) for k, n in enumerate(dist[1:], 1) if n}

    def _choose_many(self, t: CodeTables, nodes) -> list[int]:
        flat, offsets, used, blocks = self._batch(t, nodes)
        kinds = t.shared.shape[0]
        sizes = np.array([tree.scratch_size(len(n[0]), t.pegs, t.colors, kinds) for n in nodes],
                         dtype=np.int64)  # fmt: skip
        return tree.choose_many(t, self.weights, flat, offsets, used, blocks, self.criterion,
                                self.replies, sizes).tolist()  # fmt: skip

    def _batch(self, t: CodeTables, nodes):
        """Nodes (candidates, guesses so far, ...) as flat arrays for the parallel kernels."""
        flat = np.concatenate([n[0] for n in nodes])
        offsets = np.zeros(len(nodes) + 1, dtype=np.int64)
        offsets[1:] = np.cumsum([len(n[0]) for n in nodes])
        sym = [symmetry(t, n[1]) for n in nodes]
        used = np.array([s.used for s in sym], dtype=np.int64)
        blocks = np.array([s.blocks for s in sym], dtype=np.int64).reshape(len(nodes), -1)
        return flat, offsets, used, blocks

    def _units(self, t: CodeTables, units) -> np.ndarray:
        flat, offsets, used, blocks = self._batch(t, units)
        depth = np.array([u[2] for u in units], dtype=np.int64)
        sizes = np.array([self._work_size(t, len(u[0])) for u in units], dtype=np.int64)
        return tree.subtrees(t, self.weights, flat, offsets, used, blocks, depth, self.criterion,
                             self.replies, RUNAWAY_GUESSES, sizes)  # fmt: skip


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
