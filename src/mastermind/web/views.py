"""Games as the API writes them: plain JSON, in the game's notation and words.

The secret never leaves the server while a game is played: it is written only once the game is
over, and so is the seed (the computer's secret is drawn from it). The tests read every answer of
an unfinished game for it.
"""

from __future__ import annotations

import functools
from contextvars import ContextVar
from datetime import date
from typing import Any

from .. import Code, Feedback, Game, Match, Notation, Problem
from ..core.notation import COLOR_NAMES
from ..core.records import rules_to_dict
from ..games.daily import day_number, share_text
from ..games.match import WRONG_INFORMATION_POINTS, Event, Round
from ..games.words import Voice, event_text, match_ending, round_moment, round_text

#: The page's address as the request being answered named it (set by the server for each
#: request): the link a share text ends with.
LINK: ContextVar[str] = ContextVar("link", default="")


@functools.lru_cache(maxsize=256)
def notation_view(notation: Notation) -> dict[str, Any]:
    """What the page needs to draw and read codes: each colour's symbol and name, every key that
    types a colour, the game's words (black and white, or bulls and cows). Made once per game
    and notation (it is the same for every answer): treat it as read-only."""
    rules, terms = notation.rules, notation.terms
    colors = []
    for color in range(rules.colors):
        blank = color == rules.blank_color
        name = COLOR_NAMES[color] if color < len(COLOR_NAMES) else f"colour {color + 1}"
        name = "empty hole" if blank else name
        colors.append({"symbol": notation.format_code([color]), "name": name, "blank": blank})
    keys: dict[str, int] = {}
    for _, symbols in notation.readings():
        for ch in symbols + symbols.upper() + ("." if rules.blank else ""):
            typed = notation.color_of(ch)
            if typed is not None:
                keys[ch] = typed
    return {
        "style": notation.style,
        "colors": colors,
        "keys": keys,
        "describe": notation.describe_symbols(),
        "terms": {
            "black": terms.black,
            "white": terms.white,
            "symbol": terms.symbol,
            "place": terms.place,
            "keys": terms.keys,
            "counted": terms.counted,
        },
    }


def reply_view(reply: Feedback) -> dict[str, Any]:
    return {"reply": f"{reply.black},{reply.white}", "black": reply.black, "white": reply.white}


def problem_view(problem: Problem | None, notation: Notation) -> dict[str, Any] | None:
    """A contradiction: its rows (1-based), the message, and each correction the games package offers."""
    if problem is None:
        return None
    return {
        "rows": [r + 1 for r in problem.rows],
        "message": problem.message,
        "corrections": [
            {
                "row": c.row + 1,
                **reply_view(c.reply),
                "words": notation.terms.reply(c.reply),
                "candidates": c.candidates,
            }
            for c in problem.corrections
        ],
    }


def game_view(game: Game, notation: Notation, mode: str) -> dict[str, Any]:
    """One game; ``secret`` and ``seed`` are None until it is over."""
    code = notation.format_code
    over = game.over
    return {
        "mode": mode,
        "rules": rules_to_dict(game.rules),
        "strategy": game.strategy_name,
        "breaker": game.breaker or "human",
        # (whether a guess is warned of before it is played, the answer to it says: ``warn``)
        "moves": [{"guess": code(m.guess), **reply_view(m.reply)} for m in game.moves],
        "pending": None if game.pending is None else code(game.pending),
        "waiting_for": game.waiting_for,
        "turn": game.turn,
        "guesses_left": game.guesses_left,
        "outcome": game.outcome,
        "finished": over,
        "won": game.outcome == "won",
        "hints": game.hints,
        "hard": game.hard,
        "problem": problem_view(game.problem, notation),
        # what a strategy breaking the visitor's code knows; never for a code the visitor breaks
        "candidates": game.candidates() if mode == "solve" and not over else None,
        "secret": code(game.secret) if over and game.secret is not None else None,
        "seed": game.seed if over else None,
        "daily": game.daily,
        "day": None if game.daily is None else day_number(date.fromisoformat(game.daily)),
        # what the player shares of a game of the day, without its code (the games package's text)
        "share": share_text(game, LINK.get()) if over and game.daily else None,
        # a finished game's closing words (the games package's, the command line's); a match's
        # game has its round's words instead (finished_view)
        "ending": game.closing_lines(notation) if mode != "match" else [],
    }


def _code_or_none(notation: Notation, code: Code | None) -> str | None:
    return None if code is None else notation.format_code(code)


def match_view(match: Match, notation: Notation) -> dict[str, Any]:
    """A match: the players, the score as it stands, whose turn it is, the game being played
    (its secret hidden), every finished game with its secret and points, and once it is over its
    closing words (``ending``, from one device's point of view: a friend's match says them to
    each player, web/friends.py)."""
    r = match.current
    done = [
        {
            "number": x.number,
            "maker": x.maker,
            "breaker": x.breaker,
            "points": x.points,
            "replayed": x.replayed,
            "guesses": len(x.game.moves),
            "outcome": x.game.outcome,
            "secret": _code_or_none(notation, x.game.secret),
            "referee": x.referee,
        }
        for x in match.rounds
        if x.points is not None and x.game is not None
    ]
    return {
        "mode": "match",
        "rules": rules_to_dict(match.rules),
        "players": list(match.players),
        "games": match.games,
        "scoring": match.scoring,
        "codemaker": match.codemaker,
        "strategy": match.strategy,
        "hard": match.hard,
        "score": match.standing,
        "waiting_for": match.waiting_for,
        "finished": match.over,
        "winner": match.winner if match.over else None,
        "round": {"number": r.number, "maker": r.maker, "breaker": r.breaker, "replayed": r.replayed},
        "game": None if r.game is None else game_view(r.game, notation, "match"),
        "rounds": done,
        "seed": match.seed if match.over else None,
        "ending": match_ending(match, Voice.of(match)),
    }


def events_view(
    events: list[Event], notation: Notation, match: Match, voice: Voice | None = None
) -> list[dict[str, Any]]:
    """A match's events, each with its sentence (``text``, the games package's, from ``voice``'s
    point of view: one device's by default; None for an event the board shows, as a move); a
    finished game's secret and the game itself (``game``) with its ``round-over``, and with
    ``replayed`` who gets the points for wrong information."""
    voice = voice or Voice.of(match)
    out = []
    for ev in events:
        item: dict[str, Any] = {"kind": ev.kind, "round": ev.round.number, "row": ev.row}
        item["text"] = event_text(ev, match, notation, voice)
        if ev.move is not None:
            item["move"] = {"guess": notation.format_code(ev.move.guess), **reply_view(ev.move.reply)}
        if ev.problem is not None:
            item["problem"] = problem_view(ev.problem, notation)
        if ev.kind == "replayed":
            item["penalty"] = {"player": match.penalty_to(ev.round), "points": WRONG_INFORMATION_POINTS}
        if ev.kind == "round-over" and ev.round.game is not None:
            item.update(finished_view(ev.round, notation, match, voice))
        out.append(item)
    return out


def finished_view(r: Round, notation: Notation, match: Match, voice: Voice) -> dict[str, Any]:
    """A match's finished game as the page holds it on the board until the visitor moves on to
    the next game: its number, code, points, outcome and length, the game whole (its last row
    and its code), and in ``voice``'s words its line (``text``) and the moment a person broke the
    code (``ending``: empty where there is none)."""
    assert r.game is not None
    return {
        "text": round_text(r, notation, voice),
        "ending": round_moment(r, match, voice),
        "round": r.number,
        "secret": _code_or_none(notation, r.game.secret),
        "points": r.points,
        "outcome": r.game.outcome,
        "guesses": len(r.game.moves),
        "game": game_view(r.game, notation, "match"),
    }
