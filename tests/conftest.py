import pytest

from mastermind import Rules

#: Small games where everything can be checked exhaustively.
SMALL_GAMES = [
    Rules(pegs=2, colors=3),
    Rules(pegs=3, colors=4),
    Rules(pegs=4, colors=4),
    Rules(pegs=3, colors=5, repeats=False),
    Rules(pegs=4, colors=5, repeats=False),
    Rules(pegs=1, colors=2),
]


@pytest.fixture(params=SMALL_GAMES, ids=repr)
def small_rules(request):
    return request.param


@pytest.fixture(autouse=True)
def private_history(tmp_path, monkeypatch):
    """Every test keeps its games in its own history database, never in the user's."""
    path = tmp_path / "history.sqlite3"
    monkeypatch.setenv("MASTERMIND_DB", str(path))
    return path


@pytest.fixture(autouse=True)
def private_settings(tmp_path, monkeypatch):
    """Every test keeps the terminal board's settings in its own file, never in the user's."""
    path = tmp_path / "tui.json"
    monkeypatch.setenv("MASTERMIND_CONFIG", str(path))
    return path


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    """Optimal trees go to a fresh directory per test, never to the user's cache."""
    monkeypatch.setenv("MASTERMIND_CACHE_DIR", str(tmp_path / "cache"))


def kill_after_moves(args, typed, db, moves_saved, moves=2):
    """Run ``python -m mastermind.cli ARGS`` as a real process, type ``typed`` with the input left
    open, wait until ``moves_saved(games in db)`` reaches ``moves``, then kill it with SIGKILL.
    Returns the number of moves seen saved and the process's exit status."""
    import os
    import signal
    import subprocess
    import sys
    import time

    from mastermind.errors import StoreError
    from mastermind.history.store import Store

    proc = subprocess.Popen(
        [sys.executable, "-m", "mastermind.cli", *args, "--db", str(db)],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    seen = 0
    try:
        assert proc.stdin is not None
        proc.stdin.write(typed.encode())
        proc.stdin.flush()  # the input stays open: the command waits for more
        deadline = time.monotonic() + 60  # a generous wait for a slow machine, not a measurement
        while seen < moves and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
            if not db.exists():
                continue
            try:  # (read only: the command is the one writer)
                with Store(db, write=False) as store:
                    seen = moves_saved(store.games())
            except StoreError:  # (on a loaded machine, the command's write outlasted the wait)
                continue
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        assert proc.stdin is not None
        proc.stdin.close()
    return seen, proc.returncode


def saved_game(db) -> int:
    """A classic game (seed 99) with one guess, 1122, saved in the history ``db``: its id."""
    from mastermind.games.game import Game
    from mastermind.history.store import Store

    with Store(db) as store:
        game = Game.breaking(Rules(), seed=99)
        game.guess("1122")
        return store.add(game.record())


def guesses(db, game_id) -> list[str]:
    """The guesses the history ``db`` keeps of game ``game_id``."""
    from mastermind.history.store import Store

    with Store(db, write=False) as store:
        return [m["guess"] for m in store.get(game_id).record["moves"]]


def pytest_collection_modifyitems(config, items):
    """The long checks (minutes each: the proofs of results/ replayed in plain Python) run only when
    asked, so that the test command stays within CI's time."""
    import os

    if os.environ.get("MASTERMIND_LONG_TESTS") == "1":
        return
    skip = pytest.mark.skip(reason="minutes long: MASTERMIND_LONG_TESTS=1 runs it")
    for item in items:
        if "long" in item.keywords:
            item.add_marker(skip)
