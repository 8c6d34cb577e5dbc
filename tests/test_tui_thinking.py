"""The board never held by its long work: quitting while a hint (or a strategy's guess) is being
worked out ends the app at once and tells the search to stop (tui/thinking.py)."""

from __future__ import annotations

import asyncio
import threading

import pytest

pytest.importorskip("textual", reason="the tui extra (textual) is not installed")

from mastermind.games import advice  # noqa: E402
from mastermind.strategies.piece_control import running  # noqa: E402
from mastermind.tui.app import MastermindApp  # noqa: E402
from tui_pilot import driven, settle  # noqa: E402

#: Seconds the stand-in search waits to be stopped: a bound, so that a board which does not stop
#: it fails the test instead of hanging it (nothing is timed).
NEVER = 120


@driven
async def test_quitting_while_a_hint_is_worked_out_ends_the_app_and_stops_the_search(monkeypatch):
    started, stopped = threading.Event(), threading.Event()
    seen: dict[str, bool] = {}

    def endless_hint(played):
        # registered as the exact search registers itself, so that stop_thinking() reaches it
        with running(stopped.set):
            seen["daemon"] = threading.current_thread().daemon
            started.set()
            stopped.wait(NEVER)
        raise KeyboardInterrupt  # what a stopped search raises in its thread

    monkeypatch.setattr(advice, "hint_given", endless_hint)
    app = MastermindApp(seed=2026, history=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        await pilot.press(*"1122", "enter")
        await settle(app, pilot)
        await pilot.press("question_mark")
        assert await asyncio.to_thread(started.wait, NEVER)
        await pilot.pause()
        assert "Thinking" in str(app.screen.query_one("#info").render()) or app.screen.busy
        assert not stopped.is_set()
        await pilot.press("ctrl+q")
    assert not app.is_running
    assert stopped.is_set()  # the search was told to stop, not waited for
    assert seen["daemon"]  # and ran where it cannot hold the process at its end
