"""Strategies that choose the guess whose partition of the candidates scores best.

Every guess of the game is scored by how it splits the candidates into reply classes. Ties are
broken by one shared key: (score, 0 if the guess is still a candidate else 1, numeric order).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from .._kernels import on_numpy, reference
from .._kernels.tables import CodeTables, symmetry, tables_of
from ..core.code import Code
from ..core.feedback import possible_feedbacks
from ..core.rules import Rules
from ..errors import StrategyError
from ..solver.state import SolverState
from .base import Strategy

#: Deeper than this a game has stopped making progress (shared with evaluation).
RUNAWAY_GUESSES = 200


def _tree():
    """The compiled search, imported (numba with it) only when a strategy first searches."""
    from .._kernels import partition as tree

    return tree


#: A stop flag that is never set, for calls nobody needs to interrupt.
_NO_STOP = np.zeros(1, dtype=np.int64)


class PartitionStrategy(Strategy):
    """Score every code of the game against the candidates; play the least key.

    Args:
        rules: the game.
        first: overrides the first guess (which is otherwise chosen by the same rule).
        kernel: ``"numba"`` (compiled, the default) or ``"numpy"`` (the reference). A game that
            :func:`mastermind._kernels.quick_start` puts on numpy is played by the reference
            either way (the same guesses).
    """

    criterion: ClassVar[int]
    whole_tree = True
    options: ClassVar[dict[str, Any]] = {"kernel": "numba"}

    def __init__(self, rules: Rules, first: Code | str | int | None = None, **options: Any):
        super().__init__(rules, first, **options)
        kernel = self.settings["kernel"]
        if kernel not in ("numba", "numpy"):
            raise StrategyError(f"kernel must be 'numba' or 'numpy', not {kernel!r}")
        self.kernel = "numpy" if on_numpy(self.space.size) else kernel
        # The reference kernel is tested move by move: it does not compute a whole tree at once.
        self.whole_tree = self.kernel == "numba"  # type: ignore[misc]
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
        if len(cands) <= 2:  # the first candidate splits the rest best, and wins every tie
            choice = int(cands[0])
        elif self.kernel == "numpy":
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

    def _fast_choice(self, cands: np.ndarray, guesses: Sequence[int], stop=None) -> int:
        """The compiled choice: same key as the reference, on a symmetry-reduced pool (on one
        core; with ``stop``, meaningless once ``stop[0]`` is set). It calls the node search
        that :func:`tree.subtree` calls, so a command that only chooses guesses (solve, a hint)
        compiles only that."""
        if len(cands) <= 2:
            return int(cands[0])
        t = tables_of(self.space)
        used, blocks = symmetry(t, guesses)
        cands = np.ascontiguousarray(cands, dtype=np.int64)
        n = len(cands)
        scratch = np.empty(_tree().scratch_size(n, t.pegs, t.colors, t.shared.shape[0]), dtype=np.int64)
        return int(_tree().choose(t, self.weights, cands, 0, n, used, blocks, self.criterion, self.replies,
                               scratch, _NO_STOP if stop is None else stop))  # fmt: skip

    def _subtree(
        self, t: CodeTables, cands, used, blocks, depth, first, choose_only, stop=None
    ) -> np.ndarray:
        """Entry 0: the node's guess; entry k >= 1: secrets found with the k-th guess."""
        work = np.empty(self._work_size(t, len(cands)), dtype=np.int64)
        _tree().subtree(t, self.weights, cands, used, blocks, depth, self.criterion, self.replies,
                     RUNAWAY_GUESSES, first, choose_only, work,
                     _NO_STOP if stop is None else stop)  # fmt: skip
        return work[: RUNAWAY_GUESSES + 1]

    def _work_size(self, t: CodeTables, n: int) -> int:
        return _tree().workspace_size(n, t.pegs, t.colors, t.shared.shape[0], RUNAWAY_GUESSES)

    # --- nodes of the tree, for the runner: a node is (candidates, guesses so far, depth) ---------

    def node_guess(self, cands: np.ndarray, guesses: Sequence[int], stop: np.ndarray) -> int:
        """The strategy's guess at one node, on one core (meaningless once ``stop[0]`` is set)."""
        return self._fast_choice(cands, guesses, stop)

    def node_guesses(self, nodes: Sequence[tuple], stop: np.ndarray) -> list[int]:
        """The strategy's guess at each node, computed on all cores."""
        t = tables_of(self.space)
        flat, offsets, used, blocks = self._batch(t, nodes)
        kinds = t.shared.shape[0]
        sizes = np.array([_tree().scratch_size(len(n[0]), t.pegs, t.colors, kinds) for n in nodes],
                         dtype=np.int64)  # fmt: skip
        return _tree().choose_many(t, self.weights, flat, offsets, used, blocks, self.criterion,
                                self.replies, sizes, stop).tolist()  # fmt: skip

    def node_distributions(self, nodes: Sequence[tuple], stop: np.ndarray) -> np.ndarray:
        """One row per node: entry k counts its secrets found with the k-th guess (all cores).

        A node of depth 1 (the root) plays the first guess, the override if one was given.
        """
        t = tables_of(self.space)
        if len(nodes) == 1:
            cands, guesses, depth = nodes[0]
            used, blocks = symmetry(t, guesses)
            first = self.first_guess() if depth == 1 else -1
            row = self._subtree(t, cands, used, blocks, depth, first, False, stop).copy()
            row[0] = 0
            return row[None, :]
        flat, offsets, used, blocks = self._batch(t, nodes)
        depth = np.array([n[2] for n in nodes], dtype=np.int64)
        sizes = np.array([self._work_size(t, len(n[0])) for n in nodes], dtype=np.int64)
        return _tree().subtrees(t, self.weights, flat, offsets, used, blocks, depth, self.criterion,
                             self.replies, RUNAWAY_GUESSES, sizes, stop)  # fmt: skip

    def _batch(self, t: CodeTables, nodes):
        """Nodes (candidates, guesses so far, ...) as flat arrays for the parallel kernels."""
        flat = np.concatenate([n[0] for n in nodes])
        offsets = np.zeros(len(nodes) + 1, dtype=np.int64)
        offsets[1:] = np.cumsum([len(n[0]) for n in nodes])
        sym = [symmetry(t, n[1]) for n in nodes]
        used = np.array([s.used for s in sym], dtype=np.int64)
        blocks = np.array([s.blocks for s in sym], dtype=np.int64).reshape(len(nodes), -1)
        return flat, offsets, used, blocks


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
