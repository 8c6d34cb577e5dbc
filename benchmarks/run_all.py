"""Speed of the partition strategies: prints a table of game, strategy, seconds, peak memory, mean.

Each evaluation runs in a fresh process (the JIT cache on disk is warmed first), so the peak
resident memory is that evaluation's own. Also measures Knuth's classic tree in-process after
warm-up, and the command line cold (empty JIT cache) and warm.

    python benchmarks/run_all.py              # classic, 4x7, 4x8, Bulls and Cows, 5x8
    python benchmarks/run_all.py --big        # also 6 pegs, 9 colours (takes a while)
    python benchmarks/run_all.py --baseline /tmp/old/src   # against another version

With ``--baseline SRC`` (the ``src`` folder of another copy of the package, e.g. from ``git archive
main | tar -x -C /tmp/old``) each evaluation of this version is followed at once by the same one
with PYTHONPATH=SRC, so that both see the same load on a shared machine; the best of ``--repeat``
runs of each is shown, and their ratio (the baseline's seconds over this version's).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from machine import cpu_model  # benchmarks/machine.py: the scripts run from this folder

STRATEGIES = ["knuth", "expected-size", "entropy", "most-parts"]
GAMES = [
    ("4x6", 4, 6, True),
    ("4x7", 4, 7, True),
    ("4x8", 4, 8, True),
    ("bulls-and-cows", 4, 10, False),
    ("5x8", 5, 8, True),
]
BIG = [("6x9", 6, 9, True)]

CHILD = """
import json, resource, sys, time
from mastermind import Rules, evaluate, make_strategy
pegs, colors, repeats, name = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3] == "1", sys.argv[4]
evaluate(make_strategy(name, Rules(pegs=2, colors=3)))  # load the compiled kernels
strategy = make_strategy(name, Rules(pegs=pegs, colors=colors, repeats=repeats))
started = time.perf_counter()  # includes choosing the first guess
stats = evaluate(strategy)
seconds = time.perf_counter() - started
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"seconds": seconds, "peak_mib": peak, "mean": stats.mean, "total": stats.total,
                  "max": stats.max, "first": stats.to_dict()['first_guess']}))
"""


def child(pegs: int, colors: int, repeats: bool, name: str, src: str | None = None) -> dict:
    args = [sys.executable, "-c", CHILD, str(pegs), str(colors), "1" if repeats else "0", name]
    env = dict(os.environ, PYTHONPATH=src) if src else None
    out = subprocess.run(args, capture_output=True, text=True, check=True, env=env)
    return json.loads(out.stdout)


def compare(games: list, baseline: str, repeat: int) -> None:
    """Each evaluation of this version beside the same of ``baseline``, alternately."""
    for name in STRATEGIES:  # fill both JIT caches on disk
        child(5, 3, True, name)
        child(5, 3, True, name, baseline)
    print(f"baseline: {baseline}; best of {repeat}, alternately")
    print(f"{'game':<15} {'strategy':<14} {'this s':>8} {'base s':>8} {'ratio':>6} {'total':>8}")
    for label, pegs, colors, repeats in games:
        for name in STRATEGIES:
            this, base = [], []
            for _ in range(repeat):
                this.append(child(pegs, colors, repeats, name))
                base.append(child(pegs, colors, repeats, name, baseline))
            assert {r["total"] for r in this + base} == {this[0]["total"]}, "the versions disagree"
            t, b = min(r["seconds"] for r in this), min(r["seconds"] for r in base)
            print(
                f"{label:<15} {name:<14} {t:>8.2f} {b:>8.2f} {b / t:>6.2f} {this[0]['total']:>8}", flush=True
            )


def classic_in_process(repeats: int = 50) -> tuple[float, float]:
    from mastermind import Rules, evaluate, make_strategy

    knuth = make_strategy("knuth", Rules())
    evaluate(knuth)  # warm-up: JIT and the first guess
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        stats = evaluate(knuth)
        times.append(time.perf_counter() - started)
    assert stats.total == 5801
    return statistics.median(times), min(times)


def command_line(cache_dir: str | None) -> float:
    env = dict(os.environ)
    if cache_dir is not None:
        env["NUMBA_CACHE_DIR"] = cache_dir
    beside = os.path.join(os.path.dirname(sys.executable), "mastermind")
    exe = beside if os.path.exists(beside) else shutil.which("mastermind") or "mastermind"
    started = time.perf_counter()
    subprocess.run(
        [exe, "evaluate", "--strategy", "knuth", "--json", "--no-history"],
        env=env,
        capture_output=True,
        check=True,
    )
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--big", action="store_true", help="also 6 pegs, 9 colours")
    parser.add_argument("--games", help="comma-separated subset, e.g. 4x6,5x8")
    parser.add_argument("--baseline", metavar="SRC", help="another copy's src folder, run alternately")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each, with --baseline [3]")
    options = parser.parse_args()
    games = GAMES + (BIG if options.big else [])
    if options.games:
        wanted = options.games.split(",")
        games = [g for g in GAMES + BIG if g[0] in wanted]

    print(f"machine: {cpu_model()}, {os.cpu_count()} cores, {platform.machine()}")
    print(f"python {platform.python_version()}")
    if options.baseline:
        compare(games, options.baseline, options.repeat)
        return
    for name in STRATEGIES:  # fill the JIT cache on disk
        child(5, 3, True, name)
    with tempfile.TemporaryDirectory() as empty:
        cold = command_line(empty)
    warm = min(command_line(None) for _ in range(3))
    median, best = classic_in_process()
    print(
        f"classic Knuth tree in-process after warm-up: median {median * 1e3:.2f} ms, "
        f"best {best * 1e3:.2f} ms (C++ peer: 3.5 ms)"
    )
    print(
        f"`mastermind evaluate --strategy knuth --json`: cold (empty JIT cache) {cold:.2f} s, "
        f"warm {warm:.2f} s"
    )
    print()
    print(
        f"{'game':<15} {'strategy':<14} {'seconds':>8} {'peak MiB':>9} {'mean':>8} "
        f"{'total':>8} {'max':>4} {'first':>7}"
    )
    for label, pegs, colors, repeats in games:
        for name in STRATEGIES:
            r = child(pegs, colors, repeats, name)
            print(
                f"{label:<15} {name:<14} {r['seconds']:>8.2f} {r['peak_mib']:>9.0f} "
                f"{r['mean']:>8.4f} {r['total']:>8} {r['max']:>4} {r['first']:>7}",
                flush=True,
            )


if __name__ == "__main__":
    main()
