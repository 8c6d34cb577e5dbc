"""The web server's JSON API (mastermind.web), through aiohttp's test client: every route, bad input
answered 4xx with a JSON error in the game's words, two visitors kept apart, the secret never in an
answer before the game is over, and the limits."""

from __future__ import annotations

import asyncio
import itertools
import json
import subprocess
import sys
from dataclasses import fields, replace
from unittest import mock

import pytest

aiohttp = pytest.importorskip("aiohttp", reason="the web extra (aiohttp) is not installed")

from aiohttp.test_utils import TestClient, TestServer  # noqa: E402

from mastermind import CodeSpace, Game, Notation, Rules, SolverState, score  # noqa: E402
from mastermind.games import game as game_module  # noqa: E402
from mastermind.games.game_record import read_stored  # noqa: E402
from mastermind.history.store import Store, moves_of  # noqa: E402
from mastermind.strategies import make_strategy  # noqa: E402
from mastermind.web.api import STATE  # noqa: E402
from mastermind.web.limits import Limits  # noqa: E402
from mastermind.web.server import make_app  # noqa: E402
from mastermind.web.sessions import COOKIE  # noqa: E402

CLASSIC = Rules()


def live_of(app, number):
    """The one game of that number held in memory (these tests have one visitor, or ask for one
    whose number no other visitor has)."""
    [live] = [live for (_, n), live in app[STATE].games._games.items() if n == number]
    return live


def numbers(table):
    """The numbers of the games held in memory."""
    return {n for _, n in table._games}


def serve(
    tmp_path, scenario, limits: Limits | None = None, visitors: int = 1, address: str | None = None
) -> None:
    """Run ``scenario(app, *clients)`` against a fresh server over a history in ``tmp_path``; each
    client is a visitor (a browser with its own cookies); ``address``: the server's public URL."""

    limits = limits or Limits()
    if (
        limits.rate == Limits().rate
    ):  # a test plays faster than a person: no rate limit unless it is the point
        limits = replace(limits, rate=1e6, burst=10**6)

    async def main() -> None:
        # as mastermind web opens it: a record read by the engine too (a damaged one left out)
        with Store(tmp_path / "h.sqlite3", reader=read_stored) as store:
            server = TestServer(make_app(store, limits, address=address))
            clients = [TestClient(server) for _ in range(visitors)]
            for c in clients:
                await c.start_server()
            try:
                await scenario(server.app, *clients)
            finally:
                for c in clients:
                    await c.close()

    # the computer's secrets drawn from seeds 1, 2, 3, ... in turn, so that no test's guess wins
    # by chance (a random secret is 1122 once in 1,296 games)
    seeds = itertools.count(1)
    with mock.patch.object(game_module, "fresh_seed", lambda: next(seeds)):
        asyncio.run(main())


async def call(client: TestClient, method: str, path: str, body=None, status: int = 200, **kw) -> dict:
    """One request; its JSON answer, after checking its status."""
    data = json.dumps(body) if body is not None and not isinstance(body, str | bytes) else body
    response = await client.request(method, path, data=data, **kw)
    text = await response.text()
    assert response.status == status, (method, path, response.status, text)
    assert response.content_type == "application/json", text
    answer = json.loads(text)
    if status >= 400:  # an error, and where a move was not kept the game as the history holds it
        assert set(answer) - {"game"} == {"error"} and answer["error"] and "Traceback" not in text
    return answer


class Knuth:
    """A codebreaker outside the server: Knuth's strategy on the replies the API gives."""

    def __init__(self, rules: Rules = CLASSIC) -> None:
        self.rules = rules
        self.strategy = make_strategy("knuth", rules)
        self.state = SolverState(rules)
        self.space = CodeSpace.of(rules)

    def guess(self) -> str:
        return str(self.space.code(self.strategy.choose(self.state)))

    def learn(self, guess: str, reply: str) -> None:
        self.state = self.state.add(guess, reply)


def secret_hidden(answer: dict) -> None:
    assert answer["secret"] is None and answer["seed"] is None


# -- playing ----------------------------------------------------------------------------------------


def test_a_visitor_breaks_the_computers_code_and_the_secret_shows_only_at_the_end(tmp_path):
    async def scenario(app, client):
        game = await call(client, "POST", "/api/games", {"mode": "break"}, status=201)
        assert (game["moves"], game["finished"], game["waiting_for"], game["turn"]) == ([], False, "guess", 1)
        assert game["rules"] == {"pegs": 4, "colors": 6, "repeats": True, "max_guesses": 10, "blank": False}
        assert [c["symbol"] for c in game["notation"]["colors"]] == list("123456")
        assert game["notation"]["keys"]["R"] == 0 and game["notation"]["terms"]["keys"] == "BW"
        answers = [game]
        breaker = Knuth()
        while True:
            guess = breaker.guess()
            answer = await call(client, "POST", f"/api/games/{game['id']}/guesses", {"guess": guess})
            answers.append(answer)
            assert answer["moves"][-1] == {
                "guess": guess,
                "reply": answer["reply"],
                "black": answer["black"],
                "white": answer["white"],
            }
            if answer["finished"]:
                break
            breaker.learn(guess, answer["reply"])
            answers.append(await call(client, "GET", f"/api/games/{game['id']}"))
            answers.append(await call(client, "GET", "/api/history"))
            answers.append(await call(client, "GET", "/api/games"))
        assert answer["won"] and answer["outcome"] == "won" and answer["waiting_for"] is None
        assert answer["secret"] == guess and len(answer["moves"]) <= 5  # Knuth never needs more than 5
        secret = answer["secret"]
        for earlier in answers[:-1]:
            text = json.dumps(earlier)
            guessed = [m["guess"] for m in earlier.get("moves", [])]
            assert secret not in text or secret in guessed, text
            if "secret" in earlier:
                secret_hidden(earlier)
            for entry in earlier.get("games", []):
                assert entry.get("secret") is None
        again = await call(client, "GET", f"/api/games/{game['id']}")
        assert again["secret"] == secret and isinstance(again["seed"], int)
        [entry] = (await call(client, "GET", "/api/history"))["games"]
        assert (entry["id"], entry["outcome"], entry["secret"]) == (game["id"], "won", secret)
        stats = await call(client, "GET", "/api/stats")
        [classic] = stats["break"]
        assert (classic["played"], classic["won"], classic["distribution"]) == (
            1,
            1,
            {str(len(answer["moves"])): 1},
        )
        assert stats["solve"] == []
        state = app[STATE]
        [stored] = state.store.games("play", visitor=live_of(app, game["id"]).visitor)
        assert stored.record["secret"] == secret and state.store.games() == []  # not a local game

    serve(tmp_path, scenario)


def test_the_computer_breaks_the_visitors_code_with_one_contradiction_fixed(tmp_path):
    secret = "3456"

    async def scenario(app, client):
        game = await call(client, "POST", "/api/games", {"mode": "solve", "strategy": "knuth"}, status=201)
        assert (game["pending"], game["waiting_for"], game["candidates"]) == ("1122", "reply", 1296)
        secret_hidden(game)
        path = f"/api/games/{game['id']}"
        answer = await call(client, "POST", f"{path}/replies", {"reply": "2,0"})  # wrong: 1122 gets 0,0
        assert answer["candidates"] == 114 and answer["problem"] is None
        while answer["problem"] is None:  # the right replies from now on, until they contradict row 1
            pending = answer["pending"]
            reply = score(CLASSIC_CODE(pending), CLASSIC_CODE(secret))
            answer = await call(client, "POST", f"{path}/replies", {"reply": f"{reply.black},{reply.white}"})
        problem = answer["problem"]
        assert answer["waiting_for"] == "fix" and answer["pending"] is None and 1 in problem["rows"]
        assert problem["message"] and problem["corrections"]
        row_1 = [c for c in problem["corrections"] if c["row"] == 1]
        assert "0,0" in [c["reply"] for c in row_1]  # the true reply is among the corrections offered
        refused = await call(client, "POST", f"{path}/guesses", {"guess": "1234"}, status=409)
        assert refused["error"] == "the replies contradict each other: fix a row or undo first"
        answer = await call(client, "POST", f"{path}/fixes", {"row": 1, "reply": "0,0"})
        assert answer["problem"] is None and answer["moves"][0]["reply"] == "0,0"
        assert answer["waiting_for"] == "reply"
        while not answer["finished"]:
            reply = score(CLASSIC_CODE(answer["pending"]), CLASSIC_CODE(secret))
            answer = await call(client, "POST", f"{path}/replies", {"reply": f"{reply.black},{reply.white}"})
        assert answer["won"] and answer["moves"][-1]["guess"] == secret and answer["secret"] is None
        stats = await call(client, "GET", "/api/stats")
        assert [s["played"] for s in stats["solve"]] == [1]

    serve(tmp_path, scenario)


def CLASSIC_CODE(text: str):  # noqa: N802 - reads like the Code it makes
    from mastermind import Notation

    return Notation(CLASSIC).parse_code(text).colors


def test_undo_hint_and_give_up(tmp_path):
    async def scenario(app, client):
        game = await call(client, "POST", "/api/games", {"mode": "break", "strategy": "knuth"}, status=201)
        path = f"/api/games/{game['id']}"
        hinted = await call(client, "POST", f"{path}/hint")
        assert hinted["hint"] == {
            "strategy": "knuth",
            "guess": "1122",
            "candidates": 1296,
            "lead": "knuth would play",
            "note": "",
        }
        assert hinted["hints"] == 1
        await call(client, "POST", f"{path}/guesses", {"guess": "1122"})
        undone = await call(client, "POST", f"{path}/undo")
        assert undone["moves"] == [] and undone["turn"] == 1
        refused = await call(client, "POST", f"{path}/undo", status=409)
        assert refused["error"] == "nothing to undo"
        given = await call(client, "POST", f"{path}/give-up")
        assert given["outcome"] == "gave-up" and given["finished"] and given["secret"] is not None
        refused = await call(client, "POST", f"{path}/give-up", status=409)
        assert refused["error"] == "the game is over (gave-up)"
        solve = await call(client, "POST", "/api/games", {"mode": "solve"}, status=201)
        spath = f"/api/games/{solve['id']}"
        await call(client, "POST", f"{spath}/replies", {"reply": "1,0"})
        undone = await call(client, "POST", f"{spath}/undo")
        assert undone["moves"] == [] and undone["pending"] == "1122"  # the same guess, to reply again

    serve(tmp_path, scenario)


def possible(rows: list[tuple[str, str]]) -> list[str]:
    """The classic codes that fit ``rows``, by the plain score() alone (the specification)."""
    n, space = Notation(CLASSIC), CodeSpace.of(CLASSIC)
    codes = [space.code(i) for i in range(space.size)]
    fits = (c for c in codes if all(score(n.parse_code(g), c) == n.parse_feedback(r) for g, r in rows))
    return [n.format_code(c) for c in fits]


def split_of(guess: str, codes: list[str]) -> tuple[int, int, float]:
    """How ``guess`` splits ``codes`` by the plain score(): (classes, largest, codes left on average)."""
    n = Notation(CLASSIC)
    sizes: dict = {}
    for c in codes:
        reply = score(n.parse_code(guess), n.parse_code(c))
        sizes[reply] = sizes.get(reply, 0) + 1
    return len(sizes), max(sizes.values()), sum(k * k for k in sizes.values()) / len(codes)


def test_a_hint_teaches_as_at_the_terminal_and_tells_nothing_of_the_secret(tmp_path):
    """The hint's answer keeps ``hint`` (the pegs) and adds ``advice``: the games package's hint
    that teaches (games.advice.hint_given, as the command line and the board give it), its
    sentences in ``lines``. Two games of different secrets (2246 and 1422, seeds 1 and 2) that got
    the same reply get the same advice: nothing in it comes from the secret."""

    async def scenario(app, client):
        paths, advised = [], []
        for _ in range(2):
            body = {"mode": "break", "strategy": "knuth"}
            paths.append(f"/api/games/{(await call(client, 'POST', '/api/games', body, status=201))['id']}")
            played = await call(client, "POST", f"{paths[-1]}/guesses", {"guess": "5555"})
            assert played["reply"] == "0,0"  # neither secret has a 5
            hinted = await call(client, "POST", f"{paths[-1]}/hint")
            assert hinted["hints"] == 1 and hinted["hint"]["candidates"] == 625
            advised.append(hinted["advice"])
        first, second = advised
        assert first == second  # the same replies, the same advice, whichever the secret
        codes = possible([("5555", "0,0")])
        assert len(codes) == 625 == first["candidates"] and first["codes"] is None  # too many to list
        guess = first["guess"]
        split = (first["classes"], first["largest"], first["expected_size"])
        assert split == pytest.approx(split_of(guess, codes))
        assert first["guesses_left"] == 9 and first["exact"] and first["within_limit"]
        last = first["last"]
        told = (last["number"], last["guess"], last["reply"], last["before"], last["after"])
        assert told == (1, "5555", "0,0", 1296, 625)
        assert first["lines"][0] == "625 codes are still possible."
        assert first["lines"][1].startswith(
            f"knuth would play {guess}: it splits them into {split[0]} classes"
        )
        assert first["lines"][-1].startswith("Your last guess, 5555: ")

        # a few codes left: listed; the split, and the expected guesses of the exact search
        path, rows = paths[0], [("5555", "0,0")]  # the first game: the secret 2246
        for guess in ("1234", "1266"):
            rows.append((guess, (await call(client, "POST", f"{path}/guesses", {"guess": guess}))["reply"]))
        assert rows == [("5555", "0,0"), ("1234", "1,1"), ("1266", "2,0")]
        advice = (await call(client, "POST", f"{path}/hint"))["advice"]
        codes = possible(rows)
        assert advice["candidates"] == len(codes) == 16 and advice["codes"] == codes
        assert advice["guess"] == "1146" and split_of("1146", codes) == (11, 3, 1.75)
        assert (advice["classes"], advice["largest"], advice["expected_size"]) == (11, 3, 1.75)
        assert (advice["expected"], advice["best"], advice["best_expected"]) == (2.25, "1146", 2.25)
        assert advice["lines"] == [
            f"16 codes are still possible: {' '.join(codes)}.",
            "knuth would play 1146: it splits them into 11 classes, the largest of 3, "
            "1.75 codes left on average.",
            "With 1146, 2.2500 guesses are expected from here, as few as any guess gives.",
            "Your last guess, 1266: good, 3.2167 guesses expected; best 1366, 3.1667 (loss 0.0500); "
            "it could not be the secret.",
        ]

    serve(tmp_path, scenario)


def test_a_hint_where_the_codes_cannot_be_listed_is_the_strategys_guess_alone(tmp_path):
    """Past the codes an array holds (8 pegs of 10 colours and more) the games package gives the
    strategy's guess alone (hint_given's Hint): ``advice`` is null and ``hint`` is as before. The
    limit is lowered under the classic game's 1,296 codes so that the hint is quick."""
    from mastermind.core import code as code_module

    async def scenario(app, client):
        game = await call(client, "POST", "/api/games", {"mode": "break"}, status=201)
        path = f"/api/games/{game['id']}"
        await call(client, "POST", f"{path}/guesses", {"guess": "5555"})
        with mock.patch.object(code_module, "ENUMERATION_LIMIT", 1000):
            hinted = await call(client, "POST", f"{path}/hint")
        assert hinted["advice"] is None and hinted["hints"] == 1
        assert set(hinted["hint"]) == {"strategy", "guess", "candidates", "lead", "note"}

    serve(tmp_path, scenario)


def test_a_hint_on_the_last_guess_is_a_code_that_can_still_win(tmp_path):
    rules = {"pegs": 4, "colors": 6, "max_guesses": 3}

    async def scenario(app, client):
        game = await call(client, "POST", "/api/games", {"mode": "break", "rules": rules}, status=201)
        path = f"/api/games/{game['id']}"
        for guess in ("1111", "2222"):  # neither is the secret of seed 1
            answer = await call(client, "POST", f"{path}/guesses", {"guess": guess})
        hint = (await call(client, "POST", f"{path}/hint"))["hint"]
        notation = Notation(Rules(max_guesses=3))
        rows = [(m["guess"], m["reply"]) for m in answer["moves"]]
        assert SolverState(Rules(max_guesses=3), rows).is_candidate(notation.parse_code(hint["guess"]))
        assert hint["lead"] in ("knuth would play", "on the last guess, play")
        assert (hint["note"] != "") == (hint["lead"] != "knuth would play")

    serve(tmp_path, scenario)


def impossible_after(guess: str, reply: str) -> str:
    """A code other than ``guess`` that cannot be the secret once ``guess`` got ``reply``."""
    n, space = Notation(CLASSIC), CodeSpace.of(CLASSIC)
    first, got = n.parse_code(guess), n.parse_feedback(reply)
    codes = (space.code(i) for i in range(space.size))
    return n.format_code(next(c for c in codes if c != first and score(first, c) != got))


def test_a_guess_sent_to_be_warned_of_gets_the_games_words_and_is_not_played(tmp_path):
    """The page sends "warn": true until the person confirms: a repeat (and, with the visitor's
    setting, a guess that cannot be the secret) is answered with the games package's warning and
    not played; sent again without it, it is played. A program that asks for no warning plays."""

    async def scenario(app, client):
        await call(client, "PUT", "/api/settings", {"warn_inconsistent": True})
        game = await call(client, "POST", "/api/games", {"mode": "break"}, status=201)
        path = f"/api/games/{game['id']}/guesses"
        first = await call(client, "POST", path, {"guess": "1122", "warn": True})  # no rows: played
        assert len(first["moves"]) == 1 and "warning" not in first
        warned = await call(client, "POST", path, {"guess": "1122", "warn": True})
        assert warned["warning"] == "You played 1122 already (row 1): it would get the same reply"
        assert len(warned["moves"]) == 1
        impossible = impossible_after("1122", first["reply"])
        warned = await call(client, "POST", path, {"guess": impossible, "warn": True})
        assert warned["warning"].startswith(f"{impossible} cannot be the secret: guess 1, 1122, got ")
        assert len(warned["moves"]) == 1
        played = await call(client, "POST", path, {"guess": impossible})  # confirmed: played
        assert len(played["moves"]) == 2 and "warning" not in played
        bad = await call(client, "POST", path, {"guess": "1122", "warn": "yes"}, status=400)
        assert bad["error"] == "'warn' must be true or false, not \"yes\""
        # a match's game warns as a single game does
        body = {"mode": "match", "players": ["knuth", "human"], "games": 2}
        match = await call(client, "POST", "/api/games", body, status=201)
        path = f"/api/games/{match['id']}"
        await call(client, "POST", f"{path}/advance")  # knuth draws its code
        first = await call(client, "POST", f"{path}/guesses", {"guess": "1122", "warn": True})
        warned = await call(client, "POST", f"{path}/guesses", {"guess": "1122", "warn": True})
        assert warned["warning"] == "You played 1122 already (row 1): it would get the same reply"
        assert len(warned["game"]["moves"]) == 1
        impossible = impossible_after("1122", first["reply"])
        warned = await call(client, "POST", f"{path}/guesses", {"guess": impossible, "warn": True})
        assert warned["warning"].startswith(f"{impossible} cannot be the secret: guess 1, 1122, got ")

    serve(tmp_path, scenario)


def test_a_hint_in_a_match_is_the_matchs_own_refused_in_its_words(tmp_path):
    """The page asks the match for a hint, as the command line and the board do: a hint while a
    strategy breaks the code is refused with the match's reason, in the match's words."""
    from mastermind import GameError, Match

    expected = Match(Rules(), ["human", "knuth"], seed=1)
    expected.set_secret("2345")
    with pytest.raises(GameError) as refusal:
        expected.hint()

    async def scenario(app, client):
        body = {"mode": "match", "players": ["human", "knuth"], "games": 2, "scoring": "standard"}
        path = f"/api/games/{(await call(client, 'POST', '/api/games', body, status=201))['id']}"
        await call(client, "POST", f"{path}/secret", {"secret": "2345"})
        refused = await call(client, "POST", f"{path}/hint", status=409)
        assert refused["error"] == str(refusal.value) and "knuth breaks this code" in refused["error"]

    serve(tmp_path, scenario)


def test_a_match_against_a_strategy_with_the_computers_guesses_one_by_one(tmp_path):
    async def scenario(app, client):
        body = {"mode": "match", "players": ["human", "knuth"], "games": 2, "scoring": "standard"}
        match = await call(client, "POST", "/api/games", body, status=201)
        path = f"/api/games/{match['id']}"
        assert (match["waiting_for"], match["score"], match["round"]["maker"]) == ("secret", [0, 0], 1)
        answer = await call(client, "POST", f"{path}/secret", {"secret": "2345"})
        assert answer["waiting_for"] == "computer" and answer["game"]["secret"] is None
        moves = 0
        while answer["round"]["number"] == 1:
            assert answer["waiting_for"] == "computer"
            answer = await call(client, "POST", f"{path}/advance")
            moves += sum(e["kind"] == "move" for e in answer["events"])
            assert sum(e["kind"] == "move" for e in answer["events"]) <= 1  # one guess a request
        [first] = answer["rounds"]
        assert first["secret"] == "2345" and first["guesses"] == moves and first["points"] == [moves, 0]
        assert answer["round"] == {"number": 2, "maker": 2, "breaker": 1, "replayed": 0}
        assert answer["waiting_for"] == "computer"
        answer = await call(client, "POST", f"{path}/advance")  # the computer draws its secret
        assert (
            [e["kind"] for e in answer["events"]] == ["secret"]
            and answer["waiting_for"] == "guess"
            and answer["game"]["secret"] is None
        )
        secret_hidden(answer["game"])
        hinted = await call(client, "POST", f"{path}/hint")
        assert hinted["hint"]["guess"] == "1122"
        assert hinted["advice"]["lines"][0] == "1,296 codes are still possible."  # the match's advice
        breaker = Knuth()
        while not answer["finished"]:
            guess = breaker.guess()
            answer = await call(client, "POST", f"{path}/guesses", {"guess": guess})
            if not answer["finished"]:
                breaker.learn(guess, answer["reply"])
                assert answer["game"]["secret"] is None and answer["seed"] is None
        second = answer["rounds"][1]
        assert second["outcome"] == "won" and second["points"] == [0, second["guesses"]]
        assert answer["score"] == [moves, second["guesses"]]
        assert answer["winner"] == (
            None if moves == second["guesses"] else (1 if moves > second["guesses"] else 2)
        )
        [entry] = (await call(client, "GET", "/api/history"))["games"]
        assert entry["mode"] == "match" and entry["score"] == answer["score"]

    serve(tmp_path, scenario)


def test_the_views_carry_the_games_packages_sentences_of_each_event_and_ending(tmp_path):
    """What happened is told in the games package's words (games/words.py, Game.closing_lines), the
    command line's and the board's: each match event has its ``text``, a finished match its
    ``ending``, a finished game its closing lines; the page shows them and composes none."""

    async def scenario(app, client):
        body = {"mode": "match", "players": ["knuth", "entropy"], "games": 2, "scoring": "standard"}
        answer = await call(client, "POST", "/api/games", body, status=201)
        assert answer["ending"] == []
        path, said = f"/api/games/{answer['id']}", []
        while not answer["finished"]:
            answer = await call(client, "POST", f"{path}/advance")
            said += [(e["kind"], e["text"]) for e in answer["events"] if e["kind"] != "move"]
        names = ("player 1 (knuth)", "player 2 (entropy)")
        lines = []
        for r in answer["rounds"]:
            points = f"{names[0]} {r['points'][0]}, {names[1]} {r['points'][1]}"
            lines.append(
                f"Game {r['number']}: {names[r['breaker'] - 1]} broke the code {r['secret']} in "
                f"{r['guesses']} guesses. Points: {points}."
            )
        (a, b), w = answer["score"], answer["winner"]
        if w is None:
            ending = f"The match is over: a draw, {a} points each."
        else:
            ending = f"The match is over: {names[w - 1]} wins, {max(a, b)} points to {min(a, b)}."
        assert answer["ending"] == [ending]
        assert said == [
            ("secret", None),
            ("round-over", lines[0]),
            ("secret", None),
            ("round-over", lines[1]),
            ("match-over", ending),
        ]
        held = [e for e in answer["events"] if e["kind"] == "round-over"][0]
        assert held["text"] == lines[1] and held["ending"] == []  # a computer's win: no moment
        # a single game: its closing lines once it is over, none before
        game = await call(client, "POST", "/api/games", {"mode": "break"}, status=201)
        assert game["ending"] == []
        await call(client, "POST", f"/api/games/{game['id']}/hint")
        breaker = Knuth()
        while not game["finished"]:
            guess = breaker.guess()
            game = await call(client, "POST", f"/api/games/{game['id']}/guesses", {"guess": guess})
            breaker.learn(guess, game["reply"])
        n = len(game["moves"])
        assert game["ending"] == [f"You broke the code in {n} guesses!", "With 1 hint."]
        given = await call(client, "POST", "/api/games", {"mode": "break"}, status=201)
        await call(client, "POST", f"/api/games/{given['id']}/guesses", {"guess": "1122"})
        given = await call(client, "POST", f"/api/games/{given['id']}/give-up")
        assert given["ending"] == [f"You gave up: the code was {given['secret']}."]

    serve(tmp_path, scenario)


def test_settings_are_the_visitors_and_a_new_game_follows_them(tmp_path):
    async def scenario(app, client):
        start = await call(client, "GET", "/api/settings")
        assert start["settings"]["mode"] == "break" and "knuth" in [
            s["name"] for s in start["choices"]["strategies"]
        ]
        limits = start["choices"]["limits"]  # the page's fields bounded by the games package's
        assert (limits["pegs"], limits["colors"], limits["max_guesses"]) == ([1, 10], [2, 36], [1, 200])
        saved = await call(
            client,
            "PUT",
            "/api/settings",
            {"mode": "solve", "preset": "bulls-and-cows", "palette": "colour-blind"},
        )
        assert saved["settings"]["colors"] == 10 and not saved["settings"]["repeats"]
        game = await call(client, "POST", "/api/games", {}, status=201)
        assert game["mode"] == "solve" and game["notation"]["terms"]["black"] == "bull"
        assert game["pending"] == "0123"
        again = await call(client, "GET", "/api/settings")
        assert again["settings"]["palette"] == "colour-blind"

    serve(tmp_path, scenario)


# -- visitors -------------------------------------------------------------------------------------


def test_two_visitors_see_only_their_own_games_history_statistics_and_settings(tmp_path):
    async def scenario(app, alice, bob):
        game = await call(alice, "POST", "/api/games", {"mode": "break"}, status=201)
        await call(alice, "POST", f"/api/games/{game['id']}/guesses", {"guess": "1122"})
        await call(alice, "PUT", "/api/settings", {"mode": "match"})
        for path, body in (
            (f"/api/games/{game['id']}", None),
            (f"/api/games/{game['id']}/guesses", {"guess": "1"}),
        ):
            method = "GET" if body is None else "POST"
            refused = await call(bob, method, path, body, status=404)
            assert refused["error"] == f"there is no game {game['id']}"
        assert (await call(bob, "GET", "/api/history"))["games"] == []
        assert (await call(bob, "GET", "/api/stats")) == {"break": [], "solve": []}
        assert (await call(bob, "GET", "/api/settings"))["settings"]["mode"] == "break"
        assert [g["id"] for g in (await call(alice, "GET", "/api/history"))["games"]] == [game["id"]]
        cookie = alice.session.cookie_jar.filter_cookies(alice.make_url("/"))[COOKIE]
        assert cookie.value and len(cookie.value) == 43

    serve(tmp_path, scenario, visitors=2)


def test_a_visitor_who_only_looks_leaves_no_game_and_a_game_is_kept_from_its_first_move(tmp_path):
    async def scenario(app, client):
        store = app[STATE].store
        # what the page does on load: settings, the games to resume, a new game, read again
        await call(client, "GET", "/api/settings")
        assert (await call(client, "GET", "/api/games"))["games"] == []
        game = await call(client, "POST", "/api/games", {"mode": "break"}, status=201)
        await call(client, "GET", f"/api/games/{game['id']}")
        await call(client, "POST", f"/api/games/{game['id']}/hint")  # a hint is no move
        assert (await call(client, "GET", "/api/history"))["games"] == []
        assert (await call(client, "GET", "/api/stats"))["break"] == []
        assert await app[STATE].db(lambda: store.games(visitor=live_of(app, 1).visitor)) == []
        # loaded again, the page resumes that draft rather than make another
        [draft] = (await call(client, "GET", "/api/games"))["games"]
        assert (draft["id"], draft["kept"], draft["guesses"]) == (game["id"], False, 0)
        await call(client, "POST", f"/api/games/{game['id']}/guesses", {"guess": "1122"})
        [entry] = (await call(client, "GET", "/api/history"))["games"]
        assert (entry["id"], entry["outcome"], entry["guesses"], entry["kept"]) == (1, "playing", 1, True)
        [classic] = (await call(client, "GET", "/api/stats"))["break"]
        assert (classic["played"], classic["unfinished"]) == (0, 1)
        # the computer's first guess, made with the game, is not the visitor's move: the reply is
        solving = await call(client, "POST", "/api/games", {"mode": "solve", "strategy": "knuth"}, status=201)
        assert solving["id"] == 2 and solving["pending"] == "1122"
        assert len((await call(client, "GET", "/api/history"))["games"]) == 1
        await call(client, "POST", f"/api/games/{solving['id']}/replies", {"reply": "1,0"})
        assert [g["id"] for g in (await call(client, "GET", "/api/history"))["games"]] == [2, 1]
        # a draft the page leaves is forgotten, and the next game takes its number; a kept game is not
        left = await call(client, "POST", "/api/games", {"mode": "break"}, status=201)
        assert (await call(client, "DELETE", f"/api/games/{left['id']}")) == {"id": 3, "forgotten": True}
        await call(client, "GET", f"/api/games/{left['id']}", status=404)
        refused = await call(client, "DELETE", "/api/games/1", status=409)
        assert refused["error"] == "game 1 is in your history: give it up instead"
        assert (await call(client, "POST", "/api/games", {"mode": "break"}, status=201))["id"] == 3

    serve(tmp_path, scenario)


def test_a_game_whose_every_guess_is_taken_back_leaves_the_history_as_the_clis_does(tmp_path):
    async def scenario(app, client):
        store = app[STATE].store
        game = await call(client, "POST", "/api/games", {"mode": "break"}, status=201)
        path = f"/api/games/{game['id']}"
        assert (await call(client, "POST", f"{path}/guesses", {"guess": "1122"}))["kept"] is True
        undone = await call(client, "POST", f"{path}/undo")
        assert undone["kept"] is False and undone["moves"] == []
        assert (await call(client, "GET", "/api/history"))["games"] == []  # not unfinished for ever
        assert await app[STATE].db(lambda: store.games(visitor=live_of(app, 1).visitor)) == []
        # a draft again, with its number: the next game does not take it, and its next move keeps it
        other = await call(client, "POST", "/api/games", {"mode": "break"}, status=201)
        assert other["id"] == 2
        again = await call(client, "POST", f"{path}/guesses", {"guess": "3456"})
        assert again["kept"] is True and again["id"] == 1
        [entry] = (await call(client, "GET", "/api/history"))["games"]
        assert (entry["id"], entry["guesses"]) == (1, 1)
        # played elsewhere meanwhile: the row is not removed from under the other session
        row = live_of(app, 1).row
        with Store(tmp_path / "h.sqlite3") as elsewhere:
            known = elsewhere.get(row, visitor=live_of(app, 1).visitor).record
            theirs = Game.from_record(known)
            theirs.guess("1344")
            elsewhere.save(row, theirs.record(), known=known)
        refused = await call(client, "POST", f"{path}/undo", status=409)
        assert "played elsewhere meanwhile" in refused["error"]
        assert [m["guess"] for m in refused["game"]["moves"]] == ["3456", "1344"]

    serve(tmp_path, scenario)


def test_games_are_numbered_for_each_visitor(tmp_path):
    async def scenario(app, first, second):
        for _ in range(2):
            game = await call(first, "POST", "/api/games", {"mode": "break"}, status=201)
            await call(first, "POST", f"/api/games/{game['id']}/guesses", {"guess": "1122"})
        theirs = await call(second, "POST", "/api/games", {"mode": "break"}, status=201)
        await call(second, "POST", f"/api/games/{theirs['id']}/guesses", {"guess": "3456"})
        assert (game["id"], theirs["id"]) == (2, 1)  # the second's first game is their 1, not 3
        mine = await call(first, "GET", "/api/games/1")
        other = await call(second, "GET", "/api/games/1")
        assert [m["guess"] for m in mine["moves"]] == ["1122"]
        assert [m["guess"] for m in other["moves"]] == ["3456"]
        await call(second, "GET", "/api/games/2", status=404)  # the first visitor's game 2 is not theirs
        app[STATE].games.limits = replace(app[STATE].games.limits, idle_seconds=-1)
        app[STATE].games.trim()  # read back from the history by number too
        assert len(app[STATE].games) == 0
        back = await call(second, "GET", "/api/games/1")
        assert [m["guess"] for m in back["moves"]] == ["3456"]

    serve(tmp_path, scenario, visitors=2)


def test_the_cookie_is_http_only_and_same_site_lax_and_survives_a_restart(tmp_path):
    cookies = {}

    async def first(app, client):
        response = await client.get("/api/settings")
        header = response.headers["Set-Cookie"]
        assert "HttpOnly" in header and "SameSite=Lax" in header and "Path=/" in header
        game = await call(client, "POST", "/api/games", {"mode": "break"}, status=201)
        await call(client, "POST", f"/api/games/{game['id']}/guesses", {"guess": "1234"})
        cookies["id"] = game["id"]
        cookies["value"] = client.session.cookie_jar.filter_cookies(client.make_url("/"))[COOKIE].value
        response = await client.get("/api/settings")
        assert "Set-Cookie" not in response.headers  # a known visitor keeps its id

    async def later(app, client):  # a new server over the same history
        client.session.cookie_jar.update_cookies({COOKIE: cookies["value"]}, client.make_url("/"))
        game = await call(client, "GET", f"/api/games/{cookies['id']}")
        assert [m["guess"] for m in game["moves"]] == ["1234"] and app[STATE].games.loaded == 1

    async def forged(app, client):
        client.session.cookie_jar.update_cookies({COOKIE: "x" * 43}, client.make_url("/"))
        response = await client.get("/api/history")
        assert COOKIE in response.cookies and response.cookies[COOKIE].value != "x" * 43
        assert (await response.json())["games"] == []

    serve(tmp_path, first)
    serve(tmp_path, later)
    serve(tmp_path, forged)


# -- bad input ------------------------------------------------------------------------------------


def test_every_bad_input_is_a_4xx_with_the_games_words(tmp_path):
    async def scenario(app, client):
        game = await call(client, "POST", "/api/games", {"mode": "break"}, status=201)
        solve = await call(client, "POST", "/api/games", {"mode": "solve"}, status=201)
        g, s = f"/api/games/{game['id']}", f"/api/games/{solve['id']}"
        cases = [
            ("POST", "/api/games", "{not json", 400, "the body is not JSON"),
            ("POST", "/api/games", "[1, 2]", 400, "the body must be a JSON object"),
            (
                "POST",
                "/api/games",
                {"mode": "chess"},
                400,
                'there is no mode "chess"; the modes are: break, solve, match',
            ),
            ("POST", "/api/games", {"rules": {"pegs": 0, "colors": 6}}, 400, "pegs must be 1 to 10, not 0"),
            (  # the size goes in "rules": a field left aside would give a game not asked for
                "POST",
                "/api/games",
                {"mode": "break", "pegs": 0},
                400,
                'a new game has no field "pegs"; its fields are: codemaker, games, hard, mode, notation, '
                "players, preset, rules, scoring, strategy",
            ),
            (
                "POST",
                "/api/games",
                {"rules": {"pegs": "4", "colors": 6}},
                400,
                "pegs must be a whole number, not '4'",
            ),
            ("POST", "/api/games", {"rules": {"pegs": 4}}, 400, "rules need 'colors'"),
            (
                "POST",
                "/api/games",
                {"rules": {"pegs": 4, "colors": 6, "holes": 2}},
                400,
                "rules have no 'holes'",
            ),
            ("POST", "/api/games", {"preset": "chess"}, 400, "unknown preset 'chess'"),
            ("POST", "/api/games", {"strategy": "telepathy"}, 400, "unknown strategy 'telepathy'"),
            ("POST", "/api/games", {"rules": {"pegs": 10, "colors": 8}}, 400, "at most 60,000 codes"),
            (
                "POST",
                "/api/games",
                {"mode": "solve", "preset": "super", "strategy": "optimal"},
                400,
                "the optimal strategy on games of at most 3,125 codes",
            ),
            (
                "POST",
                "/api/games",
                {"mode": "match", "players": ["human", "nobody"]},
                400,
                "unknown player 'nobody'; choose human or one of",
            ),
            ("POST", "/api/games", {"mode": "match", "games": 3}, 400, "a match has an even number of games"),
            ("POST", "/api/games", {"mode": "match", "games": 40}, 400, "a match here has at most 20 games"),
            (
                "POST",
                f"{g}/guesses",
                {"guess": "12"},
                400,
                "'12' has 2 symbols; a code has 4 pegs, e.g. 1234",
            ),
            ("POST", f"{g}/guesses", {"guess": "1278"}, 400, "'7' is not a colour of this game"),
            ("POST", f"{g}/guesses", {}, 400, "'guess' is missing"),
            ("POST", f"{g}/guesses", {"guess": 1122}, 400, "'guess' must be a code"),
            ("POST", f"{g}/replies", {"reply": "1,0"}, 409, "the computer scores this game itself"),
            ("POST", f"{g}/fixes", {"row": 1, "reply": "1,0"}, 409, "the computer scores this game itself"),
            ("POST", f"{g}/secret", {"secret": "1234"}, 409, "a secret is chosen in a match"),
            ("POST", f"{g}/advance", None, 409, "a computer's move is asked for in a match"),
            ("POST", f"{s}/replies", {"reply": "3,1"}, 400, "impossible reply '3,1'"),
            ("POST", f"{s}/replies", {"reply": "5,0"}, 400, "5"),
            ("POST", f"{s}/replies", {"reply": "lots"}, 400, "'lots'"),
            ("POST", f"{s}/guesses", {"guess": "1234"}, 409, "guess 1 is waiting for its reply"),
            ("POST", f"{s}/fixes", {"row": 3, "reply": "1,0"}, 409, "there is no row 3 (rows: none yet)"),
            ("POST", f"{s}/fixes", {"row": "1", "reply": "1,0"}, 400, "'row' must be a row number"),
            ("POST", f"{s}/hint", None, 409, "guess 1 is waiting for its reply"),
            ("GET", "/api/games/99", None, 404, "there is no game 99"),
            ("GET", "/api/games/abc", None, 404, "there is no game abc"),
            ("GET", "/api/games/99999999999999999999999", None, 404, "there is no game"),
            ("GET", "/api/nothing", None, 404, "there is no page /api/nothing"),
            ("DELETE", f"{g}/guesses", None, 405, "DELETE is not allowed"),
            ("PUT", "/api/settings", {"pegs": "many"}, 400, "setting pegs must be a whole number"),
            ("PUT", "/api/settings", {"colour": 3}, 400, "there is no setting 'colour'"),
            ("PUT", "/api/settings", {"palette": "sepia"}, 400, "there is no palette 'sepia'"),
            ("PUT", "/api/settings", {"strategy": "optimal", "preset": "super"}, 400, "optimal strategy"),
        ]
        for method, path, body, status, words in cases:
            answer = await call(client, method, path, body, status=status)
            assert words in answer["error"], (path, body, answer)
        won = await call(client, "POST", "/api/games", {"mode": "break"}, status=201)
        secret = live_of(app, won["id"]).game.notation.format_code(live_of(app, won["id"]).game.secret)
        await call(client, "POST", f"/api/games/{won['id']}/guesses", {"guess": secret})
        after = await call(client, "POST", f"/api/games/{won['id']}/guesses", {"guess": "1122"}, status=409)
        assert after["error"] == "the game is over (won)"
        served = await call(client, "POST", f"{g}/guesses", {"guess": "1122"})  # and it goes on serving
        assert len(served["moves"]) == 1

    serve(tmp_path, scenario)


# -- limits ---------------------------------------------------------------------------------------


def test_a_body_over_the_limit_is_refused_413(tmp_path):
    async def scenario(app, client):
        answer = await call(client, "POST", "/api/games", {"mode": "break", "pad": "x" * 2000}, status=413)
        assert answer["error"] == "the request body is too large (at most 1,024 bytes)"

    serve(tmp_path, scenario, Limits(body_bytes=1024))


def test_open_games_per_visitor_are_limited_and_drafts_do_not_count(tmp_path):
    async def scenario(app, client):
        ids = []
        for _ in range(2):
            game = await call(client, "POST", "/api/games", {"mode": "break"}, status=201)
            await call(client, "POST", f"/api/games/{game['id']}/guesses", {"guess": "1122"})
            ids.append(game["id"])
        assert ids == [1, 2]  # the visitor's own numbers
        unplayed = await call(client, "POST", "/api/games", {"mode": "break"}, status=201)
        again = await call(client, "POST", "/api/games", {"mode": "break"}, status=201)
        assert (unplayed["id"], again["id"]) == (3, 4)  # two drafts at once (two tabs) number apart
        await call(client, "GET", f"/api/games/{unplayed['id']}")  # a draft is no unfinished game
        await call(client, "POST", f"/api/games/{again['id']}/guesses", {"guess": "1122"})
        refused = await call(client, "POST", "/api/games", {"mode": "break"}, status=429)
        assert refused["error"] == (
            "you have 3 unfinished games (at most 3): finish or give up one first (games 1, 2, 4)"
        )
        await call(client, "POST", f"/api/games/{ids[0]}/give-up")
        drafts = [await call(client, "POST", "/api/games", {"mode": "break"}, status=201) for _ in range(3)]
        assert [d["id"] for d in drafts] == [5, 6, 7]  # at most 3 drafts: the oldest (3) is forgotten
        await call(client, "GET", f"/api/games/{unplayed['id']}", status=404)

    serve(tmp_path, scenario, Limits(open_games=3))


def test_games_past_the_memory_limit_or_idle_are_dropped_and_read_back_when_touched(tmp_path):
    async def scenario(app, client):
        table = app[STATE].games
        now = [0.0]
        table.clock = lambda: now[0]
        ids = []
        for guess in ("1122", "1344", "3456"):
            game = await call(client, "POST", "/api/games", {"mode": "break"}, status=201)
            await call(client, "POST", f"/api/games/{game['id']}/guesses", {"guess": guess})
            ids.append(game["id"])
        assert len(table) == 2 and ids[0] not in numbers(table)
        back = await call(client, "GET", f"/api/games/{ids[0]}")
        assert [m["guess"] for m in back["moves"]] == ["1122"]
        assert table.loaded == 1 and ids[0] in numbers(table)
        assert len(table) == 2 and ids[1] not in numbers(table)
        now[0] = 61.0
        assert table.trim() == 2 and len(table) == 0
        moved = await call(client, "POST", f"/api/games/{ids[2]}/guesses", {"guess": "1122"})
        assert [m["guess"] for m in moved["moves"]] == ["3456", "1122"] and table.loaded == 2

    serve(tmp_path, scenario, Limits(games_in_memory=2, idle_seconds=60))


def test_requests_past_the_rate_limit_are_refused_429(tmp_path):
    async def scenario(app, client):
        await call(client, "GET", "/api/settings")  # the visitor's id is issued (counted by address)
        for _ in range(3):  # the visitor's burst
            await call(client, "GET", "/api/settings")
        refused = await call(client, "GET", "/api/settings", status=429)
        assert refused["error"] == "too many requests: at most 0.01 a second; wait a moment"

    serve(tmp_path, scenario, Limits(rate=0.01, burst=3))


def test_a_post_from_another_sites_page_is_refused_403(tmp_path):
    async def scenario(app, client):
        host = client.make_url("/").host + ":" + str(client.make_url("/").port)
        for headers in (
            {"Origin": "http://evil.example"},
            {"Sec-Fetch-Site": "cross-site"},
            {"Origin": f"http://{host}.evil.example"},
        ):
            refused = await call(client, "POST", "/api/games", {"mode": "break"}, status=403, headers=headers)
            assert refused["error"] == "a request from another site's page is refused"
            await call(client, "PUT", "/api/settings", {"mode": "solve"}, status=403, headers=headers)
        same = {"Origin": f"http://{host}", "Sec-Fetch-Site": "same-origin"}
        await call(client, "POST", "/api/games", {"mode": "break"}, status=201, headers=same)
        assert (await call(client, "GET", "/api/settings", headers={"Origin": "http://evil.example"}))[
            "settings"
        ]

    serve(tmp_path, scenario)


def test_the_page_and_its_files_come_from_the_server_with_a_strict_content_policy(tmp_path):
    async def scenario(app, client):
        response = await client.get("/")
        page = await response.text()
        assert response.status == 200 and '<meta name="viewport"' in page
        assert "default-src 'self'" in response.headers["Content-Security-Policy"]
        assert "http://" not in page and "https://" not in page
        for path in (
            "/static/js/app.js",
            "/static/js/board.js",
            "/static/js/pages.js",
            "/static/js/api.js",
            "/static/style.css",
        ):
            assert (await client.get(path)).status == 200

    serve(tmp_path, scenario)


def test_mastermind_web_says_when_it_is_reachable_from_the_network_and_refuses_a_bad_limit(tmp_path):
    bad = subprocess.run(
        [sys.executable, "-m", "mastermind.cli", "web", "--limit", "speed=3"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode == 2 and bad.stderr.startswith("mastermind: error: unknown limit 'speed' (known: ")
    assert bad.stderr.count("\n") == 1
    env = {"MASTERMIND_DB": str(tmp_path / "h.sqlite3"), "PATH": ""}
    command = [sys.executable, "-m", "mastermind.cli", "web", "--host", "0.0.0.0", "--port", "0"]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    try:
        assert proc.stdout is not None
        first, second = proc.stdout.readline(), proc.stdout.readline()
        assert first.startswith("Serving Mastermind on http://0.0.0.0:")
        assert second.startswith("Note: on 0.0.0.0 the board is reachable from the network")
    finally:
        proc.terminate()
        proc.wait(10)
    assert proc.returncode == 0


def web_command(monkeypatch, tmp_path, *args):
    """``mastermind web ARGS`` through the command line, the server not started: (exit code, stderr,
    what it would have served with)."""
    from click.testing import CliRunner

    from mastermind.cli import cli

    served = []
    monkeypatch.setattr("mastermind.web.server.serve", lambda *a: served.append(a))
    monkeypatch.setenv("MASTERMIND_DB", str(tmp_path / "h.sqlite3"))
    result = CliRunner().invoke(cli, ["web", *args])
    return result.exit_code, result.stderr, (served[0] if served else None)


@pytest.mark.parametrize(
    "args, why",
    [
        (["--pegs", "11"], "pegs must be 1 to 10, not 11"),
        (["--blank", "--no-repeats"], "the blank needs repeats"),
        (["--preset", "chess"], "unknown preset 'chess'"),
        (["--colors", "12", "--notation", "digits"], "--notation digits writes at most 10 colours"),
        (["--pegs", "8", "--colors", "12"], "this server plays games of at most 60,000 codes"),
        (["--limit", "rate=0"], "limit rate must be a number more than 0, not 0"),
        (["--limit", "rate"], "limit rate needs a value: rate=VALUE"),
        (["--public-url", "mastermind.example.org"], "--public-url must be an http:// or https:// address"),
        (["--public-url", "https://"], "with a host (e.g. https://example.org), not 'https://'"),
    ],
)
def test_bad_options_of_mastermind_web_are_one_line_and_exit_2(monkeypatch, tmp_path, args, why):
    code, err, served = web_command(monkeypatch, tmp_path, *args)
    assert code == 2 and served is None
    assert err.startswith("mastermind: error: ") and why in err and err.count("\n") == 1, err


KNOWN_LIMITS = (
    "body_bytes, open_games, games_in_memory, idle_seconds, rate, burst, max_codes, optimal_codes, "
    "match_games, thinking, friend_idle_seconds"
)


@pytest.mark.parametrize(
    "limit, why",
    [
        ("nope=3", f"unknown limit 'nope' (known: {KNOWN_LIMITS})"),
        ("nope", f"unknown limit 'nope' (known: {KNOWN_LIMITS})"),
        ("=3", f"a limit needs a name: NAME=VALUE, one of {KNOWN_LIMITS}"),
        ("friend_idle_seconds=abc", "limit friend_idle_seconds must be a number more than 0, not 'abc'"),
        ("friend_idle_seconds=-5", "limit friend_idle_seconds must be a number more than 0, not -5"),
        ("rate=1e400", "limit rate must be a number more than 0, not 1e400"),
        ("rate=nan", "limit rate must be a number more than 0, not nan"),
        ("open_games=2.5", "limit open_games must be a whole number more than 0, not '2.5'"),
        ("open_games=-1", "limit open_games must be a whole number more than 0, not -1"),
    ],
)
def test_a_bad_limit_names_the_unknown_name_alone_or_says_what_its_value_must_be(
    monkeypatch, tmp_path, limit, why
):
    code, err, served = web_command(monkeypatch, tmp_path, "--limit", limit)
    assert (code, err, served) == (2, f"mastermind: error: {why}\n", None)


def test_the_game_options_of_mastermind_web_are_what_a_new_visitor_plays(monkeypatch, tmp_path):
    code, _, served = web_command(
        monkeypatch,
        tmp_path,
        "--preset",
        "super-blank",
        "--notation",
        "letters",
        "--limit",
        "open_games=3",
        "--port",
        "0",
    )
    host, port, store, limits, defaults, address = served
    assert code == 0 and (host, port, limits.open_games, address) == ("127.0.0.1", 0, 3, None)
    assert defaults.rules == Rules(pegs=5, colors=9, blank=True) and defaults.notation == "letters"
    code, _, served = web_command(monkeypatch, tmp_path, "--public-url", "https://mastermind.example.org/")
    assert (
        served[4].rules == CLASSIC
        and served[3] == Limits()
        and served[5] == "https://mastermind.example.org/"
    )


def test_a_finished_game_has_the_engines_review_and_an_unfinished_one_none(tmp_path):
    """The review route answers what mastermind.review says of the same moves; while the game is
    played it is refused (it would list the codes still possible)."""
    from mastermind import review

    async def scenario(app, client):
        game = await call(client, "POST", "/api/games", {"mode": "break"}, status=201)
        path = f"/api/games/{game['id']}"
        await call(client, "POST", f"{path}/guesses", {"guess": "1123"})
        refused = await call(client, "GET", f"{path}/review", status=409)
        assert "over" in refused["error"] or "finished" in refused["error"]
        breaker, answer = Knuth(), None
        breaker.learn("1123", (await call(client, "GET", path))["moves"][0]["reply"])
        while answer is None or not answer["finished"]:
            guess = breaker.guess()
            answer = await call(client, "POST", f"{path}/guesses", {"guess": guess})
            breaker.learn(guess, answer["reply"])
        answered = await call(client, "GET", f"{path}/review")
        assert answered["notation"] == game["notation"] and answered["id"] == game["id"]
        got = answered["review"]
        history = " ".join(f"{m['guess']}={m['reply']}" for m in answer["moves"])
        expected = review(history)
        comments = [m.pop("comment") for m in got["moves"]]
        assert got.pop("summary_lines") == expected.summary_lines()
        assert comments == [m.comment(Notation(CLASSIC)) for m in expected.moves]
        assert comments[0].startswith("1123: best, 4.3403 guesses expected")
        assert got == json.loads(json.dumps(expected.to_dict()))
        assert got["moves"][0]["guess"] == "1123" and abs(got["moves"][0]["expected"] - 5625 / 1296) < 1e-6

    serve(tmp_path, scenario)


def test_a_move_on_a_game_played_elsewhere_meanwhile_is_refused_and_the_game_reloaded(tmp_path):
    """Two servers (or a server and ``mastermind play --resume``) on one history: a save is the
    history's compare-and-set, as the command line's. The move of the server whose save comes
    second is not written over the other's: its answer is a 409 that names the guess not kept,
    with the game as the history holds it; the game goes on from there, saved again."""

    async def scenario(app, client):
        game = await call(client, "POST", "/api/games", {"mode": "break"}, status=201)
        path = f"/api/games/{game['id']}"
        await call(client, "POST", f"{path}/guesses", {"guess": "1122"})
        row = live_of(app, game["id"]).row
        with Store(tmp_path / "h.sqlite3") as elsewhere:  # the other session plays on: 3344
            known = elsewhere.get(row, visitor=live_of(app, game["id"]).visitor).record
            other = Game.from_record(known)
            other.guess("3344")
            elsewhere.save(row, other.record(), known=known)
        refused = await call(client, "POST", f"{path}/guesses", {"guess": "5566"}, status=409)
        assert refused["error"] == (
            f"game {game['id']} was played elsewhere meanwhile (another server or terminal on this "
            "history): guess 5566 not kept; here is the game as the history holds it"
        )
        assert [m["guess"] for m in refused["game"]["moves"]] == ["1122", "3344"]
        assert refused["game"]["id"] == game["id"] and refused["game"]["secret"] is None
        state = app[STATE]
        assert [
            m["guess"]
            for m in moves_of(state.store.get(row, visitor=live_of(app, game["id"]).visitor).record)
        ] == [
            "1122",
            "3344",
        ]
        again = await call(client, "POST", f"{path}/guesses", {"guess": "5566"})  # from the reloaded game
        assert [m["guess"] for m in again["moves"]] == ["1122", "3344", "5566"]
        stored = state.store.get(row, visitor=live_of(app, game["id"]).visitor).record
        assert [m["guess"] for m in moves_of(stored)] == ["1122", "3344", "5566"]

    serve(tmp_path, scenario)


def test_the_review_of_bulls_and_cows_names_the_game_in_its_line_to_share(tmp_path):
    """Ten digits 0-9, none repeated, are Bulls and Cows: the page's line to share says so (as
    the command line's and the board's do), not 'Mastermind 3x10 no repeats'."""
    bulls = Rules(pegs=3, colors=10, repeats=False)  # 720 codes: valued exactly

    async def scenario(app, client):
        rules = {"pegs": 3, "colors": 10, "repeats": False}
        game = await call(client, "POST", "/api/games", {"mode": "break", "rules": rules}, status=201)
        path, breaker, answer = f"/api/games/{game['id']}", Knuth(bulls), None
        while answer is None or not answer["finished"]:
            guess = breaker.guess()
            answer = await call(client, "POST", f"{path}/guesses", {"guess": guess})
            breaker.learn(guess, answer["reply"])
        share = (await call(client, "GET", f"{path}/review"))["review"]["summary"]["share"]
        assert share.startswith(f"Bulls and Cows 3x10: won in {len(answer['moves'])} (best play ")

    serve(tmp_path, scenario)


@pytest.mark.parametrize("slow", ["history write", "review"])
def test_the_server_answers_another_visitor_while_one_request_waits_on_slow_work(tmp_path, monkeypatch, slow):
    """A history write (SQLite waiting for its lock or a checkpoint) and the engine's long work (a
    review) run off the event loop: while one of them is held up, by an event it waits on, another
    visitor's request is answered. A move's answer waits for its own write (so that a server
    killed at any moment has every answered move), never the other visitors'. Were the work on
    the loop, nothing would be answered until it ended."""
    import threading

    import mastermind.web.reviews as reviews

    held, release, finished = threading.Event(), threading.Event(), threading.Event()

    def holding(work):
        def wait_then(*args, **kwargs):
            held.set()
            release.wait(60)  # the test lets it go; 60 s only bounds a broken run
            try:
                return work(*args, **kwargs)
            finally:
                finished.set()

        return wait_then

    async def scenario(app, slowpoke, other):
        state = app[STATE]
        mine = await call(slowpoke, "POST", "/api/games", {"mode": "break"}, status=201)
        theirs = await call(other, "POST", "/api/games", {"mode": "break"}, status=201)
        path = f"/api/games/{mine['id']}"
        if slow == "review":  # (a game given up before its first guess has no review)
            await call(slowpoke, "POST", f"{path}/guesses", {"guess": "1122"})
            await call(slowpoke, "POST", f"{path}/give-up")
            monkeypatch.setattr(reviews, "review", holding(reviews.review))
            waiting = asyncio.create_task(call(slowpoke, "GET", f"{path}/review"))
        else:
            # a game's first move is its first write to the history (a new game is a draft)
            monkeypatch.setattr(state.store, "add", holding(state.store.add))
            waiting = asyncio.create_task(call(slowpoke, "POST", f"{path}/guesses", {"guess": "1122"}))
        assert await asyncio.to_thread(held.wait, 60), "the slow work never started"
        answered = await call(other, "GET", f"/api/games/{theirs['id']}")
        settings = await call(other, "GET", "/api/settings")
        assert answered["id"] == theirs["id"] and settings["settings"]["mode"] == "break"
        assert not finished.is_set(), "the other visitor was answered only after the slow work"
        if slow == "review":  # and the one thread of strategies is free: the computer plays meanwhile
            solving = await call(
                other, "POST", "/api/games", {"mode": "solve", "strategy": "knuth"}, status=201
            )
            assert solving["pending"] == "1122" and not finished.is_set()
            assert not waiting.done()
            release.set()
            assert (await waiting)["review"]["summary"]["guesses"] == 1
        else:  # the move is answered only once its write is in the history (a kill loses no answer)
            await asyncio.sleep(0.2)
            assert not waiting.done()
            release.set()
            moved = await waiting
            assert [m["guess"] for m in moved["moves"]] == ["1122"] and finished.is_set()
            # both visitors have a game 1; the other's is a draft, never written
            [visitor] = [live.visitor for (_, n), live in state.games._games.items() if live.kept]
            stored = await state.db(lambda: state.store.numbered(mine["id"], visitor))
            assert [m["guess"] for m in moves_of(stored.record)] == ["1122"]

    try:
        serve(tmp_path, scenario, Limits(thinking=1), visitors=2)
    finally:
        release.set()


def test_the_web_commands_help_names_every_limit_with_its_default():
    from mastermind.cli.web import web

    said = " ".join((web.help or "").split())
    for limit in fields(Limits):
        default = getattr(Limits(), limit.name)
        assert f"{limit.name}={default:g}" in said, limit.name  # (a limit added to Limits, told of here too)
