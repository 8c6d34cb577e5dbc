"""What a strategy's search cut into pieces shares with whatever runs the pieces (the runner's
executors, a Dask worker): the cores this process may use, and a way to stop, within
milliseconds, every piece this process is solving.

A search registers a stop for each piece while it runs (:func:`running`); the runner calls
:func:`stop_pieces` when a run is interrupted, without knowing which strategy's pieces those are.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable, Iterator

_STOPS: dict[int, Callable[[], None]] = {}
_LOCK = threading.Lock()


def usable_cores() -> int:
    """The cores this process may run on (taskset and cgroups included, where the system says)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


@contextlib.contextmanager
def running(stop: Callable[[], None]) -> Iterator[None]:
    """While the block runs, :func:`stop_pieces` calls ``stop`` (which must return at once)."""
    key = id(stop)
    with _LOCK:
        _STOPS[key] = stop
    try:
        yield
    finally:
        with _LOCK:
            _STOPS.pop(key, None)


def stop_pieces() -> None:
    """Stop every piece this process is solving (each raises in its own thread)."""
    with _LOCK:
        stops = list(_STOPS.values())
    for stop in stops:
        stop()
