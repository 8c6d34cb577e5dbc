"""The code of the day on the server: ``POST /api/games {"mode": "daily"}`` starts the visitor's
game of the day, or answers the one they have (finished or not: one game a day each).

Every rule of the code of the day is the games package's (:mod:`mastermind.games.daily`): which
day it is (UTC's), which days can be played (a past one, ``"day": "2026-12-01"``; never one to
come), the day's code from the date and the server's key, which game is the visitor's game of a
day, the statistics and the share text. This module holds only the plumbing: the key, made on
the first start and kept beside the history (:func:`~mastermind.history.keys.daily_key`), so the
page never has what it takes to compute a code; the memory of the games found; the routes. A
finished game's answer carries ``share``, ending with the page's address
(:data:`~mastermind.web.views.LINK`).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from datetime import date, timedelta
from typing import Any

from aiohttp import web

from ..errors import GameError, StoreError
from ..games.daily import DAILY_RULES, check_day, daily_game, daily_stats, day_number, game_of_day, today
from ..history.keys import daily_key
from .api import CREATORS, ApiError, address_of, hard_of, make_room, ok, state_of, view, visitor_of
from .sessions import notation_for
from .views import LINK

routes = web.RouteTableDef()

#: The server's key of the code of the day.
KEY: web.AppKey[bytes] = web.AppKey("daily key", bytes)

#: The visitors' games of the day already found: (visitor, ISO date) -> game id. A cache of the
#: history (a day not in it is looked up there): trimmed to today and yesterday once a day.
FOUND: web.AppKey[dict[tuple[str, str], int]] = web.AppKey("daily games", dict)
#: The day :data:`FOUND` was last trimmed (ISO).
TRIMMED: web.AppKey[list[str]] = web.AppKey("daily games trimmed", list)


def setup(app: web.Application, history: Any) -> None:
    """The key of ``history`` (a path), made on the server's first start, and the middleware that
    gives share texts their link."""
    app[KEY] = daily_key(history)
    app[FOUND] = {}
    app[TRIMMED] = [today().isoformat()]
    app.middlewares.append(link)
    app.router.add_routes(routes)


@web.middleware
async def link(request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> Any:
    """The page's address, for the share texts of this request's answer."""
    LINK.set(address_of(request))
    return await handler(request)


def trim(app: web.Application) -> None:
    """The games of the day found kept for today and yesterday only, once a day: a server up for
    months would otherwise hold one entry per visitor and day played."""
    now = today()
    if app[TRIMMED][0] == now.isoformat():
        return
    kept = {now.isoformat(), (now - timedelta(days=1)).isoformat()}
    found = app[FOUND]
    for key in [k for k in found if k[1] not in kept]:
        del found[key]
    app[TRIMMED][0] = now.isoformat()


def day_of(data: dict[str, Any]) -> date:
    """The day asked for: today (UTC), or a past day given as ``"day": "YYYY-MM-DD"``."""
    if "day" not in data:
        return today()
    text = data["day"]
    try:
        day = date.fromisoformat(text) if isinstance(text, str) else None
    except ValueError:
        day = None
    if day is None:
        raise ApiError(400, f"'day' must be a date, e.g. \"2026-12-01\", not {json.dumps(text)[:40]}")
    try:
        return check_day(day, today())
    except GameError as err:
        raise ApiError(400, str(err)) from None


async def create(request: web.Request, data: dict[str, Any]) -> web.Response:
    """The visitor's game of the day asked for: 200 with the one they have, else 201 with a new one."""
    state, visitor = state_of(request), visitor_of(request)
    day = day_of(data)
    hard = hard_of(data)
    settings = await state.visitors.settings(visitor)
    trim(request.app)
    found = request.app[FOUND]
    iso = day.isoformat()
    if visitor.saved and (visitor.key, iso) not in found:

        def mine() -> int | None:
            stored = game_of_day(state.store.games(kind="play", visitor=visitor.key), day)
            return None if stored is None else stored.number

        game_id = await state.db(mine)
        if game_id is not None:
            found[(visitor.key, iso)] = game_id
    if (visitor.key, iso) in found:
        try:
            live = await state.games.get(found[(visitor.key, iso)], visitor.key, settings.notation)
        except StoreError:  # a draft of the day forgotten: its number is free again
            live = None
        if live is not None and live.game is not None and live.game.daily == iso:
            return ok(view(live))
        del found[(visitor.key, iso)]
    game = daily_game(day, request.app[KEY], hard=hard)
    await make_room(state, visitor)
    await state.visitors.save(visitor)
    notation = notation_for(DAILY_RULES, settings.notation)
    live = await state.games.add(visitor.key, "break", notation, game=game)
    found[(visitor.key, iso)] = live.id
    return ok(view(live), 201)


@routes.get("/api/daily/stats")
async def stats(request: web.Request) -> web.Response:
    """The visitor's codes of the day: played, won, guesses, the streak of days won on their day,
    and all that in one line (``summary``)."""
    state, visitor = state_of(request), visitor_of(request)
    games = (
        await state.db(lambda: state.store.games(kind="play", visitor=visitor.key)) if visitor.saved else []
    )
    figures = daily_stats(games, today())
    # the line as the games package words it: the page shows it as `mastermind stats` prints it
    return ok({"daily": figures.to_dict(), "summary": figures.summary(), "day": day_number(today())})


CREATORS["daily"] = create
