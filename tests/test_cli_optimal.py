"""The optimal strategy on the command line, through the real entry point."""

import json

from click.testing import CliRunner

from mastermind.cli import cli


def run(*args, input=None):
    result = CliRunner().invoke(cli, list(args), input=input)
    return result.exit_code, result.stdout, result.stderr


def test_evaluate_classic_json():
    code, out, _ = run("evaluate", "--strategy", "optimal", "--json")
    assert code == 0
    stats = json.loads(out)
    assert (stats["total"], stats["max"], stats["first_guess"]) == (5625, 6, "1123")
    assert stats["distribution"] == {"1": 1, "2": 8, "3": 95, "4": 644, "5": 541, "6": 7}


def test_evaluate_with_a_guess_limit():
    code, out, _ = run("evaluate", "-s", "optimal", "--max-guesses", "5", "--json")
    assert code == 0
    stats = json.loads(out)
    assert (stats["total"], stats["max"], stats["lost"]) == (5626, 5, 0)


def test_an_impossible_guess_limit_is_one_line_and_status_2():
    code, out, err = run("evaluate", "-s", "optimal", "--max-guesses", "4")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "the smallest limit that works is 5" in err
    assert "Traceback" not in err


def test_evaluate_no_repeats_game():
    code, out, _ = run("evaluate", "-s", "optimal", "--pegs", "3", "--colors", "5", "--no-repeats", "--json")
    assert code == 0
    stats = json.loads(out)
    assert stats["games"] == 60 and stats["lost"] == 0
    # the optimum is at most what any heuristic reaches
    for name in ("knuth", "expected-size", "entropy", "most-parts"):
        _, other, _ = run("evaluate", "-s", name, "--pegs", "3", "--colors", "5", "--no-repeats", "--json")
        assert stats["total"] <= json.loads(other)["total"]


def test_solve_gives_the_expected_number_of_guesses_left():
    code, out, _ = run("solve", "--strategy", "optimal", "--json")
    assert code == 0
    got = json.loads(out)
    assert got["guess"] == "1123" and got["expected_guesses"] == round(5625 / 1296, 6)
    code, out, _ = run("solve", "-s", "optimal", "1122=1,0", "1344=0,1")
    assert code == 0
    assert "44 codes are possible" in out and "optimal plays next:" in out
    assert "Expected number of guesses left, this one included:" in out


def test_solve_off_the_tree_with_too_few_guesses_left():
    code, _, err = run("solve", "-s", "optimal", "--max-guesses", "2", "1122=0,0")
    assert code == 2 and "guesses left" in err and "Traceback" not in err


def test_tree_in_three_formats():
    code, out, _ = run("tree", "-s", "optimal", "--pegs", "3", "--colors", "4", "--format", "json")
    assert code == 0
    tree = json.loads(out)["tree"]

    def total(node, depth=1):
        found = node["size"] - sum(c["size"] for c in node["replies"].values())
        return found * depth + sum(total(c, depth + 1) for c in node["replies"].values())

    assert tree["size"] == 64 and total(tree) == 206
    code, out, _ = run("tree", "-s", "optimal", "--pegs", "3", "--colors", "4")
    assert code == 0 and out.splitlines()[1].startswith(tree["guess"])
    code, out, _ = run("tree", "-s", "optimal", "--pegs", "3", "--colors", "4", "--format", "dot")
    assert code == 0 and out.startswith("digraph")


def test_play_hint_and_guess_use_it():
    code, out, _ = run("play", "--seed", "1", "-s", "optimal", input="hint\nquit\n")
    assert "optimal would play 1123" in out
    code, out, _ = run("guess", "-s", "optimal", "--secret", "3632")
    assert code == 0 and "Guess 1: 1123" in out and "Found it: 3632" in out


def test_compare_runs_optimal_by_default_only_when_it_is_quick(monkeypatch):
    from mastermind import Rules
    from mastermind.strategies.optimal import strategy as optimal

    game = ["--pegs", "3", "--colors", "4", "--json"]
    assert optimal.Optimal(Rules(pegs=3, colors=4)).quick()  # 64 codes, nothing cached
    monkeypatch.setattr(optimal, "QUICK_GAME", 63)  # 64 codes: now "too large" for the default set
    code, out, err = run("compare", *game)
    assert code == 0 and "optimal" not in [s["strategy"] for s in json.loads(out)]
    assert "skipped optimal" in err and "--strategies" in err and "Traceback" not in err
    code, out, _ = run("compare", "--strategies", "optimal,knuth", *game)  # named: it runs
    assert code == 0 and [s["strategy"] for s in json.loads(out)] == ["optimal", "knuth"]
    assert json.loads(out)[0]["total"] == 206
    # a tree already cached (the run above cached it) is quick whatever the size
    assert optimal.Optimal(Rules(pegs=3, colors=4)).quick()
    code, out, err = run("compare", *game)
    assert code == 0 and "skipped optimal" not in err
    assert "optimal" in [s["strategy"] for s in json.loads(out)]


def test_compare_help_names_the_size_where_optimal_leaves_the_default_set():
    from mastermind.strategies.optimal.strategy import QUICK_GAME

    code, out, _ = run("compare", "--help")
    assert code == 0 and f"{QUICK_GAME:,} codes" in " ".join(out.split())


class Clock:
    """A stand-in for time.perf_counter that moves only when told: the search below takes 100 s."""

    def __init__(self):
        self.now = 0.0

    def perf_counter(self):
        return self.now


def test_the_seconds_of_an_optimal_run_are_its_search_and_a_cached_tree_says_so(monkeypatch):
    import mastermind.research.evaluation as evaluation
    import mastermind.strategies.optimal.strategy as optimal

    clock = Clock()
    search = optimal.solve_position

    def slow_search(*args, **kwargs):
        clock.now += 100.0
        return search(*args, **kwargs)

    monkeypatch.setattr(evaluation, "time", clock)
    monkeypatch.setattr(optimal, "solve_position", slow_search)
    code, out, _ = run("evaluate", "-s", "optimal", "-p", "3", "-c", "3", "--json")
    searched = json.loads(out)
    assert code == 0 and searched["seconds"] == 100.0 and searched["tree_at_hand"] is False
    code, out, err = run("evaluate", "-s", "optimal", "-p", "3", "-c", "3", "--json", "--recompute")
    cached = json.loads(out)  # the tree is read from the cache: no search, and the record says so
    assert code == 0 and cached["seconds"] == 0.0 and cached["tree_at_hand"] is True
    assert cached["total"] == searched["total"]
    code, out, _ = run("evaluate", "-s", "optimal", "-p", "3", "-c", "3", "--no-history")
    assert "│ seconds       │ 0.000 (the tree was read from the cache, not searched)" in out
    code, out, _ = run("compare", "-p", "3", "-c", "3", "--strategies", "knuth,optimal", "--no-history")
    assert "0.00*" in out
    assert "* the tree was read from the cache, not searched: the seconds are those of reading it" in out


def test_no_cache_searches_again_past_the_cache_and_the_history(monkeypatch):
    import mastermind.research.evaluation as evaluation
    import mastermind.strategies.optimal.strategy as optimal

    clock = Clock()
    search = optimal.solve_position
    searches = []

    def counted_search(*args, **kwargs):
        clock.now += 100.0
        searches.append(1)
        return search(*args, **kwargs)

    monkeypatch.setattr(evaluation, "time", clock)
    monkeypatch.setattr(optimal, "solve_position", counted_search)
    game = ("-s", "optimal", "-p", "3", "-c", "4")
    code, out, _ = run("evaluate", *game, "--json")
    assert code == 0 and json.loads(out)["tree_at_hand"] is False and len(searches) == 1
    for _ in range(2):  # the tree is cached and the run stored: each is searched again all the same
        code, out, _ = run("evaluate", *game, "--json", "--no-cache")
        again = json.loads(out)
        assert code == 0 and again["tree_at_hand"] is False and again["seconds"] == 100.0
    assert len(searches) == 3 and again["total"] == 206  # 3 pegs 4 colours: 206 (RESULTS.md)
    code, out, _ = run("tree", *game, "--no-cache")
    assert code == 0 and len(searches) == 4
    code, _, _ = run("evaluate", *game, "--json")  # without the flag: from the history, no search
    assert code == 0 and len(searches) == 4


def test_a_search_in_pieces_writes_its_best_tree_to_save_as_it_improves(monkeypatch, tmp_path):
    import mastermind.cli.runs as runs
    from mastermind import TreeFile

    save, writes = tmp_path / "best.tree.gz", []
    write = runs.save_tree

    def kept(player, path, exact, lower=None, flat=None, midway=False):
        write(player, path, exact, lower, flat, midway)
        tree = TreeFile.read(path)  # each file as it was written, checked against every secret
        writes.append((exact, tree.header.get("exact"), tree.verify().total))

    monkeypatch.setattr(runs, "save_tree", kept)
    code, out, _ = run(
        "evaluate",
        "-s",
        "optimal",
        "--no-cache",
        "--no-history",
        "--json",
        "--checkpoint",
        str(tmp_path / "run.jsonl"),
        "--save",
        str(save),
    )
    assert code == 0 and json.loads(out)["total"] == 5625
    # the best tree while the search went on (not proved optimal), then the optimum
    assert writes[0] == (False, False, 5625) and writes[-1] == (True, True, 5625)


def test_a_best_tree_that_cannot_be_written_midway_is_a_note_and_the_search_goes_on(monkeypatch, tmp_path):
    import errno

    from mastermind import TreeFile

    save, write, failed = tmp_path / "best.tree.gz", TreeFile.write, []

    def disk_full_once(tree, path):
        if not failed:  # the first write, while the search goes on
            failed.append(tree.header["exact"])
            raise OSError(errno.ENOSPC, "No space left on device")
        write(tree, path)

    monkeypatch.setattr(TreeFile, "write", disk_full_once)
    code, out, err = run(
        "evaluate",
        "-s",
        "optimal",
        "--no-cache",
        "--no-history",
        "--json",
        "--checkpoint",
        str(tmp_path / "run.jsonl"),
        "--save",
        str(save),
    )
    assert code == 0 and failed == [False] and json.loads(out)["total"] == 5625
    note = f"note: cannot write the best tree so far to {save} (No space left on device); the search goes on"
    assert note in err
    assert TreeFile.read(save).header["exact"] is True  # the optimum, written at the end


def test_no_cache_is_refused_by_a_strategy_without_a_cache():
    code, _, err = run("evaluate", "-s", "knuth", "--no-cache")
    assert code == 2 and err.strip().endswith(
        "--no-cache searches again instead of reading the cache of optimal: knuth keeps none"
    )


def test_the_history_keeps_the_seconds_of_the_search(monkeypatch):
    import mastermind.research.evaluation as evaluation
    import mastermind.strategies.optimal.strategy as optimal

    clock = Clock()
    search = optimal.solve_position

    def slow_search(*args, **kwargs):
        clock.now += 100.0
        return search(*args, **kwargs)

    monkeypatch.setattr(evaluation, "time", clock)
    monkeypatch.setattr(optimal, "solve_position", slow_search)
    assert run("evaluate", "-s", "optimal", "-p", "3", "-c", "3")[0] == 0
    code, out, err = run("compare", "-p", "3", "-c", "3", "--strategies", "optimal", "--json")
    assert json.loads(out)[0]["seconds"] == 100.0 and "taken from the history" in err
    assert "100 s)" in err
    from mastermind.history.store import Store

    with Store() as store:
        assert [run.record["seconds"] for run in store.runs()] == [100.0]


def test_a_search_that_is_not_quick_says_first_how_large_it_is_its_cost_and_the_way_out(monkeypatch):
    """The limit of compare (QUICK_GAME codes) lowered, so that small games stand for large ones."""
    from mastermind.strategies.optimal import strategy as optimal

    monkeypatch.setattr(optimal, "QUICK_GAME", 10)
    code, out, err = run("solve", "-s", "optimal", "1122=1,0")
    assert code == 0 and "256 codes are possible" in out
    assert err.startswith(
        "mastermind: note: optimal: an exact search of 256 codes, guesses among 1,296: roughly "
    )
    assert err.rstrip().endswith(
        "an order of magnitude); a heuristic strategy answers in seconds (--strategy entropy); Ctrl-C stops"
    )
    assert err.count("\n") == 1
    code, out, _ = run("play", "-s", "optimal", "--seed", "1", "--no-history", input="1122\nhint\nquit\n")
    assert "Note: optimal: an exact search of " in out
    assert "a heuristic strategy hints in seconds (mastermind play --strategy entropy); Ctrl-C stops." in out
    code, out, err = run("evaluate", "-s", "optimal", "-p", "3", "-c", "3", "--json", "--no-history")
    assert code == 0 and json.loads(out)["total"] == 73  # knuth: 74
    assert err.startswith("mastermind: note: optimal: an exact search of 27 codes: roughly ")
    assert "with --budget DURATION it stops then and reports bounds on the optimum" in err
    assert "Ctrl-C stops, and the same command again resumes" in err
    # along the tree now cached, nothing is searched, and nothing is said
    code, out, err = run("solve", "-s", "optimal", "-p", "3", "-c", "3")
    assert code == 0 and err == ""
    monkeypatch.setattr(optimal, "QUICK_GAME", 3125)  # the real limit: classic is quick
    code, out, err = run("solve", "-s", "optimal", "1122=1,0")
    assert code == 0 and err == ""


def test_the_cost_of_a_search_scales_from_the_searches_measured():
    from mastermind import Rules, make_strategy
    from mastermind.core.notation import Notation
    from mastermind.deduction.state import SolverState
    from mastermind.strategies.capabilities import search_cost

    assert make_strategy("optimal", Rules(pegs=4, colors=7), cache=False).search_cost() is None  # quick
    whole = make_strategy("optimal", Rules(pegs=4, colors=9), cache=False).search_cost()
    assert (whole.codes, whole.guesses, whole.beyond) == (6561, 6561, False) and whole.seconds == 89.0
    assert make_strategy("optimal", Rules(pegs=6, colors=6), cache=False).search_cost().beyond
    super_ = Rules(pegs=5, colors=8)  # a position whose search is long: it must be announced
    state = SolverState(super_, Notation(super_).parse_history(["11223=1,0"]))
    cost = make_strategy("optimal", super_).search_cost(state)
    assert (cost.codes, cost.guesses) == (3796, 32768) and 60 < cost.seconds < 3600
    assert search_cost(make_strategy("knuth", super_), state) is None  # no search


def test_a_cached_tree_loads_no_compiled_search(tmp_path):
    """Evaluating from the tree cache reads the tree: the search's kernels (and numba) are not
    loaded for it, in a process of its own."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "MASTERMIND_CACHE_DIR": str(tmp_path / "cache")}
    script = (
        "import sys; from mastermind import Rules, evaluate, make_strategy; "
        "s = evaluate(make_strategy('optimal', Rules(pegs=3, colors=4))); "
        "print(s.total, s.tree_at_hand, 'mastermind._kernels.exact' in sys.modules)"
    )

    def fresh_process() -> list[str]:
        done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        return done.stdout.split()

    assert fresh_process() == ["206", "False", "True"]  # searched: the kernels were needed
    assert fresh_process() == ["206", "True", "False"]
