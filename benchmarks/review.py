"""Speed of the review (mastermind review): a game valued move by move against the optimum.

For each game (a classic game, a 4 pegs 7 colours game and a Bulls and Cows game, each a line of
Knuth's strategy against a fixed secret with one wasted guess, so that the review leaves the
optimal tree and searches) it prints:

* setup: the game's optimal tree computed into a fresh cache directory (once per machine in real
  use: the tree is then kept in the user cache);
* ``mastermind review HISTORY --json`` as a whole process (start, tree read, searches, output):
  first with no position cached (every position off the tree searched), then again (the
  positions searched kept in the cache);
* each move, from a run of the library in a fresh process with no position cached (the compiled
  search loaded first, its time printed apart): the codes before, the positions searched for
  it, its seconds, whether it was valued exactly.

    python benchmarks/review.py                     # classic, 4x7, bulls-and-cows
    python benchmarks/review.py --games classic     # a subset
    python benchmarks/review.py --budget 10         # the exact search's budget per move [3]
    python benchmarks/review.py --trees ~/.cache/mastermind-lab   # trees already searched
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time

from machine import cpu_model  # benchmarks/machine.py: the scripts run from this folder

#: The games: their options, the secret, and the guess wasted before the secret is played.
GAMES = {
    "classic": (["--pegs", "4", "--colors", "6"], "2154", "1111"),
    "4x7": (["--pegs", "4", "--colors", "7"], "7261", "1111"),
    "bulls-and-cows": (["--preset", "bulls-and-cows"], "5283", "0123"),
}

PER_MOVE = """
import json, sys, time
from mastermind._kernels import quick_start
quick_start()  # as the command line does
from mastermind import Rules, review
from mastermind.core.records import rules_from_dict
rules = rules_from_dict(json.loads(sys.argv[1]))
import numpy as np
from mastermind.strategies.optimal.search import solve_position
started = time.perf_counter()
solve_position(rules, np.arange(3), left=3)  # the compiled search loaded: not a move's time
load = time.perf_counter() - started
r = review(sys.argv[2], rules, budget=float(sys.argv[3]))
moves = [[m.number, m.before, m.searched, m.seconds, m.exact, m.verdict] for m in r.moves]
print(json.dumps({"load": load, "moves": moves}))
"""


def mastermind() -> str:
    beside = os.path.join(os.path.dirname(sys.executable), "mastermind")
    return beside if os.path.exists(beside) else "mastermind"


def history_of(args: list[str], secret: str, wasted: str) -> tuple[dict, str]:
    """The rules (as JSON) and the history of Knuth's line against ``secret``, with ``wasted``
    played once the code is down to a few codes (a typical slip), then the secret."""
    from mastermind import Notation, Rules, SolverState, make_strategy, score
    from mastermind.core.records import rules_to_dict

    pairs = dict(zip(args[::2], args[1::2], strict=True))
    if pairs.get("--preset") == "bulls-and-cows":
        rules = Rules(pegs=4, colors=10, repeats=False)
    else:
        rules = Rules(pegs=int(pairs["--pegs"]), colors=int(pairs["--colors"]))
    notation = Notation(rules)
    knuth = make_strategy("knuth", rules)
    state = SolverState(rules)
    code = notation.parse_code(secret)
    items = []
    slipped = False
    while True:
        left = len(state.candidate_indices())
        if left <= 3 and not slipped:
            guess = notation.parse_code(wasted)
            slipped = True
        else:
            guess = state.space.code(knuth.choose(state))
        reply = score(guess.colors, code.colors)
        items.append(f"{notation.format_code(guess)}={reply.black},{reply.white}")
        if reply.black == rules.pegs:
            return rules_to_dict(rules), " ".join(items)
        state = state.add(guess, reply)


def timed(command: list[str], cache: str) -> tuple[float, str]:
    env = {**os.environ, "MASTERMIND_CACHE_DIR": cache}
    started = time.perf_counter()
    out = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    return time.perf_counter() - started, out.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", help="comma-separated subset: " + ", ".join(GAMES))
    parser.add_argument("--budget", type=float, default=3.0, help="seconds of exact search per move [3]")
    parser.add_argument("--trees", metavar="DIR", help="copy the optimal trees from DIR (a cache directory, "
                        "as MASTERMIND_CACHE_DIR) instead of searching them")  # fmt: skip
    options = parser.parse_args()
    games = {k: v for k, v in GAMES.items() if not options.games or k in options.games.split(",")}
    print(f"machine: {cpu_model()}, {os.cpu_count()} cores, {platform.machine()}; "
          f"load average {os.getloadavg()[0]:.2f} at start; python {platform.python_version()}")  # fmt: skip
    for label, (args, secret, wasted) in games.items():
        rules, history = history_of(args, secret, wasted)
        with tempfile.TemporaryDirectory() as cache:
            print(f"\n{label}: {history}")
            if options.trees:
                shutil.copytree(os.path.join(options.trees, "optimal"), os.path.join(cache, "optimal"))
                print(f"  setup: the optimal trees copied from {options.trees}")
            else:
                evaluate = [mastermind(), "evaluate", "-s", "optimal", "--json", "--no-history", *args]
                seconds, _ = timed(evaluate, cache)
                print(f"  setup: the optimal tree searched and cached in {seconds:.1f} s")
            budget = ["--budget", str(options.budget)]
            review = [mastermind(), "review", *args, *budget, "--json", *history.split()]
            cold, out = timed(review, cache)
            summary = json.loads(out)["summary"]
            warm, _ = timed(review, cache)
            print(f"  mastermind review, whole process: {cold:.2f} s with no position cached, "
                  f"{warm:.2f} s with the positions cached")  # fmt: skip
            print(f"  summary: {summary}")
            shutil.rmtree(os.path.join(cache, "positions"), ignore_errors=True)
            _, out = timed([sys.executable, "-c", PER_MOVE, json.dumps(rules), history, str(options.budget)],
                           cache)  # fmt: skip
            per_move = json.loads(out)
            print(f"  in one process: the compiled search loaded in {per_move['load']:.2f} s, then")
            print(f"  {'move':>4}  {'codes':>6}  {'searched':>8}  {'seconds':>8}  measure")
            for number, before, searched, secs, exact, verdict in per_move["moves"]:
                measure = "exact" if exact else "expected-size line"
                print(f"  {number:>4}  {before:>6}  {searched:>8}  {secs:>8.3f}  {measure} ({verdict})")
    print(f"\nload average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
