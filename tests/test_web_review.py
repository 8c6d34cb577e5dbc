"""The review's page in headless Chromium (the tab and server of test_web.py): accuracy and luck,
the chart whose points open their move, the ghost row, and practice from a mistake through taps
at 390x844 (a wrong try, a good try, the solution); and the practice route of the API.

A game opened with 1111 has a mistake at guess 1 for any secret: 1111 loses (6318 - 5625) / 1296
= 0.5347 guesses against 1123 (the review's book of openings; Koyama and Lai's optimum).
"""

from __future__ import annotations

import json

import pytest

pytest.importorskip("aiohttp", reason="the web extra (aiohttp) is not installed")
pytest.importorskip("websockets.sync.client", reason="websockets is not installed")

import test_web  # noqa: E402
from mastermind import CodeSpace, Rules, SolverState  # noqa: E402
from mastermind.games.accuracy import rounded  # noqa: E402
from mastermind.strategies import make_strategy  # noqa: E402
from test_web import DESKTOP, PHONE, tab, wait_for, win_with_knuth  # noqa: E402
from test_web_api import call, serve  # noqa: E402

server, browser = test_web.server, test_web.browser  # the page's fixtures: its server and its Chromium

SIZES = pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["1280x800", "390x844"])


def win_after_1111(t) -> list[str]:
    """A classic game won by keys: 1111 first, then Knuth's choice on the replies."""
    return win_with_knuth(t, first="1111")


def tap_code(t, code: str) -> None:
    for symbol in code:
        t.tap(f"#practice-palette button:nth-child({int(symbol)})")


@pytest.mark.slow
@SIZES
def test_the_review_page_shows_accuracy_luck_the_chart_and_practice_by_taps(server, browser, size):
    with tab(browser, size) as t:
        t.open(server)
        guesses = win_after_1111(t)
        t.tap("#review")
        assert wait_for(
            lambda: t.js("document.querySelectorAll('#review-moves li').length") == len(guesses), 60
        )
        game_id = int(t.text("#review-title").rsplit(" ", 1)[1])
        review = t.js(f"fetch('/api/games/{game_id}/review').then(r => r.json())")["review"]
        # (shown as the games package rounds, half up: Python's round() takes 48.5 to 48)
        assert t.text("#review-accuracy .score-value") == str(rounded(review["summary"]["accuracy"]))
        assert t.text("#review-luck .score-value") == str(rounded(review["summary"]["luck"]))
        assert t.text("#review-share-line") == review["summary"]["share"]
        # a move's comment where the games package calls it noteworthy, and only there
        shown = t.js(
            "[...document.querySelectorAll('#review-moves li')]"
            ".map(li => li.querySelector('.review-comment')?.textContent ?? null)"
        )
        assert shown == [m["comment"] if m["noteworthy"] else None for m in review["moves"]]
        assert shown[0].startswith("1111: mistake")
        # the chart: a point per guess, each with its verdict; a tap on one opens its move
        points = t.js(
            "[...document.querySelectorAll('#review-chart .chart-point')]"
            ".map(p => p.getAttribute('aria-label'))"
        )
        assert len(points) == len(guesses) and points[0].startswith("Guess 1: mistake")
        t.shot("review-chart")
        last = len(guesses)
        t.tap(f"#review-chart .chart-point[data-number='{last}']")
        assert t.js(f"document.getElementById('review-{last}').classList.contains('open')")
        assert t.js("document.activeElement.id") == f"review-{last}"
        # the ghost row of guess 1: the best guess, 1123 here, and how it would have split the codes
        ghost = t.text("#review-1 .ghost-row")
        assert (
            f"best {review['moves'][0]['best']}: " in ghost and "yours 1111: 5 classes, at most 625" in ghost
        )
        assert t.overflow() == 0
        t.shot("review-ghost")
        # practice: a wrong try, a good try, then the solution of the next position if there is one
        positions = review["practice"]
        assert positions[0]["number"] == 1 and positions[0]["played"] == "1111"
        t.tap("#practice-start")
        assert t.text("#practice-title") == f"Position 1 of {len(positions)}: guess 1"
        # the loss in the games package's words (positions[0]["loss_words"]), as the command line's
        facts = t.text("#practice-facts")
        assert "You played 1111 here: mistake (loss 0.5347). Find a better guess." in facts
        assert t.text("#practice-count") == f"Solved 0 of {len(positions)} position" + (
            "s" if len(positions) > 1 else ""
        )
        tap_code(t, "1111")
        t.tap("#practice-try")
        assert wait_for(lambda: "Not yet" in t.text("#practice-result"), 20), t.text("#practice-result")
        assert t.text("#practice-result").startswith("1111: mistake, 4.8750 guesses expected against 4.3403")
        t.shot("practice-wrong")
        tap_code(t, "1122")
        t.tap("#practice-try")
        assert wait_for(lambda: t.text("#practice-result").endswith("Solved."), 20), t.text(
            "#practice-result"
        )
        assert t.text("#practice-result").startswith("1122: good, 4.3997 guesses expected")
        assert t.text("#practice-count").startswith("Solved 1 of ")
        assert t.overflow() == 0
        t.shot("practice-solved")
        t.tap("#practice-next")
        if len(positions) == 1:  # done: practise again, and this time ask for the solution
            t.tap("#practice-start")
        t.tap("#practice-solution")
        shown = positions[1] if len(positions) > 1 else positions[0]
        assert (
            t.text("#practice-result")
            == f"The solution: {shown['best']}, {shown['best_expected']:.4f} guesses expected."
        )
        guess = t.js(
            "[...document.querySelectorAll('#practice-guess .peg')].map(p => p.textContent).join('')"
        )
        assert guess == shown["best"]
        assert t.text("#practice-count").startswith("Solved 1 of ")
        t.shot("practice-solution")
        targets = t.js(
            "[...document.querySelectorAll('#practice button')].filter(b => b.offsetParent !== null)"
            ".map(b => Math.min(b.offsetWidth, b.offsetHeight))"
        )
        assert min(targets) >= 44, targets


def test_the_practice_route_values_a_try_as_the_games_package_does(tmp_path):
    from mastermind import review

    async def scenario(app, client):
        game = await call(client, "POST", "/api/games", {"mode": "break"}, status=201)
        path = f"/api/games/{game['id']}"
        answer = await call(client, "POST", f"{path}/guesses", {"guess": "1111"})
        refused = await call(
            client, "POST", f"{path}/review/practice", {"number": 1, "guess": "1122"}, status=409
        )
        assert refused["error"]
        state = SolverState(Rules()).add("1111", answer["reply"])
        knuth, space = make_strategy("knuth", Rules()), CodeSpace.of(Rules())
        while not answer["finished"]:
            guess = str(space.code(knuth.choose(state)))
            answer = await call(client, "POST", f"{path}/guesses", {"guess": guess})
            state = state.add(guess, answer["reply"])
        got = (await call(client, "GET", f"{path}/review"))["review"]
        history = " ".join(f"{m['guess']}={m['reply']}" for m in answer["moves"])
        expected = review(history).practice()
        assert got["practice"][0]["number"] == 1 and len(got["practice"]) == len(expected.positions)
        tried = await call(client, "POST", f"{path}/review/practice", {"number": 1, "guess": "1122"})
        assert tried["attempt"] == json.loads(
            json.dumps(expected.attempt(expected.positions[0], "1122").to_dict(_notation()))
        )
        assert tried["attempt"]["accepted"] and tried["attempt"]["verdict"] == "good"
        wrong = await call(client, "POST", f"{path}/review/practice", {"number": 1, "guess": "1111"})
        assert not wrong["attempt"]["accepted"] and wrong["attempt"]["loss"] == round(693 / 1296, 6)
        bad = await call(client, "POST", f"{path}/review/practice", {"number": 1, "guess": "9"}, status=400)
        assert bad["error"]
        none = await call(
            client, "POST", f"{path}/review/practice", {"number": 99, "guess": "1122"}, status=409
        )
        assert "no position to practise" in none["error"]

    serve(tmp_path, scenario)


def _notation():
    from mastermind import Notation

    return Notation(Rules())


def test_a_finished_match_is_reviewed_both_sides_and_not_before(tmp_path):
    async def scenario(app, client):
        body = {"mode": "match", "players": ["knuth", "entropy"], "games": 2, "scoring": "standard"}
        match = await call(client, "POST", "/api/games", body, status=201)
        path = f"/api/games/{match['id']}"
        answer = await call(client, "GET", path)
        refused = await call(client, "GET", f"{path}/review", status=409)
        assert "not over" in refused["error"]
        while not answer["finished"]:
            answer = await call(client, "POST", f"{path}/advance")
        got = (await call(client, "GET", f"{path}/review"))["match"]
        assert [p["name"] for p in got["players"]] == ["knuth", "entropy"]
        assert [(g["number"], g["breaker"]) for g in got["games"]] == [(1, 2), (2, 1)]
        assert [len(g["review"]["moves"]) for g in got["games"]] == [r["guesses"] for r in answer["rounds"]]
        assert got["summary_lines"][0].startswith("Player 1 (knuth): ")
        assert all(m["comment"] for g in got["games"] for m in g["review"]["moves"])
        practice = await call(
            client, "POST", f"{path}/review/practice", {"number": 1, "guess": "1122"}, status=409
        )
        assert "not practised" in practice["error"]

    serve(tmp_path, scenario)


def test_what_has_a_review_and_practice_is_the_engines_rule_on_the_page_too(tmp_path):
    """The view, the history's list and the review's answer say what the page offers, by
    games.reviewable (the board's and the command line's rule): a game given up before its first
    guess has no review; one given up after a guess has, and practice; a finished match is
    reviewed, not practised."""

    async def scenario(app, client):
        empty = await call(client, "POST", "/api/games", {"mode": "break"}, status=201)
        path = f"/api/games/{empty['id']}"
        assert empty["reviewable"] is False  # not finished
        given = await call(client, "POST", f"{path}/give-up")
        assert given["finished"] and given["reviewable"] is False
        refused = await call(client, "GET", f"{path}/review", status=409)
        assert "given up before its first guess" in refused["error"]
        game = await call(client, "POST", "/api/games", {"mode": "break"}, status=201)
        gpath = f"/api/games/{game['id']}"
        await call(client, "POST", f"{gpath}/guesses", {"guess": "1111"})
        assert (await call(client, "POST", f"{gpath}/give-up"))["reviewable"] is True
        assert (await call(client, "GET", f"{gpath}/review"))["practisable"] is True
        body = {"mode": "match", "players": ["knuth", "entropy"], "games": 2}
        match = await call(client, "POST", "/api/games", body, status=201)
        while not match["finished"]:
            match = await call(client, "POST", f"/api/games/{match['id']}/advance")
        assert match["reviewable"] is True
        assert (await call(client, "GET", f"/api/games/{match['id']}/review"))["practisable"] is False
        listed = {g["id"]: g["reviewable"] for g in (await call(client, "GET", "/api/history"))["games"]}
        assert listed == {empty["id"]: False, game["id"]: True, match["id"]: True}

    serve(tmp_path, scenario)


@pytest.mark.slow
def test_a_match_of_the_history_is_reviewed_on_the_page_game_by_game(server, browser):
    with tab(browser, PHONE) as t:
        t.open(server)
        made = """(async () => {
            const post = (path, body) => fetch(path, {method: 'POST',
              headers: {'Content-Type': 'application/json'}, credentials: 'same-origin',
              body: JSON.stringify(body || {})}).then(r => r.json());
            let answer = await post('/api/games', {mode: 'match', players: ['knuth', 'entropy'], games: 2});
            const id = answer.id;
            while (!answer.finished) answer = await post(`/api/games/${id}/advance`);
            return id; })()"""
        match_id = t.js(made)
        t.tap(".tab[data-section='history-section']")
        button = f"#history button[aria-label='Review game {match_id}']"
        assert wait_for(lambda: t.js(f"!!document.querySelector({json.dumps(button)})"), 10)
        t.tap(button)
        assert wait_for(lambda: t.js("document.querySelectorAll('#review-games button').length") == 2, 60)
        assert t.text("#review-status").startswith(
            f"Match {match_id}, game 1, player 2 (entropy) breaking: won"
        )
        assert "Player 1 (knuth): " in t.text("#review-summary")
        assert not t.js("!!document.getElementById('practice-start')")  # a match's games are not practised
        t.tap("#review-games button:nth-child(2)")
        assert t.text("#review-status").startswith(
            f"Match {match_id}, game 2, player 1 (knuth) breaking: won"
        )
        assert (
            t.js("document.querySelector('#review-games button:nth-child(2)').getAttribute('aria-pressed')")
            == "true"
        )
        assert t.overflow() == 0
        t.shot("review-match")


@pytest.mark.slow
def test_a_match_played_out_on_the_board_opens_its_review_there(server, browser):
    """knuth against entropy, two games, on the page: once the match is over, Review (as for a
    game) opens the match's review, game by game."""
    with tab(browser, PHONE) as t:
        t.open(server)
        t.tap(".tab[data-section='settings-section']")
        assert wait_for(lambda: t.js("!!document.querySelector('#settings select[name=mode]')"), 10)
        for name, value in (("mode", "match"), ("player1", "knuth"), ("player2", "entropy")):
            t.js(f"document.querySelector('#settings select[name={name}]').value = '{value}'")
        t.js("document.querySelector('#settings [name=games]').value = '2'")
        t.tap("#settings button[type=submit]")

        def over() -> bool:
            if t.text("#submit") in ("Next game", "See the result"):  # a game held, then the match's end
                t.tap("#submit")
            return t.js("!document.getElementById('review').hidden")

        assert wait_for(over, 90)
        t.tap("#review")
        assert wait_for(lambda: t.js("document.querySelectorAll('#review-games button').length") == 2, 60)
        assert ", game 1, player 2 (entropy) breaking: " in t.text("#review-status")
