"""A lower bound on the least total, with a proof that a second program checks.

The exact search proves its lower bounds to itself; this module writes one down, as a proof file
with the claim ``total`` (:mod:`mastermind.verify.proof`), which the plain-Python checker replays
with nothing but the scoring rule. The bound is built from counting, a few levels down:

* A cell of m secrets costs at least ``T(K, m)`` (1 secret found by its first guess, at most K
  more by the second...). One level down, a set S costs at least the least, over every guess,
  of ``|S|`` plus its cells' counting bounds: the compiled search's least guess bound.
* At the root, each guess (the least of its class) gets its cells' one-level bounds: the least
  of those totals bounds the game's least total. This is the bound the search reports before it
  has solved anything.
* Then, while the bound is below a target (the optimum or the best tree known, say) and time is
  left, the root guess with the least bound is raised (:meth:`_Prover.lift`): its cells, largest
  first, are bounded a level deeper (each guess there below the cell's aim with its own cells'
  one-level bounds), or, once they are, raised the same way through their own least guess. Sets
  are taken down to depth 2 while that raises the bound, then 3, then 4 (:data:`DEPTHS`).

The proof lists a cell's bound only where counting falls short of what its guess needs, so that
the checker, which scans every class of guesses at each line, does no more than it must.

:func:`prove_optimum` proves the optimum itself, guided by the exact search: each set is given a
claim no higher than its exact cost, so every guess at it can reach the claim. A guess whose
cells' one-level bounds fall short by D gets the D from its cells, each asked of the exact search
with a budget (its cost, or that it costs at least its bound plus D) and given a share of D in
proportion to what it has to spare; each such cell is then proved the same way, to its share.
"""

from __future__ import annotations

import base64
import hashlib
import itertools
import multiprocessing
import os
import queue
import threading
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...core.feedback import Feedback
from ...core.rules import Rules
from ...errors import ProofError, StrategyError
from ...runtime.journal import Journal
from ...runtime.pool import Pool, can_fork, uninterrupted
from ...verify.arithmetic import Perm
from ...verify.files import game_dict, read_header
from ...verify.proof import FORMAT, VERSION, PackedNode, ProofFile, ProofNode
from ..piece_control import usable_cores
from .run import _Run
from .symmetry import child_group, generators, root_group
from .tables import FAIL, _feedback, _kernel, game_of

#: Guesses left given to the compiled bounds: more than any tree needs, so no guess limit binds.
NO_LIMIT = 64

#: The depths bounded in turn (the root is at 0, its guesses' cells at 1): sets down to the first
#: are bounded a level deeper while that raises the bound, then down to the next, and so on.
DEPTHS = (2, 3, 4)

#: With worker processes, the sets this many guesses deep (the root is 0) are proved by them: each
#: guess at a set one guess above is raised by one of them, its cells' exact costs asked and its
#: cells proved there. Most of a proof's time goes into the sets this deep, and each is large
#: enough to be worth a message to a process.
TASK_DEPTH = 2


@dataclass
class _Set:
    """A set of secrets after a history of guesses, with what is proved of its cost: ``low``;
    ``guesses`` (once bounded a level deeper) maps each guess whose bound was below ``cap`` to
    its cells by reply; every other guess costs at least ``cap`` by counting one level down."""

    S: np.ndarray
    history: tuple[int, ...]
    group: list[Perm]
    used: int
    low: int
    guesses: dict[int, dict[int, _Set]] | None = None
    cap: int = 0
    spent: bool = False  # nothing below its least guess can rise any more
    proof: ProofNode | None = None  # its line, once proved to ``low`` (the sets below let go)


@dataclass(frozen=True)
class LowerBound:
    """What :func:`prove` proved: every tree of ``rules`` costs at least ``total``; ``proof`` is
    the file that says why; ``deepened``: the cells bounded a level deeper; ``ended``: whether
    the prover went to its end (not stopped by the time or a stop)."""

    rules: Rules
    total: int
    proof: ProofFile
    deepened: int
    seconds: float
    ended: bool = True


class _Prover:
    def __init__(self, rules: Rules, stop: threading.Event | None) -> None:
        self.rules = rules
        self.game = game_of(rules)
        self.t = self.game.t
        self.pegs, self.colors = rules.pegs, rules.colors
        self.colours = [tuple(int(c) for c in row) for row in self.game.codes.digits.tolist()]
        self.stop = stop or threading.Event()
        self.lb = self.t.lb  # counting with every reply of the game (the checker's K is no larger)
        self.deepened = 0
        self.depth = DEPTHS[0]  # sets above this depth may be bounded a level deeper

    def _stopped(self) -> bool:
        return self.stop.is_set()

    @staticmethod
    def _ctl() -> np.ndarray:
        """A control block the compiled calls run to their end with: a call stopped midway
        returns partial bounds, which must never enter a proof (a stop is checked between
        calls instead)."""
        return np.zeros(_kernel().CTL, dtype=np.int64)

    def cells(
        self, node: _Set, g: int, sym: tuple[np.ndarray, int, np.int64], cap: int = FAIL
    ) -> dict[int, _Set]:
        """The cells of guess g at the node's set (whose history's group is ``sym``), each with
        its one-level bound; once the guess is known to cost ``cap`` or more, the cells left
        (the smallest) have their counting bounds only."""
        bounds = _kernel().cell_bounds(
            self.t,
            node.S,
            np.int64(g),
            np.int64(NO_LIMIT),
            *sym,
            self.game.new_counts(),
            self._ctl(),
            np.int64(cap),
        )
        group, used = child_group(node.group, node.used, self.colours[g], self.colors)
        history = (*node.history, g)
        out = {}
        for f, cell in _feedback().cells(self.game.codes, g, node.S):
            if f != self.game.win:
                low = max(int(bounds[f]), int(self.lb[len(cell)]))
                out[f] = _Set(cell, history, group, used, low)
        return out

    def value(self, node: _Set, g: int) -> int:
        assert node.guesses is not None
        return len(node.S) + sum(c.low for c in node.guesses[g].values())

    def deepen(self, node: _Set, cap: int) -> None:
        """Bound the node a level deeper: each guess below ``cap`` gets its cells' bounds."""
        sym = self.game.group(list(node.history))
        codes, _ = self.game.root_guesses(node.S, NO_LIMIT, cap, sym, self._ctl())
        guesses = node.guesses if node.guesses is not None else {}
        for g in codes.tolist():
            if self._stopped():
                raise KeyboardInterrupt
            if g not in guesses:
                guesses[g] = self.cells(node, g, sym)
        node.guesses, node.cap = guesses, cap
        self.settle(node)
        self.deepened += 1

    def unspend(self, node: _Set) -> None:
        """Every set below the node may rise again (the depth allowed has grown)."""
        stack = [node]
        while stack:
            here = stack.pop()
            here.spent = False
            for cells in (here.guesses or {}).values():
                stack.extend(cells.values())

    def settle(self, node: _Set) -> None:
        """The node's bound from its guesses: the least of their totals, or ``cap``."""
        assert node.guesses is not None
        node.low = max(node.low, min([node.cap, *(self.value(node, g) for g in node.guesses)]))

    def lift(self, node: _Set, need: int, depth: int) -> bool:
        """Raise the bound of a node bounded deeper, by up to ``need``: its least guess's cells are
        bounded a level deeper, largest first, or (those already were) lifted the same way; or,
        when the guesses not yet bounded deeper are the least, they are. Whether anything moved:
        False when nothing below its least guess can rise above ``self.depth``."""
        assert node.guesses is not None
        values = {g: self.value(node, g) for g in node.guesses}
        least = min(values.values(), default=node.cap)
        if least >= node.cap:
            if node.cap >= FAIL:
                return False
            self.deepen(node, node.low + need)
            return True
        g = min(g for g, v in values.items() if v == least)
        cells = [c for c in node.guesses[g].values() if len(c.S) >= 3 and not c.spent]
        for cell in sorted(cells, key=lambda c: (c.guesses is not None, -len(c.S))):
            if cell.guesses is None and depth + 1 < self.depth:
                self.deepen(cell, cell.low + need)
            elif cell.guesses is None or not self.lift(cell, need, depth + 1):
                cell.spent = True
                continue
            self.settle(node)
            return True
        return False

    # -- the proof ---------------------------------------------------------------------------

    def proof_node(self, node: _Set, claim: int) -> ProofNode:
        """The node's line: ``claim`` (at most its bound), with the lines its guesses need."""
        if node.proof is not None and claim <= node.proof.total:
            return node.proof
        present = int(np.bitwise_or.reduce(self.t.cmask[node.S]))
        gens = generators(node.group, node.used, present, self.pegs, self.colors)
        out = ProofNode("total", gens, total=claim)
        for g in sorted(node.guesses or ()):
            assert node.guesses is not None
            cells = node.guesses[g]
            if any(len(c.S) == len(node.S) for c in cells.values()):
                continue  # leaves the set whole: the checker skips it
            reach = len(node.S) + sum(int(self.lb[len(c.S)]) for c in cells.values())
            gains = sorted(((c.low - int(self.lb[len(c.S)]), f) for f, c in cells.items()), reverse=True)
            for gain, f in gains:
                if reach >= claim or gain <= 0:
                    break
                reach += gain
                child = cells[f]
                out.children.append(
                    (self.colours[g], Feedback.from_int(f, self.pegs), self.proof_node(child, child.low))
                )
            if reach < claim:
                raise StrategyError(f"internal: guess {g} reaches {reach}, below the {claim} claimed")
        out.children.sort(key=lambda line: (line[0], line[1].black, line[1].white))
        return out


def prove(
    rules: Rules,
    target: int | None = None,
    seconds: float | None = None,
    stop: threading.Event | None = None,
    progress: Callable[[int, int | None], None] | None = None,
) -> LowerBound:
    """A lower bound on the least total of ``rules`` (whatever the guess limit) and its proof.

    Bounds every root guess with its cells one level down, then raises the least of them (see
    the module's documentation) until the bound reaches ``target``, ``seconds`` have passed, no
    cell of the least root guess rises any more, or ``stop`` is set (Ctrl-C too: the bound
    reached so far is returned). ``progress(bound, target)`` as the bound rises.
    """
    began = time.perf_counter()
    prover = _Prover(rules, stop)
    codes = np.arange(rules.size, dtype=np.int64)
    root = _Set(codes, (), root_group(rules.pegs, rules.colors), 0, int(prover.lb[rules.size]))
    ended = True
    try:
        prover.deepen(root, FAIL)
        if progress:
            progress(root.low, target)
        for depth in DEPTHS:
            prover.depth = depth
            prover.unspend(root)
            while (target is None or root.low < target) and not prover.stop.is_set():
                if seconds is not None and time.perf_counter() - began > seconds:
                    ended = False
                    break
                assert root.guesses is not None
                ranked = sorted((prover.value(root, g), g) for g in root.guesses)
                least = ranked[0][0]
                ceiling = ranked[1][0] if len(ranked) > 1 else FAIL
                if target is not None:
                    ceiling = min(ceiling, target)
                if not prover.lift(root, max(1, ceiling - least), 0):
                    break
                if progress:
                    progress(root.low, target)
    except KeyboardInterrupt:
        prover.stop.set()
    ended = ended and not prover.stop.is_set()
    total = root.low
    proof = ProofFile.of_total(rules, total, prover.proof_node(root, total), search="lower")
    return LowerBound(rules, total, proof, prover.deepened, time.perf_counter() - began, ended)


class _Guided(_Prover):
    """The proof of the optimum: each set proved to a claim no higher than its exact cost.

    With ``workers`` of 2 or more (and a system that can fork), the guesses at each set one guess
    above :data:`TASK_DEPTH` are raised by that many worker processes (:class:`_Workers`), all
    at once, and this one writes the set's line from what they send back; the next set's are
    sent before the last of a set's are answered (:meth:`close_all`). With 1, everything is
    proved here, one compiled call after another."""

    def __init__(
        self, rules: Rules, stop: threading.Event | None, workers: int = 1, book: _Book | None = None
    ) -> None:
        super().__init__(rules, stop)
        self.run = _Run(self.game, max(1, workers))
        self.serial = workers <= 1
        # called once a second at most, as sets are proved or searched
        self.heartbeat: Callable[[], None] | None = None
        self.beat = time.perf_counter()
        self.book = book  # where what is proved is kept (see :func:`prove_optimum`)
        self.workers: _Workers | None = None
        self.sent: dict[int, list[int]] = {}  # by an open set's id: its guesses sent to the workers
        if workers > 1 and can_fork():
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
        codes, _ = self.game.root_guesses(node.S, NO_LIMIT, cap, sym, self._ctl())
        guesses = node.guesses if node.guesses is not None else {}
        todo = [g for g in codes.tolist() if g not in guesses]
        guesses.update(zip(todo, self._map(lambda g: self.cells(node, g, sym, cap), todo), strict=True))
        node.guesses, node.cap = guesses, cap
        self.settle(node)
        self.deepened += 1

    def exact(self, cells: list[_Set], budgets: list[int]) -> list[int]:
        """Each cell's exact cost, or its budget where it costs at least that much (taken from
        the book where it has them, and put in it as each is found: at the root of a large game
        each is a search of minutes)."""
        book = self.book
        if book is not None and any(len(cell.history) > TASK_DEPTH for cell in cells):
            book = None

        def one(item: tuple[_Set, int]) -> int:
            cell, budget = item
            if book is not None and (known := book.costs.get(book.key(cell, budget))) is not None:
                return known
            sym = self.game.group(list(cell.history))
            cost, _ = self.run.kernel_call(self.run.root, cell.S, NO_LIMIT, budget, sym)
            cost = min(cost, budget)
            if book is not None and not self.run.stopped:  # (a search stopped midway proves nothing)
                book.keep_cost(cell, budget, cost)
            return cost

        return self._map(one, list(zip(cells, budgets, strict=True)))

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
            node.proof = PackedNode.pack(self.rules, node.proof)
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
            while todo and workers.running < 2 * len(workers.pool.processes):
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

    def raise_guess(self, node: _Set, g: int, claim: int, after: Callable[[], None] | None = None) -> bool:
        """Raise guess g's cells at the node (bounded a level deeper) until it reaches ``claim``;
        False if it costs less: its cells are then proved to their exact costs. ``after()`` as
        each cell is proved."""
        assert node.guesses is not None
        short = self.short(node, g, claim)
        if short == 0:
            return True
        cells = sorted(node.guesses[g].values(), key=lambda c: -len(c.S))
        reach = self.exact(cells, [c.low + short for c in cells])
        spare = [r - c.low for c, r in zip(cells, reach, strict=True)]
        if sum(spare) < short:  # (then no cell reached its budget: each reach is its exact cost)
            self.close_all(list(zip(cells, reach, strict=True)), after)
            return False
        shares = [min(s, -(-short * s // sum(spare))) for s in spare]
        over = sum(shares) - short
        for i in reversed(range(len(shares))):  # the smallest cells give back what is over
            cut = min(over, shares[i])
            shares[i] -= cut
            over -= cut
        claims = [(cell, cell.low + share) for cell, share in zip(cells, shares, strict=True) if share > 0]
        self.close_all(claims, after)
        return True


class _Book:
    """The checkpoint of a guided proof: a :class:`~mastermind.runtime.journal.Journal` of the sets
    proved (those at most :data:`TASK_DEPTH` guesses deep: each with its claim, bound and line)
    and of the exact costs asked above them (each with its budget), recorded as each is done.
    A proof started again makes the same requests in the same order (each is decided by what was
    proved and asked before it), and takes the answers from here. Each record holds for its set
    alone, whatever the optimum aimed at; its line is checked with the rest of the proof, by the
    checker."""

    def __init__(self, path: str | os.PathLike[str], rules: Rules) -> None:
        self.rules = rules
        head = {"checkpoint": "mastermind-guided-proof", "game": game_dict(rules)}
        self.journal = Journal(path, head, "a guided proof")
        #: by (history, set, claim): the bound proved and its line
        self.sets: dict[tuple[tuple[int, ...], str, int], tuple[int, ProofNode]] = {}
        #: by (history, set, budget): the exact cost, or the budget where it costs that much or more
        self.costs: dict[tuple[tuple[int, ...], str, int], int] = {}
        self.lock = threading.Lock()
        self.journal.read(self._parse)

    @staticmethod
    def key(node: _Set, number: int) -> tuple[tuple[int, ...], str, int]:
        return node.history, hashlib.blake2b(node.S.tobytes(), digest_size=16).hexdigest(), number

    def _parse(self, item: dict[str, Any]) -> None:
        history = tuple(int(g) for g in item["history"])
        if len(history) > TASK_DEPTH or not isinstance(item["set"], str):
            raise ValueError("not a set this proof records")
        if "budget" in item:
            self.costs[history, item["set"], int(item["budget"])] = int(item["cost"])
            return
        claim, low = int(item["claim"]), int(item["low"])
        try:  # (its lines are checked with the rest of the proof, by the checker)
            text = zlib.decompress(base64.b64decode(item["line"], validate=True)).decode()
            lines, _, rules = read_header(text, "a line", FORMAT, VERSION, "proof", ProofError)
            if rules != self.rules or len(lines) < 4 or lines[-1] != f"end {len(lines) - 3}":
                raise ValueError("not a whole proof of this game")
            proof = PackedNode(self.rules, "\n".join(lines[2:-1]), len(lines) - 3)
        except (ProofError, zlib.error) as err:
            raise ValueError(str(err)) from None
        if proof.total != low or low < claim:
            raise ValueError("a line that does not claim the bound recorded")
        self.sets[history, item["set"], claim] = (low, proof)

    def take(self, node: _Set, claim: int) -> bool:
        """Give the node its line and bound from the book, if it has them."""
        found = self.sets.get(self.key(node, claim))
        if found is None:
            return False
        node.low, node.proof = max(node.low, found[0]), found[1]
        return True

    def keep(self, node: _Set, claim: int) -> None:
        assert node.proof is not None
        history, digest, _ = self.key(node, claim)
        text = ProofFile.of_total(self.rules, node.low, node.proof).dumps()
        line = base64.b64encode(zlib.compress(text.encode(), 6)).decode()
        self.write({"history": list(history), "set": digest, "claim": claim, "low": node.low, "line": line})

    def keep_cost(self, cell: _Set, budget: int, cost: int) -> None:
        history, digest, _ = key = self.key(cell, budget)
        with self.lock:  # (the prover's threads each keep theirs as they find them)
            self.costs[key] = cost
            self.write({"history": list(history), "set": digest, "budget": budget, "cost": cost})

    def write(self, record: dict[str, Any]) -> None:
        self.journal.append(record)


#: The tag of a worker's message that carries a record for the book (the others carry a task's
#: number and its answer).
_KEEP = -1


class _Outbox(_Book):
    """A worker process's book: what the prover's held when the worker was forked; what the
    worker proves goes to the prover as it is proved, for it to write (a task of a large game
    runs for many minutes: a stop loses no more than the set it was proving)."""

    def __init__(self, book: _Book, results: multiprocessing.Queue) -> None:  # (no journal of its own)
        self.rules, self.sets, self.costs = book.rules, book.sets, book.costs
        self.lock = threading.Lock()  # (its own: the prover's may have been held when it was forked)
        self.results = results

    def write(self, record: dict[str, Any]) -> None:
        self.results.put((_KEEP, record, None))


class _Workers:
    """Processes forked from the prover, each raising one guess at a set at a time (sent with
    the claim: :meth:`_Guided.raise_guess`, the sets below it proved there), and sending back its
    cells' bounds and lines, and each record for the book as it is made."""

    def __init__(self, prover: _Guided, count: int) -> None:
        self.prover = prover
        self.numbers = itertools.count()
        self.waiting: dict[tuple[int, int], int] = {}  # by the set's id and the guess: the task's number
        self.running = 0  # tasks sent whose answer has not come back
        self.done: dict[int, tuple[bool, dict[int, tuple[int, ProofNode]] | str]] = {}
        died = "a process proving the bound died (killed, or out of memory?): try fewer workers"
        self.pool = Pool(_prove_tasks, count, args=(prover,), died=died)

    def submit(self, node: _Set, g: int, claim: int) -> None:
        number = self.waiting[id(node), g] = next(self.numbers)
        self.pool.put((number, _Set(node.S, node.history, node.group, node.used, node.low), g, claim))
        self.running += 1

    def ready(self, node: _Set, guesses: list[int]) -> bool:
        """Whether the answers of those guesses' tasks at the node have all come back."""
        return all(self.waiting[id(node), g] in self.done for g in guesses)

    def receive(self) -> None:
        """Wait a little for one answer, and keep it.

        Raises:
            KeyboardInterrupt: the prover was stopped meanwhile.
            ExecutorError: a worker process died (killed, out of memory).
        """
        if self.prover.run.stopped or self.prover._stopped():
            raise KeyboardInterrupt
        try:
            got, ok, cells = self.pool.get(timeout=0.2)
        except queue.Empty:
            return
        if got == _KEEP:  # (a worker's messages come in the order sent: its records before its answer)
            assert self.prover.book is not None
            with self.prover.book.lock:
                self.prover.book.write(ok)
            return
        self.done[got] = (ok, cells)
        self.running -= 1
        self.prover._heartbeat()

    def keep_sent(self) -> None:
        """Write the records the workers have sent and the prover has not read (it was stopped, or
        busy with a set of its own): a stop loses none of them. Their answers are let go."""
        book = self.prover.book
        while book is not None:
            try:
                got, what, _ = self.pool.results.get_nowait()
            except queue.Empty:
                return
            if got == _KEEP:
                with book.lock:
                    book.write(what)

    def finish(self, node: _Set, g: int) -> bool:
        """Wait for the task of guess g at the node; its cells then have their bounds and lines.
        Whether the guess reached the claim.

        Raises:
            KeyboardInterrupt: the prover was stopped meanwhile.
            ExecutorError: a worker process died (killed, out of memory).
            StrategyError: a worker process failed.
        """
        number = self.waiting.pop((id(node), g))
        while number not in self.done:
            self.receive()
        ok, cells = self.done.pop(number)
        if isinstance(cells, str):
            raise StrategyError(f"a process proving the bound failed: {cells}")
        assert node.guesses is not None
        for f, (low, proof) in cells.items():
            cell = node.guesses[g][f]
            cell.low, cell.proof = max(cell.low, low), proof
        return ok

    def close(self) -> None:
        with uninterrupted():  # (a second Ctrl-C would lose what the workers sent)
            self.keep_sent()
            self.pool.close()


def _prove_tasks(tasks: multiprocessing.Queue, results: multiprocessing.Queue, prover: _Guided) -> None:
    """A worker process's loop: raise each guess it is sent, one compiled call after another,
    until it is ended (Ctrl-C is the calling process's to hear) or that process is gone."""
    prover.workers, prover.serial, prover.heartbeat = None, True, None
    prover.book = None if prover.book is None else _Outbox(prover.book, results)
    prover.run = _Run(prover.game, 1)  # (its own buffers; the caller's threads are not here)
    parent = os.getppid()
    while True:
        try:
            number, node, g, claim = tasks.get(timeout=1.0)
        except queue.Empty:
            if os.getppid() != parent:
                return
            continue
        try:
            node.guesses = {g: prover.cells(node, g, prover.game.group(list(node.history)))}
            ok = prover.raise_guess(node, g, claim)
            cells = {
                f: (cell.low, cell.proof) for f, cell in node.guesses[g].items() if cell.proof is not None
            }
            results.put((number, ok, cells))
        except Exception as err:  # (sent to the caller, which stops)
            results.put((number, False, f"{type(err).__name__}: {err}"))


def prove_optimum(
    rules: Rules,
    optimum: int | None = None,
    seconds: float | None = None,
    stop: threading.Event | None = None,
    progress: Callable[[int, int | None], None] | None = None,
    workers: int | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
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

    Raises:
        CheckpointError: the checkpoint cannot be read or written, is another game's, or is
            damaged.
    """
    began = time.perf_counter()
    book = None if checkpoint is None else _Book(checkpoint, rules)
    prover = _Guided(rules, stop, usable_cores() if workers is None else workers, book)
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
        prover.deepen(root, optimum)

        def report() -> None:  # (the bound reached stands if the proof is stopped)
            prover.settle(root)
            if progress:
                progress(root.low, optimum)

        report()
        prover.heartbeat = report
        assert root.guesses is not None
        for g in sorted(root.guesses, key=lambda g: prover.value(root, g)):
            if not prover.raise_guess(root, g, optimum, report):  # below the aim: the least total is lower
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
    proof = ProofFile.of_total(rules, total, prover.proof_node(root, total), search="lower")
    return LowerBound(rules, total, proof, prover.deepened, time.perf_counter() - began, ended)
