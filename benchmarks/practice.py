"""Speed of practice from your mistakes (Review.practice, Practice.attempt): how long a try takes
to be valued once the game is reviewed (the position's own values are already known).

For ``--games`` random classic games of a careless player (a possible code, or one time in three
any code, from a fixed seed), each reviewed in this process, every position before a mistake or
blunder is tried with ``--tries`` guesses drawn from the whole game; it prints the positions, the
tries, and the median and largest time of a try (each try's own reply classes are searched: the
numpy search of small positions in the classic game).

    python benchmarks/practice.py                  # 20 games, 5 tries a position
    python benchmarks/practice.py --games 40 --tries 10
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import time

from machine import cpu_model

from mastermind import CodeSpace, Rules, SolverState, review, score


def careless_game(rng: random.Random, rules: Rules) -> str:
    space = CodeSpace.of(rules)
    secret = space.code(rng.randrange(space.size)).colors
    state, rows = SolverState(rules), []
    while True:
        codes = state.candidate_indices()
        pick = rng.randrange(space.size) if rng.random() < 1 / 3 else int(rng.choice(list(codes)))
        guess = space.code(pick).colors
        reply = score(guess, secret)
        rows.append(f"{''.join(str(c + 1) for c in guess)}={reply.black},{reply.white}")
        state = state.add(space.code(pick), reply)
        if reply.black == rules.pegs or len(rows) == rules.max_guesses:
            return " ".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--tries", type=int, default=5)
    parser.add_argument("--seed", type=int, default=48)
    args = parser.parse_args()
    load = os.getloadavg()[0]
    python = platform.python_version()
    print(f"machine: {cpu_model()}, {os.cpu_count()} cores; load average {load:.2f}; python {python}")
    rng, rules = random.Random(args.seed), Rules()
    space = CodeSpace.of(rules)
    times: list[float] = []
    positions = 0
    for _ in range(args.games):
        practice = review(careless_game(rng, rules)).practice()
        for position in practice.positions:
            positions += 1
            for _ in range(args.tries):
                guess = space.code(rng.randrange(space.size))
                started = time.perf_counter()
                practice.attempt(position, guess)
                times.append(time.perf_counter() - started)
    print(f"{args.games} games, {positions} positions, {len(times)} tries")
    if times:
        print(f"a try: median {statistics.median(times):.4f} s, largest {max(times):.4f} s")
    print(f"load average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
