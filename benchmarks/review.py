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
    python benchmarks/review.py --tree-files results   # the optimal trees of results/*.tree.gz
    python benchmarks/review.py --games classic --random 40   # and 40 random classic games

Where the time goes in one whole process: ``python -X importtime`` and ``python -m cProfile -m
mastermind review ...`` (docs/review.md, "Speed").
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import sys
import tempfile
import time

from machine import cpu_model, mastermind  # benchmarks/machine.py: the scripts run from this folder
from machine import timed as timed_process

#: The tree file of each game's optimal tree under results/ (--tree-files).
TREE_FILES = {
    "classic": "4x6-optimal.tree.gz",
    "4x7": "4x7-optimal.tree.gz",
    "bulls-and-cows": "bulls-and-cows-optimal.tree.gz",
}

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


RANDOM_GAMES = """
import json, sys, time
import numpy as np
from mastermind._kernels import quick_start
quick_start()  # as the command line does
from mastermind import Rules, SolverState, review, score
from mastermind.core.code import CodeSpace
from mastermind.games import positions
import mastermind.strategies.optimal.search as search
searched = []
real = search.solve_position
def counted(rules, secrets, *args, **kwargs):
    searched.append(len(secrets))
    return real(rules, secrets, *args, **kwargs)
search.solve_position = counted
rules, space = Rules(), CodeSpace.of(Rules())
rng = np.random.default_rng(int(sys.argv[2]))
out = []
for _ in range(int(sys.argv[1])):  # a possible code, or now and then (one in three) any code
    secret, state, items = space.code(int(rng.integers(space.size))), SolverState(rules), []
    while True:
        left = state.candidate_indices()
        pick = rng.integers(space.size) if rng.random() < 1 / 3 else left[rng.integers(len(left))]
        guess = space.code(int(pick))
        reply = score(guess.colors, secret.colors)
        items.append((guess, reply))
        if reply.black == rules.pegs:
            break
        state = state.add(guess, reply)
    positions._POSITIONS.clear()
    searched.clear()
    started = time.perf_counter()
    review(items, rules)
    out.append([time.perf_counter() - started, sum(n > 3 for n in searched)])
print(json.dumps(out))
"""


def random_games(count: int, seed: int) -> None:
    """Classic games of a random player (a possible code, or one time in three any code), each
    reviewed in one process with no position cached: how many needed the compiled search."""
    with tempfile.TemporaryDirectory() as cache:
        _, cpu, out = timed([sys.executable, "-c", RANDOM_GAMES, str(count), str(seed)], cache)
    games = json.loads(out)
    seconds = sorted(s for s, _ in games)
    compiled = sum(1 for _, n in games if n)
    median = seconds[len(seconds) // 2]
    print(
        f"\nclassic, {count} random games (seed {seed}), each reviewed with no position cached: "
        f"{compiled} needed the compiled search; seconds per review: median {median:.3f}, "
        f"max {seconds[-1]:.3f}; {cpu:.1f} s CPU in all"
    )


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


def cache_tree_file(path: str, rules: dict, cache: str) -> None:
    """Put the optimal tree of a tree file into the cache directory ``cache``, as ``mastermind
    evaluate -s optimal`` would have (the cache checks it against every secret)."""
    import numpy as np

    from mastermind.core.code import CodeSpace
    from mastermind.core.records import rules_from_dict
    from mastermind.strategies.optimal.search import OptimalNode, Solution, to_flat
    from mastermind.strategies.optimal.strategy import Optimal
    from mastermind.verify.tree import TreeFile

    game = rules_from_dict(rules)
    space = CodeSpace.of(game)
    tree = TreeFile.read(path)
    win = game.pegs * (game.pegs + 1)

    def build(node, codes: np.ndarray) -> OptimalNode:
        from mastermind._kernels.reference import feedback_against

        g = space.index(node.guess)
        replies = feedback_against(space, g, codes)
        out = OptimalNode(guess=g, size=len(codes), cost=len(codes))
        for reply, child in node.children.items():
            f = reply.to_int(game.pegs)
            if f != win:
                out.children[f] = build(child, codes[replies == f])
                out.cost += out.children[f].cost
        return out

    root = build(tree.root, np.arange(space.size, dtype=np.int64))
    os.environ["MASTERMIND_CACHE_DIR"] = cache
    Optimal(game).adopt(Solution(root.cost, to_flat(root)))


def timed(command: list[str], cache: str) -> tuple[float, float, str]:
    """:func:`machine.timed`, with the cache directory ``cache``."""
    return timed_process(command, {**os.environ, "MASTERMIND_CACHE_DIR": cache})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", help="comma-separated subset: " + ", ".join(GAMES))
    parser.add_argument("--budget", type=float, default=3.0, help="seconds of exact search per move [3]")
    parser.add_argument(
        "--trees",
        metavar="DIR",
        help="copy the optimal trees from DIR (a cache directory, "
        "as MASTERMIND_CACHE_DIR) instead of searching them",
    )
    parser.add_argument(
        "--random",
        type=int,
        default=0,
        metavar="N",
        help="also review N random classic games in one process [0]",
    )
    parser.add_argument(
        "--tree-files",
        metavar="DIR",
        help="read the optimal trees from the tree files of DIR (results/) instead of searching them",
    )
    options = parser.parse_args()
    games = {k: v for k, v in GAMES.items() if not options.games or k in options.games.split(",")}
    print(
        f"machine: {cpu_model()}, {os.cpu_count()} cores, {platform.machine()}; "
        f"load average {os.getloadavg()[0]:.2f} at start; python {platform.python_version()}"
    )
    for label, (args, secret, wasted) in games.items():
        rules, history = history_of(args, secret, wasted)
        with tempfile.TemporaryDirectory() as cache:
            print(f"\n{label}: {history}")
            if options.tree_files:
                started = time.perf_counter()
                cache_tree_file(os.path.join(options.tree_files, TREE_FILES[label]), rules, cache)
                print(
                    f"  setup: the optimal tree read from {TREE_FILES[label]} and cached in "
                    f"{time.perf_counter() - started:.1f} s"
                )
            elif options.trees:
                shutil.copytree(os.path.join(options.trees, "optimal"), os.path.join(cache, "optimal"))
                print(f"  setup: the optimal trees copied from {options.trees}")
            else:
                evaluate = [mastermind(), "evaluate", "-s", "optimal", "--json", "--no-history", *args]
                seconds, _, _ = timed(evaluate, cache)
                print(f"  setup: the optimal tree searched and cached in {seconds:.1f} s")
            budget = ["--budget", str(options.budget)]
            review = [mastermind(), "review", *args, *budget, "--json", *history.split()]
            cold, cold_cpu, out = timed(review, cache)
            summary = json.loads(out)["summary"]
            warm, warm_cpu, _ = timed(review, cache)
            print(
                f"  mastermind review, whole process: {cold:.2f} s ({cold_cpu:.2f} s CPU) with no position "
                f"cached, {warm:.2f} s ({warm_cpu:.2f} s CPU) with the positions cached"
            )
            print(f"  summary: {summary}")
            shutil.rmtree(os.path.join(cache, "positions"), ignore_errors=True)
            per_move_run = [sys.executable, "-c", PER_MOVE, json.dumps(rules), history, str(options.budget)]
            _, _, out = timed(per_move_run, cache)
            per_move = json.loads(out)
            print(f"  in one process: the compiled search loaded in {per_move['load']:.2f} s, then")
            print(f"  {'move':>4}  {'codes':>6}  {'searched':>8}  {'seconds':>8}  measure")
            for number, before, searched, secs, exact, verdict in per_move["moves"]:
                measure = "exact" if exact else "expected-size line"
                print(f"  {number:>4}  {before:>6}  {searched:>8}  {secs:>8.3f}  {measure} ({verdict})")
    if options.random:
        random_games(options.random, 1)
    print(f"\nload average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
