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
def private_cache(tmp_path, monkeypatch):
    """Optimal trees go to a fresh directory per test, never to the user's cache."""
    monkeypatch.setenv("MASTERMIND_CACHE_DIR", str(tmp_path / "cache"))
