"""The help a strategy gives a person breaking a code: which strategy hints, and what a hint is.

The game keeps the hints asked (:meth:`~mastermind.games.game.Game.hint`); which strategy gives
them, and the one that stands in where the strategy named cannot play the game, is decided here.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.code import Code
from ..core.rules import Rules
from ..core.text import plural
from ..errors import StrategyError
from ..strategies import Strategy, make_strategy

#: The strategy that gives hints unless another is named.
DEFAULT_STRATEGY = "knuth"

#: The strategies that hint, the first that can, where the one named cannot play the game (one
#: too large to list its codes, or a strategy of the classic game only): the counter plays any.
HINT_FALLBACKS = (DEFAULT_STRATEGY, "counter")


@dataclass(frozen=True)
class Hint:
    """What a strategy would play, and how many codes are still possible (None: too many to count).

    ``instead_of`` names the hint strategy asked for when it cannot play this game and the game
    asked one of :data:`HINT_FALLBACKS` (``strategy``) instead; :attr:`note` says so in words.

    ``passed_over`` is the strategy's own guess where it was passed over: on the last guess only a
    code still possible can win, and the strategy's guess was not one, so ``guess`` is such a code;
    ``hard`` where it was passed over for hard mode (only such a code may be played) before the
    last guess.
    """

    strategy: str
    guess: Code
    candidates: int | None
    instead_of: str | None = None
    passed_over: Code | None = None
    hard: bool = False

    @property
    def lead(self) -> str:
        """The words before the guess: whose guess it is, or why another was hinted.

        >>> Hint("knuth", Code((0, 0)), 3).lead, Hint("knuth", Code((0, 0)), 3, passed_over=Code((1, 1))).lead
        ('knuth would play', 'on the last guess, play')
        """
        if self.passed_over is None:
            return f"{self.strategy} would play"
        return "in hard mode, play" if self.hard else "on the last guess, play"

    @property
    def note(self) -> str:
        """Why another strategy than the one asked hints: '' when it is the one asked.

        >>> Hint("counter", Code((0, 0)), None, instead_of="knuth").note
        'knuth cannot play this game, so counter hints'
        """
        notes = []
        if self.instead_of is not None:
            notes.append(f"{self.instead_of} cannot play this game, so {self.strategy} hints")
        if self.passed_over is not None:
            notes.append(f"the code {self.strategy} would play cannot be the secret")
        return "; ".join(notes)

    def __str__(self) -> str:
        left = "" if self.candidates is None else f"{plural(self.candidates, 'code')} possible; "
        return f"{left}{self.lead} {self.guess}"

    @classmethod
    def of(cls, strategy: str, guess: Code, candidates: int | None, asked: str) -> Hint:
        """The hint ``strategy`` gives, where the one ``asked`` for hints (another, when it
        could not play the game)."""
        return cls(strategy, guess, candidates, None if strategy == asked else asked)


def hint_strategy(name: str, rules: Rules, first: Code | None = None) -> Strategy:
    """The strategy ``name`` that hints in a game of ``rules`` (with ``first``, its first guess);
    where it cannot play the game, the first of :data:`HINT_FALLBACKS` that can, so that a person
    breaking a code too large for it still gets hints (:attr:`Hint.instead_of` says so)."""
    try:
        return make_strategy(name, rules, first=first)
    except StrategyError:
        pass
    for other in HINT_FALLBACKS:
        if other != name:
            try:
                return make_strategy(other, rules)
            except StrategyError:
                continue
    raise StrategyError(f"no strategy can give hints in {rules.describe()}")  # pragma: no cover
