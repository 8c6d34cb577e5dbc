"""Words for messages: what the user typed, quoted and cut when long, and plurals that agree."""

from __future__ import annotations

#: The most characters of someone's input that a message repeats.
QUOTE_LIMIT = 40


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
