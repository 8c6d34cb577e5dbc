"""One exact search in flight: its worker threads, the compiled calls they make, the scopes that
stop them together, and the book of results a resumed search reads back.

The compiled calls release the GIL, so the workers are Python threads; the main thread polls
them (:meth:`_Run.wait`), so Ctrl-C stops every compiled search at once.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from typing import TYPE_CHECKING

import numpy as np

from ...errors import TreeError
from .tables import FAIL, SearchGame, _kernel, new_memo
from .trees import check_tree

if TYPE_CHECKING:
    from ..base import PieceBook

#: Sets up to this size are solved in one compiled call (no parallel root).
SERIAL_SET = 48


def piece_limit(piece_size: int | None) -> int | None:
    """The largest set left as one piece when ``piece_size`` is asked for (None: the default
    cut): never below :data:`SERIAL_SET`, where the compiled search's shortcuts take over."""
    return None if piece_size is None else max(SERIAL_SET, piece_size)


#: Sets larger than the game's size over this are split over the workers: a smaller part keeps
#: more workers busy, a larger one prunes better within its one compiled call.
SPLIT = 4

#: First sizes of a worker's buffers, in int64 entries per code of the game (and a constant):
#: the compiled search stops if they are too small, and is run again with twice as much.
STACK_PER_CODE, ARENA_PER_CODE, BUFFER_EXTRA = 32, 16, 4096


class _Scope:
    """The searches of one attempt (a guess and its cells), nested in the attempt above it:
    when the attempt fails, every search in it (and below) is stopped."""

    def __init__(self, parent: _Scope | None) -> None:
        self.parent = parent
        self.ctls: dict[int, np.ndarray] = {}
        self.failed = False

    def chain(self) -> Iterator[_Scope]:
        scope: _Scope | None = self
        while scope is not None:
            yield scope
            scope = scope.parent

    def dead(self) -> bool:
        return any(s.failed for s in self.chain())


#: A set of the search: the guesses and replies that lead to it.
History = tuple[tuple[int, int], ...]


def key_of(kind: str, history: History, guess: int = -1) -> str:
    """The name of a set or guess of the search (the same in every run), as checkpoints keep it."""
    where = "/".join(f"{g}:{f}" for g, f in history) or "root"
    return f"{kind}:{where}" + (f"+{guess}" if kind == "guess" else "")


class _Run:
    """One search: its tables, its worker threads, and the compiled calls in flight."""

    def __init__(self, game: SearchGame, workers: int) -> None:
        self.game = game
        self.workers = workers
        self.pool = ThreadPoolExecutor(max_workers=workers)
        #: sets larger than this are split over the workers (their guesses' cells in parallel)
        self.split = max(SERIAL_SET, game.space.size // SPLIT) if workers > 1 else 1 << 62
        self.lock = threading.Lock()
        self.root = _Scope(None)
        self.stopped = False
        self.nodes = 0
        #: where the sets solved without a budget and the guesses tried are kept, and read back
        #: by a resumed run (None: nowhere); see :meth:`prior` and :meth:`keep`
        self.book: PieceBook | None = None
        self.book_lock = threading.Lock()
        self.checked: dict[str, tuple[int, np.ndarray | None]] = {}
        self.local = threading.local()

    def start(self, scope: _Scope) -> np.ndarray:
        ctl = np.zeros(_kernel().CTL, dtype=np.int64)
        with self.lock:
            if self.stopped or scope.dead():
                ctl[_kernel().STOP] = 1
            for s in scope.chain():
                s.ctls[id(ctl)] = ctl
        return ctl

    def finish(self, scope: _Scope, ctl: np.ndarray) -> None:
        with self.lock:
            for s in scope.chain():
                del s.ctls[id(ctl)]
            self.nodes += int(ctl[_kernel().NODES])

    def fail(self, scope: _Scope) -> None:
        with self.lock:
            scope.failed = True
            for ctl in scope.ctls.values():
                ctl[_kernel().STOP] = 1

    def interrupt(self) -> None:
        with self.lock:
            self.stopped = True
            for ctl in self.root.ctls.values():
                ctl[_kernel().STOP] = 1

    def prior(
        self,
        key: str,
        S: np.ndarray,
        left: int,
        guess: int | None = None,
    ) -> tuple[int, np.ndarray | None] | None:
        """What the book holds for a set (``guess`` None) or a guess at it: its least cost and
        tree (replayed against S first), or (tree None) the least it costs; None if nothing.

        Raises:
            Exception: the book's error for a record that does not fit (``damaged``).
        """
        book = self.book
        if book is None or key not in book.pieces:
            return None
        with self.book_lock:
            found = self.checked.get(key)
        if found is not None:
            return found
        line, cost, flat = book.pieces[key]
        if cost is None:
            raise book.damaged(line)
        if flat is not None:
            rules = self.game.space.rules
            assert rules is not None
            try:
                node = check_tree(rules, flat, S, left)
            except TreeError:
                raise book.damaged(line) from None
            if node.cost != cost or (guess is not None and node.guess != guess):
                raise book.damaged(line)
        with self.book_lock:
            self.checked[key] = (cost, flat)
        return cost, flat

    def keep(self, key: str, cost: int, flat: np.ndarray | None) -> None:
        """Put a result in the book (``flat`` None: the set or guess costs at least ``cost``),
        unless the book knows as much already."""
        if self.book is None or self.stopped:
            return
        with self.book_lock:
            known = self.checked.get(key)
            if known is not None and (known[1] is not None or known[0] >= cost):
                return
            self.book.record_piece(key, cost, flat)
            self.checked[key] = (cost, flat)

    def wait(self, futures, tick: Callable[[], None] | None = None) -> None:
        """Wait for the futures, polling so that Ctrl-C in this thread stops every search;
        ``tick()`` at each poll (a tenth of a second)."""
        pending = set(futures)
        try:
            while pending:
                _, pending = wait(pending, timeout=0.1, return_when=FIRST_COMPLETED)
                if tick is not None:
                    tick()
        except KeyboardInterrupt:
            self.interrupt()
            wait(pending)
            raise
        for future in futures:
            future.result()

    def root_guesses(
        self, scope: _Scope, S: np.ndarray, left: int, budget: int, sym: tuple[np.ndarray, int, np.int64]
    ) -> tuple[np.ndarray, np.ndarray]:
        """The game's root guesses at S, computed in another thread (seconds in a large game)
        while this one still hears Ctrl-C."""
        out: list = []

        def work() -> None:
            ctl = self.start(scope)
            try:
                out.append(self.game.root_guesses(S, left, budget, sym, ctl))
            except BaseException as err:  # handed to the caller below
                out.append(err)
            finally:
                self.finish(scope, ctl)

        worker = threading.Thread(target=work, name="mastermind-optimal-root", daemon=True)
        worker.start()
        try:
            while worker.is_alive():
                worker.join(0.1)
        except KeyboardInterrupt:
            self.interrupt()
            worker.join()
            raise
        if self.stopped:
            raise KeyboardInterrupt
        if isinstance(out[0], BaseException):
            raise out[0]
        return out[0]

    def cell_bounds(
        self, scope: _Scope, S: np.ndarray, left: int, sym: tuple[np.ndarray, int, np.int64], g: int
    ) -> np.ndarray | None:
        """The least guess bound of each cell of g at S (by reply, see the kernel); None if
        stopped meanwhile."""
        ctl = self.start(scope)
        try:
            group, m, used = sym
            out = _kernel().bound_cells(
                self.game.t,
                S,
                np.int64(g),
                np.int64(left),
                group,
                np.int64(m),
                used,
                self.game.new_counts(),
                self.game.new_bits(),
                ctl,
                np.int64(FAIL),
            )
        finally:
            self.finish(scope, ctl)
        return None if ctl[_kernel().STOP] else out

    def kernel_call(
        self,
        scope: _Scope,
        cell: np.ndarray,
        left: int,
        budget: int,
        sym: tuple[np.ndarray, int, np.int64],
        first: int = -1,
    ) -> tuple[int, np.ndarray | None]:
        """One compiled search, on this thread's buffers (grown if they were too small)."""
        t = self.game.t
        mine = self.local
        if not hasattr(mine, "stack"):
            size = self.game.space.size
            mine.stack = np.empty(STACK_PER_CODE * size + BUFFER_EXTRA, dtype=np.int64)
            mine.arena = np.empty(ARENA_PER_CODE * size + BUFFER_EXTRA, dtype=np.int64)
            mine.counts = self.game.new_counts()
            mine.bnd = np.empty(size, dtype=np.int64)
            mine.bits = self.game.new_bits()
            mine.rowbuf = np.empty(size, dtype=np.uint8)
            mine.memo = new_memo(size)
        group, m, used = sym
        while True:
            ctl = self.start(scope)
            try:
                cost = int(
                    _kernel().solve(
                        t,
                        cell,
                        left,
                        np.int64(min(budget, FAIL)),
                        group,
                        m,
                        used,
                        first,
                        mine.stack,
                        mine.arena,
                        ctl,
                        mine.counts,
                        mine.bnd,
                        mine.bits,
                        mine.rowbuf,
                        mine.memo,
                    )
                )
            finally:
                self.finish(scope, ctl)
            if ctl[_kernel().OVERFLOW]:
                mine.stack = np.empty(2 * len(mine.stack), dtype=np.int64)
                mine.arena = np.empty(2 * len(mine.arena), dtype=np.int64)
                continue
            if ctl[_kernel().STOP] or cost >= min(budget, FAIL):  # a failed search costs FAIL
                return FAIL, None
            return cost, mine.arena[: ctl[_kernel().END]].copy()
