"""`mastermind solve` and `mastermind partition`: reasoning about a history."""

import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

from mastermind.cli import cli


def run(*args):
    result = CliRunner().invoke(cli, list(args))
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout, result.stderr


def test_solve_many_candidates_shows_a_count_a_sample_and_the_next_guess():
    code, out, _ = run("solve", "1122=1,0", "1344=0,1")
    assert code == 0
    assert out.splitlines()[0] == "44 codes are possible; 20 of them, evenly spread:"
    assert len(out.splitlines()[1].split()) == 21  # 20 codes and "..."
    assert out.splitlines()[-1] == "knuth plays next: 3526"  # as in Knuth's paper


def test_solve_few_candidates_are_all_listed():
    code, out, _ = run("solve", "1122=1,0 1344=0,1 3526=1,2")
    assert code == 0
    assert out.splitlines()[0] == "7 codes are possible:"
    assert len(out.splitlines()[1].split()) == 7 and "3632" in out
    assert "knuth plays next: 1462" in out
    code, out, _ = run("solve", "1122=1,0", "1344=0,1", "3526=1,2", "1462=1,1")
    assert "1 code is possible: the secret is 3632." in out


def test_solve_json_and_options():
    code, out, _ = run("solve", "1122=BW", "--json", "--show", "3")
    data = json.loads(out)
    assert data["candidates"] == 208 and data["guess"] == "1134" and len(data["sample"]) == 3
    code, out, _ = run("solve", "--json", "--pegs", "2", "--colors", "3")
    assert json.loads(out) == {
        "candidates": 9,
        "guess": "11",
        "sample": ["11", "12", "13", "21", "22", "23", "31", "32", "33"],
    }
    code, out, _ = run("solve", "0123=0,2", "--preset", "bulls-and-cows", "-s", "entropy", "--json")
    assert code == 0 and json.loads(out)["candidates"] > 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["1122=1,0", "1344=0,1", "1344=2,0"], "row 3 to 0,1 (44); or row 2 to 2,0 (23)"),
        (["1111=0,1"], "no secret gives that reply: row 1 (1111=0,1)"),
        (["1122=1,0 1344=0,1 1344=2,0 1344=1,0"], "no single reply can be corrected"),
        (["1122=5,0"], "impossible reply '5,0'"),
        (["1122"], "history item 1 '1122' is not GUESS=BLACK,WHITE"),
        (["1127=1,0"], "'7' is not a colour"),
        (["1122=x"], "'x' is not a reply"),
        (["--show", "-1"], "Invalid value for '--show'"),
        (["-s", "nope"], "unknown strategy 'nope'"),
        # a history no game could have had: the engine's check, the words of `review`
        (["1122=4,0", "1344=1,0"], "guess 1 won (all 4 black): no guess follows a win"),
        (["1122=4,0", "1344=0,0"], "guess 1 won (all 4 black): no guess follows a win"),
        (
            ["--max-guesses", "2", "11=0,0", "22=0,0", "33=1,0", "-p", "2", "-c", "4"],
            "3 guesses are more than the 2",
        ),
        (["-p", "8", "-c", "10", "12345678=8,0", "11111111=0,0"], "guess 1 won (all 8 black)"),
    ],
)
def test_solve_bad_input_exit_2_in_one_line(args, message):
    code, out, err = run("solve", *args)
    assert code == 2
    assert message in err and err.count("\n") == 1 and out == ""


def test_solve_and_review_refuse_the_same_histories():
    for history in (["1122=4,0", "1344=1,0"], ["1122=1,0", "1122=0,1"]):
        solved, reviewed = run("solve", *history), run("review", *history)
        assert solved[0] == reviewed[0] == 2 and solved[2] == reviewed[2]


def test_solve_a_lost_game_lists_the_codes_and_suggests_no_guess():
    args = ["--max-guesses", "2", "1122=0,0", "3344=0,0"]
    code, out, _ = run("solve", *args)
    assert code == 0 and out.splitlines()[0] == "16 codes are possible:"
    assert out.splitlines()[-1] == "No guess is left: the game allows 2 guesses, all played."
    code, out, _ = run("solve", *args, "--json")
    data = json.loads(out)
    assert data["guess"] is None and data["lost"] is True and data["candidates"] == 16


SEED_001 = ["--candidates", "1123,3151,1141,6544", "--guess", "4113"]


def test_partition_reproduces_seed_001_with_the_true_replies():
    code, out, _ = run("partition", *SEED_001)
    assert code == 0
    lines = [line.split() for line in out.splitlines()]
    assert ["0,1", "1"] in lines and ["1,2", "2"] in lines and ["2,1", "1"] in lines
    assert ["0,0", "1"] not in lines  # seed 001's misprint; 4113 and 6544 share a 4
    assert ["largest", "class", "2"] in lines and ["classes", "3"] in lines
    assert ["expected", "size", "1.500"] in lines and ["entropy,", "bits", "1.500"] in lines
    assert "4113 splits them  0,1: 6544; 1,2: 1141 3151; 2,1: 1123" in out


def test_partition_json_and_several_guesses_mark_the_best():
    code, out, _ = run("partition", *SEED_001, "--guess", "1111", "--json")
    data = json.loads(out)
    assert data["candidates"] == 4
    first = data["guesses"][0]
    assert first["classes"] == {"0,1": 1, "1,2": 2, "2,1": 1}
    assert first["members"]["1,2"] == ["1141", "3151"]
    assert (first["largest"], first["parts"], first["expected_size"], first["entropy"]) == (2, 3, 1.5, 1.5)
    code, out, _ = run("partition", "-g", "1111", "-g", "1122", "-g", "1123", "-g", "1234")
    rows = {line.split()[0]: line.split()[1:] for line in out.splitlines()[2:] if line.strip()}
    assert rows["largest"] == ["class", "625", "*", "256", "276", "312"]
    assert rows["classes"] == ["5", "13", "*", "14", "*", "14"]
    assert "* the best guess under that criterion" in out


def test_partition_from_a_history_scores_the_strategy_guess_by_default():
    code, out, _ = run("partition", "1122=1,0", "--json")
    data = json.loads(out)
    assert data["candidates"] == 256 and data["guesses"][0]["guess"] == "1344"
    assert data["guesses"][0]["largest"] == 44 and "members" not in data["guesses"][0]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--candidates", ",", "-g", "1111"], "--candidates is empty"),
        (["--candidates", "1123,3151"], "with --candidates, say which guesses to score: --guess CODE"),
        (["--candidates", "1123,315", "-g", "1111"], "'315' has 3 symbols"),
        (["1122=0,0", "--candidates", "1123", "-g", "1111"], "none of the --candidates fits the history"),
        (["1122=1,0", "1344=0,1", "1344=2,0", "-g", "1111"], "the replies contradict each other"),
        (["-g", "11111"], "'11111' has 5 symbols"),
        (["1122=4,0", "1344=1,0", "-g", "1111"], "no guess follows a win"),
        (["1122=4,0", "1344=1,0", "--candidates", "1122", "-g", "1111"], "no guess follows a win"),
        (["1122=1,0", "1122=0,1", "--candidates", "1122", "-g", "1111"], "row 2 to 1,0 (256)"),
        (["-g", "1111", "--show", "x"], "Invalid value for '--show'"),
    ],
)
def test_partition_bad_input_exit_2_in_one_line(args, message):
    code, out, err = run("partition", *args)
    assert code == 2
    assert message in err and err.count("\n") == 1 and out == ""


def test_solve_through_the_real_entry_point():
    proc = subprocess.run(
        [sys.executable, "-m", "mastermind.cli", "solve", "1122=1,0", "1344=0,1", "1344=2,0"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.startswith("mastermind: error: the replies contradict each other")
    assert proc.stderr.count("\n") == 1


def test_outputs_show_no_negative_zero_and_the_facade_names_resolve():
    code, out, _ = run("partition", "--candidates", "1123", "-g", "1123", "--json")
    assert code == 0 and "-0.0" not in out
    code, out, _ = run("partition", "--candidates", "1123", "-g", "1123")
    assert "1 candidate: 1123" in out and "-0.000" not in out
    code, _, err = run("solve", "--show", "0", "1122=1,0")
    assert code == 2
    assert json.loads(run("solve", "--json", "1122=-")[1])["candidates"] == 256


def test_solve_a_game_too_large_to_list_with_the_counter():
    code, out, _ = run(
        "solve", "--pegs", "8", "--colors", "10", "-s", "counter", "--seed", "1", "12345678=2,3", "--json"
    )
    data = json.loads(out)
    assert code == 0 and data["candidates"] is None and len(data["guess"]) == 8
    from mastermind import Notation, Rules, score

    rules = Rules(pegs=8, colors=10)
    notation = Notation(rules)
    guess = notation.parse_code(data["guess"])
    assert score(notation.parse_code("12345678").colors, guess.colors) == (2, 3)
    code, _, err = run(
        "solve", "--pegs", "8", "--colors", "10", "-s", "counter", "12345678=3,2", "12345678=2,3"
    )
    assert code == 2 and "row 1 (12345678=3,2), row 2 (12345678=2,3)" in err
    code, _, err = run("solve", "--pegs", "8", "--colors", "10", "12345678=2,3")
    assert code == 2 and "strategies that can play it: counter" in err


def test_the_marks_of_the_partition_table_keep_its_columns_aligned():
    code, out, _ = run("partition", "1122=1,0", "-g", "1344", "-g", "1234", "--no-color")
    assert code == 0
    lines = {line.split("  ")[0].strip() or line: line for line in out.splitlines()[1:]}

    def ends(row, figure):  # where a figure of a row ends
        line = next(text for label, text in lines.items() if label.startswith(row))
        return line.index(figure) + len(figure)

    # 1344 is best under every criterion (marked *), 1234 under none: each column's figures and
    # its heading end in one place, marked or not
    assert (
        ends("reply", "1344")
        == ends("0,0", "16")
        == ends("largest class", "44")
        == ends("expected", "31.547")
    )
    assert (
        ends("reply", "1234")
        == ends("0,1", "24")
        == ends("largest class", "78")
        == ends("expected", "46.812")
    )
    assert "* 44" in lines["largest class"] and "* 31.547" in lines["expected size"]
