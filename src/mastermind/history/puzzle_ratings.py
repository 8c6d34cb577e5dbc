"""The web visitors' puzzle ratings (``mastermind web``'s puzzles): one row per visitor, in a small
SQLite file beside the history (``puzzle-ratings.sqlite3``), so that the history's own schema is
untouched. A row keeps the visitor's rating and how many puzzles made it, the puzzle served now
and whether its first try was made (only the first try moves the rating), and the names of the
puzzles played (the next is one not played yet).

Every call is one short transaction, from the web server's history thread.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import StoreError

#: At most this many names of puzzles played are kept per visitor (the oldest go first).
DONE_LIMIT = 500


@dataclass
class Standing:
    """A visitor's puzzles: rating, puzzles rated, solved at the first try, the puzzle served now
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
        row = self.db.execute(
            "SELECT rating, puzzles, solved, current, tried, done FROM ratings WHERE visitor = ?", (visitor,)
        ).fetchone()
        if row is None:
            return Standing(self.start)
        rating, puzzles, solved, current, tried, done = row
        done = list(json.loads(done))
        return Standing(float(rating), int(puzzles), int(solved), current, bool(tried), done)

    def put(self, visitor: str, standing: Standing) -> None:
        """Keep ``visitor``'s standing (in one statement: whole or not at all)."""
        s = standing
        self.db.execute(
            "INSERT OR REPLACE INTO ratings VALUES (?, ?, ?, ?, ?, ?, ?)",
            (visitor, s.rating, s.puzzles, s.solved, s.current, int(s.tried), json.dumps(s.done)),
        )

    def close(self) -> None:
        self.db.close()
