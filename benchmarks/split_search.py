"""The optimal search cut into pieces at any depth (strategies/optimal/in_pieces.py): measured on a
Dask LocalCluster, and its logged schedule replayed for more workers than this machine has.

    python benchmarks/split_search.py measure --games 4x7,5x5,4x8 --workers 1,2 --log runs/
        each game: the search on this process's threads (the default path, for reference), then
        in pieces on a LocalCluster of each number of workers (started, kernels and tables loaded
        on every worker first, not timed); wall seconds of the search, pieces, the workers' CPU
        seconds in pieces, the client's CPU seconds; the trees must be identical (asserted).
        Every piece (its description, outcome and the CPU seconds it took on its worker) is
        written to runs/GAME-wN.jsonl.
    python benchmarks/split_search.py simulate --log runs/4x7-w2.jsonl --workers 1,2,16,100
        replays the search with N simulated workers: the same scheduler hands out pieces as
        simulated workers free up; each piece takes the CPU seconds logged for it (one not in
        the log, because other budgets led elsewhere, is solved here and timed), plus
        --overhead seconds each (a task's round trip on a cluster). Prints the simulated wall
        time, the speed-up over one worker, and how busy the workers were.
    python benchmarks/split_search.py sizes --games 4x7,4x8,bulls-and-cows --parts 4,8,16,32
        the search in pieces on one worker (this thread, pieces in the order handed out), each
        game with the default piece sizes, then with every set larger than the game over each
        part cut (--unit-size; budgeted sets too, their guesses one piece each): the CPU seconds
        of all the pieces, how many, and the longest three (seconds, secrets, kind, whether it
        had a budget). Each run in a fresh process (the compiled search keeps a memo across
        calls). What a smaller piece costs in work, and what it saves in the longest piece.
    python benchmarks/split_search.py schedule --games 4x7,4x8 --workers 1,2,4,8,16,100
        the same simulation with no log: every piece solved here and timed, each run in a fresh
        process (the compiled search keeps a memo across calls); for each number of workers, the
        default cut, then with sets that have a budget cut at the same size as the others
        ("cut") and with only the root's guesses cut ("root"): simulated wall, the CPU seconds
        of all the pieces, how busy the workers were.

The simulation leaves out the client's own time (printed by measure) and assumes workers as fast
as the one that logged the pieces.
"""

from __future__ import annotations

import argparse
import heapq
import json
import os
import time
from pathlib import Path

import numpy as np

from mastermind import Rules
from mastermind.strategies.optimal import in_pieces as split
from mastermind.strategies.optimal.piece import Outcome, Piece, work
from mastermind.strategies.optimal.search import solve_position

GAMES = {
    "classic": Rules(),
    "4x7": Rules(pegs=4, colors=7),
    "5x5": Rules(pegs=5, colors=5),
    "4x8": Rules(pegs=4, colors=8),
    "4x9": Rules(pegs=4, colors=9),
    "bulls-and-cows": Rules(pegs=4, colors=10, repeats=False),
    "5x6": Rules(pegs=5, colors=6),
}


def _piece_to_json(piece: Piece, out: Outcome, size: int) -> dict:
    return {
        "kind": piece.kind,
        "history": [list(h) for h in piece.history],
        "budget": piece.budget,
        "guess": piece.guess,
        "size": size,
        "cost": out.cost,
        "seconds": out.seconds,
        "tree": None if out.flat is None else out.flat.tolist(),
        "roots": [[g, b, up, None if cells is None else list(cells)] for g, b, up, cells in out.roots],
    }


def _piece_of(item: dict) -> tuple[Piece, Outcome]:
    history = tuple((g, f) for g, f in item["history"])
    piece = Piece(item["kind"], history, item["budget"], item["guess"])
    roots = tuple((g, b, better, None if c is None else tuple(c)) for g, b, better, c in item["roots"])
    flat = None if item["tree"] is None else np.array(item["tree"], dtype=np.int64)
    return piece, Outcome(item["cost"], flat, item["seconds"], roots)


def measure(args: argparse.Namespace) -> None:
    from mastermind import make_strategy
    from mastermind.research import runner

    folder = Path(args.log)
    folder.mkdir(parents=True, exist_ok=True)
    print(f"machine: {os.cpu_count()} cores; load average at start {os.getloadavg()[0]:.2f}")
    print(f"{'game':<15} {'where':<10} {'wall s':>8} {'pieces':>7} {'work s':>8} {'client s':>9}  total")
    for name in args.games.split(","):
        rules = GAMES[name]
        everything = np.arange(rules.size, dtype=np.int64)
        solve_position(Rules(pegs=2, colors=3), np.arange(9))  # kernels loaded
        started = time.perf_counter()
        local = solve_position(rules, everything)
        wall = time.perf_counter() - started
        assert local is not None
        print(
            f"{name:<15} {'threads':<10} {wall:8.2f} {'':>7} {'':>8} {'':>9}  {local.cost}  "
            f"load {os.getloadavg()[0]:.2f}",
            flush=True,
        )
        for workers in (int(w) for w in args.workers.split(",")):
            with runner.DaskExecutor(workers=workers) as executor:
                executor.prepare(make_strategy("optimal", rules, cache=False))
                log = folder / f"{name}-w{workers}.jsonl"
                pieces: list[dict] = []

                def keep(piece: Piece, out: Outcome, size: int, pieces: list = pieces) -> None:
                    pieces.append(_piece_to_json(piece, out, size))

                cpu, started = time.process_time(), time.perf_counter()
                sol, solved, _ = split.search_in_pieces(rules, executor.map, log=keep)
                wall, cpu = time.perf_counter() - started, time.process_time() - cpu
            assert sol is not None and sol.cost == local.cost and np.array_equal(sol.flat, local.flat), name
            log.write_text("".join(json.dumps(p) + "\n" for p in pieces))
            work = sum(p["seconds"] for p in pieces)
            print(
                f"{name:<15} {f'dask x{workers}':<10} {wall:8.2f} {solved:7d} {work:8.2f} {cpu:9.2f}  "
                f"{sol.cost}  load {os.getloadavg()[0]:.2f}",
                flush=True,
            )


class Simulated:
    """An executor of ``workers`` simulated workers: a piece takes the seconds the log says."""

    def __init__(self, workers: int, known: dict, overhead: float) -> None:
        self.workers, self.known, self.overhead = workers, known, overhead
        self.now = self.busy = 0.0
        self.solved_here = 0

    def outcome(self, rules: Rules, piece: Piece) -> Outcome:
        found = self.known.get(piece)
        if found is None:  # not in the log: solved here, timed
            found = self.known[piece] = work(rules, piece)
            self.solved_here += 1
        return found

    def map(self, fn, tasks, each) -> None:  # noqa: ANN001 - a MapTasks
        feed, running, order = iter(tasks), [], 0

        def top_up() -> None:
            nonlocal order
            while len(running) < self.workers and (args := next(feed, None)) is not None:
                out = self.outcome(args[0], args[1])
                self.busy += out.seconds
                heapq.heappush(running, (self.now + out.seconds + self.overhead, order, args, out))
                order += 1

        top_up()
        while running:
            self.now, _, args, out = heapq.heappop(running)
            each(args, out)
            top_up()


def simulate(args: argparse.Namespace) -> None:
    path = Path(args.log)
    name = path.stem.rsplit("-w", 1)[0]
    rules = GAMES[name]
    known = dict(_piece_of(json.loads(line)) for line in path.read_text().splitlines())
    work = sum(out.seconds for out in known.values())
    sizes = sorted((len(p.history), out.seconds) for p, out in known.items())
    longest = max(out.seconds for out in known.values())
    print(
        f"{path}: {name}, {len(known)} pieces logged, {work:.2f} CPU s in all, the longest "
        f"{longest:.3f} s; pieces by depth: "
        + ", ".join(f"{d}: {sum(1 for x, _ in sizes if x == d)}" for d in sorted({x for x, _ in sizes}))
    )
    for overhead in (0.0, args.overhead):
        print(f"simulated, {overhead * 1000:.0f} ms of overhead per piece:")
        print(f"{'workers':>8} {'wall s':>8} {'speed-up':>9} {'busy':>6} {'pieces':>7} {'new':>5}")
        base = None
        for workers in (int(w) for w in args.workers.split(",")):
            sim = Simulated(workers, known, overhead)
            sol, solved, _ = split.search_in_pieces(rules, sim.map, workers=workers)
            assert sol is not None
            base = base or sim.now
            busy = sim.busy / (workers * sim.now)
            print(
                f"{workers:8d} {sim.now:8.2f} {base / sim.now:9.2f} {busy:6.0%} {solved:7d} "
                f"{sim.solved_here:5d}  total {sol.cost}",
                flush=True,
            )


def _serial(fn, tasks, each) -> None:  # noqa: ANN001 - a MapTasks on one worker, in order
    for args in tasks:
        assert args is not None  # with one piece out at a time there is always one ready
        each(args, fn(*args))


def one(args: argparse.Namespace) -> None:
    """One run of ``sizes`` or ``schedule`` (in its own process): a JSON line on stdout."""
    rules = GAMES[args.games]
    if args.workers:
        return one_schedule(rules, args.workers, args.budgeted)
    solve_position(Rules(pegs=2, colors=3), np.arange(9))  # kernels loaded
    size = None if args.part == 0 else max(split.SERIAL_SET, rules.size // args.part)
    pieces: list[tuple[float, int, str, bool]] = []

    def keep(piece: Piece, out: Outcome, n: int) -> None:
        pieces.append((out.seconds, n, piece.kind, piece.budget < split.FAIL))

    cpu = time.process_time()
    sol, solved, _ = split.search_in_pieces(rules, _serial, workers=1, split=size, big=size, log=keep)
    assert sol is not None
    work = sum(p[0] for p in pieces)
    found = {"size": size, "cpu": time.process_time() - cpu, "pieces": solved, "total": sol.cost}
    print(json.dumps(found | {"work": work, "longest": sorted(pieces, reverse=True)[:3]}))


def _big(size: int, workers: int, budgeted: str) -> int:
    """The largest set with a budget that is one piece: by default, cut as the others, or root only."""
    small, big = split.cut_sizes(size, workers)
    return {"default": big, "cut": small, "root": size - 1}[budgeted]


def one_schedule(rules: Rules, workers: int, budgeted: str) -> None:
    solve_position(Rules(pegs=2, colors=3), np.arange(9))  # kernels loaded
    sim = Simulated(workers, {}, 0.0)
    big = _big(rules.size, workers, budgeted)
    sol, solved, _ = split.search_in_pieces(rules, sim.map, workers=workers, big=big)
    assert sol is not None
    print(json.dumps({"wall": sim.now, "work": sim.busy, "pieces": solved, "total": sol.cost}))


def schedule(args: argparse.Namespace) -> None:
    import subprocess
    import sys

    print(f"machine: {os.cpu_count()} cores; load average at start {os.getloadavg()[0]:.2f}")
    print(f"{'game':<15} {'workers':>7} {'budgeted':>9} {'wall s':>7} {'speed-up':>8} {'work s':>7} busy")
    for name in args.games.split(","):
        alone, size = None, GAMES[name].size
        for workers in (int(w) for w in args.workers.split(",")):
            for budgeted in ("default", "cut", "root"):
                if budgeted != "default" and _big(size, workers, budgeted) == _big(size, workers, "default"):
                    continue  # the default already
                command = [
                    sys.executable,
                    __file__,
                    "one",
                    "--games",
                    name,
                    "--workers",
                    str(workers),
                    "--budgeted",
                    budgeted,
                ]
                run = json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)
                alone = alone or run["wall"]
                busy = run["work"] / (workers * run["wall"])
                print(
                    f"{name:<15} {workers:7d} {budgeted:>9} {run['wall']:7.2f} {alone / run['wall']:8.2f} "
                    f"{run['work']:7.2f} {busy:5.0%}  total {run['total']}  load {os.getloadavg()[0]:.2f}",
                    flush=True,
                )


def sizes(args: argparse.Namespace) -> None:
    import subprocess
    import sys

    print(f"machine: {os.cpu_count()} cores; load average at start {os.getloadavg()[0]:.2f}")
    print(f"{'game':<15} {'largest':>8} {'CPU s':>7} {'pieces':>7}  longest (s, secrets, kind, b: budget)")
    for name in args.games.split(","):
        for part in [0, *(int(p) for p in args.parts.split(","))]:
            command = [sys.executable, __file__, "one", "--games", name, "--part", str(part)]
            run = json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)
            largest = "default" if run["size"] is None else str(run["size"])
            longest = ", ".join(f"{s:.2f} {n} {k}{' b' if b else ''}" for s, n, k, b in run["longest"])
            print(
                f"{name:<15} {largest:>8} {run['work']:7.2f} {run['pieces']:7d}  {longest}  "
                f"total {run['total']}  load {os.getloadavg()[0]:.2f}",
                flush=True,
            )


def main() -> None:
    raw = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=raw)
    sub = parser.add_subparsers(dest="command", required=True)
    m = sub.add_parser("measure")
    m.add_argument("--games", default="4x7,5x5,4x8")
    m.add_argument("--workers", default="1,2")
    m.add_argument("--log", default="split-runs")
    s = sub.add_parser("simulate")
    s.add_argument("--log", required=True)
    s.add_argument("--workers", default="1,2,16,100")
    s.add_argument("--overhead", type=float, default=0.002)
    z = sub.add_parser("sizes")
    z.add_argument("--games", default="4x7,4x8,bulls-and-cows")
    z.add_argument("--parts", default="4,8,16,32")
    h = sub.add_parser("schedule")
    h.add_argument("--games", default="4x7,4x8")
    h.add_argument("--workers", default="1,2,4,8,16,100")
    o = sub.add_parser("one")  # one run of sizes or schedule, in its own process
    o.add_argument("--games", required=True)
    o.add_argument("--part", type=int, default=0)
    o.add_argument("--workers", type=int, default=0)
    o.add_argument("--budgeted", default="default")
    args = parser.parse_args()
    commands = {"measure": measure, "simulate": simulate, "sizes": sizes, "schedule": schedule, "one": one}
    commands[args.command](args)


if __name__ == "__main__":
    main()
