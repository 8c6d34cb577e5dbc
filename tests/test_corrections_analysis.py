"""The library pieces behind the command line: reply corrections, partitions, tree formats."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mastermind import CodeSpace, Feedback, Notation, Rules, SolverState, make_strategy, score, strategy_tree
from mastermind.core.feedback import possible_feedbacks
from mastermind.deduction.analysis import partition
from mastermind.deduction.state import diagnose, slip, suggest_corrections

CLASSIC = Rules()
SMALL = Rules(pegs=3, colors=4)


def consistent(rules, rows):
    space = CodeSpace.of(rules)
    return any(all(score(g.colors, space.code(i).colors) == f for g, f in rows) for i in range(space.size))


@settings(max_examples=30, deadline=None)
@given(
    st.integers(0, 63),
    st.lists(st.integers(0, 63), min_size=1, max_size=4),
    st.data(),
)
def test_corrections_are_exactly_the_single_replies_that_restore_consistency(secret, guesses, data):
    space = CodeSpace.of(SMALL)
    rows = [(space.code(g), score(space.code(g).colors, space.code(secret).colors)) for g in guesses]
    wrong = data.draw(st.integers(0, len(rows) - 1))
    replies = [f for f in possible_feedbacks(3, 4) if f != rows[wrong][1]]
    true_reply = rows[wrong][1]
    rows[wrong] = (rows[wrong][0], data.draw(st.sampled_from(replies)))
    found = {(c.row, c.reply) for c in suggest_corrections(SMALL, rows)}
    if consistent(SMALL, rows):
        assert found == set()
        return
    expected = set()
    last = len(rows) - 1
    for i, (g, f) in enumerate(rows):
        for other in possible_feedbacks(3, 4):
            mended = [*rows[:i], (g, other), *rows[i + 1 :]]
            if any(reply.black == 3 for _, reply in mended[:-1]):
                continue  # all black ends the game: never a row with rows after it
            if other != f and consistent(SMALL, mended):
                expected.add((i, other))
    assert found == expected
    won_before = any(reply.black == 3 for j, (_, reply) in enumerate(rows[:-1]) if j != wrong)
    if (true_reply.black < 3 or wrong == last) and not won_before:
        assert (wrong, true_reply) in found  # putting the true reply back always works


def test_no_correction_makes_a_row_with_rows_after_it_all_black():
    rows = Notation(CLASSIC).parse_history("5316=1,2 3536=2,0 1223=0,1")  # 3536 fits row 3
    fixes = {(c.row, str(c.reply)) for c in suggest_corrections(CLASSIC, rows)}
    assert (1, "3,0") in fixes and (1, "4,0") not in fixes


def test_no_correction_leaves_a_guess_after_a_win():
    # 1344=0,0 does not fit a secret of 1122, which would give 1,0: mending row 2 so would leave
    # guess 2 after the win; only row 1, the win itself, may be blamed
    rows = Notation(CLASSIC).parse_history("1122=4,0 1344=0,0")
    fixes = suggest_corrections(CLASSIC, rows)
    assert fixes and {c.row for c in fixes} == {0} and all(c.reply.black < 4 for c in fixes)
    two_wins = Notation(CLASSIC).parse_history("1122=4,0 3456=4,0 1111=0,0")
    assert suggest_corrections(CLASSIC, two_wins) == []


def test_corrections_count_the_codes_that_would_fit():
    rows = Notation(CLASSIC).parse_history("1122=1,0 1344=0,1 1344=2,0")
    fixes = suggest_corrections(CLASSIC, rows)
    assert [(c.row, str(c.reply), c.candidates) for c in fixes] == [(2, "0,1", 44), (1, "2,0", 23)]
    assert len(SolverState(CLASSIC, rows[:2]).candidates()) == 44


def test_diagnose_names_rows_and_corrections():
    n = Notation(CLASSIC)
    assert diagnose(CLASSIC, n.parse_history("1122=1,0 1344=0,1")) is None
    text = diagnose(CLASSIC, n.parse_history("1122=1,0 1344=0,1 1344=2,0"))
    assert "row 2 (1344=0,1), row 3 (1344=2,0)" in text
    assert "row 3 to 0,1 (44); or row 2 to 2,0 (23)" in text  # as near each: the last reply first
    text = diagnose(CLASSIC, n.parse_history("1122=1,0 1344=0,1 1344=2,0 1344=1,0"))
    assert "no single reply can be corrected" in text
    text = diagnose(CLASSIC, n.parse_history("1111=0,1"))
    assert "no secret gives that reply: row 1 (1111=0,1)" in text
    assert "row 1 to 0,0 (625), 1,0 (500), 2,0 (150), 3,0 (20) or 4,0 (1)" in text  # 1, 2, 2, 3, 4 away


def test_corrections_come_likeliest_first_fewest_key_pegs_away_then_the_latest_row():
    # Knuth's example game (secret 3632) with the fourth reply wrong: 1462 against 3632 is 1,1, not 1,2
    rows = Notation(CLASSIC).parse_history("1122=1,0 1344=0,1 3526=1,2 1462=1,2 6425=0,2")
    fixes = [(c.row + 1, str(c.reply)) for c in suggest_corrections(CLASSIC, rows)]
    assert fixes == [(4, "1,1"), (4, "1,0"), (4, "2,0"), (5, "4,0")]  # the true reply first
    # the same game with row 4 mended and the fifth reply wrong (6425 against 3632 is 0,2)
    rows = Notation(CLASSIC).parse_history("1122=1,0 1344=0,1 3526=1,2 1462=1,1 6425=1,1")
    fixes = suggest_corrections(CLASSIC, rows)
    assert {slip(rows[c.row][1], c.reply) for c in fixes} == {1}  # each one key peg off
    assert [(c.row + 1, str(c.reply)) for c in fixes] == [(5, "0,2"), (3, "0,2"), (3, "0,3"), (2, "0,2")]
    assert slip(Feedback(1, 2), Feedback(2, 1)) == 1 and slip(Feedback(0, 0), Feedback(2, 2)) == 4


def test_partition_of_seed_001_worked_example():
    n = Notation(CLASSIC)
    cands = [n.parse_code(c) for c in ("1123", "3151", "1141", "6544")]
    p = partition(CLASSIC, n.parse_code("4113"), cands)
    # Seed 001 prints (0,0) for 6544; by the rules 4113 and 6544 share one 4: (0,1).
    assert {str(f): k for f, k in p.classes.items()} == {"0,1": 1, "1,2": 2, "2,1": 1}
    assert [n.format_code(c) for c in p.members[(1, 2)]] == ["3151", "1141"]  # in the order given
    assert p.largest == 2 and p.parts == 3 and p.size == 4
    assert p.expected_size == pytest.approx(1.5)
    assert p.entropy == pytest.approx(1.5)


def test_partition_scores_agree_with_results_md():
    space = CodeSpace.of(CLASSIC)
    everything = [space.code(i) for i in range(space.size)]
    p = partition(CLASSIC, (0, 0, 1, 1), everything)
    assert (p.largest, p.parts, p.scores["expected-size"]) == (256, 13, 265078)
    assert p.scores["knuth"] == 256 and p.scores["most-parts"] == -13


def test_tree_formats():
    rules = Rules(pegs=2, colors=3)
    root = strategy_tree(make_strategy("knuth", rules))
    n = Notation(rules)
    assert root.format(n).splitlines() == [
        "11  (9 codes)",
        "  0,0: 4 -> 22",
        "      0,0: 1 -> 33  wins",
        "      1,0: 2 -> 23",
        "          0,2: 1 -> 32  wins",
        "  1,0: 4 -> 12",
        "      0,1: 1 -> 31  wins",
        "      0,2: 1 -> 21  wins",
        "      1,0: 1 -> 13  wins",
    ]
    assert root.format(n, depth=1).splitlines() == ["11  (9 codes)", "  0,0: 4", "  1,0: 4"]
    tree = root.to_dict(n)
    assert json.loads(json.dumps(tree))["replies"]["1,0"]["replies"]["0,2"] == {
        "guess": "21",
        "size": 1,
        "replies": {},
    }
    dot = root.to_dot(n, title='knuth "2x3"')
    assert dot.startswith('digraph "knuth \\"2x3\\"" {') and dot.endswith("}")
    assert dot.count("->") == 8 and 'n0 [label="11\\n9"]' in dot
