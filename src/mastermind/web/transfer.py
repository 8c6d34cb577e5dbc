"""Moving a visitor's history to another browser or device, by a transfer code.

``POST /api/transfer`` gives the visitor a code (ten letters and digits, good for ten minutes and
one use); on the other device ``POST /api/transfer/{code}`` moves every game, the statistics they
make, and the settings of the visitor who asked for the code to this one, in one transaction of
the history (:meth:`~mastermind.history.store.Store.move_visitor`): a streak survives a new
phone or cleared cookies. The first device keeps nothing (it is a move, not a copy: one history
per player). A code is kept in memory only: a server started again has forgotten it.

The same history also moves by a file: ``GET /api/export`` answers the visitor's finished games
(the finished friends' matches they hold a seat at among them, as copies), statistics (made from
the games) and settings as a JSON file to download; a game still being played stays out (its
secret, and the seed of the computer's coming codes, would be in the file). ``POST /api/import``
with such a file gives them to this visitor in one transaction of the history
(:meth:`~mastermind.history.store.Store.add_games`), numbered after their own, each game read
back by the games package and held to the checks of a game made here. A file that cannot be
read is refused whole (400, in one line), before anything is written.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from aiohttp import web

from .. import Game, Match
from ..core.records import rules_from_dict
from ..core.text import plural
from ..errors import GameError
from ..games.daily import check_day, one_a_day, today
from ..history.records import StoredGame
from .api import ApiError, State, check_size, ok, state_of, visitor_of
from .daily import FOUND
from .friends import FRIENDS, FriendGame
from .limits import Limits
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
#: The most games a history file may bring (each is read back by the games package, in a thread
#: of the strategies: a bound on how long one file holds it).
FILE_GAMES = 10_000
#: The longest a file's games are read (a thread of the strategies held): a match whose computer
#: makes the hardest codes reads back by a strategy's walk of the whole game, seconds on a large
#: one, as long as making it; a file of thousands of them is refused rather than read for hours.
FILE_SECONDS = 60.0


def portable(record: dict[str, Any]) -> dict[str, Any]:
    """A record as a file carries it: a friend's match without its seats and link (another
    visitor's and this server's own: in a file, and on another server, it is a finished match)."""
    return {k: v for k, v in record.items() if k != "friend"}


@routes.get("/api/export")
async def export(request: web.Request) -> web.Response:
    """This visitor's finished games (the finished matches they hold a seat at among them),
    numbered as they know them, and their settings, as a file. A game still being played stays
    out: its record holds the secret (the code of the day's, the same for every visitor) and the
    seed the computer's coming codes are drawn from; a transfer code moves it instead."""
    state, visitor = state_of(request), visitor_of(request)
    settings = await state.visitors.settings(visitor)
    stored = await state.db(lambda: state.store.games_and_seats(visitor.key)) if visitor.saved else []
    games = [{"number": g.number, "record": portable(g.record)} for g in stored if g.finished]
    data = {"format": FORMAT, "version": VERSION, "settings": settings.to_dict(), "games": games}
    headers = {"Content-Disposition": 'attachment; filename="mastermind-history.json"'}
    text = await state.think(lambda: json.dumps(data, indent=1))  # a long history: off the event loop
    return web.Response(text=text, content_type="application/json", headers=headers)


def read_file(
    raw: bytes, defaults: VisitorSettings, limits: Limits, day: date
) -> tuple[list[tuple[int, dict[str, Any]]], VisitorSettings]:
    """The games (number, record as the games package writes it again) and settings of a history
    file, each game read back by the games package and held to the limits of a game made here
    (``day``: today, past which no game of the day is); ApiError 400 in one line for anything
    that cannot be, whatever the file holds."""
    try:
        return _read(raw, defaults, limits, day)
    except ApiError:
        raise
    except Exception as err:  # anything a file can make go wrong: a line, not a 500
        raise ApiError(400, f"this history file cannot be read: {one_line(err)}") from None


def one_line(err: Exception) -> str:
    return " ".join(str(err).split())[:200] or type(err).__name__


def _read(
    raw: bytes, defaults: VisitorSettings, limits: Limits, day: date
) -> tuple[list[tuple[int, dict[str, Any]]], VisitorSettings]:
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise ApiError(400, "this file is not a history file of mastermind web (not JSON)") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ApiError(400, "this file is not a history file of mastermind web")
    if data.get("version") != VERSION:
        version = json.dumps(data.get("version"))[:20]
        raise ApiError(400, f"this history file has version {version}; this server reads {VERSION}")
    entries = data.get("games")
    if not isinstance(entries, list):
        raise ApiError(400, "this history file has no list of games")
    if len(entries) > FILE_GAMES:
        raise ApiError(400, f"this history file has {len(entries):,} games; this server takes {FILE_GAMES:,}")
    games: list[tuple[int, dict[str, Any]]] = []
    numbers: set[int] = set()
    deadline = time.monotonic() + FILE_SECONDS
    for entry in entries:
        if time.monotonic() > deadline:
            raise ApiError(
                400,
                f"this history file takes too long to read here (more than {FILE_SECONDS:g} s, "
                f"{len(games):,} games of {len(entries):,} read): split it",
            )
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
        try:
            record = read_record(entry.get("record"), limits, day)
        except ApiError as err:
            raise ApiError(400, f"game {number} of this history file cannot be played here: {err}") from None
        except Exception as err:  # a record the games package cannot read, said why
            raise ApiError(
                400, f"game {number} of this history file cannot be read: {one_line(err)}"
            ) from None
        numbers.add(number)
        games.append((number, record))
    unfinished = sum(not r.get("finished") for _, r in games)
    if unfinished > limits.open_games:
        raise ApiError(
            400,
            f"this history file has {plural(unfinished, 'unfinished game')}; "
            f"a visitor here has at most {limits.open_games}",
        )
    settings = data.get("settings") or {}
    try:
        if not isinstance(settings, dict):
            raise TypeError("they are not a list of names and values")
        return games, defaults.updated(settings)
    except Exception as err:
        raise ApiError(400, f"the settings of this history file cannot be used: {one_line(err)}") from None


def read_record(record: Any, limits: Limits, day: date) -> dict[str, Any]:
    """A file's record as the history keeps it: read back by the games package (every number it
    brings bounded there) and written again, so that what is kept is what the package makes; held
    to the checks of a game made here (its size and strategies, a match's games, a day not to
    come). ApiError for a game this server does not play, the package's errors for the rest."""
    if not isinstance(record, dict) or record.get("kind") not in MODE_OF_KIND:
        raise ValueError("not a game's record")
    rules = rules_from_dict(record["rules"])
    # the sizes checked before the game is made: a game too large is refused before it is built
    names = (
        record.get("players") if record["kind"] == "match" else [(record.get("players") or {}).get("breaker")]
    )
    check_size(
        limits,
        rules,
        [n.strip().lower() for n in [record.get("strategy"), *(names or [])] if isinstance(n, str)],
    )
    kept: dict[str, Any]
    if record["kind"] == "match":
        match = Match.from_record(record)
        check_size(limits, match.rules, [match.strategy, *match.players])
        if match.games > limits.match_games:
            raise ApiError(400, f"a match here has at most {limits.match_games} games, not {match.games}")
        kept = match.record()
    else:
        game = Game.from_record(record)
        check_size(
            limits,
            game.rules,
            [game.strategy_name, *([game.breaker] if isinstance(game.breaker, str) else [])],
        )
        if game.daily is not None:
            try:
                check_day(date.fromisoformat(game.daily), day)
            except GameError:
                raise ApiError(
                    400, f"there is no code of the day of {game.daily} (today is {day.isoformat()})"
                ) from None
        kept = game.record()
    if record.get("left") is True:  # a friend's match closed unfinished (its outcome "left")
        kept["left"] = True
    return kept


@routes.post("/api/import")
async def take_file(request: web.Request) -> web.Response:
    """A history file's games and settings given to this visitor, after their own games, in one
    transaction of the history (:meth:`~mastermind.history.store.Store.add_games`): the games it
    already has skipped there, so that a file sent twice at once adds its games once."""
    state, visitor = state_of(request), visitor_of(request)
    raw = b""
    while chunk := await request.content.read(64 * 1024):  # past the API's body limit: a file's own
        raw += chunk
        if len(raw) > FILE_BYTES:
            raise ApiError(413, f"the file is too large (at most {FILE_BYTES:,} bytes)")
    # each game read back by the games package: long for a long history, so off the event loop
    defaults, limits, day = state.visitors.defaults, state.limits, today()
    games, settings = await state.think(lambda: read_file(raw, defaults, limits, day))
    found = request.app.get(FOUND, {})
    # a game of the day held in memory only (a draft) is one of its day too
    held = {iso for key, iso in found if key == visitor.key}
    skipped = 0

    def choose(own: list[StoredGame]) -> list[tuple[int, dict[str, Any]]]:
        nonlocal skipped
        fresh = new_games(games, [portable(g.record) for g in own], held)
        skipped = len(games) - len(fresh)
        playing = sum(not g.finished and not g.record.get("left") for g in own)
        adding = sum(not r.get("finished") for _, r in fresh)
        if adding and playing + adding > limits.open_games:
            raise ApiError(
                400,
                f"this file's {plural(adding, 'unfinished game')} and your {playing} would be more "
                f"than {limits.open_games}: finish or give up some first",
            )
        return fresh

    # numbered after this visitor's games, drafts in memory included: no number taken twice
    after = max((d.id for d in state.games.drafts(visitor.key)), default=0)
    kept = settings.to_dict()
    moved, shift = await state.db(lambda: state.store.add_games(visitor.key, choose, after, kept))
    state.visitors.forget(visitor.key)
    await state.visitors.save(visitor, settings)  # the memory's settings (the history has them)
    return ok({"moved": moved, "shift": shift, "skipped": skipped})


def canonical(record: dict[str, Any]) -> str:
    return json.dumps(record, sort_keys=True, separators=(",", ":"))


def new_games(
    games: list[tuple[int, dict[str, Any]]], own: list[dict[str, Any]], days_held: Iterable[str] = ()
) -> list[tuple[int, dict[str, Any]]]:
    """The file's games this visitor has not got: not the same record again (a file read twice:
    compared as canonical JSON, in a set), nor a second game of a day they have one of
    (:func:`~mastermind.games.daily.one_a_day`; ``days_held``: days of games in memory only)."""
    seen = {canonical(r) for r in own}
    fresh = []
    for number, record in games:
        key = canonical(record)
        if key not in seen:
            seen.add(key)
            fresh.append((number, record))
    had = [*(r.get("daily") for r in own), *days_held]
    return one_a_day(fresh, lambda game: game[1].get("daily"), had)
