"""What the guided proof of an optimum would take on many cores: its pieces timed on one process,
then its schedule replayed for P cores.

The proof (`prove_optimum`, on worker processes) runs in rounds:

* at the root, each raised guess's cells' exact costs (one search each, on the prover's threads)
  and the root's guesses bounded a level down (one call per guess, on its threads);
* then, for each root guess raised, the sets one guess deep below it: each set's guesses bounded
  a level down (on the prover's threads), then each of its guesses that falls short of the
  claim raised by a worker process (a task), then its line written (the prover alone).

This script proves the game on one process, timing each of those pieces (CPU seconds of this
process, so a machine shared at a low priority changes little), and replays them for P cores,
each round's pieces dealt out the longest first, each to the core free first, with what the
prover does alone added. "One set at a time" replays the prover as it was until 2026-11-28,
which waited for all of a set's tasks before it began the next set; "sets overlapped" as it is
now, which sends the next set's tasks while a set's last ones run (all the sets under a root
guess dealt out together: the prover keeps two tasks per worker waiting, so it comes near
that). The last column is what no schedule can beat: the work over P, or the longest piece.
Forking and sending the tasks are not counted, nor the cells a worker bounds again for its
guess; a run on P real cores shares caches and memory bandwidth that one process does not.

    python benchmarks/guided_schedule.py --games 4x7,4x8 --cores 1,2,4,16,100
"""

from __future__ import annotations

import argparse
import heapq
import os
import time
from dataclasses import dataclass, field

from guided_proof import GAMES
from machine import machine_line

from mastermind import Rules
from mastermind.strategies.optimal import guided as guided_module
from mastermind.strategies.optimal.run import _Run


@dataclass
class Round:
    """Pieces that run side by side, and what the prover does alone after them."""

    pieces: list[float] = field(default_factory=list)
    alone: float = 0.0
    inner: float = 0.0  # the time of the rounds within it
    kind: str = "root"  # "exact" (a root guess's cells' costs), "set" (a set one guess deep's)


def timed_proof(pegs: int, colors: int, optimum: int) -> tuple[list[Round], float, int]:
    """The proof's rounds, its whole time and its lines, on this one process."""
    rounds: list[Round] = []
    where: list[Round | None] = [None]  # the round the pieces now timed go to (None: inside a piece)
    clock = time.process_time
    guided = guided_module._Guided
    cells, raise_guess, close, deepen = guided.cells, guided.raise_guess, guided.close, guided.deepen
    exact, call = guided.exact, _Run.kernel_call

    def piece(fn, depth_of):  # fn timed as a piece of the current round where its depth says so
        def wrapped(self, *args, **kwargs):
            here = where[0]
            if here is None or not depth_of(*args):
                return fn(self, *args, **kwargs)
            where[0] = None
            began = clock()
            try:
                return fn(self, *args, **kwargs)
            finally:
                here.pieces.append(clock() - began)
                where[0] = here

        return wrapped

    def new_round(fn, depth_of, kind):  # fn opens a round (its pieces inside it), and the prover's rest
        def wrapped(self, *args, **kwargs):
            outer = where[0]
            if outer is None or not depth_of(*args):
                return fn(self, *args, **kwargs)
            mine = Round(kind=kind)
            rounds.append(mine)
            where[0] = mine
            began = clock()
            try:
                return fn(self, *args, **kwargs)
            finally:
                elapsed = clock() - began
                mine.alone = elapsed - sum(mine.pieces) - mine.inner
                outer.inner += elapsed
                where[0] = outer

        return wrapped

    guided.cells = piece(cells, lambda node, *rest: len(node.history) <= 1)
    guided.raise_guess = piece(raise_guess, lambda node, *rest: len(node.history) == 1)
    _Run.kernel_call = piece(call, lambda *args: True)  # (only the root's: the others are inside pieces)
    guided.close = new_round(close, lambda node, claim: len(node.history) == 1, "set")
    guided.deepen = new_round(deepen, lambda node, cap: len(node.history) == 1, "set")
    guided.exact = new_round(exact, lambda cells, budgets: all(len(c.history) == 1 for c in cells), "exact")
    try:
        # (compiled, or read from its cache)
        guided_module.prove_optimum(Rules(pegs=3, colors=4), 206, workers=1)
        rounds.clear()
        top = Round()
        rounds.append(top)  # the root's own: its guesses bounded, and what the prover does alone
        where[0] = top
        began = clock()
        found = guided_module.prove_optimum(Rules(pegs=pegs, colors=colors), optimum, workers=1)
        whole = clock() - began
    finally:
        guided.cells, guided.raise_guess, guided.close, guided.deepen = cells, raise_guess, close, deepen
        guided.exact, _Run.kernel_call = exact, call
    top.alone = whole - sum(top.pieces) - top.inner
    assert found.total == optimum
    return rounds, whole, found.proof.header["nodes"]


def makespan(pieces: list[float], cores: int) -> float:
    """The longest first, each to the core free first."""
    free = [0.0] * min(cores, max(1, len(pieces)))
    for length in sorted(pieces, reverse=True):
        heapq.heappush(free, heapq.heappop(free) + length)
    return max(free)


def overlapped(rounds: list[Round], cores: int) -> float:
    """The rounds replayed with the sets one guess deep under each root guess all in flight at
    once (their pieces dealt out together)."""
    out, batch = 0.0, []
    for r in [*rounds, Round(kind="exact")]:
        out += r.alone
        if r.kind == "set":
            batch += r.pieces
            continue
        out += makespan(batch, cores) + makespan(r.pieces, cores)
        batch = []
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="4x7", help="comma-separated: " + ", ".join(GAMES))
    parser.add_argument("--cores", default="1,2,4,8,16,32,100", help="numbers of cores, comma-separated")
    args = parser.parse_args()
    print(machine_line())
    for game in args.games.split(","):
        rounds, whole, lines = timed_proof(*GAMES[game])
        pieces = [p for r in rounds for p in r.pieces]
        alone = sum(r.alone for r in rounds)
        longest = max(pieces)
        print(
            f"{game}: {whole:.1f} s of CPU on one process, {lines:,} lines; {len(rounds):,} rounds, "
            f"{len(pieces):,} pieces (longest {longest:.2f} s); the prover alone {alone:.1f} s"
        )
        heads = f"{'one set at a time, s':>20} {'sets overlapped, s':>18} {'speed-up':>9} {'bound, s':>9}"
        print(f"{'cores':>7} {heads}")
        for cores in (int(c) for c in args.cores.split(",")):
            replay = sum(r.alone + makespan(r.pieces, cores) for r in rounds)
            now, bound = overlapped(rounds, cores), max(whole / cores, longest)
            print(f"{cores:>7} {replay:20.1f} {now:18.1f} {whole / now:9.1f} {bound:9.1f}")
    print(f"load {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
