"""Evaluation runs in the history: saved when complete, taken from it when the same run is asked again."""

import json
import sqlite3

from click.testing import CliRunner

from mastermind import Rules, make_strategy
from mastermind.cli import cli
from mastermind.core.records import package_version
from mastermind.games.game import Game
from mastermind.history.store import MIGRATIONS, SCHEMA_VERSION, Store
from mastermind.research.evaluation import Stats, evaluate, run_key

SMALL = ["--pegs", "3", "--colors", "4"]


def run(*args):
    result = CliRunner().invoke(cli, list(args))
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout, result.stderr


def test_a_database_of_the_first_schema_version_is_migrated_and_keeps_its_games(tmp_path):
    path = tmp_path / "h.db"
    db = sqlite3.connect(path)
    for statement in MIGRATIONS[0]:  # the database as the first version of the package left it
        db.execute(statement)
    record = Game.breaking(Rules(), seed=3).record()
    db.execute(
        "INSERT INTO games (kind, started, updated, rules, finished, outcome, record) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        (
            "play",
            "2024-01-01T00:00:00+00:00",
            "2024-01-01T00:00:00+00:00",
            json.dumps(record["rules"]),
            0,
            "playing",
            json.dumps(record),
        ),
    )
    db.execute("PRAGMA user_version = 1")
    db.commit()
    db.close()
    with Store(path) as store:  # through every version since (the games table made again at 3)
        assert store.version == SCHEMA_VERSION == 5  # 4: games numbered per visitor; 5: the seats
        [game] = store.games()
        assert game.record == record and game.started == "2024-01-01T00:00:00+00:00"
        assert game.number is None  # a local game: only a web visitor's games are numbered
        assert store.runs() == []
    db = sqlite3.connect(path)
    columns = [r[1] for r in db.execute("PRAGMA table_info(runs)")]
    db.close()
    assert columns == [
        "id",
        "key",
        "created",
        "strategy",
        "options",
        "rules",
        "version",
        "sample",
        "seed",
        "total",
        "max",
        "distribution",
        "seconds",
        "record",
    ]


def test_a_run_is_stored_with_its_key_and_read_back(tmp_path):
    player = make_strategy("knuth", Rules(pegs=3, colors=4), first="112")
    stats = evaluate(player)
    key = run_key(player)
    assert key == {
        "strategy": "knuth",
        "first": "112",
        "options": {},
        "rules": {"pegs": 3, "colors": 4, "repeats": True, "max_guesses": 10, "blank": False},
        "sample": None,
        "seed": None,
        "version": package_version(),
    }
    with Store(tmp_path / "h.db") as store:
        run_id = store.add_run(key, stats.to_dict())
        assert store.find_run(run_key(make_strategy("knuth", Rules(pegs=3, colors=4)))) is None
        assert store.find_run({**key, "version": "0.0.1"}) is None
        found = store.find_run(dict(reversed(key.items())))  # the order of the keys does not matter
        assert found is not None and found.id == run_id and found.key == key
        assert Stats.from_dict(found.record).to_dict() == stats.to_dict()
        columns = "strategy, options, sample, seed, total, max, distribution"
        row = store.db.execute(f"SELECT {columns} FROM runs").fetchone()
    assert row == (
        "knuth",
        '{"first": "112", "options": {}}',
        None,
        None,
        stats.total,
        stats.max,
        json.dumps(stats.to_dict()["distribution"]),
    )


def test_the_seed_is_part_of_the_key_only_where_it_matters():
    rules = Rules(pegs=3, colors=4)
    assert run_key(make_strategy("knuth", rules), None, 7)["seed"] is None  # every secret, deterministic
    assert run_key(make_strategy("knuth", rules), 10, 7)["seed"] == 7  # the sample depends on it
    assert run_key(make_strategy("random", rules), None, 7)["seed"] == 7  # so do the random guesses
    assert run_key(make_strategy("counter", rules, tables=False))["options"] == {"tables": False}


def test_evaluate_saves_a_run_and_takes_the_same_run_from_the_history(tmp_path):
    db = str(tmp_path / "h.db")
    code, out, err = run("evaluate", *SMALL, "--db", db, "--json")
    assert code == 0 and err == ""
    first = json.loads(out)
    code, out, err = run("evaluate", *SMALL, "--db", db, "--json")
    again = json.loads(out)
    assert code == 0
    assert err.startswith(
        "mastermind: knuth on 3 pegs, colours 1-4, repeats allowed: taken from the history (run 1 of "
    )
    assert err.endswith("; --recompute runs it again\n") and err.count("\n") == 1
    created = again.pop("from_history")
    assert again == first  # the same output, seconds included, apart from where it came from
    with Store(db) as store:
        [stored] = store.runs()
        assert created == {"run": 1, "created": stored.created}
    code, out, err = run("evaluate", *SMALL, "--db", db, "--json", "--recompute")
    assert code == 0 and err == "" and "from_history" not in json.loads(out)
    code, out, err = run("evaluate", *SMALL, "--db", db, "--json", "--first", "112")  # another run
    assert code == 0 and err == "" and json.loads(out)["first_guess"] == "112"
    code, out, err = run("evaluate", *SMALL, "--db", db, "--max-guesses", "4", "--json")  # other rules
    assert code == 0 and err == ""
    with Store(db) as store:
        assert len(store.runs()) == 4


def test_no_history_neither_reads_nor_writes(tmp_path):
    db = tmp_path / "h.db"
    assert run("evaluate", *SMALL, "--db", str(db), "--json")[0] == 0
    with Store(db) as store:
        # a stored run to notice: as if every secret took 3 guesses
        store.db.execute("""UPDATE runs SET record = json_set(record, '$.distribution', json('{"3": 64}'))""")
    code, out, err = run("evaluate", *SMALL, "--db", str(db), "--json", "--no-history")
    assert code == 0 and err == "" and json.loads(out)["total"] == 216  # not the stored one
    with Store(db) as store:
        assert len(store.runs()) == 1
    code, out, err = run("evaluate", *SMALL, "--db", str(db), "--json")
    assert json.loads(out)["total"] == 192  # the stored run, as it is in the history
    fresh = tmp_path / "fresh.db"
    assert run("compare", *SMALL, "--strategies", "knuth", "--db", str(fresh), "--no-history")[0] == 0
    assert not fresh.exists()


def test_a_randomised_run_is_reused_only_with_a_seed_given(tmp_path):
    db = str(tmp_path / "h.db")
    code, out, _ = run("evaluate", *SMALL, "-s", "random", "--db", db, "--json")
    drawn = json.loads(out)["seed"]
    code, out, err = run("evaluate", *SMALL, "-s", "random", "--db", db, "--json")
    assert err == "" and "from_history" not in json.loads(out)  # another seed drawn: computed
    code, out, err = run("evaluate", *SMALL, "-s", "random", "--db", db, "--json", "--seed", str(drawn))
    assert "taken from the history (run 1 " in err and json.loads(out)["from_history"]["run"] == 1
    code, out, err = run("evaluate", *SMALL, "--sample", "20", "--seed", "4", "--db", db, "--json")
    assert err == ""
    code, out, err = run("evaluate", *SMALL, "--sample", "20", "--seed", "4", "--db", db, "--json")
    assert "taken from the history (run 3 " in err and json.loads(out)["games"] == 20
    code, out, err = run("evaluate", *SMALL, "--sample", "20", "--seed", "5", "--db", db, "--json")
    assert err == ""  # another sample


def test_compare_takes_the_runs_it_has_and_computes_the_others(tmp_path):
    db = str(tmp_path / "h.db")
    code, out, err = run("evaluate", *SMALL, "-s", "entropy", "--db", db, "--json")
    alone = json.loads(out)
    code, out, err = run("compare", *SMALL, "--strategies", "knuth,entropy", "--db", db, "--json")
    assert code == 0
    assert err.count("\n") == 1 and "mastermind: entropy on 3 pegs" in err and "taken from the history" in err
    knuth, entropy = json.loads(out)
    assert "from_history" not in knuth and entropy.pop("from_history")["run"] == 1
    assert entropy == alone
    code, out, err = run("compare", *SMALL, "--strategies", "knuth,entropy", "--db", db)
    assert code == 0 and err.count("taken from the history") == 2
    assert "216" in out and "208" in out  # the table, from the stored runs
    with Store(db) as store:
        assert [r.key["strategy"] for r in store.runs()] == ["entropy", "knuth"]
