"""The worst-case decision search on several processes.

The decision search (:mod:`.worst`) is an AND-OR search: at a set, *some* guess must work, and
for that guess *every* cell. Near the root both are wide and slow: Super Mastermind's root guess
leaves 19 cells of up to 7,105 secrets, and each cell's second guess leaves sets of several
hundred to be found within the guesses left. :class:`WorstSearchInPieces` runs the top of the
search (the root and the sets one guess below it, by default) in the calling process and hands
every set below that, and every small set, to worker processes as one task each:

* AND: the cells of a guess are decided at once, each a task or, above the cut, a search of its
  own; the first cell that cannot be done stops the others (their workers are told to stop), and
  the guess is refuted by it, as in the plain search.
* OR: the guesses of a set are tried one after another in the plain search's order (the seed's
  first), so the answer and the proof are of the same kind as the plain search's: a tree, or a
  proof node refuting every guess not refuted by counting (:mod:`mastermind.verify.proof`).

The workers are forked from the calling process, so they share its reply matrix (codes squared
bytes: 1 GB for Super Mastermind) instead of each building one; each keeps its own memo of sets
decided. Every rule is the plain search's; only the order in which sets are decided changes, so
a tree and a proof from here are checked by ``mastermind verify`` like any other.
"""

from __future__ import annotations

import hashlib
import heapq
import itertools
import multiprocessing as mp
import os
import threading
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.connection import wait as wait_conns

import numpy as np

from ...core.feedback import Feedback
from ...core.rules import Rules
from ...errors import StrategyError
from ...runtime.journal import Journal
from ...runtime.pool import Pool
from ...verify.arithmetic import Perm, reach
from ...verify.files import game_dict
from ...verify.proof import ProofFile, ProofNode
from ...verify.tree import TreeFile, TreeNode
from .symmetry import child_group
from .worst import Decision, Stopped, WorstSearch

#: Sets this small are one task, whatever their depth (a worker decides them in milliseconds).
SMALL_TASK = 200

#: How often (seconds) a waiting part of the search looks whether it was asked to stop.
POLL = 0.2


class _Cancelled(Exception):
    """A part of the search was withdrawn: a sibling cell failed, so its answer is not needed."""


@dataclass(eq=False)
class _Set:
    """A set to decide: can ``S`` be found within ``k`` guesses? With what the plain search
    carries down (K, the history's group and colours, the depth, the seed's subtree), and its
    ``place``: the guess and cell indices that lead to it, so that sets are handed out in the
    plain search's order (depth first) and extra workers run ahead of it."""

    S: np.ndarray
    k: int
    K: int
    group: list[Perm]
    used: int
    depth: int
    seed: TreeNode | None
    place: tuple[int, ...] = ()
    future: Future = field(default_factory=Future)
    slot: int = -1

    def args(self) -> tuple[object, ...]:
        return (self.S, self.k, self.K, self.group, self.used, self.depth, self.seed)


class _Workers:
    """Forked worker processes, each deciding one set at a time with its own copy-on-write view of
    the search (its reply matrix shared); a task is withdrawn by telling its worker to stop."""

    def __init__(self, search: WorstSearch, n: int) -> None:
        self._pending: list[tuple[tuple[int, ...], int, _Set]] = []  # a heap, by the tasks' order
        self._count = itertools.count()
        self._lock = threading.Lock()
        ctx = mp.get_context("fork")
        self._conns: list[Connection] = []
        self._stops = [ctx.Event() for _ in range(n)]
        self._busy: list[_Set | None] = [None] * n
        self.nodes = 0

        def each(i: int) -> tuple[Connection, object]:
            # (made as its worker starts, after the earlier ones: none of them holds this worker's
            # end, so that its death closes the pipe, and the dispatcher hears it)
            ours, theirs = ctx.Pipe()
            self._conns.append(ours)
            return theirs, self._stops[i]

        self.pool = Pool(_work, n, args=(search,), each=each, queues=False)
        self._wake, self._woken = ctx.Pipe()  # a task submitted: the dispatcher hands it out at once
        self._asleep = True
        self._closed = threading.Event()
        self.error: BaseException | None = None
        self._thread = threading.Thread(target=self._dispatch, name="worst-workers", daemon=True)
        self._thread.start()

    def submit(self, task: _Set) -> Future:
        with self._lock:
            heapq.heappush(self._pending, (task.place, next(self._count), task))
            wake, self._asleep = self._asleep, False
        if wake:  # one byte in the pipe at most
            self._woken.send_bytes(b"")
        return task.future

    def cancel(self, task: _Set) -> None:
        with self._lock:
            if task.future.done():
                return
            if task.slot >= 0:
                self._stops[task.slot].set()  # its worker raises Stopped and reports it
            task.future.set_exception(_Cancelled())

    def close(self) -> None:
        self._closed.set()
        self.pool.close()
        self._thread.join(5)

    def _dispatch(self) -> None:
        try:
            while not self._closed.is_set():
                with self._lock:
                    for slot, held in enumerate(self._busy):
                        while held is None and self._pending and self._pending[0][2].future.done():
                            heapq.heappop(self._pending)  # withdrawn before it started
                        if held is None and self._pending:
                            task = heapq.heappop(self._pending)[2]
                            task.slot = slot
                            self._busy[slot] = task
                            self._stops[slot].clear()
                            self._conns[slot].send(task.args())
                busy = [self._conns[i] for i, t in enumerate(self._busy) if t is not None]
                for conn in wait_conns([self._wake, *busy], timeout=POLL):
                    if conn is self._wake:
                        with self._lock:
                            self._wake.recv_bytes()
                            self._asleep = True
                    else:
                        self._receive(self._conns.index(conn))  # type: ignore[arg-type]
        except BaseException as err:  # a worker died (killed, out of memory): the search stops
            if not self._closed.is_set():
                self.error = err

    def _receive(self, slot: int) -> None:
        stopped, ok, found, nodes = self._conns[slot].recv()
        with self._lock:
            task = self._busy[slot]
            self._busy[slot] = None
            self.nodes += nodes
            assert task is not None
            task.slot = -1
            if task.future.done():  # withdrawn while it ran
                return
            if stopped:  # told to stop just after another task was withdrawn: run it again
                heapq.heappush(self._pending, (task.place, next(self._count), task))
                return
            task.future.set_result((ok, found))


def _work(search: WorstSearch, conn: Connection, stop) -> None:  # type: ignore[no-untyped-def]
    """A worker's loop: decide each set it is sent, until the pipe closes. Ctrl-C is the calling
    process's to hear: it ends the workers. A worker whose calling process is gone (killed)
    stops its set at once and ends."""
    search._stop = orphaned = _Orphaned(stop)  # type: ignore[assignment]
    search.progress = None
    while True:
        try:
            while not conn.poll(1.0):  # (the other workers hold the pipe open too: no EOF comes)
                if orphaned.gone():
                    return
            S, k, K, group, used, depth, seed = conn.recv()
        except (EOFError, OSError, KeyboardInterrupt):
            return
        before = search.nodes
        search._heights = {}  # by the ids of seed nodes: this task's are new objects
        try:
            try:
                ok, found = search._solve(S, k, K, group, used, depth, seed)
                conn.send((False, ok, found, search.nodes - before))
            except Stopped:
                conn.send((True, False, None, search.nodes - before))
        except OSError:  # the pipe is closed: the calling process is gone
            return


class _Orphaned:
    """A worker's stop signal: its task withdrawn (the event), or its calling process gone."""

    def __init__(self, event) -> None:  # type: ignore[no-untyped-def]
        self.event, self.parent = event, os.getppid()

    def is_set(self) -> bool:
        return self.event.is_set() or self.gone()

    def gone(self) -> bool:
        return os.getppid() != self.parent


class WorstSearchInPieces(WorstSearch):
    """The decision search of :class:`.WorstSearch`, its top on this process and the sets below
    on ``workers`` worker processes (see the module's documentation).

    Args:
        rules: the game.
        workers: worker processes (at least 1).
        split_depth: the sets above this depth (the root is 0) are searched here, guess by guess
            with their cells at once; every set at this depth or below, and every set of at most
            ``small`` secrets, is one task for a worker.
        small: see ``split_depth``.
        window: the guesses of a set searched here that are tried at once once its first has
            failed (see :meth:`_or`) [half the workers, at least 4: once a set's first guess has
            failed, its next ones are what keeps the workers busy; timings in docs/worst.md].
        progress: ``progress(fraction)``: the share of the root's guesses refuted, with the
            share of each running one's secrets whose cells are settled (with first guesses
            given, those taken in turn, and within each the same share at the cell in hand).
        width: as :class:`.WorstSearch` takes it.
        checkpoint: a file (JSON lines) where every set of more than ``small`` secrets decided is
            recorded as it is decided, with its tree or proof; the same search given the same
            file again (a run stopped, killed, or on another machine) takes them from it instead
            of deciding them again.
    """

    def __init__(
        self,
        rules: Rules,
        workers: int,
        split_depth: int = 2,
        small: int = SMALL_TASK,
        window: int | None = None,
        progress: Callable[[float], None] | None = None,
        width: int | None = None,
        checkpoint: str | os.PathLike[str] | None = None,
    ) -> None:
        super().__init__(rules, progress, width)
        self.workers = max(1, workers)
        self.window = max(4, self.workers // 2) if window is None else max(1, window)
        self.split_depth = split_depth
        self.small = small
        self._pool: _Workers | None = None
        self._known: dict[tuple[bytes, int], tuple[bool, object]] = {}
        self._record = None if checkpoint is None else _Record(rules, checkpoint, width)
        #: Sets taken from the checkpoint when the search started.
        self.resumed = 0 if self._record is None else self._record.load(self._known)

    def decide(self, guesses: int, seed: TreeNode | None = None, first: list[int] | None = None) -> Decision:
        self._pool = pool = _Workers(self, self.workers)
        try:
            found = super().decide(guesses, seed, first)
        finally:
            self._pool = None
            pool.close()
            self.nodes += pool.nodes
        found.nodes = self.nodes  # the sets searched here and on the workers
        return found

    def _solve(
        self,
        S: np.ndarray,
        k: int,
        K: int,
        group: list[Perm],
        used: int,
        depth: int,
        seed: TreeNode | None = None,
    ) -> tuple[bool, object]:
        if self._pool is None:  # in a worker, or not deciding: the plain search
            return super()._solve(S, k, K, group, used, depth, seed)
        return self._wait(
            self._start(_Set(S, k, K, group, used, depth, seed), threading.Event()), threading.Event()
        )

    def _known_no(self, S: np.ndarray, k: int) -> bool:
        known = self._known.get((_digest(S), k))
        return known is not None and not known[0]

    # -- the top of the search, on this process --------------------------------------------

    def _here(self, x: _Set) -> bool:
        """Whether x is searched on this process (guess by guess, its cells at once)."""
        return x.depth < self.split_depth and len(x.S) > self.small and x.k > 2

    def _start(self, x: _Set, cancel: threading.Event) -> Future:
        """x's answer to come: a task for a worker, or a search of its own on a thread."""
        key = (_digest(x.S), x.k)
        known = self._known.get(key)
        if known is not None:
            x.future.set_result(known)
            return x.future
        if self._here(x):
            x.future = self._thread(lambda: self._or(x, cancel))
        else:
            assert self._pool is not None
            self._pool.submit(x)

        def remember(done: Future) -> None:
            if done.exception() is None:
                self._known[key] = done.result()
                if self._record is not None and len(x.S) > self.small:
                    self._record.add(key, *done.result())

        x.future.add_done_callback(remember)
        return x.future

    def _or(self, x: _Set, cancel: threading.Event) -> tuple[bool, object]:
        """Can x be found within its guesses? Its first guess in the search's order alone, its
        cells at once (where the set can be done, the first guess usually works: nothing is
        spent on the others). Once it fails the set is likely a no, where every guess must be
        refuted, each usually by its largest cell: then ``window`` guesses at once, and the
        workers take the largest cell of each before the second of any. The first guess that
        works is the answer."""
        self.nodes += 1
        if len(x.S) > reach(x.K, x.k):
            return False, ProofNode("count")
        if x.seed is not None and self._height(x.seed) <= x.k:
            return True, x.seed
        proof, tries, K = self._plan(x.S, x.k, x.K, x.group, x.used)
        first = None if x.seed is None else self._index[x.seed.guess]
        guesses = tries if first is None else [first, *(g for g in tries if g != first)]
        order = iter(enumerate(guesses))
        running: dict[Future, tuple[int, threading.Event]] = {}  # a guess's index in guesses, its stop
        # at the top (the root; its cells when its first guesses are given, taken in turn), progress:
        # the guesses refuted, and the share of each running one's cells settled (all of them
        # when the set can be done); the guesses' threads report under one lock, so that the
        # share never goes back
        shares: dict[int, float] = {}
        refuted = 0
        lock = threading.Lock()

        def show() -> None:
            if x.depth == len(self._frac) and self.progress is not None:
                self._report((refuted + sum(shares.values())) / max(len(guesses), 1))

        def launch() -> bool:
            for i, g in order:
                stop = threading.Event()
                seed = x.seed if g == first else None

                def report(share: float, i: int = i) -> None:
                    with lock:
                        shares[i] = share
                        show()

                running[self._thread(lambda: self._and(x, i, g, K, seed, stop, report))] = (i, stop)  # noqa: B023
                return True
            return False

        try:
            launch()  # the first guess alone: at a set that can be done, it usually works
            while running:
                done, _ = wait(running, timeout=POLL, return_when=FIRST_COMPLETED)
                self._check(cancel)
                for fut in done:
                    i, _ = running.pop(fut)
                    ok, found = fut.result()
                    if ok:
                        return True, found
                    assert isinstance(found, tuple)
                    proof.children.append(found)
                    with lock:
                        shares.pop(i, None)
                        refuted += 1
                        show()
                    while len(running) < self.window and launch():  # the set may well be a no:
                        pass  # the next guesses at once, each likely refuted by its first cell
            return False, proof
        finally:
            for _, stop in running.values():
                stop.set()

    def _thread(self, work: Callable[[], tuple[bool, object]]) -> Future:
        """The answer of ``work``, run on a thread of its own."""
        fut: Future = Future()

        def run() -> None:
            try:
                fut.set_result(work())
            except BaseException as err:  # withdrawn, stopped, a worker's failure: to the waiter
                fut.set_exception(err)

        threading.Thread(target=run, daemon=True).start()
        return fut

    def _and(
        self,
        x: _Set,
        i: int,
        g: int,
        K: int,
        seed: TreeNode | None,
        cancel: threading.Event,
        report: Callable[[float], None],
    ) -> tuple[bool, object]:
        """Guess g (the i-th tried) at x: every cell within one guess fewer, decided at once;
        (True, its tree) or (False, (guess, reply, proof)) for the first cell found that cannot."""
        parts = sorted(self._cells(g, x.S), key=lambda fc: -len(fc[1]))
        below, child_used = child_group(x.group, x.used, self.colours[g], self.colors)
        mine = threading.Event()  # set: every part of this guess stops
        running: dict[Future, tuple[int, _Set]] = {}
        for j, (f, cell) in enumerate(parts):
            child = None if seed is None else seed.children.get(Feedback.from_int(f, self.pegs))
            # the first guess's cells in turn; then the first cells of the others before their second
            place = (*x.place, 0, 0, j) if i == 0 else (*x.place, 1, j, i)
            y = _Set(cell, x.k - 1, K, below, child_used, x.depth + 1, child, place)
            running[self._start(y, mine)] = (f, y)
        children: dict[Feedback, TreeNode] = {}
        settled = 0
        try:
            waiting = set(running)
            while waiting:
                done, waiting = wait(waiting, timeout=POLL, return_when=FIRST_COMPLETED)
                self._check(cancel)
                for fut in done:
                    f, y = running[fut]
                    ok, found = fut.result()
                    reply = Feedback.from_int(f, self.pegs)
                    if not ok:
                        assert isinstance(found, ProofNode)
                        return False, (self.colours[g], reply, found)
                    assert isinstance(found, TreeNode)
                    children[reply] = found
                    settled += len(y.S)
                    report(settled / len(x.S))
            return True, TreeNode(self.colours[g], children)
        finally:
            mine.set()  # the searches of its cells on threads stop; the tasks are withdrawn
            assert self._pool is not None
            for fut, (_, y) in running.items():
                if not fut.done() and not self._here(y):
                    self._pool.cancel(y)

    def _wait(self, fut: Future, cancel: threading.Event) -> tuple[bool, object]:
        """The answer of ``fut``, looking every moment whether the search must stop."""
        while True:
            self._check(cancel)
            try:
                return fut.result(timeout=POLL)
            except TimeoutError:
                continue

    def _check(self, cancel: threading.Event) -> None:
        if self._stop.is_set():
            raise Stopped
        if self._pool is not None and self._pool.error is not None:
            raise StrategyError(f"a worker process of the search ended unexpectedly ({self._pool.error!r})")
        if cancel.is_set():
            raise _Cancelled


def _digest(S: np.ndarray) -> bytes:
    """A set's key in the memo and the checkpoint: a hash of its secrets' indices."""
    return hashlib.blake2b(np.ascontiguousarray(S, dtype=np.int64).tobytes(), digest_size=16).digest()


class _Record:
    """The checkpoint of a split search: a first line naming the game, then one line a set
    decided (its key, the guesses it was decided within, and its tree or proof as the files
    write them), each written whole and flushed as it comes."""

    def __init__(self, rules: Rules, path: str | os.PathLike[str], width: int | None) -> None:
        self.rules, self.width = rules, width
        head = {"checkpoint": "mastermind-worst", "game": _game_of(rules), "width": width}
        self._journal = Journal(path, head, "the worst-case search")
        self._lock = threading.Lock()
        self._written: set[tuple[bytes, int]] = set()

    def load(self, known: dict[tuple[bytes, int], tuple[bool, object]]) -> int:
        """Put the sets recorded into ``known``; the number taken (see :class:`Journal` for a
        last line cut short, and for damage)."""
        records = self._journal.read(self._parse, self._differs)
        for key, ok, found in records:
            known[key] = (ok, found)
            self._written.add(key)
        return len(records)

    def _differs(self, head: dict[str, object]) -> str | None:
        if head.get("width") != self.width:
            theirs, ours = (
                ("without a width" if w is None else f"of width {w}") for w in (head.get("width"), self.width)
            )
            return f"was written by a search {theirs}, not {ours}"
        return None

    def _parse(self, item: dict) -> tuple[tuple[bytes, int], bool, object]:
        """One line's set; ValueError where it does not hold what it claims."""
        key = (bytes.fromhex(item["set"]), int(item["k"]))
        if len(key[0]) != 16 or not isinstance(item["possible"], bool):
            raise ValueError("a set's key or answer")
        if item["possible"]:
            tree = TreeFile.loads(item["text"])
            if _depth(tree.root) > key[1]:
                raise ValueError("a tree deeper than its limit")
            return key, True, tree.root
        proof = ProofFile.loads(item["text"])
        if proof.guesses != key[1]:
            raise ValueError("a proof of another limit")
        return key, False, proof.root

    def add(self, key: tuple[bytes, int], ok: bool, found: object) -> None:
        """Record one set decided (once)."""
        if ok:
            assert isinstance(found, TreeNode)
            text = TreeFile(self.rules, found, {"game": game_dict(self.rules)}).dumps()
        else:
            assert isinstance(found, ProofNode)
            text = ProofFile.of(self.rules, key[1], found).dumps()
        with self._lock:
            if key in self._written:
                return
            self._written.add(key)
            self._journal.append({"set": key[0].hex(), "k": key[1], "possible": ok, "text": text})


def _depth(node: TreeNode) -> int:
    """The most guesses the subtree of ``node`` takes."""
    return 1 + max((_depth(c) for c in node.children.values()), default=0)


def _game_of(rules: Rules) -> dict[str, object]:
    return {"pegs": rules.pegs, "colors": rules.colors, "repeats": rules.repeats, "blank": rules.blank}
