"""Speed of the exact optimal strategy: prints game, optimal total, max, and wall seconds.

Each game runs `mastermind evaluate --strategy optimal --json` in a fresh process with an empty
tree cache (so the search really runs), after the JIT cache on disk has been filled. Two times
are printed: the whole process (what the C++ solvers' figures measure: start, tables, search,
output) and the search alone (the process minus its start-up, measured in the process). The
best of ``--repeat`` runs is kept (the machine is shared; say so when quoting). First it prints
the floor: the wall time of a process that only imports numpy and numba and calls one tiny
cached kernel, which no numba program can go under.

    python benchmarks/optimal.py                  # classic, classic <= 5 guesses, 4x7, 5x5, Bulls and Cows
    python benchmarks/optimal.py --games 4x7      # a subset
    python benchmarks/optimal.py --big            # also 4 pegs 8 colours (and with at most 6 guesses)
    python benchmarks/optimal.py --games 4x8 --watch   # one run in this process, printing progress
    python benchmarks/optimal.py --games 5x5 --cores 1,2   # pinned with taskset to 1, then 2 cores
    python benchmarks/optimal.py --games 4x7 --baseline /tmp/old/src   # against another version

With ``--baseline SRC`` (the ``src`` folder of another copy of the package, e.g. from ``git archive
main | tar -x -C /tmp/old``) each run of this version is followed at once by a run of that one
(PYTHONPATH=SRC), so that both see the same load on a shared machine; the best of each is shown.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time

from machine import cpu_model, mastermind, timed  # benchmarks/machine.py: the scripts run from this folder

GAMES = {
    "classic": ["--pegs", "4", "--colors", "6"],
    "classic-max5": ["--pegs", "4", "--colors", "6", "--max-guesses", "5"],
    "4x7": ["--pegs", "4", "--colors", "7"],
    "5x5": ["--pegs", "5", "--colors", "5"],
    "bulls-and-cows": ["--preset", "bulls-and-cows"],
}
BIG = {
    "4x8": ["--pegs", "4", "--colors", "8"],
    "4x8-max6": ["--pegs", "4", "--colors", "8", "--max-guesses", "6"],
}
#: Minutes each on 2 cores: only when named in --games.
LARGE = {
    "4x9": ["--pegs", "4", "--colors", "9"],
    "5x6": ["--pegs", "5", "--colors", "6"],
}
#: The best C++ solver (mmstrat, one thread, whole process) on this kind of machine: the peer figures
#: of docs/research-notes.md ("The speed goals").
PEER = {"classic": 0.17, "classic-max5": 1.2, "4x7": 28.0, "5x5": 4.0, "bulls-and-cows": 187.0, "4x8": 8000.0}


def one(args: list[str], cores: int | None = None, source: str | None = None) -> tuple[float, dict]:
    """Wall time and JSON of one process (pinned to the first ``cores`` cores with taskset; the
    package imported from ``source`` if given)."""
    pin = [] if cores is None else ["taskset", "-c", f"0-{cores - 1}"]
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "MASTERMIND_CACHE_DIR": cache}
        if source is not None:
            env["PYTHONPATH"] = source
        command = [mastermind(), "evaluate", "--strategy", "optimal", "--json", "--no-history", *args]
        wall, _, out = timed([*pin, *command], env)
        return wall, json.loads(out)


def startup(cores: int | None = None) -> float:
    """Wall time of a process that loads everything (Python, numba's cached kernels, the
    tables) and searches next to nothing: the 64 codes of 3 pegs, 4 colours (milliseconds)."""
    return min(one(["--pegs", "3", "--colors", "4"], cores)[0] for _ in range(3))


FLOOR = """
import numpy as np
from numba import njit

@njit(cache=True)
def total(a):
    s = 0
    for x in a:
        s += x
    return s

total(np.arange(4))
"""


def floor(cores: int | None = None) -> float:
    """Wall time of the least process any numba program pays: Python starts, imports numpy and
    numba, and calls one three-line kernel loaded from numba's cache on disk (best of 5)."""
    pin = [] if cores is None else ["taskset", "-c", f"0-{cores - 1}"]
    with tempfile.TemporaryDirectory() as folder:
        script = os.path.join(folder, "floor.py")
        with open(script, "w") as f:
            f.write(FLOOR)
        subprocess.run([sys.executable, script], check=True)  # fill the cache
        times = []
        for _ in range(5):
            started = time.perf_counter()
            subprocess.run([*pin, sys.executable, script], check=True)
            times.append(time.perf_counter() - started)
        return min(times)


def watch(label: str, args: list[str]) -> None:
    """One search in this process (no cache), with a line per first guess tried."""
    import numpy as np

    from mastermind import Rules
    from mastermind.strategies.optimal.search import game_of, solve_position
    from mastermind.strategies.progress import Progress

    pairs = dict(zip(args[::2], args[1::2], strict=True))
    if pairs.get("--preset") == "bulls-and-cows":
        rules = Rules(pegs=4, colors=10, repeats=False)
    else:
        rules = Rules(
            pegs=int(pairs["--pegs"]),
            colors=int(pairs["--colors"]),
            max_guesses=int(pairs.get("--max-guesses", 10)),
        )
    print(f"{label}: machine {cpu_model()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}")
    started = time.perf_counter()
    game_of(rules)
    print(f"tables {time.perf_counter() - started:.1f} s", flush=True)

    def progress(status: Progress) -> None:
        print(
            f"{time.perf_counter() - started:9.1f} s  first guesses {status.units_done}/{status.units}  "
            f"best {status.best}  "
            f"load {os.getloadavg()[0]:.2f}",
            flush=True,
        )

    sol = solve_position(rules, np.arange(rules.size), progress=progress)
    total = "none" if sol is None else sol.cost
    print(f"{label}: total {total} in {time.perf_counter() - started:.1f} s", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", help="comma-separated subset: " + ", ".join([*GAMES, *BIG, *LARGE]))
    parser.add_argument("--big", action="store_true", help="also 4 pegs, 8 colours (long)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per game under a minute [3]")
    parser.add_argument(
        "--cores",
        help="comma-separated core counts, e.g. 1,2: each game is run "
        "pinned (taskset) to that many cores, a column each",
    )
    parser.add_argument(
        "--baseline", metavar="SRC", help="another copy's src folder: each run is followed by one of it"
    )
    parser.add_argument(
        "--watch", action="store_true", help="search in this process, printing each first guess as it is done"
    )
    options = parser.parse_args()
    games = {**GAMES, **(BIG if options.big else {})}
    if options.games:
        games = {k: v for k, v in {**GAMES, **BIG, **LARGE}.items() if k in options.games.split(",")}
    if options.watch:
        for label, args in games.items():
            watch(label, args)
        return
    print(
        f"machine: {cpu_model()}, {os.cpu_count()} cores, {platform.machine()}; "
        f"load average {os.getloadavg()[0]:.2f} at start"
    )
    print(f"python {platform.python_version()}")
    one(["--pegs", "3", "--colors", "3"])  # fill the JIT cache on disk
    if options.baseline:
        against(games, options.baseline, options.repeat)
        return
    if options.cores:
        by_cores(games, [int(c) for c in options.cores.split(",")], options.repeat)
        return
    print(f"floor of any numba process (Python, numpy, numba, one cached kernel): {floor():.2f} s")
    base = startup()
    print(f"process start-up (load, JIT cache, 3 pegs 4 colours): {base:.2f} s")
    print(f"{'game':<16}{'total':>8}{'max':>5}{'process s':>11}{'search s':>10}{'mmstrat s':>11}")
    for label, args in games.items():
        best, stats = one(args)
        runs = 1
        while runs < options.repeat and best < 60:
            best = min(best, one(args)[0])
            runs += 1
        peer = PEER.get(label)
        print(
            f"{label:<16}{stats['total']:>8}{stats['max']:>5}{best:>11.2f}{best - base:>10.2f}"
            f"{'' if peer is None else f'{peer:>11.2f}'}",
            flush=True,
        )
    print(f"load average {os.getloadavg()[0]:.2f} at the end")


def against(games: dict[str, list[str]], baseline: str, repeat: int) -> None:
    """Whole-process seconds of this version and of ``baseline``, run in turn (best of ``repeat``)."""
    one(["--pegs", "3", "--colors", "3"], source=baseline)  # fill its JIT cache too
    print(f"baseline: {baseline}")
    print(f"{'game':<16}{'total':>8}{'this s':>9}{'base s':>9}{'ratio':>7}{'mmstrat s':>11}")
    for label, args in games.items():
        mine, theirs = float("inf"), float("inf")
        for _ in range(max(1, repeat)):
            t, stats = one(args)
            mine = min(mine, t)
            t, old = one(args, source=baseline)
            theirs = min(theirs, t)
            if old["total"] != stats["total"]:
                raise SystemExit(f"{label}: totals differ: {stats['total']} against {old['total']}")
        peer = PEER.get(label)
        print(
            f"{label:<16}{stats['total']:>8}{mine:>9.2f}{theirs:>9.2f}{theirs / mine:>7.2f}"
            f"{'' if peer is None else f'{peer:>11.2f}'}  load {os.getloadavg()[0]:.2f}",
            flush=True,
        )
    print(f"load average {os.getloadavg()[0]:.2f} at the end")


def by_cores(games: dict[str, list[str]], cores: list[int], repeat: int) -> None:
    """Whole-process seconds (best of ``repeat``) of each game pinned to 1, 2, ... cores."""
    for n in cores:
        print(f"floor of any numba process on {n} core(s): {floor(n):.2f} s")
        print(f"process start-up on {n} core(s): {startup(n):.2f} s")
    print(
        f"{'game':<16}{'total':>8}" + "".join(f"{f'{n} core(s) s':>14}" for n in cores) + f"{'mmstrat s':>11}"
    )
    for label, args in games.items():
        row = f"{label:<16}"
        for n in cores:
            best, stats = min((one(args, n) for _ in range(max(1, repeat))), key=lambda r: r[0])
            if n == cores[0]:
                row += f"{stats['total']:>8}"
            row += f"{best:>14.2f}"
        peer = PEER.get(label)
        print(row + ("" if peer is None else f"{peer:>11.2f}"), flush=True)
    print(f"load average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
