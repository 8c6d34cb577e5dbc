"""The QR code of a friend's invitation: a phone scans the link from a desktop's screen.

``GET /api/games/{id}/invite.svg`` answers the link to the match (``/join/TOKEN`` on this
server's address: its ``--public-url``, else as the request reached it) as an SVG QR code made by
segno, to the visitor who made the match only, and only while the link waits for a friend: anyone
else, or once the friend has joined, gets 404 as for a game that does not exist. segno (pure
Python, no image library) is imported when a code is asked for: the web extra declares it.
"""

from __future__ import annotations

import io

from aiohttp import web

from .api import ApiError, address_of, visitor_of
from .friends import FRIENDS, FriendGame

routes = web.RouteTableDef()


def invite_svg(link: str) -> bytes:
    """``link`` as an SVG QR code: black modules on white (whatever the page's theme, so that a
    camera reads it), the quiet zone of four modules the standard asks for, sized by the page."""
    import segno

    code = segno.make(link, error="m", micro=False)
    out = io.BytesIO()
    code.save(out, kind="svg", xmldecl=False, border=4, dark="#000", light="#fff", omitsize=True)
    return out.getvalue()


@routes.get("/api/games/{id}/invite.svg")
async def invite(request: web.Request) -> web.Response:
    """The match's link as a QR code, for its maker while the link waits for a friend."""
    text = request.match_info["id"]
    game = None
    if FRIENDS in request.app and text.isdigit() and len(text) < 19:
        game = await request.app[FRIENDS].find(request, int(text))
    if not isinstance(game, FriendGame) or game.host != visitor_of(request).key or game.guest is not None:
        raise ApiError(404, f"there is no invitation to show for game {text[:40]}")
    link = f"{address_of(request)}join/{game.invite}"
    headers = {"Cache-Control": "no-store"}
    return web.Response(body=invite_svg(link), content_type="image/svg+xml", headers=headers)


def setup(app: web.Application) -> None:
    app.router.add_routes(routes)
