"""Two people play a friend's match on the page, each in their own headless Chromium context (their
own cookies: two visitors), one at 1280x800 with a mouse, the other at 390x844 as a phone with
taps: the link made and opened, each code chosen on its maker's device only, every guess by taps,
each move arriving on the other device, the phone reloaded in the middle and back in the match,
the score at the end and the rematch offered. ``MASTERMIND_WEB_SHOT=DIR`` keeps the screenshots."""

from __future__ import annotations

import contextlib
import json
import os
import re
import subprocess
import sys
import urllib.request

import pytest

pytest.importorskip("aiohttp", reason="the web extra (aiohttp) is not installed")
websockets_sync = pytest.importorskip("websockets.sync.client", reason="websockets is not installed")

from mastermind import CodeSpace, Rules, SolverState  # noqa: E402
from mastermind.strategies import make_strategy  # noqa: E402
from test_web import (  # noqa: E402
    DESKTOP,
    PHONE,
    Tab,
    browser,  # noqa: F401
    free_port,
    last_reply,
    server,  # noqa: F401
    wait_for,
)

pytestmark = pytest.mark.slow


class Visitor(Tab):
    """A tab in a browser context of its own: its own cookies, so its own visitor."""

    def __init__(self, port: int, size: dict) -> None:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/version", timeout=10) as r:
            browser_url = json.load(r)["webSocketDebuggerUrl"]
        with websockets_sync.connect(browser_url, max_size=None) as ws:

            def send(number: int, method: str, **params):
                ws.send(json.dumps({"id": number, "method": method, "params": params}))
                while True:
                    message = json.loads(ws.recv(timeout=30))
                    if message.get("id") == number:
                        return message["result"]

            context = send(1, "Target.createBrowserContext")["browserContextId"]
            target = send(2, "Target.createTarget", url="about:blank", browserContextId=context)["targetId"]
        self.id = target
        self.port = port
        self.stack = contextlib.ExitStack()
        self.ws = self.stack.enter_context(
            websockets_sync.connect(f"ws://127.0.0.1:{port}/devtools/page/{target}", max_size=None)
        )
        self.next_id = 0
        self.events: list[dict] = []
        self.size = size
        self("Page.enable")
        self(
            "Emulation.setDeviceMetricsOverride",
            width=size["width"],
            height=size["height"],
            deviceScaleFactor=1,
            mobile=size["mobile"],
        )
        self("Emulation.setTouchEmulationEnabled", enabled=size["mobile"], maxTouchPoints=5)


def board_whole(t: Tab) -> float:
    """The board fits the window as in a single game (tests/test_web.py's classic board): each of
    the ten rows, the palette and Guess on the screen; the width of its pegs."""
    height = t.js("innerHeight")
    for row in range(1, 11):
        box = t.js(f"document.getElementById('row-{row}').getBoundingClientRect().toJSON()")
        assert box["top"] >= 0 and box["bottom"] <= height, (row, box, height)
    for selector in ("#palette button:nth-child(6)", "#submit"):
        bottom = t.js(f"document.querySelector('{selector}').getBoundingClientRect().bottom")
        assert bottom <= height, (selector, bottom, height)
    return t.js("document.querySelector('#row-1 .peg').getBoundingClientRect().width")


def single_game_peg(port: int, url: str, size: dict) -> float:
    """The pegs' width of a single classic game at ``size``, the lesson's offer answered."""
    t = Visitor(port, size)
    try:
        t.open(url)
        if not t.js("document.getElementById('tutorial-offer').hidden"):
            t.tap("#tutorial-no")
        return board_whole(t)
    finally:
        t.close()


def enter(t: Tab, code: str) -> None:
    for symbol in code:
        t.tap(f"#palette button:nth-child({int(symbol)})")
    t.tap("#submit")


def ended(t: Tab, number: int) -> bool:
    """Whether game ``number`` of the match is over on this device."""
    return f"Game {number + 1} of" in t.text("#score") or t.text("#status").startswith("The match is over")


def broken(t: Tab, number: int) -> bool:
    """Whether this device holds game ``number`` on its board, finished."""
    return t.text("#status").startswith(f"Game {number}:")


def held(t: Tab, number: int, row: int, breaker: bool) -> None:
    """Game ``number``, broken in ``row`` guesses, held on this device: its winning row, the held
    game's line (said to this device's player) and the button that moves on."""
    who = "you" if breaker else "your friend"
    line, length = f"Game {number}: {who} broke the code ", f" in {row} guess"  # (the code between)
    assert wait_for(lambda: t.text("#status").startswith(line) and length in t.text("#status"), 10), t.text(
        "#status"
    )
    assert last_reply(t, row) == (4, 0)
    assert t.text("#submit") in ("Next game", "See the result")


def moves_on(breaker: Tab, maker: Tab, number: int, row: int) -> None:
    """Both devices hold the game just won; each moves on by its own player's tap, the maker first:
    the breaker's board still holds it (holding is a page's own, not the match's)."""
    for t in (breaker, maker):
        held(t, number, row, t is breaker)
        assert not ended(t, number)
    maker.tap("#submit")
    assert wait_for(lambda: ended(maker, number), 10)
    held(breaker, number, row, True)
    breaker.tap("#submit")
    assert wait_for(lambda: ended(breaker, number), 10)


def break_by_taps(breaker: Tab, maker: Tab, number: int, reload_after: int | None = None) -> int:
    """The breaker plays Knuth's guesses by taps until the code is broken; each reply is seen on
    the maker's device too. The number of guesses."""
    rules = Rules()
    knuth, state, space = make_strategy("knuth", rules), SolverState(rules), CodeSpace.of(rules)
    for row in range(1, 6):
        assert wait_for(lambda: breaker.js("!document.getElementById('palette').hidden"), 10), (
            breaker.text("#status"),
            breaker.text("#message"),
            breaker.text("#friend-status"),
        )
        guess = str(space.code(knuth.choose(state)))
        enter(breaker, guess)
        replied = f"!!document.querySelector('#row-{row} .keys[aria-label]')"
        assert wait_for(lambda r=replied: broken(breaker, number) or breaker.js(r), 10)
        if broken(breaker, number):  # the game is held on both boards until each player moves on
            moves_on(breaker, maker, number, row)
            return row
        reply = last_reply(breaker, row)
        assert wait_for(lambda r=row: maker.js(f"!!document.querySelector('#row-{r} .keys[aria-label]')"), 10)
        assert last_reply(maker, row) == reply  # the move arrived on the other device
        state = state.add(guess, reply)
        if row == reload_after:
            breaker("Page.reload")
            assert wait_for(
                lambda: breaker.js("!!document.body && document.body.dataset.ready === 'true'"), 30
            )
            assert wait_for(lambda: breaker.text("#friend-status").startswith("Player"), 10)
            assert wait_for(
                lambda r=row: breaker.js(f"!!document.querySelector('#row-{r} .keys[aria-label]')"), 10
            )
    raise AssertionError("Knuth's guesses break every classic code in 5")


def friends_match(alice: Tab, bob: Tab, url: str, code: str) -> None:
    """Alice makes a friend's match at her desk, bob joins it on his phone, alice sets ``code``."""
    alice.open(url)
    alice.tap("#play-friend")
    alice.tap("#friend-form button[type=submit]")
    bob.open(wait_for(lambda: alice.js("document.getElementById('friend-link').value"), 10))
    assert wait_for(lambda: bob.text("#status") == "Your friend is choosing the code…", 10)
    enter(alice, code)
    assert wait_for(lambda: bob.text("#status").startswith("Guess 1"), 10)


def reload(t: Tab) -> None:
    """The page loaded again, and back in the friend's match."""
    t("Page.reload")
    assert wait_for(lambda: t.js("!!document.body && document.body.dataset.ready === 'true'"), 30)
    assert wait_for(lambda: t.text("#friend-status").startswith("Player"), 10)


#: Every status and score line the page shows, kept in the page as they change (a DOM mutation
#: seen at once, before the browser paints it).
WATCH_LINES = """(() => {
  window.lines = [];
  const text = (id) => document.getElementById(id).textContent;
  const note = () => {
    const line = `${text('status')} | ${text('score')}`;
    if (window.lines[window.lines.length - 1] !== line) window.lines.push(line);
  };
  new MutationObserver(note).observe(document.body, { subtree: true, childList: true, characterData: true });
  note();
})()"""


def test_two_devices_play_a_friends_match_to_its_end_by_taps(server, browser):  # noqa: F811
    alice, bob = Visitor(browser, DESKTOP), Visitor(browser, PHONE)
    try:
        alice.open(server)
        alice.tap("#play-friend")
        alice.tap("#friend-form button[type=submit]")
        link = wait_for(lambda: alice.js("document.getElementById('friend-link').value"), 10)
        assert link.startswith(f"{server}/join/")
        assert alice.text("#status") == "Waiting for your friend to open the link…"
        # the link's QR code beside it, drawn by the server (its content: tests/test_web_invite_code.py)
        qr = "document.getElementById('friend-qr')"
        assert wait_for(lambda: alice.js(f"{qr}.complete && {qr}.naturalWidth > 0"), 10)
        qr_box, link_box = (
            alice.js(f"{e}.getBoundingClientRect().toJSON()")
            for e in (qr, "document.getElementById('friend-link')")
        )
        assert qr_box["left"] >= link_box["right"] and qr_box["width"] >= 120
        alice.shot("friend-waiting")
        bob.open(link)
        assert wait_for(lambda: bob.text("#friend-status").startswith("Player 2: you break the code"), 10)
        assert bob.text("#status") == "Your friend is choosing the code…"
        assert bob.js("document.getElementById('palette').hidden")  # nothing to enter: not bob's move
        assert wait_for(lambda: alice.text("#friend-status").endswith("your friend is here"), 10)
        assert alice.js("document.getElementById('friend-invite').hidden")
        bob.shot("friend-joined")
        enter(alice, "3456")
        assert "your code: 3456" in alice.text("#friend-status")
        assert wait_for(lambda: bob.text("#status").startswith("Guess 1"), 10)
        assert "3456" not in bob.js("document.body.innerText")
        # on the phone, the match's board as whole as a single game's, and its pegs as large
        assert board_whole(bob) >= single_game_peg(browser, server, PHONE) - 0.5
        bob.shot("friend-breaking")
        first = break_by_taps(bob, alice, 1, reload_after=1)
        # game 2: bob makes the code on the phone, alice breaks it
        assert wait_for(
            lambda: bob.text("#status").startswith("Choose your code: your friend sees it only"), 10
        )
        bob.shot("friend-game2")
        enter(bob, "6621")
        assert wait_for(lambda: alice.text("#status").startswith("Guess 1"), 10)
        second = break_by_taps(alice, bob, 2)
        for t in (alice, bob):
            assert wait_for(lambda t=t: t.text("#status").startswith("The match is over"), 10)
            assert not t.js("document.getElementById('friend-rematch').hidden")
            assert t.overflow() == 0
        # the result said to each player, in the games package's words (games/words.py)
        for t, mine, theirs in ((alice, first, second), (bob, second, first)):
            points = f"{max(mine, theirs)} point{'s' if max(mine, theirs) != 1 else ''}"
            result = (
                f"you win, {points} to {theirs}" if mine > theirs
                else f"your friend wins, {points} to {mine}" if theirs > mine
                else f"a draw, {points} each"
            )  # fmt: skip
            assert t.text("#status") == f"The match is over: {result}."
        alice.shot("friend-over")
        bob.shot("friend-over")
        bob.tap("#friend-rematch")
        assert wait_for(lambda: bob.text("#friend-status").startswith("Player 1: you make the code"), 10)
    finally:
        alice.close()
        bob.close()


def test_both_devices_hold_a_friends_won_game_until_their_own_tap(server, browser):  # noqa: F811
    """The breaker wins game 1 on the phone: the winning row and the held game's line on both
    devices, until each player taps Next game; the page then shows the match's next game."""
    alice, bob = Visitor(browser, DESKTOP), Visitor(browser, PHONE)
    try:
        friends_match(alice, bob, server, "1122")
        enter(bob, "1122")  # broken at once: a one-row game
        for t, breaker in ((bob, True), (alice, False)):
            held(t, 1, 1, breaker)
            assert not t.js("document.getElementById('moment').hidden")  # the win's card on both
        assert bob.text("#friend-status").startswith("Player 2: you broke it")  # game 1's role, not game 2's
        bob.shot("friend-held")
        # Next game on the phone's screen without scrolling
        assert bob.js("document.getElementById('submit').getBoundingClientRect().bottom") <= bob.js(
            "innerHeight"
        )
        alice.shot("friend-held")
        alice.tap("#submit")
        assert wait_for(lambda: alice.text("#status") == "Your friend is choosing the code…", 10)
        held(bob, 1, 1, True)  # alice moving on does not move bob's board
        bob.tap("#submit")
        assert wait_for(lambda: bob.text("#status").startswith("Choose your code"), 10)
        assert not bob.js("document.getElementById('palette').hidden")
    finally:
        alice.close()
        bob.close()


def test_the_device_that_wins_holds_the_game_from_the_answer_on_with_no_flash_of_the_next(server, browser):  # noqa: F811
    """The breaker wins on the phone: from that tap to the held game, no line of the next game is
    shown, not even for a moment (the view pushed to the phone, which may come before the answer
    to its move, holds the game as the answer does)."""
    alice, bob = Visitor(browser, DESKTOP), Visitor(browser, PHONE)
    try:
        friends_match(alice, bob, server, "1122")
        bob.js(WATCH_LINES)
        enter(bob, "1122")  # broken at once
        held(bob, 1, 1, True)
        lines = bob.js("window.lines")
        shown = [line for line in lines if "Game 2 of" in line or line.startswith("Choose your code")]
        assert shown == [], lines
    finally:
        alice.close()
        bob.close()


def test_a_held_game_is_held_still_after_a_reload_until_its_player_moves_on(server, browser):  # noqa: F811
    """The phone loaded again while it holds game 1 still holds it (its winning row, its line, its
    win's card and Next game); once moved on and loaded again, it is at the next game; the
    friend's board stays as it was meanwhile."""
    alice, bob = Visitor(browser, DESKTOP), Visitor(browser, PHONE)
    try:
        friends_match(alice, bob, server, "1122")
        enter(bob, "1122")
        held(bob, 1, 1, True)
        reload(bob)
        held(bob, 1, 1, True)
        assert not bob.js("document.getElementById('moment').hidden")
        assert bob.text("#friend-status").startswith("Player 2: you broke it")
        bob.shot("friend-held-reloaded")
        bob.tap("#submit")
        assert wait_for(lambda: bob.text("#status").startswith("Choose your code"), 10)
        reload(bob)
        assert wait_for(lambda: bob.text("#status").startswith("Choose your code"), 10), bob.text("#status")
        held(alice, 1, 1, False)  # bob moving on does not move alice's board
    finally:
        alice.close()
        bob.close()


#: A move made by another client of the page's visitor (their other device), by the JSON API.
ELSEWHERE = """(async () => {
  const { games } = await (await fetch('/api/friends')).json();
  const answer = await fetch(`/api/games/${games[0].id}/%s`,
    { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(%s) });
  return answer.status;
})()"""


def test_a_game_finished_while_another_is_held_is_held_in_its_turn(server, browser):  # noqa: F811
    """Alice holds game 1 on her page while she breaks game 2 from another device of hers: her page
    holds game 1, then game 2, each until her tap, then shows the match's result."""
    alice, bob = Visitor(browser, DESKTOP), Visitor(browser, PHONE)
    try:
        friends_match(alice, bob, server, "1122")
        enter(bob, "1122")
        held(bob, 1, 1, True)
        bob.tap("#submit")
        assert wait_for(lambda: bob.text("#status").startswith("Choose your code"), 10)
        enter(bob, "3456")
        held(alice, 1, 1, False)
        assert alice.js(ELSEWHERE % ("guesses", '{ guess: "3456" }')) == 200
        assert wait_for(lambda: bob.text("#status").startswith("Game 2: your friend broke the code"), 10)
        held(alice, 1, 1, False)  # still game 1 on her page: the one she has not moved on from
        assert alice.text("#submit") == "Next game"
        alice.tap("#submit")
        held(alice, 2, 1, True)
        assert alice.text("#submit") == "See the result"
        alice.shot("friend-held-second")
        alice.tap("#submit")
        assert wait_for(lambda: alice.text("#status").startswith("The match is over"), 10)
    finally:
        alice.close()
        bob.close()


@contextlib.contextmanager
def served_with(tmp_path, *limits: str):
    """``mastermind web`` with ``--limit`` options, over a fresh history; its address."""
    port = free_port()
    command = [sys.executable, "-m", "mastermind.cli", "web", "--port", str(port)]
    command += [f"--limit={limit}" for limit in limits]
    env = {**os.environ, "MASTERMIND_DB": str(tmp_path / "h.sqlite3")}
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert re.match(r"Serving Mastermind on http://127\.0\.0\.1:\d+", line), line
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.kill()
        proc.wait(10)


def test_a_friend_leaving_is_said_and_a_match_left_idle_is_closed_on_both_devices(tmp_path, browser):  # noqa: F811
    left = "this match was closed unfinished"
    with served_with(tmp_path, "friend_idle_seconds=15") as url:  # long enough for a slow machine
        alice, bob = Visitor(browser, DESKTOP), Visitor(browser, PHONE)
        try:
            alice.open(url)
            alice.tap("#play-friend")
            alice.tap("#friend-form button[type=submit]")
            link = wait_for(lambda: alice.js("document.getElementById('friend-link').value"), 10)
            bob.open(link)
            assert wait_for(lambda: alice.text("#friend-status").endswith("your friend is here"), 10)
            bob("Page.navigate", url="about:blank")  # bob closes the page
            gone = "your friend has left the match (they may come back)"
            assert wait_for(lambda: alice.text("#friend-status").endswith(gone), 10), alice.text(
                "#friend-status"
            )
            bob.open(url)  # and comes back: the page takes him to the match
            assert wait_for(lambda: alice.text("#friend-status").endswith("your friend is here"), 10)
            # nobody moves: both devices are told the match is closed, and it is in the history
            for t in (alice, bob):
                assert wait_for(lambda t=t: t.text("#status").startswith(left), 45), t.text("#status")
            alice.shot("friend-left")
        finally:
            alice.close()
            bob.close()


def test_the_friends_form_and_the_link_fit_a_phone(server, browser):  # noqa: F811
    t = Visitor(browser, PHONE)
    try:
        t.open(server)
        t.tap("#play-friend")
        # a scoring's long words once widened the page to 1,308 px, which a phone then zoomed out
        assert t.js("innerWidth") == 390 and t.overflow() == 0
        t.shot("friend-form")
        t.tap("#friend-form button[type=submit]")
        assert wait_for(lambda: t.js("document.getElementById('friend-link').value"), 10)
        qr = "document.getElementById('friend-qr')"
        assert wait_for(lambda: t.js(f"{qr}.complete && {qr}.naturalWidth > 0"), 10)
        assert t.js("innerWidth") == 390 and t.overflow() == 0
        t.shot("friend-link")
    finally:
        t.close()
