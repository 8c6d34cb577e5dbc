"""A match between two people at two devices: whose move it is, and what each may do and see.

At one table the two players take the moves in turn and each sees only their side; at two
devices the program must say so itself. These rules are the games package's, for every front
end: player 1 and player 2 are the match's players; the codemaker chooses the code and replies,
the codebreaker guesses, asks for a hint, takes back a guess still waiting for its reply or
gives up.

>>> from mastermind import Rules
>>> match = Match(Rules(pegs=2, colors=3), ["human", "human"], seed=1)
>>> mover(match), role(match, 2)
(1, 'breaker')
>>> check_move(match, 2, "secret")
Traceback (most recent call last):
mastermind.errors.GameError: you break the code of game 1: your friend chooses it
>>> _ = match.set_secret("12"); mover(match)
2

Each player's device holds a finished game on its board until that player moves on from it; the
match goes on meanwhile. Which finished games a player has still to see is the rule here
(:func:`unseen`), so that every device of theirs, and a page loaded again, holds the same:

>>> _ = match.guess("12")
>>> [r.number for r in unseen(match, 0)], unseen(match, move_on(match, 0, 1))
([1], [])
"""

from __future__ import annotations

from typing import Literal

from ..errors import GameError
from .match import Match, Round

#: A move a person makes in a match, and the role that makes it.
Move = Literal["secret", "guess", "reply", "hint", "undo", "give-up"]
MOVES: dict[str, str] = {
    "secret": "maker",
    "reply": "maker",
    "guess": "breaker",
    "hint": "breaker",
    "undo": "breaker",
    "give-up": "breaker",
}

_WHAT = {
    "secret": "choose the code",
    "reply": "reply to the guess",
    "guess": "guess",
    "hint": "ask for a hint",
    "undo": "take back a guess",
    "give-up": "give up",
}


def mover(match: Match) -> int | None:
    """The player (1 or 2) whose move the match waits for, or None once it is over."""
    waiting = match.waiting_for
    if waiting is None:
        return None
    r = match.current
    return r.maker if waiting in ("secret", "reply") else r.breaker


def role(match: Match, player: int) -> str:
    """``"maker"`` or ``"breaker"``: ``player``'s role in the game being played."""
    return "maker" if match.current.maker == player else "breaker"


def check_move(match: Match, player: int, move: str) -> None:
    """Raise GameError, in words for the player, unless ``player`` may make ``move`` now (a move
    the match does not know, one of the other role, or one out of turn)."""
    if player not in (1, 2):
        raise GameError(f"a match has players 1 and 2, not {player}")
    if move not in MOVES:
        raise GameError(f"there is no move {move!r} in a match between two people")
    if match.over:
        raise GameError("the match is over: its games stand")
    r = match.current
    mine = role(match, player)
    if MOVES[move] != mine:
        if mine == "breaker":
            theirs = "replies to your guesses" if move == "reply" else "chooses it"
            raise GameError(f"you break the code of game {r.number}: your friend {theirs}")
        raise GameError(f"you make the code of game {r.number}: your friend guesses it")
    if mover(match) != player and move not in ("hint", "undo"):
        other = (
            "choose the code" if match.waiting_for == "secret" else "reply" if mine == "breaker" else "guess"
        )
        raise GameError(f"it is your friend's turn to {other}: you cannot {_WHAT[move]} now")


def unseen(match: Match, moved_on: int) -> list[Round]:
    """The finished games a player has not moved on from, in order, where they have moved on from
    every game up to game ``moved_on``: their device holds the first on its board (each in turn,
    none skipped, however far the match went on meanwhile)."""
    return [r for r in match.rounds if r.points is not None and r.number > moved_on]


def move_on(match: Match, moved_on: int, number: int) -> int:
    """The game a player has moved on from every game up to, once they move on from game
    ``number`` (where they had from game ``moved_on``): GameError unless game ``number`` is over.
    Moving on again from a game is nothing (a second tap, a second device)."""
    if not any(r.number == number and r.points is not None for r in match.rounds):
        raise GameError(f"game {number} of the match is not over: there is nothing to move on from")
    return max(moved_on, number)


__all__ = ["MOVES", "check_move", "move_on", "mover", "role", "unseen"]
