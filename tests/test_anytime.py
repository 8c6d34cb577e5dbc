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
from mastermind.strategies.optimal import run as opt_run
from mastermind.strategies.optimal import search as opt
from mastermind.strategies.optimal.anytime import CompileClock, bound_game


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


def test_the_compile_clock_counts_the_seconds_between_a_compile_s_start_and_end():
    ticks = iter([10.0, 13.5, 20.0, 21.0, 22.0])
    clock = CompileClock(now=lambda: next(ticks))
    clock(True)  # 10.0
    clock(True)  # (already under way: not read again)
    clock(False)  # 13.5
    assert clock.seconds() == 3.5
    clock(True)  # 20.0
    assert clock.seconds() == 4.5  # 21.0: the compile under way counts
    clock(False)  # 22.0
    assert clock.seconds() == 5.5


def test_a_budget_does_not_count_the_seconds_the_kernels_compile(monkeypatch):
    """A compile that lasts as long as the search: a budget of 0.01 s then still finds the
    classic game's optimum, where the same budget stops it with bounds."""
    from mastermind import _kernels

    listen = _kernels.on_compile

    def compiling_from_the_start(listener):
        remove = listen(listener)
        listener(True)  # a compile begins as the search does, and lasts through it
        return remove

    monkeypatch.setattr(_kernels, "on_compile", compiling_from_the_start)
    found = bound_game(Rules(pegs=4, colors=6), 0.01)
    assert found.exact and found.upper == 5625  # Koyama and Lai


def test_evaluate_with_a_budget_it_does_not_need_is_exact(tmp_path, monkeypatch):
    monkeypatch.setenv("MASTERMIND_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "best.tree"
    code, out, err = run(
        "evaluate",
        "-s",
        "optimal",
        "-p",
        "4",
        "-c",
        "5",
        "--budget",
        "10m",
        "--json",
        "--no-history",
        "--save",
        path,
    )
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
    code, out, err = run(
        "evaluate",
        "-s",
        "optimal",
        "-p",
        "4",
        "-c",
        "7",
        "--budget",
        "0.01s",
        "--json",
        "--no-history",
        "--save",
        path,
    )
    assert code == 0, err
    result = json.loads(out)
    assert result["lower_bound"] <= 11228
    assert (result["pegs"], result["colors"], result["total"]) == (4, 7, result["upper_bound"])  # as exact
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
        (["-s", "optimal", "--budget", "1m", "--executor", "dask"], "leave out --executor"),
        (["-s", "random", "--save", "x.tree"], "random is randomised"),
        (["-s", "knuth", "--save", "/no/such/folder/x.tree"], "does not exist"),
        (["-s", "optimal", "--save", "."], "it is a directory"),  # refused before any search
        (["-s", "optimal", "--save", ""], "--save: no file name given"),
        (["-s", "optimal", "--save", "-"], "--save: this file cannot go to stdout"),
        (["-s", "optimal", "--budget", "5s", "--proof", ""], "--proof: no file name given"),
    ],
)
def test_bad_budget_or_save_is_one_line(args, message):
    code, out, err = run("evaluate", *args, "--no-history")
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1


def test_a_budget_run_with_no_tree_within_the_limit_leaves_no_checkpoint(tmp_path, monkeypatch):
    monkeypatch.setenv("MASTERMIND_CACHE_DIR", str(tmp_path))
    game = ("-p", "2", "-c", "2", "--max-guesses", "1")
    code, _, err = run("evaluate", "-s", "optimal", *game, "--budget", "2s", "--no-history")
    assert code == 2 and "the smallest limit that works is 3" in err
    assert not list(tmp_path.rglob("*.jsonl"))  # a settled answer: nothing to resume


# -- a resumed run -------------------------------------------------------------------------------


def book_at(path, rules):
    from mastermind.research.runner.checkpoint import Checkpoint, run_identity
    from mastermind.strategies import make_strategy

    book = Checkpoint(path, run_identity(make_strategy("optimal", rules).spec(), None))
    book.open()
    return book


def test_a_resumed_run_takes_what_the_stopped_one_finished_and_ends_in_the_same_tree(tmp_path):
    rules = Rules(pegs=4, colors=5)
    whole = bound_game(rules)
    stop = threading.Event()
    lowers = []

    def better(lower, upper, _):
        lowers.append(lower)
        if lower > lowers[0]:  # some of the first root guess's cells are solved: stop there
            stop.set()

    first = book_at(tmp_path / "run.jsonl", rules)
    stopped = bound_game(rules, stop=stop, on_better=better, book=first)
    first.close()
    assert not stopped.complete and first.pieces  # some cells were solved and recorded
    again = book_at(tmp_path / "run.jsonl", rules)
    assert again.pieces.keys() == first.pieces.keys()
    resumed = bound_game(rules, book=again)
    assert resumed.complete and resumed.lower == resumed.upper == 2463
    assert np.array_equal(resumed.flat, whole.flat)


def test_a_finished_record_is_not_searched_again(tmp_path, monkeypatch):
    rules = Rules(pegs=4, colors=5)
    book = book_at(tmp_path / "run.jsonl", rules)
    whole = bound_game(rules, book=book)
    book.close()
    # every root guess and every cell of the first one is on record: the root searches nothing
    monkeypatch.setattr(opt_run._Run, "kernel_call", lambda *args: pytest.fail("searched again"))
    again = bound_game(rules, book=book_at(tmp_path / "run.jsonl", rules))
    assert again.complete and np.array_equal(again.flat, whole.flat)


def test_sets_below_the_root_are_kept_too_and_a_resumed_run_searches_none_of_them(tmp_path, monkeypatch):
    # sets of more than 10 secrets split again (their first guess's cells solved one by one),
    # and every set of 3 or more kept: records two levels below the root
    monkeypatch.setattr(opt_run, "SERIAL_SET", 10)
    monkeypatch.setattr(opt_run, "SPLIT", 1 << 20)
    monkeypatch.setattr(opt, "BOOK_SET", 3)
    rules = Rules(pegs=4, colors=5)
    book = book_at(tmp_path / "run.jsonl", rules)
    whole = bound_game(rules, book=book, workers=2)
    book.close()
    assert any(key.startswith("set:") and key.count("/") >= 1 for key in book.pieces)
    assert any(key.startswith("guess:") and not key.startswith("guess:root") for key in book.pieces)
    monkeypatch.setattr(opt_run._Run, "kernel_call", lambda *args: pytest.fail("searched again"))
    again = bound_game(rules, book=book_at(tmp_path / "run.jsonl", rules), workers=2)
    assert again.complete and np.array_equal(again.flat, whole.flat)


def test_a_smaller_piece_size_keeps_results_further_down_and_ends_in_the_same_tree(tmp_path):
    rules = Rules()
    runs = []
    for size in (None, 48):
        book = book_at(tmp_path / f"run-{size}.jsonl", rules)
        runs.append((bound_game(rules, book=book, workers=2, piece_size=size), book.pieces))
        book.close()
    (whole, kept), (cut, finer) = runs
    assert whole.upper == cut.upper == 5625 and np.array_equal(whole.flat, cut.flat)
    assert max(key.count("/") for key in kept) == 0  # the root's cells and guesses only
    assert any(key.count("/") >= 1 for key in finer) and len(finer) > len(kept)


def test_a_damaged_record_is_refused_in_one_line(tmp_path, monkeypatch):
    rules = Rules(pegs=4, colors=5)
    path = tmp_path / "run.jsonl"
    book = book_at(path, rules)
    bound_game(rules, book=book)
    book.close()
    lines = path.read_text().splitlines()
    i = next(i for i, line in enumerate(lines) if '"tree": [' in line)
    item = json.loads(lines[i])
    item["piece"]["cost"] += 1  # a tree that does not cost what the record says
    from mastermind.research.runner.checkpoint import checksum

    item["check"] = checksum(item["piece"])
    lines[i] = json.dumps(item, sort_keys=True)
    path.write_text("\n".join(lines) + "\n")
    monkeypatch.setenv("MASTERMIND_CACHE_DIR", str(tmp_path / "cache"))
    code, _, err = run(
        "evaluate",
        "-s",
        "optimal",
        "-p",
        "4",
        "-c",
        "5",
        "--budget",
        "10m",
        "--checkpoint",
        path,
        "--no-history",
    )
    *before, last = err.strip().splitlines()
    assert (
        code == 2
        and f"damaged at line {i + 1}; delete it" in last
        and before == [f"mastermind: resuming from {path}: {len(lines) - 1} results of an earlier run"]
    )


def test_evaluate_with_a_budget_resumes_by_the_same_command(tmp_path, monkeypatch):
    monkeypatch.setenv("MASTERMIND_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "run.jsonl"
    args = ["evaluate", "-s", "optimal", "-p", "4", "-c", "5", "--json", "--no-history", "--checkpoint", path]
    book = book_at(path, Rules(pegs=4, colors=5))
    bound_game(Rules(pegs=4, colors=5), book=book)  # an earlier run that got to the end
    book.close()
    code, out, err = run(*args, "--budget", "10m")
    assert code == 0 and "resuming from" in err and json.loads(out)["total"] == 2463


def test_evaluate_save_writes_any_strategys_tree(tmp_path):
    path = tmp_path / "knuth.tree"
    code, _, err = run("evaluate", "-s", "knuth", "--save", path, "--no-history")
    assert code == 0, err
    assert TreeFile.read(path).verify().total == 5801
