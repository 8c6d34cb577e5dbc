"""The code of the day on the page, in headless Chromium at phone and desktop sizes: the button
starts the visitor's game of the day, a whole game is won by taps, the share text is shown with
no code in it and the Share button puts it on the clipboard (or the phone's share sheet).
``MASTERMIND_WEB_SHOT=DIR`` keeps the screenshots."""

from __future__ import annotations

import pytest

pytest.importorskip("aiohttp", reason="the web extra (aiohttp) is not installed")
pytest.importorskip("websockets.sync.client", reason="websockets is not installed")

from mastermind import CodeSpace, Rules, SolverState  # noqa: E402
from mastermind.strategies import make_strategy  # noqa: E402
from test_web import SIZES, browser, last_reply, server, tab, wait_for, won  # noqa: E402, F401

pytestmark = pytest.mark.slow


@SIZES
def test_the_code_of_the_day_is_won_by_taps_and_its_result_shared(server, browser, size):  # noqa: F811
    rules = Rules()
    knuth, state, space = make_strategy("knuth", rules), SolverState(rules), CodeSpace.of(rules)
    with tab(browser, size) as t:
        t.open(server)
        origin = t.js("location.origin")
        t(
            "Browser.grantPermissions",
            origin=origin,
            permissions=["clipboardReadWrite", "clipboardSanitizedWrite"],
        )
        assert t.js("document.getElementById('share').hidden")
        t.tap("#daily")
        assert wait_for(lambda: t.text("#title").startswith("The code of the day #"), 10)
        assert t.js("document.getElementById('daily').hidden")  # playing it: no second one to start
        t.shot("daily-start")
        row = 0
        guess = ""
        while not won(t):  # the moment of a win (js/ending.js)
            row += 1
            assert row <= 5, "Knuth's guesses break every classic code in 5"
            guess = str(space.code(knuth.choose(state)))
            for symbol in guess:
                t.tap(f"#palette button:nth-child({int(symbol)})")
            t.tap("#submit")
            state = state.add(guess, last_reply(t, row))
        text = t.text("#share-text")
        day = t.text("#title").split("#")[1].split(" ")[0]
        assert text.startswith(f"Mastermind #{day} {row}/10\n")
        assert text.endswith(f"\n{origin}/")
        assert text.count("\n") == row + 1  # a line per guess, the link
        assert guess not in text
        assert not t.js("document.getElementById('share').hidden")
        counted = "Codes of the day: played 1, won 1; 1 in a row (best 1)."
        assert wait_for(lambda: t.text("#daily-stats") == counted, 10)
        assert t.overflow() == 0
        t.tap("#share")
        note = wait_for(lambda: t.text("#share-note"), 10)
        assert note in ("Copied to the clipboard: paste it anywhere.", "Shared.")
        if note.startswith("Copied"):
            assert t.js("navigator.clipboard.readText()") == text
        t.shot("daily-shared")
        t.tap("#daily")  # the day's game again: the same one, finished
        assert t.text("#share-text") == text
