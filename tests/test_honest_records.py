"""Hints asked and guesses taken back are part of the game: kept in the record (version 3) with the
guess each came at, shown by `mastermind history ID`, and `stats` counts the games won without help
apart. Older records still load."""

import json

from click.testing import CliRunner

from mastermind import Game, Rules
from mastermind.cli import cli
from mastermind.core.records import RECORD_VERSION
from mastermind.history.stats import game_stats
from mastermind.history.store import Store

SMALL = Rules(pegs=2, colors=3)


def run(*args, input=None):
    result = CliRunner().invoke(cli, list(args), input=input)
    return result.exit_code, result.stdout, result.stderr


def test_hints_and_guesses_taken_back_are_kept_in_order_with_their_turn():
    game = Game.breaking(Rules(), seed=2026)  # the secret is 2154
    game.guess("1122")
    hint = game.hint()
    game.guess("3456")
    undone = game.undo()
    game.guess("1344")
    record = game.record()
    assert record["version"] == RECORD_VERSION == 4 and record["hints"] == 1
    assert record["assists"] == [
        {"kind": "hint", "turn": 2, "guess": game.notation.format_code(hint.guess)},
        {"kind": "undo", "turn": 2, "guess": "3456", "reply": f"{undone.reply.black},{undone.reply.white}"},
    ]
    again = Game.from_record(json.loads(json.dumps(record)))
    assert again.assists == game.assists and again.record() == record and again.helped


def test_a_version_2_record_without_assists_still_loads():
    game = Game.breaking(SMALL, seed=1)
    game.guess("11")
    record = game.record()
    old = {k: v for k, v in record.items() if k != "assists"} | {"version": 2, "hints": 2}
    loaded = Game.from_record(old)
    assert loaded.assists == [] and loaded.hints == 2 and loaded.helped
    assert loaded.history == game.history


def finished(store, seed, hints=0, undo=False):
    game = Game.breaking(SMALL, seed=seed)
    for _ in range(hints):
        game.hint()
    if undo:
        other = next(c for c in ("11", "22", "33") if game.notation.parse_code(c) != game.secret)
        game.guess(other)
        game.undo()
    game.guess(game.secret)
    store.add(game.record())


def test_stats_count_the_games_won_without_help_apart(tmp_path):
    db = str(tmp_path / "h.db")
    with Store(db) as store:
        finished(store, 1)
        finished(store, 2, hints=1)
        finished(store, 3, undo=True)
        finished(store, 4)
        [s] = game_stats(store.games())
    assert (s.played, s.won, s.won_unaided) == (4, 4, 2)
    code, out, _ = run("stats", "--db", db, "--json")
    assert code == 0 and json.loads(out)[0]["won_unaided"] == 2
    code, out, _ = run("stats", "--db", db)
    row = next(line for line in out.splitlines() if "2x3" in line)
    assert row.split()[1:4] == ["4", "4", "2"]  # played, won, unaided


def test_history_shows_the_help_a_game_had(tmp_path):
    db = str(tmp_path / "h.db")
    code, _, _ = run("play", "--seed", "2026", "--db", db, input="1122\nhint\n3456\nundo\n1344\nquit\n")
    assert code == 1
    code, out, _ = run("history", "1", "--db", db)
    assert code == 0
    assert "before guess 2: asked a hint (1134)" in out  # Knuth's guess after 1122 = 1,1 (his table)
    assert "at guess 2: took back 3456 (" in out
    code, out, _ = run("history", "1", "--db", db, "--json")
    assert [a["kind"] for a in json.loads(out)["assists"]] == ["hint", "undo"]
