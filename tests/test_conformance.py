"""Every strategy solves every secret of small games, and the numpy and numba paths agree."""

import pickle

import pytest

from mastermind import (
    STRATEGIES,
    CodeSpace,
    Rules,
    SolverState,
    StrategyError,
    evaluate,
    make_strategy,
    play,
    score,
)
from mastermind.strategies import PartitionStrategy

#: Strategies for any game (six-guess plays only the classic game: tests/test_seed_strategies.py).
NAMES = [s.name for s in STRATEGIES if s.name != "six-guess"]
PARTITION = [s.name for s in STRATEGIES if issubclass(s, PartitionStrategy)]
DETERMINISTIC = [s.name for s in STRATEGIES if not s.randomized and s.name != "six-guess"]


@pytest.mark.parametrize("name", NAMES)
def test_every_secret_is_solved_within_the_limit(name, small_rules):
    strategy = make_strategy(name, small_rules)
    stats = evaluate(strategy, seed=0)
    assert stats.games == small_rules.size
    assert stats.lost == 0
    assert stats.max <= small_rules.max_guesses


@pytest.mark.parametrize("name", PARTITION)
def test_numpy_and_numba_paths_agree(name, small_rules):
    fast = evaluate(make_strategy(name, small_rules))
    slow = evaluate(make_strategy(name, small_rules, kernel="numpy"))
    assert fast.distribution == slow.distribution
    assert fast.first_guess == slow.first_guess


@pytest.mark.parametrize("name", [*DETERMINISTIC, "counter"])
def test_game_by_game_play_matches_the_tree(name, small_rules):
    options = {"tables": False} if name == "counter" else {}  # the counter in numeric order
    strategy = make_strategy(name, small_rules, **options)
    assert not strategy.randomized
    space = CodeSpace.of(small_rules)
    tree_stats = evaluate(strategy)
    by_game = {}
    for secret in range(space.size):
        guesses = play(strategy, secret)
        assert guesses[-1] == secret
        # every guess but the last got a reply that is not a win
        for g in guesses[:-1]:
            assert score(space.code(g).colors, space.code(secret).colors).black < small_rules.pegs
        by_game[len(guesses)] = by_game.get(len(guesses), 0) + 1
    assert dict(sorted(by_game.items())) == tree_stats.distribution


def test_unknown_options_are_refused():
    with pytest.raises(StrategyError, match="knuth has no option 'tables'"):
        make_strategy("knuth", Rules(), tables=False)
    with pytest.raises(StrategyError, match="must be a bool"):
        make_strategy("counter", Rules(), tables="no")


@pytest.mark.parametrize("name", [s.name for s in STRATEGIES if s.name != "six-guess"])
def test_a_spec_rebuilds_the_same_strategy_in_another_process(name, small_rules):
    options = {"tables": False} if name == "counter" else {}
    strategy = make_strategy(name, small_rules, first=1, **options)
    spec = pickle.loads(pickle.dumps(strategy.spec()))
    again = spec.build()
    assert again.spec() == strategy.spec()
    assert type(again) is type(strategy) and again.first == 1 and again.rules == small_rules
    assert again.settings == strategy.settings


def test_the_first_guess_override_applies_to_every_strategy(small_rules):
    for cls in STRATEGIES:
        if cls.name == "six-guess":
            continue
        last = small_rules.size - 1
        strategy = cls(small_rules, first=last)
        assert strategy.first_guess() == last
        assert strategy.choose(SolverState(small_rules)) == last
