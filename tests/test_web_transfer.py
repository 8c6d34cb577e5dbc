"""Moving a visitor's history to another device by a transfer code, through the API: the games,
the statistics they make, the settings and the seats at a friend's match go to the new device in
one move; the first device keeps none of it; a code serves once."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("aiohttp", reason="the web extra (aiohttp) is not installed")

from test_web import browser, server  # noqa: E402, F401
from test_web_api import call, serve  # noqa: E402


def test_a_transfer_code_moves_the_history_settings_and_seats_to_another_device(tmp_path):
    async def scenario(app, alice, bob, carol):
        nothing = await call(carol, "POST", "/api/transfer", status=409)
        assert nothing["error"] == "there is nothing to move yet: play a game first"
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
        own = (await call(alice, "POST", "/api/transfer", status=201))["code"]
        refused = await call(alice, "POST", f"/api/transfer/{own}", status=409)
        assert refused["error"] == "this code is this browser's own: enter it on the other device"
        given = await call(alice, "POST", "/api/transfer", status=201)
        assert (
            re.fullmatch(r"[A-HJKMNP-Z2-9]{5}-[A-HJKMNP-Z2-9]{5}", given["code"])
            and given["expires_in"] == 600
        )
        moved = await call(bob, "POST", f"/api/transfer/{given['code'].lower()}")
        assert moved == {"moved": 3, "shift": 0}  # bob had no game: alice's numbers are his
        history = await call(bob, "GET", "/api/history")
        assert sorted(g["id"] for g in history["games"]) == sorted([done["id"], going["id"], made["id"]])
        assert (await call(alice, "GET", "/api/history"))["games"] == []
        assert (await call(bob, "GET", "/api/settings"))["settings"]["palette"] == "colour-blind"
        stats = await call(bob, "GET", "/api/stats")
        assert stats["break"][0]["played"] == 1 and stats["break"][0]["gave_up"] == 1
        await call(alice, "GET", f"/api/games/{going['id']}", status=404)
        moving = await call(bob, "POST", f"/api/games/{going['id']}/guesses", {"guess": "5566"})
        assert [m["guess"] for m in moving["moves"]] == ["1234", "5566"]
        seat = await call(bob, "GET", f"/api/games/{made['id']}")
        assert seat["friend"]["you"] == 1 and seat["friend"]["joined"]
        await call(alice, "GET", f"/api/games/{made['id']}", status=404)
        again = await call(carol, "POST", f"/api/transfer/{given['code']}", status=404)
        assert again["error"].startswith("there is no such transfer code")

    serve(tmp_path, scenario, visitors=3)


def test_a_transfer_numbers_the_moved_games_after_the_receivers_own(tmp_path):
    async def scenario(app, alice, bob, carol):
        for client in (alice, bob, bob):
            game = await call(client, "POST", "/api/games", {"mode": "break"}, status=201)
            await call(client, "POST", f"/api/games/{game['id']}/guesses", {"guess": "1122"})
        made = await call(
            alice, "POST", "/api/games", {"mode": "match", "players": ["human", "friend"]}, status=201
        )
        joined = await call(carol, "POST", f"/api/join/{made['invite'].removeprefix('/join/')}")
        assert (made["id"], joined["id"]) == (2, 1)
        draft = await call(bob, "POST", "/api/games", {"mode": "break"}, status=201)
        assert draft["id"] == 3  # a draft: its number held in memory only
        code = (await call(alice, "POST", "/api/transfer", status=201))["code"]
        moved = await call(bob, "POST", f"/api/transfer/{code}")
        assert moved == {"moved": 2, "shift": 3}  # alice's 1 and 2 are bob's 4 and 5
        history = await call(bob, "GET", "/api/history")
        assert sorted(g["id"] for g in history["games"]) == [1, 2, 4, 5]
        seat = await call(bob, "GET", "/api/games/5")
        assert seat["id"] == 5 and seat["friend"]["you"] == 1 and seat["friend"]["joined"]
        assert (await call(bob, "GET", "/api/games/3"))["kept"] is False  # the draft still his
        theirs = await call(carol, "GET", f"/api/games/{joined['id']}")
        assert theirs["id"] == 1 and theirs["friend"]["you"] == 2
        await call(alice, "GET", "/api/games/2", status=404)
        await call(carol, "GET", "/api/games/5", status=404)

    serve(tmp_path, scenario, visitors=3)


@pytest.mark.slow
def test_two_browsers_move_a_history_by_taps(server, browser):  # noqa: F811
    from test_web import DESKTOP, PHONE, wait_for
    from test_web_friends_page import Visitor

    old, new = Visitor(browser, DESKTOP), Visitor(browser, PHONE)
    try:
        old.open(server)
        for key in "1122":
            old.key(key)
        old.key("Enter")
        old.settle()
        old.tap(".tab[data-section='settings-section']")
        old.tap("#transfer-make")
        note = wait_for(lambda: old.text("#transfer-note"), 10)
        code = re.search(r"Your code: (\S+)\.", note).group(1)
        new.open(server)
        new.tap(".tab[data-section='settings-section']")
        new.tap("#transfer-code")
        for key in code:
            new.key(key)
        new.shot("transfer-code")
        new.tap("#transfer-form button[type=submit]")
        assert wait_for(lambda: new.text("#transfer-note").endswith("moved here."), 10)
        assert wait_for(lambda: new.js("!!document.body && document.body.dataset.ready === 'true'"), 30)
        new.tap(".tab[data-section='history-section']")
        assert wait_for(lambda: "1 guess" in new.text("#history"), 10)  # the other device's game, here
        assert new.overflow() == 0
    finally:
        old.close()
        new.close()
