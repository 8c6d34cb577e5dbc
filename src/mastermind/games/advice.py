"""A hint that teaches: the codes left, how the suggested guess splits them, its expected guesses,
and how the player's last guess fared against the best (the review's values, for one position)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ..core.code import Code
from ..core.notation import Notation
from ..core.text import sentence
from ..deduction.state import SolverState
from ..errors import GameError
from .positions import Clock
from .review import DEFAULT_BUDGET, HEURISTIC, MoveReview, listed, review_move, rounded
from .valuer import Valuer

if TYPE_CHECKING:
    from .game import Game, Hint
    from .match import Match


@dataclass(frozen=True)
class Advice:
    """A hint that teaches: the codes left, how the suggested guess splits them, its expected
    guesses from here, and how the player's last guess fared (see :func:`advise`).

    Attributes:
        hint: the strategy's suggestion (counted in the game's record as a hint asked).
        count: the codes still possible.
        codes: those codes, when at most :data:`LIST_LIMIT`.
        largest, expected_size, parts: how the suggestion splits them (the largest class, the
            expected number of codes left, the number of classes).
        expected: the expected guesses from here with the suggestion, this one included.
        best, best_expected: a best guess from here and its expected guesses.
        exact: whether those are the exact search's values (else the heuristic's line).
        last: the review of the player's last guess (None before the first).
        left: the guesses left, this one included.
        within_limit: whether some play is sure to find the code in the guesses left; where none
            is, the expected guesses (measured as if there were more) are not told.
    """

    hint: Hint
    count: int
    codes: tuple[Code, ...] | None
    largest: int
    expected_size: float
    parts: int
    expected: Fraction | None
    best: Code
    best_expected: Fraction
    exact: bool
    last: MoveReview | None
    left: int = 0
    within_limit: bool = True

    def lines(self, notation: Notation) -> list[str]:
        """The hint in words, the same in every front end."""
        guess = notation.format_code(self.hint.guess)
        codes = "1 code is" if self.count == 1 else f"{self.count:,} codes are"
        listed = f": {' '.join(notation.format_code(c) for c in self.codes)}" if self.codes else ""
        out = [f"{codes} still possible{listed}."]
        if self.count == 1:
            out.append(f"Play {guess}: it is the code.")
            if self.last is not None:
                out.append(f"Your last guess, {self.last.comment(notation)}.")
            return out
        if self.left == 1:  # one guess left: only a code still possible can win
            out.append(
                f"This is the last guess: play {guess}, a code still possible, 1 chance in {self.count:,}."
            )
            if self.hint.note:
                out.append(f"{sentence(self.hint.note)}.")
            if self.last is not None:
                out.append(f"Your last guess, {self.last.comment(notation)}.")
            return out
        classes = "1 class" if self.parts == 1 else f"{self.parts} classes"
        lead = self.hint.lead if self.hint.passed_over is None else sentence(self.hint.lead)  # hard mode
        out.append(
            f"{lead} {guess}: it splits them into {classes}, the largest "
            f"of {self.largest:,}, {self.expected_size:.2f} codes left on average."
        )
        if self.hint.note:  # the strategy asked for cannot play this game, or its guess here
            out.append(f"{sentence(self.hint.note)}.")
        how = "" if self.exact else f" ({HEURISTIC} line)"
        if not self.within_limit:
            out.append(f"No play can be sure to find the code in the {self.left} guesses left.")
        elif self.expected is not None:
            text = f"With {guess}, {float(self.expected):.4f} guesses are expected from here"
            if self.best_expected != self.expected:
                text += f" (the best, {notation.format_code(self.best)}: {float(self.best_expected):.4f})"
            elif self.exact:  # (a heuristic's line cannot say that no guess does better)
                text += ", as few as any guess gives"
            out.append(text + how + ".")
        if self.last is not None:
            out.append(f"Your last guess, {self.last.comment(notation)}.")
        return out

    def to_dict(self, notation: Notation) -> dict[str, Any]:
        return {
            "strategy": self.hint.strategy,
            "guess": notation.format_code(self.hint.guess),
            "candidates": self.count,
            "codes": None if self.codes is None else [notation.format_code(c) for c in self.codes],
            "largest": self.largest,
            "expected_size": round(self.expected_size, 6),
            "classes": self.parts,
            "expected": rounded(self.expected) if self.within_limit else None,
            "best": notation.format_code(self.best),
            "best_expected": rounded(self.best_expected) if self.within_limit else None,
            "guesses_left": self.left,
            "within_limit": self.within_limit,
            "exact": self.exact,
            "last": None if self.last is None else self.last.to_dict(notation),
            "lines": self.lines(notation),
        }


def advise(game: Game, budget: float | None = DEFAULT_BUDGET) -> Advice:
    """The game's hint (counted as one asked, as :meth:`Game.hint`), with what teaches it.

    Raises:
        GameError: the game is over, or too large to list its codes.
        MastermindError: the hint strategy has no guess (as :meth:`Game.hint`).
    """
    from ..deduction.analysis import partition

    space = game.space
    if not space.enumerable:
        raise GameError(f"{game.rules.describe()} has too many codes to explain a hint")
    hint = game.hint()
    state = SolverState(game.rules, game.history)
    codes = state.candidate_indices()
    split = partition(game.rules, hint.guess, codes)
    valuer = Valuer(game.rules, budget, HEURISTIC)
    g = space.index(hint.guess.colors)
    history = game.history
    *before, here = valuer.walk(history)
    last = None
    try:
        value = valuer.move(state, codes, g, here.line, None, Clock(valuer.budget))
        if history:  # the player's last guess, valued where it was played; not with the secret
            # (its best_after would be the codes left where the secret lies: a hint during play
            # tells nothing the replies have not told, and the web page gets it as JSON)
            last = review_move(valuer, before[-1], len(history), *history[-1], None)
    finally:
        valuer.positions.save()
    return Advice(
        hint=hint,
        count=len(codes),
        codes=listed(space, codes),
        largest=split.largest,
        expected_size=split.expected_size,
        parts=split.parts,
        expected=None if value.total is None else Fraction(value.total, len(codes)),
        best=space.code(value.best),
        best_expected=Fraction(value.best_total, len(codes)),
        exact=value.exact,
        last=last,
        left=game.guesses_left,
        within_limit=value.within_limit,
    )


def hint_given(played: Game | Match) -> Advice | Hint:
    """The hint given to the person breaking the code, on the command line and the terminal
    board alike: the one that teaches (:class:`Advice`) where the game's codes can be listed,
    else the strategy's guess alone (:class:`~.game.Hint`). In a match the match says whether a
    hint may be asked now (:meth:`~.match.Match.hint`); either way it is counted in the record.

    Raises:
        MastermindError: no hint now (the match's words), or the strategy has no guess.
    """
    from ..core.code import CodeSpace
    from .match import Match

    if not CodeSpace.of(played.rules).enumerable:
        return played.hint()
    return played.advise() if isinstance(played, Match) else advise(played)
