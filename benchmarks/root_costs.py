"""The root's exact costs of a guided proof (`prove_optimum`), and how their order bounds its wall clock.

Before the guided proof proves a root guess's cells it asks the exact search for each cell's cost
(or that it costs at least its budget): searches of seconds to an hour on the large games. This
script times each of those searches alone, in one process, as the prover asks them, then gives
the wall clock that W workers would take for all of them, handed out in two orders (each worker
taking the next search as it frees up):

* one guess at a time, the largest cell first: the next guess's wait for the last of this one's;
* every guess's cells at once, the largest first: what the prover does (`_Guided.exact_ahead`).

The least possible is the longest search, or the whole CPU over W. The timings vary with the
load; the model takes each search to take as long on any worker.

    python benchmarks/root_costs.py --game 4x9 --workers 2,4,16
"""

from __future__ import annotations

import argparse
import heapq
import time

import numpy as np
from machine import machine_line  # benchmarks/machine.py: the scripts run from this folder

from mastermind import Rules
from mastermind.strategies.optimal.guided import _Guided, prove_optimum
from mastermind.strategies.optimal.lower import _Set
from mastermind.strategies.optimal.symmetry import root_group

#: game: pegs, colours, optimum (docs/results.md)
GAMES = {"4x7": (4, 7, 11228), "4x8": (4, 8, 20471), "4x9": (4, 9, 34666), "5x6": (5, 6, 36721)}


def timed_searches(rules: Rules, optimum: int) -> list[list[tuple[int, float]]]:
    """Each root guess's cells (size, seconds of their search), in the prover's order."""
    prover = _Guided(rules, None, workers=1)
    codes = np.arange(rules.size, dtype=np.int64)
    root = _Set(codes, (), root_group(rules.pegs, rules.colors), 0, int(prover.lb[rules.size]))
    prover.deepen(root, optimum)
    assert root.guesses is not None
    out = []
    for g in sorted(root.guesses, key=lambda g: prover.value(root, g)):
        short = prover.short(root, g, optimum)
        if short == 0:
            continue
        cells, times = sorted(root.guesses[g].values(), key=lambda c: -len(c.S)), []
        for cell in cells:
            began = time.perf_counter()
            prover.exact([cell], [cell.low + short])
            times.append((len(cell.S), time.perf_counter() - began))
        out.append(times)
    return out


def wall(seconds: list[float], workers: int) -> float:
    """The wall clock of these searches, in this order, on that many workers."""
    free = [0.0] * workers
    for s in seconds:
        heapq.heappush(free, heapq.heappop(free) + s)
    return max(free)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="4x8", choices=GAMES)
    parser.add_argument("--workers", default="2,4,16", help="numbers of workers, comma-separated")
    args = parser.parse_args()
    print(machine_line())
    pegs, colors, optimum = GAMES[args.game]
    prove_optimum(Rules(pegs=3, colors=4), 206, workers=1)  # (the search compiled, or read from its cache)
    guesses = timed_searches(Rules(pegs=pegs, colors=colors), optimum)
    every = [s for times in guesses for s in times]
    cpu = sum(s for _, s in every)
    print(
        f"{args.game}: {len(every)} searches under {len(guesses)} root guesses, {cpu:.1f} s in all, "
        f"the longest {max(s for _, s in every):.1f} s"
    )
    print(f"{'workers':>7} {'one guess at a time':>20} {'all at once':>12} {'least possible':>15}")
    for n in map(int, args.workers.split(",")):
        one = sum(wall([s for _, s in times], n) for times in guesses)
        ahead = wall([s for _, s in sorted(every, key=lambda pair: -pair[0])], n)
        least = max(max(s for _, s in every), cpu / n)
        print(f"{n:>7} {one:20.1f} {ahead:12.1f} {least:15.1f}")


if __name__ == "__main__":
    main()
