"""Feedback (key pegs) and the plain-Python scoring rule that every fast kernel is tested against."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple

from ..errors import NotationError
from .code import Code


class Feedback(NamedTuple):
    """The codemaker's reply: black pegs (right colour, right place) and white pegs.

    >>> Feedback(1, 2)
    Feedback(black=1, white=2)
    """

    black: int
    white: int

    def to_int(self, pegs: int) -> int:
        """The compact form used on hot paths: ``black * (pegs + 1) + white``."""
        return self.black * (pegs + 1) + self.white

    @classmethod
    def from_int(cls, value: int, pegs: int) -> Feedback:
        """The inverse of :meth:`to_int`."""
        black, white = divmod(int(value), pegs + 1)
        return cls(black, white)

    def __str__(self) -> str:
        return f"{self.black},{self.white}"


def score(guess: Sequence[int] | str, secret: Sequence[int] | str) -> Feedback:
    """Score ``guess`` against ``secret``: the specification of feedback.

    Black counts the positions where the colours agree. White is how many more blacks a
    rearrangement of the guess's own pegs could get: the colours the two codes share (counted
    with multiplicity), less the blacks.

    Each code is a :class:`~mastermind.core.code.Code` or colour numbers from 0; text is read in
    the game of a Code given beside it, and refused without one (text alone does not say its
    game, and "1122" against "aabb" would share no symbol).

    >>> score((0, 0, 1, 1), (0, 1, 2, 3))
    Feedback(black=1, white=1)
    >>> from mastermind import Code, Rules
    >>> score(Code("1122", Rules()), "1213")
    Feedback(black=1, white=2)
    """
    if isinstance(guess, str) or isinstance(secret, str):
        guess, secret = _read(guess, secret), _read(secret, guess)
    if len(guess) != len(secret):
        raise NotationError(f"codes of different lengths: {len(guess)} and {len(secret)}")
    black = sum(g == s for g, s in zip(guess, secret, strict=True))
    in_guess, in_secret = Counter(guess), Counter(secret)
    shared = sum(min(n, in_secret[color]) for color, n in in_guess.items())
    return Feedback(black, shared - black)


def _read(code: Sequence[int] | str, other: Sequence[int] | str) -> Sequence[int]:
    """``code``'s colours: text read in the game of ``other`` (a Code that knows its rules)."""
    if not isinstance(code, str):
        return code
    rules = getattr(other, "rules", None)
    if rules is None:
        raise NotationError(
            f"score cannot read {code!r} without its game: give Code({code!r}, rules), or colour "
            "numbers from 0"
        )
    return Code.parse(code, rules).colors


def possible_feedbacks(pegs: int, colors: int, repeats: bool = True) -> list[Feedback]:
    """Every reply that some guess and secret of this game can produce, in (black, white) order.

    With p pegs, black + white <= p and (p - 1, 1) never occurs. Without repeats, the two codes
    share at least 2p - colors colours.

    >>> len(possible_feedbacks(4, 6))
    14
    """
    least_shared = 0 if repeats else max(0, 2 * pegs - colors)
    out = []
    for black in range(pegs + 1):
        for white in range(pegs + 1 - black):
            if black == pegs - 1 and white == 1:
                continue
            if black + white < least_shared:
                continue
            out.append(Feedback(black, white))
    return out
