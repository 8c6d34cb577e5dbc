"""What the history holds, as read back: a stored game and a stored run, a game's moves and
outcome, and whether a record belongs in the history at all.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..core.records import check_version, rules_from_dict
from ..errors import MastermindError, StoreError


@dataclass(frozen=True)
class StoredGame:
    """A row of the history: a game's (or a match's) record and when it was played."""

    id: int
    kind: str
    started: str
    updated: str
    finished: bool
    outcome: str
    record: dict[str, Any]
    #: A web visitor's game: its number among that visitor's games (from 1); None for a local game.
    number: int | None = None


def outcome_of(record: dict[str, Any]) -> str:
    """A game's outcome ("won", "lost", ...); for a match, who won ("player 1", "draw"), "playing",
    or "left" (a friend's match closed unfinished when nobody moved in it for long)."""
    if record.get("kind") != "match":
        return str(record.get("outcome", "playing"))
    if record.get("left"):  # a friend's match closed with no move for long (web/friends.py)
        return "left"
    if not record.get("finished"):
        return "playing"
    winner = record.get("winner")
    return "draw" if winner is None else f"player {winner}"


@dataclass(frozen=True)
class StoredRun:
    """A row of the runs table: an evaluation's key (what makes two runs the same) and its result."""

    id: int
    created: str
    key: dict[str, Any]
    record: dict[str, Any]


def moves_of(record: dict[str, Any]) -> list[dict[str, Any]]:
    """A game's moves; a match's, game after game, each with the number of its game."""
    if record["kind"] != "match":
        return list(record["moves"])
    return [{"game": g["number"], **m} for g in record["games"] for m in g["game"]["moves"]]


def local_time(stamp: str) -> str:
    """A stored time (UTC), as a person reads it: in the local zone, to the minute.

    >>> from datetime import UTC
    >>> local_time("2026-01-02T03:04:05+00:00") == datetime(2026, 1, 2, 3, 4, tzinfo=UTC).astimezone(
    ...     ).strftime("%Y-%m-%d %H:%M")
    True
    """
    return datetime.fromisoformat(stamp).astimezone().strftime("%Y-%m-%d %H:%M")


def worth_keeping(record: dict[str, Any]) -> bool:
    """Whether a record belongs in the history, for every front end: a game once it has a move or
    is over, a match once a game of it has begun or it is over (its codemaker chose a code, or
    chose to reply by hand: a process killed before the first guess must not lose it). A game with
    no move holds nothing to resume: one never played, or one whose every guess was taken back, is
    not kept (nor listed as unfinished for ever)."""
    if record.get("kind") == "match":
        return bool(record.get("finished") or record.get("games"))
    return bool(record.get("finished")) or bool(record.get("moves"))


class DamagedGame(StoreError):
    """A game of the history whose record cannot be read (edited by hand, a disk fault): asked for
    alone it is this error; a listing leaves it out (:attr:`~mastermind.history.store.Store.left_out`)."""

    def __init__(self, game_id: int, why: str) -> None:
        super().__init__(f"game {game_id} of the history is damaged: {why}")
        self.game_id = game_id


class PlayedElsewhere(StoreError):
    """A save refused: the game's row changed since this session read or wrote it (the same game
    resumed in another terminal, and played there); ``record`` is the row's record now (None if
    the row is gone). Writing would lose the other session's moves, so nothing is written."""

    def __init__(self, game_id: int, record: dict[str, Any] | None) -> None:
        now = "removed" if record is None else f"now {len(_moves_or_none(record))} guesses"
        super().__init__(f"game {game_id} was played elsewhere meanwhile ({now})")
        self.game_id, self.record = game_id, record


def _moves_or_none(record: dict[str, Any]) -> list[dict[str, Any]]:
    try:
        return moves_of(record)
    except (KeyError, TypeError, AttributeError):
        return []


#: What reading a damaged record raises, besides this package's own errors: a field missing
#: (KeyError), of the wrong type (TypeError, AttributeError, IndexError) or value (ValueError).
_BROKEN = (MastermindError, KeyError, TypeError, AttributeError, IndexError, ValueError)


def read_record(game_id: int, text: str, reader: Any = None) -> dict[str, Any]:
    """Game ``game_id``'s record from its stored JSON ``text``: the one place where a bad record
    becomes a :class:`DamagedGame`. The history reads what it lists (kind and version, rules,
    moves: :func:`moves_of`); ``reader`` (the engine's ``from_record``, given by a front end)
    reads the rest, for a listing as for a game asked for alone."""
    import json

    try:
        record = json.loads(text)
        check_version(record, ("play", "guess", "match"))
        rules_from_dict(record["rules"])
        for move in moves_of(record):  # the export splits a reply's text
            if not isinstance(move["guess"], str) or not isinstance(move["reply"], str):
                raise TypeError(f"a move's guess and reply are texts, not {str(move)[:60]}")
        if reader is not None:
            reader(record)
    except json.JSONDecodeError as err:
        what = err.msg.removesuffix(" at")  # ("Unterminated string starting at")
        raise DamagedGame(game_id, f"its record is not JSON ({what} at character {err.pos})") from None
    except _BROKEN as err:
        if isinstance(err, KeyError):
            why = f"a field is missing: {err}"
        else:
            why = str(err) if isinstance(err, MastermindError) else f"{type(err).__name__}: {err}"
        raise DamagedGame(game_id, why[:200]) from None
    return record
