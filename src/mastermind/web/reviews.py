"""The review of a finished game (or match), and practice at a position before a mistake: the
games package's review, with its sentences, as the command line and the terminal board print them.

A review may search for seconds a move: it runs in the server's one thread of reviews
(:meth:`~mastermind.web.api.State.review`), never on the event loop nor in the way of a computer's move.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from aiohttp import web

from .. import Game, GameError, Match
from ..games.review import review
from ..games.reviewable import practice_refusal, review_refusal
from .api import State, body, field, game_of, live_game, ok, state_of
from .sessions import LiveGame
from .views import notation_view

routes = web.RouteTableDef()


@routes.get("/api/games/{id}/review")
async def game_review(request: web.Request) -> web.Response:
    """The games package's review of a finished game, move by move (the same as mastermind review's);
    of a finished match, each of its games (both sides) and each player's line."""
    state, live = state_of(request), await live_game(request)
    refuse_unless_offered(live, review_refusal)
    if live.match is not None:
        return await match_review(state, live)
    game = game_of(live)
    async with live.lock:
        result = await state.review(lambda: review(game))
    data = review_answer(result, live.notation)
    practisable = practice_refusal(game) is None  # the page offers practice by this, as the board
    return ok(
        {"id": live.id, "review": data, "practisable": practisable, "notation": notation_view(live.notation)}
    )


def refuse_unless_offered(live: LiveGame, refusal: Callable[[Game | Match], str | None]) -> None:
    """A GameError (409) where the engine's rule offers no review, or no practice, of this game
    or match: the page asks the same rule before it shows a button."""
    why = refusal(live.match if live.match is not None else game_of(live))
    if why is not None:
        raise GameError(why)


def review_answer(result: Any, notation: Any) -> dict[str, Any]:
    """A review as JSON, with the games package's sentences, the same the command line and the
    terminal board print: each move's comment and the summary's lines, which the page shows as they are."""
    data: dict[str, Any] = result.to_dict(notation)
    for move, valued in zip(data["moves"], result.moves, strict=True):
        move["comment"] = valued.comment(notation)
    data["summary_lines"] = result.summary_lines()
    return data


async def match_review(state: State, live: LiveGame) -> web.Response:
    from ..games.match_review import review_match

    match = live.match
    assert match is not None
    async with live.lock:
        result = await state.review(lambda: review_match(match))
    data = result.to_dict(live.notation)
    for game, valued in zip(data["games"], result.games, strict=True):
        game["review"] = review_answer(valued.review, live.notation)
    data["summary_lines"] = result.summary_lines()
    practisable = practice_refusal(match) is None  # (False: a match's games are not practised)
    return ok(
        {"id": live.id, "match": data, "practisable": practisable, "notation": notation_view(live.notation)}
    )


@routes.post("/api/games/{id}/review/practice")
async def practice_try(request: web.Request) -> web.Response:
    """A try at the position before a mistake of a finished game: valued as the review values a
    move (the games package's Practice), with its sentence."""
    state, live, data = state_of(request), await live_game(request), await body(request)
    number = field(data, "number", int, "the number of the guess to find")
    code = field(data, "guess", str, 'a code, e.g. "1122"')
    refuse_unless_offered(live, practice_refusal)
    game = game_of(live)

    def attempt() -> dict[str, Any]:
        practice = review(game).practice()  # the positions' values are cached: this is quick
        return practice.attempt(practice.position(number), code).to_dict(live.notation)

    async with live.lock:
        tried = await state.review(attempt)
    return ok({"id": live.id, "attempt": tried})
