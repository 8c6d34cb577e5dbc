"""A proof of the optimum itself (the least total) that a second program checks: the driver.

:func:`prove_optimum` proves the optimum itself, guided by the exact search: each set is given a
claim no higher than its exact cost, so every guess at it can reach the claim. A guess whose
cells' one-level bounds fall short by D gets the D from its cells, each asked of the exact search
with a budget (its cost, or that it costs at least its bound plus D) and given a share of D in
proportion to what it has to spare; each such cell is then proved the same way, to its share.

The sets and bounds are the counting prover's (:mod:`.lower`); with worker processes the sets
:data:`~.lower.TASK_DEPTH` deep are proved by them (:mod:`.proof_workers`), and a checkpoint
keeps what is proved as it is proved (:mod:`.proof_book`).
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from typing import cast

import numpy as np

from ...core.rules import Rules
from ...errors import StrategyError
from ...runtime.pool import can_fork
from ...verify.proof import COMPACT, VERSION, PackedNode, ProofFile
from ..piece_control import usable_cores
from .lower import TASK_DEPTH, LowerBound, _Prover, _Set
from .proof_book import _Book
from .proof_workers import Farm, _Workers
from .run import _Run
from .symmetry import root_group
from .tables import FAIL


class _Guided(_Prover):
    """The proof of the optimum: each set proved to a claim no higher than its exact cost.

    With ``workers`` of 2 or more (and a system that can fork), the guesses at each set one guess
    above :data:`TASK_DEPTH` are raised by that many worker processes (:class:`_Workers`), all
    at once, and this one writes the set's line from what they send back; the next set's are
    sent before the last of a set's are answered (:meth:`close_all`). With 1, everything is
    proved here, one compiled call after another. ``compact``: the sets' lines are held (and
    kept in the book) in version 3 of the proof format, their leaves left out, not version 2.
    ``farm``: what raises those guesses instead of forked processes, made from this prover (with
    :class:`_Workers`' methods: a Dask cluster's, :mod:`mastermind.research.runner.proofs`)."""

    def __init__(
        self,
        rules: Rules,
        stop: threading.Event | None,
        workers: int = 1,
        book: _Book | None = None,
        compact: bool = False,
        farm: Callable[[_Guided], Farm] | None = None,
        within: int | None = None,
    ) -> None:
        super().__init__(rules, stop)
        self.limit = within  # (before the workers are forked: they prove within it too)
        self.version = COMPACT if compact else VERSION
        self.run = _Run(self.game, max(1, workers))
        self.serial = workers <= 1
        # called once a second at most, as sets are proved or searched
        self.heartbeat: Callable[[], None] | None = None
        self.beat = time.perf_counter()
        self.book = book  # where what is proved is kept (see :func:`prove_optimum`)
        self.workers: Farm | None = None
        self.sent: dict[int, list[int]] = {}  # by an open set's id: its guesses sent to the workers
        if farm is not None:
            self.workers = farm(self)
        elif workers > 1 and can_fork():
            self.workers = _Workers(self, workers)  # (forked now, before this process has threads)

    def _map(self, fn: Callable, items: list) -> list:
        """fn over the items on the run's threads (the compiled calls release the GIL), or one
        after another (``serial``); Ctrl-C or a stop stops every call in flight, and raises
        KeyboardInterrupt here."""
        if self.serial:
            out = [fn(item) for item in items]
        else:
            futures = [self.run.pool.submit(fn, item) for item in items]
            self.run.wait(futures, self._heartbeat)  # (a root's exact costs are searches of minutes)
            out = [f.result() for f in futures]
        if self.run.stopped or self._stopped():
            raise KeyboardInterrupt  # a stopped call's answer proves nothing
        return out

    def _heartbeat(self) -> None:
        if self.heartbeat is not None and time.perf_counter() - self.beat >= 1.0:
            self.beat = time.perf_counter()
            self.heartbeat()

    def deepen(self, node: _Set, cap: int) -> None:
        """As :meth:`_Prover.deepen`, the guesses' cells bounded by :meth:`_map`, each guess's no
        further than it takes to reach ``cap`` (the set's claim: such a guess needs no more)."""
        sym = self.game.group(list(node.history))
        codes, _ = self.game.root_guesses(node.S, self.left(node), cap, sym, self._ctl())
        guesses = node.guesses if node.guesses is not None else {}
        todo = [g for g in codes.tolist() if g not in guesses]
        guesses.update(zip(todo, self._map(lambda g: self.cells(node, g, sym, cap), todo), strict=True))
        node.guesses, node.cap = guesses, cap
        self.settle(node)
        self.deepened += 1

    def exact(self, cells: list[_Set], budgets: list[int]) -> list[int]:
        """Each cell's exact cost, or its budget where it costs at least that much (taken from
        the book where it has them, and put in it as each is found: at the root of a large game
        each is a search of minutes). Searched on the run's threads, or by the farm's workers
        where it searches them (a cluster's: :meth:`Farm.costs`)."""
        book = self.book
        if book is not None and any(len(cell.history) > TASK_DEPTH for cell in cells):
            book = None
        pairs = zip(cells, budgets, strict=True)
        found = [None if book is None else book.costs.get(book.key(c, b)) for c, b in pairs]
        todo = [i for i, cost in enumerate(found) if cost is None]

        def keep(i: int, cost: int) -> int:
            found[i] = cost = min(cost, budgets[i])
            if book is not None and not self.run.stopped:  # (a search stopped midway proves nothing)
                book.keep_cost(cells[i], budgets[i], cost)
            return cost

        def one(i: int) -> int:
            sym = self.game.group(list(cells[i].history))
            left = self.left(cells[i])
            return keep(i, self.run.kernel_call(self.run.root, cells[i].S, left, budgets[i], sym)[0])

        asked = [(i, cells[i], budgets[i]) for i in todo]
        if not asked or self.workers is None or not self.workers.costs(asked, keep):
            self._map(one, todo)
        assert None not in found
        return cast(list[int], found)

    def exact_ahead(self, node: _Set, claim: int) -> dict[int, int]:
        """The exact costs that raising each of the node's guesses to ``claim`` asks of its cells
        (:meth:`raise_guess`), searched all at once, the largest cells first, by the cell's id:
        at the root of a large game these are searches of minutes to an hour, and one guess's
        alone would leave all but one core idle while its largest cell is searched."""
        assert node.guesses is not None
        asked = [
            (cell, cell.low + short)
            for g in node.guesses
            if (short := self.short(node, g, claim))
            for cell in node.guesses[g].values()
        ]
        asked.sort(key=lambda pair: -len(pair[0].S))
        costs = self.exact([cell for cell, _ in asked], [budget for _, budget in asked])
        return {id(cell): cost for (cell, _), cost in zip(asked, costs, strict=True)}

    def close(self, node: _Set, claim: int) -> None:
        """Prove the node to ``claim`` (no more than its exact cost), then keep only its line.
        With worker processes, a set one guess above :data:`TASK_DEPTH` has each of its guesses
        raised by one of them (:meth:`raise_guess`, the sets below proved there)."""
        if self.open(node, claim):
            self.seal(node, claim)

    def open(self, node: _Set, claim: int) -> bool:
        """The first half of :meth:`close`: the node bounded a level deeper and, with worker
        processes, its guesses short of the claim sent to them. False if it is proved already
        (or taken from the book)."""
        if node.low >= claim:
            return False
        if self.book is not None and len(node.history) <= TASK_DEPTH and self.book.take(node, claim):
            return False
        self.deepen(node, claim)
        assert node.guesses is not None
        if self.workers is not None and len(node.history) + 1 == TASK_DEPTH:
            self.sent[id(node)] = raised = [g for g in node.guesses if self.short(node, g, claim)]
            for g in raised:
                self.workers.submit(node, g, claim)
        return True

    def seal(self, node: _Set, claim: int) -> None:
        """The second half of :meth:`close`, once the node is open: its guesses raised (or their
        workers' answers taken), its line written and kept."""
        assert node.guesses is not None
        if id(node) in self.sent:
            assert self.workers is not None
            for g in self.sent.pop(id(node)):
                if not self.workers.finish(node, g):
                    raise StrategyError(f"internal: the claim {claim} is above the exact cost")
        else:
            for g in node.guesses:
                if not self.raise_guess(node, g, claim):
                    raise StrategyError(f"internal: the claim {claim} is above the exact cost")
        self.settle(node)
        node.proof = self.proof_node(node, node.low)
        node.guesses = None  # (the sets below are in the line now)
        if 0 < len(node.history) <= TASK_DEPTH:  # (held packed: a large proof's lines are gigabytes as nodes)
            node.proof = PackedNode.pack(self.rules, node.proof, self.version)
        if self.book is not None and len(node.history) <= TASK_DEPTH:
            self.book.keep(node, claim)
        self._heartbeat()

    def close_all(self, claims: list[tuple[_Set, int]], after: Callable[[], None] | None = None) -> None:
        """Close each node to its claim, ``after()`` as each is proved. With worker processes,
        the sets one guess above :data:`TASK_DEPTH` are opened while fewer than two tasks per
        worker wait, so that the next set's tasks are queued before a set's last ones end (the
        workers would otherwise wait at the end of each set, which on many cores bounds the
        proof's speed: ``benchmarks/guided_schedule.py``)."""
        workers = self.workers
        if workers is None or not claims or len(claims[0][0].history) + 1 != TASK_DEPTH:
            for node, claim in claims:
                self.close(node, claim)
                if after:
                    after()
            return
        todo, opened = list(reversed(claims)), list[tuple[_Set, int]]()
        while todo or opened:
            while todo and workers.running < 2 * workers.width:
                node, claim = todo.pop()
                if self.open(node, claim):
                    opened.append((node, claim))
                elif after:
                    after()
            if opened and workers.ready(opened[0][0], self.sent[id(opened[0][0])]):
                self.seal(*opened.pop(0))
                if after:
                    after()
            elif opened:
                workers.receive()

    def short(self, node: _Set, g: int, claim: int) -> int:
        """What guess g at the node (bounded a level deeper) lacks of ``claim``: 0 if nothing,
        or if it leaves the set whole (no line needed: no best tree plays it)."""
        assert node.guesses is not None
        n = len(node.S)
        if any(len(c.S) == n for c in node.guesses[g].values()):
            return 0
        return max(0, claim - self.value(node, g))

    def raise_guess(
        self,
        node: _Set,
        g: int,
        claim: int,
        after: Callable[[], None] | None = None,
        known: dict[int, int] | None = None,
    ) -> bool:
        """Raise guess g's cells at the node (bounded a level deeper) until it reaches ``claim``;
        False if it costs less: its cells are then proved to their exact costs. ``after()`` as
        each cell is proved. ``known``: each cell's exact cost, or a budget it costs at least, by
        the cell's id, searched already (:meth:`exact_ahead`)."""
        assert node.guesses is not None
        short = self.short(node, g, claim)
        if short == 0:
            return True
        cells = sorted(node.guesses[g].values(), key=lambda c: -len(c.S))
        budgets = [c.low + short for c in cells]
        if known is None:
            reach = self.exact(cells, budgets)
        else:  # (what costs at least a higher budget costs at least this one too)
            reach = [min(known[id(c)], b) for c, b in zip(cells, budgets, strict=True)]
        spare = [r - c.low for c, r in zip(cells, reach, strict=True)]
        if sum(spare) < short:  # (then no cell reached its budget: each reach is its exact cost)
            self.close_all(list(zip(cells, reach, strict=True)), after)
            return False
        shares = shares_of(spare, short)
        claims = [(cell, cell.low + share) for cell, share in zip(cells, shares, strict=True) if share > 0]
        self.close_all(claims, after)
        return True


def shares_of(spare: list[int], short: int) -> list[int]:
    """``short`` shared among cells (the largest first) in proportion to what each has to
    spare, none given more than its spare; the smallest cells give back what rounding up put
    over. ``sum(spare)`` is at least ``short``."""
    shares = [min(s, -(-short * s // sum(spare))) for s in spare]
    over = sum(shares) - short
    for i in reversed(range(len(shares))):
        cut = min(over, shares[i])
        shares[i] -= cut
        over -= cut
    return shares


def prove_optimum(
    rules: Rules,
    optimum: int | None = None,
    seconds: float | None = None,
    stop: threading.Event | None = None,
    progress: Callable[[int, int | None], None] | None = None,
    workers: int | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    compact: bool = False,
    farm: Callable[[_Guided], Farm] | None = None,
    within: int | None = None,
) -> LowerBound:
    """A proof that every tree of ``rules`` (whatever the guess limit) costs at least the least
    total, guided by the exact search (see the module's documentation).

    ``optimum``: the least total, if known (else the exact search finds it first; given too high,
    as a game's least total within a guess limit may be, the proof ends at the lower one). Stopped by
    ``seconds``, ``stop`` or Ctrl-C, it returns the bound proved so far (the root's guesses proved
    so far at the optimum, the others at their cells' one-level bounds). ``progress(bound,
    optimum)`` as each cell of a guess at the root is proved, and once a second at most while
    the sets below are (the bound may not move for many minutes on a large game). ``workers``:
    the processes to prove it on [the cores this process may use]; with 1, or on a system that
    cannot fork, it is proved in this one, one compiled call after another. ``checkpoint``: a
    file (JSON lines) where what is proved is kept as it is proved (see :class:`_Book`); the same
    proof given the same file again (stopped, killed, or on another machine) takes it from there.
    ``compact``: the proof is in version 3 of the format (its leaves left out: written in that
    version only, see :data:`~mastermind.verify.proof.COMPACT`), and so are the records of its
    checkpoint (a hundredth of their size in version 2); it resumes from a checkpoint of either.
    ``farm``: where the sets :data:`~.lower.TASK_DEPTH` deep are proved, instead of ``workers``
    processes (see :class:`_Guided`; a cluster's searches the root's exact costs too).
    ``within``: the proof is of the least total of the trees that find every secret within that
    many guesses (``optimum`` is then theirs).

    Raises:
        CheckpointError: the checkpoint cannot be read or written, is another game's or another
            limit's, or is damaged.
        StrategyError: no tree finds every secret within ``within`` guesses.
    """
    began = time.perf_counter()
    book = None if checkpoint is None else _Book(checkpoint, rules, compact, within)
    prover = _Guided(rules, stop, usable_cores() if workers is None else workers, book, compact, farm, within)
    timer, expired = None, threading.Event()
    if seconds is not None:

        def expire() -> None:
            expired.set()
            prover.run.interrupt()

        timer = threading.Timer(max(0.0, seconds), expire)
        timer.daemon = True
        timer.start()
    codes = np.arange(rules.size, dtype=np.int64)
    root = _Set(codes, (), root_group(rules.pegs, rules.colors), 0, int(prover.lb[rules.size]))
    ended = False
    try:
        if optimum is None:
            optimum = prover.exact([root], [FAIL])[0]
            if optimum >= FAIL:
                said = f"within {within} guesses" if within is not None else "at all"
                raise StrategyError(f"no tree finds every secret {said} ('mastermind worst' proves that)")
        prover.deepen(root, optimum)

        def report() -> None:  # (the bound reached stands if the proof is stopped)
            prover.settle(root)
            if progress:
                progress(root.low, optimum)

        report()
        prover.heartbeat = report
        assert root.guesses is not None
        known = prover.exact_ahead(root, optimum)
        for g in sorted(root.guesses, key=lambda g: prover.value(root, g)):
            if not prover.raise_guess(root, g, optimum, report, known):  # below the aim: the optimum is lower
                optimum = root.cap = prover.value(root, g)
            report()
        ended = True
    except KeyboardInterrupt:
        if not expired.is_set():  # Ctrl-C, not the time: the caller hears of it as with prove
            prover.stop.set()
    finally:
        if timer is not None:
            timer.cancel()
        prover.run.pool.shutdown(wait=True)
        if prover.workers is not None:
            prover.workers.close()
    total = root.low
    line = prover.proof_node(root, total)
    if compact:
        line = PackedNode.pack(rules, line, COMPACT)
    proof = ProofFile.of_total(rules, total, line, within, search="lower")
    proof.version = prover.version
    return LowerBound(rules, total, proof, prover.deepened, time.perf_counter() - began, ended)
