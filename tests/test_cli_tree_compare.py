"""`mastermind tree`, `compare`, `evaluate --plot`, and conventions every command shares."""

import json

import numpy as np
import pytest
from click.testing import CliRunner

import mastermind.strategies as registry
from mastermind.cli import cli
from mastermind.strategies.base import Strategy

SMALL = ["--pegs", "3", "--colors", "4"]
COMMANDS = ["play", "guess", "solve", "partition", "tree", "compare", "evaluate"]


def run(*args, input=None):
    result = CliRunner().invoke(cli, list(args), input=input)
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout, result.stderr


def test_tree_text_is_knuths_table():
    code, out, _ = run("tree", "--strategy", "knuth", "--depth", "2")
    assert code == 0
    lines = out.splitlines()
    assert lines[1] == "1122  (1,296 codes)"
    # the replies to the first guess (the classes the second guesses leave are indented further)
    seconds = {line.split()[0]: line.split()[-1] for line in lines[2:] if not line.startswith("   ")}
    # Knuth, "The Computer as Master Mind" (1976-77): his second guesses after 1122
    assert seconds == {
        "0,0:": "3345",
        "0,1:": "2344",
        "0,2:": "2344",
        "0,3:": "1213",
        "0,4:": "wins",
        "1,0:": "1344",
        "1,1:": "1134",
        "1,2:": "1213",
        "2,0:": "1234",
        "2,1:": "1223",
        "2,2:": "1213",
        "3,0:": "1223",
    }
    assert "  0,0:  256 -> 3345" in lines and "  0,4:    1 -> 2211  wins" in lines


def test_tree_to_depth_1_is_the_first_guess_and_the_classes_its_replies_leave():
    code, out, _ = run("tree", "--strategy", "knuth", "--depth", "1")
    assert code == 0
    lines = out.splitlines()
    # Knuth (1976-77): 1122 splits the 1,296 codes into classes of 256, 256, 96, 16, 1, 256, 208,
    # 36, 114, 32, 4 and 20 (and the win)
    assert lines[1:] == [
        "1122  (1,296 codes)",
        "  0,0:  256",
        "  0,1:  256",
        "  0,2:   96",
        "  0,3:   16",
        "  0,4:    1",
        "  1,0:  256",
        "  1,1:  208",
        "  1,2:   36",
        "  2,0:  114",
        "  2,1:   32",
        "  2,2:    4",
        "  3,0:   20",
    ]
    code, out, _ = run("tree", "--strategy", "knuth", "--depth", "1", "--format", "json")
    tree = json.loads(out)["tree"]
    assert tree["guess"] == "1122" and tree["replies"]["1,1"] == {"size": 208} and len(tree["replies"]) == 12
    code, out, _ = run("tree", "--strategy", "knuth", "--depth", "2")
    assert "      0,2:   42" in out.splitlines()  # 3345 after 0,0: 0,2 leaves 42 codes


def test_tree_json_and_dot():
    code, out, _ = run("tree", *SMALL, "--format", "json")
    data = json.loads(out)
    assert (data["strategy"], data["pegs"], data["colors"]) == ("knuth", 3, 4)

    def leaves(node):
        wins_here = node["size"] - sum(child["size"] for child in node["replies"].values())
        return wins_here + sum(leaves(child) for child in node["replies"].values())

    assert data["tree"]["size"] == 64 and leaves(data["tree"]) == 64
    code, out, _ = run("tree", "--format", "dot", "--depth", "2")
    assert out.startswith('digraph "knuth on 4 pegs, colours 1-6, repeats allowed" {')
    assert out.count("->") == 12 and 'n0 [label="1122\\n1296"];' in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--format", "xml"], "'xml' is not one of 'text', 'json', 'dot'"),
        (["--depth", "0"], "Invalid value for '--depth'"),
        (["-s", "nope"], "unknown strategy 'nope'"),
        (["--first", "12"], "'12' has 2 symbols"),
    ],
)
def test_tree_bad_input(args, message):
    code, out, err = run("tree", *args)
    assert code == 2 and message in err and err.count("\n") == 1 and out == ""


def test_compare_table_json_and_plot(tmp_path):
    code, out, _ = run("compare", "--strategies", "knuth,expected-size,entropy,most-parts")
    assert code == 0
    rows = {line.split()[0]: line.split()[1:] for line in out.splitlines() if line.strip()}
    # first guess, total, max and distribution of each criterion: Knuth (1976-77), Irving (1978-79),
    # Neuwirth (1982), Kooi (2005)
    assert rows["knuth"][:4] == ["1122", "5,801", "4.4761", "5"]
    assert rows["expected-size"][:2] == ["1123", "5,696"]
    assert rows["entropy"][:2] == ["1234", "5,722"]
    assert rows["most-parts"][:6] == ["1123", "5,668", "4.3735", "6", "0", "1:1"]
    chart = tmp_path / "dist.svg"
    code, out, err = run("compare", *SMALL, "--strategies", "knuth, entropy", "--json", "--plot", str(chart))
    data = json.loads(out)
    assert [d["strategy"] for d in data] == ["knuth", "entropy"] and data[0]["codes"] == 64
    assert chart.read_text().lstrip().startswith("<?xml") and "<svg" in chart.read_text()
    assert f"chart written to {chart}" in err


def test_compare_names_the_guess_limit_and_counts_the_games_lost_past_it():
    code, out, _ = run("compare", "--max-guesses", "5", "--strategies", "knuth,entropy", "--no-history")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "4 pegs, colours 1-6, repeats allowed, at most 5 guesses: all 1,296 secrets"
    header = ["strategy", "first", "total", "mean", "max", "lost", "distribution", "seconds"]
    assert lines[2].split() == header
    rows = {line.split()[0]: line.split()[1:] for line in lines if line.strip()}
    # entropy plays 12 games past 5 guesses (evaluate says "lost (> 5) 12"); Knuth's tree needs at most 5
    assert rows["entropy"][3:5] == ["6", "12"] and rows["knuth"][3:5] == ["5", "0"]


def test_compare_defaults_to_every_registered_strategy_even_new_ones(monkeypatch):
    class FirstCandidate(Strategy):
        name = "first-candidate"

        def pick(self, state):
            return int(state.candidate_indices()[0])

    monkeypatch.setattr(registry, "STRATEGIES", [*registry.STRATEGIES, FirstCandidate])
    code, out, err = run("compare", *SMALL, "--json", "--seed", "1")
    names = [d["strategy"] for d in json.loads(out)]
    # six-guess exists only for the classic game: by default it is skipped, and that is said
    assert names == [
        "knuth",
        "expected-size",
        "entropy",
        "most-parts",
        "rollout",
        "optimal",
        "counter",
        "random",
        "first-candidate",
    ]
    assert "skipped six-guess" in err
    code, out, err = run("compare", *SMALL, "--strategies", "six-guess")
    assert code == 2 and "six-guess" in err
    code, out, _ = run("solve", "--strategy", "first-candidate", "1122=0,0")
    assert code == 0 and "first-candidate plays next: 3333" in out
    code, out, _ = run("play", "--seed", "1", "-s", "first-candidate", input="hint\nquit\n")
    assert "first-candidate would play 1111" in out
    code, out, _ = run("guess", "-s", "first-candidate", "--secret", "3632")
    assert code == 0 and "Found it: 3632" in out
    code, out, _ = run("tree", "-s", "first-candidate", "--pegs", "2", "--colors", "2")
    assert code == 0 and out.splitlines()[1] == "11  (4 codes)"


def test_a_randomised_strategy_has_no_tree(monkeypatch):
    class Coin(Strategy):
        name = "coin"
        randomized = True

        def new_game(self, rng):
            self.rng = rng

        def pick(self, state):
            cands = state.candidate_indices()
            return int(cands[self.rng.integers(len(cands))])

    monkeypatch.setattr(registry, "STRATEGIES", [*registry.STRATEGIES, Coin])
    code, out, err = run("tree", "-s", "coin")
    assert code == 2 and "coin is randomised: it has no single tree" in err
    first = run("solve", "-s", "coin", "--seed", "5", "--json")[1]
    assert first == run("solve", "-s", "coin", "--seed", "5", "--json")[1]  # seeded: reproducible
    assert np.isscalar(json.loads(first)["candidates"])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--strategies", "knuth,nope"], "unknown strategy 'nope'"),
        (["--strategies", ","], "--strategies is empty"),
        (["--plot", "chart.gif"], "the file name must end in .png, .svg, .pdf"),
        (["--plot", "no/such/folder/chart.png"], "folder 'no/such/folder' does not exist"),
        (["--sample", "0"], "Invalid value for '--sample'"),
    ],
)
def test_compare_bad_input_is_caught_before_any_work(args, message):
    code, out, err = run("compare", *args)
    assert code == 2 and message in err and err.count("\n") == 1 and out == ""


def test_evaluate_plot(tmp_path):
    chart = tmp_path / "knuth.png"
    code, out, err = run("evaluate", *SMALL, "--plot", str(chart), "--no-color")
    assert code == 0 and "distribution" in out
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    code, out, err = run("evaluate", "--plot", str(tmp_path / "x.txt"))
    assert code == 2 and "the file name must end in" in err


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help_with_examples_and_the_game_options(command):
    code, out, _ = run(command, "--help")
    assert code == 0
    assert "Examples:\n" in out and f"\n    mastermind {command}" in out  # one example a line
    for option in ("--pegs", "--colors", "--no-repeats", "--preset", "--max-guesses", "--no-color"):
        assert option in out
    if command != "compare":
        assert "--strategy" in out


def test_top_level_help_lists_commands_and_exit_statuses():
    code, out, _ = run("--help")
    assert code == 0
    for command in COMMANDS:
        assert command in out
    assert "Exit status: 0" in out and "NO_COLOR" in out


def test_unknown_command_and_option_are_one_line():
    code, out, err = run("plya")
    assert code == 2 and "No such command 'plya'" in err and err.count("\n") == 1
    code, out, err = run("solve", "--bogus")
    assert code == 2 and "No such option '--bogus'" in err and "solve --help" in err


def test_tree_of_shapiros_strategy():
    code, out, _ = run("tree", "-s", "counter", "--no-tables", "--format", "json")
    assert code == 0
    tree = json.loads(out)["tree"]
    assert tree["guess"] == "1111" and tree["size"] == 1296
    code, _, err = run("tree", "-s", "counter")
    assert code == 2 and "randomised" in err


def test_a_deep_dot_tree_is_laid_out_left_to_right_a_shallow_one_top_down():
    code, out, _ = run("tree", "--format", "dot", "--depth", "2")
    assert code == 0 and "rankdir" not in out  # 13 boxes in a row: a page wide
    code, out, _ = run("tree", "--format", "dot", "--depth", "3")
    # Knuth's first three guesses top-down were 10,259 pixels wide; from left to right, a column
    assert code == 0 and out.splitlines()[1] == "  rankdir=LR;"


def test_compare_takes_s_for_its_strategies_as_every_command_takes_it_for_one():
    code, out, _ = run("compare", "-s", "knuth,entropy", "--json", "--no-history")
    assert code == 0 and [row["strategy"] for row in json.loads(out)] == ["knuth", "entropy"]


def test_compare_takes_s_again_for_each_strategy_and_keeps_every_name():
    code, out, _ = run("compare", "-s", "knuth", "-s", "entropy,knuth", "--json", "--no-history", *SMALL)
    assert code == 0 and [row["strategy"] for row in json.loads(out)] == ["knuth", "entropy"]


def test_compare_gives_the_drawn_seed_only_to_the_runs_it_played_a_part_in():
    run("compare", "-s", "knuth", "--json", *SMALL)  # saved in the history
    code, out, _ = run("compare", "-s", "knuth,random", "--json", *SMALL)
    rows = {row["strategy"]: row for row in json.loads(out)}
    assert code == 0 and "from_history" in rows["knuth"]
    assert rows["knuth"]["seed"] is None and isinstance(rows["random"]["seed"], int)
    code, out, _ = run("compare", "-s", "knuth,random", "--sample", "5", "--json", *SMALL)
    seeds = {row["strategy"]: row["seed"] for row in json.loads(out)}
    assert seeds["knuth"] == seeds["random"] and isinstance(seeds["knuth"], int)  # it drew the sample
