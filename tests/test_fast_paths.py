"""The compiled search (symmetry, pruning, whole-tree evaluation) must not change one guess."""

import numpy as np
import pytest

from conftest import SMALL_GAMES
from mastermind import CodeSpace, Rules, evaluate, make_strategy, strategy_tree
from mastermind._kernels import feedback, tables
from mastermind.core.tree import Node

NAMES = ["knuth", "expected-size", "entropy", "most-parts"]

GAMES = [
    *SMALL_GAMES,
    Rules(pegs=3, colors=6, repeats=False),
    Rules(pegs=2, colors=17),  # 8 bits a peg
    Rules(pegs=5, colors=3),
    Rules(pegs=3, colors=7),
]


def same_tree(a: Node, b: Node) -> None:
    assert (a.guess, a.size) == (b.guess, b.size)
    assert a.children.keys() == b.children.keys()
    for f in a.children:
        same_tree(a.children[f], b.children[f])


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("rules", GAMES, ids=repr)
def test_every_guess_equals_the_reference(name, rules):
    fast = make_strategy(name, rules)
    slow = make_strategy(name, rules, kernel="numpy")
    same_tree(strategy_tree(fast), strategy_tree(slow))
    assert evaluate(fast).distribution == evaluate(slow).distribution


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_classic_tree_equals_the_reference(name):
    rules = Rules()
    same_tree(
        strategy_tree(make_strategy(name, rules)), strategy_tree(make_strategy(name, rules, kernel="numpy"))
    )


def test_without_the_shared_colour_table(monkeypatch):
    rules = Rules(pegs=3, colors=5)
    monkeypatch.setattr(tables, "SHARED_TABLE_LIMIT", 0)
    monkeypatch.setattr(tables, "_TABLES", {})
    assert tables.tables_of(CodeSpace.of(rules)).shared.shape == (0, 0)
    for name in NAMES:
        fast = evaluate(make_strategy(name, rules))
        slow = evaluate(make_strategy(name, rules, kernel="numpy"))
        assert fast.distribution == slow.distribution
    tables._TABLES.clear()


@pytest.mark.parametrize("rules", GAMES + [Rules()], ids=repr)
def test_packed_feedback_equals_the_reference(rules):
    from mastermind._kernels import reference

    space = CodeSpace.of(rules)
    t = tables.tables_of(space)
    everything = np.arange(space.size, dtype=np.int64)
    for g in range(0, space.size, max(1, space.size // 13)):
        got = feedback.replies(t, g, everything)
        assert (got == reference.feedback_against(space, g, everything)).all()


def test_first_guess_override_in_the_compiled_tree():
    rules = Rules()
    fast = evaluate(make_strategy("knuth", rules, first="1234"))
    slow = evaluate(make_strategy("knuth", rules, first="1234", kernel="numpy"))
    assert str(fast.first_guess) == "1234" and fast.distribution == slow.distribution


@pytest.mark.slow
def test_five_pegs_eight_colours_is_deterministic_and_equals_the_node_by_node_walk():
    """The parallel whole-tree evaluation (batches of subtrees on all cores) must give the same
    result every time, and the same as playing the compiled choice node by node in Python."""
    from mastermind import SolverState
    from mastermind.strategies.walk import walk as _walk

    rules = Rules(pegs=5, colors=8)
    strategy = make_strategy("most-parts", rules)
    first = evaluate(strategy).distribution
    again = evaluate(make_strategy("most-parts", rules)).distribution
    by_node: dict[int, int] = {}
    _walk(strategy, SolverState(rules), 1, by_node, None, guess=strategy.first_guess())
    assert first == again == dict(sorted(by_node.items()))
    assert sum(first.values()) == 32768
