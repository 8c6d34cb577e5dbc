"""The optimal strategy's exact search cut into pieces at any depth, for a cluster.

:func:`search_in_pieces` runs the search of a whole game as pieces that any process solves from
a short description (:func:`.piece.work`), handed out by an executor's ``map`` as workers free up
(threads of this process, a Dask cluster). The search is a tree of positions:

* a **set** (the secrets left after a history) of at most ``split`` secrets, or once a budget
  binds it of at most ``big`` (by default any set below the root), is one piece, one compiled
  call; another set is first
  *planned* (a piece: its guesses in the search's order,
  each with its lower bound, and where that is cheap each guess's cells bounded one level down),
  then its guesses race by the rules of :class:`.race.Race`;
* a **guess** is one piece (one compiled call with the guess forced), or it is cut into its
  cells, each a set again: the first guess of a set larger than ``split`` searched without a
  budget, and each guess at the root: large subproblems are cut again, small ones solved where
  they are. Below the root a guess with a budget is always one piece (:meth:`_Search.cut_guess`).

While no budget binds (the first guess of a set searched without one), a guess's cells are
independent and are all handed out at once. Every other guess is given, when a worker takes it,
the best total known then: the race's best at its set, bounded by what its set may cost for the
guess above it to matter (the limit of that guess less the other cells' exact costs, or their
bounds while they are not solved), and so on up to the root. Each cell of a guess is thus given
a budget of its own; a cell that fails its budget fails the guess at once. So every piece starts
with every total found anywhere in the search until then; a piece already running keeps the
budget it started with (the compiled search takes it on entry): pieces are kept small so that
few run long on an old one.

The result is the search's exact optimum and its tree is the one the search finds in one
process, array for array: at every set the guess kept is the first in the search's order (lower
bound, then code) that reaches the least total (the race's tie rule), and a cell's optimal tree
does not depend on the budget it was searched with. A set whose best guess is not proved best
(another was refused for a budget that its set's limit, not the race, set) reports only a lower
bound, and so does every failed piece: the guess above it then fails too, as it must.

With a ``book`` (the runner's checkpoint) every finished piece and every finished set or guess
above the pieces is recorded: its exact cost and tree, or, for one that found nothing below its
budget, that budget as a proved lower bound. A resumed run takes an exact result (its tree
replayed against its secrets first) and a lower bound that reaches the budget it needs now; a
lower bound that does not is left until nothing else is to be done, by when the budgets have
fallen to what they were.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from ...core.rules import Rules
from ...errors import TreeError
from ..base import MapTasks, PieceBook
from ..progress import OnProgress, Progress
from .piece import Outcome, Piece, work_task
from .run import SERIAL_SET, History, key_of
from .tables import FAIL, _leaf, game_of
from .tie_break import Race
from .trees import Solution, check_tree, join_cells

#: With W workers, sets (and the guess searched first at a set) of more than the game's size over
#: SPLIT_PART * W secrets (and more than SERIAL_SET) are cut into smaller pieces while no budget
#: binds; the others are one piece each. With a budget, on fewer than CUT_BUDGETED workers, only
#: the root's guesses are cut (into their cells); from CUT_BUDGETED workers on, sets with a budget
#: are cut at the same size (each of their guesses one piece): more work in all, but more workers
#: busy (docs/optimal.md: simulated on 4x7 and 4x8, it pays from 8 workers on).
SPLIT_PART = 2
CUT_BUDGETED = 8


def cut_sizes(size: int, workers: int = 2) -> tuple[int, int]:
    """The largest set that is one piece in a game of ``size`` codes on ``workers`` workers while
    no budget binds it, and with a budget (all but the whole game, on fewer than
    :data:`CUT_BUDGETED` workers; see :data:`SPLIT_PART`): more pieces cost more work in all
    (each compiled call prunes within itself better than the pieces do among themselves), fewer
    leave workers idle."""
    split = max(SERIAL_SET, size // (SPLIT_PART * max(1, workers)))
    return split, (split if workers >= CUT_BUDGETED else size - 1)


# -- the search's positions, kept by the process that hands out the pieces ---------------------

_NEW, _RUNNING, _RACING, _SPLIT = range(4)


class _Node:
    """A set or a guess of the search: what it needs from the pieces, and its result."""

    def __init__(self, search: _Search, history: History, S: np.ndarray, left: int) -> None:
        self.search = search
        self.history = history
        self.S = S
        self.left = left
        self.state = _NEW
        self.done = False

    key = ""

    def limit(self) -> int:  # pragma: no cover - every node overrides it
        """What the node must cost less than to matter now (FAIL: no budget binds)."""
        raise NotImplementedError

    def outcome(self, piece: Piece, out: Outcome) -> None:  # pragma: no cover - overridden
        """The piece this node handed out is done."""
        raise NotImplementedError

    def recorded(self, key: str, guess: int | None, defer: bool) -> bool:
        """Take this node's result from the book if it holds one that serves now; True if done,
        or (``defer``) left until later because its bound does not reach the budget yet."""
        book = self.search.book
        if book is None or key not in book.pieces:
            return False
        line, cost, flat = book.pieces[key]
        if flat is not None:
            try:
                node = check_tree(self.search.rules, flat, self.S, self.left)
            except TreeError:
                node = None
            wrong = node is None or node.cost != cost or (guess is not None and node.guess != guess)
            if cost is None or wrong:
                raise book.damaged(line)
            self.search.resumed += 1
            self.finish(cost, flat, from_book=True)
            return True
        if cost is None:
            raise book.damaged(line)
        if cost >= self.limit():
            self.search.resumed += 1
            self.finish(cost, None, from_book=True)
            return True
        return defer

    def finish(self, cost: int, flat: np.ndarray | None, from_book: bool = False) -> None:
        raise NotImplementedError  # pragma: no cover


class _Set(_Node):
    """The least cost of the secrets ``S`` after ``history`` within ``left`` guesses."""

    def __init__(
        self,
        search: _Search,
        parent: _Guess | None,
        reply: int,
        history: History,
        S: np.ndarray,
        left: int,
        first: int | None = None,
    ) -> None:
        super().__init__(search, history, S, left)
        self.parent, self.reply, self.first = parent, reply, first
        self.key = key_of("set", history)
        self.race: Race | None = None
        self.roots: tuple[tuple[int, int, int, tuple[int, ...] | None], ...] = ()
        self.explore: list[int] = []
        self.opened = 0  # guesses of ``explore`` opened (or taken) so far
        self.taken: set[int] = set()  # ranks read back from the book before their turn
        self.active: list[_Guess] = []
        self.proved: dict[int, int] = {}  # rank -> proved lower bound of a guess refused or failed

    def limit(self) -> int:
        return FAIL if self.parent is None else self.parent.cell_limit(self.reply)

    def next(self, defer: bool) -> Piece | None:
        if self.done:
            return None
        if self.state == _NEW:
            return self.start(defer)
        if self.state == _RACING:
            for guess in list(self.active):
                piece = guess.next(defer)
                if piece is not None or self.done:
                    return piece
            return self.open(defer)
        return None

    def start(self, defer: bool) -> Piece | None:
        if self.recorded(self.key, None, defer):
            return None
        game, n = self.search.game, len(self.S)
        if self.left < int(game.t.dmin[n]):
            self.finish(FAIL, None)
            return None
        if n <= 2 and self.first is None:
            self.finish(*_leaf(game, self.S))
            return None
        budget = self.limit()
        if int(game.t.lb[n]) >= budget:
            self.finish(int(game.t.lb[n]), None)
            return None
        if self.first is not None:
            self.planned(((self.first, 0, 0, None),))
            return self.next(defer)
        if not self.search.cut(n, budget):
            return self.search.hand_out(self, Piece("set", self.history, budget))
        return self.search.hand_out(self, Piece("plan", self.history))

    def planned(self, roots: tuple[tuple[int, int, int, tuple[int, ...] | None], ...]) -> None:
        self.state = _RACING
        self.roots = roots
        self.race = Race([(g, better) for g, _, better, _ in roots], FAIL, ceiling=self.limit)
        self.explore = sorted(range(len(roots)), key=lambda r: (roots[r][2], r))
        if not roots:
            self.finish(FAIL, None)
            return
        kept = {} if self.search.book is None else self.search.book.pieces
        for rank in self.explore if kept else ():  # resumed: the best known first
            recorded = kept.get(key_of("guess", self.history, roots[rank][0]))
            if recorded is not None and recorded[2] is not None:
                self.taken.add(rank)
                guess = _Guess(self, rank)
                self.active.append(guess)
                guess.next(defer=True)

    def outcome(self, piece: Piece, out: Outcome) -> None:
        if piece.kind == "plan":
            self.planned(out.roots)
        else:
            self.finish(out.cost, out.flat)

    def open(self, defer: bool) -> Piece | None:
        """Start the next guess in the order of the bounds, if its budget can be set now."""
        race = self.race
        assert race is not None
        while self.opened < len(self.explore):
            rank = self.explore[self.opened]
            if rank in self.taken:
                self.opened += 1
                continue
            if self.active and race.best.tree is None and self.limit() >= FAIL:
                return None  # the guess searched without a budget gives the others theirs
            if race.budget(rank) is None:
                self.proved[rank] = self.roots[rank][2]
                self.opened += 1
                continue
            self.opened += 1
            guess = _Guess(self, rank)
            self.active.append(guess)
            piece = guess.next(defer)
            if piece is not None or self.done:
                return piece
        if not self.active:
            self.settle()
        return None

    def lower(self) -> int:
        """What the set is proved to cost at least, as its race stands: the least over its
        guesses of each one's exact cost, proved bound, or bound with the cells solved so far."""
        race = self.race
        if race is None:
            return int(self.search.game.t.lb[len(self.S)])
        lows = [race.best.cost] if race.best.tree is not None else []  # (the others searched cost more)
        active = {guess.rank: guess for guess in self.active}
        for rank, (_, _, better, _) in enumerate(self.roots):
            if rank in self.proved:
                lows.append(self.proved[rank])
            elif rank in active:
                lows.append(max(better, active[rank].floor()))
            elif rank not in race.searched:
                lows.append(better)
        return min(lows, default=FAIL)

    def guess_done(self, guess: _Guess, cost: int, flat: np.ndarray | None) -> None:
        race = self.race
        assert race is not None
        if guess in self.active:
            self.active.remove(guess)
        if flat is None:
            race.offer(guess.rank, FAIL, None)
            self.proved[guess.rank] = cost
        else:
            race.offer(guess.rank, cost, flat)
        if not self.active and self.opened == len(self.explore):
            self.settle()

    def settle(self) -> None:
        """Every guess searched or refused: the best one, if it is proved best; else a bound."""
        race = self.race
        assert race is not None
        best = race.best
        floor = min(self.proved.values(), default=FAIL)
        if best.tree is None:
            self.finish(floor, None)
        elif all(a >= best.cost + (1 if r < best.rank else 0) for r, a in self.proved.items()):
            self.finish(best.cost, best.tree)
        else:
            self.finish(min(best.cost, floor), None)

    def finish(self, cost: int, flat: np.ndarray | None, from_book: bool = False) -> None:
        if self.done:
            return
        self.done = True
        self.search.finished(self, cost, flat, from_book)
        if self.parent is not None:
            self.parent.cell_done(self, cost, flat)


class _Guess(_Node):
    """The least cost of a set with the guess of ``rank`` (in the set's race) played first."""

    def __init__(self, above: _Set, rank: int) -> None:
        super().__init__(above.search, above.history, above.S, above.left)
        self.above, self.rank = above, rank
        self.guess = above.roots[rank][0]
        self.key = key_of("guess", self.history, self.guess)
        self.known: dict[int, int] = {}
        self.trees: dict[int, np.ndarray] = {}
        self.bounds: dict[int, int] = {}
        self.found = False
        self.active: list[_Set] = []

    def limit(self) -> int:
        race = self.above.race
        assert race is not None
        return race.limit(self.rank)

    def floor(self, but: int = -1) -> int:
        """The least this guess can cost, from its cells' exact costs and bounds (but one)."""
        return len(self.S) + sum(self.known.get(f, b) for f, b in self.bounds.items() if f != but)

    def cell_limit(self, reply: int) -> int:
        limit = self.limit()
        return FAIL if limit >= FAIL else limit - self.floor(but=reply)

    def next(self, defer: bool) -> Piece | None:
        if self.done:
            return None
        if self.state == _NEW:
            return self.start(defer)
        if self.state == _SPLIT:
            for cell in list(self.active):
                piece = cell.next(defer)
                if piece is not None or self.done:
                    return piece
        return None

    def start(self, defer: bool) -> Piece | None:
        if self.recorded(self.key, self.guess, defer):
            return None
        search, game, n = self.search, self.search.game, len(self.S)
        if not search.cut_guess(n, self.limit(), self.history):
            return search.hand_out(self, Piece("guess", self.history, self.limit(), self.guess))
        from ..._kernels import feedback  # numba: a search is made

        split = feedback.cells(game.codes, self.guess, self.S)
        cells = {f: c for f, c in split if f != game.win}
        self.found = len(cells) < len(split)
        if any(len(c) == n or int(game.t.dmin[len(c)]) > self.left - 1 for c in cells.values()):
            self.finish(FAIL, None)  # useless, or too slow for the guess limit (only if forced)
            return None
        below = self.above.roots[self.rank][3]
        for f, c in cells.items():
            self.bounds[f] = below[f] if below is not None else max(2 * len(c) - 1, int(game.t.lb[len(c)]))
        self.state = _SPLIT
        if self.floor() >= self.limit():
            self.finish(self.floor(), None)
            return None
        for f in sorted(cells, key=lambda f: (-len(cells[f]), f)):
            if len(cells[f]) <= 2:
                self.known[f], self.trees[f] = _leaf(game, cells[f])
            else:
                history = (*self.history, (self.guess, f))
                self.active.append(_Set(search, self, f, history, cells[f], self.left - 1))
        if not self.active:
            self.complete()
            return None
        return self.next(defer)

    def outcome(self, piece: Piece, out: Outcome) -> None:
        self.finish(out.cost, out.flat)

    def cell_done(self, cell: _Set, cost: int, flat: np.ndarray | None) -> None:
        if self.done:
            return
        if cell in self.active:
            self.active.remove(cell)
        if flat is None:  # the cell costs at least ``cost``: so does the guess, with the others
            self.known[cell.reply] = max(cost, self.bounds[cell.reply])
            self.finish(min(self.floor(), FAIL), None)
            return
        self.known[cell.reply], self.trees[cell.reply] = cost, flat
        if not self.active:
            self.complete()
        elif self.floor() >= self.limit():
            self.finish(self.floor(), None)

    def complete(self) -> None:
        total = len(self.S) + sum(self.known.values())
        self.finish(total, join_cells(self.guess, self.found, self.trees))

    def finish(self, cost: int, flat: np.ndarray | None, from_book: bool = False) -> None:
        if self.done:
            return
        self.done = True
        self.search.finished(self, cost, flat, from_book)
        self.above.guess_done(self, cost, flat)


#: Told of each piece finished: its description, its outcome, its set's size.
PieceLog = Callable[[Piece, Outcome, int], None]


class _Search:
    """The positions of one search and the pieces they wait for; hands pieces to the executor."""

    def __init__(
        self,
        rules: Rules,
        first: int | None,
        book: PieceBook | None,
        split: int,
        big: int,
        progress: OnProgress | None,
        log: PieceLog | None,
    ) -> None:
        self.rules, self.book, self.progress, self.log = rules, book, progress, log
        self.split, self.big = split, max(split, big)
        self.game = game_of(rules)
        self.waiting: dict[int, tuple[_Node, Piece]] = {}
        self.handed = 0
        self.solved = self.resumed = 0
        self.kept = 0 if book is None else len(book.pieces)
        self.result: tuple[int, np.ndarray | None] | None = None
        everything = np.arange(self.game.space.size, dtype=np.int64)
        self.root = _Set(self, None, -1, (), everything, rules.max_guesses, first)

    def cut(self, n: int, budget: int) -> bool:
        """Whether a set of ``n`` secrets searched below ``budget`` is cut into smaller pieces
        (planned, then its guesses raced): while no budget binds, above ``split`` secrets; with a
        budget, above ``big`` (by default, on fewer than :data:`CUT_BUDGETED` workers, only the
        whole game: one compiled call prunes better than pieces do)."""
        return n > (self.split if budget >= FAIL else self.big)

    def cut_guess(self, n: int, budget: int, history: History) -> bool:
        """Whether a guess at a set of ``n`` secrets after ``history`` is cut into its cells:
        while no budget binds, as its set is; with a budget, only at the root. Below it, a
        guess with a budget is one piece: cut into cells, each with a budget of its own, it
        loses the pruning the compiled search does within the guess, and the work in all grows
        (docs/optimal.md)."""
        return n > self.split if budget >= FAIL else (not history and n > self.big)

    def hand_out(self, node: _Node, piece: Piece) -> Piece:
        node.state = _RUNNING
        self.handed += 1
        self.waiting[self.handed] = (node, piece)
        return piece

    def tasks(self) -> Iterator[tuple[Any, ...] | None]:
        """The pieces as workers free up (None: none until one of those out finishes)."""
        while self.result is None:
            piece = self.root.next(defer=True)
            if piece is None and not self.waiting and self.result is None:
                piece = self.root.next(defer=False)  # only lower bounds too weak are left
            if piece is None and self.result is not None:  # settled by the walk itself
                return
            if piece is None and not self.waiting:  # pragma: no cover
                raise RuntimeError("the search in pieces has nothing to do and no result")
            yield None if piece is None else (self.rules, piece, self.handed)
            self.report()

    def each(self, args: tuple[Any, ...], out: Outcome) -> None:
        _, piece, number = args
        node, _ = self.waiting.pop(number)
        self.solved += 1
        if self.log is not None:
            self.log(piece, out, len(node.S))
        if self.book is not None and piece.kind != "plan":
            self.book.record_piece(piece.key, out.cost, out.flat)
        if not node.done:
            node.outcome(piece, out)
        self.report()

    def finished(self, node: _Node, cost: int, flat: np.ndarray | None, from_book: bool) -> None:
        """A set or guess is settled; those above the pieces are recorded too."""
        if self.book is not None and not from_book and node.state != _RUNNING:
            self.book.record_piece(node.key, cost, flat)
        if node is self.root:
            self.result = (cost, flat)

    def report(self) -> None:
        if self.progress is None:
            return
        done = self.solved + self.kept  # those the book held when the run started, and those since
        race = self.root.race
        tree = None if race is None else race.best.tree
        best = None if race is None or tree is None else race.best.cost
        firsts = None if race is None else race.settled()
        # the least total once settled (or, with no tree, at least what it failed), else the race's
        lower = self.result[0] if self.result is not None else self.root.lower()
        n = self.game.space.size
        self.progress(
            Progress(
                "search",
                done,
                done + len(self.waiting),
                0,
                n,
                best,
                tree,
                firsts,
                lower if lower < FAIL else None,
            )
        )


def search_in_pieces(
    rules: Rules,
    map_tasks: MapTasks,
    *,
    first: int | None = None,
    book: PieceBook | None = None,
    progress: OnProgress | None = None,
    workers: int = 2,
    split: int | None = None,
    big: int | None = None,
    log: PieceLog | None = None,
) -> tuple[Solution | None, int, int]:
    """The optimal tree of the whole game, the search cut into pieces at any depth and run by
    ``map_tasks`` (see the module); (None, ...) if no tree finds every secret within the guess
    limit. Returns the solution, the pieces solved now and the sets, guesses and pieces read
    back from ``book``. ``workers``: how many pieces run at once (they set the size of the
    pieces); ``split``: the largest set that is one piece while no budget binds, ``big`` the
    largest with a budget (default :func:`cut_sizes`: with a budget only the root's guesses are
    cut; ``big`` is at least ``split``);
    ``log`` hears of each piece finished.

    Raises:
        CheckpointError (from ``book.damaged``): a recorded result that is not this search's.
        KeyboardInterrupt: on Ctrl-C, with every piece of this process stopped.
    """
    size = game_of(rules).space.size
    default = cut_sizes(size, workers)
    split = default[0] if split is None else split
    big = default[1] if big is None else big
    search = _Search(rules, first, book, split, big, progress, log)
    search.report()
    map_tasks(work_task, search.tasks(), search.each)
    assert search.result is not None
    cost, flat = search.result
    return (None if flat is None else Solution(cost, flat)), search.solved, search.resumed
