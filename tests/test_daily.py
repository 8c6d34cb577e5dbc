"""The code of the day: one code a day from the date and a kept key, the share text without the
code, on the command line (mastermind play --daily) and the web API ({"mode": "daily"})."""

from __future__ import annotations

import json
import re
import stat
from datetime import UTC, date, datetime

import pytest
from click.testing import CliRunner

from mastermind import GameError
from mastermind.cli import cli
from mastermind.errors import StoreError
from mastermind.games.daily import FIRST_DAY, daily_game, daily_secret, day_number, share_text
from mastermind.history.keys import daily_key, daily_key_path

KEY = bytes(range(32))


def test_the_code_of_a_day_is_the_same_for_one_key_and_unrelated_for_another():
    days = [date(2026, 12, d) for d in range(1, 29)]
    codes = [daily_secret(d, KEY) for d in days]
    assert codes == [daily_secret(d, KEY) for d in days]
    other = [daily_secret(d, bytes(32)) for d in days]
    assert sum(a == b for a, b in zip(codes, other, strict=True)) <= 2  # 1 in 1296 each, by chance
    assert len(set(codes)) >= 25  # not one code, nor a few: days differ
    with pytest.raises(GameError, match="at least 16 bytes"):
        daily_secret(days[0], b"short")


def test_days_are_numbered_from_the_first():
    assert day_number(FIRST_DAY) == 1
    assert day_number(date(2026, 12, 6)) == 340


def test_the_share_text_has_the_number_the_guesses_the_key_pegs_and_the_link_never_the_code():
    day = date(2026, 3, 1)
    game = daily_game(day, KEY, seed=3)
    secret = str(game.secret)
    with pytest.raises(GameError, match="not over"):
        share_text(game)
    wrong = "1111" if secret != "1111" else "2222"
    game.guess(wrong)
    reply = game.moves[0].reply
    game.guess(secret)
    text = share_text(game, "http://example.org/")
    lines = text.split("\n")
    assert lines[0] == "Mastermind #60 2/10"
    game.hints = 2  # (as two hints taken would have left it)
    assert share_text(game).split("\n")[0] == "Mastermind #60 2/10 (2 hints)"
    assert lines[1] == "●" * reply.black + "○" * reply.white + "·" * (4 - reply.black - reply.white)
    assert lines[2] == "●●●●"
    assert lines[3] == "http://example.org/"
    assert secret not in text and wrong not in text


def test_a_lost_game_of_the_day_in_hard_mode_shares_x_and_the_mark():
    game = daily_game(date(2026, 3, 2), KEY, hard=True, seed=1)
    game.give_up()
    assert share_text(game) == "Mastermind #61 X/10*"
    again = type(game).from_record(game.record())
    assert again.daily == "2026-03-02" and again.hard and share_text(again) == share_text(game)


def test_the_key_is_made_once_for_its_owner_only_and_kept(tmp_path):
    history = tmp_path / "h.sqlite3"
    key = daily_key(history)
    path = daily_key_path(history)
    assert len(key) == 32 and path.exists()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert daily_key(history) == key
    assert daily_key(tmp_path / "other.sqlite3") != key
    assert list(tmp_path.glob("*.tmp")) == []
    path.write_text("not a key\n")
    with pytest.raises(StoreError, match="is not a key of the code of the day"):
        daily_key(history)


def play(db, typed, *options):
    result = CliRunner().invoke(cli, ["play", "--daily", "--db", str(db), *options], input=typed)
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout, result.stderr


def test_mastermind_play_daily_gives_the_share_text_and_one_game_a_day(tmp_path):
    db = tmp_path / "h.sqlite3"
    code, out, _ = play(db, "1122\n")  # stopped after a guess: taken up again next time
    assert code == 1 and "The code of the day: #" in out
    secret = str(daily_secret(datetime.now(UTC).date(), daily_key(db)))
    code, out, _ = play(db, f"{secret}\n")
    assert code == 0
    assert "Resuming game 1: 1 guess made." in out
    number = day_number(datetime.now(UTC).date())
    share = re.search(r"To share:\n(.*?)\nCodes of the day", out, re.S).group(1)
    assert "Codes of the day: played 1, won 1; 1 in a row (best 1)." in out
    assert share.startswith(f"Mastermind #{number} {'1' if secret == '1122' else '2'}/10\n")
    assert secret not in share
    code, out, _ = play(db, "")
    assert code == 0 and "You have played the code of the day already" in out and share in out
    stats = CliRunner().invoke(cli, ["stats", "--db", str(db), "--json"])
    assert json.loads(stats.stdout) == []  # the code of the day is not counted with practice games
    code, _, err = play(db, "", "--seed", "3")
    assert code == 2 and "--daily plays the code of the day: it takes no --resume or --seed" in err
    stats = CliRunner().invoke(cli, ["stats", "--db", str(db)])  # its line, apart from the table
    assert stats.stdout.strip() == "Codes of the day: played 1, won 1; 1 in a row (best 1)."


@pytest.mark.parametrize(
    ("options", "why"),
    [
        (["--preset", "super"], "--daily plays the code of the day on 4x6: it takes no other rules"),
        (["--max-guesses", "12"], "--daily plays the code of the day on 4x6: it takes no other rules"),
        (["--no-history"], "--daily keeps the code of the day in the history (one game a day): not with"),
    ],
)
def test_the_code_of_the_day_is_refused_other_rules_and_a_game_outside_the_history(tmp_path, options, why):
    """Other rules would play the classic code under another name, and a game outside the history
    could be played again after it was given up, and shared as won."""
    code, out, err = play(tmp_path / "h.sqlite3", "1122\n", *options)
    assert code == 2 and why in err and "guess 1" not in out


def test_the_api_gives_every_visitor_the_same_code_and_one_game_a_day(tmp_path):
    pytest.importorskip("aiohttp", reason="the web extra (aiohttp) is not installed")
    from test_web_api import call, secret_hidden, serve

    secrets_seen = []

    async def scenario(app, alice, bob):
        first = await call(alice, "POST", "/api/games", {"mode": "daily"}, status=201)
        secret_hidden(first)
        assert first["daily"] == datetime.now(UTC).date().isoformat() and first["share"] is None
        assert first["day"] == day_number(datetime.now(UTC).date())
        again = await call(alice, "POST", "/api/games", {"mode": "daily"}, status=200)
        assert again["id"] == first["id"]
        over = await call(alice, "POST", f"/api/games/{first['id']}/guesses", {"guess": "1122"})
        if not over["finished"]:  # 1122 was not today's code
            secret_hidden(over)
            over = await call(alice, "POST", f"/api/games/{first['id']}/give-up")
        assert over["share"].startswith(f"Mastermind #{first['day']} ")
        assert over["share"].endswith(f"\nhttp://{alice.host}:{alice.port}/")
        assert over["secret"] not in over["share"]
        theirs = await call(bob, "POST", "/api/games", {"mode": "daily", "hard": True}, status=201)
        assert theirs["id"] == first["id"] == 1 and theirs["hard"] is True  # each their own game 1
        gone = await call(bob, "POST", f"/api/games/{theirs['id']}/give-up")
        assert gone["secret"] == over["secret"]  # one code for every visitor
        assert gone["share"].split("\n")[0].endswith("X/10*")
        secrets_seen.append(over["secret"])
        counted = await call(bob, "GET", "/api/daily/stats")
        assert counted["daily"] == {
            "played": 1,
            "won": 0,
            "distribution": {},
            "current_streak": 0,
            "best_streak": 0,
        }
        practice = await call(bob, "GET", "/api/stats")
        assert practice["break"] == []  # the code of the day is not a practice game
        past = await call(bob, "POST", "/api/games", {"mode": "daily", "day": "2026-01-01"}, status=201)
        assert past["day"] == 1
        future = await call(bob, "POST", "/api/games", {"mode": "daily", "day": "2999-01-01"}, status=400)
        assert future["error"].startswith("the code of 2999-01-01 is not out yet")
        await call(bob, "POST", "/api/games", {"mode": "daily", "day": "soon"}, status=400)

    serve(tmp_path, scenario, visitors=2)

    async def later(app, carol):  # a new server on the same history: the same key, the same code
        game = await call(carol, "POST", "/api/games", {"mode": "daily"}, status=201)
        gone = await call(carol, "POST", f"/api/games/{game['id']}/give-up")
        assert gone["secret"] == secrets_seen[0]

    serve(tmp_path, later)


def test_the_servers_memory_of_games_of_the_day_found_keeps_today_and_yesterday_only(tmp_path):
    pytest.importorskip("aiohttp", reason="the web extra (aiohttp) is not installed")
    from mastermind.web.daily import FOUND, TRIMMED
    from test_web_api import call, serve

    async def scenario(app, alice):
        now = datetime.now(UTC).date()
        yesterday = date.fromordinal(now.toordinal() - 1).isoformat()
        past = await call(alice, "POST", "/api/games", {"mode": "daily", "day": "2026-01-01"}, status=201)
        await call(alice, "POST", f"/api/games/{past['id']}/give-up")
        found = app[FOUND]
        found |= {("someone", "2026-01-02"): 1, ("someone", yesterday): 2}
        app[TRIMMED][0] = yesterday  # the server was last asked yesterday
        today = await call(alice, "POST", "/api/games", {"mode": "daily"}, status=201)
        assert sorted(day for _, day in found) == [yesterday, now.isoformat()]  # someone's, alice's
        # a day no longer held is looked up in the history again: still one game each
        again = await call(alice, "POST", "/api/games", {"mode": "daily", "day": "2026-01-01"})
        assert again["id"] == past["id"] and today["id"] != past["id"]

    serve(tmp_path, scenario)
