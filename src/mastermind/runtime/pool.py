"""The package's worker processes: forked from the calling process (they inherit its state, read
only), stopped at once by Ctrl-C or a fault, and a worker that dies reported, not waited for."""

from __future__ import annotations

import gc
import multiprocessing
import os
import queue
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from multiprocessing.connection import Connection
from types import TracebackType
from typing import Any

from ..errors import ExecutorError


def can_fork() -> bool:
    """Whether this system can fork worker processes (not Windows): where it cannot, the callers
    do the work on this process."""
    return "fork" in multiprocessing.get_all_start_methods()


class Pool:
    """``count`` worker processes forked from this one, each running ``work(tasks, results, *args,
    *each(i))`` (i: its number from 0; ``each`` is called as the worker starts; without ``queues``,
    ``work(*args, *each(i))``, for workers that talk through pipes of their own: a pipe's end given
    to a worker is closed here once it has started, so that the worker's death closes the pipe)
    until it returns or is ended.

    A worker inherits what this process holds when the pool starts (read only: its writes are its
    own), without pickling it; Ctrl-C is this process's to hear (a worker ignores it; leaving the
    pool, by an exception or not, ends every worker at once); what a worker prints goes to its own
    streams, not through whatever this process had them pass through (a progress bar's, whose lock
    may have been held at the fork). :meth:`get` reports a worker that died (killed, out of
    memory) as :class:`ExecutorError` with the message ``died``, rather than waiting for it.

    Use it as a context manager, or :meth:`close` it.
    """

    def __init__(
        self,
        work: Callable[..., None],
        count: int,
        *,
        args: tuple[Any, ...] = (),
        each: Callable[[int], tuple[Any, ...]] | None = None,
        queues: bool = True,
        died: str = "a worker process died (killed, or out of memory?)",
    ) -> None:
        self.context = multiprocessing.get_context("fork")
        self.died = died
        # (a put never waits for a reader; what is left in them at the end is for no one: never
        # wait for it to be sent, as a second Ctrl-C may cut the end short)
        self.tasks: multiprocessing.Queue[Any] = self.context.Queue()
        self.results: multiprocessing.Queue[Any] = self.context.Queue()
        for channel in (self.tasks, self.results):
            channel.cancel_join_thread()
        self.processes: list[multiprocessing.process.BaseProcess] = []
        lead = (self.tasks, self.results) if queues else ()
        gc.freeze()  # (the caller's objects out of the collector's sight: not copied into each worker)
        try:
            for i in range(count):
                extra = each(i) if each is not None else ()
                process = self.context.Process(target=_run, args=(work, (*lead, *args, *extra)), daemon=True)
                process.start()
                self.processes.append(process)
                for arg in extra:  # (its own ends of its pipes: closed here, so that its death closes them)
                    if isinstance(arg, Connection):
                        arg.close()
        except BaseException:
            self.close()
            raise
        finally:
            gc.unfreeze()

    def put(self, task: Any) -> None:
        """Send a task to whichever worker takes it first."""
        self.tasks.put(task)

    def get(self, timeout: float) -> Any:
        """The next result a worker sent, waiting up to ``timeout`` seconds.

        Raises:
            queue.Empty: none came meanwhile, and every worker is alive.
            ExecutorError: none came, and a worker has died.
        """
        try:
            return self.results.get(timeout=timeout)
        except queue.Empty:
            if self.dead():
                raise ExecutorError(self.died) from None
            raise

    def dead(self) -> bool:
        """Whether a worker has ended (killed, out of memory, or its work returned)."""
        return any(process.exitcode is not None for process in self.processes)

    def close(self) -> None:
        """End every worker (idle or not: they hold nothing of the caller's) and wait for them."""
        with uninterrupted():  # (a second Ctrl-C would leave the processes behind)
            for process in self.processes:
                process.terminate()
            for process in self.processes:
                process.join()
            for channel in (self.tasks, self.results):
                channel.close()

    def __enter__(self) -> Pool:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, err: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


def _run(work: Callable[..., None], args: tuple[Any, ...]) -> None:
    """A worker: Ctrl-C left to the calling process, its own streams, then its work."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
    work(*args)


def memory_share(jobs: int = 1) -> int:
    """What each of ``jobs`` processes may keep of a cache by default: an eighth of the memory this
    process may use (the machine's, or a container's limit where it is lower: the limit of its own
    control group, not of those above it), shared among them, from 128 MB to 2 GB each; it assumes
    one such run at a time on the machine. Found when asked (the limits may differ where the
    package is imported and where it runs)."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):  # not a POSIX system, or it does not say
        return 128 << 20
    for limit in ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"):
        try:
            with open(limit, encoding="ascii") as f:
                total = min(total, int(f.read()))
        except (OSError, ValueError):  # none, or "max": no limit of that kind
            continue
    return min(2 << 30, max(128 << 20, total // 8 // jobs))


@contextmanager
def uninterrupted() -> Iterator[None]:
    """Ctrl-C ignored for a moment (in the main thread, where Python handles it)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)
