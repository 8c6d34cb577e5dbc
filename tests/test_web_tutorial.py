"""The first visit's short game that teaches the key pegs, in headless Chromium as a phone: offered
once, each reply put into words, skippable, never offered again on that browser."""

from __future__ import annotations

import pytest

pytest.importorskip("aiohttp", reason="the web extra (aiohttp) is not installed")
pytest.importorskip("websockets.sync.client", reason="websockets is not installed")

from test_web import DESKTOP, PHONE, browser, last_reply, server, wait_for  # noqa: E402, F401
from test_web_friends_page import Visitor, board_whole, single_game_peg  # noqa: E402

pytestmark = pytest.mark.slow


def test_a_first_visit_is_offered_a_short_game_that_puts_each_reply_into_words(server, browser):  # noqa: F811
    t = Visitor(browser, PHONE)
    try:
        t.open(server)
        assert not t.js("document.getElementById('tutorial-offer').hidden")
        # the offer leaves the board whole, the palette and Guess on the screen, the pegs about a
        # single game's (the row of New game under them may go below the fold meanwhile)
        assert board_whole(t) >= single_game_peg(browser, server, PHONE) - 1
        t.shot("tutorial-offer")
        t.tap("#tutorial-start")
        assert wait_for(lambda: t.text("#tutorial-text").startswith("Tap three colours"), 10)
        for symbol in "112":
            t.tap(f"#palette button:nth-child({symbol})")
        t.tap("#submit")
        black, white = last_reply(t, 1)
        text = t.text("#tutorial-text")
        assert text.startswith("Guess 1, 112: ") or text.endswith(
            "You broke the code! That is all there is to it."
        )
        if black and black < 3:
            assert f"{black} black key peg" in text and "right colour in the right place" in text
        if white:
            assert f"{white} white key peg" in text and "right colour in the wrong place" in text
        if not black and not white:
            assert "no key peg: none of these colours is in the code" in text
        assert t.overflow() == 0
        t.shot("tutorial-reply")
        t.tap("#tutorial-skip")
        assert t.js("document.getElementById('tutorial').hidden")
        t("Page.reload")
        assert wait_for(lambda: t.js("!!document.body && document.body.dataset.ready === 'true'"), 30)
        assert t.js("document.getElementById('tutorial-offer').hidden")  # never again
    finally:
        t.close()


def test_no_thanks_means_never_again(server, browser):  # noqa: F811
    t = Visitor(browser, DESKTOP)
    try:
        t.open(server)
        t.tap("#tutorial-no")
        assert t.js("document.getElementById('tutorial-offer').hidden")
        t("Page.reload")
        assert wait_for(lambda: t.js("!!document.body && document.body.dataset.ready === 'true'"), 30)
        assert t.js("document.getElementById('tutorial-offer').hidden")
    finally:
        t.close()
