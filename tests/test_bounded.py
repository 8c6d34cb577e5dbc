"""A strategy's own search within a budget, as the library runs it (research/bounded.py): its
checkpoint, its bounds, and the statistics of a search that finished."""

import pytest

from mastermind import Rules, make_strategy
from mastermind.errors import StrategyError
from mastermind.research.bounded import Bounds, evaluate_searched, proof_journal, prove_lower, search_within
from mastermind.research.runner.checkpoint import Checkpoint, run_identity
from mastermind.research.session import Session
from mastermind.strategies.capabilities import tree_search

SMALL = Rules(pegs=3, colors=4)  # 206 guesses in all, optimally (RESULTS.md)


def test_a_search_that_finishes_proves_the_optimum_and_removes_its_own_checkpoint():
    player = make_strategy("optimal", SMALL, cache=False)
    session = Session()
    own, is_own = session.checkpoint_for(player)
    assert is_own and own is not None
    better = []
    done = search_within(
        session, player, tree_search(player), 60.0, on_better=lambda lo, up, _: better.append(lo)
    )
    assert done.bounds.complete and done.bounds.exact and done.bounds.lower == 206 == done.bounds.upper
    assert done.bounds.gap == 0 and not done.interrupted and done.kept is None
    assert better and better[-1] <= 206 and not own.exists()
    assert player.known_tree().cost == 206  # the search's tree is kept, as the optimum
    stats = evaluate_searched(player, done.seconds)
    assert stats.total == 206 and not stats.tree_at_hand and stats.seconds >= done.seconds


def test_a_named_checkpoint_is_kept_and_the_search_resumes_from_it(tmp_path):
    path = tmp_path / "run.jsonl"
    player = make_strategy("optimal", SMALL, cache=False)
    told = []
    session = Session(checkpoint=path, notify=told.append)
    first = search_within(session, player, tree_search(player), 60.0)
    assert first.bounds.exact and path.exists() and told == []  # not the session's own: kept
    book = Checkpoint(path, run_identity(player.spec(), None))
    book.open()
    recorded = len(book.pieces)
    book.close()
    assert recorded > 0  # what the search finished
    again = make_strategy("optimal", SMALL, cache=False)
    second = search_within(session, again, tree_search(again), 60.0)
    assert second.bounds.upper == 206 and second.bounds.exact
    assert told == [f"resuming from {path}: {recorded} results of an earlier run"]


def test_no_tree_within_the_limit_is_a_settled_answer_and_leaves_no_checkpoint():
    player = make_strategy("optimal", Rules(pegs=3, colors=4, max_guesses=2), cache=False)
    session = Session()
    own, _ = session.checkpoint_for(player)
    with pytest.raises(StrategyError, match="the smallest limit that works is"):
        search_within(session, player, tree_search(player), 60.0)
    assert not own.exists()


def test_a_lower_bound_proved_elsewhere_raises_the_bounds_never_lowers_them():
    found = Bounds(200, 210, None, False)
    assert found.raised(205) == Bounds(205, 210, None, False) and found.raised(205).gap == 5
    assert found.raised(190) == found and not found.exact
    assert Bounds(7, None, None, False).gap is None


def test_a_guided_proof_of_the_optimum_is_written_and_leaves_no_journal(tmp_path):
    path = tmp_path / "small.proof"
    rises = []
    proved = prove_lower(SMALL, 206, path, 60.0, exact=True, progress=lambda bound, goal: rises.append(bound))
    assert proved.found.total == 206 and not proved.stopped and proved.kept is None
    assert path.exists() and not proof_journal(path).exists()
    assert rises == sorted(rises) and rises[-1] <= 206


def test_a_proof_file_that_cannot_be_written_is_an_error(tmp_path):
    with pytest.raises(OSError):
        prove_lower(SMALL, None, tmp_path / "missing" / "small.proof", 60.0)
