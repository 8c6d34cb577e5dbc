"""Exact results from the literature: every number must match to the last guess.

Knuth, "The Computer as Master Mind", J. Recreational Mathematics 9 (1976-77): minimax, first guess
1122, 5801 guesses in all, at most 5. Irving, J. Recreational Mathematics 11 (1978-79): expected
size. Neuwirth, Zeitschrift fur Operations Research 26 (1982): entropy. Kooi, "Yet another Mastermind
strategy", ICGA Journal 28 (2005): most parts. Totals count the final winning guess; the guess pool
is every code, ties go to a code still possible, then to the lowest.
"""

import pytest

from mastermind import (
    CodeSpace,
    Notation,
    Rules,
    SolverState,
    evaluate,
    make_strategy,
    strategy_tree,
)

CLASSIC = Rules()

GOLDEN = {
    "knuth": ("1122", 5801, 5, {1: 1, 2: 6, 3: 62, 4: 533, 5: 694}),
    "expected-size": ("1123", 5696, 6, {1: 1, 2: 10, 3: 54, 4: 645, 5: 583, 6: 3}),
    "entropy": ("1234", 5722, 6, {1: 1, 2: 4, 3: 71, 4: 612, 5: 596, 6: 12}),
    "most-parts": ("1123", 5668, 6, {1: 1, 2: 12, 3: 72, 4: 635, 5: 569, 6: 7}),
}


@pytest.mark.parametrize("name", GOLDEN)
def test_classic_strategy_results(name):
    first, total, worst, distribution = GOLDEN[name]
    stats = evaluate(make_strategy(name, CLASSIC))
    assert str(stats.first_guess) == first
    assert stats.total == total
    assert stats.max == worst
    assert stats.distribution == distribution
    assert stats.games == stats.codes == 1296
    assert stats.lost == 0


@pytest.mark.parametrize("name", GOLDEN)
def test_numpy_reference_gives_the_same_first_guess(name):
    strategy = make_strategy(name, CLASSIC, kernel="numpy")
    assert (
        Notation(CLASSIC).format_code(CodeSpace.of(CLASSIC).code(strategy.first_guess())) == GOLDEN[name][0]
    )


def test_knuth_second_guesses():
    table = {
        "0,0": "3345",
        "0,1": "2344",
        "0,2": "2344",
        "0,3": "1213",
        "0,4": "2211",
        "1,0": "1344",
        "1,1": "1134",
        "1,2": "1213",
        "2,0": "1234",
        "2,1": "1223",
        "2,2": "1213",
        "3,0": "1223",
    }
    knuth = make_strategy("knuth", CLASSIC)
    tree = strategy_tree(knuth)
    notation = Notation(CLASSIC)
    space = CodeSpace.of(CLASSIC)
    seconds = {}
    for f, child in tree.children.items():
        b, w = divmod(f, 5)
        seconds[f"{b},{w}"] = notation.format_code(space.code(child.guess))
    assert seconds == table
    assert sum(c.size for c in tree.children.values()) == 1295


def test_knuth_example_game_for_3632():
    knuth = make_strategy("knuth", CLASSIC)
    notation = Notation(CLASSIC)
    space = CodeSpace.of(CLASSIC)
    state = SolverState(CLASSIC)
    played = []
    for reply in ["1,0", "0,1", "1,2", "1,1"]:
        guess = notation.format_code(space.code(knuth.choose(state)))
        played.append(f"{guess}={reply}")
        state = state.add(guess, reply)
    assert played == ["1122=1,0", "1344=0,1", "3526=1,2", "1462=1,1"]
    assert [notation.format_code(c) for c in state.candidates()] == ["3632"]
    assert notation.format_code(space.code(knuth.choose(state))) == "3632"


def test_first_guess_override():
    stats = evaluate(make_strategy("knuth", CLASSIC, first="1123"))
    assert str(stats.first_guess) == "1123"
    assert stats.max > 5  # Knuth: other first guesses do not win in five every time


def test_a_tree_cut_at_a_depth_shows_the_same_as_the_whole_tree():
    knuth = make_strategy("knuth", CLASSIC)
    notation = Notation(CLASSIC)
    whole, cut = strategy_tree(knuth), strategy_tree(knuth, depth=2)
    assert cut.to_dict(notation, 2) == whole.to_dict(notation, 2)
    assert cut.format(notation, 2) == whole.format(notation, 2)
    assert cut.to_dot(notation, 2) == whole.to_dot(notation, 2)
    # guesses 1 and 2 are expanded; the nodes of guess 3 have their guess but no subtree
    third = [g for child in cut.children.values() for g in child.children.values()]
    assert third and all(g.guess >= 0 and not g.children for g in third)
