"""Bounds at any time: the exact search of a whole game, stopped when asked, with what it proved.

:func:`bound_game` runs the same search as :func:`~.search.solve_position` from the start of a
game and may be stopped (after a number of seconds, or by a call from another thread). It then
reports a proven lower bound on the least total, the best tree found (an upper bound) and
whether they meet (the optimum, proved). The search at the root tries its guesses in order; the
first one's cells are solved one by one, the others with the best total so far as budget:

* Upper bound: the first root guess with each cell's tree, the exact one where the cell is
  solved, else the better of two heuristic strategies' (most parts and entropy) from there; or a
  whole tree the search has found.
* Lower bound: the least, over the root guesses, of what each is proved to cost at least. Before
  a root guess is searched that is its bound with each of its cells given its own least guess
  bound (one level down); the first guess's solved cells count at their exact cost; a root guess
  whose search failed below a budget costs at least that budget; and a whole tree found costs
  what it costs.

Every tree reported is checked against every secret (:func:`~.trees.check_tree`).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ...core.rules import Rules
from ..base import PieceBook
from ..capabilities import distributions_at
from ..piece_control import usable_cores
from ..progress import OnProgress
from .run import _Run, piece_limit
from .search import Record, _solve_set
from .tables import FAIL, game_of
from .trees import OptimalNode, check_tree, join_cells, to_flat

#: The heuristic strategies whose trees stand in for the cells not solved yet.
HEURISTICS = ("most-parts", "entropy")

#: on_better(lower bound, upper bound, tree of the upper bound or None)
Better = Callable[[int, "int | None", "np.ndarray | None"], None]


@dataclass(frozen=True)
class Bounds:
    """What a search proved: ``lower`` <= the least total <= ``upper`` (None: no tree found that
    finds every secret within the guess limit), ``flat`` the tree of ``upper``; ``complete``: the
    search ran to its end (then a missing ``upper`` means that no tree exists within the limit)."""

    lower: int
    upper: int | None
    flat: np.ndarray | None
    complete: bool

    @property
    def exact(self) -> bool:
        """Whether the least total is known: the bounds meet."""
        return self.upper is not None and self.lower == self.upper

    @property
    def gap(self) -> int | None:
        return None if self.upper is None else self.upper - self.lower


class _Bounds(Record):
    """The root's state as the search reports it, and the bounds read from it."""

    def __init__(self, rules: Rules, first: int | None, on_better: Better | None) -> None:
        self.rules = rules
        self.game = game_of(rules)
        self.first = first
        self.on_better = on_better
        self.lock = threading.Lock()
        self.n = rules.size
        self.order: list[int] = []
        self.proved: dict[int, int] = {}  # root guess -> proved lower bound on its cost
        self.g0: int | None = None
        self.cells: dict[int, np.ndarray] = {}  # the first root guess's cells
        self.found = False  # the first root guess is a secret
        self.cell_low: dict[int, int] = {}
        self.exact: dict[int, tuple[int, np.ndarray]] = {}
        self.heuristic: dict[int, int] = {}  # a heuristic cell's total (FAIL: over the limit)
        self.best: tuple[int, np.ndarray] | None = None  # a whole tree the search found
        self.shown: tuple[int, int | None] | None = None
        self.run: _Run | None = None
        self.stop: threading.Event | None = None  # set: stop the search (checked after each report)
        self.out_of_time = threading.Event()

    # -- what the search says ------------------------------------------------------------------

    def roots(
        self, roots: list[tuple[int, int]], improved: list[int], first: int, cells: np.ndarray | None
    ) -> None:
        with self.lock:
            self.order = [g for g, _ in roots]
            for (g, _), bound in zip(roots, improved, strict=True):
                self.proved[g] = max(self.proved.get(g, 0), bound)
            if cells is not None:
                self.cell_low = {f: int(c) for f, c in enumerate(cells) if c > 0}
        if roots:
            self._first_guess(roots[first][0])
        self._tell()

    def cell(self, reply: int, cost: int, flat: np.ndarray) -> None:
        with self.lock:
            self.exact[reply] = (cost, flat)
        self._tell()

    def tried(self, guess: int, cost: int, flat: np.ndarray | None, limit: int) -> None:
        with self.lock:
            if flat is not None:
                self.proved[guess] = cost
                if self.best is None or cost < self.best[0]:
                    self.best = (cost, flat)
            else:
                self.proved[guess] = max(self.proved.get(guess, 0), limit)
        self._tell()

    # -- before the search: a tree for every cell of the first root guess ------------------------

    def _first_guess(self, g0: int) -> None:
        """The first root guess's cells, and the heuristics' totals on each."""
        from ...strategies import make_strategy
        from ..base import Position

        game = self.game
        S = np.arange(self.n, dtype=np.int64)
        split = _feedback_cells(game, g0, S)
        self.g0 = g0
        self.found = any(f == game.win for f, _ in split)
        self.cells = {f: c for f, c in split if f != game.win}
        limit = self.rules.max_guesses
        stop = np.zeros(1, dtype=np.int64)
        totals = {f: FAIL for f in self.cells}
        for name in HEURISTICS:
            player = make_strategy(name, self.rules)
            replies = list(self.cells)
            found = distributions_at(player, [Position(((g0, f),), self.cells[f]) for f in replies], stop)
            for f, distribution in zip(replies, found, strict=True):
                if max(distribution) > limit:
                    continue  # over the guess limit: no upper bound from this one
                totals[f] = min(totals[f], sum((k - 1) * n for k, n in distribution.items()))
        with self.lock:
            self.heuristic = totals

    # -- the bounds -----------------------------------------------------------------------------

    def lower(self) -> int:
        with self.lock:
            proved = dict(self.proved)
            if self.g0 is not None and self.cell_low:
                low = self.n + sum(
                    self.exact[f][0] if f in self.exact else self.cell_low.get(f, 0) for f in self.cells
                )
                proved[self.g0] = max(proved.get(self.g0, 0), low)
            best = self.best[0] if self.best else None
        lows = [proved[g] for g in self.order if g in proved] if self.order else [int(self.game.t.lb[self.n])]
        lower = min(lows, default=int(self.game.t.lb[self.n]))
        return lower if best is None else min(lower, best)

    def upper(self) -> int | None:
        with self.lock:
            candidates = [] if self.best is None else [self.best[0]]
            if self.g0 is not None and self.cells:
                parts = [
                    self.exact[f][0] if f in self.exact else self.heuristic.get(f, FAIL) for f in self.cells
                ]
                if all(p < FAIL for p in parts):
                    candidates.append(self.n + sum(parts))
        return min(candidates, default=None)

    def _tell(self) -> None:
        if self.on_better is None:
            return
        now = (self.lower(), self.upper())
        if now != self.shown:
            self.shown = now
            self.on_better(now[0], now[1], None)
        if self.stop is not None and self.stop.is_set() and self.run is not None:
            self.out_of_time.set()
            self.run.interrupt()  # at once, not at the watcher's next look

    def tree(self) -> tuple[int, np.ndarray] | None:
        """The tree of the upper bound (heuristic cells walked now)."""
        upper = self.upper()
        if upper is None:
            return None
        with self.lock:
            if self.best is not None and self.best[0] == upper:
                return self.best
            exact = dict(self.exact)
            g0, cells = self.g0, dict(self.cells)
        assert g0 is not None
        trees = {}
        for f, cell in cells.items():
            trees[f] = exact[f][1] if f in exact else self._heuristic_tree(g0, f, cell)
        return upper, join_cells(g0, self.found, trees)

    def _heuristic_tree(self, g0: int, reply: int, cell: np.ndarray) -> np.ndarray:
        """The better heuristic's subtree for one cell (the one its total was taken from)."""
        from ...core.feedback import Feedback
        from ...deduction.state import SolverState
        from ...strategies import make_strategy
        from ..walk import walk

        space = self.game.space
        best: tuple[int, np.ndarray] | None = None
        for name in HEURISTICS:
            player = make_strategy(name, self.rules)
            state = SolverState(self.rules).add(space.code(g0), Feedback.from_int(reply, self.rules.pegs))
            node = OptimalNode(guess=-1, size=len(cell))
            distribution: dict[int, int] = {}
            walk(player, state, 2, distribution, None, node)
            if max(distribution) > self.rules.max_guesses:
                continue
            total = sum((k - 1) * n for k, n in distribution.items())
            if best is None or total < best[0]:
                best = (total, to_flat(_costed(node)))
        assert best is not None
        return best[1]


def _costed(node) -> OptimalNode:
    """An OptimalNode tree (sizes and costs filled in) from a strategy tree."""
    out = OptimalNode(guess=node.guess, size=node.size)
    out.children = {f: _costed(c) for f, c in node.children.items()}
    out.cost = out.size + sum(c.cost for c in out.children.values())
    return out


def _feedback_cells(game, g: int, S: np.ndarray) -> list[tuple[int, np.ndarray]]:
    from ..._kernels import feedback

    return feedback.cells(game.codes, g, S)


class CompileClock:
    """The seconds spent compiling kernels (numba's JIT: once per install) while it listens, so
    that a budget counts the search alone: a first run on a fresh install is not spent on the
    compile. Told of each outermost compile (:func:`mastermind._kernels.on_compile`); ``now``:
    the clock read (a test's own)."""

    def __init__(self, now: Callable[[], float] = time.monotonic) -> None:
        self.now = now
        self.lock = threading.Lock()
        self.since: float | None = None  # when the compile under way began
        self.spent = 0.0  # the seconds of the compiles ended

    def __call__(self, started: bool) -> None:
        with self.lock:
            if started and self.since is None:
                self.since = self.now()
            elif not started and self.since is not None:
                self.spent += self.now() - self.since
                self.since = None

    def seconds(self) -> float:
        """The seconds spent compiling so far, the compile under way included."""
        with self.lock:
            return self.spent + (0.0 if self.since is None else self.now() - self.since)


def bound_game(
    rules: Rules,
    seconds: float | None = None,
    *,
    first: int | None = None,
    progress: OnProgress | None = None,
    on_better: Better | None = None,
    stop: threading.Event | None = None,
    on_tree: Better | None = None,
    save_every: float = 60.0,
    workers: int | None = None,
    book: PieceBook | None = None,
    piece_size: int | None = None,
) -> Bounds:
    """Search the least total of the whole game, for at most ``seconds`` (None: to the end; the
    seconds spent compiling kernels, on a fresh install, not counted) or until ``stop`` is set,
    and return what was proved: the optimum when the search finished, else bounds on it and the
    best tree found. ``on_better(lower, upper, None)`` is called as either bound improves,
    ``on_tree(lower, upper, tree)`` every ``save_every`` seconds when the upper bound has
    improved (the tree checked against every secret first), so that a long run keeps its best
    tree on disk; ``first`` forces the first guess. With ``book`` (a checkpoint),
    the guesses searched and the sets solved without a budget (the first root guess's cells,
    and below them the sets of at least :data:`.search.BOOK_SET` secrets) are recorded as they
    finish, and what an earlier run recorded is taken instead of being searched again (the keys
    of the search cut into pieces, :mod:`.split`, so that either search resumes the other's).
    ``piece_size``: the largest set without a budget searched in one compiled call (at least
    :data:`.run.SERIAL_SET`; default a quarter of the game on several workers): smaller ones
    are recorded sooner, at some cost in work.

    Raises:
        KeyboardInterrupt: when interrupted (Ctrl-C); every compiled search has stopped by then.
    """
    game = game_of(rules)
    S = np.arange(rules.size, dtype=np.int64)
    record = _Bounds(rules, first, on_better)
    run = _Run(game, max(1, workers or usable_cores()))
    run.book = book
    run.split = piece_limit(piece_size) or run.split
    record.run, record.stop = run, stop
    done, out_of_time = threading.Event(), record.out_of_time
    deadline = None if seconds is None else time.monotonic() + seconds
    compiling = CompileClock()  # (the budget is the search's: a compile's seconds are added to it)
    if on_tree is not None:
        saving = (rules, record, done, save_every, on_tree)
        threading.Thread(target=_save_trees, args=saving, name="mastermind-optimal-save", daemon=True).start()

    from ..._kernels import on_compile

    unlisten = on_compile(compiling)
    watching = (run, done, deadline, compiling, stop, out_of_time)
    watcher = threading.Thread(
        target=_watch_budget, args=watching, name="mastermind-optimal-budget", daemon=True
    )
    watcher.start()
    solved = None
    try:
        solved = _solve_set(run, run.root, S, [], rules.max_guesses, FAIL, first, progress, record)
    except KeyboardInterrupt:
        if not out_of_time.is_set():
            run.interrupt()
            raise
    finally:
        done.set()
        watcher.join()
        unlisten()
        run.pool.shutdown(wait=True)
    return _proved(rules, record, solved)


def _watch_budget(
    run: _Run,
    done: threading.Event,
    deadline: float | None,
    compiling: CompileClock,
    stop: threading.Event | None,
    out_of_time: threading.Event,
) -> None:
    """Stop the search at ``deadline`` (the seconds spent compiling added to it) or when ``stop``
    is set, until it is ``done``."""
    while not done.wait(0.05):
        late = deadline is not None and time.monotonic() - compiling.seconds() >= deadline
        if late or (stop is not None and stop.is_set()):
            out_of_time.set()
            run.interrupt()
            return


def _save_trees(rules: Rules, record: _Bounds, done: threading.Event, every: float, on_tree: Better) -> None:
    """``on_tree`` with the best tree (checked first) every ``every`` seconds when the upper bound
    has improved, until the search is ``done``."""
    saved = None
    while not done.wait(every):
        upper = record.upper()
        if upper is not None and upper != saved:
            found = record.tree()
            if found is not None and not done.is_set():
                saved = found[0]
                on_tree(record.lower(), found[0], _checked(rules, found[1], found[0]))


def _proved(rules: Rules, record: _Bounds, solved: tuple[int, np.ndarray | None] | None) -> Bounds:
    """What a search proved: the optimum if it finished (``solved``), else its bounds."""
    if solved is not None:
        cost, flat = solved
        if flat is None:
            return Bounds(record.lower(), None, None, True)
        return Bounds(cost, cost, _checked(rules, flat, cost), True)
    found = record.tree()
    if found is None:
        return Bounds(record.lower(), None, None, False)
    upper, tree = found
    return Bounds(record.lower(), upper, _checked(rules, tree, upper), False)


def _checked(rules: Rules, flat: np.ndarray, total: int) -> np.ndarray:
    """The tree as :func:`~.trees.to_flat` writes it, replayed against every secret first."""
    root = check_tree(rules, flat, np.arange(rules.size), rules.max_guesses)
    if root.cost != total:
        raise AssertionError(f"a tree of total {root.cost} reported as {total}")
    return to_flat(root)
