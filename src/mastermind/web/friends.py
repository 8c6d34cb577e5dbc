"""Play a friend by a link: a match between two visitors, each on their own device.

``POST /api/games {"mode": "match", "players": ["human", "friend"], ...}`` makes the match (the
visitor is the "human" player, the friend the other) and answers 201 with ``"invite":
"/join/TOKEN"``; the first other visitor to ``POST /api/join/TOKEN`` takes the friend's seat
(200); a second join is refused 409, an unknown token 404, and a visitor of neither seat is told
"there is no game N", as for any game not theirs. From then on both play with the routes of
every match (``/secret``, ``/guesses``, ``/replies``...), each move checked first by the games
package's rule of who moves (:func:`~mastermind.games.seats.check_move`).

Each device gets its own view: the match as :func:`~mastermind.web.api.view` writes it (where no
secret of a game being played appears) and ``friend``, what is theirs alone: their seat, whose
move it is, whether the friend has joined and is here, and, to the codemaker, their own code.
The codemaker's code never goes to the codebreaker's device while that game is played.

Each move is pushed at once to both devices over a WebSocket (``GET /api/games/{id}/socket``,
aiohttp's own: docs/web.md says why over server-sent events), as the whole view of that device,
never a log of moves: a device that reconnects gets the view again and is where the match
stands. The match is one record in the history, kept under the visitor who made it, with the
seats in it (``friend``: the seat of the one who made it, the friend's visitor and number, the
link): a server started again (after a stop, or kill -9) takes up every friend's match being
played, and both devices find theirs where it stood.

Each visitor addresses the match by a number of their own, as every game of theirs: the one who
made it by the match's number among their games, the friend by the number their seat took when
they joined (:meth:`~mastermind.history.store.Store.seat`: their next one, kept in the history so
that their later games never take it). A third visitor's number N is their own game N, or none.

A finished game stays on each player's board until that player moves on from it (``POST
/api/games/{id}/next {"game": N}``); the match goes on meanwhile. Which finished games a player has
still to see is kept here, per seat and in the record (``moved_on``), and each view says it
(``friend.held``, by the games package's rule :func:`~mastermind.games.seats.unseen`): the view
pushed for the move that ends a game holds it already, a page loaded again holds it still, every
device of the player moves on together, and a game finished meanwhile waits its turn.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
import weakref
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

from .. import GameError, Match, find_rules
from ..games.seats import check_move, move_on, mover, unseen
from ..games.words import Voice, match_ending
from ..history.store import PlayedElsewhere
from .api import (
    CREATORS,
    SHARED,
    STATE,
    ApiError,
    State,
    act,
    check_size,
    hard_of,
    make_room,
    ok,
    state_of,
    view,
    visitor_of,
)
from .api import field as data_field
from .sessions import LiveGame, notation_for
from .settings import rules_from_json
from .views import events_view, finished_view

routes = web.RouteTableDef()

#: The move each route of a game is, in a friend's match.
_MOVES = {
    "secret": "secret",
    "guesses": "guess",
    "replies": "reply",
    "hint": "hint",
    "undo": "undo",
    "give-up": "give-up",
}


class FriendGame(LiveGame):
    """A friend's match in memory: the match, its seats and the devices connected to it."""

    host: str  # the visitor who made the match (its ``visitor``; ``id`` is their number for it)
    host_seat: int  # their player number
    guest: str | None
    guest_number: int | None  # the friend's number for the match (their seat's)
    invite: str  # the token of the link
    rematch: int | None  # the history's row of the rematch
    sockets: dict[int, weakref.WeakSet[web.WebSocketResponse]]
    table: Friends | None
    left: bool  # closed unfinished: nobody moved in it for Limits.friend_idle_seconds
    moved_on: list[int]  # by seat (player 1's first): the game each has moved on from, and every one before

    def worth_keeping(self) -> bool:
        return True  # from its making: the link given away must outlive a restart

    def record(self) -> dict[str, Any]:
        record = super().record()
        if self.left:
            record["left"] = True  # its outcome is "left" (history.store.outcome_of)
        record["friend"] = {
            # the link itself: it is made to be given away, and a restart must not break it
            "invite": self.invite,
            "host": self.host,
            "host_seat": self.host_seat,
            "guest": self.guest,
            "guest_number": self.guest_number,
            "rematch": self.rematch,
            "moved_on": self.moved_on,
        }
        return record

    def seat_of(self, visitor: str) -> int | None:
        """The player number of ``visitor``, or None if they have no seat at this match."""
        if visitor == self.host:
            return self.host_seat
        if self.guest is not None and visitor == self.guest:
            return 3 - self.host_seat
        return None

    def number_of(self, seat: int) -> int | None:
        """The number player ``seat`` addresses the match by."""
        return self.id if seat == self.host_seat else self.guest_number


def friend_game(live: LiveGame, host_seat: int, invite: str, guest: str | None = None) -> FriendGame:
    friend = FriendGame(live.id, live.visitor, live.mode, live.notation, match=live.match)
    friend.touched, friend.lock, friend.saved = live.touched, live.lock, live.saved
    friend.kept, friend.row = live.kept, live.row
    friend.host, friend.host_seat, friend.guest, friend.invite = live.visitor, host_seat, guest, invite
    friend.guest_number, friend.rematch, friend.table, friend.left = None, None, None, False
    friend.moved_on = [0, 0]
    friend.sockets = {1: weakref.WeakSet(), 2: weakref.WeakSet()}
    return friend


@dataclass
class Friends:
    """The friends' matches of this server, by their row in the history, by each seated visitor's
    number and by invitation (implements api.Shared)."""

    games: dict[int, FriendGame] = field(default_factory=dict)
    numbers: dict[tuple[str, int], int] = field(default_factory=dict)  # (visitor, number) -> row
    invites: dict[str, int] = field(default_factory=dict)

    def add(self, game: FriendGame) -> None:
        assert game.row is not None
        game.table = self
        self.games[game.row] = game
        self.invites[game.invite] = game.row  # taken or not: a second visitor is told it is taken
        self.index(game)

    def index(self, game: FriendGame) -> None:
        """Find ``game`` by its seated visitors' numbers (again, after a join or a move)."""
        assert game.row is not None
        for key in [k for k, row in self.numbers.items() if row == game.row]:
            del self.numbers[key]
        self.numbers[(game.host, game.id)] = game.row
        if game.guest is not None and game.guest_number is not None:
            self.numbers[(game.guest, game.guest_number)] = game.row

    def remove(self, game: FriendGame) -> None:
        """No longer hold ``game`` (closed, or over and idle: the history has it)."""
        assert game.row is not None
        self.games.pop(game.row, None)
        self.invites.pop(game.invite, None)
        for key in [k for k, row in self.numbers.items() if row == game.row]:
            del self.numbers[key]

    async def close_idle(self, state: State) -> list[FriendGame]:
        """Close every match nobody has moved in for ``state.limits.friend_idle_seconds``: one being
        played is saved as left unfinished, and both devices are told; each is dropped from memory
        (a finished one is in the history already). Returns those closed."""
        closed = []
        for game in list(self.games.values()):
            async with game.lock:
                if time.monotonic() - game.touched <= state.limits.friend_idle_seconds:
                    continue  # moved in lately (or meanwhile)
                assert game.match is not None
                if not game.match.over:
                    game.left = True
                    with contextlib.suppress(PlayedElsewhere):  # played on elsewhere: the history's stands
                        await state.games.save(game)
                self.remove(game)
            closed.append(game)
            if game.left:
                await push(game)
            for socket in [ws for seat in (1, 2) for ws in game.sockets[seat]]:
                await socket.close()
        return closed

    def number(self, row: int | None, seat: int) -> int | None:
        """Player ``seat``'s number for the match in history row ``row`` (a rematch), if held."""
        game = self.games.get(row) if row is not None else None
        return None if game is None else game.number_of(seat)

    async def find(self, request: web.Request, game_id: int) -> FriendGame | None:
        row = self.numbers.get((visitor_of(request).key, game_id))
        return None if row is None else self.games.get(row)

    def check(self, request: web.Request, live: LiveGame) -> None:
        if not isinstance(live, FriendGame):
            if live.saved is not None and live.saved.get("left"):  # read back from the history
                raise GameError(LEFT)
            return
        move = _MOVES.get(request.path.rsplit("/", 1)[-1])
        seat = live.seat_of(visitor_of(request).key)
        assert seat is not None and live.match is not None
        if live.guest is None:
            raise GameError("your friend has not joined yet: give them the link")
        if move is not None:
            check_move(live.match, seat, move)

    def personal(self, request: web.Request, live: LiveGame) -> dict[str, Any]:
        if not isinstance(live, FriendGame):
            return {"left": LEFT} if live.saved is not None and live.saved.get("left") else {}
        seat = live.seat_of(visitor_of(request).key)
        assert seat is not None
        return personal(live, seat)

    async def moved(self, request: web.Request, live: LiveGame, extra: dict[str, Any]) -> None:
        if isinstance(live, FriendGame):
            live.touched = time.monotonic()  # a move (or a refused try): the match is not left
            # the other device gets the move's events too (a game's end, its finished game: its page
            # holds it on the board as the mover's does); the mover has them in its answer
            seat = live.seat_of(visitor_of(request).key)
            events = extra.get("events")
            if seat and events and live.match is not None:  # told in the friend's words
                said = events_view(events, live.notation, live.match, Voice.of(live.match, 3 - seat))
                await push(live, events={3 - seat: said})
            else:
                await push(live)

    def voice(self, request: web.Request, live: LiveGame) -> Voice | None:
        if not isinstance(live, FriendGame) or live.match is None:
            return None
        seat = live.seat_of(visitor_of(request).key)
        return None if seat is None else Voice.of(live.match, seat)


#: What both players are told of a match closed when nobody moved in it for long.
LEFT = "this match was closed unfinished: nobody moved in it for long; it is in your history as left"


def personal(game: FriendGame, seat: int) -> dict[str, Any]:
    """What player ``seat`` alone sees of the match: their seat, whose move it is, the friend's
    presence, the invitation (to the one who made it, until it is taken), and their own code
    while they make it."""
    match = game.match
    assert match is not None
    r = match.current
    own = None
    if r.maker == seat and r.game is not None and r.game.secret is not None and not r.game.over:
        own = game.notation.format_code(r.game.secret)
    turn = mover(match)
    rematch = game.table.number(game.rematch, seat) if game.table is not None else None
    voice, moved_on = Voice.of(match, seat), game.moved_on[seat - 1]
    return {
        "id": game.number_of(seat),  # this visitor's number for it
        "left": LEFT if game.left else None,
        "friend": {
            "you": seat,
            "turn": turn,
            "your_turn": turn == seat and game.guest is not None,
            "role": "maker" if r.maker == seat else "breaker",
            "joined": game.guest is not None,
            "here": bool(game.sockets[3 - seat]),
            "invite": f"/join/{game.invite}" if game.guest is None and seat == game.host_seat else None,
            "secret": own,
            "rematch": rematch,
            # the finished games this player has not moved on from, in order: the first is held
            "held": [finished_view(r, game.notation, match, voice) for r in unseen(match, moved_on)],
        },
        # the match's closing words, said to this player ("you", "your friend")
        "ending": match_ending(match, voice),
    }


async def push(
    game: FriendGame, news: dict[int, str] | None = None, events: dict[int, list[Any]] | None = None
) -> None:
    """Each connected device's view, sent to it now, with ``news`` for a seat (its friend left or
    came back) and ``events`` for a seat (those of the friend's move) where given."""
    shown = view(game)
    for seat in (1, 2):
        said: dict[str, Any] = {"news": news[seat]} if news and seat in news else {}
        if events and seat in events:
            said["events"] = events[seat]
        message = json.dumps({"type": "view", "game": {**shown, **personal(game, seat)}, **said})
        for socket in list(game.sockets[seat]):
            if not socket.closed:
                await socket.send_str(message)


FRIENDS: web.AppKey[Friends] = web.AppKey("friends", Friends)


def friends_of(request: web.Request) -> Friends:
    return request.app[FRIENDS]


def setup(app: web.Application) -> None:
    app[FRIENDS] = Friends()
    app.on_startup.append(take_up)
    app.cleanup_ctx.append(sweep)
    if not any(isinstance(shared, _Shared) for shared in SHARED):
        SHARED.append(_Shared())
    app.router.add_routes(routes)


class _Shared:
    """The app's Friends, found from the request (api.SHARED holds one for every app)."""

    async def find(self, request: web.Request, game_id: int) -> LiveGame | None:
        if FRIENDS not in request.app:
            return None
        return await friends_of(request).find(request, game_id)  # memory only: no wait on the history

    def check(self, request: web.Request, live: LiveGame) -> None:
        if FRIENDS in request.app:
            friends_of(request).check(request, live)

    def personal(self, request: web.Request, live: LiveGame) -> dict[str, Any]:
        return friends_of(request).personal(request, live) if FRIENDS in request.app else {}

    async def moved(self, request: web.Request, live: LiveGame, extra: dict[str, Any]) -> None:
        if FRIENDS in request.app:
            await friends_of(request).moved(request, live, extra)

    def voice(self, request: web.Request, live: LiveGame) -> Voice | None:
        return friends_of(request).voice(request, live) if FRIENDS in request.app else None


async def sweep(app: web.Application) -> Any:
    """While the server runs, close the matches left idle (:meth:`Friends.close_idle`), looking
    for them a few times within the idle time (at least once a minute)."""
    state, friends = app[STATE], app[FRIENDS]

    async def watch() -> None:
        while True:
            await asyncio.sleep(min(60.0, state.limits.friend_idle_seconds / 4))
            await friends.close_idle(state)

    task = asyncio.create_task(watch())
    yield
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task


async def take_up(app: web.Application) -> None:
    """The friends' matches being played when the server stopped (or was killed), seats and
    links as they were: both devices find their match again."""
    state, friends = app[STATE], app[FRIENDS]
    stored = await state.db(lambda: state.store.unfinished_of_visitors("match"))
    for game in stored:
        seats = game.record.get("friend")
        if not isinstance(seats, dict) or game.number is None or game.record.get("left"):
            continue
        match = Match.from_record(game.record)
        live = LiveGame(game.number, seats["host"], "match", notation_for(match.rules, ""), match=match)
        live.saved, live.row = game.record, game.id
        friend = friend_game(live, seats["host_seat"], seats["invite"], seats.get("guest"))
        friend.guest_number, friend.rematch = seats.get("guest_number"), seats.get("rematch")
        # a record from before the seats kept it: every game finished then counts as seen
        finished = sum(r.points is not None for r in match.rounds)
        friend.moved_on = list(seats.get("moved_on", [finished, finished]))
        friends.add(friend)


@routes.post("/api/join/{token}")
async def join(request: web.Request) -> web.Response:
    """The friend takes their seat: 200 with the match; a link taken already 409; an unknown 404."""
    state, visitor = state_of(request), visitor_of(request)
    friends = friends_of(request)
    token = request.match_info["token"]
    row = friends.invites.get(token)
    game = friends.games.get(row) if row is not None else None
    if game is None:
        raise ApiError(404, "there is no such invitation: ask your friend for their link")
    if visitor.key == game.host:
        raise GameError("this is your own match's link: give it to a friend, who joins by it")
    async with game.lock:
        if game.guest is not None:
            raise GameError("this link has been used: a friend has joined this match already")
        await state.visitors.save(visitor)
        await take_seat(state, game, visitor.key)
        await state.games.save(game)
        game.touched = time.monotonic()
    await push(game)
    return ok({**view(game), **personal(game, 3 - game.host_seat)})


async def create(request: web.Request, data: dict[str, Any]) -> web.Response:
    """A match against a friend: 201 with the match and its invitation."""
    state, visitor = state_of(request), visitor_of(request)
    settings = await state.visitors.settings(visitor)
    players = data["players"]
    if len(players) != 2 or sorted(map(str, players)) != ["friend", "human"]:
        raise ApiError(
            400, 'a match with a friend has "players": ["human", "friend"] (you first) or reversed'
        )
    if "rules" in data:
        rules = rules_from_json(data["rules"])
    elif "preset" in data:
        preset = data["preset"]
        if not isinstance(preset, str):
            raise ApiError(400, "'preset' must be the name of a preset")
        rules = find_rules(preset)
    else:
        rules = settings.rules
    # the visitor's strategy gives both players their hints: held to its size as in any game here
    check_size(state.limits, rules, [settings.strategy])
    games = data.get("games", settings.games)
    scoring = data.get("scoring", settings.scoring)
    if not isinstance(games, int) or isinstance(games, bool) or not isinstance(scoring, str):
        raise ApiError(400, "'games' must be a whole number and 'scoring' a name")
    if games > state.limits.match_games:
        raise ApiError(400, f"a match here has at most {state.limits.match_games} games, not {games}")
    try:
        match = Match(
            rules, ["human", "human"], games, scoring, strategy=settings.strategy, hard=hard_of(data)
        )
    except GameError as err:  # a match that cannot be: bad input, not a move out of turn
        raise ApiError(400, str(err)) from None
    notation = notation_for(rules, settings.notation)
    game = await open_match(request, match, players.index("human") + 1, notation)
    return ok({**view(game), **personal(game, game.host_seat), "invite": f"/join/{game.invite}"}, 201)


async def open_match(
    request: web.Request, match: Match, host_seat: int, notation: Any, guest: str | None = None
) -> FriendGame:
    """The match kept in the history under this visitor, seated at ``host_seat``, and held here."""
    state, visitor = state_of(request), visitor_of(request)
    await make_room(state, visitor)
    await state.visitors.save(visitor)
    live = await state.games.add(visitor.key, "match", notation, match=match)
    game = friend_game(live, host_seat, secrets.token_urlsafe(18))
    state.games.drop(visitor.key, live.id)  # held by the friends' table, not the visitor's
    await state.games.save(game)  # kept from now, the seats in the record
    if guest is not None:
        await take_seat(state, game, guest)
        await state.games.save(game)
    friends_of(request).add(game)
    return game


async def take_seat(state: State, game: FriendGame, guest: str) -> None:
    """Seat ``guest`` at the match under a number of theirs: their next, past their drafts."""
    row = game.row
    assert row is not None
    after = max((d.id for d in state.games.drafts(guest)), default=0)
    game.guest_number = await state.db(lambda: state.store.seat(guest, row, after))
    game.guest = guest  # the link stays known: a second visitor is told it is taken
    if game.table is not None:
        game.table.index(game)


@routes.post("/api/games/{id}/rematch")
async def rematch(request: web.Request) -> web.Response:
    """The same two, the same rules, the seats swapped: who made the first code now breaks it."""
    friends, visitor = friends_of(request), visitor_of(request)
    text = request.match_info["id"]
    game = await friends.find(request, int(text)) if text.isdigit() and len(text) < 19 else None
    if game is None:
        raise ApiError(404, f"there is no game {request.match_info['id'][:40]}")
    assert game.match is not None
    if not game.match.over:
        raise GameError("the match is not over: a rematch comes after its last game")
    # both players may tap Rematch at once: the second waits for the first's rematch and joins it
    async with game.lock:
        if game.rematch is not None and game.rematch in friends.games:
            again = friends.games[game.rematch]
            seat = again.seat_of(visitor.key)
            assert seat is not None
            return ok({**view(again), **personal(again, seat)})
        if game.guest is None:
            raise GameError("your friend never joined this match")
        old = game.match
        match = Match(
            old.rules, ["human", "human"], old.games, old.scoring, strategy=old.strategy, hard=old.hard
        )
        mine = game.seat_of(visitor.key)
        assert mine is not None
        other = game.guest if visitor.key == game.host else game.host
        again = await open_match(request, match, 3 - mine, game.notation, guest=other)
        game.rematch = again.row
        await state_of(request).games.save(game)
    await push(game)
    return ok({**view(again), **personal(again, 3 - mine)}, 201)


@routes.post("/api/games/{id}/next")
async def next_game(request: web.Request) -> web.Response:
    """The player moves on from finished game N (``{"game": N}``) on every device of theirs: the
    match's view for them, with the next finished game still to see held, or none; their friend's
    board stays as it is. Of a match with no seats (at one device, or read back from the history),
    the view; of a single game, 409."""

    async def action(state: State, live: LiveGame, data: dict[str, Any]) -> None:
        number = data_field(data, "game", int, "the number of the finished game moved on from")
        if live.match is None:
            raise GameError("a single game has no next game: only a match's games are moved on from")
        if not isinstance(live, FriendGame):
            return  # a match at one device: its page holds the finished game alone
        seat = live.seat_of(visitor_of(request).key)
        assert seat is not None
        live.moved_on[seat - 1] = move_on(live.match, live.moved_on[seat - 1], number)

    return await act(request, action)


@routes.get("/api/games/{id}/socket")
async def socket(request: web.Request) -> web.StreamResponse:
    """The device's line to the match: its view now and after every move, the friend's presence."""
    text = request.match_info["id"]
    game = await _Shared().find(request, int(text)) if text.isdigit() and len(text) < 19 else None
    if not isinstance(game, FriendGame):
        raise ApiError(404, f"there is no game {text[:40]}")
    seat = game.seat_of(visitor_of(request).key)
    assert seat is not None
    ws = web.WebSocketResponse(heartbeat=20)
    await ws.prepare(request)
    back = not game.sockets[seat]  # this player's first device here now: the friend is told
    game.sockets[seat].add(ws)
    try:
        await push(game, {3 - seat: "your friend is here"} if back else None)
        async for message in ws:  # the page sends nothing that matters: moves go by the API
            if message.type == WSMsgType.ERROR:
                break
    finally:
        game.sockets[seat].discard(ws)
        if not game.sockets[seat] and not game.left:  # their last device: the friend is told
            await push(game, {3 - seat: "your friend has left the match (they may come back)"})
    return ws


@routes.get("/api/friends")
async def mine(request: web.Request) -> web.Response:
    """The visitor's friends' matches being played, the latest first (the page goes back to one)."""
    key = visitor_of(request).key
    games = [
        {"id": g.number_of(seat), "you": seat, "joined": g.guest is not None}
        for g in reversed(friends_of(request).games.values())
        if (seat := g.seat_of(key)) is not None and g.match is not None and not g.match.over
    ]
    return ok({"games": games})


@routes.get("/join/{token}")
async def page(request: web.Request) -> web.FileResponse:
    """The link a friend opens: the page, which takes the seat (js/friend.js)."""
    page = Path(__file__).parent / "static" / "index.html"
    return web.FileResponse(page, headers={"Cache-Control": "no-cache"})


CREATORS["friend"] = create
