"""Rough edges a new user hit: each one line on stderr and exit status 2, or the option made to work."""

import pytest
from click.testing import CliRunner

from mastermind import SeedError
from mastermind.cli import cli
from mastermind.research.evaluation import sample_secrets


def run(*args, input=None):
    result = CliRunner().invoke(cli, list(args), input=input)
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["solve", "--seed", "-1"],
        ["evaluate", "--seed", "-1", "--sample", "5"],
        ["evaluate", "--seed", "-1"],  # the seed unused (no sample, deterministic): refused
        ["compare", "--seed", "-1", "--strategies", "knuth"],
        ["evaluate", "-s", "random", "--seed", "-1", "--pegs", "2", "--colors", "3"],
        ["compare", "--seed", "-1", "--sample", "5"],
        ["guess", "--seed", "-1", "--secret", "1234"],
        ["play", "--seed", "-1"],
        ["match", "--players", "knuth,entropy", "--seed", "-1"],
    ],
)
def test_a_negative_seed_is_one_line_and_exit_2(args):
    code, out, err = run(*args)
    assert code == 2 and err == "mastermind: error: a seed must be a whole number, 0 or more, not -1\n"


@pytest.mark.parametrize(
    "args",
    [
        ["play"],
        ["evaluate", "-s", "random", "--pegs", "2", "--colors", "3"],
        ["compare", "-s", "knuth,random", "--pegs", "2", "--colors", "3"],
        ["match", "--players", "knuth,entropy"],
    ],
)
def test_a_seed_past_what_the_history_holds_is_one_line_and_exit_2(args, tmp_path):
    # it was taken, then the run's save overflowed SQLite (a traceback) or the game's record
    # read back as damaged: a seed is a whole number that fits the history's integers
    huge = "99999999999999999999999"
    code, out, err = run(*args, "--seed", huge, "--db", str(tmp_path / "h.sqlite3"), input="quit\n")
    why = f"a seed must be at most {2**63 - 1:,}, not {huge}"
    assert code == 2 and out == "" and err == f"mastermind: error: {why}\n"
    assert run("play", "--seed", str(2**63 - 1), "--no-history", input="quit\n")[0] == 1


@pytest.mark.parametrize(
    ("args", "command"),
    [(["play", "--db"], "play"), (["verify", "--part"], "verify"), (["worst", "--join"], "worst")],
)
def test_an_option_missing_its_value_points_to_its_commands_help(args, command):
    # click raises this one with no context: the line said "see 'mastermind --help'"
    code, out, err = run(*args)
    assert code == 2 and out == "" and err.count("\n") == 1
    result = CliRunner().invoke(cli, args, prog_name="mastermind")
    assert result.stderr.endswith(f"requires an argument. (see 'mastermind {command} --help')\n")


def test_an_unknown_option_of_the_command_itself_is_one_line():
    # it was click's three lines of usage and 'Error: No such option', not the house's one line
    result = CliRunner().invoke(cli, ["--frob"], prog_name="mastermind")
    why = "No such option '--frob'. (see 'mastermind --help')"
    assert result.exit_code == 2 and result.stdout == "" and result.stderr == f"mastermind: error: {why}\n"


@pytest.mark.parametrize("command", ["play", "guess", "evaluate", "tui", "match"])
def test_a_guess_limit_no_game_needs_is_one_line_and_exit_2(command):
    # a limit past any game's needs would build that many rows on a board: refused by the rules
    huge = "99999999999999999999999"
    for limit, shown in [("1000000", "1,000,000"), (huge, f"{int(huge):,}")]:
        code, out, err = run(command, "--max-guesses", limit)
        why = f"max guesses must be at most 200 (no game needs more), not {shown}"
        assert code == 2 and out == "" and err == f"mastermind: error: {why}\n"


def test_the_library_refuses_a_negative_seed_with_its_own_error():
    from mastermind import Rules

    with pytest.raises(SeedError):
        sample_secrets(Rules(), 5, seed=-1)


def test_an_empty_preset_is_refused_not_taken_for_classic():
    code, _, err = run("solve", "--preset", "")
    assert code == 2 and "unknown preset ''" in err


def test_a_strategy_name_is_written_the_registry_way():
    code, out, _ = run("solve", "-s", "KNUTH", "1122=1,0")
    assert code == 0 and "knuth plays next: 1344" in out and "KNUTH" not in out


def test_an_option_of_another_strategy_is_refused():
    code, _, err = run("tree", "-s", "knuth", "--no-tables")
    assert code == 2 and "--no-tables turns off the colour tables of counter: knuth has none" in err


@pytest.mark.parametrize(
    "args, suggestion",
    [
        (["play", "--bogus"], ""),  # was "(Did you mean one of: '--colours', '--pegs'?)": the dashes alike
        (["play", "--hardd"], " Did you mean '--hard'?"),
        (["play", "--colr", "5"], " Did you mean '--colors'?"),  # one name for an option, not its alias too
        (["play", "--review-after"], " Did you mean '--review'?"),
        (["tree", "--form", "json"], " Did you mean '--format'?"),
    ],
)
def test_an_unknown_option_is_compared_with_the_options_names_alone(args, suggestion):
    result = CliRunner().invoke(cli, args, prog_name="mastermind")
    why = f"No such option '{args[1]}'.{suggestion} (see 'mastermind {args[0]} --help')"
    assert result.exit_code == 2 and result.stdout == "" and result.stderr == f"mastermind: error: {why}\n"
