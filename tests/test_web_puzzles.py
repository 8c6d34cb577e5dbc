"""The puzzles' page in headless Chromium (the tab and server of test_web.py), by taps at 390x844
and clicks at 1280x800: a visitor with no game gets a puzzle of the optimal tree, a wrong try
moves their rating down as Elo's formula says, a good try solves it and moves nothing more, the
next puzzle's solution shows the best guess, the one after is solved by keys; every target is at
least 44 px.
"""

from __future__ import annotations

import re

import pytest

pytest.importorskip("aiohttp", reason="the web extra (aiohttp) is not installed")
pytest.importorskip("websockets.sync.client", reason="websockets is not installed")

import test_web  # noqa: E402
from mastermind import Notation, Rules  # noqa: E402
from mastermind.games.puzzles import rated, tree_puzzles  # noqa: E402
from test_puzzles import a_wrong_guess  # noqa: E402
from test_web import DESKTOP, PHONE, tab, wait_for  # noqa: E402

server, browser = test_web.server, test_web.browser  # the page's fixtures: its server and its Chromium

#: The code the page's try row shows.
PEGS = "[...document.querySelectorAll('#puzzle-guess .peg')].map(p => p.textContent).join('')"

SIZES = pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["1280x800", "390x844"])


def tap_code(t, code: str) -> None:
    for symbol in code:
        t.tap(f"#puzzle-palette button:nth-child({int(symbol)})")


def rating_on(t) -> int:
    return int(re.match(r"Your rating (\d+) · ", t.text("#puzzle-standing")).group(1))


def shown(t) -> dict:
    """The puzzle the page shows (the server serves it again until it is tried)."""
    return t.js("fetch('/api/puzzles/next').then(r => r.json())")


@pytest.mark.slow
@SIZES
def test_puzzles_by_taps_a_wrong_try_a_good_try_and_the_solution(server, browser, size):
    notation = Notation(Rules())
    by_id = {f"tree:{p.key}": p for p in tree_puzzles(Rules())}
    with tab(browser, size) as t:
        t.open(server)
        t.tap(".tab[data-section='puzzles-section']")
        assert wait_for(lambda: t.text("#puzzle-title").startswith("A puzzle from the optimal tree"), 30)
        answer = shown(t)
        puzzle, player = by_id[answer["puzzle"]["id"]], answer["player"]
        assert t.text(
            "#puzzle-title"
        ) == f"A puzzle from the optimal tree, rated {round(puzzle.rating)}: " + (
            f"guess {puzzle.position.number}"
        )
        assert t.text("#puzzle-standing").startswith(f"Your rating {player['rating']} · ")
        assert t.js("document.querySelectorAll('#puzzle-rows li').length") == len(puzzle.position.rows)
        t.shot("puzzle")
        small = t.js(
            "[...document.querySelectorAll('#puzzles-section button')].filter(b => b.offsetParent)"
            ".filter(b => { const r = b.getBoundingClientRect(); return r.width < 44 || r.height < 44; })"
            ".length"
        )
        assert small == 0 and t.overflow() == 0
        # a wrong try: said, and the rating down by Elo's formula (the page's figure, rounded)
        tap_code(t, a_wrong_guess(puzzle))
        t.tap("#puzzle-try")
        assert wait_for(lambda: "Not yet" in t.text("#puzzle-result"), 30)
        after = rating_on(t)
        assert abs(after - rated(player["rating"], puzzle.rating, False)) < 1  # from a rounded figure
        assert after < player["rating"] and t.text("#puzzle-result").endswith(
            f"Rating {player['rating']} -> {after} (the puzzle is rated {round(puzzle.rating)})."
        )  # the games package's words, the command line's too
        t.shot("puzzle-wrong")
        # a good try: solved, the rating unmoved (only the first try counts)
        tap_code(t, notation.format_code(puzzle.position.best))
        t.tap("#puzzle-try")
        assert wait_for(lambda: t.text("#puzzle-result").endswith("Solved."), 30)  # no rating moved
        assert t.js("document.getElementById('puzzle-next').hidden") is False
        assert t.text("#puzzle-standing").startswith(f"Your rating {after} · ")
        # the next puzzle, and its solution
        t.tap("#puzzle-next")
        assert wait_for(lambda: shown(t)["puzzle"]["id"] != answer["puzzle"]["id"], 30)
        second_id = shown(t)["puzzle"]["id"]
        second = by_id[second_id]
        t.tap("#puzzle-solution")
        best = notation.format_code(second.position.best)
        assert wait_for(lambda: t.text("#puzzle-result").startswith(f"The solution: {best}, "), 30)
        lower = round(rated(rated(player["rating"], puzzle.rating, False), second.rating, False))
        assert abs(lower - rating_on(t)) <= 1  # the server rates unrounded figures
        assert (
            t.js("[...document.querySelectorAll('#puzzle-guess .peg')].map(p => p.textContent).join('')")
            == best
        )
        t.shot("puzzle-solution")
        # by keys as well: the next puzzle's best guess typed (a wrong symbol taken back), Enter tries it
        t.tap("#puzzle-next")
        assert wait_for(lambda: shown(t)["puzzle"]["id"] != second_id, 30)
        third = by_id[shown(t)["puzzle"]["id"]]
        for key in ["1", "Backspace", *notation.format_code(third.position.best), "Enter"]:
            t.key(key)
        assert wait_for(lambda: "Solved. Rating " in t.text("#puzzle-result"), 30)  # a first try: rated
        assert t.js(PEGS) == notation.format_code(third.position.best)
