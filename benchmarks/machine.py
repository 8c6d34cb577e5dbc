"""The machine a benchmark ran on, for the figures written to docs/, and the processes it times."""

from __future__ import annotations

import os
import platform
import subprocess
import sys
import tempfile
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
    return (
        f"{cpu_model()}, {os.cpu_count()} cores, Python {platform.python_version()}; "
        f"load {os.getloadavg()[0]:.2f}"
    )


def mastermind() -> str:
    """The command line of the package this Python runs (the script beside it), else the one on PATH."""
    beside = os.path.join(os.path.dirname(sys.executable), "mastermind")
    return beside if os.path.exists(beside) else "mastermind"


def timed(command: list[str], env: dict[str, str] | None = None) -> tuple[float, float, str]:
    """Run ``command`` to its end: its wall time, its CPU time (user and system, of the process
    and its children: the figure a loaded machine inflates least) and its output. A command
    that fails raises CalledProcessError."""
    wall, cpu, _, out = measured(command, env)
    return wall, cpu, out


def measured(command: list[str], env: dict[str, str] | None = None) -> tuple[float, float, float, str]:
    """:func:`timed`, and the most memory (MB resident) that the process or any one of its
    children held at a time (as the kernel reports it to ``wait4``)."""
    started = time.perf_counter()
    with tempfile.TemporaryFile("w+") as errors:  # (a file: a full pipe would stop the command)
        proc = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=errors, text=True)
        out = proc.stdout.read()  # type: ignore[union-attr]
        _, status, usage = os.wait4(proc.pid, 0)  # (its own figures, not Popen's wait)
        proc.returncode = code = os.waitstatus_to_exitcode(status)
        proc.stdout.close()  # type: ignore[union-attr]
        errors.seek(0)
        if code:
            raise subprocess.CalledProcessError(code, command, out, errors.read())
    wall = time.perf_counter() - started
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, out
