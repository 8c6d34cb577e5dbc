"""``mastermind web``: the app served to web browsers by textual-serve, one app process per tab.

textual-serve starts each tab's app through a shell and, when a tab closes abruptly or the server
stops, only asks the app to quit; an app that does not hear it (its input gone, a strategy busy)
goes on running. Here instead:

- the app is started directly (no shell in between), in a process group of its own;
- when its tab disconnects, or the server shuts down, it is asked to quit, given a moment, and then
  its whole process group is killed and reaped;
- the app itself exits when its input closes (:class:`ExitingWebDriver`), so that it never outlives
  the server even if the server is killed outright.

The page is this package's own (templates/app_index.html): it loads nothing from outside the
server, and its font is the one textual-serve bundles, so it works with no internet. Its addresses
are the ones the browser reached it by (the request's Host), never the address the server listens
on: served on 0.0.0.0, a browser on another machine loads it whole.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import sys
from pathlib import Path
from typing import Any

import aiohttp_jinja2
from aiohttp import WSCloseCode, web
from textual.drivers.web_driver import WebDriver
from textual.messages import ExitApp
from textual_serve.app_service import AppService
from textual_serve.server import Server
from yarl import URL

#: Seconds an app is given to quit by itself before its process group is killed.
QUIT_GRACE = 2.0

TEMPLATES = Path(__file__).parent / "templates"


def app_command(args: list[str] | None = None) -> list[str]:
    """The app's command: this Python, this package's CLI, no shell; ``args`` after ``tui``."""
    return [sys.executable, "-m", "mastermind.cli", "tui", *(args or [])]


class ExitingWebDriver(WebDriver):
    """The web driver, and the app exits when its input (the server's pipe) closes."""

    def run_input_thread(self) -> None:
        try:
            super().run_input_thread()
        finally:
            self._app.post_message(ExitApp())


class AppProcess(AppService):
    """One tab's app: started without a shell in a new process group, which is ended with it."""

    def __init__(self, argv: list[str], **kwargs: Any) -> None:
        super().__init__(" ".join(argv), **kwargs)
        self.argv = argv

    def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
        env = super()._build_environment(width=width, height=height)
        env["TEXTUAL_DRIVER"] = f"{ExitingWebDriver.__module__}:{ExitingWebDriver.__name__}"
        return env

    async def _open_app_process(self, width: int = 80, height: int = 24) -> asyncio.subprocess.Process:
        self._process = process = await asyncio.create_subprocess_exec(
            *self.argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=self._build_environment(width=width, height=height),
            start_new_session=True,  # its own process group: ended whole, children included
        )
        assert process.stdin is not None
        self._stdin = process.stdin
        return process

    def kill(self) -> None:
        """End the app's process group at once (nothing if it is gone)."""
        process = self._process
        if process is None or process.returncode is not None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)

    async def stop(self) -> None:
        """Ask the app to quit; after :data:`QUIT_GRACE` seconds end its process group; reap it."""
        with contextlib.suppress(asyncio.TimeoutError, ConnectionError, RuntimeError):
            await asyncio.wait_for(super().stop(), QUIT_GRACE)
        self.kill()
        if self._process is not None:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._process.wait(), QUIT_GRACE)


class WebServer(Server):
    """textual-serve's server with this package's page and :class:`AppProcess` for every tab."""

    def __init__(self, argv: list[str], host: str, port: int) -> None:
        super().__init__(" ".join(argv), host=host, port=port, title="Mastermind", templates_path=TEMPLATES)
        self.argv = argv
        self.apps: dict[AppProcess, web.WebSocketResponse] = {}

    async def on_startup(self, app: web.Application) -> None:
        """Nothing to say before the server listens (see :meth:`serve`)."""

    @aiohttp_jinja2.template("app_index.html")
    async def handle_index(self, request: web.Request) -> dict[str, Any]:
        """The page, its script, fonts and websocket addressed from the host the browser asked for."""
        router = request.app.router
        websocket = URL.build(scheme="wss" if request.secure else "ws", authority=request.host,
                              path=router["websocket"].url_for().path)  # fmt: skip
        font_size = request.query.get("fontsize", "")
        return {
            "font_size": int(font_size) if font_size.isdigit() else 16,
            "app_websocket_url": str(websocket),
            "config": {"static": {"url": str(router["static"].url_for(filename="/")).rstrip("/") + "/"}},
            "application": {"name": self.title},
        }

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """A tab connected: its own app process, ended when the tab goes away."""

        def number(name: str, default: int) -> int:
            value = request.query.get(name, "")
            return int(value) if value.isdigit() else default

        websocket = web.WebSocketResponse(heartbeat=15)
        await websocket.prepare(request)
        process = AppProcess(
            self.argv,
            write_bytes=websocket.send_bytes,
            write_str=websocket.send_str,
            close=websocket.close,
            download_manager=self.download_manager,
            debug=self.debug,
        )
        self.apps[process] = websocket
        try:
            await process.start(number("width", 80), number("height", 24))
            await self._process_messages(websocket, process)
        finally:
            if _cancelling():  # the server is stopping: no time to wait for the app
                process.kill()
            else:
                await process.stop()
            self.apps.pop(process, None)
            with contextlib.suppress(Exception):
                await websocket.close()
        return websocket

    async def on_shutdown(self, app: web.Application) -> None:
        """The server stops: every app is ended and every tab told, so that no handler lingers."""
        self.kill_all()
        for websocket in list(self.apps.values()):
            with contextlib.suppress(Exception):
                await websocket.close(code=WSCloseCode.GOING_AWAY, message=b"the server stopped")

    def kill_all(self) -> None:
        for process in list(self.apps):
            process.kill()

    def serve(self, debug: bool = False) -> None:
        """Serve until Ctrl+C or SIGTERM; the address (with the port bound, port 0 too) is printed once
        the server listens. OSError when the address cannot be listened on (the port taken...)."""
        self.debug = debug
        self.initialize_logging()
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        listener = socket.create_server((self.host, self.port), family=family)
        address = URL.build(scheme="http", host=self.host, port=listener.getsockname()[1])
        loop = asyncio.new_event_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, self.request_exit)

        def listening(*_: object) -> None:
            print(f"Serving Mastermind on {address} (Ctrl+C stops it)", flush=True)

        try:
            web.run_app(self._make_app(), sock=listener, handle_signals=False, loop=loop, print=listening)
        finally:
            self.kill_all()
            loop.close()
            listener.close()


def _cancelling() -> bool:
    task = asyncio.current_task()
    return bool(task is not None and task.cancelling())


def serve(host: str, port: int, args: list[str] | None = None) -> None:
    """Serve the app at http://HOST:PORT until interrupted; ``args``: options of each tab's
    ``mastermind tui`` (the game)."""
    WebServer(app_command(args), host, port).serve()
