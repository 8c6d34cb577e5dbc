"""What one visitor may ask of the server, all configurable (``mastermind web --limit NAME=VALUE``).

>>> Limits().body_bytes
16384
>>> Limits.parse(["rate=5", "open_games=3"]).open_games
3
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, fields, replace

from ..core.text import QUOTE_LIMIT, quote
from ..errors import MastermindError


class LimitError(MastermindError, ValueError):
    """A limit the server cannot be given (an unknown name, a value that is not a number > 0)."""


@dataclass(frozen=True)
class Limits:
    """The limits of one server; each is documented in docs/web.md.

    Attributes:
        body_bytes: the largest request body (a guess is about 20 bytes).
        open_games: unfinished games one visitor may have (games without a move do not count:
            they are dropped to make room).
        games_in_memory: games held in memory for all visitors; past it, the least recently used
            is dropped (it is saved after every move, and read back from the history when touched).
        idle_seconds: a game untouched this long is dropped from memory the same way.
        rate: requests per second per visitor (a token bucket; ``burst`` at once).
        burst: requests a visitor may make at once before ``rate`` applies.
        max_codes: the largest game served, in codes (a strategy's guess on a larger game takes
            seconds of a core).
        optimal_codes: the largest game the exact optimal strategy plays here (its first search of
            a larger game takes minutes to hours).
        match_games: the most games of a match.
        friend_idle_seconds: a friend's match nobody has moved in this long is closed: saved as
            left unfinished (outcome "left"), dropped from memory, both players told.
        thinking: strategy computations at once (in threads; the others wait their turn).
    """

    body_bytes: int = 16 * 1024
    open_games: int = 20
    games_in_memory: int = 2000
    idle_seconds: float = 600.0
    rate: float = 20.0
    burst: int = 40
    max_codes: int = 60_000
    optimal_codes: int = 3_125
    match_games: int = 20
    thinking: int = 2
    friend_idle_seconds: float = 3600.0

    @classmethod
    def parse(cls, items: Iterable[str], base: Limits | None = None) -> Limits:
        """Limits from ``NAME=VALUE`` items over ``base`` (the defaults); LimitError if one is wrong.

        >>> Limits.parse(["nope=3"])
        Traceback (most recent call last):
        mastermind.web.limits.LimitError: unknown limit 'nope' (known: body_bytes, open_games, \
games_in_memory, idle_seconds, rate, burst, max_codes, optimal_codes, match_games, thinking, \
friend_idle_seconds)
        """
        kinds = {f.name: f.type for f in fields(cls)}
        values: dict[str, float | int] = {}
        for item in items:
            name, sep, text = item.partition("=")
            name = name.strip().replace("-", "_")
            if name not in kinds:
                known = ", ".join(kinds)
                raise LimitError(
                    f"unknown limit {quote(name)} (known: {known})"
                    if name
                    else f"a limit needs a name: NAME=VALUE, one of {known}"
                )
            if not sep:
                raise LimitError(f"limit {name} needs a value: {name}=VALUE")
            values[name] = _limit_value(name, text.strip(), whole=kinds[name] not in (float, "float"))
        return replace(base or cls(), **values)  # type: ignore[arg-type]

    def describe(self) -> str:
        """The limits in one line, for the server's start and its help."""
        return ", ".join(f"{f.name}={getattr(self, f.name):g}" for f in fields(self))


def _limit_value(name: str, text: str, whole: bool) -> float | int:
    """The value of limit ``name`` typed as ``text``: a whole number where ``whole``, else a finite
    number; more than 0 either way."""
    kind = "a whole number" if whole else "a number"
    try:
        value: float | int = int(text) if whole else float(text)
    except ValueError:  # not a number: quoted as typed
        raise LimitError(f"limit {name} must be {kind} more than 0, not {quote(text)}") from None
    if not math.isfinite(value) or not value > 0:  # a number, written as numbers are: unquoted
        raise LimitError(f"limit {name} must be {kind} more than 0, not {text[:QUOTE_LIMIT]}")
    return value


class RateLimiter:
    """A token bucket per key: ``rate`` tokens a second, at most ``burst`` saved up.

    >>> now = [0.0]
    >>> limiter = RateLimiter(rate=2, burst=2, clock=lambda: now[0])
    >>> [limiter.allow("a") for _ in range(3)], limiter.allow("b")
    ([True, True, False], True)
    >>> now[0] = 0.5; limiter.allow("a"), limiter.allow("a")
    (True, False)
    """

    #: Keys remembered at most (the least recently seen forgotten first: a full bucket again).
    KEYS = 100_000

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.clock = clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def allow(self, key: str) -> bool:
        now = self.clock()
        tokens, then = self._buckets.pop(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.rate)
        allowed = tokens >= 1.0
        self._buckets[key] = (tokens - 1.0 if allowed else tokens, now)
        if len(self._buckets) > self.KEYS:
            self._buckets.popitem(last=False)
        return allowed
