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

One rule for every front end (the command line, the terminal board, the web page), here:

* which puzzles there are (:func:`puzzle_games`, :func:`puzzles_for`): those of the player's
  latest :data:`GAMES` finished games of play, and those of the game's optimal trees;
* which is served (:func:`serve`): the one served stays until it is tried (a reload, or quitting
  and coming back, shows it again); then the one rated nearest the player of those not played
  yet; once all are played, round again;
* which try moves the rating and by how much (:func:`first_try`): the first try at the puzzle
  served, by :func:`rated`; a puzzle counts solved only when that first try is accepted (the
  solution asked first, or a skip, is a first try not solved);
* what is remembered between sittings: the player's
  :class:`~mastermind.history.puzzle_ratings.Standing` (rating, puzzles rated, solved at the
  first try, the puzzle served and whether it was tried, the puzzles played), kept beside the
  history (a web visitor's under their key, the local player's under its own);
* the words (:func:`heading`, :func:`facts`, :func:`goal`, :func:`solution`,
  :func:`rating_words`, :func:`standing_words`).
"""

from __future__ import annotations

import math
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
from ..history.puzzle_ratings import LocalStanding, Standing
from .practice import BOARD, MARGIN, Position, Practice, word_of_play
from .review import review
from .sessions import QUIT, Board, Out, Session, say

if TYPE_CHECKING:
    from ..history.records import StoredGame
    from .review import Review

#: A player's first rating, and a puzzle's where half the possible codes solve it.
START = 1500.0
#: Elo's scale: a rating this much above another expects to score 10 to 1 against it.
SCALE = 400.0
#: How far one puzzle moves the player's rating at most.
K = 32.0
#: Puzzles are positions of at most this many codes: every possible code is tried to rate one.
PUZZLE_LIMIT = 64
#: The player's latest finished games whose positions are puzzles (each is reviewed to find them).
GAMES = 20


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


def puzzle_games(stored: Sequence[StoredGame]) -> list[StoredGame]:
    """The saved games whose positions are the player's puzzles: their latest :data:`GAMES`
    finished games of play (a person breaking the computer's code; the computer's games and the
    matches are not the player's mistakes), oldest first."""
    return [g for g in stored if g.finished and g.kind == "play"][-GAMES:]


def puzzles_for(
    stored: Sequence[StoredGame], rules: Rules, progress: Callable[[int, int], None] | None = None
) -> list[Puzzle]:
    """Every puzzle of a player of ``rules``: those of their games (:func:`puzzle_games`; each
    named by the game's number, a local game's by its id) and those of the optimal trees, which
    :func:`serve` picks from; ``progress(games done, of how many)``."""
    games = puzzle_games(stored)
    numbers = [g.id if g.number is None else g.number for g in games]
    return puzzles_from([g.record for g in games], rules, progress, numbers) + tree_puzzles(rules)


def puzzle_session(
    history: str | Path | None,
    stored: Sequence[StoredGame],
    rules: Rules,
    notation: Notation,
    progress: Callable[[int, int], None] | None = None,
) -> PuzzleSession:
    """The puzzles of the player's saved games ``stored`` and of the game's trees
    (:func:`puzzles_for`) as a line session, the player's standing kept beside the ``history``
    file (:class:`~mastermind.history.puzzle_ratings.LocalStanding`; none kept without one): what
    the command line and the terminal board open."""
    found = puzzles_for(stored, rules, progress)
    if history is None:
        return PuzzleSession(found, Standing(START), notation)
    kept = LocalStanding(Path(history), START)
    return PuzzleSession(found, kept.load(), notation, keep=kept.save)


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


def heading(puzzle: Puzzle) -> str:
    """Where a puzzle comes from and how it is rated, as every front end heads it."""
    where = "your games" if puzzle.source == "game" else "the optimal tree"
    return f"A puzzle from {where}, rated {puzzle.rating:.0f}: guess {puzzle.position.number}"


def facts(puzzle: Puzzle, notation: Notation) -> str:
    """The codes possible at a puzzle and what it asks (:func:`goal`), in one line."""
    p = puzzle.position
    codes = "" if p.codes is None else ": " + " ".join(notation.format_code(c) for c in p.codes)
    return f"{plural(p.count, 'code')} possible{codes}. {goal(puzzle)}"


def rating_words(before: float, after: float, puzzle: Puzzle) -> str:
    """How a first try moved the player's rating (:func:`first_try`), in one sentence.

    >>> from types import SimpleNamespace
    >>> rating_words(1500, 1508.0, SimpleNamespace(rating=1309.0))
    'Rating 1500 -> 1508 (the puzzle is rated 1309).'
    """
    return f"Rating {before:.0f} -> {after:.0f} (the puzzle is rated {puzzle.rating:.0f})."


def standing_words(standing: Standing) -> str:
    """Where the player stands: the rating, the puzzles rated and those solved at the first try.

    >>> standing_words(Standing(1508.4, puzzles=3, solved=1))
    'Your rating 1508 · 3 puzzles, 1 solved at the first try'
    """
    puzzles = plural(standing.puzzles, "puzzle")
    return f"Your rating {standing.rating:.0f} · {puzzles}, {standing.solved} solved at the first try"


class PuzzleSession(Session):
    """Puzzles line by line (``mastermind review --puzzles``, the terminal board): the puzzle
    :func:`serve` gives shown with its rating, a try valued; :func:`first_try` says whether it
    moves the rating; the standing is kept by ``keep`` at once after each change."""

    def __init__(
        self,
        puzzles: list[Puzzle],
        standing: Standing,
        notation: Notation,
        keep: Callable[[Standing], object] | None = None,
    ) -> None:
        super().__init__(notation)
        self.puzzles, self.standing = puzzles, standing
        self.keep: Callable[[Standing], object] = keep or (lambda s: None)
        self.puzzle: Puzzle | None = None

    @property
    def prompt(self) -> str:
        return "puzzle guess> "

    @property
    def tally(self) -> str:
        """Where the player stands, in a few words."""
        return standing_words(self.standing)

    def record(self) -> dict[str, Any]:
        s = self.standing
        return {"rating": s.rating, "puzzles": s.puzzles, "solved": s.solved}

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
            f"from the optimal trees); your rating {self.standing.rating:.0f}. "
            "Type a guess (your first try counts), 'solution', 'skip' or 'quit' (help: every word)."
        )
        yield from self._next()

    def _show(self, puzzle: Puzzle) -> Iterator[Out]:
        yield say(f"{heading(puzzle)}.", "strong")
        if puzzle.position.rows:
            yield Board(puzzle.position.rows)
        yield say(facts(puzzle, self.notation))

    def answer(self, line: str) -> Iterator[Out]:
        word = line.strip().lower()
        puzzle = self.puzzle
        if word in QUIT or puzzle is None:
            yield from self._end()
            return
        said = word_of_play(word)
        if said is not None or word in BOARD:
            yield from [say(said)] if said is not None else self._show(puzzle)
            return
        if word in ("solution", "s", "skip", "n"):
            yield from self._first_try(puzzle, False)  # the solution asked first, or a skip: not solved
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
        yield from self._first_try(puzzle, tried.accepted)
        if tried.accepted:
            yield from self._next()

    def _first_try(self, puzzle: Puzzle, solved: bool) -> Iterator[Out]:
        moved = first_try(self.standing, puzzle, solved)
        if moved is not None:
            self.keep(self.standing)
            yield say(rating_words(*moved, puzzle))

    def _next(self) -> Iterator[Out]:
        self.puzzle, changed = serve(self.standing, self.puzzles)
        if changed:
            self.keep(self.standing)
        if self.puzzle is None:
            yield from self._end()
        else:
            yield from self._show(self.puzzle)

    def _end(self) -> Iterator[Out]:
        self.done = True
        yield say(f"{standing_words(self.standing)}.", "strong")
