"""The same game resumed in two sessions: a save never overwrites moves it did not know of. The
session whose save comes second is refused, says which guesses it did not keep and how to go on
with the saved game, and stops; the history keeps the other session's moves."""

import subprocess
import sys

import pytest

from conftest import guesses, saved_game
from mastermind.games.game import Game
from mastermind.history.store import PlayedElsewhere, Recorder, Store


def test_the_second_of_two_recorders_of_one_game_is_refused_and_writes_nothing(tmp_path):
    db = tmp_path / "h.db"
    game_id = saved_game(db)
    with Store(db) as one, Store(db) as two:
        a, b = Recorder(one, game_id), Recorder(two, game_id)  # the game resumed twice
        game_a, game_b = (Game.from_record(one.get(game_id).record) for _ in range(2))
        game_a.guess("3344")
        assert a.save(game_a.record()) is None
        game_b.guess("5566")
        game_b.guess("1234")
        warning = b.save(game_b.record())
        assert warning == (
            f"game {game_id} was played elsewhere meanwhile (now 2 guesses): guesses 5566, 1234 not kept; "
            "this game is no longer saved here"
        )
        assert isinstance(b.elsewhere, PlayedElsewhere) and b.store is None
        assert b.save(game_b.record()) is None  # no more saves: nothing overwrites A's moves
        game_a.guess("1111")
        assert a.save(game_a.record()) is None  # A goes on saving over what it wrote itself
    assert guesses(db, game_id) == ["1122", "3344", "1111"]


def test_the_store_refuses_a_save_or_delete_over_a_record_it_did_not_know(tmp_path):
    db = tmp_path / "h.db"
    game_id = saved_game(db)
    with Store(db) as store:
        known = store.get(game_id).record
        game = Game.from_record(known)
        game.guess("3344")
        store.save(game_id, game.record(), known=known)
        with pytest.raises(PlayedElsewhere, match="now 2 guesses"):
            store.save(game_id, known, known=known)
        with pytest.raises(PlayedElsewhere):
            store.delete(game_id, known=known)
        store.save(game_id, known)  # without known (the web server's saves): written as before
    assert guesses(db, game_id) == ["1122"]


def test_play_resumed_in_two_terminals_keeps_both_sides_moves_or_says_which_was_not_kept(tmp_path):
    db = str(tmp_path / "h.db")
    game_id = saved_game(db)
    command = [sys.executable, "-m", "mastermind", "play", "--resume", str(game_id), "--db", db]
    b = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert b.stdout.readline().startswith("Resuming game")  # B has read the game
    with Store(db) as store:  # terminal A plays its guess meanwhile
        game = Game.from_record(store.get(game_id).record)
        game.guess("3344")
        Recorder(store, game_id).save(game.record())
    _, err = b.communicate("5566\n", timeout=120)
    assert b.returncode == 2
    assert err == (
        f"mastermind: error: game {game_id} was played elsewhere meanwhile (now 2 guesses): guess 5566 not "
        f"kept; go on with the saved game: mastermind play --db {db} --resume {game_id}\n"
    )
    assert guesses(db, game_id) == ["1122", "3344"]
