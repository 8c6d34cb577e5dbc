"""A history locked by another session for longer than its busy timeout during a game: the game goes
on, each next move tries the save again, the whole game is saved once the lock is gone, and the
message at the end says what the history holds."""

import sqlite3
import subprocess
import sys

import pytest

from conftest import guesses, saved_game
from mastermind.games.game import Game
from mastermind.history.store import Recorder, Store


def locked(db) -> sqlite3.Connection:
    """Another session holding the database's write lock until it is closed."""
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    return holder


def test_a_save_that_failed_is_tried_again_at_the_next_move(tmp_path):
    db = str(tmp_path / "h.db")
    game_id = saved_game(db)
    with Store(db, timeout=0.05) as store:
        recorder = Recorder(store, game_id)
        game = Game.from_record(store.get(game_id).record)
        holder = locked(db)
        game.guess("3344")
        warning = recorder.save(game.record())
        assert warning.endswith(
            "is locked by another session; the game goes on, and its next move tries to save it again"
        )
        game.guess("5566")
        assert recorder.save(game.record()) is None  # said once
        assert recorder.behind and recorder.saved_moves() == 1 and recorder.store is store
        holder.close()
        game.guess("1234")
        assert recorder.save(game.record()) is None
        assert not recorder.behind and recorder.warning is None and recorder.saved_moves() == 4
    assert guesses(db, game_id) == ["1122", "3344", "5566", "1234"]


def play(db, game_id):
    command = [sys.executable, "-m", "mastermind", "play", "--resume", str(game_id), "--db", db]
    return subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


@pytest.mark.slow
def test_play_saves_the_whole_game_once_the_lock_is_gone(tmp_path):
    db = str(tmp_path / "h.db")
    game_id = saved_game(db)
    game = play(db, game_id)
    assert game.stdout.readline().startswith("Resuming game")
    holder = locked(db)
    game.stdin.write("3344\n")
    game.stdin.flush()
    assert "its next move tries to save it again" in game.stderr.readline()  # after the busy timeout
    holder.close()
    out, err = game.communicate("5566\n", timeout=120)
    assert game.returncode == 1
    assert f"Stopped; resume with mastermind play --db {db} --resume {game_id}." in out
    assert guesses(db, game_id) == ["1122", "3344", "5566"]


@pytest.mark.slow
def test_play_stopped_while_the_history_is_locked_says_what_the_history_keeps(tmp_path):
    db = str(tmp_path / "h.db")
    game_id = saved_game(db)
    game = play(db, game_id)
    assert game.stdout.readline().startswith("Resuming game")
    holder = locked(db)
    out, err = game.communicate("3344\n", timeout=120)  # then the end of input: the game stops
    holder.close()
    assert game.returncode == 1
    assert err.count("is locked by another session") == 1
    assert (
        "Stopped (the last moves could not be saved: the history keeps it with 1 guess; "
        f"mastermind play --db {db} --resume {game_id} goes on from there)." in out
    )
    assert guesses(db, game_id) == ["1122"]
