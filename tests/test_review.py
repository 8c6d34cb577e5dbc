"""The review of a game, move by move against the optimum (mastermind.review).

Published figures used here (Koyama and Lai, "An optimal Mastermind strategy", JRM 25, 1993): the
least total over the 1,296 classic secrets is 5625, with first guess 1123. The other totals are
taken from `mastermind evaluate -s optimal --first G`, run in the test, or from a brute-force
search written here, never typed in.
"""

import functools
import json
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from mastermind import Feedback, Game, Notation, Rules, SolverState, review, score
from mastermind.cli import cli
from mastermind.core.code import CodeSpace
from mastermind.errors import ContradictionError, GameError, RecordError
from mastermind.games import positions as positions_module
from mastermind.games import valuer as valuer_module

README_GAME = "1122=1,1 1344=1,1 1235=0,3 3312=0,2 2154=4,0"


def evaluate_total(*args):
    result = CliRunner().invoke(cli, ["evaluate", *args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["total"]


def test_the_classic_first_move_1123_is_the_optimum_5625_over_1296():
    r = review("1123=0,0")
    move = r.moves[0]
    assert move.expected == move.best_expected == Fraction(5625, 1296)
    assert round(float(move.expected), 4) == 4.3403
    assert (move.loss, move.verdict, move.exact) == (0, "best", True)
    assert r.optimal_expected == Fraction(5625, 1296)


@pytest.mark.parametrize("first", ["1122", "1234", "1111", "1112", "3456"])
def test_the_first_move_agrees_with_evaluate_optimal_first(first):
    reply = score(tuple(int(c) - 1 for c in first), (5, 5, 4, 4))
    r = review(f"{first}={reply.black},{reply.white}")  # first: the review searches on its own
    total = evaluate_total("-s", "optimal", "--first", first)
    assert r.moves[0].expected == Fraction(total, 1296)
    assert r.moves[0].best_expected == Fraction(5625, 1296)
    assert r.moves[0].loss == Fraction(total - 5625, 1296)


def brute_force_total(rules, codes, left):
    """The least total number of guesses over ``codes`` within ``left`` guesses: every guess of the
    game tried at every position (no pruning, no symmetry); None if no play finds them all."""
    space = CodeSpace.of(rules)
    win = rules.pegs * (rules.pegs + 1)
    everything = [space.code(i).colors for i in range(space.size)]

    @functools.cache
    def total(position, left):
        if left == 0:
            return None
        best = None
        for guess in everything:
            cells = {}
            for secret in position:
                cells.setdefault(score(guess, everything[secret]).to_int(rules.pegs), []).append(secret)
            if any(len(c) == len(position) for f, c in cells.items() if f != win):
                continue  # a guess that tells nothing
            parts = [total(tuple(c), left - 1) for f, c in cells.items() if f != win]
            if None in parts:
                continue
            value = len(position) + sum(parts)
            best = value if best is None else min(best, value)
        return best

    return total(tuple(int(c) for c in codes), left)


@pytest.mark.parametrize("rules", [Rules(pegs=2, colors=3), Rules(pegs=2, colors=4)], ids=repr)
def test_every_move_of_small_games_matches_a_brute_force_search(rules):
    space = CodeSpace.of(rules)
    rng = np.random.default_rng(5)
    for _ in range(6):
        secret = space.code(int(rng.integers(space.size)))
        game = Game.breaking(rules, seed=1)
        game.secret = secret
        while not game.over:
            game.guess(space.code(int(rng.integers(space.size))))
        r = review(game)
        codes = np.arange(space.size)
        for move in r.moves:
            left = rules.max_guesses - move.number + 1
            best = brute_force_total(rules, codes, left)
            assert move.within_limit == (best is not None)
            if best is None:  # no play finds every code in time: measured with more guesses
                left = len(codes) + 1
                best = brute_force_total(rules, codes, left)
            assert move.best_expected == Fraction(best, len(codes))
            replies = [score(move.guess.colors, space.code(int(c)).colors) for c in codes]
            cells = [
                [c for c, r in zip(codes, replies, strict=True) if r == f]
                for f in set(replies)
                if f.black != rules.pegs
            ]
            parts = [brute_force_total(rules, cell, left - 1) for cell in cells]
            expected = None if None in parts else Fraction(len(codes) + sum(parts), len(codes))
            assert move.expected == expected
            codes = np.array([c for c, r in zip(codes, replies, strict=True) if r == move.reply])


def test_a_move_after_which_the_code_was_known_and_not_played_is_marked():
    r = review("1122=1,1 1344=1,1 1235=0,3 3312=0,2 1111=1,0 2154=4,0")
    assert [m.known for m in r.moves] == [False, False, False, True, False, False]
    assert r.moves[3].after == 1 and r.moves[3].after_codes[0].colors == (1, 0, 4, 3)
    wasted = r.moves[4]  # 1111 when only 2154 was left: one guess more for certain
    assert (wasted.expected, wasted.best_expected, wasted.loss) == (2, 1, 1)
    assert wasted.verdict == "blunder" and not wasted.consistent
    assert r.summary()["known"] == 1


def test_the_readme_game_move_by_move():
    r = review(README_GAME)
    assert r.outcome == "won" and r.secret.colors == (1, 0, 4, 3)
    assert [m.before for m in r.moves] == [1296, 208, 34, 5, 1]
    assert [m.after for m in r.moves] == [208, 34, 5, 1, 1]
    first = r.moves[0]  # Knuth's 1122 against the optimum
    assert first.expected == Fraction(evaluate_total("-s", "optimal", "--first", "1122"), 1296)
    assert first.verdict == "good"
    assert r.moves[-1].verdict == "best" and r.moves[-1].expected == 1
    assert r.moves[3].after_codes is not None and r.moves[0].after_codes is None
    assert r.moves[0].bits == pytest.approx(np.log2(1296 / 208))
    assert sum(r.verdicts().values()) == 5


def test_the_json_form_has_the_fields_of_the_issue():
    data = review(README_GAME).to_dict()
    assert set(data) >= {"rules", "measure", "moves", "summary"}
    move = data["moves"][0]
    for key in (
        "guess",
        "reply",
        "before",
        "after",
        "consistent",
        "bits",
        "expected",
        "best",
        "best_expected",
        "loss",
        "verdict",
        "known",
        "exact",
    ):
        assert key in move
    assert (move["guess"], move["reply"], move["best"]) == ("1122", "1,1", "1123")
    assert move["expected"] == round(evaluate_total("-s", "optimal", "--first", "1122") / 1296, 6)
    assert move["best_expected"] == round(5625 / 1296, 6)
    assert data["summary"]["guesses"] == 5 and data["summary"]["outcome"] == "won"
    json.dumps(data)  # plain JSON types only


def test_codes_are_written_as_the_game_writes_them():
    rules = Rules(pegs=2, colors=10, repeats=False)  # ten digits: 0-9
    data = review("01=0,1 23=0,0 14=2,0", rules).to_dict()
    assert [m["guess"] for m in data["moves"]] == ["01", "23", "14"]
    left = SolverState(rules).add("01", "0,1").add("23", "0,0").candidates()
    assert data["secret"] == "14" and data["moves"][1]["after_codes"] == [f"{a}{b}" for a, b in left]
    assert data["moves"][1]["after_codes"][:2] == ["14", "15"]


def test_positions_off_the_tree_are_searched_once_and_kept_on_disk(monkeypatch):
    first = review("1111=0,0 2222=0,0")
    assert sum(m.searched for m in first.moves) > 0
    again = review("1111=0,0 2222=0,0")
    assert sum(m.searched for m in again.moves) == 0  # from memory
    monkeypatch.setattr(positions_module, "_POSITIONS", {})
    fresh = review("1111=0,0 2222=0,0")
    assert sum(m.searched for m in fresh.moves) == 0  # from the cache file
    assert fresh.moves == again.moves == first.moves


def test_the_heuristic_stands_in_when_the_budget_is_spent(monkeypatch):
    from mastermind import evaluate, make_strategy

    monkeypatch.setattr(valuer_module, "WHOLE_TREE", 0)
    rules = Rules(pegs=3, colors=5)  # 125 codes: more than a small position, which is always exact
    assert positions_module.SMALL < 125
    r = review("111=0,0", rules, budget=0)
    move = r.moves[0]
    assert not move.exact and not r.exact and r.measure()["heuristic"] == "expected-size"
    line = evaluate(make_strategy("expected-size", rules, first="111")).total
    own = evaluate(make_strategy("expected-size", rules)).total
    assert move.expected == Fraction(line, 125)
    assert move.best_expected == Fraction(min(line, own), 125)
    exact = review("111=0,0", rules, budget=None).moves[0]
    assert exact.exact and exact.expected <= move.expected


def test_the_budget_binds_in_small_games_too_the_whole_tree_search_included(monkeypatch):
    """No game is exact by its size alone: 10 pegs of 2 colours have 1,024 codes and a whole
    tree of many minutes. The search of the whole tree (a game without a cached tree, of at most
    WHOLE_TREE codes) gets the move's budget; where it runs out, the heuristic's line stands in."""
    from mastermind.strategies.optimal import search

    real = search.solve_position
    given = []

    def slow(*args, timeout=None, **kwargs):
        if timeout is None:  # loading the compiled search: not a position's search
            return real(*args, **kwargs)
        given.append((len(args[1]), timeout))
        raise TimeoutError("too slow")

    monkeypatch.setattr(search, "solve_position", slow)
    rules = Rules(pegs=3, colors=5)  # 125 codes: more than a small position, within WHOLE_TREE
    assert positions_module.SMALL < 125 <= valuer_module.WHOLE_TREE
    r = review("111=0,0", rules, budget=2)
    assert given and given[0][0] == 125 and 0 < given[0][1] <= 2  # the whole tree, within the budget
    assert not r.moves[0].exact and r.measure()["budget"] == 2
    assert "~" in r.moves[0].marks and "expected-size line" in " ".join(r.summary_lines())


def test_a_budget_of_0_values_a_small_game_by_the_heuristic_at_once():
    rules = Rules(pegs=3, colors=5)
    r = review("111=0,0", rules, budget=0)
    assert not r.moves[0].exact and r.optimal_expected == r.moves[0].best_expected
    assert review("111=0,0", rules).moves[0].exact  # the default budget: searched, exact


def test_the_search_stops_at_its_timeout():
    from mastermind.strategies.optimal.search import solve_position

    with pytest.raises(TimeoutError):
        solve_position(Rules(pegs=4, colors=7), np.arange(2401), timeout=0.01)


def test_a_guess_that_may_lose_the_game_has_no_finite_expected_number():
    rules = Rules(max_guesses=5)
    r = review("1111=0,0", rules)  # 625 codes of 5 colours are left, and 4 guesses: too few
    move = r.moves[0]
    assert move.best_expected == Fraction(evaluate_total("-s", "optimal", "--max-guesses", "5"), 1296)
    assert move.expected is None and move.loss is None and move.verdict == "blunder"
    assert r.total_loss is None and r.to_dict()["moves"][0]["expected"] is None


def test_a_position_past_saving_is_measured_beyond_the_limit():
    rules = Rules(pegs=2, colors=3, max_guesses=2)
    r = review("11=0,0 22=0,0", rules)  # 33 is left after two guesses: the game is lost
    first, second = r.moves
    assert first.within_limit is False and second.within_limit is False
    # 22, 23, 32, 33 were left for one guess: 23 or 22 then splits them 1 + 1 + 2, 8 guesses in all
    assert second.best_expected == second.expected == 2 and second.verdict == "best"
    assert not r.moves[1].known


def test_bad_histories_are_refused():
    with pytest.raises(ContradictionError):
        review("1122=1,0 1122=0,1")
    with pytest.raises(GameError, match="no guess follows a win"):
        review("1122=4,0 1234=0,1")
    with pytest.raises(GameError, match="more than the 2"):
        review("11=0,0 22=0,0 33=2,0", Rules(pegs=2, colors=3, max_guesses=2))


def test_an_unfinished_game_and_a_match_are_refused():
    game = Game.breaking(Rules(), seed=3)
    game.guess("1122")
    with pytest.raises(GameError, match="not finished"):
        review(game)
    with pytest.raises(RecordError, match="match"):
        review({"kind": "match", "version": 2})


def test_a_given_up_game_marks_the_code_known_and_not_played():
    game = Game.breaking(Rules(), seed=3)
    game.secret = secret = game.notation.parse_code("2154")
    for guess in ("1122", "1344", "1235", "3312"):
        game.guess(guess)
    assert game.candidates() == 1
    game.give_up()
    r = review(game)
    assert r.outcome == "gave-up" and r.secret == secret
    assert r.moves[-1].known and r.moves[-1].after_codes == (secret,)


def test_a_search_that_ran_out_of_time_is_not_tried_again_with_as_little(monkeypatch):
    from mastermind.strategies.optimal import search

    real = search.solve_position
    calls = []

    def slow(*args, timeout=None, **kwargs):
        if timeout is None:  # loading the compiled search: not a position's search
            return real(*args, **kwargs)
        calls.append(timeout)
        raise TimeoutError("too slow")

    monkeypatch.setattr(valuer_module, "WHOLE_TREE", 0)
    monkeypatch.setattr(search, "solve_position", slow)
    rules = Rules(pegs=3, colors=5)  # more codes than a small position (always exact)
    first = review("111=0,0", rules, budget=2)
    assert not first.moves[0].exact and len(calls) == 1
    monkeypatch.setattr(positions_module, "_POSITIONS", {})  # a new process: the cache file says so
    again = review("111=0,0", rules, budget=2)
    assert not again.moves[0].exact and len(calls) == 1
    review("111=0,0", rules, budget=5)  # more time: searched again
    assert len(calls) == 2


def random_positions(rules, count, seed, largest):
    """Positions of a few random guesses against a random secret, of 3 to ``largest`` codes, with
    the history that led there."""
    space = CodeSpace.of(rules)
    rng = np.random.default_rng(seed)
    found = []
    while len(found) < count:
        secret = space.code(int(rng.integers(space.size)))
        state, guesses = SolverState(rules), []
        for _ in range(4):
            guess = space.code(int(rng.integers(space.size)))
            state = state.add(guess, score(guess.colors, secret.colors))
            guesses.append(space.index(guess.colors))
            codes = np.array(state.candidate_indices(), dtype=np.int64)
            if 3 <= len(codes) <= largest:
                found.append((codes, list(guesses)))
    return found[:count]


@pytest.mark.parametrize(
    "rules",
    [Rules(), Rules(pegs=3, colors=5), Rules(pegs=4, colors=7), Rules(pegs=4, colors=6, repeats=False)],
    ids=repr,
)
def test_small_positions_solved_in_numpy_have_the_compiled_searchs_least_total(rules):
    from mastermind.strategies.optimal.search import solve_position

    small = positions_module.SmallPositions(rules)
    solved = 0
    for codes, guesses in random_positions(rules, 8, seed=11, largest=positions_module.SMALL):
        for left in (2, 3, 5):
            try:
                found = small.solve(codes, left)
            except positions_module.TooLarge:
                continue  # the compiled search's work, not this one's
            solved += 1
            sol = solve_position(rules, codes, guesses, left)
            assert (None if found is None else found[0]) == (None if sol is None else sol.cost)
            if found is not None:  # and its guess reaches that total
                assert solve_position(rules, codes, guesses, left, first=found[1]).cost == found[0]
    assert solved >= 12


def test_a_review_gives_the_same_values_whether_small_positions_are_solved_in_numpy_or_compiled(monkeypatch):
    history = "1122=1,1 1134=2,0 1235=0,3 1111=1,0 2154=4,0"
    numpy_side = review(history)
    monkeypatch.setattr(positions_module, "_POSITIONS", {})
    monkeypatch.setattr(positions_module, "SMALL", 0)  # every position to the compiled search
    compiled = review(history)
    values = [(m.expected, m.best_expected, m.loss, m.verdict) for m in numpy_side.moves]
    assert values == [(m.expected, m.best_expected, m.loss, m.verdict) for m in compiled.moves]
    assert [m.searched for m in numpy_side.moves] == [0] * 5  # the book and numpy: no search
    assert sum(m.searched for m in compiled.moves) > 0


def test_a_small_positions_search_that_runs_long_goes_the_same_way_whatever_was_searched_before():
    rules = Rules()
    codes = np.array(SolverState(rules).add("1234", "0,2").add("5611", "1,0").candidate_indices())
    assert len(codes) <= positions_module.SMALL
    warm = positions_module.SmallPositions(rules)
    found = warm.solve(codes, 5)  # its positions are all in this one's memo now
    cost = warm.memo[(codes.tobytes(), 5)][1]
    assert cost > 2

    def outcome(small, limit):
        small.limit = limit
        try:
            return small.solve(codes, 5)
        except positions_module.TooLarge:
            return "too large"

    for limit in (cost - 1, cost):  # just too few positions, and just enough
        cold = positions_module.SmallPositions(rules)
        assert outcome(cold, limit) == outcome(warm, limit) == ("too large" if limit < cost else found)


def test_the_book_of_openings_is_what_the_optimal_search_finds():
    from mastermind.games import openings

    shipped = json.loads(Path(openings.__file__).with_name(openings.BOOK).read_text())
    assert shipped == openings.build()
    assert shipped["total"] == 5625 and shipped["best"] == [0, 0, 1, 2]  # Koyama and Lai: 1123
    assert {tuple(o["guess"]): o["total"] for o in shipped["openings"]}[(0, 0, 1, 1)] == 5702  # Knuth's 1122


@pytest.mark.parametrize("first", ["6316", "2525", "4444", "5362"])
def test_every_first_guess_is_valued_by_its_pattern_and_its_best_replies_mapped_back(first):
    from mastermind.games.openings import openings_of
    from mastermind.strategies.optimal.search import solve_position
    from mastermind.strategies.optimal.strategy import Optimal

    rules = Rules()
    space = CodeSpace.of(rules)
    g = space.index(tuple(int(c) - 1 for c in first))
    total, cells = openings_of(rules).first(g)
    tree = Optimal(rules, first=g).decision_tree()  # the search itself, with this very guess
    assert total == tree.cost
    codes = np.arange(space.size)
    replies = np.array([score(space.code(g).colors, space.code(int(c)).colors).to_int(4) for c in codes])
    for f, (cost, best) in cells.items():
        assert cost == tree.children[f].cost
        cell = codes[replies == f]
        assert solve_position(rules, cell, [g], 9, first=best).cost == cost  # its guess reaches it


def test_a_classic_review_off_the_optimal_tree_loads_no_compiled_search(tmp_path):
    script = (
        "import sys; from mastermind._kernels import quick_start; quick_start(); "
        "from mastermind import review; "
        f"r = review({README_GAME!r}); "
        "assert all(m.exact for m in r.moves) and r.moves[0].best.colors == (0, 0, 1, 2); "
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'numba'))"
    )
    env = {**os.environ, "MASTERMIND_CACHE_DIR": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_4x7_book_agrees_with_the_optimal_tree_of_results():
    from mastermind.games import openings
    from mastermind.verify.tree import TreeFile

    rules = Rules(pegs=4, colors=7)
    shipped = json.loads(Path(openings.__file__).with_name(openings.BOOKS["4x7"][1]).read_text())
    tree = TreeFile.read(Path(__file__).parents[1] / "results" / "4x7-optimal.tree.gz")
    space = CodeSpace.of(rules)
    guesses = {}  # each secret's number of guesses in the tree, under the root's reply to it
    for i in range(space.size):
        secret, node, n = space.code(i).colors, tree.root, 1
        first = reply = score(node.guess, secret)
        while reply.black != 4:
            node, n = node.children[reply], n + 1
            reply = score(node.guess, secret)
        guesses.setdefault(first, []).append(n)
    assert shipped["total"] == tree.header["total"] == 11228  # docs/results.md
    assert tuple(shipped["best"]) == openings.pattern(tree.root.guess, 7)[0]
    optimal = next(o for o in shipped["openings"] if o["guess"] == shipped["best"])
    assert optimal["total"] == shipped["total"]
    for reply, cost, _ in optimal["cells"]:  # each reply's least total: the tree's, less the first guess
        found = guesses[Feedback.from_int(reply, 4)]
        assert cost == sum(found) - len(found)


def test_a_4x7_first_move_is_exact_from_the_book():
    rules = Rules(pegs=4, colors=7)
    move = review("1234=1,1", rules).moves[0]
    assert move.exact and move.searched == 0
    assert move.best_expected == Fraction(11228, 2401) and move.loss > 0  # 1234 is not the optimum


@pytest.mark.parametrize("won", [True, False])
def test_a_hint_and_a_review_at_the_last_allowed_guess_are_written(won):
    # guess 9 leaves two codes for one guess: its value is the best line's exact Fraction alone
    from mastermind.games.advice import advise

    game = Game.breaking(Rules(), seed=3)
    for guess in ("1111", "2222", "3333", "4444", "5555", "6666", "1212", "2121", "1221"):
        game.guess(guess)
    lines = advise(game).lines(game.notation)
    assert lines[-1] == (
        "Your last guess, 1221: blunder: some codes could no longer be found in time; "
        "3242 finds every one, 1.5000 guesses expected; it could not be the secret."
    )
    left = [game.notation.format_code(c) for c in SolverState(game.rules, game.history).candidates()]
    secret = game.notation.format_code(game.secret)
    game.guess(secret if won else next(c for c in left if c != secret))
    r = review(game)
    assert r.outcome == ("won" if won else "lost")
    assert "3242 finds every one, 1.5000" in r.moves[8].comment(game.notation)
    assert r.summary_lines()[0].startswith("10 guesses played; best play expects ")


def test_play_answers_a_hint_at_the_last_of_ten_guesses():
    script = "1111\n2222\n3333\n4444\n5555\n6666\n1212\n2121\n1221\nhint\n"
    result = CliRunner().invoke(cli, ["play", "--seed", "3", "--no-history"], input=script)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert "Your last guess, 1221: blunder" in result.output
    assert "3242 finds every one, 1.5000" in result.output


def test_a_hint_on_the_last_guess_offers_only_a_code_that_can_still_win():
    # with 3 guesses, 1122 and 3456 leave 48 codes; knuth would play 1156, which cannot be the secret
    from mastermind.games.advice import advise

    game = Game.breaking(Rules(max_guesses=3), seed=3)
    game.guess("1122"), game.guess("3456")
    assert game.player().choose(SolverState(game.rules, game.history)) == game.space.index(
        game.notation.parse_code("1156").colors
    )
    hint = game.hint()
    assert game.inconsistency(hint.guess) is None and str(hint.passed_over) == "1156"
    assert str(hint) == f"48 codes possible; on the last guess, play {hint.guess}"
    assert hint.note == "the code knuth would play cannot be the secret"
    advice = advise(game)
    lines = advice.lines(game.notation)
    assert lines[1:3] == [
        f"This is the last guess: play {hint.guess}, a code still possible, 1 chance in 48.",
        "The code knuth would play cannot be the secret.",
    ]
    assert not any("expected from here" in line for line in lines)
    assert "valued as if there were more guesses left" in lines[-1]  # guess 2, with 2 left
    data = advice.to_dict(game.notation)
    assert (data["expected"], data["best_expected"], data["guesses_left"]) == (None, None, 1)


def test_a_hint_tells_no_expected_guesses_past_the_guesses_left():
    from mastermind.games.advice import advise

    game = Game.breaking(Rules(max_guesses=4), seed=3)
    game.guess("1122"), game.guess("3456")
    hint = game.hint()
    assert str(hint.guess) == "1156" and hint.passed_over is None and hint.note == ""  # not the last
    lines = advise(game).lines(game.notation)
    assert lines[2] == "No play can be sure to find the code in the 2 guesses left."
    assert not any("expected from here" in line for line in lines)


def test_a_hint_on_the_last_guess_keeps_the_strategy_guess_that_can_win():
    game = Game.breaking(Rules(), seed=3)
    for guess in ("1111", "2222", "3333", "4444", "5555", "6666", "1212", "2121", "1221"):
        game.guess(guess)
    hint = game.hint()
    assert (str(hint.guess), hint.passed_over, hint.lead) == ("3242", None, "knuth would play")


def test_the_summary_counts_in_words_that_agree_and_says_when_the_loss_is_not_finite():
    assert review("1234=4,0").summary_lines()[:2] == [
        "1 guess played; best play expects 4.3403 from the first move.",
        "Total loss: 0.0370 guesses; 1 good.",
    ]
    lost = review("1111=1,0 2222=1,0 3333=1,0 4444=1,0 1234=0,4 2143=0,4", Rules(max_guesses=6))
    assert lost.summary_lines()[1] == (
        "Total loss: not finite, some codes could no longer be found in time; "
        "1 good, 1 inaccuracy, 1 mistake, 3 blunders."
    )


def test_a_winning_guess_says_it_won_and_what_it_was_worth():
    notation = Notation(Rules())
    moves = review("1122=0,0 1344=0,2 3456=4,0").moves
    assert moves[-1].verdict == "inaccuracy"
    assert moves[-1].comment(notation) == (
        "3456: won; inaccuracy in expectation, 2.8485 guesses expected; best 4535, 2.6364 (loss 0.2121)"
    )
    assert review("1234=4,0").moves[0].comment(notation).startswith("1234: won; good in expectation, ")
    assert not moves[0].comment(notation).startswith("1122: won")


# -- accuracy and luck (games/accuracy.py) ---------------------------------------------------------


def test_best_play_has_an_accuracy_of_100():
    r = review("1123=0,0")  # the optimum's first guess (Koyama and Lai)
    assert r.moves[0].accuracy == 100.0 and r.accuracy == 100.0


def test_accuracy_halves_with_every_three_tenths_of_a_guess_lost():
    from mastermind.games.accuracy import accuracy

    assert [accuracy(x) for x in (0, 0.3, 0.6, 0.9)] == [100.0, 50.0, 25.0, 12.5]
    assert accuracy(None) == 0.0
    # the verdicts' bounds: good above 100 * 2 ** (-1/3), an inaccuracy above 50, a mistake above 25
    assert accuracy(0.1) == pytest.approx(100 * 2 ** (-1 / 3))


def test_a_blunders_accuracy_is_below_a_mistakes():
    # 1111 first loses (6318 - 5625) / 1296 = 0.5347 guesses: a mistake; 1111 when only 2154 was
    # left loses exactly 1: a blunder
    mistake = review("1111=0,0").moves[0]
    blunder = review("1122=1,1 1344=1,1 1235=0,3 3312=0,2 1111=1,0 2154=4,0").moves[4]
    assert (mistake.verdict, blunder.verdict) == ("mistake", "blunder")
    assert mistake.loss == Fraction(6318 - 5625, 1296) and blunder.loss == 1
    assert mistake.accuracy == pytest.approx(100 * 2 ** (-(693 / 1296) / 0.3))
    assert blunder.accuracy == pytest.approx(100 * 2 ** (-10 / 3))
    assert blunder.accuracy < mistake.accuracy < 50


def test_each_verdict_has_its_own_band_of_accuracy():
    r = review("1111=0,0 2222=0,0 3333=1,0 3444=2,0 3455=3,0 1234=0,2 3456=4,0")
    assert {m.verdict for m in r.moves} == {"best", "inaccuracy", "mistake", "blunder"}
    bands = {"best": (100, 100), "good": (79.37, 100), "inaccuracy": (50, 79.37), "mistake": (25, 50)}
    for m in r.moves:
        low, high = bands.get(m.verdict, (0, 25))
        assert low <= m.accuracy <= high, (m.number, m.verdict, m.accuracy)
    assert r.accuracy == pytest.approx(sum(m.accuracy for m in r.moves) / len(r.moves))


def test_luck_by_hand_in_a_game_of_two_pegs_and_three_colours():
    # 12 splits the 9 codes by reply into 2,0 {12}; 0,2 {21}; 1,0 {11 22 13 32}; 0,1 {31 23};
    # 0,0 {33}: it leaves (1 + 1 + 16 + 4 + 1) / 9 = 23/9 codes on average; 0,0 left 1
    rules = Rules(pegs=2, colors=3)
    r = review("12=0,0 33=2,0", rules)
    first, last = r.moves
    assert first.split == (4, 2, 1, 1, 1) and first.mean_left == pytest.approx(23 / 9)
    assert first.luck == pytest.approx(100 * (23 / 9) / (23 / 9 + 1)) == pytest.approx(71.875)
    assert last.luck == 50.0  # one code left: the guess cannot split it, no luck either way
    assert r.luck == pytest.approx((71.875 + 50) / 2)


def test_a_reply_leaving_fewer_codes_than_the_guess_leaves_on_average_is_lucky():
    r = review(README_GAME)
    for m in r.moves:
        if m.after < m.mean_left:
            assert m.luck > 50
        elif m.after > m.mean_left:
            assert m.luck < 50
        else:
            assert m.luck == 50


def test_a_game_won_by_luck_reads_apart_from_one_won_by_skill():
    lucky = review("1123=0,0 4456=3,0 4455=4,0")  # 4455 among 8 codes: it won, against the odds
    skilled = review(README_GAME)
    assert lucky.moves[2].verdict == "inaccuracy" and lucky.moves[2].luck > 70
    assert lucky.luck > 60 > 50 > skilled.luck and skilled.accuracy > lucky.accuracy


def test_the_json_has_accuracy_luck_and_the_share_line():
    data = review("12=0,0 33=2,0", Rules(pegs=2, colors=3)).to_dict()
    first = data["moves"][0]
    assert (first["luck"], first["mean_left"], first["parts"], first["largest"]) == (71.88, 2.555556, 5, 4)
    assert first["accuracy"] == 100.0 and first["best_parts"] >= 1
    assert data["summary"]["luck"] == pytest.approx(60.94, abs=0.01)
    share = "Mastermind 2x3: won in 2 (best play 2.33) · accuracy 100 · luck 61 · ★ ★"
    assert data["summary"]["share"] == share


# -- practice from your mistakes (games/practice.py) -------------------------------------------

PRACTICE_GAME = "1111=0,0 2222=0,0 3333=1,0 3444=2,0 3455=3,0 1234=0,2 3456=4,0"


def test_practice_is_the_positions_before_each_mistake_and_blunder():
    r = review(PRACTICE_GAME)
    practice = r.practice()
    assert [p.number for p in practice.positions] == [1, 2, 3, 6]
    assert [p.verdict for p in practice.positions] == ["mistake", "mistake", "mistake", "blunder"]
    last = practice.positions[-1]
    assert [str(g) for g, _ in last.rows] == ["1111", "2222", "3333", "3444", "3455"]
    assert last.count == 2 and {str(c) for c in last.codes} == {"3456", "3465"}
    assert practice.solved == set()


def test_a_try_is_valued_as_the_review_values_a_move_and_accepted_within_the_margin():
    from mastermind.games.practice import MARGIN

    practice = review(PRACTICE_GAME).practice()
    first, *_, last = practice.positions
    knuth = practice.attempt(first, "1122")  # as the review values 1122 first (tested against evaluate)
    assert knuth.expected == review("1122=1,1").moves[0].expected
    assert knuth.loss == knuth.expected - Fraction(5625, 1296) < MARGIN
    assert knuth.accepted and knuth.verdict == "good" and practice.solved == {1}
    again = practice.attempt(last, "1234")  # two codes left and neither played: 1 + 3/2 guesses
    assert (again.expected, again.loss, again.verdict) == (Fraction(5, 2), 1, "blunder")
    assert not again.accepted
    assert practice.solved == {1}
    best = practice.attempt(last, last.best)
    assert best.loss == 0 and best.accuracy == 100.0 and practice.solved == {1, 6}
    words = best.words(Notation(Rules()))
    assert words == f"{last.best}: best, 1.5000 guesses expected; accuracy 100. Solved."


def test_a_try_that_is_no_code_of_the_game_is_refused():
    from mastermind.errors import NotationError

    practice = review(PRACTICE_GAME).practice()
    with pytest.raises(NotationError):
        practice.attempt(practice.positions[0], "1187")
    assert practice.solved == set()


def test_a_game_without_mistakes_has_nothing_to_practise():
    assert review(README_GAME).practice().positions == ()


# -- every game reviewed: the computer's, and both sides of a match -----------------------------------


def test_a_game_the_computer_breaks_is_reviewed_its_guesses_valued():
    game = Game.solving(Rules(), "knuth", secret="2154")
    while game.waiting_for == "computer":
        game.guess(game.proposal())
    r = review(game)
    assert r.outcome == "won" and [str(m.guess) for m in r.moves] == [str(m.guess) for m in game.moves]
    assert str(r.moves[0].guess) == "1122" and r.moves[0].loss == Fraction(77, 1296)  # Knuth's first guess
    assert r.moves[-1].verdict == "best" and 0 < r.accuracy <= 100


def test_both_sides_of_a_match_are_reviewed_and_each_players_play_summed_up():
    from mastermind.games.match import Match
    from mastermind.games.match_review import review_match

    match = Match(Rules(), ["knuth", "entropy"], games=2, seed=1)
    match.play_out()
    result = review_match(match)
    assert [(g.number, g.breaker) for g in result.games] == [(1, 2), (2, 1)]
    for g, played in zip(result.games, match.rounds, strict=True):
        assert [m.guess for m in g.review.moves] == [m.guess for m in played.game.moves]
    knuth, entropy = result.player(1), result.player(2)
    assert (knuth["name"], entropy["name"]) == ("knuth", "entropy")
    assert knuth["accuracy"] == round(result.games[1].review.accuracy, 2)
    assert entropy["guesses"] == len(result.games[0].review.moves)
    assert json.loads(json.dumps(result.to_dict()))["players"][0]["name"] == "knuth"
    with pytest.raises(RecordError):
        review_match(match.record()["games"][0]["game"])


# -- puzzles (games/puzzles.py) ----------------------------------------------------------------------


def test_puzzle_and_player_ratings_by_hand():
    from mastermind.games.puzzles import expected_score, puzzle_rating, rated

    assert puzzle_rating(2, 1) == pytest.approx(1500 + 400 * np.log10(1.5 / 1.5)) == 1500
    assert puzzle_rating(2, 2) == pytest.approx(1500 + 400 * np.log10(0.2))  # 10 ** -0.699: 1 to 5
    assert expected_score(1500, puzzle_rating(2, 2)) == pytest.approx(5 / 6)
    assert rated(1500, 1500, True) == 1516 and rated(1500, 1500, False) == 1484


def test_a_puzzle_is_rated_by_the_possible_codes_it_accepts_and_the_first_try_moves_the_rating(tmp_path):
    from mastermind.games.puzzles import START, PuzzleSession, puzzles_of
    from mastermind.history.puzzle_ratings import LocalStanding

    puzzles = list(puzzles_of(review(PRACTICE_GAME), 1))  # positions of at most 64 codes: the last one
    [puzzle] = puzzles
    assert puzzle.position.number == 6 and puzzle.accepted == 2  # 3456 and 3465 both expect 1.5
    kept = LocalStanding(tmp_path / "history.sqlite3", START)
    session = PuzzleSession(puzzles, kept.load(), Notation(Rules()), keep=kept.save)
    list(session.start())
    said = [str(o) for o in session.answer("1234")]
    assert (
        said[0].startswith("1234: blunder") and said[1] == "Rating 1500 -> 1473 (the puzzle is rated 1220)."
    )
    assert kept.load().rating == pytest.approx(1500 - 32 * 5 / 6, abs=0.01)
    said = [str(o) for o in session.answer("3465")]
    assert said[0].endswith("Solved.") and not any(s.startswith("Rating") for s in said)  # only the first try
    # solved, though not at the first try: not counted solved; every puzzle played, round again
    assert said[1] == "A puzzle from your games, rated 1220: guess 6."
    assert [str(o) for o in session.answer("quit")] == [
        "Your rating 1473 · 1 puzzle, 0 solved at the first try."
    ]
    assert (kept.load().puzzles, kept.load().solved, kept.load().done) == (1, 0, [])


def test_the_line_to_share_names_bulls_and_cows_as_the_game_speaks_of_it():
    bulls = review("012=0,3 120=3,0", Rules(pegs=3, colors=10, repeats=False))
    assert bulls.share_line().startswith("Bulls and Cows 3x10: won in 2 (best play ")
    assert bulls.to_dict()["summary"]["share"] == bulls.share_line()
    letters = Notation(bulls.rules, "letters")  # colours a-j: Mastermind's words, its name
    assert bulls.to_dict(letters)["summary"]["share"].startswith("Mastermind 3x10 no repeats: won in 2 ")


def test_a_review_with_no_move_shares_no_accuracy_nor_luck():
    assert review("").share_line() == "Mastermind 4x6: 0 guesses"  # not 'accuracy None · luck None · '


def test_a_hint_played_says_whose_hint_it_was_and_what_that_strategy_aims_at():
    # Knuth's hint 1122 loses 77/1296 against 1123: the review says why a hint taken can lose
    game = Game.breaking(Rules(), seed=2)
    game.secret = game.notation.parse_code("1422")
    hint = game.hint()
    game.guess(hint.guess)
    game.hint()  # asked, then not played: not the hint's move
    game.guess("1415")
    game.guess("1422")
    r = review(Game.from_record(game.record()))  # (the record keeps the hints)
    first, second, won = r.moves
    assert str(first.guess) == "1122" and first.hinted == "knuth" and first.verdict == "good"
    assert first.comment(game.notation).endswith(
        "; it was the hint of knuth, whose aim is minimax: smallest worst-case number of candidates "
        "left (Knuth 1977)"
    )
    assert first.to_dict(game.notation)["hinted"] == "knuth" and first.marks == "h"
    assert second.hinted is None and "hint" not in second.comment(game.notation)
    assert won.hinted is None and "hinted" not in won.to_dict(game.notation)
    assert "; h the hint of knuth, whose aim is minimax" in (r.marks_legend() or "")
    assert review("1122=3,0 1415=2,0 1422=4,0").moves[0].hinted is None  # a bare history: no hints


def test_a_move_is_noteworthy_below_good_or_impossible_or_past_a_known_code():
    # the rule the terminal board and the web page each wrote for themselves, and differently:
    # the board left out 3345, good but impossible, which the page commented on
    game = Game.breaking(Rules(), seed=1)
    game.secret = game.notation.parse_code("3632")
    for guess in ("1122", "3345", "1234", "6666", "3632"):
        game.guess(guess)
    r = review(game)
    words = [(m.verdict, m.consistent, m.known, m.noteworthy) for m in r.moves]
    assert words[1] == ("good", False, False, True)
    assert [n for *_, n in words] == [False, True, True, True, False]
    assert r.moves[1].to_dict(game.notation)["noteworthy"] is True
    known = Game.breaking(Rules(), seed=3)  # the code known after 3312, and given up
    known.secret = known.notation.parse_code("2154")
    for guess in ("1122", "1344", "1235", "3312"):
        known.guess(guess)
    known.give_up()
    assert [m.noteworthy for m in review(known).moves][-1] is True


def test_a_hint_keeps_to_its_budget_in_a_small_game():
    """A hint is valued as a review's move is: within its budget (here none), by the heuristic's
    line, said so, in a game small enough that its size once made it always exact."""
    from mastermind.games.advice import advise

    game = Game.breaking(Rules(pegs=4, colors=4), seed=1)
    game.secret = game.notation.parse_code("2222")
    game.guess("1111")  # 0 black, 0 white: 81 codes left, more than a small position
    advice = advise(game, budget=0)
    assert advice.count == 81 > positions_module.SMALL
    assert not advice.exact and not advice.last.exact
    assert any("(expected-size line)" in line for line in advice.lines(game.notation))
