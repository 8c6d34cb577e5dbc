"""A baseline: a candidate drawn uniformly at random each turn."""

from __future__ import annotations

import numpy as np

from ..core.code import Code
from ..core.rules import Rules
from ..deduction.state import SolverState
from .base import Strategy


class RandomCandidate(Strategy):
    """Play a code drawn uniformly from the candidates (the codes that fit every reply).

    The generator comes from :meth:`new_game`, so evaluation with a seed is reproducible. The
    first guess is drawn from all codes without listing them, but later guesses need the list of
    candidates, so games too large to enumerate are refused: drawing a consistent code uniformly
    without enumerating would mean counting the solutions of a Mastermind satisfiability problem,
    which this package does not attempt (the counter's search finds one, not a uniform one).

    Args:
        rules: the game.
        first: overrides the first guess.
    """

    name = "random"
    summary = "a uniformly random candidate each turn"
    randomized = True

    def __init__(self, rules: Rules, first: Code | str | int | None = None) -> None:
        super().__init__(rules, first)
        self.rng = np.random.default_rng()

    def new_game(self, rng: np.random.Generator) -> None:
        """Use ``rng`` for the draws of the next game."""
        self.rng = rng

    def pick(self, state: SolverState) -> int:
        if not state.history:
            return int(self.rng.integers(self.space.size))  # every code is a candidate
        cands = state.candidate_indices()
        return int(cands[self.rng.integers(len(cands))])
