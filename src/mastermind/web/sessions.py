"""Visitors and the games held in memory.

A visitor is a random session id in a cookie (HttpOnly, SameSite=Lax). The history database keeps
only its SHA-256 hash, so that the file alone lets nobody act as a visitor. An id the server did
not issue (made up, or from before a restart of a server that never saved anything for it) is
replaced by a new one.

A game is kept in the history from its first move (as the command line keeps one, see
:func:`~mastermind.history.store.worth_keeping`), with its visitor, and saved after every change
from then on: a page opened and only looked at leaves no game behind. Until then it is a draft,
held in memory only; a kept game whose every guess is taken back leaves the history and is a
draft again, as the command line removes it. Games are numbered for each visitor (their second
game is 2): a draft takes the next number, which it keeps when it is kept. The live games are held in memory
(:class:`GameTable`), at most :attr:`Limits.games_in_memory` of them, and none idle for longer
than :attr:`Limits.idle_seconds`: a kept game dropped from memory is read back from the history
when it is touched again; a draft dropped is gone.

Every call to the history runs through ``run`` (the server's history thread, see
:func:`~mastermind.web.server.make_app`), never on the event loop: an SQLite write waits for its
lock and, now and then, a checkpoint of the write-ahead log (tens of milliseconds), and every
other visitor would wait with it. What is in memory (issued ids, settings, live games) is read
without leaving the loop.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from .. import Game, Match, Notation
from ..errors import NotationError
from ..history.store import PlayedElsewhere, Store, unkept, worth_keeping
from .limits import Limits
from .settings import MODE_OF_KIND, VisitorSettings

T = TypeVar("T")

#: How the history is called: ``await run(job)`` runs ``job()`` off the event loop, one at a time.
Run = Callable[[Callable[[], T]], Awaitable[T]]

#: How a game's save is queued: ``await later(job)`` runs ``job()`` after the calls queued before
#: it, in the same thread as ``run``'s (a failure is also said in the server's log).
Later = Callable[[Callable[[], T]], Awaitable[T]]

#: The session cookie's name.
COOKIE = "mastermind_visitor"

#: Issued ids look like this (secrets.token_urlsafe(32)); anything else is not read.
_ID = re.compile(r"^[A-Za-z0-9_-]{43}$")


def visitor_key(token: str) -> str:
    """What the history keeps of a visitor's id: its hash."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Visitor:
    """One visitor: ``key`` names them in the history; ``token`` is set when the id is new (the
    answer then sets the cookie); ``known`` when the id was issued by this server (the rate limit
    counts a known visitor's requests, an unknown one's by its address)."""

    key: str
    token: str | None = None
    known: bool = True
    saved: bool = False  # whether the history has its row


class Visitors:
    """The visitors this server knows: the ones it issued ids to (in memory, the most recent
    :data:`REMEMBERED`) and the ones the history has."""

    REMEMBERED = 100_000

    def __init__(self, store: Store, defaults: VisitorSettings, run: Run[Any]) -> None:
        self.store = store
        self.defaults = defaults
        self.run = run
        self._issued: OrderedDict[str, bool] = OrderedDict()  # key -> saved in the history
        self._settings: OrderedDict[str, VisitorSettings] = OrderedDict()

    async def identify(self, cookie: str | None) -> Visitor:
        """The visitor whose cookie this is, or a new one."""
        if cookie and _ID.match(cookie):
            key = visitor_key(cookie)
            if key in self._issued:
                self._issued.move_to_end(key)
                return Visitor(key, saved=self._issued[key])
            if await self.run(lambda: self.store.visitor_settings(key)) is not None:
                self._remember(key, True)
                return Visitor(key, saved=True)
        token = secrets.token_urlsafe(32)
        key = visitor_key(token)
        self._remember(key, False)
        return Visitor(key, token=token, known=False)

    def _remember(self, key: str, saved: bool) -> None:
        self._issued[key] = saved
        self._issued.move_to_end(key)
        while len(self._issued) > self.REMEMBERED:
            self._issued.popitem(last=False)

    def forget(self, *keys: str) -> None:
        """Read these visitors' settings from the history again when next asked (they moved)."""
        for key in keys:
            self._settings.pop(key, None)

    async def settings(self, visitor: Visitor) -> VisitorSettings:
        """The visitor's settings, or the server's defaults."""
        if visitor.key in self._settings:
            return self._settings[visitor.key]
        if not visitor.saved:
            return self.defaults
        stored = await self.run(lambda: self.store.visitor_settings(visitor.key))
        if visitor.key in self._settings:  # saved by another of its requests meanwhile
            return self._settings[visitor.key]
        if stored is None:
            return self.defaults
        settings = VisitorSettings.stored(stored, self.defaults)
        self._keep(visitor.key, settings)
        return settings

    def _keep(self, key: str, settings: VisitorSettings) -> None:
        self._settings[key] = settings
        self._settings.move_to_end(key)
        while len(self._settings) > self.REMEMBERED:
            self._settings.popitem(last=False)

    async def save(self, visitor: Visitor, settings: VisitorSettings | None = None) -> None:
        """Keep the visitor in the history (with ``settings``, or the ones it has): done before
        its first game is saved, so that its id still works after a restart."""
        if settings is None and visitor.saved:
            return
        settings = settings or await self.settings(visitor)
        data = settings.to_dict()
        await self.run(lambda: self.store.save_visitor(visitor.key, data))
        visitor.saved = True
        self._remember(visitor.key, True)
        self._keep(visitor.key, settings)


@dataclass
class LiveGame:
    """A game (or a match) held in memory, with the lock that keeps its requests in turn. ``id`` is
    its number among its visitor's games; ``kept`` whether the history has it (a draft's not yet)."""

    id: int
    visitor: str
    mode: str
    notation: Notation
    game: Game | None = None
    match: Match | None = None
    touched: float = field(default_factory=time.monotonic)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    saved: dict[str, Any] | None = None  # the record as last saved
    kept: bool = True
    row: int | None = None  # its id in the history, where known

    def worth_keeping(self) -> bool:
        """Whether the game belongs in the history now: from its first move, or once over (a
        computer's first guess waiting for the visitor's reply is not a move yet). A match from
        its first code set (see :func:`~mastermind.history.store.worth_keeping`)."""
        return worth_keeping(self.record())

    def record(self) -> dict[str, Any]:
        if self.match is not None:
            return self.match.record()
        assert self.game is not None
        return self.game.record()

    @property
    def finished(self) -> bool:
        return self.match.over if self.match is not None else bool(self.game and self.game.over)


class NotKept(PlayedElsewhere):
    """A save refused by the history's compare-and-set (:meth:`GameTable.save`): the visitor's game
    ``number`` was played on elsewhere meanwhile (another server on this history, or ``mastermind
    play --resume``); ``lost`` names what was not kept (the guesses past the saved ones)."""

    def __init__(self, refused: PlayedElsewhere, number: int, lost: str) -> None:
        super().__init__(refused.game_id, refused.record)
        self.number, self.lost = number, lost
        where = "removed from the history" if refused.record is None else "played elsewhere meanwhile"
        self.args = (
            f"game {number} was {where} (another server or terminal on this history): {lost} not kept",
        )


def notation_for(rules: Any, style: str) -> Notation:
    """The visitor's notation where it writes every colour of the game, else the game's own."""
    try:
        return Notation(rules, style)
    except NotationError:
        return Notation(rules)


class GameTable:
    """The games in memory, the least recently used first, keyed by visitor and number; a kept
    game is saved after every change, a draft once it is worth keeping."""

    def __init__(
        self, store: Store, limits: Limits, run: Run[Any], later: Later[Any], clock: Any = time.monotonic
    ) -> None:
        self.store = store
        self.limits = limits
        self.run = run
        self.later = later
        self.clock = clock
        self._games: OrderedDict[tuple[str, int], LiveGame] = OrderedDict()
        self.loaded = 0  # games read back from the history (for the tests and the benchmark)

    def __len__(self) -> int:
        return len(self._games)

    def __contains__(self, key: tuple[str, int]) -> bool:
        return key in self._games

    def drafts(self, visitor: str) -> list[LiveGame]:
        """The visitor's games not kept yet, oldest first."""
        return [live for (v, _), live in self._games.items() if v == visitor and not live.kept]

    async def add(
        self,
        visitor: str,
        mode: str,
        notation: Notation,
        game: Game | None = None,
        match: Match | None = None,
    ) -> LiveGame:
        """A new game, a draft: in memory only, with the visitor's next number. A visitor holds at
        most :attr:`Limits.open_games` drafts: past that, the oldest is forgotten."""
        drafts = self.drafts(visitor)
        for old in drafts[: max(0, len(drafts) + 1 - self.limits.open_games)]:
            self.drop(visitor, old.id)
        stored = await self.run(lambda: self.store.next_number(visitor))
        number = max([stored, *(d.id + 1 for d in self.drafts(visitor))])
        live = LiveGame(number, visitor, mode, notation, game, match, self.clock(), kept=False)
        self._hold(live)
        return live

    def _held(self, game_id: int, visitor: str) -> LiveGame | None:
        live = self._games.get((visitor, game_id))
        if live is None:
            return None
        live.touched = self.clock()
        self._games.move_to_end((visitor, game_id))
        return live

    async def get(self, game_id: int, visitor: str, style: str) -> LiveGame:
        """The visitor's game number ``game_id``, from memory or the history (StoreError if none)."""
        live = self._held(game_id, visitor)
        if live is not None:
            return live
        stored = await self.run(lambda: self.store.numbered(game_id, visitor))
        live = self._held(game_id, visitor)
        if live is not None:  # read back by another request while this one waited: one game, not two
            return live
        mode = MODE_OF_KIND[stored.kind]
        if stored.kind == "match":
            match = Match.from_record(stored.record)
            live = LiveGame(game_id, visitor, mode, notation_for(match.rules, style), match=match)
        else:
            game = Game.from_record(stored.record)
            live = LiveGame(game_id, visitor, mode, notation_for(game.rules, style), game=game)
        live.touched = self.clock()
        live.saved, live.row = stored.record, stored.id
        self.loaded += 1
        self._hold(live)
        return live

    async def save(self, live: LiveGame) -> None:
        """Write the game to the history if it changed (a draft's first write once it is worth
        keeping), and return once it is there: a move is answered only once it is in the history,
        so a server killed at any moment (kill -9) has every answered move on disk (WAL with
        synchronous=NORMAL loses no committed transaction when the process dies). The history's
        thread takes its calls in order, so a game read back later (after a drop from memory) is
        read after its last write. A write that fails raises (the request is answered 503), and
        the game is written whole with its next change (a draft's first write too).

        Each write of a kept game is the history's compare-and-set, as the command line's: only
        over the record this server last read or wrote (:attr:`LiveGame.saved`). Where the row
        changed meanwhile (the game played on by another server on this history, or by
        ``mastermind play --resume``), nothing is written, the game is dropped from memory (its
        next request reads the history's) and :class:`NotKept` is raised.

        A kept game no longer worth keeping (every guess taken back) leaves the history, as the
        command line's :class:`~mastermind.history.store.Recorder` removes it: a draft again,
        with its number, kept anew at its next move (:meth:`_unkeep`)."""
        if live.kept and not live.worth_keeping():
            await self._unkeep(live)
            return
        if not live.kept and not live.worth_keeping():
            return
        # as the row reads back (JSON's lists for tuples): the compare-and-set compares with it
        record = json.loads(json.dumps(live.record()))
        if live.kept and record == live.saved:  # a refused move changed nothing: nothing to write
            return
        known, number, visitor, row = live.saved, live.id, live.visitor, live.row

        def written(write: Callable[[], Any]) -> Callable[[], Any]:
            def job() -> Any:
                done = write()
                live.saved = record  # in the history's thread, once the row holds it
                return done

            return job

        try:
            if not live.kept:
                live.row = await self.later(
                    written(lambda: self.store.add(record, visitor=visitor, number=number))
                )
                live.kept = True
            elif row is not None:  # by its row: a shared game keeps its row when a visitor moves
                await self.later(written(lambda: self.store.save(row, record, known=known)))
            else:
                await self.later(written(lambda: self.store.save_numbered(number, visitor, record)))
        except PlayedElsewhere as err:
            self.drop(visitor, number)
            raise NotKept(err, number, unkept(known, record)) from None

    async def _unkeep(self, live: LiveGame) -> None:
        """Remove a kept game's row, by the same compare-and-set as a save (:class:`NotKept` if
        the row changed meanwhile); the game stays in memory as a draft with its number."""
        known, number, visitor, row = live.saved, live.id, live.visitor, live.row

        def job() -> None:
            target = row if row is not None else self.store.numbered(number, visitor).id
            self.store.delete(target, visitor, known=known)

        try:
            await self.later(job)
        except PlayedElsewhere as err:
            self.drop(visitor, number)
            raise NotKept(err, number, unkept(known, live.record())) from None
        live.kept, live.row, live.saved = False, None, None

    def _hold(self, live: LiveGame) -> None:
        key = (live.visitor, live.id)
        self._games[key] = live
        self._games.move_to_end(key)
        self.trim()

    def trim(self) -> int:
        """Drop the games idle too long, and the least recently used past the limit (never one that
        is being played: its lock is held); how many were dropped."""
        now = self.clock()
        dropped = 0
        for key, live in list(self._games.items()):
            too_many = len(self._games) > self.limits.games_in_memory
            idle = now - live.touched > self.limits.idle_seconds
            if not (too_many or idle):
                break  # the rest were used more recently
            if live.lock.locked():
                continue
            del self._games[key]
            dropped += 1
        return dropped

    def drop_visitor(self, visitor: str) -> None:
        """Drop ``visitor``'s games from memory (their games moved to another visitor)."""
        for key in [k for k in self._games if k[0] == visitor]:
            del self._games[key]

    def drop(self, visitor: str, game_id: int) -> None:
        self._games.pop((visitor, game_id), None)

    async def open_games(self, visitor: str) -> list[tuple[int, bool, int, bool]]:
        """The visitor's unfinished games in the history as (number, played: whether it holds
        play worth keeping (:func:`~mastermind.history.store.worth_keeping`), row id, shared: a
        friend's match, whose link was given away)."""
        return await self.run(
            lambda: [
                (g.number or 0, worth_keeping(g.record), g.id, "friend" in g.record)
                for g in self.store.unfinished(visitor)
                if not g.record.get("left")  # a friend's match closed unfinished: no move to make
            ]
        )
