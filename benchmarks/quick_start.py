"""Where the command line's quick start should stop: a fresh process evaluating a partition
strategy's whole tree on the numpy reference, against the same process on the compiled kernels
(numba imported and its cached kernels loaded, the JIT cache warmed first).

Each process runs ``mastermind evaluate -s NAME --pegs P --colors C --json --no-history`` with
``mastermind._kernels.quick_start`` set for the game (numpy) or off (compiled). Prints the least
wall and CPU (user + system) seconds over ``--repeat`` runs: the machine may be shared. A game is
worth putting on numpy while its numpy process is the quicker.

    python benchmarks/quick_start.py                 # the default games, every partition strategy
    python benchmarks/quick_start.py --repeat 5 4x7 5x5 -s knuth
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

from machine import cpu_model  # benchmarks/machine.py: the scripts run from this folder

STRATEGIES = ["knuth", "expected-size", "entropy", "most-parts"]
GAMES = ["3x8", "4x6", "3x12", "4x7", "5x5"]

CHILD = """
import sys
from mastermind._kernels import quick_start
from mastermind.cli import cli
quick_start(int(sys.argv[1]))
cli(sys.argv[2:], prog_name="mastermind")
"""


def command(game: str, strategy: str) -> list[str]:
    size, _, rest = game.partition("-")
    pegs, colors = size.split("x")
    args = ["evaluate", "-s", strategy, "--pegs", pegs, "--colors", colors, "--json", "--no-history"]
    return args + (["--no-repeats"] if rest == "norep" else [])


def run(up_to: int, args: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of one process."""
    started = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(up_to), *args],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"mastermind {' '.join(args)} failed: {proc.stderr.read().decode() if proc.stderr else ''}")
    return wall, usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs of each figure; the least is kept [3]")
    parser.add_argument("-s", "--strategy", action="append", help="a strategy (repeatable) [all four]")
    parser.add_argument("games", nargs="*", help=f"games, e.g. 4x7 or 4x8-norep [{' '.join(GAMES)}]")
    opts = parser.parse_args()
    root = tempfile.mkdtemp(prefix="mastermind-quick-start-")
    env = dict(
        os.environ,
        NUMBA_CACHE_DIR=os.path.join(root, "numba"),
        MASTERMIND_DB=os.path.join(root, "history.sqlite3"),
    )
    print(f"{cpu_model()}, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    print(f"{'game':10} {'strategy':14} {'numpy wall':>10} {'cpu':>6} {'compiled wall':>13} {'cpu':>6}")
    for game in opts.games or GAMES:
        for strategy in opts.strategy or STRATEGIES:
            args = command(game, strategy)
            run(0, args, env)  # compiles into the fresh JIT cache: the runs below load it
            quick = [run(1 << 30, args, env) for _ in range(opts.repeat)]
            compiled = [run(0, args, env) for _ in range(opts.repeat)]
            (qw, qc), (cw, cc) = ((min(r[0] for r in x), min(r[1] for r in x)) for x in (quick, compiled))
            print(f"{game:10} {strategy:14} {qw:10.2f} {qc:6.2f} {cw:13.2f} {cc:6.2f}", flush=True)


if __name__ == "__main__":
    main()
