"""Where the command line's quick start should stop: the numpy walk of a partition strategy's
whole tree, game by game, against what the compiled path costs a fresh process before its first
search (importing numba and loading the cached kernels).

Each figure is the least of ``--repeat`` runs, seconds. A game is worth putting on numpy
(``mastermind._kernels.quick_start``) while its walk takes less than that loading.

    python benchmarks/quick_start.py                 # the default games
    python benchmarks/quick_start.py --repeat 5 4x7 5x5
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

from machine import cpu_model  # benchmarks/machine.py: the scripts run from this folder

STRATEGIES = ["knuth", "expected-size", "entropy", "most-parts"]
GAMES = ["3x8", "4x6", "4x5-norep", "3x12", "4x7", "5x5", "4x8", "6x4"]

#: A fresh process that imports numba and loads the partition search (the JIT cache warmed first).
LOAD = """
import time
started = time.perf_counter()
from mastermind import Rules, make_strategy
make_strategy("knuth", Rules(pegs=2, colors=3)).prepare()
print(time.perf_counter() - started)
"""


def rules_of(name: str):
    from mastermind import Rules

    size, _, rest = name.partition("-")
    pegs, colors = (int(x) for x in size.split("x"))
    return Rules(pegs=pegs, colors=colors, repeats=rest != "norep")


def walk_seconds(game: str, strategy: str) -> float:
    from mastermind import evaluate, make_strategy
    from mastermind._kernels import quick_start

    rules = rules_of(game)
    quick_start(rules.size)
    started = time.perf_counter()
    evaluate(make_strategy(strategy, rules))  # choosing the first guess included
    return time.perf_counter() - started


def load_seconds() -> float:
    subprocess.run([sys.executable, "-c", LOAD], check=True, capture_output=True)  # the cache warm
    out = subprocess.run([sys.executable, "-c", LOAD], check=True, capture_output=True, text=True)
    return float(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs of each figure; the least is kept [3]")
    parser.add_argument("games", nargs="*", help=f"games, e.g. 4x7 or 4x5-norep [{' '.join(GAMES)}]")
    opts = parser.parse_args()
    print(f"{cpu_model()}, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    load = min(load_seconds() for _ in range(opts.repeat))
    print(f"a fresh process importing numba and loading the partition search: {load:.2f} s")
    print(f"{'game':10} {'codes':>6} " + " ".join(f"{s:>13}" for s in STRATEGIES))
    for game in opts.games or GAMES:
        times = [min(walk_seconds(game, s) for _ in range(opts.repeat)) for s in STRATEGIES]
        print(f"{game:10} {rules_of(game).size:6} " + " ".join(f"{t:13.2f}" for t in times), flush=True)
    assert "numba" not in sys.modules  # the walks ran on numpy alone


if __name__ == "__main__":
    main()
