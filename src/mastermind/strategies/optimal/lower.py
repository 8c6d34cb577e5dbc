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

:mod:`.guided` proves the optimum itself, with the prover's sets, bounds and lines from here.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ...core.feedback import Feedback
from ...core.rules import Rules
from ...errors import StrategyError
from ...verify.arithmetic import Perm
from ...verify.proof import ProofFile, ProofNode
from .symmetry import child_group, generators, root_group
from .tables import FAIL, _feedback, _kernel, game_of
from .worst import WorstSearch

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
        #: The guess limit the proof is within (None: whatever the limit), see :meth:`left`.
        self.limit: int | None = None
        self._worst: WorstSearch | None = None  # (made when first needed: its reply matrix)

    def left(self, node: _Set) -> int:
        """The guesses a tree has left at the node: :data:`NO_LIMIT` where the proof is within
        no limit (the same at every depth: the search's memo is keyed by it)."""
        return NO_LIMIT if self.limit is None else self.limit - len(node.history)

    def refutation(self, cell: _Set) -> ProofNode:
        """The line that says a cell cannot be found within the guesses left at it (the worst-case
        search's proof of that: a ``count`` or an ``all``), where the bounds found it cannot."""
        if self._worst is None:
            self._worst = WorstSearch(self.rules)
        proof = self._worst.refutation(cell.S, self.left(cell), cell.group, cell.used)
        if proof is None:
            raise StrategyError(f"internal: a cell of {len(cell.S)} secrets found within the guesses left")
        return proof

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
            np.int64(self.left(node)),
            *sym,
            self.game.new_counts(),
            self.game.new_bits(),
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
        codes, _ = self.game.root_guesses(node.S, self.left(node), cap, sym, self._ctl())
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
            late = [f for f, c in cells.items() if c.low >= FAIL]
            if late:  # (within a guess limit) a cell that cannot be found in time refutes it
                reply = Feedback.from_int(late[0], self.pegs)
                out.children.append((self.colours[g], reply, self.refutation(cells[late[0]])))
                continue
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
