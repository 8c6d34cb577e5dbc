"""The rules of a game: how many pegs, how many colours, whether colours repeat, how many guesses.

A game may be played with a *blank*: an empty hole used as one more colour, as the 8-colour game is
played with 9 "colours" when a hole may be left empty (Super Mastermind). The blank is counted in
``colors`` and is always the last colour (``colors - 1``): to every search, table and kernel it is a
colour like any other, and feedback scores it as one. Only the way codes are written (``-``) and
shown (an empty hole) differs.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import perm

from ..errors import RulesError
from .text import plural, quote

MIN_PEGS, MAX_PEGS = 1, 10
MIN_COLORS, MAX_COLORS = 2, 36

#: The most guesses a game may allow. No real game comes near it: the largest game the rules allow
#: (10 pegs, 36 colours) is broken by playing consistent codes in a few dozen guesses (the counter
#: needs at most 17 on 10 pegs and 20 colours, docs/counter.md), and a person who first counts
#: every colour with one guess each has spent 36. It is also how deep a strategy's game is followed
#: before it is called a runaway (the walks and the compiled trees stop there), so a limit above it
#: could never be reached; and a board is drawn one row per allowed guess, which a limit of millions
#: would never finish.
MAX_GUESSES = 200

#: The guess limit of a game where none is given: the board game's ten rows. A game with another
#: limit says so in its name (``4x6 /5``), and a proof of its least total is within that limit.
DEFAULT_MAX_GUESSES = 10


@dataclass(frozen=True, slots=True)
class Rules:
    """One variant of the game.

    >>> Rules()
    Rules(pegs=4, colors=6)
    >>> Rules(pegs=4, colors=10, repeats=False).size
    5040
    >>> Rules(pegs=5, colors=9, blank=True).describe()
    '5 pegs, 8 colours and the blank, repeats allowed'

    ``colors`` counts every kind of peg, the blank included when ``blank`` is set: the blank is the
    last colour, ``colors - 1``. A blank needs repeats (any number of holes may be left empty).
    """

    pegs: int = 4
    colors: int = 6
    repeats: bool = True
    max_guesses: int = DEFAULT_MAX_GUESSES
    blank: bool = False

    def __post_init__(self) -> None:
        for name in ("pegs", "colors", "max_guesses"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise RulesError(f"{name.replace('_', ' ')} must be a whole number, not {value!r}")
        if not MIN_PEGS <= self.pegs <= MAX_PEGS:
            raise RulesError(f"pegs must be {MIN_PEGS} to {MAX_PEGS}, not {self.pegs}")
        if not isinstance(self.blank, bool):
            raise RulesError(f"blank must be true or false, not {self.blank!r}")
        if not MIN_COLORS <= self.colors <= MAX_COLORS:
            counted = " (the blank counted as one)" if self.blank else ""
            raise RulesError(f"colours must be {MIN_COLORS} to {MAX_COLORS}{counted}, not {self.colors}")
        if self.blank and not self.repeats:
            raise RulesError(
                "the blank needs repeats: it is an empty hole, and any number of holes may be left empty"
            )
        if not self.repeats and self.colors < self.pegs:
            raise RulesError(
                f"without repeated colours, {self.pegs} pegs need at least {self.pegs} colours "
                f"(got {self.colors})"
            )
        if self.max_guesses < 1:
            raise RulesError(f"max guesses must be at least 1, not {self.max_guesses}")
        if self.max_guesses > MAX_GUESSES:
            n = self.max_guesses
            given = f"{n:,}" if n < 10**40 else "a number of more than 40 digits"
            raise RulesError(f"max guesses must be at most {MAX_GUESSES} (no game needs more), not {given}")

    @property
    def size(self) -> int:
        """The number of possible codes."""
        return self.colors**self.pegs if self.repeats else perm(self.colors, self.pegs)

    @property
    def win(self) -> int:
        """The winning reply (every peg black) as a feedback integer, ``black * (pegs + 1) + white``.

        >>> Rules().win
        20
        """
        return self.pegs * (self.pegs + 1)

    @property
    def feedback_classes(self) -> int:
        """How many feedback integers exist: black * (pegs + 1) + white < (pegs + 1) ** 2."""
        return (self.pegs + 1) ** 2

    @property
    def real_colors(self) -> int:
        """The colours of real pegs: ``colors`` less the blank."""
        return self.colors - 1 if self.blank else self.colors

    @property
    def blank_color(self) -> int | None:
        """The colour number of the blank (the last colour), or None in a game without it."""
        return self.colors - 1 if self.blank else None

    def describe(self) -> str:
        """A short human description, e.g. '4 pegs, 6 colours, repeats allowed'."""
        rep = "repeats allowed" if self.repeats else "no repeats"
        if self.blank:
            return f"{plural(self.pegs, 'peg')}, {plural(self.real_colors, 'colour')} and the blank, {rep}"
        return f"{plural(self.pegs, 'peg')}, {plural(self.colors, 'colour')}, {rep}"

    def short_name(self, limit: bool = True) -> str:
        """The game in a few characters, as lists and titles show it: ``4x6``, ``3x5 no repeats``,
        ``5x8+blank``; with ``limit``, ``/N`` after it when the guesses allowed are not the usual 10.

        >>> PRESETS["super-blank"].short_name(), Rules(4, 10, repeats=False, max_guesses=7).short_name()
        ('5x8+blank', '4x10 no repeats /7')
        """
        text = f"{self.pegs}x{self.real_colors}" + ("+blank" if self.blank else "")
        if not self.repeats:
            text += " no repeats"
        if limit and self.max_guesses != DEFAULT_MAX_GUESSES:
            text += f" /{self.max_guesses}"
        return text

    def __str__(self) -> str:
        """The game in words, its guess limit included.

        >>> str(Rules()), str(PRESETS["bulls-and-cows"])
        ('4 pegs, 6 colours, repeats allowed, 10 guesses', '4 pegs, 10 colours, no repeats, 10 guesses')
        """
        return f"{self.describe()}, {plural(self.max_guesses, 'guess', 'guesses')}"

    def __repr__(self) -> str:
        extra = ""
        if not self.repeats:
            extra += ", repeats=False"
        if self.max_guesses != DEFAULT_MAX_GUESSES:
            extra += f", max_guesses={self.max_guesses}"
        if self.blank:
            extra += ", blank=True"
        return f"Rules(pegs={self.pegs}, colors={self.colors}{extra})"


PRESETS: dict[str, Rules] = {
    "classic": Rules(pegs=4, colors=6),
    "super": Rules(pegs=5, colors=8),
    # Super Mastermind with empty holes allowed: 8 colours and the blank as a ninth
    "super-blank": Rules(pegs=5, colors=9, blank=True),
    "bulls-and-cows": Rules(pegs=4, colors=10, repeats=False),
}


def find_rules(name: str) -> Rules:
    """The preset called ``name`` (classic, super, super-blank, bulls-and-cows)."""
    key = name.strip().lower().replace("_", "-").replace(" ", "-")
    try:
        return PRESETS[key]
    except KeyError:
        raise RulesError(f"unknown preset {quote(name)}; choose one of: {', '.join(PRESETS)}") from None
