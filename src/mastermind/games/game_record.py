"""A game's record: the plain, versioned dict the history keeps of a game, and the game it
describes, ready to go on from where it stopped (the format: :mod:`mastermind.core.records`)."""

from __future__ import annotations

from datetime import date
from typing import Any

from ..core.feedback import score
from ..core.records import (
    RECORD_VERSION,
    check_version,
    code_from_text,
    code_text,
    reply_from_text,
    reply_text,
    rules_from_dict,
    rules_to_dict,
)
from ..deduction.state import SolverState
from ..errors import GameError, RecordError
from .game import Game
from .moves import Assist, Move, check_rows


def game_record(game: Game) -> dict[str, Any]:
    """The game as a plain, versioned dict (see :mod:`mastermind.core.records`)."""
    return {
        "version": RECORD_VERSION,
        "kind": game.kind,
        "rules": rules_to_dict(game.rules),
        "seed": game.seed,
        "players": {
            "breaker": game.breaker or "human",
            "maker": "computer" if game.kind == "play" else ("referee" if game.secret else "human"),
        },
        "strategy": game.strategy_name,
        "first": code_text(game.rules, game.first),
        "secret": code_text(game.rules, game.secret),
        "moves": [
            {"guess": code_text(game.rules, m.guess), "reply": reply_text(m.reply)}
            | ({"fixed": [{"reply": reply_text(was), "turn": t} for was, t in m.fixed]} if m.fixed else {})
            for m in game.moves
        ],
        "hints": game.hints,
        "assists": [
            {"kind": a.kind, "turn": a.turn, "guess": code_text(game.rules, a.guess)}
            | ({} if a.reply is None else {"reply": reply_text(a.reply)})
            for a in game.assists
        ],
        "outcome": game.outcome,
        "finished": game.over,
    } | (
        ({"hard": True} if game.hard else {}) | ({"daily": game.daily} if game.daily else {})
    )  # absent for a game not in hard mode, not of the day: its record is as it always was


def game_from_record(record: dict[str, Any], cls: type[Game] = Game) -> Game:
    """The game a record describes, ready to go on from where it stopped (a ``cls``, for a
    subclass of :class:`Game`)."""
    check_version(record, ("play", "guess", "match"))
    try:
        rules = rules_from_dict(record["rules"])
        breaker = record["players"]["breaker"]
        game = cls(
            rules,
            secret=code_from_text(rules, record["secret"]),
            breaker=None if breaker == "human" else breaker,
            strategy=record["strategy"],
            first=code_from_text(rules, record.get("first")),
            seed=record["seed"],
            kind=record["kind"],
            hard=bool(record.get("hard", False)),
        )
        for move in record["moves"]:
            guess = code_from_text(rules, move["guess"])
            if guess is None:
                raise RecordError(f"a game record has a move without its guess: {move!r}")
            fixed = tuple(  # absent before version 4
                (reply_from_text(rules, f["reply"]), int(f["turn"])) for f in move.get("fixed", ())
            )
            game.moves.append(Move(guess, reply_from_text(rules, move["reply"]), fixed))
        game.hints = int(record.get("hints", 0))
        for a in record.get("assists", ()):  # absent before version 3
            if a["kind"] not in ("hint", "undo"):
                raise RecordError(f"a game record has an unknown assist: {a['kind']!r}")
            code = code_from_text(rules, a["guess"])
            assert code is not None
            reply = reply_from_text(rules, a["reply"]) if "reply" in a else None
            game.assists.append(Assist(a["kind"], int(a["turn"]), code, reply))
        game.gave_up = record.get("outcome") == "gave-up"
        game.daily = record.get("daily")
    except RecordError:  # (a ValueError itself: said as it is)
        raise
    except (KeyError, TypeError, AttributeError) as err:
        raise RecordError(f"a game record is incomplete: {err!r}") from None
    except ValueError as err:  # a number that is not one ("hints": "x")
        raise RecordError(f"a game record has a wrong value: {err}") from None
    check_bounds(game)
    if game.kind == "play" and game.secret is None:  # the computer's code: the game is to find it
        raise RecordError("a record of play has no secret")
    if game.breaker is not None and not game.over and game.player().randomized:
        _choose_again(game)
    return game


def read_stored(record: dict[str, Any]) -> object:
    """The engine's reading of a record of the history, a game's or a match's (RecordError, or
    another error, if it cannot be played on): the history's ``reader`` of a game asked for."""
    if isinstance(record, dict) and record.get("kind") == "match":
        from .match import Match

        return Match.from_record(record)
    return game_from_record(record)


#: The largest seed a record may bring (a seed is drawn below 2**31: core.seeds.fresh_seed).
SEED_BOUND = 2**63


def whole(value: Any, low: int, high: int, what: str) -> int:
    """``value`` if it is a whole number from ``low`` to ``high``; else a RecordError in one line.
    A record read from a file is anyone's: a number it brings is bounded before a loop runs on it."""
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise RecordError(
            f"a record's {what} must be a whole number from {low} to {high:,}, not {str(value)[:40]}"
        )
    return value


def check_bounds(game: Game) -> None:
    """Every number a game's record brought within what a game can have made (RecordError if not):
    no more rows than the rules allow, turns among them, a seed a generator was given, the
    date of a game of the day."""
    rules = game.rules
    whole(len(game.moves), 0, rules.max_guesses, "number of guesses")
    try:
        check_rows(rules, game.history)  # no guess after a win
    except GameError as err:
        raise RecordError(f"a game record breaks a rule of play: {err}") from None
    check_scored(game)
    whole(game.hints, 0, 2**31, "number of hints")
    if game.seed is not None:
        whole(game.seed, 0, SEED_BOUND, "seed")
    for move in game.moves:
        for _, turn in move.fixed:
            whole(turn, 1, rules.max_guesses, "turn of a fixed reply")
    for assist in game.assists:
        whole(assist.turn, 1, rules.max_guesses + 1, "turn of a hint or undo")
    if game.daily is not None:
        try:
            if not isinstance(game.daily, str) or len(game.daily) != 10:
                raise ValueError
            date.fromisoformat(game.daily)
        except ValueError:
            raise RecordError(
                f"a game of the day's date must be YYYY-MM-DD, not {str(game.daily)[:40]}"
            ) from None


def check_scored(game: Game) -> None:
    """Every row of a game the program scored (its secret known from the start: :meth:`Game.guess`
    replies with ``score``) has the reply its secret gives, and was never fixed (:meth:`Game.fix`
    refuses such a game); a RecordError if not. A game whose codemaker replied by hand has no
    secret, and its replies may contradict each other (a wrong one is fixed in play): not checked.
    The error names the row, never the secret nor the reply it gives (the game may not be over)."""
    if game.secret is None:
        return
    for row, move in enumerate(game.moves, 1):
        said = f"row {row} ({code_text(game.rules, move.guess)}={reply_text(move.reply)})"
        if move.fixed:
            raise RecordError(f"a game record has {said} fixed, in a game its secret scored")
        if move.reply != score(move.guess.colors, game.secret.colors):
            raise RecordError(f"a game record has {said} with a reply its secret does not give")


def _choose_again(game: Game) -> None:
    """A randomised breaker's choices made again, one per row, so that its generator is where
    it was when the game was stopped: the game goes on with the guesses it would have made."""
    player = game.player()
    for row in range(len(game.moves)):
        player.choose(SolverState(game.rules, game.history[:row]))


def shown(record: dict[str, Any]) -> dict[str, Any]:
    """What a record shows while it may still be played: a copy without the secret of a game not
    over, nor the seed it was drawn from (nor, in a match not over, the match's seed, from which
    every secret is drawn); a finished record is shown whole.

    >>> shown({"kind": "play", "seed": 7, "secret": "1234", "outcome": "playing"})["secret"] is None
    True
    """
    if "games" in record:  # a match
        if record.get("finished"):
            return record
        games = [
            g if g.get("finished") else {**g, "secret": None, "game": shown(g["game"])}
            for g in record["games"]
        ]
        return {**record, "seed": None, "games": games}
    if record.get("outcome", "playing") == "playing":
        return {**record, "secret": None, "seed": None}
    return record
