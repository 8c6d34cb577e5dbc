"""A history that moves by a file (web/transfer.py): exported as JSON, imported into another
browser's visitor by the transfer code's move (the same renumbering after the receiver's own
games), and a bad file refused whole in one line with nothing changed; through the API, and on
the page by taps in headless Chromium."""

from __future__ import annotations

import copy
import json

import pytest

pytest.importorskip("aiohttp", reason="the web extra (aiohttp) is not installed")

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
        # the friend's match being played stays on this server (its link and seats with it)
        assert [g["number"] for g in exported["games"]] == [done["id"], going["id"], day["id"]]
        assert exported["settings"]["palette"] == "colour-blind"
        assert made["invite"].removeprefix("/join/") not in text and '"friend"' not in text

        own = await call(bob, "POST", "/api/games", {"mode": "break"}, status=201)
        await call(bob, "POST", f"/api/games/{own['id']}/guesses", {"guess": "3456"})  # bob's game 1
        his_day = await call(bob, "POST", "/api/games", {"mode": "daily"}, status=201)
        await call(bob, "POST", f"/api/games/{his_day['id']}/guesses", {"guess": "5612"})  # and 2
        moved = await call(bob, "POST", "/api/import", text)
        # after bob's own games: alice's 1 and 2 are his 3 and 4; her game of the day is not added
        # (bob has his own of that day: one each)
        assert moved == {"moved": 2, "shift": 2, "skipped": 1}
        assert await history_of(bob) == [(1, "playing"), (2, "playing"), (3, "gave-up"), (4, "playing")]
        again = await call(bob, "POST", "/api/import", text)  # the same file twice: nothing twice
        assert again["moved"] == 0 and again["skipped"] == 3
        assert (await call(bob, "GET", "/api/settings"))["settings"]["palette"] == "colour-blind"
        stats = await call(bob, "GET", "/api/stats")
        assert stats["break"][0]["played"] == 1 and stats["break"][0]["gave_up"] == 1
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
            (json.dumps(broken), f"game {going['id']} of this history file cannot be read: "),
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
        bob("DOM.enable")
        bob("Page.setInterceptFileChooserDialog", enabled=True)
        bob.tap("#import")
        chooser = bob.event("Page.fileChooserOpened")
        bob("DOM.setFileInputFiles", files=[str(saved)], backendNodeId=chooser["backendNodeId"])
        assert wait_for(lambda: bob.text("#transfer-note") == "1 game from the file added here.", 10)
        bob.shot("history-file-import")
        assert wait_for(lambda: bob.js("document.body && document.body.dataset.ready === 'true'"), 30)
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
