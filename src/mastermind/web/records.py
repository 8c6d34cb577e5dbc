"""What a visitor has: their history and statistics, their open games (drafts in memory among
them) and their settings.
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

from .. import PRESETS, STRATEGIES
from ..core.records import rules_to_dict
from ..core.rules import MAX_COLORS, MAX_GUESSES, MAX_PEGS, MIN_COLORS, MIN_PEGS
from ..games.reviewable import review_refusal
from ..games.scoring import CODEMAKERS, SCORING_RULES
from ..games.settings import PREFERENCES
from ..history.stats import KINDS, game_stats
from ..history.store import moves_of
from .api import body, check_size, ok, state_of, visitor_of
from .limits import Limits
from .sessions import LiveGame
from .settings import MODE_OF_KIND, MODES, PALETTES, THEMES

routes = web.RouteTableDef()


def summary(stored: Any) -> dict[str, Any]:
    """A stored game in the history list (its secret only once over)."""
    record = stored.record
    entry: dict[str, Any] = {
        "id": stored.number,
        "mode": MODE_OF_KIND.get(stored.kind, stored.kind),
        "started": stored.started,
        "updated": stored.updated,
        "rules": record["rules"],
        "finished": stored.finished,
        "reviewable": review_refusal(record) is None,  # the engine's rule: the page's Review button
        "outcome": stored.outcome,
        "guesses": len(moves_of(record)),
        "kept": True,
    }
    if stored.kind == "match":
        entry.update(players=record["players"], score=record["score"], games=record["games_planned"])
    else:
        entry.update(strategy=record["strategy"], secret=record["secret"] if stored.finished else None)
    return entry


def summaries(games: list[Any]) -> list[dict[str, Any]]:
    """The stored games in a list, but a damaged one: the history leaves out a record it cannot
    read; one that lacks what the list shows (a field edited away) is left out here, so that one
    bad row never breaks a visitor's page (asked for alone, it is an error of its own)."""
    out = []
    for g in games:
        try:
            out.append(summary(g))
        except (KeyError, TypeError, AttributeError, ValueError):  # (ValueError: rules edited to none)
            continue
    return out


@routes.get("/api/history")
async def history(request: web.Request) -> web.Response:
    state, visitor = state_of(request), visitor_of(request)
    if not visitor.saved:
        return ok({"games": []})
    games = await state.db(lambda: summaries(list(reversed(state.store.games_and_seats(visitor.key)))))
    return ok({"games": games})


@routes.get("/api/stats")
async def stats(request: web.Request) -> web.Response:
    state, visitor = state_of(request), visitor_of(request)

    def counted() -> dict[str, Any]:
        games = state.store.games_and_seats(visitor.key) if visitor.saved else []
        return {MODE_OF_KIND[kind]: [s.to_dict() for s in game_stats(games, kind)] for kind in KINDS}

    return ok(await state.db(counted))


def choices(limits: Limits) -> dict[str, Any]:
    """What the settings may be: for the page's settings form."""
    return {
        "modes": MODES,
        "presets": {name: rules_to_dict(r) for name, r in PRESETS.items()},
        "strategies": [{"name": s.name, "summary": s.summary} for s in STRATEGIES],
        "scoring": SCORING_RULES,
        "codemakers": list(CODEMAKERS),
        "notations": ["", "digits", "letters", "colors"],
        "palettes": list(PALETTES),
        "themes": list(THEMES),
        "preferences": PREFERENCES,  # each preference in the games package's words
        "limits": {  # the games package's bounds of a game, then this server's own
            "pegs": [MIN_PEGS, MAX_PEGS],
            "colors": [MIN_COLORS, MAX_COLORS],
            "max_guesses": [1, MAX_GUESSES],
            "max_codes": limits.max_codes,
            "optimal_codes": limits.optimal_codes,
            "match_games": limits.match_games,
        },
    }


@routes.get("/api/settings")
async def get_settings(request: web.Request) -> web.Response:
    state, visitor = state_of(request), visitor_of(request)
    settings = await state.visitors.settings(visitor)
    return ok({"settings": settings.to_dict(), "choices": choices(state.limits)})


@routes.put("/api/settings")
async def put_settings(request: web.Request) -> web.Response:
    state, visitor = state_of(request), visitor_of(request)
    data = await body(request)
    settings = (await state.visitors.settings(visitor)).updated(data)
    players = settings.players if settings.mode == "match" else []
    check_size(state.limits, settings.rules, [settings.strategy, *players])
    await state.visitors.save(visitor, settings)
    return ok({"settings": settings.to_dict(), "choices": choices(state.limits)})


@routes.get("/api/games")
async def open_games(request: web.Request) -> web.Response:
    """The visitor's unfinished games, the latest first, drafts among them (a game not kept yet,
    ``"kept": false``): the page resumes one on load rather than make another."""
    state, visitor = state_of(request), visitor_of(request)
    games = []
    if visitor.saved:
        games = await state.db(lambda: summaries(state.store.unfinished(visitor.key)))
    drafts = [draft_summary(live) for live in state.games.drafts(visitor.key) if not live.finished]
    games = sorted([*games, *drafts], key=lambda g: g["id"], reverse=True)
    return ok({"games": games})


def draft_summary(live: LiveGame) -> dict[str, Any]:
    """A game not kept yet, as :func:`summary` writes a stored one."""
    record = live.record()
    entry: dict[str, Any] = {
        "id": live.id,
        "mode": live.mode,
        "started": None,
        "updated": None,
        "rules": record["rules"],
        "finished": False,
        "reviewable": False,  # (unfinished)
        "outcome": "playing",
        "guesses": len(moves_of(record)),
        "kept": False,
    }
    if live.match is not None:
        entry.update(players=record["players"], score=record["score"], games=record["games_planned"])
    else:
        entry.update(strategy=record["strategy"], secret=None)
    return entry
