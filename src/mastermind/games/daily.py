"""The code of the day: one classic code a day, the same for everyone who plays it with one key,
and the text a player shares of their game without giving the code away.

The day's code is drawn from the date and a key kept secret by whoever serves it (the web server
keeps one beside its history, the command line one beside the user's): a keyed hash (HMAC-SHA256)
of the date, so nobody who lacks the key can compute a day's code from the page, the date or
earlier days' codes. The rules of the code of the day, its numbering and its share text live
here, once, for the command line and the web page.

>>> key = bytes(32)
>>> game = daily_game(date(2026, 12, 6), key, seed=1)
>>> game.daily, day_number(date(2026, 12, 6)), game.secret == daily_game(date(2026, 12, 6), key).secret
('2026-12-06', 340, True)
"""

from __future__ import annotations

import hashlib
import hmac
from datetime import date

from ..core.code import Code, CodeSpace
from ..core.rules import Rules
from ..core.text import plural
from ..errors import GameError
from .game import Game

#: The game of the day: the classic game, for everyone.
DAILY_RULES = Rules()

#: The code of this date is number 1; the numbers only count days (a share text names its day).
FIRST_DAY = date(2026, 1, 1)

#: The key pegs of a share text: a black, a white, an empty place (as the command line's board
#: draws them: characters every font has, where emoji are missing on some machines).
BLACK, WHITE, EMPTY = "●", "○", "·"


def day_number(day: date) -> int:
    """The number of ``day``'s code (1 for :data:`FIRST_DAY`)."""
    return (day - FIRST_DAY).days + 1


def daily_secret(day: date, key: bytes, rules: Rules = DAILY_RULES) -> Code:
    """The code of ``day`` under ``key``: the keyed hash of the date, taken modulo the number of
    codes (the hash's 256 bits make every code as likely as any other, to 2**-240)."""
    if len(key) < 16:
        raise GameError("the key of the code of the day must have at least 16 bytes")
    digest = hmac.new(key, f"mastermind-daily {day.isoformat()}".encode(), hashlib.sha256).digest()
    space = CodeSpace.of(rules)
    return space.code(int.from_bytes(digest, "big") % space.size)


def daily_game(day: date, key: bytes, hard: bool = False, seed: int | None = None) -> Game:
    """A person's game against the code of ``day`` (``seed`` only seeds the hint strategy)."""
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
