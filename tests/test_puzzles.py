"""Puzzles from the optimal trees (games/tree_puzzles.py), the rating's movement, and the puzzles'
API of the web server (web/puzzles.py): a try, a wrong try, the solution, a second visitor with a
rating of their own.

Hand-computed values of the classic game: after 1123 got 1 black and 3 whites, 4 codes are left
(1231 1312 2131 3112); a guess among them that tells the other three apart finds them in
1 + 2 + 2 + 2 = 7 guesses, the least any play can (one code at the first guess at most, the rest
at the second at best): 7/4 = 1.75 expected, every code left alone (1.0 on average). After 1122
got 2 and 2, the 4 codes 1212 1221 2112 2121 pair up under any of them (1212 against 1221 and
against 2112 both give 2 and 2), so a code among them takes 1 + 2 + 3 + 2 = 8; 8/4 = 2.0 is the
optimum there (no guess splits 4 codes into 4 and finds one of them, by the same symmetry).
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from mastermind import CodeSpace, Notation, Rules
from mastermind.games.puzzles import (
    START,
    expected_score,
    facts,
    first_try,
    goal,
    heading,
    nearest,
    puzzle_rating,
    rate,
    rated,
    rating_words,
    solution,
    tree_puzzles,
)
from mastermind.games.puzzles import serve as serve_puzzle
from mastermind.games.tree_puzzles import accepted_counts, tree_positions, tree_practice
from mastermind.history.puzzle_ratings import Standing

CLASSIC = Rules()


def by_key(key: str):
    [puzzle] = [p for p in tree_puzzles(CLASSIC) if p.key == key]
    return puzzle


def test_tree_positions_are_drawn_from_the_book_after_each_first_guess_and_the_optimal_second():
    positions = tree_positions(CLASSIC)
    keys = [t.key for t in positions]
    assert len(keys) == len(set(keys)) == 110
    assert all(3 <= t.position.count <= 64 for t in positions)
    first = [t for t in positions if t.position.number == 2]
    # the replies to 1111, 1112, 1122, 1123 and 1234 that leave 3 to 64 codes: 1, 5, 5, 5 and 6
    assert len(first) == 22
    assert all(t.key.startswith("1123-") for t in positions if t.position.number == 3)
    assert tree_positions(Rules(pegs=3, colors=4)) == () and tree_puzzles(Rules(pegs=4, colors=7)) == []


def test_tree_puzzles_values_by_hand():
    four = by_key("1123-13")
    p = four.position
    notation = Notation(CLASSIC)
    assert [notation.format_code(c) for c in p.codes] == ["1231", "1312", "2131", "3112"]
    assert p.best_expected == Fraction(7, 4) and four.best_mean_left == 1.0
    assert four.accepted == 4 and four.rating == pytest.approx(START + 400 * math.log10(0.5 / 4.5))
    pairs = by_key("1122-22")
    assert pairs.position.best_expected == 2 and pairs.best_mean_left == 1.5  # 1 + 2 + 1 codes left, twice
    assert goal(four) == (
        "Find a guess within 0.1 of the best here (the best: 1.7500 guesses expected, "
        "1.00 codes left on average)."
    )
    practice = tree_practice(CLASSIC)
    # a code outside the position that splits the four: 2 guesses each, 8 in all, 2.0 expected
    tried = practice.attempt(p, "1111")
    assert tried.expected is not None and not tried.accepted and tried.expected > Fraction(7, 4)
    best = practice.attempt(p, p.best)
    assert best.accepted and best.expected == Fraction(7, 4)


def test_the_shipped_counts_of_accepted_codes_are_the_searchs():
    counts, practice = accepted_counts(CLASSIC), tree_practice(CLASSIC)
    assert set(counts) == {t.key for t in tree_positions(CLASSIC)}
    small = [t for t in tree_positions(CLASSIC) if t.position.count <= 8]
    assert len(small) >= 20
    for t in small:
        assert rate(practice, t.position).accepted == counts[t.key], t.key


def test_the_trees_puzzles_run_from_easy_to_hard_and_the_nearest_to_the_player_is_served():
    puzzles = tree_puzzles(CLASSIC)
    ratings = [p.rating for p in puzzles]
    assert ratings == sorted(ratings) and ratings[0] < 1000 and ratings[-1] > 2200
    assert all(p.rating == puzzle_rating(p.position.count, p.accepted) for p in puzzles)
    own = [rate(tree_practice(CLASSIC), puzzles[5].position, source="game", key="1:2")]
    # the nearest to the player, a game's on a tie; those done are passed over
    assert nearest(own + puzzles, puzzles[5].rating, ()) is own[0]
    assert nearest(puzzles, 1500, ()) is min(puzzles, key=lambda p: abs(p.rating - 1500))
    done = {f"tree:{p.key}" for p in puzzles[1:]}
    assert nearest(puzzles, 3000, done) is puzzles[0]
    assert nearest(puzzles, 1500, {*done, "tree:" + puzzles[0].key}) is None


def test_the_rating_moves_by_elo():
    puzzle = by_key("1123-13").rating  # 1118.3: a player of 1500 expects to solve it 9 times in 10
    assert expected_score(1500, puzzle) == pytest.approx(1 / (1 + 10 ** ((puzzle - 1500) / 400)))
    assert rated(1500, puzzle, True) == pytest.approx(1500 + 32 * (1 - expected_score(1500, puzzle)))
    assert rated(1500, puzzle, True) - 1500 < 1500 - rated(1500, puzzle, False)  # failing it costs more
    assert round(rated(1500, puzzle, True)) == 1503 and round(rated(1500, puzzle, False)) == 1471


def test_the_puzzle_served_stays_until_its_first_try_which_alone_moves_the_rating():
    """The rules the web server keeps a visitor's standing by (once written in web/puzzles.py)."""
    puzzles, s = tree_puzzles(CLASSIC), Standing(START)
    served, changed = serve_puzzle(s, puzzles)
    assert (served.name, served.rating, changed) == ("tree:1123-00_4456-03", 1500.0, True)
    assert s.current == served.name and not s.tried
    assert serve_puzzle(s, puzzles) == (served, False)  # a reload: the same puzzle, nothing to keep
    assert first_try(s, by_key("1123-13"), True) is None  # not the puzzle served: nothing moves
    assert first_try(s, served, True) == (1500.0, 1516.0)
    assert (s.rating, s.puzzles, s.solved, s.tried, s.done) == (1516.0, 1, 1, True, [served.name])
    assert first_try(s, served, False) is None and s.rating == 1516.0  # a later try only teaches
    after, changed = serve_puzzle(s, puzzles)
    assert (after.name, changed, s.current, s.tried) == ("tree:1123-11_1415-02", True, after.name, False)
    assert first_try(s, after, False) == (1516.0, rated(1516.0, after.rating, False))  # the solution asked
    assert (s.puzzles, s.solved, s.done) == (2, 1, [served.name, after.name])


def test_every_puzzle_played_the_next_round_begins_again():
    puzzles = tree_puzzles(CLASSIC)[:2]
    s = Standing(START, current=puzzles[1].name, tried=True, done=[p.name for p in puzzles])
    served, changed = serve_puzzle(s, puzzles)
    assert (served, changed, s.done, s.current) == (puzzles[1], True, [], puzzles[1].name)
    assert serve_puzzle(Standing(START), []) == (None, False)


def test_the_solution_is_said_in_one_sentence_for_every_front_end():
    assert solution(by_key("1123-13"), Notation(CLASSIC)) == "The solution: 1231, 1.7500 guesses expected."
    assert by_key("1123-13").name == "tree:1123-13"


def test_the_puzzles_are_those_of_the_players_latest_finished_games_of_play_and_the_trees():
    """Every front end's pool: a game the computer broke, a match or a game still playing gives
    none; of the games of play, the latest GAMES; a local game's puzzles named by its id (the
    line session's were all named ``game:`` before, so none could be remembered as played)."""
    from mastermind import Game
    from mastermind.games.puzzles import GAMES, puzzle_games, puzzles_for
    from mastermind.history.records import StoredGame

    game = Game.breaking(CLASSIC, seed=1)
    game.secret = game.notation.parse_code("3456")
    for guess in ("1111", "2222", "3333", "3444", "3455", "1234", "3456"):  # a blunder at guess 6
        game.guess(guess)
    record = game.record()

    def stored(i: int, kind: str = "play", finished: bool = True) -> StoredGame:
        return StoredGame(i, kind, "", "", finished, "won", record)

    games = [stored(i) for i in range(1, GAMES + 5)]  # GAMES + 1 finished games of play among them
    games[3], games[5], games[-1] = stored(4, "guess"), stored(6, "match"), stored(GAMES + 4, finished=False)
    assert [g.id for g in puzzle_games(games)] == [i for i in range(2, GAMES + 4) if i not in (4, 6)]
    found = puzzles_for([stored(7)], CLASSIC)
    assert [p.name for p in found if p.source == "game"] == ["game:7:6"]
    assert found[1:] == tree_puzzles(CLASSIC)


# -- the API ----------------------------------------------------------------------------------------

pytest.importorskip("aiohttp", reason="the web extra (aiohttp) is not installed")

from test_web_api import call, serve  # noqa: E402


def a_wrong_guess(puzzle) -> str:
    space, practice = CodeSpace.of(CLASSIC), puzzle.practice
    for i in range(space.size):
        if not practice.attempt(puzzle.position, space.code(i)).accepted:
            return str(space.code(i))
    raise AssertionError("every code solves it")


def test_the_api_serves_a_puzzle_values_tries_shows_the_solution_and_keeps_each_visitors_rating(tmp_path):
    puzzles = tree_puzzles(CLASSIC)
    first = nearest(puzzles, START, ())
    assert first is not None

    async def scenario(app, one, two):
        got = await call(one, "GET", "/api/puzzles/next")
        shown = got["puzzle"]
        words = "Your rating 1500 · 0 puzzles, 0 solved at the first try"
        assert got["player"] == {"rating": 1500, "puzzles": 0, "solved": 0, "words": words}
        assert shown["id"] == f"tree:{first.key}" and shown["source"] == "tree"
        assert shown["rating"] == round(first.rating) and shown["count"] == first.position.count
        assert "best" not in shown and shown["goal"] == goal(first)
        assert shown["heading"] == heading(first) and shown["facts"] == facts(first, Notation(CLASSIC))
        again = await call(one, "GET", "/api/puzzles/next")  # not tried yet: the same one
        assert again["puzzle"]["id"] == shown["id"]
        await call(one, "POST", f"/api/puzzles/{shown['id']}/try", {"guess": "1239"}, status=400)
        wrong = await call(one, "POST", f"/api/puzzles/{shown['id']}/try", {"guess": a_wrong_guess(first)})
        assert not wrong["try"]["accepted"] and wrong["try"]["words"].endswith("of the best is accepted.")
        after = round(rated(START, first.rating, False))
        moved = rating_words(START, rated(START, first.rating, False), first)
        assert wrong["rated"] == {"before": 1500, "after": after, "solved": False, "words": moved}
        assert wrong["player"] == {
            "rating": after,
            "puzzles": 1,
            "solved": 0,
            "words": f"Your rating {after} · 1 puzzle, 0 solved at the first try",
        }
        best = Notation(CLASSIC).format_code(first.position.best)
        right = await call(one, "POST", f"/api/puzzles/{shown['id']}/try", {"guess": best})
        assert right["try"]["accepted"] and right["rated"] is None  # later tries teach, rate nothing
        assert right["player"]["rating"] == after
        # the next is another puzzle; its solution asked first counts as not solved
        second = (await call(one, "GET", "/api/puzzles/next"))["puzzle"]
        assert second["id"] != shown["id"]
        told = await call(one, "POST", f"/api/puzzles/{second['id']}/solution")
        [puzzle] = [p for p in puzzles if f"tree:{p.key}" == second["id"]]
        assert told["solution"]["guess"] == Notation(CLASSIC).format_code(puzzle.position.best)
        assert told["solution"]["expected"] == round(float(puzzle.position.best_expected), 6)
        lower = rated(rated(START, first.rating, False), puzzle.rating, False)
        assert told["rated"]["solved"] is False and told["player"]["rating"] == round(lower)
        # a second visitor: a rating of their own, and the first puzzle
        other = await call(two, "GET", "/api/puzzles/next")
        assert other["player"]["rating"] == 1500 and other["puzzle"]["id"] == shown["id"]
        mine = await call(one, "GET", "/api/puzzles/next")
        assert mine["player"]["rating"] == round(lower) and mine["player"]["puzzles"] == 2
        await call(one, "POST", "/api/puzzles/tree:9999-00/try", {"guess": "1234"}, status=404)

    serve(tmp_path, scenario, visitors=2)
    assert (tmp_path / "puzzle-ratings.sqlite3").exists()


def test_the_api_serves_the_positions_of_the_visitors_own_games(tmp_path):
    from mastermind import SolverState, review
    from mastermind.games.puzzles import puzzles_of
    from mastermind.strategies import make_strategy

    async def scenario(app, one, two):
        game = await call(one, "POST", "/api/games", {"mode": "break"}, status=201)
        path = f"/api/games/{game['id']}"
        knuth, space, state = make_strategy("knuth", CLASSIC), CodeSpace.of(CLASSIC), SolverState(CLASSIC)
        wasted, answer = False, {"finished": False}
        while not answer["finished"]:
            few = 3 <= len(state.candidate_indices()) <= 64
            # once few codes are left, 1111 again: it tells nothing, a blunder
            guess = "1111" if few and not wasted else str(space.code(knuth.choose(state)))
            wasted = wasted or guess == "1111"
            answer = await call(one, "POST", f"{path}/guesses", {"guess": guess})
            state = state.add(guess, answer["reply"])
        assert wasted
        history = " ".join(f"{m['guess']}={m['reply']}" for m in answer["moves"])
        own = list(puzzles_of(review(history), game["id"]))
        assert own and all(p.key.startswith(f"{game['id']}:") for p in own)
        puzzle = own[-1]
        ident = f"game:{puzzle.key}"
        best = Notation(CLASSIC).format_code(puzzle.position.best)
        good = await call(one, "POST", f"/api/puzzles/{ident}/try", {"guess": best})
        assert good["try"]["accepted"] and good["rated"] is None  # not the puzzle served: no rating moves
        bad = await call(one, "POST", f"/api/puzzles/{ident}/try", {"guess": "1111"})
        assert not bad["try"]["accepted"] and bad["try"]["verdict"] in ("mistake", "blunder")
        await call(two, "POST", f"/api/puzzles/{ident}/try", {"guess": best}, status=404)  # not theirs
        # the served puzzle is the one rated nearest 1500, of the games' and the trees'
        served = (await call(one, "GET", "/api/puzzles/next"))["puzzle"]
        every = own + tree_puzzles(CLASSIC)
        assert served["id"] == "{0.source}:{0.key}".format(nearest(every, START, ()))

    serve(tmp_path, scenario, visitors=2)


def test_the_web_page_and_the_command_line_rate_the_same_tries_alike(tmp_path):
    """A player with no game, on the web page and at the command line: the same puzzles served in
    the same order, and for the same tries (a wrong first try then the solution; the solution
    asked first; the best guess) the same rating lines and the same standing."""
    from click.testing import CliRunner

    from mastermind.cli import cli

    puzzles, s, served = tree_puzzles(CLASSIC), Standing(START), []
    for solved in (False, False, True):
        puzzle, _ = serve_puzzle(s, puzzles)
        assert puzzle is not None
        served.append(puzzle)
        first_try(s, puzzle, solved)
    one, two, three = served
    best = Notation(CLASSIC).format_code(three.position.best)
    typed = [a_wrong_guess(one), "solution", "solution", best]
    result = CliRunner().invoke(
        cli,
        ["review", "--puzzles", "--db", str(tmp_path / "cli" / "h.sqlite3")],
        input="\n".join(typed) + "\n",
    )
    assert result.exit_code == 0, result.output
    line = [x for x in result.output.splitlines() if x.startswith("Rating ")]
    headings = [x for x in result.output.splitlines() if x.startswith("A puzzle from ")]
    assert headings[:3] == [f"{heading(p)}." for p in served]

    async def scenario(app, visitor):
        web, shown = [], []
        for guesses, ask in (([typed[0]], True), ([], True), ([best], False)):
            puzzle = (await call(visitor, "GET", "/api/puzzles/next"))["puzzle"]
            shown.append(puzzle["heading"] + ".")
            for guess in guesses:
                web.append(await call(visitor, "POST", f"/api/puzzles/{puzzle['id']}/try", {"guess": guess}))
            if ask:
                web.append(await call(visitor, "POST", f"/api/puzzles/{puzzle['id']}/solution"))
        assert shown == headings[:3]
        assert [a["rated"]["words"] for a in web if a["rated"]] == line
        assert web[-1]["player"]["words"] + "." == result.output.splitlines()[-1]

    serve(tmp_path, scenario)
    assert round(s.rating) == int(line[-1].split()[3])  # the line's last rating: the rule's
