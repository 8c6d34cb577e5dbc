"""Play a friend by a link, through the API with two visitors and a third: the invitation, the
seats, whose move it is (every refusal in the games package's words), each move pushed over the
WebSocket, and the codemaker's code absent from every answer and every message to the breaker
until that game is over."""

from __future__ import annotations

import asyncio
import json

import pytest

pytest.importorskip("aiohttp", reason="the web extra (aiohttp) is not installed")

from mastermind.web.api import STATE  # noqa: E402
from mastermind.web.friends import FRIENDS  # noqa: E402
from mastermind.web.limits import Limits  # noqa: E402
from mastermind.web.sessions import COOKIE  # noqa: E402
from test_web_api import call, serve  # noqa: E402

TINY = {"rules": {"pegs": 2, "colors": 3}, "games": 2, "scoring": "standard"}


def secrets_in(data, found=None) -> list:
    """Every value of a key named secret or seed anywhere in ``data`` that is not None."""
    found = [] if found is None else found
    if isinstance(data, dict):
        for key, value in data.items():
            if key in ("secret", "seed") and value is not None:
                found.append(value)
            secrets_in(value, found)
    elif isinstance(data, list):
        for value in data:
            secrets_in(value, found)
    return found


class Device:
    """A visitor's open socket: every message it was pushed, in order."""

    def __init__(self, client, game_id: int) -> None:
        self.client, self.game_id, self.messages = client, game_id, []

    async def __aenter__(self):
        self.ws = await self.client.ws_connect(f"/api/games/{self.game_id}/socket")
        self.task = asyncio.create_task(self.read())
        await self.until(lambda m: True)
        return self

    async def read(self) -> None:
        async for message in self.ws:
            self.messages.append(json.loads(message.data))

    async def until(self, condition, timeout: float = 5.0) -> dict:
        """The last message pushed once ``condition`` holds of it (waiting for it)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while loop.time() < deadline:
            if self.messages and condition(self.messages[-1]["game"]):
                return self.messages[-1]["game"]
            await asyncio.sleep(0.01)
        raise AssertionError(f"no such message; the last: {self.messages[-1:]}")

    async def __aexit__(self, *exc) -> None:
        await self.ws.close()
        await self.task


def test_two_visitors_play_a_friends_match_by_a_link_and_a_third_learns_nothing(tmp_path):
    async def scenario(app, alice, bob, carol):
        made = await call(
            alice, "POST", "/api/games", {"mode": "match", "players": ["human", "friend"], **TINY}, status=201
        )
        game_id, invite = made["id"], made["invite"]
        assert invite.startswith("/join/") and made["friend"]["invite"] == invite
        assert made["friend"] | {"invite": None} == {
            "you": 1,
            "turn": 1,
            "your_turn": False,
            "role": "maker",
            "joined": False,
            "here": False,
            "invite": None,
            "secret": None,
            "rematch": None,
            "held": [],
        }
        token = invite.removeprefix("/join/")
        refused = await call(alice, "POST", f"/api/games/{game_id}/secret", {"secret": "12"}, status=409)
        assert refused["error"] == "your friend has not joined yet: give them the link"
        own = await call(alice, "POST", f"/api/join/{token}", status=409)
        assert own["error"].startswith("this is your own match's link")
        await call(carol, "POST", "/api/join/not-a-link", status=404)
        joined = await call(bob, "POST", f"/api/join/{token}")
        assert (
            joined["id"] == game_id and joined["friend"]["you"] == 2 and joined["friend"]["role"] == "breaker"
        )
        assert joined["friend"]["invite"] is None
        again = await call(carol, "POST", f"/api/join/{token}", status=409)
        assert again["error"] == "this link has been used: a friend has joined this match already"
        # the third visitor learns nothing: the match is "no game" to them, as any game not theirs
        for method, path in (("GET", ""), ("POST", "/guesses"), ("GET", "/socket")):
            answer = await call(
                carol,
                method,
                f"/api/games/{game_id}{path}",
                {"guess": "11"} if method == "POST" else None,
                status=404,
            )
            assert answer["error"] == f"there is no game {game_id}"
        async with Device(alice, game_id) as maker, Device(bob, game_id) as breaker:
            await maker.until(lambda g: g["friend"]["here"])
            out = await call(bob, "POST", f"/api/games/{game_id}/secret", {"secret": "12"}, status=409)
            assert out["error"] == "you break the code of game 1: your friend chooses it"
            out = await call(bob, "POST", f"/api/games/{game_id}/guesses", {"guess": "11"}, status=409)
            assert out["error"] == "it is your friend's turn to choose the code: you cannot guess now"
            chosen = await call(alice, "POST", f"/api/games/{game_id}/secret", {"secret": "12"})
            assert chosen["friend"]["secret"] == "12" and chosen["friend"]["turn"] == 2
            seen = await breaker.until(lambda g: g["waiting_for"] == "guess")
            assert seen["friend"]["your_turn"] and secrets_in(seen) == []
            out = await call(alice, "POST", f"/api/games/{game_id}/guesses", {"guess": "11"}, status=409)
            assert out["error"] == "you make the code of game 1: your friend guesses it"
            first = await call(bob, "POST", f"/api/games/{game_id}/guesses", {"guess": "11"})
            assert (first["black"], first["white"]) == (1, 0) and secrets_in(first) == []
            assert (await call(bob, "GET", f"/api/games/{game_id}"))["friend"]["secret"] is None
            pushed = await maker.until(lambda g: g["game"] and len(g["game"]["moves"]) == 1)
            assert pushed["game"]["moves"][0]["reply"] == "1,0"
            won = await call(bob, "POST", f"/api/games/{game_id}/guesses", {"guess": "12"})
            assert won["rounds"][0]["secret"] == "12" and won["round"]["number"] == 2
            # the maker's device is pushed the move's events too (its page holds the finished game,
            # winning row and code, as the breaker's does from its answer); the mover's push has none
            await maker.until(lambda g: g["rounds"])
            await breaker.until(lambda g: g["rounds"])
            told = next(m for m in maker.messages if m["game"]["rounds"])
            ends = [e for e in told["events"] if e["kind"] == "round-over"]
            assert ends[0]["outcome"] == "won" and ends[0]["game"]["moves"][-1]["guess"] == "12"
            assert "events" not in next(m for m in breaker.messages if m["game"]["rounds"])
            # until game 1 was over, nothing bob's device was sent held the code
            over_at = next(i for i, m in enumerate(breaker.messages) if m["game"]["rounds"])
            assert all(secrets_in(m) == [] for m in breaker.messages[:over_at])
            assert all(m["game"]["friend"]["secret"] is None for m in breaker.messages)
            # game 2: bob makes the code and replies by hand; a wrong reply is caught and scored
            await call(bob, "POST", f"/api/games/{game_id}/secret", {"secret": None})
            await call(alice, "POST", f"/api/games/{game_id}/guesses", {"guess": "11"})
            out = await call(alice, "POST", f"/api/games/{game_id}/replies", {"reply": "0,0"}, status=409)
            assert out["error"] == "you break the code of game 2: your friend replies to your guesses"
            await call(bob, "POST", f"/api/games/{game_id}/replies", {"reply": "0,0"})
            await call(alice, "POST", f"/api/games/{game_id}/guesses", {"guess": "11"})
            caught = await call(bob, "POST", f"/api/games/{game_id}/replies", {"reply": "1,0"})
            assert [e["kind"] for e in caught["events"]] == ["move", "replayed"]
            assert caught["events"][1]["penalty"] == {"player": 1, "points": 3}
            await call(alice, "POST", f"/api/games/{game_id}/guesses", {"guess": "33"})
            end = await call(bob, "POST", f"/api/games/{game_id}/replies", {"reply": "2,0"})
            # the codemaker scores a guess each: alice 2 in game 1, and 3 for wrong information
            # given to her in game 2 (the breaker has them); bob 1, her one guess of the replay
            assert end["finished"] and end["score"] == [2 + 3, 1]
            await maker.until(lambda g: g["finished"])
            # a rematch: the same two, seats swapped, pushed to the other device
            rematch = await call(alice, "POST", f"/api/games/{game_id}/rematch", status=201)
            assert rematch["friend"]["you"] == 2 and rematch["friend"]["role"] == "breaker"
            assert rematch["friend"]["joined"] and rematch["friend"]["invite"] is None
            told = await breaker.until(lambda g: g["friend"]["rematch"] is not None)
            assert told["friend"]["rematch"] == rematch["id"]
            theirs = await call(bob, "GET", f"/api/games/{rematch['id']}")
            assert theirs["friend"]["you"] == 1 and theirs["friend"]["role"] == "maker"
            same = await call(bob, "POST", f"/api/games/{game_id}/rematch")
            assert same["id"] == rematch["id"]
        listed = await call(bob, "GET", "/api/friends")
        assert listed["games"] == [{"id": rematch["id"], "you": 1, "joined": True}]

    serve(tmp_path, scenario, visitors=3)


def test_each_device_of_a_friends_match_is_told_what_happened_in_its_own_players_words(tmp_path):
    """The games package's sentences (games/words.py) said to each player: "you" and "your friend",
    in the mover's answer, in what the other device is pushed, in the finished game held on each
    board and in the match's ending."""

    async def scenario(app, alice, bob):
        made = await call(
            alice, "POST", "/api/games", {"mode": "match", "players": ["human", "friend"], **TINY}, status=201
        )
        game_id = made["id"]
        await call(bob, "POST", f"/api/join/{made['invite'].removeprefix('/join/')}")
        async with Device(alice, game_id) as first, Device(bob, game_id) as second:
            await call(alice, "POST", f"/api/games/{game_id}/secret", {"secret": "12"})
            won = await call(bob, "POST", f"/api/games/{game_id}/guesses", {"guess": "12"})
            mine = "Game 1: you broke the code 12 in 1 guess. Points: your friend 1, you 0."
            theirs = "Game 1: your friend broke the code 12 in 1 guess. Points: you 1, your friend 0."
            assert [e["text"] for e in won["events"] if e["text"]] == [mine]
            assert [(h["text"], h["ending"]) for h in won["friend"]["held"]] == [
                (mine, ["You broke the code in 1 guess!"])
            ]
            await first.until(lambda g: g["rounds"])
            told = next(m for m in first.messages if m["game"]["rounds"])
            assert [e["text"] for e in told["events"] if e["text"]] == [theirs]
            assert [(h["text"], h["ending"]) for h in told["game"]["friend"]["held"]] == [
                (theirs, ["Your friend broke your code in 1 guess."])
            ]
            await call(bob, "POST", f"/api/games/{game_id}/secret", {"secret": "33"})
            await call(alice, "POST", f"/api/games/{game_id}/guesses", {"guess": "11"})
            end = await call(alice, "POST", f"/api/games/{game_id}/guesses", {"guess": "33"})
            assert end["finished"] and end["score"] == [1, 2]
            assert end["ending"] == ["The match is over: your friend wins, 2 points to 1."]
            assert [e["text"] for e in end["events"] if e["text"]] == [
                "Game 2: you broke the code 33 in 2 guesses. Points: you 0, your friend 2.",
                "The match is over: your friend wins, 2 points to 1.",
            ]
            pushed = await second.until(lambda g: g["finished"])
            assert pushed["ending"] == ["The match is over: you win, 2 points to 1."]
            assert [e["text"] for e in second.messages[-1]["events"] if e["text"]] == [
                "Game 2: your friend broke the code 33 in 2 guesses. Points: your friend 0, you 2.",
                "The match is over: you win, 2 points to 1.",
            ]
            assert (await call(bob, "GET", f"/api/games/{game_id}"))["ending"] == pushed["ending"]

    serve(tmp_path, scenario, visitors=2)


def test_a_server_started_again_takes_up_friends_matches_with_their_seats_and_links(tmp_path):
    kept = {}

    def cookie(client) -> str:
        return client.session.cookie_jar.filter_cookies(client.make_url("/"))[COOKIE].value

    async def first(app, alice, bob):
        made = await call(
            alice, "POST", "/api/games", {"mode": "match", "players": ["human", "friend"], **TINY}, status=201
        )
        waiting = await call(
            alice, "POST", "/api/games", {"mode": "match", "players": ["friend", "human"], **TINY}, status=201
        )
        await call(bob, "POST", f"/api/join/{made['invite'].removeprefix('/join/')}")
        await call(alice, "POST", f"/api/games/{made['id']}/secret", {"secret": "23"})
        await call(bob, "POST", f"/api/games/{made['id']}/guesses", {"guess": "11"})
        kept.update(
            alice=cookie(alice), bob=cookie(bob), id=made["id"], token=made["invite"], waiting=waiting
        )

    async def later(app, alice, bob, carol):  # a new server over the same history
        for client, name in ((alice, "alice"), (bob, "bob")):
            client.session.cookie_jar.update_cookies({COOKIE: kept[name]}, client.make_url("/"))
        game_id = kept["id"]
        hers = await call(alice, "GET", f"/api/games/{game_id}")
        assert hers["friend"]["you"] == 1 and hers["friend"]["secret"] == "23"
        his = await call(bob, "GET", f"/api/games/{game_id}")
        assert his["friend"]["you"] == 2 and his["friend"]["your_turn"] and his["friend"]["secret"] is None
        assert [m["guess"] for m in his["game"]["moves"]] == ["11"]
        out = await call(alice, "POST", f"/api/games/{game_id}/guesses", {"guess": "23"}, status=409)
        assert out["error"] == "you make the code of game 1: your friend guesses it"
        won = await call(bob, "POST", f"/api/games/{game_id}/guesses", {"guess": "23"})
        assert won["rounds"][0]["secret"] == "23"
        taken = await call(carol, "POST", f"/api/join{kept['token'].removeprefix('/join')}", status=409)
        assert taken["error"] == "this link has been used: a friend has joined this match already"
        await call(carol, "GET", f"/api/games/{game_id}", status=404)
        # a match its friend had not joined yet: its link still seats them, as player 1 here
        waiting = kept["waiting"]
        joined = await call(carol, "POST", f"/api/join{waiting['invite'].removeprefix('/join')}")
        # each addresses it by a number of their own: alice's second game, carol's first
        assert waiting["id"] == 2 and joined["id"] == 1 and joined["friend"]["you"] == 1
        assert (await call(alice, "GET", "/api/games/2"))["friend"]["joined"]
        mine = await call(carol, "POST", "/api/games", {"mode": "break", "rules": TINY["rules"]}, status=201)
        assert mine["id"] == 2  # the seat's number is never taken again

    serve(tmp_path, first, visitors=2)
    serve(tmp_path, later, visitors=3)


def test_each_player_moves_on_from_a_finished_game_on_all_their_devices_and_after_a_restart(tmp_path):
    """A finished game is held for each player (``friend.held``) until that player moves on from it:
    in the answer and in every view pushed from the move that ends it, for every device of theirs,
    each finished game in turn, and in the history (a server started again holds it still)."""
    kept = {}

    def cookie(client) -> str:
        return client.session.cookie_jar.filter_cookies(client.make_url("/"))[COOKIE].value

    def held(view) -> list:
        return [h["round"] for h in view["friend"]["held"]]

    async def first(app, alice, bob):
        made = await call(
            alice,
            "POST",
            "/api/games",
            {"mode": "match", "players": ["human", "friend"], **TINY, "games": 4},
            status=201,
        )
        game_id = made["id"]
        await call(bob, "POST", f"/api/join/{made['invite'].removeprefix('/join/')}")
        async with Device(alice, game_id) as maker, Device(bob, game_id) as breaker:
            await call(alice, "POST", f"/api/games/{game_id}/secret", {"secret": "12"})
            await breaker.until(lambda g: g["waiting_for"] == "guess")
            out = await call(bob, "POST", f"/api/games/{game_id}/next", {"game": 1}, status=409)
            assert out["error"] == "game 1 of the match is not over: there is nothing to move on from"
            won = await call(bob, "POST", f"/api/games/{game_id}/guesses", {"guess": "12"})
            assert held(won) == [1] and won["round"]["number"] == 2
            game = won["friend"]["held"][0]
            assert (game["outcome"], game["guesses"], game["secret"]) == ("won", 1, "12")
            assert game["game"]["moves"][-1]["guess"] == "12" and game["points"] == [1, 0]
            # every view pushed from that move holds it, the mover's own device's too: no view of
            # game 2 comes before the held game 1
            for device in (maker, breaker):
                await device.until(lambda g: g["rounds"])
                assert all(held(m["game"]) == [1] for m in device.messages if m["game"]["rounds"])
            await call(bob, "POST", f"/api/games/{game_id}/next", {}, status=400)
            single = await call(bob, "POST", "/api/games", {"mode": "break", **TINY}, status=201)
            out = await call(bob, "POST", f"/api/games/{single['id']}/next", {"game": 1}, status=409)
            assert out["error"].startswith("a single game has no next game")
            moved = await call(bob, "POST", f"/api/games/{game_id}/next", {"game": 1})
            assert held(moved) == [] and held(await breaker.until(lambda g: held(g) == [])) == []
            assert held(await call(bob, "POST", f"/api/games/{game_id}/next", {"game": 1})) == []
            # alice has not moved on: game 2 is played meanwhile (by her other device), and both
            # finished games wait for her in turn
            assert held(await call(alice, "GET", f"/api/games/{game_id}")) == [1]
            await call(bob, "POST", f"/api/games/{game_id}/secret", {"secret": "33"})
            await call(alice, "POST", f"/api/games/{game_id}/guesses", {"guess": "33"})
            assert held(await maker.until(lambda g: len(g["rounds"]) == 2)) == [1, 2]
            assert held(await breaker.until(lambda g: len(g["rounds"]) == 2)) == [2]
        kept.update(alice=cookie(alice), bob=cookie(bob), id=game_id)

    async def later(app, alice, bob):  # a new server over the same history
        for client, name in ((alice, "alice"), (bob, "bob")):
            client.session.cookie_jar.update_cookies({COOKIE: kept[name]}, client.make_url("/"))
        game_id = kept["id"]
        assert held(await call(alice, "GET", f"/api/games/{game_id}")) == [1, 2]
        assert held(await call(bob, "GET", f"/api/games/{game_id}")) == [2]
        assert held(await call(alice, "POST", f"/api/games/{game_id}/next", {"game": 1})) == [2]
        assert held(await call(alice, "POST", f"/api/games/{game_id}/next", {"game": 2})) == []

    serve(tmp_path, first, visitors=2)
    serve(tmp_path, later, visitors=2)


def test_a_friends_match_waiting_for_its_first_move_is_never_dropped_to_make_room(tmp_path):
    async def scenario(app, alice, bob):
        made = await call(
            alice, "POST", "/api/games", {"mode": "match", "players": ["human", "friend"], **TINY}, status=201
        )
        assert made["id"] == 1 and made["kept"]  # kept from its making: the link is given away
        first = await call(alice, "POST", "/api/games", {"mode": "break"}, status=201)
        await call(alice, "POST", f"/api/games/{first['id']}/guesses", {"guess": "1122"})
        undone = await call(alice, "POST", f"/api/games/{first['id']}/undo")  # every move taken back
        assert undone["kept"] is False  # out of the history: a draft, which the page forgets on leaving
        await call(alice, "DELETE", f"/api/games/{first['id']}")
        again = await call(alice, "POST", "/api/games", {"mode": "break"}, status=201)
        assert again["id"] == 2  # the game with no move left made room; the match did not
        await call(alice, "POST", f"/api/games/{again['id']}/guesses", {"guess": "1122"})
        refused = await call(alice, "POST", "/api/games", {"mode": "break"}, status=429)
        assert "(games 1, 2)" in refused["error"]  # at the limit, the match waiting for a move stays
        state = app[STATE]
        kept = await state.db(lambda: state.store.unfinished_of_visitors("match"))
        assert [g.number for g in kept] == [1]
        joined = await call(bob, "POST", f"/api/join/{made['invite'].removeprefix('/join/')}")
        assert joined["id"] == 1 and joined["friend"]["joined"]

    serve(tmp_path, scenario, Limits(open_games=2), visitors=2)


def test_the_friends_history_lists_the_match_under_their_own_number_and_a_third_sees_nothing(tmp_path):
    async def scenario(app, alice, bob, carol):
        own = await call(bob, "POST", "/api/games", {"mode": "break", "rules": TINY["rules"]}, status=201)
        await call(bob, "POST", f"/api/games/{own['id']}/guesses", {"guess": "11"})  # kept: bob's game 1
        made = await call(
            alice, "POST", "/api/games", {"mode": "match", "players": ["human", "friend"], **TINY}, status=201
        )
        joined = await call(bob, "POST", f"/api/join/{made['invite'].removeprefix('/join/')}")
        assert (made["id"], joined["id"]) == (1, 2)
        await call(alice, "POST", f"/api/games/{made['id']}/secret", {"secret": "12"})
        await call(bob, "POST", f"/api/games/{joined['id']}/guesses", {"guess": "11"})
        his = (await call(bob, "GET", "/api/history"))["games"]
        assert [(g["id"], g["mode"], g["guesses"]) for g in his] == [(2, "match", 1), (1, "break", 1)]
        hers = (await call(alice, "GET", "/api/history"))["games"]
        assert [(g["id"], g["mode"], g["guesses"]) for g in hers] == [(1, "match", 1)]
        assert his[0] | {"id": 1} == hers[0]  # one match, the same row, each under their own number
        assert (await call(carol, "GET", "/api/history"))["games"] == []
        await call(carol, "POST", "/api/games", {"mode": "break", "rules": TINY["rules"]}, status=201)
        assert (await call(carol, "GET", "/api/history"))["games"] == []
        # a match is counted in nobody's game statistics (it has its score): not in those of alice,
        # whose row it is (her history holds nothing else: counted, it would be her one entry)
        assert await call(alice, "GET", "/api/stats") == {"break": [], "solve": []}
        stats = await call(bob, "GET", "/api/stats")  # bob's are his own game's
        assert [s["played"] + s["unfinished"] for s in stats["break"]] == [1]

    serve(tmp_path, scenario, visitors=3)


def test_a_friend_leaving_and_coming_back_is_said_and_a_match_left_idle_is_closed_and_kept(tmp_path):
    async def said(device, text: str) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 10
        while not any(m.get("news") == text for m in device.messages):
            assert loop.time() < deadline, f"never told {text!r}: {device.messages[-1:]}"
            await asyncio.sleep(0.01)

    async def scenario(app, alice, bob, carol):
        made = await call(
            alice, "POST", "/api/games", {"mode": "match", "players": ["human", "friend"], **TINY}, status=201
        )
        await call(bob, "POST", f"/api/join/{made['invite'].removeprefix('/join/')}")
        await call(alice, "POST", "/api/games/1/secret", {"secret": "12"})
        async with Device(alice, 1) as maker:
            async with Device(bob, 1):
                await said(maker, "your friend is here")
            await said(maker, "your friend has left the match (they may come back)")
            async with Device(bob, 1) as breaker:
                await maker.until(lambda g: g["friend"]["here"])
                assert sum(m.get("news") == "your friend is here" for m in maker.messages) == 2
                # nobody moves: the match is closed, both devices told, and it leaves memory
                told = await breaker.until(lambda g: g["left"], timeout=20)
                assert told["left"].startswith("this match was closed unfinished")
                assert (await maker.until(lambda g: g["left"]))["id"] == 1
        assert app[FRIENDS].games == {} and app[FRIENDS].numbers == {}
        for client in (alice, bob):  # on their next load: in the history as left, no move taken
            again = await call(client, "GET", "/api/games/1")
            assert again["left"].startswith("this match was closed") and not again["finished"]
            out = await call(client, "POST", "/api/games/1/guesses", {"guess": "11"}, status=409)
            assert out["error"] == again["left"]
            listed = (await call(client, "GET", "/api/history"))["games"]
            assert [(g["id"], g["outcome"], g["finished"]) for g in listed] == [(1, "left", False)]
        assert (await call(carol, "GET", "/api/history"))["games"] == []
        # a match left is no open game: it takes none of the room for one (open_games=1 here)
        mine = await call(alice, "POST", "/api/games", {"mode": "break", "rules": TINY["rules"]}, status=201)
        await call(alice, "POST", f"/api/games/{mine['id']}/guesses", {"guess": "11"})

    serve(tmp_path, scenario, Limits(friend_idle_seconds=5.0, open_games=1), visitors=3)
    # a server started again does not take up a match closed as left
    serve(tmp_path, lambda app, alice: _none_held(app), visitors=1)


async def _none_held(app) -> None:
    assert app[FRIENDS].games == {}


def test_both_players_tapping_rematch_at_once_make_one_rematch(tmp_path):
    async def scenario(app, alice, bob):
        body = {
            "mode": "match",
            "players": ["human", "friend"],
            "rules": {"pegs": 2, "colors": 3},
            "games": 2,
        }
        made = await call(alice, "POST", "/api/games", body, status=201)
        joined = await call(bob, "POST", f"/api/join/{made['invite'].removeprefix('/join/')}")
        ids = {alice: made["id"], bob: joined["id"]}
        for _ in range(2):  # each makes "11", the other breaks it at once
            seen = await call(alice, "GET", f"/api/games/{ids[alice]}")
            maker = alice if seen["friend"]["role"] == "maker" else bob
            breaker = bob if maker is alice else alice
            await call(maker, "POST", f"/api/games/{ids[maker]}/secret", {"secret": "11"})
            await call(breaker, "POST", f"/api/games/{ids[breaker]}/guesses", {"guess": "11"})
        first, second = await asyncio.gather(
            alice.post(f"/api/games/{ids[alice]}/rematch"), bob.post(f"/api/games/{ids[bob]}/rematch")
        )
        assert sorted([first.status, second.status]) == [200, 201]
        hers, his = await first.json(), await second.json()
        assert {hers["friend"]["you"], his["friend"]["you"]} == {1, 2}
        assert len(app[FRIENDS].games) == 2  # the match and one rematch
        assert len((await call(alice, "GET", "/api/friends"))["games"]) == 1
        assert len((await call(bob, "GET", "/api/friends"))["games"]) == 1

    serve(tmp_path, scenario, visitors=2)


def test_a_friends_match_is_held_to_the_size_the_visitors_strategy_plays_here(tmp_path):
    async def scenario(app, alice):
        await call(alice, "PUT", "/api/settings", {"strategy": "optimal"})
        body = {"mode": "match", "players": ["human", "friend"], "rules": {"pegs": 6, "colors": 6}}
        refused = await call(alice, "POST", "/api/games", body, status=400)
        assert refused["error"].startswith("this server plays the optimal strategy on games of at most 3,125")
        body["rules"] = {"pegs": 4, "colors": 6}
        assert (await call(alice, "POST", "/api/games", body, status=201))["strategy"] == "optimal"

    serve(tmp_path, scenario)
