"""Hard mode: every guess a person makes must be one that could still be the secret. The rule is
the games package's (Game.check_hard), refused there in its words; the command line, the terminal
board's settings and the web API only turn it on."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from mastermind import Game, GameError, Rules
from mastermind.cli import cli
from mastermind.deduction.state import SolverState
from mastermind.errors import ContradictionError

SMALL = Rules(pegs=3, colors=4)


def test_a_guess_that_cannot_be_the_secret_is_refused_in_the_engines_words():
    game = Game.breaking(Rules(), seed=2026, hard=True)
    assert game.secret is not None and str(game.secret) != "1122"
    first = game.guess("1122")
    assert first is not None
    # every code that contradicts the first reply is refused, and the board is unchanged
    with pytest.raises(GameError, match=r"^hard mode: 3456 cannot be the secret: guess 1, 1122, got ") as err:
        game.guess("3456")
    assert "would have got 0 black, 0 white" in str(err.value)
    assert len(game.moves) == 1 and game.pending is None
    # a code still possible is played
    possible = SolverState(game.rules, game.history).candidates()[0]
    assert game.guess(possible) is not None and len(game.moves) == 2


def test_every_refusal_in_a_whole_game_is_exactly_a_code_that_is_no_longer_possible():
    game = Game.breaking(SMALL, seed=9, hard=True)
    normal = Game.breaking(SMALL, seed=9)
    space_codes = [f"{a}{b}{c}" for a in "1234" for b in "1234" for c in "1234"]
    game.guess("112")
    normal.guess("112")
    possible = {str(c) for c in SolverState(SMALL, game.history).candidates()}
    for code in space_codes:
        if code in possible:
            game.check_hard(code)  # no error
        else:
            with pytest.raises(GameError, match="hard mode: "):
                game.check_hard(code)
    assert len(possible) < len(space_codes)
    normal.check_hard("444")  # outside hard mode: nothing refused


def test_hard_mode_is_kept_in_the_record_and_a_game_without_it_keeps_its_old_record():
    game = Game.breaking(SMALL, seed=4, hard=True)
    game.guess("112")
    record = game.record()
    assert record["hard"] is True
    again = Game.from_record(record)
    assert again.hard and again.history == game.history
    assert "hard" not in Game.breaking(SMALL, seed=4).record()
    assert not Game.from_record(Game.breaking(SMALL, seed=4).record()).hard


def test_a_hint_in_hard_mode_is_a_guess_that_may_be_played():
    game = Game.breaking(Rules(), seed=31, hard=True)
    while not game.over:
        hint = game.hint()
        assert game.inconsistency(hint.guess) is None
        game.guess(hint.guess)
    assert game.outcome == "won"


def test_a_hint_in_hard_mode_says_the_code_is_hard_modes_not_the_strategys():
    # after 1122 got 1,1, knuth would play 1134, which cannot be the secret: the hint said
    # "knuth would play 1233", then "The code knuth would play cannot be the secret" (and the
    # short hint, "on the last guess, play 1233", on the second guess of ten)
    from mastermind.games.advice import advise

    game = Game.breaking(Rules(), seed=2026, hard=True)
    game.guess("1122")
    hint = game.hint()
    assert str(hint.passed_over) == "1134" and game.inconsistency(hint.guess) is None
    assert hint.lead == "in hard mode, play"
    lines = advise(game).lines(game.notation)
    assert lines[1].startswith(f"In hard mode, play {hint.guess}: it splits them into ")
    assert lines[2] == "The code knuth would play cannot be the secret."
    last = Game.breaking(Rules(max_guesses=2), seed=2026, hard=True)
    last.guess("1122")
    assert last.hint().lead == "on the last guess, play"  # the last guess says so, hard mode or not


def largest_class(guess, codes) -> int:
    """The most of ``codes`` that one reply to ``guess`` leaves (Knuth's minimax), by the
    specification of scoring."""
    from collections import Counter

    from mastermind.core.feedback import score

    return max(Counter(score(guess, secret) for secret in codes).values())


@pytest.mark.parametrize(
    "hard, max_guesses, lead", [(True, 10, "in hard mode, play"), (False, 2, "on the last guess, play")]
)
def test_a_hint_that_must_be_possible_is_the_strategys_best_possible_code(hard, max_guesses, lead):
    # after 1122 got 1 black, 1 white, 208 codes are possible and knuth would play 1134, which is
    # not one; among the 208, knuth's minimax leaves at most 39 after 1314 (the first of the least
    # in numeric order) and 45 after 1233, the first possible code, which the hint offered before
    game = Game.breaking(Rules(max_guesses=max_guesses), seed=2026, hard=hard)
    game.guess("1122")
    possible = SolverState(game.rules, game.history).candidates()
    sizes = {str(code): largest_class(code, possible) for code in possible}
    best = min(sizes.values())
    assert (len(possible), best, sizes["1233"]) == (208, 39, 45)
    first_best = next(code for code, size in sizes.items() if size == best)
    hint = game.hint()
    assert (str(hint.passed_over), str(hint.guess), first_best) == ("1134", "1314", "1314")
    assert str(hint) == f"208 codes possible; {lead} 1314"


def after_1123_got_two_black(strategy):
    """Seed 2's game after 1123 got 2 black: 105 codes possible, and the optimal next guess
    (1245) is not one of them."""
    game = Game.breaking(Rules(), seed=2, strategy=strategy, hard=True)
    game.guess("1123")
    assert str(game.moves[-1].reply) == "2,0"
    return game, SolverState(game.rules, game.history).candidates()


def test_optimals_hint_in_hard_mode_is_the_possible_code_that_costs_least():
    # the hint was the first possible code, 1111: of the 105, the one that costs most to play
    from mastermind.strategies.optimal.search import solve_position

    game, possible = after_1123_got_two_black("optimal")
    space, first = game.space, [game.space.index(game.moves[0].guess.colors)]
    indices = [space.index(code.colors) for code in possible]

    def cost(code):  # every secret left, this code played now, the best tree after it
        return solve_position(game.rules, indices, first, 9, first=space.index(code.colors)).cost

    costs = {str(code): cost(code) for code in possible}
    hint = game.hint()
    assert (len(possible), str(hint.passed_over), hint.lead) == (105, "1245", "in hard mode, play")
    assert (
        costs[str(hint.guess)] == min(costs.values()) == 344 and costs["1111"] == max(costs.values()) == 406
    )
    assert str(hint.guess) == min(code for code, c in costs.items() if c == 344)  # the least of the best


@pytest.mark.parametrize(
    "rules", [Rules(pegs=3, colors=4), Rules(pegs=3, colors=5), Rules(pegs=4, colors=4)], ids=repr
)
def test_optimals_possible_code_is_the_least_of_those_that_cost_least_in_every_position(rules):
    """Each possible code searched alone, against the strategy's choice, after each first guess
    class and reply that leave three codes or more (it searches each code after the best only
    below the best: a code that ties it, or one the history's symmetry maps to a lower code, is
    never taken for a lower one)."""
    from mastermind import make_strategy
    from mastermind.strategies.optimal.search import solve_position

    space, strategy = SolverState(rules).space, make_strategy("optimal", rules)
    replies = [
        (b, w) for b in range(rules.pegs) for w in range(rules.pegs + 1 - b) if (b, w) != (rules.pegs - 1, 1)
    ]
    for first in ("1" * rules.pegs, "1" * (rules.pegs - 1) + "2", "123" + "4" * (rules.pegs - 3)):
        for b, w in replies:
            state = SolverState(rules).add(first, f"{b},{w}")
            try:
                cands = state.candidate_indices()
            except ContradictionError:  # (a reply no secret gives)
                continue
            if len(cands) < 3:
                continue
            guesses = [space.index(code.colors) for code, _ in state.history]
            left = rules.max_guesses - 1
            costs = [(solve_position(rules, cands, guesses, left, first=x).cost, x) for x in cands.tolist()]
            assert strategy.pick_possible(state) == min(costs)[1], (first, b, w)


def test_the_six_guess_hint_in_hard_mode_is_the_first_possible_code_of_its_list():
    # its list: the fewest colours repeated first, then in alphabetical order (not 1111, the
    # first in numeric order, with the most repeated)
    game, possible = after_1123_got_two_black("six-guess")
    listed = min(possible, key=lambda code: (len(code.colors) - len(set(code.colors)), str(code)))
    hint = game.hint()
    assert str(hint.passed_over) == "2345" and hint.guess == listed and str(listed) == "1425"


def test_the_rollouts_hint_in_hard_mode_is_the_cheapest_of_its_criterias_possible_codes():
    from mastermind.strategies.optimal.search import solve_position

    game, possible = after_1123_got_two_black("rollout")
    state, rollout = SolverState(game.rules, game.history), game.player()
    chosen = {base.pick_possible(state) for base in rollout.bases}  # each criterion's own choice
    estimates = dict(rollout.estimates(state, possible=True))
    assert set(estimates) == chosen and chosen <= {game.space.index(code.colors) for code in possible}
    hint = game.hint()
    g = game.space.index(hint.guess.colors)
    assert str(hint.passed_over) == "1415" and estimates[g] == min(estimates.values())
    # the estimate is the total of trees that exist after it: no less than the best tree's
    indices = [game.space.index(code.colors) for code in possible]
    best = solve_position(game.rules, indices, [game.space.index(game.moves[0].guess.colors)], 9, first=g)
    assert best.cost <= estimates[g]


def test_a_strategy_breaking_is_never_held_to_hard_mode():
    game = Game(SMALL, secret="123", breaker="knuth", hard=True)
    while not game.over:
        game.guess(game.proposal())
    assert game.outcome == "won"


def secret_of(seed: int) -> str:
    result = CliRunner().invoke(
        cli,
        ["play", "--seed", str(seed), "--pegs", "3", "--colors", "4", "--max-guesses", "1"],
        input="quit\n",
    )
    return re.search(r"the code was (\w+)\.", result.stdout).group(1)


def test_mastermind_play_hard_refuses_in_the_engines_words_and_goes_on(tmp_path):
    secret = secret_of(5)
    first = "111" if secret.count("1") == 0 else "444" if secret.count("4") == 0 else None
    assert first is not None, secret  # a secret without one of the colours: the seed gives one
    # first: none of its colour, so a second guess with that colour cannot be the secret
    impossible = first[0] + secret[1:]
    typed = f"{first}\n{impossible}\n{secret}\n"
    db = tmp_path / "h.sqlite3"
    result = CliRunner().invoke(
        cli,
        ["play", "--seed", "5", "--pegs", "3", "--colors", "4", "--hard", "--db", str(db)],
        input=typed,
    )
    out = result.stdout
    assert "Traceback" not in result.output
    assert "Hard mode: every guess must be one that could still be the secret." in out
    refusal = f"Not allowed: hard mode: {impossible} cannot be the secret: guess 1, {first}, got 0 black"
    assert refusal in out
    assert "You broke the code in 2 guesses!" in out
    assert result.exit_code == 0


def test_the_api_takes_hard_at_creation_and_refuses_a_guess_409_in_the_engines_words(tmp_path):
    pytest.importorskip("aiohttp", reason="the web extra (aiohttp) is not installed")
    from test_web_api import call, serve

    async def scenario(app, client):
        game = await call(client, "POST", "/api/games", {"mode": "break", "hard": True}, status=201)
        assert game["hard"] is True and game["secret"] is None
        path = f"/api/games/{game['id']}/guesses"
        first = await call(client, "POST", path, {"guess": "1122"})
        if first["finished"]:
            return  # 1122 was the secret: nothing left to refuse (the seed is drawn)
        played = {1: "1", 2: "2"}
        unplayed = next(c for c in "3456" if c not in played.values())
        impossible = unplayed * 4 if first["black"] + first["white"] > 0 else "1111"
        refused = await call(client, "POST", path, {"guess": impossible}, status=409)
        words = f"hard mode: {impossible} cannot be the secret: guess 1, 1122, got "
        assert refused["error"].startswith(words)
        # a repeat, the page asking to be warned first: refused at once, not warned of
        again = await call(client, "POST", path, {"guess": "1122", "warn": True}, status=409)
        assert again["error"].startswith("hard mode: 1122 cannot be the secret: guess 1, 1122, got ")
        assert len((await call(client, "GET", f"/api/games/{game['id']}"))["moves"]) == 1
        easy = await call(client, "POST", "/api/games", {"mode": "break"}, status=201)
        assert easy["hard"] is False
        bad = await call(client, "POST", "/api/games", {"mode": "break", "hard": "yes"}, status=400)
        assert bad["error"] == "'hard' must be true or false, not \"yes\""

    serve(tmp_path, scenario)


def test_the_terminal_boards_setting_starts_a_game_in_hard_mode(private_settings):
    pytest.importorskip("textual", reason="the tui extra (textual) is not installed")
    import asyncio

    from mastermind.tui.app import MastermindApp
    from mastermind.tui.settings import SavedSettings
    from tui_pilot import board, settle

    async def scenario() -> None:
        app = MastermindApp(seed=1)
        async with app.run_test(size=(80, 30)) as pilot:
            await pilot.press("escape", "s")
            await pilot.pause()
            app.screen.query_one("#hard").value = True
            await pilot.click("#start")
            await settle(app, pilot)
            screen = board(app)
            assert screen.game.hard
            assert screen.sub_title.endswith(", hard")

    asyncio.run(scenario())
    assert SavedSettings.load(private_settings).hard


def test_a_match_in_hard_mode_holds_every_person_breaking_and_keeps_it_in_its_record():
    from mastermind import Match

    match = Match(SMALL, ["human", "human"], seed=1, hard=True)
    match.set_secret("123")
    match.guess("444")  # no 4 in the code
    with pytest.raises(GameError, match=r"^hard mode: 441 cannot be the secret: guess 1, 444, got 0 black"):
        match.guess("441")
    again = Match.from_record(match.record())  # read back (a restart): still in hard mode
    assert match.record()["hard"] is True and again.hard
    with pytest.raises(GameError, match=r"^hard mode: 441 cannot be"):
        again.guess("441")
    again.guess("123")  # game 1 broken; in game 2 the roles swap, and the rule holds still
    again.set_secret("111")
    again.guess("222")
    with pytest.raises(GameError, match=r"^hard mode: 221 cannot be the secret: guess 1, 222, got 0 black"):
        again.guess("221")
    assert "hard" not in Match(SMALL, ["human", "human"], seed=1).record()  # the record as it was
    assert not Match.from_record(Match(SMALL, ["human", "human"], seed=1).record()).hard
    computer = Match(SMALL, ["human", "knuth"], seed=1, hard=True)  # a strategy breaking: not held
    computer.set_secret("123")
    while computer.waiting_for == "computer":
        computer.advance()
    assert computer.rounds[0].game.outcome == "won"


def test_mastermind_match_hard_refuses_a_persons_guess_in_the_engines_words_and_goes_on():
    typed = "123\n444\n441\n123\n"  # the code, then guesses: 441 cannot be it after 444's reply
    result = CliRunner().invoke(
        cli, ["match", "--players", "human,human", "--pegs", "3", "--colors", "4", "--hard"], input=typed
    )
    assert "Traceback" not in result.output
    assert "Not allowed: hard mode: 441 cannot be the secret: guess 1, 444, got 0 black" in result.output
    assert "Game 1" in result.output and result.exit_code == 1  # the input ended in game 2: stopped


def test_the_api_makes_a_match_in_hard_mode_and_refuses_a_guess_409_in_the_engines_words(tmp_path):
    pytest.importorskip("aiohttp", reason="the web extra (aiohttp) is not installed")
    from test_web_api import call, serve

    async def scenario(app, host, friend):
        for players in (["human", "human"], ["human", "friend"]):
            match = await call(
                host, "POST", "/api/games", {"mode": "match", "players": players, "hard": True}, status=201
            )
            assert match["hard"] is True and match["players"] == ["human", "human"]
            breaker, number = host, match["id"]
            if "invite" in match:  # a friend's match: the friend breaks game 1, held to it too
                joined = await call(friend, "POST", f"/api/join/{match['invite'].removeprefix('/join/')}")
                breaker, number = friend, joined["id"]
            await call(host, "POST", f"/api/games/{match['id']}/secret", {"secret": "1234"})
            path = f"/api/games/{number}/guesses"
            await call(breaker, "POST", path, {"guess": "5566"})
            refused = await call(breaker, "POST", path, {"guess": "5555"}, status=409)
            assert refused["error"].startswith(
                "hard mode: 5555 cannot be the secret: guess 1, 5566, got 0 black"
            )
            again = await call(breaker, "GET", f"/api/games/{number}")
            assert [m["guess"] for m in again["game"]["moves"]] == ["5566"]
        easy = await call(
            host, "POST", "/api/games", {"mode": "match", "players": ["human", "human"]}, status=201
        )
        assert easy["hard"] is False
        bad = {"mode": "match", "players": ["human", "friend"], "hard": 1}
        refused = await call(host, "POST", "/api/games", bad, status=400)
        assert refused["error"] == "'hard' must be true or false, not 1"

    serve(tmp_path, scenario, visitors=2)
