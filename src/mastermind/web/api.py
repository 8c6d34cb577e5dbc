"""The JSON API's common ground and its games: each route reads the request, calls the games
package and answers what it says. Here: a game made, found, read and forgotten, and what every
route of a game shares (:func:`act`: in turn with the game's other requests, answered once in the
history). The moves are in :mod:`~mastermind.web.moves`, reviews in :mod:`~mastermind.web.reviews`,
a visitor's history, statistics and settings in :mod:`~mastermind.web.records`.

No rule of play is decided here: whether a guess may be made, whose turn it is, what a reply
means, what a contradiction is and how a row is fixed, what a match scores are the games package's
(:class:`~mastermind.Game`, :class:`~mastermind.Match`); a refusal carries the games package's own words.

Nothing slow runs on the event loop, which answers every visitor: the games package's long work (the
computer's guesses, a contradiction's corrections, hints, reviews) runs in the server's thread
pool (:meth:`State.think`), and every call to the history in its own thread (:meth:`State.db`),
one game's requests in turn (its lock). A slow request of one visitor holds up only that game.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import partial
from typing import Any, Protocol, TypeVar

from aiohttp import web

from .. import ContradictionError, Game, GameError, Match, find_rules, find_strategy
from ..core.text import plural
from ..errors import StoreError
from ..games.reviewable import review_refusal
from ..games.words import Voice
from .limits import Limits
from .sessions import GameTable, LiveGame, NotKept, Visitor, Visitors, notation_for
from .settings import KIND_OF_MODE, MODES, SettingsError, VisitorSettings, rules_from_json
from .views import events_view, game_view, match_view, notation_view

T = TypeVar("T")

routes = web.RouteTableDef()

#: The modes whose games another module of the server makes (the code of the day, a friend's
#: match), each with its handler of ``POST /api/games``: ``await make(request, body)``.
CREATORS: dict[str, Callable[[web.Request, dict[str, Any]], Awaitable[web.Response]]] = {}


class Shared(Protocol):
    """Games two visitors play (a friend's match, web/friends.py): how the routes of a game find
    one for a visitor, check that the move is theirs, add what only they may see, tell the
    other device (with what the move added: a match's events), and say whose point of view the
    visitor's sentences take (:class:`~mastermind.games.words.Voice`; None: one device's)."""

    async def find(self, request: web.Request, game_id: int) -> LiveGame | None: ...
    def check(self, request: web.Request, live: LiveGame) -> None: ...
    def personal(self, request: web.Request, live: LiveGame) -> dict[str, Any]: ...
    async def moved(self, request: web.Request, live: LiveGame, extra: dict[str, Any]) -> None: ...
    def voice(self, request: web.Request, live: LiveGame) -> Voice | None: ...


#: The kinds of games two visitors share (registered by their modules).
SHARED: list[Shared] = []


class ApiError(Exception):
    """A refusal that is not the games package's: a missing field, a game too large for this server.
    ``extra``: what the answer holds besides its error (a game reloaded from the history)."""

    def __init__(self, status: int, message: str, extra: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.status, self.extra = status, extra or {}


@dataclass
class State:
    """What the server holds: the history, the visitors, the games in memory, the limits."""

    store: Any
    visitors: Visitors
    games: GameTable
    limits: Limits
    pool: Any  # the thread pool of strategy computations
    history: Any  # the one thread that calls the history (an SQLite connection is used by one at a time)
    reviewer: Any  # the one thread of reviews: seconds each, they never hold up a computer's move

    async def think(self, job: Callable[[], T]) -> T:
        """Run the games package's long work (a strategy's guess, a review) off the event loop."""
        return await asyncio.get_running_loop().run_in_executor(self.pool, job)

    async def review(self, job: Callable[[], T]) -> T:
        """Run a review off the event loop, in the reviews' own thread (one at a time)."""
        return await asyncio.get_running_loop().run_in_executor(self.reviewer, job)

    async def db(self, job: Callable[[], T]) -> T:
        """Run a call to the history off the event loop, in the history's thread."""
        return await asyncio.get_running_loop().run_in_executor(self.history, job)


STATE: web.AppKey[State] = web.AppKey("state", State)
VISITOR: web.RequestKey[Visitor] = web.RequestKey("visitor", Visitor)
#: The seconds a move waited for its save (the history's thread, the commit): the answer's
#: ``Server-Timing`` says it beside the whole, so that a slow answer's wait can be told apart.
SAVE_WAIT: web.RequestKey[float] = web.RequestKey("save_wait", float)


#: The page's address as visitors reach it (``mastermind web --public-url``), where given.
ADDRESS: web.AppKey[str] = web.AppKey("public address", str)


def address_of(request: web.Request) -> str:
    """The page's address, ending in "/", for the links the server writes (a share text, the QR
    code of a friend's link): the one the server was given, else the request's own (which behind
    a proxy that ends TLS would say http)."""
    return request.app.get(ADDRESS) or f"{request.scheme}://{request.host}/"


def state_of(request: web.Request) -> State:
    return request.app[STATE]


def visitor_of(request: web.Request) -> Visitor:
    return request[VISITOR]


async def body(request: web.Request) -> dict[str, Any]:
    """The request's JSON object ({} for an empty body)."""
    raw = await request.read()  # over the body limit: 413, said by the error middleware
    if not raw.strip():
        return {}
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise ApiError(400, "the body is not JSON") from None
    if not isinstance(data, dict):
        raise ApiError(400, "the body must be a JSON object")
    return data


def field(data: dict[str, Any], name: str, kind: type, what: str) -> Any:
    """``data[name]``, which must be of ``kind`` (``what`` says it in words)."""
    if name not in data:
        raise ApiError(400, f"{name!r} is missing: {what}")
    value = data[name]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise ApiError(400, f"{name!r} must be {what}, not {json.dumps(value)[:40]}")
    return value


def ok(data: dict[str, Any], status: int = 200) -> web.Response:
    return web.json_response(data, status=status)


# -- games ---------------------------------------------------------------------------------------


def view(live: LiveGame) -> dict[str, Any]:
    """A game as the API writes it (its secret only once over)."""
    notation = live.notation
    if live.match is not None:
        played: Game | Match = live.match
        data = match_view(live.match, notation)
    else:
        assert live.game is not None
        played, data = live.game, game_view(live.game, notation, live.mode)
    # whether the page offers a review: the engine's rule, the board's and the command line's
    reviewable = review_refusal(played) is None
    return {
        "id": live.id,
        "kept": live.kept,
        **data,
        "reviewable": reviewable,
        "notation": notation_view(notation),
    }


def check_size(limits: Limits, rules: Any, strategies: list[str]) -> None:
    """A game this server plays: not too large, and the optimal strategy only where it is quick."""
    if rules.size > limits.max_codes:
        raise ApiError(
            400,
            f"this server plays games of at most {limits.max_codes:,} codes; "
            f"{rules.describe()} make {rules.size:,}",
        )
    if "optimal" in strategies and rules.size > limits.optimal_codes:
        raise ApiError(
            400,
            f"this server plays the optimal strategy on games of at most "
            f"{limits.optimal_codes:,} codes ({rules.describe()} make {rules.size:,}): "
            "choose another strategy",
        )


def play_computer(game: Game) -> None:
    """The breaking strategy's guesses, until the codemaker must reply (or fix a row); in the
    thread pool, with the game's lock held."""
    while game.waiting_for == "computer":
        try:
            guess = game.proposal()
        except ContradictionError:
            return  # no code fits (a game too large to list): game.problem now says so
        game.guess(guess)


async def computer_guesses(state: State, live: LiveGame) -> None:
    """The computer's guesses of a game it breaks, off the event loop."""
    game = live.game
    assert game is not None
    if game.waiting_for == "computer":
        await state.think(lambda: play_computer(game))


#: The fields of ``POST /api/games`` for a game or match of the visitor's own (the code of the
#: day and a friend's match have theirs: :data:`CREATORS`).
GAME_FIELDS = frozenset(
    {"mode", "rules", "preset", "strategy", "notation", "players", "games", "scoring", "codemaker", "hard"}
)


@routes.post("/api/games")
async def create_game(request: web.Request) -> web.Response:
    state, visitor = state_of(request), visitor_of(request)
    data = await body(request)
    players = data.get("players")
    friend = data.get("mode") == "match" and isinstance(players, list) and "friend" in players
    made_by = "friend" if friend else data.get("mode")
    if isinstance(made_by, str) and made_by in CREATORS:
        return await CREATORS[made_by](request, data)
    unknown = sorted(set(data) - GAME_FIELDS)
    if unknown:  # (a field dropped unsaid would give another game than the one asked for)
        known = ", ".join(sorted(GAME_FIELDS))
        raise ApiError(400, f"a new game has no field {json.dumps(unknown[0])[:40]}; its fields are: {known}")
    settings = await state.visitors.settings(visitor)
    mode = data.get("mode", settings.mode)
    if mode not in MODES:
        modes = ", ".join([*MODES, *(m for m in CREATORS if m != "friend")])
        raise ApiError(400, f"there is no mode {json.dumps(mode)[:40]}; the modes are: {modes}")
    if "rules" in data:
        rules = rules_from_json(data["rules"])
    elif "preset" in data:
        rules = find_rules(field(data, "preset", str, "the name of a preset"))
    else:
        rules = settings.rules
    strategy = data.get("strategy", settings.strategy)
    if not isinstance(strategy, str):
        raise ApiError(400, f"'strategy' must be a strategy's name, not {json.dumps(strategy)[:40]}")
    strategy = find_strategy(strategy).name
    style = data.get("notation", settings.notation)
    if not isinstance(style, str):
        raise ApiError(400, "'notation' must be a name: digits, letters or colors")
    players = data.get("players", settings.players)
    playing = players if mode == "match" and isinstance(players, list) else []
    check_size(state.limits, rules, [strategy, *playing])
    game: Game | None = None
    match: Match | None = None
    if mode == "match":
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise ApiError(400, "'players' must be a list of two names: human or a strategy")
        games = data.get("games", settings.games)
        if not isinstance(games, int) or isinstance(games, bool):
            raise ApiError(400, f"'games' must be a whole number, not {json.dumps(games)[:40]}")
        if games > state.limits.match_games:
            raise ApiError(400, f"a match here has at most {state.limits.match_games} games, not {games}")
        scoring = data.get("scoring", settings.scoring)
        codemaker = data.get("codemaker", "random")
        if not isinstance(scoring, str) or not isinstance(codemaker, str):
            raise ApiError(400, "'scoring' and 'codemaker' must be names")
        try:
            match = Match(
                rules, players, games, scoring, codemaker=codemaker, strategy=strategy, hard=hard_of(data)
            )
        except GameError as err:  # a match that cannot be: bad input, not a move out of turn
            raise ApiError(400, str(err)) from None
    elif mode == "solve":  # the strategy is set up for the game: tens of ms on a large one
        game = await state.think(lambda: Game.solving(rules, strategy))
    else:
        game = Game.breaking(rules, strategy=strategy, hard=hard_of(data, settings.hard))
    await make_room(state, visitor)
    notation = notation_for(rules, style)
    # a draft: kept in the history from its first move (see keep), not from this request
    live = await state.games.add(visitor.key, mode, notation, game=game, match=match)
    async with live.lock:
        if mode == "solve":
            await computer_guesses(state, live)
    return ok(view(live), 201)


def hard_of(data: dict[str, Any], default: bool = False) -> bool:
    """The request's ``"hard"`` (hard mode), or ``default``. A match is in hard mode only when its
    request asks: a friend is held to it too, whatever the visitor's own setting."""
    hard = data.get("hard", default)
    if not isinstance(hard, bool):
        raise ApiError(400, f"'hard' must be true or false, not {json.dumps(hard)[:40]}")
    return hard


async def keep(state: State, visitor: Visitor, live: LiveGame) -> None:
    """Save the game if it changed; a draft's first save once it has a move, its visitor saved
    before it (so that the visitor's id, and with it the game, outlives a restart)."""
    if not live.kept and live.worth_keeping():
        await state.visitors.save(visitor)
    await state.games.save(live)


async def kept_or_reloaded(request: web.Request, live: LiveGame) -> None:
    """:func:`keep`; where the history refuses the save (the game was played elsewhere meanwhile:
    :class:`~mastermind.web.sessions.NotKept`), a 409 whose error names what was not kept and
    whose ``game`` is the game read back from the history, as the page then shows it (nothing
    the visitor typed is dropped unsaid; nothing the other session played is overwritten)."""
    state = state_of(request)
    try:
        await keep(state, visitor_of(request), live)
    except NotKept as err:
        try:
            again = await live_game(request)
        except ApiError:  # the row is gone: nothing to show
            raise ApiError(409, f"{err}; it is no longer in your history") from None
        if again is live:  # a friend's match, held in this server's memory only: not read back
            raise ApiError(409, str(err)) from None
        raise ApiError(
            409, f"{err}; here is the game as the history holds it", {"game": seen(request, again)}
        ) from None


async def make_room(state: State, visitor: Visitor) -> None:
    """Room for one more unfinished game: the visitor's kept games whose every move was taken
    back are dropped, and past :attr:`Limits.open_games` a new game is refused (drafts do not
    count: the oldest is forgotten instead, see :meth:`GameTable.add`)."""
    limit = state.limits.open_games
    games = await state.games.open_games(visitor.key)
    if len(games) < limit:
        return
    for number, holds_play, row, shared in games:
        if not holds_play and not shared:  # a friend's match without a move: its link is out there
            state.games.drop(visitor.key, number)
            await state.db(partial(state.store.delete, row, visitor.key))
    games = await state.games.open_games(visitor.key)
    if len(games) >= limit:
        ids = ", ".join(str(g[0]) for g in games[:10])
        raise ApiError(
            429,
            f"you have {plural(len(games), 'unfinished game')} (at most {limit}): finish or "
            f"give up one first (games {ids})",
        )


async def live_game(request: web.Request) -> LiveGame:
    state, visitor = state_of(request), visitor_of(request)
    text = request.match_info["id"]
    if not text.isdigit() or len(text) > 18:
        raise ApiError(404, f"there is no game {text[:40]}")
    for shared in SHARED:
        live = await shared.find(request, int(text))
        if live is not None:
            return live
    try:
        style = (await state.visitors.settings(visitor)).notation
        return await state.games.get(int(text), visitor.key, style)
    except StoreError:
        raise ApiError(404, f"there is no game {int(text)}") from None


async def act(request: web.Request, action: Callable[[State, LiveGame, dict[str, Any]], Any]) -> web.Response:
    """Run ``action`` on the request's game, in turn with its other requests; save; answer the game
    and what the action adds (a move, a hint, a match's events)."""
    state = state_of(request)
    data = await body(request)
    live = await live_game(request)
    async with live.lock:
        for shared in SHARED:
            shared.check(request, live)  # a move of the other player's, or out of turn: refused
        try:
            extra = await action(state, live, data) or {}
        finally:
            # answered once in the history: a kill -9 loses no answered move
            started = time.perf_counter()
            await kept_or_reloaded(request, live)
            request[SAVE_WAIT] = time.perf_counter() - started
    for shared in SHARED:
        await shared.moved(request, live, extra)  # the other device is told at once
    if extra.get("events") and live.match is not None:  # a match's events, in this visitor's words
        voices = [v for shared in SHARED if (v := shared.voice(request, live)) is not None]
        voice = voices[0] if voices else None
        extra["events"] = events_view(extra["events"], live.notation, live.match, voice)
    return ok({**seen(request, live), **extra})


def seen(request: web.Request, live: LiveGame) -> dict[str, Any]:
    """The game as this visitor sees it: :func:`view`, and in a shared game what is theirs alone."""
    data = view(live)
    for shared in SHARED:
        data.update(shared.personal(request, live))
    return data


def game_of(live: LiveGame) -> Game:
    assert live.game is not None
    return live.game


@routes.get("/api/games/{id}")
async def get_game(request: web.Request) -> web.Response:
    state, live = state_of(request), await live_game(request)
    if live.mode == "solve":  # read back after a stop between a reply and the computer's next guess
        async with live.lock:
            await computer_guesses(state, live)
            await kept_or_reloaded(request, live)
    return ok(seen(request, live))


@routes.delete("/api/games/{id}")
async def forget(request: web.Request) -> web.Response:
    """Forget a game not kept yet (a draft: no move made), so that the visitor's next game takes
    its number; a game in the history is given up, never deleted (409)."""
    state, visitor, live = state_of(request), visitor_of(request), await live_game(request)
    async with live.lock:
        if live.kept:
            raise ApiError(409, f"game {live.id} is in your history: give it up instead")
        state.games.drop(visitor.key, live.id)
    return ok({"id": live.id, "forgotten": True})


__all__ = ["STATE", "ApiError", "KIND_OF_MODE", "SettingsError", "VisitorSettings", "State", "routes"]
