"""How fast is seed 004's counter, and how many guesses does it need?

Prints, for several game sizes, the median wall time of one whole game of ``counter`` (random
colour tables, as seed 004 plays it), measured with :func:`mastermind.play` on a seeded random
sample of secrets; then the classic distribution over every secret (once per seed) next to the
table of seed 004.

    python benchmarks/counter_speed.py                 # the figures of docs/counter.md
    python benchmarks/counter_speed.py --games 50 --seeds 2
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time

import numpy as np

from mastermind import CodeSpace, Rules, make_strategy, play
from mastermind.research.evaluation import sample_secrets

SIZES = [(4, 6), (6, 9), (8, 10), (10, 10)]
EXTRA = [(10, 20)]

#: Seed 004's results for 4 pegs and 6 colours, in percent of games.
SEED_004 = {1: 0.08, 2: 0.94, 3: 7.84, 4: 32.83, 5: 43.20, 6: 13.99, 7: 1.09, 8: 0.03}
SEED_004_MEAN = 4.65


def time_games(pegs: int, colors: int, games: int, seed: int) -> tuple[list[float], list[int]]:
    """Seconds and guesses of each game against a seeded sample of secrets."""
    rules = Rules(pegs=pegs, colors=colors, max_guesses=100)
    counter = make_strategy("counter", rules)
    secrets = sample_secrets(rules, games, seed=seed)
    play(counter, int(secrets[0]), seed=seed)  # compile / load the kernel outside the timing
    seconds, guesses = [], []
    for secret in secrets:
        started = time.perf_counter()
        played = play(counter, int(secret), seed=seed)
        seconds.append(time.perf_counter() - started)
        guesses.append(len(played))
    return seconds, guesses


def classic_distribution(seeds: int) -> dict[int, int]:
    """Guesses needed for every classic secret, once for each seed 0..seeds-1."""
    rules = Rules()
    counter = make_strategy("counter", rules)
    out: dict[int, int] = {}
    for seed in range(seeds):
        for secret in range(CodeSpace.of(rules).size):
            n = len(play(counter, secret, seed=seed))
            out[n] = out.get(n, 0) + 1
    return dict(sorted(out.items()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="secrets per size [200]")
    parser.add_argument("--seeds", type=int, default=20, help="classic runs over all 1296 secrets [20]")
    parser.add_argument("--seed", type=int, default=1, help="seed of the samples and tables [1]")
    parser.add_argument("--extra", action="store_true", help="also time 10 pegs, 20 colours")
    args = parser.parse_args()

    print(f"python {platform.python_version()}, numpy {np.__version__}, {os.cpu_count()} cpus")
    print(f"counter, random colour tables, {args.games} seeded random secrets per size (seed {args.seed})")
    header = ("game", "median ms", "mean ms", "p90 ms", "max ms", "guesses", "max")
    print("{:>8} {:>10} {:>9} {:>8} {:>9} {:>8} {:>4}".format(*header))
    for pegs, colors in SIZES + (EXTRA if args.extra else []):
        seconds, guesses = time_games(pegs, colors, args.games, args.seed)
        ms = np.array(seconds) * 1000
        print(
            f"{pegs:>3}x{colors:<4} {statistics.median(ms):>10.3f} {ms.mean():>9.3f} "
            f"{np.percentile(ms, 90):>8.3f} {ms.max():>9.3f} {np.mean(guesses):>8.2f} {max(guesses):>4}",
            flush=True,
        )

    dist = classic_distribution(args.seeds)
    games = sum(dist.values())
    mean = sum(k * n for k, n in dist.items()) / games
    print(f"\nclassic 4x6, every secret once per seed 0..{args.seeds - 1} ({games:,} games)")
    print(f"{'guesses':>8} {'ours':>8} {'seed 004':>9} {'games':>7}")
    for k in sorted(set(dist) | set(SEED_004)):
        ours = 100 * dist.get(k, 0) / games
        print(f"{k:>8} {ours:>7.2f}% {SEED_004.get(k, 0):>8.2f}% {dist.get(k, 0):>7}")
    print(f"{'mean':>8} {mean:>8.3f} {SEED_004_MEAN:>9.2f}")


if __name__ == "__main__":
    main()
