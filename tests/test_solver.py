import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mastermind import (
    CodeSpace,
    ContradictionError,
    Notation,
    Rules,
    SolverState,
    score,
    smallest_contradiction,
)

CLASSIC = Rules()


def test_candidates_follow_the_history():
    state = SolverState(CLASSIC).add("1122", "1,0")
    assert len(state.candidate_indices()) == 256
    state = state.add("1344", "0,1")
    assert len(state.candidates()) == 44
    assert all(state.is_candidate(c) for c in state.candidates())
    # the same state built at once
    assert (
        SolverState(CLASSIC, [("1122", "1,0"), ("1344", "0,1")]).candidate_indices()
        == state.candidate_indices()
    ).all()


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 1295), st.lists(st.integers(0, 1295), min_size=1, max_size=5))
def test_the_secret_survives_filtering(secret, guesses):
    space = CodeSpace.of(CLASSIC)
    state = SolverState(CLASSIC)
    for g in guesses:
        code = space.code(g)
        state = state.add(code, score(code.colors, space.code(secret).colors))
    cands = set(state.candidate_indices().tolist())
    assert secret in cands
    brute = {
        i
        for i in range(space.size)
        if all(score(g.colors, space.code(i).colors) == f for g, f in state.history)
    }
    assert cands == brute


def test_a_single_impossible_row():
    state = SolverState(CLASSIC).add("1111", "0,1")  # a one-colour guess never gets white
    with pytest.raises(ContradictionError, match=r"row 1 \(1111=0,1\)") as err:
        state.candidate_indices()
    assert err.value.rows == (0,)


def test_smallest_set_of_contradicting_rows():
    # Knuth's game for 3632, with a wrong fourth reply: the same guess 1344 got two answers.
    rows = Notation(CLASSIC).parse_history("1122=1,0 1344=0,1 3526=1,2 1344=2,0")
    assert smallest_contradiction(CLASSIC, rows[:3]) is None
    assert smallest_contradiction(CLASSIC, rows) == (1, 3)
    with pytest.raises(ContradictionError, match=r"row 2 \(1344=0,1\), row 4 \(1344=2,0\)") as e:
        SolverState(CLASSIC, rows).candidate_indices()
    assert e.value.rows == (1, 3)
    assert isinstance(e.value, ValueError)


def test_consistent_history_has_no_contradiction():
    rows = Notation(CLASSIC).parse_history("1122=1,0 1344=0,1")
    assert smallest_contradiction(CLASSIC, rows) is None


def test_a_partitions_largest_class_is_written_with_thousands_separators():
    from mastermind.core.code import CodeSpace
    from mastermind.deduction.analysis import partition

    rules = Rules(pegs=5, colors=6)
    p = partition(rules, "11111", np.arange(CodeSpace.of(rules).size))
    assert p.largest == 5**5  # the codes without a 1
    assert "largest class 3,125," in str(p)
