"""Cells of a first guess decided one at a time by the exact worst-case search: a first guess is
refuted for D guesses as soon as one of its cells cannot be found within D - 1.

    python benchmarks/worst_cells.py --game 5x8 --guesses 6 --first 11111,11112,11122,11123 --cells 0,0

For each first guess (in the game's digits) and each cell named (a reply BLACK,WHITE; the
largest cells first when --cells is not given), prints the cell's size, whether its secrets can
all be found within D - 1 more guesses, the sets searched and the seconds. One process, one
memo for the whole run (a cell met again, such as the codes without colours 1 and 2 after 11112
and after 11122, is answered at once). The search is `WorstSearch` as `mastermind worst` runs
it; what it says for a cell is exact, but no proof file is written: the proof format covers a
whole game, not one first guess.
"""

from __future__ import annotations

import argparse
import time

from mastermind import Rules
from mastermind.core.feedback import Feedback
from mastermind.strategies.optimal.symmetry import child_group, root_group
from mastermind.strategies.optimal.worst import WorstSearch
from mastermind.verify.arithmetic import other_replies
from mastermind.verify.files import alphabet


def main() -> None:
    formatter = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=formatter)
    parser.add_argument("--game", default="5x8")
    parser.add_argument("--guesses", type=int, default=6)
    parser.add_argument("--first", required=True, help="first guesses, comma-separated (11111,11112)")
    parser.add_argument("--cells", help="replies BLACK,WHITE separated by ';' (all, largest first, if none)")
    args = parser.parse_args()
    pegs, colors = (int(x) for x in args.game.split("x"))
    rules = Rules(pegs=pegs, colors=colors)
    search = WorstSearch(rules)
    search.limit = args.guesses
    symbols = alphabet(rules)
    for text in args.first.split(","):
        first = tuple(symbols.index(ch) for ch in text)
        group, used = child_group(root_group(pegs, colors), 0, first, colors)
        cells = sorted(search._cells(search._index[first], search.every), key=lambda fc: -len(fc[1]))
        wanted = None if args.cells is None else set(args.cells.split(";"))
        for f, cell in cells:
            reply = Feedback.from_int(f, pegs)
            if wanted is not None and f"{reply.black},{reply.white}" not in wanted:
                continue
            before, started = search.nodes, time.perf_counter()
            ok, _ = search._solve(cell, args.guesses - 1, other_replies(pegs), group, used, 1)
            seconds, sets = time.perf_counter() - started, search.nodes - before
            within = f"within {args.guesses - 1} more: {'yes' if ok else 'no'}"
            print(
                f"{text} cell {reply.black},{reply.white}: {len(cell):,} secrets, {within} ({sets:,} sets, "
                f"{seconds:.1f} s)",
                flush=True,
            )
            if not ok:
                print(f"{text} cannot begin a tree of at most {args.guesses} guesses", flush=True)
                break


if __name__ == "__main__":
    main()
