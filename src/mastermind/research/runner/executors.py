"""Where units of work run: :class:`LocalExecutor` in this process (compiled kernels on all
cores, in a helper thread so that Ctrl-C is honoured at once), :class:`DaskExecutor` on a Dask
cluster (a LocalCluster by default, or an existing one by its scheduler address; the package must
be installed on the scheduler and every worker).

An executor does three things for a run: choose the guesses of the nodes above the units (a
level of the tree at a time), solve units, and map any picklable task over its workers (the
pieces of an exact search). Each finished piece of work is handed back to this thread as it
finishes, in any order; results never depend on that order.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from typing import Any

import numpy as np

from ...errors import ExecutorError
from ...strategies import Strategy
from ...strategies.base import Position
from ...strategies.capabilities import kernels_of, prepare_pieces
from ...strategies.piece_control import usable_cores
from .. import EXECUTORS
from .interrupt import interruptible, stop_here
from .plan import Plan, Unit, distributions, guess_at, guesses_here, prepare_worker, solve_units

#: How to install what the Dask executor needs.

#: Hands finished units (with their distributions) back to the run, in this thread.
Record = Callable[[list[tuple[Unit, dict[int, int]]]], None]
#: Told how many more guesses were chosen.
Tick = Callable[[int], None]


class Executor(ABC):
    """Runs units and hands each finished one (in any order) to ``record``; chooses the guesses
    of the nodes above the units; maps tasks over its workers."""

    name: str = ""

    @abstractmethod
    def solve(self, strategy: Strategy, plan: Plan, units: Sequence[Unit], record: Record) -> None:
        """Solve ``units`` of ``plan``, handing each finished one to ``record``."""

    def guesses(self, strategy: Strategy, positions: list[Position], tick: Tick | None = None) -> list[int]:
        """The strategy's guess at each position; ``tick(n)`` as n more are chosen."""
        guesses = guesses_here(strategy, positions)
        if tick:
            tick(len(positions))
        return guesses

    def prepare(self, strategy: Strategy) -> None:
        """Load what the strategy needs wherever units will run (timed runs time only the run)."""
        prepare_pieces(strategy)

    def map(
        self,
        fn: Callable[..., Any],
        tasks: Iterable[tuple[Any, ...] | None],
        each: Callable[[tuple[Any, ...], Any], None],
    ) -> None:
        """``fn(*args)`` for each ``args`` of ``tasks``, and ``each(args, result)`` in this thread as
        each finishes, in any order (a :data:`~mastermind.strategies.base.MapTasks`). ``tasks`` is
        read lazily, as room frees, so a task made later can use what the earlier ones found; a
        None from it means none is ready until one of those running finishes. By
        default on threads of this process, one per core (``fn`` must release the GIL); on Ctrl-C
        (or an error) the tasks running are stopped (:func:`.stop_here`) and the exception goes on up."""
        width = self.width
        feed = iter(tasks)
        running: dict[Future[Any], tuple[Any, ...]] = {}
        with ThreadPoolExecutor(max_workers=width) as pool:

            def top_up() -> None:
                while len(running) < width and (args := next(feed, None)) is not None:
                    running[pool.submit(fn, *args)] = args

            try:
                top_up()
                while running:
                    done, _ = wait(running, timeout=0.05, return_when=FIRST_COMPLETED)
                    for future in done:
                        each(running.pop(future), future.result())
                    top_up()
            except BaseException:
                for future in running:
                    future.cancel()
                while not all(f.done() for f in running):  # one may have started just now
                    stop_here()
                    wait(running, timeout=0.05)
                raise

    @property
    def starts_workers(self) -> bool:
        """Whether the executor starts worker processes of its own on this machine (a cluster)."""
        return False

    @property
    def width(self) -> int:
        """How many tasks of :meth:`map` run at once."""
        return usable_cores()

    def close(self) -> None:  # noqa: B027 - most executors hold nothing
        """Release what the executor holds (a cluster)."""

    def abandon(self) -> None:
        """For a process about to exit on Ctrl-C: let go at once, without an orderly shutdown."""
        self.close()

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class LocalExecutor(Executor):
    """Units in this process: batches of subtrees in compiled code on all cores.

    Args:
        batch: secrets per batch (a checkpoint is written after each); default 1/50 of the game.
    """

    name = "local"

    def __init__(self, batch: int | None = None) -> None:
        self.batch = batch

    def solve(self, strategy: Strategy, plan: Plan, units: Sequence[Unit], record: Record) -> None:
        batch = self.batch or max(plan.unit_size, plan.size // 50)
        ordered = sorted(units, key=lambda u: (-u.size, u.history))
        i = 0
        while i < len(ordered):
            j, size = i, 0
            while j < len(ordered) and (size < batch or j == i):
                size += ordered[j].size
                j += 1
            chunk = ordered[i:j]
            secrets = [plan.secrets_of(strategy, u) for u in chunk]
            stop = np.zeros(1, dtype=np.int64)
            rows = interruptible(
                distributions,
                strategy,
                chunk,
                secrets,
                stop,
                stop=stop,
                compiled=kernels_of(strategy) is not None,
            )
            if stop[0]:
                raise KeyboardInterrupt
            record(list(zip(chunk, rows, strict=True)))
            i = j


#: The most seconds an interrupted or failed Dask map waits for its tasks to be cancelled.
CANCEL_WAIT = 5.0


class DaskExecutor(Executor):
    """Units as tasks on a Dask cluster: a LocalCluster of ``workers`` processes (one thread
    each) when no ``address`` is given, else the existing cluster whose scheduler is there.

    Each task carries only a unit's description; a worker builds the strategy and the unit's
    secrets itself. Dask reruns the tasks of a worker that dies. On KeyboardInterrupt the tasks
    are cancelled and a cluster started here is shut down.
    """

    name = "dask"

    def __init__(self, address: str | None = None, workers: int | None = None) -> None:
        if address is not None and workers is not None:
            raise ExecutorError("a cluster given by its address has its own workers: give one or the other")
        if workers is not None and workers < 1:
            raise ExecutorError("a Dask cluster needs at least one worker")
        self.address = address
        self.workers = workers
        self._client: Any = None
        self._cluster: Any = None
        self._pids: list[int] = []

    @staticmethod
    def require() -> None:
        """Raise ExecutorError, saying how to install it, if dask.distributed is missing."""
        try:
            import dask.distributed  # noqa: F401
        except ImportError as err:
            from ...runtime.install import install_command

            raise ExecutorError(
                f"the Dask executor needs dask.distributed: {install_command('distributed')}"
            ) from err

    @property
    def starts_workers(self) -> bool:
        """A LocalCluster of its own when no address is given."""
        return self.address is None

    @property
    def client(self) -> Any:
        """The Dask client, connected (a LocalCluster is started on first use)."""
        if self._client is not None:
            return self._client
        self.require()
        import logging

        from dask.distributed import Client, LocalCluster

        # Shutting a cluster down on Ctrl-C makes Dask log about closed streams: not news.
        for name in ("distributed", "tornado", "asyncio"):
            logging.getLogger(name).setLevel(logging.CRITICAL)
        try:
            if self.address is None:
                # Workers started while SIGINT is ignored ignore it from their first instant; those
                # started later (after a worker is lost) ignore it once the preload has run.
                main = threading.current_thread() is threading.main_thread()
                handler = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
                try:
                    self._cluster = LocalCluster(
                        n_workers=self.workers or os.cpu_count() or 1,
                        threads_per_worker=1,
                        processes=True,
                        dashboard_address=":0",
                        preload=["mastermind.research.runner.dask_worker"],
                    )
                finally:
                    if main:
                        signal.signal(signal.SIGINT, handler)
                # The scheduler runs in this process and times its garbage collections from a gc
                # callback, where a Ctrl-C that arrives is printed and lost ("Exception ignored in
                # gc callback"): the command would go on. Those timings are not needed here.
                from distributed.gc import disable_gc_diagnosis

                disable_gc_diagnosis(force=True)
                self._client = Client(self._cluster)
                self._pids = sorted(self._client.run(os.getpid).values())
            else:
                self._client = Client(self.address, timeout=10)
        except (OSError, TimeoutError) as err:
            self.close()
            where = f"the Dask scheduler at {self.address}" if self.address else "a local Dask cluster"
            raise ExecutorError(f"cannot reach {where}: {err}") from err
        return self._client

    def __enter__(self) -> DaskExecutor:
        self.client  # noqa: B018 - connect (or start the local cluster) now
        return self

    def prepare(self, strategy: Strategy) -> None:
        prepare_pieces(strategy)
        self.client.run(prepare_worker, strategy.spec())

    @property
    def width(self) -> int:
        return max(1, sum(self.client.nthreads().values()))

    def map(
        self,
        fn: Callable[..., Any],
        tasks: Iterable[tuple[Any, ...] | None],
        each: Callable[[tuple[Any, ...], Any], None],
    ) -> None:
        from dask.distributed import as_completed

        # Twice as many as the workers' threads: each has the next task at hand when one ends,
        # instead of waiting for a round trip to this process (tens of milliseconds, loaded).
        width = 2 * self.width
        feed = iter(tasks)
        running: dict[str, tuple[Any, tuple[Any, ...]]] = {}

        def submit() -> Any:
            args = next(feed, None)
            if args is None:
                return None
            future = self.client.submit(fn, *args, pure=False)
            running[future.key] = (future, args)
            return future

        def top_up() -> list[Any]:  # a task may be None now and come after another finishes
            added = []
            while len(running) < width and (future := submit()) is not None:
                added.append(future)
            return added

        queue = as_completed(top_up(), with_results=True)
        try:
            for future, result in queue:
                each(running.pop(future.key)[1], result)
                for follow in top_up():
                    queue.add(follow)
        except BaseException:
            self._cancel([f for f, _ in running.values()])
            raise

    def _cancel(self, futures: list[Any]) -> None:
        """Cancel ``futures`` and stop the tasks already running, on the way out of a failed or
        interrupted map: round trips to the cluster, waited for at most :data:`CANCEL_WAIT`
        seconds (a worker that does not answer must not keep Ctrl-C from ending the command;
        the caller then abandons or closes the cluster)."""
        client = self.client

        def cancel() -> None:
            with contextlib.suppress(Exception):  # a cluster going away is no news on the way out
                client.cancel(futures)
                client.run(stop_here)  # the tasks already running, too

        done = threading.Thread(target=cancel, name="mastermind-cancel", daemon=True)
        done.start()
        done.join(CANCEL_WAIT)

    def _gather(self, futures: list[Any], each: Callable[[int, Any], None]) -> None:
        """``each(i, result)`` for the i-th future as it finishes; cancel all on any exception."""
        from dask.distributed import as_completed

        index = {f.key: i for i, f in enumerate(futures)}
        try:
            for future, result in as_completed(futures, with_results=True):
                each(index[future.key], result)
        except BaseException:
            self._cancel(futures)
            raise

    def guesses(self, strategy: Strategy, positions: list[Position], tick: Tick | None = None) -> list[int]:
        spec = strategy.spec()
        futures = [self.client.submit(guess_at, spec, p.history, pure=False) for p in positions]
        guesses = [0] * len(positions)

        def each(i: int, guess: Any) -> None:
            guesses[i] = int(guess)
            if tick:
                tick(1)

        self._gather(futures, each)
        return guesses

    def solve(self, strategy: Strategy, plan: Plan, units: Sequence[Unit], record: Record) -> None:
        # Small subtrees go several to a task, so that no task is mostly overhead.
        ordered = sorted(units, key=lambda u: (-u.size, u.history))
        tasks: list[list[Unit]] = []
        size = plan.unit_size
        for unit in ordered:
            if size >= plan.unit_size // 2 or len(tasks[-1]) >= 64:
                tasks.append([])
                size = 0
            tasks[-1].append(unit)
            size += unit.size
        futures = [
            self.client.submit(solve_units, task, pure=False, priority=len(tasks) - i)
            for i, task in enumerate(tasks)
        ]
        self._gather(futures, lambda i, dists: record(list(zip(tasks[i], dists, strict=True))))

    def abandon(self) -> None:
        """For a process about to exit on Ctrl-C, without the orderly shutdown (a second or more
        on a busy machine): the workers of a cluster started here are killed at once (SIGKILL;
        one started again after a loss is not known here, and ends with this process); the
        connection to a cluster given by its address is closed, and that cluster runs on."""
        if self._cluster is not None:
            self._kill_local_workers()
        elif self._client is not None:
            with contextlib.suppress(Exception):  # closing on the way out: nothing to report
                self._client.close(timeout=1)
        self._client = self._cluster = None

    def _kill_local_workers(self) -> None:
        import psutil  # a dependency of distributed

        for pid in self._pids:
            with contextlib.suppress(OSError, psutil.Error):
                if psutil.Process(pid).ppid() == os.getpid():  # still our worker, not a reused pid
                    os.kill(pid, signal.SIGKILL)
        self._pids = []

    def close(self) -> None:
        client, cluster = self._client, self._cluster
        self._client = self._cluster = None
        # A slow shutdown (a loaded machine) is not an error: the workers of a local cluster
        # also end when this process does.
        if client is not None:
            with contextlib.suppress(Exception):
                client.close(timeout=5)
        if cluster is not None:
            with contextlib.suppress(Exception):
                cluster.close(timeout=10)


def make_executor(name: str, address: str | None = None, workers: int | None = None) -> Executor:
    """An executor by name: ``"local"`` or ``"dask"``."""
    if name == "local":
        if address is not None or workers is not None:
            raise ExecutorError("a scheduler address and a number of workers are for the Dask executor")
        return LocalExecutor()
    if name == "dask":
        DaskExecutor.require()
        return DaskExecutor(address, workers)
    raise ExecutorError(f"unknown executor {name!r}; choose {' or '.join(EXECUTORS)}")
