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

import contextlib
import dataclasses
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
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

#: Seconds a stopped build waits for its tasks' last records (each stops at its next step, within
#: a second or so: what it proved is written to the checkpoint).
STOP_WAIT = 10.0


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
    which are written to the checkpoint here as each task ends. A stop of the build (Ctrl-C, its
    time, its ``stop``) stops the tasks running on the workers too, and writes what each had
    proved: :meth:`close`."""

    def __init__(self, prover: _Guided, executor: DaskExecutor) -> None:
        self.prover, self.client, self.width = prover, executor.client, executor.width
        self.build = uuid.uuid4().hex  # (what the workers know this build's tasks by, to stop them)
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
        args = (self.build, prover.rules, prover.version, prover.limit, _sent(node), g, claim, records)
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
        game = (self.build, prover.rules, prover.version, prover.limit)
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
            self._stop()
            self.client.cancel(list(futures))
            raise
        return True

    def close(self) -> None:
        """Stop the tasks still running, and write the records each sends back with its stop
        (:data:`STOP_WAIT` seconds at most: a worker that does not answer by then loses what its
        task proved, and the task is cancelled)."""
        from dask.distributed import wait

        pending = [f for f in self.tasks.values() if f.key not in self.done]
        self.tasks.clear()
        if not pending:
            return
        self._stop()
        book, ends = self.prover.book, time.monotonic() + STOP_WAIT
        while pending and time.monotonic() < ends:
            try:
                finished = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED).done
            except TimeoutError:  # (none ended within the wait)
                continue
            for future in finished:
                pending.remove(future)
                if future.status == "finished" and book is not None:
                    for record in future.result()[2]:
                        book.write(record)
        if pending:
            self.client.cancel(pending)

    def _stop(self) -> None:
        """Stop this build's tasks on every worker (:func:`_stop_build`)."""
        with contextlib.suppress(Exception):  # a cluster going away is no news on the way out
            self.client.run(_stop_build, self.build)


def _sent(node: _Set) -> _Set:
    """The set as a task carries it: its secrets, history, symmetries and bound, not what is
    proved below it."""
    from ...strategies.optimal.lower import _Set

    return _Set(node.S, node.history, node.group, node.used, node.low)


class _Provers(threading.local):
    """A worker thread's provers, by game, version and guess limit, each made for the thread's
    first task and kept for the next ones (a worker may run tasks side by side, in threads: each
    sets its own book on its prover)."""

    def __init__(self) -> None:
        self.by_game: dict[tuple[Rules, int, int | None], _Guided] = {}


_PROVERS = _Provers()

#: The tasks running in this worker process, by build (:attr:`DaskFarm.build`): their provers.
_RUNNING: dict[str, set[_Guided]] = {}

#: The builds stopped (:func:`_stop_build`): a task of one that starts after the stop ends at once.
_STOPPED: set[str] = set()

_LOCK = threading.Lock()


class _BuildStopped(Exception):
    """A task of a build that was stopped (:func:`_stop_build`): what it found is no answer."""


def _prover(rules: Rules, version: int, limit: int | None) -> _Guided:
    """This thread's prover of the game, in that version of the proof format, within that guess
    limit (None: whatever the limit); a new one where the last was stopped."""
    from ...strategies.optimal.guided import _Guided
    from ...verify.proof import COMPACT

    key = (rules, version, limit)
    prover = _PROVERS.by_game.get(key)
    if prover is None or prover._stopped():
        prover = _PROVERS.by_game[key] = _Guided(rules, None, 1, None, version == COMPACT, within=limit)
    return prover


@contextlib.contextmanager
def _running(build: str, prover: _Guided) -> Iterator[None]:
    """The prover is at a task of ``build`` meanwhile (so that a stop of the build reaches it);
    :class:`_BuildStopped` at once where the build was stopped already."""
    with _LOCK:
        if build in _STOPPED:
            raise _BuildStopped(build)
        _RUNNING.setdefault(build, set()).add(prover)
    try:
        yield
    finally:
        with _LOCK:
            _RUNNING[build].discard(prover)


def _stop_build(build: str) -> int:
    """Run on each worker when a build stops: its tasks running here stop at their next step
    (each then answers with what it proved), and those that start later end at once. The
    number stopped here."""
    with _LOCK:
        _STOPPED.add(build)
        provers = list(_RUNNING.get(build, ()))
    for prover in provers:
        prover.stop.set()
        prover.run.interrupt()
    return len(provers)


def _cost_on_worker(
    build: str, rules: Rules, version: int, limit: int | None, cell: _Set, budget: int
) -> int:
    """On a worker: the cell's exact cost, or the budget where it costs that much or more."""
    prover = _prover(rules, version, limit)
    sym = prover.game.group(list(cell.history))
    with _running(build, prover):
        cost, _ = prover.run.kernel_call(prover.run.root, cell.S, prover.left(cell), budget, sym)
    if prover.run.stopped:  # (a search stopped midway proves nothing)
        raise _BuildStopped(build)
    return min(cost, budget)


def _raise_on_worker(
    build: str,
    rules: Rules,
    version: int,
    limit: int | None,
    node: _Set,
    g: int,
    claim: int,
    records: tuple | None,
) -> tuple[bool | None, dict, list[dict]]:
    """On a worker: guess g at the node raised to ``claim``; its answer, and the records made
    (the answer None where the build was stopped meanwhile: the records made before the stop)."""
    from ...strategies.optimal.proof_book import _Outbox
    from ...strategies.optimal.proof_workers import raise_task
    from ...verify.proof import COMPACT

    prover = _prover(rules, version, limit)
    made: list[dict] = []
    prover.book = None if records is None else _Outbox(rules, version == COMPACT, "", records, made.append)
    try:
        with _running(build, prover):
            ok, cells = raise_task(prover, node, g, claim)
    except (KeyboardInterrupt, _BuildStopped):  # (a stopped prover raises KeyboardInterrupt)
        return None, {}, made
    return ok, cells, made


def prove_optimum_on(
    executor: DaskExecutor, rules: Rules, optimum: int | None = None, **options: Any
) -> LowerBound:
    """:func:`~mastermind.strategies.optimal.guided.prove_optimum` with its tasks on the cluster
    (:class:`DaskFarm`); ``options`` as it takes them (``checkpoint``, ``compact``, ``progress``,
    ``seconds``, ``stop``, ``within``), not ``workers``: the cluster's are."""
    from ...strategies.optimal.guided import prove_optimum

    return prove_optimum(rules, optimum, farm=lambda prover: DaskFarm(prover, executor), **options)
