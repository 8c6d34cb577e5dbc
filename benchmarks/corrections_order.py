"""How often the correction listed first is the true one, for two orders of a contradiction's
corrections (``mastermind guess``, the boards: :func:`mastermind.suggest_corrections`).

A game is simulated: a secret and random guesses, their true replies, then one reply misjudged by
one key peg (a peg added, dropped, or a black given for a white), in a row drawn uniformly. The
game counts when the contradiction shows at the last reply (the rows before it still fit a code),
as a player meets it. For each order it prints how often its first correction is the true reply.

* ``fewest pegs away``: the library's order (the fewest key pegs from the reply given, then the
  last row first, then later rows);
* ``last row first``: the last row's corrections (but the all-black one) before every other,
  then as above.

    python benchmarks/corrections_order.py                  # classic, 5 rows, 2,000 games
    python benchmarks/corrections_order.py --rows 4 --games 5000 --seed 2
"""

from __future__ import annotations

import argparse
import random

from mastermind import Feedback, Rules, SolverState, score
from mastermind.core.code import CodeSpace
from mastermind.deduction.state import Correction, slip, suggest_corrections


def one_peg_off(fb: Feedback, pegs: int) -> list[Feedback]:
    b, w = fb.black, fb.white
    near = [(b + 1, w), (b, w + 1), (b - 1, w), (b, w - 1), (b + 1, w - 1), (b - 1, w + 1)]
    return [
        Feedback(x, y)
        for x, y in near
        if x >= 0 and y >= 0 and x + y <= pegs and x < pegs and (x, y) != (pegs - 1, 1)
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=5, help="rows of each game [5]")
    parser.add_argument("--games", type=int, default=2000, help="games that show a contradiction [2000]")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rules = Rules()
    space = CodeSpace.of(rules)
    rng = random.Random(args.seed)
    n = args.rows

    def fewest_pegs(rows: list, c: Correction) -> tuple:
        return (slip(rows[c.row][1], c.reply), c.row != n - 1, -c.row, c.reply)

    def last_first(rows: list, c: Correction) -> tuple:
        return (not (c.row == n - 1 and c.reply.black != rules.pegs), *fewest_pegs(rows, c))

    orders = {"fewest pegs away": fewest_pegs, "last row first": last_first}
    first = dict.fromkeys(orders, 0)
    misjudged_last = games = 0
    while games < args.games:
        secret = space.code(rng.randrange(space.size))
        guesses = [space.code(rng.randrange(space.size)) for _ in range(n)]
        replies = [score(g, secret) for g in guesses]
        if any(f.black == rules.pegs for f in replies):
            continue
        row = rng.randrange(n)
        true = replies[row]
        replies[row] = rng.choice(one_peg_off(true, rules.pegs))
        rows = list(zip(guesses, replies, strict=True))
        before = SolverState(rules, rows[:-1])
        if suggest_corrections(rules, rows[:-1]) or not len(before.candidates()):
            continue  # the contradiction showed earlier, or the rows before the last do not fit
        found = suggest_corrections(rules, rows)
        if not found:
            continue
        games += 1
        misjudged_last += row == n - 1
        for name, key in orders.items():
            top = min(found, key=lambda c, key=key: key(rows, c))
            first[name] += top.row == row and top.reply == true
    print(
        f"{games:,} classic games of {n} rows, one reply one key peg off "
        f"(the last one in {misjudged_last / games:.0%}):"
    )
    for name, count in first.items():
        print(f"  {name:<17} the true correction first in {count / games:.1%}")


if __name__ == "__main__":
    main()
