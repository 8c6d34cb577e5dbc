"""The research session: a stored run taken from the history, the runner used where it helps,
checkpoints kept and removed, as a notebook (not only the command line) gets them."""

import pytest

from mastermind import Rules, make_strategy
from mastermind.history.store import Store
from mastermind.research import LocalExecutor, Session
from mastermind.research.runner import checkpoint as checkpoints

KNUTH_CLASSIC = {1: 1, 2: 6, 3: 62, 4: 533, 5: 694}  # Knuth 1977: 5801 guesses in all


def test_a_run_saved_in_the_history_is_taken_from_it_the_next_time(tmp_path):
    rules = Rules(pegs=3, colors=4)
    with Store(tmp_path / "h.db") as store:
        first = Session(store)
        knuth = make_strategy("knuth", rules)
        assert first.stored(knuth) is None
        stats = first.evaluate(knuth)
        first.save(knuth, stats)
        again = Session(store)
        stored = again.stored(make_strategy("knuth", rules))
        assert stored is not None and stored.distribution == stats.distribution
        assert again.origin(stored) is not None and again.to_dict(stored)["from_history"]["run"] >= 1
        assert first.origin(stats) is None and "from_history" not in first.to_dict(stats)
        assert Session(store, recompute=True).stored(make_strategy("knuth", rules)) is None


def test_a_seed_drawn_for_this_run_never_matches_a_stored_one(tmp_path):
    rules = Rules(pegs=3, colors=4)
    with Store(tmp_path / "h.db") as store:
        session = Session(store)
        counter = make_strategy("counter", rules)
        stats = session.evaluate(counter, seed=7)
        session.save(counter, stats, seed=7)
        assert session.stored(make_strategy("counter", rules), seed=7) is not None
        assert session.stored(make_strategy("counter", rules), seed=7, drawn=True) is None


def test_the_runner_is_used_for_whole_trees_and_for_a_search_only_when_asked_or_not_quick(monkeypatch):
    from mastermind.strategies.optimal import strategy as optimal_module

    rules = Rules(pegs=3, colors=4)
    plain = Session()
    assert plain.whole_tree(make_strategy("knuth", rules))
    assert not plain.whole_tree(make_strategy("knuth", rules), secrets=[0, 1, 2])
    assert not plain.whole_tree(make_strategy("random", rules))
    assert plain.why_not_whole(make_strategy("random", rules)) is None  # nothing asked, nothing refused
    optimal = make_strategy("optimal", rules, cache=False)
    assert not plain.whole_tree(optimal)  # its own search is fastest in this process
    asked = Session(checkpoint="run.jsonl")
    assert asked.asks_runner and asked.whole_tree(optimal)
    assert asked.why_not_whole(make_strategy("random", rules)) == "a randomised strategy"
    assert asked.why_not_whole(make_strategy("knuth", rules), secrets=[0, 1]) == "a sample"
    assert not Session(executor=LocalExecutor()).asks_runner
    monkeypatch.setattr(optimal_module, "QUICK_GAME", 10)  # as if 3x4 took minutes: in pieces, kept
    assert plain.whole_tree(optimal) and plain.checkpoint_for(optimal)[1]


def test_a_run_of_many_subtrees_keeps_its_own_checkpoint_until_done_then_removes_it(tmp_path, monkeypatch):
    monkeypatch.setattr(checkpoints, "runs_dir", lambda: tmp_path)
    stale = tmp_path / "knuth-4x6-000000000000.jsonl"
    stale.write_text("not a checkpoint\n")
    session = Session(unit_size=64)
    knuth = make_strategy("knuth", Rules())
    path, own = session.checkpoint_for(knuth)
    assert own and path is not None and path.parent == tmp_path
    stats = session.evaluate(knuth)
    assert stats.distribution == KNUTH_CLASSIC
    assert list(tmp_path.iterdir()) == []  # its own file and the stale one are gone
    assert Session().checkpoint_for(knuth) == (None, False)  # one unit: nothing to keep


def test_a_resumed_run_says_so_and_finishes_what_is_left(tmp_path):
    path = tmp_path / "run.jsonl"
    said = []
    session = Session(checkpoint=path, unit_size=64, notify=said.append)
    stopped = []

    def stop_after_a_few(status):
        if status.stage == "solve" and status.units_done >= 3:
            stopped.append(status.units_done)
            raise KeyboardInterrupt

    knuth = make_strategy("knuth", Rules())
    with pytest.raises(KeyboardInterrupt):
        session.evaluate(knuth, progress=stop_after_a_few)
    assert said == [] and path.exists()
    stats = session.evaluate(make_strategy("knuth", Rules()))
    assert stats.distribution == KNUTH_CLASSIC
    assert (
        len(said) == 1
        and said[0].startswith(f"resuming from {path}: ")
        and "subtrees already done" in said[0]
    )
    assert path.exists()  # a file named by the caller is the caller's
