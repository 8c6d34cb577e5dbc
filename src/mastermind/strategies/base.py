"""The interface every strategy implements, and the picklable description that rebuilds one."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from ..core.code import ENUMERATION_LIMIT, Code, CodeSpace
from ..core.notation import Notation
from ..core.rules import Rules
from ..core.text import quote
from ..errors import StrategyError
from ..solver.state import SolverState


@dataclass(frozen=True)
class StrategySpec:
    """What it takes to rebuild a strategy in another process: its name, the game, the
    first-guess override (a code index) and its options, as sorted pairs.

    >>> spec = StrategySpec("counter", Rules(), options=(("tables", False),))
    >>> spec.build().spec() == spec
    True
    """

    name: str
    rules: Rules
    first: int | None = None
    options: tuple[tuple[str, Any], ...] = ()

    def build(self) -> Strategy:
        from . import find_strategy

        return find_strategy(self.name)(self.rules, self.first, **dict(self.options))

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "first": self.first, "options": dict(self.options)}


class Strategy(ABC):
    """A codebreaker: picks the next guess from a SolverState, nothing more.

    A strategy is bound to one game's rules when it is made, so per-game tables are built once.
    Filtering, history and the random generator belong to the library: a randomised strategy
    receives a generator from :meth:`new_game` before each game. A subclass implements
    :meth:`pick`; :meth:`choose` applies the first-guess override before asking it.

    Args:
        rules: the game.
        first: a guess (a code, its text or its index) that overrides the strategy's own first guess.
        options: the strategy's own options, named in :attr:`options` with their defaults;
            any other name is refused.
    """

    name: ClassVar[str]
    summary: ClassVar[str] = ""
    #: Whether the strategy draws random numbers (evaluation then plays game by game).
    randomized: ClassVar[bool] = False
    #: Whether the strategy must enumerate the code space.
    enumerates: ClassVar[bool] = True
    #: Whether the strategy computes its whole tree at once: it then implements tree_distribution().
    whole_tree: ClassVar[bool] = False
    #: The options the strategy takes, with their defaults.
    options: ClassVar[dict[str, Any]] = {}

    def __init__(self, rules: Rules, first: Code | str | int | None = None, **options: Any) -> None:
        unknown = sorted(set(options) - set(self.options))
        if unknown:
            takes = f"it takes {', '.join(self.options)}" if self.options else "it takes none"
            raise StrategyError(f"{self.name} has no option {quote(unknown[0])}; {takes}")
        for key, value in options.items():
            default = self.options[key]
            if type(value) is not type(default):
                raise StrategyError(
                    f"{self.name}'s option {key!r} must be a {type(default).__name__}, not {value!r}"
                )
        self.settings: dict[str, Any] = {**self.options, **options}
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
        if isinstance(first, Code):
            first = self.space.index(first.colors)
        if first is not None and not 0 <= first < self.space.size:
            raise StrategyError(f"no code of {rules.describe()} has index {first}")
        self.first: int | None = first

    def spec(self) -> StrategySpec:
        """A picklable description from which :meth:`StrategySpec.build` makes this strategy again."""
        changed = tuple(sorted((k, v) for k, v in self.settings.items() if v != self.options[k]))
        return StrategySpec(self.name, self.rules, self.first, changed)

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
        return self.choose(SolverState(self.rules))

    def choose(self, state: SolverState) -> int:
        """The index of the next guess, given what is known (the override on an empty history)."""
        if self.first is not None and not state.history:
            return self.first
        return self.pick(state)

    @abstractmethod
    def pick(self, state: SolverState) -> int:
        """The strategy's own choice of the next guess."""

    def tree_distribution(self, progress: Callable[[int], None] | None = None) -> dict[int, int]:
        """Guesses -> secrets over every secret, for a strategy that computes its whole tree at once."""
        raise NotImplementedError(f"{self.name} does not compute its tree at once")

    def __repr__(self) -> str:
        args = [repr(self.rules)]
        if self.first is not None:
            args.append(f"first={self.first}")
        args += [f"{k}={v!r}" for k, v in self.spec().options]
        return f"{type(self).__name__}({', '.join(args)})"
