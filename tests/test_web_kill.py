"""Nothing answered is lost: ``mastermind web`` killed with SIGKILL right after each answer, then
started again on the same history, shows every game as it was answered (each move is answered
only once it is in the history)."""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import signal
import subprocess
import sys
import urllib.request

import pytest

pytest.importorskip("aiohttp", reason="the web extra (aiohttp) is not installed")

from test_web import free_port  # noqa: E402

pytestmark = pytest.mark.slow


def start(db, port: int) -> subprocess.Popen:
    env = {**os.environ, "MASTERMIND_DB": str(db)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "mastermind.cli", "web", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=env,
        text=True,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert re.match(r"Serving Mastermind on http://127\.0\.0\.1:\d+", line), line
    return proc


def test_a_server_killed_after_each_answer_has_every_answered_move_on_restart(tmp_path):
    db, port = tmp_path / "h.sqlite3", free_port()
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))

    friend = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def call(method: str, path: str, body=None, via=opener) -> dict:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}{path}",
            data=data,
            method=method,
            headers={"Content-Type": "application/json"},
        )
        with via.open(request, timeout=30) as r:
            return json.load(r)

    proc = start(db, port)
    try:
        game = call(
            "POST", "/api/games", {"mode": "break", "rules": {"pegs": 4, "colors": 6, "max_guesses": 12}}
        )
        answered: list[str] = []
        for guess in ("1122", "1344", "3516", "2623", "6543"):
            answer = call("POST", f"/api/games/{game['id']}/guesses", {"guess": guess})
            answered = [f"{m['guess']}={m['reply']}" for m in answer["moves"]]
            proc.send_signal(signal.SIGKILL)  # at once: the answer is all the server had time for
            proc.wait(10)
            proc = start(db, port)
            again = call("GET", f"/api/games/{game['id']}")
            assert [f"{m['guess']}={m['reply']}" for m in again["moves"]] == answered
            if answer["finished"]:
                break
        assert len(answered) >= 2
        # a match: made on this server (a match with no code yet is a draft, in memory only, as a
        # new game is), then its first code chosen (kept from then: the codemaker's code must
        # outlive a kill before anyone has guessed at it), then each guess; killed after each answer
        match = call("POST", "/api/games", {"mode": "match", "players": ["human", "human"], "games": 2})
        answer = call("POST", f"/api/games/{match['id']}/secret", {"secret": "1234"})
        assert answer["waiting_for"] == "guess" and answer["game"]["moves"] == []
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        proc = start(db, port)
        again = call("GET", f"/api/games/{match['id']}")
        assert again["kept"] and again["waiting_for"] == "guess" and again["round"] == answer["round"]
        for path, body in (("guesses", {"guess": "1111"}), ("guesses", {"guess": "1122"})):
            answer = call("POST", f"/api/games/{match['id']}/{path}", body)
            proc.send_signal(signal.SIGKILL)
            proc.wait(10)
            proc = start(db, port)
            again = call("GET", f"/api/games/{match['id']}")
            assert (
                again["waiting_for"] == answer["waiting_for"]
                and again["game"]["moves"] == answer["game"]["moves"]
            )
        assert again["game"]["moves"][0]["reply"] == "1,0"
        # a friend's match: the friend, on their own device, sets the first code; killed at once,
        # both devices find the match where it stood (the code the friend's alone to see)
        made = call("POST", "/api/games", {"mode": "match", "players": ["friend", "human"], "games": 2})
        joined = call("POST", f"/api/join/{made['invite'].removeprefix('/join/')}", via=friend)
        call("POST", f"/api/games/{joined['id']}/secret", {"secret": "1234"}, via=friend)
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        proc = start(db, port)
        mine, theirs = (
            call("GET", f"/api/games/{made['id']}"),
            call("GET", f"/api/games/{joined['id']}", via=friend),
        )
        assert mine["friend"]["your_turn"] and mine["friend"]["secret"] is None
        assert theirs["friend"]["secret"] == "1234" and not theirs["friend"]["your_turn"]
        guessed = call("POST", f"/api/games/{made['id']}/guesses", {"guess": "1111"})
        assert guessed["game"]["moves"][0]["reply"] == "1,0"
    finally:
        proc.kill()
        proc.wait(10)
