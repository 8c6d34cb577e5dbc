"""What the terminal UI's tests share: an async test run in its own event loop, and the waits and
keys of a person at the board (Textual's Pilot)."""

from __future__ import annotations

import asyncio
import functools
import json


def driven(test):
    """An async test, run to its end in a fresh event loop (no async plugin needed)."""

    @functools.wraps(test)
    def run(*args, **kwargs):
        asyncio.run(test(*args, **kwargs))

    return run


def configure(path, **values) -> None:
    """The app's settings file, as a player would have left it."""
    path.write_text(json.dumps(values))


async def settle(app, pilot) -> None:
    """Until the work off the screen's thread (a strategy, a review; in a match one computer move
    starts the next) is done and drawn."""
    for _ in range(100):
        await app.workers.wait_for_complete()
        await pilot.pause()
        if not any(worker.is_running for worker in app.workers):
            return


async def type_code(app, pilot, code: str) -> None:
    """A code typed at the board and played."""
    await pilot.press(*code, "enter")
    await settle(app, pilot)


def board(app):
    """The game screen on top (failing the test if another screen is)."""
    from mastermind.tui.game_screen import GameScreen

    screen = app.screen
    assert isinstance(screen, GameScreen)
    return screen
