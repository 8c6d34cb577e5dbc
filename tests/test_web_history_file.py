"""A history that moves by a file (web/transfer.py): exported as JSON, imported into another
browser's visitor by the transfer code's move (the same renumbering after the receiver's own
games), and a bad file refused whole in one line with nothing changed; through the API, and on
the page by taps in headless Chromium."""

from __future__ import annotations

import asyncio
import copy
import json

import pytest

pytest.importorskip("aiohttp", reason="the web extra (aiohttp) is not installed")

from mastermind import Game, Match, Rules  # noqa: E402
from mastermind.web import transfer  # noqa: E402
from mastermind.web.api import STATE  # noqa: E402
from mastermind.web.limits import Limits  # noqa: E402
from mastermind.web.transfer import new_games  # noqa: E402
from test_web import browser, server  # noqa: E402, F401
from test_web_api import call, serve  # noqa: E402


async def history_of(client) -> list[tuple[int, str]]:
    games = (await call(client, "GET", "/api/history"))["games"]
    return sorted((g["id"], g["outcome"]) for g in games)


def test_a_history_file_moves_games_statistics_and_settings_and_a_bad_one_changes_nothing(tmp_path):
    async def scenario(app, alice, bob, carol):
        empty = await (await carol.get("/api/export")).json()
        assert empty["games"] == [] and empty["format"] == "mastermind web history"
        done = await call(alice, "POST", "/api/games", {"mode": "break"}, status=201)
        await call(alice, "POST", f"/api/games/{done['id']}/guesses", {"guess": "1122"})
        await call(alice, "POST", f"/api/games/{done['id']}/give-up")
        going = await call(alice, "POST", "/api/games", {"mode": "break"}, status=201)
        await call(alice, "POST", f"/api/games/{going['id']}/guesses", {"guess": "1234"})
        day = await call(alice, "POST", "/api/games", {"mode": "daily"}, status=201)
        await call(alice, "POST", f"/api/games/{day['id']}/guesses", {"guess": "1234"})
        await call(alice, "POST", f"/api/games/{day['id']}/give-up")
        await call(alice, "PUT", "/api/settings", {"palette": "colour-blind"})
        made = await call(
            alice, "POST", "/api/games", {"mode": "match", "players": ["human", "friend"]}, status=201
        )
        await call(carol, "POST", f"/api/join/{made['invite'].removeprefix('/join/')}")

        response = await alice.get("/api/export")
        assert response.status == 200 and response.content_type == "application/json"
        assert response.headers["Content-Disposition"] == 'attachment; filename="mastermind-history.json"'
        text = await response.text()
        exported = json.loads(text)
        # the finished games only: the game being played (its secret, its seed) and the friend's
        # match being played (its link and seats) stay on this server
        assert [g["number"] for g in exported["games"]] == [done["id"], day["id"]]
        assert exported["settings"]["palette"] == "colour-blind"
        assert made["invite"].removeprefix("/join/") not in text and '"friend"' not in text

        own = await call(bob, "POST", "/api/games", {"mode": "break"}, status=201)
        await call(bob, "POST", f"/api/games/{own['id']}/guesses", {"guess": "3456"})  # bob's game 1
        his_day = await call(bob, "POST", "/api/games", {"mode": "daily"}, status=201)
        await call(bob, "POST", f"/api/games/{his_day['id']}/guesses", {"guess": "5612"})  # and 2
        moved = await call(bob, "POST", "/api/import", text)
        # after bob's own games: alice's 1 is his 3; her game of the day is not added (bob has his
        # own of that day: one each)
        assert moved == {"moved": 1, "shift": 2, "skipped": 1}
        assert await history_of(bob) == [(1, "playing"), (2, "playing"), (3, "gave-up")]
        again = await call(bob, "POST", "/api/import", text)  # the same file twice: nothing twice
        assert again["moved"] == 0 and again["skipped"] == 2
        assert (await call(bob, "GET", "/api/settings"))["settings"]["palette"] == "colour-blind"
        stats = await call(bob, "GET", "/api/stats")
        assert stats["break"][0]["played"] == 1 and stats["break"][0]["gave_up"] == 1
        # a file made by hand may bring a game being played: it goes on here
        playing = Game.breaking(Rules(), seed=3)
        playing.guess("1234")
        by_hand = {
            "format": exported["format"],
            "version": 1,
            "games": [{"number": 1, "record": playing.record()}],
        }
        assert (await call(bob, "POST", "/api/import", by_hand))["moved"] == 1
        going_on = await call(bob, "POST", "/api/games/4/guesses", {"guess": "5566"})
        assert [m["guess"] for m in going_on["moves"]] == ["1234", "5566"]
        # a file is a copy: the browser that wrote it keeps its games
        assert [g for g, _ in await history_of(alice)] == [done["id"], going["id"], day["id"], made["id"]]

        # a bad file: one line, 400, and bob's games and settings as they were
        before = (await history_of(bob), (await call(bob, "GET", "/api/settings"))["settings"])
        broken = copy.deepcopy(exported)
        broken["games"][1]["record"]["moves"][0]["guess"] = "1299"
        twice = copy.deepcopy(exported)
        twice["games"][1]["number"] = twice["games"][0]["number"]
        bad_settings = copy.deepcopy(exported)
        bad_settings["settings"] = {"palette": "plaid"}
        for body, words in [
            ("not json", "this file is not a history file of mastermind web (not JSON)"),
            (json.dumps({"games": []}), "this file is not a history file of mastermind web"),
            (json.dumps(exported | {"version": 9}), "this history file has version 9; this server reads 1"),
            (json.dumps(broken), f"game {day['id']} of this history file cannot be read: "),
            (json.dumps(twice), "this history file has a game without a number of its own: "),
            (json.dumps(bad_settings), "the settings of this history file cannot be used: "),
        ]:
            refused = await call(bob, "POST", "/api/import", body, status=400)
            assert refused["error"].startswith(words) and "\n" not in refused["error"], refused
        after = (await history_of(bob), (await call(bob, "GET", "/api/settings"))["settings"])
        assert after == before

    serve(tmp_path, scenario, visitors=3)


@pytest.mark.slow
def test_export_and_import_by_taps_move_a_game_to_another_browser(server, browser, tmp_path):  # noqa: F811
    pytest.importorskip("websockets.sync.client", reason="websockets is not installed")
    from test_web import DESKTOP, PHONE, wait_for
    from test_web_friends_page import Visitor

    alice, bob = Visitor(browser, DESKTOP), Visitor(browser, PHONE)
    try:
        alice.open(server)
        for key in "1122":
            alice.key(key)
        alice.key("Enter")
        alice.settle()
        # given up (a game being played stays out of the file: its secret with it)
        give_up = (
            "fetch('/api/history').then(r => r.json()).then(h => "
            "fetch(`/api/games/${h.games[0].id}/give-up`, {method: 'POST'})).then(r => r.status)"
        )
        assert alice.js(give_up) == 200
        alice.tap(".tab[data-section=settings-section]")
        alice("Page.setDownloadBehavior", behavior="allow", downloadPath=str(tmp_path))
        alice.tap("#export")
        saved = tmp_path / "mastermind-history.json"
        assert wait_for(lambda: saved.exists() and saved.stat().st_size > 0, 20)
        exported = json.loads(saved.read_text())
        assert [m["guess"] for m in exported["games"][0]["record"]["moves"]] == ["1122"]
        alice.shot("history-file-export")

        bob.open(server)
        bob.tap(".tab[data-section=settings-section]")
        bob.js("window.beforeImport = true")  # gone once the page has loaded again
        bob("DOM.enable")
        bob("Page.setInterceptFileChooserDialog", enabled=True)
        bob.tap("#import")
        chooser = bob.event("Page.fileChooserOpened")
        bob("DOM.setFileInputFiles", files=[str(saved)], backendNodeId=chooser["backendNodeId"])
        assert wait_for(lambda: bob.text("#transfer-note") == "1 game from the file added here.", 10)
        bob.shot("history-file-import")
        # the page loads again 0.8 s after the note: a loaded machine may take longer, and a tap on
        # the page before then would be lost with it
        reloaded = (
            "window.beforeImport === undefined && document.body && document.body.dataset.ready === 'true'"
        )
        assert wait_for(lambda: bob.js(reloaded), 30)
        bob.tap(".tab[data-section=history-section]")
        games = bob.js("fetch('/api/history').then(r => r.json())")["games"]
        # numbered after bob's own: the page's draft of a game had number 1
        assert [(g["id"], g["guesses"]) for g in games] == [(2, 1)]
        bob.shot("history-file-history")
        # a bad file: said in one line, nothing added
        bad = tmp_path / "bad.json"
        bad.write_text('{"format": "something else"}')
        bob.tap(".tab[data-section=settings-section]")
        bob.tap("#import")
        chooser = bob.event("Page.fileChooserOpened")
        bob("DOM.setFileInputFiles", files=[str(bad)], backendNodeId=chooser["backendNodeId"])
        assert wait_for(
            lambda: bob.text("#transfer-note") == "This file is not a history file of mastermind web.", 10
        )
        assert len(bob.js("fetch('/api/history').then(r => r.json())")["games"]) == 1
        assert bob.overflow() == 0
        bob.shot("history-file-refused")
    finally:
        alice.close()
        bob.close()


def _file(*records: dict) -> dict:
    return {
        "format": "mastermind web history",
        "version": 1,
        "games": [{"number": n, "record": r} for n, r in enumerate(records, 1)],
    }


def _match_record() -> dict:
    match = Match(Rules(pegs=2, colors=3), ["human", "knuth"], 2, "standard", seed=5)
    if match.waiting_for == "secret":
        match.set_secret("12")
    return match.record()


def _played(seed: int, finished: bool = False) -> dict:
    game = Game.breaking(Rules(), seed=seed)
    game.guess("1122")
    if finished:
        game.give_up()
    return game.record()


def test_a_file_is_held_to_the_limits_of_a_game_made_here(tmp_path):
    async def scenario(app, alice, bob):
        spin = _match_record()
        spin["games"][0]["replayed"] = 10**12  # each replay drawn again: a thread held for ever
        large = _played(1)
        large |= {"rules": {**large["rules"], "pegs": 6, "colors": 6}, "moves": []}
        large |= {"secret": "123456", "strategy": "optimal"}
        long_match = _match_record() | {"games_planned": 22}
        future = {**_played(1, finished=True), "daily": "2999-01-01"}
        for body, words in [
            (_file(spin), "game 1 of this history file cannot be read: a record's number of games replayed"),
            (
                _file(large),
                "game 1 of this history file cannot be played here: this server plays the optimal",
            ),
            (
                _file(long_match),
                "game 1 of this history file cannot be played here: a match here has at most 20",
            ),
            (_file(future), "game 1 of this history file cannot be played here: there is no code of the day"),
            (_file(*[_played(s) for s in range(4)]), "this history file has 4 unfinished games; a visitor"),
            ({**_file(), "games": [{}] * 10_001}, "this history file has 10,001 games; this server takes"),
        ]:
            refused = await call(alice, "POST", "/api/import", body, status=400)
            assert refused["error"].startswith(words), refused
        # the unfinished games a file brings count with the visitor's own
        for _ in range(2):
            made = await call(alice, "POST", "/api/games", {"mode": "break"}, status=201)
            await call(alice, "POST", f"/api/games/{made['id']}/guesses", {"guess": "1234"})
        refused = await call(alice, "POST", "/api/import", _file(_played(8), _played(9)), status=400)
        assert refused["error"].startswith("this file's 2 unfinished games and your 2 would be more than 3")
        assert (await call(alice, "POST", "/api/import", _file(_played(8), _played(9, True))))["moved"] == 2
        assert len((await call(alice, "GET", "/api/history"))["games"]) == 4

    serve(tmp_path, scenario, limits=Limits(open_games=3), visitors=2)


def test_a_bad_record_is_refused_in_one_line_and_one_read_back_is_kept_as_the_games_package_writes_it(
    tmp_path,
):
    async def scenario(app, alice, bob):
        match = _match_record()
        cases = [
            ({"daily": ["x"]}, "a game of the day's date must be YYYY-MM-DD"),
            ({"daily": 5}, "a game of the day's date must be YYYY-MM-DD"),
            ({"daily": "not-a-date"}, "a game of the day's date must be YYYY-MM-DD"),
            ({"players": 5}, "game 1 of this history file cannot be read"),
            ({"rules": {"pegs": 1000, "colors": 1000}}, "game 1 of this history file cannot be"),
        ]
        for change, words in cases:
            refused = await call(
                alice, "POST", "/api/import", _file({**_played(1, True), **change}), status=400
            )
            assert words in refused["error"], refused
        for key, value in [("maker", 10**30), ("breaker", None), ("breaker", ""), ("points", -1)]:
            bad = json.loads(json.dumps(match))
            bad["games"][0][key] = value
            refused = await call(alice, "POST", "/api/import", _file(bad), status=400)
            assert refused["error"].startswith("game 1 of this history file cannot be read"), refused
        for settings in ["x", [1], 5, {"palette": 3}, {"rules": "x"}]:
            refused = await call(alice, "POST", "/api/import", {**_file(), "settings": settings}, status=400)
            assert refused["error"].startswith("the settings of this history file cannot be used"), refused
        for body in ['{"format": "mastermind web history", "version": 1, "games": [' * 20000, "[" * 100_000]:
            refused = await call(alice, "POST", "/api/import", body, status=400)
        assert (await call(alice, "GET", "/api/history"))["games"] == []
        # a match without its score (the package counts it again): kept as the package writes it,
        # and every page of it answers
        scoreless = {k: v for k, v in match.items() if k != "score"}
        assert (await call(bob, "POST", "/api/import", _file(scoreless)))["moved"] == 1
        kept = [json.loads(r[0]) for r in app[STATE].store.db.execute("SELECT record FROM games")]
        assert kept == [match]  # the score written again
        for path in ["/api/history", "/api/games", "/api/stats", "/api/games/1", "/api/daily/stats"]:
            await call(bob, "GET", path)
        assert (await call(bob, "GET", "/api/games/1"))["score"] == match["score"]

    serve(tmp_path, scenario, visitors=2)


def test_a_file_sent_twice_at_once_adds_its_games_once(tmp_path):
    async def scenario(app, alice):
        body = json.dumps(_file(*[_played(s, finished=True) for s in range(6)]))
        await call(alice, "GET", "/api/settings")  # her cookie, before the two requests
        first, second = await asyncio.gather(*(alice.post("/api/import", data=body) for _ in range(2)))
        answers = [await first.json(), await second.json()]
        assert sorted(a["moved"] for a in answers) == [0, 6] and sorted(a["skipped"] for a in answers) == [
            0,
            6,
        ]
        assert [g["id"] for g in (await call(alice, "GET", "/api/history"))["games"]] == [6, 5, 4, 3, 2, 1]

    serve(tmp_path, scenario)


def test_the_games_a_visitor_has_are_found_whatever_the_order_of_their_keys():
    record = _played(1, finished=True)
    reordered = dict(reversed(record.items()))
    day = {**_played(2, finished=True), "daily": "2026-12-01"}
    games = [(1, reordered), (2, reordered), (3, _played(3, True)), (4, day), (5, {**day, "seed": 9})]
    # the same game twice in one file once; a second game of a day held in memory not at all
    assert [n for n, _ in new_games(games, [record])] == [3, 4]
    assert [n for n, _ in new_games(games, [], days_held=["2026-12-01"])] == [1, 3]


def test_the_file_keeps_no_secret_of_a_game_being_played_nor_the_seed_of_a_computers_codes(tmp_path):
    async def scenario(app, alice):
        day = await call(alice, "POST", "/api/games", {"mode": "daily"}, status=201)
        await call(alice, "POST", f"/api/games/{day['id']}/guesses", {"guess": "1234"})
        match = await call(
            alice, "POST", "/api/games", {"mode": "match", "players": ["human", "knuth"]}, status=201
        )
        if match["waiting_for"] == "secret":
            await call(alice, "POST", f"/api/games/{match['id']}/secret", {"secret": "1234"})
        else:
            await call(alice, "POST", f"/api/games/{match['id']}/guesses", {"guess": "1234"})
        kept = [json.loads(r[0]) for r in app[STATE].store.db.execute("SELECT record FROM games")]
        secret = next(r["secret"] for r in kept if r.get("daily"))  # today's code: every visitor's
        seed = next(r["seed"] for r in kept if r["kind"] == "match")
        text = await (await alice.get("/api/export")).text()
        assert json.loads(text)["games"] == [] and secret not in text and f'"seed": {seed}' not in text
        await call(alice, "POST", f"/api/games/{day['id']}/give-up")
        assert [g["number"] for g in (await (await alice.get("/api/export")).json())["games"]] == [day["id"]]

    serve(tmp_path, scenario)


def test_a_file_that_would_hold_a_strategys_thread_long_is_refused(tmp_path, monkeypatch):
    # no clock read by the test: with a bound of nothing the file is past it before its last game
    monkeypatch.setattr(transfer, "FILE_SECONDS", 0.0)

    async def scenario(app, alice):
        body = _file(_played(1, finished=True), _played(2, finished=True))
        refused = await call(alice, "POST", "/api/import", body, status=400)
        assert refused["error"].startswith("this history file takes too long to read here (more than 0 s, ")
        assert (await call(alice, "GET", "/api/history"))["games"] == []

    serve(tmp_path, scenario)
