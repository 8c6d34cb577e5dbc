"""The numpy reference's choice of a guess takes two shortcuts (the first guess scored on one
code of each symmetry class; a node's candidates scored first, stopping at an even split's
score): neither may change a single choice. Checked against scoring every code, by the key
(score, not a candidate, code number), on many nodes of several games."""

import numpy as np
import pytest

from mastermind import Rules
from mastermind._kernels import reference
from mastermind.core.code import CodeSpace

GAMES = [
    Rules(),
    Rules(pegs=3, colors=5),
    Rules(pegs=4, colors=5, repeats=False),
    Rules(pegs=3, colors=4, blank=True),
    Rules(pegs=5, colors=4),
]


def every_code_scored(space, candidates, criterion, weights):
    """The key over every code, without a shortcut."""
    pool = np.arange(space.size, dtype=np.int64)
    scores = reference.criterion_scores(
        reference.partition_counts(space, pool, candidates), criterion, weights
    )
    is_candidate = np.isin(pool, candidates)
    return int(pool[np.lexsort((pool, ~is_candidate, scores))[0]])


def nodes(space, rng, count):
    """Candidate sets met in games: after one to three random guesses against a random secret."""
    table = reference.reply_table(space)
    for _ in range(count):
        secret = int(rng.integers(space.size))
        cands = np.arange(space.size, dtype=np.int64)
        for _ in range(int(rng.integers(1, 4))):
            guess = int(rng.integers(space.size))
            cands = cands[table[guess, cands] == table[guess, secret]]
            if len(cands) <= 3:
                break
        yield cands


@pytest.mark.parametrize("rules", GAMES, ids=lambda r: r.describe())
@pytest.mark.parametrize(
    "criterion",
    [reference.MAX_CLASS, reference.SUM_SQUARES, reference.ENTROPY, reference.MOST_PARTS],
    ids=["max-class", "sum-squares", "entropy", "most-parts"],
)
def test_the_shortcuts_choose_what_scoring_every_code_chooses(rules, criterion):
    space = CodeSpace.of(rules)
    pool = np.arange(space.size, dtype=np.int64)
    weights = reference.entropy_weights(space.size) if criterion == reference.ENTROPY else None
    rng = np.random.default_rng(51)
    checked = {len(pool)}
    assert reference.best_guess(space, pool, pool, criterion, weights) == every_code_scored(
        space, pool, criterion, weights
    )
    for cands in nodes(space, rng, 60):
        checked.add(len(cands))
        expected = every_code_scored(space, cands, criterion, weights)
        assert reference.best_guess(space, pool, cands, criterion, weights) == expected, cands.tolist()
    assert len(checked) > 10  # nodes of many sizes, small and large


def test_the_classic_games_first_guess_is_chosen_among_five_codes():
    space = CodeSpace.of(Rules())
    leaders = [str(space.code(i)) for i in reference.class_leaders(space)]
    assert leaders == ["1111", "1112", "1122", "1123", "1234"]
    pool = np.arange(space.size, dtype=np.int64)
    # Knuth's 1122, expected size's 1123, most parts' 1123, entropy's 1234 (Kooi 2005)
    firsts = {
        criterion: str(space.code(reference.best_guess(space, pool, pool, criterion, weights)))
        for criterion, weights in [
            (reference.MAX_CLASS, None),
            (reference.SUM_SQUARES, None),
            (reference.ENTROPY, reference.entropy_weights(space.size)),
            (reference.MOST_PARTS, None),
        ]
    }
    assert firsts == {
        reference.MAX_CLASS: "1122",
        reference.SUM_SQUARES: "1123",
        reference.ENTROPY: "1234",
        reference.MOST_PARTS: "1123",
    }


def test_cells_group_candidates_by_reply_in_increasing_order():
    space = CodeSpace.of(Rules())
    cands = np.arange(0, space.size, 7, dtype=np.int64)
    groups = reference.cells(space, 7, cands)
    assert [f for f, _ in groups] == sorted({int(f) for f in reference.feedback_against(space, 7, cands)})
    assert sum(len(g) for _, g in groups) == len(cands)
    for f, group in groups:
        assert (reference.feedback_against(space, 7, group) == f).all()
