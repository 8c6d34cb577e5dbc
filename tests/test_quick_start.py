"""The command line's quick start: small games on the numpy reference give exactly what the
compiled kernels give, and a command on such a game does not import numba.

Nothing here is timed (benchmarks/quick_start.py and benchmarks/first_run.py measure).
"""

import json
import subprocess
import sys

import numpy as np
import pytest

from mastermind import Rules, evaluate, make_strategy, strategy_tree
from mastermind import _kernels as kernels
from mastermind._kernels import feedback, reference
from mastermind.research.runner import evaluate_on as run_evaluate
from mastermind.strategies import partition
from mastermind.strategies.walk import guesses_per_secret
from test_fast_paths import same_tree

NAMES = ["knuth", "expected-size", "entropy", "most-parts"]

#: (rules, first-guess override)
GAMES = [
    (Rules(), None),
    (Rules(), "1234"),
    (Rules(pegs=3, colors=4), None),
    (Rules(pegs=4, colors=5, repeats=False), None),
    (Rules(pegs=3, colors=6, blank=True), None),
    (Rules(pegs=4, colors=4, max_guesses=3), None),  # games lost past the limit
]

#: The classic game's distributions: Knuth (1976-77), Irving (1978-79), Neuwirth (1982), Kooi (2005).
PUBLISHED = {
    "knuth": {1: 1, 2: 6, 3: 62, 4: 533, 5: 694},
    "expected-size": {1: 1, 2: 10, 3: 54, 4: 645, 5: 583, 6: 3},
    "entropy": {1: 1, 2: 4, 3: 71, 4: 612, 5: 596, 6: 12},
    "most-parts": {1: 1, 2: 12, 3: 72, 4: 635, 5: 569, 6: 7},
}


@pytest.fixture
def numpy_only(monkeypatch):
    """Quick start on for every game here, and the compiled search and grouping made to fail, so
    that a test passes only if the numpy reference did all the work."""

    def compiled(*args, **kwargs):
        raise AssertionError("a compiled kernel ran")

    monkeypatch.setattr(partition, "_tree", compiled)
    monkeypatch.setattr(feedback, "cells", compiled)
    monkeypatch.setattr(feedback, "replies", compiled)
    kernels.quick_start(10_000)
    yield
    kernels.quick_start(0)


def compiled_results(name, rules, first):
    assert not kernels.on_numpy(rules.size)  # the library's default
    strategy = make_strategy(name, rules, first=first)
    assert strategy.compiled
    return strategy, strategy_tree(strategy), run_evaluate(strategy), guesses_per_secret(strategy)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize(("rules", "first"), GAMES, ids=repr)
def test_the_quick_path_equals_the_compiled_one(name, rules, first, request):
    fast, tree, stats, per_secret = compiled_results(name, rules, first)
    request.getfixturevalue("numpy_only")
    quick = make_strategy(name, rules, first=first)
    assert quick.kernel == "numpy" and not quick.compiled
    assert quick.spec() == fast.spec()  # the same run for the history
    same_tree(strategy_tree(quick), tree)
    for got in (run_evaluate(quick), evaluate(quick)):
        assert (got.first_guess, got.distribution, got.lost) == (
            stats.first_guess,
            stats.distribution,
            stats.lost,
        )
    assert (guesses_per_secret(quick) == per_secret).all()


@pytest.mark.parametrize("name", NAMES)
def test_the_published_classic_totals_on_the_quick_path(name, numpy_only):
    stats = evaluate(make_strategy(name, Rules()))
    assert stats.distribution == PUBLISHED[name]


@pytest.mark.parametrize("rules", [Rules(pegs=3, colors=4), Rules(pegs=4, colors=5, repeats=False)], ids=repr)
def test_with_one_or_two_candidates_the_first_is_the_reference_choice(rules):
    """The strategies play the first candidate there without a search: the reference agrees."""
    space = make_strategy("knuth", rules).space
    pool = np.arange(space.size, dtype=np.int64)
    weights = reference.entropy_weights(space.size)
    rng = np.random.default_rng(3)
    for _ in range(40):
        cands = np.sort(rng.choice(space.size, size=rng.integers(1, 3), replace=False))
        for criterion in (
            reference.MAX_CLASS,
            reference.SUM_SQUARES,
            reference.ENTROPY,
            reference.MOST_PARTS,
        ):
            assert reference.best_guess(space, pool, cands, criterion, weights) == cands[0]


def test_the_library_default_is_compiled_and_the_switch_stops_at_its_size():
    assert not kernels.on_numpy(1)
    try:
        kernels.quick_start()
        assert kernels.on_numpy(Rules().size)
        assert not kernels.on_numpy(kernels.QUICK_GAME + 1)
        assert make_strategy("knuth", Rules()).kernel == "numpy"
        assert make_strategy("knuth", Rules(pegs=4, colors=8)).kernel == "numba"
    finally:
        kernels.quick_start(0)
    assert make_strategy("knuth", Rules()).kernel == "numba"


def test_ctrl_c_stops_the_quick_walk_at_once(numpy_only, monkeypatch):
    calls = []
    best_guess = reference.best_guess

    def interrupted(*args):
        calls.append(1)
        if len(calls) == 5:
            raise KeyboardInterrupt
        return best_guess(*args)

    monkeypatch.setattr(reference, "best_guess", interrupted)
    with pytest.raises(KeyboardInterrupt):
        run_evaluate(make_strategy("knuth", Rules()))
    assert len(calls) == 5  # no node was searched after it


def command_line(*commands):
    """Run the command line's main() on each command in one fresh process; its outputs, and
    whether numba was imported."""
    code = (
        "import contextlib, io, json, sys\n"
        "from mastermind.cli import main\n"
        "outs = []\n"
        f"for args in {list(commands)!r}:\n"
        "    sys.argv = ['mastermind', *args]\n"
        "    out = io.StringIO()\n"
        "    with contextlib.redirect_stdout(out):\n"
        "        try:\n"
        "            main()\n"
        "        except SystemExit as done:\n"
        "            assert not done.code, done.code\n"
        "    outs.append(out.getvalue())\n"
        "print(json.dumps([outs, 'numba' in sys.modules]))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_the_first_command_of_the_readme_imports_no_numba():
    (out, *_), numba = command_line(
        ["evaluate", "-s", "knuth", "--json", "--no-history"],
        ["solve", "1122=1,0", "--json"],
        ["guess", "--secret", "3632", "--no-history"],
        ["partition", "1122=1,0", "--json"],
        ["tree", "-s", "entropy", "--depth", "1"],
    )
    stats = json.loads(out)
    assert (stats["first_guess"], stats["total"], stats["max"]) == ("1122", 5801, 5)
    assert {int(k): n for k, n in stats["distribution"].items()} == PUBLISHED["knuth"]
    assert numba is False


def test_a_larger_game_on_the_command_line_still_runs_compiled():
    (out,), numba = command_line(
        [
            "evaluate",
            "-s",
            "knuth",
            "--pegs",
            "4",
            "--colors",
            "8",
            "--sample",
            "20",
            "--seed",
            "1",
            "--json",
            "--no-history",
        ],
    )
    assert json.loads(out)["games"] == 20
    assert numba is True
