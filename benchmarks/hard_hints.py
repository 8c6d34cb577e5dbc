"""How long a hint in hard mode takes where the strategy's own guess cannot be the secret.

For each seed, a game broken by a person in hard mode with the optimal strategy's hints: the
first guess is played, then a hint is asked for. Where the strategy's guess is not one of the
codes still possible, the hint is the possible code that costs least to play
(``Optimal.pick_possible``: each possible code searched as the position's guess); those are
marked ``passed over``. Prints each hint's seconds, and the most and the sum of those passed
over. Each game's strategy is new, so nothing is taken from a cache of an earlier hint.

    python benchmarks/hard_hints.py --game 4x8 --first 1123 --seeds 12
    PYTHONPATH=/tmp/old/src python benchmarks/hard_hints.py ...   # another version
"""

from __future__ import annotations

import argparse
import time

from machine import cpu_model  # benchmarks/machine.py: the scripts run from this folder

from mastermind import Rules
from mastermind.games.game import Game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="4x8", help="PxC, e.g. 4x8")
    parser.add_argument("--first", default="1123", help="the first guess played")
    parser.add_argument("--seeds", type=int, default=12, help="games, seeds 0 to N - 1")
    args = parser.parse_args()
    pegs, colors = map(int, args.game.split("x"))
    rules = Rules(pegs=pegs, colors=colors)
    print(f"{rules.describe()}, first guess {args.first}, on {cpu_model()}")
    passed = []
    for seed in range(args.seeds):
        game = Game.breaking(rules, seed=seed, strategy="optimal", hard=True)
        game.guess(args.first)
        if game.over:
            continue
        began = time.perf_counter()
        hint = game.hint()
        seconds = time.perf_counter() - began
        if hint.passed_over is not None:
            passed.append(seconds)
        said = f"passed over {hint.passed_over}" if hint.passed_over is not None else "its own guess"
        print(f"  seed {seed}: hint {hint.guess} ({said}) in {seconds:.2f} s")
    if passed:
        print(f"passed over: {len(passed)} hints, at most {max(passed):.2f} s, {sum(passed):.2f} s in all")


if __name__ == "__main__":
    main()
