"""A history that moves by a file (web/transfer.py): exported as JSON, imported into another
browser's visitor by the transfer code's move (the same renumbering after the receiver's own
games), and a bad file refused whole in one line with nothing changed; through the API, and on
the page by taps in headless Chromium."""

from __future__ import annotations

import copy
import json

import pytest

pytest.importorskip("aiohttp", reason="the web extra (aiohttp) is not installed")

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
        assert [g["number"] for g in exported["games"]] == [done["id"], going["id"]]
        assert exported["settings"]["palette"] == "colour-blind"
        assert made["invite"].removeprefix("/join/") not in text and '"friend"' not in text

        own = await call(bob, "POST", "/api/games", {"mode": "break"}, status=201)
        await call(bob, "POST", f"/api/games/{own['id']}/guesses", {"guess": "3456"})  # bob's game 1
        moved = await call(bob, "POST", "/api/import", text)
        assert moved == {"moved": 2, "shift": 1}  # after bob's own game: alice's 1 and 2 are his 2 and 3
        assert await history_of(bob) == [(1, "playing"), (2, "gave-up"), (3, "playing")]
        assert (await call(bob, "GET", "/api/settings"))["settings"]["palette"] == "colour-blind"
        stats = await call(bob, "GET", "/api/stats")
        assert stats["break"][0]["played"] == 1 and stats["break"][0]["gave_up"] == 1
        going_on = await call(bob, "POST", "/api/games/3/guesses", {"guess": "5566"})
        assert [m["guess"] for m in going_on["moves"]] == ["1234", "5566"]
        # a file is a copy: the browser that wrote it keeps its games
        assert [g for g, _ in await history_of(alice)] == [done["id"], going["id"], made["id"]]

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
