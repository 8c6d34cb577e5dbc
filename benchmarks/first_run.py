"""Whole-process times of the commands, start-up included: the first run (numba's cache empty, so
the kernels a command needs are compiled) and a warm run (everything loaded from the caches).

Each command runs as its own process, ``python -m mastermind.cli ...``, with fresh numba,
optimal-tree and history directories for every cold run; the warm runs reuse the directories of
the last cold run. Prints the least wall and CPU (user + system) seconds over the repeats: the
machine may be shared, and CPU time is the steadier figure.

    python benchmarks/first_run.py                      # this checkout
    python benchmarks/first_run.py --cold 3 --warm 10   # more repeats
    PYTHONPATH=/path/to/other/src python benchmarks/first_run.py   # another source tree
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time

COMMANDS = [
    "--help",
    "history --no-color",
    "play --help",
    "solve 1122=1,0",
    "guess --secret 3632 --no-history",
    "evaluate -s knuth --json --no-history",
    "evaluate -s optimal --json --no-history",
    "evaluate -s counter --json --no-history",
    "evaluate -s knuth --pegs 5 --colors 8 --json --no-history",
]


def run(args: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of one run of the command line."""
    started = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "mastermind.cli", *args],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - started
    err = proc.stderr.read().decode() if proc.stderr else ""
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"mastermind {' '.join(args)} failed: {err.strip()}")
    return wall, usage.ru_utime + usage.ru_stime


def measure(command: str, cold: int, warm: int) -> tuple[tuple[float, float], tuple[float, float]]:
    args = command.split()
    cold_runs, warm_runs = [], []
    for _ in range(cold):
        root = tempfile.mkdtemp(prefix="mastermind-first-run-")
        env = dict(
            os.environ,
            NUMBA_CACHE_DIR=os.path.join(root, "numba"),
            MASTERMIND_CACHE_DIR=os.path.join(root, "cache"),
            MASTERMIND_DB=os.path.join(root, "history.sqlite3"),
        )
        cold_runs.append(run(args, env))
    for _ in range(warm):
        warm_runs.append(run(args, env))
    best = lambda runs: (min(r[0] for r in runs), min(r[1] for r in runs))  # noqa: E731
    return best(cold_runs), best(warm_runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cold", type=int, default=2, help="cold runs per command [2]")
    parser.add_argument("--warm", type=int, default=5, help="warm runs per command [5]")
    parser.add_argument("commands", nargs="*", help="commands to time (default: a fixed set)")
    opts = parser.parse_args()
    import numba
    import numpy

    print(
        f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}, numba {numba.__version__}, numpy {numpy.__version__}; "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    print(f"{'command':58} {'cold wall':>9} {'cold cpu':>9} {'warm wall':>9} {'warm cpu':>9}")
    for command in opts.commands or COMMANDS:
        (cw, cc), (ww, wc) = measure(command, opts.cold, opts.warm)
        print(f"{command:58} {cw:9.2f} {cc:9.2f} {ww:9.2f} {wc:9.2f}", flush=True)


if __name__ == "__main__":
    main()
