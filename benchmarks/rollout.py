"""The rollout strategy's trees: total, mean, max and time per game, beside the best criterion's.

Each game runs `mastermind evaluate --strategy rollout --json --no-history` in a fresh process
(whole process, wall clock and CPU seconds of the process and its threads), then the four greedy
criteria the same way, and prints the least of their totals beside the rollout's. With
``--save DIR`` each rollout tree is written there as GAME-rollout.tree.gz (what results/ holds).

    python benchmarks/rollout.py                         # classic, 4x7, 5x5, 4x8, Bulls and Cows
    python benchmarks/rollout.py --games 5x7,5x8,6x6 --save /tmp/trees   # the unsolved games
"""

from __future__ import annotations

import argparse
import json
import os
import platform

from machine import cpu_model, mastermind, timed  # benchmarks/machine.py: the scripts run from this folder

GAMES = {
    "classic": ["-p", "4", "-c", "6"],
    "4x7": ["-p", "4", "-c", "7"],
    "5x5": ["-p", "5", "-c", "5"],
    "4x8": ["-p", "4", "-c", "8"],
    "bulls-and-cows": ["--preset", "bulls-and-cows"],
    "4x9": ["-p", "4", "-c", "9"],
    "5x6": ["-p", "5", "-c", "6"],
    "4x10": ["-p", "4", "-c", "10"],
    "5x7": ["-p", "5", "-c", "7"],
    "5x8": ["-p", "5", "-c", "8"],
    "6x6": ["-p", "6", "-c", "6"],
}
DEFAULT = "classic,4x7,5x5,4x8,bulls-and-cows"
CRITERIA = ("entropy", "most-parts", "expected-size", "knuth")


def one(args: list[str]) -> tuple[float, float, dict]:
    """Wall and CPU seconds of one process, and its JSON."""
    wall, cpu, out = timed([mastermind(), "evaluate", *args, "--json", "--no-history"])
    return wall, cpu, json.loads(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", default=DEFAULT, help=f"comma-separated, of: {', '.join(GAMES)}")
    parser.add_argument("--save", metavar="DIR", help="write each rollout tree there")
    options = parser.parse_args()
    games = [g.strip() for g in options.games.split(",") if g.strip()]
    unknown = [g for g in games if g not in GAMES]
    if unknown:
        parser.error(f"unknown game {unknown[0]!r}; choose among {', '.join(GAMES)}")
    print(
        f"machine: {cpu_model()}, {os.cpu_count()} cores, {platform.machine()}; "
        f"load average {os.getloadavg()[0]:.2f} at start"
    )
    print(
        f"{'game':16} {'first':>7} {'total':>8} {'mean':>7} {'max':>4} {'wall s':>8} {'cpu s':>8}"
        f" {'best criterion':>22}"
    )
    for game in games:
        args = ["--strategy", "rollout", *GAMES[game]]
        if options.save:
            args += ["--save", os.path.join(options.save, f"{game}-rollout.tree.gz")]
        wall, cpu, out = one(args)
        criteria = {name: one(["--strategy", name, *GAMES[game]])[2]["total"] for name in CRITERIA}
        best = min(criteria, key=lambda name: criteria[name])
        print(
            f"{game:16} {out['first_guess']:>7} {out['total']:>8} {out['mean']:>7.4f} {out['max']:>4}"
            f" {wall:>8.1f} {cpu:>8.1f} {f'{criteria[best]} ({best})':>22}",
            flush=True,
        )
    print(f"load average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
