"""Moving a visitor's history to another browser or device, by a transfer code.

``POST /api/transfer`` gives the visitor a code (ten letters and digits, good for ten minutes and
one use); on the other device ``POST /api/transfer/{code}`` moves every game, the statistics they
make, and the settings of the visitor who asked for the code to this one, in one transaction of
the history (:meth:`~mastermind.history.store.Store.move_visitor`): a streak survives a new
phone or cleared cookies. The first device keeps nothing (it is a move, not a copy: one history
per player). A code is kept in memory only: a server started again has forgotten it.

The same history also moves by a file: ``GET /api/export`` answers the visitor's games (the
friends' matches they hold a seat at among them, as copies), statistics (made from the games)
and settings as a JSON file to download; ``POST /api/import`` with such a file gives them to this
visitor by the same move as a code's (:func:`move_in`: one transaction, the same renumbering),
from a visitor made for the file. A file that cannot be read is refused whole (400), before
anything is written.
"""

from __future__ import annotations

import json
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from .. import Game, Match
from ..errors import GameError, MastermindError
from .api import ApiError, State, ok, state_of, visitor_of
from .daily import FOUND
from .friends import FRIENDS, FriendGame
from .settings import MODE_OF_KIND, VisitorSettings

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
    visitor = visitor_of(request)
    old = request.app[CODES].take(request.match_info["code"])
    if old is None:
        raise ApiError(404, "there is no such transfer code (or it has expired): ask for a new one")
    if old == visitor.key:
        raise GameError("this code is this browser's own: enter it on the other device")
    moved, shift = await move_in(request, old)
    return ok({"moved": moved, "shift": shift})


async def move_in(request: web.Request, old: str) -> tuple[int, int]:
    """Every game, seat and the settings of visitor ``old`` given to this request's visitor, in one
    transaction of the history, renumbered after this visitor's own; how many games, and the shift."""
    state, visitor = state_of(request), visitor_of(request)
    await state.visitors.save(visitor)  # this visitor kept in the history before its games arrive
    state.games.drop_visitor(old)
    # the moved games numbered after this visitor's, drafts in memory included: no number taken twice
    after = max((d.id for d in state.games.drafts(visitor.key)), default=0)
    moved, shift = await state.db(lambda: state.store.move_visitor(old, visitor.key, after))
    state.visitors.forget(old, visitor.key)
    await follow(request.app, state, old, visitor.key, shift)
    return moved, shift


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


# -- a history in a file --------------------------------------------------------------------------

#: What a history file says it is, and the version of its shape.
FORMAT = "mastermind web history"
VERSION = 1
#: The largest history file taken (the API's other bodies are far smaller: Limits.body_bytes).
FILE_BYTES = 8 * 1024 * 1024


def portable(record: dict[str, Any]) -> dict[str, Any]:
    """A record as a file carries it: a friend's match without its seats and link (another
    visitor's and this server's own: in a file, and on another server, it is a finished match)."""
    return {k: v for k, v in record.items() if k != "friend"}


@routes.get("/api/export")
async def export(request: web.Request) -> web.Response:
    """This visitor's history as a file: their games (and the finished matches they hold a seat
    at), numbered as they know them, and their settings. A friend's match still being played
    stays out: it lives between two devices on this server."""
    state, visitor = state_of(request), visitor_of(request)
    settings = await state.visitors.settings(visitor)
    stored = await state.db(lambda: state.store.games_and_seats(visitor.key)) if visitor.saved else []
    games = [
        {"number": g.number, "record": portable(g.record)}
        for g in stored
        if g.finished or "friend" not in g.record
    ]
    data = {"format": FORMAT, "version": VERSION, "settings": settings.to_dict(), "games": games}
    headers = {"Content-Disposition": 'attachment; filename="mastermind-history.json"'}
    text = await state.think(lambda: json.dumps(data, indent=1))  # a long history: off the event loop
    return web.Response(text=text, content_type="application/json", headers=headers)


def read_file(
    raw: bytes, defaults: VisitorSettings
) -> tuple[list[tuple[int, dict[str, Any]]], VisitorSettings]:
    """The games (number, record) and settings of a history file, each read back by the games
    package; ApiError 400 in one line for anything that cannot be."""
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise ApiError(400, "this file is not a history file of mastermind web (not JSON)") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ApiError(400, "this file is not a history file of mastermind web")
    if data.get("version") != VERSION:
        raise ApiError(
            400, f"this history file has version {data.get('version')!r}; this server reads {VERSION}"
        )
    games, numbers = [], set()
    if not isinstance(data.get("games"), list):
        raise ApiError(400, "this history file has no list of games")
    for entry in data["games"]:
        number = entry.get("number") if isinstance(entry, dict) else None
        if (
            not isinstance(number, int)
            or isinstance(number, bool)
            or not 0 < number < 2**31
            or number in numbers
        ):
            raise ApiError(
                400, f"this history file has a game without a number of its own: {str(entry)[:60]}"
            )
        record = entry.get("record")
        try:
            if not isinstance(record, dict) or record.get("kind") not in MODE_OF_KIND:
                raise ValueError("not a game's record")
            (Match if record["kind"] == "match" else Game).from_record(record)
        except (MastermindError, ValueError, KeyError, TypeError, AttributeError) as err:
            raise ApiError(400, f"game {number} of this history file cannot be read: {err}") from None
        numbers.add(number)
        games.append((number, portable(record)))
    try:
        settings = defaults.updated(data.get("settings") or {})
    except (MastermindError, TypeError) as err:
        raise ApiError(400, f"the settings of this history file cannot be used: {err}") from None
    return games, settings


@routes.post("/api/import")
async def take_file(request: web.Request) -> web.Response:
    """A history file's games and settings given to this visitor, after their own games."""
    state, visitor = state_of(request), visitor_of(request)
    raw = b""
    while chunk := await request.content.read(64 * 1024):  # past the API's body limit: a file's own
        raw += chunk
        if len(raw) > FILE_BYTES:
            raise ApiError(413, f"the file is too large (at most {FILE_BYTES:,} bytes)")
    # each game read back by the games package: long for a long history, so off the event loop
    defaults = state.visitors.defaults
    games, settings = await state.think(lambda: read_file(raw, defaults))
    # the file's games written for a visitor of its own (no cookie has it), then moved in as a
    # transfer code's are: the same transaction, the same renumbering
    holder = f"file {secrets.token_hex(16)}"
    skipped = 0

    def write() -> None:
        nonlocal skipped
        fresh = new_games(games, [portable(g.record) for g in state.store.games_and_seats(visitor.key)])
        skipped = len(games) - len(fresh)
        added = []
        try:
            for number, record in fresh:
                added.append(state.store.add(record, visitor=holder, number=number))
        except BaseException:
            for row in added:
                state.store.delete(row, holder)
            raise

    await state.db(write)
    moved, shift = await move_in(request, holder)
    await state.visitors.save(visitor, settings)
    return ok({"moved": moved, "shift": shift, "skipped": skipped})


def new_games(
    games: list[tuple[int, dict[str, Any]]], own: list[dict[str, Any]]
) -> list[tuple[int, dict[str, Any]]]:
    """The file's games this visitor has not got: not the same record again (a file read twice),
    nor a second game of a day they have one of (one game of the day each, as web/daily.py has it)."""
    days = {r["daily"] for r in own if r.get("daily")}
    fresh = []
    for number, record in games:
        day = record.get("daily")
        if record in own or (day and day in days):
            continue
        days |= {day} if day else set()
        fresh.append((number, record))
    return fresh
