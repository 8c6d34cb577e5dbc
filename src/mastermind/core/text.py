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


def plural(n: int, word: str, words: str | None = None) -> str:
    """``n`` and the word that agrees with it.

    >>> plural(1, "symbol"), plural(4, "peg"), plural(2, "guess", "guesses")
    ('1 symbol', '4 pegs', '2 guesses')
    """
    return f"{n:,} {word if n == 1 else (words or word + 's')}"


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
