"""mastermind web: the app served to browsers, one process per tab, none left behind.

The browser test drives headless Chromium over the DevTools protocol (a small client on the
``websockets`` package); it is skipped, saying why, where no Chromium is installed. On Debian:
``apt-get install chromium`` (.ci/run does it when it can).
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

pytest.importorskip("textual_serve", reason="the tui extra (textual-serve) is not installed")
websockets_sync = pytest.importorskip("websockets.sync.client", reason="websockets is not installed")

from mastermind.history.store import Store  # noqa: E402

APP_MARK = "mastermind.cli tui"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def app_processes() -> dict[int, str]:
    """Every running process of the app (pid: state), from /proc."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if APP_MARK in cmdline and state != "Z":
            found[int(entry.name)] = state
    return found


def wait_for(condition, timeout: float, step: float = 0.1):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(step)
    return condition()


@contextlib.contextmanager
def web_server(tmp_path, *options: str):
    """``mastermind web`` on a free local port (or as OPTIONS say); yields its address; stopped with
    Ctrl+C (SIGINT)."""
    if not options:
        options = ("--port", str(free_port()))
    env = {**os.environ, "MASTERMIND_CONFIG": str(tmp_path / "tui.json")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "mastermind.cli", "web", *options],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, text=True,
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        printed = re.search(r"http://[^:/]+:(\d+)", line)
        assert printed, line
        port = int(printed.group(1))

        def listening() -> bool:
            with socket.socket() as s:
                return s.connect_ex(("127.0.0.1", port)) == 0

        assert wait_for(listening, 10, 0.05)
        yield f"127.0.0.1:{port}", proc
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def open_tab(address: str):
    """What a browser tab does: a websocket to the server, which starts the tab's app."""
    return websockets_sync.connect(f"ws://{address}/ws?width=80&height=24")


def before(pids: set[int]) -> set[int]:
    return set(app_processes()) - pids


def test_an_app_process_per_tab_ended_when_the_tab_goes_and_none_left_after_the_server(tmp_path):
    already = set(app_processes())
    with web_server(tmp_path) as (address, server), contextlib.ExitStack() as tabs:
        page = urllib.request.urlopen(f"http://{address}/", timeout=10).read().decode()
        assert "fonts.googleapis" not in page and "https://" not in page  # nothing from outside
        font = re.search(r'href="([^"]+RobotoMono-VariableFont_wght.ttf)"', page)
        assert font and urllib.request.urlopen(f"http://{address}{font.group(1)}", timeout=10).status == 200

        first = tabs.enter_context(open_tab(address))
        app = wait_for(lambda: before(already), 20)
        assert len(app) == 1
        [pid] = app
        assert os.getpgid(pid) == pid  # a process group of its own, not the server's
        assert Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[0] == sys.executable.encode()
        first.socket.close()  # the tab goes away abruptly: no goodbye
        assert wait_for(lambda: pid not in app_processes(), 15), "the app outlived its tab"

        tabs.enter_context(open_tab(address))
        tabs.enter_context(open_tab(address))
        apps = wait_for(lambda: len(before(already)) == 2 and before(already), 20)
        assert apps and len(apps) == 2  # each tab its own app
        server.send_signal(signal.SIGINT)
        assert server.wait(15) == 0
        assert wait_for(lambda: not before(already), 10), f"left running: {before(already)}"


def test_each_tab_plays_the_game_the_server_was_given(tmp_path):
    already = set(app_processes())
    port = str(free_port())
    with web_server(tmp_path, "--port", port, "--preset", "super-blank") as (address, _), open_tab(address):
        [pid] = wait_for(lambda: before(already), 20)
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")[:-1]
        assert argv[-8:] == ["tui", "--pegs", "5", "--colors", "8", "--max-guesses", "10", "--blank"]


def test_the_page_is_addressed_as_the_browser_reached_it_and_port_0_prints_the_port_bound(tmp_path):
    """Served on every address (0.0.0.0), the page names no 0.0.0.0: a browser on another machine
    loads the script, the fonts and the websocket from the host it asked; port 0 prints the real port."""
    with web_server(tmp_path, "--host", "0.0.0.0", "--port", "0") as (address, server):
        port = int(address.rsplit(":", 1)[1])
        assert port != 0
        request = urllib.request.Request(f"http://{address}/", headers={"Host": f"mastermind.example:{port}"})
        page = urllib.request.urlopen(request, timeout=10).read().decode()
        assert "0.0.0.0" not in page and "127.0.0.1" not in page
        assert f'data-session-websocket-url="ws://mastermind.example:{port}/ws"' in page
        script = re.search(r'<script src="([^"]+)"', page)
        assert script and script.group(1).startswith("/static/")  # from the page's own host
        assert urllib.request.urlopen(f"http://{address}{script.group(1)}", timeout=10).status == 200


def test_the_app_exits_when_its_input_closes(tmp_path):
    """Even a server killed outright leaves no app behind: the app ends when its pipe closes."""
    from mastermind.tui.web import AppProcess

    env = {**os.environ, "MASTERMIND_CONFIG": str(tmp_path / "tui.json")}
    env.update(AppProcess(["x"], write_bytes=None, write_str=None, close=None,  # type: ignore[arg-type]
                          download_manager=None)._build_environment(80, 24))  # type: ignore[arg-type]  # fmt: skip
    proc = subprocess.Popen(
        [sys.executable, "-m", "mastermind.cli", "tui"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
    )  # fmt: skip
    assert proc.stdout is not None and proc.stdin is not None
    assert proc.stdout.readline() == b"__GANGLION__\n"
    proc.stdin.close()
    try:
        assert proc.wait(15) == 0
    finally:
        if proc.poll() is None:
            proc.kill()


# --- the page in headless Chromium, over the DevTools protocol ------------------------------------------


def chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


class DevTools:
    """The least of the Chrome DevTools protocol: commands to one page, answers matched by id."""

    def __init__(self, ws) -> None:
        self.ws = ws
        self.next_id = 0

    def __call__(self, method: str, **params):
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.ws.recv(timeout=30))
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message["result"]

    def evaluate(self, expression: str):
        result = self("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        return result["result"].get("value")

    def key(self, key: str) -> None:
        """One key press as a person types it: keyDown with the text, keyUp."""
        code, text = (13, "\r") if key == "Enter" else (ord(key.upper()), key)
        common = {"key": key, "windowsVirtualKeyCode": code, "nativeVirtualKeyCode": code}
        self("Input.dispatchKeyEvent", type="keyDown", text=text, **common)
        self("Input.dispatchKeyEvent", type="keyUp", **common)


#: Put before the page's scripts: keeps the text of every frame the server sends to the terminal.
RECORDER = """
window.__screen = [];
const Native = window.WebSocket;
window.WebSocket = function (...args) {
  const ws = new Native(...args);
  ws.binaryType = "arraybuffer";
  const decoder = new TextDecoder();
  ws.addEventListener("message", (e) => {
    window.__screen.push(typeof e.data === "string" ? e.data : decoder.decode(e.data, {stream: true}));
  });
  return ws;
};
window.WebSocket.prototype = Native.prototype;
Object.assign(window.WebSocket, {OPEN: 1, CLOSED: 3, CONNECTING: 0, CLOSING: 2});
"""

ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[@-Z\\-_]")


@pytest.mark.slow
def test_a_guess_played_in_headless_chromium(tmp_path):
    browser = chromium()
    if browser is None:
        pytest.skip("Chromium is not installed (Debian: apt-get install chromium); the browser test needs it")
    with web_server(tmp_path) as (address, server), contextlib.ExitStack() as stack:
        debug_port = free_port()
        profile = tmp_path / "chromium"
        proc = subprocess.Popen(
            [browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--disable-dev-shm-usage", f"--remote-debugging-port={debug_port}", f"--user-data-dir={profile}",
             "--window-size=1100,700", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        )  # fmt: skip
        try:

            def page_target():
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{debug_port}/json/list", timeout=2) as r:
                        pages = [t for t in json.load(r) if t.get("type") == "page"]
                except OSError:
                    return None
                return pages[0]["webSocketDebuggerUrl"] if pages else None

            target = wait_for(page_target, 30, 0.2)
            assert target, "Chromium did not open its DevTools port"
            tab = DevTools(stack.enter_context(websockets_sync.connect(target, max_size=None)))
            tab("Page.enable")
            tab("Page.addScriptToEvaluateOnNewDocument", source=RECORDER)
            tab("Page.navigate", url=f"http://{address}/")

            def screen() -> str:
                return ANSI.sub("", "".join(tab.evaluate("window.__screen || []") or []))

            assert wait_for(lambda: "Guess 1 of 10" in screen(), 60, 0.25), screen()[-2000:]
            font = tab.evaluate("document.fonts.check('16px \"Roboto Mono\"')")
            assert font, "the bundled font did not load"
            tab("Input.dispatchMouseEvent", type="mousePressed", x=200, y=300, button="left", clickCount=1)
            tab("Input.dispatchMouseEvent", type="mouseReleased", x=200, y=300, button="left", clickCount=1)
            for key in "1122":
                tab.key(key)
            tab.key("Enter")
            assert wait_for(lambda: "Guess 2 of 10" in screen(), 30, 0.25), screen()[-2000:]
            shot = tab("Page.captureScreenshot", format="png")
            picture = Path(os.environ.get("MASTERMIND_WEB_SHOT", tmp_path / "page.png"))  # to look at
            picture.write_bytes(base64.b64decode(shot["data"]))
            with Store() as store:
                games = store.games()
            assert [m["guess"] for m in games[-1].record["moves"]] == ["1122"]
        finally:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
