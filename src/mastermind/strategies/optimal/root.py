"""The optimal strategy's root search in pieces: the search of a whole game cut at the root into
pieces that any process solves from a short description (:func:`search_in_pieces`), which the
runner hands to its executors (threads of this process, or a Dask cluster) and checkpoints piece
by piece. The root guesses race by the rules of :class:`.race.Race`, the same rules as the
search on this process's threads (:func:`.search.solve_position`), so the tree is the same.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from ...core.rules import Rules
from ...errors import TreeError
from ..base import MapTasks, PieceBook
from ..progress import OnProgress, Progress
from .race import Race
from .search import FAIL, OptimalNode, Solution, check_tree, game_of, join_cells, root_guesses, solve_piece


def _cell_key(guess: int, reply: int) -> str:
    return f"cell:{guess}:{reply}"


def _root_key(guess: int) -> str:
    return f"root:{guess}"


def search_in_pieces(
    rules: Rules,
    map_tasks: MapTasks,
    *,
    first: int | None = None,
    book: PieceBook | None = None,
    progress: OnProgress | None = None,
) -> tuple[Solution | None, int, int]:
    """The optimal tree of the whole game, its root search cut into pieces run by ``map_tasks``;
    (None, ...) if no tree finds every secret within the guess limit. Returns the solution, the
    pieces solved now and those read back from ``book``.

    First every cell (reply) of the first root guess in the search's order, each a piece solved
    exactly; then each other root guess not pruned, a piece whose budget the :class:`Race` sets
    from the best total so far. Each piece is :func:`.search.solve_piece` on a short picklable
    description, so any process can solve it; its result is the one the local search finds, so
    the tree is too, bit for bit. With ``book``, each finished piece is recorded (a piece that
    found nothing below its budget too: that proves its guess loses) and the pieces an earlier
    run recorded are checked against this search and not solved again.

    Raises:
        CheckpointError (from ``book.damaged``): a recorded piece that is not this search's.
        KeyboardInterrupt: on Ctrl-C, with every piece of this process stopped.
    """
    game = game_of(rules)
    n, left, dmin = game.space.size, rules.max_guesses, game.t.dmin
    everything = np.arange(n, dtype=np.int64)
    if n <= 2 or left < int(dmin[n]):
        cost, flat = solve_piece(rules, (), first=first)
        return (None if flat is None else Solution(cost, flat)), 0, 0
    roots = [(int(first), 0)] if first is not None else root_guesses(rules, everything, left)
    if not roots:
        return None, 0, 0
    race = Race(roots, FAIL)
    rank_of = {g: r for r, (g, _) in enumerate(roots)}
    g0 = roots[0][0]
    from ..._kernels import feedback  # numba: a search is made

    cells = dict(feedback.cells(game.codes, g0, everything))
    found = cells.pop(game.win, None) is not None
    playable = all(len(c) < n and int(dmin[len(c)]) <= left - 1 for c in cells.values())
    costs: dict[int, int | None] = {}
    trees: dict[int, np.ndarray] = {}
    resumed = _resume(rules, book, race, rank_of, g0, cells, costs, trees)
    tasks = [f for f in sorted(cells, key=lambda f: (-len(cells[f]), f)) if len(cells[f]) > 2]
    solved = 0

    def report() -> None:
        if progress is None:
            return
        done = sum(1 for f in tasks if f in costs) + len(race.searched - {0})
        todo = (sum(1 for f in tasks if f not in costs) if playable else 0) + race.waiting(1)
        best = race.best
        progress(Progress("search", done, done + todo, 0, n, None if best.tree is None else best.cost))

    report()
    if playable:  # the first root guess: its cells, each exactly

        def cell_done(args: tuple[Any, ...], result: tuple[int, np.ndarray | None]) -> None:
            nonlocal solved
            solved += 1
            f = args[1][0][1]
            cost, flat = result
            costs[f] = None if flat is None else cost
            if flat is not None:
                trees[f] = flat
            if book is not None:
                book.record_piece(_cell_key(g0, f), costs[f], flat)
            report()

        map_tasks(solve_piece, [(rules, ((g0, f),)) for f in tasks if f not in costs], cell_done)
        for f in cells:
            if len(cells[f]) <= 2:
                costs[f], trees[f] = _small_cell(rules, g0, f)
        if all(costs[f] is not None for f in cells):
            race.offer(0, n + sum(costs[f] or 0 for f in cells), join_cells(g0, found, trees))
        else:
            race.offer(0, FAIL, None)
        report()

    def others() -> Iterable[tuple[Any, ...]]:  # read as room frees: each with the budget then
        for rank in range(1, len(roots)):
            if rank not in race.searched and (budget := race.budget(rank)) is not None:
                yield rules, (), min(budget, FAIL), roots[rank][0]

    def root_done(args: tuple[Any, ...], result: tuple[int, np.ndarray | None]) -> None:
        nonlocal solved
        solved += 1
        g = args[3]
        cost, flat = result
        if book is not None:
            book.record_piece(_root_key(g), None if flat is None else cost, flat)
        race.offer(rank_of[g], cost, flat)
        report()

    map_tasks(solve_piece, others(), root_done)
    best = race.best
    return (None if best.tree is None else Solution(best.cost, best.tree)), solved, resumed


def _small_cell(rules: Rules, guess: int, reply: int) -> tuple[int, np.ndarray]:
    """A cell of one or two secrets, solved here (a playable guess's cells always have a tree)."""
    cost, leaf = solve_piece(rules, ((guess, reply),))
    if leaf is None:  # pragma: no cover - dmin says one guess more always suffices for two
        raise RuntimeError("a cell of at most two secrets without a tree")
    return cost, leaf


def _checked(rules: Rules, tree: np.ndarray, secrets: np.ndarray, left: int) -> OptimalNode | None:
    """A checkpoint's tree (data read from disk) if it is a tree of ``secrets`` within ``left``
    guesses; None if it is not."""
    try:
        return check_tree(rules, tree, secrets, left)
    except TreeError:  # check_tree's verdict on a tree that does not hold
        return None


def _resume(rules: Rules, book: PieceBook | None, race: Race, rank_of: dict[int, int], g0: int,
            cells: dict[int, np.ndarray], costs: dict[int, int | None],
            trees: dict[int, np.ndarray]) -> int:  # fmt: skip
    """Take what an earlier run of this search recorded in ``book``, each piece checked against
    this search (a cell of the first root guess, another root guess) before it is used."""
    if book is None:
        return 0
    left = rules.max_guesses
    everything = np.arange(game_of(rules).space.size, dtype=np.int64)
    resumed = 0
    for key, (line, kept, tree) in book.pieces.items():
        kind, _, rest = key.partition(":")
        parts = rest.split(":")
        if not all(p.isdigit() for p in parts):
            raise book.damaged(line)
        f = int(parts[1]) if kind == "cell" and len(parts) == 2 and int(parts[0]) == g0 else -1
        if len(cells.get(f, ())) > 2:
            if tree is not None:
                node = _checked(rules, tree, cells[f], left - 1)
                if node is None or node.cost != kept:
                    raise book.damaged(line)  # not this cell's tree
                trees[f] = tree
            costs[f] = kept
        elif kind == "root" and len(parts) == 1 and rank_of.get(int(rest), 0) > 0:
            if tree is not None:
                node = _checked(rules, tree, everything, left)
                if node is None or node.cost != kept or node.guess != int(rest):
                    raise book.damaged(line)  # not this guess's tree
            race.offer(rank_of[int(rest)], FAIL if kept is None else kept, tree)
        else:
            raise book.damaged(line)  # a piece of another search
        resumed += 1
    return resumed
