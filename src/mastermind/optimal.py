"""The exact optimal strategy's search, from any position (Koyama and Lai 1993).

:func:`solve_position` finds the least total number of guesses over the secrets still possible
(the expected case times their number), within the guesses left, and a tree that reaches it.
The compiled search is in :mod:`mastermind._kernels.optimal`; this module runs it on all cores:
the guesses of the position (its "root guesses", only the least of each symmetry class, in
order of their lower bound) are tried one after another, and the cells a root guess leaves are
solved in parallel, largest first, each with the budget left by the others' bounds or exact
costs. The compiled calls release the GIL and are polled, so Ctrl-C stops the search at once.
The tree found does not depend on the number of cores or on the order in which cells finish
(see the module documentation of the kernel).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass, field

import numpy as np

from ._kernels import optimal as kernel
from ._kernels.tables import tables_of
from .code import CodeSpace
from .feedback import possible_feedbacks
from .rules import Rules

#: progress(root guesses done, root guesses left to try after pruning, best total so far or None)
Progress = Callable[[int, int, "int | None"], None]

#: Sets up to this size are solved in one compiled call (no parallel root).
SERIAL_SET = 48

#: Largest game whose reply matrix (size**2 bytes) is built.
MATRIX_LIMIT = 1 << 14


@dataclass
class OptimalNode:
    """A node of an optimal tree: its guess, the number of secrets reaching it, the total number
    of guesses they still need (this one included), and a subtree per reply other than the win."""

    guess: int
    size: int
    cost: int
    children: dict[int, OptimalNode] = field(default_factory=dict)

    def depth(self) -> int:
        """Guesses the deepest secret below needs (this one included)."""
        return 1 + max((c.depth() for c in self.children.values()), default=0)

    def distribution(self, start: int = 1) -> dict[int, int]:
        """Secrets found with each guess number, this node's guess being number ``start``."""
        out: dict[int, int] = {}
        stack = [(self, start)]
        while stack:
            node, k = stack.pop()
            found = node.size - sum(c.size for c in node.children.values())
            if found:
                out[k] = out.get(k, 0) + found
            stack.extend((c, k + 1) for c in node.children.values())
        return dict(sorted(out.items()))


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
            raise ValueError("a node with neither cells nor a win")
        i += 2
        out = OptimalNode(guess=guess, size=0, cost=0)
        for _ in range(code >> 1):
            reply = values[i]
            if reply in out.children:
                raise ValueError("a reply twice at one node")
            child, i = node(i + 1)
            out.children[reply] = child
        out.size = (code & 1) + sum(c.size for c in out.children.values())
        out.cost = out.size + sum(c.cost for c in out.children.values())
        return out, i

    root, end = node(0)
    if end != len(values):
        raise ValueError("trailing entries after the tree")
    return root


class SearchGame:
    """The compiled search's tables for one game (built once per game and process)."""

    def __init__(self, rules: Rules) -> None:
        space = CodeSpace.of(rules)
        space.require_enumerable()
        if space.size > MATRIX_LIMIT:
            from .errors import StrategyError

            raise StrategyError(
                f"the optimal search needs a table of {space.size:,}^2 replies for "
                f"{rules.describe()}; at most {MATRIX_LIMIT:,} codes are supported"
            )
        self.space = space
        codes = tables_of(space)
        b = len(possible_feedbacks(rules.pegs, rules.colors, rules.repeats)) - 1
        lb, dmin = kernel.bounds(space.size, b)
        cmask = np.zeros(space.size, dtype=np.int64)
        for i in range(rules.pegs):
            cmask |= np.int64(1) << codes.digits[:, i].astype(np.int64)
        dlb = np.zeros(space.size + 1, dtype=np.int64)
        dlb[:-1] = np.diff(lb)
        self.t = kernel.SearchTables(kernel.reply_matrix(codes), codes.digits, cmask, lb, dlb,
                                     dmin, rules.pegs, rules.colors, rules.repeats, b)  # fmt: skip
        self.win = rules.pegs * (rules.pegs + 1)

    def group(self, guesses: Sequence[int]) -> tuple[np.ndarray, int, np.int64]:
        g, m, used = kernel.history_group(self.t.digits, np.asarray(guesses, dtype=np.int64),
                                          self.t.pegs, self.t.colors)  # fmt: skip
        return g, int(m), np.int64(used)


_GAMES: dict[tuple[int, int, bool], SearchGame] = {}
_GAMES_LOCK = threading.Lock()


def game_of(rules: Rules) -> SearchGame:
    key = (rules.pegs, rules.colors, rules.repeats)
    with _GAMES_LOCK:
        if key not in _GAMES:
            if len(_GAMES) >= 2:
                _GAMES.pop(next(iter(_GAMES)))
            _GAMES[key] = SearchGame(rules)
        return _GAMES[key]


class Stopped(Exception):
    """The search was stopped (by Ctrl-C in the calling thread)."""


class _Run:
    """The searches in flight, so that all of them can be stopped at once."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.ctls: dict[int, np.ndarray] = {}
        self.stopped = False
        self.nodes = 0

    def start(self) -> np.ndarray:
        ctl = np.zeros(4, dtype=np.int64)
        with self.lock:
            ctl[kernel.STOP] = 1 if self.stopped else 0
            self.ctls[id(ctl)] = ctl
        return ctl

    def finish(self, ctl: np.ndarray) -> None:
        with self.lock:
            del self.ctls[id(ctl)]
            self.nodes += int(ctl[kernel.NODES])

    def stop(self, ctls: list[np.ndarray] | None = None) -> None:
        with self.lock:
            if ctls is None:
                self.stopped = True
            for ctl in self.ctls.values() if ctls is None else ctls:
                ctl[kernel.STOP] = 1


def _solve_cell(game: SearchGame, run: _Run, cell: np.ndarray, left: int, budget: int,
                group: np.ndarray, m: int, used: np.int64) -> tuple[int, np.ndarray | None]:  # fmt: skip
    """One compiled search (with bigger buffers if the first ones were too small)."""
    size = game.space.size
    stack_size, arena_size = 32 * size + 8192, 16 * len(cell) + 4096
    while True:
        ctl = run.start()
        stack = np.empty(stack_size, dtype=np.int64)
        arena = np.empty(arena_size, dtype=np.int64)
        try:
            cost = int(kernel.solve(game.t, cell, left, np.int64(min(budget, kernel.BIG)), group, m,
                                    used, stack, arena, ctl))  # fmt: skip
        finally:
            run.finish(ctl)
        if ctl[kernel.OVERFLOW]:
            stack_size, arena_size = 2 * stack_size, 2 * arena_size
            continue
        if ctl[kernel.STOP] or cost >= budget:
            return int(kernel.BIG), None
        return cost, arena[: ctl[kernel.END]].copy()


def _leaf(game: SearchGame, cell: np.ndarray) -> tuple[int, np.ndarray]:
    """Exact tree of one or two secrets."""
    if len(cell) == 1:
        return 1, np.array([cell[0], 1], dtype=np.int64)
    a, b = int(cell[0]), int(cell[1])
    return 3, np.array([a, 3, game.t.fbm[a, b], b, 1], dtype=np.int64)


def _wait(futures, run: _Run) -> None:
    """Wait for the futures, polling so that Ctrl-C in this thread stops the search."""
    pending = set(futures)
    try:
        while pending:
            _, pending = wait(pending, timeout=0.1, return_when=FIRST_COMPLETED)
    except KeyboardInterrupt:
        run.stop()
        wait(pending)
        raise


def solve_position(
    rules: Rules,
    secrets: np.ndarray,
    guesses: Sequence[int] = (),
    left: int | None = None,
    *,
    first: int | None = None,
    progress: Progress | None = None,
    workers: int | None = None,
) -> Solution | None:
    """The least total number of guesses that finds every secret of ``secrets`` within ``left``
    guesses (default: what the rules leave after ``guesses``), and a tree reaching it; None if no
    tree can. ``guesses`` are the codes played so far (their symmetry prunes the search);
    ``first`` forces the position's guess.

    Raises:
        KeyboardInterrupt: when interrupted; every compiled search has stopped by then.
    """
    import os

    game = game_of(rules)
    S = np.unique(np.asarray(secrets, dtype=np.int64))
    if left is None:
        left = rules.max_guesses - len(guesses)
    n = len(S)
    if n == 0:
        raise ValueError("no secrets")
    if left < int(game.t.dmin[n]):
        return None
    group, m, used = game.group(guesses)
    workers = workers or os.cpu_count() or 1
    run = _Run()
    pool = ThreadPoolExecutor(max_workers=max(1, workers))
    try:
        if (n <= SERIAL_SET or workers == 1) and first is None:
            future = pool.submit(_solve_cell, game, run, S, left, int(kernel.BIG), group, m, used)
            _wait([future], run)
            cost, flat = future.result()
            if progress:
                progress(1, 1, None if flat is None else cost)
            return None if flat is None else Solution(cost, flat)
        return _parallel_root(game, run, pool, S, guesses, left, group, m, used, first, progress)
    finally:
        pool.shutdown(wait=True)


def _parallel_root(game, run, pool, S, guesses, left, group, m, used, first, progress):
    n = len(S)
    if first is not None:
        roots = [(int(first), 0)]
    else:
        codes, bounds = kernel.root_guesses(game.t, S, left, kernel.BIG, group, m, used)
        roots = list(zip(codes.tolist(), bounds.tolist(), strict=True))
    best, best_flat = int(kernel.BIG), None
    done = 0
    for g, bound in roots:
        if bound >= best:
            break
        replies = game.t.fbm[g, S]
        order = np.argsort(replies, kind="stable")
        values, starts, counts = np.unique(replies[order], return_index=True, return_counts=True)
        cells = {int(f): S[order[s : s + c]] for f, s, c in zip(values, starts, counts, strict=True)
                 if f != game.win}  # fmt: skip
        if any(len(c) == n for c in cells.values()) or any(
            int(game.t.dmin[len(c)]) > left - 1 for c in cells.values()
        ):
            done += 1
            continue
        cgroup, cm, cused = game.group([*guesses, g])
        lb = game.t.lb
        known = {f: int(lb[len(c)]) for f, c in cells.items()}
        trees: dict[int, np.ndarray] = {}
        for f, c in cells.items():
            if len(c) <= 2:
                known[f], trees[f] = _leaf(game, c)
        lock = threading.Lock()
        failed = threading.Event()

        def task(f: int, cell: np.ndarray, best: int = best) -> None:
            with lock:
                if failed.is_set():
                    return
                budget = best - n - sum(v for k, v in known.items() if k != f)
            cost, flat = _solve_cell(game, run, cell, left - 1, budget, cgroup, cm, cused)
            with lock:
                if flat is None:
                    failed.set()
                    run.stop(list(run.ctls.values()))  # the siblings of this root guess
                    return
                known[f], trees[f] = cost, flat

        big = sorted((f for f, c in cells.items() if len(c) > 2), key=lambda f: (-len(cells[f]), f))
        futures = [pool.submit(task, f, cells[f]) for f in big]
        _wait(futures, run)
        for fut in futures:
            fut.result()
        if run.stopped:
            raise KeyboardInterrupt
        done += 1
        if not failed.is_set():
            total = n + sum(known.values())
            if total < best:
                best = total
                wins = int(game.win in values)
                parts = [np.array([g, 2 * len(cells) + wins], dtype=np.int64)]
                for f in sorted(cells):
                    parts.append(np.array([f], dtype=np.int64))
                    parts.append(trees[f])
                best_flat = np.concatenate(parts)
        if progress:
            left_to_try = done + sum(1 for _, b in roots[done:] if b < best)
            progress(done, left_to_try, None if best_flat is None else best)
    return None if best_flat is None else Solution(best, best_flat)


def check_tree(rules: Rules, flat: np.ndarray, secrets: np.ndarray, left: int) -> OptimalNode:
    """Parse a tree and confirm that it finds every secret of ``secrets`` (and nothing else)
    within ``left`` guesses, each reply leading where it says. Raises ValueError if not."""
    game = game_of(rules)
    root = parse(flat)
    stack: list[tuple[OptimalNode, np.ndarray, int]] = [(root, np.unique(secrets), left)]
    while stack:
        node, S, k = stack.pop()
        if k < 1:
            raise ValueError("the tree is deeper than the guess limit")
        if not 0 <= node.guess < game.space.size:
            raise ValueError("a guess out of range")
        replies = game.t.fbm[node.guess, S]
        wins = int((replies == game.win).sum())
        if node.size != len(S) or wins != node.size - sum(c.size for c in node.children.values()):
            raise ValueError("a node's secrets do not match its guess")
        for f, child in node.children.items():
            cell = S[replies == f]
            if f == game.win or len(cell) == 0:
                raise ValueError("an impossible reply in the tree")
            stack.append((child, cell, k - 1))
        if sum(int((replies == f).sum()) for f in node.children) + wins != len(S):
            raise ValueError("a reply missing from the tree")
    return root
