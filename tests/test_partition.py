"""Partition scores: compiled kernels against the numpy reference, and exact entropy ranking."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import SMALL_GAMES
from mastermind import CodeSpace, Rules, StrategyError, possible_feedbacks
from mastermind._kernels import partition as tree
from mastermind._kernels import reference
from mastermind._kernels.tables import symmetry, tables_of

CRITERIA = [reference.MAX_CLASS, reference.SUM_SQUARES, reference.ENTROPY, reference.MOST_PARTS]

# The classic first guesses up to symmetry, as partitions of the 1296 codes: the largest classes are
# Knuth's (1976-77), the numbers of classes Kooi's (2005), the sums of squares those behind Irving's
# expected size (1978-79).
CLASSIC_FIRSTS = {
    (0, 0, 0, 0): (625, 5, 663526),
    (0, 0, 0, 1): (317, 11, 305790),
    (0, 0, 1, 1): (256, 13, 265078),
    (0, 0, 1, 2): (276, 14, 240108),
    (0, 1, 2, 3): (312, 14, 243894),
}


def test_classic_first_guess_partitions():
    space = CodeSpace.of(Rules())
    everything = np.arange(space.size)
    guesses = np.array([space.index(g) for g in CLASSIC_FIRSTS])
    counts = reference.partition_counts(space, guesses, everything)
    for row, (largest, classes, squares) in zip(counts, CLASSIC_FIRSTS.values(), strict=True):
        assert row.sum() == 1296
        assert row.max() == largest
        assert (row > 0).sum() == classes
        assert (row * row).sum() == squares


@pytest.mark.parametrize("rules", SMALL_GAMES + [Rules()], ids=repr)
@pytest.mark.parametrize("criterion", CRITERIA)
def test_compiled_scores_equal_reference(rules, criterion):
    """tree.score_guess, the scorer of the search, with no bound to stop it early."""
    space = CodeSpace.of(rules)
    t = tables_of(space)
    rng = np.random.default_rng(7)
    weights = reference.entropy_weights(space.size)
    pool = np.arange(space.size, dtype=np.int64)
    hist = np.zeros(rules.feedback_classes, dtype=np.int64)
    for size in (space.size, 3, space.size // 2):
        size = min(space.size, max(1, size))
        cands = np.sort(rng.choice(space.size, size=size, replace=False)).astype(np.int64)
        want = reference.criterion_scores(reference.partition_counts(space, pool, cands), criterion, weights)
        seen = np.empty(size, dtype=np.int64)
        cpk, cms = t.packed[cands].astype(np.int64), t.msid[cands].astype(np.int64)
        got = [
            tree.score_guess(t, weights, g, cands, 0, size, criterion, tree.BIG, hist, seen, cpk, cms)
            for g in pool
        ]
        assert (np.array(got) == want).all()
        assert not hist.any()  # left clean for the next guess


def test_entropy_weights_rank_equal_partitions_equal():
    w = reference.entropy_weights(100)
    # sum n log n is equal in exact arithmetic for these pairs of partitions.
    assert w[4] + 4 * w[1] == 4 * w[2]
    assert w[9] + 9 * w[1] == 6 * w[3]
    assert w[6] + w[1] * 6 == w[2] * 3 + w[3] * 2  # 6 log 6 = 6 log 2 + 6 log 3
    assert w[1] == 0 and w[0] == 0
    assert np.all(np.diff(w[1:]) > 0)
    approx = np.arange(1, 101) * np.log2(np.arange(1, 101)) * reference.ENTROPY_SCALE
    assert np.allclose(w[1:], approx, rtol=1e-9, atol=1e3)


@settings(max_examples=200)
@given(st.lists(st.integers(0, 60), min_size=1, max_size=25), st.randoms(use_true_random=False))
def test_scores_do_not_depend_on_class_order(classes, rnd):
    w = reference.entropy_weights(60)
    shuffled = list(classes)
    rnd.shuffle(shuffled)
    a = np.array([classes]), np.array([shuffled])
    for criterion in CRITERIA:
        assert (
            reference.criterion_scores(a[0], criterion, w) == reference.criterion_scores(a[1], criterion, w)
        ).all()


def test_entropy_scores_without_weights_use_the_table_for_the_counts():
    counts = np.array([[4, 1, 1, 1, 1], [2, 2, 2, 2, 0], [8, 0, 0, 0, 0]])
    given = reference.criterion_scores(counts, reference.ENTROPY, reference.entropy_weights(100))
    assert (reference.criterion_scores(counts, reference.ENTROPY, None) == given).all()
    assert given[0] == given[1] < given[2]


def test_an_unknown_criterion_is_a_strategy_error():
    with pytest.raises(StrategyError, match="unknown criterion 9"):
        reference.criterion_scores(np.array([[1, 2]]), 9, None)


def test_a_search_that_reaches_its_depth_limit_is_a_strategy_error():
    """The compiled search stops, with the package's error, at a node deeper than it may go
    (here: the root of three candidates, already at the limit)."""
    rules = Rules(pegs=2, colors=3)
    t = tables_of(CodeSpace.of(rules))
    used, blocks = symmetry(t, ())
    cands = np.arange(3, dtype=np.int64)
    depth = limit = 1
    work = np.empty(tree.workspace_size(3, t.pegs, t.colors, t.shared.shape[0], limit), dtype=np.int64)
    replies = len(possible_feedbacks(rules.pegs, rules.colors, rules.repeats)) - 1  # all but the win
    with pytest.raises(StrategyError, match="a strategy made no progress"):
        tree.subtree(
            t,
            np.zeros(1, dtype=np.int64),
            cands,
            used,
            blocks,
            depth,
            reference.MAX_CLASS,
            replies,
            limit,
            -1,
            False,
            work,
            np.zeros(1, dtype=np.int64),
        )


def test_prepare_loads_every_kernel_a_whole_tree_runs():
    """A first evaluation times no compilation: prepare loads the kernels that run many
    positions on all cores too (in a process of its own, where nothing else loaded them)."""
    import subprocess
    import sys

    script = (
        "from mastermind import Rules, make_strategy; from mastermind._kernels import partition as k; "
        "make_strategy('entropy', Rules(pegs=4, colors=5)).prepare(); "
        "print(len(k.subtree.signatures))"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["1"]  # once: the root, many nodes and their guesses all run it


@pytest.mark.parametrize(
    "rules, history",
    [
        (Rules(), "1122=1,1"),
        (Rules(), "1234=0,2 1156=1,0"),
        (Rules(pegs=3, colors=5, repeats=False), "123=0,1"),
        (Rules(pegs=5, colors=8), "11223=0,1"),
        (Rules(pegs=5, colors=8), "11111=1,0"),
        (Rules(pegs=4, colors=10, repeats=False), "0123=0,1"),
    ],
    ids=str,
)
@pytest.mark.parametrize("name", ["knuth", "expected-size", "entropy", "most-parts"])
def test_the_best_possible_code_compiled_is_the_references(rules, history, name):
    # hard mode's guess: the criterion over the candidates alone; the compiled search (with its
    # symmetry test and pruning) finds the code the reference finds by scoring every candidate
    from mastermind import Notation, make_strategy
    from mastermind.deduction.state import SolverState

    state = SolverState(rules, Notation(rules).parse_history(history))
    cands = state.candidate_indices()
    compiled = make_strategy(name, rules).pick_possible(state)
    assert compiled in cands
    assert compiled == make_strategy(name, rules, kernel="numpy").pick_possible(state)
    scores = reference.criterion_scores(
        reference.partition_counts(CodeSpace.of(rules), cands, cands),
        make_strategy(name, rules).criterion,
        reference.entropy_weights(len(cands)),
    )
    assert compiled == cands[int(np.argmin(scores))]


def test_partition_takes_codes_indices_as_numbers_a_range_or_an_array_and_refuses_one_outside():
    from mastermind import NotationError, partition

    classic = Rules()
    by_text = partition(classic, "1122", ["1111", "1112", "1113"])
    for indices in ([0, 1, 2], range(3), np.arange(3), ["1111", 1, np.int64(2)]):
        assert partition(classic, "1122", indices).classes == by_text.classes
    assert partition(classic, "1122", range(1296)).largest == 256  # Knuth's first guess
    for outside in ([1296], range(1290, 1300), np.array([-1])):
        with pytest.raises(NotationError, match="out of range: this game's codes are 0 to 1295"):
            partition(classic, "1122", outside)
