"""The moves of a game or a match: a guess, a reply, a row fixed, a move taken back, a hint, a
game given up, a codemaker's secret, a computer's move. Each route reads the request and asks the
games package, which decides whether the move may be made and what it means; :func:`~mastermind.web.api.act`
runs it in turn with the game's other requests and answers once it is in the history.
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

from .. import Game, GameError, Match
from ..games.game import NOT_FIXED_IN_A_MATCH
from .api import ApiError, State, act, computer_guesses, field, game_of, visitor_of
from .sessions import LiveGame

routes = web.RouteTableDef()


@routes.post("/api/games/{id}/guesses")
async def guess(request: web.Request) -> web.Response:
    """A person's guess. With ``"warn": true`` (the page's, until the person confirms) a guess the
    games package warns of (:meth:`~mastermind.games.game.Game.warning`: played already, or, with
    the visitor's setting ``warn_inconsistent``, one that cannot be the secret) is not played: the
    answer's ``warning`` says why, and the page adds how to play it anyway. Without it, the guess
    is played: a program asks for no warning."""

    async def action(state: State, live: LiveGame, data: dict[str, Any]) -> dict[str, Any]:
        code = field(data, "guess", str, 'a code, e.g. "1122"')
        if "warn" in data and field(data, "warn", bool, "true or false"):
            settings = await state.visitors.settings(visitor_of(request))
            warning = warning_of(live, code, settings.warn_inconsistent)
            if warning is not None:
                return {"warning": warning}  # nothing played
        if live.match is not None:
            events = live.match.guess(code)
            moves = [e for e in events if e.kind == "move"]
            extra = {"events": events}
            if moves and moves[0].move is not None:
                extra.update(reply_of(moves[0].move.reply))
            return extra
        game = game_of(live)
        game.expect("guess")
        move = game.guess(code)
        assert move is not None
        return reply_of(move.reply)

    return await act(request, action)


def warning_of(live: LiveGame, code: str, inconsistent: bool) -> str | None:
    """The games package's warning before ``code`` is played in ``live`` (a match's game as a
    single game), or None; its refusal where no person's guess is awaited."""
    if live.match is not None:
        return live.match.warning(code, inconsistent, live.notation)
    game = game_of(live)
    game.expect("guess")
    return game.warning(code, inconsistent, live.notation)


def reply_of(reply: Any) -> dict[str, Any]:
    return {"reply": f"{reply.black},{reply.white}", "black": reply.black, "white": reply.white}


@routes.post("/api/games/{id}/replies")
async def reply(request: web.Request) -> web.Response:
    async def action(state: State, live: LiveGame, data: dict[str, Any]) -> dict[str, Any] | None:
        text = field(data, "reply", str, 'a reply, e.g. "1,0" (black, white) or "BW"')
        if live.match is not None:
            return {"events": live.match.reply(text)}
        game = game_of(live)
        if game.secret is not None:
            game.reply(text)  # the games package says why not: it scores this game itself
        game.expect("reply")
        await state.think(lambda: game.reply(text))  # a contradiction's corrections take a while
        await computer_guesses(state, live)
        return None

    return await act(request, action)


@routes.post("/api/games/{id}/fixes")
async def fix(request: web.Request) -> web.Response:
    async def action(state: State, live: LiveGame, data: dict[str, Any]) -> None:
        row = field(data, "row", int, "a row number, from 1")
        text = field(data, "reply", str, 'a reply, e.g. "1,0"')
        if live.match is not None:  # (Game.fix refuses it too: the words are the games package's)
            raise GameError(NOT_FIXED_IN_A_MATCH)
        game = game_of(live)
        await state.think(lambda: game.fix(row, text))
        await computer_guesses(state, live)

    return await act(request, action)


@routes.post("/api/games/{id}/undo")
async def undo(request: web.Request) -> web.Response:
    async def action(state: State, live: LiveGame, data: dict[str, Any]) -> dict[str, Any] | None:
        if live.match is not None:
            return {"events": live.match.undo()}
        game_of(live).undo()
        await computer_guesses(state, live)
        return None

    return await act(request, action)


@routes.post("/api/games/{id}/hint")
async def hint(request: web.Request) -> web.Response:
    """The hint the command line and the terminal board give (:func:`~mastermind.games.advice.hint_given`):
    ``hint``, the strategy's guess (drawn in pegs), and where the game's codes can be listed
    ``advice``, what teaches it (:meth:`~mastermind.games.advice.Advice.to_dict`: the codes left,
    how the guess splits them, the guesses expected, the last guess valued, and ``lines``, the
    engine's own words); else ``advice`` is null. In a match the match says whether a hint may be
    asked now, in its words."""

    async def action(state: State, live: LiveGame, data: dict[str, Any]) -> dict[str, Any]:
        from ..games.advice import Advice, hint_given  # (the review's search: loaded when asked)

        played: Game | Match
        if live.match is not None:  # (the match says when a hint may be asked, as at the terminal)
            played = live.match
        else:
            played = game_of(live)
            played.expect("guess")
        given = await state.think(lambda: hint_given(played))  # a search: it can take a while
        advice = given.to_dict(live.notation) if isinstance(given, Advice) else None
        shown = given.hint if isinstance(given, Advice) else given
        return {
            "hint": {
                "strategy": shown.strategy,
                "guess": live.notation.format_code(shown.guess),
                "candidates": shown.candidates,
                "lead": shown.lead,
                "note": shown.note,
            },
            "advice": advice,
        }

    return await act(request, action)


@routes.post("/api/games/{id}/give-up")
async def give_up(request: web.Request) -> web.Response:
    async def action(state: State, live: LiveGame, data: dict[str, Any]) -> dict[str, Any] | None:
        if live.match is not None:  # (the match says who may give up, and when)
            return {"events": live.match.give_up()}
        game_of(live).give_up()
        return None

    return await act(request, action)


@routes.post("/api/games/{id}/secret")
async def secret(request: web.Request) -> web.Response:
    async def action(state: State, live: LiveGame, data: dict[str, Any]) -> dict[str, Any]:
        if live.match is None:
            raise GameError("a secret is chosen in a match; the computer breaks a code kept in your head")
        code = data.get("secret")
        if code is not None and not isinstance(code, str):
            raise ApiError(400, "'secret' must be a code, or null to reply to every guess yourself")
        return {"events": live.match.set_secret(code)}

    return await act(request, action)


@routes.post("/api/games/{id}/advance")
async def advance(request: web.Request) -> web.Response:
    async def action(state: State, live: LiveGame, data: dict[str, Any]) -> dict[str, Any]:
        match = live.match
        if match is None:
            raise GameError("a computer's move is asked for in a match; here the computer moves by itself")
        return {"events": await state.think(match.advance)}

    return await act(request, action)
