"""A whole tree cut into units of work, and a unit solved from its description alone.

A deterministic strategy plays every secret as one tree. The tree is cut into subtrees, first
by the replies to the first guess, then further wherever a subtree holds more than ``unit_size``
secrets (the guesses on the way down are chosen a level at a time, by the executor). Each
subtree is a :class:`Unit`: a small picklable description (the strategy's spec and the history
that leads to the subtree) that any process turns back into a distribution of guess counts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from ...deduction.state import SolverState
from ...errors import ExecutorError, StrategyError
from ...strategies import Strategy, StrategySpec
from ...strategies.base import History, Position
from ...strategies.capabilities import distributions_at, guesses_at, kernels_of, prepare_pieces
from .interrupt import check_not_stopped, interruptible, stopped_here

#: Games up to this many codes are one unit unless told otherwise (milliseconds of work).
SMALL_GAME = 8192


def key_of(history: History) -> str:
    """A name for the subtree after ``history``, the same in every run: its guesses and replies."""
    return "/".join(f"{g}:{f}" for g, f in history) or "root"


@dataclass(frozen=True)
class Unit:
    """One subtree: the secrets that reach it after ``history``, (guess index, reply) pairs.

    The empty history is the whole tree (a game small enough to be one unit).
    """

    spec: StrategySpec
    history: History
    size: int

    @property
    def key(self) -> str:
        """A name for the unit, the same in every run: its guesses and replies."""
        return key_of(self.history)

    @property
    def depth(self) -> int:
        """The number of the guess played at the unit's top."""
        return len(self.history) + 1


@dataclass
class Plan:
    """A whole tree cut into units, and what was settled while cutting it.

    ``found`` counts, by number of guesses, the secrets that a guess on the way down found;
    ``secrets`` keeps each unit's secrets (by key), computed while cutting.
    """

    spec: StrategySpec
    first_guess: int
    size: int
    unit_size: int
    units: list[Unit]
    found: dict[int, int]
    secrets: dict[str, np.ndarray] = field(default_factory=dict, repr=False)

    def secrets_of(self, strategy: Strategy, unit: Unit) -> np.ndarray:
        """The unit's secrets (ascending code indices), kept or computed again."""
        kept = self.secrets.get(unit.key)
        return secrets_after(strategy, unit.history) if kept is None else kept


#: Chooses the strategy's guess at each position of a level of the tree.
Chooser = Callable[[list[Position]], list[int]]


def secrets_after(strategy: Strategy, history: History) -> np.ndarray:
    """The secrets (ascending code indices) that give ``history``'s replies."""
    return SolverState.after(strategy.rules, history).candidate_indices()


def guesses_here(strategy: Strategy, positions: Sequence[Position]) -> list[int]:
    """The strategy's guess at each position, on all cores of this process; Ctrl-C heard."""
    stop = np.zeros(1, dtype=np.int64)
    compiled = kernels_of(strategy) is not None
    guesses = interruptible(guesses_at, strategy, positions, stop, stop=stop, compiled=compiled)
    if stop[0]:
        raise KeyboardInterrupt
    return list(guesses)


def unit_size_for(strategy: Strategy, unit_size: int | None = None) -> int:
    """The largest subtree that is one unit: by default the whole of a game of up to
    :data:`SMALL_GAME` codes, else 1/64 of the secrets."""
    if unit_size is None:
        size = strategy.space.size
        unit_size = size if size <= SMALL_GAME else max(64, size // 64)
    if unit_size < 1:
        raise ExecutorError("unit_size must be positive")
    return unit_size


def cut_tree(strategy: Strategy, unit_size: int | None = None, *, choose: Chooser | None = None) -> Plan:
    """Cut the strategy's whole tree into units of at most ``unit_size`` secrets.

    The guesses of the nodes above the units are chosen a level at a time by ``choose``
    (:func:`guesses_here` by default).
    """
    if strategy.randomized:
        raise StrategyError(f"{strategy.name} is randomised: it has no single tree to split")
    space = strategy.space
    space.require_enumerable()
    spec = strategy.spec()
    unit_size = unit_size_for(strategy, unit_size)
    choose = choose or (lambda positions: guesses_here(strategy, positions))
    first = strategy.first_guess()
    result = Plan(spec, first, space.size, unit_size, [], {})
    everything = np.arange(space.size, dtype=np.int64)
    if space.size <= unit_size:
        result.units.append(Unit(spec, (), space.size))
        result.secrets["root"] = everything
        return result
    from ..._kernels import cells

    win = strategy.rules.win
    level = [Position((), everything)]
    guesses = [first]
    while level:
        below: list[Position] = []
        for (history, secrets), g in zip(level, guesses, strict=True):
            for f, group in cells(space, g, secrets):
                child: History = (*history, (g, f))
                if f == win:
                    result.found[len(child)] = result.found.get(len(child), 0) + 1
                elif len(group) <= unit_size:
                    unit = Unit(spec, child, len(group))
                    result.units.append(unit)
                    result.secrets[unit.key] = group
                else:
                    below.append(Position(child, group))
        level = below
        guesses = choose(level) if level else []
    result.units.sort(key=lambda u: (-u.size, u.history))  # largest first: the cores finish together
    return result


def distributions(
    strategy: Strategy, units: Sequence[Unit], secrets: Sequence[np.ndarray], stop: np.ndarray
) -> list[dict[int, int]]:
    """The distribution of each unit (guesses -> secrets), from its secrets."""
    positions = [Position(u.history, s) for u, s in zip(units, secrets, strict=True)]
    return distributions_at(strategy, positions, stop)


# -- in any process, from a description alone (a Dask worker's tasks) --------------------------

_BUILT: dict[StrategySpec, Strategy] = {}


def built(spec: StrategySpec) -> Strategy:
    """The strategy a spec describes, built once per process (a few kept)."""
    if spec not in _BUILT:
        if len(_BUILT) >= 8:
            _BUILT.pop(next(iter(_BUILT)))
        _BUILT[spec] = spec.build()
    return _BUILT[spec]


def guess_at(spec: StrategySpec, history: History) -> int:
    """The strategy's guess after ``history``, computed from the description alone (any process)."""
    stop = stopped_here()
    strategy = built(spec)
    guess = guesses_at(strategy, [Position(history, secrets_after(strategy, history))], stop)[0]
    check_not_stopped()
    return guess


def solve_unit(unit: Unit) -> dict[int, int]:
    """The distribution of one unit, computed from its description alone (any process)."""
    stop = stopped_here()
    strategy = built(unit.spec)
    dist = distributions(strategy, [unit], [secrets_after(strategy, unit.history)], stop)[0]
    check_not_stopped()
    if sum(dist.values()) != unit.size:
        raise RuntimeError(f"unit {unit.key} has {sum(dist.values())} secrets, expected {unit.size}")
    return dist


def solve_units(units: Sequence[Unit]) -> list[dict[int, int]]:
    """The distributions of several units (one task on a cluster)."""
    return [solve_unit(unit) for unit in units]


def prepare_worker(spec: StrategySpec) -> None:
    """Load what the strategy's units need in this process (run on each worker)."""
    prepare_pieces(built(spec))
