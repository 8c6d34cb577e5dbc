"""The strategy interface: what the runner and the front ends ask of every strategy, answered the
same way by every strategy, and asked only through the interface and its capabilities."""

import ast
from pathlib import Path

import numpy as np
import pytest

import mastermind
from mastermind import STRATEGIES, Rules, SolverState, make_strategy
from mastermind.errors import StrategyError
from mastermind.research.runner.run import run_search
from mastermind.strategies import PartitionStrategy
from mastermind.strategies.base import Position, Strategy
from mastermind.strategies.capabilities import (
    LongWork,
    PositionKernels,
    TreeSearch,
    distributions_at,
    guesses_at,
    kernels_of,
    quick,
    search_cost,
    state_at,
    tree_at_hand,
    tree_search,
)
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
    assert guesses_at(strategy, positions, stop) == [
        strategy.choose(state_at(strategy, p)) for p in positions
    ]
    for position, got in zip(positions, distributions_at(strategy, positions, stop), strict=True):
        want: dict[int, int] = {}
        walk(strategy, state_at(strategy, position), position.depth, want, None)
        assert got == want
    assert not stop[0]


def test_only_a_strategy_that_searches_has_a_search_of_its_whole_tree():
    knuth = make_strategy("knuth", SMALL)
    assert tree_search(knuth) is None and quick(knuth) and not tree_at_hand(knuth)
    with pytest.raises(StrategyError, match="has no search of its whole tree"):
        run_search(knuth)
    optimal = make_strategy("optimal", SMALL, cache=False)
    search = tree_search(optimal)
    assert search is optimal and not tree_at_hand(optimal) and search.known_tree() is None
    searched = search.search_tree()
    assert searched.cost == 206 and optimal.tree_at_hand()  # 3 pegs 4 colours: 206 (RESULTS.md)
    assert searched.root.distribution() == mastermind.evaluate(optimal).distribution


def test_expected_guesses_where_a_strategy_knows_them():
    state = SolverState(SMALL).add("112", "1,0")
    assert make_strategy("knuth", SMALL).expected_guesses(state) is None
    optimal = make_strategy("optimal", SMALL, cache=False)
    node = optimal.node(state)
    assert optimal.expected_guesses(state) == node.cost / node.size


def test_the_compiled_kernels_are_a_property_of_the_instance():
    knuth = make_strategy("knuth", SMALL)
    assert kernels_of(knuth) is knuth
    assert kernels_of(make_strategy("knuth", SMALL, kernel="numpy")) is None
    assert kernels_of(make_strategy("six-guess", Rules())) is None
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


def test_the_base_class_is_pick_and_what_a_player_needs_the_runner_asks_a_capability():
    runner_hooks = {
        "compiled", "guesses_at", "distributions_at", "searches", "search_tree", "tree_at_hand",
        "quick", "search_cost", "prepare_pieces", "bounds", "known_tree", "state_at",
    }  # fmt: skip
    assert runner_hooks.isdisjoint(vars(Strategy))
    capable = {
        s.name: (isinstance(s, PositionKernels), isinstance(s, TreeSearch), isinstance(s, LongWork))
        for s in (make_strategy(name, Rules()) for name in ("knuth", "rollout", "optimal", "six-guess"))
    }
    assert capable == {
        "knuth": (True, False, False),
        "rollout": (False, False, True),
        "optimal": (False, True, True),
        "six-guess": (False, False, False),
    }


def test_a_strategy_without_long_work_is_quick_and_costs_nothing_to_announce():
    six = make_strategy("six-guess", Rules())
    assert quick(six) and search_cost(six) is None and search_cost(six, SolverState(Rules())) is None
    assert not quick(make_strategy("optimal", Rules(pegs=5, colors=8), cache=False))


def test_no_front_end_module_tests_a_strategy_by_its_name_or_casts_one_to_any():
    package = Path(mastermind.__file__).parent
    names = {s.name for s in STRATEGIES}
    found = []
    for path in sorted((package / "cli").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Compare)
                and isinstance(node.left, ast.Attribute)
                and node.left.attr == "name"
            ):
                for right in node.comparators:
                    if isinstance(right, ast.Constant) and right.value in names:
                        found.append(f"{path.name}:{node.lineno} .name compared with {right.value!r}")
            annotation = node.annotation if isinstance(node, ast.AnnAssign) else None
            if isinstance(annotation, ast.Name) and annotation.id == "Any" and node.value is not None:
                found.append(f"{path.name}:{node.lineno} a value cast to Any")
    assert found == []
