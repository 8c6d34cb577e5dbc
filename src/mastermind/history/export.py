"""The history written as CSV: one row per game, or one row per move (``mastermind history --csv``)."""

from __future__ import annotations

import csv
from collections.abc import Iterable
from typing import Any

from .records import StoredGame, moves_of

#: The columns of :func:`write_csv`: one row per game, or one row per move.
GAME_COLUMNS = [
    "id",
    "started",
    "updated",
    "kind",
    "pegs",
    "colors",
    "repeats",
    "blank",
    "max_guesses",
    "guesses",
    "outcome",
    "finished",
]
MOVE_COLUMNS = [
    "id",
    "kind",
    "pegs",
    "colors",
    "repeats",
    "blank",
    "max_guesses",
    "game",
    "move",
    "guess",
    "black",
    "white",
    "outcome",
    "finished",
]


def write_csv(games: Iterable[StoredGame], stream: Any, moves: bool = False) -> int:
    """Write ``games`` as CSV (:mod:`csv`, with a header) to a text stream opened with ``newline=""``:
    one row per game (:data:`GAME_COLUMNS`), or with ``moves`` one row per move (:data:`MOVE_COLUMNS`:
    ``game`` is the number of the game in a match, empty otherwise, and ``move`` counts from 1 in
    each game; each row repeats its game's
    rules and outcome, so that a row can be read alone). Returns the number of rows written."""
    writer = csv.writer(stream)
    writer.writerow(MOVE_COLUMNS if moves else GAME_COLUMNS)
    rows = 0
    for g in games:
        rules = g.record["rules"]
        blank = int(rules.get("blank", False))  # colors counts the blank, which is the last colour
        size = [rules["pegs"], rules["colors"], int(rules["repeats"]), blank, rules["max_guesses"]]
        played = moves_of(g.record)
        end = [g.outcome, int(g.finished)]
        if not moves:
            writer.writerow([g.id, g.started, g.updated, g.kind, *size, len(played), *end])
            rows += 1
            continue
        number: dict[Any, int] = {}  # moves so far in each game (of a match)
        for move in played:
            game = move.get("game", "")
            number[game] = number.get(game, 0) + 1
            black, white = move["reply"].split(",")
            writer.writerow([g.id, g.kind, *size, game, number[game], move["guess"], black, white, *end])
            rows += 1
    return rows
