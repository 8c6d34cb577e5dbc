"""Puzzles: the positions before the mistakes and blunders of every saved game, and positions of
the classic game's optimal trees (:mod:`.tree_puzzles`, for a player with no saved game too), as
a practice of their own, with a rating of the player that moves with each puzzle (Elo's, as chess sites rate
puzzles).

A puzzle's rating says how hard it is: of the ``n`` codes possible there, ``a`` are accepted
tries (within :data:`~.practice.MARGIN` of the best, valued as the review values a move), and
the puzzle is rated ``START + SCALE * log10((n - a + 1/2) / (a + 1/2))``: 1500 where half the
possible codes would do, higher where fewer would (the halves keep a puzzle that every code, or
none, solves finite). Only codes that could be the secret are counted, though any guess is
accepted: a puzzle whose answer must be a code that cannot be the secret is the hardest.

The player starts at :data:`START`; each puzzle is a game against it: the expected score is
``1 / (1 + 10 ** ((puzzle - player) / SCALE))``, the score 1 when the first try is accepted and
0 otherwise (a wrong first try, the solution asked, or a skip), and the rating moves by
``K * (score - expected)``. Later tries at the same puzzle teach, they do not move the rating.
Which puzzle comes next and which try counts are here too (:func:`serve`, :func:`first_try`):
the web server keeps a standing per visitor and asks these, so its rules are the sessions'.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.notation import Notation
from ..core.rules import Rules
from ..core.text import plural
from ..deduction.state import SolverState
from ..errors import MastermindError
from .practice import BOARD, MARGIN, Position, Practice, word_of_play
from .review import review
from .sessions import QUIT, Board, Out, Session, say

if TYPE_CHECKING:
    from ..history.puzzle_ratings import Standing
    from .review import Review

#: A player's first rating, and a puzzle's where half the possible codes solve it.
START = 1500.0
#: Elo's scale: a rating this much above another expects to score 10 to 1 against it.
SCALE = 400.0
#: How far one puzzle moves the player's rating at most.
K = 32.0
#: Puzzles are positions of at most this many codes: every possible code is tried to rate one.
PUZZLE_LIMIT = 64


def expected_score(player: float, puzzle: float) -> float:
    """The player's chance of solving the puzzle at the first try, by their ratings.

    >>> expected_score(1500, 1500), round(expected_score(1500, 1900), 4)
    (0.5, 0.0909)
    """
    return 1.0 / (1.0 + 10.0 ** ((puzzle - player) / SCALE))


def rated(player: float, puzzle: float, solved: bool) -> float:
    """The player's rating after a puzzle, solved at the first try or not.

    >>> rated(1500, 1500, True), rated(1500, 1500, False)
    (1516.0, 1484.0)
    """
    return player + K * ((1.0 if solved else 0.0) - expected_score(player, puzzle))


def puzzle_rating(count: int, accepted: int) -> float:
    """A puzzle's rating from the codes possible and how many of them are accepted tries.

    >>> puzzle_rating(10, 5), round(puzzle_rating(10, 1), 1), round(puzzle_rating(10, 9), 1)
    (1500.0, 1820.7, 1179.3)
    """
    return START + SCALE * math.log10((count - accepted + 0.5) / (accepted + 0.5))


@dataclass(frozen=True)
class Puzzle:
    """A position to solve, its practice (which values a try) and its rating; ``source``:
    ``game`` (a saved game's mistake) or ``tree`` (:mod:`.tree_puzzles`); ``key``: its name
    among the puzzles of its source (the web page's puzzles are named by it);
    ``best_mean_left``: the codes the best guess leaves on average (a tree puzzle's)."""

    practice: Practice
    position: Position
    accepted: int
    rating: float
    source: str = "game"
    key: str = ""
    best_mean_left: float | None = None

    @property
    def name(self) -> str:
        """The puzzle's name among every puzzle: ``source:key`` (``tree:1122-21``, ``game:3:2``)."""
        return f"{self.source}:{self.key}"


def rate(practice: Practice, position: Position, **named: Any) -> Puzzle:
    """A position made a puzzle: rated by trying every code possible there (a practice of its
    own does: rating a puzzle solves nothing)."""
    from ..core.code import CodeSpace

    rules = practice.review.rules
    space = CodeSpace.of(rules)
    rater = Practice(practice.review, (position,))
    codes = SolverState(rules, list(position.rows)).candidate_indices()
    accepted = sum(rater.attempt(position, space.code(int(i))).accepted for i in codes)
    return Puzzle(practice, position, accepted, puzzle_rating(position.count, accepted), **named)


def puzzles_of(result: Review, game: int | None = None) -> Iterator[Puzzle]:
    """The puzzles of one reviewed game: its practice positions of at most :data:`PUZZLE_LIMIT`
    codes, each rated (``game``: the game's number, which names its puzzles ``game:guess``)."""
    practice = result.practice()
    for position in practice.positions:
        if position.count <= PUZZLE_LIMIT:
            key = "" if game is None else f"{game}:{position.number}"
            yield rate(practice, position, source="game", key=key)


def tree_puzzles(rules: Rules) -> list[Puzzle]:
    """The puzzles of the optimal trees of ``rules`` (:mod:`.tree_puzzles`; none for a game
    without a book of openings), easiest first; rated once per process."""
    return list(_tree_puzzles(rules))


@cache
def _tree_puzzles(rules: Rules) -> tuple[Puzzle, ...]:
    from .tree_puzzles import accepted_counts, tree_positions, tree_practice

    practice = tree_practice(rules)
    counts = accepted_counts(rules)
    found = []
    for t in tree_positions(rules):
        named: dict[str, Any] = {"source": "tree", "key": t.key, "best_mean_left": t.best_mean_left}
        if t.key not in counts:  # not shipped: rated now (slow on a fresh cache of positions)
            found.append(rate(practice, t.position, **named))
            continue
        accepted = counts[t.key]
        rating = puzzle_rating(t.position.count, accepted)
        found.append(Puzzle(practice, t.position, accepted, rating, **named))
    return tuple(sorted(found, key=lambda p: p.rating))


def mixed(own: Sequence[Puzzle], tree: Sequence[Puzzle]) -> list[Puzzle]:
    """The puzzles of a session: one from the player's games, then one from the trees, and so
    on, each source easiest first; where one runs out, the other's rest."""
    out: list[Puzzle] = []
    for i in range(max(len(own), len(tree))):
        out += [s[i] for s in (own, tree) if i < len(s)]
    return out


def nearest(puzzles: Sequence[Puzzle], rating: float, done: Collection[str]) -> Puzzle | None:
    """The puzzle to serve a player of ``rating`` next: of those whose name is not in ``done``,
    the one rated nearest the player (on a tie, one from the player's games); None when none is left."""
    left = [p for p in puzzles if p.name not in done]
    if not left:
        return None
    return min(left, key=lambda p: (abs(p.rating - rating), p.source != "game"))


def puzzles_from(
    records: Sequence[dict[str, Any]],
    rules: Rules,
    progress: Callable[[int, int], None] | None = None,
    numbers: Sequence[int] | None = None,
) -> list[Puzzle]:
    """The puzzles of the saved games of ``rules`` (their records; a match, or a game that
    cannot be reviewed, gives none), easiest first; ``progress(records done, of how many)``;
    ``numbers``: the games' numbers, which name their puzzles (``number:guess``)."""
    from ..core.records import rules_to_dict

    found: list[Puzzle] = []
    game = rules_to_dict(rules)
    for done, record in enumerate(records, 1):
        if progress:
            progress(done, len(records))
        if record.get("kind") == "match" and "moves" not in record or record.get("rules") != game:
            continue
        try:
            found += puzzles_of(review(record), None if numbers is None else numbers[done - 1])
        except MastermindError:
            continue
    return sorted(found, key=lambda p: p.rating)


def session_puzzles(
    records: Sequence[dict[str, Any]], rules: Rules, progress: Callable[[int, int], None] | None = None
) -> list[Puzzle]:
    """The puzzles of a session (``mastermind review --puzzles``, the terminal UI): those of the
    saved games of ``rules`` and those of its optimal trees, :func:`mixed`."""
    return mixed(puzzles_from(records, rules, progress), tree_puzzles(rules))


def puzzle_session(
    history: str | Path | None,
    records: Sequence[dict[str, Any]],
    rules: Rules,
    notation: Notation,
    progress: Callable[[int, int], None] | None = None,
) -> PuzzleSession:
    """The puzzles of ``records`` and of the game's trees (:func:`session_puzzles`) as a session,
    the player's rating kept in ``puzzle-rating.json`` beside the ``history`` file (none kept
    without one): what every front end opens."""
    found = session_puzzles(records, rules, progress)
    if history is None:
        return PuzzleSession(found, Rating(), notation)
    path = Path(history).with_name("puzzle-rating.json")
    return PuzzleSession(found, Rating.load(path), notation, keep=lambda rating: rating.save(path))


def serve(standing: Standing, puzzles: Sequence[Puzzle]) -> tuple[Puzzle | None, bool]:
    """The puzzle to show a player now, and whether ``standing`` changed: the one served stays
    until it is tried or its solution is asked (a reload shows it again); then the one rated
    nearest the player of those not played yet (:func:`nearest`), round again once all are."""
    if standing.current is not None and not standing.tried:
        served = next((p for p in puzzles if p.name == standing.current), None)
        if served is not None:
            return served, False
    served = nearest(puzzles, standing.rating, standing.done)
    if served is None and puzzles:  # every puzzle played: round again
        standing.done = []
        served = nearest(puzzles, standing.rating, ())
    if served is None:
        return None, False
    standing.current, standing.tried = served.name, False
    return served, True


def first_try(standing: Standing, puzzle: Puzzle, solved: bool) -> tuple[float, float] | None:
    """The player's rating before and after ``puzzle`` where this is the first try at the puzzle
    served (``solved``: the try accepted; the solution asked first counts as not solved), the
    puzzle counted played; None for any later try, which teaches and moves nothing."""
    if standing.current != puzzle.name or standing.tried:
        return None
    before = standing.rating
    standing.rating = rated(before, puzzle.rating, solved)
    standing.tried, standing.puzzles = True, standing.puzzles + 1
    standing.solved += int(solved)
    standing.played(puzzle.name)
    return before, standing.rating


def solution(puzzle: Puzzle, notation: Notation) -> str:
    """The sentence that gives a puzzle's solution: the best guess and the guesses it expects."""
    p = puzzle.position
    return f"The solution: {notation.format_code(p.best)}, {float(p.best_expected):.4f} guesses expected."


def goal(puzzle: Puzzle) -> str:
    """What a puzzle asks, in one sentence, the same in every front end."""
    p = puzzle.position
    best = f"{float(p.best_expected):.4f} guesses expected"
    if puzzle.best_mean_left is not None:
        best += f", {puzzle.best_mean_left:.2f} codes left on average"
    return f"Find a guess within {MARGIN} of the best here (the best: {best})."


@dataclass
class Rating:
    """The player's puzzle rating and how many puzzles made it, kept in a small JSON file."""

    value: float = START
    puzzles: int = 0

    @classmethod
    def load(cls, path: Path) -> Rating:
        """The rating kept at ``path`` (a fresh one where there is none, or it cannot be read)."""
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            return cls(float(data["rating"]), int(data["puzzles"]))
        except (OSError, ValueError, KeyError, TypeError):
            return cls()

    def save(self, path: Path) -> None:
        """Kept at once, whole or not at all (written aside, then moved in place)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        aside = path.with_name(path.name + ".tmp")
        aside.write_text(
            json.dumps({"rating": round(self.value, 2), "puzzles": self.puzzles}), encoding="utf-8"
        )
        os.replace(aside, path)

    def after(self, puzzle: Puzzle, solved: bool) -> float:
        """Move the rating by one puzzle; the rating before."""
        before = self.value
        self.value = rated(self.value, puzzle.rating, solved)
        self.puzzles += 1
        return before


class PuzzleSession(Session):
    """Puzzles line by line (``mastermind review --puzzles``): each position shown with its
    rating, a try valued; the first try moves the player's rating (kept by ``keep`` at once)."""

    def __init__(self, puzzles: list[Puzzle], rating: Rating, notation: Notation, keep: Any = None) -> None:
        super().__init__(notation)
        self.puzzles, self.rating, self.keep = puzzles, rating, keep or (lambda r: None)
        self.at, self.tried, self.solved = 0, False, 0

    @property
    def prompt(self) -> str:
        return "puzzle guess> "

    @property
    def tally(self) -> str:
        """Where the puzzles stand, in a few words."""
        return f"Rating {self.rating.value:.0f} · solved {self.solved} of {len(self.puzzles)}"

    def record(self) -> dict[str, Any]:
        return {"rating": self.rating.value, "puzzles": self.rating.puzzles}

    def start(self) -> Iterator[Out]:
        if not self.puzzles:
            self.done = True
            yield say(
                "No puzzle yet: puzzles are the positions before the mistakes of your saved games, "
                "and positions of the classic game's optimal trees."
            )
            return
        own = sum(p.source == "game" for p in self.puzzles)
        yield say(
            f"{plural(len(self.puzzles), 'puzzle')} ({own} from your games, {len(self.puzzles) - own} "
            f"from the optimal trees); your rating {self.rating.value:.0f}. "
            "Type a guess (your first try counts), 'solution', 'skip' or 'quit' (help: every word)."
        )
        yield from self._show()

    def _show(self) -> Iterator[Out]:
        puzzle = self.puzzles[self.at]
        p, f = puzzle.position, self.notation.format_code
        where = "your games" if puzzle.source == "game" else "the optimal tree"
        yield say(
            f"Puzzle {self.at + 1} of {len(self.puzzles)} (from {where}), rated {puzzle.rating:.0f}: "
            f"guess {p.number}.",
            "strong",
        )
        if p.rows:
            yield Board(p.rows)
        codes = "" if p.codes is None else ": " + " ".join(f(c) for c in p.codes)
        yield say(f"{plural(p.count, 'code')} possible{codes}. {goal(puzzle)}")

    def answer(self, line: str) -> Iterator[Out]:
        word = line.strip().lower()
        if word in QUIT or self.at >= len(self.puzzles):
            yield from self._end()
            return
        puzzle = self.puzzles[self.at]
        said = word_of_play(word)
        if said is not None or word in BOARD:
            yield from [say(said)] if said is not None else self._show()
            return
        if word in ("solution", "s", "skip", "n"):
            if not self.tried:
                yield self._rate(puzzle, False)
            if word in ("solution", "s"):
                yield say(solution(puzzle, self.notation))
            yield from self._next()
            return
        try:
            tried = puzzle.practice.attempt(puzzle.position, line)
        except MastermindError as err:
            yield say(f"{err}. Try again (or type help).", "error")
            return
        yield say(tried.words(self.notation), "won" if tried.accepted else "")
        if not self.tried:
            yield self._rate(puzzle, tried.accepted)
        if tried.accepted:
            self.solved += 1
            yield from self._next()

    def _rate(self, puzzle: Puzzle, solved: bool) -> Out:
        self.tried = True
        before = self.rating.after(puzzle, solved)
        self.keep(self.rating)
        return say(
            f"Rating {before:.0f} -> {self.rating.value:.0f} (the puzzle is rated {puzzle.rating:.0f})."
        )

    def _next(self) -> Iterator[Out]:
        self.at, self.tried = self.at + 1, False
        if self.at < len(self.puzzles):
            yield from self._show()
        else:
            yield from self._end()

    def _end(self) -> Iterator[Out]:
        self.done = True
        yield say(f"Solved {self.solved}; your rating {self.rating.value:.0f}.", "strong")
