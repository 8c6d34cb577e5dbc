"""The board's long work (a strategy's guess, a hint, a review, puzzles) run so that it never holds
the app: each job runs on a daemon thread, waited for by a Textual thread worker (so the app's
workers still say when it is done), which gives it up as soon as it is cancelled: the app quitting
(Ctrl+Q, Ctrl-C, SIGTERM) or its screen closed. The app then stops the exact searches in flight
(:func:`~mastermind.games.thinking.stop_thinking`) and ends at once; what cannot be stopped ends
with the process. Left to a thread worker alone, the job held the process after the board was
gone (asyncio waits for its executor's threads), until a second Ctrl-C."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

#: How often (seconds) the worker looks whether it was cancelled while the job runs.
POLL = 0.05


class Abandoned(Exception):
    """The worker was cancelled (the app quits, or the screen closed) before the job ended."""


def abandonable(job: Callable[[], T]) -> T:
    """``job()``, run on a daemon thread while this thread (a Textual thread worker's) waits;
    its exception is raised here as it would be by ``job()``.

    Raises:
        Abandoned: the worker was cancelled first; the job goes on, on its own, unwaited.
    """
    from textual.worker import get_current_worker

    worker = get_current_worker()
    done = threading.Event()
    outcome: list[Any] = []

    def run() -> None:
        try:
            outcome.append((True, job()))
        except BaseException as err:  # (KeyboardInterrupt too: a search stopped as the app quits)
            outcome.append((False, err))
        finally:
            done.set()

    threading.Thread(target=run, name="mastermind-think", daemon=True).start()
    while not done.wait(POLL):
        if worker.is_cancelled:
            raise Abandoned
    ok, value = outcome[0]
    if ok:
        return value  # type: ignore[no-any-return]
    raise value


def off_screen(work: Callable[[], None]) -> Callable[[], None]:
    """``work`` (which shows its own result, by ``call_from_thread``) as a Textual thread worker's
    function: run by :func:`abandonable`, and given up quietly when the worker is cancelled."""

    def run() -> None:
        with contextlib.suppress(Abandoned):
            abandonable(work)

    return run
