"""Whole trees cut into units: the same result however they are cut, run, ordered or resumed."""

import json
import pickle
import random
import re

import pytest

from conftest import SMALL_GAMES
from mastermind import Rules, evaluate, make_strategy
from mastermind.errors import CheckpointError, ExecutorError
from mastermind.research import runner
from mastermind.runtime.install import install_command

KNUTH_CLASSIC = {1: 1, 2: 6, 3: 62, 4: 533, 5: 694}  # Knuth 1977: 5801 guesses in all


class OneByOne(runner.Executor):
    """Solves each unit from its description alone (as a Dask worker does), in a shuffled order,
    and can stop (as Ctrl-C would) after a number of units."""

    def __init__(self, seed=0, stop_after=None):
        self.seed, self.stop_after, self.solved = seed, stop_after, []

    def solve(self, strategy, plan, units, record):
        order = list(units)
        random.Random(self.seed).shuffle(order)
        for unit in order:
            if self.stop_after is not None and len(self.solved) == self.stop_after:
                raise KeyboardInterrupt
            unit = pickle.loads(pickle.dumps(unit))
            record([(unit, runner.solve_unit(unit))])
            self.solved.append(unit.key)


@pytest.mark.parametrize("name", ["knuth", "expected-size", "entropy", "most-parts"])
@pytest.mark.parametrize("rules", [*SMALL_GAMES, Rules()], ids=repr)
def test_any_cut_gives_the_whole_tree(name, rules):
    whole = evaluate(make_strategy(name, rules))
    for unit_size in (1, 7, 50):
        strategy = make_strategy(name, rules)
        stats = runner.evaluate_on(strategy, unit_size=unit_size)
        assert (stats.first_guess, stats.distribution) == (whole.first_guess, whole.distribution)


def test_knuth_classic_in_units_solved_one_by_one_in_any_order():
    strategy = make_strategy("knuth", Rules())
    for seed in (1, 2):
        executor = OneByOne(seed)
        outcome = runner.run_tree(strategy, executor, unit_size=64)
        assert outcome.distribution == KNUTH_CLASSIC
        assert str(strategy.space.code(outcome.first_guess)) == "1122"
        assert len(executor.solved) == outcome.units > 20


def test_first_guess_override_and_a_strategy_without_compiled_trees():
    rules = Rules()
    forced = runner.evaluate_on(make_strategy("knuth", rules, first="1234"), unit_size=100)
    assert str(forced.first_guess) == "1234"
    assert forced.distribution == evaluate(make_strategy("knuth", rules, first="1234")).distribution
    six = runner.run_tree(make_strategy("six-guess", rules), OneByOne(), unit_size=100)
    assert six.distribution == {1: 1, 2: 1, 3: 1, 4: 351, 5: 729, 6: 213}  # total 6333


def test_a_randomised_strategy_has_no_tree_to_split():
    with pytest.raises(ValueError, match="randomised"):
        runner.cut_tree(make_strategy("random", Rules()))


def test_the_cut_follows_the_first_replies_then_splits_big_subtrees():
    strategy = make_strategy("knuth", Rules())
    plan = runner.cut_tree(strategy, unit_size=100)
    assert all(u.size <= 100 for u in plan.units)
    assert sum(u.size for u in plan.units) + sum(plan.found.values()) == 1296
    depths = {u.depth for u in plan.units}
    assert 2 in depths and 3 in depths  # small reply classes of 1122 whole, big ones cut again
    assert runner.cut_tree(strategy).units == [runner.Unit(strategy.spec(), (), 1296)]


# --- checkpoints ------------------------------------------------------------------------------


def test_an_interrupted_run_resumes_and_computes_only_what_is_left(tmp_path):
    path = tmp_path / "run.jsonl"
    strategy = make_strategy("knuth", Rules())
    first = OneByOne(seed=3, stop_after=25)
    with pytest.raises(KeyboardInterrupt):
        runner.run_tree(strategy, first, checkpoint=path, unit_size=64)
    again = OneByOne(seed=4)
    outcome = runner.run_tree(strategy, again, checkpoint=path, unit_size=64)
    assert outcome.distribution == KNUTH_CLASSIC
    assert outcome.resumed == 25
    assert set(again.solved).isdisjoint(first.solved)
    assert len(again.solved) == outcome.units - 25
    # once finished, a third run has nothing left to do
    third = OneByOne()
    assert runner.run_tree(strategy, third, checkpoint=path, unit_size=64).distribution == KNUTH_CLASSIC
    assert third.solved == []


def test_a_line_cut_short_by_a_killed_process_is_dropped(tmp_path):
    path = tmp_path / "run.jsonl"
    strategy = make_strategy("most-parts", Rules())
    with pytest.raises(KeyboardInterrupt):
        runner.run_tree(strategy, OneByOne(stop_after=10), checkpoint=path, unit_size=64)
    with open(path, "a") as out:
        out.write('{"check": "0123", "unit": {"key": "7:1/')  # kill -9 in the middle of a write
    again = OneByOne()
    outcome = runner.run_tree(strategy, again, checkpoint=path, unit_size=64)
    assert outcome.resumed == 10 and len(again.solved) == outcome.units - 10
    assert sum(k * n for k, n in outcome.distribution.items()) == 5668  # Kooi 2005
    assert all(json.loads(line) for line in path.read_text().splitlines())  # the cut line is gone


def _interrupted(path, name="knuth"):
    with pytest.raises(KeyboardInterrupt):
        runner.run_tree(make_strategy(name, Rules()), OneByOne(stop_after=5), checkpoint=path, unit_size=64)
    return path.read_text().splitlines()


def test_a_damaged_checkpoint_is_refused(tmp_path):
    path = tmp_path / "run.jsonl"
    lines = _interrupted(path)
    item = json.loads(lines[-1])
    assert "unit" in item
    first_class = next(iter(item["unit"]["distribution"]))
    item["unit"]["distribution"][first_class] += 1  # one secret too many: the checksum fails
    path.write_text("\n".join([*lines[:-1], json.dumps(item)]) + "\n")
    with pytest.raises(CheckpointError, match=f"damaged at line {len(lines)}"):
        runner.run_tree(make_strategy("knuth", Rules()), OneByOne(), checkpoint=path, unit_size=64)


def test_a_unit_that_does_not_fit_the_plan_is_refused_even_with_a_good_checksum(tmp_path):
    path = tmp_path / "run.jsonl"
    lines = _interrupted(path)
    item = json.loads(lines[-1])
    dist = item["unit"]["distribution"]
    dist[max(dist, key=int)] += 1
    item["check"] = runner.checksum(item["unit"])
    path.write_text("\n".join([*lines[:-1], json.dumps(item)]) + "\n")
    with pytest.raises(CheckpointError, match="damaged"):
        runner.run_tree(make_strategy("knuth", Rules()), OneByOne(), checkpoint=path, unit_size=64)


def test_a_checkpoint_of_another_run_or_not_a_checkpoint_is_refused(tmp_path):
    path = tmp_path / "run.jsonl"
    _interrupted(path, "entropy")
    with pytest.raises(CheckpointError, match="belongs to another run"):
        runner.run_tree(make_strategy("knuth", Rules()), OneByOne(), checkpoint=path, unit_size=64)
    with pytest.raises(CheckpointError, match="belongs to another run"):  # another cut
        runner.run_tree(make_strategy("entropy", Rules()), OneByOne(), checkpoint=path, unit_size=65)
    other = tmp_path / "notes.txt"
    other.write_text("my notes\n")
    with pytest.raises(CheckpointError, match="not a mastermind checkpoint"):
        runner.run_tree(make_strategy("knuth", Rules()), OneByOne(), checkpoint=other, unit_size=64)
    assert other.read_text() == "my notes\n"


def test_the_default_checkpoint_is_named_by_the_run():
    a = runner.default_checkpoint(make_strategy("knuth", Rules()))
    b = runner.default_checkpoint(make_strategy("knuth", Rules(), first="1123"))
    c = runner.default_checkpoint(make_strategy("knuth", Rules(pegs=5, colors=8)))
    assert len({a, b, c}) == 3
    assert a.name.startswith("knuth-4x6-") and c.name.startswith("knuth-5x8-")
    assert a == runner.default_checkpoint(make_strategy("knuth", Rules()))


def test_progress_counts_units_and_secrets():
    seen = []
    runner.run_tree(make_strategy("knuth", Rules()), progress=seen.append, unit_size=64)
    solve = [p for p in seen if p.stage == "solve"]
    assert solve[-1].units_done == solve[-1].units and solve[-1].secrets_done == 1296
    assert [p.secrets_done for p in solve] == sorted(p.secrets_done for p in solve)
    assert any(p.stage == "split" for p in seen)


# --- Dask -------------------------------------------------------------------------------------


def test_without_dask_the_executor_says_how_to_install_it(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "dask.distributed", None)  # import fails as if not installed
    with pytest.raises(ExecutorError, match=re.escape(install_command("distributed"))):
        runner.make_executor("dask")


@pytest.fixture(scope="module")
def dask_cluster():
    executor = runner.DaskExecutor(workers=2)
    yield executor
    executor.close()


@pytest.mark.slow
def test_an_interrupted_dask_map_does_not_wait_for_a_worker_that_does_not_answer(monkeypatch):
    import threading

    from mastermind.research.runner import executors

    monkeypatch.setattr(executors, "CANCEL_WAIT", 0.05)
    answer, reached, asked = threading.Event(), threading.Event(), []

    class Stuck:  # a cluster whose workers never answer the call that stops their tasks
        def cancel(self, futures):
            asked.append(("cancel", futures))

        def run(self, fn):
            asked.append(("run", fn.__name__))
            reached.set()
            answer.wait()

    executor = executors.DaskExecutor(workers=1)
    executor._client = Stuck()
    out = threading.Thread(target=executor._cancel, args=(["a task"],), daemon=True)
    out.start()
    out.join(60)  # a bound for a loaded machine, not a timing: without the limit it never returns
    assert not out.is_alive()
    assert reached.wait(60) and asked == [("cancel", ["a task"]), ("run", "stop_here")]
    answer.set()


def test_dask_gives_the_local_result(dask_cluster):
    strategy = make_strategy("knuth", Rules())
    stats = runner.evaluate_on(strategy, dask_cluster, unit_size=64)
    assert str(stats.first_guess) == "1122" and stats.distribution == KNUTH_CLASSIC
    rules = Rules(pegs=4, colors=5, repeats=False)
    local = evaluate(make_strategy("entropy", rules))
    assert runner.evaluate_on(make_strategy("entropy", rules), dask_cluster, unit_size=5).distribution == (
        local.distribution
    )


@pytest.mark.slow
def test_dask_resumes_a_checkpoint(dask_cluster, tmp_path):
    path = tmp_path / "run.jsonl"
    strategy = make_strategy("expected-size", Rules())
    with pytest.raises(KeyboardInterrupt):
        runner.run_tree(strategy, OneByOne(stop_after=30), checkpoint=path, unit_size=64)
    outcome = runner.run_tree(strategy, dask_cluster, checkpoint=path, unit_size=64)
    assert outcome.resumed == 30
    assert outcome.distribution == {1: 1, 2: 10, 3: 54, 4: 645, 5: 583, 6: 3}  # total 5696


@pytest.mark.slow
def test_the_units_of_a_lost_dask_worker_are_computed_again(dask_cluster):
    import os
    import signal

    client = dask_cluster.client
    victim = sorted(client.run(os.getpid).items())[0][1]
    killed = []

    def kill_once(status):
        if status.stage == "solve" and status.units_done >= 1 and not killed:
            os.kill(victim, signal.SIGKILL)
            killed.append(status.units_done)

    outcome = runner.run_tree(make_strategy("knuth", Rules()), dask_cluster, progress=kill_once, unit_size=32)
    assert killed and killed[0] < outcome.units
    assert outcome.distribution == KNUTH_CLASSIC
    # The nanny starts a new worker; 120 s is a bound for a loaded 2-core machine, not a timing.
    client.wait_for_workers(2, timeout=120)


# --- the optimal strategy's root search, in pieces --------------------------------------------


class PieceByPiece(runner.Executor):
    """Solves each piece of an optimal search from its description alone (as a Dask worker
    does), taking up to ``width`` at a time from the lazy feed and finishing them in a shuffled
    order; can stop (as Ctrl-C would) after a number of pieces."""

    def __init__(self, seed=0, width=3, stop_after=None, last_first=False):
        self.rng, self.at_once, self.stop_after, self.solved = random.Random(seed), width, stop_after, []
        self.last_first = last_first  # finish the piece taken last first (else a random one)

    @property
    def width(self):
        return self.at_once

    def map(self, fn, tasks, each):
        feed, pending = iter(tasks), []
        while True:
            while len(pending) < self.width and (args := next(feed, None)) is not None:
                pending.append(args)
            if not pending:
                return
            if self.stop_after is not None and len(self.solved) == self.stop_after:
                raise KeyboardInterrupt
            args = pending.pop(-1 if self.last_first else self.rng.randrange(len(pending)))
            result = fn(*pickle.loads(pickle.dumps(args)))
            self.solved.append(args)
            each(args, result)

    def solve(self, strategy, plan, units, record):  # pragma: no cover - no units here
        raise AssertionError("the optimal search has no units")


def _local_tree(rules, first=None):
    from mastermind.strategies.optimal.search import to_flat

    return to_flat(make_strategy("optimal", rules, first=first, cache=False).decision_tree())


OPTIMAL_GAMES = [
    (Rules(), None),  # 5625, Koyama and Lai 1993
    (Rules(max_guesses=5), None),  # 5626
    (Rules(), "1234"),
    (Rules(pegs=4, colors=5, repeats=False), None),
    (Rules(pegs=3, colors=5, max_guesses=5), None),  # the least limit that works
    (Rules(pegs=2, colors=3), None),
    (Rules(pegs=1, colors=2), None),
]


@pytest.mark.parametrize(("rules", "first"), OPTIMAL_GAMES, ids=repr)
def test_the_optimal_search_in_pieces_is_the_local_tree_in_any_order(rules, first):
    import numpy as np

    local = _local_tree(rules, first)
    for seed, width in ((1, 1), (2, 3), (3, 8)):
        strategy = make_strategy("optimal", rules, first=first, cache=False)
        search = runner.run_search(strategy, PieceByPiece(seed, width))
        assert np.array_equal(search.tree.flat, local), (seed, width)
    stats = runner.evaluate_on(make_strategy("optimal", rules, first=first, cache=False), PieceByPiece())
    assert stats.distribution == evaluate(make_strategy("optimal", rules, first=first)).distribution


def test_the_optimal_search_on_local_threads_and_into_the_cache():
    import numpy as np

    rules = Rules()
    strategy = make_strategy("optimal", rules)
    assert strategy.known_tree() is None
    search = runner.run_search(strategy, runner.LocalExecutor())
    assert search.tree.cost == 5625 and search.tree.pieces > 10
    assert np.array_equal(search.tree.flat, _local_tree(rules))
    again = make_strategy("optimal", rules)  # a new object: the tree comes from the disk cache
    assert again.known_tree() is not None and again.known_tree().cost == 5625
    assert runner.run_search(again, PieceByPiece()).tree.pieces == 0


def _pieces(executor):
    """The pieces an executor of these tests solved (their descriptions, not the run's numbers)."""
    return [args[1] for args in executor.solved]


def test_the_optimal_search_is_cut_at_any_depth_and_gives_the_local_tree():
    import numpy as np

    from mastermind.strategies.optimal import in_pieces as split

    rules = Rules()
    executor = PieceByPiece(seed=4, width=4)
    sol, solved, resumed = split.search_in_pieces(rules, executor.map, split=split.SERIAL_SET)
    assert sol.cost == 5625 and np.array_equal(sol.flat, _local_tree(rules))
    depths = {len(p.history) for p in _pieces(executor)}
    assert {0, 1, 2} <= depths  # the root's plan, its guesses' cells, and cells of those cells
    assert {p.kind for p in _pieces(executor)} == {"plan", "set", "guess"}
    assert solved == len(executor.solved) and resumed == 0


def test_the_search_in_pieces_reports_its_best_tree_as_it_improves():
    import numpy as np

    from mastermind.strategies.optimal import in_pieces as split
    from mastermind.strategies.optimal.search import check_tree

    rules = Rules()
    executor = PieceByPiece(seed=7, width=3)
    seen = []  # (pieces solved then, best total, its tree) at each report that carries a tree

    def progress(status):
        if status.tree is not None:
            seen.append((len(executor.solved), status.best, status.tree.copy()))

    sol, solved, _ = split.search_in_pieces(rules, executor.map, progress=progress)
    assert seen and seen[0][0] < solved  # a best tree before the search was over
    assert [b for _, b, _ in seen] == sorted((b for _, b, _ in seen), reverse=True)  # only better
    for _, best, flat in seen:  # each a whole tree, finding every secret, of the total reported
        root = check_tree(rules, flat, np.arange(rules.size), rules.max_guesses)
        assert sum(k * n for k, n in root.distribution().items()) == best
    assert seen[-1][1] == sol.cost == 5625 and np.array_equal(seen[-1][2], sol.flat)


def test_the_whole_game_is_bounded_one_level_down_first_and_the_tree_does_not_depend_on_it(monkeypatch):
    import numpy as np

    from mastermind.strategies.optimal import in_pieces as split
    from mastermind.strategies.optimal import piece, search

    rules = Rules(pegs=4, colors=7)
    local = _local_tree(rules)
    monkeypatch.setattr(search, "IMPROVE_WORK", 0)  # no set below the root is bounded so
    roots = piece.plan(rules, ())
    assert all(below is not None and better >= bound for _, bound, better, below in roots)
    assert any(better > bound for _, bound, better, _ in roots)
    sol, _, _ = split.search_in_pieces(rules, PieceByPiece(seed=3).map)
    assert sol.cost == 11228 and np.array_equal(sol.flat, local)
    monkeypatch.setattr(search, "ROOT_IMPROVE_WORK", 0)  # the root only by counting
    assert all(below is None and better == bound for _, bound, better, below in piece.plan(rules, ()))
    sol, _, _ = split.search_in_pieces(rules, PieceByPiece(seed=3).map)
    assert sol.cost == 11228 and np.array_equal(sol.flat, local)


def test_sets_with_a_budget_are_cut_by_default_only_on_many_workers():
    from mastermind.strategies.optimal import in_pieces as split

    assert split.cut_sizes(4096, 2) == (1024, 4095)  # with a budget: only the root's guesses
    assert split.cut_sizes(4096, split.CUT_BUDGETED - 1)[1] == 4095
    assert split.cut_sizes(4096, split.CUT_BUDGETED) == (256, 256)  # as the sets without one
    assert split.cut_sizes(4096, 100) == (split.SERIAL_SET, split.SERIAL_SET)


def test_a_set_with_a_budget_is_cut_above_big_and_its_guesses_stay_whole():
    import numpy as np

    from mastermind.strategies.optimal import in_pieces as split
    from mastermind.strategies.optimal.search import FAIL, piece_secrets

    rules = Rules(pegs=5, colors=3)
    local = _local_tree(rules)
    runs = {}
    for size in (48, 24):
        executor = PieceByPiece(seed=5, width=3)
        sol, _, _ = split.search_in_pieces(rules, executor.map, split=size, big=size)
        assert sol.cost == 816 and np.array_equal(sol.flat, local), size
        runs[size] = _pieces(executor)
    size_of = {p: len(piece_secrets(rules, p.history)) for p in runs[48]}
    whole = [p.history for p in runs[48] if p.kind == "set" and p.budget < FAIL and size_of[p] > 24]
    assert whole  # cut above 48 secrets, the sets with a budget of 25 to 48 are one piece each
    guesses = 0
    for history in whole:  # cut above 24, each is planned and each of its guesses is one piece
        here = [p for p in runs[24] if p.history == history]
        assert "plan" in {p.kind for p in here} <= {"plan", "guess"}
        assert all(p.budget < FAIL for p in here if p.kind == "guess")
        guesses += sum(p.kind == "guess" for p in here)
        below = [p for p in runs[24] if p.history[: len(history)] == history and p.history != history]
        assert below == []  # a guess with a budget below the root is not cut into its cells
    assert guesses > 0


def test_an_interrupted_optimal_search_resumes_with_only_what_is_left(tmp_path):
    import numpy as np

    path, rules = tmp_path / "optimal.jsonl", Rules(max_guesses=5)
    first = PieceByPiece(seed=5, stop_after=40)
    with pytest.raises(KeyboardInterrupt):
        runner.run_search(make_strategy("optimal", rules, cache=False), first, checkpoint=path)
    recorded = [json.loads(line)["piece"] for line in path.read_text().splitlines()[1:]]
    solved = {p.key for p in _pieces(first) if p.kind != "plan"}
    assert solved <= {r["key"] for r in recorded} and len(solved) > 20  # each piece, as it finished
    again = PieceByPiece(seed=6)
    search = runner.run_search(make_strategy("optimal", rules, cache=False), again, checkpoint=path)
    assert search.tree.resumed > 0 and search.tree.pieces == len(again.solved) > 0  # (a set settled
    # whole counts once)
    assert not {p.key for p in _pieces(again)} & {r["key"] for r in recorded}  # nothing done twice
    assert search.tree.cost == 5626 and np.array_equal(search.tree.flat, _local_tree(rules))
    third = PieceByPiece()
    done = runner.run_search(make_strategy("optimal", rules, cache=False), third, checkpoint=path)
    assert third.solved == [] and np.array_equal(done.tree.flat, search.tree.flat)


def test_an_optimal_checkpoint_is_trusted_only_whole(tmp_path):
    path, rules = tmp_path / "optimal.jsonl", Rules()
    with pytest.raises(KeyboardInterrupt):
        runner.run_search(
            make_strategy("optimal", rules, cache=False), PieceByPiece(stop_after=8), checkpoint=path
        )
    lines = path.read_text().splitlines()
    at = max(i for i, line in enumerate(lines) if i and json.loads(line)["piece"]["tree"] is not None)
    item = json.loads(lines[at])
    item["piece"]["cost"] -= 1  # a tree of another cost, with its checksum made good
    item["check"] = runner.checksum(item["piece"])
    lines[at] = json.dumps(item)
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(CheckpointError, match=f"damaged at line {at + 1}"):
        runner.run_search(make_strategy("optimal", rules, cache=False), PieceByPiece(), checkpoint=path)
    with pytest.raises(CheckpointError, match="belongs to another run"):  # another guess limit
        runner.run_search(
            make_strategy("optimal", Rules(max_guesses=5), cache=False), PieceByPiece(), checkpoint=path
        )


def test_ties_go_to_the_root_guess_first_in_the_search_order_even_when_resumed(tmp_path, monkeypatch):
    import numpy as np

    from mastermind.strategies.optimal import in_pieces as split
    from mastermind.strategies.optimal import search as opt

    # 4 pegs 2 colours: root guesses 1111 (52 guesses in all), 1112 and 1122 (44 each), searched
    # in that order here; 1122 is found first and checkpointed, then the run stops. Resumed, 1112
    # must still be searched with room for a tie (a budget of 45), and win it.
    rules = Rules(pegs=4, colors=2)
    space = make_strategy("optimal", rules).space
    order = [space.index(c) for c in ((0, 0, 0, 0), (0, 0, 0, 1), (0, 0, 1, 1))]
    searched = opt.SearchGame.root_guesses

    def reordered(self, *args):
        codes, bounds = searched(self, *args)
        at = [codes.tolist().index(g) for g in order]
        return codes[at], np.full(3, bounds.min())  # equal bounds: explored in this order

    monkeypatch.setattr(opt.SearchGame, "root_guesses", reordered)
    # the 16 secrets are cut while no budget binds; a guess with a budget is one piece
    monkeypatch.setattr(split, "cut_sizes", lambda size, workers: (8, 16))
    costs = {g: opt.solve_piece(rules, (), first=g)[0] for g in order}
    assert list(costs.values()) == [52, 44, 44]
    path = tmp_path / "ties.jsonl"
    stopped = PieceByPiece(width=2, stop_after=5, last_first=True)  # the plan, 3 cells of 1111, 1122
    with pytest.raises(KeyboardInterrupt):
        runner.run_search(make_strategy("optimal", rules, cache=False), stopped, checkpoint=path)
    assert _pieces(stopped)[-1].guess == order[2]
    resumed = PieceByPiece()
    search = runner.run_search(make_strategy("optimal", rules, cache=False), resumed, checkpoint=path)
    assert [(p.kind, p.guess, p.budget) for p in _pieces(resumed)] == [
        ("plan", -1, opt.FAIL),
        ("guess", order[1], 45),
    ]
    assert search.tree.cost == 44 and search.tree.root.guess == order[1]
    assert np.array_equal(search.tree.flat, opt.solve_piece(rules, (), first=order[1])[1])


def test_a_guess_limit_too_small_for_the_search_in_pieces():
    from mastermind.errors import StrategyError

    with pytest.raises(StrategyError, match="the smallest limit that works is 5"):
        runner.run_search(make_strategy("optimal", Rules(max_guesses=4), cache=False), PieceByPiece())


@pytest.mark.slow
def test_the_optimal_search_on_dask_is_the_local_tree(dask_cluster):
    import numpy as np

    for rules, first in OPTIMAL_GAMES[:5]:
        search = runner.run_search(make_strategy("optimal", rules, first=first, cache=False), dask_cluster)
        assert np.array_equal(search.tree.flat, _local_tree(rules, first)), rules


@pytest.mark.slow
def test_the_optimal_search_survives_a_lost_dask_worker(dask_cluster):
    import os
    import signal

    import numpy as np

    client = dask_cluster.client
    victim = sorted(client.run(os.getpid).items())[0][1]
    killed = []

    def kill_once(status):
        if status.units_done >= 3 and not killed:
            os.kill(victim, signal.SIGKILL)
            killed.append(status.units_done)

    strategy = make_strategy("optimal", Rules(), cache=False)
    search = runner.run_search(strategy, dask_cluster, progress=kill_once)
    assert killed and killed[0] < search.tree.pieces
    assert search.tree.cost == 5625 and np.array_equal(search.tree.flat, _local_tree(Rules()))
    # The nanny starts a new worker; 120 s is a bound for a loaded 2-core machine, not a timing.
    client.wait_for_workers(2, timeout=120)


def test_the_search_in_pieces_reports_a_lower_bound_that_rises_to_the_least_total():
    from mastermind.strategies.optimal import in_pieces as split

    rules, seen = Rules(pegs=4, colors=7), []
    sol, _, _ = split.search_in_pieces(
        rules, PieceByPiece(seed=2, width=2).map, progress=seen.append, split=split.SERIAL_SET
    )
    lows = [status.lower for status in seen]
    assert None not in lows and lows == sorted(lows)  # only ever rises
    assert lows[0] < lows[-1] == sol.cost == 11228  # from the counting bound up to the optimum
    assert all(status.lower <= status.best for status in seen if status.best is not None)
    assert any(status.best is not None and status.lower < status.best for status in seen)
