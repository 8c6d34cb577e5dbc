"""mastermind web's page in headless Chromium, driven over the DevTools protocol (a small client on
the ``websockets`` package) as a person uses it: at 1280x800 with a mouse and at 390x844 as a
phone (mobile emulation, taps), keys before any click, a whole game won by taps, a game the
computer breaks with one contradiction fixed, and no horizontal scrolling at 360 px.

Skipped, saying why, where no Chromium is installed (Debian: ``apt-get install chromium``; .ci/run
does it when it can). ``MASTERMIND_WEB_SHOT=DIR`` keeps a screenshot of each test in DIR.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("aiohttp", reason="the web extra (aiohttp) is not installed")
websockets_sync = pytest.importorskip("websockets.sync.client", reason="websockets is not installed")

from mastermind import CodeSpace, Notation, Rules, SolverState, score  # noqa: E402
from mastermind.strategies import make_strategy  # noqa: E402

pytestmark = pytest.mark.slow

DESKTOP = {"width": 1280, "height": 800, "mobile": False}
PHONE = {"width": 390, "height": 844, "mobile": True}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(condition, timeout: float, step: float = 0.05):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(step)
    return condition()


def chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


@contextlib.contextmanager
def serving(history: Path):
    """``mastermind web`` on a free local port over ``history``, as a person starts it; yields its URL."""
    env = {**os.environ, "MASTERMIND_DB": str(history)}
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "mastermind.cli", "web", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=env,
        text=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert re.match(r"Serving Mastermind on http://127\.0\.0\.1:\d+", line), line
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            assert proc.wait(10) == 0
        finally:
            if proc.poll() is None:
                proc.kill()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """``mastermind web`` on a free local port over a fresh history, as a person starts it."""
    with serving(tmp_path_factory.mktemp("web") / "h.sqlite3") as url:
        yield url


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    """Headless Chromium with its DevTools port; yields the port."""
    path = chromium()
    if path is None:
        pytest.skip("Chromium is not installed (Debian: apt-get install chromium); the browser tests need it")
    port = free_port()
    profile = tmp_path_factory.mktemp("chromium")
    proc = subprocess.Popen(
        [
            path,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-dev-shm-usage",
            f"--remote-debugging-port={port}",
            f"--user-data-dir={profile}",
            "about:blank",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:

        def listening():
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/version", timeout=2) as r:
                    return json.load(r)
            except OSError:
                return None

        assert wait_for(listening, 30, 0.2), "Chromium did not open its DevTools port"
        yield port
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


class Tab:
    """One browser tab (its own cookies: a new visitor), driven over the DevTools protocol."""

    def __init__(self, port: int, size: dict) -> None:
        request = urllib.request.Request(f"http://127.0.0.1:{port}/json/new?about:blank", method="PUT")
        with urllib.request.urlopen(request, timeout=10) as r:
            target = json.load(r)
        self.id = target["id"]
        self.port = port
        self.stack = contextlib.ExitStack()
        self.ws = self.stack.enter_context(
            websockets_sync.connect(target["webSocketDebuggerUrl"], max_size=None)
        )
        self.next_id = 0
        self.events: list[dict] = []  # the DevTools events received, in order
        self.size = size
        self("Page.enable")
        self("Network.enable")
        self("Network.clearBrowserCookies")
        self(
            "Emulation.setDeviceMetricsOverride",
            width=size["width"],
            height=size["height"],
            deviceScaleFactor=size.get("scale", 1),
            mobile=size["mobile"],
        )
        self("Emulation.setTouchEmulationEnabled", enabled=size["mobile"], maxTouchPoints=5)

    def __call__(self, method: str, **params):
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.ws.recv(timeout=30))
            if "method" in message:
                self.events.append(message)
            elif message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message["result"]

    def event(self, method: str, timeout: float = 30) -> dict:
        """The first event ``method`` received (waiting for it), taken from the list."""

        def found():
            self.js("0")  # reads the messages that came meanwhile
            return next((e for e in self.events if e["method"] == method), None)

        event = wait_for(found, timeout)
        assert event, f"no {method} event"
        self.events.remove(event)
        return event["params"]

    def close(self) -> None:
        self.stack.close()
        with contextlib.suppress(OSError):
            urllib.request.urlopen(f"http://127.0.0.1:{self.port}/json/close/{self.id}", timeout=5).close()

    def js(self, expression: str):
        result = self("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError(result["exceptionDetails"])
        return result["result"].get("value")

    def open(self, url: str) -> None:
        self("Page.navigate", url=url)
        assert wait_for(lambda: self.js("document.body && document.body.dataset.ready === 'true'"), 30)
        self.settle()

    def settle(self) -> None:
        """Wait until the page has no request in flight (the board is drawn)."""
        wait_for(lambda: self.js("!document.body.classList.contains('busy')"), 30)
        time.sleep(0.05)
        wait_for(lambda: self.js("!document.body.classList.contains('busy')"), 30)

    def key(self, key: str) -> None:
        """One key press as a person types it: keyDown with its text, keyUp."""
        codes = {"Enter": (13, "\r"), "Backspace": (8, ""), "Escape": (27, ""), "Tab": (9, "")}
        code, text = codes[key] if key in codes else (ord(key.upper()), key)
        common = {"key": key, "windowsVirtualKeyCode": code, "nativeVirtualKeyCode": code}
        if key == "Tab":  # moves the focus as a raw key (it types nothing) with its code named
            self("Input.dispatchKeyEvent", type="rawKeyDown", code="Tab", **common)
        else:
            self("Input.dispatchKeyEvent", type="keyDown", text=text, **common)
        self("Input.dispatchKeyEvent", type="keyUp", **common)

    def tap(self, selector: str) -> None:
        """A tap (phone) or a click (desktop) at the middle of the element ``selector``."""
        where = f"""(() => {{ const e = document.querySelector({json.dumps(selector)});
            if (!e) return null; e.scrollIntoView({{block: 'nearest'}}); const r = e.getBoundingClientRect();
            const x = r.x + r.width / 2, y = r.y + r.height / 2;
            return e.contains(document.elementFromPoint(x, y)) ? [x, y] : null; }})()"""
        # where the element is, once it stays put and nothing covers it (a page still being laid out
        # out on a loaded machine would take the tap elsewhere)
        seen: list = [None]

        def settled():
            box = self.js(where)
            steady = box is not None and box == seen[0]
            seen[0] = box
            return box if steady else None

        box = wait_for(settled, 10)
        assert box, f"nothing to tap at {selector} (or it kept moving, or something covers it)"
        x, y = box
        if self.size["mobile"]:  # a finger: touch events, from which the page gets its click
            self("Input.dispatchTouchEvent", type="touchStart", touchPoints=[{"x": x, "y": y}])
            self("Input.dispatchTouchEvent", type="touchEnd", touchPoints=[])
        else:
            for kind in ("mousePressed", "mouseReleased"):
                self("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1)
        self.settle()

    def text(self, selector: str) -> str:
        return self.js(f"document.querySelector({json.dumps(selector)})?.textContent ?? ''")

    def overflow(self) -> int:
        """How far the page scrolls sideways (0: not at all)."""
        return max(0, self.js("document.documentElement.scrollWidth - document.documentElement.clientWidth"))

    def shot(self, name: str) -> None:
        """Keep a screenshot when MASTERMIND_WEB_SHOT names a folder."""
        folder = os.environ.get("MASTERMIND_WEB_SHOT")
        if not folder:
            return
        Path(folder).mkdir(parents=True, exist_ok=True)
        data = self("Page.captureScreenshot", format="png", captureBeyondViewport=False)["data"]
        zoom = f"-zoom{self.size['scale']}" if "scale" in self.size else ""
        Path(folder, f"{name}-{self.size['width']}x{self.size['height']}{zoom}.png").write_bytes(
            base64.b64decode(data)
        )


@contextlib.contextmanager
def tab(browser: int, size: dict):
    t = Tab(browser, size)
    try:
        yield t
    finally:
        t.close()


def last_reply(t: Tab, row: int) -> tuple[int, int]:
    label = t.js(f"document.querySelector('#row-{row} .keys').getAttribute('aria-label')")
    black, white = re.match(r"(\d+) \w+, (\d+) \w+", label).groups()
    return int(black), int(white)


def won(t: Tab) -> bool:
    """Whether the page shows the moment of a win."""
    return t.js("!document.getElementById('moment').hidden")


def controls_bottom(t: Tab) -> float:
    """The lowest bottom edge of the board's controls shown (Guess or New game, Undo, Review...)."""
    return t.js(
        "Math.max(...[...document.querySelectorAll('#board-section .side .controls button')]"
        ".filter((b) => b.offsetParent !== null).map((b) => b.getBoundingClientRect().bottom))"
    )


SIZES = pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["1280x800", "390x844"])


@SIZES
def test_keys_work_before_any_click_and_a_whole_game_is_won_by_taps(server, browser, size):
    rules = Rules()
    knuth, state, space = make_strategy("knuth", rules), SolverState(rules), CodeSpace.of(rules)
    with tab(browser, size) as t:
        t.open(server)
        assert t.text("#status") == "Guess 1 of 10"
        for key in "1122":  # typed before anything was clicked or focused
            t.key(key)
        t.key("Enter")
        t.settle()
        assert t.text("#status") == "Guess 2 of 10"
        state = state.add("1122", last_reply(t, 1))
        row = 1
        while not won(t):
            row += 1
            assert row <= 5, "Knuth's guesses break every classic code in 5"
            guess = str(space.code(knuth.choose(state)))
            for symbol in guess:
                t.tap(f"#palette button:nth-child({int(symbol)})")
            shown = t.js(
                f"[...document.querySelectorAll('#row-{row} .peg')].map(p => p.textContent).join('')"
            )
            assert shown == guess
            t.tap("#submit")
            black, white = last_reply(t, row)
            state = state.add(guess, (black, white))
        assert t.text("#moment h2") == f"You broke the code in {row} guesses!"
        assert t.text("#secret-row .pegs") == guess
        assert t.overflow() == 0
        # what comes next (New game, Review) is on the screen without scrolling, on a phone too
        assert controls_bottom(t) <= t.js("innerHeight"), (controls_bottom(t), t.js("innerHeight"))
        t.shot("won")
        t.tap(".tab[data-section='history-section']")
        assert wait_for(lambda: "won · " + guess in t.text("#history"), 10)
        t.tap(".tab[data-section='stats-section']")
        assert wait_for(lambda: "Played 1, won 1 (100%)" in t.text("#stats"), 10)
        assert t.overflow() == 0
        t.shot("stats")


@SIZES
def test_the_computer_breaks_a_code_with_one_contradiction_fixed(server, browser, size):
    secret = Notation(Rules()).parse_code("3456").colors
    with tab(browser, size) as t:
        t.open(server)
        t.tap(".tab[data-section='settings-section']")
        assert wait_for(lambda: t.js("!!document.querySelector('#settings select[name=mode]')"), 10)
        t.js("document.querySelector('#settings select[name=mode]').value = 'solve'")
        t.tap("#settings button[type=submit]")
        assert wait_for(lambda: t.text("#status") == "Reply to guess 1: 1122", 10), t.text("#status")
        t.key("b")  # wrong: 1122 shares nothing with 3456
        t.key("b")
        assert t.text("#submit") == "Reply 2B 0W"
        t.key("Enter")
        t.settle()
        for _ in range(10):
            if not t.js("document.getElementById('problem').hidden"):
                break
            pending = t.text("#status").rsplit(" ", 1)[1]
            reply = score(Notation(Rules()).parse_code(pending).colors, secret)
            for _ in range(reply.black):
                t.tap("#black-plus")
            for _ in range(reply.white):
                t.tap("#white-plus")
            t.tap("#submit")
        assert not t.js("document.getElementById('problem').hidden"), "the wrong reply was never caught"
        assert "cannot all be true" in t.text("#problem-text") and "1" in t.text("#problem-text")
        t.shot("contradiction")
        assert t.overflow() == 0
        index = t.js(
            "[...document.querySelectorAll('#corrections button')].findIndex(b => "
            "b.textContent.includes('row 1 → 0B 0W'))"
        )
        assert index >= 0, t.text("#corrections")
        t.tap(f"#corrections button:nth-child({index + 1})")
        assert t.text("#message") == "Row 1 is now 0 black, 0 white."
        assert t.js("document.getElementById('problem').hidden")
        for _ in range(10):
            if won(t):
                break
            pending = t.text("#status").rsplit(" ", 1)[1]
            reply = score(Notation(Rules()).parse_code(pending).colors, secret)
            for _ in range(reply.black):
                t.key("b")
            for _ in range(reply.white):
                t.key("w")
            t.key("Enter")
            t.settle()
        assert t.text("#moment h2").startswith("Found it: 3456 in ")
        t.shot("found")
        t.tap(".tab[data-section='settings-section']")
        assert wait_for(lambda: t.js("!!document.querySelector('#settings select[name=mode]')"), 10)
        t.js("document.querySelector('#settings select[name=mode]').value = 'break'")
        t.tap("#settings button[type=submit]")


def test_no_horizontal_scrolling_at_360_px_on_any_section_nor_a_large_game(server, browser):
    narrow = {"width": 360, "height": 740, "mobile": True}
    with tab(browser, narrow) as t:
        t.open(server)
        assert t.overflow() == 0
        tops = t.js("[...document.querySelectorAll('.top .tab')].map(b => b.getBoundingClientRect().top)")
        assert len(tops) == 5 and len(set(tops)) == 1  # every section's tab on one line
        for section in ("history", "stats", "settings"):
            t.tap(f".tab[data-section='{section}-section']")
            drawn = {
                "history": "#history > *",
                "stats": "#stats > *",
                "settings": "#settings select[name=mode]",
            }
            check = f"!!document.querySelector({json.dumps(drawn[section])})"
            assert wait_for(lambda check=check: t.js(check), 10), section
            assert t.overflow() == 0, section
        t.shot("settings")
        t.js("document.querySelector('#settings select[name=preset]').value = 'super-blank'")
        t.tap("#settings button[type=submit]")
        assert wait_for(lambda: t.js("document.querySelectorAll('#palette button').length") == 9, 10)
        for key in "12-45":
            t.key(key)
        t.key("Enter")
        t.settle()
        assert t.text("#status") == "Guess 2 of 10" and t.overflow() == 0
        targets = t.js(
            "[...document.querySelectorAll('#palette button, .controls button, .tab')]"
            ".filter(b => b.offsetParent !== null)"
            ".map(b => Math.min(b.offsetWidth, b.offsetHeight))"
        )
        assert min(targets) >= 44, targets  # touch targets of 44 px at least
        t.shot("super-blank")
        t.tap(".tab[data-section='settings-section']")
        assert wait_for(lambda: t.js("!!document.querySelector('#settings input[name=pegs]')"), 10)
        bounds = t.js(  # the games package's bounds of a game, as the server's choices give them
            "['pegs', 'colors', 'max_guesses'].map(n => document.querySelector(`#settings input[name=${n}]`))"
            ".map(i => [i.min, i.max])"
        )
        assert bounds == [["1", "10"], ["2", "36"], ["1", "200"]]
        t.js("document.querySelector('#settings input[name=pegs]').value = '10'")
        t.js("document.querySelector('#settings input[name=colors]').value = '3'")
        t.js("document.querySelector('#settings input[name=blank]').checked = false")
        t.tap("#settings button[type=submit]")
        assert wait_for(lambda: t.js("document.querySelectorAll('#row-1 .peg').length") == 10, 10)
        assert t.overflow() == 0
        t.shot("ten-pegs")


def win_with_knuth(t: Tab, first: str | None = None) -> list[str]:
    """A classic game won by keys, Knuth's guesses on the page's replies (after ``first``, if
    given); the guesses played."""
    rules = Rules()
    knuth, state, space = make_strategy("knuth", rules), SolverState(rules), CodeSpace.of(rules)
    guesses: list[str] = []
    while not won(t):
        assert len(guesses) < (5 if first is None else 8), "Knuth's guesses break every classic code in 5"
        guess = first if first and not guesses else str(space.code(knuth.choose(state)))
        for symbol in guess:
            t.key(symbol)
        t.key("Enter")
        t.settle()
        guesses.append(guess)
        assert wait_for(
            lambda: t.js(f"!!document.querySelector('#row-{len(guesses)} .count')?.textContent"), 10
        )
        state = state.add(guess, last_reply(t, len(guesses)))
    return guesses


MARKS = {"best": "★", "good": "✓", "inaccuracy": "?!", "mistake": "?", "blunder": "??"}


@SIZES
def test_a_finished_game_is_reviewed_guess_by_guess_from_its_end_and_from_the_history(server, browser, size):
    with tab(browser, size) as t:
        t.open(server)
        guesses = win_with_knuth(t)
        # the review's answer is held (the Fetch domain pauses it) to see the page while it works
        t("Fetch.enable", patterns=[{"urlPattern": "*/review"}])
        assert not t.js("document.getElementById('review').hidden")
        t.tap("#review")
        paused = t.event("Fetch.requestPaused")
        game_id = int(paused["request"]["url"].rsplit("/", 2)[1])
        assert t.js("document.getElementById('review-section').getAttribute('aria-busy')") == "true"
        assert t.text("#review-status") == "Reviewing the game against the optimum…"
        t.shot("review-working")
        back = "Back" if size is PHONE else "Back (Esc)"  # (a phone has no Esc key to name)
        assert t.js("document.getElementById('review-back').innerText") == back
        t.tap("#review-back")  # the page answers while the review is worked out
        assert t.js("!document.getElementById('board-section').hidden")
        assert t.text("#moment h2") == f"You broke the code in {len(guesses)} guesses!"
        t("Fetch.continueRequest", requestId=paused["requestId"])
        t("Fetch.disable")
        t.key("r")  # the key the end of a game names
        assert wait_for(
            lambda: t.js("document.querySelectorAll('#review-moves li').length") == len(guesses), 60
        )
        review = t.js(f"fetch('/api/games/{game_id}/review').then(r => r.json())")["review"]
        for move in review["moves"]:
            row = f"#review-{move['number']}"
            assert t.text(f"{row} .mark") == MARKS[move["verdict"]]
            assert (
                t.js(f"document.querySelector('{row} .mark').getAttribute('aria-label')") == move["verdict"]
            )
            assert (
                t.js(f"[...document.querySelectorAll('{row} > .pegs .peg')].map(p => p.textContent).join('')")
                == move["guess"]
            )
            facts = t.text(f"{row} .review-facts")
            shown = {k: float(v) for k, v in re.findall(r"(expected|loss) ([\d.]+)", facts)}
            assert shown.keys() == {"expected", "loss"}, facts
            # three decimals as the page writes them: within half a unit (2.8125 is written 2.813)
            assert abs(shown["expected"] - move["expected"]) <= 5.01e-4, (facts, move)
            assert abs(shown["loss"] - move["loss"]) <= 5.01e-4, (facts, move)
            assert f"best {move['best']} " in facts and move["verdict"] in facts
        first = review["moves"][0]  # Knuth's 1122 against the optimum 1123: 5702 and 5625 of 1296
        assert (first["guess"], first["verdict"], first["after"] <= 1296) == ("1122", "good", True)
        assert t.text("#review-1 .review-facts").startswith("1,296 → ")
        assert "expected 4.400" in t.text("#review-1 .review-facts") and "loss 0.059" in t.text("#review-1")
        summary = t.text("#review-summary")
        assert f"{len(guesses)} guesses played; best play expects 4.3403 from the first move." in summary
        assert t.js("document.getElementById('review-section').getAttribute('aria-busy')") is None
        assert t.overflow() == 0
        t.shot("review")
        t.key("Escape")
        assert t.js("!document.getElementById('board-section').hidden")
        t.tap(".tab[data-section='history-section']")
        button = f"#history button[aria-label='Review game {game_id}']"
        assert wait_for(lambda: t.js(f"!!document.querySelector({json.dumps(button)})"), 10)
        assert t.overflow() == 0
        t.shot("history")
        t.tap(button)
        assert wait_for(
            lambda: t.js("document.querySelectorAll('#review-moves li').length") == len(guesses), 30
        )
        assert t.text("#review-title") == f"Review of game {game_id}"
        t.tap("#review-back")
        assert t.js("!document.getElementById('history-section').hidden")


# A desktop window of 1280x800 at 200 % zoom: the page is laid out in 640x400 CSS pixels, drawn at 2.
ZOOMED = {"width": 640, "height": 400, "mobile": False, "scale": 2}

#: What the browser does with keys (help, quit, close, new tab, address bar, reload, find, print,
#: zoom, back, full screen, developer tools, quick find): the page must leave every one alone.
BROWSER_KEYS = [
    ("F1", {}),
    ("q", {"ctrlKey": True}),
    ("w", {"ctrlKey": True}),
    ("t", {"ctrlKey": True}),
    ("l", {"ctrlKey": True}),
    ("r", {"ctrlKey": True}),
    ("f", {"ctrlKey": True}),
    ("p", {"ctrlKey": True}),
    ("+", {"ctrlKey": True}),
    ("-", {"ctrlKey": True}),
    ("0", {"ctrlKey": True}),
    ("ArrowLeft", {"altKey": True}),
    ("F5", {}),
    ("F11", {}),
    ("F12", {}),
    ("/", {}),
    ("'", {}),
    ("Tab", {}),
    (" ", {}),
]


def pressed(t: Tab, key: str, **mods) -> bool:
    """Whether the page takes ``key`` for itself (cancels the browser's action) on the board."""
    init = json.dumps({"key": key, "bubbles": True, "cancelable": True, **mods})
    return not t.js(f"document.body.dispatchEvent(new KeyboardEvent('keydown', {init}))")


def test_the_pages_keys_leave_the_browsers_alone_and_are_named_on_the_page(server, browser):
    with tab(browser, DESKTOP) as t:
        t.open(server)
        for key, mods in BROWSER_KEYS:
            assert not pressed(t, key, **mods), (key, mods)
        assert t.js("document.querySelectorAll('#board .row.current .peg.filled').length") == 0
        assert pressed(t, "1") and pressed(t, "Backspace") and pressed(t, "z", ctrlKey=True)
        listed = " ".join(t.js("[...document.querySelectorAll('#keys-help dt')].map(d => d.textContent)"))
        for named in ("Enter", "Backspace", "Ctrl+Z", "?", "Esc", "R"):
            assert named in listed, named
        assert not re.search(r"\bF\d|Ctrl\+[^Z]|Alt", listed), listed


def reachable(t: Tab, selector: str) -> bool:
    """Whether ``selector``, scrolled into view, lies inside the viewport and is what a tap at its
    middle reaches (nothing covers it)."""
    return t.js(f"""(() => {{ const e = document.querySelector({json.dumps(selector)});
        e.scrollIntoView({{block: 'nearest', inline: 'nearest'}}); const r = e.getBoundingClientRect();
        const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
        return r.left >= 0 && r.right <= innerWidth + 1 && r.bottom <= innerHeight + 1
            && e.contains(hit); }})()""")


def test_at_200_percent_zoom_the_board_fits_its_controls_are_reachable_named_and_focus_shows(server, browser):
    with tab(browser, ZOOMED) as t:
        t.open(server)
        assert t.js("window.devicePixelRatio") == 2 and t.js("window.innerWidth") == 640
        assert t.overflow() == 0
        for selector in ("#palette button:nth-child(6)", "#submit", "#undo", "#hint", ".tab:last-child"):
            assert reachable(t, selector), selector
        for symbol in "1234":
            t.tap(f"#palette button:nth-child({symbol})")
        t.tap("#submit")
        assert t.text("#status") == "Guess 2 of 10" and t.overflow() == 0
        t.shot("zoomed")
        # a colour taken by the keyboard (Tab to it, Enter) keeps the focus for the next one
        t.js("document.querySelector('#palette button:nth-child(3)').focus()")
        t.key("Enter")
        t.settle()
        assert t.js("document.querySelector('#row-2 .peg').textContent") == "3"
        assert t.js("document.activeElement.getAttribute('aria-label')") == "blue (3)"
        # every control has a name a screen reader says (the accessibility tree's, as it reads it)
        nodes = t("Accessibility.getFullAXTree")["nodes"]
        roles = {"button", "checkbox", "combobox", "spinbutton", "textbox", "link", "img"}
        unnamed = [
            n
            for n in nodes
            if not n.get("ignored")
            and n.get("role", {}).get("value") in roles
            and not (n.get("name", {}).get("value") or "").strip()
        ]
        assert unnamed == [], unnamed[:3]
        # Tab moves the focus, and the focused control shows it (an outline of 2 px or more)
        t.js("document.activeElement.blur()")
        for _ in range(8):
            t.key("Tab")
            outline = t.js(
                "(() => { const e = document.activeElement, s = getComputedStyle(e); "
                "return [e.tagName, s.outlineStyle, parseFloat(s.outlineWidth)]; })()"
            )
            assert outline[0] != "BODY" and outline[1] != "none" and outline[2] >= 2, outline


# -- issue 50: the board fits, a match's last row stays, ending a game asks first, no game from a look


def rect(t: Tab, selector: str) -> dict:
    return t.js(f"document.querySelector({json.dumps(selector)}).getBoundingClientRect().toJSON()")


def luminance(t: Tab, selector: str, prop: str = "backgroundColor") -> float:
    """The relative luminance (WCAG) of an element's computed colour."""
    rgb = t.js(f"getComputedStyle(document.querySelector({json.dumps(selector)})).{prop}")
    channels = [int(x) / 255 for x in re.findall(r"\d+", rgb)[:3]]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: float, b: float) -> float:
    return (max(a, b) + 0.05) / (min(a, b) + 0.05)


@SIZES
def test_a_classic_board_fits_the_screen_whole_and_a_hint_moves_nothing(server, browser, size):
    with tab(browser, size) as t:
        t.open(server)
        for guess in ("1122", "1344", "3456", "1213", "6543", "2211", "4455", "5566", "6611"):
            if won(t):
                break
            for key in guess:
                t.key(key)
            t.key("Enter")
            t.settle()
        # every row of the ten in the window at once: no scrolling, neither the board's nor the page's
        height = t.js("innerHeight")
        for row in range(1, 11):
            box = rect(t, f"#row-{row}")
            assert box["top"] >= 0 and box["bottom"] <= height, (row, box, height)
        assert t.js(
            "document.getElementById('board').scrollHeight <= document.getElementById('board').clientHeight"
        )
        assert t.js("document.documentElement.scrollHeight") <= height
        for selector in ("#palette button:nth-child(6)", "#submit"):  # and what plays the next guess
            assert rect(t, selector)["bottom"] <= height, selector
        if not size["mobile"]:  # a desktop: the board beside the controls, its pegs across its rows
            assert rect(t, ".side")["left"] > rect(t, "#board")["right"]
            pegs, row = rect(t, "#row-1 .pegs"), rect(t, "#row-1")
            assert pegs["width"] >= 0.5 * row["width"] and rect(t, "#row-1 .peg")["width"] >= 44
        # a black key peg is a dark disc on a light panel: told from an empty hole by contrast and size
        # (a black key peg drawn by the page's own rule in the first row's panel, whatever the replies)
        t.js(
            "document.querySelector('#row-1 .key-holes').append(Object.assign("
            "document.createElement('span'), {className: 'key black', id: 'probe'}))"
        )
        assert contrast(luminance(t, "#probe"), luminance(t, "#row-1 .key-holes")) >= 4.5
        assert rect(t, "#probe")["width"] >= 8
        empty = "getComputedStyle(document.querySelector('#board .key:not(.black):not(.white)'))"
        assert t.js(f"{empty}.backgroundColor") == "rgba(0, 0, 0, 0)"  # an empty hole: the panel, a dot
        t.js("document.getElementById('probe').remove()")
        if won(t):  # a lucky code, found in fewer (9 in 1,296): no hint to ask for
            return
        before = rect(t, "#board")
        t.key("?")
        t.settle()
        assert wait_for(lambda: t.text("#message").startswith("Hint:"), 30)
        assert rect(t, "#board") == before  # the hint appeared without moving the board
        t.shot("ten-rows")


def test_a_match_shows_the_computers_winning_row_until_the_next_game(server, browser):
    knuth, state, space = make_strategy("knuth", Rules()), SolverState(Rules()), CodeSpace.of(Rules())
    guesses = []
    while not guesses or guesses[-1] != "3456":
        guess = str(space.code(knuth.choose(state)))
        guesses.append(guess)
        state = state.add(
            guess,
            score(Notation(Rules()).parse_code(guess).colors, Notation(Rules()).parse_code("3456").colors),
        )
    with tab(browser, PHONE) as t:
        t.open(server)
        started = t.js(
            "fetch('/api/games', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: "
            "JSON.stringify({mode: 'match', players: ['human', 'knuth'], games: 2})}).then(r => r.json())"
        )
        t.js(f"import('/static/js/app.js').then(m => m.openGame({started['id']}))")
        assert wait_for(
            lambda: (
                t.text("#status") == "Player 2, look away! Player 1: choose the code"
                or t.text("#status") == "Player 1: choose the code"
            ),
            10,
        ), t.text("#status")
        for key in "3456":
            t.key(key)
        t.key("Enter")
        assert wait_for(lambda: t.text("#submit") == "Next game", 60), t.text("#status")
        # the game is over and stays: every row of it drawn, the last one the code, lit as the win
        rows = len(guesses)
        shown = [
            t.js(f"[...document.querySelectorAll('#row-{r} .peg')].map(p => p.textContent).join('')")
            for r in range(1, rows + 1)
        ]
        assert shown == guesses and last_reply(t, rows) == (4, 0)
        assert "winning" in t.js(f"document.getElementById('row-{rows}').className")
        # the games package's line (games/words.py), the command line's and the board's
        said = (
            f"Game 1: player 2 (knuth) broke the code 3456 in {rows} guesses. "
            f"Points: you {rows}, player 2 (knuth) 0."
        )
        assert t.text("#status") == said
        assert t.js("[...document.querySelectorAll('#log li')].map(li => li.textContent)") == [said]
        assert t.text("#secret-row .pegs") == "3456"
        assert t.text("#score") == f"Player 1 (human): {rows}Player 2 (knuth): 0"  # not game 2's words
        time.sleep(1.5)  # the match does not go on by itself meanwhile
        assert t.text("#submit") == "Next game" and t.text("#row-1 .pegs") == guesses[0]
        t.shot("match-held")
        t.tap("#submit")
        assert wait_for(lambda: t.text("#status") == "Guess 1 of 10", 30), t.text("#status")
        assert t.js("document.querySelectorAll('#board .peg.filled').length") == 0


@SIZES
def test_the_page_tells_a_match_and_a_game_in_the_games_packages_sentences(server, browser, size):
    """What happened, on the page, in the words of the games package (games/words.py, Game.closing_lines),
    the command line's and the board's: each finished game of a match held on the board and in the
    log, the moment a person breaks a code, the match's result, a single game's ending."""
    tiny = "rules: {pegs: 2, colors: 3, max_guesses: 10}"
    with tab(browser, size) as t:
        t.open(server)
        started = t.js(
            "fetch('/api/games', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: "
            f"JSON.stringify({{mode: 'match', players: ['human', 'knuth'], games: 2, {tiny}}})}})"
            ".then(r => r.json())"
        )
        t.js(f"import('/static/js/app.js').then(m => m.openGame({started['id']}))")
        assert wait_for(lambda: t.text("#status") == "Player 1: choose the code", 10), t.text("#status")
        for key in "12":
            t.key(key)
        t.key("Enter")
        assert wait_for(lambda: t.text("#submit") == "Next game", 60), t.text("#status")

        def view() -> dict:
            return t.js(f"fetch('/api/games/{started['id']}').then(r => r.json())")

        first = view()["rounds"][0]
        knuth = "player 2 (knuth)"
        game_1 = (
            f"Game 1: {knuth} broke the code 12 in {first['guesses']} guesses. "
            f"Points: you {first['guesses']}, {knuth} 0."
        )
        assert t.text("#status") == game_1 and not won(t)  # a computer's win: no moment
        t.tap("#submit")
        assert wait_for(lambda: t.text("#status") == "Guess 1 of 10", 30), t.text("#status")
        for guess in ("11", "12", "13", "21", "22", "23", "31", "32", "33"):
            for key in guess:
                t.key(key)
            t.key("Enter")
            if wait_for(lambda: t.text("#submit") in ("Next game", "See the result"), 2):
                break
        second = view()["rounds"][1]
        n = second["guesses"]
        guesses = f"{n} guess" if n == 1 else f"{n} guesses"
        assert t.text("#moment h2") == f"You broke the code in {guesses}!"
        game_2 = f"Game 2: you broke the code {second['secret']} in {guesses}. Points: you 0, {knuth} {n}."
        assert t.text("#status") == game_2
        t.shot("words-match-held")
        t.tap("#submit")
        a, b = first["guesses"], n
        result = (
            f"you win, {a} points to {b}" if a > b else f"{knuth} wins, {b} points to {a}" if b > a
            else f"a draw, {a} points each"
        )  # fmt: skip
        assert wait_for(lambda: t.text("#status") == f"The match is over: {result}.", 10), t.text("#status")
        log = t.js("[...document.querySelectorAll('#log li')].map(li => li.textContent)")
        assert log == [game_1, game_2, f"The match is over: {result}."]
        t.shot("words-match-over")
        # a single game given up: its ending, the games package's
        t.js("import('/static/js/app.js').then(m => m.newGame({mode: 'break'}))")
        assert wait_for(lambda: t.text("#status") == "Guess 1 of 10", 10), t.text("#status")
        for key in "1122":
            t.key(key)
        t.key("Enter")
        t.settle()
        t.tap("#give-up")
        t.tap("#confirm-yes")
        assert wait_for(lambda: t.text("#message").startswith("You gave up: the code was "), 10)
        secret = t.text("#secret-row .pegs")
        assert t.text("#message") == f"You gave up: the code was {secret}."
        t.shot("words-game-given-up")
        # a single game won with a hint: the moment says both
        t.js("import('/static/js/app.js').then(m => m.newGame({mode: 'break'}))")
        assert wait_for(lambda: t.text("#status") == "Guess 1 of 10", 10), t.text("#status")
        t.tap("#hint")
        assert wait_for(lambda: t.text("#message").startswith("Hint: "), 30), t.text("#message")
        n = len(win_with_knuth(t))
        assert t.text("#moment h2") == f"You broke the code in {n} guess{'es' if n > 1 else ''}!"
        assert t.text("#moment p").startswith("With 1 hint. ")
        t.shot("words-game-won")


def test_give_up_and_new_game_ask_first_in_the_page(server, browser):
    with tab(browser, PHONE) as t:
        t.open(server)
        for key in "1122":
            t.key(key)
        t.key("Enter")
        t.settle()
        t.tap("#give-up")
        assert not t.js("document.getElementById('confirm').hidden")
        assert t.text("#confirm-yes") == "Give up" and t.text("#status") == "Guess 2 of 10"
        t.shot("ask-give-up")
        t.tap("#confirm-no")  # kept playing: nothing changed
        assert t.js("document.getElementById('confirm').hidden") and t.text("#status") == "Guess 2 of 10"
        t.tap("#new-game")
        assert t.text("#confirm-yes") == "New game"
        t.key("Escape")  # Esc says no too
        assert t.js("document.getElementById('confirm').hidden") and t.text("#row-1 .pegs") == "1122"
        t.tap("#give-up")
        t.tap("#confirm-yes")
        assert wait_for(lambda: t.text("#message").startswith("You gave up: the code was "), 10)


def test_the_review_is_offered_by_the_engines_rule_none_for_a_game_given_up_before_a_guess(server, browser):
    """The page's Review button follows the server's word (games.reviewable, the board's and the
    command line's rule), not its own: a game given up after a guess has a review, one given up
    before its first guess has none."""

    def give_up() -> None:
        t.tap("#give-up")
        if not t.js("document.getElementById('confirm').hidden"):
            t.tap("#confirm-yes")
        assert wait_for(lambda: t.text("#message").startswith("You gave up: the code was "), 10)

    with tab(browser, PHONE) as t:
        t.open(server)
        for key in "1122":
            t.key(key)
        t.key("Enter")
        t.settle()
        give_up()
        assert not t.js("document.getElementById('review').hidden")
        t.key("Enter")  # a new game
        assert wait_for(lambda: t.text("#status") == "Guess 1 of 10", 10)
        give_up()
        assert t.js("document.getElementById('review').hidden")


def test_a_hint_keeps_the_pegs_already_entered(server, browser):
    with tab(browser, PHONE) as t:
        t.open(server)
        for key in "12":
            t.key(key)
        entered = t.text("#row-1 .pegs")
        t.key("?")
        t.settle()
        assert t.text("#message").startswith("Hint: ")
        assert t.text("#row-1 .pegs") == entered and entered.startswith("12")
        for key in "34":
            t.key(key)
        t.key("Enter")
        t.settle()
        assert t.text("#status") == "Guess 2 of 10" and t.text("#row-1 .pegs") == "1234"


def tick_setting(t: Tab, name: str) -> None:
    """Tick the setting ``name`` on the settings page and start the new game it saves."""
    t.tap(".tab[data-section='settings-section']")
    assert wait_for(lambda: t.js(f"!!document.querySelector('#settings input[name={name}]')"), 10)
    t.js(f"document.querySelector('#settings input[name={name}]').checked = true")
    t.tap("#settings button[type=submit]")
    assert wait_for(lambda: t.text("#status") == "Guess 1 of 10", 10)


def type_guess(t: Tab, code: str) -> None:
    for key in code:
        t.key(key)
    t.key("Enter")
    t.settle()


def shown_lines(t: Tab) -> list[str] | None:
    """The sentences of the hint that teaches, when they are on the screen (None: hidden)."""
    return t.js(
        "(() => { const items = [...document.querySelectorAll('#message .advice-lines li')];"
        " if (!items.length || !items[0].checkVisibility()) return null;"
        " return items.map((li) => li.textContent); })()"
    )


@SIZES
def test_a_hint_teaches_in_the_games_words_under_why(server, browser, size):
    """After Hint the page gives the hint that teaches (games.advice, the command line's and the
    terminal board's sentences): the codes left, how the guess splits them, the guesses expected,
    the last guess valued. On a phone they wait under a closed "Why" that a tap opens, the board
    unmoved; on a desktop they are open beside the board. A peg put keeps them."""
    with tab(browser, size) as t:
        t.open(server)
        type_guess(t, "1122")
        if won(t):  # the secret, once in 1,296 games: no hint to ask for
            return
        reply = last_reply(t, 1)
        left = len(SolverState(Rules(), [("1122", reply)]).candidates())
        before = rect(t, "#board")
        t.tap("#hint")
        assert wait_for(lambda: t.text("#message summary").startswith(f"Hint: {left:,} code"), 30)
        assert rect(t, "#board") == before
        if size["mobile"]:
            assert shown_lines(t) is None  # closed: the palette and the controls stay on the screen
            assert rect(t, "#submit")["bottom"] <= t.js("innerHeight")
            t.tap("#message summary")
        lines = shown_lines(t)
        assert lines, "the hint's sentences are not shown"
        assert lines[0].startswith(f"{left:,} codes are still possible")
        assert " it splits them into " in lines[1]
        assert any("guesses are expected from here" in line for line in lines)
        assert lines[-1].startswith("Your last guess, 1122: ")
        assert rect(t, "#board") == before and t.overflow() == 0
        t.shot("hint-why")
        t.key("1")  # a peg put: the hint stays while the guess is entered
        assert shown_lines(t) == lines and t.text("#row-2 .pegs").startswith("1")


def test_a_guess_is_warned_of_once_in_the_games_words_and_in_hard_mode_refused_at_once(server, browser):
    """The server says whether a guess is warned of, in the games package's words (a repeat; with
    the setting, a guess that cannot be the secret); the page adds how to go on, and plays it on
    the next Enter; in hard mode a repeat is refused by the first Enter, in the game's words."""
    with tab(browser, PHONE) as t:
        t.open(server)
        type_guess(t, "1122")
        type_guess(t, "1122")
        assert t.text("#message") == (
            "You played 1122 already (row 1): it would get the same reply. Tap Guess again to play it anyway."
        )
        assert t.text("#status") == "Guess 2 of 10"
        t.key("Enter")  # the code is still entered: played as asked
        t.settle()
        assert t.text("#status") == "Guess 3 of 10" and t.text("#row-2 .pegs") == "1122"
        assert "hard mode" not in t.text("#title")
        tick_setting(t, "warn_inconsistent")
        type_guess(t, "1122")
        n, (black, white) = Notation(Rules()), last_reply(t, 1)
        first = n.parse_code("1122")
        impossible = next(
            c for c in ("3456", "1111", "3333") if score(first, n.parse_code(c)) != (black, white)
        )
        type_guess(t, impossible)
        said = t.text("#message")
        assert said.startswith(f"{impossible} cannot be the secret: guess 1, 1122, got ")
        assert said.endswith(". Tap Guess again to play it anyway.") and t.text("#status") == "Guess 2 of 10"
        t.key("Enter")
        t.settle()
        assert t.text("#status") == "Guess 3 of 10" and t.text("#row-2 .pegs") == impossible
        tick_setting(t, "hard")
        assert t.text("#title").endswith(" · hard mode")  # said on the board, as the terminal's title does
        for _ in range(2):
            for key in "1122":
                t.key(key)
            t.key("Enter")
            t.settle()
        assert t.text("#message").startswith("Hard mode: 1122 cannot be the secret: guess 1, 1122, got ")
        assert t.text("#status") == "Guess 2 of 10"


def test_a_guess_on_a_game_played_on_another_server_meanwhile_is_said_not_kept_and_the_board_reloaded(
    browser, tmp_path
):
    """Two servers on one history, one visitor (the same cookie: cookies ignore the port): the
    game played on at the second, its next guess at the first is not written over those moves;
    the page says which guess was not kept and shows the game as the history holds it."""
    history = tmp_path / "h.sqlite3"
    with serving(history) as one, serving(history) as two, tab(browser, DESKTOP) as t:
        t.open(one)
        for key in [*"1122", "Enter"]:
            t.key(key)
        t.settle()
        cookies = t("Network.getCookies")["cookies"]
        with tab(browser, DESKTOP) as other:  # (a new tab clears the browser's cookies)
            for c in cookies:
                other("Network.setCookie", name=c["name"], value=c["value"], url=two)
            other.open(two)  # the unfinished game taken up
            assert other.text("#row-1 .pegs") == "1122"
            for key in [*"3344", "Enter"]:
                other.key(key)
            other.settle()
            assert other.text("#row-2 .pegs") == "3344"
        for key in [*"5566", "Enter"]:
            t.key(key)
        t.settle()
        assert wait_for(lambda: "5566 not kept" in t.text("#message"), 10), t.text("#message")
        assert "here is the game as the history holds it" in t.text("#message")
        assert [t.text("#row-1 .pegs"), t.text("#row-2 .pegs")] == ["1122", "3344"]
        assert t.text("#status") == "Guess 3 of 10"
        t.shot("played-elsewhere")


def test_a_page_only_looked_at_leaves_no_game_and_a_visitors_games_are_numbered_from_1(server, browser):
    with tab(browser, PHONE) as t:
        t.open(server)
        t.open(server)  # and loaded again
        history = "fetch('/api/history').then(r => r.json()).then(a => a.games.map(g => g.id))"
        assert t.js(history) == []
        t.tap("#new-game")  # a game with no move is left without a question, and forgotten
        assert t.js("document.getElementById('confirm').hidden")
        for key in "1122":
            t.key(key)
        t.key("Enter")
        t.settle()
        assert t.js(history) == [1]
        t.tap("#new-game")
        t.tap("#confirm-yes")
        for key in "3456":
            t.key(key)
        t.key("Enter")
        t.settle()
        assert t.js(history) == [2, 1]


@SIZES
def test_the_keys_help_shows_only_where_there_is_a_keyboard(server, browser, size):
    with tab(browser, size) as t:
        t.open(server)
        shown = t.js("getComputedStyle(document.getElementById('keys-help')).display !== 'none'")
        line = t.js("getComputedStyle(document.getElementById('keys-line')).display !== 'none'")
        assert shown == line == (not size["mobile"])


def test_themes_follow_the_system_or_the_settings_with_symbols_in_every_one(server, browser):
    with tab(browser, PHONE) as t:
        t("Emulation.setEmulatedMedia", features=[{"name": "prefers-color-scheme", "value": "dark"}])
        t.open(server)
        assert luminance(t, "body") < 0.05  # the system asks for dark: dark
        for key in "1234":
            t.key(key)
        t.key("Enter")
        t.settle()
        put = (
            "(body) => fetch('/api/settings', {method: 'PUT', headers: {'Content-Type': 'application/json'}, "
            "body: JSON.stringify(body)}).then(r => r.json())"
        )
        for theme, palette, light in (
            ("light", "standard", True),
            ("high-contrast", "colour-blind", False),
            ("dark", "colour-blind", False),
        ):
            t.js(f"({put})({json.dumps({'theme': theme, 'palette': palette})})")
            t.open(server)
            assert t.js("document.documentElement.dataset.theme") == theme
            assert (luminance(t, "body") > 0.5) == light, theme
            # the colour-blind symbols: each peg says its colour's symbol, whatever the theme
            assert (
                t.js("[...document.querySelectorAll('#row-1 .peg')].map(p => p.textContent).join('')")
                == "1234"
            )
            ink, peg = luminance(t, "#row-1 .peg", "color"), luminance(t, "#row-1 .peg")
            assert contrast(ink, peg) >= 3, theme
            t.shot(f"theme-{theme}")
