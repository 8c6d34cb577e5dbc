"""The worker side of a guided proof: the processes forked from the prover, each raising one
guess at a set at a time and sending back its cells' bounds, lines and records for the book."""

from __future__ import annotations

import itertools
import multiprocessing
import os
import queue
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from ...errors import StrategyError
from ...runtime.pool import Pool, uninterrupted
from ...verify.proof import ProofNode
from .lower import _Set
from .proof_book import _KEEP, _Outbox
from .run import _Run

if TYPE_CHECKING:
    from .guided import _Guided


class Farm(Protocol):
    """What raises a guided proof's guesses one guess above :data:`~.lower.TASK_DEPTH`, a task
    each: processes forked from the prover (:class:`_Workers`) or a cluster's workers
    (:class:`mastermind.research.runner.proofs.DaskFarm`)."""

    @property
    def width(self) -> int:
        """The tasks that run at once."""

    @property
    def running(self) -> int:
        """Tasks sent whose answer has not come back."""

    def submit(self, node: _Set, g: int, claim: int) -> None:
        """Send the task of guess g at the node, to be raised to ``claim``."""

    def ready(self, node: _Set, guesses: list[int]) -> bool:
        """Whether the answers of those guesses' tasks at the node have all come back."""

    def receive(self) -> None:
        """Wait a little for one answer, and keep it."""

    def finish(self, node: _Set, g: int) -> bool:
        """Wait for the task of guess g at the node, give its cells their bounds and lines, and
        say whether the guess reached its claim."""

    def close(self) -> None:
        """End the tasks still running; what has come back is kept."""

    def costs(self, asked: list[tuple[int, _Set, int]], keep: Callable[[int, int], int]) -> bool:
        """Search the exact costs the prover asks of its own sets (each ``(i, cell, budget)``),
        ``keep(i, cost)`` as each is found; False where they are searched by the prover instead
        (forked processes: its threads are on the same cores)."""


class _Workers:
    """Processes forked from the prover, each raising one guess at a set at a time (sent with
    the claim: :meth:`_Guided.raise_guess`, the sets below it proved there), and sending back its
    cells' bounds and lines, and each record for the book as it is made."""

    def __init__(self, prover: _Guided, count: int) -> None:
        self.prover = prover
        self.numbers = itertools.count()
        self.waiting: dict[tuple[int, int], int] = {}  # by the set's id and the guess: the task's number
        self.running = 0  # tasks sent whose answer has not come back
        self.done: dict[int, tuple[bool, dict[int, tuple[int, ProofNode]] | str]] = {}
        died = "a process proving the bound died (killed, or out of memory?): try fewer workers"
        self.pool = Pool(_prove_tasks, count, args=(prover,), died=died)

    @property
    def width(self) -> int:
        """The tasks that run at once."""
        return len(self.pool.processes)

    def submit(self, node: _Set, g: int, claim: int) -> None:
        number = self.waiting[id(node), g] = next(self.numbers)
        self.pool.put((number, _Set(node.S, node.history, node.group, node.used, node.low), g, claim))
        self.running += 1

    def ready(self, node: _Set, guesses: list[int]) -> bool:
        """Whether the answers of those guesses' tasks at the node have all come back."""
        return all(self.waiting[id(node), g] in self.done for g in guesses)

    def receive(self) -> None:
        """Wait a little for one answer, and keep it.

        Raises:
            KeyboardInterrupt: the prover was stopped meanwhile.
            ExecutorError: a worker process died (killed, out of memory).
        """
        if self.prover.run.stopped or self.prover._stopped():
            raise KeyboardInterrupt
        try:
            got, ok, cells = self.pool.get(timeout=0.2)
        except queue.Empty:
            return
        if got == _KEEP:  # (a worker's messages come in the order sent: its records before its answer)
            assert self.prover.book is not None
            with self.prover.book.lock:
                self.prover.book.write(ok)
            return
        self.done[got] = (ok, cells)
        self.running -= 1
        self.prover._heartbeat()

    def keep_sent(self) -> None:
        """Write the records the workers have sent and the prover has not read (it was stopped, or
        busy with a set of its own): a stop loses none of them. Their answers are let go."""
        book = self.prover.book
        while book is not None:
            try:
                got, what, _ = self.pool.results.get_nowait()
            except queue.Empty:
                return
            if got == _KEEP:
                with book.lock:
                    book.write(what)

    def finish(self, node: _Set, g: int) -> bool:
        """Wait for the task of guess g at the node; its cells then have their bounds and lines.
        Whether the guess reached the claim.

        Raises:
            KeyboardInterrupt: the prover was stopped meanwhile.
            ExecutorError: a worker process died (killed, out of memory).
            StrategyError: a worker process failed.
        """
        number = self.waiting.pop((id(node), g))
        while number not in self.done:
            self.receive()
        ok, cells = self.done.pop(number)
        if isinstance(cells, str):
            raise StrategyError(f"a process proving the bound failed: {cells}")
        take_cells(node, g, cells)
        return ok

    def costs(self, asked: list[tuple[int, _Set, int]], keep: Callable[[int, int], int]) -> bool:
        return False

    def close(self) -> None:
        with uninterrupted():  # (a second Ctrl-C would lose what the workers sent)
            self.keep_sent()
            self.pool.close()


def _prove_tasks(tasks: multiprocessing.Queue, results: multiprocessing.Queue, prover: _Guided) -> None:
    """A worker process's loop: raise each guess it is sent, one compiled call after another,
    until it is ended (Ctrl-C is the calling process's to hear) or that process is gone."""
    prover.workers, prover.serial, prover.heartbeat = None, True, None
    if prover.book is not None:
        prover.book = _Outbox.of(prover.book, lambda record: results.put((_KEEP, record, None)))
    prover.run = _Run(prover.game, 1)  # (its own buffers; the caller's threads are not here)
    parent = os.getppid()
    while True:
        try:
            number, node, g, claim = tasks.get(timeout=1.0)
        except queue.Empty:
            if os.getppid() != parent:
                return
            continue
        try:
            results.put((number, *raise_task(prover, node, g, claim)))
        except Exception as err:  # (sent to the caller, which stops)
            results.put((number, False, f"{type(err).__name__}: {err}"))


#: A task's answer: whether the guess reached its claim, and its cells' bounds and lines by reply.
Raised = tuple[bool, dict[int, tuple[int, ProofNode]]]


def take_cells(node: _Set, g: int, cells: dict[int, tuple[int, ProofNode]]) -> None:
    """Give guess g's cells at the node the bounds and lines a task sent back."""
    assert node.guesses is not None
    for f, (low, proof) in cells.items():
        cell = node.guesses[g][f]
        cell.low, cell.proof = max(cell.low, low), proof


def raise_task(prover: _Guided, node: _Set, g: int, claim: int) -> Raised:
    """A worker's task: guess g at the node raised to ``claim`` by this (serial) prover, the sets
    below proved here."""
    node.guesses = {g: prover.cells(node, g, prover.game.group(list(node.history)))}
    ok = prover.raise_guess(node, g, claim)
    return ok, {f: (cell.low, cell.proof) for f, cell in node.guesses[g].items() if cell.proof is not None}
