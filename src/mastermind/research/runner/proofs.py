"""Proofs on a Dask cluster: a guided proof's tasks, and a proof file's check.

- :class:`DaskFarm`: the guesses that a guided proof
  (:func:`~mastermind.strategies.optimal.guided.prove_optimum`) raises one guess above its
  task depth (:data:`~mastermind.strategies.optimal.lower.TASK_DEPTH`), each a task on a
  worker, which proves the sets below it there and sends back their lines and the records for
  the checkpoint, and the exact costs the prover asks of its own sets, a task each
  (``mastermind evaluate -s optimal --proof FILE --executor dask``);
- :func:`check_on`: a proof file's check cut into parts (:class:`~mastermind.verify.parts.Parts`,
  as ``--part`` cuts it), each part a task that checks the file, sent with it, in plain Python on
  one worker. The claim holds once every part has passed, as it does when the parts are checked
  on machines apart (``mastermind verify FILE --executor dask``).
"""

from __future__ import annotations

import dataclasses
import tempfile
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...core.rules import Rules
from ...errors import ProofError, StrategyError
from ...verify.check import Checked, ProofHead, check_file
from ...verify.parts import Parts
from .executors import DaskExecutor

if TYPE_CHECKING:
    from ...strategies.optimal.guided import _Guided
    from ...strategies.optimal.lower import LowerBound, _Set
    from ...strategies.optimal.proof_workers import Raised

#: Parts per worker thread that a whole check is cut into: parts end at different times, and each
#: checks again the nodes that every part checks (the top of the proof), so a few each.
PARTS_PER_WORKER = 2


def whole_check(executor: DaskExecutor) -> Parts:
    """Every part of a check cut for the cluster's workers (reached, or started, now)."""
    count = PARTS_PER_WORKER * executor.width
    return Parts(1, count, count)


def check_on(
    executor: DaskExecutor,
    head: ProofHead,
    parts: Parts,
    progress: Callable[[int], None] | None = None,
    passed: Callable[[int, int], None] | None = None,
) -> Checked:
    """Check these ``parts`` of the proof file read through as ``head``
    (:func:`~mastermind.verify.check.scan`: a damaged file is refused before any task starts), a
    task each on the cluster's workers, each sent the file's bytes; ``passed(part, nodes)`` here
    as each passes, in any order (its number, and the nodes it checked beside those all parts
    check), and ``progress(n)`` as n more of the nodes to check are.

    Raises:
        ProofError: a claim does not hold (the message says which line, as the check in one
            process says it), or the file changed since it was read through.
    """
    shared = head.cut(parts.count).shared
    data = executor.client.scatter(Path(head.path).read_bytes(), broadcast=True)
    found: list[Checked] = []

    def each(args: tuple, checked: Checked) -> None:
        found.append(checked)
        if progress is not None:
            progress(checked.nodes - (shared if len(found) > 1 else 0))
        if passed is not None:
            passed(args[2], checked.nodes - shared)

    tasks = ((data, str(head.path), part, parts.count) for part in parts.numbers)
    executor.map(_check_part, tasks, each)
    scored = sum(checked.secrets_scored for checked in found)
    return dataclasses.replace(found[0], nodes=head.nodes_checked(parts), secrets_scored=scored, parts=parts)


def _check_part(data: bytes, name: str, part: int, count: int) -> Checked:
    """On a worker: part ``part`` of ``count`` of the check of the proof file ``data`` (named
    ``name`` where it was read), in plain Python, in this process."""
    with tempfile.TemporaryDirectory(prefix="mastermind-check-") as folder:
        path = Path(folder) / Path(name).name
        path.write_bytes(data)
        try:
            return check_file(path, parts=Parts(part, part, count))
        except ProofError as err:  # (said of the file as it was given, not of this copy)
            raise ProofError(str(err).replace(str(path), name)) from None


class DaskFarm:
    """A guided proof's guesses one guess above its task depth, each raised by a task on the
    cluster (with the methods of the forked workers the prover has otherwise): the task is sent
    the set (its secrets, history and symmetries), the guess, the claim and the checkpoint's
    records of the sets below it, and sends back its cells' bounds and lines and its new records,
    which are written to the checkpoint here as each task ends (a task stopped midway keeps
    none of its own)."""

    def __init__(self, prover: _Guided, executor: DaskExecutor) -> None:
        self.prover, self.client, self.width = prover, executor.client, executor.width
        self.tasks: dict[tuple[int, int], Any] = {}  # by the set's id and the guess: its future
        self.done: dict[str, Raised] = {}  # by a future's key: its answer, once it has come back

    @property
    def running(self) -> int:
        """Tasks sent whose answer has not come back."""
        return sum(f.key not in self.done for f in self.tasks.values())

    def submit(self, node: _Set, g: int, claim: int) -> None:
        from ...strategies.optimal.proof_book import records_below

        book, prover = self.prover.book, self.prover
        records = None if book is None else records_below(book, (*node.history, g))
        args = (prover.rules, prover.version, prover.limit, _sent(node), g, claim, records)
        self.tasks[id(node), g] = self.client.submit(_raise_on_worker, *args, pure=False)

    def ready(self, node: _Set, guesses: list[int]) -> bool:
        return all(self.tasks[id(node), g].key in self.done for g in guesses)

    def receive(self) -> None:
        """Wait a little for an answer, and keep it (its records written to the checkpoint).

        Raises:
            KeyboardInterrupt: the prover was stopped meanwhile.
            StrategyError: a task failed (its worker's error in words).
        """
        from dask.distributed import wait

        if self.prover.run.stopped or self.prover._stopped():
            raise KeyboardInterrupt
        waiting = [f for f in self.tasks.values() if f.key not in self.done]
        try:
            finished = wait(waiting, timeout=0.2, return_when=FIRST_COMPLETED).done if waiting else set()
        except TimeoutError:  # (none ended within the wait)
            return
        for future in finished:
            if future.status == "error":
                err = future.exception()
                raise StrategyError(f"a task proving the bound failed: {type(err).__name__}: {err}")
            ok, cells, records = future.result()
            book = self.prover.book
            if book is not None:  # (records are made only with a book)
                for record in records:
                    book.write(record)
            self.done[future.key] = (ok, cells)
        self.prover._heartbeat()

    def finish(self, node: _Set, g: int) -> bool:
        """As :meth:`~mastermind.strategies.optimal.proof_workers._Workers.finish`."""
        from ...strategies.optimal.proof_workers import take_cells

        key = self.tasks[id(node), g].key
        while key not in self.done:
            self.receive()
        del self.tasks[id(node), g]
        ok, cells = self.done.pop(key)
        take_cells(node, g, cells)
        return ok

    def costs(self, asked: list[tuple[int, _Set, int]], keep: Callable[[int, int], int]) -> bool:
        """The exact costs the prover asks of its own sets (at the root of a large game, searches
        of minutes), a task each, ``keep(i, cost)`` here as each comes back.

        Raises:
            KeyboardInterrupt: the prover was stopped meanwhile (the searches are cancelled).
        """
        from dask.distributed import wait

        prover = self.prover
        game = (prover.rules, prover.version, prover.limit)
        futures = {}
        for i, cell, budget in asked:
            futures[self.client.submit(_cost_on_worker, *game, _sent(cell), budget, pure=False)] = i
        try:
            while futures:
                if prover.run.stopped or prover._stopped():
                    raise KeyboardInterrupt
                try:
                    finished = wait(list(futures), timeout=0.2, return_when=FIRST_COMPLETED).done
                except TimeoutError:  # (none ended within the wait)
                    finished = set()
                for future in finished:
                    keep(futures.pop(future), int(future.result()))
                prover._heartbeat()
        except BaseException:
            self.client.cancel(list(futures))
            raise
        return True

    def close(self) -> None:
        """Cancel the tasks still running (what they proved is lost; what ended is written)."""
        pending = [f for f in self.tasks.values() if f.key not in self.done]
        if pending:
            self.client.cancel(pending)
        self.tasks.clear()


def _sent(node: _Set) -> _Set:
    """The set as a task carries it: its secrets, history, symmetries and bound, not what is
    proved below it."""
    from ...strategies.optimal.lower import _Set

    return _Set(node.S, node.history, node.group, node.used, node.low)


#: A worker's prover, by game, version and guess limit, made for its first task and kept for the
#: next ones.
_PROVERS: dict[tuple[Rules, int, int | None], _Guided] = {}


def _prover(rules: Rules, version: int, limit: int | None) -> _Guided:
    """This worker's prover of the game, in that version of the proof format, within that guess
    limit (None: whatever the limit)."""
    from ...strategies.optimal.guided import _Guided
    from ...verify.proof import COMPACT

    key = (rules, version, limit)
    prover = _PROVERS.get(key)
    if prover is None:
        prover = _PROVERS[key] = _Guided(rules, None, 1, None, version == COMPACT, within=limit)
    return prover


def _cost_on_worker(rules: Rules, version: int, limit: int | None, cell: _Set, budget: int) -> int:
    """On a worker: the cell's exact cost, or the budget where it costs that much or more."""
    prover = _prover(rules, version, limit)
    sym = prover.game.group(list(cell.history))
    cost, _ = prover.run.kernel_call(prover.run.root, cell.S, prover.left(cell), budget, sym)
    return min(cost, budget)


def _raise_on_worker(
    rules: Rules, version: int, limit: int | None, node: _Set, g: int, claim: int, records: tuple | None
) -> tuple[bool, dict, list[dict]]:
    """On a worker: guess g at the node raised to ``claim``; its answer, and the records made."""
    from ...strategies.optimal.proof_book import _Outbox
    from ...strategies.optimal.proof_workers import raise_task
    from ...verify.proof import COMPACT

    prover = _prover(rules, version, limit)
    made: list[dict] = []
    prover.book = None if records is None else _Outbox(rules, version == COMPACT, "", records, made.append)
    ok, cells = raise_task(prover, node, g, claim)
    return ok, cells, made


def prove_optimum_on(
    executor: DaskExecutor, rules: Rules, optimum: int | None = None, **options: Any
) -> LowerBound:
    """:func:`~mastermind.strategies.optimal.guided.prove_optimum` with its tasks on the cluster
    (:class:`DaskFarm`); ``options`` as it takes them (``checkpoint``, ``compact``, ``progress``,
    ``seconds``, ``stop``, ``within``), not ``workers``: the cluster's are."""
    from ...strategies.optimal.guided import prove_optimum

    return prove_optimum(rules, optimum, farm=lambda prover: DaskFarm(prover, executor), **options)
