"""A piece of the exact search cut for a cluster (:mod:`.split`): its description in a few
numbers, what it found, and its work, done from the description alone in any process."""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ...core.rules import Rules
from ..piece_control import running
from .run import SERIAL_SET, SPLIT, History, key_of
from .search import improves, piece_run, piece_secrets, solve_piece
from .tables import FAIL, game_of


@dataclass(frozen=True)
class Piece:
    """A piece of the search, described in a few numbers: ``kind`` ``"set"`` (the least cost
    of the secrets after ``history``, below ``budget``), ``"guess"`` (the same with ``guess``
    played first) or ``"plan"`` (the guesses to try there, in order, with their bounds)."""

    kind: str
    history: History
    budget: int = FAIL
    guess: int = -1

    @property
    def key(self) -> str:
        return key_of(self.kind, self.history, self.guess)


@dataclass(frozen=True)
class Outcome:
    """What a piece found: ``cost`` and ``flat`` (None: nothing below the budget, and ``cost``
    is the budget), or for a plan ``roots``: (guess, bound, bound with its cells bounded one
    level down, those cells' bounds by reply or None); and the seconds of CPU it took."""

    cost: int
    flat: np.ndarray | None
    seconds: float
    roots: tuple[tuple[int, int, int, tuple[int, ...] | None], ...] = ()


def work(rules: Rules, piece: Piece) -> Outcome:
    """Solve one piece from its description alone, in any process (a Dask worker's task).

    Raises:
        ExecutorError: the run was interrupted meanwhile (:func:`..pieces.stop_pieces`).
    """
    start = time.thread_time()
    if piece.kind == "plan":
        roots = plan(rules, piece.history)
        return Outcome(FAIL, None, time.thread_time() - start, roots)
    first = None if piece.kind == "set" else piece.guess
    cost, flat = solve_piece(rules, piece.history, piece.budget, first=first)
    return Outcome(cost if flat is not None else piece.budget, flat, time.thread_time() - start)


def plan(rules: Rules, history: History) -> tuple[tuple[int, int, int, tuple[int, ...] | None], ...]:
    """The guesses the search tries after ``history``, in its order (bound, then code), each
    with its bound, its bound with its cells bounded one level down and those cells' bounds
    (by reply; for a set that the search on threads would cut too, where
    :func:`~.search.improves` allows the cost; else the bound and None). In the calling thread."""
    from ...errors import ExecutorError
    from .tables import _kernel

    game = game_of(rules)
    S = piece_secrets(rules, history)
    left = rules.max_guesses - len(history)
    sym = game.group([g for g, _ in history])
    run = piece_run(game)
    with running(run.interrupt):
        ctl = run.start(run.root)
        try:
            codes, bounds = game.root_guesses(S, left, FAIL, sym, ctl)
        finally:
            run.finish(run.root, ctl)
        roots = list(zip(codes.tolist(), bounds.tolist(), strict=True))
        cells: list[np.ndarray | None] = [None] * len(roots)
        large = len(S) > max(SERIAL_SET, game.space.size // SPLIT)  # as the search on threads
        if large and improves(len(roots), len(S), game.space.size):
            cells = [run.cell_bounds(run.root, S, left, sym, g) for g, _ in roots]
    if run.stopped or ctl[_kernel().STOP]:
        raise ExecutorError("stopped: the run was interrupted")
    out: list[tuple[int, int, int, tuple[int, ...] | None]] = []
    for (g, bound), below in zip(roots, cells, strict=True):
        if below is None:
            out.append((g, bound, bound, None))
        else:
            better = max(bound, min(len(S) + int(below.sum()), FAIL))
            out.append((g, bound, better, tuple(int(b) for b in below)))
    return tuple(out)


def work_task(rules: Rules, piece: Piece, number: int) -> Outcome:
    """:func:`work`, as the executor calls it (the number is the client's, to match results)."""
    return work(rules, piece)
