"""`mastermind play`: the user breaks the computer's code, driven with scripted input."""

import json
import os
import re
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from mastermind.cli import cli
from mastermind.history.store import Store

SMALL = ["--pegs", "3", "--colors", "4"]


def run(*args, input=None, env=None):
    result = CliRunner().invoke(cli, list(args), input=input, env=env)
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout, result.stderr


def secret_of(seed, *options):
    """Lose a one-guess game on purpose: the secret is shown at the end."""
    code, out, _ = run("play", "--seed", str(seed), "--max-guesses", "1", *options, input="quit\n")
    assert code == 1
    return re.search(r"the code was (\w+)\.", out).group(1)


def test_the_same_seed_gives_the_same_secret_and_a_win_exits_0():
    secret = secret_of(5, *SMALL)
    assert secret == secret_of(5, *SMALL)
    wrong = "111" if secret != "111" else "222"
    code, out, _ = run("play", "--seed", "5", *SMALL, input=f"{wrong}\n{secret}\n")
    assert code == 0
    assert "You broke the code in 2 guesses!" in out
    # the board: row number, the code's pegs, the key pegs, and the reply in words
    assert re.search(rf"2\s+{'  '.join(secret)}\s+\S+\s+3 black, 0 white", out)


def test_a_lost_game_shows_the_secret_and_exits_1():
    secret = secret_of(11, *SMALL)
    wrong = "111" if secret != "111" else "222"
    lines = f"{wrong}\n{wrong}\n{wrong}\n"
    code, out, _ = run("play", "--seed", "11", *SMALL, "--max-guesses", "2", input=lines)
    assert code == 1
    assert f"You played {wrong} already (row 1): it would get the same reply." in out  # warned, then played
    assert f"Out of guesses: the code was {secret}." in out
    assert re.search(rf"{'  '.join(secret)}\s+the secret", out)  # the secret drawn as a row


def test_bad_guesses_are_explained_and_asked_again_nothing_lost():
    secret = secret_of(3, *SMALL)
    script = "\n".join(["12", "1234", "1x2", "", "help", "board", "112", secret]) + "\n"
    code, out, _ = run("play", "--seed", "3", *SMALL, input=script)
    assert code == 0
    assert "'12' has 2 symbols; a code has 3 pegs, e.g. 123. Try again" in out
    assert "'1234' has 4 symbols" in out
    assert "'x' is not a colour of this game (type colours as 1-4, a-d or RGBY)" in out
    assert "(no guesses yet)" in out  # board before any guess
    assert "undo: take back the last guess" in out  # help
    # the bad lines cost no guess: the win is on guess 2
    assert "guess 3 of 10>" not in out and "You broke the code in 2 guesses!" in out


def test_no_repeats_game_rejects_a_repeated_colour():
    code, out, _ = run("play", "--seed", "1", *SMALL, "--no-repeats", input="112\nquit\n")
    assert code == 1
    assert "'112': colour '1' repeats, and this game allows no repeats" in out


def test_hint_and_undo():
    script = "hint\n1122\nhint\nundo\nundo\nquit\n"
    code, out, _ = run("play", "--seed", "2", input=script)
    assert code == 1
    # the hint teaches: how 1122 splits the 1,296 codes (Knuth 1977: 13 classes, the largest 256; the
    # sum of squares 265,078 over 1,296 is 204.54 codes left on average), and the optimum from here
    # (Koyama and Lai 1993: 5625 / 1296 = 4.3403, with 1123)
    assert "Hint: 1,296 codes are still possible." in out
    assert "knuth would play 1122: it splits them into 13 classes, the largest of 256, 204.54 codes" in out
    assert "(the best, 1123: 4.3403)" in out
    hints = re.findall(r"Hint: ([\d,]+) codes? (?:is|are) still possible", out)
    assert len(hints) == 2 and int(hints[1].replace(",", "")) < 1296
    assert "Your last guess, 1122: good" in out  # the second hint reviews the guess before it
    assert "Took back the last guess." in out
    assert "Nothing to undo." in out
    assert "guess 2 of 10>" in out and out.count("guess 1 of 10>") == 4  # undo gives the turn back


def test_hint_with_another_strategy_and_a_game_too_large_for_it_falls_back_and_says_so():
    code, out, _ = run("play", "--seed", "2", *SMALL, "-s", "most-parts", input="hint\nquit\n")
    assert "most-parts would play" in out
    code, out, _ = run("play", "--seed", "2", "--pegs", "10", "--colors", "30", input="hint\nquit\n")
    hint = re.search(r"Hint: counter would play (\w+) \(knuth cannot play this game, so counter hints\)", out)
    assert code == 1 and hint and len(hint.group(1)) == 10 and "No hint" not in out
    code, out, _ = run("play", "--seed", "2", *SMALL, "-s", "six-guess", input="hint\nquit\n")
    assert re.search(
        r"  knuth would play \d{3}: .*\n  Six-guess cannot play this game, so knuth hints\.", out
    )
    # a game knuth can play: knuth hints (as it teaches), not the counter
    code, out, _ = run(
        "play", "--seed", "2", "--pegs", "10", "--colors", "30", "-s", "counter", input="hint\nquit\n"
    )
    assert "Hint: counter would play" in out


def test_end_of_input_and_quit_end_the_game_cleanly():
    for script in ("q\n", "1122\nexit\n", "quit\n"):
        code, out, err = run("play", "--seed", "4", input=script)
        assert code == 1
        assert "You gave up: the code was" in out
        assert err == ""
    code, out, err = run("play", "--seed", "4", input="1122\n")  # the end of input: not given up
    assert code == 1 and err == ""
    assert "Stopped; resume with mastermind play --resume" in out and "the code was" not in out
    code, out, err = run("play", "--seed", "4", input="")  # before any guess: nothing kept to resume
    assert code == 1 and err == "" and "Stopped before any move: there is nothing to resume." in out


def test_json_record_on_stdout_board_on_stderr():
    secret = secret_of(8, *SMALL)
    code, out, err = run("play", "--seed", "8", *SMALL, "--json", input=f"{secret}\n")
    assert code == 0
    record = json.loads(out)
    assert record["outcome"] == "won" and record["finished"] and record["kind"] == "play"
    assert record["moves"] == [{"guess": secret, "reply": "3,0"}] and record["secret"] == secret
    assert record["seed"] == 8 and record["rules"]["pegs"] == 3
    assert "You broke the code in 1 guess!" in err


def test_bad_options_exit_2_in_one_line():
    for args, message in [
        (["--strategy", "nope"], "unknown strategy 'nope'"),
        (["--seed", "x"], "'x' is not a valid integer"),
        (["--pegs", "0"], "pegs must be 1 to 10"),
        (["--max-guesses", "0"], "max guesses must be at least 1"),
        (
            ["--max-guesses", "99999999999999999999999"],
            "max guesses must be at most 200 (no game needs more), not 99,999,999,999,999,999,999,999",
        ),
        (["--colr", "5"], "No such option '--colr'"),
    ]:
        code, out, err = run("play", *args, input="quit\n")
        assert code == 2, args
        assert message in err and err.count("\n") == 1 and out == ""


def test_colour_only_when_asked_and_never_with_no_color():
    code, out, _ = run("play", "--seed", "1", input="1122\n", env={"FORCE_COLOR": "1", "NO_COLOR": None})
    assert "\x1b[" in out
    code, out, _ = run("play", "--seed", "1", "--no-color", input="1122\n", env={"FORCE_COLOR": "1"})
    assert "\x1b[" not in out
    code, out, _ = run("play", "--seed", "1", input="1122\n", env={"FORCE_COLOR": "1", "NO_COLOR": "1"})
    assert "\x1b[" not in out
    code, out, _ = run("play", "--seed", "1", input="1122\n")  # not a terminal: plain
    assert "\x1b[" not in out


def test_play_through_the_real_entry_point():
    proc = subprocess.run(
        [sys.executable, "-m", "mastermind.cli", "play", "--seed", "9", *SMALL, "--max-guesses", "1"],
        input="12\n111\n",
        capture_output=True,
        text=True,
        check=False,
    )
    assert "'12' has 2 symbols" in proc.stdout
    if proc.returncode == 0:
        assert "You broke the code in 1 guess!" in proc.stdout
    else:
        assert proc.returncode == 1 and "Out of guesses: the code was" in proc.stdout
    assert proc.stderr == ""


def test_ctrl_c_stops_the_game_unfinished_as_the_end_of_input_does_and_it_resumes(monkeypatch):
    from mastermind.history.store import Store

    typed = iter(["1122"])

    def keyboard(prompt=""):
        print(prompt, end="")
        line = next(typed, None)
        if line is None:
            raise KeyboardInterrupt
        return line

    with monkeypatch.context() as patched:
        patched.setattr("builtins.input", keyboard)
        code, out, err = run("play", "--seed", "1")
    assert code == 1 and err == ""  # not 130, not "interrupted": the game is kept
    assert out.endswith("guess 2 of 10> \nStopped; resume with mastermind play --resume 1.\n")
    with Store() as store:
        (stored,) = store.games()
    assert (stored.finished, stored.outcome, [m["guess"] for m in stored.record["moves"]]) == (
        False,
        "playing",
        ["1122"],
    )
    code, out, _ = run("play", "--resume", "1", input="quit\n")
    assert code == 1 and "Resuming game 1: 1 guess made." in out and "You gave up: the code was " in out


def saved(db):
    """How many games the history ``db`` holds (0 before it is made)."""
    if not db.exists():
        return 0
    with Store(db) as store:
        return len(store.games())


def test_a_real_ctrl_c_at_the_prompt_stops_play_and_guess_with_the_way_to_resume(tmp_path):
    import os
    import signal

    for command in ("play", "guess"):
        db = tmp_path / f"{command}.db"
        proc = subprocess.Popen(
            [sys.executable, "-m", "mastermind.cli", command, "--db", str(db)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # as on a terminal
        )
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write("1122\n" if command == "play" else "1,0\n")
        proc.stdin.flush()
        proc.stdout.readline()  # the first line: the game has started
        deadline = time.monotonic() + 60  # a generous wait for a slow machine, not a measurement
        while time.monotonic() < deadline and not saved(db):
            time.sleep(0.05)  # until the first move is saved: the command waits at its next prompt
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == 1 and err == "", (command, err)
        assert f"Stopped; resume with mastermind {command} --db {db} --resume 1." in out


def test_warn_inconsistent_names_the_reply_a_guess_contradicts_and_plays_it_when_typed_again():
    secret = secret_of(5, *SMALL)
    absent = next(c for c in "1234" if c not in secret)
    first = absent * 3  # 0 black, 0 white: no code with that colour is possible
    clash = absent * 2 + next(c for c in "1234" if c != absent)
    lines = f"{first}\n{clash}\n{clash}\n{secret}\n"
    code, out, _ = run("play", "--seed", "5", *SMALL, "--warn-inconsistent", input=lines)
    assert code == 0
    warning = (
        f"{clash} cannot be the secret: guess 1, {first}, got 0 black, 0 white, and would have got 2 black"
    )
    assert warning in out and "Type it again to play it anyway." in out
    assert "You broke the code in 3 guesses!" in out  # warned once, then played: a warning, not a refusal
    code, out, _ = run("play", "--seed", "5", *SMALL, input=lines)  # off by default: played at once
    assert code == 0 and "cannot be the secret" not in out
    assert f"You played {clash} already (row 2)" in out  # so the third line is a repeat


def test_review_follows_a_game_given_up_after_its_first_guesses():
    code, out, _ = run("play", "--review", "--seed", "2026", "--no-history", input="1122\n1344\nquit\n")
    assert code == 1 and "You gave up: the code was 2154." in out
    assert "2 guesses played; best play expects 4.3403 from the first move." in out
    code, out, _ = run("play", "--review", "--seed", "2026", "--no-history", input="quit\n")
    assert code == 1 and "guesses played" not in out  # no guess: nothing to review


def test_a_game_too_large_to_review_is_not_offered_a_review(tmp_path):
    # 10 pegs of 36 colours: play said "mastermind review --game 1", which then refused it, and
    # --review turned the game's exit status 1 into 2 with the review's error
    huge, db = ["--pegs", "10", "--colors", "36", "--seed", "1"], str(tmp_path / "h.sqlite3")
    code, out, err = run("play", *huge, "--db", db, input="0123456789\nquit\n")
    assert code == 1 and "You gave up: the code was " in out and "mastermind review" not in out and err == ""
    code, out, err = run("play", *huge, "--no-history", "--review", input="0123456789\nquit\n")
    assert code == 1 and err == ""
    assert out.endswith(
        "No review: 10 pegs, 36 colours, repeats allowed has too many codes to review a game of it.\n"
    )
    code, _, err = run("review", "--game", "1", "--db", db)  # asked for all the same: the same words
    assert code == 2 and err.endswith("has too many codes to review a game of it\n")


def test_bytes_that_are_not_text_are_quoted_as_the_replacement_character(tmp_path):
    """A byte that is no UTF-8 (a terminal in another encoding) is read, as Python reads it, as a
    lone surrogate: the message quoting the guess shows the replacement character, not the escape."""
    proc = subprocess.run(
        [sys.executable, "-m", "mastermind", "play", "--seed", "1", "--no-history"],
        input=b"\xff12\nquit\n",
        capture_output=True,
        check=False,
        env={
            **os.environ,
            "MASTERMIND_DB": str(tmp_path / "h.db"),
            "PYTHONIOENCODING": "utf-8:surrogateescape",
        },
    )
    out = proc.stdout.decode("utf-8", "replace")
    assert "Not a guess: '\ufffd12' has 3 symbols" in out and "udcff" not in out


def test_each_state_of_a_game_is_handed_to_the_history_once_its_end_before_it_is_shown(tmp_path, monkeypatch):
    """The session commits the end of the game before showing it (the secret of a game given up
    is never shown while the history has it open); the command does not hand it over once more."""
    from mastermind.history import store as store_module

    handed = []
    save = store_module.Recorder.save

    def counted(self, record):
        handed.append((len(record["moves"]), record["outcome"]))
        return save(self, record)

    monkeypatch.setattr(store_module.Recorder, "save", counted)
    db = str(tmp_path / "h.db")
    secret = secret_of(5, *SMALL, "--no-history")
    wrong = "111" if secret != "111" else "222"
    handed.clear()
    code, _, _ = run("play", "--seed", "5", *SMALL, "--db", db, input=f"{wrong}\n{secret}\n")
    assert code == 0 and handed == [(0, "playing"), (1, "playing"), (2, "won")]
    handed.clear()
    code, out, _ = run("play", "--seed", "5", *SMALL, "--db", db, input=f"{wrong}\nquit\n")
    assert code == 1 and "the code was" in out and handed == [(0, "playing"), (1, "playing"), (1, "gave-up")]
    with Store(db, write=False) as store:
        assert [(len(g.record["moves"]), g.outcome) for g in store.games()] == [(2, "won"), (1, "gave-up")]


DEFAULT = "the default (no --notation) writes up to 36 (0-9 then a-z)"
LETTERS = "--notation letters writes up to 26"
DIGITS = "--notation digits writes at most 10 colours (1-9, or 0-9 with 10 colours), and this game has"
COLORS = "--notation colors writes at most 10 colours (the initials RGBYOPCWKM), and this game has"


@pytest.mark.parametrize(
    "style, colors, why",
    [
        ("digits", 36, f"{DIGITS} 36: {DEFAULT}"),
        ("digits", 11, f"{DIGITS} 11: {LETTERS}"),
        (
            "letters",
            27,
            f"--notation letters writes at most 26 colours (a-z), and this game has 27: {DEFAULT}",
        ),
        ("colors", 12, f"{COLORS} 12: {LETTERS}"),
        ("colors", 36, f"{COLORS} 36: {DEFAULT}"),
    ],
)
def test_a_notation_too_small_for_the_game_says_how_many_colours_it_writes_and_which_fits(style, colors, why):
    code, out, err = run("play", "--colors", str(colors), "--notation", style, input="quit\n")
    assert (code, out, err) == (2, "", f"mastermind: error: {why}\n")


@pytest.mark.parametrize("style, colors", [("digits", 9), ("digits", 10), ("letters", 26), ("colors", 10)])
def test_a_notation_plays_as_many_colours_as_it_writes(style, colors):
    code, out, _ = run("play", "--colors", str(colors), "--notation", style, "--seed", "1", input="quit\n")
    assert code == 1 and "You gave up: the code was " in out


def test_hard_mode_refuses_a_repeated_guess_at_once_without_offering_it_again():
    # hard mode said "You played 1122 already (row 1)... Type it again to play it anyway." and
    # then refused it when typed again: a repeat not won cannot be the secret
    lines = "1122\n3456\n1122\n1122\n"
    code, out, _ = run("play", "--seed", "5", "--hard", "--no-history", input=lines)
    assert code == 1
    assert "already (row 1)" not in out and "Type it again" not in out
    refusal = "Not allowed: hard mode: 1122 cannot be the secret: guess 1, 1122, got 0 black, 0 white"
    assert out.count(refusal) == 2  # each time it is typed, the same refusal


def test_a_resumed_game_says_it_goes_on_and_draws_no_new_secret(tmp_path):
    # it opened with "I have chosen a secret: ... You have 10 guesses.", then "Resuming game 1"
    env = {"MASTERMIND_DB": str(tmp_path / "h.sqlite3")}
    code, out, _ = run("play", "--seed", "5", input="1122\n", env=env)
    assert code == 1 and "resume with mastermind play --resume 1" in out
    code, out, _ = run("play", "--resume", input="quit\n", env=env)
    assert code == 1 and "I have chosen a secret" not in out
    assert out.startswith(
        "Resuming game 1: 1 guess made.\nSame secret as before: 4 pegs, colours 1-6, repeats allowed. "
        "You have 9 guesses left. Type a guess, or help.\n"
    )
