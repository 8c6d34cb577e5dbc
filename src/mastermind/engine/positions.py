"""The values of positions, for the review: the least total of the codes still possible within
the guesses left, and a guess that reaches it, searched once and kept for a game size (in memory
and in the cache directory), since a position's value does not depend on the history that led to
it; and the clock that holds a move's search to its time budget."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import threading
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..core.records import package_version
from ..core.rules import Rules

if TYPE_CHECKING:
    from ..strategies.optimal.search import Solution

# -- the values of positions ---------------------------------------------------------------------

#: Version of the layout of the cached positions.
_CACHE_FORMAT = 1
#: At most this many positions are kept in one game's cache file (the oldest dropped first).
_CACHE_LIMIT = 200_000


class Positions:
    """The least total of a position (the codes possible and the guesses left) and a guess that
    reaches it, for one game size: exact, searched once and kept (the value of a position does
    not depend on the history that led to it, only on its codes and the guesses left)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.known: dict[str, tuple[int, int] | None] = {}
        self.new: dict[str, tuple[int, int] | None] = {}
        #: searches that ran out of time, with the seconds they had: not tried again with as few
        self.slow: dict[str, float] = {}
        self.new_slow: dict[str, float] = {}
        self.loaded = False
        self.warm = False
        self.lock = threading.Lock()

    @staticmethod
    def key(codes: np.ndarray, left: int) -> str:
        digest = hashlib.blake2b(codes.tobytes(), digest_size=16).hexdigest()
        return f"{left}:{digest}"

    def path(self):
        from ..core.records import cache_home

        r = self.rules
        name = f"{r.pegs}x{r.colors}{'' if r.repeats else '-norepeat'}-v{package_version()}.json"
        return cache_home() / "positions" / name

    def load(self) -> None:
        if self.loaded:
            return
        self.loaded = True
        try:
            data = json.loads(self.path().read_text())
            if data.get("format") == _CACHE_FORMAT:
                self.known.update({k: (None if v is None else (int(v[0]), int(v[1])))
                                   for k, v in data["positions"].items()})  # fmt: skip
                self.slow.update({k: float(v) for k, v in data.get("slow", {}).items()})
        except (OSError, ValueError, TypeError, KeyError, IndexError, AttributeError):
            pass  # no cache, or one that cannot be read: positions are searched again

    def save(self) -> None:
        """Add the positions searched since the last save to the cache file (atomically)."""
        if not self.new and not self.new_slow:
            return
        path = self.path()
        positions: dict[str, Any] = {}
        slow: dict[str, Any] = {}
        with contextlib.suppress(OSError, ValueError, AttributeError):  # none yet, or unreadable
            data = json.loads(path.read_text())
            positions, slow = data.get("positions", {}), data.get("slow", {})
        positions.update({k: None if v is None else list(v) for k, v in self.new.items()})
        slow.update(self.new_slow)
        if len(positions) > _CACHE_LIMIT:
            positions = dict(list(positions.items())[-_CACHE_LIMIT:])
        slow = {k: v for k, v in slow.items() if k not in positions}
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
            tmp.write_text(json.dumps({"format": _CACHE_FORMAT, "positions": positions, "slow": slow}))
            os.replace(tmp, path)
            self.new.clear()
            self.new_slow.clear()
        except OSError:
            pass  # an unwritable cache only costs the next review the searches

    def value(self, codes: np.ndarray, guesses: Sequence[int], left: int,
              clock: Clock) -> tuple[int, int] | None:  # fmt: skip
        """(least total, a guess reaching it) of ``codes`` within ``left`` guesses; None if no
        play finds them all in time. ``guesses``: the history's (prunes the search by symmetry).

        Raises:
            TimeoutError: the search ran past the clock's budget.
        """
        n = len(codes)
        if n == 1:
            return (1, int(codes[0])) if left >= 1 else None
        if n == 2:
            return (3, int(codes[0])) if left >= 2 else None
        if left < 2:
            return None
        key = self.key(codes, left)
        with self.lock:
            self.load()
            if key in self.known:
                return self.known[key]

        self._warm()
        sol = self._search(key, clock, codes, guesses, left)
        found = None if sol is None else (sol.cost, int(sol.flat[0]))
        with self.lock:
            self.known[key] = self.new[key] = found
        return found

    def _search(self, key: str, clock: Clock, codes: np.ndarray, guesses: Sequence[int], left: int,
                first: int | None = None) -> Solution | None:  # fmt: skip
        """The optimal search of a position (its first guess forced to ``first``), within the
        clock's budget; one that ran out of time before with as much is not tried again.

        Raises:
            TimeoutError: it ran past the budget (or did before, with as much time).
        """
        from ..strategies.optimal.search import solve_position

        given = clock.remaining()
        if given is not None and given <= self.slow.get(key, -1.0):
            raise TimeoutError("this search ran out of as much time before")
        clock.searched += 1
        try:
            return solve_position(self.rules, codes, guesses, left, first=first, timeout=given)
        except TimeoutError:
            if given is not None:
                with self.lock:
                    self.slow[key] = self.new_slow[key] = max(given, self.slow.get(key, 0.0))
            raise

    def _warm(self) -> None:
        """Load (or compile) the compiled search before any clock runs."""
        if not self.warm:
            from ..strategies.optimal.search import solve_position

            solve_position(self.rules, np.arange(3, dtype=np.int64), left=3)
            self.warm = True

    def after(self, codes: np.ndarray, guesses: Sequence[int], left: int, guess: int,
              cells: list[tuple[int, np.ndarray]], win: int, clock: Clock) -> int | None:  # fmt: skip
        """The least total of ``codes`` within ``left`` guesses when ``guess`` is played first
        (``cells``: the codes by their reply to it); None if some code cannot then be found in
        time. The cells are read where known; else one search with the guess forced solves them
        all at once, on every core, and each cell's value is kept.

        Raises:
            TimeoutError: the search ran past the clock's budget.
        """
        parts = [(f, cell) for f, cell in cells if f != win]
        useful = all(len(cell) < len(codes) for _, cell in parts)
        with self.lock:
            self.load()
            ready = all(len(cell) <= 2 or self.key(cell, left - 1) in self.known for _, cell in parts)
        if ready or not useful or left < 2:
            total = len(codes)
            for _, cell in parts:  # known, small, or a guess that tells nothing: cell by cell
                found = self.value(cell, [*guesses, guess], left - 1, clock)
                if found is None:
                    return None
                total += found[0]
            return total
        self._warm()
        sol = self._search(f"{self.key(codes, left)}:{guess}", clock, codes, guesses, left, guess)
        if sol is None:
            return None
        children = sol.tree().children
        with self.lock:
            for f, cell in parts:
                if len(cell) > 2:
                    child = children[f]
                    self.known[self.key(cell, left - 1)] = self.new[self.key(cell, left - 1)] = (
                        child.cost, child.guess)  # fmt: skip
        return sol.cost


#: The positions of each game known to this process, by the cache file that keeps them.
_POSITIONS: dict[str, Positions] = {}


def positions_of(rules: Rules) -> Positions:
    positions = Positions(rules)
    return _POSITIONS.setdefault(str(positions.path()), positions)


class Clock:
    """A move's time budget, started by its first search (after the search is loaded)."""

    def __init__(self, budget: float | None) -> None:
        self.budget = budget
        self.deadline: float | None = None
        self.searched = 0

    def remaining(self) -> float | None:
        if self.budget is None:
            return None
        now = time.monotonic()
        if self.deadline is None:
            self.deadline = now + self.budget
        left = self.deadline - now
        if left <= 0:
            raise TimeoutError("the budget is spent")
        return left
