"""A damaged game in the history the web server reads: the visitor's lists leave it out, their
other games go on as before, and the game asked for alone is a clear error, never a failure."""

from __future__ import annotations

import json
import sqlite3

import pytest

pytest.importorskip("aiohttp", reason="the web extra (aiohttp) is not installed")

from mastermind.web.api import STATE  # noqa: E402
from test_web_api import call, serve  # noqa: E402

DAMAGES = {
    "not JSON": lambda text: "{bad json",
    "a list": lambda text: "[]",
    "no strategy": lambda text: json.dumps({k: v for k, v in json.loads(text).items() if k != "strategy"}),
    "hints a word": lambda text: json.dumps(json.loads(text) | {"hints": "x"}),  # the engine's to refuse
}


@pytest.mark.parametrize("damage", DAMAGES.values(), ids=DAMAGES.keys())
def test_a_damaged_game_breaks_none_of_a_visitors_pages(tmp_path, damage):
    async def scenario(app, alice):
        for guess in ("1122", "3344"):
            made = await call(alice, "POST", "/api/games", {"mode": "break"}, status=201)
            await call(alice, "POST", f"/api/games/{made['id']}/guesses", {"guess": guess})
        db = sqlite3.connect(tmp_path / "h.sqlite3")
        text = db.execute("SELECT record FROM games WHERE number = 1").fetchone()[0]
        db.execute("UPDATE games SET record = ? WHERE number = 1", (damage(text),))
        db.commit()
        db.close()
        games = app[STATE].games
        for visitor, number in list(games._games):  # as after a restart: read from the history
            games.drop(visitor, number)
        listed = [g["id"] for g in (await call(alice, "GET", "/api/history"))["games"]]
        assert listed == [2]  # the engine's reading too, as the history's lists read every game
        assert 2 in [g["id"] for g in (await call(alice, "GET", "/api/games"))["games"]]
        await call(alice, "GET", "/api/stats")
        response = await alice.get("/api/games/1")
        assert response.status in (400, 404) and set(await response.json()) == {"error"}
        played = await call(alice, "POST", "/api/games/2/guesses", {"guess": "5566"})
        assert [m["guess"] for m in played["moves"]] == ["3344", "5566"]

    serve(tmp_path, scenario)
