"""More rough edges a new user hit: each refused in one line with exit status 2, or made to work."""

import json

import pytest
from click.testing import CliRunner

from mastermind.cli import cli


def run(*args, input=None):
    result = CliRunner().invoke(cli, list(args), input=input)
    return result.exit_code, result.stdout, result.stderr


def one_line_error(code, err, *words):
    assert code == 2 and err.startswith("mastermind: error: ") and err.count("\n") == 1, err
    for w in words:
        assert w in err, err


def test_a_reply_with_thousands_of_digits_is_an_impossible_reply_not_a_traceback():
    code, out, _ = run("solve", "1122=1,0" + "0" * 5000)  # 1,000...0 is the reply 1,0 written long
    assert code == 0 and "256 codes are possible" in out
    code, _, err = run("solve", "1122=1,1" + "0" * 5000)
    one_line_error(code, err, "impossible reply", "there are only 4 pegs")
    assert len(err) < 300


def test_a_very_long_guess_is_cut_in_the_message():
    code, _, err = run("solve", "1" * 100_000 + "=1,0")
    one_line_error(code, err, "(100,004 characters)")
    assert len(err) < 300
    code, out, _ = run("play", "--seed", "1", "--no-history", input="2" * 100_000 + "\nquit\n")
    message = next(line for line in out.splitlines() if "Not a guess" in line)
    assert "(100,000 characters)" in message and len(message) < 300


def test_plurals_agree():
    code, _, err = run("solve", "A=1,0")
    one_line_error(code, err, "'A' has 1 symbol; a code has 4 pegs")
    code, _, err = run("solve", "--pegs", "1", "1=2,0")
    one_line_error(code, err, "there is only 1 peg")
    code, out, _ = run("evaluate", "--pegs", "1", "--colors", "2")
    assert code == 0 and "1 peg, colours 1-2" in out


def test_a_bad_reply_says_so_once():
    code, out, _ = run("guess", "--no-history", input="zz\nquit\n")
    assert "'zz' is not a reply" in out and "Not a reply" not in out


def test_a_code_may_be_typed_in_any_notation_that_fits_the_game_everywhere():
    code, out, _ = run("play", "--seed", "1", "--no-history", input="RRGG\nquit\n")
    assert "1  1  2  2" in out and "Not a guess" not in out
    code, out, _ = run("play", "--seed", "1", "--no-history", "--notation", "colors", input="aabb\nquit\n")
    assert "R  R  G  G" in out and "Not a guess" not in out
    arabic = "\u0661\u0661\u0662\u0662"  # 1122 in Arabic-Indic digits
    assert run("solve", f"{arabic}=1,0")[1] == run("solve", "RRGG=1,0")[1] == run("solve", "1122=1,0")[1]
    bulls = ("--preset", "bulls-and-cows", "--no-history")
    code, out, _ = run("guess", "--secret", "YOPC", "--first", "abcd", *bulls)
    assert code == 0 and "Guess 1: 0123" in out and "Found it: 3456" in out
    code, out, _ = run("guess", "--secret", "ygbr", "--first", "aabb", "--no-history")
    assert code == 0 and "Guess 1: 1122" in out and "Found it: 4231" in out
    code, out, _ = run("partition", "--guess", "RRGG", "--guess", "a a b c")
    assert code == 0 and "1122" in out and "1123" in out
    code, out, _ = run("evaluate", "--first", "RRGB", "--json")
    assert code == 0 and '"first_guess": "1123"' in out


def test_what_cannot_be_read_is_quoted_as_typed():
    code, _, err = run("solve", "ABGX=1,0")
    one_line_error(code, err, "'X' is not a colour of this game (type colours as 1-6, a-f or RGBYOP)")
    code, _, err = run("solve", "ABGG=1,0")
    one_line_error(code, err, "'ABGG': it mixes notations")
    code, _, err = run("solve", "BBBB=1,0")  # 2222 in letters, 3333 in colours: not guessed
    one_line_error(code, err, "'BBBB' could be 2222 (in letters) or 3333 (in colours)")


def test_partition_refuses_a_strategy_it_would_not_use():
    code, _, err = run("partition", "--guess", "1122", "-s", "nope")
    one_line_error(code, err, "unknown strategy 'nope'")
    code, _, err = run("partition", "--guess", "1122", "-s", "entropy")
    one_line_error(code, err, "with --guess it does nothing")
    code, out, _ = run("partition", "-s", "entropy", "1122=1,0")  # without --guess, the strategy's guess
    lines = out.splitlines()
    assert code == 0 and lines[1] == "entropy plays 1345 next" and "1345" in lines[2]  # not knuth's 1344


@pytest.mark.parametrize("command", [["evaluate"], ["compare", "--strategies", "knuth"]])
def test_an_empty_plot_path_is_refused_before_any_work(command):
    code, out, err = run(*command, "--pegs", "2", "--colors", "3", "--plot", "")
    one_line_error(code, err, "no file to draw in")
    assert out == ""


def test_solve_counts_the_codes_left_in_a_game_too_large_to_enumerate_when_few():
    big = ("--pegs", "8", "--colors", "10", "-s", "counter")
    code, out, _ = run("solve", *big, "12345678=8,0")
    assert code == 0 and "Solved: the secret is 12345678" in out and "too many" not in out
    code, out, _ = run("solve", *big, "--json", "12345678=7,0", "--show", "100")  # one peg wrong: 8 x 9
    data = json.loads(out)
    assert data["candidates"] == 72 and data["sample"][:3] == ["02345678", "10345678", "11345678"]
    code, out, _ = run("solve", *big, "12345678=7,0")
    assert "More than 20 codes are possible" in out and "02345678 10345678" in out


def test_tree_stops_at_the_guess_limit_and_marks_the_codes_lost_as_evaluate_counts_them():
    small = ("--pegs", "2", "--colors", "3", "--max-guesses", "2")
    code, out, _ = run("tree", *small)
    assert code == 0
    assert out.splitlines()[1:] == [
        "11  (9 codes)",
        "  0,0: 4 -> 22",
        "      0,0: 1 -> lost",
        "      1,0: 2 -> lost",
        "  1,0: 4 -> 12",
        "      0,1: 1 -> lost",
        "      0,2: 1 -> lost",
        "      1,0: 1 -> lost",
        "lost: 6 codes not found in 2 guesses",
    ]
    assert json.loads(run("evaluate", *small, "--json")[1])["lost"] == 6
    tree = json.loads(run("tree", *small, "--format", "json")[1])
    assert tree["max_guesses"] == 2
    assert tree["tree"]["replies"]["0,0"]["replies"]["1,0"] == {"lost": True, "size": 2}
    assert 'label="lost\\n2", style=dashed' in run("tree", *small, "--format", "dot")[1]
    code, out, _ = run("tree", "--pegs", "2", "--colors", "3")  # the default limit, 10, cuts nothing
    assert "lost" not in out and "0,2: 1 -> 32  wins" in out


def test_options_given_with_a_preset_override_it_and_say_so():
    code, out, err = run("solve", "--preset", "super", "--pegs", "4", "--json")
    assert code == 0 and json.loads(out)["candidates"] == 8**4
    assert err == (
        "mastermind: note: preset super with --pegs 4 is 4 pegs, colours 1-8, repeats allowed "
        "(options given override the preset)\n"
    )
    code, out, err = run("solve", "--preset", "bulls-and-cows", "--pegs", "3", "--json")
    assert code == 0 and err == (
        "mastermind: note: preset bulls-and-cows with --pegs 3 is 3 digits 0-9, no digit repeats "
        "(options given override the preset)\n"
    )  # Bulls and Cows in its own words
    code, out, err = run("solve", "--preset", "bulls-and-cows", "--no-repeats", "--json")
    assert code == 0 and err == ""  # nothing overridden: nothing said
    assert "override its values" in run("solve", "--help")[1]


@pytest.mark.parametrize("option", ["--secret", "--first"])
def test_an_empty_code_option_is_refused_not_taken_as_absent(option):
    code, out, err = run("guess", option, "", "--no-history", input="1,0\n")
    one_line_error(code, err, "empty code: type one symbol per peg, e.g. 1234")
    assert out == ""


@pytest.mark.parametrize(
    "args, words",
    [
        (
            ["evaluate", "-s", "counter", "--pegs", "10", "--colors", "10", "--sample", "10000000000"],
            "a sample of all 10,000,000,000 secrets of 10 pegs, 10 colours, repeats allowed is too large",
        ),
        (
            ["evaluate", "-s", "counter", "--pegs", "10", "--colors", "10", "--sample", "1000000000"],
            "a sample of 1,000,000,000 secrets is too large to hold; a sample has at most 8,388,608",
        ),
        (
            ["compare", "--strategies", "counter", "--pegs", "9", "--colors", "9", "--sample", "400000000"],
            "a sample of all 387,420,489 secrets",
        ),
    ],
)
def test_a_sample_too_large_to_hold_is_refused_before_any_allocation(args, words):
    code, out, err = run(*args)
    one_line_error(code, err, words)


def test_a_sample_larger_than_a_small_game_is_the_whole_game():
    code, out, err = run("evaluate", "--pegs", "2", "--colors", "3", "--sample", "10000000000", "--json")
    assert code == 0 and json.loads(out)["games"] == 9
    assert err == (
        "mastermind: note: a sample of 10,000,000,000 covers every secret: all 9 secrets of 2 pegs, "
        "colours 1-3, repeats allowed are played\n"
    )
    code, _, err = run("compare", "--strategies", "knuth,random", "--sample", "5000", "--seed", "1")
    assert code == 0 and "a sample of 5,000 covers every secret: all 1,296 secrets" in err


def test_a_sample_of_every_secret_is_the_whole_run_not_a_game_by_game_one():
    # it played each secret on its own (7 s for Knuth's 0.1 s tree walk), drew and reported a
    # seed a deterministic strategy does not use, and never found the same run in the history
    code, out, _ = run("evaluate", "-s", "knuth", "--json")
    assert code == 0 and json.loads(out)["total"] == 5801
    code, out, err = run("evaluate", "-s", "knuth", "--sample", "5000", "--json")
    assert code == 0 and json.loads(out)["seed"] is None and json.loads(out)["from_history"]
    assert "a sample of 5,000 covers every secret" in err and "taken from the history" in err


def test_bulls_and_cows_speaks_of_bulls_cows_and_digits():
    bulls = ("--preset", "bulls-and-cows", "--no-history")
    code, out, _ = run("guess", *bulls, input="help\nzz\nBCC\nquit\n")
    assert out.startswith(
        "Think of a secret: 4 digits 0-9, no digit repeats. I have 10 guesses. "
        "Reply BULLS,COWS (e.g. 1,2), key pegs (BCC or BWW) or - for none"
    )
    assert "'zz' is not a reply: write BULLS,COWS (e.g. 1,2) or pegs (e.g. BCC or BWW)" in out
    assert "Guess 2: 0145   (216 codes possible)" in out  # BCC read as 1 bull, 2 cows
    code, out, _ = run("play", *bulls, "--seed", "2", input="0123\n1123\nquit\n")
    assert "1 bull, 2 cows" in out and "black" not in out and "colour" not in out
    assert "'1123': digit '1' repeats" in out
    code, _, err = run("solve", "--preset", "bulls-and-cows", "0x23=1,0")
    one_line_error(code, err, "'x' is not a digit of this game (type digits as 0-9, a-j or RGBYOPCWKM)")
    code, out, _ = run("play", "--seed", "2", "--no-history", input="1123\nquit\n")  # Mastermind unchanged
    assert "colours 1-6" in out and "2 black, 0 white" in out


def test_bulls_and_cows_says_digits_where_mastermind_says_pegs():
    bulls = ("--preset", "bulls-and-cows", "--no-history")
    code, out, _ = run("guess", *bulls, input="5,0\n3,1\nBWW\nquit\n")
    assert "impossible reply '5,0': there are only 4 digits" in out
    assert (
        "impossible reply '3,1': if 3 digits are right, the last digit cannot be right in another place"
    ) in out
    assert "Guess 2:" in out  # BWW read as 1 bull, 2 cows
    assert "4 pegs" not in out
    code, out, _ = run("play", *bulls, "--seed", "2", input="help\nquit\n")
    assert out.startswith("I have chosen a secret: 4 digits 0-9, no digit repeats.")
    assert "Type a code of 4 digits 0-9 (e.g. " in out and "4 pegs" not in out
    code, _, err = run("solve", "--preset", "bulls-and-cows", "1234=5,0")
    one_line_error(code, err, "impossible reply '5,0': there are only 4 digits")
    code, _, err = run("solve", "1122=5,0")  # Mastermind unchanged
    one_line_error(code, err, "impossible reply '5,0': there are only 4 pegs")
    code, out, _ = run("solve", "--help")
    assert "GUESS=BLACK,WHITE" in out and "GUESS=BULLS,COWS" in out


def _rows(path):
    import csv

    with open(path, newline="") as f:
        return list(csv.DictReader(f))


@pytest.mark.parametrize(
    "args", [["-s", "knuth"], ["-s", "random", "--seed", "3"], ["--sample", "50", "--seed", "1"]]
)
def test_per_secret_writes_each_secret_its_guesses_and_the_games_evaluate_scored(tmp_path, args):
    path = tmp_path / "games.csv"
    code, out, err = run("evaluate", *args, "--json", "--per-secret", str(path))
    assert code == 0 and f"games written to {path}" in err
    stats, rows = json.loads(out), _rows(path)
    assert len(rows) == stats["games"]
    counts = {}
    for row in rows:
        played = row["played"].split()
        assert int(row["guesses"]) == len(played) and played[-1] == row["secret"]
        counts[row["guesses"]] = counts.get(row["guesses"], 0) + 1
    assert counts == stats["distribution"]


def test_per_secret_game_is_the_game_guess_plays(tmp_path):
    path = tmp_path / "knuth.csv"
    assert run("evaluate", "--per-secret", str(path))[0] == 0
    row = next(r for r in _rows(path) if r["secret"] == "3632")
    record = json.loads(run("guess", "--secret", "3632", "--json", "--no-history")[1])
    assert row["played"].split() == [m["guess"] for m in record["moves"]]


@pytest.mark.parametrize(
    "name, words",
    [
        ("", "--per-secret: no file name given (- for stdout)"),
        (".", "it is a directory"),
        ("nope/x.csv", "folder 'nope' does not exist"),
    ],
)
def test_a_bad_per_secret_file_is_refused_before_any_work(name, words):
    code, out, err = run("evaluate", "--per-secret", name)
    one_line_error(code, err, words)
    assert out == ""


def test_per_secret_follows_the_output_rule_of_history_csv_any_name_and_dash_for_stdout(tmp_path):
    code, out, err = run("evaluate", "-p", "2", "-c", "2", "--per-secret", "-", "--no-history")
    assert code == 0 and out == "secret,guesses,played\n11,1,11\n12,2,11 12\n21,3,11 12 21\n22,2,11 22\n"
    assert "total guesses │ 8" in err  # the summary, out of the games' way
    code, _, err = run("evaluate", "-p", "2", "-c", "2", "--per-secret", "-", "--json")
    one_line_error(code, err, "--json and --per-secret - both write on stdout")
    path = tmp_path / "games.txt"  # any name: the format is CSV, as history --csv writes
    code, _, err = run("evaluate", "-p", "2", "-c", "2", "--per-secret", str(path), "--no-history")
    assert code == 0 and path.read_text().splitlines()[1] == "11,1,11"


def _png_size(path):
    import struct

    with open(path, "rb") as f:
        head = f.read(24)
    return struct.unpack(">II", head[16:24])


def test_charts_label_their_bars_name_one_strategy_in_the_title_and_are_sharp(tmp_path):
    from mastermind import Rules, evaluate, make_strategy
    from mastermind.research.plot import PNG_DPI, chart

    one = evaluate(make_strategy("knuth", Rules()))
    ax = chart([one]).axes[0]
    assert ax.get_legend() is None and "knuth on 4 pegs" in ax.get_title() and "mean 4.4761" in ax.get_title()
    assert [t.get_text() for t in ax.texts] == ["1", "6", "62", "533", "694"]
    two = evaluate(make_strategy("entropy", Rules()))
    ax = chart([one, two], log=True).axes[0]
    assert ax.get_yscale() == "log" and len(ax.get_legend().get_texts()) == 2
    path = tmp_path / "knuth.png"
    code, _, _ = run("evaluate", "--plot", str(path), "--log")
    width, height = _png_size(path)
    assert code == 0 and height == round(4.5 * PNG_DPI) and PNG_DPI >= 150


def test_log_without_a_plot_is_refused():
    code, _, err = run("evaluate", "--log")
    one_line_error(code, err, "give --plot FILE too")


def test_a_long_evaluation_is_announced_first_with_how_to_stop_it(monkeypatch):
    import mastermind.research.evaluation as evaluation

    seen = []

    def estimate(player):
        seen.append(player.space.size)
        return 11_000.0  # the cost model's answer is not what this test checks

    monkeypatch.setattr(evaluation, "estimate_seconds", estimate)
    monkeypatch.setattr("mastermind.cli.runs.ESTIMATE_FROM", 10)  # as if 3x3 were large
    code, out, err = run("evaluate", "--pegs", "2", "--colors", "3", "--json")
    assert code == 0 and seen == [] and err == ""  # small games: no estimate at all
    code, out, err = run("evaluate", "--pegs", "3", "--colors", "3", "--json")
    assert code == 0 and seen == [27]
    assert err.startswith("mastermind: note: knuth on 27 codes: roughly 3 hours on this machine")
    assert "Ctrl-C stops" in err


def test_the_estimate_has_a_cost_model_only_for_partition_strategies():
    from mastermind import Rules, make_strategy
    from mastermind.research.evaluation import estimate_seconds

    assert estimate_seconds(make_strategy("counter", Rules())) is None
    assert estimate_seconds(make_strategy("knuth", Rules(pegs=6, colors=9))) > 0


def test_small_games_are_spoken_of_in_the_singular_with_replies_that_can_occur():
    code, out, _ = run("guess", "--pegs", "1", "--colors", "2", "--no-history", input="zz\nquit\n")
    assert out.startswith(
        "Think of a secret: 1 peg, colours 1-2, repeats allowed. I have 10 guesses. "
        "Reply BLACK,WHITE (e.g. 1,0), key pegs (B) or - for none"
    )
    assert "'zz' is not a reply: write BLACK,WHITE (e.g. 1,0) or pegs (e.g. B)" in out


def test_solve_after_the_winning_reply_says_it_is_solved_instead_of_playing_the_secret_again():
    code, out, _ = run("solve", "1344=0,1", "1356=4,0", "--pegs", "4")
    assert code == 2  # 1356 cannot be the secret after 1344=0,1: the diagnosis, not "solved"
    code, out, _ = run("solve", "1122=1,0", "1344=4,0")
    assert code == 0 and "Solved: the secret is 1344, found in 2 guesses." in out and "plays next" not in out
    code, out, _ = run("solve", "--json", "1122=4,0")
    assert json.loads(out) == {"candidates": 1, "guess": None, "solved": True, "secret": "1122"}


def test_a_checkpoint_in_a_missing_folder_is_refused_before_any_work(tmp_path):
    where = tmp_path / "missing" / "run.jsonl"
    code, _, err = run("evaluate", "--pegs", "2", "--colors", "3", "--checkpoint", str(where), "--no-history")
    one_line_error(code, err, "folder", "does not exist")
    assert not where.parent.exists()


@pytest.mark.parametrize(
    ("option", "name", "words"),
    [
        ("--checkpoint", "", "--checkpoint: no file name given"),
        ("--checkpoint", "-", "--checkpoint: this file cannot go to stdout"),
        ("--checkpoint", ".", "--checkpoint: cannot write '.': it is a directory"),
        ("--save", "new/", "--save: cannot write 'new/': it names a directory"),
        ("--plot", "/proc/x.png", "--plot: cannot write '/proc/x.png'"),
    ],
)
def test_every_file_evaluate_writes_follows_one_rule_before_any_work(
    tmp_path, monkeypatch, option, name, words
):
    monkeypatch.chdir(tmp_path)
    code, out, err = run("evaluate", "-p", "2", "-c", "3", option, name, "--no-history")
    one_line_error(code, err, words)
    assert out == "" and list(tmp_path.iterdir()) == []  # nothing made, not even a file "new"


@pytest.mark.parametrize("folder", ["/proc/run", "/proc"])
def test_a_checkpoint_folder_that_cannot_be_written_is_refused_before_any_work(folder):
    # compare's --checkpoint is a folder: one that could not be made (or written) was a traceback
    # (OSError from mkdir) once the first strategy's run began
    code, out, err = run("compare", "-s", "knuth,entropy", "-p", "2", "-c", "3", "--checkpoint", folder)
    one_line_error(code, err, f"--checkpoint: cannot write '{folder}'")
    assert out == ""


def test_a_link_into_a_missing_folder_names_that_folder(tmp_path):
    (tmp_path / "link").symlink_to(tmp_path / "gone" / "x.tree")
    code, _, err = run("tree", "-s", "knuth", "-p", "2", "-c", "3", "--save", str(tmp_path / "link"))
    one_line_error(code, err, f"folder '{tmp_path / 'gone'}' does not exist")


def test_a_limit_of_one_guess_is_said_in_the_singular():
    code, _, err = run(
        "evaluate", "--preset", "classic", "-p", "2", "-c", "2", "--max-guesses", "1", "--no-history"
    )
    assert code == 0 and "repeats allowed, 1 guess (options given" in err and "1 guesses" not in err


def test_one_guess_is_singular():
    code, out, _ = run("play", "--max-guesses", "1", "--seed", "1", "--no-history", input="1234\n")
    assert "You have 1 guess." in out


def test_every_output_path_follows_one_rule_a_folder_that_exists_and_dash_for_stdout(tmp_path):
    missing = tmp_path / "no" / "such"
    code, _, err = run("play", "--db", str(missing / "h.db"), input="quit\n")
    one_line_error(
        code, err, f"cannot make the history database '{missing / 'h.db'}': folder '{missing}' does not exist"
    )
    assert not (tmp_path / "no").exists()  # nothing made on the way
    code, _, err = run("history", "--csv", str(missing / "games.csv"))
    where = f"'{missing / 'games.csv'}': folder '{missing}'"
    one_line_error(code, err, f"--csv: cannot write {where} does not exist")
    code, _, err = run("history", "--csv", "")
    one_line_error(code, err, "--csv: no file name given (- for stdout)")
    code, out, err = run("history", "--csv", "-")
    assert code == 0 and out.startswith("id,started,") and err == ""
    code, _, err = run("history", "--csv", str(tmp_path / "games.txt"))  # any name: the format is CSV
    assert code == 0 and (tmp_path / "games.txt").read_text().startswith("id,started,")


def test_a_blank_typed_in_a_game_without_the_blank_is_named_as_such():
    code, out, _ = run("play", "--seed", "1", "--no-history", input=".123\n12-3\n1-1-2-2\nquit\n")
    assert "Not a guess: '.123': '.' is the blank (a hole left empty), and this game has none." in out
    assert "Not a guess: '12-3': '-' is the blank (a hole left empty), and this game has none." in out
    assert "   1   1  1  2  2 " in out  # a dash between the pegs of a whole code still only separates
    code, _, err = run("solve", ".123=1,0")
    one_line_error(code, err, "'.' is the blank (a hole left empty), and this game has none")
    code, out, _ = run("solve", "--blank", ".123=1,0")  # with --blank it is one
    assert code == 0 and "codes are possible" in out


def test_one_guess_is_said_in_the_singular():
    code, out, _ = run("guess", "--max-guesses", "1", "--no-history", input="quit\n")
    assert "I have 1 guess. Reply" in out and "1 guesses" not in out


@pytest.mark.parametrize("command", ["tree", "evaluate"])
@pytest.mark.parametrize("strategy", ["knuth", "random"])
def test_no_tables_is_refused_as_typed_by_a_strategy_without_tables(command, strategy):
    code, out, err = run(
        command, "--no-tables", "-s", strategy, "--no-history" if command == "evaluate" else "-p2"
    )
    one_line_error(code, err, f"--no-tables turns off the colour tables of counter: {strategy} has none")
    assert "'tables'" not in err and out == ""


def test_evaluate_and_tree_speak_of_digits_bulls_and_cows_in_bulls_and_cows():
    bulls = ("--preset", "bulls-and-cows", "-s", "most-parts")
    code, out, _ = run("tree", *bulls, "--depth", "1")
    assert code == 0
    assert out.splitlines()[0] == (
        "most-parts on 4 digits 0-9, no digit repeats: reply (bulls,cows): codes left -> next guess"
        " (the winning reply left out)"
    )
    code, out, _ = run("evaluate", *bulls, "--no-history")
    assert code == 0 and out.startswith("most-parts on 4 digits 0-9, no digit repeats (5,040 codes)")
    assert "colour" not in out and "peg" not in out
    code, out, _ = run("tree", "-p", "2", "-c", "2")  # Mastermind keeps its own words
    assert out.startswith("knuth on 2 pegs, colours 1-2, repeats allowed: reply (black,white):")


def test_off_a_terminal_a_run_of_more_than_a_few_seconds_says_so_at_its_start(monkeypatch):
    import mastermind.research.evaluation as evaluation

    monkeypatch.setattr(evaluation, "estimate_seconds", lambda player: 10.0)  # not what is checked
    monkeypatch.setattr("mastermind.cli.runs.ESTIMATE_FROM", 10)  # as if 3x3 were large
    code, out, err = run("evaluate", "--pegs", "3", "--colors", "3", "--json", "--no-history")
    assert code == 0 and err.startswith("mastermind: note: knuth on 27 codes: roughly 10 seconds")
    assert err.count("\n") == 1  # one line, at the start: off a terminal nothing else is shown
    monkeypatch.setenv("TTY_COMPATIBLE", "1")  # a terminal shows a progress bar: 10 s is not announced
    code, out, err = run("evaluate", "--pegs", "3", "--colors", "3", "--json", "--no-history")
    assert code == 0 and "note" not in err


def test_charts_show_the_guess_limit_and_the_games_lost_past_it():
    from mastermind import Rules, evaluate, make_strategy
    from mastermind.research.plot import chart

    five = Rules(max_guesses=5)
    entropy = evaluate(make_strategy("entropy", five))  # 12 of classic's games take 6 guesses
    ax = chart([entropy]).axes[0]
    assert ax.get_title() == (
        "entropy on 4 pegs, colours 1-6, repeats allowed, at most 5 guesses: all 1,296 secrets\n"
        "mean 4.4151, max 6, 12 lost"
    )
    [limit] = ax.lines
    assert limit.get_linestyle() == "--" and list(limit.get_xdata()) == [5.5, 5.5]
    assert "guess limit 5: the 12 games to its right are lost" in [t.get_text() for t in ax.texts]
    knuth = evaluate(make_strategy("knuth", five))  # at most 5 guesses: nothing lost, no line
    ax = chart([knuth, entropy]).axes[0]
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend == ["knuth (mean 4.476, max 5)", "entropy (mean 4.415, max 6, 12 lost)"]
    assert len(ax.lines) == 1 and "guess limit 5: games to its right are lost" in [
        t.get_text() for t in ax.texts
    ]
    assert not chart([knuth]).axes[0].lines


def test_a_chart_of_many_strategies_stands_its_bar_labels_upright():
    from mastermind import Rules, evaluate, make_strategy
    from mastermind.research.plot import chart

    names = ["knuth", "expected-size", "entropy", "most-parts"]
    runs = [evaluate(make_strategy(name, Rules(pegs=3, colors=4))) for name in names]
    labels = [t for t in chart(runs).axes[0].texts if t.get_text()]
    assert labels and all(t.get_rotation() == 90 for t in labels)  # side by side, they overlapped
    labels = [t for t in chart(runs[:3]).axes[0].texts if t.get_text()]
    assert all(t.get_rotation() == 0 for t in labels)
