"""A game reviewed move by move against the optimum, as a chess game is: what each guess was
worth, what was best, and a verdict.

For each move, over the codes still possible before it (each equally likely):

* ``expected``: the expected number of guesses from this move on, this guess included, when
  this guess is played and the best play follows; ``best`` a guess that minimises it and
  ``best_expected`` its value; ``loss`` the difference (never negative).
* the measure: exact (the optimal search from the position, within the game's guess limit)
  wherever the search finishes within a time budget per move (the same rule in every game:
  what is read from a book, a tree or the cache, and small positions, are exact whatever the
  budget; see :mod:`.valuer`); otherwise the line of a named
  heuristic (:data:`HEURISTIC`: the heuristic plays every move after the guess, and ``best``
  is the better of its own guess and the player's). Each move says which (``exact``).
* the verdict, from the loss, by the thresholds of :data:`VERDICTS` (one table, read by every
  front end): ``best`` (no loss), ``good``, ``inaccuracy``, ``mistake``, ``blunder``.
* ``known``: the reply left one code and the player did not play it next.

How a move is valued, exactly or by the heuristic, is the :class:`~.valuer.Valuer`'s
(:mod:`.valuer`); here are the review's data (:class:`MoveReview`, :class:`Review`, the
verdicts) and :func:`review`, which walks a game and values each move.

Where no play can be sure to find the code within the guesses the game has left (a game about
to be lost), the guess limit cannot be met by any guess and would value every move alike: such
a move is measured as if there were one more guess left than codes possible (``within_limit``
is then False). A guess after which some code can no longer be found in time, where another
guess could have found them all, has no finite ``expected``: it is a blunder.

The classic game's first move 1123 is the optimum, 5625 / 1296 = 4.3403 guesses expected; Knuth's
1122 expects 5702 / 1296 = 4.3997, a loss of 0.0594: good.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from ..core.code import Code, CodeSpace
from ..core.feedback import Feedback
from ..core.notation import Notation
from ..core.records import reply_text, rules_to_dict
from ..core.rules import Rules
from ..core.text import guess_count, plural
from ..deduction.state import SolverState
from ..errors import ContradictionError, GameError, RecordError
from . import accuracy as scores
from .moves import check_history
from .positions import Clock
from .valuer import Place, Valuer

if TYPE_CHECKING:
    from .game import Game
    from .practice import Practice

#: The verdicts, best first, each with the loss (in expected guesses) below which it is given;
#: ``best`` is a loss of exactly 0, and a move past the last bound (or with no finite expected
#: number, see the module) is a blunder. A loss of 0.1 is one guess more in ten games.
VERDICTS: tuple[tuple[str, float], ...] = (
    ("best", 0.0),
    ("good", 0.1),
    ("inaccuracy", 0.3),
    ("mistake", 0.6),
    ("blunder", math.inf),
)

#: The chess marks of the verdicts, drawn by every front end (and the line to share).
VERDICT_MARKS = {"best": "★", "good": "✓", "inaccuracy": "?!", "mistake": "?", "blunder": "??"}

#: The verdict names, best first.
VERDICT_NAMES = tuple(name for name, _ in VERDICTS)
#: the verdicts counted in words: "2 mistakes", but "2 best"
VERDICT_PLURALS = {"best": "best", "good": "good", "inaccuracy": "inaccuracies"}

#: Codes are listed (before and after a move, in a hint) when at most this many are possible.
LIST_LIMIT = 20

#: Seconds the exact search may take for one move before the heuristic stands in.
DEFAULT_BUDGET = 3.0

#: The strategy whose line values a move when the exact search runs out of time.
HEURISTIC = "expected-size"

#: A move's progress: progress(moves reviewed, of how many).
Progress = Callable[[int, int], None]


def verdict(loss: Fraction | float | None) -> str:
    """The verdict of a loss (None: the move may lose a game that could be won).

    >>> verdict(0), verdict(Fraction(77, 1296)), verdict(0.3), verdict(None)
    ('best', 'good', 'mistake', 'blunder')
    """
    if loss is None:
        return "blunder"
    if loss <= 0:
        return "best"
    for name, below in VERDICTS[1:]:
        if loss < below:
            return name
    return "blunder"  # pragma: no cover - the last bound is infinite


def rounded(value: Fraction | None, digits: int = 6) -> float | None:
    return None if value is None else round(float(value), digits)


@dataclass(frozen=True)
class MoveReview:
    """One move valued (see the module for what each value means).

    Attributes:
        number: the guess's number (1 for the first).
        guess, reply: the move.
        before, after: how many codes were possible before the move and after its reply.
        before_codes, after_codes: those codes when at most :data:`LIST_LIMIT`, else None.
        consistent: whether the guess could have been the secret.
        bits: the information of the reply, log2(before / after).
        expected: expected guesses from this move on with this guess (None: see the module).
        best, best_expected: a best guess and its expected guesses.
        loss: expected - best_expected (None when expected is None).
        verdict: from the loss (:data:`VERDICTS`).
        known: the code was known after this reply (one left) and not played next.
        exact: whether the values are the optimal search's (else the heuristic's line).
        within_limit: whether they are measured within the game's guess limit.
        best_after: the codes the best guess would have left: with the game's secret when it is
            known, else the expected number over the codes possible.
        told: the move was made knowing a reply fixed later: ``before``, its codes, the values
            and ``consistent`` are of the position as it was told then; ``after`` is of the
            replies as they were mended.
        split, best_split: the sizes of the classes the guess, and the best guess, split the
            codes possible before the move into (by reply, largest first).
        hinted: the strategy whose hint the guess was (a hint asked at this turn, and played),
            else None: a hint is chosen by its strategy's own aim, not by the guesses expected.
        luck: how the reply compares with what the guess leaves on average (:mod:`.accuracy`).
        searched: positions searched for this move (not read from a tree or a cache).
        seconds: the time it took to value the move.
    """

    number: int
    guess: Code
    reply: Feedback
    before: int
    after: int
    before_codes: tuple[Code, ...] | None
    after_codes: tuple[Code, ...] | None
    consistent: bool
    bits: float
    expected: Fraction | None
    best: Code
    best_expected: Fraction
    loss: Fraction | None
    verdict: str
    known: bool
    exact: bool
    within_limit: bool = True
    best_after: float = 0.0
    told: bool = False
    split: tuple[int, ...] = ()
    best_split: tuple[int, ...] = ()
    luck: float = 50.0
    hinted: str | None = None
    searched: int = field(default=0, compare=False)
    seconds: float = field(default=0.0, compare=False)

    def to_dict(self, notation: Notation) -> dict[str, Any]:
        """The move as JSON types (codes as ``notation`` writes them, the reply as ``"B,W"``)."""

        def codes(found: tuple[Code, ...] | None) -> list[str] | None:
            return None if found is None else [notation.format_code(c) for c in found]

        data = {
            "number": self.number,
            "guess": notation.format_code(self.guess),
            "reply": reply_text(self.reply),
            "before": self.before,
            "after": self.after,
            "before_codes": codes(self.before_codes),
            "after_codes": codes(self.after_codes),
            "consistent": self.consistent,
            "bits": round(self.bits, 6),
            "expected": rounded(self.expected),
            "best": notation.format_code(self.best),
            "best_expected": rounded(self.best_expected),
            "loss": rounded(self.loss),
            "verdict": self.verdict,
            "known": self.known,
            "exact": self.exact,
            "within_limit": self.within_limit,
            "best_after": round(self.best_after, 6),
            "accuracy": round(self.accuracy, 2),
            "luck": round(self.luck, 2),
            "mean_left": round(self.mean_left, 6),
            "parts": len(self.split),
            "largest": self.split[0] if self.split else 0,
            "best_mean_left": round(scores.mean_left(self.best_split or (1,)), 6),
            "best_parts": len(self.best_split),
            "best_largest": self.best_split[0] if self.best_split else 0,
            "noteworthy": self.noteworthy,
        }
        if self.told:  # said only where it is so: a review of no fixed reply reads as before
            data["told"] = True
        if self.hinted:
            data["hinted"] = self.hinted
        return data

    @property
    def accuracy(self) -> float:
        """How close the move came to the best play, 100 for the best (:mod:`.accuracy`)."""
        return scores.accuracy(self.loss)

    @property
    def mean_left(self) -> float:
        """The codes the guess leaves on average (each code possible before equally likely)."""
        return scores.mean_left(self.split) if self.split else float(self.after)

    @property
    def noteworthy(self) -> bool:
        """Whether the move has more to say than its values, so that every front end shows its
        :meth:`comment`: a verdict below good, a guess that could not be the secret, or the
        code known and not played."""
        return self.verdict not in ("best", "good") or not self.consistent or self.known

    @property
    def marks(self) -> str:
        """The move's marks, as :meth:`Review.marks_legend` explains them ('' for none)."""
        marks = ("!" if self.known else "") + ("" if self.consistent else "x") + ("" if self.exact else "~")
        return marks + ("f" if self.told else "") + ("h" if self.hinted else "")

    def comment(self, notation: Notation) -> str:
        """The move in one sentence, the same in every front end."""
        guess, best = notation.format_code(self.guess), notation.format_code(self.best)
        how = "" if self.exact else f" ({HEURISTIC} line)"
        # a winning guess says so, and what it was worth: a guess may win against the odds
        won = self.reply.black == len(self.guess.colors)
        head = f"{guess}: won; " if won else f"{guess}: "
        worth = f"{self.verdict} in expectation" if won else self.verdict
        if self.expected is None:
            found = f"{best} finds every one, {float(self.best_expected):.4f} guesses expected{how}"
            text = f"{head}{worth}: some codes could no longer be found in time; {found}"
        elif self.loss == 0:
            text = f"{head}best, {float(self.expected):.4f} guesses expected{how}"
        else:
            loss = float(self.loss or 0)
            text = (
                f"{head}{worth}, {float(self.expected):.4f} guesses expected; best "
                f"{best}, {float(self.best_expected):.4f} (loss {loss:.4f}){how}"
            )
        if not self.within_limit:
            text += "; valued as if there were more guesses left"
        if self.told:
            text += "; valued as it was told then, before a reply was fixed"
        if not self.consistent:
            text += "; it could not be the secret"
        if self.known and self.after_codes:
            text += f"; the code was known: {notation.format_code(self.after_codes[0])}"
        if self.hinted and self.loss != 0:  # (why a hint taken may still lose: it aims elsewhere)
            text += f"; it was the hint of {self.hinted}{_aim(self.hinted)}"
        return text


def _aim(strategy: str) -> str:
    """', whose aim is ...': the strategy's summary, where it has one."""
    from ..errors import StrategyError
    from ..strategies import find_strategy

    try:
        summary = find_strategy(strategy).summary
    except StrategyError:  # (a plug-in no longer installed: its name alone)
        return ""
    return f", whose aim is {summary}" if summary else ""


@dataclass(frozen=True)
class Review:
    """A game valued move by move; :func:`review` makes one.

    Attributes:
        rules: the game.
        moves: each move's review, in order.
        outcome: the game's outcome ("won", "lost", "gave-up"), None for a bare history not won.
        secret: the secret, when it is known (a game with its secret, or a history that won).
        budget: the seconds the exact search had per move (None: no limit).
        heuristic: the strategy whose line stands in where the search ran out of time.
        optimum: the least expected number of guesses of the game, exact (from its optimal
            tree), when it is known (the first move's best_expected may be the heuristic's).
        compiling: some moves are the heuristic's because the exact search was not compiled
            yet, in a process that must not wait for it (it is being compiled in the background).
    """

    rules: Rules
    moves: tuple[MoveReview, ...]
    outcome: str | None
    secret: Code | None
    budget: float | None
    heuristic: str = HEURISTIC
    optimum: Fraction | None = None
    compiling: bool = False

    @property
    def optimal_expected(self) -> Fraction | None:
        """The expected number of guesses under best play from the first move: exact where it
        is known, else the first move's best_expected."""
        if self.optimum is not None:
            return self.optimum
        return self.moves[0].best_expected if self.moves else None

    @property
    def total_loss(self) -> Fraction | None:
        """The sum of the losses (None if a move had no finite expected number)."""
        if any(m.loss is None for m in self.moves):
            return None
        return sum((m.loss for m in self.moves if m.loss is not None), Fraction(0))

    @property
    def exact(self) -> bool:
        """Whether every move was valued by the exact search."""
        return all(m.exact for m in self.moves)

    @property
    def accuracy(self) -> float | None:
        """The game's accuracy: the mean of its moves' (:mod:`.accuracy`; None for no move)."""
        return scores.mean([m.accuracy for m in self.moves])

    @property
    def luck(self) -> float | None:
        """The game's luck: the mean of its moves' (:mod:`.accuracy`; None for no move)."""
        return scores.mean([m.luck for m in self.moves])

    def practice(self) -> Practice:
        """The positions before the game's mistakes and blunders, to find a better guess at each
        (:mod:`.practice`)."""
        from .practice import Practice

        return Practice.of(self)

    def verdicts(self) -> dict[str, int]:
        """How many moves got each verdict, best first (every verdict named)."""
        counts = dict.fromkeys(VERDICT_NAMES, 0)
        for m in self.moves:
            counts[m.verdict] += 1
        return counts

    def summary(self, notation: Notation | None = None) -> dict[str, Any]:
        """The summary as JSON types: guesses played, the optimum from the first move, the total
        loss, the moves by verdict, the codes known and not played, the moves measured exactly
        (what was searched and how long it took is left out: it depends on what was cached), the
        line to share (the game named as ``notation`` speaks of it)."""
        return {
            "guesses": len(self.moves),
            "outcome": self.outcome,
            "optimal_expected": rounded(self.optimal_expected),
            "total_loss": rounded(self.total_loss),
            "verdicts": self.verdicts(),
            "known": sum(m.known for m in self.moves),
            "exact_moves": sum(m.exact for m in self.moves),
            "accuracy": None if self.accuracy is None else round(self.accuracy, 2),
            "luck": None if self.luck is None else round(self.luck, 2),
            "share": self.share_line(notation),
        }

    def summary_lines(self) -> list[str]:
        """The summary in words, the same in every front end."""
        s = self.summary()
        best = s["optimal_expected"]
        if best is None:
            return ["No guesses played."]
        played = guess_count(len(self.moves))
        out = [f"{played} played; best play expects {best:.4f} from the first move."]
        total = s["total_loss"]
        verdicts = ", ".join(
            plural(n, name, VERDICT_PLURALS.get(name)) for name, n in s["verdicts"].items() if n
        )
        if total is None:  # a guess that left codes no play could find within the guesses left
            out.append(f"Total loss: not finite, some codes could no longer be found in time; {verdicts}.")
        else:
            out.append(f"Total loss: {total:.4f} guesses; {verdicts}.")
        figures = f"Accuracy {scores.rounded(self.accuracy)}, luck {scores.rounded(self.luck)}"
        out.append(f"{figures} (out of 100; 50 is average luck).")
        if s["known"]:
            times = "1 time" if s["known"] == 1 else f"{s['known']} times"
            out.append(f"The code was known and not played {times}.")
        if not self.exact:
            if self.compiling or self.budget is None:
                why = "is being compiled, once, in the background: ask again in a minute or two"
            else:
                why = f"ran past {self.budget} s"
            out.append(f"Some moves are valued by the {self.heuristic} line: the exact search {why}.")
        if any(not m.within_limit for m in self.moves):
            out.append(
                "Where no play could find the code within the guesses left, moves are valued as if "
                "there were more."
            )
        return out

    def share_line(self, notation: Notation | None = None) -> str:
        """The game in one line to share (:func:`.review_chart.share_line`)."""
        from .review_chart import share_line

        return share_line(self, notation)

    def marks_legend(self) -> str | None:
        """What the moves' :attr:`~MoveReview.marks` mean, or None where no move has one."""
        if not any(m.marks for m in self.moves):
            return None
        told = "; f valued as told then, before a reply was fixed" if any(m.told for m in self.moves) else ""
        hinted = next((m.hinted for m in self.moves if m.hinted), None)
        hint = f"; h the hint of {hinted}{_aim(hinted)}" if hinted else ""
        return (
            "Marks: ! the code was known and not played next; x not a possible code; ~ the "
            f"{self.heuristic} line{told}{hint}."
        )

    def measure(self) -> dict[str, Any]:
        """How the moves were valued: exactly, or by the heuristic where the budget ran out."""
        return {
            "exact": "optimal",
            "heuristic": self.heuristic,
            "budget": self.budget,
            "all_exact": self.exact,
        }

    def to_dict(self, notation: Notation | None = None) -> dict[str, Any]:
        """The review as JSON types (``--json`` of ``mastermind review``, the web API)."""
        from .review_chart import chart_points

        notation = notation or Notation(self.rules)
        return {
            "rules": rules_to_dict(self.rules),
            "measure": self.measure(),
            "secret": None if self.secret is None else notation.format_code(self.secret),
            "moves": [m.to_dict(notation) for m in self.moves],
            "summary": self.summary(notation),
            "verdicts": {name: bound for name, bound in VERDICTS[1:-1]},
            "chart": [p.to_dict() for p in chart_points(self)],
            "practice": [p.to_dict(notation) for p in self.practice().positions],
        }


# -- the review ----------------------------------------------------------------------------------


def review_move(
    valuer: Valuer,
    place: Place,
    number: int,
    guess: Code,
    reply: Feedback,
    secret: Code | None,
    told: Place | None = None,
) -> MoveReview:
    """The review of one move, played at ``place`` and valued by ``valuer`` (``known`` is set by
    the caller, who knows the next move); ``told``: the position as the player was told it when
    the move was made, where a reply was fixed later (the move is valued there)."""
    started = time.perf_counter()
    space, codes = valuer.space, place.codes
    at = told if told is not None else place
    g = space.index(guess.colors)
    clock = Clock(valuer.budget)
    value = valuer.move(at.state, at.codes, g, at.line, at.first_tree, clock)
    after = valuer.after(g, reply, codes)
    total_best = Fraction(value.best_total, len(at.codes))
    expected = None if value.total is None else Fraction(value.total, len(at.codes))
    loss = None if expected is None else max(Fraction(0), expected - total_best)
    split = valuer.split(g, at.codes)
    return MoveReview(
        number=number,
        guess=guess,
        reply=reply,
        before=len(at.codes),
        after=len(after),
        before_codes=listed(space, at.codes),
        after_codes=listed(space, after),
        consistent=bool(np.isin(g, at.codes)),
        bits=math.log2(len(at.codes) / len(after)),
        expected=expected,
        best=space.code(value.best),
        best_expected=total_best,
        loss=loss,
        verdict=verdict(loss),
        known=False,
        exact=value.exact,
        within_limit=value.within_limit,
        best_after=valuer.best_after(value.best, at.codes, secret),
        told=told is not None,
        split=split,
        best_split=valuer.split(value.best, at.codes),
        luck=scores.luck(len(after), scores.mean_left(split)),
        searched=clock.searched,
        seconds=time.perf_counter() - started,
    )


History = Sequence[tuple[Code | Sequence[int] | str, Feedback | str]]
#: The rows of a game, each a guess and its reply.
Rows = list[tuple[Code, Feedback]]


def review(
    subject: Game | dict[str, Any] | History | str,
    rules: Rules | None = None,
    *,
    budget: float | None = DEFAULT_BUDGET,
    heuristic: str = HEURISTIC,
    progress: Progress | None = None,
) -> Review:
    """Value every move of a game against the optimum.

    Args:
        subject: a finished :class:`~mastermind.games.game.Game`, a game's record, or a history
            (``(guess, reply)`` pairs, or text such as ``"1122=1,0 1344=0,1"``).
        rules: the game of a history (default: the classic game); a game knows its own.
        budget: seconds the exact search may take per move (None: no limit).
        heuristic: the strategy whose line values a move where the search runs out of time.
        progress: called as progress(moves done, of how many).

    Raises:
        GameError: a game not finished, a game too large to list its codes, or moves after a win.
        ContradictionError: replies that no code gives.
        RecordError: a record that is not one game's.
    """
    rules, history, secret, outcome, told, hinted = _game_of(subject, rules)
    if budget is not None and budget < 0:
        raise GameError(f"the budget is a number of seconds, at least 0, not {budget}")
    why = unreviewable(rules)
    if why is not None:
        raise GameError(why)
    check_history(rules, history)
    pegs = rules.pegs
    if history and history[-1][1].black == pegs:
        outcome = outcome or "won"
        secret = secret or history[-1][0]
    valuer = Valuer(rules, budget, heuristic)
    moves: list[MoveReview] = []
    try:
        for number, (guess, reply), place in zip(itertools.count(1), history, valuer.walk(history)):
            before = told(number)
            moved = None if before == history[: number - 1] else _told_place(valuer, before)
            move = review_move(valuer, place, number, guess, reply, secret, moved)
            moves.append(replace(move, hinted=hinted(number, guess)))
            if progress:
                progress(number, len(history))
    finally:
        valuer.positions.save()
    over = outcome is not None
    tree = valuer.tree
    optimum = None if tree is None else Fraction(tree.cost, tree.size)  # type: ignore[attr-defined]
    if optimum is None and moves and moves[0].exact and moves[0].within_limit:
        optimum = moves[0].best_expected
    marked = tuple(_mark_known(moves, pegs, over))
    # a fresh install has the exact search compiled in the background (a minute or two): until
    # then a front end that must not wait values by the heuristic, and says why
    from .._kernels.compiled import waits

    compiling = not all(m.exact for m in marked) and waits("exact")
    return Review(rules, marked, outcome, secret, valuer.budget, heuristic, optimum, compiling)


def unreviewable(rules: Rules) -> str | None:
    """Why no game of ``rules`` can be reviewed (its codes cannot be listed), or None: asked
    before a front end offers a review, so that it offers none :func:`review` would refuse."""
    if CodeSpace.of(rules).enumerable:
        return None
    return f"{rules.describe()} has too many codes to review a game of it"


def _game_of(
    subject: Game | dict[str, Any] | History | str, rules: Rules | None
) -> tuple[
    Rules,
    list[tuple[Code, Feedback]],
    Code | None,
    str | None,
    Callable[[int], Rows],
    Callable[[int, Code], str | None],
]:
    """The rules, moves, secret (if known) and outcome of what :func:`review` is given, the
    rows before a guess as they were told then (a history: as they are), and whose hint a guess
    was (a history: nobody's)."""
    secret: Code | None = None
    outcome: str | None = None

    def told(number: int) -> Rows:
        return list(history[: number - 1])

    def hinted(number: int, guess: Code) -> str | None:
        return None

    if isinstance(subject, (str, Sequence)):  # a history needs no game (nor its strategies)
        rules = rules or Rules()
        notation = Notation(rules)
        if isinstance(subject, str) or all(isinstance(item, str) for item in subject):
            history = notation.parse_history(subject)  # type: ignore[arg-type]
        else:
            history = list(SolverState(rules, subject).history)
    else:
        from .game import Game

        if isinstance(subject, dict):
            if subject.get("kind") == "match" and "moves" not in subject:  # a match's own game has moves
                raise RecordError("a match is reviewed with review_match(), or one game at a time")
            subject = Game.from_record(subject)
        if not subject.over:
            raise GameError("the game is not finished: a review is of a finished game")
        rules, history = subject.rules, subject.history
        secret, outcome = subject.secret, subject.outcome
        told = subject.told
        hints = {(a.turn, a.guess) for a in subject.assists if a.kind == "hint"}
        strategy = subject.strategy_name

        def hinted(number: int, guess: Code) -> str | None:
            return strategy if (number, guess) in hints else None

    return rules, history, secret, outcome, told, hinted


def _told_place(valuer: Valuer, rows: list[tuple[Code, Feedback]]) -> Place | None:
    """The position after ``rows``, the replies as a move was told them before one was fixed
    (None where no code fits them: the move is then valued as the replies stand)."""
    try:
        if not len(SolverState(valuer.rules, rows).candidate_indices()):
            return None
    except ContradictionError:
        return None
    *_, place = valuer.walk(rows)
    return place


def listed(space: CodeSpace, codes: np.ndarray) -> tuple[Code, ...] | None:
    return tuple(space.code(int(i)) for i in codes) if len(codes) <= LIST_LIMIT else None


def _mark_known(moves: list[MoveReview], pegs: int, over: bool) -> Iterable[MoveReview]:
    """Mark each move after which one code was left and the player did not play it next (or the
    game ended without it), unless the next guess was made knowing a reply fixed later."""

    for i, m in enumerate(moves):
        misled = i + 1 < len(moves) and moves[i + 1].told  # the next guess knew a reply fixed later
        if m.after == 1 and m.reply.black != pegs and m.after_codes and not misled:
            code = m.after_codes[0]
            nxt = moves[i + 1].guess if i + 1 < len(moves) else None
            if (nxt is not None and nxt != code) or (nxt is None and over):
                m = replace(m, known=True)
        yield m
