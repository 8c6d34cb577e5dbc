"""Rollout: one step of lookahead, with the greedy criteria's own trees as the estimate.

At each position the guess each greedy criterion would play (entropy, most parts, expected
size, minimax) is tried. Each reply it leaves is finished by every criterion in turn, and the
cheapest of those trees stands for the reply's cost. The guess whose replies cost least in all
is played (ties: the criteria's order above). This is the rollout of Bertsekas, Tsitsiklis and
Wu (1997) with several base heuristics.

Its tree is never worse than the best criterion's: at a position whose best criterion's tree
costs T, the guess that criterion plays is among those tried, and its estimate, the best tree
of each reply, is at most T; every reply is then played the same way, so no reply costs more
than its estimate (by induction from the leaves). Each choice costs a few whole subtrees of the
criteria, so the whole tree costs a few times theirs per level: seconds on the classic game,
a minute or two on 5 pegs 8 colours. Like the criteria, it ignores the guess limit (the optimal
strategy keeps it).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from .._kernels import cells
from ..core.code import Code
from ..core.rules import Rules
from ..deduction.state import SolverState
from .base import Position, SearchCost, Strategy
from .capabilities import LongWork
from .partition import Entropy, ExpectedSize, Knuth, MostParts, PartitionStrategy

#: The base heuristics, in the order that breaks ties.
BASES: tuple[type[PartitionStrategy], ...] = (Entropy, MostParts, ExpectedSize, Knuth)

#: Choices remembered (by history) before the memory is emptied.
MEMORY = 1 << 16

#: The largest game whose whole tree is quick (6 pegs 6 colours, docs/results.md); on larger ones
#: it is minutes to hours, so ``compare`` runs it only when named.
QUICK_CODES = 50_000

#: The cost model of :meth:`Rollout.search_cost`: the whole tree of the largest game measured
#: (6 pegs 6 colours, as docs/results.md records it), scaled by the codes to the power GROWTH
#: (fitted to a smaller game's tree); a choice costs about a fifth of the tree below it. A note
#: is given from NOTE_FROM seconds on: a shorter wait needs no warning.
MEASURED_CODES, MEASURED_SECONDS, GROWTH, NOTE_FROM = 46_656, 155.0, 1.3, 60.0


class Rollout(Strategy, LongWork):
    """Try each criterion's guess; estimate every reply by the best criterion's tree below it."""

    name = "rollout"
    summary = (
        "each greedy criterion's guess tried, every reply finished by the best of them, the "
        "cheapest played (rollout: Bertsekas, Tsitsiklis and Wu 1997)"
    )
    options: ClassVar[dict] = {}

    def __init__(self, rules: Rules, first: Code | str | int | None = None, **options: Any) -> None:
        super().__init__(rules, first, **options)  # it takes none: any is refused there
        self.bases = [cls(rules) for cls in BASES]
        for base in self.bases:  # its many subtrees pay for the compiled kernels on any game
            base.kernel = "numba"
        #: the choices made so far, by history (a game played move by move meets them again)
        self._chosen: dict[tuple, int] = {}

    def quick(self) -> bool:
        return self.space.size <= QUICK_CODES

    def search_cost(self, state: SolverState | None = None) -> SearchCost | None:
        """Roughly what the whole tree (``state`` None) or the next choice costs, where it is a
        minute or more; the rollout's work is a few of the criteria's trees, not a search."""
        size = self.space.size
        whole = MEASURED_SECONDS * (size / MEASURED_CODES) ** GROWTH
        codes, seconds = size, whole
        if state is not None:
            codes = len(state.candidate_indices())
            seconds = whole * (codes / size) / 5 if codes > 2 else 0.0
        if seconds < NOTE_FROM:
            return None
        return SearchCost(codes, size, seconds, work="the rollout", runs="rollouts")

    def prepare(self) -> None:
        """The criteria's tables and compiled code (the first choice is itself real work)."""
        for base in self.bases:
            base.prepare()
        cells(self.space, 0, np.arange(min(3, self.space.size), dtype=np.int64))

    def pick(self, state: SolverState) -> int:
        key = tuple((code.colors, fb) for code, fb in state.history)
        if key in self._chosen:
            return self._chosen[key]
        cands = state.candidate_indices()
        if len(cands) <= 2:  # the first candidate splits the rest best
            return int(cands[0])
        choice, _ = self.estimates(state)[0]
        if len(self._chosen) >= MEMORY:
            self._chosen.clear()
        self._chosen[key] = choice
        return choice

    def pick_possible(self, state: SolverState) -> int | None:
        """As :meth:`pick`, each criterion's own choice among the codes still possible tried."""
        cands = state.candidate_indices()
        if len(cands) <= 2:
            return int(cands[0]) if len(cands) else None
        return self.estimates(state, possible=True)[0][0]

    def estimates(self, state: SolverState, possible: bool = False) -> list[tuple[int, int]]:
        """(guess, estimated total) for each guess tried at ``state``, cheapest first (ties: the
        criteria's order); the guess is a code index (``self.space.code(guess)`` is the code).
        ``possible``: the criteria's choices among the codes still possible are tried instead.
        The estimate is the candidates' number plus, for each reply other than the win, the
        least total of the criteria's trees of its candidates: the total of a tree that exists,
        so an upper bound on what the rollout's own tree from ``state`` costs after that guess.

        >>> from mastermind import Rules, SolverState
        >>> rollout = Rollout(Rules())
        >>> [(str(rollout.space.code(g)), total) for g, total in rollout.estimates(SolverState(Rules()))]
        [('1123', 5661), ('1234', 5708), ('1122', 5725)]
        """
        space, pegs, win = self.space, self.rules.pegs, self.rules.win
        history = tuple((space.index(code.colors), fb.to_int(pegs)) for code, fb in state.history)
        cands = state.candidate_indices()
        tried: list[int] = []
        for base in self.bases:
            g = base.pick_possible(state) if possible else base.choose(state)
            if g is not None and g not in tried:
                tried.append(g)
        positions: list[Position] = []
        owner: list[int] = []  # the tried guess each position follows
        for i, g in enumerate(tried):
            for f, group in cells(space, g, cands):
                if f != win:
                    positions.append(Position((*history, (g, f)), np.ascontiguousarray(group)))
                    owner.append(i)
        best = np.full(len(positions), np.iinfo(np.int64).max, dtype=np.int64)
        if positions:
            stop = np.zeros(1, dtype=np.int64)
            depth = len(history) + 2  # the guess number at each reply's position
            for base in self.bases:
                for p, dist in enumerate(base.distributions_at(positions, stop)):
                    total = sum((k - depth + 1) * n for k, n in dist.items())
                    best[p] = min(best[p], total)
        totals = [len(cands)] * len(tried)
        for p, i in enumerate(owner):
            totals[i] += int(best[p])
        order = sorted(range(len(tried)), key=lambda i: (totals[i], i))
        return [(tried[i], totals[i]) for i in order]
