"""The interface every strategy implements."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import ClassVar

import numpy as np

from ..code import ENUMERATION_LIMIT, Code, CodeSpace
from ..errors import StrategyError
from ..notation import Notation
from ..rules import Rules
from ..solver import SolverState


class Strategy(ABC):
    """A codebreaker: picks the next guess from a SolverState, nothing more.

    A strategy is bound to one game's rules when it is made, so per-game tables are built once.
    Filtering, history and the random generator belong to the library: a randomised strategy
    receives a generator from :meth:`new_game` before each game.

    Args:
        rules: the game.
        first: a guess that overrides the strategy's own first guess.
    """

    name: ClassVar[str]
    summary: ClassVar[str] = ""
    #: Whether the strategy draws random numbers (evaluation then plays game by game).
    randomized: ClassVar[bool] = False
    #: Whether the strategy must enumerate the code space.
    enumerates: ClassVar[bool] = True

    def __init__(self, rules: Rules, first: Code | str | None = None) -> None:
        self.rules = rules
        self.space = CodeSpace.of(rules)
        if self.enumerates and not self.space.enumerable:
            from . import STRATEGIES

            able = [s.name for s in STRATEGIES if not s.enumerates]
            raise StrategyError(
                f"{self.name} cannot play {rules.describe()}: it must list all {self.space.size:,} "
                f"codes, and at most {ENUMERATION_LIMIT:,} can be listed; "
                f"strategies that can play it: {', '.join(able) or 'none'}"
            )
        if isinstance(first, str):
            first = Notation(rules).parse_code(first)
        self.first = None if first is None else self.space.index(first.colors)

    def new_game(self, rng: np.random.Generator) -> None:  # noqa: B027 - optional hook
        """Called before each game with the game's own generator."""

    def prepare(self) -> None:
        """Build tables and load compiled code now, so that timing a game times only the game.

        The default plays the first move of a game once (the JIT compiles or loads what it
        needs); strategies for which that move is itself real work override this.
        """
        if self.randomized:
            self.new_game(np.random.default_rng(0))
        self.choose(SolverState(self.rules))

    def first_guess(self) -> int:
        """The first guess's code index (the override, if one was given)."""
        if self.first is not None:
            return self.first
        return self.choose(SolverState(self.rules))

    @abstractmethod
    def choose(self, state: SolverState) -> int:
        """The index of the next guess, given what is known."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.rules!r})"
