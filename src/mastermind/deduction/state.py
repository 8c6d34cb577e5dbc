"""Solver state: a history of guesses and replies, and the codes still consistent with it."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from ..core.code import Code, CodeLike, CodeSpace, as_code
from ..core.feedback import Feedback
from ..core.notation import Notation, check_feedback
from ..core.rules import Rules
from ..core.text import plural
from ..errors import ContradictionError, FeedbackError

Row = tuple[Code, Feedback]


def _feedback_of_all(space: CodeSpace, guess: int) -> np.ndarray:
    from .._kernels import replies

    return replies(space, guess, np.arange(space.size, dtype=np.int64))


class SolverState:
    """What the codebreaker knows: the rules, the history, and the candidates it leaves.

    >>> state = SolverState(Rules()).add("1122", "1,0").add("1344", "0,1")
    >>> len(state.candidate_indices())
    44

    Args:
        rules: the game.
        history: (guess, feedback) rows, as Code and Feedback or as text.
    """

    def __init__(
        self,
        rules: Rules,
        history: Iterable[tuple[Code | Sequence[int] | str, Feedback | str]] = (),
        *,
        _candidates: np.ndarray | None = None,
    ) -> None:
        self.rules = rules
        self.space = CodeSpace.of(rules)
        notation = Notation(rules)
        rows = []
        for guess, fb in history:
            code = as_code(guess, rules)
            reply = notation.parse_feedback(fb) if isinstance(fb, str) else Feedback(*fb)
            check_feedback(reply, rules)
            rows.append((code, reply))
        self.history: tuple[Row, ...] = tuple(rows)
        self._candidates = _candidates

    def add(self, guess: Code | Sequence[int] | str, feedback: Feedback | str) -> SolverState:
        """A new state with one more row; the candidates are narrowed from this state's."""
        state = SolverState(self.rules, [*self.history, (guess, feedback)])
        if self._candidates is not None and self.space.enumerable:
            code, fb = state.history[-1]
            state._candidates = _narrow(self.space, self._candidates, code, fb)
        return state

    def child(self, code: Code, fb: Feedback, candidates: np.ndarray | None = None) -> SolverState:
        """A state one row on, for hot paths that know the row is valid (no checks); its
        candidates, if already known, are ``candidates`` (else computed when asked for)."""
        state = SolverState.__new__(SolverState)
        state.rules, state.space = self.rules, self.space
        state.history = (*self.history, (code, fb))
        state._candidates = candidates
        return state

    @classmethod
    def after(
        cls, rules: Rules, history: Iterable[tuple[int, int]], candidates: np.ndarray | None = None
    ) -> SolverState:
        """The state after ``history``, (guess index, reply as ``black * (pegs + 1) + white``)
        pairs, as the kernels and the runner write them (no checks); its candidates are
        ``candidates`` if already known.

        >>> SolverState.after(Rules(), [(7, 5)]).history == SolverState(Rules()).add("1122", "1,0").history
        True
        """
        state = cls(rules)
        for g, f in history:
            state = state.child(state.space.code(g), Feedback.from_int(f, rules.pegs))
        state._candidates = candidates
        return state

    @property
    def turn(self) -> int:
        """The number of the next guess (1 for the first)."""
        return len(self.history) + 1

    def candidate_indices(self) -> np.ndarray:
        """Indices of the codes consistent with every row (ascending, int64).

        Raises:
            ContradictionError: no code is consistent; names a smallest contradicting set of rows.
        """
        if self._candidates is None:
            self.space.require_enumerable()
            cands = np.arange(self.space.size, dtype=np.int64)
            for code, fb in self.history:
                cands = _narrow(self.space, cands, code, fb)
            self._candidates = cands
        if len(self._candidates) == 0:
            raise contradiction(self.rules, self.history)
        return self._candidates

    def candidates(self) -> list[Code]:
        """The consistent codes, for people."""
        return [self.space.code(i) for i in self.candidate_indices()]

    def is_candidate(self, code: CodeLike) -> bool:
        """Whether ``code`` (a Code, its text in this game, or colour numbers) is consistent
        with every row."""
        from ..core.feedback import score

        colors = as_code(code, self.rules).colors
        return all(score(g.colors, colors) == fb for g, fb in self.history)

    def __repr__(self) -> str:
        notation = Notation(self.rules)
        return f"SolverState({self.rules!r}, {notation.format_history(self.history)!r})"

    def _repr_html_(self) -> str:
        from ..core import display

        if not self.space.enumerable:
            from html import escape

            return escape(str(self))
        try:
            candidates = self.candidate_indices()
        except ContradictionError:
            from html import escape

            return escape(str(self))
        shown = [self.space.code(i).colors for i in candidates[: display.CODES_SHOWN]]
        return display.codes(Notation(self.rules), shown, len(candidates), str(self))

    def __str__(self) -> str:
        """What is known, and how many codes it leaves (when they can be counted).

        >>> print(SolverState(Rules()).add("1122", "1,0").add("1344", "0,1"))
        1122=1,0 1344=0,1: 44 codes possible
        """
        history = Notation(self.rules).format_history(self.history) or "no guess yet"
        if not self.space.enumerable:
            return f"{history}: {self.rules.describe()}, too many codes to count"
        try:
            left = plural(len(self.candidate_indices()), "code")
        except ContradictionError:
            return f"{history}: no code fits (the replies contradict each other)"
        return f"{history}: {left} possible"


def _narrow(space: CodeSpace, cands: np.ndarray, code: Code, fb: Feedback) -> np.ndarray:
    from .._kernels import replies

    guess = space.index(code.colors)
    got = replies(space, guess, cands)
    return cands[got == fb.to_int(space.pegs)]


def first_candidates(rules: Rules, history: Sequence[Row], limit: int) -> list[Code]:
    """The first ``limit`` codes, in numeric order, consistent with ``history``: fewer when fewer fit.

    Found one after another by the counter's skip-ahead search, so it serves games too large to
    enumerate (the cost grows with ``limit`` and with how sparse the candidates are).

    >>> rows = Notation(Rules(pegs=8, colors=10)).parse_history("12345678=8,0")
    >>> first_candidates(Rules(pegs=8, colors=10), rows, 5)
    [Code((1, 2, 3, 4, 5, 6, 7, 8))]
    """
    from .._kernels import skip_ahead as search

    rows = [(code.colors, fb) for code, fb in history]
    found: list[Code] = []
    start = [0] * rules.pegs
    while len(found) < limit:
        colors = search.find_first(rules.pegs, rules.colors, rules.repeats, rows, start=start)
        if colors is None:
            break
        found.append(Code(tuple(colors), rules))
        start = list(colors)  # the next counter value after this code
        i = rules.pegs - 1
        while i >= 0 and start[i] == rules.colors - 1:
            start[i] = 0
            i -= 1
        if i < 0:
            break
        start[i] += 1
    return found


def smallest_contradiction(rules: Rules, history: Sequence[Row]) -> tuple[int, ...] | None:
    """Positions of a smallest set of rows that no code satisfies together, or None if consistent.

    Sets are tried by increasing size, so the answer has as few rows as possible; among sets of
    that size, the one that comes first in order of row positions. Games too large to enumerate
    are checked with the counter's skip-ahead search instead of masks over every code (the number
    of sets tried still grows quickly with the size of the answer).
    """
    space = CodeSpace.of(rules)
    if not space.enumerable:
        return _smallest_contradiction_by_search(rules, history)
    masks = []
    for code, fb in history:
        masks.append(_feedback_of_all(space, space.index(code.colors)) == fb.to_int(rules.pegs))
    if np.logical_and.reduce(masks, axis=0).any() if masks else True:
        return None
    for size in range(1, len(history) + 1):
        for rows in itertools.combinations(range(len(history)), size):
            if not np.logical_and.reduce([masks[i] for i in rows], axis=0).any():
                return rows
    return None  # unreachable: the whole history is inconsistent


def _smallest_contradiction_by_search(rules: Rules, history: Sequence[Row]) -> tuple[int, ...] | None:
    from .._kernels import skip_ahead as search

    rows = [(code.colors, fb) for code, fb in history]

    def consistent(positions: Sequence[int]) -> bool:
        chosen = [rows[i] for i in positions]
        return search.find_first(rules.pegs, rules.colors, rules.repeats, chosen) is not None

    if consistent(range(len(rows))):
        return None
    for size in range(1, len(rows) + 1):
        for positions in itertools.combinations(range(len(rows)), size):
            if not consistent(positions):
                return positions
    return None  # unreachable: the whole history is inconsistent


def contradiction(
    rules: Rules, history: Sequence[Row], notation: Notation | None = None
) -> ContradictionError:
    """The error for an inconsistent history, naming a smallest set of contradicting rows.

    Codes are written in ``notation`` (the game's default one if None).
    """
    rows = smallest_contradiction(rules, history)
    if rows is None:  # pragma: no cover - callers only ask for inconsistent histories
        raise FeedbackError("the history is consistent")
    notation = notation or Notation(rules)
    shown = ", ".join(f"row {i + 1} ({notation.format_code(history[i][0])}={history[i][1]})" for i in rows)
    if len(rows) == 1:
        message = f"no secret gives that reply: {shown}"
    else:
        message = f"the replies contradict each other: no secret fits {shown} together"
    return ContradictionError(message, rows)


@dataclass(frozen=True)
class Correction:
    """One reply that, written differently, makes a contradictory history consistent.

    Attributes:
        row: 0-based position of the row in the history.
        reply: the reply that row would need.
        candidates: how many codes fit the corrected history.
    """

    row: int
    reply: Feedback
    candidates: int

    def __str__(self) -> str:
        return f"row {self.row + 1} to {self.reply} ({plural(self.candidates, 'code')} would fit)"


def suggest_corrections(rules: Rules, history: Sequence[Row]) -> list[Correction]:
    """Every way to make ``history`` consistent by changing the reply of a single row.

    Empty when the history is already consistent, or when no single reply can be blamed (two or
    more replies are wrong). The all-black reply is offered for the last row only: a row with rows
    after it was not the secret, or the game would have ended there. For the same reason, where a
    row with rows after it is all black already, only that row's reply is offered to change: a
    correction elsewhere would leave a guess after a win.

    Ordered likeliest first (see :func:`slip`): the fewest key pegs away from the reply given (one
    peg misjudged is a likelier slip than a wholly different reply), then the last row (the reply
    just given) before the others, then the later rows before the earlier, then by reply.

    >>> rows = Notation(Rules()).parse_history("1122=1,0 1344=0,1 1344=2,0")
    >>> [(c.row, str(c.reply), c.candidates) for c in suggest_corrections(Rules(), rows)]
    [(2, '0,1', 44), (1, '2,0', 23)]
    """
    space = CodeSpace.of(rules)
    space.require_enumerable()
    pegs = rules.pegs
    n = len(history)
    replies = [_feedback_of_all(space, space.index(code.colors)) for code, _ in history]
    masks = [got == fb.to_int(pegs) for got, (_, fb) in zip(replies, history, strict=True)]
    if not n or np.logical_and.reduce(masks, axis=0).any():
        return []
    # fit_before[i]: codes that satisfy rows < i; fit_after[i]: rows > i.
    everything = np.ones(space.size, dtype=bool)
    fit_before = [everything]
    for mask in masks[:-1]:
        fit_before.append(fit_before[-1] & mask)
    fit_after = [everything] * n
    for i in range(n - 2, -1, -1):
        fit_after[i] = fit_after[i + 1] & masks[i + 1]
    won = Feedback(pegs, 0).to_int(pegs)
    wins = [i for i, (_, fb) in enumerate(history[:-1]) if fb.black == pegs]  # each followed by a guess
    out = []
    for i, (_, fb) in enumerate(history):
        if any(j != i for j in wins):
            continue  # changing this row would leave a guess after a win
        others = np.flatnonzero(fit_before[i] & fit_after[i])
        if not len(others):
            continue
        values, counts = np.unique(replies[i][others], return_counts=True)
        for value, count in zip(values.tolist(), counts.tolist(), strict=True):
            if value != fb.to_int(pegs) and (i == n - 1 or value != won):
                out.append(Correction(i, Feedback.from_int(value, pegs), count))
    return sorted(out, key=lambda c: (slip(history[c.row][1], c.reply), c.row != n - 1, -c.row, c.reply))


def slip(given: Feedback, meant: Feedback) -> int:
    """How many key pegs differ between two replies: a peg added or taken away, or a black one
    given for a white one, is one.

    >>> [slip(Feedback(*a), Feedback(*b)) for a, b in [((1, 2), (1, 1)), ((1, 2), (2, 1)), ((0, 2), (4, 0))]]
    [1, 1, 4]
    """
    black, white = meant.black - given.black, meant.white - given.white
    return (abs(black) + abs(white) + abs(black + white)) // 2


def diagnose(rules: Rules, history: Sequence[Row], notation: Notation | None = None) -> str | None:
    """One paragraph for people: which rows contradict each other and which reply could be fixed.

    None when the history is consistent. Codes are written in ``notation`` (default: the game's).

    >>> rows = Notation(Rules()).parse_history("1122=1,0 1344=0,1 1344=2,0")
    >>> print(diagnose(Rules(), rows))  # doctest: +NORMALIZE_WHITESPACE
    the replies contradict each other: no secret fits row 2 (1344=0,1), row 3 (1344=2,0) together;
    correcting one reply would make them consistent (in brackets, how many codes would then fit):
    row 3 to 0,1 (44); or row 2 to 2,0 (23)
    """
    if smallest_contradiction(rules, history) is None:
        return None
    message = str(contradiction(rules, history, notation))
    fixes = suggest_corrections(rules, history)
    if not fixes:
        return message + "; no single reply can be corrected to fit: at least two replies are wrong"
    by_row: dict[int, list[str]] = {}
    for c in fixes:
        by_row.setdefault(c.row, []).append(f"{c.reply} ({c.candidates})")
    per_row = [f"row {row + 1} to {_or(options)}" for row, options in by_row.items()]
    shown = per_row[0] if len(per_row) == 1 else "; ".join(per_row[:-1]) + "; or " + per_row[-1]
    return (
        f"{message}; correcting one reply would make them consistent "
        f"(in brackets, how many codes would then fit): {shown}"
    )


def _or(options: list[str]) -> str:
    return options[0] if len(options) == 1 else ", ".join(options[:-1]) + " or " + options[-1]
