"""The games package's long work stopped from another thread, as a front end that quits stops it
(mastermind.games.thinking)."""

from __future__ import annotations

import threading

import numpy as np

from mastermind import Rules
from mastermind.games.thinking import stop_thinking
from mastermind.strategies.optimal.search import solve_position

#: Seconds to wait for what must happen: a bound, so that a failure does not hang (nothing is timed).
NEVER = 300


def test_stop_thinking_stops_an_exact_search_running_in_another_thread():
    started = threading.Event()
    outcome: list[str] = []

    def search() -> None:
        try:  # the whole of 4x7: many cells after the first one reported
            solve_position(Rules(pegs=4, colors=7), np.arange(2401), progress=lambda _: started.set())
            outcome.append("finished")
        except KeyboardInterrupt:
            outcome.append("stopped")

    thread = threading.Thread(target=search, daemon=True)
    thread.start()
    assert started.wait(NEVER)
    stop_thinking()
    thread.join(NEVER)
    assert outcome == ["stopped"]
    # a search started afterwards runs as usual
    assert solve_position(Rules(pegs=2, colors=3), np.arange(9)) is not None
