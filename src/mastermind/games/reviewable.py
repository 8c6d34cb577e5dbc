"""When a game or a match may be reviewed or practised: one rule that every front end asks before
it offers either (the command line, the terminal board and its history, the web page and its API),
so that none offers what another refuses.

The rule: a review is of a finished game with a guess to value, or of a finished match (each of
its games, both sides); a game of a size whose codes cannot be listed has none. A match's games
are reviewed, not practised: practice is at the positions of a game of one's own.

>>> from mastermind import Game, Rules
>>> game = Game.breaking(Rules(), seed=1)
>>> review_refusal(game)
'the game is not finished'
>>> game.give_up()
>>> review_refusal(game)
'the game was given up before its first guess: there is no guess to review'
"""

from __future__ import annotations

from typing import Any

from ..core.records import rules_from_dict
from ..core.rules import Rules
from .game import Game
from .match import Match
from .review import unreviewable

#: Why a match's games offer no practice (the web page and the command line said so before).
MATCH_NOT_PRACTISED = "a match's games are reviewed, not practised: practise the games of your own"


def review_refusal(subject: Game | Match | dict[str, Any]) -> str | None:
    """Why ``subject`` (a game, a match, or the record of either) may not be reviewed, or None
    where it may."""
    rules, is_match, finished, guesses = _facts(subject)
    why = unreviewable(rules)
    if why is not None:
        return why
    if not finished:
        # a match is judged whole, as a game is: its review is each player's line over the match
        return "the match is not over" if is_match else "the game is not finished"
    if not is_match and not guesses:
        # nothing to value: a review would be an empty table (the secret was shown at the end)
        return "the game was given up before its first guess: there is no guess to review"
    return None


def practice_refusal(subject: Game | Match | dict[str, Any]) -> str | None:
    """Why ``subject`` offers no practice at the positions before its mistakes, or None where it
    does (whether it has a mistake to practise is its review's to say)."""
    why = review_refusal(subject)
    if why is None and _facts(subject)[1]:
        return MATCH_NOT_PRACTISED
    return why


def _facts(subject: Game | Match | dict[str, Any]) -> tuple[Rules, bool, bool, int]:
    """The rules of ``subject``, whether it is a match, whether it is over, and its guesses (a
    game's; 0 for a match). A match's record has its games; a game of a match has kind "match"
    too, and is a game."""
    if isinstance(subject, Game):
        return subject.rules, False, subject.over, len(subject.moves)
    if isinstance(subject, Match):
        return subject.rules, True, subject.over, 0
    is_match = subject.get("kind") == "match" and "games" in subject
    guesses = 0 if is_match else len(subject.get("moves", ()))
    return rules_from_dict(subject["rules"]), is_match, bool(subject.get("finished")), guesses


__all__ = ["MATCH_NOT_PRACTISED", "practice_refusal", "review_refusal"]
