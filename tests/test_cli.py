"""The command line, driven through its real entry point."""

import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

from mastermind.cli import cli


def run(*args):
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_evaluate_json_classic():
    code, out, _ = run("evaluate", "--strategy", "knuth", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["strategy"] == "knuth" and data["first_guess"] == "1122"
    assert (data["pegs"], data["colors"], data["repeats"], data["codes"]) == (4, 6, True, 1296)
    assert data["total"] == 5801 and data["max"] == 5
    assert data["distribution"] == {"1": 1, "2": 6, "3": 62, "4": 533, "5": 694}
    assert data["mean"] == pytest.approx(5801 / 1296, abs=1e-6)
    assert data["seconds"] > 0


def test_evaluate_table_and_options():
    code, out, _ = run("evaluate", "-s", "most-parts", "--pegs", "3", "--colors", "4")
    assert code == 0
    assert "most-parts on 3 pegs, colours 1-4, repeats allowed" in out and "distribution" in out
    code, out, _ = run("evaluate", "--preset", "bulls-and-cows", "--pegs", "3", "--json")
    assert json.loads(out)["codes"] == 720 and json.loads(out)["repeats"] is False
    code, out, _ = run("evaluate", "--first", "1234", "--json")
    assert json.loads(out)["first_guess"] == "1234"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--strategy", "nope"], "unknown strategy 'nope'"),
        (["--pegs", "11"], "pegs must be 1 to 10"),
        (["--colors", "3", "--no-repeats"], "need at least 4 colours"),
        (["--first", "1127"], "'7' is not a colour"),
        (["--first", "112"], "a code has 4 pegs"),
        (["--preset", "chess"], "unknown preset"),
        (["--pegs", "x"], "'x' is not a valid integer"),
    ],
)
def test_bad_input_is_one_line_and_status_2(args, message):
    code, out, err = run("evaluate", *args)
    assert code == 2
    assert message in err
    assert "Traceback" not in err + out


def test_installed_command_runs():
    proc = subprocess.run(
        [sys.executable, "-m", "mastermind.cli", "evaluate", "--json", "--pegs", "2"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["codes"] == 36
    bad = subprocess.run(
        [sys.executable, "-m", "mastermind.cli", "evaluate", "-s", "x"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "Traceback" not in bad.stderr


@pytest.mark.parametrize("command", ["evaluate", "play", "guess", "solve", "tree"])
def test_help_shows_every_registered_strategy_with_its_summary(command, monkeypatch):
    import mastermind.strategies as registry
    from mastermind.strategies.base import Strategy

    class Newcomer(Strategy):
        name = "newcomer"
        summary = "a strategy added after the command line was written"

        def pick(self, state):
            return 0

    monkeypatch.setattr(registry, "STRATEGIES", [*registry.STRATEGIES, Newcomer])
    monkeypatch.setenv("COLUMNS", "400")
    code, out, _ = run(command, "--help")
    assert code == 0
    for cls in registry.STRATEGIES:
        assert f"{cls.name}: {cls.summary}" in " ".join(out.split())


def test_a_randomised_run_reports_a_seed_that_repeats_it():
    code, out, _ = run("evaluate", "-s", "counter", "--pegs", "3", "--colors", "4", "--json")
    first = json.loads(out)
    assert code == 0 and isinstance(first["seed"], int)
    # --recompute: played again with the seed, not taken from the history
    code, out, _ = run(
        "evaluate",
        "-s",
        "counter",
        "--pegs",
        "3",
        "--colors",
        "4",
        "--json",
        "--seed",
        str(first["seed"]),
        "--recompute",
    )
    assert json.loads(out)["distribution"] == first["distribution"]
    assert json.loads(run("evaluate", "--pegs", "3", "--colors", "4", "--json")[1])["seed"] is None


def test_notation_option_reads_and_writes_one_style():
    code, out, _ = run("solve", "--notation", "colors", "--json", "RRGG=1,0", "RBYY=0,1")
    data = json.loads(out)
    assert code == 0 and data["candidates"] == 44 and data["guess"] == "BOGP"  # 3526 in colours
    code, _, err = run("solve", "--notation", "colors", "RRGG=1,0", "RBYY=0,1", "RBYY=2,0")
    assert code == 2 and "row 2 (RBYY=0,1), row 3 (RBYY=2,0)" in err
    code, out, _ = run("evaluate", "--notation", "letters", "--json")
    assert json.loads(out)["first_guess"] == "aabb"
    code, out, _ = run("solve", "--notation", "letters", "--json", "1122=1,0")  # digits still read
    assert json.loads(out)["candidates"] == 256
    code, _, err = run("evaluate", "--notation", "colors", "--colors", "12")
    assert code == 2 and "--notation colors writes at most 10 colours" in err


def test_the_top_level_help_says_which_commands_take_the_game_options_and_no_color():
    """The claim in `mastermind --help` is checked against every command's own options."""
    import re

    code, out, _ = run("--help")
    assert code == 0
    text = " ".join(out.split())
    game = re.search(r"--notation\) are taken by ([a-z, ]+) and (\w+);", text)
    plain = re.search(r"--no-color by ([a-z, ]+) and (\w+);", text)
    assert game and plain, text
    game_commands = {*game.group(1).split(", "), game.group(2)}
    color_commands = {*plain.group(1).split(", "), plain.group(2)}
    for name, command in cli.commands.items():
        options = {opt for p in command.params for opt in p.opts}
        game_options = {
            "--pegs",
            "--colors",
            "--no-repeats",
            "--blank",
            "--preset",
            "--max-guesses",
            "--notation",
        }
        has_game = game_options <= options
        assert has_game == (name in game_commands), name
        assert ("--no-color" in options) == (name in color_commands), name


def test_the_bare_command_prints_its_help_on_stdout_and_succeeds():
    result = CliRunner().invoke(cli, [], prog_name="mastermind")
    assert result.exit_code == 0 and result.stdout.startswith("Usage: mastermind")
    assert "Commands:" in result.stdout and "play " in result.stdout and not result.stderr
