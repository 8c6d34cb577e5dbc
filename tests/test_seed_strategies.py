"""The strategies of seeds 003 and 004 (six-guess, counter) and the random baseline."""

import itertools
import json

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from mastermind import (
    CodeSpace,
    ContradictionError,
    Notation,
    Rules,
    SolverState,
    StrategyError,
    evaluate,
    make_strategy,
    play,
    score,
    smallest_contradiction,
)
from mastermind._kernels import skip_ahead as search
from mastermind.cli import cli
from mastermind.deduction.state import _smallest_contradiction_by_search
from mastermind.research.evaluation import sample_secrets

CLASSIC = Rules()
LETTERS = "abcdef"


def letters(space, index):
    return "".join(LETTERS[c] for c in space.code(index).colors)


# six-guess -------------------------------------------------------------------------------------


def test_six_guess_distribution_is_exactly_the_published_one():
    stats = evaluate(make_strategy("six-guess", CLASSIC))
    assert str(stats.first_guess) == "1234"
    assert stats.total == 6333
    assert stats.max == 6
    assert stats.distribution == {1: 1, 2: 1, 3: 1, 4: 351, 5: 729, 6: 213}


def test_six_guess_opening_is_fixed_even_when_the_secret_is_known():
    six = make_strategy("six-guess", CLASSIC)
    space = CodeSpace.of(CLASSIC)
    opening = ["abcd", "bcde", "cdef"]
    for secret, start in [
        ("abcd", opening[:1]),
        ("bcde", opening[:2]),
        ("cdef", opening),
        ("aaaa", opening),
        ("fffe", opening),
    ]:
        index = space.index([LETTERS.index(ch) for ch in secret])
        guesses = [letters(space, g) for g in play(six, index)]
        assert guesses[: len(start)] == start
        assert guesses[-1] == secret


def test_six_guess_plays_an_exception_on_guess_four():
    # Find a secret whose list for guess 4 starts with "acfb": guess 4 must then be "dcad".
    six = make_strategy("six-guess", CLASSIC)
    space = CodeSpace.of(CLASSIC)
    notation = Notation(CLASSIC)
    acfb = space.index([LETTERS.index(ch) for ch in "acfb"])
    seen = 0
    for secret in range(space.size):
        state = SolverState(CLASSIC)
        for text in ("abcd", "bcde", "cdef"):
            code = notation.parse_code(text)
            state = state.add(code, score(code.colors, space.code(secret).colors))
        cands = state.candidate_indices()
        if cands[np.argmin(six.rank[cands])] == acfb:
            assert letters(space, six.choose(state)) == "dcad"
            seen += 1
    assert seen > 0


@pytest.mark.parametrize("rules", [Rules(pegs=5), Rules(colors=7), Rules(repeats=False)], ids=repr)
def test_six_guess_refuses_other_games(rules):
    with pytest.raises(StrategyError, match="only for the classic game"):
        make_strategy("six-guess", rules)


# counter: exact results --------------------------------------------------------------------------


def test_counter_in_numeric_order_is_shapiro():
    stats = evaluate(make_strategy("counter", CLASSIC, tables=False))
    assert str(stats.first_guess) == "1111"
    assert stats.total == 7471
    assert stats.max == 9
    assert stats.distribution == {1: 1, 2: 4, 3: 25, 4: 108, 5: 305, 6: 602, 7: 196, 8: 49, 9: 6}


# counter: skip-ahead search against brute force -------------------------------------------------


def brute_first(rules, rows, table, start=None):
    """The first consistent code, walking every counter value in order."""
    start = tuple(start) if start is not None else (0,) * rules.pegs
    for digits in itertools.product(range(rules.colors), repeat=rules.pegs):
        if digits < start:
            continue
        code = tuple(int(table[k][d]) for k, d in enumerate(digits))
        if not rules.repeats and len(set(code)) < rules.pegs:
            continue
        if all(score(g, code) == fb for g, fb in rows):
            return code
    return None


SEARCH_GAMES = [
    Rules(pegs=2, colors=3),
    Rules(pegs=3, colors=4),
    Rules(pegs=4, colors=4),
    Rules(pegs=4, colors=5),
    Rules(pegs=3, colors=5, repeats=False),
    Rules(pegs=4, colors=6, repeats=False),
    Rules(pegs=1, colors=3),
    Rules(pegs=3, colors=8),  # many colours: most are "dead" for the search at some point
    Rules(pegs=5, colors=3),
]


@pytest.mark.parametrize("rules", SEARCH_GAMES, ids=repr)
@pytest.mark.parametrize("tables", [False, True])
def test_every_counter_guess_is_the_brute_force_first_consistent_code(rules, tables):
    space = CodeSpace.of(rules)
    counter = make_strategy("counter", rules, tables=tables)
    rng = np.random.default_rng(11)
    secrets = rng.choice(space.size, size=min(space.size, 12), replace=False)
    for secret in secrets:
        counter.new_game(np.random.default_rng([3, int(secret)]))
        state, truth = SolverState(rules), space.code(int(secret)).colors
        while True:
            guess = counter.choose(state)
            rows = [(c.colors, fb) for c, fb in state.history]
            assert space.code(guess).colors == brute_first(rules, rows, counter.table)
            if guess == secret:
                break
            code = space.code(guess)
            state = state.add(code, score(code.colors, truth))


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_search_kernel_matches_brute_force(data):
    pegs = data.draw(st.integers(1, 4), label="pegs")
    repeats = data.draw(st.booleans(), label="repeats")
    colors = data.draw(st.integers(max(2, pegs), 7 - pegs // 2), label="colors")
    rules = Rules(pegs=pegs, colors=colors, repeats=repeats)
    space = CodeSpace.of(rules)
    index = st.integers(0, space.size - 1)
    table = np.array([data.draw(st.permutations(range(colors))) for _ in range(pegs)], dtype=np.int64)
    rows = []
    for _ in range(data.draw(st.integers(0, 4), label="rows")):
        guess, secret = space.code(data.draw(index)), space.code(data.draw(index))
        rows.append((guess.colors, score(guess.colors, secret.colors)))  # may well contradict
    start = data.draw(st.none() | st.lists(st.integers(0, colors - 1), min_size=pegs, max_size=pegs))
    memo_after = data.draw(st.sampled_from([1, 3, search.MEMO_AFTER]), label="memo_after")
    got = search.find_first(pegs, colors, repeats, rows, table, start, memo_after)
    assert got == brute_first(rules, rows, table, start)


def test_remembering_failed_states_changes_no_answer():
    # Games too large for brute force: the search with its memory of failed states from the
    # first digit on must find what the search without it finds, lies in the replies included.
    rng = np.random.default_rng(5)
    for trial in range(60):
        repeats = trial % 2 == 1
        pegs = int(rng.integers(4, 9))
        colors = int(rng.integers(2 if repeats else pegs, 12))
        rules = Rules(pegs=pegs, colors=max(colors, 2), repeats=repeats)
        space = CodeSpace.of(rules)
        table = np.array([rng.permutation(rules.colors) for _ in range(pegs)], dtype=np.int64)
        secret = space.code(int(rng.integers(space.size))).colors
        rows = []
        while True:
            args = (pegs, rules.colors, repeats, rows, table)
            found = search.find_first(*args, memo_after=1)
            assert found == search.find_first(*args, memo_after=10**18)
            if found is None or found == secret:
                break
            black, white = score(found, secret)
            if rng.random() < 0.05:
                white = max(0, white - 1)  # the codemaker errs now and then
            rows.append((found, (black, white)))


# counter: big games, seeds, guess limit ---------------------------------------------------------


def test_counter_plays_games_too_large_to_enumerate():
    rules = Rules(pegs=10, colors=12, max_guesses=12)
    assert not CodeSpace.of(rules).enumerable
    counter = make_strategy("counter", rules)
    space = CodeSpace.of(rules)
    for secret in sample_secrets(rules, 3, seed=2):
        guesses = play(counter, int(secret), seed=2)
        assert guesses[-1] == secret
        truth = space.code(int(secret)).colors
        history = []
        for g in guesses:  # every guess fits the replies to the guesses before it
            code = space.code(g).colors
            assert all(score(h, code) == fb for h, fb in history)
            history.append((code, score(code, truth)))


def test_counter_is_reproducible_with_a_seed():
    rules = Rules(pegs=6, colors=9)
    counter = make_strategy("counter", rules)
    secrets = sample_secrets(rules, 30, seed=4)
    a = evaluate(counter, secrets, seed=4)
    b = evaluate(make_strategy("counter", rules), secrets, seed=4)
    assert a.distribution == b.distribution
    assert [play(counter, int(s), seed=9) for s in secrets[:5]] == [
        play(counter, int(s), seed=9) for s in secrets[:5]
    ]
    firsts = {play(counter, int(secrets[0]), seed=seed)[0] for seed in range(8)}
    assert len(firsts) > 1  # the tables differ from seed to seed


def test_counter_with_tables_is_randomized_and_without_is_not():
    assert make_strategy("counter", CLASSIC).randomized
    assert not make_strategy("counter", CLASSIC, tables=False).randomized
    assert evaluate(make_strategy("counter", CLASSIC), seed=1).first_guess is None


def test_lost_games_are_played_to_the_end_and_counted():
    rules = Rules(pegs=8, colors=10, max_guesses=7)
    stats = evaluate(make_strategy("counter", rules), sample_secrets(rules, 40, seed=1), seed=1)
    assert stats.sample and stats.games == 40
    assert stats.lost == sum(n for k, n in stats.distribution.items() if k > 7) > 0
    assert stats.to_dict()["lost"] == stats.lost


def test_enumerating_strategies_refuse_huge_games_and_name_the_counter():
    rules = Rules(pegs=8, colors=10)
    for name in ("knuth", "random"):
        with pytest.raises(StrategyError, match="strategies that can play it: counter"):
            make_strategy(name, rules)
    with pytest.raises(StrategyError, match="evaluate a sample of them"):
        evaluate(make_strategy("counter", rules))


def test_cli_evaluates_a_sample_of_a_large_game():
    args = ["evaluate", "--strategy", "counter", "--pegs", "8", "--colors", "10", "--sample", "100"]
    result = CliRunner().invoke(cli, [*args, "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert "a random sample of 100 of the 100,000,000 secrets (seed 1)" in result.stdout
    data = json.loads(CliRunner().invoke(cli, [*args, "--seed", "1", "--json"]).stdout)
    assert data["sample"] is True and data["games"] == 100 and data["seed"] == 1
    assert data["first_guess"] == "random"
    assert data["lost"] == sum(n for k, n in data["distribution"].items() if int(k) > 10)


# contradictions ---------------------------------------------------------------------------------


def test_counter_overflow_raises_the_solvers_contradiction():
    rows = Notation(CLASSIC).parse_history("1122=1,0 1344=0,1 3526=1,2 1344=2,0")
    counter = make_strategy("counter", CLASSIC, tables=False)
    with pytest.raises(ContradictionError, match=r"row 2 \(1344=0,1\), row 4 \(1344=2,0\)") as err:
        counter.choose(SolverState(CLASSIC, rows))
    assert err.value.rows == (1, 3)


BIG = Rules(pegs=10, colors=10)
# No 3s; exactly two 1s; exactly three 2s; but then 1111122222 must share 5 colours, not 3.
BIG_ROWS = "3333333333=0,0 1111111111=2,0 2222222222=3,0 1111122222=0,3"


def test_smallest_contradiction_in_a_game_too_large_to_enumerate():
    rows = Notation(BIG).parse_history(BIG_ROWS)
    assert not CodeSpace.of(BIG).enumerable
    assert smallest_contradiction(BIG, rows[:3]) is None
    assert smallest_contradiction(BIG, rows) == (1, 2, 3)
    single = Notation(BIG).parse_history("1111111111=0,1 3333333333=0,0")
    assert smallest_contradiction(BIG, single) == (0,)
    counter = make_strategy("counter", BIG)
    with pytest.raises(ContradictionError, match=r"row 2 \(1111111111=2,0\)") as err:
        counter.choose(SolverState(BIG, rows))
    assert err.value.rows == (1, 2, 3)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 1295), st.integers(0, 1295)), min_size=1, max_size=5))
def test_search_and_mask_paths_find_the_same_contradiction(pairs):
    space = CodeSpace.of(CLASSIC)
    rows = [(space.code(g), score(space.code(g).colors, space.code(s).colors)) for g, s in pairs]
    assert _smallest_contradiction_by_search(CLASSIC, rows) == smallest_contradiction(CLASSIC, rows)


# random -----------------------------------------------------------------------------------------


def test_random_plays_candidates_and_is_reproducible():
    rules = Rules(pegs=4, colors=5)
    space = CodeSpace.of(rules)
    rand = make_strategy("random", rules)
    assert rand.randomized
    for secret in range(0, space.size, 37):
        guesses = play(rand, secret, seed=5)
        assert guesses == play(rand, secret, seed=5)
        state = SolverState(rules)
        for g in guesses:
            assert g in set(state.candidate_indices().tolist())
            code = space.code(g)
            state = state.add(code, score(code.colors, space.code(secret).colors))
    a = evaluate(rand, seed=3)
    assert a.distribution == evaluate(make_strategy("random", rules), seed=3).distribution
    assert a.games == space.size and a.first_guess is None
