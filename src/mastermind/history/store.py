"""The history: every game kept in a local SQLite database, saved move by move, and every complete
evaluation run (:meth:`Store.add_run`, :meth:`Store.find_run`), so that the same run need not be
computed twice. :mod:`~mastermind.history.export` writes the games as CSV; :mod:`mastermind.history.stats`
sums them up; :mod:`~mastermind.history.records` holds what is read back.

Each save is one transaction that rewrites the game's row with its whole record (a few hundred
bytes), so a process killed at any moment leaves the game as it was after its last move, never
half-written. The database runs in WAL mode with a busy timeout, so that two sessions may write
at once. The schema is versioned with ``PRAGMA user_version``: :mod:`~mastermind.history.schema`
holds the steps from each version to the next, applied in order when a store is opened.

The games of the web server's visitors (``mastermind web``) share the file with the local games
of the command line and the terminal UI: each carries its visitor (the hash of the visitor's
session id), and every query of games reads one visitor's games, the local ones (no visitor) by
default, so ``mastermind history`` lists only the games played on this machine.

>>> import tempfile, os
>>> from mastermind.games.game import Game
>>> from mastermind.core.rules import Rules
>>> with tempfile.TemporaryDirectory() as d, Store(os.path.join(d, "h.sqlite3")) as store:
...     game = Game.breaking(Rules(), seed=7)
...     game_id = store.add(game.record())
...     _ = game.guess("1122")
...     store.save(game_id, game.record())
...     [len(g.record["moves"]) for g in store.games()]
[1]
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..core.text import PATH_LIMIT, quote
from ..errors import StoreError
from .export import GAME_COLUMNS, MOVE_COLUMNS, write_csv
from .records import (
    DamagedGame,
    PlayedElsewhere,
    StoredGame,
    StoredRun,
    local_time,
    moves_of,
    outcome_of,
    read_record,
    worth_keeping,
)
from .schema import MIGRATIONS, SCHEMA_VERSION

#: The environment variable that names the database file (overridden by an explicit path).
ENV_VAR = "MASTERMIND_DB"

#: Seconds a write waits for another session's write before the database counts as locked.
BUSY_TIMEOUT = 5.0


def default_path() -> Path:
    """MASTERMIND_DB if it is set, else history.sqlite3 in the user's data directory."""
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env)
    from platformdirs import user_data_dir

    return Path(user_data_dir("mastermind-lab")) / "history.sqlite3"


def _canonical(data: dict[str, Any]) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


#: The columns a :class:`StoredGame` is read from, in its order.
_GAME = "id, kind, started, updated, rules, finished, outcome, record, number"


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


_INSERT_GAME = (
    "INSERT INTO games (kind, started, updated, rules, finished, outcome, record, visitor, number) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_SAVE_VISITOR = (
    "INSERT INTO visitors (id, created, seen, settings) VALUES (?, ?, ?, ?) "
    "ON CONFLICT (id) DO UPDATE SET seen = excluded.seen, settings = excluded.settings"
)


def _game_row(record: dict[str, Any], visitor: str | None, number: int | None) -> tuple[Any, ...]:
    """The columns of a new game's row, in :data:`_INSERT_GAME`'s order."""
    now = _now()
    rules, finished = json.dumps(record["rules"]), int(bool(record.get("finished")))
    return (
        record["kind"],
        now,
        now,
        rules,
        finished,
        outcome_of(record),
        json.dumps(record),
        visitor,
        number,
    )


_REPLACE = "UPDATE games SET updated = ?, rules = ?, finished = ?, outcome = ?, record = ? WHERE "


def _replaced(record: dict[str, Any]) -> tuple[Any, ...]:
    """The columns a save rewrites, in :data:`_REPLACE`'s order."""
    rules, finished = json.dumps(record["rules"]), int(bool(record.get("finished")))
    return (_now(), rules, finished, outcome_of(record), json.dumps(record))


class Store:
    """The history database at ``path`` (default: :func:`default_path`), opened and migrated.

    With ``write`` (the default) the store checks at once that it can write, so that a read-only
    file is reported before a game starts rather than at its first move; ``write=False`` is for
    those who only read (a read-only history can still be listed, and a missing file reads as an
    empty history without being made).

    A game whose record cannot be read is damaged: asked for alone (:meth:`get`, :meth:`numbered`,
    :meth:`latest_unfinished`) it raises :class:`DamagedGame`; a listing leaves it out and names it
    in :attr:`left_out`. ``reader`` (a front end gives the engine's reading of a record, which
    raises on a bad one) checks every game read, listed or asked for alone: one that could not be
    played on is damaged, and a listing never shows a game that is refused when asked for.

    Raises:
        StoreError: the file cannot be opened or written, is not a database, is locked by another
            session for longer than the busy timeout, or has a newer schema than this package knows.
    """

    def __init__(
        self,
        path: str | os.PathLike[str] | None = None,
        timeout: float = BUSY_TIMEOUT,
        write: bool = True,
        reader: Callable[[dict[str, Any]], object] | None = None,
    ) -> None:
        if path is not None and not str(path):
            raise StoreError("the history database's path is empty")
        # Only the default place (the user data directory) is made if missing: a path given
        # (or MASTERMIND_DB) is an output path like any other, in a folder that must exist.
        made_here = path is None and not os.environ.get(ENV_VAR)
        self.path = Path(path) if path is not None else default_path()
        self._db: sqlite3.Connection | None = None
        self.reader = reader
        #: The ids of the damaged games the last listing left out.
        self.left_out: list[int] = []
        try:
            if self.path.is_dir():
                raise StoreError(f"the history database {self.path} is a directory, not a file")
            if not write and not self.path.exists():
                where = ":memory:"  # nothing to read: an empty history, and nothing made on disk
            else:
                if made_here:
                    self.path.parent.mkdir(parents=True, exist_ok=True)
                elif not self.path.parent.is_dir():
                    file, folder = (quote(str(p), PATH_LIMIT) for p in (self.path, self.path.parent))
                    raise StoreError(
                        f"cannot make the history database {file}: folder {folder} does not exist"
                    )
                where = str(self.path)
            # autocommit: every transaction is opened explicitly with BEGIN IMMEDIATE; any one thread
            # at a time may use the store (the web server calls it from a thread of its own)
            self._db = sqlite3.connect(where, timeout=timeout, isolation_level=None, check_same_thread=False)
            self._db.execute(f"PRAGMA busy_timeout = {int(timeout * 1000)}")
            try:
                self._migrate()
            except sqlite3.OperationalError:
                if write or where == ":memory:" or not self._read_as_it_is():
                    raise
            self._db.execute("PRAGMA journal_mode = WAL")
            # in WAL mode, NORMAL loses no committed transaction when the process is killed (only a
            # power cut may lose the last few), and spares an fsync per move
            self._db.execute("PRAGMA synchronous = NORMAL")
            if write:  # a write that is rolled back: nothing reaches the file
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                finally:
                    self._db.execute("ROLLBACK")
        except (sqlite3.Error, OSError) as err:
            self.close()
            raise self._error(err) from None
        except StoreError:
            self.close()
            raise

    # -- opening -----------------------------------------------------------------------------------

    def _read_as_it_is(self) -> bool:
        """Open a history only read in a folder this user cannot write, where SQLite cannot make
        the shared-memory file a database in WAL mode needs even to be read: as an unchanging file,
        which it is while no session writes it (none has: there is no write-ahead log beside it).
        Whether it was so opened (then migrated: a history of an older layout is refused)."""
        if os.access(self.path.parent, os.W_OK) or Path(f"{self.path}-wal").exists():
            return False
        assert self._db is not None
        self._db.close()
        uri = f"{self.path.resolve().as_uri()}?mode=ro&immutable=1"
        self._db = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
        self._migrate()
        return True

    def _error(self, err: Exception) -> StoreError:
        text = str(err).lower()
        where = f"the history database {self.path}"
        if "not a database" in text or "malformed" in text:
            why = "is corrupt (not an SQLite database)"
        elif "unable to open" in text and not os.access(self.path.parent, os.W_OK):
            why = f"cannot be created or opened: folder {self.path.parent} is read-only"
        elif "locked" in text or "busy" in text:
            why = "is locked by another session"
        elif "readonly" in text or "read-only" in text or isinstance(err, PermissionError):
            why = "is read-only"
        else:
            why = f"cannot be used: {err}"
        return StoreError(f"{where} {why}")

    @property
    def db(self) -> sqlite3.Connection:
        if self._db is None:
            raise StoreError(f"the history database {self.path} is closed")
        return self._db

    @property
    def version(self) -> int:
        return int(self.db.execute("PRAGMA user_version").fetchone()[0])

    def _migrate(self) -> None:
        version = self.version
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"the history database {self.path} has schema version {version}, newer than this "
                f"package knows ({SCHEMA_VERSION}); upgrade mastermind-lab"
            )
        if version == SCHEMA_VERSION:
            return
        with self._transaction():
            version = self.version  # another session may have migrated while this one waited
            for steps in MIGRATIONS[version:]:
                for statement in steps:
                    self.db.execute(statement)
            self.db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    def _transaction(self) -> _Transaction:
        return _Transaction(self.db)

    # -- games -------------------------------------------------------------------------------------

    def add(self, record: dict[str, Any], visitor: str | None = None, number: int | None = None) -> int:
        """Store a new game (or match) record, a local one or ``visitor``'s; returns its id. A
        visitor's game has a ``number`` among their games: the one given, or the next free one."""
        if visitor is not None and number is None:
            number = self.next_number(visitor)
        return self._insert(_INSERT_GAME, _game_row(record, visitor, number))

    def add_games(
        self,
        visitor: str,
        choose: Callable[[list[StoredGame]], list[tuple[int, dict[str, Any]]]],
        after: int = 0,
        settings: dict[str, Any] | None = None,
    ) -> tuple[int, int]:
        """Give ``visitor`` the games ``choose`` picks from ``visitor``'s own (their games and
        seats, read in the transaction), as (number, record), and ``settings`` if given, in one
        transaction: a process killed meanwhile leaves all of them or none, and two calls at once
        each see the other's games (``choose`` can skip those it already has, or raise to write
        nothing). The games are numbered after ``visitor``'s own (and past ``after``, numbers held
        elsewhere), in their order: number n is n + shift. Returns how many were added and the shift."""
        try:
            with self._transaction():
                chosen = choose(self.games_and_seats(visitor))
                shift = max(self.next_number(visitor) - 1, after)
                for number, record in chosen:
                    self.db.execute(_INSERT_GAME, _game_row(record, visitor, number + shift))
                if settings is not None:
                    now = _now()
                    self.db.execute(_SAVE_VISITOR, (visitor, now, now, json.dumps(settings)))
                return len(chosen), shift
        except sqlite3.Error as err:
            raise self._error(err) from None

    def next_number(self, visitor: str) -> int:
        """The number ``visitor``'s next game takes: one more than their highest, their seats at
        other visitors' games counted."""
        rows = self._rows(
            "SELECT MAX(n) FROM (SELECT MAX(number) AS n FROM games WHERE visitor = ? "
            "UNION ALL SELECT MAX(number) FROM seats WHERE visitor = ?)",
            (visitor, visitor),
        )
        return int(rows[0][0] or 0) + 1

    def seat(self, visitor: str, game_id: int, after: int = 0) -> int:
        """Give ``visitor`` a seat at game ``game_id`` (another visitor's: a friend's match) under a
        number of their own, their next one and past ``after`` (numbers held elsewhere, in
        memory); returns it."""
        try:
            with self._transaction():
                number = max(self.next_number(visitor), after + 1)
                self.db.execute(
                    "INSERT INTO seats (visitor, number, game) VALUES (?, ?, ?)", (visitor, number, game_id)
                )
                return number
        except sqlite3.Error as err:
            raise self._error(err) from None

    def numbered(self, number: int, visitor: str) -> StoredGame:
        """``visitor``'s game number ``number``, or the game their seat of that number is at (a
        friend's match, kept under the friend who made it); StoreError if they have neither."""
        rows = []
        if 0 < number < 2**63:  # SQLite's integers
            sql = f"SELECT {_GAME} FROM games WHERE visitor = ? AND number = ?"
            rows = self._read(sql, (visitor, number), one=True)
            if not rows:
                seat = "SELECT game FROM seats WHERE visitor = ? AND number = ?"
                sql = f"SELECT {_GAME} FROM games WHERE id = ({seat})"
                rows = self._read(sql, (visitor, number), one=True)
        if not rows:
            raise StoreError(f"there is no game {number} in the history")
        return rows[0]

    def save(self, game_id: int, record: dict[str, Any], known: dict[str, Any] | None = None) -> None:
        """Replace game ``game_id``'s record, in one transaction; with ``known`` (the record this
        session last read or wrote) only if the row still holds it, else :class:`PlayedElsewhere`:
        a save never overwrites moves it did not know of."""
        if known is None:
            self._replace("id = ?", (game_id,), record)
            return
        try:
            with self._transaction():
                self._check_known(game_id, known)
                self.db.execute(_REPLACE + "id = ?", (*_replaced(record), game_id))
        except sqlite3.Error as err:
            raise self._error(err) from None

    def _check_known(self, game_id: int, known: dict[str, Any]) -> None:
        """In a transaction: PlayedElsewhere unless game ``game_id``'s row holds ``known``."""
        row = self.db.execute("SELECT record FROM games WHERE id = ?", (game_id,)).fetchone()
        try:
            now = None if row is None else json.loads(row[0])
        except json.JSONDecodeError:
            now = {}
        if now != known:
            raise PlayedElsewhere(game_id, now)

    def save_numbered(self, number: int, visitor: str, record: dict[str, Any]) -> None:
        """Replace ``visitor``'s game number ``number``'s record, in one transaction."""
        self._replace("visitor = ? AND number = ?", (visitor, number), record)

    def _replace(self, where: str, key: tuple[Any, ...], record: dict[str, Any]) -> None:
        self._write(_REPLACE + where, (*_replaced(record), *key))

    def get(self, game_id: int, visitor: str | None = None) -> StoredGame:
        """Game ``game_id`` if it is ``visitor``'s (by default a local game); StoreError if not."""
        if not 0 < game_id < 2**63:  # SQLite's integers
            raise StoreError(f"there is no game {game_id} in the history")
        sql = f"SELECT {_GAME} FROM games WHERE id = ? AND visitor IS ?"
        row = self._read(sql, (game_id, visitor), one=True)
        if not row:
            raise StoreError(f"there is no game {game_id} in the history")
        return row[0]

    def games(self, kind: str | None = None, visitor: str | None = None) -> list[StoredGame]:
        """Every stored game of ``visitor`` (by default the local games), oldest first; only those of
        ``kind`` if given."""
        if kind is None:
            return self._read(f"SELECT {_GAME} FROM games WHERE visitor IS ? ORDER BY id", (visitor,))
        return self._read(
            f"SELECT {_GAME} FROM games WHERE visitor IS ? AND kind = ? ORDER BY id", (visitor, kind)
        )

    def games_and_seats(self, visitor: str) -> list[StoredGame]:
        """Every stored game of web visitor ``visitor``, oldest first, with the friends' matches they
        hold a seat at (kept under the friend who made them), each under ``visitor``'s own number."""
        seated = (
            "SELECT g.id, g.kind, g.started, g.updated, g.rules, g.finished, g.outcome, g.record, s.number "
            "FROM seats s JOIN games g ON g.id = s.game WHERE s.visitor = ?"
        )
        sql = f"SELECT {_GAME} FROM games WHERE visitor = ? UNION ALL {seated} ORDER BY 1"
        return self._read(sql, (visitor, visitor))

    def latest_unfinished(self, kind: str, visitor: str | None = None) -> StoredGame | None:
        """The most recently started unfinished game of ``kind`` (``visitor``'s, or a local one), or None."""
        rows = self._read(
            f"SELECT {_GAME} FROM games WHERE visitor IS ? AND kind = ? AND finished = 0 ORDER BY id DESC "
            "LIMIT 1",
            (visitor, kind),
            one=True,
        )
        return rows[0] if rows else None

    def unfinished(self, visitor: str | None = None) -> list[StoredGame]:
        """``visitor``'s unfinished games (by default the local ones), oldest first."""
        return self._read(
            f"SELECT {_GAME} FROM games WHERE visitor IS ? AND finished = 0 ORDER BY id", (visitor,)
        )

    def unfinished_of_visitors(self, kind: str) -> list[StoredGame]:
        """Every visitor's unfinished games of ``kind`` (not the local ones), oldest first: the web
        server takes up again at start the games two visitors share."""
        return self._read(
            f"SELECT {_GAME} FROM games WHERE visitor IS NOT NULL AND kind = ? AND finished = 0 ORDER BY id",
            (kind,),
        )

    def delete(self, game_id: int, visitor: str | None = None, known: dict[str, Any] | None = None) -> bool:
        """Remove game ``game_id`` if it is ``visitor``'s (the web server drops a visitor's games
        that never had a move); whether there was one. With ``known``, only if the row still holds
        it (else :class:`PlayedElsewhere`), as :meth:`save`."""
        try:
            with self._transaction():
                if known is not None:
                    self._check_known(game_id, known)
                sql = "DELETE FROM games WHERE id = ? AND visitor IS ?"
                if self.db.execute(sql, (game_id, visitor)).rowcount == 0:
                    return False
                self.db.execute("DELETE FROM seats WHERE game = ?", (game_id,))
                return True
        except sqlite3.Error as err:
            raise self._error(err) from None

    # -- the web server's visitors -----------------------------------------------------------------

    def visitor_settings(self, visitor: str) -> dict[str, Any] | None:
        """The settings ``visitor`` saved, or None for a visitor this history does not know."""
        rows = self._rows("SELECT settings FROM visitors WHERE id = ?", (visitor,))
        return json.loads(rows[0][0]) if rows else None

    def save_visitor(self, visitor: str, settings: dict[str, Any]) -> None:
        """Keep ``visitor`` (made on its first save) with its settings."""
        now = _now()
        self._write(_SAVE_VISITOR, (visitor, now, now, json.dumps(settings)))

    def move_visitor(self, old: str, new: str, after: int = 0) -> tuple[int, int]:
        """Give visitor ``new`` every game, seat and the settings of visitor ``old``, in one
        transaction (a player moving to another browser or device: ``old`` keeps none of its
        games). The games are renumbered after ``new``'s own (and past ``after``, numbers held
        elsewhere), in their order: ``old``'s game n is ``new``'s n + shift. Returns how many
        games were moved and the shift."""
        try:
            with self._transaction():
                shift = max(self.next_number(new) - 1, after)
                moved = self.db.execute(
                    "UPDATE games SET visitor = ?, number = number + ? WHERE visitor = ?", (new, shift, old)
                ).rowcount
                self.db.execute(
                    "UPDATE seats SET visitor = ?, number = number + ? WHERE visitor = ?", (new, shift, old)
                )
                row = self.db.execute("SELECT settings FROM visitors WHERE id = ?", (old,)).fetchone()
                if row is not None:
                    now = _now()
                    self.db.execute(
                        "INSERT INTO visitors (id, created, seen, settings) VALUES (?, ?, ?, ?) "
                        "ON CONFLICT (id) DO UPDATE SET seen = excluded.seen, settings = excluded.settings",
                        (new, now, now, row[0]),
                    )
                return moved, shift
        except sqlite3.Error as err:
            raise self._error(err) from None

    # -- evaluation runs ---------------------------------------------------------------------------

    def add_run(self, key: dict[str, Any], record: dict[str, Any]) -> int:
        """Store a complete evaluation run: ``key`` as made by
        :func:`mastermind.research.evaluation.run_key`, ``record`` the run's statistics
        (:meth:`mastermind.research.results.Stats.to_dict`); returns its id."""
        options = {"first": key.get("first"), "options": key.get("options", {})}
        return self._insert(
            "INSERT INTO runs (key, created, strategy, options, rules, version, sample, seed, total, max, "
            "distribution, seconds, record) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                _canonical(key),
                _now(),
                key["strategy"],
                json.dumps(options),
                json.dumps(key["rules"]),
                key["version"],
                key.get("sample"),
                key.get("seed"),
                record["total"],
                record["max"],
                json.dumps(record["distribution"]),
                record["seconds"],
                json.dumps(record),
            ),
        )

    def find_run(self, key: dict[str, Any]) -> StoredRun | None:
        """The latest stored run with this key, or None."""
        rows = self._rows(
            "SELECT id, created, key, record FROM runs WHERE key = ? ORDER BY id DESC LIMIT 1",
            (_canonical(key),),
        )
        return self._run(rows[0]) if rows else None

    def runs(self) -> list[StoredRun]:
        """Every stored run, oldest first."""
        return [self._run(r) for r in self._rows("SELECT id, created, key, record FROM runs ORDER BY id", ())]

    @staticmethod
    def _run(row: tuple[Any, ...]) -> StoredRun:
        return StoredRun(row[0], row[1], json.loads(row[2]), json.loads(row[3]))

    def _write(self, sql: str, params: tuple[Any, ...]) -> int | None:
        try:
            with self._transaction():
                cursor = self.db.execute(sql, params)
                return cursor.lastrowid
        except sqlite3.Error as err:
            raise self._error(err) from None

    def _insert(self, sql: str, params: tuple[Any, ...]) -> int:
        """One row added; its id."""
        row = self._write(sql, params)
        if row is None:  # SQLite numbers every row it inserts: a driver that does not cannot be used
            raise StoreError(f"the history {self.path} gave the new row no id")
        return row

    def _rows(self, sql: str, params: tuple[Any, ...]) -> list[Any]:
        try:
            return self.db.execute(sql, params).fetchall()
        except sqlite3.Error as err:
            raise self._error(err) from None

    def _read(self, sql: str, params: tuple[Any, ...], one: bool = False) -> list[StoredGame]:
        """The games the query finds, each read as one game asked for is (with :attr:`reader`), so
        that a listing shows only games that can be asked for: for ``one`` game asked for, a
        damaged one raises :class:`DamagedGame`; a listing leaves the damaged out, their ids in
        :attr:`left_out`."""
        games, left_out = [], []
        for r in self._rows(sql, params):
            try:
                record = read_record(r[0], r[7], self.reader)
            except DamagedGame:
                if one:
                    raise
                left_out.append(r[0])
                continue
            games.append(StoredGame(r[0], r[1], r[2], r[3], bool(r[5]), r[6], record, r[8]))
        if not one:
            self.left_out = left_out
        return games

    # -- closing -----------------------------------------------------------------------------------

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Recorder:
    """Saves a game's (or a match's) record whenever it changed, for every front end: a row is made
    on the first save and rewritten, in one transaction, after every move; a game that comes back
    to no move (every guess taken back) has its row removed (see :func:`worth_keeping`), and is
    given a new one at its next move.

    If the database fails during a game (locked by another session past the busy timeout, say),
    ``save`` returns a warning, once, and the game goes on: nothing typed is lost, ``behind`` says
    that the history lacks the last moves, and the next save tries again with the whole record
    (once it succeeds, ``warning`` is cleared and the history holds every move).

    Each save is a compare-and-set: it writes only over the record this recorder last read or
    wrote (a resumed game's, read when the recorder is made). If the same game was saved by
    another session meanwhile (resumed in a second terminal), nothing is written: ``elsewhere``
    holds the refusal, ``warning`` says which guesses were not kept, and the recorder saves no more
    (``store`` becomes None)."""

    def __init__(self, store: Store | None, game_id: int | None = None) -> None:
        self.store = store
        self.path = None if store is None else store.path  # kept when a failure drops the store
        self.id = game_id
        self.warning: str | None = None
        self.elsewhere: PlayedElsewhere | None = None
        self.lost = ""  # what a refused save did not keep (the guesses past the saved ones)
        self._last: str | None = None
        #: Whether the last save failed: the history lacks this game's latest moves (or the game).
        self.behind = False
        self._known: dict[str, Any] | None = None  # what the row holds, as far as this session knows
        self._unread = store is not None and game_id is not None  # the resumed row, read once
        if self._unread:
            try:
                self._read_known()
            except StoreError as err:
                self._failed(err)

    def _read_known(self) -> None:
        assert self.store is not None and self.id is not None
        self._known = self.store.get(self.id).record
        self._last = json.dumps(self._known, sort_keys=True)  # the same record: nothing to write
        self._unread = False

    def save(self, record: dict[str, Any]) -> str | None:
        if self.store is None:
            return None
        text = json.dumps(record, sort_keys=True)
        if text == self._last:
            return None
        try:
            if self._unread:  # the resumed row could not be read when the recorder was made
                self._read_known()
            if not worth_keeping(record):
                if self.id is not None:
                    self.store.delete(self.id, known=self._known)
                self.id, self._known = None, None
            elif self.id is None:
                self.id = self.store.add(record)
            else:
                self.store.save(self.id, record, known=self._known)
        except PlayedElsewhere as err:
            self.elsewhere, self.lost = err, unkept(self._known, record)
            self.warning = f"{err}: {self.lost} not kept; this game is no longer saved here"
            self.store = None
            return self.warning
        except StoreError as err:
            return self._failed(err)
        # as the row reads back: JSON's lists for any tuple, so that the next compare is exact
        self._last, self._known = text, json.loads(json.dumps(record)) if self.id is not None else None
        self.behind, self.warning = False, None
        return None

    def _failed(self, err: StoreError) -> str | None:
        """The game goes on; the next save tries again. The warning once, when saving first fails."""
        if self.behind:
            return None
        self.behind = True
        self.warning = f"{err}; the game goes on, and its next move tries to save it again"
        return self.warning

    def saved_moves(self) -> int:
        """How many guesses the history holds of this game (those of the last save that succeeded)."""
        return 0 if self._known is None else len(moves_of(self._known))


def unkept(known: dict[str, Any] | None, record: dict[str, Any]) -> str:
    """The guesses of ``record`` past those of ``known``, as a refused save names them."""
    had = len(moves_of(known)) if known is not None else 0
    guesses = [m["guess"] for m in moves_of(record)[had:]]
    if not guesses:
        return "the last change (no new guess)"
    return ("guess " if len(guesses) == 1 else "guesses ") + ", ".join(guesses)


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK on an exception."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: object, *exc: object) -> None:
        self.db.execute("ROLLBACK" if exc_type is not None else "COMMIT")


__all__ = [
    "BUSY_TIMEOUT",
    "ENV_VAR",
    "DamagedGame",
    "PlayedElsewhere",
    "GAME_COLUMNS",
    "MIGRATIONS",
    "MOVE_COLUMNS",
    "SCHEMA_VERSION",
    "Recorder",
    "Store",
    "StoredGame",
    "StoredRun",
    "default_path",
    "local_time",
    "moves_of",
    "outcome_of",
    "unkept",
    "worth_keeping",
    "write_csv",
]
