"""The rules of the code of the day in the games package (mastermind.games.daily), which the web
server and the command line both ask: which day it is, which days can be played, a player's game
of a day (the first one: one game a day), the statistics and streaks, and their one line."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta, timezone

import pytest
from click.testing import CliRunner

from mastermind.cli import cli
from mastermind.errors import GameError
from mastermind.games.daily import (
    FIRST_DAY,
    check_day,
    daily_game,
    daily_stats,
    game_of_day,
    streaks,
    today,
)
from mastermind.history.keys import daily_key
from mastermind.history.store import Store, StoredGame


def test_the_day_is_utcs_wherever_the_player_is():
    new_york, tokyo = timezone(timedelta(hours=-5)), timezone(timedelta(hours=9))
    assert today(datetime(2026, 3, 1, 23, 30, tzinfo=new_york)) == date(2026, 3, 2)  # 04:30 UTC
    assert today(datetime(2026, 3, 2, 8, 59, tzinfo=tokyo)) == date(2026, 3, 1)  # 23:59 UTC
    assert today(datetime(2026, 3, 2, 0, 0, tzinfo=UTC)) == date(2026, 3, 2)
    assert today(datetime(2026, 3, 1, 23, 59, 59, tzinfo=UTC)) == date(2026, 3, 1)


def test_a_day_can_be_played_from_the_first_up_to_today_never_one_to_come():
    now = date(2026, 3, 2)
    assert check_day(now, now) == now
    assert check_day(FIRST_DAY, now) == FIRST_DAY
    with pytest.raises(GameError, match=r"^the code of 2026-03-03 is not out yet: today is 2026-03-02$"):
        check_day(date(2026, 3, 3), now)
    with pytest.raises(GameError, match=r"^the codes of the day begin on 2026-01-01$"):
        check_day(date(2025, 12, 31), now)


def stored(
    number: int, day: str, outcome: str | None, moves: int = 4, started: str | None = None
) -> StoredGame:
    record = {"kind": "play", "daily": day, "outcome": outcome, "moves": [{}] * moves}
    return StoredGame(
        number, "play", started or f"{day}T08:00:00+00:00", "", outcome is not None, outcome, record, number
    )


def test_a_players_game_of_a_day_is_the_first_started_on_its_code():
    other = {"kind": "play", "moves": []}
    games = [
        StoredGame(1, "play", "2026-03-02T07:00:00+00:00", "", False, None, other, 1),
        stored(2, "2026-03-01", "won"),
        stored(3, "2026-03-02", None),
        stored(4, "2026-03-02", "won"),
    ]
    assert game_of_day(games, date(2026, 3, 2)) is games[2]
    assert game_of_day(games, date(2026, 3, 1)) is games[1]
    assert game_of_day(games, date(2026, 3, 3)) is None


def test_the_streaks_count_days_won_in_a_row_and_today_unplayed_does_not_end_one():
    d = [date(2026, 3, n) for n in range(1, 11)]
    won = {d[0]: True, d[1]: True, d[2]: True, d[3]: False, d[5]: True, d[6]: True}
    assert streaks(won, d[7]) == (3, 2)  # today (d[7]) not played yet: the run to yesterday
    assert streaks(won, d[8]) == (3, 0)  # yesterday (d[7]) missed: the run is over
    assert streaks({**won, d[7]: True}, d[7]) == (3, 3)
    assert streaks({**won, d[7]: False}, d[7]) == (3, 0)  # today lost: over at once
    assert streaks({}, d[0]) == (0, 0)


def test_todays_game_lost_ends_the_current_streak_the_same_day():
    """The current streak once stayed at yesterday's run until the next day when today's code was
    lost, so the line under a lost game's share text boasted of a streak it had just ended."""
    games = [stored(1, "2026-03-01", "won"), stored(2, "2026-03-02", "won"), stored(3, "2026-03-03", "lost")]
    s = daily_stats(games, date(2026, 3, 3))
    assert (s.played, s.won, s.current_streak, s.best_streak) == (3, 2, 0, 2)
    playing = daily_stats([*games[:2], stored(3, "2026-03-03", None)], date(2026, 3, 3))
    assert (playing.played, playing.current_streak) == (2, 2)  # still to play: the run goes on


def test_the_statistics_count_each_days_game_once_and_streak_only_days_played_on_their_day():
    games = [
        stored(1, "2026-03-01", "won", 3),
        stored(2, "2026-03-02", "won", 5),
        stored(3, "2026-03-02", "lost", 10),  # a second game of the day: not counted
        stored(4, "2026-03-03", None),  # today's, unfinished: not counted, and a second one
        stored(5, "2026-03-03", "won", 2),  # finished beside it is not today's game either
        stored(6, "2026-02-01", "won", 4, started="2026-03-02T09:00:00+00:00"),  # a past day
    ]
    s = daily_stats(games, date(2026, 3, 3))
    assert (s.played, s.won, s.distribution) == (3, 3, {3: 1, 4: 1, 5: 1})
    assert (s.current_streak, s.best_streak) == (2, 2)
    assert s.summary() == "Codes of the day: played 3, won 3; 2 in a row (best 2)."


def test_mastermind_play_daily_takes_up_the_first_game_of_today_and_counts_it_alone(tmp_path):
    """Two games of today in one history (two starts at once): play --daily goes on with the first
    and the statistics count that one; the command line once went on with the last and counted both."""
    db = tmp_path / "h.sqlite3"
    day = today()
    store = Store(db)
    first = daily_game(day, daily_key(db), seed=1)
    first.guess("1122" if first.notation.format_code(first.secret) != "1122" else "3344")
    store.add(first.record())
    second = daily_game(day, daily_key(db), seed=1)
    second.give_up()
    store.add(second.record())
    store.close()
    stats = CliRunner().invoke(cli, ["stats", "--db", str(db)])
    assert stats.exit_code == 0 and "Codes of the day" not in stats.stdout  # today's game is not over
    result = CliRunner().invoke(cli, ["play", "--daily", "--db", str(db)], input="")
    assert "Traceback" not in result.output
    assert "Resuming game 1: 1 guess made." in result.stdout
    assert re.search(r"played the code of the day already", result.stdout) is None


def test_the_server_gives_the_statistics_line_the_page_shows_in_the_games_packages_words(tmp_path):
    """The page once wrote the line itself from the figures; it reads the server's now, which is
    the line ``mastermind stats`` prints."""
    pytest.importorskip("aiohttp", reason="the web extra (aiohttp) is not installed")
    from test_web_api import call, serve

    async def scenario(app, alice):
        game = await call(alice, "POST", "/api/games", {"mode": "daily"}, status=201)
        await call(alice, "POST", f"/api/games/{game['id']}/give-up")
        counted = await call(alice, "GET", "/api/daily/stats")
        assert counted["summary"] == "Codes of the day: played 1, won 0; 0 in a row (best 0)."
        assert counted["daily"]["played"] == 1 and counted["day"] == game["day"]

    serve(tmp_path, scenario)
