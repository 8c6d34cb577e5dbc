"""Stopping the long work of this package in flight (a strategy's search for its guess, a hint's or
a review's exact search), from another thread: a front end that quits while it thinks.

The exact search stops within milliseconds when told (:func:`stop_thinking`; it raises
``KeyboardInterrupt`` in the thread that asked for it, as Ctrl-C does). Other work (a heuristic's
line, a strategy of its own) cannot be stopped: a front end runs it on a daemon thread, so that it
never holds the process at its end.
"""

from __future__ import annotations


def stop_thinking() -> None:
    """Stop every exact search this process is running (each raises in its own thread); one that
    starts afterwards runs as usual. For a front end about to end, not for one going on: every
    search stops, whoever asked for it."""
    from ..strategies.piece_control import stop_pieces

    stop_pieces()
