"""A player's record, from the history: games played and won, guesses, streaks, per game size.

Which games count: the finished games of one kind, by default ``play`` (a person breaks the
computer's code): won is the code broken, lost is out of guesses, and a game given up counts as
played and not won. Unfinished games do not count (they can still be resumed). With
``kind="guess"`` the same figures describe the computer breaking the codes a person kept.
Games of a match are not counted here: a match has its own score; nor the games of the code of
the day, which have theirs (:func:`mastermind.games.daily.daily_stats`).

Games are grouped by their rules (pegs, colours, repeats, guesses allowed), since a guess count
means nothing across game sizes. Streaks are runs of won games, in the order the games were
started: the best one, and the one that the latest finished game ends (0 if it was not won).
Games won without help (no hint asked, no guess taken back: see the records' ``assists``) are
counted apart, in ``won_unaided``; a record older than version 3 tells only of its hints.

>>> from mastermind.history.store import StoredGame
>>> def game(i, outcome, n):
...     moves = [{"guess": "11", "reply": "0,0"}] * n
...     rules = {"pegs": 2, "colors": 3, "repeats": True, "max_guesses": 10}
...     record = {"kind": "play", "rules": rules, "moves": moves, "outcome": outcome}
...     return StoredGame(i, "play", "", "", True, outcome, record)
>>> [s] = game_stats([game(1, "won", 3), game(2, "won", 4), game(3, "gave-up", 1), game(4, "won", 3)])
>>> (s.played, s.won, s.distribution, s.mean_guesses, s.best_streak, s.current_streak)
(4, 3, {3: 2, 4: 1}, 3.3333333333333335, 2, 1)
>>> s.won_unaided  # none of them asked a hint or took a guess back
3
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..core.records import rules_from_dict, rules_to_dict
from ..core.rules import Rules
from ..errors import MastermindError

if TYPE_CHECKING:
    from .store import StoredGame

#: The kinds of game the statistics can be taken of.
KINDS = ("play", "guess")


@dataclass
class GameStats:
    """The figures of the finished games of one kind and one game size (:class:`Rules`)."""

    kind: str
    rules: Rules
    played: int = 0
    won: int = 0
    #: won games without a hint asked or a guess taken back
    won_unaided: int = 0
    lost: int = 0
    gave_up: int = 0
    #: guesses -> won games that took that many
    distribution: dict[int, int] = field(default_factory=dict)
    best_streak: int = 0
    current_streak: int = 0
    #: games of this size not finished yet (not counted in ``played``)
    unfinished: int = 0

    @property
    def win_rate(self) -> float:
        return self.won / self.played if self.played else 0.0

    @property
    def mean_guesses(self) -> float | None:
        """The mean number of guesses of the won games; None if none was won."""
        if not self.won:
            return None
        return sum(k * n for k, n in self.distribution.items()) / self.won

    def to_dict(self) -> dict[str, Any]:
        mean = self.mean_guesses
        return {
            "kind": self.kind,
            "rules": rules_to_dict(self.rules),
            "played": self.played,
            "won": self.won,
            "won_unaided": self.won_unaided,
            "lost": self.lost,
            "gave_up": self.gave_up,
            "win_rate": round(self.win_rate, 6),
            "mean_guesses": None if mean is None else round(mean, 6),
            "distribution": {str(k): n for k, n in sorted(self.distribution.items())},
            "best_streak": self.best_streak,
            "current_streak": self.current_streak,
            "unfinished": self.unfinished,
        }


def game_stats(games: Iterable[StoredGame], kind: str = "play") -> list[GameStats]:
    """The statistics of the stored games of ``kind``, one entry per game size, the most played first.

    Raises:
        MastermindError: ``kind`` is not one of :data:`KINDS`.
    """
    if kind not in KINDS:
        raise MastermindError(f"statistics are kept for {' and '.join(KINDS)} games, not {kind!r}")
    groups: dict[Rules, GameStats] = {}
    streaks: dict[Rules, int] = {}
    # the codes of the day have their statistics apart (games/daily.py): one a day, not practice
    ours = (g for g in games if g.kind == kind and not g.record.get("daily"))
    for stored in sorted(ours, key=lambda g: g.id):
        rules = rules_from_dict(stored.record["rules"])
        s = groups.setdefault(rules, GameStats(kind, rules))
        if not stored.finished:
            s.unfinished += 1
            continue
        s.played += 1
        outcome = stored.record.get("outcome")
        if outcome == "won":
            s.won += 1
            s.won_unaided += not helped(stored.record)
            n = len(stored.record["moves"])
            s.distribution[n] = s.distribution.get(n, 0) + 1
            streaks[rules] = streaks.get(rules, 0) + 1
            s.best_streak = max(s.best_streak, streaks[rules])
        else:
            if outcome == "gave-up":
                s.gave_up += 1
            else:
                s.lost += 1
            streaks[rules] = 0
        s.current_streak = streaks[rules]
    for s in groups.values():
        s.distribution = dict(sorted(s.distribution.items()))
    return sorted(groups.values(), key=lambda s: (-s.played, *_order(s.rules)))


def helped(record: dict[str, Any]) -> bool:
    """Whether a game's breaker had help: a hint asked, or a guess taken back."""
    undone = any(a.get("kind") == "undo" for a in record.get("assists", ()))
    return bool(record.get("hints", 0)) or undone


def _order(rules: Rules) -> tuple[int, int, bool, int]:
    return (rules.pegs, rules.colors, not rules.repeats, rules.max_guesses)
