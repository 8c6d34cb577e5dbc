"""Moving a visitor's history to another browser or device, by a transfer code.

``POST /api/transfer`` gives the visitor a code (ten letters and digits, good for ten minutes and
one use); on the other device ``POST /api/transfer/{code}`` moves every game, the statistics they
make, and the settings of the visitor who asked for the code to this one, in one transaction of
the history (:meth:`~mastermind.history.store.Store.move_visitor`): a streak survives a new
phone or cleared cookies. The first device keeps nothing (it is a move, not a copy: one history
per player). A code is kept in memory only: a server started again has forgotten it.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field

from aiohttp import web

from ..errors import GameError
from .api import ApiError, State, ok, state_of, visitor_of
from .daily import FOUND
from .friends import FRIENDS, FriendGame

routes = web.RouteTableDef()

#: Letters and digits that cannot be read one for another (no 0/O, 1/I/L).
ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
LENGTH = 10
LIFETIME = 600.0


@dataclass
class Codes:
    """The transfer codes given and not used yet: code -> (visitor, when it expires)."""

    codes: dict[str, tuple[str, float]] = field(default_factory=dict)

    def give(self, visitor: str) -> str:
        now = time.monotonic()
        self.codes = {c: v for c, v in self.codes.items() if v[1] > now and v[0] != visitor}
        code = "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))
        self.codes[code] = (visitor, now + LIFETIME)
        return code

    def take(self, code: str) -> str | None:
        """The visitor whose code it is, once (None when unknown or expired)."""
        found = self.codes.pop(code.strip().upper().replace("-", "").replace(" ", ""), None)
        if found is None or found[1] < time.monotonic():
            return None
        return found[0]


CODES: web.AppKey[Codes] = web.AppKey("transfer codes", Codes)


def setup(app: web.Application) -> None:
    app[CODES] = Codes()
    app.router.add_routes(routes)


@routes.post("/api/transfer")
async def give(request: web.Request) -> web.Response:
    """A code to move this visitor's history to another device."""
    visitor = visitor_of(request)
    if not visitor.saved:
        raise GameError("there is nothing to move yet: play a game first")
    code = request.app[CODES].give(visitor.key)
    shown = f"{code[:5]}-{code[5:]}"
    return ok({"code": shown, "expires_in": int(LIFETIME)}, 201)


@routes.post("/api/transfer/{code}")
async def take(request: web.Request) -> web.Response:
    """The history of the visitor whose code this is, moved to this visitor."""
    state, visitor = state_of(request), visitor_of(request)
    old = request.app[CODES].take(request.match_info["code"])
    if old is None:
        raise ApiError(404, "there is no such transfer code (or it has expired): ask for a new one")
    if old == visitor.key:
        raise GameError("this code is this browser's own: enter it on the other device")
    await state.visitors.save(visitor)  # this visitor kept in the history before its games arrive
    state.games.drop_visitor(old)
    # the moved games numbered after this visitor's, drafts in memory included: no number taken twice
    after = max((d.id for d in state.games.drafts(visitor.key)), default=0)
    moved, shift = await state.db(lambda: state.store.move_visitor(old, visitor.key, after))
    state.visitors.forget(old, visitor.key)
    await follow(request.app, state, old, visitor.key, shift)
    return ok({"moved": moved, "shift": shift})


async def follow(app: web.Application, state: State, old: str, new: str, shift: int) -> None:
    """The server's memory of ``old`` made ``new``'s, each number moved on by ``shift`` (as the
    history's were): seats at friends' matches (saved with their records, which name them), games
    of the day found."""
    games: list[FriendGame] = list(app[FRIENDS].games.values()) if FRIENDS in app else []
    for game in games:
        if old not in (game.host, game.guest):
            continue
        if game.host == old:
            game.host = game.visitor = new
            game.id += shift
        if game.guest == old and game.guest_number is not None:
            game.guest, game.guest_number = new, game.guest_number + shift
        app[FRIENDS].index(game)
        async with game.lock:
            await state.games.save(game)
    if FOUND in app:
        found = app[FOUND]
        for key in [k for k in found if k[0] == old]:
            found[(new, key[1])] = found.pop(key) + shift
