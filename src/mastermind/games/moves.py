"""The rows of a board and what can be wrong with them: a move (a guess and its reply), the help
the breaker had (a hint asked, a guess taken back), a guess that cannot be the secret
(:func:`inconsistency`), replies that contradict each other (:class:`Problem`, :func:`problem`),
and a history no game could have had (:func:`check_history`).

The :class:`~mastermind.games.game.Game` keeps them; the rules of play that make them are its.
:func:`check_history` is the same rules asked of a history given whole (``mastermind solve``,
``partition``, ``review``), so that a history typed in is held to what a game allows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from ..core.code import Code, CodeSpace
from ..core.feedback import Feedback, score
from ..core.notation import Notation
from ..core.rules import Rules
from ..deduction.state import Correction, diagnose, smallest_contradiction, suggest_corrections
from ..errors import ContradictionError, GameError


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


def problem(
    rules: Rules, history: Sequence[tuple[Code, Feedback]], notation: Notation | None = None
) -> Problem | None:
    """The contradiction in ``history``'s replies (codes written in ``notation``), or None when
    some code gives them all. Only the rows are read: a game too large to list is not asked.

    >>> from mastermind.core.rules import Rules
    >>> rows = Notation(Rules()).parse_history("1122=1,0 1122=0,1")
    >>> problem(Rules(), rows).rows, [str(c) for c in problem(Rules(), rows).corrections]
    ((0, 1), ['row 2 to 1,0 (256 codes would fit)', 'row 1 to 0,1 (256 codes would fit)'])
    """
    rows = smallest_contradiction(rules, history)
    if rows is None:
        return None
    message = diagnose(rules, history, notation or Notation(rules)) or ""
    return Problem(tuple(rows), tuple(suggest_corrections(rules, history)), message)


#: How a history ends a game (:func:`ending`).
Ending = Literal["won", "lost"]


def ending(rules: Rules, history: Sequence[tuple[Code, Feedback]]) -> Ending | None:
    """How ``history`` ends the game: ``"won"`` (its last guess got all black), ``"lost"`` (every
    guess the game allows made, none won), or None (play goes on).

    >>> from mastermind.core.rules import Rules
    >>> rules = Rules(pegs=2, colors=3, max_guesses=2)
    >>> [ending(rules, Notation(rules).parse_history(h)) for h in ("", "11=0,0 23=2,0", "11=0,0 22=0,0")]
    [None, 'won', 'lost']
    """
    if history and history[-1][1].black == rules.pegs:
        return "won"
    return "lost" if len(history) >= rules.max_guesses else None


def check_rows(rules: Rules, history: Sequence[tuple[Code, Feedback]]) -> Ending | None:
    """The rules of play every history keeps, whatever its replies: no guess follows a win, and no
    more guesses are made than the game allows (GameError, naming the row, if not). Returns how
    the history ends the game (:func:`ending`).

    >>> from mastermind.core.rules import Rules
    >>> check_rows(Rules(), Notation(Rules()).parse_history("1122=4,0 1344=1,0"))
    Traceback (most recent call last):
    mastermind.errors.GameError: guess 1 won (all 4 black): no guess follows a win
    """
    for row in range(1, len(history)):
        if ending(rules, history[:row]) == "won":
            raise GameError(f"guess {row} won (all {rules.pegs} black): no guess follows a win")
    if len(history) > rules.max_guesses:
        raise GameError(
            f"{len(history)} guesses are more than the {rules.max_guesses} the game allows "
            "(give the game's guess limit)"
        )
    return ending(rules, history)


def check_history(
    rules: Rules, history: Sequence[tuple[Code, Feedback]], notation: Notation | None = None
) -> Ending | None:
    """Refuse a history no game could have had: a guess after a win, more guesses than the game
    allows (GameError, :func:`check_rows`), or replies no code gives (ContradictionError whose
    message is the :func:`problem`'s: the rows, and the corrections that mend them, each of which
    leaves a history this check accepts). In a game too large to list its codes, only the rules
    of play are checked: the search that looks for a code finds a contradiction. Returns how the
    history ends the game (:func:`ending`).

    >>> from mastermind.core.rules import Rules
    >>> check_history(Rules(), Notation(Rules()).parse_history("1122=1,0 1344=0,1 3526=1,2"))
    >>> check_history(Rules(max_guesses=2), Notation(Rules()).parse_history("1122=0,0 3344=0,0 5555=1,0"))
    Traceback (most recent call last):
    mastermind.errors.GameError: 3 guesses are more than the 2 the game allows (give the game's guess limit)
    """
    end = check_rows(rules, history)
    if CodeSpace.of(rules).enumerable:
        found = problem(rules, history, notation)
        if found is not None:
            raise ContradictionError(found.message, found.rows)
    return end
