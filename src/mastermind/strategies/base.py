"""The interface every strategy implements, and the picklable description that rebuilds one.

A strategy picks the next guess (:meth:`Strategy.pick`), and says what a player may want beside
it: :meth:`~Strategy.expected_guesses` from a position, where it knows them, and the progress of
a long choice (:attr:`~Strategy.search_progress`). :meth:`~Strategy.spec` is the picklable
description that rebuilds it in a worker.

What evaluation, the runner and the front ends need of a whole tree (a strategy's own search,
compiled kernels over many positions, the cost of long work) are capabilities a strategy has or
does not have: :mod:`mastermind.strategies.capabilities`. This module also holds the types they
share (:class:`Position`, :class:`SearchedTree`, :class:`SearchCost`, :class:`PieceBook`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple, Protocol

import numpy as np

from ..core.code import ENUMERATION_LIMIT, CodeLike, CodeSpace, as_code
from ..core.rules import Rules
from ..core.text import quote
from ..deduction.state import SolverState
from ..errors import StrategyError
from .progress import OnProgress

if TYPE_CHECKING:
    from ..core.tree import Node

#: The (guess index, reply) pairs that lead to a position; replies as ``black * (pegs + 1) + white``.
History = tuple[tuple[int, int], ...]


class Position(NamedTuple):
    """A node of a strategy's tree: the history that leads there, and the secrets that reach it
    (ascending code indices)."""

    history: History
    secrets: np.ndarray

    @property
    def guesses(self) -> list[int]:
        return [g for g, _ in self.history]

    @property
    def depth(self) -> int:
        """The number of the guess played here (1 at the root)."""
        return len(self.history) + 1


#: ``map_tasks(fn, tasks, each)``: ``fn(*args)`` for each ``args`` of ``tasks`` (read lazily, as
#: room frees, so a task made later can use what earlier ones found; a None means that none is
#: ready until one of those running finishes, never given while none runs), and
#: ``each(args, result)`` in the calling thread as each finishes, in any order. Executors provide it.
Task = tuple[Any, ...]
MapTasks = Callable[[Callable[..., Any], Iterable[Task | None], Callable[[Task, Any], None]], None]


class PieceBook(Protocol):
    """Where a search cut into pieces keeps what it finished, across runs (a checkpoint)."""

    #: key -> (where it was read, for an error; its cost, or without a tree the least it costs
    #: (its search found nothing below that budget); its tree)
    pieces: dict[str, tuple[int, int | None, np.ndarray | None]]

    def record_piece(self, key: str, cost: int | None, flat: np.ndarray | None) -> None:
        """Keep a finished piece (it is safe when this returns)."""

    def damaged(self, line: int) -> Exception:
        """The error to raise for a recorded piece that does not fit the search."""


@dataclass(frozen=True)
class SearchedTree:
    """A whole tree found by a strategy's own search: the total of guesses over every secret,
    the tree, the same as a preorder array (as caches and checkpoints keep it), and the pieces
    of the search solved now and read back from a :class:`PieceBook` (0 and 0 when the tree was
    at hand)."""

    cost: int
    root: Node
    flat: np.ndarray
    pieces: int = 0
    resumed: int = 0


@dataclass(frozen=True)
class SearchCost:
    """What an exact search that may be long is likely to cost: ``codes`` still possible, the
    guesses tried among ``guesses`` codes, and a rough figure of its ``seconds`` (an order of
    magnitude); ``beyond``: larger than any search measured, so ``seconds`` is only a floor.

    >>> str(SearchCost(3796, 32768, 330.0))
    'an exact search of 3,796 codes, guesses among 32,768: roughly 6 minutes (scaled from the searches \
measured in docs/results.md: an order of magnitude)'
    >>> str(SearchCost(46656, 46656, 1491.0, beyond=True))
    'an exact search of 46,656 codes: more than 25 minutes, likely hours (larger than any of the \
searches measured in docs/results.md)'
    """

    codes: int
    guesses: int
    seconds: float
    beyond: bool = False
    #: the work, as it is named (another strategy's long work than the exact search)
    work: str = "an exact search"
    #: what the figure is scaled from, in docs/results.md
    runs: str = "searches"

    def __str__(self) -> str:
        from ..core.text import duration

        among = f", guesses among {self.guesses:,}" if self.guesses != self.codes else ""
        what = f"{self.work} of {self.codes:,} codes{among}"
        if self.beyond:
            return (
                f"{what}: more than {duration(self.seconds)}, likely hours (larger than any "
                f"of the {self.runs} measured in docs/results.md)"
            )
        return (
            f"{what}: roughly {duration(self.seconds)} (scaled from the {self.runs} measured in "
            "docs/results.md: an order of magnitude)"
        )


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
    #: The class itself, for a strategy registered in this process only (a notebook's): a worker,
    #: which does not know its name, rebuilds it from the class (Dask pickles it with the task).
    #: None for a strategy every process finds by name: a built-in or an installed plug-in's.
    strategy_class: type[Strategy] | None = field(default=None, compare=False, repr=False)

    def build(self) -> Strategy:
        from . import find_strategy

        cls = self.strategy_class or find_strategy(self.name)
        return cls(self.rules, self.first, **dict(self.options))

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "first": self.first, "options": dict(self.options)}

    def played_options(self) -> tuple[tuple[str, Any], ...]:
        """The options that change what is played: all but the strategy's :attr:`Strategy.means`.

        >>> StrategySpec("optimal", Rules(), options=(("cache", False),)).played_options()
        ()
        """
        from . import find_strategy

        means = (self.strategy_class or find_strategy(self.name)).means
        return tuple((k, v) for k, v in self.options if k not in means)


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
    #: Whether the strategy draws random numbers (evaluation then plays game by game). Read on
    #: the class, the answer for its default options; an instance whose options make it
    #: deterministic (the counter without tables) sets its own in the constructor.
    randomized: bool = False
    #: Whether the strategy must enumerate the code space.
    enumerates: ClassVar[bool] = True
    #: The options the strategy takes, with their defaults.
    options: ClassVar[dict[str, Any]] = {}
    #: Those of its options that say how the play is found, not what is played (the optimal
    #: search's cache): runs that differ only in them are the same run, to a checkpoint and to
    #: the history.
    means: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, rules: Rules, first: CodeLike | int | None = None, **options: Any) -> None:
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
        if isinstance(first, int | np.integer):  # a code index
            first = int(first)
        elif first is not None:
            first = self.space.index(as_code(first, rules).colors)
        if first is not None and not 0 <= first < self.space.size:
            raise StrategyError(f"no code of {rules.describe()} has index {first}")
        self.first: int | None = first
        #: Told where a long search of the strategy stands (a choice, or a whole tree: see
        #: :class:`~mastermind.strategies.capabilities.TreeSearch`); None: nobody listens.
        self.search_progress: OnProgress | None = None

    def spec(self) -> StrategySpec:
        """A picklable description from which :meth:`StrategySpec.build` makes this strategy again."""
        from . import found_by_name

        changed = tuple(sorted((k, v) for k, v in self.settings.items() if v != self.options[k]))
        cls = None if found_by_name(type(self)) else type(self)
        return StrategySpec(self.name, self.rules, self.first, changed, cls)

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

    def pick_possible(self, state: SolverState) -> int | None:
        """The strategy's choice among the codes still possible alone (hard mode allows no other,
        and on the last guess no other can win); None where no code is possible.

        This one plays the first code still possible, in numeric order, found without listing
        the codes (so it serves any game); a strategy that scores its guesses overrides it to
        score the codes still possible alone, by the same criterion.
        """
        from ..deduction.state import first_candidates

        found = first_candidates(self.rules, state.history, 1)
        return self.space.index(found[0].colors) if found else None

    def expected_guesses(self, state: SolverState) -> float | None:
        """The expected number of guesses still needed from ``state`` (the next one included),
        over the codes still possible, each equally likely; None where the strategy does not know."""
        return None

    def __repr__(self) -> str:
        args = [repr(self.rules)]
        if self.first is not None:
            args.append(f"first={self.first}")
        args += [f"{k}={v!r}" for k, v in self.spec().options]
        return f"{type(self).__name__}({', '.join(args)})"
