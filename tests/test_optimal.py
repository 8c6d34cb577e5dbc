"""The optimal strategy: published totals, optimality against a plain search, determinism, cache."""

from __future__ import annotations

import functools
import json

import numpy as np
import pytest

from conftest import SMALL_GAMES
from mastermind import Rules, SolverState, evaluate, make_strategy, strategy_tree
from mastermind._kernels import exact as kernel
from mastermind._kernels import feedback
from mastermind.core.code import CodeSpace
from mastermind.core.feedback import score
from mastermind.errors import StrategyError
from mastermind.strategies.optimal import run as opt_run
from mastermind.strategies.optimal import search as opt
from mastermind.strategies.optimal import tables as opt_tables
from mastermind.strategies.optimal.strategy import Optimal


def plain_optimum(rules: Rules, secrets, left: int) -> int | None:
    """The least total number of guesses for ``secrets`` within ``left`` guesses, by trying every
    guess at every node: no bound, no symmetry, no shortcut (None if no tree fits).

    Results are memoised by the set of secrets (the same set always has the same optimum). A
    guess that leaves every secret in one cell is skipped: it would recurse on the same set.
    """
    space = CodeSpace.of(rules)
    codes = [space.code(i).colors for i in range(space.size)]
    won = (rules.pegs, 0)

    @functools.cache
    def cost(cell: frozenset, left: int) -> float:
        if left == 0:
            return float("inf")
        if len(cell) == 1:
            return 1
        best = float("inf")
        for g in range(space.size):
            parts: dict = {}
            for s in cell:
                parts.setdefault(tuple(score(codes[g], codes[s])), []).append(s)
            if len(parts) == 1 and won not in parts:
                continue
            total = len(cell) + sum(cost(frozenset(p), left - 1) for f, p in parts.items() if f != won)
            best = min(best, total)
        return best

    result = cost(frozenset(int(s) for s in secrets), left)
    return None if result == float("inf") else int(result)


def whole(rules: Rules, **kwargs) -> opt.Solution:
    sol = opt.solve_position(rules, np.arange(rules.size), **kwargs)
    assert sol is not None
    return sol


# -- published totals: Koyama and Lai, "An optimal Mastermind strategy", J. Recreational Mathematics
# 25 (1993), for the classic game; Ville, "An Optimal Mastermind (4,7) Strategy and More Results in the
# Expected Case" (2013), for the small games below -----------------------------------------------


@pytest.mark.parametrize(
    ("rules", "total", "worst"),
    [
        (Rules(), 5625, 6),  # Koyama and Lai
        (Rules(max_guesses=5), 5626, 5),  # Koyama and Lai, at most 5 guesses
        (Rules(pegs=3, colors=4), 206, None),
        (Rules(pegs=4, colors=4), 905, None),
        (Rules(pegs=5, colors=3), 816, None),
    ],
    ids=repr,
)
def test_published_totals(rules, total, worst):
    stats = evaluate(make_strategy("optimal", rules))
    assert stats.total == total
    assert stats.games == rules.size and stats.lost == 0
    if worst is not None:
        assert stats.max == worst
    if rules.colors == 6:
        assert str(stats.first_guess) == "1123"


@pytest.mark.slow
def test_four_pegs_seven_colours():
    stats = evaluate(make_strategy("optimal", Rules(pegs=4, colors=7)))
    assert stats.total == 11228  # Ville 2013


def test_an_impossible_guess_limit_names_the_smallest_that_works():
    with pytest.raises(StrategyError, match=r"within 4 guesses; the smallest limit that works is 5"):
        evaluate(make_strategy("optimal", Rules(max_guesses=4)))


def test_a_limit_the_first_root_guess_cannot_keep_is_no_tree_not_a_broken_one():
    # 3 pegs 5 colours within 4 guesses: the first root guess fails, so the others were searched
    # with no budget at all, and a failed search once passed for a tree (an IndexError).
    rules = Rules(pegs=3, colors=5)
    assert opt.solve_position(rules, np.arange(rules.size), left=4) is None
    with pytest.raises(StrategyError, match=r"within 2 guesses; the smallest limit that works is 5"):
        evaluate(make_strategy("optimal", Rules(pegs=3, colors=5, max_guesses=2), cache=False))


def test_a_budget_finds_only_a_tree_below_it():
    # the classic's position after 1122 got 1 black, 1234 played next: a tree at its least cost,
    # none below it (a race lets a guess tie its budget: solve_below does not)
    rules = Rules()
    state = SolverState(rules).add("1122", "1,0")
    cands = state.candidate_indices()
    space = CodeSpace.of(rules)
    guesses, first = [space.index(code.colors) for code, _ in state.history], space.index((0, 1, 2, 3))
    cost = opt.solve_position(rules, cands, guesses, first=first).cost
    assert opt.solve_below(rules, cands, guesses, rules.max_guesses - 1, first, cost) is None
    assert opt.solve_below(rules, cands, guesses, rules.max_guesses - 1, first, cost + 1).cost == cost


# -- optimality itself, against the plain search ----------------------------------------------

TINY = [
    Rules(pegs=2, colors=3),
    Rules(pegs=3, colors=3),
    Rules(pegs=2, colors=4),
    Rules(pegs=3, colors=2),
    Rules(pegs=3, colors=4, repeats=False),
    Rules(pegs=2, colors=5, repeats=False),
    Rules(pegs=1, colors=2),
]


@pytest.mark.parametrize("rules", TINY, ids=repr)
def test_whole_game_is_optimal(rules):
    sol = whole(rules)
    assert sol.cost == plain_optimum(rules, range(rules.size), rules.max_guesses)
    root = opt.check_tree(rules, sol.flat, np.arange(rules.size), rules.max_guesses)
    assert root.cost == sol.cost


@pytest.mark.parametrize("rules", [Rules(pegs=2, colors=4), Rules(), Rules(pegs=4, colors=5)], ids=repr)
def test_the_search_leaves_its_cell_counts_zero(rules):
    """Every node of the compiled search counts cells in one shared scratch array, which must be
    all zero between uses: a reply list once left behind in it made a later node count one
    guess's cells wrong, and prune that guess though it might have been the best."""
    game = opt.game_of(rules)
    run = opt_run._Run(game, 1)
    try:
        S = np.arange(rules.size)
        cost, flat = run.kernel_call(run.root, S, rules.max_guesses, opt.FAIL, game.group([]))
    finally:
        run.pool.shutdown()
    assert flat is not None and cost == {16: 45, 1296: 5625, 625: 2463}[rules.size]
    assert not run.local.counts.any()


@pytest.mark.parametrize(
    "rules", [Rules(pegs=3, colors=3, max_guesses=3), Rules(pegs=2, colors=4, max_guesses=3)], ids=repr
)
def test_guess_limit_is_optimal(rules):
    sol = opt.solve_position(rules, np.arange(rules.size))
    want = plain_optimum(rules, range(rules.size), rules.max_guesses)
    assert (sol.cost if sol else None) == want
    if sol is not None:
        assert opt.check_tree(rules, sol.flat, np.arange(rules.size), rules.max_guesses).depth() <= 3


@pytest.mark.parametrize("rules", [Rules(pegs=3, colors=3), Rules(pegs=3, colors=4, repeats=False)], ids=repr)
def test_every_position_after_one_guess_is_optimal(rules):
    """From any position: the search's total equals the plain search's for every first guess and
    reply, with the history's symmetry in play (and tighter guess limits)."""
    space = CodeSpace.of(rules)
    codes = [space.code(i).colors for i in range(space.size)]
    for g in range(space.size):
        replies: dict = {}
        for s in range(space.size):
            replies.setdefault(score(codes[g], codes[s]), []).append(s)
        for cell in replies.values():
            for left in (2, 3, rules.max_guesses - 1):
                sol = opt.solve_position(rules, np.array(cell), [g], left)
                assert (sol.cost if sol else None) == plain_optimum(rules, cell, left), (g, cell, left)


def test_symmetry_keeps_the_least_code_of_each_class():
    """Classic first guesses 1111 1112 1122 1123 1234; Bulls and Cows: 1 first guess, 20 second."""
    game = opt.game_of(Rules())
    S = np.arange(1296)
    codes, _ = game.root_guesses(S, 10, kernel.BIG, game.group([]))
    assert sorted(str(game.space.code(g)) for g in codes) == ["1111", "1112", "1122", "1123", "1234"]
    bc = Rules(pegs=4, colors=10, repeats=False)
    t = opt.game_of(bc).t
    rel = np.zeros(10, dtype=np.int64)

    def least(played):
        group, m, used = opt.game_of(bc).group(played)
        return [
            g
            for g in range(bc.size)
            if kernel.least_in_history_class(t.digits, g, group, 0, m, used, 4, 10, rel)
        ]

    firsts = least([])
    assert len(firsts) == 1
    assert len(least(firsts)) == 20


def test_lower_bound_table():
    lb, dmin = kernel.bounds(2000, 13)
    assert [lb[1], lb[2], lb[3], lb[14], lb[15], lb[183]] == [1, 3, 5, 27, 30, 534]
    assert [dmin[1], dmin[2], dmin[14], dmin[15], dmin[183], dmin[184], dmin[1296]] == [1, 2, 2, 3, 3, 4, 4]


def test_bounds_with_fewer_replies():
    """Row K of the table is the counting bound when at most K replies other than the win occur:
    row b is the plain bound, row 1 is 1 + 2 + ... + n (one secret found per guess)."""
    lb, _ = kernel.bounds(300, 13)
    rows = kernel.bounds_by_replies(300, 13)
    assert np.array_equal(rows[13], lb)
    n = np.arange(301)
    assert np.array_equal(rows[1], n * (n + 1) // 2)
    # K = 2, 8 secrets: 1 found with the 1st guess, 2 with the 2nd, 4 with the 3rd, 1 with the 4th
    assert [rows[2][k] for k in (1, 2, 3, 4, 8)] == [1, 3, 5, 8, 1 + 2 * 2 + 4 * 3 + 4]
    assert all((rows[k] >= rows[k + 1]).all() for k in range(1, 13))


# -- the memo and the cells bounded first: faster, and nothing else changes ---------------------


@pytest.fixture
def fresh_games(monkeypatch):
    """Search tables built anew (they carry PRE_NODE and PRE_CELL: set _GAMES to {} again after
    changing them), and the usual ones back afterwards."""
    monkeypatch.setattr(opt_tables, "_GAMES", {})
    return monkeypatch


@pytest.mark.parametrize(
    "rules",
    [Rules(pegs=4, colors=5), Rules(pegs=4, colors=6, repeats=False), Rules(pegs=3, colors=6, max_guesses=5)],
    ids=repr,
)
def test_the_memo_changes_no_tree(rules, fresh_games):
    """The same trees with the memo, without it, and with one so small that it is emptied again
    and again; from the start and from a position."""
    space = CodeSpace.of(rules)
    guess = space.index(tuple(min(i, rules.colors - 1) for i in range(rules.pegs)))
    replies = feedback.replies(opt.game_of(rules).codes, guess, np.arange(rules.size))
    cell = np.flatnonzero(replies == np.bincount(replies).argmax())  # the largest cell

    def both():
        return whole(rules, workers=1), opt.solve_position(rules, cell, [guess], workers=1)

    with_memo = both()
    fresh_games.setattr(opt_tables, "MEMO_PER_CODE", 0)
    assert len(opt_tables.new_memo(rules.size)) == 0
    without = both()
    fresh_games.setattr(opt_tables, "MEMO_PER_CODE", 2048)
    fresh_games.setattr(opt_tables, "MEMO_LIMIT", 2048)
    tiny = both()
    for a, b, c in zip(with_memo, without, tiny, strict=True):
        assert a is not None and b is not None and c is not None
        assert a.cost == b.cost == c.cost
        assert np.array_equal(a.flat, b.flat) and np.array_equal(a.flat, c.flat)


@pytest.mark.parametrize("rules", TINY, ids=repr)
def test_every_cell_bounded_first_is_still_optimal(rules, fresh_games):
    """With every cell of every tried guess bounded before it is solved (at every node), the
    totals are the plain search's and the trees those of the usual thresholds."""
    usual = whole(rules)
    fresh_games.setattr(opt_tables, "PRE_NODE", 3)
    fresh_games.setattr(opt_tables, "PRE_CELL", 3)
    fresh_games.setattr(opt_tables, "MEMO_PER_CODE", 0)
    fresh_games.setattr(opt_tables, "_GAMES", {})
    everywhere = whole(rules)
    assert opt.game_of(rules).t.pre_cell == 3
    assert everywhere.cost == plain_optimum(rules, range(rules.size), rules.max_guesses) == usual.cost
    assert np.array_equal(everywhere.flat, usual.flat)


def test_every_cell_bounded_first_the_same_trees_with_a_guess_limit(fresh_games):
    rules = Rules(pegs=4, colors=5, max_guesses=5)
    usual = whole(rules)
    fresh_games.setattr(opt_tables, "PRE_NODE", 3)
    fresh_games.setattr(opt_tables, "PRE_CELL", 3)
    fresh_games.setattr(opt_tables, "_GAMES", {})
    again = whole(rules)
    assert opt.game_of(rules).t.pre_node == 3
    assert again.cost == usual.cost == 2463 and np.array_equal(again.flat, usual.flat)


# -- determinism ------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", [Rules(pegs=4, colors=5), Rules(pegs=4, colors=6, repeats=False)], ids=repr)
def test_same_tree_whatever_the_workers(rules, monkeypatch):
    serial = whole(rules, workers=1)
    for split in (2, 8, 64):  # the parallel driver down to cells of size / split
        monkeypatch.setattr(opt_run, "SPLIT", split)
        monkeypatch.setattr(opt_run, "SERIAL_SET", 4)
        for workers in (2, 3):
            again = whole(rules, workers=workers)
            assert again.cost == serial.cost
            assert np.array_equal(again.flat, serial.flat), (split, workers)


def test_buffers_too_small_are_grown_and_the_search_run_again(monkeypatch):
    rules = Rules(pegs=4, colors=4)
    want = whole(rules, workers=1)
    monkeypatch.setattr(opt_run, "STACK_PER_CODE", 0)
    monkeypatch.setattr(opt_run, "ARENA_PER_CODE", 0)
    monkeypatch.setattr(opt_run, "BUFFER_EXTRA", 64)
    for workers in (1, 2):
        got = whole(rules, workers=workers)
        assert got.cost == want.cost == 905 and np.array_equal(got.flat, want.flat)


def test_eight_pegs_replies_beyond_a_64_bit_mask():
    rules = Rules(pegs=8, colors=2)  # replies up to 8 * 9 = 72: the cell-count path only
    sol = whole(rules)
    root = opt.check_tree(rules, sol.flat, np.arange(rules.size), rules.max_guesses)
    assert root.cost == sol.cost
    assert sol.cost <= min(evaluate(make_strategy(n, rules)).total for n in ("knuth", "most-parts"))


# -- games too large for the reply matrix: replies computed where needed ------------------------


@pytest.fixture
def no_matrix(monkeypatch):
    """Every game searched without the reply matrix, as games over MATRIX_LIMIT codes are."""
    monkeypatch.setattr(opt_tables, "MATRIX_LIMIT", 0)
    monkeypatch.setattr(opt_tables, "_GAMES", {})
    yield
    assert all(g.t.fbm.shape == (0, 0) for g in opt_tables._GAMES.values())


@pytest.mark.parametrize("rules", TINY, ids=repr)
def test_without_the_matrix_whole_game_is_optimal(rules, no_matrix):
    sol = whole(rules)
    assert sol.cost == plain_optimum(rules, range(rules.size), rules.max_guesses)
    assert opt.check_tree(rules, sol.flat, np.arange(rules.size), rules.max_guesses).cost == sol.cost


@pytest.mark.parametrize(
    "rules",
    [
        Rules(),
        Rules(max_guesses=5),
        Rules(pegs=4, colors=5),
        Rules(pegs=5, colors=3),
        Rules(pegs=4, colors=6, repeats=False),
        Rules(pegs=8, colors=2),
    ],
    ids=repr,
)
def test_without_the_matrix_the_same_tree(rules, monkeypatch):
    with_matrix = whole(rules)
    monkeypatch.setattr(opt_tables, "MATRIX_LIMIT", 0)
    monkeypatch.setattr(opt_tables, "_GAMES", {})
    without = whole(rules)
    assert opt.game_of(rules).t.fbm.shape == (0, 0)
    assert without.cost == with_matrix.cost and np.array_equal(without.flat, with_matrix.flat)
    # and from a position, with the history's symmetry
    pegs = range(rules.pegs)
    colours = tuple(min(i // 2, rules.colors - 1) for i in pegs) if rules.repeats else tuple(pegs)
    guess = CodeSpace.of(rules).index(colours)
    cell = np.flatnonzero(feedback.replies(opt.game_of(rules).codes, guess, np.arange(rules.size)) == 1)
    if len(cell) > 2:
        sol = opt.solve_position(rules, cell, [guess])
        monkeypatch.setattr(opt_tables, "MATRIX_LIMIT", rules.size)
        again = opt.solve_position(rules, cell, [guess])
        assert sol is not None and again is not None
        assert sol.cost == again.cost and np.array_equal(sol.flat, again.flat)


def test_a_game_over_the_matrix_limit_is_searched():
    """6 pegs 6 colours (46,656 codes): the strategy accepts it, and a position deep enough to
    finish quickly is solved exactly (its total checked by replaying the tree)."""
    rules = Rules(pegs=6, colors=6)
    assert rules.size > opt_tables.MATRIX_LIMIT
    player = make_strategy("optimal", rules)
    state = SolverState(rules).add("111223", "0,1").add("344556", "1,1")
    cands = state.candidate_indices()
    assert len(cands) == 53
    node = player.node(state)
    assert opt.game_of(rules).t.fbm.shape == (0, 0)
    assert node.size == len(cands)
    guesses = [player.space.index(c.colors) for c, _ in state.history]
    sol = opt.solve_position(rules, cands, guesses)
    assert sol is not None and sol.cost == node.cost
    assert opt.check_tree(rules, sol.flat, cands, rules.max_guesses - 2).cost == node.cost


# -- the strategy -----------------------------------------------------------------------------


def test_strategy_plays_its_tree_from_any_position():
    rules = Rules(pegs=3, colors=4)
    player = make_strategy("optimal", rules)
    stats = evaluate(player)
    walked = strategy_tree(player)  # the reference walk: plays choose() node by node

    def same(a, b) -> None:
        assert (a.guess, a.size, sorted(a.children)) == (b.guess, b.size, sorted(b.children))
        for f in a.children:
            same(a.children[f], b.children[f])

    same(walked, player.decision_tree())
    assert walked.distribution() == stats.distribution and walked.depth() == stats.max
    assert stats.total == 206
    state = SolverState(rules)
    assert player.expected_guesses(state) == pytest.approx(206 / 64)
    # a position the tree never reaches: searched on its own, and optimal
    state = state.add("444", "0,0")
    cands = state.candidate_indices()
    want = plain_optimum(rules, cands, rules.max_guesses - 1)
    assert player.expected_guesses(state) == pytest.approx(want / len(cands))
    assert player.choose(state) in range(rules.size)


def test_first_guess_override():
    rules = Rules(pegs=3, colors=4)
    forced = make_strategy("optimal", rules, first="111")
    stats = evaluate(forced)
    assert str(stats.first_guess) == "111"
    space = CodeSpace.of(rules)
    g = space.index((0, 0, 0))
    cells: dict = {}
    for s in range(space.size):
        cells.setdefault(score(space.code(g).colors, space.code(s).colors), []).append(s)
    want = rules.size + sum(
        plain_optimum(rules, c, rules.max_guesses - 1) for f, c in cells.items() if f != (3, 0)
    )
    assert stats.total == want


def test_progress_reports_root_guesses_and_best_total():
    seen = []
    whole(Rules(), progress=lambda p: seen.append((p.units_done, p.units, p.best)))
    assert seen and all(0 <= done <= of for done, of, _ in seen)
    assert [d for d, _, _ in seen] == sorted(d for d, _, _ in seen)
    assert seen[-1][0] == seen[-1][1] and seen[-1][2] == 5625
    # the first guess's 13 cells (replies other than the win), then the 4 other first guesses,
    # of which 1111 (bound 5880) is pruned once 5625 is known
    assert seen[0][1] == 13 + 4 and (13, 16, 5625) in seen and seen[-1] == (16, 16, 5625)


def test_progress_moves_with_a_single_root_guess():
    """Without repeats every first guess is alike (one root guess, as in Bulls and Cows): the
    progress counts that guess's cells as they are solved."""
    rules = Rules(pegs=4, colors=6, repeats=False)
    seen = []
    sol = whole(rules, progress=lambda p: seen.append((p.units_done, p.units, p.best)), workers=2)
    replies = feedback.cells(opt.game_of(rules).codes, sol.tree().guess, np.arange(rules.size))
    n = len(replies) - 1  # the win has no cell
    assert [d for d, _, _ in seen] == sorted(d for d, _, _ in seen)
    assert len({d for d, _, _ in seen}) > 3 and all(of == n for _, of, _ in seen)
    assert all(best is None for d, _, best in seen if d < n) and seen[-1] == (n, n, sol.cost)


def test_an_interrupt_stops_the_search():
    def interrupt(status):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        opt.solve_position(Rules(pegs=4, colors=5), np.arange(625), progress=interrupt, workers=2)


# -- the cache --------------------------------------------------------------------------------


def test_the_tree_is_cached_and_a_corrupt_file_is_rebuilt():
    rules = Rules(pegs=3, colors=4)
    first = Optimal(rules)
    assert first.decision_tree().cost == 206
    path = first.cache_path()
    assert path.exists()
    assert Optimal(rules)._load() is not None

    path.write_bytes(b"not a tree")  # garbage
    assert Optimal(rules)._load() is None
    assert Optimal(rules).decision_tree().cost == 206  # rebuilt ...
    assert Optimal(rules)._load() is not None  # ... and saved again

    # a wrong tree with a matching checksum is caught by replaying it
    with np.load(path) as data:
        flat, meta = np.array(data["flat"]), json.loads(str(data["meta"]))
    flat[0] = (flat[0] + 1) % rules.size
    import hashlib

    meta["sha256"] = hashlib.sha256(flat.tobytes()).hexdigest()
    np.savez(path, flat=flat, meta=np.array(json.dumps(meta)))
    assert Optimal(rules)._load() is None
    assert evaluate(make_strategy("optimal", rules)).total == 206


def test_cache_is_keyed_by_the_rules():
    a, b = Optimal(Rules(pegs=3, colors=4)), Optimal(Rules(pegs=3, colors=4, max_guesses=3))
    assert a.cache_path() != b.cache_path()
    assert a.decision_tree().cost == 206
    assert b._load() is None


@pytest.mark.parametrize("rules", SMALL_GAMES, ids=repr)
def test_conftest_small_games(rules):
    """Every small game of the suite: a tree that checks out, equal to the walked strategy."""
    player = make_strategy("optimal", rules)
    stats = evaluate(player)
    root = player.decision_tree()
    assert stats.total == root.cost and stats.distribution == root.distribution()
