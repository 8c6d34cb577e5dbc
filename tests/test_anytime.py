"""Bounds at any time: the optimal search stopped early reports what it proved.

Totals: 4 pegs 5 colours 2463, 3 pegs 4 colours 206 (the exact search, checked against a plain
search in test_optimal.py); 4 pegs 7 colours 11228 (Ville 2013).
"""

import json
import threading

import numpy as np
import pytest
from click.testing import CliRunner

from mastermind import Rules, TreeFile
from mastermind.cli import cli
from mastermind.strategies.optimal import search as opt
from mastermind.strategies.optimal.anytime import bound_game


def run(*args):
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout, result.stderr


def test_a_search_that_finishes_is_exact():
    found = bound_game(Rules(pegs=3, colors=4))
    assert found.complete and found.exact and found.lower == found.upper == 206 and found.gap == 0
    assert opt.check_tree(Rules(pegs=3, colors=4), found.flat, np.arange(64), 10).cost == 206


def test_a_search_stopped_early_brackets_the_optimum_with_a_checked_tree():
    rules = Rules(pegs=4, colors=5)
    stop = threading.Event()
    seen = []

    def better(lower, upper, _):
        seen.append((lower, upper))
        if upper is not None:
            stop.set()  # as soon as there is a tree: long before the search ends

    found = bound_game(rules, stop=stop, on_better=better)
    assert not found.complete and found.upper is not None and found.flat is not None
    assert found.lower <= 2463 <= found.upper
    root = opt.check_tree(rules, found.flat, np.arange(rules.size), rules.max_guesses)
    assert root.cost == found.upper
    static = int(opt.game_of(rules).t.lb[rules.size])
    assert found.lower > static  # the root guesses' cells bounded one level down
    assert all(lo <= 2463 for lo, _ in seen) and all(up >= 2463 for _, up in seen if up is not None)


def test_the_lower_bound_never_passes_the_optimum_however_early_the_stop():
    rules = Rules(pegs=4, colors=7)
    found = bound_game(rules, 0.01)
    assert found.lower <= 11228
    if found.upper is not None:
        assert found.upper >= 11228
        assert opt.check_tree(rules, found.flat, np.arange(rules.size), 10).cost == found.upper


def test_evaluate_with_a_budget_it_does_not_need_is_exact(tmp_path, monkeypatch):
    monkeypatch.setenv("MASTERMIND_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "best.tree"
    code, out, err = run("evaluate", "-s", "optimal", "-p", "4", "-c", "5", "--budget", "10m", "--json",
                         "--no-history", "--save", path)  # fmt: skip
    assert code == 0, err
    result = json.loads(out)
    assert (
        result["exact"] is True and result["lower_bound"] == result["upper_bound"] == result["total"] == 2463
    )
    tree = TreeFile.read(path)
    assert tree.header["exact"] is True and tree.verify().total == 2463


def test_evaluate_stopped_by_its_budget_reports_bounds_and_writes_the_best_tree(tmp_path, monkeypatch):
    monkeypatch.setenv("MASTERMIND_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "best.tree.gz"
    code, out, err = run("evaluate", "-s", "optimal", "-p", "4", "-c", "7", "--budget", "0.01s", "--json",
                         "--no-history", "--save", path)  # fmt: skip
    assert code == 0, err
    result = json.loads(out)
    assert result["lower_bound"] <= 11228
    if result["upper_bound"] is not None:
        assert (
            result["upper_bound"] >= 11228 and result["gap"] == result["upper_bound"] - result["lower_bound"]
        )
        tree = TreeFile.read(path)
        assert (
            tree.verify().total == result["upper_bound"]
            and tree.header["lower_bound"] == result["lower_bound"]
        )
    assert result["exact"] is (result["lower_bound"] == result["upper_bound"])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-s", "optimal", "--budget", "soon"], "'soon' is not a duration"),
        (["-s", "optimal", "--budget", "0"], "more than 0 seconds"),
        (["-s", "knuth", "--budget", "1m"], "give --strategy optimal"),
        (["-s", "optimal", "--budget", "1m", "--sample", "5"], "leave out --sample"),
        (
            ["-s", "optimal", "--budget", "1m", "--checkpoint", "x.jsonl"],
            "leave out --executor and --checkpoint",
        ),
        (["-s", "random", "--save", "x.tree"], "random is randomised"),
        (["-s", "knuth", "--save", "/no/such/folder/x.tree"], "does not exist"),
    ],
)
def test_bad_budget_or_save_is_one_line(args, message):
    code, out, err = run("evaluate", *args, "--no-history")
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1


def test_evaluate_save_writes_any_strategys_tree(tmp_path):
    path = tmp_path / "knuth.tree"
    code, _, err = run("evaluate", "-s", "knuth", "--save", path, "--no-history")
    assert code == 0, err
    assert TreeFile.read(path).verify().total == 5801
