"""The puzzles of the web page: positions from the visitor's own finished games and from the
classic game's optimal trees (:mod:`mastermind.games.puzzles`), a try valued by the games
package, and the visitor's puzzle rating kept on the server (:mod:`mastermind.history.puzzle_ratings`,
beside the history).

The routes (docs/review.md says them in full):

* ``GET /api/puzzles/next``: the puzzle to solve now, with the visitor's standing. The puzzle
  served stays the one served until it is tried or its solution is asked (a reload shows it
  again); then the next is the one, of those not played yet, rated nearest the visitor.
* ``POST /api/puzzles/{id}/try`` ``{"guess": "1234"}``: the try valued; the first try at the
  puzzle served moves the rating (solved: accepted), a later one only teaches.
* ``POST /api/puzzles/{id}/solution``: the best guess; asked before any try, it counts as a
  puzzle not solved.

A puzzle's id says where it comes from: ``tree:1122-21`` (a position of the optimal tree, by its
rows) or ``game:3:2`` (the position before guess 2 of the visitor's game 3). The puzzles are of
the game of the visitor's settings: its trees where it has some (the classic game), the
visitor's latest finished games of it where they break the code.

Which puzzles there are, which is served, which try moves the rating, how far, and every sentence
shown are the games package's (:func:`~mastermind.games.puzzles.puzzles_for`,
:func:`~mastermind.games.puzzles.serve`, :func:`~mastermind.games.puzzles.first_try` and the
words beside them), the same rule as the command line's and the terminal board's: here are the
routes, the memory and the lock.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from pathlib import Path
from typing import Any

from aiohttp import web

from ..games import puzzles as lib
from ..history.puzzle_ratings import FILE, PuzzleRatings, Standing
from .api import STATE, ApiError, State, body, field, ok, state_of, visitor_of
from .sessions import notation_for
from .views import notation_view

routes = web.RouteTableDef()

#: The visitors whose lists of puzzles are kept in memory (the least recently used go first).
KEPT = 200


class Puzzles:
    """The server's puzzles: the visitors' ratings, and each visitor's list of puzzles (kept
    while their finished games stay the same)."""

    def __init__(self, path: Path) -> None:
        self.ratings = PuzzleRatings(path, lib.START)
        self.lists: OrderedDict[str, tuple[Any, list[lib.Puzzle]]] = OrderedDict()
        # a standing is read, moved and kept under it: two tries at once never both count first
        self.lock = asyncio.Lock()


PUZZLES: web.AppKey[Puzzles] = web.AppKey("puzzles", Puzzles)


def install(app: web.Application, history: Path) -> None:
    """Serve the puzzles' routes, the ratings kept beside the history at ``history``."""
    app[PUZZLES] = Puzzles(history.with_name(FILE))
    app.router.add_routes(routes)

    async def close(app: web.Application) -> None:
        app[PUZZLES].ratings.close()

    app.on_cleanup.append(close)


async def puzzles_of_visitor(request: web.Request) -> tuple[list[lib.Puzzle], Any]:
    """The visitor's puzzles (their games' and the trees'), and the notation of their game."""
    state, visitor = state_of(request), visitor_of(request)
    settings = await state.visitors.settings(visitor)
    rules, notation = settings.rules, notation_for(settings.rules, settings.notation)
    stored = []
    if visitor.saved:
        games = await state.db(lambda: state.store.games(kind="play", visitor=visitor.key))
        stored = lib.puzzle_games(games)
    signature = (rules, tuple(g.number for g in stored))
    kept = request.app[PUZZLES].lists
    if visitor.key in kept and kept[visitor.key][0] == signature:
        kept.move_to_end(visitor.key)
        return kept[visitor.key][1], notation

    puzzles = await state.review(lambda: lib.puzzles_for(stored, rules))
    kept[visitor.key] = (signature, puzzles)
    while len(kept) > KEPT:
        kept.popitem(last=False)
    return puzzles, notation


def find(puzzles: list[lib.Puzzle], ident: str) -> lib.Puzzle:
    for puzzle in puzzles:
        if puzzle.name == ident:
            return puzzle
    raise ApiError(404, f"there is no puzzle {ident[:40]!r} for you: ask for the next one")


def standing_view(s: Standing) -> dict[str, Any]:
    words = lib.standing_words(s)
    return {"rating": round(s.rating), "puzzles": s.puzzles, "solved": s.solved, "words": words}


def puzzle_view(puzzle: lib.Puzzle, notation: Any) -> dict[str, Any]:
    """A puzzle as the page draws it: its rows and codes, never its solution."""
    p, f = puzzle.position, notation.format_code
    return {
        "id": puzzle.name,
        "source": puzzle.source,
        "rating": round(puzzle.rating),
        "number": p.number,
        "rows": [{"guess": f(g), "reply": f"{r.black},{r.white}"} for g, r in p.rows],
        "count": p.count,
        "codes": None if p.codes is None else [f(c) for c in p.codes],
        "goal": lib.goal(puzzle),
        "heading": lib.heading(puzzle),
        "facts": lib.facts(puzzle, notation),
    }


async def standing(request: web.Request) -> tuple[State, Any, Puzzles, Standing]:
    state, visitor = state_of(request), visitor_of(request)
    book = request.app[PUZZLES]
    return state, visitor, book, await state.db(lambda: book.ratings.get(visitor.key))


async def keep(state: State, visitor: Any, book: Puzzles, s: Standing) -> None:
    """Keep the standing; the visitor is saved too, so that their id (and rating) outlives a restart."""
    if not visitor.saved:
        await state.visitors.save(visitor)
    await state.db(lambda: book.ratings.put(visitor.key, s))


@routes.get("/api/puzzles/next")
async def next_puzzle(request: web.Request) -> web.Response:
    puzzles, notation = await puzzles_of_visitor(request)
    async with request.app[PUZZLES].lock:
        return await serve_next(request, puzzles, notation)


async def serve_next(request: web.Request, puzzles: list[lib.Puzzle], notation: Any) -> web.Response:
    state, visitor, book, s = await standing(request)
    served, changed = lib.serve(s, puzzles)  # which puzzle: the games package's rule
    if changed:
        await keep(state, visitor, book, s)
    view = None if served is None else puzzle_view(served, notation)
    return ok({"puzzle": view, "player": standing_view(s), "notation": notation_view(notation)})


def first_try(s: Standing, puzzle: lib.Puzzle, solved: bool) -> dict[str, Any] | None:
    """The rating moved where this is the first try at the puzzle served (the games package
    decides), as the page shows it; None where it moved nothing."""
    moved = lib.first_try(s, puzzle, solved)
    if moved is None:
        return None
    words = lib.rating_words(*moved, puzzle)
    return {"before": round(moved[0]), "after": round(moved[1]), "solved": solved, "words": words}


@routes.post("/api/puzzles/{id}/try")
async def try_puzzle(request: web.Request) -> web.Response:
    data = await body(request)
    guess = field(data, "guess", str, "the guess, as the game writes codes")
    puzzles, notation = await puzzles_of_visitor(request)
    puzzle = find(puzzles, request.match_info["id"])
    code = notation.parse_code(guess)  # a code the game cannot have: 400, before any rating moves
    state = state_of(request)
    tried = await state.review(lambda: puzzle.practice.attempt(puzzle.position, code))
    async with request.app[PUZZLES].lock:
        state, visitor, book, s = await standing(request)
        moved = first_try(s, puzzle, tried.accepted)
        if moved is not None:
            await keep(state, visitor, book, s)
    return ok({"try": tried.to_dict(notation), "rated": moved, "player": standing_view(s)})


@routes.post("/api/puzzles/{id}/solution")
async def solution(request: web.Request) -> web.Response:
    puzzles, notation = await puzzles_of_visitor(request)
    puzzle = find(puzzles, request.match_info["id"])
    async with request.app[PUZZLES].lock:
        state, visitor, book, s = await standing(request)
        moved = first_try(s, puzzle, False)
        if moved is not None:
            await keep(state, visitor, book, s)
    p = puzzle.position
    best = {"guess": notation.format_code(p.best), "expected": round(float(p.best_expected), 6)}
    words = lib.solution(puzzle, notation)
    return ok({"solution": {**best, "words": words}, "rated": moved, "player": standing_view(s)})


__all__ = ["PUZZLES", "STATE", "install", "routes"]
