"""Rollout over the greedy criteria: never worse than the best of them, never better than the optimum."""

from __future__ import annotations

import numpy as np
import pytest

from conftest import SMALL_GAMES
from mastermind import Rules, SolverState, StrategyError, make_strategy
from mastermind.strategies.optimal import search as opt
from mastermind.strategies.rollout import BASES
from mastermind.strategies.walk import guesses_per_secret

MORE = [Rules(pegs=5, colors=3), Rules(pegs=2, colors=6, blank=True)]
GAMES = [*(r for r in SMALL_GAMES if r.size > 2), *MORE]


def total(name: str, rules: Rules) -> int:
    return int(guesses_per_secret(make_strategy(name, rules)).sum())


@pytest.mark.parametrize("rules", GAMES, ids=repr)
def test_between_the_best_criterion_and_the_optimum(rules):
    rollout = total("rollout", rules)
    best_criterion = min(total(base.name, rules) for base in BASES)
    optimum = opt.solve_position(rules, np.arange(rules.size)).cost
    assert optimum <= rollout <= best_criterion


def test_the_classic_game_better_than_every_criterion():
    rules = Rules()
    rollout = total("rollout", rules)
    # most parts, the best of the four criteria (Kooi 2005), takes 5,668; the optimum 5,625
    assert total("most-parts", rules) == 5668
    assert 5625 < rollout < 5668


def test_each_estimate_is_a_tree_that_exists():
    """The estimate of the guess played is the cost of a tree the criteria finish, so the
    rollout's own tree below it costs no more."""
    rules = Rules(pegs=4, colors=4)
    strategy = make_strategy("rollout", rules)
    estimates = strategy.estimates(SolverState(rules))
    assert [e for _, e in estimates] == sorted(e for _, e in estimates)
    first, estimate = estimates[0]
    assert strategy.first_guess() == first
    assert total("rollout", rules) <= estimate
    tried = {base(rules).first_guess() for base in BASES}
    assert {g for g, _ in estimates} == tried


def test_a_position_after_a_reply():
    rules = Rules()
    state = SolverState(rules).add("1123", "1,1")
    strategy = make_strategy("rollout", rules)
    guess = strategy.choose(state)
    assert guess == strategy.estimates(state)[0][0]
    assert strategy.choose(state) == guess  # remembered, the same


def test_only_games_up_to_6x6_are_quick():
    assert make_strategy("rollout", Rules(pegs=6, colors=6)).quick()
    assert not make_strategy("rollout", Rules(pegs=6, colors=7)).quick()  # compare runs it only when named


def test_it_takes_no_option():
    with pytest.raises(StrategyError, match="rollout has no option 'width'; it takes none"):
        make_strategy("rollout", Rules(), width=2)


def test_a_long_rollout_is_announced_with_its_rough_cost():
    from mastermind.cli.common import long_search_note

    assert make_strategy("rollout", Rules(pegs=4, colors=6)).search_cost() is None  # seconds: no note
    big = make_strategy("rollout", Rules(pegs=6, colors=9))
    whole, choice = big.search_cost(), big.search_cost(SolverState(big.rules))
    assert whole is not None and choice is not None and choice.seconds < whole.seconds
    note = long_search_note(big, None, "", resumes=True)
    assert note is not None and note.startswith("rollout: the rollout of 531,441 codes: roughly ")
    assert "scaled from the rollouts measured in docs/results.md" in note and "resumes" in note
