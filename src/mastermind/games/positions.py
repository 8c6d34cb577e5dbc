"""The values of positions, for the review: the least total of the codes still possible within
the guesses left, and a guess that reaches it, searched once and kept for a game size (in memory
and in the cache directory), since a position's value does not depend on the history that led to
it; and the clock that holds a move's search to its time budget.

A position of at most :data:`SMALL` codes is solved here, in numpy (:class:`SmallPositions`):
it takes milliseconds, less than loading the compiled search, so that a review whose positions
are all small (most of a classic game once its opening is read from the book, see
:mod:`.openings`) never loads numba. Larger positions go to the compiled search. Both are exact,
so the totals are the same whichever solves a position; a small position's guess is always this
module's (the first in the order of its bound, then its code), so that a review shows the same
best guess whether or not the position was cached."""

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

#: Version of the cached positions: their layout, and which search gives a position its guess
#: (2: a position of at most SMALL codes takes the numpy search's guess, where that search
#: finishes). It is part of the file's name with the package's version, so a file written under
#: other rules is never read.
_CACHE_FORMAT = 2

#: Positions of at most this many codes are solved in numpy (:class:`SmallPositions`), not by
#: the compiled search: most classic positions of 64 codes take under 0.1 s there.
SMALL = 64

#: The numpy search of a small position gives up (to the compiled search) after this many
#: guesses bounded (positions searched times the game's codes): about 0.3 s in any game.
SMALL_WORK = 1 << 19


class TooLarge(Exception):
    """The numpy search of a small position ran past its share of :data:`SMALL_WORK`."""


class SmallPositions:
    """The exact least total of a small position within the guesses left, and a guess reaching
    it, by a branch and bound in numpy (no compiled kernel).

    Each guess of the game is bounded by its cells: a cell of k codes needs at least the total of
    a perfect split (one code found at its first guess, b at the second, b**2 at the third...,
    b the number of replies other than the win), and a cell larger than a perfect split can find
    in the guesses left rules the guess out. Guesses are tried in the order (bound, code), each
    distinct split once, and a guess's search stops as soon as its cells solved so far and the
    bounds of the rest reach the best total found. Values are kept for the process. A search
    that visits more than :data:`SMALL_WORK` / (the game's codes) positions stops
    (:class:`TooLarge`): the caller then asks the compiled search, which is faster there. The
    count is the same whatever this process searched before (a position found in the memo
    counts the positions its own search visited), so the same position always goes the same
    way: its guess is always this class's,
    or always the compiled search's."""

    def __init__(self, rules: Rules) -> None:
        from ..core.code import CodeSpace
        from ..core.feedback import possible_feedbacks

        self.space = CodeSpace.of(rules)
        self.win = rules.pegs * (rules.pegs + 1)
        self.classes = (rules.pegs + 1) ** 2
        self.everything = np.arange(self.space.size, dtype=np.int64)
        #: (value, the positions its search visits, those found here counted as if searched again)
        self.memo: dict[tuple[bytes, int], tuple[tuple[int, int] | None, int]] = {}
        self.large: set[tuple[bytes, int]] = set()
        b = len(possible_feedbacks(rules.pegs, rules.colors, rules.repeats)) - 1
        # least[k]: the total of k codes split perfectly; cap[d]: the most codes d guesses find
        self.least = np.zeros(SMALL + 1, dtype=np.int64)
        self.cap = [0]
        depth, at_depth, used = 1, 1, 0
        for k in range(1, SMALL + 1):
            if used == at_depth:
                depth, at_depth, used = depth + 1, at_depth * b, 0
            used += 1
            self.least[k] = self.least[k - 1] + depth
        while self.cap[-1] <= SMALL:
            self.cap.append(1 + b * self.cap[-1])
        self.nodes = 0
        self.limit = max(1, SMALL_WORK // self.space.size)

    def solve(self, codes: np.ndarray, left: int) -> tuple[int, int] | None:
        """(least total, the guess reaching it) of ``codes`` (sorted code indices, at most
        :data:`SMALL`) within ``left`` guesses; None if no play finds them all in time.

        Raises:
            TooLarge: the search visited more positions than :data:`SMALL_WORK` allows.
        """
        self.nodes = 0
        if len(codes) > 2 and len(codes) >= len(self.least):
            raise TooLarge
        return self._solve(codes, left)

    def _solve(self, codes: np.ndarray, left: int) -> tuple[int, int] | None:
        n = len(codes)
        if n == 1:
            return (1, int(codes[0])) if left >= 1 else None
        if left < len(self.cap) and n > self.cap[left]:
            return None
        if n == 2:
            return 3, int(codes[0])
        key = (codes.tobytes(), left)
        if key in self.large:
            raise TooLarge
        if key in self.memo:
            found, cost = self.memo[key]
            self.nodes += cost
            if self.nodes > self.limit:
                raise TooLarge
            return found
        start = self.nodes
        self.nodes += 1
        if self.nodes > self.limit:
            raise TooLarge
        try:
            best = self._search(codes, left)
        except TooLarge:
            if start == 0:
                self.large.add(key)
            raise
        self.memo[key] = (best, self.nodes - start)
        return best

    def _search(self, codes: np.ndarray, left: int) -> tuple[int, int] | None:
        n = len(codes)
        from .._kernels.reference import feedback_block

        replies = feedback_block(self.space, self.everything, codes)  # guesses x codes
        size, k = self.space.size, self.classes
        flat = replies.astype(np.int64) + (np.arange(size, dtype=np.int64) * k)[:, None]
        counts = np.bincount(flat.ravel(), minlength=size * k).reshape(size, k)
        counts[:, self.win] = 0
        bounds = n + self.least[counts].sum(axis=1)
        largest = counts.max(axis=1)
        room = self.cap[left - 1] if left - 1 < len(self.cap) else n
        # a guess that splits nothing only wastes one; one that leaves a cell too large, loses
        useful = np.nonzero((largest < n) & (largest <= room))[0]
        order = useful[np.lexsort((useful, bounds[useful]))]
        best: tuple[int, int] | None = None
        seen: set[bytes] = set()
        for g in order.tolist():
            bound = int(bounds[g])
            if best is not None and bound >= best[0]:
                break
            row = replies[g]
            split = row.tobytes()
            if split in seen:
                continue
            seen.add(split)
            total, rest = n, bound - n
            for f in np.unique(row).tolist():
                if f == self.win:
                    continue
                cell = codes[row == f]
                rest -= int(self.least[len(cell)])
                found = self._solve(cell, left - 1)
                if found is None:
                    break
                total += found[0]
                if best is not None and total + rest >= best[0]:
                    break
            else:
                if best is None or total < best[0]:
                    best = (total, g)
        return best


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
        self.small = SmallPositions(rules)
        self.seeded: dict[str, tuple[int, int]] = {}

    @staticmethod
    def key(codes: np.ndarray, left: int) -> str:
        digest = hashlib.blake2b(codes.tobytes(), digest_size=16).hexdigest()
        return f"{left}:{digest}"

    def path(self):
        from ..core.records import cache_home

        r = self.rules
        name = (
            f"{r.pegs}x{r.colors}{'' if r.repeats else '-norepeat'}-v{package_version()}"
            f"-f{_CACHE_FORMAT}.json"
        )
        return cache_home() / "positions" / name

    def load(self) -> None:
        if self.loaded:
            return
        self.loaded = True
        try:
            data = json.loads(self.path().read_text())
            if data.get("format") == _CACHE_FORMAT:
                self.known.update(
                    {k: (None if v is None else (int(v[0]), int(v[1]))) for k, v in data["positions"].items()}
                )
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

    def seed(self, codes: np.ndarray, left: int, value: tuple[int, int]) -> None:
        """Take the value of a position known elsewhere (the book of openings): kept for the
        process, before any search (small positions included), and not written to the cache."""
        with self.lock:
            self.seeded[self.key(codes, left)] = value

    def value(
        self, codes: np.ndarray, guesses: Sequence[int], left: int, clock: Clock
    ) -> tuple[int, int] | None:
        """(least total, a guess reaching it) of ``codes`` within ``left`` guesses; None if no
        play finds them all in time. ``guesses``: the history's (prunes the search by symmetry).

        Raises:
            TimeoutError: the search ran past the clock's budget.
        """
        n = len(codes)
        if n <= 2:
            return self.small.solve(np.asarray(codes, dtype=np.int64), left)
        key = self.key(codes, left)
        with self.lock:
            if key in self.seeded:
                return self.seeded[key]
            self.load()
            if key in self.known:
                return self.known[key]
            if n <= SMALL:
                with contextlib.suppress(TooLarge):
                    found = self.small.solve(np.asarray(codes, dtype=np.int64), left)
                    self.known[key] = self.new[key] = found
                    return found
        if left < 2:
            return None

        self._warm()
        sol = self._search(key, clock, codes, guesses, left)
        found = None if sol is None else (sol.cost, int(sol.flat[0]))
        with self.lock:
            self.known[key] = self.new[key] = found
        return found

    def search(self, codes: np.ndarray, left: int, clock: Clock) -> Solution | None:
        """The optimal search of a position with no history (the whole game, say), within the
        clock's budget, its value kept as :meth:`value` keeps one; None if no play finds every
        code within ``left`` guesses.

        Raises:
            TimeoutError: it ran past the budget (or did before, with as much time), or the
                compiled search is not compiled yet where the process must not wait.
        """
        with self.lock:
            self.load()  # (what ran out of time before, too)
        self._warm()
        key = self.key(codes, left)
        sol = self._search(key, clock, codes, (), left)
        with self.lock:
            self.known[key] = self.new[key] = None if sol is None else (sol.cost, int(sol.flat[0]))
        return sol

    def _search(
        self,
        key: str,
        clock: Clock,
        codes: np.ndarray,
        guesses: Sequence[int],
        left: int,
        first: int | None = None,
    ) -> Solution | None:
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
        """Load (or compile) the compiled search before any clock runs. A process that must not
        wait for the compiler (:func:`mastermind._kernels.compiled.never_wait`) has it compiled in
        the background instead, the first time, and values this move otherwise.

        Raises:
            TimeoutError: the compiled search is not compiled yet, where the process must not wait.
        """
        if not self.warm:
            from .._kernels.compiled import compile_in_background, waits

            if waits("exact"):
                compile_in_background("exact")
                raise TimeoutError("the compiled search is not compiled yet")
            from ..strategies.optimal.search import solve_position

            solve_position(self.rules, np.arange(3, dtype=np.int64), left=3)
            self.warm = True

    def after(
        self,
        codes: np.ndarray,
        guesses: Sequence[int],
        left: int,
        guess: int,
        cells: list[tuple[int, np.ndarray]],
        win: int,
        clock: Clock,
    ) -> int | None:
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
            ready = all(
                len(cell) <= SMALL
                or self.key(cell, left - 1) in self.known
                or self.key(cell, left - 1) in self.seeded
                for _, cell in parts
            )
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
                if len(cell) > SMALL:  # a small cell's guess is the numpy search's (see value)
                    child = children[f]
                    self.known[self.key(cell, left - 1)] = self.new[self.key(cell, left - 1)] = (
                        child.cost,
                        child.guess,
                    )
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
