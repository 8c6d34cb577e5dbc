"""A check's pieces checked on several processes: each piece, its set and its lines as text, sent
to a process that checks it with the same code as a check on one process."""

from __future__ import annotations

import multiprocessing
import queue
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from ..errors import ExecutorError, ProofError
from ..runtime.pool import Pool, memory_share
from .checker import _Checker, _Entry, _Held, _walk
from .proof import _Reader


class _Dealer:
    """The processes of a check (:func:`_processes`) as :func:`_walk` sends them pieces: at most
    two a process wait; each answer is counted as checked, and a part passes (``passed``, in
    order) once it has been read to its end and every piece of it is checked."""

    def __init__(
        self,
        pool: Pool,
        receive: Callable[[], _Done],
        jobs: int,
        progress: Callable[[int], None] | None,
        passed: Callable[[int], None],
    ) -> None:
        self.pool, self.receive, self.jobs = pool, receive, jobs
        self.progress, self.passed = progress, passed
        self.waiting: dict[int, int] = {}  # pieces sent and not yet checked, by part
        self.read: list[int] = []  # the parts read to their end, not yet passed, in order
        self.scored = 0

    def send(self, piece: _Held, part: int) -> None:
        self.pool.put((part, piece.entry, piece.depth, piece.lines))
        self.waiting[part] = self.waiting.get(part, 0) + 1
        while sum(self.waiting.values()) >= 2 * self.jobs:
            self.answer()

    def answer(self) -> None:
        part, done, scored = self.receive()
        self.waiting[part] -= 1
        self.scored += scored
        if self.progress:
            self.progress(done)
        self.pass_parts()

    def walked(self, part: int) -> None:
        """Part ``part`` is read to its end: it passes once its pieces are checked."""
        self.read.append(part)
        self.pass_parts()

    def pass_parts(self) -> None:
        while self.read and not self.waiting.get(self.read[0]):
            self.passed(self.read.pop(0))

    def drain(self) -> None:
        while sum(self.waiting.values()):
            self.answer()


# A piece as a process takes it: its part, its entry, its depth and its lines (each numbered).
_Piece = tuple[int, _Entry, int, list[tuple[int, str]]]
# What a process gives back for a piece: its part, the nodes checked and the secrets scored.
_Done = tuple[int, int, int]


@contextmanager
def _processes(checker: _Checker, jobs: int, reader: _Reader) -> Iterator[tuple[Pool, Callable[[], _Done]]]:
    """``jobs`` processes that check pieces (:func:`_check_piece`), each with the checker and the
    reader as they are now: the pool to put the pieces in, and what takes the next result. Ctrl-C
    or a fault found stops every process at once; a process that dies is reported. (One that dies
    midway through sending a result would leave this one waiting: not guarded against.)

    Raises:
        ProofError: a piece holds a fault.
        ExecutorError: a process of the check died (killed, out of memory) or failed.
    """
    game = checker.game  # the indicators kept: the memory for them shared among the processes
    game.keep(memory_share(jobs))
    died = "a process checking the proof died (killed, or out of memory?): try fewer --workers"
    with Pool(_check_pieces, jobs, args=(checker, reader), died=died) as pool:

        def receive() -> _Done:
            while True:
                try:
                    found = pool.get(timeout=1.0)
                except queue.Empty:
                    continue
                if isinstance(found, ProofError):
                    raise found
                if isinstance(found, str):
                    raise ExecutorError(f"a process checking the proof failed: {found}")
                return found

        yield pool, receive


def _check_pieces(
    tasks: multiprocessing.Queue, results: multiprocessing.Queue, checker: _Checker, reader: _Reader
) -> None:
    """A process of a check: check the pieces as they come, until it is stopped."""
    while True:
        piece = tasks.get()
        try:
            results.put(_check_piece(checker, reader, piece))
        except ProofError as err:
            results.put(err)
        except Exception as err:  # a fault of the checker's own: said in one line, and the end
            results.put(f"{type(err).__name__}: {err}")
            return


def _check_piece(checker: _Checker, reader: _Reader, piece: _Piece) -> _Done:
    """Check a piece (in a process of a check): its part, the nodes checked, the secrets scored."""
    part, entry, depth, lines = piece
    done = 0

    def count(n: int) -> None:
        nonlocal done
        done += n

    before = checker.game.scored
    _walk(checker, reader.below(entry[0], depth), entry, iter(lines[1:]), count)
    return part, done, checker.game.scored - before
