"""More rough edges a new user hit: each refused in one line with exit status 2, or made to work."""

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
    assert code == 0 and "1 peg, 2 colours" in out


def test_a_bad_reply_says_so_once():
    code, out, _ = run("guess", "--no-history", input="zz\nquit\n")
    assert "'zz' is not a reply" in out and "Not a reply" not in out
