"""A damaged game in the history (its record edited by hand, a disk fault): asked for alone it is one
line and exit status 2; every listing shows the other games and names the damaged ones once."""

import json
import re
import sqlite3

import pytest
from click.testing import CliRunner

from mastermind import Code, Rules
from mastermind.cli import cli
from mastermind.core.feedback import score
from mastermind.games.game import Game
from mastermind.history.store import DamagedGame, Store


def run(*args, input=None):
    result = CliRunner().invoke(cli, list(args), input=input)
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout, result.stderr


def two_games(db) -> None:
    """Game 1 unfinished (a guess, then stopped), game 2 given up."""
    with Store(db) as store:
        for seed in (1, 2):
            game = Game.breaking(Rules(), seed=seed)
            game.guess("1122")
            if seed == 2:
                game.give_up()
            store.add(game.record())


def spoil(db, change) -> None:
    c = sqlite3.connect(db)
    text = c.execute("SELECT record FROM games WHERE id = 1").fetchone()[0]
    c.execute("UPDATE games SET record = ? WHERE id = 1", (change(text),))
    c.commit()
    c.close()


def edited(**fields):
    return lambda text: json.dumps(json.loads(text) | fields)


def wrong_reply(text):
    """Row 1's reply changed to one the game's own secret does not give (hand-edited)."""
    record = json.loads(text)
    secret = Code(record["secret"], Rules())
    right = score(Code(record["moves"][0]["guess"], Rules()).colors, secret.colors)
    record["moves"][0]["reply"] = "0,0" if right != (0, 0) else "1,0"
    return json.dumps(record)


def wrong_secret(text):
    """The secret changed, its rows kept: row 1's reply is not what the new secret gives."""
    record = json.loads(text)
    reply = record["moves"][0]["reply"]
    record["secret"] = "6666" if reply != "0,0" else "1111"  # row 1 is 1122
    return json.dumps(record)


DAMAGES = {
    "not JSON": lambda text: "{bad json",
    "empty object": lambda text: "{}",
    "kind only": lambda text: '{"kind": "play"}',
    "a list": lambda text: "[]",
    "moves a number": edited(moves=5),
    "hints a word": edited(hints="x"),  # this one and the next only the engine's reading refuses
    "a secret no game has": edited(secret="9999"),
    "a reply its secret does not give": lambda text: wrong_reply(text),
    "a secret its rows do not fit": lambda text: wrong_secret(text),
    "no rules": lambda text: json.dumps({k: v for k, v in json.loads(text).items() if k != "rules"}),
}


@pytest.mark.parametrize("damage", DAMAGES.values(), ids=DAMAGES.keys())
def test_a_damaged_game_asked_for_is_one_line(tmp_path, damage):
    db = str(tmp_path / "h.db")
    two_games(db)
    spoil(db, damage)
    for args in (
        ["history", "1"],
        ["history", "1", "--json"],
        ["review", "--game", "1"],
        ["play", "--resume", "1"],
    ):
        code, out, err = run(*args, "--db", db, input="")
        assert code == 2, args
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(
            "mastermind: error: game 1 of the history is damaged: "
        )


def test_a_record_cut_short_says_where_its_json_ends_in_plain_words(tmp_path):
    db = str(tmp_path / "h.db")
    two_games(db)
    spoil(db, lambda text: text[: text.index('"secret"') + 12])  # cut inside a string
    code, out, err = run("history", "1", "--db", db, input="")
    assert code == 2
    said = r"its record is not JSON \(Unterminated string starting at character \d+\)$"
    assert re.search(said, err.strip()), err


@pytest.mark.parametrize("damage", DAMAGES.values(), ids=DAMAGES.keys())
def test_a_damaged_game_is_left_out_of_the_listings_and_named_once(tmp_path, damage):
    """Every listing reads a record as a game asked for alone is read (the engine's reading too):
    a game it lists is never one refused when asked for."""
    db = str(tmp_path / "h.db")
    two_games(db)
    spoil(db, damage)
    code, out, err = run("history", "--db", db)
    assert code == 0
    assert [line.split()[0] for line in out.splitlines()[1:]] == ["2"]
    assert err.count("game 1 is damaged") == 1
    code, out, err = run("history", "--json", "--db", db)
    assert code == 0 and [g["id"] for g in json.loads(out)] == [2] and err.count("damaged") == 1
    code, out, err = run("history", "--csv", "-", "--db", db)
    assert code == 0 and [line.split(",")[0] for line in out.splitlines()] == ["id", "2"]
    assert err.count("damaged") == 1
    code, out, err = run("stats", "--json", "--db", db)
    assert code == 0 and [s["played"] for s in json.loads(out)] == [1] and err.count("damaged") == 1
    code, out, err = run("review", "--json", "--db", db)  # the latest finished game: game 2
    assert code == 0 and len(json.loads(out)["moves"]) == 1 and err.count("game 1 is damaged") == 1


def test_the_store_reads_every_game_it_lists_with_the_engine_as_one_asked_for(tmp_path):
    db = str(tmp_path / "h.db")
    two_games(db)
    spoil(db, edited(secret="9999"))  # the history reads it; the engine cannot play it on
    with Store(db, write=False) as store:  # without the engine's reading: listed
        assert [g.id for g in store.games()] == [1, 2] and store.left_out == []
    with Store(db, write=False, reader=Game.from_record) as store:
        assert [g.id for g in store.games()] == [2] and store.left_out == [1]
        assert [g.id for g in store.unfinished()] == [] and store.left_out == [1]
        with pytest.raises(DamagedGame, match="game 1 of the history is damaged: "):
            store.get(1)
    spoil(db, lambda text: "{bad json")
    with Store(db, write=False) as store:
        assert [g.id for g in store.unfinished()] == [] and store.left_out == [1]
        assert [g.id for g in store.games()] == [2] and store.left_out == [1]
        with pytest.raises(DamagedGame):
            store.latest_unfinished("play")


def test_replies_typed_by_hand_that_contradict_each_other_are_play_not_damage(tmp_path):
    """A game where the computer breaks a code kept in the player's head has no secret: its
    replies may contradict each other (a wrong one is fixed in play), and its record is sound."""
    db = str(tmp_path / "h.db")
    with Store(db) as store:
        game = Game.solving(Rules(), seed=1)
        for reply in ["1,0", "0,1", "1,2", "1,2", "0,2"]:  # row 4 contradicts the others
            game.reply(reply)
        assert game.problem is not None
        store.add(game.record())
    code, out, err = run("history", "1", "--db", db)
    assert code == 0 and err == ""
    code, out, err = run("history", "--db", db)
    assert code == 0 and [line.split()[0] for line in out.splitlines()[1:]] == ["1"] and err == ""


def test_a_scored_game_with_an_edited_reply_names_the_row_and_keeps_the_secret(tmp_path):
    db = str(tmp_path / "h.db")
    two_games(db)
    spoil(db, wrong_reply)  # 1122=0,2 (secret 2246, game not over) edited to 1122=0,0
    code, out, err = run("history", "1", "--db", db)
    assert code == 2
    assert err.strip() == (
        "mastermind: error: game 1 of the history is damaged: "
        "a game record has row 1 (1122=0,0) with a reply its secret does not give"
    )
