"""Practice from your mistakes: the positions before each mistake or blunder of a reviewed game,
and a try at each valued at once, exactly as the review valued the move played there.

A try is accepted when it is within :data:`MARGIN` expected guesses of the best (the bound of a
``good`` verdict: best or good is accepted); it is told how good it was by the review's own
measures (expected guesses, loss, verdict, accuracy). The position's best total is known from the
review (kept in memory and in the cache of positions), so a try costs the search of its own reply
classes, small positions in the classic game: it answers at once.

The positions are those of the game as its replies stand: where a reply was fixed later, the
rows are the mended ones.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Protocol

from ..core.code import Code
from ..core.feedback import Feedback
from ..core.notation import Notation
from ..core.rules import Rules
from ..core.text import plural
from ..errors import GameError, MastermindError
from . import accuracy as scores
from .positions import Clock
from .review import HEURISTIC, VERDICTS, verdict
from .sessions import QUIT, Board, Out, Session, say
from .valuer import Place, Valuer

if TYPE_CHECKING:
    from .review import Review


class Valued(Protocol):
    """What values a try: the game's rules, a time budget per move and the heuristic past it (a
    :class:`~mastermind.games.review.Review`, or the optimal tree's puzzles, :mod:`.tree_puzzles`)."""

    @property
    def rules(self) -> Rules: ...
    @property
    def budget(self) -> float | None: ...
    @property
    def heuristic(self) -> str: ...


#: A try is accepted when its loss is under this many expected guesses: the bound of ``good``.
MARGIN = dict(VERDICTS)["good"]

#: The verdicts whose positions are practised.
PRACTISED = ("mistake", "blunder")


@dataclass(frozen=True)
class Position:
    """The position before a mistake or blunder: the rows so far, the codes possible, what was
    played there and what was best.

    Attributes:
        number: the number of the guess to find (1 for the first).
        rows: the guesses and replies before it.
        count, codes: the codes possible there (listed when few, as in the review).
        played, verdict, loss: the guess played there, its verdict and its loss.
        best, best_expected: a best guess there and its expected guesses.
    """

    number: int
    rows: tuple[tuple[Code, Feedback], ...]
    count: int
    codes: tuple[Code, ...] | None
    played: Code
    verdict: str
    loss: Fraction | None
    best: Code
    best_expected: Fraction

    @property
    def loss_words(self) -> str:
        """The loss as a player reads it (None: the guess played may let a code escape the guesses
        left, :func:`~mastermind.games.review.verdict`).

        >>> Position(1, (), 2, None, Code((0,)), "blunder", None, Code((1,)), Fraction(3, 2)).loss_words
        'a code could escape'
        """
        return "a code could escape" if self.loss is None else f"loss {float(self.loss):.4f}"

    def to_dict(self, notation: Notation) -> dict[str, Any]:
        """The position as JSON types (the web page's practice)."""
        f = notation.format_code
        return {
            "number": self.number,
            "rows": [{"guess": f(g), "reply": f"{r.black},{r.white}"} for g, r in self.rows],
            "count": self.count,
            "codes": None if self.codes is None else [f(c) for c in self.codes],
            "played": f(self.played),
            "verdict": self.verdict,
            "loss": None if self.loss is None else round(float(self.loss), 6),
            "loss_words": self.loss_words,
            "best": f(self.best),
            "best_expected": round(float(self.best_expected), 6),
        }


@dataclass(frozen=True)
class Attempt:
    """A try at a position: its expected guesses from there (None: it lets a code escape the
    guesses left), its loss against the best, the verdict and accuracy the review would give it,
    and whether it is accepted (a loss under :data:`MARGIN`)."""

    guess: Code
    expected: Fraction | None
    best_expected: Fraction
    exact: bool

    @property
    def loss(self) -> Fraction | None:
        return None if self.expected is None else max(Fraction(0), self.expected - self.best_expected)

    @property
    def verdict(self) -> str:
        return verdict(self.loss)

    @property
    def accuracy(self) -> float:
        return scores.accuracy(self.loss)

    @property
    def accepted(self) -> bool:
        return self.loss is not None and self.loss < MARGIN

    def to_dict(self, notation: Notation) -> dict[str, Any]:
        """The try as JSON types, with its sentence."""
        return {
            "guess": notation.format_code(self.guess),
            "expected": None if self.expected is None else round(float(self.expected), 6),
            "loss": None if self.loss is None else round(float(self.loss), 6),
            "verdict": self.verdict,
            "accuracy": round(self.accuracy, 2),
            "accepted": self.accepted,
            "words": self.words(notation),
        }

    def words(self, notation: Notation) -> str:
        """The try in one sentence, the same in every front end."""
        guess = notation.format_code(self.guess)
        how = "" if self.exact else f" ({HEURISTIC} line)"
        best = f"{float(self.best_expected):.4f}"
        if self.expected is None:
            worth = f"{guess}: blunder, some codes could no longer be found in time; best play expects {best}"
        elif self.loss == 0:
            worth = f"{guess}: best, {float(self.expected):.4f} guesses expected{how}"
        else:
            worth = (
                f"{guess}: {self.verdict}, {float(self.expected):.4f} guesses expected against "
                f"{best} (loss {float(self.loss or 0):.4f}){how}"
            )
        score = f"accuracy {scores.rounded(self.accuracy)}"
        if self.accepted:
            return f"{worth}; {score}. Solved."
        return f"{worth}; {score}. Not yet: a guess within {MARGIN} of the best is accepted."


@dataclass
class Practice:
    """The positions before a game's mistakes and blunders, each tried as often as wished;
    :meth:`Review.practice <mastermind.games.review.Review.practice>` makes one.

    Attributes:
        positions: the positions, in the game's order.
        solved: the numbers of the positions solved (a try accepted).
    """

    review: Valued
    positions: tuple[Position, ...]
    solved: set[int] = field(default_factory=set)
    _valuer: Valuer | None = field(default=None, repr=False)
    _places: dict[int, Place] = field(default_factory=dict, repr=False)

    @classmethod
    def of(cls, review: Review) -> Practice:
        rows = [(m.guess, m.reply) for m in review.moves]
        positions = tuple(
            Position(
                number=m.number,
                rows=tuple(rows[: m.number - 1]),
                count=m.before,
                codes=m.before_codes,
                played=m.guess,
                verdict=m.verdict,
                loss=m.loss,
                best=m.best,
                best_expected=m.best_expected,
            )
            for m in review.moves
            if m.verdict in PRACTISED
        )
        return cls(review, positions)

    def attempt(self, position: Position, guess: Code | Sequence[int] | str) -> Attempt:
        """Value a try at ``position`` (a code, its colours, or its text as the game writes it);
        an accepted try counts the position solved."""
        rules = self.review.rules
        if isinstance(guess, str):
            guess = Notation(rules).parse_code(guess)
        valuer = self._valuer or Valuer(rules, self.review.budget, self.review.heuristic)
        self._valuer = valuer
        code = Code(valuer.space.check_code(guess.colors if isinstance(guess, Code) else guess))
        place = self._places.get(position.number)
        if place is None:
            *_, place = valuer.walk(list(position.rows))
            self._places[position.number] = place
        g = valuer.space.index(code.colors)
        if not position.rows and valuer.book is not None:
            valuer.seed_first(g, place.codes)
        try:
            value = valuer.move(place.state, place.codes, g, place.line, None, Clock(valuer.budget))
        finally:
            valuer.positions.save()
        size = len(place.codes)
        expected = None if value.total is None else Fraction(value.total, size)
        best = min(Fraction(value.best_total, size), position.best_expected)
        tried = Attempt(code, expected, best, value.exact)
        if tried.accepted:
            self.solved.add(position.number)
        return tried

    def position(self, number: int) -> Position:
        """The position before guess ``number``; GameError where that guess is not practised."""
        for p in self.positions:
            if p.number == number:
                return p
        raise GameError(f"guess {number} was no mistake nor blunder: there is no position to practise there")


#: What asks for the best guess of a position, and what passes on to the next.
SOLUTION, SKIP = ("solution", "s"), ("skip", "n")

#: What asks a practice prompt for its words, and what shows the position again.
HELP, BOARD = ("help", "?"), ("board",)

#: The words of a practice prompt (``review --practice``, ``--puzzles``), as its help says them.
WORDS = (
    "a better guess; solution (s): the best guess; skip (n): the next position; "
    "board: this position again; quit"
)


def word_of_play(word: str) -> str | None:
    """What a practice prompt says to a word that play's prompt takes and it takes otherwise
    (``help``, ``hint``, ``undo``), or None for any other line: a player types play's words here
    too, and each is answered with the words that stand for it, never taken for a code."""
    if word in HELP:
        return f"Type {WORDS}."
    if word == "hint":
        return "No hint here: the best guess is what you are looking for. solution shows it; skip moves on."
    if word == "undo":
        return "Nothing to undo: each try is valued on its own. Type another guess, solution or skip."
    return None


class PracticeSession(Session):
    """Practice line by line, as ``mastermind review --practice`` lives it: each position's rows
    and codes shown, a try valued and told, ``solution`` shows the best guess, ``skip`` moves on,
    ``quit`` (or the end of the positions) ends it with the count of the positions solved."""

    def __init__(self, practice: Practice, notation: Notation | None = None) -> None:
        super().__init__(notation or Notation(practice.review.rules))
        self.practice = practice
        self.at = 0

    @property
    def position(self) -> Position:
        return self.practice.positions[self.at]

    @property
    def prompt(self) -> str:
        return "better guess> "

    @property
    def tally(self) -> str:
        """Where the practice stands, in a few words."""
        return f"Solved {len(self.practice.solved)} of {len(self.practice.positions)}"

    def record(self) -> dict[str, Any]:
        return {"solved": sorted(self.practice.solved), "positions": len(self.practice.positions)}

    def start(self) -> Iterator[Out]:
        count = len(self.practice.positions)
        if not count:
            self.done = True
            yield say(
                f"No mistake or blunder to practise: every move lost under {dict(VERDICTS)['inaccuracy']}."
            )
            return
        yield say(
            f"Practice: {plural(count, 'position')} from your mistakes and blunders. At each, type a "
            f"better guess (within {MARGIN} of the best is accepted), 'solution', 'skip' or 'quit' "
            "(help: every word)."
        )
        yield from self._show()

    def _show(self) -> Iterator[Out]:
        p, f = self.position, self.notation.format_code
        yield say(f"Position {self.at + 1} of {len(self.practice.positions)}: guess {p.number}.", "strong")
        if p.rows:
            yield Board(p.rows)
        codes = "" if p.codes is None else ": " + " ".join(f(c) for c in p.codes)
        yield say(f"{plural(p.count, 'code')} possible{codes}.")
        yield say(f"You played {f(p.played)} here: {p.verdict} ({p.loss_words}).")

    def answer(self, line: str) -> Iterator[Out]:
        word = line.strip().lower()
        if word in QUIT:
            yield from self._end()
        elif word in SOLUTION:
            p = self.position
            best = f"{self.notation.format_code(p.best)}, {float(p.best_expected):.4f} guesses expected"
            yield say(f"The solution: {best}.")
            yield from self._next()
        elif word in SKIP:
            yield from self._next()
        elif word in BOARD:
            yield from self._show()
        elif not word:
            yield say("Type a guess, 'solution', 'skip' or 'quit' (or help).")
        elif word_of_play(word) is not None:
            yield say(word_of_play(word) or "")
        else:
            try:
                tried = self.practice.attempt(self.position, line)
            except MastermindError as err:
                yield say(f"{err}. Try again (or type help).", "error")
                return
            yield say(tried.words(self.notation), "won" if tried.accepted else "")
            if tried.accepted:
                yield from self._next()

    def _next(self) -> Iterator[Out]:
        self.at += 1
        if self.at < len(self.practice.positions):
            yield from self._show()
        else:
            yield from self._end()

    def _end(self) -> Iterator[Out]:
        self.done = True
        solved, count = len(self.practice.solved), len(self.practice.positions)
        yield say(f"Solved {solved} of {plural(count, 'position')}.", "strong")
