"""The "six guess algorithm" of the 2008 Wikipedia article on the board game (classic game only).

The colours are the letters a-f. Every code is ranked by its number of duplicates (pegs less
distinct colours: abcd has 0, aabc 1, aabb and aaab 2, aaaa 3), then alphabetically. The guess
is the first code of that list still consistent with the replies, except that guess 2 is always
bcde, guess 3 always cdef, and guess 4 follows a table of 13 exceptions: when the list for
guess 4 starts with a code on the left, the code on the right is played instead.

Read literally: guesses 2 and 3 are played even when the replies already leave one code, and an
exception is played even though it may not be consistent. That reading gives the
distribution 1:1, 2:1, 3:1, 4:351, 5:729, 6:213 (total 6333).
"""

from __future__ import annotations

import numpy as np

from ..core.code import Code
from ..core.rules import Rules
from ..deduction.state import SolverState
from ..errors import StrategyError
from .base import Strategy

LETTERS = "abcdef"

#: Guesses 2 and 3, played whatever the replies were.
FIXED = {2: "bcde", 3: "cdef"}

#: Guess 4: if the list starts with the code on the left, play the code on the right.
EXCEPTIONS = {
    "acfb": "dcad",
    "aebf": "edfd",
    "aefb": "eacc",
    "afbe": "bfcd",
    "bafe": "eadc",
    "beaf": "edae",
    "befa": "eeda",
    "eabf": "fdfb",
    "aadb": "babd",
    "abae": "bbcc",
    "aeaf": "cffd",
    "cafa": "fdfa",
    "aaee": "dddf",
}


class SixGuess(Strategy):
    """The six guess algorithm: a fixed opening, a sorted list, 13 exceptions.

    Args:
        rules: the classic game (4 pegs, 6 colours, repeats; any number of guesses).
        first: overrides the first guess (abcd, i.e. 1234).

    Raises:
        StrategyError: the rules are not the classic game's.
    """

    name = "six-guess"
    summary = "abcd, bcde, cdef, then the first consistent code of a sorted list (Wikipedia 2008)"

    def __init__(self, rules: Rules, first: Code | str | int | None = None) -> None:
        if (rules.pegs, rules.colors, rules.repeats) != (4, 6, True):
            raise StrategyError(
                f"six-guess exists only for the classic game (4 pegs, 6 colours, repeats allowed), "
                f"not {rules.describe()}"
            )
        super().__init__(rules, first)
        digits = self.space.digits()
        distinct = np.array([len(set(row)) for row in digits.tolist()])
        duplicates = rules.pegs - distinct
        # Index order is alphabetical order, so a stable sort by duplicates gives the list.
        self.order = np.argsort(duplicates, kind="stable").astype(np.int64)
        self.rank = np.empty(self.space.size, dtype=np.int64)
        self.rank[self.order] = np.arange(self.space.size)
        self.fixed = {turn: self._index(text) for turn, text in FIXED.items()}
        self.exceptions = {self._index(a): self._index(b) for a, b in EXCEPTIONS.items()}

    def _index(self, letters: str) -> int:
        return self.space.index([LETTERS.index(ch) for ch in letters])

    def pick(self, state: SolverState) -> int:
        turn = state.turn
        if turn in self.fixed:
            return self.fixed[turn]
        head = self._first_listed(state.candidate_indices())
        if turn == 4:
            return self.exceptions.get(head, head)
        return head

    def pick_possible(self, state: SolverState) -> int | None:
        """The first code of the list still possible (the rule past the fourth guess)."""
        cands = state.candidate_indices()
        return self._first_listed(cands) if len(cands) else None

    def _first_listed(self, cands: np.ndarray) -> int:
        return int(cands[np.argmin(self.rank[cands])])
