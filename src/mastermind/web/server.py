"""The server: one aiohttp application for every visitor, its middlewares, and :func:`serve`.

Why aiohttp: it was a dependency already (of the terminal page this server replaced), it is one
package with its own HTTP server (no ASGI server beside it), its test client runs the whole
application in the test's process, and static files, cookies, body limits and graceful shutdown
are built in (docs/web.md says more).

Every request goes through, in order:

1. the error middleware: whatever goes wrong answers ``{"error": "..."}`` with a 4xx status, in the
   game's words (the games package's errors are ValueErrors with a sentence for people), never a traceback;
2. the visitor: the session cookie (HttpOnly, SameSite=Lax) names it, or a new one is issued;
3. the rate limit: :attr:`Limits.rate` requests a second per visitor (by address for a visitor
   the server did not issue), 429 past it;
4. the origin check: a POST, PUT or DELETE from another site's page is refused (403), whatever
   its cookie (SameSite=Lax already keeps the cookie off cross-site POSTs).
"""

from __future__ import annotations

import asyncio
import gc
import ipaddress
import logging
import signal
import socket
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from aiohttp import web

from ..errors import ContradictionError, GameError, MastermindError, StoreError
from ..history.store import PlayedElsewhere, Store
from . import daily, friends, invite_code, moves, puzzles, records, reviews, transfer
from .api import ADDRESS, SAVE_WAIT, STATE, VISITOR, ApiError, State, routes
from .limits import Limits, RateLimiter
from .sessions import COOKIE, GameTable, Visitors
from .settings import VisitorSettings

STATIC = Path(__file__).parent / "static"

#: A year: the visitor keeps their games and settings as long as the browser keeps the cookie.
COOKIE_AGE = 365 * 24 * 3600

#: What the page may load: only this server's own files (nothing from outside, no inline script).
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)

log = logging.getLogger("mastermind.web")

#: The garbage collector's thresholds while serving: the young and middle generations as by
#: default, full collections ten times rarer (see serve). A young collection comes when the
#: objects made, and still alive, since the last one reach the first number, and walks about that
#: many, every request waiting: higher thresholds (5,000 and 20,000 were measured, with the middle
#: generation after 3 and after 10 young collections) made collections rarer but each longer,
#: and the slowest moves were no faster for it (docs/web.md has the runs).
GC_THRESHOLDS = (700, 10, 100)

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

RATE: web.AppKey[RateLimiter] = web.AppKey("rate", RateLimiter)


def error(status: int, message: str, extra: dict[str, Any] | None = None) -> web.Response:
    return web.json_response({"error": message, **(extra or {})}, status=status)


def status_of(err: MastermindError) -> int:
    """409 for a move the game's state does not allow now (or a save the history refused: the
    game was played elsewhere meanwhile), 503 for an unusable history, else 400."""
    if isinstance(err, GameError | ContradictionError | PlayedElsewhere):
        return 409
    if isinstance(err, StoreError):
        return 503
    return 400


@web.middleware
async def errors(request: web.Request, handler: Handler) -> web.StreamResponse:
    try:
        response = await handler(request)
    except ApiError as err:
        response = error(err.status, str(err), err.extra)
    except MastermindError as err:
        response = error(status_of(err), str(err))
    except web.HTTPRequestEntityTooLarge:
        limit = request.app[STATE].limits.body_bytes
        response = error(413, f"the request body is too large (at most {limit:,} bytes)")
    except web.HTTPNotFound:
        response = error(404, f"there is no page {request.path[:80]}")
    except web.HTTPMethodNotAllowed as err:
        response = error(
            405,
            f"{request.method} is not allowed on {request.path[:80]} "
            f"(allowed: {', '.join(sorted(err.allowed_methods))})",
        )
        response.headers["Allow"] = ", ".join(sorted(err.allowed_methods))
    except web.HTTPException as err:
        if err.status < 400:
            raise
        response = error(err.status, err.reason.lower())
    except (asyncio.CancelledError, KeyboardInterrupt):
        raise
    except Exception:  # a bug: said in the log; the visitor gets a line, the server goes on
        log.exception("%s %s failed", request.method, request.path)
        response = error(500, "the server failed on this request; it goes on serving")
    return response


@web.middleware
async def visitors(request: web.Request, handler: Handler) -> web.StreamResponse:
    state = request.app[STATE]
    visitor = await state.visitors.identify(request.cookies.get(COOKIE))
    request[VISITOR] = visitor
    key = visitor.key if visitor.known else f"address {request.remote}"
    if not request.app[RATE].allow(key):
        response: web.StreamResponse = error(
            429, f"too many requests: at most {state.limits.rate:g} a second; wait a moment"
        )
        response.headers["Retry-After"] = "1"
    elif request.method not in ("GET", "HEAD", "OPTIONS") and cross_origin(request):
        response = error(403, "a request from another site's page is refused")
    else:
        response = await errors(request, handler)
    if visitor.token is not None:
        response.set_cookie(
            COOKIE,
            visitor.token,
            max_age=COOKIE_AGE,
            path="/",
            httponly=True,
            samesite="Lax",
            secure=request.secure,
        )
    return response


def cross_origin(request: web.Request) -> bool:
    """Whether a browser says the request comes from another site's page."""
    if request.headers.get("Sec-Fetch-Site", "") == "cross-site":
        return True
    origin = request.headers.get("Origin")
    if origin is None:
        return False  # not sent by a browser's cross-site request (every browser sends Origin with one)
    return urlsplit(origin).netloc.lower() != request.host.lower()


@web.middleware
async def headers(request: web.Request, handler: Handler) -> web.StreamResponse:
    started = time.perf_counter()
    try:
        response = await handler(request)
    except web.HTTPException as err:  # before the visitor is known (a body too large...)
        response = error(err.status, err.reason.lower())
    response.headers.setdefault("Content-Security-Policy", CSP)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "no-referrer")
    if request.path.startswith("/api/"):
        response.headers.setdefault("Cache-Control", "no-store")
        # the time the server spent on the request, from its first middleware to its answer (the
        # browser's network panel shows it; benchmarks/web_load.py tells it from the wait around it)
        timing = f"app;dur={1000 * (time.perf_counter() - started):.2f}"
        if SAVE_WAIT in request:  # a move: how long of it was the wait for its save
            timing += f", save;dur={1000 * request[SAVE_WAIT]:.2f}"
        response.headers["Server-Timing"] = timing
    return response


async def index(request: web.Request) -> web.FileResponse:
    return web.FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})


def make_app(
    store: Store,
    limits: Limits | None = None,
    defaults: VisitorSettings | None = None,
    address: str | None = None,
) -> web.Application:
    """The application over ``store`` (the history), with these limits and the settings a new
    visitor starts with; ``address``: the page's address as visitors reach it, for the links it
    writes (else each request's own)."""
    limits = limits or Limits()
    app = web.Application(middlewares=[headers, visitors], client_max_size=limits.body_bytes)
    pool = ThreadPoolExecutor(max_workers=limits.thinking, thread_name_prefix="mastermind-think")
    # One thread calls the history, in the order of the calls: the SQLite connection is used by
    # one thread at a time, and the event loop never waits on the database.
    history = ThreadPoolExecutor(max_workers=1, thread_name_prefix="mastermind-history")

    async def db(job: Callable[[], Any]) -> Any:
        return await asyncio.get_running_loop().run_in_executor(history, job)

    def later(job: Callable[[], Any]) -> Awaitable[Any]:
        done = history.submit(job)
        done.add_done_callback(saved)
        return asyncio.wrap_future(done)

    visitors_ = Visitors(store, defaults or VisitorSettings(), db)
    # reviews apart: one may search for seconds a move, and the strategies' threads stay free
    reviewer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="mastermind-review")
    app[STATE] = State(store, visitors_, GameTable(store, limits, db, later), limits, pool, history, reviewer)
    app[RATE] = RateLimiter(limits.rate, limits.burst)
    if address:
        app[ADDRESS] = address.rstrip("/") + "/"
    for table in (routes, moves.routes, reviews.routes, records.routes):
        app.router.add_routes(table)
    daily.setup(app, store.path)  # the key of the code of the day: made on the first start, kept
    friends.setup(app)
    transfer.setup(app)
    invite_code.setup(app)  # the QR code of a friend's link
    puzzles.install(app, store.path)  # the puzzles' routes and ratings
    app.router.add_get("/", index)
    app.router.add_static("/static/", STATIC, append_version=False)

    async def sweep(app: web.Application) -> Any:
        """Drop the games idle too long, every while."""

        async def loop() -> None:
            while True:
                await asyncio.sleep(min(30.0, limits.idle_seconds / 4))
                app[STATE].games.trim()

        task = asyncio.create_task(loop())
        yield
        task.cancel()
        # a hint or a strategy's guess in flight (an exact search) stops now: the process ends
        # without waiting for it (the pool's threads are joined as the interpreter exits)
        from ..games.thinking import stop_thinking

        stop_thinking()
        pool.shutdown(wait=False, cancel_futures=True)
        reviewer.shutdown(wait=False, cancel_futures=True)
        history.shutdown(wait=True)  # the last writes reach the file before the store is closed

    app.cleanup_ctx.append(sweep)
    return app


def saved(done: Future[Any]) -> None:
    """A game's write ended: a failure is said in the log (the move's answer is a 503; the game
    is still played from memory, and the next move's write tries again); a write the history
    refused (the game played elsewhere meanwhile: the answer is a 409) is a warning."""
    err = done.exception()
    if isinstance(err, PlayedElsewhere):
        log.warning("a game's save was refused: %s", err)
    elif err is not None:
        log.error("a game could not be saved in the history: %s", err)


def on_network(host: str) -> bool:
    """Whether ``host`` is reachable from other machines (not a loopback address)."""
    try:
        return not ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host != "localhost"


def serve(
    host: str, port: int, store: Store, limits: Limits, defaults: VisitorSettings, address: str | None = None
) -> None:
    """Serve until Ctrl+C or SIGTERM; the address (with the port bound, port 0 too) is printed once
    the server listens. OSError when the address cannot be listened on (the port taken...)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.create_server((host, port), family=family)
    bound = listener.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    loop = asyncio.new_event_loop()
    stop = asyncio.Event()

    def listening(*_: object) -> None:
        print(f"Serving Mastermind on http://{shown}:{bound} (Ctrl+C stops it)", flush=True)
        if on_network(host):
            print(
                f"Note: on {host} the board is reachable from the network: anyone who can reach this "
                f"machine can play, within the limits ({limits.describe()}).",
                flush=True,
            )

    async def main() -> None:
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, stop.set)
        runner = web.AppRunner(
            make_app(store, limits, defaults, address), handle_signals=False, access_log=None
        )
        await runner.setup()
        # What is loaded by now (the modules, numpy, the games' tables) lives as long as the
        # server: out of the collector's sight, a full collection no longer walks it. And full
        # collections come ten times less often: each walks every visitor's connection and game,
        # every request waiting, and under load they were most of the slowest 1% of answers
        # (docs/web.md has the figures).
        gc.collect()
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLDS)
        site = web.SockSite(runner, listener)
        await site.start()
        listening()
        try:
            await stop.wait()
        finally:
            await runner.cleanup()

    try:
        loop.run_until_complete(main())
    finally:
        loop.close()
        listener.close()
