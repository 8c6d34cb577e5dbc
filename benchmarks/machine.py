"""The machine a benchmark ran on, for the figures written to docs/, and the processes it times."""

from __future__ import annotations

import os
import platform
import resource
import subprocess
import sys
import time


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def machine_line() -> str:
    """The processor, its cores, the Python and the load now: the first line of a benchmark."""
    return (f"{cpu_model()}, {os.cpu_count()} cores, Python {platform.python_version()}; "
            f"load {os.getloadavg()[0]:.2f}")  # fmt: skip


def mastermind() -> str:
    """The command line of the package this Python runs (the script beside it), else the one on PATH."""
    beside = os.path.join(os.path.dirname(sys.executable), "mastermind")
    return beside if os.path.exists(beside) else "mastermind"


def timed(command: list[str], env: dict[str, str] | None = None) -> tuple[float, float, str]:
    """Run ``command`` to its end: its wall time, its CPU time (user and system, of the process
    and its children: the figure a loaded machine inflates least) and its output. A command
    that fails raises CalledProcessError."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    out = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, out.stdout
