"""A strategy's own search of its whole tree run within a time budget: bounds on the least total
when it stops before its end, the optimum when it finishes; and a proof file of a lower bound.

:func:`search_within` runs the search of a :class:`~mastermind.strategies.capabilities.TreeSearch`
for at most a budget of seconds, checkpointed where the session says (the same run again starts
from what it finished and narrows the bounds), stopped by Ctrl-C as by the budget.
:func:`prove_lower` then writes a proof that anyone can check of a lower bound on the least total.
A front end shows their progress and writes the trees through the callbacks; what it prints is
its own.
"""

from __future__ import annotations

import dataclasses
import functools
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ..core.rules import DEFAULT_MAX_GUESSES
from ..errors import StrategyError
from ..strategies.capabilities import OnBounds, SearchBounds, TreeSearch
from .evaluation import evaluate
from .results import Stats

if TYPE_CHECKING:
    from ..core.rules import Rules
    from ..strategies import Strategy
    from ..strategies.optimal.lower import LowerBound
    from .runner.executors import Executor
    from .session import Session


@dataclass(frozen=True)
class Bounds:
    """What a search proved: ``lower`` <= the least total <= ``upper`` (None: no tree found yet),
    ``flat`` the tree of ``upper`` (preorder); ``complete``: the search ran to its end."""

    lower: int
    upper: int | None
    flat: np.ndarray | None
    complete: bool

    @classmethod
    def of(cls, found: SearchBounds) -> Bounds:
        return cls(found.lower, found.upper, found.flat, found.complete)

    @property
    def exact(self) -> bool:
        """Whether the least total is known: the bounds meet."""
        return self.upper is not None and self.lower == self.upper

    @property
    def gap(self) -> int | None:
        return None if self.upper is None else self.upper - self.lower

    def raised(self, lower: int) -> Bounds:
        """The same bounds with a higher lower bound proved elsewhere (a proof file)."""
        return dataclasses.replace(self, lower=max(self.lower, lower))


@dataclass(frozen=True)
class BoundedSearch:
    """A search run within a budget: its ``bounds``, its ``seconds``, whether Ctrl-C stopped it
    (``interrupted``), and the checkpoint that keeps what it finished for the next run
    (``kept``: None when there is none, or the search finished)."""

    bounds: Bounds
    seconds: float
    interrupted: bool
    kept: Path | None


class _Interrupt:
    """Ctrl-C heard as the budget: the first sets ``stop`` (the search ends as at its time
    limit, and reports what it proved); a second raises KeyboardInterrupt at once."""

    def __init__(self) -> None:
        self.stop = threading.Event()
        self.heard = threading.Event()

    def __call__(self, signum: int, frame: object) -> None:
        if self.heard.is_set():
            raise KeyboardInterrupt
        self.heard.set()
        self.stop.set()


@contextmanager
def _hearing(interrupt: _Interrupt) -> Iterator[None]:
    previous = signal.signal(signal.SIGINT, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def search_within(
    session: Session,
    strategy: Strategy,
    search: TreeSearch,
    seconds: float,
    *,
    on_better: OnBounds | None = None,
    on_tree: OnBounds | None = None,
    piece_size: int | None = None,
) -> BoundedSearch:
    """Run ``search`` (the capability of ``strategy``) for at most ``seconds``; what it finishes is
    recorded in the session's checkpoint for ``strategy`` (its own under the user cache directory,
    removed once the search has finished). ``on_better(lower, upper, None)`` hears of each
    improvement, ``on_tree(lower, upper, flat)`` gets the best tree as it improves (see
    :meth:`~mastermind.strategies.capabilities.TreeSearch.bounds`); ``piece_size``: the largest
    set searched in one compiled call. Must run in the main thread (it hears Ctrl-C).

    Raises:
        StrategyError: no tree finds every secret within the guess limit (a settled answer: the
            session's own checkpoint is removed).
    """
    from .runner.checkpoint import Checkpoint, run_identity

    path, own = session.checkpoint_for(strategy)
    book = None
    if path is not None:
        book = Checkpoint(path, run_identity(strategy.spec(), None))
        book.open()
        if book.pieces and session.notify is not None:
            session.notify(f"resuming from {path}: {len(book.pieces)} results of an earlier run")
    interrupt = _Interrupt()
    began = time.perf_counter()
    try:
        with _hearing(interrupt):
            found = search.bounds(
                seconds,
                on_better=on_better,
                stop=interrupt.stop,
                on_tree=on_tree,
                book=book,
                piece_size=piece_size,
            )
    except StrategyError:
        if own and path is not None:
            path.unlink(missing_ok=True)
        raise
    finally:
        if book is not None:
            book.close()
    elapsed = time.perf_counter() - began
    bounds = Bounds.of(found)
    if bounds.complete and own and path is not None:
        path.unlink(missing_ok=True)
    kept = path if path is not None and not bounds.complete else None
    return BoundedSearch(bounds, elapsed, interrupt.heard.is_set(), kept)


def evaluate_searched(strategy: Strategy, searched: float | None) -> Stats:
    """The statistics of a strategy whose tree is at hand; ``searched``: the seconds of the search
    that found it within this run's budget (they are then the run's time, the tree not at hand
    before the run), None where it was at hand already."""
    stats = evaluate(strategy)
    if searched is not None:
        stats.seconds, stats.tree_at_hand = searched + stats.seconds, False
    return stats


@dataclass(frozen=True)
class ProvedBound:
    """A proof file written: what it proves (``found``), whether Ctrl-C cut it short
    (``stopped``: it proves the bound reached then), and the journal that keeps what a guided
    proof proved for the next run (``kept``: None when there is none, or the proof ended)."""

    found: LowerBound
    stopped: bool
    kept: Path | None


def proof_journal(path: str | Path) -> Path:
    """Where a guided proof written to ``path`` keeps what it has proved, so that the same proof
    asked for again resumes from it."""
    return Path(f"{path}.journal")


def prove_lower(
    rules: Rules,
    target: int | None,
    path: str | Path,
    seconds: float,
    *,
    exact: bool = False,
    progress: Callable[[int, int | None], None] | None = None,
    executor: Executor | None = None,
) -> ProvedBound:
    """A proof of a lower bound on the least total of ``rules``, raised toward ``target`` (the
    best tree found, or, ``exact``, the optimum: the proof is then guided by the exact search,
    and resumes from its :func:`proof_journal`) for at most ``seconds``, written to ``path``.
    ``progress(bound, target)`` as the bound rises. A guided proof given a Dask ``executor``
    proves its sets as tasks there (:class:`~.runner.proofs.DaskFarm`).

    Raises:
        OSError: the proof file cannot be written (a guided proof's journal keeps what it proved).
    """
    from ..strategies.optimal.guided import prove_optimum
    from ..strategies.optimal.lower import prove

    stop = threading.Event()
    guided = exact and target is not None
    # (a guided proof is of the least total within the game's guess limit where one is set: the
    # optimum aimed at is that limit's; the counting proof's holds whatever the limit)
    within = rules.max_guesses if guided and rules.max_guesses < DEFAULT_MAX_GUESSES else None
    journal = proof_journal(path)
    if guided:
        assert target is not None
        from .runner.executors import DaskExecutor
        from .runner.proofs import DaskFarm

        farm = functools.partial(DaskFarm, executor=executor) if isinstance(executor, DaskExecutor) else None
        found = prove_optimum(  # (a file of version 3, and a journal of it: see ProofFile.write)
            rules,
            target,
            seconds=seconds,
            stop=stop,
            progress=progress,
            checkpoint=journal,
            compact=str(path).endswith(".xz"),
            farm=farm,
            within=within,
        )
    else:
        found = prove(rules, target=target, seconds=seconds, stop=stop, progress=progress)
    found.proof.write(path)
    kept = None
    if guided and found.ended:
        journal.unlink(missing_ok=True)
    elif guided:
        kept = journal
    return ProvedBound(found, stop.is_set(), kept)
