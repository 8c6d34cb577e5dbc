"""The library as a new user first tries it (issue 23): codes given as text, as Code or as colour
indices wherever a code is taken, anything else refused in words; python -m mastermind; the
version; reprs and strs that say what a value is."""

import importlib.metadata
import subprocess
import sys

import numpy as np
import pytest

import mastermind
from mastermind import (
    Code,
    Game,
    MastermindError,
    Match,
    Rules,
    SolverState,
    Strategy,
    evaluate,
    make_strategy,
    partition,
    play,
    strategy_tree,
)

CLASSIC = Rules()
#: Knuth's example game (Knuth 1977, "The computer as Master Mind", the game against 3632).
KNUTH_GAME_3632 = ["1122", "1344", "3526", "1462", "3632"]


class FirstCandidate(Strategy):
    """A strategy written outside the package: the first code that fits, in numeric order."""

    name = "first-candidate"

    def pick(self, state):
        return int(state.candidate_indices()[0])


def texts(indices, rules=CLASSIC):
    space = mastermind.CodeSpace.of(rules)
    return [str(space.code(i)) for i in indices]


# -- codes in every form -----------------------------------------------------------------------------


def test_a_code_is_made_from_text_with_its_rules_and_equals_the_same_colours():
    code = Code("1122", CLASSIC)
    assert code == Code((0, 0, 1, 1)) == Code([0, 0, 1, 1]) == Code(np.array([0, 0, 1, 1]))
    assert str(code) == "1122" and code.rules == CLASSIC
    assert Code.parse("RRGG", CLASSIC) == code
    assert str(Code("0123", Rules(colors=10, repeats=False))) == "0123"


def test_text_without_rules_says_how_to_give_them():
    with pytest.raises(MastermindError, match=r"Code\('1122', rules\) or Code.parse\('1122', rules\)"):
        Code("1122")


@pytest.mark.parametrize("value", [3.5, None, {"a": 1}, ["1", "2", "3", "4"], b"1122"])
def test_anything_else_is_refused_naming_what_a_code_may_be(value):
    accepted = "not a code: give it as text .* as a Code, or as colour indices"
    with pytest.raises(MastermindError, match=accepted):
        Game(CLASSIC).guess(value)


def test_a_code_out_of_the_game_is_refused_by_the_game():
    with pytest.raises(MastermindError, match="colour 7 is not one of the 6 colours"):
        Code((0, 0, 1, 6), CLASSIC)
    with pytest.raises(MastermindError, match="a code has 4 pegs, not 3"):
        SolverState(CLASSIC).add([0, 0, 1], "1,0")
    with pytest.raises(MastermindError, match="is a code of 4 pegs, 10 colours.*this game is 4 pegs, 6"):
        Game(CLASSIC).guess(Code("0099", Rules(colors=10)))


def test_a_number_is_refused_as_a_guess_with_its_text_suggested():
    game = Game.breaking(CLASSIC, seed=1)
    with pytest.raises(MastermindError, match=r"1234 is a number, not a code: write it as text .*'1234'"):
        game.guess(1234)
    assert game.moves == []


def test_every_form_of_a_code_plays_the_same_guess():
    rows = []
    for guess in ("1122", Code("1122", CLASSIC), (0, 0, 1, 1), [0, 0, 1, 1], np.array([0, 0, 1, 1])):
        game = Game.breaking(CLASSIC, seed=3)
        rows.append(game.guess(guess))
    assert len(set(rows)) == 1 and str(rows[0].guess) == "1122"


def test_a_solver_state_takes_any_form_of_code():
    by_text = SolverState(CLASSIC).add("1122", "1,0").add("1344", "0,1")
    by_indices = SolverState(CLASSIC).add([0, 0, 1, 1], "1,0").add(Code("1344", CLASSIC), "0,1")
    assert len(by_text.candidate_indices()) == len(by_indices.candidate_indices()) == 44


def test_a_partition_takes_codes_as_text():
    p = partition(CLASSIC, "4113", ["1123", "3151", "1141", "6544"])
    assert p.largest == 2 and p.parts == 3 and str(p.guess) == "4113"


# -- play and Game with a strategy ---------------------------------------------------------------------


def test_play_takes_the_secret_as_text_and_knuth_finds_3632_as_he_printed():
    knuth = make_strategy("knuth", CLASSIC)
    assert texts(play(knuth, "1122")) == ["1122"]
    assert texts(play(knuth, "3632")) == KNUTH_GAME_3632
    assert play(knuth, Code("3632", CLASSIC)) == play(knuth, [2, 5, 2, 1]) == play(knuth, 625)


def test_play_refuses_an_index_out_of_the_game():
    with pytest.raises(MastermindError, match="no code of 4 pegs, 6 colours, repeats allowed has index 1296"):
        play(make_strategy("knuth", CLASSIC), 1296)


def test_a_strategy_written_outside_the_package_plays_a_secret_given_as_text():
    mine = FirstCandidate(CLASSIC)
    assert texts(play(mine, "3632"))[0] == "1111" and texts(play(mine, "3632"))[-1] == "3632"


def test_the_first_candidate_strategy_scores_shapiros_total():
    # Shapiro (1983), "Playing Mastermind logically": the first consistent code in numeric order,
    # 7471 guesses over the 1296 secrets (the counter without its tables, in the README's table).
    stats = evaluate(FirstCandidate(CLASSIC))
    assert (stats.total, stats.max) == (7471, 9)


def test_a_game_takes_a_strategy_instance_as_its_breaker():
    game = Game(CLASSIC, secret="3632", breaker=make_strategy("knuth", CLASSIC), seed=1)
    while not game.over:
        game.guess(game.proposal())
    assert [str(m.guess) for m in game.moves] == KNUTH_GAME_3632 and game.outcome == "won"
    assert game.record()["players"]["breaker"] == "knuth"


def test_a_game_takes_an_outside_strategy_as_its_breaker_and_its_hints():
    game = Game(CLASSIC, secret="3632", breaker=FirstCandidate(CLASSIC), seed=1)
    assert str(game.proposal()) == "1111"
    hinting = Game.breaking(CLASSIC, seed=1, strategy=FirstCandidate(CLASSIC))
    assert str(hinting.hint().guess) == "1111" and hinting.hint().strategy == "first-candidate"


def test_a_strategy_of_another_game_is_refused_by_the_game():
    with pytest.raises(MastermindError, match="made for 5 pegs, 8 colours.*this game is 4 pegs, 6 colours"):
        Game(CLASSIC, breaker=make_strategy("knuth", Rules(pegs=5, colors=8)))


def test_a_breaker_that_is_neither_name_nor_strategy_is_refused():
    with pytest.raises(MastermindError, match="a strategy's name .* or a Strategy, not 42"):
        Game(CLASSIC, breaker=42)


def test_a_strategy_instance_keeps_its_first_guess_in_the_record():
    game = Game.solving(CLASSIC, make_strategy("knuth", CLASSIC, first="1123"), secret="3632")
    assert str(game.proposal()) == "1123" and game.record()["first"] == "1123"
    assert Game.from_record(game.record()).proposal() == game.proposal()


def test_a_strategy_takes_its_first_guess_as_colour_indices():
    assert make_strategy("knuth", CLASSIC, first=[0, 0, 1, 2]).first_guess() == 8


# -- the package as a program, its version ------------------------------------------------------------


def test_python_dash_m_mastermind_runs_the_command():
    out = subprocess.run(
        [sys.executable, "-m", "mastermind", "solve", "1122=1,0", "1344=0,1"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out.startswith("44 codes are possible")


def test_the_version_is_the_installed_distributions():
    assert mastermind.__version__ == importlib.metadata.version("mastermind-lab")
    assert "__version__" in dir(mastermind)


# -- what values say about themselves ------------------------------------------------------------------


def test_stats_say_total_mean_and_distribution():
    text = str(evaluate(make_strategy("knuth", CLASSIC)))
    assert "1,296 secrets, first guess 1122, total 5,801 guesses, mean 4.4761, max 5" in text
    assert "1: 1, 2: 6, 3: 62, 4: 533, 5: 694" in text


def test_a_match_says_its_players_state_and_score():
    match = Match(CLASSIC, ("knuth", "most-parts"), seed=7)
    assert repr(match) == (
        "<Match knuth v most-parts, Rules(pegs=4, colors=6), standard: game 1 of 2, score 0-0>"
    )
    match.play_out()
    assert repr(match).endswith("standard: over, score 5-4>")
    assert str(match).splitlines()[-1] == "score 5-4: player 1 (knuth) wins"


def test_a_game_prints_its_board_and_what_it_waits_for():
    game = Game.solving(CLASSIC)
    game.reply("1,0")
    game.reply("0,1")
    assert str(game).splitlines() == [
        "4 pegs, 6 colours, repeats allowed, 10 guesses",
        "  1  1122  1 black, 0 white",
        "  2  1344  0 black, 1 white",
        "guess 3 of 10",
    ]
    assert repr(game) == "<Game guess Rules(pegs=4, colors=6), knuth breaking: 2 moves, playing>"


def test_a_contradiction_is_shown_on_the_board():
    game = Game(CLASSIC)
    for guess, reply in (("1122", "1,0"), ("1122", "0,0")):
        game.guess(guess)
        game.reply(reply)
    assert str(game).splitlines()[-1].startswith("the replies contradict each other: no secret fits row 1")


def test_values_print_in_the_games_words():
    state = SolverState(CLASSIC).add("1122", "1,0").add("1344", "0,1")
    assert str(state) == "1122=1,0 1344=0,1: 44 codes possible"
    assert str(CLASSIC) == "4 pegs, 6 colours, repeats allowed, 10 guesses"
    game = Game.breaking(CLASSIC, seed=2026)
    assert str(game.guess("1122")) == "1122=1,1"
    assert str(game.hint()) == "208 codes possible; knuth would play 1134"
    tree = strategy_tree(make_strategy("knuth", CLASSIC))
    assert repr(tree) == "<Node guess=1122 size=1296: 12 replies below, 5 guesses deep>"
    p = partition(CLASSIC, "4113", ["1123", "3151", "1141", "6544"])
    assert repr(p) == "<Partition of 4 candidates by 4113: 3 classes, largest 2>"


def test_a_match_takes_strategy_objects_as_players_and_lets_them_play():
    mine = FirstCandidate(CLASSIC)
    match = Match(CLASSIC, (mine, make_strategy("knuth", CLASSIC)), seed=7)
    assert match.players == ["first-candidate", "knuth"]
    match.play_out()
    first, second = match.rounds  # game 1: player 2 (knuth) breaks; game 2: player 1 (mine)
    assert str(first.game.moves[0].guess) == "1122"
    guesses = [m.guess for m in second.game.moves]
    assert str(guesses[0]) == "1111" and second.game.outcome == "won"
    # each guess is the first code that fits every reply before it, as FirstCandidate plays
    state = SolverState(CLASSIC)
    for move in second.game.moves:
        assert move.guess == state.space.code(int(state.candidate_indices()[0]))
        state = state.add(move.guess, move.reply)


def test_a_match_refuses_a_strategy_of_another_game_and_a_player_that_is_no_strategy():
    with pytest.raises(MastermindError, match="made for 4 pegs, 8 colours.*this match is 4 pegs, 6"):
        Match(CLASSIC, ("human", FirstCandidate(Rules(colors=8))))
    with pytest.raises(MastermindError, match="a match's player is 'human', a strategy's name or a Strategy"):
        Match(CLASSIC, ("human", 3))
