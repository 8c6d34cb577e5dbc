"""Compiled work that stops at once on Ctrl-C, here or in a worker process.

The compiled kernels release the GIL and look at a stop flag (``stop[0]``) as they go. Run in a
helper thread, they leave the calling thread free to hear Ctrl-C, set the flag, and go on up
with the interrupt within milliseconds. A worker process (Dask) has one flag for the work it is
doing, set by :func:`stop_here` when a run is interrupted.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import numpy as np

from ...errors import ExecutorError


def interruptible(fn: Callable[..., Any], *args: Any, stop: np.ndarray, compiled: bool = True) -> Any:
    """``fn(*args)`` in a helper thread; the calling thread waits and still hears Ctrl-C.

    On KeyboardInterrupt ``stop[0]`` is set, the kernel returns within milliseconds, and the
    interrupt goes on up. The thread is a daemon, so even a kernel that did not notice could not
    keep the process alive. Work that runs no compiled code (``compiled=False``: Python and
    numpy hear Ctrl-C themselves) is simply called here.
    """
    if not compiled:
        return fn(*args)
    # numba is imported lazily (a command that needs no kernel never loads it); import it here,
    # in the calling thread, so that a Ctrl-C never leaves the interpreter exiting while the
    # helper thread is halfway through importing it (that ends in a segmentation fault).
    from ..._kernels import jit  # noqa: F401

    outcome: dict[str, Any] = {}

    def target() -> None:
        try:
            outcome["value"] = fn(*args)
        except BaseException as err:  # handed to the caller below
            outcome["error"] = err

    worker = threading.Thread(target=target, name="mastermind-kernel", daemon=True)
    worker.start()
    try:
        while worker.is_alive():
            worker.join(0.05)
    except KeyboardInterrupt:
        stop[0] = 1
        worker.join(0.5)
        raise
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def stopped_here() -> np.ndarray:
    """This process's stop flag, cleared: for one task of a worker (see :func:`stop_here`)."""
    _STOP[0] = 0
    return _STOP


def check_not_stopped() -> None:
    """Raise if :func:`stop_here` abandoned the task this process was computing (its result is
    meaningless)."""
    if _STOP[0]:
        raise ExecutorError("stopped: the run was interrupted")


def stop_here() -> None:
    """Abandon, within milliseconds, the unit (or piece of an exact search) this process is
    computing: run on the workers of a cluster when a run is interrupted, so they are free at once."""
    from ...strategies.piece_control import stop_pieces

    _STOP[0] = 1
    stop_pieces()


#: The flag of the task a worker process is computing (the worker runs one task at a time).
_STOP = np.zeros(1, dtype=np.int64)
