"""The strategy interface: what the runner and the front ends ask of every strategy, answered the
same way by every strategy, and asked only through the interface."""

import ast
from pathlib import Path

import numpy as np
import pytest

import mastermind
from mastermind import STRATEGIES, Rules, SolverState, make_strategy
from mastermind.errors import StrategyError
from mastermind.strategies import PartitionStrategy
from mastermind.strategies.base import Position, Strategy
from mastermind.strategies.walk import walk

SMALL = Rules(pegs=3, colors=4)
OPTIONS = {"counter": {"tables": False}, "optimal": {"cache": False}}
DETERMINISTIC = [s.name for s in STRATEGIES if not s.randomized] + ["counter"]  # without tables


def _positions(strategy):
    """The root, and the positions after each reply to the first guess."""
    from mastermind._kernels import cells

    everything = np.arange(strategy.space.size, dtype=np.int64)
    first = strategy.first_guess()
    win = strategy.rules.pegs * (strategy.rules.pegs + 1)
    below = [
        Position(((first, f),), group) for f, group in cells(strategy.space, first, everything) if f != win
    ]
    return [Position((), everything), *below]


@pytest.mark.parametrize("name", DETERMINISTIC)
def test_every_strategy_answers_for_many_positions_as_its_walk_does(name):
    strategy = make_strategy(name, Rules() if name == "six-guess" else SMALL, **OPTIONS.get(name, {}))
    positions = _positions(strategy)
    stop = np.zeros(1, dtype=np.int64)
    assert strategy.guesses_at(positions, stop) == [strategy.choose(strategy.state_at(p)) for p in positions]
    for position, got in zip(positions, strategy.distributions_at(positions, stop), strict=True):
        want: dict[int, int] = {}
        walk(strategy, strategy.state_at(position), position.depth, want, None)
        assert got == want
    assert not stop[0]


def test_only_a_strategy_that_searches_has_a_search_of_its_whole_tree():
    knuth = make_strategy("knuth", SMALL)
    assert not knuth.searches and knuth.quick() and not knuth.tree_at_hand()
    with pytest.raises(StrategyError, match="has no search of its whole tree"):
        knuth.search_tree()
    optimal = make_strategy("optimal", SMALL, cache=False)
    assert optimal.searches and not optimal.tree_at_hand()
    searched = optimal.search_tree()
    assert searched.cost == 206 and optimal.tree_at_hand()  # 3 pegs 4 colours: 206 (RESULTS.md)
    assert searched.root.distribution() == mastermind.evaluate(optimal).distribution


def test_expected_guesses_where_a_strategy_knows_them():
    state = SolverState(SMALL).add("112", "1,0")
    assert make_strategy("knuth", SMALL).expected_guesses(state) is None
    optimal = make_strategy("optimal", SMALL, cache=False)
    node = optimal.node(state)
    assert optimal.expected_guesses(state) == node.cost / node.size


def test_the_compiled_kernels_are_a_property_of_the_instance():
    assert make_strategy("knuth", SMALL).compiled
    assert not make_strategy("knuth", SMALL, kernel="numpy").compiled
    assert not make_strategy("six-guess", Rules()).compiled
    assert (
        make_strategy("counter", SMALL).randomized
        and not make_strategy("counter", SMALL, tables=False).randomized
    )


def _concrete_names() -> set[str]:
    return {cls.__name__ for cls in [*STRATEGIES, PartitionStrategy]}


def _attributes() -> set[str]:
    names: set[str] = set()
    for cls in [Strategy, *STRATEGIES]:
        names |= {n for n in vars(cls) if not n.startswith("__")}
    return names | {"progress", "search_progress"}


def test_no_module_outside_the_strategies_tests_a_strategy_class_or_probes_one():
    package = Path(mastermind.__file__).parent
    concrete, attributes = _concrete_names(), _attributes()
    found = []
    for path in sorted(package.rglob("*.py")):
        if "strategies" in path.relative_to(package).parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            if node.func.id == "isinstance" and len(node.args) == 2:
                classes = node.args[1].elts if isinstance(node.args[1], ast.Tuple) else [node.args[1]]
                for cls in classes:
                    if isinstance(cls, ast.Name) and cls.id in concrete:
                        found.append(f"{path.name}:{node.lineno} isinstance(..., {cls.id})")
            name = node.args[1] if node.func.id == "hasattr" and len(node.args) == 2 else None
            if isinstance(name, ast.Constant) and name.value in attributes:
                found.append(f"{path.name}:{node.lineno} hasattr(..., {name.value!r})")
    assert found == []
