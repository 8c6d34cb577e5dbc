"""The worst-case decision search on several processes (strategies/optimal/worst_in_pieces.py) against
the plain search in one process: wall seconds, sets searched, the answer and the size of its
proof or tree, for each number of workers.

    python benchmarks/worst_split.py --games 4x9:6,5x6:5 --workers 1,2
    python benchmarks/worst_split.py --games 4x9:6 --workers 1,4,8,16 --save runs/

GAME:D asks "can every secret of GAME be found within D guesses?" (4x9:6 is a no, 57,752 nodes of
proof, the plain search's longest here; 5x7:6 a yes). "1" is the plain search (WorstSearch, this
process alone); N > 1 the split search on N worker processes. Every run of a game must give the
same answer (asserted). With --save DIR each run's proof or tree is written to DIR (GAME-DwN.gz)
for `mastermind verify`. Each game's reply matrix and compiled kernels are made ready before the
first timed run (not timed); every run then starts from an empty memo.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from machine import machine_line  # benchmarks/machine.py: the scripts run from this folder

from mastermind import Rules
from mastermind.strategies.optimal.worst import WorstSearch
from mastermind.strategies.optimal.worst_in_pieces import WorstSearchInPieces


def _game(text: str) -> tuple[str, Rules, int]:
    name, limit = text.split(":")
    pegs, colors = (int(x) for x in name.split("x"))
    return name, Rules(pegs=pegs, colors=colors), int(limit)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", default="4x7:5,5x6:5,5x7:6")
    parser.add_argument("--workers", default="1,2")
    parser.add_argument("--save", metavar="DIR")
    args = parser.parse_args()
    print(machine_line())
    print(f"{'game':8} {'within':>6} {'workers':>7} {'wall s':>8} {'sets':>10} {'answer':>7} {'nodes':>8}")
    for text in args.games.split(","):
        name, rules, limit = _game(text)
        WorstSearch(rules).decide(2)  # the kernels compiled or loaded, the reply matrix built once
        answers = set()
        for n in (int(w) for w in args.workers.split(",")):
            search = WorstSearch(rules) if n == 1 else WorstSearchInPieces(rules, n)
            started = time.perf_counter()
            found = search.decide(limit)
            wall = time.perf_counter() - started
            made = found.tree if found.possible else found.proof
            assert made is not None
            size = made.header["nodes"]
            answers.add(found.possible)
            answer = "yes" if found.possible else "no"
            print(
                f"{name:8} {limit:>6} {n:>7} {wall:>8.2f} {found.nodes:>10,} {answer:>7} {size:>8,}  "
                f"load {os.getloadavg()[0]:.2f}",
                flush=True,
            )
            if args.save:
                Path(args.save).mkdir(parents=True, exist_ok=True)
                made.write(
                    str(Path(args.save) / f"{name}-{limit}w{n}.{'tree' if found.possible else 'proof'}.gz")
                )
        assert len(answers) == 1, f"{name}: the runs disagree"


if __name__ == "__main__":
    main()
