"""The exact optimal strategy's search, from any position (Koyama and Lai 1993).

:func:`solve_position` finds the least total number of guesses over the secrets still possible
(the expected case times their number), within the guesses left, and a tree that reaches it.
The compiled search is in :mod:`mastermind._kernels.exact`; this module runs it on all cores
from Python threads (the compiled calls release the GIL): see :func:`_solve_set`. The main
thread polls the workers, so Ctrl-C stops every compiled search at once. The tree found does
not depend on the number of workers or on the order in which their work finishes.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from ..._kernels.tables import tables_of
from ...core.code import CodeSpace
from ...core.feedback import possible_feedbacks
from ...core.rules import Rules
from ...core.tree import Node
from ...deduction.state import SolverState
from ...errors import ExecutorError, StrategyError, TreeError
from ..piece_control import running, usable_cores
from ..progress import OnProgress, Progress
from .tie_break import Race

if TYPE_CHECKING:
    from ..base import PieceBook

#: tick(cells of a guess solved, of how many)
Tick = Callable[[int, int], None]

#: Sets up to this size are solved in one compiled call (no parallel root).
SERIAL_SET = 48


def piece_limit(piece_size: int | None) -> int | None:
    """The largest set left as one piece when ``piece_size`` is asked for (None: the default
    cut): never below :data:`SERIAL_SET`, where the compiled search's shortcuts take over."""
    return None if piece_size is None else max(SERIAL_SET, piece_size)


#: Sets larger than the game's size over this are split over the workers (4 was best of 4, 8 and
#: 16 on 4x7 and Bulls and Cows, with the machine lightly loaded).
SPLIT = 4

#: First sizes of a worker's buffers, in int64 entries per code of the game (and a constant):
#: the compiled search stops if they are too small, and is run again with twice as much.
STACK_PER_CODE, ARENA_PER_CODE, BUFFER_EXTRA = 32, 16, 4096

#: The cells of at least PRE_CELL secrets of a guess at a node of at least PRE_NODE are bounded
#: (their least guess bound) before the guess's cells are solved (see the kernel). Smaller ones
#: cost more to bound than they save (measured: docs/optimal.md).
PRE_NODE, PRE_CELL = 100, 60

#: A set searched by the driver first bounds each of its guesses with its cells' own least guess
#: bounds (one level down), when that costs at most IMPROVE_WORK reply look-ups (guesses x secrets
#: x codes): the guesses are then explored in that order and pruned by it (see :func:`_solve_set`).
#: The whole game is bounded so once per search, so it may cost more, up to ROOT_IMPROVE_WORK:
#: 5x7's root 0.6 s (from the reply matrix), 5x8's 20 s (replies computed), against a search of
#: hours or days whose first guesses are then explored and pruned by far better bounds (5x7: 11234
#: 80,647 instead of 78,873; 11111 89,281, above the best tree known). 6x6's root is beyond it.
IMPROVE_WORK, ROOT_IMPROVE_WORK = 1 << 30, 1 << 34


def improves(guesses: int, secrets: int, codes: int) -> bool:
    """Whether a set of ``secrets`` (of a game of ``codes``) bounds its ``guesses`` one level
    down first: see :data:`IMPROVE_WORK`.

    >>> improves(7, 16807, 16807), improves(500, 3402, 16807), improves(1, 16807, 16807)
    (True, False, False)
    """
    limit = ROOT_IMPROVE_WORK if secrets == codes else IMPROVE_WORK  # the whole game: its root
    return guesses > 1 and guesses * secrets * codes <= limit


#: Each worker thread's memo of sets searched (see the kernel): int64 entries per code of the game,
#: at most MEMO_LIMIT (64 MB; numpy's zeroed memory is only taken as it is written), with a table
#: slot for every MEMO_PER_SLOT entries. Emptied when full: only the speed depends on it.
MEMO_PER_CODE, MEMO_LIMIT, MEMO_PER_SLOT = 2048, 1 << 23, 16

#: Largest game whose reply matrix (size**2 bytes, 400 MB at this size) is built: 5 pegs 7
#: colours (282 MB) is searched three times as fast with it. Larger games (5x8's would be 1 GB
#: in every process) compute each reply where it is needed (slower, and the same tree).
MATRIX_LIMIT = 20_000


def _kernel():
    """The compiled search, imported (numba with it) only when a search is made."""
    from ..._kernels import exact as optimal

    return optimal


def _feedback():
    from ..._kernels import feedback

    return feedback


@dataclass
class OptimalNode(Node):
    """A node of an optimal tree (a strategy tree, :class:`~mastermind.core.tree.Node`) with the
    total number of guesses its secrets still need, this one included."""

    cost: int = 0
    children: dict[int, OptimalNode] = field(default_factory=dict)  # type: ignore[assignment]


@dataclass(frozen=True)
class Solution:
    """The least total of a position and a tree reaching it (preorder, see the kernel)."""

    cost: int
    flat: np.ndarray

    def tree(self) -> OptimalNode:
        return parse(self.flat)


def parse(flat: np.ndarray) -> OptimalNode:
    """The tree of a preorder array: ``guess, 2 * k + w`` then k times ``reply, node`` (w: the
    guess is one of the node's secrets)."""
    values = flat.tolist()

    def node(i: int) -> tuple[OptimalNode, int]:
        guess, code = values[i], values[i + 1]
        if code < 1:
            raise TreeError("a node with neither cells nor a win")
        i += 2
        out = OptimalNode(guess=guess, size=0, cost=0)
        for _ in range(code >> 1):
            reply = values[i]
            if reply in out.children:
                raise TreeError("a reply twice at one node")
            child, i = node(i + 1)
            out.children[reply] = child
        out.size = (code & 1) + sum(c.size for c in out.children.values())
        out.cost = out.size + sum(c.cost for c in out.children.values())
        return out, i

    root, end = node(0)
    if end != len(values):
        raise TreeError("trailing entries after the tree")
    return root


class SearchGame:
    """The compiled search's tables for one game (built once per game and process)."""

    def __init__(self, rules: Rules, matrix: bool) -> None:
        space = CodeSpace.of(rules)
        space.require_enumerable()
        self.space = space
        self.codes = codes = tables_of(space)
        b = len(possible_feedbacks(rules.pegs, rules.colors, rules.repeats)) - 1
        lb, dmin = _kernel().bounds(space.size, b)
        lbk = _kernel().bounds_by_replies(space.size, b)
        cmask = np.zeros(space.size, dtype=np.int64)
        for i in range(rules.pegs):
            cmask |= np.int64(1) << codes.digits[:, i].astype(np.int64)
        dlb = np.zeros(space.size + 1, dtype=np.int64)
        dlb[:-1] = np.diff(lb)
        fbm = _kernel().reply_matrix(codes) if matrix else np.zeros((0, 0), dtype=np.uint8)
        self.t = _kernel().SearchTables(
            fbm,
            codes,
            codes.digits,
            cmask,
            lb,
            dlb,
            dmin,
            rules.pegs,
            rules.colors,
            rules.repeats,
            b,
            lbk,
            PRE_NODE,
            PRE_CELL,
        )
        self.win = rules.pegs * (rules.pegs + 1)
        #: cell counts fit 16 bits below 65,536 codes
        self.count_type = np.uint16 if space.size < 1 << 16 else np.uint32
        #: a guess's replies as a bit mask fit 32 bits up to 5 pegs (the win is reply 30): half
        #: the memory of 64 bits, read and written once per secret at every set bounded
        self.mask_type = np.uint32 if self.win < 32 else np.uint64

    def new_counts(self) -> np.ndarray:
        """Zeroed cell-count scratch for the compiled search."""
        return np.zeros(self.space.size * (self.t.pegs + 1) ** 2, dtype=self.count_type)

    def root_guesses(
        self,
        S: np.ndarray,
        left: int,
        budget: int,
        sym: tuple[np.ndarray, int, np.int64],
        ctl: np.ndarray | None = None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """The guesses the search tries at S, in its order, and their bounds (see the kernel)."""
        if ctl is None:
            ctl = np.zeros(_kernel().CTL, dtype=np.int64)
        codes, bounds = _kernel().root_guesses(
            self.t, S, left, np.int64(budget), *sym, self.new_counts(), ctl
        )
        order = np.lexsort((codes, bounds))  # by bound, then code
        return codes[order], bounds[order]

    def group(self, guesses: Sequence[int]) -> tuple[np.ndarray, int, np.int64]:
        g, m, used = _kernel().history_group(
            self.t.digits, np.asarray(guesses, dtype=np.int64), self.t.pegs, self.t.colors
        )
        return g, int(m), np.int64(used)


_GAMES: dict[tuple[int, int, bool, bool], SearchGame] = {}
_GAMES_LOCK = threading.Lock()


def game_of(rules: Rules) -> SearchGame:
    matrix = rules.size <= MATRIX_LIMIT
    key = (rules.pegs, rules.colors, rules.repeats, matrix)
    with _GAMES_LOCK:
        if key not in _GAMES:
            if len(_GAMES) >= 2:
                _GAMES.pop(next(iter(_GAMES)))
            _GAMES[key] = SearchGame(rules, matrix)
        return _GAMES[key]


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

#: Sets of at least this many secrets, below the root, are kept in a search's book (smaller
#: ones are searched again in less time than reading them back takes).
BOOK_SET = 64


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
            out = _kernel().cell_bounds(
                self.game.t,
                S,
                np.int64(g),
                np.int64(left),
                group,
                np.int64(m),
                used,
                self.game.new_counts(),
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
            mine.bits = np.empty(size, dtype=self.game.mask_type)
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


FAIL = 1 << 60  # the kernel's BIG: no tree


def new_memo(size: int) -> np.ndarray:
    """A worker's empty memo for a game of ``size`` codes (an empty array: no memo, when
    MEMO_PER_CODE or MEMO_LIMIT leave too little room for one)."""
    entries = min(MEMO_LIMIT, MEMO_PER_CODE * size)
    if entries < 1024:
        return np.zeros(0, dtype=np.int64)
    slots = 1 << max(4, (entries // MEMO_PER_SLOT).bit_length() - 1)
    return _kernel().new_memo(entries, slots)


def _leaf(game: SearchGame, cell: np.ndarray) -> tuple[int, np.ndarray]:
    """Exact tree of one or two secrets."""
    if len(cell) == 1:
        return 1, np.array([cell[0], 1], dtype=np.int64)
    a, b = int(cell[0]), int(cell[1])
    return 3, np.array([a, 3, _feedback().replies(game.codes, a, cell[1:])[0], b, 1], dtype=np.int64)


def solve_position(
    rules: Rules,
    secrets: np.ndarray,
    guesses: Sequence[int] = (),
    left: int | None = None,
    *,
    first: int | None = None,
    progress: OnProgress | None = None,
    workers: int | None = None,
    timeout: float | None = None,
) -> Solution | None:
    """The least total number of guesses that finds every secret of ``secrets`` within ``left``
    guesses (default: what the rules leave after ``guesses``), and a tree reaching it; None if no
    tree can. ``guesses`` are the codes played so far (their symmetry prunes the search);
    ``first`` forces the position's guess. ``progress`` hears of the pieces of the search at the
    position (stage ``"search"``): the cells (replies) of its first guess, then the other guesses
    left to try after pruning (with one guess only, as in Bulls and Cows, the bar still moves).
    ``timeout``: seconds after which the search stops.

    Raises:
        KeyboardInterrupt: when interrupted; every compiled search has stopped by then.
        TimeoutError: the search ran past ``timeout`` (and has stopped); nothing is known then.
    """

    game = game_of(rules)
    S = np.unique(np.asarray(secrets, dtype=np.int64))
    if left is None:
        left = rules.max_guesses - len(guesses)
    if len(S) == 0:
        raise StrategyError("there are no secrets to search: the replies leave none")
    if left < int(game.t.dmin[len(S)]):
        return None
    run = _Run(game, max(1, workers or usable_cores()))
    expired = threading.Event()
    timer = None
    if timeout is not None:

        def expire() -> None:
            expired.set()
            run.interrupt()

        timer = threading.Timer(max(0.0, timeout), expire)
        timer.daemon = True
        timer.start()
    try:
        cost, flat = _solve_set(run, run.root, S, list(guesses), left, FAIL, first, progress)
    except BaseException as err:  # Ctrl-C (or a failing progress callback): stop every search first
        run.interrupt()
        if expired.is_set() and isinstance(err, KeyboardInterrupt):
            raise TimeoutError(f"the search ran past {timeout} s") from None
        raise
    finally:
        if timer is not None:
            timer.cancel()
        run.pool.shutdown(wait=True)
    if expired.is_set():  # a stopped search returns no tree, or a tree that may not be the best
        raise TimeoutError(f"the search ran past {timeout} s")
    return None if flat is None else Solution(cost, to_flat(parse(flat)))


def to_flat(root: OptimalNode) -> np.ndarray:
    """The preorder array of a tree, each node's cells in increasing order of reply."""
    out: list[int] = []
    stack: list[tuple[int, OptimalNode]] = [(-1, root)]
    while stack:
        reply, node = stack.pop()
        if reply >= 0:
            out.append(reply)
        wins = node.size - sum(c.size for c in node.children.values())
        out += [node.guess, 2 * len(node.children) + wins]
        stack.extend((f, node.children[f]) for f in sorted(node.children, reverse=True))
    return np.array(out, dtype=np.int64)


class Record:
    """What the root of a search tells as it goes (for bounds at any time: see ``anytime``).
    Called from worker threads; this one does nothing."""

    def roots(
        self, roots: list[tuple[int, int]], improved: list[int], first: int, cells: np.ndarray | None
    ) -> None:
        """The guesses to try at the root, in the order of the choice (bound, then code), with
        their bounds; the bounds with their cells bounded one level down; the rank of the guess
        searched first (its cells solved one by one), and its cells' own bounds (by reply)."""

    def cell(self, reply: int, cost: int, flat: np.ndarray) -> None:
        """A cell of the first root guess solved: its least cost and tree."""

    def tried(self, guess: int, cost: int, flat: np.ndarray | None, limit: int) -> None:
        """A root guess searched below ``limit``: its least cost and tree (the first root guess
        included), or no tree (flat None): then it costs at least ``limit``."""


def _solve_set(
    run: _Run,
    scope: _Scope,
    S: np.ndarray,
    guesses: list[int],
    left: int,
    budget: int,
    first: int | None = None,
    progress: OnProgress | None = None,
    record: Record | None = None,
    history: History = (),
) -> tuple[int, np.ndarray | None]:
    """The least cost of S if below ``budget``, and its tree; (FAIL, None) otherwise.

    Small sets are one compiled call. Larger ones try their guesses in the compiled search's
    order (bound, then code), by the rules of :class:`.race.Race`. While no budget binds (the
    first guess of a set searched without one), the cells of that guess are independent and are
    solved at once on the workers (large cells by this function, from this thread). The other
    guesses are then tried in parallel, one compiled call each, with the budget the race gives.
    ``record`` hears about this level's guesses and the first guess's cells as they are done.
    """
    game = run.game
    n = len(S)
    if n <= 2:
        if left < int(game.t.dmin[n]):
            return FAIL, None
        leaf_cost, leaf = _leaf(game, S)
        return (leaf_cost, leaf) if leaf_cost < budget else (FAIL, None)
    sym = game.group(guesses)
    if first is None and n <= run.split and record is None:
        future = run.pool.submit(run.kernel_call, scope, S, left, budget, sym)
        run.wait([future])
        cost, flat = future.result()
        if progress:
            progress(Progress("search", 1, 1, 0, n, None if flat is None else cost, flat))
        return cost, flat
    if first is not None:
        roots = [(int(first), 0)]
    else:
        codes, bounds = run.root_guesses(scope, S, left, budget, sym)
        roots = list(zip(codes.tolist(), bounds.tolist(), strict=True))
    # The guesses are tried in the order of their bounds with their cells bounded one level
    # down, where that is cheap: the first one's cells are solved exactly, and a better first
    # guess gives the others a tighter budget. The guess kept is still the first in the order
    # (bound, code) to reach the least total (ranks below), so the tree is the same.
    improved = [b for _, b in roots]
    cells_of: dict[int, np.ndarray] = {}
    if record is not None or improves(len(roots), n, game.space.size):
        jobs = {r: run.pool.submit(run.cell_bounds, scope, S, left, sym, g) for r, (g, _) in enumerate(roots)}
        run.wait(list(jobs.values()))
        for rank, job in jobs.items():
            below = job.result()
            if below is not None:
                cells_of[rank] = below
                improved[rank] = max(improved[rank], min(n + sum(int(c) for c in below), FAIL))
    if run.stopped:
        raise KeyboardInterrupt
    explore = sorted(range(len(roots)), key=lambda r: (improved[r], r))
    e0 = explore[0] if explore else 0
    if record is not None:
        record.roots(roots, improved, e0, cells_of.get(e0))
    race = Race([(g, improved[r]) for r, (g, _) in enumerate(roots)], budget)  # pruned by the better bound
    lock = threading.Lock()
    cells = (0, 0)  # cells of the first guess solved, of how many (when it is split)
    start = 1 if budget >= FAIL and roots else 0

    def report() -> None:
        if progress:
            with lock:
                solved, of = cells  # (read once: a worker's tick may replace it meanwhile)
                done = solved + len(race.searched - {e0} if start else race.searched)
                waiting = race.waiting() - (1 if start and e0 not in race.searched else 0)
                best = race.best
                found = None if best.tree is None else best.cost
                progress(
                    Progress(
                        "search", done, done + waiting + of - solved, 0, n, found, best.tree, race.settled()
                    )
                )

    def tick(done: int, of: int) -> None:
        nonlocal cells
        with lock:  # (workers tick outside their own lock: a later count may come first)
            cells = (max(done, cells[0]), of)
        report()

    if start:
        g = roots[e0][0]
        cost, flat = _split_guess(
            run,
            scope,
            S,
            guesses,
            left,
            g,
            tick if progress else None,
            None if record is None else record.cell,
            history,
        )
        if flat is not None:
            run.keep(key_of("guess", history, g), cost, flat)
        race.offer(e0, cost, flat)
        if record is not None:
            record.tried(g, cost, flat, FAIL)
        cells = (cells[1], cells[1])
        report()

    def attempt(rank: int, g: int) -> None:
        limit = race.budget(rank)
        if limit is None:
            if record is not None:
                record.tried(g, FAIL, None, improved[rank])
            return
        prior = priors.get(g)
        if prior is not None and prior[0] >= limit:  # an earlier run proved it cannot win
            cost, flat = FAIL, None
        elif prior is not None and prior[1] is not None:  # solved by an earlier run: its tree
            cost, flat = prior
        else:
            cost, flat = run.kernel_call(scope, S, left, limit, sym, g)
            if flat is not None or (limit < FAIL and not scope.dead()):  # (not cut short)
                run.keep(key_of("guess", history, g), cost if flat is not None else limit, flat)
        if record is not None and not run.stopped:
            record.tried(g, cost, flat, limit)
        race.offer(rank, cost, flat)
        report()

    # What a book holds of these guesses, read (and checked) here, before the workers start.
    priors: dict[int, tuple[int, np.ndarray | None]] = {}
    for r in explore:
        found = run.prior(key_of("guess", history, roots[r][0]), S, left, roots[r][0])
        if found is not None:
            priors[roots[r][0]] = found
    futures = [run.pool.submit(attempt, r, roots[r][0]) for r in explore if not (start and r == e0)]
    run.wait(futures)
    if run.stopped:
        raise KeyboardInterrupt
    best = race.best
    return (best.cost, best.tree) if best.tree is not None else (FAIL, None)


def _split_guess(
    run: _Run,
    scope: _Scope,
    S: np.ndarray,
    guesses: list[int],
    left: int,
    g: int,
    tick: Tick | None = None,
    on_cell: Callable[[int, int, np.ndarray], None] | None = None,
    history: History = (),
) -> tuple[int, np.ndarray | None]:
    """cost(S | g) with no budget: every cell at once on the workers, largest first;
    ``tick(cells solved, cells)`` and ``on_cell(reply, cost, tree)`` as they are solved. S is
    the set after ``history``: its cells are kept in the run's book (the root's all, others
    of at least :data:`BOOK_SET` secrets), and those the book holds are taken from it."""
    game = run.game
    n = len(S)
    split = _feedback().cells(game.codes, g, S)
    cells = {f: cell for f, cell in split if f != game.win}
    found = len(cells) < len(split)
    if any(len(c) == n or int(game.t.dmin[len(c)]) > left - 1 for c in cells.values()):
        return FAIL, None  # useless, or too slow for the guess limit (only if forced)
    below = [*guesses, g]
    child_sym = game.group(below)
    attempt = _Scope(scope)
    known: dict[int, int] = {}
    trees: dict[int, np.ndarray] = {}
    lock = threading.Lock()

    def solved(f: int, cost: int, flat: np.ndarray | None) -> None:
        with lock:
            if flat is None:
                run.fail(attempt)
            else:
                known[f], trees[f] = cost, flat
            done = len(known)
        if flat is not None and f in kept:
            run.keep(key_of("set", (*history, (g, f))), cost, flat)
        if on_cell is not None and flat is not None and not run.stopped:
            on_cell(f, cost, flat)
        if tick:
            tick(done, len(cells))

    def task(f: int, cell: np.ndarray) -> None:
        if attempt.dead():
            return
        solved(f, *run.kernel_call(attempt, cell, left - 1, FAIL, child_sym))

    by_size = sorted(cells, key=lambda f: (-len(cells[f]), f))
    futures = []
    kept = {f for f in by_size if len(cells[f]) > 2 and (not history or len(cells[f]) >= BOOK_SET)}
    for f in sorted(kept):
        earlier = run.prior(key_of("set", (*history, (g, f))), cells[f], left - 1)
        if earlier is not None and earlier[1] is not None:
            known[f], trees[f] = earlier[0], earlier[1]
            if on_cell is not None:
                on_cell(f, earlier[0], earlier[1])
    by_size = [f for f in by_size if f not in known]
    for f in by_size:
        if len(cells[f]) <= 2:
            known[f], trees[f] = _leaf(game, cells[f])
            if on_cell is not None:
                on_cell(f, known[f], trees[f])
    if tick:
        tick(len(known), len(cells))
    for f in by_size:
        if 2 < len(cells[f]) <= run.split:
            futures.append(run.pool.submit(task, f, cells[f]))
    for f in by_size:
        if len(cells[f]) > run.split and not attempt.dead():
            solved(f, *_solve_set(run, attempt, cells[f], below, left - 1, FAIL, history=(*history, (g, f))))
    run.wait(futures)
    if run.stopped:
        raise KeyboardInterrupt
    if attempt.dead():
        return FAIL, None
    parts = [np.array([g, 2 * len(cells) + int(found)], dtype=np.int64)]
    for f in sorted(cells):
        parts.append(np.array([f], dtype=np.int64))
        parts.append(trees[f])
    return n + sum(known.values()), np.concatenate(parts)


# -- pieces of a search, solved anywhere ---------------------------------------------------------
#
# The search of a game can be cut into pieces that any process solves from a short description
# (see :func:`.split.search_in_pieces`): a set of secrets after a history, with a budget, and
# possibly a guess forced there.


def piece_secrets(rules: Rules, history: Sequence[tuple[int, int]]) -> np.ndarray:
    """The secrets (ascending code indices) that give ``history``'s (guess, reply) pairs."""
    return SolverState.after(rules, history).candidate_indices()


_PIECE_RUNS = threading.local()


def piece_run(game: SearchGame) -> _Run:
    """This thread's search for pieces of ``game``, kept from one piece to the next: its buffers
    and its memo (tens of megabytes, which a piece of a few milliseconds must not allocate
    again) are kept too; a new one after an interrupted piece."""
    runs = getattr(_PIECE_RUNS, "runs", None)
    if runs is None:
        runs = _PIECE_RUNS.runs = {}
    run = runs.get(id(game))
    if run is None or run.stopped or run.game is not game:
        if len(runs) >= 2:
            runs.clear()
        run = runs[id(game)] = _Run(game, 1)
    return run


def solve_piece(
    rules: Rules, history: Sequence[tuple[int, int]], budget: int = FAIL, first: int | None = None
) -> tuple[int, np.ndarray | None]:
    """The least cost, below ``budget``, of the secrets that give ``history``'s replies, within the
    guesses the rules leave after it, and its tree (as :func:`to_flat` writes it); (FAIL, None)
    when there is none below the budget. ``first`` forces the guess there. One compiled call,
    in the calling thread, whose tree is the one :func:`solve_position` finds (it does not depend
    on the workers). Computed from the description alone, in any process.

    Raises:
        ExecutorError: :func:`~mastermind.strategies.piece_control.stop_pieces` stopped it (nothing is
            known then).
    """
    game = game_of(rules)
    S = piece_secrets(rules, history)
    left = rules.max_guesses - len(history)
    if len(S) == 0:
        raise StrategyError("no secrets give these replies")
    if len(S) <= 2 and first is None:
        if left < int(game.t.dmin[len(S)]):
            return FAIL, None
        leaf_cost, leaf = _leaf(game, S)
        return (leaf_cost, leaf) if leaf_cost < budget else (FAIL, None)
    run = piece_run(game)
    with running(run.interrupt):
        sym = game.group([g for g, _ in history])
        cost, flat = run.kernel_call(run.root, S, left, budget, sym, -1 if first is None else first)
    if run.stopped:
        raise ExecutorError("stopped: the run was interrupted")
    return (cost, to_flat(parse(flat))) if flat is not None else (FAIL, None)


def join_cells(guess: int, found: bool, trees: dict[int, np.ndarray]) -> np.ndarray:
    """The tree of a guess whose cells (reply -> tree) are solved: as :func:`to_flat` writes it."""
    parts = [np.array([guess, 2 * len(trees) + int(found)], dtype=np.int64)]
    for f in sorted(trees):
        parts.append(np.array([f], dtype=np.int64))
        parts.append(trees[f])
    return to_flat(parse(np.concatenate(parts)))


def check_tree(rules: Rules, flat: np.ndarray, secrets: np.ndarray, left: int) -> OptimalNode:
    """Parse a tree and confirm that it finds every secret of ``secrets`` (and nothing else)
    within ``left`` guesses, each reply leading where it says. Raises TreeError if not.

    The replies are scored with numpy, pair by pair along the tree (as many pairs as the tree's
    total of guesses), so that a cached tree is checked without the compiled kernels."""
    from ..._kernels.reference import feedback_against

    space = CodeSpace.of(rules)
    win = rules.pegs * (rules.pegs + 1)
    root = parse(flat)
    stack: list[tuple[OptimalNode, np.ndarray, int]] = [(root, np.unique(secrets), left)]
    while stack:
        node, S, k = stack.pop()
        if k < 1:
            raise TreeError("the tree is deeper than the guess limit")
        if not 0 <= node.guess < space.size:
            raise TreeError("a guess out of range")
        replies = feedback_against(space, node.guess, S)
        cells = {int(f): S[replies == f] for f in np.unique(replies)}
        found = node.size - sum(c.size for c in node.children.values())
        if node.size != len(S) or found != int(win in cells):
            raise TreeError("a node's secrets do not match its guess")
        if set(node.children) != set(cells) - {win}:
            raise TreeError("the tree's replies are not those of its secrets")
        stack.extend((child, cells[f], k - 1) for f, child in node.children.items())
    return root
