"""Which families of kernels are compiled already, and compiling them in another process.

numba compiles a kernel the first time it runs and keeps it in its on-disk cache; a later process
loads it in a fraction of a second. A front end that must never make a person wait for the
compiler (a hint or a review's move, in the terminal, the board or the web page) asks
:func:`ready` first. Where the family is not ready it answers without it (a heuristic's value,
said to be one) and calls :func:`compile_in_background`: a detached
``python -m mastermind.cli compile --only FAMILY --quiet`` fills numba's cache and leaves a stamp
here, so that a later hint, even in the same process, runs the compiled kernels.

The stamp is a file of the cache directory whose name holds what numba's cache depends on: the
versions of Python and numba, the kernels' source files (their sizes and times) and
``NUMBA_CACHE_DIR``; an upgrade or an edited kernel names another stamp. Nothing here imports
numba. ``mastermind compile`` (the command) compiles every family at once and leaves their stamps.
"""

from __future__ import annotations

import contextlib
import os
import sys
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

#: The families of kernels, each compiled by one workload of ``mastermind compile``: the partition
#: strategies, the exact (optimal) search, the counter's skip-ahead search, the worst-case search.
FAMILIES = ("partition", "exact", "counter", "worst")

#: Set by the front ends that must not wait (:func:`never_wait`); the library's default is to
#: compile in-process when a kernel is first run.
_never_wait = False


def never_wait(on: bool = True) -> None:
    """For the rest of the process, code that can answer without a family of kernels (a hint's
    exact value) does so while the family is not :func:`ready`, and has it compiled in the
    background. The command line, the board and the web server set it."""
    global _never_wait
    _never_wait = on


def waits(family: str) -> bool:
    """Whether running ``family`` now would wait for the compiler where the process must not."""
    return _never_wait and not ready(family)


@cache
def _key() -> str:
    # imported here: every command imports this module (for never_wait), few ask for a stamp
    import hashlib
    from importlib.metadata import PackageNotFoundError, version
    from pathlib import Path

    try:
        numba = version("numba")
    except PackageNotFoundError:  # pragma: no cover - numba is a dependency
        numba = "none"
    here = Path(__file__).parent
    parts = [sys.version, numba, os.environ.get("NUMBA_CACHE_DIR", "")]
    for source in sorted(here.glob("*.py")):
        stat = source.stat()
        parts.append(f"{source.name}:{stat.st_size}:{stat.st_mtime_ns}")
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16]


def stamp(family: str) -> Path:
    """The file that says ``family`` is in numba's cache for these sources and versions."""
    from ..core.records import cache_home

    return cache_home() / "compiled" / f"{family}-{_key()}"


def ready(family: str) -> bool:
    """Whether ``family`` was compiled (by ``mastermind compile`` or in the background) for these
    sources and versions: running it loads it from numba's cache."""
    return stamp(family).exists()


def mark_ready(family: str) -> None:
    """Leave the stamp of ``family``, once it is compiled (and so in numba's cache)."""
    path = stamp(family)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.touch()


def compile_in_background(family: str) -> None:
    """Start compiling ``family`` in a detached process (of low priority: ``--quiet``), unless one already is
    (its lock file names a live process). The process outlives this one: a command that ends
    first still leaves the kernels compiled for the next."""
    lock = stamp(family).with_suffix(".compiling")
    with contextlib.suppress(OSError, ValueError):
        os.kill(int(lock.read_text()), 0)
        return  # one is compiling it now
    lock.parent.mkdir(parents=True, exist_ok=True)
    import subprocess

    proc = subprocess.Popen(
        [sys.executable, "-m", "mastermind.cli", "compile", "--only", family, "--quiet"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # not stopped by the Ctrl-C that ends this process
    )
    lock.write_text(str(proc.pid))
