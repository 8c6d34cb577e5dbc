"""The code of the day: one classic code a day, the same for everyone who plays it with one key,
and the text a player shares of their game without giving the code away.

The day's code is drawn from the date and a key kept secret by whoever serves it (the web server
keeps one beside its history, the command line one beside the user's): a keyed hash (HMAC-SHA256)
of the date, so nobody who lacks the key can compute a day's code from the page, the date or
earlier days' codes. The rules of the code of the day live here, once, for the command line
and the web page: which day it is (UTC's), which days can be played, the day's code and its
number, which game is a player's game of a day, the statistics and streaks, the share text.

>>> key = bytes(32)
>>> game = daily_game(date(2026, 12, 6), key, seed=1)
>>> game.daily, day_number(date(2026, 12, 6)), game.secret == daily_game(date(2026, 12, 6), key).secret
('2026-12-06', 340, True)
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import TYPE_CHECKING, Any, TypeVar

from ..core.rules import Rules
from ..core.text import plural
from ..errors import GameError

if TYPE_CHECKING:  # (imported where used: `mastermind stats` reads the streaks and loads no numpy)
    from ..core.code import Code
    from ..history.store import StoredGame
    from .game import Game

T = TypeVar("T")

#: The game of the day: the classic game, for everyone.
DAILY_RULES = Rules()

#: The code of this date is number 1; the numbers only count days (a share text names its day).
FIRST_DAY = date(2026, 1, 1)

#: The key pegs of a share text: a black, a white, an empty place (as the command line's board
#: draws them: characters every font has, where emoji are missing on some machines).
BLACK, WHITE, EMPTY = "●", "○", "·"


def today(now: datetime | None = None) -> date:
    """The day whose code is out at ``now`` (an aware time; default: now): UTC's date, so that
    every player has the same code at the same moment wherever they are (a day runs from 00:00
    to 24:00 UTC).

    >>> from datetime import timezone
    >>> today(datetime(2026, 3, 1, 23, 30, tzinfo=timezone(timedelta(hours=-5))))
    datetime.date(2026, 3, 2)
    """
    return (now or datetime.now(UTC)).astimezone(UTC).date()


def check_day(day: date, now: date) -> date:
    """``day`` where its code may be played on the day ``now``: any day from :data:`FIRST_DAY`
    up to ``now``, never one to come (its code is not out yet).

    Raises:
        GameError: ``day`` is after ``now`` or before :data:`FIRST_DAY`.
    """
    if day > now:
        raise GameError(f"the code of {day.isoformat()} is not out yet: today is {now.isoformat()}")
    if day < FIRST_DAY:
        raise GameError(f"the codes of the day begin on {FIRST_DAY.isoformat()}")
    return day


def day_number(day: date) -> int:
    """The number of ``day``'s code (1 for :data:`FIRST_DAY`)."""
    return (day - FIRST_DAY).days + 1


def daily_secret(day: date, key: bytes, rules: Rules = DAILY_RULES) -> Code:
    """The code of ``day`` under ``key``: the keyed hash of the date, taken modulo the number of
    codes (the hash's 256 bits make every code as likely as any other, to 2**-240)."""
    if len(key) < 16:
        raise GameError("the key of the code of the day must have at least 16 bytes")
    from ..core.code import CodeSpace

    digest = hmac.new(key, f"mastermind-daily {day.isoformat()}".encode(), hashlib.sha256).digest()
    space = CodeSpace.of(rules)
    return space.code(int.from_bytes(digest, "big") % space.size)


def daily_game(day: date, key: bytes, hard: bool = False, seed: int | None = None) -> Game:
    """A person's game against the code of ``day`` (``seed`` only seeds the hint strategy)."""
    from .game import Game

    game = Game(DAILY_RULES, secret=daily_secret(day, key), seed=seed, kind="play", hard=hard)
    game.daily = day.isoformat()
    return game


def share_text(game: Game, link: str = "") -> str:
    """What a player shares of a finished game of the day: its number, the guesses it took
    (``X`` when it was not broken) out of those allowed, ``*`` for hard mode, the hints taken if
    any, and each row's key pegs as symbols, blacks first; never a code. ``link`` ends it when
    given.

    >>> game = daily_game(date(2026, 1, 2), bytes(32), seed=1, hard=True)
    >>> _ = game.guess("1122"), game.guess(game.secret)
    >>> print(share_text(game, "https://example.org/"))
    Mastermind #2 2/10*
    ····
    ●●●●
    https://example.org/
    """
    if game.daily is None:
        raise GameError("only a game of the day has a share text")
    if not game.over:
        raise GameError("the game is not over: its share text would give nothing or too much")
    pegs = game.rules.pegs
    number = day_number(date.fromisoformat(game.daily))
    taken = str(len(game.moves)) if game.outcome == "won" else "X"
    hints = f" ({plural(game.hints, 'hint')})" if game.hints else ""  # (a score shared honestly)
    lines = [f"Mastermind #{number} {taken}/{game.rules.max_guesses}{'*' if game.hard else ''}{hints}"]
    for move in game.moves:
        black, white = move.reply.black, move.reply.white
        lines.append(BLACK * black + WHITE * white + EMPTY * (pegs - black - white))
    if link:
        lines.append(link)
    return "\n".join(lines)


def game_of_day(games: Iterable[StoredGame], day: date) -> StoredGame | None:
    """A player's game of ``day`` among their stored games (oldest first), finished or not: the
    first that plays that day's code. One game a day: a later one (two starts at once, say)
    neither replaces it nor counts (:func:`daily_stats` counts the same one)."""
    iso = day.isoformat()
    return next((g for g in games if g.record.get("daily") == iso), None)


def one_a_day(games: Iterable[T], day_of: Callable[[T], object], had: Iterable[object] = ()) -> list[T]:
    """``games`` but for a second game of a day (one game a day, as :func:`game_of_day` reads
    them: the first): what a player is given of a history file, say. ``day_of`` gives a game's
    day (None for no game of the day); ``had``: the days of the games the player has already.

    >>> one_a_day(["2026-03-01", None, "2026-03-01", "2026-03-02", None], lambda d: d, had=["2026-03-02"])
    ['2026-03-01', None, None]
    """
    days = {d for d in had if isinstance(d, str)}
    kept = []
    for game in games:
        day = day_of(game)
        if isinstance(day, str) and day:
            if day in days:
                continue
            days.add(day)
        kept.append(game)
    return kept


@dataclass
class DailyStats:
    """The figures of a player's codes of the day: the games finished, won, their guesses, and the
    streak of days in a row won, counting only the games played on their own day (UTC's: a past
    day played later counts in ``played``, never in a streak)."""

    played: int = 0
    won: int = 0
    distribution: dict[int, int] = field(default_factory=dict)
    current_streak: int = 0
    best_streak: int = 0

    def summary(self) -> str:
        """The figures in one line, as every front end shows them."""
        streak = f"{self.current_streak} in a row (best {self.best_streak})"
        return f"Codes of the day: played {self.played}, won {self.won}; {streak}."

    def to_dict(self) -> dict[str, Any]:
        return {
            "played": self.played,
            "won": self.won,
            "distribution": {str(k): n for k, n in sorted(self.distribution.items())},
            "current_streak": self.current_streak,
            "best_streak": self.best_streak,
        }


def daily_stats(games: Iterable[StoredGame], now: date) -> DailyStats:
    """The statistics of a player's games of the day among their stored ``games`` (oldest first):
    each day's game (:func:`game_of_day`) once finished; the current streak ends on the day
    ``now`` once its game is over, or the day before while it is still to play.

    >>> from mastermind.history.store import StoredGame
    >>> def day(d, outcome, n=4, started=None):
    ...     record = {"daily": d, "outcome": outcome, "moves": [{}] * n}
    ...     return StoredGame(0, "play", started or d + "T08:00:00+00:00", "", True, outcome, record)
    >>> games = [day("2026-03-01", "won"), day("2026-03-02", "won", 3), day("2026-03-03", "lost", 10)]
    >>> games += [day("2026-03-04", "won"), day("2026-03-05", "won")]
    >>> games += [day("2026-02-01", "won", 5, started="2026-03-05")]  # a past day: no streak
    >>> s = daily_stats(games, date(2026, 3, 6))
    >>> (s.played, s.won, s.current_streak, s.best_streak, s.distribution)
    (6, 5, 2, 2, {3: 1, 4: 3, 5: 1})
    >>> s.summary()
    'Codes of the day: played 6, won 5; 2 in a row (best 2).'
    """
    stats = DailyStats()
    on_the_day: dict[date, bool] = {}
    for stored in one_a_day(games, lambda stored: stored.record.get("daily")):  # (finished or not)
        day = stored.record.get("daily")
        if not day or not stored.finished:
            continue
        stats.played += 1
        won = stored.record.get("outcome") == "won"
        if won:
            stats.won += 1
            n = len(stored.record.get("moves", ()))
            stats.distribution[n] = stats.distribution.get(n, 0) + 1
        if stored.started[:10] == day:
            on_the_day[date.fromisoformat(day)] = won
    stats.distribution = dict(sorted(stats.distribution.items()))
    stats.best_streak, stats.current_streak = streaks(on_the_day, now)
    return stats


def streaks(on_the_day: dict[date, bool], now: date) -> tuple[int, int]:
    """The best and the current run of days in a row won, from whether each day played on its
    own day was won; the current run ends on ``now`` once its game is over (a day lost ends it at
    once), else the day before (a day still to play does not break it).

    >>> d = [date(2026, 3, n) for n in range(1, 6)]
    >>> streaks({d[0]: True, d[1]: True, d[2]: False, d[3]: True}, d[4])
    (2, 1)
    """
    best = run = 0
    for d in sorted(on_the_day):
        run = run + 1 if on_the_day[d] and on_the_day.get(d - timedelta(days=1)) else int(on_the_day[d])
        best = max(best, run)
    current, end = 0, now if now in on_the_day else now - timedelta(days=1)
    while on_the_day.get(end):
        current += 1
        end -= timedelta(days=1)
    return best, current
