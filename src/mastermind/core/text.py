"""Words for messages: what the user typed, quoted and cut when long, and plurals that agree."""

from __future__ import annotations

#: The most characters of someone's input that a message repeats.
QUOTE_LIMIT = 40

#: The most characters of a file's path that a message repeats: paths are quoted whole, as far as
#: any file system takes them.
PATH_LIMIT = 4096


def quote(text: object, limit: int = QUOTE_LIMIT) -> str:
    """``text`` quoted as typed; long input is cut, so a message stays one short line.

    >>> quote("1122")
    "'1122'"
    >>> quote("1" * 100_000)
    "'1111111111111111111111111111111111111111'... (100,000 characters)"
    """
    text = str(text)
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text):,} characters)"


def number(n: int, limit: int = QUOTE_LIMIT) -> str:
    """A whole number as messages write numbers, typed or not: never quoted, with thousands
    separators; one too long to repeat is cut, so a message stays one short line.

    >>> number(10002), number(-2)
    ('10,002', '-2')
    >>> number(10**100)
    '10,000,000,000,000,000,000,000,000,000,0... (101 digits)'
    """
    text = f"{n:,}"
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(str(abs(n))):,} digits)"


def plural(n: int, word: str, words: str | None = None) -> str:
    """``n`` and the word that agrees with it.

    >>> plural(1, "symbol"), plural(4, "peg"), plural(2, "guess", "guesses")
    ('1 symbol', '4 pegs', '2 guesses')
    """
    return f"{n:,} {word if n == 1 else (words or word + 's')}"


def guess_count(n: int) -> str:
    """A number of guesses in words.

    >>> guess_count(1), guess_count(10)
    ('1 guess', '10 guesses')
    """
    return plural(n, "guess", "guesses")


def duration(seconds: float) -> str:
    """A rough duration in words: the unit that reads best, rounded.

    >>> duration(42), duration(700), duration(11_000), duration(400_000)
    ('40 seconds', '12 minutes', '3 hours', '5 days')
    """
    for unit, size in (("day", 86_400), ("hour", 3_600), ("minute", 60)):
        if seconds >= 1.5 * size:
            return plural(round(seconds / size), unit)
    return plural(max(1, int(round(seconds, -1) if seconds >= 10 else round(seconds))), "second")


def sentence(text: object) -> str:
    """A message as the start of a sentence: its first letter capitalised, the rest as it is.

    >>> sentence("nothing to undo"), sentence("row 2 cannot be all black")
    ('Nothing to undo', 'Row 2 cannot be all black')
    """
    text = str(text)
    return text[:1].upper() + text[1:]


_UNITS = {"s": 1, "sec": 1, "m": 60, "min": 60, "h": 3_600, "d": 86_400}


def parse_duration(text: str) -> float:
    """Seconds in a duration typed as a number of seconds or amounts with units s, m (min), h, d.

    >>> parse_duration("90"), parse_duration("2m"), parse_duration("1h30m"), parse_duration("1.5 h")
    (90.0, 120.0, 5400.0, 5400.0)

    Raises:
        ValueError: it is not a duration, or it is not more than 0 seconds.
    """
    import re

    raw = str(text).strip().lower().replace(" ", "")
    parts = re.fullmatch(r"((\d+(\.\d+)?)(s|sec|m|min|h|d))+|\d+(\.\d+)?", raw)
    if not raw or parts is None:
        raise ValueError(f"{quote(text)} is not a duration: write e.g. 90s, 10m, 2h or 1h30m")
    if raw[-1].isdigit():
        seconds = float(raw)
    else:
        seconds = sum(float(n) * _UNITS[u] for n, _, u in re.findall(r"(\d+(\.\d+)?)(sec|min|s|m|h|d)", raw))
    if not 0 < seconds < 1e9:
        raise ValueError(f"{quote(text)}: a duration must be more than 0 seconds (and under 30 years)")
    return seconds
