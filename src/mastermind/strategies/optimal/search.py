"""The exact optimal strategy's search, from any position (Koyama and Lai 1993).

:func:`solve_position` finds the least total number of guesses over the secrets still possible
(the expected case times their number), within the guesses left, and a tree that reaches it.
The compiled search is in :mod:`mastermind._kernels.exact`; this module drives it on all cores
from Python threads (the compiled calls release the GIL): see :func:`_solve_set`. The threads,
the compiled calls and the book of a search are in :mod:`.run`, a game's tables in
:mod:`.tables`, the trees found in :mod:`.trees`. The main thread polls the workers, so Ctrl-C
stops every compiled search at once. The tree found does not depend on the number of workers
or on the order in which their work finishes.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence

import numpy as np

from ...core.rules import Rules
from ...deduction.state import SolverState
from ...errors import ExecutorError, StrategyError
from ..piece_control import running, usable_cores
from ..progress import OnProgress, Progress
from .run import History, _Run, _Scope, key_of, piece_limit
from .tables import FAIL, SearchGame, _leaf, game_of
from .tie_break import Race
from .trees import OptimalNode, Solution, check_tree, joined, parse, to_flat

#: The search's names that its users import from here: its driver, and what it finds (the trees,
#: :mod:`.trees`) with the game it searches (:mod:`.tables`); the threads of a search are in
#: :mod:`.run`.
__all__ = [
    "BOOK_SET",
    "FAIL",
    "OptimalNode",
    "Record",
    "SearchGame",
    "Solution",
    "check_tree",
    "game_of",
    "improves",
    "parse",
    "piece_limit",
    "piece_run",
    "piece_secrets",
    "solve_below",
    "solve_piece",
    "solve_position",
    "to_flat",
]

#: tick(cells of a guess solved, of how many)
Tick = Callable[[int, int], None]

#: A set searched by the driver first bounds each of its guesses with its cells' own least guess
#: bounds (one level down), when that costs at most IMPROVE_WORK reply look-ups (guesses x secrets
#: x codes): the guesses are then explored in that order and pruned by it (see :func:`_solve_set`).
#: The whole game is bounded so once per search, whose first guesses are then explored and pruned
#: by far better bounds, so it may cost more, up to ROOT_IMPROVE_WORK (5x7's and 5x8's roots are
#: within it, 6x6's is beyond it).
IMPROVE_WORK, ROOT_IMPROVE_WORK = 1 << 30, 1 << 34


def improves(guesses: int, secrets: int, codes: int) -> bool:
    """Whether a set of ``secrets`` (of a game of ``codes``) bounds its ``guesses`` one level
    down first: see :data:`IMPROVE_WORK`.

    >>> improves(7, 16807, 16807), improves(500, 3402, 16807), improves(1, 16807, 16807)
    (True, False, False)
    """
    limit = ROOT_IMPROVE_WORK if secrets == codes else IMPROVE_WORK  # the whole game: its root
    return guesses > 1 and guesses * secrets * codes <= limit


#: Sets of at least this many secrets, below the root, are kept in a search's book (smaller
#: ones are searched again in less time than reading them back takes).
BOOK_SET = 64


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
        KeyboardInterrupt: when interrupted (Ctrl-C, or
            :func:`~mastermind.strategies.piece_control.stop_pieces` from another thread); every
            compiled search has stopped by then.
        TimeoutError: the search ran past ``timeout`` (and has stopped); nothing is known then.
    """
    return _solve(rules, secrets, guesses, left, first, progress, workers, timeout, FAIL)


def solve_below(
    rules: Rules, secrets: np.ndarray, guesses: Sequence[int], left: int, first: int, budget: int
) -> Solution | None:
    """:func:`solve_position` with ``first`` as the position's guess, if its tree costs less than
    ``budget``; None otherwise, and None too where a symmetry of ``guesses`` maps ``first`` to a
    lower code (which costs the same: the search tries only the least of each class). For codes
    tried in turn, each only for less than the best so far, the least of a class first
    (:meth:`~.strategy.Optimal.pick_possible`)."""
    return _solve(rules, secrets, guesses, left, first, None, None, None, budget)


def _solve(
    rules: Rules,
    secrets: np.ndarray,
    guesses: Sequence[int],
    left: int | None,
    first: int | None,
    progress: OnProgress | None,
    workers: int | None,
    timeout: float | None,
    budget: int,
) -> Solution | None:
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
        with running(run.interrupt):  # stop_pieces() stops it too (a front end that quits)
            cost, flat = _solve_set(run, run.root, S, list(guesses), left, budget, first, progress)
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
    if flat is None or cost >= budget:  # (a race lets a guess tie its budget)
        return None
    return Solution(cost, to_flat(parse(flat)))


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
    n = len(S)
    if n <= 2:
        return _small_set(run.game, S, left, budget)
    sym = run.game.group(guesses)
    if first is None and n <= run.split and record is None:
        return _one_call(run, scope, S, left, budget, sym, progress)
    if first is not None:
        roots = [(int(first), 0)]
    else:
        codes, bounds = run.root_guesses(scope, S, left, budget, sym)
        roots = list(zip(codes.tolist(), bounds.tolist(), strict=True))
    improved, cells_of = _bounds_one_level_down(run, scope, S, left, sym, roots, record is not None)
    if run.stopped:
        raise KeyboardInterrupt
    explore = sorted(range(len(roots)), key=lambda r: (improved[r], r))
    e0 = explore[0] if explore else 0
    if record is not None:
        record.roots(roots, improved, e0, cells_of.get(e0))
    guessing = _SetRace(run, scope, S, left, budget, sym, roots, improved, e0, progress, record, history)
    if guessing.start:
        guessing.first_guess(guesses)
    guessing.others(explore)
    best = guessing.race.best
    return (best.cost, best.tree) if best.tree is not None else (FAIL, None)


def _small_set(game: SearchGame, S: np.ndarray, left: int, budget: int) -> tuple[int, np.ndarray | None]:
    """A set of one or two secrets: its tree if it fits the guesses left and the budget."""
    if left < int(game.t.dmin[len(S)]):
        return FAIL, None
    leaf_cost, leaf = _leaf(game, S)
    return (leaf_cost, leaf) if leaf_cost < budget else (FAIL, None)


def _one_call(
    run: _Run,
    scope: _Scope,
    S: np.ndarray,
    left: int,
    budget: int,
    sym: tuple[np.ndarray, int, np.int64],
    progress: OnProgress | None,
) -> tuple[int, np.ndarray | None]:
    """A set searched in one compiled call, on a worker so that this thread still hears Ctrl-C."""
    future = run.pool.submit(run.kernel_call, scope, S, left, budget, sym)
    run.wait([future])
    cost, flat = future.result()
    if progress:
        progress(Progress("search", 1, 1, 0, len(S), None if flat is None else cost, flat))
    return cost, flat


def _bounds_one_level_down(
    run: _Run,
    scope: _Scope,
    S: np.ndarray,
    left: int,
    sym: tuple[np.ndarray, int, np.int64],
    roots: list[tuple[int, int]],
    always: bool,
) -> tuple[list[int], dict[int, np.ndarray]]:
    """The bound of each guess of ``roots`` (by rank) raised by its cells' own bounds, one level
    down, where that is cheap (see :func:`improves`) or ``always``; and those cells' bounds.

    The guesses are tried in the order of these bounds: the first one's cells are solved exactly,
    and a better first guess gives the others a tighter budget. The guess kept is still the first
    in the order (bound, code) to reach the least total (ranks below), so the tree is the same.
    """
    n = len(S)
    improved = [b for _, b in roots]
    cells_of: dict[int, np.ndarray] = {}
    if always or improves(len(roots), n, run.game.space.size):
        jobs = {r: run.pool.submit(run.cell_bounds, scope, S, left, sym, g) for r, (g, _) in enumerate(roots)}
        run.wait(list(jobs.values()))
        for rank, job in jobs.items():
            below = job.result()
            if below is not None:
                cells_of[rank] = below
                improved[rank] = max(improved[rank], min(n + sum(int(c) for c in below), FAIL))
    return improved, cells_of


class _SetRace:
    """The guesses of one set racing (see :func:`_solve_set`): the first in the order split into
    its cells while no budget binds, the others one compiled call each on the workers, and the
    progress they report (from the workers' threads) as they are done."""

    def __init__(
        self,
        run: _Run,
        scope: _Scope,
        S: np.ndarray,
        left: int,
        budget: int,
        sym: tuple[np.ndarray, int, np.int64],
        roots: list[tuple[int, int]],
        improved: list[int],
        e0: int,
        progress: OnProgress | None,
        record: Record | None,
        history: History,
    ) -> None:
        self.run, self.scope, self.S, self.left, self.sym = run, scope, S, left, sym
        self.roots, self.improved, self.e0 = roots, improved, e0
        self.progress, self.record, self.history = progress, record, history
        self.race = Race(
            [(g, improved[r]) for r, (g, _) in enumerate(roots)], budget
        )  # pruned by the better bound
        self.lock = threading.Lock()
        self.cells = (0, 0)  # cells of the first guess solved, of how many (when it is split)
        self.start = 1 if budget >= FAIL and roots else 0
        #: what a book holds of these guesses, read (and checked) before the workers start
        self.priors: dict[int, tuple[int, np.ndarray | None]] = {}

    def report(self) -> None:
        if self.progress:
            race, start, e0 = self.race, self.start, self.e0
            with self.lock:
                solved, of = self.cells  # (read once: a worker's tick may replace it meanwhile)
                done = solved + len(race.searched - {e0} if start else race.searched)
                waiting = race.waiting() - (1 if start and e0 not in race.searched else 0)
                best = race.best
                found = None if best.tree is None else best.cost
                self.progress(
                    Progress(
                        "search",
                        done,
                        done + waiting + of - solved,
                        0,
                        len(self.S),
                        found,
                        best.tree,
                        race.settled(),
                    )
                )

    def tick(self, done: int, of: int) -> None:
        with self.lock:  # (workers tick outside their own lock: a later count may come first)
            self.cells = (max(done, self.cells[0]), of)
        self.report()

    def first_guess(self, guesses: list[int]) -> None:
        """The first guess in the order, searched without a budget: its cells at once."""
        run, record = self.run, self.record
        g = self.roots[self.e0][0]
        cost, flat = _split_guess(
            run,
            self.scope,
            self.S,
            guesses,
            self.left,
            g,
            self.tick if self.progress else None,
            None if record is None else record.cell,
            self.history,
        )
        if flat is not None:
            run.keep(key_of("guess", self.history, g), cost, flat)
        self.race.offer(self.e0, cost, flat)
        if record is not None:
            record.tried(g, cost, flat, FAIL)
        self.cells = (self.cells[1], self.cells[1])
        self.report()

    def others(self, explore: list[int]) -> None:
        """The other guesses (ranks, in the order ``explore``), in parallel on the workers."""
        run = self.run
        for r in explore:
            g = self.roots[r][0]
            found = run.prior(key_of("guess", self.history, g), self.S, self.left, g)
            if found is not None:
                self.priors[g] = found
        skip = self.e0 if self.start else -1
        futures = [run.pool.submit(self.attempt, r, self.roots[r][0]) for r in explore if r != skip]
        run.wait(futures)
        if run.stopped:
            raise KeyboardInterrupt

    def attempt(self, rank: int, g: int) -> None:
        """One guess, with the budget the race gives it now (none: it cannot win, it is skipped)."""
        run, record = self.run, self.record
        limit = self.race.budget(rank)
        if limit is None:
            if record is not None:
                record.tried(g, FAIL, None, self.improved[rank])
            return
        prior = self.priors.get(g)
        if prior is not None and prior[0] >= limit:  # an earlier run proved it cannot win
            cost, flat = FAIL, None
        elif prior is not None and prior[1] is not None:  # solved by an earlier run: its tree
            cost, flat = prior
        else:
            cost, flat = run.kernel_call(self.scope, self.S, self.left, limit, self.sym, g)
            if flat is not None or (limit < FAIL and not self.scope.dead()):  # (not cut short)
                run.keep(key_of("guess", self.history, g), cost if flat is not None else limit, flat)
        if record is not None and not run.stopped:
            record.tried(g, cost, flat, limit)
        self.race.offer(rank, cost, flat)
        self.report()


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
    split = game.cells(g, S)
    cells = {f: cell for f, cell in split if f != game.win}
    found = len(cells) < len(split)
    if any(len(c) == len(S) or int(game.t.dmin[len(c)]) > left - 1 for c in cells.values()):
        return FAIL, None  # useless, or too slow for the guess limit (only if forced)
    solving = _GuessCells(run, scope, cells, [*guesses, g], left - 1, tick, on_cell, history)
    solving.solve()
    if run.stopped:
        raise KeyboardInterrupt
    if solving.attempt.dead():
        return FAIL, None
    return len(S) + sum(solving.known.values()), joined(g, found, solving.trees)


class _GuessCells:
    """The cells of a guess solved at once (see :func:`_split_guess`): each with ``left`` guesses,
    after the guesses ``below``; the first that fails stops the others (they are one attempt)."""

    def __init__(
        self,
        run: _Run,
        scope: _Scope,
        cells: dict[int, np.ndarray],
        below: list[int],
        left: int,
        tick: Tick | None,
        on_cell: Callable[[int, int, np.ndarray], None] | None,
        history: History,
    ) -> None:
        self.run, self.cells, self.below, self.left = run, cells, below, left
        self.tick, self.on_cell, self.history = tick, on_cell, history
        self.sym = run.game.group(below)
        self.attempt = _Scope(scope)
        self.known: dict[int, int] = {}
        self.trees: dict[int, np.ndarray] = {}
        self.lock = threading.Lock()
        #: the cells put in the book (and read back from it)
        self.kept = {f for f, c in cells.items() if len(c) > 2 and (not history or len(c) >= BOOK_SET)}

    def key(self, f: int) -> str:
        return key_of("set", (*self.history, (self.below[-1], f)))

    def solve(self) -> None:
        """Every cell: from the book, leaves here, small ones on the workers, large ones by
        :func:`_solve_set` from this thread (largest first)."""
        run, cells, on_cell = self.run, self.cells, self.on_cell
        by_size = sorted(cells, key=lambda f: (-len(cells[f]), f))
        for f in sorted(self.kept):
            earlier = run.prior(self.key(f), cells[f], self.left)
            if earlier is not None and earlier[1] is not None:
                self.known[f], self.trees[f] = earlier[0], earlier[1]
                if on_cell is not None:
                    on_cell(f, earlier[0], earlier[1])
        by_size = [f for f in by_size if f not in self.known]
        for f in by_size:
            if len(cells[f]) <= 2:
                self.known[f], self.trees[f] = _leaf(run.game, cells[f])
                if on_cell is not None:
                    on_cell(f, self.known[f], self.trees[f])
        if self.tick:
            self.tick(len(self.known), len(cells))
        futures = [run.pool.submit(self.task, f, cells[f]) for f in by_size if 2 < len(cells[f]) <= run.split]
        g = self.below[-1]
        for f in by_size:
            if len(cells[f]) > run.split and not self.attempt.dead():
                history = (*self.history, (g, f))
                self.solved(
                    f, *_solve_set(run, self.attempt, cells[f], self.below, self.left, FAIL, history=history)
                )
        run.wait(futures)

    def task(self, f: int, cell: np.ndarray) -> None:
        if self.attempt.dead():
            return
        self.solved(f, *self.run.kernel_call(self.attempt, cell, self.left, FAIL, self.sym))

    def solved(self, f: int, cost: int, flat: np.ndarray | None) -> None:
        with self.lock:
            if flat is None:
                self.run.fail(self.attempt)
            else:
                self.known[f], self.trees[f] = cost, flat
            done = len(self.known)
        if flat is not None and f in self.kept:
            self.run.keep(self.key(f), cost, flat)
        if self.on_cell is not None and flat is not None and not self.run.stopped:
            self.on_cell(f, cost, flat)
        if self.tick:
            self.tick(done, len(self.cells))


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
        return _small_set(game, S, left, budget)
    run = piece_run(game)
    with running(run.interrupt):
        sym = game.group([g for g, _ in history])
        cost, flat = run.kernel_call(run.root, S, left, budget, sym, -1 if first is None else first)
    if run.stopped:
        raise ExecutorError("stopped: the run was interrupted")
    return (cost, to_flat(parse(flat))) if flat is not None else (FAIL, None)
