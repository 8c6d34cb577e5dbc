"""Whole-tree evaluations through the runner: the local executor against a Dask LocalCluster.

    python benchmarks/dask_scale.py overhead [--pegs 5 --colors 8] [--repeat 3]
        every partition strategy, local executor and a 2-worker LocalCluster, best of N each
    python benchmarks/dask_scale.py run --pegs 6 --colors 9 --strategy knuth --executor dask --workers 2
        one whole evaluation, with its time, units and result (--checkpoint FILE to resume one)
    python benchmarks/dask_scale.py ctrl-c [--after 5 --repeat 3] [-- --executor dask --workers 2]
        how long `mastermind evaluate -p 6 -c 9` takes to exit after Ctrl-C (SIGINT to its process
        group, as a terminal sends it), N seconds after its run has started (--pegs, --colors for
        another game; an empty cache of optimal trees, so `-- -s optimal` really searches)
    python benchmarks/dask_scale.py optimal [--games 5x5,4x7] [--repeat 3] [--workers 2]
        the optimal strategy's search: in this process (threads, the default path), its root in
        pieces on local threads, and its root in pieces on a LocalCluster; best of N each

Times are the run alone: the cluster is started and every worker has loaded the strategy's
compiled kernels first (both reported apart). Needs the distributed extra for --executor dask.
"""

from __future__ import annotations

import argparse
import os
import resource
import time

from mastermind import Rules, make_strategy
from mastermind.research import runner

STRATEGIES = ["knuth", "expected-size", "entropy", "most-parts"]


def once(name: str, rules: Rules, executor: runner.Executor, checkpoint: str | None = None):
    strategy = make_strategy(name, rules)
    started = time.perf_counter()
    executor.prepare(strategy)
    prepared = time.perf_counter() - started
    last = [time.perf_counter()]

    def progress(status: runner.Progress) -> None:
        now = time.perf_counter()
        if now - last[0] > 60:
            last[0] = now
            print(
                f"  {status.stage}: {status.units_done}/{status.units} units, "
                f"{status.secrets_done:,}/{status.secrets:,} secrets",
                flush=True,
            )

    outcome = runner.run_tree(strategy, executor, checkpoint=checkpoint, progress=progress)
    return strategy, outcome, prepared


def overhead(args: argparse.Namespace) -> None:
    rules = Rules(pegs=args.pegs, colors=args.colors)
    print(f"{rules.describe()}: best of {args.repeat}, seconds of the run after warm-up")
    print(f"{'strategy':<14} {'local':>8} {'dask x2':>8} {'ratio':>6} {'units':>6}  total (identical)")
    started = time.perf_counter()
    with runner.DaskExecutor(workers=2) as dask:
        print(f"(2-worker LocalCluster started in {time.perf_counter() - started:.2f} s)")
        for name in args.strategies.split(","):
            local_best = dask_best = float("inf")
            results = set()
            for _ in range(args.repeat):
                _, out, _ = once(name, rules, runner.LocalExecutor())
                local_best = min(local_best, out.seconds)
                results.add((out.first_guess, tuple(out.distribution.items())))
                _, out, _ = once(name, rules, dask)
                dask_best = min(dask_best, out.seconds)
                results.add((out.first_guess, tuple(out.distribution.items())))
            assert len(results) == 1, f"{name}: local and Dask differ: {results}"
            total = sum(k * n for k, n in out.distribution.items())
            print(
                f"{name:<14} {local_best:8.2f} {dask_best:8.2f} {dask_best / local_best:6.2f} "
                f"{out.units:6d}  {total}",
                flush=True,
            )


def one_run(args: argparse.Namespace) -> None:
    rules = Rules(pegs=args.pegs, colors=args.colors)
    started = time.perf_counter()
    if args.executor == "dask":
        executor: runner.Executor = runner.DaskExecutor(workers=args.workers)
        executor.__enter__()
        print(f"{args.workers}-worker LocalCluster started in {time.perf_counter() - started:.2f} s")
    else:
        if args.workers:
            import numba

            numba.set_num_threads(args.workers)
        executor = runner.LocalExecutor()
    try:
        strategy, out, prepared = once(args.strategy, rules, executor, args.checkpoint)
    finally:
        executor.close()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    total = sum(k * n for k, n in out.distribution.items())
    where = args.executor + (f" x{args.workers}" if args.workers else f" ({os.cpu_count()} cores)")
    print(
        f"{args.strategy} on {rules.describe()} [{where}]: first {strategy.space.code(out.first_guess)}, "
        f"total {total}, mean {total / strategy.space.size:.4f}, max {max(out.distribution)}; "
        f"run {out.seconds:.1f} s (prepare {prepared:.1f} s), {out.units} units "
        f"({out.resumed} from the checkpoint), driver peak {peak} MiB"
    )
    print("distribution", out.distribution)


def _hear_ctrl_c() -> None:
    """In the child: SIGINT as on a terminal, even when this script runs as a background job
    (which starts with SIGINT ignored, and children inherit that)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _alive_in_group(pgid: int) -> bool:
    """Whether a process of the group still runs (ended ones waiting to be reaped do not count)."""
    import subprocess

    states = subprocess.run(["ps", "-o", "stat=", "-g", str(pgid)], capture_output=True, text=True).stdout
    return any(not state.startswith("Z") for state in states.split())


def ctrl_c(args: argparse.Namespace) -> None:
    import signal
    import subprocess
    import sys
    import tempfile

    extra = [a for a in args.extra if a != "--"]
    game = f"-p {args.pegs} -c {args.colors}"
    print(f"mastermind evaluate {game} {' '.join(extra)}: SIGINT {args.after} s after the run starts")
    for _ in range(args.repeat):
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "run.jsonl")
            proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "mastermind.cli",
                    "evaluate",
                    *game.split(),
                    "--no-history",
                    "--checkpoint",
                    path,
                    *extra,
                ],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                start_new_session=True,
                preexec_fn=_hear_ctrl_c,
                env={**os.environ, "MASTERMIND_CACHE_DIR": folder},
            )
            while not os.path.exists(path) and proc.poll() is None:
                time.sleep(0.05)
            time.sleep(args.after)
            sent = time.perf_counter()
            os.killpg(proc.pid, signal.SIGINT)
            _, err = proc.communicate(timeout=120)
            gone = time.perf_counter() - sent
            while _alive_in_group(proc.pid):  # and its group (a local cluster's workers) has ended
                time.sleep(0.01)
            ended = time.perf_counter() - sent
            print(
                f"  exit {proc.returncode} after {gone:.2f} s, every process of its group ended "
                f"after {ended:.2f} s; stderr: {err.strip()!r}",
                flush=True,
            )


def optimal_search(args: argparse.Namespace) -> None:
    import numpy as np

    from mastermind.strategies.optimal.search import to_flat

    print(
        f"optimal search: best of {args.repeat}, seconds after warm-up (tables and compiled code "
        f"loaded everywhere); {os.cpu_count()} cores"
    )
    dask_column = f"dask x{args.workers}"
    print(f"{'game':<8} {'local':>8} {'pieces':>8} {dask_column:>8} {'ratio':>6} {'pieces':>7}  total")
    started = time.perf_counter()
    with runner.DaskExecutor(workers=args.workers) as dask:
        print(f"({args.workers}-worker LocalCluster started in {time.perf_counter() - started:.2f} s)")
        for game in args.games.split(","):
            pegs, colors = (int(x) for x in game.split("x"))
            rules = Rules(pegs=pegs, colors=colors)
            local = runner.LocalExecutor()
            for executor in (local, dask):
                executor.prepare(make_strategy("optimal", rules, cache=False))
            best = {"local": float("inf"), "pieces": float("inf"), "dask": float("inf")}
            trees, pieces = [], 0
            for _ in range(args.repeat):
                strategy = make_strategy("optimal", rules, cache=False)
                t = time.perf_counter()
                trees.append(to_flat(strategy.decision_tree()))
                best["local"] = min(best["local"], time.perf_counter() - t)
                for name, executor in (("pieces", local), ("dask", dask)):
                    search = runner.run_search(make_strategy("optimal", rules, cache=False), executor)
                    best[name] = min(best[name], search.seconds)
                    trees.append(search.tree.flat)
                    pieces = search.tree.pieces
            assert all(np.array_equal(t, trees[0]) for t in trees), f"{game}: the trees differ"
            total = int(make_strategy("optimal", rules, cache=False).decision_tree().cost)
            print(
                f"{game:<8} {best['local']:8.2f} {best['pieces']:8.2f} {best['dask']:8.2f} "
                f"{best['dask'] / best['local']:6.2f} {pieces:7d}  {total}",
                flush=True,
            )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True)
    a = sub.add_parser("overhead")
    a.add_argument("--pegs", type=int, default=5)
    a.add_argument("--colors", type=int, default=8)
    a.add_argument("--repeat", type=int, default=3)
    a.add_argument("--strategies", default=",".join(STRATEGIES))
    b = sub.add_parser("run")
    b.add_argument("--pegs", type=int, required=True)
    b.add_argument("--colors", type=int, required=True)
    b.add_argument("--strategy", default="knuth")
    b.add_argument("--executor", choices=["local", "dask"], default="local")
    b.add_argument("--workers", type=int)
    b.add_argument("--checkpoint")
    c = sub.add_parser("ctrl-c")
    c.add_argument("--after", type=float, default=5)
    c.add_argument("--repeat", type=int, default=3)
    c.add_argument("--pegs", type=int, default=6)
    c.add_argument("--colors", type=int, default=9)
    c.add_argument("extra", nargs=argparse.REMAINDER)
    d = sub.add_parser("optimal")
    d.add_argument("--games", default="5x5,4x7")
    d.add_argument("--repeat", type=int, default=3)
    d.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    {"overhead": overhead, "run": one_run, "ctrl-c": ctrl_c, "optimal": optimal_search}[args.command](args)


if __name__ == "__main__":
    main()
