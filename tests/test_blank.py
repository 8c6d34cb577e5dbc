"""The blank: a hole left empty, played as one more colour (the 8-colour game played with 9)."""

import json

import pytest
from click.testing import CliRunner

from mastermind import (
    Code,
    Game,
    Notation,
    NotationError,
    Rules,
    RulesError,
    evaluate,
    find_rules,
    make_strategy,
)
from mastermind.cli import cli
from mastermind.core.code import CodeSpace
from mastermind.core.feedback import score
from mastermind.core.notation import STYLES
from mastermind.core.records import RECORD_VERSION, rules_from_dict, rules_to_dict
from mastermind.errors import StrategyError
from mastermind.strategies import STRATEGIES

SMALL = Rules(pegs=3, colors=4, blank=True)  # 3 colours and the blank


def run(*args, input=None):
    result = CliRunner().invoke(cli, list(args), input=input)
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout, result.stderr


def test_the_blank_is_the_last_colour_and_counted_in_the_colours():
    rules = find_rules("super-blank")
    assert rules == Rules(pegs=5, colors=9, blank=True) and rules.size == 9**5
    assert (rules.real_colors, rules.blank_color) == (8, 8)
    assert rules.describe() == "5 pegs, 8 colours and the blank, repeats allowed"
    assert eval(repr(rules)) == rules
    assert Rules().blank_color is None and Rules().real_colors == 6


def test_a_blank_without_repeats_and_too_many_colours_are_refused():
    with pytest.raises(RulesError, match="the blank needs repeats"):
        Rules(pegs=4, colors=11, repeats=False, blank=True)
    with pytest.raises(RulesError, match=r"2 to 36 \(the blank counted as one\), not 37"):
        Rules(colors=37, blank=True)
    with pytest.raises(RulesError, match="blank must be true or false"):
        Rules(blank="yes")  # type: ignore[arg-type]


@pytest.mark.parametrize("style", ["digits", "letters", "colors", "alnum"])
def test_every_code_round_trips_in_every_style(style):
    notation = Notation(SMALL, style)
    assert notation.symbols == STYLES[style][:3] + "-"
    space = CodeSpace.of(SMALL)
    for i in range(space.size):
        code = space.code(i)
        text = notation.format_code(code)
        assert notation.parse_code(text) == code
        assert notation.parse_code(text.replace("-", ".")) == code
    assert notation.format_code(Code((2, 3, 3))).lower() == STYLES[style][2] + "--"


def test_blank_input_is_dash_or_dot_and_lenient_like_any_code():
    notation = Notation(find_rules("super-blank"))
    for text in ["12-4-", "12.4.", "1 2 - 4 .", "AB-D.", "ab.d-", "1,2,-,4,."]:
        assert notation.parse_code(text) == Code((0, 1, 8, 3, 8)), text
    assert notation.format_code(Code((0, 1, 8, 3, 8))) == "12-4-"
    assert Notation(find_rules("super-blank"), "colors").format_code(Code((0, 1, 8, 3, 8))) == "RG-Y-"
    hole = r"as 1-8, a-h or RGBYOPCW, or - \(also \.\) for an empty hole\)"
    with pytest.raises(NotationError, match="'9' is not a colour .*" + hole):
        notation.parse_code("12945")
    # without the blank, "-" and "." still separate pegs; a code that has its pegs only when they
    # count as pegs was typed with the blank, and is refused as such
    plain = Notation(find_rules("super"))
    assert plain.parse_code("12-34.5") == Code((0, 1, 2, 3, 4))
    with pytest.raises(NotationError, match="'12-4-': '-' is the blank .*, and this game has none"):
        plain.parse_code("12-4-")
    with pytest.raises(NotationError, match="has 3 symbols"):
        plain.parse_code("1-24")  # short whether the dash counts or not


def test_feedback_scores_the_blank_as_a_colour():
    # a guess with two empty holes against a secret with one: the second earns no peg
    notation = Notation(SMALL)
    secret, guess = notation.parse_code("1-2"), notation.parse_code("-1-")
    assert score(guess.colors, secret.colors) == (0, 2)
    assert score(notation.parse_code("1--").colors, secret.colors) == (2, 0)


@pytest.mark.parametrize("strategy", [s.name for s in STRATEGIES])
def test_every_strategy_plays_the_blank_as_the_game_with_one_more_colour(strategy):
    plain = Rules(pegs=3, colors=4)
    try:
        with_blank = evaluate(make_strategy(strategy, SMALL), seed=3)
    except StrategyError as err:  # a strategy for other games only refuses both alike
        with pytest.raises(StrategyError, match=str(err).split(" ")[0]):
            evaluate(make_strategy(strategy, plain), seed=3)
        return
    same = evaluate(make_strategy(strategy, plain), seed=3)
    assert (with_blank.total, with_blank.distribution) == (same.total, same.distribution)
    assert with_blank.games == 64


def test_knuth_on_five_colours_and_the_blank_is_knuths_classic_game():
    code, out, _ = run("evaluate", "-s", "knuth", "--colors", "5", "--blank", "--json")
    assert code == 0
    data = json.loads(out)
    assert (data["colors"], data["blank"], data["codes"], data["first_guess"]) == (6, True, 1296, "1122")
    assert data["total"] == 5801 and data["distribution"] == {"1": 1, "2": 6, "3": 62, "4": 533, "5": 694}


def test_a_game_with_the_blank_through_the_engine_and_its_record():
    game = Game.solving(SMALL, secret="-2-", strategy="knuth")
    while not game.over:
        game.guess(game.proposal())
    assert game.outcome == "won" and game.moves[-1].guess == Code((3, 1, 3))
    record = game.record()
    assert record["version"] == RECORD_VERSION == 4
    assert record["rules"]["blank"] is True and record["secret"] == "-2-"
    again = Game.from_record(json.loads(json.dumps(record)))
    assert again.rules == SMALL and again.record() == record


def test_records_without_the_blank_still_load():
    old = {"pegs": 4, "colors": 6, "repeats": True, "max_guesses": 10}  # a version-1 record's rules
    assert rules_from_dict(old) == Rules()
    assert rules_to_dict(Rules()) == {**old, "blank": False}
    record = Game.breaking(Rules(), seed=4).record()
    record["version"] = 1
    del record["rules"]["blank"]
    assert Game.from_record(record).rules == Rules()


def test_play_with_the_blank_on_the_command_line():
    # lose a one-guess game to learn the secret, then win with it typed with dots for the holes
    code, out, _ = run(
        "play",
        "--blank",
        "--pegs",
        "3",
        "--colors",
        "3",
        "--seed",
        "9",
        "--max-guesses",
        "1",
        "--no-history",
        input="quit\n",
    )
    assert code == 1 and "colours 1-3, or - (also .) for an empty hole" in out
    secret = out.split("the code was ")[1].split(".")[0]
    typed = secret.replace("-", ".")
    code, out, _ = run(
        "play", "--blank", "--pegs", "3", "--colors", "3", "--seed", "9", "--no-history", input=f"{typed}\n"
    )
    assert code == 0 and "You broke the code in 1 guess!" in out
    assert f"  {'  '.join(secret)}  " in out  # the board shows the holes


def test_guess_solve_and_tree_with_the_blank():
    code, out, _ = run("guess", "--preset", "super-blank", "--secret", "12-4-", "--no-history", "--json")
    assert code == 0
    record = json.loads(out)
    assert record["outcome"] == "won" and record["moves"][-1] == {"guess": "12-4-", "reply": "5,0"}
    assert record["rules"] == {"pegs": 5, "colors": 9, "repeats": True, "max_guesses": 10, "blank": True}
    code, out, _ = run("solve", "--blank", "--pegs", "2", "--colors", "2", ".1=0,2", "--json")
    assert code == 0 and json.loads(out)["sample"] == ["1-"]
    code, out, _ = run("tree", "--blank", "--pegs", "2", "--colors", "2", "--format", "json")
    tree = json.loads(out)
    assert code == 0 and tree["blank"] is True and tree["colors"] == 3
    code, out, _ = run("tree", "--blank", "--pegs", "2", "--colors", "2")
    assert code == 0 and "2 pegs, colours 1-2 and the blank" in out and "-> --" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--preset", "bulls-and-cows", "--blank"], "the blank needs repeats"),
        (["--no-repeats", "--blank"], "the blank needs repeats"),
        (["--colors", "36", "--blank"], "colours must be 2 to 36 (the blank counted as one), not 37"),
    ],
)
def test_bad_combinations_with_the_blank_are_one_line(args, message):
    for command in (["evaluate"], ["solve"], ["play", "--no-history"]):
        code, out, err = run(*command, *args, input="quit\n")
        assert code == 2 and out == "" and err.startswith(f"mastermind: error: {message}"), command
        assert err.count("\n") == 1
