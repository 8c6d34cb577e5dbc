"""web: the board in a browser, one server for every visitor (the optional ``web`` extra)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from . import cli
from .common import db_option, fail, open_store
from .game_options import game_options, notation_style, rules_given

if TYPE_CHECKING:
    from .. import Rules


@cli.command(
    help="""Serve the board to web browsers: one server, each visitor their own games.

    Open the address it prints. Every visitor (a browser, known by a session cookie) has their
    own games, history, statistics and settings, kept in the history database with the local
    games (mastermind history lists only the local ones). The page loads nothing from outside
    the server. The game options set the game a new visitor starts with.

    --limit NAME=VALUE changes one limit (repeat it for several); the limits and their defaults:
    body_bytes=16384 (a request's body), open_games=20 (unfinished games per visitor),
    games_in_memory=2000, idle_seconds=600 (a game idle this long is dropped from memory; it is
    read back from the history when touched), rate=20 and burst=40 (requests a second per
    visitor), max_codes=60000 (the largest game served), optimal_codes=3125 (the largest the
    optimal strategy plays), match_games=20, thinking=2 (strategy computations at once),
    friend_idle_seconds=3600 (a friend's match nobody moves in this long is closed).

    \b
    Examples:
      mastermind web
      mastermind web --host 0.0.0.0 --port 8080 --limit rate=5
      mastermind web --preset super-blank
      mastermind web --host 0.0.0.0 --public-url https://mastermind.example.org  # behind a proxy
    """
)
@game_options
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on; any but loopback is reachable from the network.",
)
@click.option(
    "--port", default=8000, show_default=True, type=click.IntRange(0, 65535), help="Port (0: any free one)."
)
@click.option(
    "--public-url",
    metavar="URL",
    help="The page's address as visitors reach it (https://... behind a proxy), for the links it writes "
    "(share texts, a friend's QR code); by default each request's own.",
)
@db_option
@click.option("--limit", "limits", multiple=True, metavar="NAME=VALUE", help="Change one limit (see above).")
def web(
    rules: Rules, host: str, port: int, public_url: str | None, db: str | None, limits: tuple[str, ...]
) -> None:
    try:
        import aiohttp  # noqa: F401
    except ImportError:
        from ..runtime.install import install_command

        fail(f"the web board needs the web extra (aiohttp is not installed): {install_command('web')}")
    from ..web.limits import Limits
    from ..web.server import serve
    from ..web.settings import VisitorSettings

    chosen = Limits.parse(limits)
    defaults = VisitorSettings(notation=notation_style())
    if rules_given():
        defaults.with_rules(rules)
    defaults.check()  # bad options: said here, before the server starts
    rules = defaults.rules
    if rules.size > chosen.max_codes:
        fail(
            f"this server plays games of at most {chosen.max_codes:,} codes; {rules.describe()} make "
            f"{rules.size:,} (--limit max_codes=N allows more)"
        )
    if public_url is not None and not _is_web_address(public_url):
        fail(
            f"--public-url must be an http:// or https:// address with a host (e.g. https://example.org), "
            f"not {public_url!r}"
        )
    store = open_store(db)
    try:
        serve(host, port, store, chosen, defaults, public_url)
    except OSError as err:  # the port is taken, the address is not this machine's...
        fail(f"cannot serve on {host}:{port}: {err.strerror or err}")


def _is_web_address(text: str) -> bool:
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(text)
    except ValueError:
        return False
    return (
        parts.scheme in ("http", "https") and bool(parts.hostname) and not parts.query and not parts.fragment
    )
