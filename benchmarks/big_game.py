"""One partition strategy over every secret of a large game, with progress, time and peak memory.

python benchmarks/big_game.py 6 9 most-parts
"""

from __future__ import annotations

import resource
import sys
import time

from mastermind import Rules, evaluate, make_strategy
from mastermind.research import Progress


def main() -> None:
    if len(sys.argv) != 4:
        sys.exit("usage: python benchmarks/big_game.py PEGS COLORS STRATEGY")
    rules = Rules(pegs=int(sys.argv[1]), colors=int(sys.argv[2]))
    strategy = make_strategy(sys.argv[3], rules)
    started = time.perf_counter()
    last = [started]

    def progress(status: Progress) -> None:
        now = time.perf_counter()
        if now - last[0] > 30:
            last[0] = now
            print(
                f"  {status.secrets_done:>9,} of {rules.size:,} secrets after {now - started:.0f} s",
                flush=True,
            )

    stats = evaluate(strategy, progress=progress)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    first = stats.to_dict()["first_guess"]
    print(
        f"{stats.strategy} on {rules.describe()}: first {first}, total {stats.total}, "
        f"mean {stats.mean:.4f}, max {stats.max}, {time.perf_counter() - started:.1f} s, "
        f"peak {peak} MiB"
    )
    print("distribution", stats.distribution)


if __name__ == "__main__":
    main()
