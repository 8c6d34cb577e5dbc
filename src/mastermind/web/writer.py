"""The history's thread: every call the server makes to the history, one at a time and in the
order made, off the event loop; the saves of games that are waiting together committed in one
transaction (a group commit).

Why one thread: the SQLite connection is used by one thread at a time, and an SQLite write may
wait for the file's lock or a checkpoint of its log (tens of milliseconds) while the event loop
answers everyone else. Why grouped: a move is answered only once its save is committed (a server
killed at any moment has every answered move, see :meth:`~mastermind.web.sessions.GameTable.save`),
and on a busy machine each transaction of its own cost the thread several hand-overs of the
interpreter's lock with the event loop (a begin, the write, a commit, each a call into SQLite that
lets the lock go and must take it back, waiting for a core each time); under load the saves
queued behind one another and a move waited for those of everyone before it. The saves waiting
when the thread is free are written together now, each in a savepoint of its own (one that fails
is undone alone, and its move answered 503), and committed once: every one of those moves is
answered after that commit, none before. A read or any other call waits for the group before it
and runs alone, so what is read is what was answered.
"""

from __future__ import annotations

import asyncio
import queue
import threading
from collections import deque
from collections.abc import Awaitable, Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any, TypeVar

from ..history.store import Store

T = TypeVar("T")


@dataclass
class _Call:
    job: Callable[[], Any]
    grouped: bool  # a game's save: may be committed with the saves queued beside it
    done: Future[Any] = field(default_factory=Future)


_STOP = _Call(lambda: None, False)


class HistoryThread:
    """The thread that calls ``store``: :meth:`run` a call alone, :meth:`save` a game's write
    (grouped with the others waiting); both in the order they are made. Started on the first
    call; :meth:`shutdown` lets the calls queued so far end first."""

    #: The most saves committed together: a group is the saves queued while the last one ran.
    GROUP = 100

    def __init__(self, store: Store) -> None:
        self.store = store
        self._calls: queue.SimpleQueue[_Call] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        #: How many saves each of the latest commits took (for the tests).
        self.groups: deque[int] = deque(maxlen=1000)

    def run(self, job: Callable[[], T]) -> Awaitable[T]:
        """``job()`` in the history's thread, alone, after every call made before it."""
        return asyncio.wrap_future(self._put(_Call(job, False)))

    def save(self, job: Callable[[], T]) -> Future[T]:
        """A game's write, ``job()``, committed with the other saves waiting beside it; the future
        is done once the commit is (or failed: the write's error, or the commit's)."""
        return self._put(_Call(job, True))

    def _put(self, call: _Call) -> Future[Any]:
        if self._thread is None:
            # a daemon: nothing answered is lost with it (answered only once committed), and an
            # application never run (a test's) leaves no thread to wait for at exit
            self._thread = threading.Thread(target=self._work, name="mastermind-history", daemon=True)
            self._thread.start()
        self._calls.put(call)
        return call.done

    def shutdown(self) -> None:
        """Stop once the calls queued so far are done (the last writes reach the file)."""
        if self._thread is not None:
            self._calls.put(_STOP)
            self._thread.join()
            self._thread = None

    def _work(self) -> None:
        waiting: _Call | None = None  # taken from the queue behind a group, to run next
        while True:
            call = waiting if waiting is not None else self._calls.get()
            waiting = None
            if call is _STOP:
                return
            if not call.grouped:
                _call(call)
                continue
            group = [call]
            while len(group) < self.GROUP:
                try:
                    following = self._calls.get_nowait()
                except queue.Empty:
                    break
                if not following.grouped:
                    waiting = following
                    break
                group.append(following)
            self._commit(group)

    def _commit(self, group: list[_Call]) -> None:
        """The group's writes in one transaction; each future told only after the commit."""
        outcomes: list[tuple[_Call, Any, BaseException | None]] = []
        try:
            with self.store.batch():
                for call in group:
                    if not call.done.set_running_or_notify_cancel():
                        continue  # its request was cancelled before the thread came to it
                    try:
                        outcomes.append((call, call.job(), None))
                    except Exception as err:  # that write alone is undone (its savepoint)
                        outcomes.append((call, None, err))
        except BaseException as err:  # not begun or not committed: none of them is in the history
            for call in group:
                if call.done.done():
                    continue  # cancelled before the thread came to it
                if call.done.running() or call.done.set_running_or_notify_cancel():
                    call.done.set_exception(err)
            if not isinstance(err, Exception):
                raise  # the thread's end (no request waits on a future left unset)
            return
        self.groups.append(len(group))
        for call, result, failure in outcomes:
            if failure is None:
                call.done.set_result(result)
            else:
                call.done.set_exception(failure)


def _call(call: _Call) -> None:
    if not call.done.set_running_or_notify_cancel():
        return
    try:
        result = call.job()
    except BaseException as err:
        call.done.set_exception(err)
    else:
        call.done.set_result(result)
