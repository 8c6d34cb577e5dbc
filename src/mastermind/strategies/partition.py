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
from ..core.rules import MAX_GUESSES, Rules
from ..deduction.state import SolverState
from ..errors import StrategyError
from .base import Position, Strategy
from .capabilities import PositionKernels, distributions_walked, guesses_walked


def _tree():
    """The compiled search, imported (numba with it) only when a strategy first searches."""
    from .._kernels import partition as tree

    return tree


#: A stop flag that is never set, for calls nobody needs to interrupt.
_NO_STOP = np.zeros(1, dtype=np.int64)

#: Subtrees of at most this many (secret, code) pairs in all are computed on one core: waking
#: the other threads costs more than they save (on a busy machine, far more).
SMALL_BATCH = 1 << 22


class PartitionStrategy(Strategy, PositionKernels):
    """Score every code of the game against the candidates; play the least key.

    Args:
        rules: the game.
        first: overrides the first guess (which is otherwise chosen by the same rule).
        kernel: ``"numba"`` (compiled, the default) or ``"numpy"`` (the reference). A game that
            :func:`mastermind._kernels.quick_start` puts on numpy is played by the reference
            either way (the same guesses).
    """

    criterion: ClassVar[int]
    options: ClassVar[dict[str, Any]] = {"kernel": "numba"}

    def __init__(self, rules: Rules, first: Code | str | int | None = None, **options: Any):
        super().__init__(rules, first, **options)
        kernel = self.settings["kernel"]
        if kernel not in ("numba", "numpy"):
            raise StrategyError(f"kernel must be 'numba' or 'numpy', not {kernel!r}")
        self.kernel = "numpy" if on_numpy(self.space.size) else kernel
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

    def pick_possible(self, state: SolverState) -> int | None:
        """The least key (score, index) among the codes still possible: the criterion that picks
        the strategy's guesses, applied to those codes alone."""
        cands = state.candidate_indices()
        if len(cands) == 0:
            return None
        if self.kernel == "numpy":
            return reference.best_guess(self.space, cands, cands, self.criterion, self.weights)
        from .._kernels.partition import best_candidate

        t = tables_of(self.space)
        used, blocks = symmetry(t, [self.space.index(code.colors) for code, _ in state.history])
        return best_candidate(t, self.weights, cands, self.criterion, self.replies, used, blocks)

    def prepare(self) -> None:
        """Packed codes of the game, and the compiled search loaded (on three candidates), alone
        and as the kernels that run many positions on all cores (so a first run times no
        compilation)."""
        if self.kernel == "numba":
            t = tables_of(self.space)
            used, blocks = symmetry(t, ())
            cands = np.arange(min(3, self.space.size), dtype=np.int64)
            self._subtree(t, cands, used, blocks, 1, -1, True)
            two = [Position(((0, 0),), cands), Position(((0, 0),), cands)]
            self.guesses_at(two, _NO_STOP)
            self._on_all_cores(t, two, _NO_STOP)

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
        return int(
            _tree().choose(
                t,
                self.weights,
                cands,
                0,
                n,
                used,
                blocks,
                self.criterion,
                self.replies,
                scratch,
                _NO_STOP if stop is None else stop,
            )
        )

    def _subtree(
        self, t: CodeTables, cands, used, blocks, depth, first, choose_only, stop=None
    ) -> np.ndarray:
        """Entry 0: the node's guess; entry k >= 1: secrets found with the k-th guess."""
        work = np.empty(self._work_size(t, len(cands)), dtype=np.int64)
        _tree().subtree(
            t,
            self.weights,
            cands,
            used,
            blocks,
            depth,
            self.criterion,
            self.replies,
            MAX_GUESSES,
            first,
            choose_only,
            work,
            _NO_STOP if stop is None else stop,
        )
        return work[: MAX_GUESSES + 1]

    def _work_size(self, t: CodeTables, n: int) -> int:
        return _tree().workspace_size(n, t.pegs, t.colors, t.shared.shape[0], MAX_GUESSES)

    # --- many positions at once, on all cores (the runner's subtrees) -----------------------

    @property
    def compiled(self) -> bool:
        """On the compiled kernels; the numpy reference is tested move by move, and a whole tree
        on it is walked in Python."""
        return self.kernel == "numba"

    def guesses_at(self, positions: Sequence[Position], stop: np.ndarray) -> list[int]:
        """The strategy's guess at each position: one on one core, more on all cores."""
        if not self.compiled:
            return guesses_walked(self, positions)
        if len(positions) == 1:
            return [self._fast_choice(positions[0].secrets, positions[0].guesses, stop)]
        t = tables_of(self.space)
        flat, offsets, used, blocks = self._batch(t, positions)
        kinds = t.shared.shape[0]
        sizes = np.array(
            [_tree().scratch_size(len(p.secrets), t.pegs, t.colors, kinds) for p in positions], dtype=np.int64
        )
        return (
            _tree()
            .choose_many(
                t, self.weights, flat, offsets, used, blocks, self.criterion, self.replies, sizes, stop
            )
            .tolist()
        )

    def distributions_at(self, positions: Sequence[Position], stop: np.ndarray) -> list[dict[int, int]]:
        """The subtree below each position, on all cores. A position of depth 1 (the root) plays
        the first guess, the override if one was given."""
        if not self.compiled:
            return distributions_walked(self, positions)
        return [{k: int(n) for k, n in enumerate(row) if k and n} for row in self._rows(positions, stop)]

    def _rows(self, positions: Sequence[Position], stop: np.ndarray) -> np.ndarray:
        """One row per position: entry k counts its secrets found with the k-th guess."""
        t = tables_of(self.space)
        if sum(len(p.secrets) for p in positions) * self.space.size <= SMALL_BATCH:
            return np.array([self._row(t, p, stop) for p in positions])
        return self._on_all_cores(t, positions, stop)

    def _on_all_cores(self, t: CodeTables, positions: Sequence[Position], stop: np.ndarray) -> np.ndarray:
        flat, offsets, used, blocks = self._batch(t, positions)
        depth = np.array([p.depth for p in positions], dtype=np.int64)
        sizes = np.array([self._work_size(t, len(p.secrets)) for p in positions], dtype=np.int64)
        return _tree().subtrees(
            t,
            self.weights,
            flat,
            offsets,
            used,
            blocks,
            depth,
            self.criterion,
            self.replies,
            MAX_GUESSES,
            sizes,
            stop,
        )

    def _row(self, t: CodeTables, position: Position, stop: np.ndarray) -> np.ndarray:
        used, blocks = symmetry(t, position.guesses)
        first = self.first_guess() if position.depth == 1 else -1
        row = self._subtree(t, position.secrets, used, blocks, position.depth, first, False, stop).copy()
        row[0] = 0
        return row

    def _batch(self, t: CodeTables, positions: Sequence[Position]) -> tuple[np.ndarray, ...]:
        """Positions as flat arrays for the parallel kernels."""
        flat = np.concatenate([p.secrets for p in positions])
        offsets = np.zeros(len(positions) + 1, dtype=np.int64)
        offsets[1:] = np.cumsum([len(p.secrets) for p in positions])
        sym = [symmetry(t, p.guesses) for p in positions]
        used = np.array([s.used for s in sym], dtype=np.int64)
        blocks = np.array([s.blocks for s in sym], dtype=np.int64).reshape(len(positions), -1)
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
