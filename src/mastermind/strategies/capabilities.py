"""What the runner and the front ends need of a strategy beyond :meth:`Strategy.pick`: capabilities
that a strategy has or does not have, each a class of its own, found by ``isinstance`` (or, for
one that depends on the strategy's options, by a function that returns it or None).

- :class:`LongWork`: its whole tree, or a choice, may take minutes (:meth:`LongWork.quick`,
  :meth:`LongWork.search_cost`). A strategy without it is quick.
- :class:`TreeSearch`: it finds its whole tree by its own exact search (:meth:`TreeSearch.search_tree`),
  which the runner cuts into pieces; it says whether the tree is at hand, bounds the least total
  within a time budget (:meth:`TreeSearch.bounds`), and is a :class:`LongWork`.
- :class:`PositionKernels`: its choices at many positions, and the subtrees below them, run on
  compiled kernels on all cores; :func:`kernels_of` gives them where the strategy's options
  put it on them. Any other strategy's choices there are made move by move in Python.

The functions below answer for any strategy, with or without the capability: a plug-in that
implements only :meth:`~Strategy.pick` is evaluated, cut into subtrees and compared like the others.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from ..deduction.state import SolverState
from .base import MapTasks, PieceBook, Position, SearchCost, SearchedTree, Strategy
from .progress import OnProgress

if TYPE_CHECKING:
    from ..core.tree import Node


class LongWork(ABC):
    """A strategy whose whole tree, or a choice, may take minutes or hours."""

    @abstractmethod
    def quick(self) -> bool:
        """Whether the whole tree takes seconds, not minutes or hours (on small games, or with
        the tree at hand)."""

    @abstractmethod
    def search_cost(self, state: SolverState | None = None) -> SearchCost | None:
        """What the work behind the next guess at ``state`` (the whole tree by default) is likely
        to cost, where it is not quick; None where it is quick or not needed."""


class SearchBounds(Protocol):
    """What a search stopped within a budget proved: ``lower`` <= the least total <= ``upper``
    (None: no tree found yet), ``flat`` the tree of ``upper`` (preorder), ``complete``: the
    search ran to its end."""

    @property
    def lower(self) -> int: ...

    @property
    def upper(self) -> int | None: ...

    @property
    def flat(self) -> np.ndarray | None: ...

    @property
    def complete(self) -> bool: ...


#: ``on_better(lower, upper, tree)`` and ``on_tree(lower, upper, tree)`` of :meth:`TreeSearch.bounds`.
OnBounds = Callable[[int, int | None, Any], None]


class TreeSearch(LongWork):
    """A strategy that finds its whole tree by its own exact search rather than by choosing at
    every node of it. Its search reports its progress to :attr:`Strategy.search_progress`."""

    @abstractmethod
    def search_tree(
        self,
        map_tasks: MapTasks | None = None,
        book: PieceBook | None = None,
        progress: OnProgress | None = None,
        workers: int | None = None,
        piece_size: int | None = None,
    ) -> SearchedTree:
        """The whole tree: at hand, or searched in this process (``map_tasks`` None; progress to
        :attr:`Strategy.search_progress`), or cut into pieces run by ``map_tasks`` (``workers``
        at a time; ``piece_size``, where given, the largest part searched as one piece), kept in
        ``book`` as they finish (progress to ``progress``).

        Raises:
            StrategyError: no tree finds every secret within the guess limit.
        """

    @abstractmethod
    def known_tree(self) -> Node | None:
        """The whole tree if it is at hand (found already, or cached), else None."""

    def tree_at_hand(self) -> bool:
        """Whether the whole tree is at hand now, with no work."""
        return self.known_tree() is not None

    @abstractmethod
    def bounds(
        self,
        seconds: float | None = None,
        on_better: OnBounds | None = None,
        stop: Any = None,
        on_tree: OnBounds | None = None,
        save_every: float = 60.0,
        book: PieceBook | None = None,
        piece_size: int | None = None,
    ) -> SearchBounds:
        """Search the whole tree for at most ``seconds`` (or until the event ``stop`` is set): a
        proven lower bound on the least total and the best tree found. ``on_better`` hears of
        each improvement, ``on_tree`` gets the best tree every ``save_every`` seconds while it
        improves; ``book`` keeps what the search finishes, across runs.

        Raises:
            StrategyError: no tree finds every secret within the guess limit.
        """

    @abstractmethod
    def prepare_pieces(self) -> None:
        """Load what the pieces of the search need, where they will run: not the search itself."""


class PositionKernels(ABC):
    """Choices at many positions, and the subtrees below them, on compiled kernels on all cores:
    they release the GIL and return within milliseconds once their stop flag is set (so they
    are run in a helper thread that hears Ctrl-C)."""

    @property
    def compiled(self) -> bool:
        """Whether the strategy's options put it on the kernels (else :func:`kernels_of` is None)."""
        return True

    @abstractmethod
    def guesses_at(self, positions: Sequence[Position], stop: np.ndarray) -> list[int]:
        """The strategy's guess at each position (meaningless once ``stop[0]`` is set)."""

    @abstractmethod
    def distributions_at(self, positions: Sequence[Position], stop: np.ndarray) -> list[dict[int, int]]:
        """For each position, the secrets below it found with each guess number (the position's
        own guess being number ``position.depth``); meaningless once ``stop[0]`` is set."""


# -- for any strategy, with or without a capability -------------------------------------------


def tree_search(strategy: Strategy) -> TreeSearch | None:
    """The strategy's own search of its whole tree, or None where its tree is walked."""
    return strategy if isinstance(strategy, TreeSearch) else None


def kernels_of(strategy: Strategy) -> PositionKernels | None:
    """The strategy's compiled kernels over many positions, or None where it chooses in Python."""
    return strategy if isinstance(strategy, PositionKernels) and strategy.compiled else None


def quick(strategy: Strategy) -> bool:
    """Whether the strategy's whole tree takes seconds (every strategy without :class:`LongWork`)."""
    return not isinstance(strategy, LongWork) or strategy.quick()


def search_cost(strategy: Strategy, state: SolverState | None = None) -> SearchCost | None:
    """:meth:`LongWork.search_cost`; None for a strategy without long work."""
    return strategy.search_cost(state) if isinstance(strategy, LongWork) else None


def tree_at_hand(strategy: Strategy) -> bool:
    """Whether a strategy that searches has its whole tree at hand (False for any other)."""
    return isinstance(strategy, TreeSearch) and strategy.tree_at_hand()


def prepare_pieces(strategy: Strategy) -> None:
    """Load what the pieces of the strategy's whole tree need where they will run: a search's
    tables and compiled code (not the search), or all that :meth:`Strategy.prepare` loads."""
    if isinstance(strategy, TreeSearch):
        strategy.prepare_pieces()
    else:
        strategy.prepare()


def state_at(strategy: Strategy, position: Position) -> SolverState:
    """The solver state at ``position`` (its candidates are the position's secrets)."""
    return SolverState.after(strategy.rules, position.history, position.secrets)


def guesses_walked(strategy: Strategy, positions: Sequence[Position]) -> list[int]:
    """The strategy's guess at each position, chosen move by move in Python."""
    return [strategy.choose(state_at(strategy, p)) for p in positions]


def distributions_walked(strategy: Strategy, positions: Sequence[Position]) -> list[dict[int, int]]:
    """The subtree below each position (secrets found with each guess number), walked in Python."""
    from .walk import walk

    out = []
    for p in positions:
        dist: dict[int, int] = {}
        walk(strategy, state_at(strategy, p), p.depth, dist, None)
        out.append(dist)
    return out


def guesses_at(strategy: Strategy, positions: Sequence[Position], stop: np.ndarray) -> list[int]:
    """The strategy's guess at each position: on its kernels where it has them (meaningless once
    ``stop[0]`` is set), else move by move."""
    kernels = kernels_of(strategy)
    return guesses_walked(strategy, positions) if kernels is None else kernels.guesses_at(positions, stop)


def distributions_at(
    strategy: Strategy, positions: Sequence[Position], stop: np.ndarray
) -> list[dict[int, int]]:
    """For each position, the secrets below it found with each guess number: on the strategy's
    kernels where it has them (meaningless once ``stop[0]`` is set), else walked."""
    kernels = kernels_of(strategy)
    if kernels is None:
        return distributions_walked(strategy, positions)
    return kernels.distributions_at(positions, stop)
