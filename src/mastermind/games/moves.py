"""The rows of a board and what can be wrong with them: a move (a guess and its reply), the help
the breaker had (a hint asked, a guess taken back), a guess that cannot be the secret
(:func:`inconsistency`), and replies that contradict each other (:class:`Problem`).

The :class:`~mastermind.games.game.Game` keeps them; the rules of play that make them are its.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from ..core.code import Code
from ..core.feedback import Feedback, score
from ..core.notation import Notation
from ..deduction.state import Correction


@dataclass(frozen=True)
class Move:
    """One row of the board: a guess and the reply it got.

    ``fixed`` keeps the replies the row had before it was fixed
    (:meth:`~mastermind.games.game.Game.fix`), oldest first, each with the number of the first
    guess made after the fix: the guesses before it were made knowing the earlier reply. A row is
    the same move whatever its earlier replies.
    """

    guess: Code
    reply: Feedback
    fixed: tuple[tuple[Feedback, int], ...] = field(default=(), compare=False, repr=False)

    def __str__(self) -> str:
        """The row as a history item: ``1122=1,0``."""
        return f"{self.guess}={self.reply}"


@dataclass(frozen=True)
class Assist:
    """Help the breaker had, kept in the record with the moves: a hint asked (``guess`` is the
    hint's suggestion) or a guess taken back (``guess`` and the ``reply`` it had had).

    Attributes:
        kind: "hint" or "undo".
        turn: the number of the guess it came at (a hint before guess 3, guess 3 taken back: 3).
    """

    kind: Literal["hint", "undo"]
    turn: int
    guess: Code
    reply: Feedback | None = None


@dataclass(frozen=True)
class Inconsistency:
    """Why a guess cannot be the secret: an earlier reply it contradicts (see :func:`inconsistency`).

    Attributes:
        row: the earlier guess's row (1 for the first).
        guess, reply: that earlier guess and the reply it got.
        would_get: the reply that guess would have got, were the new guess the secret.
    """

    row: int
    guess: Code
    reply: Feedback
    would_get: Feedback

    def warning(self, code: Code, notation: Notation) -> str:
        """The warning in words, the same in every front end (which adds how to go on).

        >>> from mastermind.core.rules import Rules
        >>> notation = Notation(Rules())
        >>> code = notation.parse_code("1134")
        >>> clash = inconsistency([(notation.parse_code("1122"), Feedback(1, 1))], code)
        >>> clash.warning(code, notation)
        '1134 cannot be the secret: guess 1, 1122, got 1 black, 1 white, and would have got 2 black, 0 white'
        """
        terms = notation.terms
        return (
            f"{notation.format_code(code)} cannot be the secret: guess {self.row}, "
            f"{notation.format_code(self.guess)}, got {terms.reply(self.reply)}, and would have got "
            f"{terms.reply(self.would_get)}"
        )


def inconsistency(history: list[tuple[Code, Feedback]], guess: Code) -> Inconsistency | None:
    """The first earlier reply that ``guess`` contradicts, or None when ``guess`` could be the
    secret (every earlier guess would have got the reply it got, were ``guess`` the secret).

    This is the rule behind the warning a player may ask for (the setting
    ``warn_inconsistent``, ``mastermind play --warn-inconsistent``): a guess that cannot be the
    secret is still a legal guess, and often a good one (it may split the codes left better), so
    the front ends warn and play it when the player confirms. Only in hard mode
    (:meth:`~mastermind.games.game.Game.check_hard`) is it refused.

    >>> from mastermind.core.rules import Rules
    >>> n = Notation(Rules())
    >>> history = [(n.parse_code("1122"), Feedback(1, 1)), (n.parse_code("1344"), Feedback(0, 1))]
    >>> inconsistency(history, n.parse_code("1234")).row, inconsistency(history, n.parse_code("2156"))
    (2, None)
    """
    for row, (earlier, reply) in enumerate(history, 1):
        would_get = score(earlier.colors, guess.colors)
        if would_get != reply:
            return Inconsistency(row, earlier, reply, would_get)
    return None


@dataclass(frozen=True)
class Problem:
    """Replies that contradict each other.

    Attributes:
        rows: 0-based rows of a smallest set that cannot all be true.
        corrections: every single reply that, written differently, makes the history consistent.
        message: one paragraph for people, naming the rows and the corrections.
    """

    rows: tuple[int, ...]
    corrections: tuple[Correction, ...]
    message: str

    def __str__(self) -> str:
        return self.message
