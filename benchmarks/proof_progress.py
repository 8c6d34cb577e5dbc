"""Where a guided proof's checkpoint stands at the root: what each first guess is known to cost.

A guided proof (`prove_optimum`) first asks the exact search for the cost of every cell of every
root guess (each search kept in its checkpoint as it ends), then proves the cells. This script
reads one or more checkpoints (the records of a proof's side runs too) and prints, for each root
guess (the least code of its class), its one-level bound (the guess's secrets plus its cells'
least guess bounds) and that bound with the exact costs found so far put in for their cells'
bounds: each cost is the search's (a cell whose search reached its budget costs at least that).
A guess whose figure passes a total costs at least that much as a first guess, by the search.
Nothing here is a checkable proof.

    python benchmarks/proof_progress.py --game 5x7 --optimum 85645 \
        results/unfinished/5x7-lower.checkpoint.jsonl.xz

A proof within a guess limit is read with ``--within`` (4x10 within 7: ``--game 4x10 --optimum
55634 --within 7``).

With ``--cells``, each guess's cells too, the largest first: the cell's size and what its exact
cost adds to its bound, or ``?`` where it is not found yet.

With ``--left``, what proving each root guess asks below its cells, once every cost its cells
ask is found: each cell's claim is its share of the guess's shortfall, as the prover shares it
(in proportion to what the cell costs over its bound); each cell is bounded a level deeper, and
the guesses at it short of its claim counted (a task each, for a worker) with their cells (each
a search, and a set to prove where its share is not nothing): the work of the whole proof below
the root, of which the checkpoint holds what is done. Some minutes for 5x7.
"""

from __future__ import annotations

import argparse
import lzma
import shutil
import tempfile
from pathlib import Path

import numpy as np

from mastermind import Rules
from mastermind.strategies.optimal.guided import _Guided, shares_of
from mastermind.strategies.optimal.lower import _Set
from mastermind.strategies.optimal.proof_book import _Book
from mastermind.strategies.optimal.symmetry import root_group
from mastermind.verify.files import code_text


def costs_found(
    rules: Rules, paths: list[str], within: int | None = None
) -> dict[tuple[tuple[int, ...], str, int], int]:
    """The exact costs in the checkpoints (``.xz`` ones unpacked to a temporary copy first: a
    checkpoint is opened to be written to)."""
    found: dict[tuple[tuple[int, ...], str, int], int] = {}
    with tempfile.TemporaryDirectory() as folder:
        for i, path in enumerate(paths):
            copy = Path(folder) / f"{i}.jsonl"
            if path.endswith(".xz"):
                copy.write_bytes(lzma.decompress(Path(path).read_bytes()))
            else:
                shutil.copyfile(path, copy)
            found.update(_Book(copy, rules, compact=True, within=within).costs)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", required=True, help="PxC, e.g. 5x7")
    parser.add_argument("--optimum", type=int, required=True, help="the optimum the proof aims at")
    parser.add_argument("checkpoints", nargs="+", help="checkpoint files (JSON lines, or .xz)")
    parser.add_argument(
        "--cells",
        action="store_true",
        help="each guess's cells, the largest first: SIZE:GAIN (cost over bound), or SIZE:? (not found)",
    )
    parser.add_argument("--left", action="store_true", help="the work below each root guess's cells")
    parser.add_argument("--within", type=int, help="the proof's guess limit, if it has one")
    args = parser.parse_args()
    pegs, colors = map(int, args.game.split("x"))
    rules = Rules(pegs=pegs, colors=colors)
    found = costs_found(rules, args.checkpoints, args.within)
    prover = _Guided(rules, None, workers=1, within=args.within)
    codes = np.arange(rules.size, dtype=np.int64)
    root = _Set(codes, (), root_group(pegs, colors), 0, int(prover.lb[rules.size]))
    prover.deepen(root, args.optimum)
    assert root.guesses is not None
    print(f"{rules.describe()}: {len(found)} exact costs found; each root guess costs at least")
    for g in sorted(root.guesses, key=lambda g: prover.value(root, g)):
        short = prover.short(root, g, args.optimum)
        cells = list(root.guesses[g].values())
        costs = [found.get(_Book.key(cell, cell.low + short)) for cell in cells]
        gains = [cost - c.low for c, cost in zip(cells, costs, strict=True) if cost is not None]
        bound = prover.value(root, g) + sum(gains)
        known = len(gains)
        print(
            f"  {code_text(rules, prover.colours[g])}: {prover.value(root, g):,} (one level), "
            f"{bound:,} with the {known} of its {len(cells)} cells' costs found"
        )
        if args.cells:
            pairs = sorted(zip(cells, costs, strict=True), key=lambda pair: -len(pair[0].S))
            shown = (f"{len(c.S)}:{'?' if cost is None else cost - c.low}" for c, cost in pairs)
            print("    " + " ".join(shown))
        if args.left and short and known == len(cells):
            tasks, searches = below(prover, cells, gains, short)  # (every cost found: a gain each)
            print(f"    below it: {tasks:,} guesses one guess deep short of their claims, {searches:,} cells")


def below(prover: _Guided, cells: list[_Set], spare: list[int], short: int) -> tuple[int, int]:
    """The guesses at the cells short of the cells' claims (their shares of ``short``, as
    :meth:`~mastermind.strategies.optimal.guided._Guided.raise_guess` shares it), and their cells."""
    order = sorted(range(len(cells)), key=lambda i: -len(cells[i].S))  # (the prover's order)
    cells = [cells[i] for i in order]
    shares = shares_of([spare[i] for i in order], short)
    tasks = searches = 0
    for cell, share in zip(cells, shares, strict=True):
        if share <= 0:
            continue
        claim = cell.low + share
        prover.deepen(cell, claim)
        assert cell.guesses is not None
        short_ones = [g for g in cell.guesses if prover.short(cell, g, claim)]
        tasks += len(short_ones)
        searches += sum(len(cell.guesses[g]) for g in short_ones)
        cell.guesses = None
    return tasks, searches


if __name__ == "__main__":
    main()
