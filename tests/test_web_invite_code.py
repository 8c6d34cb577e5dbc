"""The QR code of a friend's invitation (web/invite_code.py): the SVG the server answers is read
back module by module and compared with segno's own matrix of the link the page shows (no QR
decoder is installed here: the matrix of the exact link text is what a camera reads), and only
the match's maker gets it, only while the link waits for a friend."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("aiohttp", reason="the web extra (aiohttp) is not installed")
segno = pytest.importorskip("segno", reason="the web extra (segno) is not installed")

from test_web_api import call, serve  # noqa: E402
from test_web_friends import TINY  # noqa: E402


def modules(svg: str) -> list[list[int]]:
    """The dark modules of segno's SVG path (``M x y.5`` or ``m dx dy`` moves, ``h n`` runs of
    dark), as rows of 0 and 1 without the quiet zone of four modules."""
    size = int(re.search(r'viewBox="0 0 (\d+) \1"', svg).group(1))
    grid = [[0] * size for _ in range(size)]
    x = y = 0.0
    for op, a, b in re.findall(
        r"([Mmh])(-?[\d.]+)(?: (-?[\d.]+))?", re.search(r'class="qrline"[^>]* d="([^"]+)"', svg).group(1)
    ):
        if op == "M":
            x, y = float(a), float(b)
        elif op == "m":
            x, y = x + float(a), y + float(b)
        else:
            for column in range(int(x), int(x + float(a))):
                grid[int(y)][column] = 1
            x += float(a)
    return [row[4:-4] for row in grid[4:-4]]


def test_the_makers_invitation_is_a_qr_code_of_its_link_and_nobody_else_gets_one(tmp_path):
    async def scenario(app, alice, bob):
        made = await call(
            alice, "POST", "/api/games", {"mode": "match", "players": ["human", "friend"], **TINY}, status=201
        )
        path = f"/api/games/{made['id']}/invite.svg"
        response = await alice.get(path)
        assert response.status == 200 and response.content_type == "image/svg+xml"
        svg = await response.text()
        assert svg.startswith("<svg") and 'fill="#fff"' in svg  # white behind, in every theme
        link = str(alice.make_url(made["invite"]))  # what the page shows: its origin and /join/TOKEN
        assert link.startswith("http://127.0.0.1:") and "/join/" in link
        drawn = modules(svg)
        expected = [list(row) for row in segno.make(link, error="m", micro=False).matrix]
        assert drawn == expected and len(drawn) >= 21
        other = "y" if link.endswith("x") else "x"  # (a token may end in x itself)
        wrong = [list(row) for row in segno.make(link[:-1] + other, error="m", micro=False).matrix]
        assert drawn != wrong  # one letter of the token changes the code: it is this link's
        # the friend, before and after joining, and the maker once the link is used: 404, as no game
        await call(bob, "GET", path, status=404)
        await call(bob, "POST", f"/api/join/{made['invite'].rsplit('/', 1)[1]}")
        await call(bob, "GET", path, status=404)
        await call(alice, "GET", path, status=404)
        # a game that is not a friend's match, and one that does not exist
        own = await call(alice, "POST", "/api/games", {"mode": "break"}, status=201)
        await call(alice, "GET", f"/api/games/{own['id']}/invite.svg", status=404)
        await call(alice, "GET", "/api/games/99/invite.svg", status=404)

    serve(tmp_path, scenario, visitors=2)


def test_behind_a_proxy_the_links_name_the_public_address_not_the_requests(tmp_path):
    """Behind a proxy that ends TLS, the server is asked over http: given ``--public-url``, the
    QR code of a friend's link and the share text of the code of the day name that address."""

    async def scenario(app, alice):
        made = await call(
            alice, "POST", "/api/games", {"mode": "match", "players": ["human", "friend"], **TINY}, status=201
        )
        svg = await (await alice.get(f"/api/games/{made['id']}/invite.svg")).text()
        link = "https://mastermind.example.org/join/" + made["invite"].rsplit("/", 1)[1]
        assert modules(svg) == [list(row) for row in segno.make(link, error="m", micro=False).matrix]
        daily = await call(alice, "POST", "/api/games", {"mode": "daily"}, status=201)
        over = await call(alice, "POST", f"/api/games/{daily['id']}/give-up")
        assert over["share"].endswith("\nhttps://mastermind.example.org/")

    serve(tmp_path, scenario, address="https://mastermind.example.org")
