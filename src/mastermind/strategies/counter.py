"""The counter strategy: the next guess is the first code, in counter order, that fits every reply.

The pegs are the digits of a counter, the first peg most significant. Before each game a random
colour table is drawn for every position, so a digit stands for a different colour at each
position; without tables the order is plain numeric order, and the strategy is Shapiro's
(1983): always play the lowest consistent code. The next guess is found by the skip-ahead search
of :mod:`mastermind._kernels.skip_ahead`, which never enumerates the code space, so any game the rules
allow can be played (up to 10 pegs; the search time grows with the number of colours).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from ..core.code import Code
from ..core.rules import Rules
from ..deduction.state import SolverState, contradiction
from .base import Strategy


def _search():
    """The compiled search, imported (numba with it) only when the counter first plays."""
    from .._kernels import skip_ahead as search

    return search


#: How many answers the counter remembers to start later searches from.
_MEMORY = 4096


class Counter(Strategy):
    """First consistent code in counter order, with a random colour table per position.

    Args:
        rules: the game.
        first: overrides the first guess.
        tables: draw a random colour table per position before each game. With
            ``False`` the order is numeric and the strategy is deterministic (Shapiro's).

    Until :meth:`new_game` gives it a generator, the strategy uses tables drawn from fresh
    entropy (or numeric order when ``tables`` is false).

    >>> counter = Counter(Rules(), tables=False)
    >>> counter.space.code(counter.choose(SolverState(Rules()).add("1111", "1,0")))
    Code((0, 1, 1, 1))
    """

    name = "counter"
    summary = "first consistent code in counter order, random colour tables (without: Shapiro's strategy)"
    randomized = True
    enumerates = False

    options: ClassVar[dict[str, Any]] = {"tables": True}

    def __init__(self, rules: Rules, first: Code | str | int | None = None, **options: Any) -> None:
        super().__init__(rules, first, **options)
        self.tables: bool = self.settings["tables"]
        # With numeric order the strategy is deterministic (Shapiro's): it has one tree.
        self.randomized = self.tables
        self.table = _search().identity_table(rules.pegs, rules.colors)
        self._answers: dict[tuple, np.ndarray] = {}
        if self.tables:
            self.new_game(np.random.default_rng())

    def new_game(self, rng: np.random.Generator) -> None:
        """Draw a colour table for each position (nothing to do in numeric order)."""
        if self.tables:
            pegs, colors = self.rules.pegs, self.rules.colors
            self.table = np.array([rng.permutation(colors) for _ in range(pegs)], dtype=np.int64)
            self._answers.clear()

    def pick(self, state: SolverState) -> int:
        """The index of the first consistent code in counter order.

        Raises:
            ContradictionError: the counter overflows: no code fits every reply. The error names
                a smallest set of contradicting rows.
        """
        rules = self.rules
        history = state.history
        # No code before the answer for this history less its last row fits that shorter
        # history, so none fits this one: the search may start from that answer (the counter
        # never runs backwards).
        start = self._answers.get(history[:-1]) if history else None
        if start is None:
            start = np.zeros(rules.pegs, dtype=np.int64)
        guesses, blacks, shared = _search().history_arrays(rules.pegs, [(c.colors, fb) for c, fb in history])
        out = np.zeros(rules.pegs, dtype=np.int64)
        if not _search().first_consistent(guesses, blacks, shared, self.table, rules.repeats, start, out):
            raise contradiction(rules, history)
        if len(self._answers) >= _MEMORY:
            self._answers.clear()
        self._answers[history] = self._digits(out)
        return self.space.index(out.tolist())

    def _digits(self, colors: np.ndarray) -> np.ndarray:
        """The counter digits that stand for ``colors`` under this game's tables."""
        return np.array([int(np.flatnonzero(row == c)[0]) for row, c in zip(self.table, colors, strict=True)])
