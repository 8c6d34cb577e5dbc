"""`mastermind guess`: the computer breaks the user's code; replies are scripted on stdin."""

import json
import subprocess
import sys

from click.testing import CliRunner

from mastermind.cli import cli


def run(*args, input=None):
    result = CliRunner().invoke(cli, list(args), input=input)
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout, result.stderr


# Knuth's own game: secret 3632 is found by 1122 (1,0), 1344 (0,1), 3526 (1,2), 1462 (1,1), 3632.
KNUTH_REPLIES = ["1,0", "0,1", "1,2", "1,1", "4,0"]


def test_knuth_example_with_typed_replies():
    code, out, err = run("guess", input="\n".join(KNUTH_REPLIES) + "\n")
    assert code == 0 and err == ""
    for n, (g, left) in enumerate([("1122", "1,296"), ("1344", "256"), ("3526", "44"), ("1462", "7")], 1):
        assert f"Guess {n}: {g}   ({left} codes possible)" in out
    assert "Guess 5: 3632   (1 code possible)" in out
    assert "Found it: 3632 in 5 guesses." in out


def test_secret_scores_itself():
    code, out, _ = run("guess", "--secret", "3632")
    assert code == 0
    assert "  reply: 1,2" in out and "Found it: 3632 in 5 guesses." in out
    code, out, err = run("guess", "--secret", "3632", "--json")
    assert code == 0
    record = json.loads(out)
    assert record["outcome"] == "won" and len(record["moves"]) == 5 and record["secret"] == "3632"
    assert [r["guess"] for r in record["moves"]] == ["1122", "1344", "3526", "1462", "3632"]
    assert "Found it" in err


def test_key_peg_replies_and_other_strategies_and_games():
    code, out, _ = run("guess", input="B\nW\nBWW\nBW\nBBBB\n")
    assert code == 0 and "Found it: 3632 in 5 guesses." in out
    code, out, _ = run("guess", "--secret", "0123", "--preset", "bulls-and-cows", "-s", "most-parts")
    assert code == 0 and "Found it: 0123" in out
    code, out, _ = run("guess", "--secret", "3632", "--first", "1234", "-s", "entropy")
    assert code == 0 and "Guess 1: 1234" in out


def test_bad_replies_are_explained_and_asked_again():
    script = ["x", "5,0", "3,1", "1,2,3", "", "help", "board"] + KNUTH_REPLIES
    code, out, _ = run("guess", input="\n".join(script) + "\n")
    assert code == 0
    assert "'x' is not a reply: write BLACK,WHITE (e.g. 1,2) or pegs (e.g. BWW). Try again" in out
    assert "Not a reply" not in out  # said once
    assert "impossible reply '5,0': there are only 4 pegs" in out
    assert "impossible reply '3,1'" in out and "the last peg cannot be right in another place" in out
    assert "'1,2,3' is not a reply" in out
    assert "fix ROW REPLY: correct an earlier reply" in out
    assert "(no guesses yet)" in out
    assert "Found it: 3632 in 5 guesses." in out  # nothing was lost


# Knuth's game with a wrong fourth reply (1,2 instead of 1,1): only 6425 is left, and the
# true reply to it (0,2) contradicts the earlier rows.
WRONG_ROW_4 = ["1,0", "0,1", "1,2", "1,2", "1,1"]


def test_contradiction_is_diagnosed_at_once_and_rows_can_be_corrected():
    code, out, _ = run("guess", input="\n".join(WRONG_ROW_4) + "\nquit\n")
    assert code == 1
    assert "Guess 5: 6425   (1 code possible)" in out
    assert (
        "The replies contradict each other: no secret fits row 1 (1122=1,0), row 2 (1344=0,1), "
        "row 3 (3526=1,2), row 5 (6425=1,1) together; correcting one reply would make them "
        "consistent (in brackets, how many codes would then fit): row 5 to 4,0 (1)." in out
    )
    assert "Guess 6" not in out  # no guess while the replies contradict each other
    # The user corrects row 4, is told what else could be wrong, corrects row 5, and goes on.
    script = WRONG_ROW_4 + ["fix 4 1,1", "fix 5 0,2", "4,0"]
    code, out, _ = run("guess", input="\n".join(script) + "\n")
    assert "Row 4 is now 1462 = 1,1." in out
    # each one key peg away: the reply just given first (here the wrong one), then the later rows
    assert "row 5 to 0,2 (1); row 3 to 0,2 (1) or 0,3 (1); or row 2 to 0,2 (1)." in out
    assert "Row 5 is now 6425 = 0,2." in out
    assert code == 0 and "Guess 6: 3632   (1 code possible)" in out and "Found it: 3632 in 6 guesses." in out


def test_a_row_with_rows_after_it_cannot_be_fixed_to_all_black_and_no_row_is_lost():
    # Knuth's game with row 4 wrong and row 5 truly 0,2: the user first tries row 4 as the win.
    script = ["1,0", "0,1", "1,2", "1,2", "0,2", "fix 4 4,0", "fix 4 1,1", "board", "quit"]
    code, out, _ = run("guess", "--no-history", input="\n".join(script) + "\n")
    assert "Cannot fix: row 4 cannot be all black: you replied to guesses after it (undo them first)." in out
    assert "Row 4 is now 1462 = 1,1." in out and "Guess 6: 3632" in out
    assert out.count("   5   6  4  2  5    ○○··") == 2  # row 5 is still there, on the last board too
    assert code == 1


def test_contradiction_repairs_ask_again_on_bad_commands():
    script = WRONG_ROW_4 + [
        "",
        "2,0",
        "fix",
        "fix 9 1,0",
        "fix 1 x",
        "fix a 1,0",
        "board",
        "help",
        "undo",
        "quit",
    ]
    code, out, _ = run("guess", input="\n".join(script) + "\n")
    assert code == 1
    assert "First correct a reply: fix ROW REPLY (e.g. fix 1 0,1), or undo." in out
    assert out.count("Write fix ROW REPLY, e.g. fix 1 0,1 (rows: 1 to 5).") == 2
    assert "Cannot fix: there is no row 9 (rows: 1 to 5)." in out
    assert "Cannot fix: 'x' is not a reply" in out
    assert "   5   6  4  2  5" in out  # the board
    assert "undo: take back the last reply" in out
    assert "Took back the last reply." in out and out.count("Guess 5: 6425") == 2
    assert "Given up." in out
    code, out, _ = run("guess", input="\n".join(WRONG_ROW_4) + "\n")  # input ends at the fix prompt
    assert code == 1 and "Stopped; resume with mastermind guess --resume 2." in out  # not given up


def test_undo_and_fix_without_history_and_end_of_input():
    code, out, _ = run("guess", input="undo\nfix 1 0,0\n")
    assert "Nothing to undo." in out and "(rows: none yet)" in out
    assert code == 1 and "Stopped before any move: there is nothing to resume." in out
    code, out, _ = run("guess", input="1,0\nundo\nquit\n")
    assert out.count("Guess 1: 1122") == 2 and "Took back the last reply." in out and code == 1
    assert "Given up." in out
    code, out, _ = run("guess", "--no-history", input="")
    assert code == 1 and "Stopped (the game is not saved in the history: it cannot be resumed)." in out


def test_end_of_input_stops_the_game_unfinished_and_it_resumes():
    from mastermind.history.store import Store

    code, out, _ = run("play", "--seed", "1", input="1122\n")
    assert code == 1 and "Stopped; resume with mastermind play --resume 1." in out
    assert "the code was" not in out and "gave up" not in out
    code, out, _ = run("guess", "--json", input="1,0\n")
    assert code == 1 and json.loads(out)["outcome"] == "playing"
    with Store() as store:
        assert [(g.kind, g.finished, len(g.record["moves"])) for g in store.games()] == [
            ("play", False, 1),
            ("guess", False, 1),
        ]
    code, out, _ = run("play", "--resume", "1", input="quit\n")
    assert code == 1 and "Resuming game 1: 1 guess made." in out and "You gave up: the code was " in out


def test_out_of_guesses_exits_1():
    code, out, _ = run("guess", "--secret", "3632", "--max-guesses", "2")
    assert code == 1 and "I could not find it in 2 guesses." in out


def test_bad_options_exit_2_in_one_line():
    for args, message in [
        (["--secret", "36321"], "'36321' has 5 symbols; a code has 4 pegs"),
        (["--secret", "3637"], "'7' is not a colour"),
        (["--first", "11"], "'11' has 2 symbols"),
        (["-s", "nope"], "unknown strategy 'nope'"),
        (["--preset", "chess"], "unknown preset"),
    ]:
        code, out, err = run("guess", *args, input="quit\n")
        assert code == 2, args
        assert message in err and err.count("\n") == 1 and out == ""


def test_guess_through_the_real_entry_point():
    proc = subprocess.run(
        [sys.executable, "-m", "mastermind.cli", "guess", "--pegs", "2", "--colors", "3"],
        input="0,0\n2,0\n",
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Guess 1: 11   (9 codes possible)" in proc.stdout and "Found it: 22 in 2 guesses." in proc.stdout


def test_a_game_too_large_to_enumerate_with_a_strategy_that_does_not_enumerate(monkeypatch):
    import mastermind.strategies as registry
    from mastermind import ContradictionError
    from mastermind.strategies.base import Strategy

    class Lazy(Strategy):
        """Plays code number N on turn N; finds the replies impossible after a 0,0."""

        name = "lazy"
        enumerates = False

        def pick(self, state):
            if any(fb == (0, 0) for _, fb in state.history):
                raise ContradictionError("lazy found no code that fits the replies", rows=())
            return len(state.history)

    monkeypatch.setattr(registry, "STRATEGIES", [*registry.STRATEGIES, Lazy])
    game = ["--pegs", "10", "--colors", "30", "-s", "lazy"]
    code, out, _ = run("guess", *game, input="1,0\n0,0\nundo\nquit\n")
    assert "Guess 1: 0000000000\n" in out  # no count: the codes cannot be counted
    assert "Lazy found no code that fits the replies." in out
    assert "Took back the last reply." in out and out.count("Guess 2: 0000000001") == 2
    assert code == 1
    code, out, err = run("guess", "--pegs", "10", "--colors", "30", input="quit\n")
    assert code == 2 and "knuth cannot play 10 pegs, 30 colours" in err
