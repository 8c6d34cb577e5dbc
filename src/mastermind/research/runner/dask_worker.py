"""Loaded by each worker of a Dask cluster that the runner starts on this machine (a preload).

The workers share the terminal's process group, so Ctrl-C reaches them as well as the command
that started them: they ignore it (no traceback from each) and the command shuts them down.
"""

from __future__ import annotations

import logging
import signal
import threading
from typing import Any


def dask_setup(worker: Any) -> None:
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    # Tasks cancelled by an interrupted run are not news either.
    for name in ("distributed", "tornado", "asyncio"):
        logging.getLogger(name).setLevel(logging.ERROR)
