"""A whole-tree run: a strategy's tree cut into units (or its own search cut into pieces), run by
an executor, checkpointed, its progress reported, added up.

The distributions of the units are added up, so the result does not depend on how the tree was
cut, where the units ran or in which order they finished: it equals the plain walk of the tree
exactly. A strategy that finds its tree by its own search (a
:class:`~mastermind.strategies.capabilities.TreeSearch`) has that search cut into pieces instead
(see :func:`run_search`).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass

import numpy as np

from ...errors import StrategyError
from ...strategies import Strategy
from ...strategies.base import Position, SearchedTree
from ...strategies.capabilities import kernels_of, tree_search
from ...strategies.progress import OnProgress, Progress
from ..results import Stats
from .checkpoint import Checkpoint, run_identity
from .executors import Executor, LocalExecutor
from .interrupt import interruptible
from .plan import Unit, cut_tree, key_of, unit_size_for

PathLike = str | os.PathLike[str]


@dataclass(frozen=True)
class TreeRun:
    """A finished run of a whole tree: the first guess, the distribution (guesses -> secrets),
    and how the work went: units in all, units read back from the checkpoint, seconds."""

    first_guess: int
    distribution: dict[int, int]
    units: int
    resumed: int
    seconds: float


@dataclass(frozen=True)
class SearchRun:
    """A finished run of a strategy's own search: the tree (with the pieces solved now and read
    back from the checkpoint; both 0 for a tree that was at hand), and the seconds it took."""

    tree: SearchedTree
    seconds: float


def run_tree(
    strategy: Strategy,
    executor: Executor | None = None,
    *,
    checkpoint: PathLike | None = None,
    progress: OnProgress | None = None,
    unit_size: int | None = None,
) -> TreeRun:
    """The strategy's whole tree: cut into units, run by ``executor`` (local by default).

    With ``checkpoint``, what an earlier run of the same strategy and game finished (guesses
    chosen while cutting, units solved) is read from that file and not computed again, and
    everything finished now is added to it as it is finished. ``progress`` hears of the
    ``"split"`` stage (guesses chosen at the nodes of each level above the units), then of the
    ``"solve"`` stage (units and secrets done).
    """
    started = time.perf_counter()
    executor = executor or LocalExecutor()
    size = unit_size_for(strategy, unit_size)
    book = None
    if checkpoint is not None:
        book = Checkpoint(checkpoint, run_identity(strategy.spec(), size))
        book.open()
    try:
        return _run_tree(strategy, executor, book, progress, size, started)
    finally:
        if book is not None:
            book.close()


def _run_tree(
    strategy: Strategy,
    executor: Executor,
    book: Checkpoint | None,
    progress: OnProgress | None,
    unit_size: int,
    started: float,
) -> TreeRun:
    secrets = strategy.space.size
    chosen, level = 0, 0

    def tick(n: int) -> None:
        nonlocal chosen
        chosen += n
        if progress:
            progress(Progress("split", chosen, level, 0, secrets))

    def choose(positions: list[Position]) -> list[int]:
        nonlocal chosen, level
        known = book.guesses if book is not None else {}
        todo = [p for p in positions if key_of(p.history) not in known]
        chosen, level = len(positions) - len(todo), len(positions)
        if progress:
            progress(Progress("split", chosen, level, 0, secrets))
        if todo:
            guesses = executor.guesses(strategy, todo, tick)
            new = [(key_of(p.history), g) for p, g in zip(todo, guesses, strict=True)]
            if book is not None:
                book.record_guesses(new)
            known = {**known, **dict(new)}
        return [known[key_of(p.history)] for p in positions]

    the_plan = cut_tree(strategy, unit_size, choose=choose)
    done = book.finished(the_plan) if book is not None else {}
    total = dict(the_plan.found)
    secrets_done = sum(the_plan.found.values())
    for dist in done.values():
        for k, n in dist.items():
            total[k] = total.get(k, 0) + n
        secrets_done += sum(dist.values())
    units_done = len(done)
    if progress:
        progress(Progress("solve", units_done, len(the_plan.units), secrets_done, secrets))

    def record(finished: list[tuple[Unit, dict[int, int]]]) -> None:
        nonlocal units_done, secrets_done
        if book is not None:
            book.record(finished)
        for unit, dist in finished:
            for k, n in dist.items():
                total[k] = total.get(k, 0) + n
            units_done += 1
            secrets_done += unit.size
        if progress:
            progress(Progress("solve", units_done, len(the_plan.units), secrets_done, secrets))

    left = [u for u in the_plan.units if u.key not in done]
    if left:
        executor.solve(strategy, the_plan, left, record)
    if sum(total.values()) != secrets:  # pragma: no cover - a broken executor
        raise RuntimeError(f"the run counted {sum(total.values())} secrets of {secrets}")
    return TreeRun(
        the_plan.first_guess,
        dict(sorted(total.items())),
        len(the_plan.units),
        len(done),
        time.perf_counter() - started,
    )


def run_search(
    strategy: Strategy,
    executor: Executor | None = None,
    *,
    checkpoint: PathLike | None = None,
    progress: OnProgress | None = None,
    piece_size: int | None = None,
) -> SearchRun:
    """The whole tree of a strategy that has a :class:`~mastermind.strategies.capabilities.TreeSearch`,
    its search cut into pieces run by ``executor`` (see its ``search_tree``): the tree is the one the
    search finds in one process, bit for bit, whatever the executor and the order in which the
    pieces finish. With ``checkpoint``, each finished piece is recorded, and a run of the same
    search resumes from it (whatever the ``piece_size`` of either: the largest part searched as
    one piece, see ``TreeSearch.search_tree``). A tree at hand (cached) is taken as it is.

    Raises:
        StrategyError: the strategy has no such search, or no tree finds every secret within
            the guess limit.
    """
    search = tree_search(strategy)
    if search is None:
        raise StrategyError(f"{strategy.name} has no search of its whole tree: its tree is walked")
    started = time.perf_counter()
    executor = executor or LocalExecutor()
    book = None
    if checkpoint is not None:
        book = Checkpoint(checkpoint, run_identity(strategy.spec(), None))
        book.open()
    try:
        tree = search.search_tree(executor.map, book, progress, executor.width, piece_size)
    finally:
        if book is not None:
            book.close()
    return SearchRun(tree, time.perf_counter() - started)


def evaluate_on(
    strategy: Strategy,
    executor: Executor | None = None,
    *,
    checkpoint: PathLike | None = None,
    progress: OnProgress | None = None,
    unit_size: int | None = None,
) -> Stats:
    """Statistics of a deterministic strategy over every secret, as :func:`mastermind.evaluate`
    gives them, computed on ``executor`` (this process by default) by :func:`run_tree`, or by
    :func:`run_search` for a strategy that searches; checkpointed in ``checkpoint`` if given.
    ``unit_size``: the largest subtree that is one unit, or the largest set one piece of a search.
    The time is that of the run, after the strategy's tables and compiled code are loaded.

    >>> from mastermind import Rules, make_strategy
    >>> stats = evaluate_on(make_strategy("knuth", Rules()), unit_size=200)
    >>> str(stats.first_guess), stats.total
    ('1122', 5801)
    """
    executor = executor or LocalExecutor()
    stop = np.zeros(1, dtype=np.int64)
    searcher = tree_search(strategy)
    if searcher is not None:
        if not searcher.tree_at_hand():
            interruptible(executor.prepare, strategy, stop=stop)
        search = run_search(
            strategy, executor, checkpoint=checkpoint, progress=progress, piece_size=unit_size
        )
        first, distribution, seconds = search.tree.root.guess, search.tree.root.distribution(), search.seconds
    else:
        interruptible(executor.prepare, strategy, stop=stop, compiled=kernels_of(strategy) is not None)
        outcome = run_tree(strategy, executor, checkpoint=checkpoint, progress=progress, unit_size=unit_size)
        first, distribution, seconds = outcome.first_guess, outcome.distribution, outcome.seconds
    return Stats(
        strategy=strategy.name,
        rules=strategy.rules,
        first_guess=strategy.space.code(first),
        distribution=dict(sorted(distribution.items())),
        seconds=seconds,
        codes=strategy.space.size,
    )
