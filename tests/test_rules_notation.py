import pytest

from mastermind import (
    Code,
    CodeSpace,
    Feedback,
    FeedbackError,
    Notation,
    NotationError,
    Rules,
    RulesError,
    find_rules,
    parse_feedback,
)


def test_presets():
    assert find_rules("classic") == Rules(pegs=4, colors=6)
    assert find_rules("super") == Rules(pegs=5, colors=8)
    bc = find_rules("Bulls-and-Cows")
    assert (bc.pegs, bc.colors, bc.repeats, bc.size) == (4, 10, False, 5040)
    with pytest.raises(RulesError, match="classic, super, super-blank, bulls-and-cows"):
        find_rules("chess")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"pegs": 0}, "pegs must be 1 to 10"),
        ({"pegs": 11}, "pegs must be 1 to 10"),
        ({"colors": 1}, "colours must be 2 to 36"),
        ({"colors": 37}, "colours must be 2 to 36"),
        ({"pegs": 5, "colors": 4, "repeats": False}, "at least 5 colours"),
        ({"max_guesses": 0}, "at least 1"),
        ({"max_guesses": 201}, r"^max guesses must be at most 200 \(no game needs more\), not 201$"),
        ({"max_guesses": 10**50}, "at most 200 .*, not a number of more than 40 digits$"),
    ],
)
def test_invalid_rules_say_what_is_allowed(kwargs, message):
    with pytest.raises(RulesError, match=message):
        Rules(**kwargs)


def test_the_guess_limit_stops_where_strategies_stop_being_followed():
    """One constant bounds both: a game may allow MAX_GUESSES guesses, and the walks and compiled
    trees follow a strategy that deep before calling it a runaway."""
    from mastermind.core.rules import MAX_GUESSES

    assert Rules(max_guesses=MAX_GUESSES).max_guesses == MAX_GUESSES
    with pytest.raises(RulesError, match=f"at most {MAX_GUESSES}"):
        Rules(max_guesses=MAX_GUESSES + 1)


def test_repr_evaluates_back():
    for rules in [Rules(), Rules(pegs=5, colors=8, repeats=False, max_guesses=12)]:
        assert eval(repr(rules)) == rules


@pytest.mark.parametrize("text", ["1122", "1 1 2 2", "AABB", "aabb", "1-1-2-2", " 1,1,2,2 "])
def test_lenient_code_input(text):
    notation = Notation(Rules())
    assert notation.parse_code(text) == Code((0, 0, 1, 1))
    assert notation.format_code(notation.parse_code(text)) == "1122"


def test_notation_styles():
    bc = Notation(find_rules("bulls-and-cows"))
    assert bc.style == "digits0"
    assert bc.format_code(bc.parse_code("0123")) == "0123"
    letters = Notation(Rules(pegs=4, colors=12))
    assert letters.format_code(letters.parse_code("abkl")) == "abkl"
    colours = Notation(Rules(), style="colors")
    assert colours.parse_code("RRGB") == Code((0, 0, 1, 2))
    assert colours.format_code(Code((0, 0, 1, 2))) == "RRGB"
    assert Notation(Rules(pegs=3, colors=36)).format_code(Code((0, 10, 35))) == "0az"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("112", "has 3 symbols; a code has 4 pegs"),
        ("1127", "'7' is not a colour"),
        ("11x2", "'x' is not a colour"),
        ("", "empty code"),
    ],
)
def test_code_errors_name_the_token(text, message):
    with pytest.raises(NotationError, match=message):
        Notation(Rules()).parse_code(text)


def test_no_repeat_codes_are_checked():
    with pytest.raises(NotationError, match="repeats"):
        Notation(find_rules("bulls-and-cows")).parse_code("1123")


@pytest.mark.parametrize(
    ("text", "fb"),
    [
        ("1,2", (1, 2)),
        ("1 2", (1, 2)),
        ("(1,2)", (1, 2)),
        ("BWW", (1, 2)),
        ("bww", (1, 2)),
        ("-", (0, 0)),
        ("4,0", (4, 0)),
        ("BBBB", (4, 0)),
    ],
)
def test_feedback_input(text, fb):
    assert parse_feedback(text, Rules()) == Feedback(*fb)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("3,1", "cannot be right in another place"),
        ("4,1", "only 4 pegs"),
        ("x", "not a reply"),
        ("1,2,3", "not a reply"),
    ],
)
def test_impossible_feedback(text, message):
    with pytest.raises(FeedbackError, match=message):
        parse_feedback(text, Rules())


def test_no_repeat_feedback_floor():
    rules = Rules(pegs=4, colors=5, repeats=False)  # any two codes share 3 colours
    with pytest.raises(FeedbackError, match="share at least 3"):
        parse_feedback("1,1", rules)
    assert parse_feedback("1,2", rules) == Feedback(1, 2)


def test_history_parsing_and_errors():
    notation = Notation(Rules())
    rows = notation.parse_history("1122=1,0 1344=0,1")
    assert rows == [(Code((0, 0, 1, 1)), Feedback(1, 0)), (Code((0, 2, 3, 3)), Feedback(0, 1))]
    assert notation.format_history(rows) == "1122=1,0 1344=0,1"
    assert notation.parse_history(["1122:BW"]) == [(Code((0, 0, 1, 1)), Feedback(1, 1))]
    with pytest.raises(NotationError, match=r"history item 2 '1344=9,9'"):
        notation.parse_history("1122=1,0 1344=9,9")
    with pytest.raises(NotationError, match=r"history item 1 '1122' is not GUESS=BLACK,WHITE"):
        notation.parse_history("1122")


def test_every_public_name_resolves():
    import mastermind

    for name in mastermind.__all__:
        assert getattr(mastermind, name) is not None
    with pytest.raises(AttributeError):
        mastermind.no_such_name  # noqa: B018


def test_an_empty_reply_is_refused_and_a_dash_is_no_key_pegs():
    notation = Notation(Rules())
    with pytest.raises(NotationError, match="has no reply after '='"):
        notation.parse_history("1122=")
    assert notation.parse_history("1122=-") == [(Code((0, 0, 1, 1)), Feedback(0, 0))]
    with pytest.raises(FeedbackError, match="with 1 peg there is no other place"):
        parse_feedback("0,1", Rules(pegs=1, colors=2))


@pytest.mark.parametrize(
    ("colors", "colours", "text"),
    [
        (6, (0, 0, 1, 1), "1122"),
        (9, (0, 0, 1, 8), "1129"),
        (10, (0, 0, 1, 9), "0019"),
        (12, (0, 0, 1, 9), "aabj"),
        (36, (0, 0, 1, 9), "0019"),
        (36, (0, 10, 35, 9), "0az9"),
    ],
)
def test_str_of_a_code_is_its_games_notation(colors, colours, text):
    """A code of a game prints as that game writes it; the same colours of another game differ."""
    rules = Rules(pegs=4, colors=colors)
    code = CodeSpace.of(rules).code(CodeSpace.of(rules).index(colours))
    assert str(code) == text == Notation(rules).format_code(code)
    assert str(Notation(rules).parse_code(text)) == text


def test_a_code_without_its_game_prints_as_its_repr():
    """Colours alone do not say which symbols to use (9 is '9' in 9 colours, '0'... in others)."""
    assert str(Code((0, 0, 1, 9))) == repr(Code((0, 0, 1, 9))) == "Code((0, 0, 1, 9))"
    assert Code((0, 0, 1, 1)) == CodeSpace.of(Rules()).code(7)  # the rules take no part in equality


def test_a_code_of_a_game_with_the_blank_prints_its_empty_holes():
    rules = Rules(pegs=5, colors=9, blank=True)
    code = Notation(rules).parse_code("12-4-")
    assert str(code) == "12-4-" and str(CodeSpace.of(rules).code(CodeSpace.of(rules).index(code))) == "12-4-"
