"""The history's schema: the SQLite statements that make each version of it from the one before,
applied in order when a store is opened (:meth:`mastermind.history.store.Store`). The version a
file has is its ``PRAGMA user_version``; a migration is never changed once released, a new one is
added after it.
"""

from __future__ import annotations

#: The schema, one list of statements per version: MIGRATIONS[0] takes an empty file to version 1.
MIGRATIONS: list[list[str]] = [
    [
        """CREATE TABLE games (
            id INTEGER PRIMARY KEY,
            kind TEXT NOT NULL,
            started TEXT NOT NULL,
            updated TEXT NOT NULL,
            rules TEXT NOT NULL,
            finished INTEGER NOT NULL,
            outcome TEXT NOT NULL,
            record TEXT NOT NULL
        )""",
        "CREATE INDEX games_by_kind ON games (kind, finished, id)",
    ],
    [
        # evaluation runs: ``key`` is the canonical JSON of what makes two runs the same (strategy,
        # first guess and options, rules, sample and seed where they matter, package version)
        """CREATE TABLE runs (
            id INTEGER PRIMARY KEY,
            key TEXT NOT NULL,
            created TEXT NOT NULL,
            strategy TEXT NOT NULL,
            options TEXT NOT NULL,
            rules TEXT NOT NULL,
            version TEXT NOT NULL,
            sample INTEGER,
            seed INTEGER,
            total INTEGER NOT NULL,
            max INTEGER NOT NULL,
            distribution TEXT NOT NULL,
            seconds REAL NOT NULL,
            record TEXT NOT NULL
        )""",
        "CREATE INDEX runs_by_key ON runs (key, id)",
    ],
    [
        # the web server's visitors: a game's visitor is NULL for the local games (command line,
        # terminal UI); ``visitors`` keeps each visitor's settings. The table is made again so that
        # ids are never reused (AUTOINCREMENT): the web server deletes a visitor's games that never
        # had a move, and an id a page still holds must not come to name another game.
        """CREATE TABLE games_v3 (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            kind TEXT NOT NULL,
            started TEXT NOT NULL,
            updated TEXT NOT NULL,
            rules TEXT NOT NULL,
            finished INTEGER NOT NULL,
            outcome TEXT NOT NULL,
            record TEXT NOT NULL,
            visitor TEXT
        )""",
        "INSERT INTO games_v3 (id, kind, started, updated, rules, finished, outcome, record) "
        "SELECT id, kind, started, updated, rules, finished, outcome, record FROM games",
        "DROP TABLE games",
        "ALTER TABLE games_v3 RENAME TO games",
        "CREATE INDEX games_by_kind ON games (kind, finished, id)",
        "CREATE INDEX games_by_visitor ON games (visitor, kind, finished, id)",
        """CREATE TABLE visitors (
            id TEXT PRIMARY KEY,
            created TEXT NOT NULL,
            seen TEXT NOT NULL,
            settings TEXT NOT NULL
        )""",
    ],
    [
        # a web visitor's games are numbered for that visitor (their second game is 2, whatever
        # other visitors played): the number the page shows and the API takes; NULL for a local game
        "ALTER TABLE games ADD COLUMN number INTEGER",
        "UPDATE games SET number = (SELECT COUNT(*) FROM games AS g WHERE g.visitor = games.visitor "
        "AND g.id <= games.id) WHERE visitor IS NOT NULL",
        "CREATE UNIQUE INDEX games_by_number ON games (visitor, number)",
    ],
    [
        # a seat at another visitor's game (a friend's match, kept under the visitor who made it):
        # the number it has among this visitor's games, so that their numbers never collide
        """CREATE TABLE seats (
            visitor TEXT NOT NULL,
            number INTEGER NOT NULL,
            game INTEGER NOT NULL,
            PRIMARY KEY (visitor, number)
        )""",
    ],
]

#: The schema version this package writes.
SCHEMA_VERSION = len(MIGRATIONS)
