"""The one rule of when a game or a match may be reviewed or practised (games.reviewable), which
the command line, the terminal board and the web page all ask: on a game, a match, and their records."""

from __future__ import annotations

import pytest

from mastermind import Game, Match, Rules
from mastermind.games.reviewable import practice_refusal, review_refusal


def both(subject):
    """The rule on the object and on its record: the two must agree (the history holds records)."""
    said = review_refusal(subject), practice_refusal(subject)
    assert (review_refusal(subject.record()), practice_refusal(subject.record())) == said
    return said


def test_a_game_is_reviewed_and_practised_once_finished_with_a_guess():
    game = Game.breaking(Rules(), seed=1)
    assert both(game) == ("the game is not finished",) * 2
    game.guess("1122")
    game.give_up()
    assert both(game) == (None, None)


def test_a_game_given_up_before_its_first_guess_has_no_review():
    game = Game.breaking(Rules(), seed=1)
    game.give_up()
    why = "the game was given up before its first guess: there is no guess to review"
    assert both(game) == (why, why)


def test_a_match_is_reviewed_once_over_and_never_practised():
    match = Match(Rules(), ["human", "knuth"], seed=1)
    match.set_secret("1234")
    match.play_out()  # knuth breaks it and makes the next code: game 1 of 2 over, the match not
    assert match.rounds[0].points is not None and match.waiting_for == "guess"
    assert both(match) == ("the match is not over",) * 2
    match.give_up()  # the person gives up game 2 before a guess: the match is over all the same
    assert match.over
    review, practice = both(match)
    assert review is None and practice is not None and "reviewed, not practised" in practice


def test_a_game_too_large_to_list_has_none():
    game = Game.breaking(Rules(pegs=8, colors=10), seed=1, strategy="random")
    game.guess("12345678")
    game.give_up()
    review, practice = both(game)
    assert review == practice and review is not None and "too many codes" in review


@pytest.mark.parametrize("kind", ["play", "match"])
def test_a_game_of_a_match_alone_is_a_game(kind):
    """A game inside a match has kind "match" too; its own record is judged as a game's."""
    game = Game.breaking(Rules(), seed=1)
    record = game.record() | {"kind": kind, "finished": True, "moves": []}
    assert review_refusal(record) is not None and "first guess" in review_refusal(record)
