"""The plain score() is the specification; every kernel is tested against it."""

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import SMALL_GAMES
from mastermind import Code, CodeSpace, Feedback, NotationError, Rules, possible_feedbacks, score
from mastermind._kernels import reference
from mastermind._kernels.feedback import replies as compiled_replies
from mastermind._kernels.tables import tables_of


@st.composite
def code_pairs(draw, max_pegs=8, max_colors=12):
    pegs = draw(st.integers(1, max_pegs))
    colors = draw(st.integers(2, max_colors))
    code = st.lists(st.integers(0, colors - 1), min_size=pegs, max_size=pegs).map(tuple)
    return pegs, colors, draw(code), draw(code)


def test_knuth_worked_examples():
    # Seed 001: candidates 1123, 3151, 1141, 6544 against the guess 4113.
    guess = (3, 0, 0, 2)
    replies = [score(guess, s) for s in [(0, 0, 1, 2), (2, 0, 4, 0), (0, 0, 3, 0), (5, 4, 3, 3)]]
    # The seed prints (0,0) for 6544; by the rules it is (0,1): the 4 of 4113 is in 6544, misplaced.
    # The seed's conclusions stand: the largest class is (1,2), with 3151 and 1141.
    assert replies == [(2, 1), (1, 2), (1, 2), (0, 1)]
    # Seed 002: F(1122, 1112) = BBB, F(1122, 1314) = BW.
    assert score((0, 0, 1, 1), (0, 0, 0, 1)) == Feedback(3, 0)
    assert score((0, 0, 1, 1), (0, 2, 0, 3)) == Feedback(1, 1)


def test_text_is_read_in_the_game_of_the_code_beside_it_and_refused_alone():
    classic = Rules()
    assert score(Code("1122", classic), "1213") == score("1213", Code("1122", classic)) == Feedback(1, 2)
    assert score(Code("1122", classic), "RGRB") == Feedback(1, 2)  # any notation the game reads
    for guess, secret in [("1122", "1213"), ("aabb", (0, 0, 1, 1)), ((0, 0, 1, 1), "1213")]:
        with pytest.raises(NotationError, match="without its game: give Code"):
            score(guess, secret)


@given(code_pairs())
def test_score_is_symmetric_and_bounded(pair):
    pegs, _, a, b = pair
    fb = score(a, b)
    assert fb == score(b, a)
    assert fb.black >= 0 and fb.white >= 0 and fb.black + fb.white <= pegs
    assert fb != (pegs - 1, 1)
    assert (fb.black == pegs) == (a == b)


@given(code_pairs(), st.randoms(use_true_random=False))
def test_score_ignores_recolouring_and_permuting(pair, rnd):
    pegs, colors, a, b = pair
    recolour = list(range(colors))
    rnd.shuffle(recolour)
    order = list(range(pegs))
    rnd.shuffle(order)

    def move(c):
        return tuple(recolour[c[i]] for i in order)

    assert score(move(a), move(b)) == score(a, b)


@given(code_pairs())
def test_white_is_extra_blacks_of_best_rearrangement(pair):
    pegs, _, a, b = pair
    if pegs > 6:
        return
    best = max(sum(x == y for x, y in zip(p, b, strict=True)) for p in itertools.permutations(a))
    fb = score(a, b)
    assert fb.white == best - fb.black


@pytest.mark.parametrize("rules", SMALL_GAMES + [Rules(), Rules(pegs=4, colors=10, repeats=False)], ids=repr)
def test_possible_feedbacks_are_exactly_those_that_occur(rules):
    space = CodeSpace.of(rules)
    everything = np.arange(space.size, dtype=np.int64)
    seen = set()
    for g in range(space.size):  # the kernel is checked against score() below
        replies = compiled_replies(tables_of(space), g, everything)
        seen |= {Feedback.from_int(f, rules.pegs) for f in np.unique(replies)}
    assert seen == set(possible_feedbacks(rules.pegs, rules.colors, rules.repeats))


@pytest.mark.parametrize("rules", SMALL_GAMES + [Rules()], ids=repr)
def test_kernels_agree_with_score(rules):
    space = CodeSpace.of(rules)
    codes = [tuple(int(x) for x in d) for d in space.digits()]
    pegs = rules.pegs
    rows = np.arange(0, space.size, 1 if space.size < 300 else 11)  # every row of small games
    expected = np.array([[score(codes[a], b).to_int(pegs) for b in codes] for a in rows])
    everything = np.arange(space.size)
    assert (reference.feedback_block(space, rows, everything) == expected).all()
    for i, g in enumerate(rows):
        got = compiled_replies(tables_of(space), g, everything)
        assert (got == expected[i]).all()
        assert (reference.feedback_against(space, g, everything) == expected[i]).all()


def test_codespace_numbering_is_numeric_order(small_rules):
    space = CodeSpace.of(small_rules)
    digits = [tuple(int(x) for x in d) for d in space.digits()]
    assert digits == sorted(digits)
    assert len(set(digits)) == space.size == small_rules.size
    for i in range(0, space.size, 7):
        assert space.index(digits[i]) == i
        assert space.code(i).colors == digits[i]


def test_feedback_int_round_trip():
    for pegs in range(1, 11):
        for fb in possible_feedbacks(pegs, 12):
            assert Feedback.from_int(fb.to_int(pegs), pegs) == fb
