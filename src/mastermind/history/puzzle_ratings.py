"""The players' puzzle standings: one row per player, in a small SQLite file beside the history
(:data:`FILE`), so that the history's own schema is untouched. A row keeps the player's rating and
how many puzzles made it, how many were solved at the first try, the puzzle served now and whether
its first try was made (only the first try moves the rating), and the names of the puzzles played
(the next is one not played yet). What those mean is the games package's
(:mod:`mastermind.games.puzzles`); here they are only kept.

A web visitor's row is under their key; the local player's (``mastermind review --puzzles``, the
terminal board) under :data:`LOCAL`, which no visitor's key can be (a hash of 64 hex digits). An
old ``puzzle-rating.json`` beside the history (where the command line kept a rating and a count
before) carries over into the local row the first time it is read.

Every call is one short transaction (the web server's from its history thread).
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import StoreError

#: The standings' file, beside the history database.
FILE = "puzzle-ratings.sqlite3"
#: The local player's row: the command line's and the terminal board's.
LOCAL = "local"
#: Where the command line kept the local player's rating and count before (read, never written).
OLD_FILE = "puzzle-rating.json"

#: At most this many names of puzzles played are kept per visitor (the oldest go first).
DONE_LIMIT = 500


@dataclass
class Standing:
    """A player's puzzles: rating, puzzles rated, solved at the first try, the puzzle served now
    (``current``, None before the first) and whether it was tried, and the puzzles played."""

    rating: float
    puzzles: int = 0
    solved: int = 0
    current: str | None = None
    tried: bool = False
    done: list[str] = field(default_factory=list)

    def played(self, name: str) -> None:
        """Count ``name`` played (kept once, the latest last)."""
        if name in self.done:
            self.done.remove(name)
        self.done = [*self.done, name][-DONE_LIMIT:]


class PuzzleRatings:
    """The visitors' puzzle standings, in the SQLite file at ``path``."""

    def __init__(self, path: Path, start: float) -> None:
        self.path, self.start = path, start
        try:
            self.db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False, timeout=5)
            self.db.execute(
                "CREATE TABLE IF NOT EXISTS ratings (visitor TEXT PRIMARY KEY, rating REAL, puzzles INTEGER,"
                " solved INTEGER, current TEXT, tried INTEGER, done TEXT)"
            )
        except sqlite3.Error as err:
            raise StoreError(f"the puzzle ratings {path} cannot be opened: {err}") from None

    def get(self, visitor: str) -> Standing:
        """``visitor``'s standing (a fresh one, at the start rating, for a new visitor)."""
        found = self.find(visitor)
        return Standing(self.start) if found is None else found

    def find(self, visitor: str) -> Standing | None:
        """``visitor``'s standing, or None where none is kept."""
        try:
            row = self.db.execute(
                "SELECT rating, puzzles, solved, current, tried, done FROM ratings WHERE visitor = ?",
                (visitor,),
            ).fetchone()
        except sqlite3.Error as err:
            raise StoreError(f"the puzzle ratings {self.path} cannot be read: {err}") from None
        if row is None:
            return None
        rating, puzzles, solved, current, tried, done = row
        done = list(json.loads(done))
        return Standing(float(rating), int(puzzles), int(solved), current, bool(tried), done)

    def put(self, visitor: str, standing: Standing) -> None:
        """Keep ``visitor``'s standing (in one statement: whole or not at all)."""
        s = standing
        try:
            self.db.execute(
                "INSERT OR REPLACE INTO ratings VALUES (?, ?, ?, ?, ?, ?, ?)",
                (visitor, s.rating, s.puzzles, s.solved, s.current, int(s.tried), json.dumps(s.done)),
            )
        except sqlite3.Error as err:
            raise StoreError(f"the puzzle ratings {self.path} cannot be written: {err}") from None

    def close(self) -> None:
        self.db.close()


class LocalStanding:
    """The local player's standing, kept beside the history at ``history`` (the row :data:`LOCAL`
    of :data:`FILE`): each read and each write opens the file, does one statement and closes it."""

    def __init__(self, history: Path, start: float) -> None:
        self.path, self.old, self.start = history.with_name(FILE), history.with_name(OLD_FILE), start

    def load(self) -> Standing:
        """The standing kept; where none is, an old ``puzzle-rating.json``'s rating and count (a
        fresh standing where there is neither, or the old file cannot be read)."""
        if self.path.exists():
            ratings = PuzzleRatings(self.path, self.start)
            try:
                found = ratings.find(LOCAL)
            finally:
                ratings.close()
            if found is not None:
                return found
        return old_standing(self.old, self.start)

    def save(self, standing: Standing) -> None:
        """Keep the standing (one statement: whole or not at all)."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise StoreError(f"the puzzle ratings {self.path} cannot be written: {err}") from None
        ratings = PuzzleRatings(self.path, self.start)
        try:
            ratings.put(LOCAL, standing)
        finally:
            ratings.close()


def old_standing(path: Path, start: float) -> Standing:
    """The standing an old ``puzzle-rating.json`` at ``path`` gives: its rating and its count of
    puzzles (nothing else was kept there); a fresh one where it is missing or cannot be read."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return Standing(float(data["rating"]), int(data["puzzles"]))
    except (OSError, ValueError, KeyError, TypeError):
        return Standing(start)
