"""The history store (mastermind.history.store): migrations, saving move by move, and unusable databases."""

import json
import sqlite3
import subprocess
import sys

import pytest

from mastermind import Rules
from mastermind.errors import MastermindError, StoreError
from mastermind.games.game import Game
from mastermind.games.match import Match
from mastermind.history.store import SCHEMA_VERSION, Store, default_path


def test_an_empty_file_is_migrated_from_version_0_to_the_current_schema(tmp_path):
    path = tmp_path / "h.sqlite3"
    path.touch()  # an empty file is an SQLite database of user_version 0
    with Store(path) as store:
        assert store.version == SCHEMA_VERSION == 5
        assert store.games() == []
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    columns = [r[1] for r in db.execute("PRAGMA table_info(games)")]
    assert columns == [
        "id",
        "kind",
        "started",
        "updated",
        "rules",
        "finished",
        "outcome",
        "record",
        "visitor",
        "number",
    ]
    db.close()
    with Store(path) as store:  # opening again migrates nothing and keeps the version
        assert store.version == SCHEMA_VERSION


def test_a_game_is_saved_move_by_move_and_read_back_the_same(tmp_path):
    game = Game.breaking(Rules(), seed=7)
    with Store(tmp_path / "h.sqlite3") as store:
        game_id = store.add(game.record())
        for code in ("1122", "1344"):
            game.guess(code)
            store.save(game_id, game.record())
    with Store(tmp_path / "h.sqlite3") as store:
        stored = store.get(game_id)
        assert (stored.kind, stored.finished, stored.outcome) == ("play", False, "playing")
        assert stored.record == game.record()
        again = Game.from_record(stored.record)
        assert again.secret == game.secret and again.history == game.history
        assert store.latest_unfinished("play").id == game_id
        assert store.latest_unfinished("guess") is None


def test_finished_games_and_matches_are_stored_with_their_outcome(tmp_path):
    won = Game.solving(Rules(pegs=3, colors=4), "knuth", secret="123")
    while not won.over:
        won.guess(won.proposal())
    m = Match(Rules(pegs=3, colors=4), ["knuth", "entropy"], 2, "standard", 1, "random", "knuth")
    m.play_out()
    with Store(tmp_path / "h.sqlite3") as store:
        a, b = store.add(won.record()), store.add(m.record())
        assert [(g.id, g.kind, g.finished) for g in store.games()] == [(a, "guess", True), (b, "match", True)]
        assert store.get(a).outcome == "won"
        winner = m.winner
        assert store.get(b).outcome == ("draw" if winner is None else f"player {winner}")
        assert Match.from_record(store.get(b).record).record() == m.record()
        assert store.latest_unfinished("guess") is None


def test_a_corrupt_file_is_one_clear_error(tmp_path):
    path = tmp_path / "h.sqlite3"
    path.write_bytes(b"this is not a database, just some text long enough to be read" * 100)
    with pytest.raises(StoreError, match=r"^the history database .* is corrupt \(not an SQLite database\)$"):
        Store(path)
    assert issubclass(StoreError, MastermindError)


def test_a_newer_schema_is_refused(tmp_path):
    path = tmp_path / "h.sqlite3"
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()
    with pytest.raises(StoreError, match="newer than this package knows"):
        Store(path)


def test_a_locked_database_is_one_clear_error(tmp_path):
    path = tmp_path / "h.sqlite3"
    store = Store(path, timeout=0.05)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")  # another session holds the write lock
    try:
        with store, pytest.raises(StoreError, match="is locked by another session"):
            store.add(Game.breaking(Rules(), seed=1).record())
        with pytest.raises(StoreError, match="is locked by another session"):
            Store(path, timeout=0.05)  # a writer is told when it opens the database, before any game
        with Store(path, timeout=0.05, write=False) as reader:  # WAL: reading goes on meanwhile
            assert reader.games() == []
    finally:
        other.execute("ROLLBACK")
        other.close()


def test_an_unknown_id_is_a_store_error(tmp_path):
    with Store(tmp_path / "h.sqlite3") as store, pytest.raises(StoreError, match="there is no game 3"):
        store.get(3)


def test_the_default_path_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("MASTERMIND_DB", str(tmp_path / "x.db"))
    assert default_path() == tmp_path / "x.db"
    monkeypatch.delenv("MASTERMIND_DB")
    assert default_path().name == "history.sqlite3"
    assert "mastermind-lab" in str(default_path())


def test_a_reader_of_a_missing_file_sees_an_empty_history_and_makes_nothing(tmp_path):
    path = tmp_path / "no" / "h.sqlite3"
    with Store(path, write=False) as store:
        assert store.games() == [] and store.runs() == []
    assert not path.parent.exists()


def test_ids_beyond_sqlite_integers_and_empty_paths_are_store_errors(tmp_path):
    with Store(tmp_path / "h.sqlite3") as store:
        for game_id in (0, -1, 2**63, 10**20):
            with pytest.raises(StoreError, match=f"there is no game {game_id} in the history"):
                store.get(game_id)
    with pytest.raises(StoreError, match="the history database's path is empty"):
        Store("")
    with pytest.raises(StoreError, match="is a directory, not a file"):
        Store(tmp_path)


def test_a_version_2_history_gains_the_visitor_column_and_its_games_stay_local(tmp_path):
    """A history written before the web server had visitors: its games are the local ones."""
    from mastermind.history.store import MIGRATIONS

    path = tmp_path / "h.sqlite3"
    db = sqlite3.connect(path)
    for steps in MIGRATIONS[:2]:
        for statement in steps:
            db.execute(statement)
    game = Game.breaking(Rules(), seed=3)
    game.guess("1122")
    db.execute(
        "INSERT INTO games (kind, started, updated, rules, finished, outcome, record) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        (
            "play",
            "2026-01-01T00:00:00+00:00",
            "2026-01-01T00:00:00+00:00",
            "{}",
            0,
            "playing",
            json.dumps(game.record()),
        ),
    )
    db.execute("PRAGMA user_version = 2")
    db.commit()
    db.close()
    with Store(path) as store:
        assert store.version == SCHEMA_VERSION
        [old] = store.games()
        assert old.record == game.record() and store.get(old.id).id == old.id
        assert store.games(visitor="v1") == [] and store.visitor_settings("v1") is None


def test_each_visitor_sees_only_its_own_games_and_the_local_history_none_of_them(tmp_path):
    with Store(tmp_path / "h.sqlite3") as store:
        local = store.add(Game.breaking(Rules(), seed=1).record())
        a = store.add(Game.breaking(Rules(), seed=2).record(), visitor="a")
        b = store.add(Game.solving(Rules(), "knuth").record(), visitor="b")
        assert [g.id for g in store.games()] == [local]
        assert [g.id for g in store.games(visitor="a")] == [a]
        assert [g.id for g in store.games("guess", visitor="b")] == [b]
        assert store.latest_unfinished("play", visitor="a").id == a
        assert store.latest_unfinished("play").id == local
        assert [g.id for g in store.unfinished("b")] == [b]
        for game_id, visitor in ((a, None), (a, "b"), (local, "a")):
            with pytest.raises(StoreError, match=f"there is no game {game_id} in the history"):
                store.get(game_id, visitor)
        assert not store.delete(b, "a") and store.delete(b, "b")
        assert store.games(visitor="b") == []
        assert store.add(Game.breaking(Rules(), seed=4).record(), visitor="b") == b + 1  # ids are not reused
        store.save_visitor("a", {"mode": "guess"})
        store.save_visitor("a", {"mode": "match"})
        assert store.visitor_settings("a") == {"mode": "match"} and store.visitor_settings("b") is None


def test_a_given_path_needs_its_folder_and_only_the_default_place_is_made(tmp_path, monkeypatch):
    missing = tmp_path / "no" / "h.sqlite3"
    with pytest.raises(StoreError, match="folder .*/no' does not exist"):
        Store(missing)
    monkeypatch.setenv("MASTERMIND_DB", str(missing))  # the environment names a path too
    with pytest.raises(StoreError, match="does not exist"):
        Store()
    assert not missing.parent.exists()
    monkeypatch.delenv("MASTERMIND_DB")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))  # the user data directory, made
    with Store() as store:
        assert store.path.parent.is_dir() and str(store.path).startswith(str(tmp_path / "data"))


def test_a_game_without_a_move_is_not_kept_and_one_taken_back_to_none_is_removed(tmp_path):
    from mastermind.history.store import Recorder

    with Store(tmp_path / "h.sqlite3") as store:
        recorder = Recorder(store)
        game = Game.breaking(Rules(), seed=1)
        recorder.save(game.record())
        assert recorder.id is None and store.games() == []  # nothing to resume: nothing kept
        game.guess("1122")
        recorder.save(game.record())
        assert [g.id for g in store.games()] == [1]
        game.undo()
        recorder.save(game.record())
        assert recorder.id is None and store.games() == []  # not listed as unfinished for ever
        game.give_up()
        recorder.save(game.record())  # a game given up before any move is over: kept
        assert [(g.id, g.outcome) for g in store.games()] == [(2, "gave-up")]
        match = Match(Rules(), ["human", "knuth"], seed=1)
        match_recorder = Recorder(store)
        match_recorder.save(match.record())  # no game of it begun: nothing to resume, as a game's
        assert match_recorder.id is None and len(store.games()) == 1
        match.set_secret("1234")  # a code set is kept at once (the codemaker typed it)
        match_recorder.save(match.record())
        assert match_recorder.id == 3


def test_version_3_visitors_games_are_numbered_for_each_visitor_by_the_migration(tmp_path):
    from mastermind.history.store import MIGRATIONS

    path = tmp_path / "h.sqlite3"
    db = sqlite3.connect(path)
    for steps in MIGRATIONS[:3]:
        for statement in steps:
            db.execute(statement)
    game = Game.breaking(Rules(), seed=3)
    game.guess("1122")
    for visitor in ("a", None, "b", "a"):
        db.execute(
            "INSERT INTO games (kind, started, updated, rules, finished, outcome, record, visitor) "
            "VALUES ('play', '', '', '{}', 0, 'playing', ?, ?)",
            (json.dumps(game.record()), visitor),
        )
    db.execute("PRAGMA user_version = 3")
    db.commit()
    db.close()
    with Store(path) as store:
        assert [g.number for g in store.games(visitor="a")] == [1, 2]
        assert [g.number for g in store.games(visitor="b")] == [1] and store.games()[0].number is None
        assert store.numbered(2, "a").id == 4 and store.next_number("a") == 3 and store.next_number("c") == 1
        assert store.add(game.record(), visitor="b") == 5 and store.numbered(2, "b").id == 5


def test_a_seat_at_another_visitors_game_takes_a_number_of_the_seated_visitor(tmp_path):
    match = Match(Rules(pegs=2, colors=3), ["human", "human"], 2, "standard")
    game = Game.breaking(Rules(), seed=3)
    game.guess("1122")
    with Store(tmp_path / "h.sqlite3") as store:
        store.add(game.record(), visitor="b")  # b's game 1
        shared = store.add(match.record(), visitor="a")  # a's game 1, a friend's match
        assert store.seat("b", shared) == 2 and store.next_number("b") == 3
        assert store.seat("c", shared, after=4) == 5  # past c's numbers held in memory
        assert store.numbered(2, "b").id == shared and store.numbered(1, "b").id != shared
        with pytest.raises(StoreError, match="there is no game 3"):
            store.numbered(3, "b")
        # b moves to d, who has a game already: b's numbers follow d's, the seat's with them
        store.add(game.record(), visitor="d")
        assert store.move_visitor("b", "d") == (1, 1)
        assert [g.number for g in store.games(visitor="d")] == [2, 1] and store.next_number("d") == 4
        assert store.numbered(3, "d").id == shared and store.games(visitor="b") == []
        assert store.move_visitor("e", "d", after=7) == (0, 7)  # nothing to move
        assert store.delete(shared, "a") and store.next_number("d") == 3  # the seats go with it


def test_games_given_to_a_visitor_in_one_transaction_are_all_there_or_none_after_a_kill(tmp_path):
    game = Game.breaking(Rules(), seed=3)
    game.guess("1122")
    path = tmp_path / "h.sqlite3"
    with Store(path) as store:
        store.add(game.record(), visitor="b")  # b's game 1
        records = [(n, {**game.record(), "seed": n}) for n in (1, 2, 3, 4)]
        # what b has is read in the transaction: two calls at once add the games once
        assert store.add_games("b", lambda own: records[len(own) - 1 :], settings={"palette": "x"}) == (4, 1)
        assert store.add_games("b", lambda own: records[len(own) - 1 :]) == (0, 5)
        assert [g.number for g in store.games(visitor="b")] == [1, 2, 3, 4, 5]
        assert store.visitor_settings("b") == {"palette": "x"}
        with pytest.raises(ValueError, match="refused"):  # a choice that raises writes nothing
            store.add_games("c", lambda own: (_ for _ in ()).throw(ValueError("refused")), settings={})
        assert store.games(visitor="c") == [] and store.visitor_settings("c") is None
    # the process killed after the third game of five is written: none of them is kept
    script = (
        "import os, sys, json\n"
        "import mastermind.history.store as s\n"
        "rows = s._game_row\n"
        "def row(*a, n=[0]):\n"
        "    n[0] += 1\n"
        "    if n[0] == 4: os._exit(9)\n"
        "    return rows(*a)\n"
        "s._game_row = row\n"
        "record = json.loads(sys.argv[2])\n"
        "s.Store(sys.argv[1]).add_games('d', lambda own: [(n, record) for n in range(1, 6)], settings={})\n"
    )
    killed = subprocess.run([sys.executable, "-c", script, str(path), json.dumps(game.record())], check=False)
    assert killed.returncode == 9
    with Store(path) as store:
        assert store.games(visitor="d") == [] and store.visitor_settings("d") is None
        assert len(store.games(visitor="b")) == 5
