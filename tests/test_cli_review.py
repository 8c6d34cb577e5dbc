"""mastermind review, and the review at the end of mastermind play, through the real entry point.

The classic optimum, 5625 guesses over 1,296 secrets with first guess 1123, is Koyama and Lai's
("An optimal Mastermind strategy", JRM 25, 1993).
"""

import json
import math

from click.testing import CliRunner

from mastermind.cli import cli

README_GAME = ["1122=1,1", "1344=1,1", "1235=0,3", "3312=0,2", "2154=4,0"]


def run(*args, input=None):
    result = CliRunner().invoke(cli, list(args), input=input)
    return result.exit_code, result.stdout, result.stderr


def one_line_error(code, out, err):
    return code == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err


def test_a_history_reviewed_as_a_table():
    code, out, err = run("review", *README_GAME)
    assert code == 0, err
    rows = [line.split() for line in out.splitlines() if "->" in line]
    assert [r[1] for r in rows] == ["1122", "1344", "1235", "3312", "2154"]
    assert rows[0][8:10] == ["1123", "4.3403"] and rows[0][11] == "good"
    assert rows[-1][-1] == "best"
    assert "best play expects 4.3403 from the first move" in out
    assert "left: 2154 3312 3321 6312 6321" in out  # five codes left after 1235: listed


def test_json_is_the_engines_review():
    from mastermind import review

    code, out, _ = run("review", *README_GAME, "--json")
    assert code == 0
    data = json.loads(out)
    assert data == {**review(" ".join(README_GAME)).to_dict(), "game": None}
    assert data["moves"][0]["best_expected"] == round(5625 / 1296, 6)


def test_the_latest_finished_play_game_is_reviewed_by_default(tmp_path):
    db = str(tmp_path / "h.sqlite3")
    code, out, _ = run("play", "--seed", "2026", "--db", db, input="1122\n1344\n1235\n3312\n2154\n")
    assert code == 0 and "mastermind review --db" in out and "--game 1" in out
    run("play", "--seed", "5", "--db", db, input="1122\n")  # unfinished: not the default
    code, out, _ = run("review", "--db", db, "--json")
    assert code == 0
    data = json.loads(out)
    assert data["game"] == 1 and data["secret"] == "2154" and data["summary"]["outcome"] == "won"
    assert [m["guess"] for m in data["moves"]] == ["1122", "1344", "1235", "3312", "2154"]
    code, out2, _ = run("review", "--db", db, "--game", "1", "--json")
    assert json.loads(out2) == data


def test_a_game_given_up_before_its_first_guess_has_no_review(tmp_path):
    # the engine's rule (games.reviewable), the boards' and the web page's: nothing to value. play
    # names no review; review alone takes the game before; asked for, the reason in one line
    db = str(tmp_path / "h.sqlite3")
    run("play", "--seed", "2026", "--db", db, input="1122\n1344\n1235\n3312\n2154\n")
    code, out, _ = run("play", "--seed", "5", "--db", db, input="quit\n")
    assert code == 1 and "mastermind review" not in out
    code, out, _ = run("play", "--seed", "6", "--db", db, "--review", input="quit\n")
    assert "No review: the game was given up before its first guess" in out
    code, out, _ = run("review", "--db", db, "--json")
    assert code == 0 and json.loads(out)["game"] == 1
    code, out, err = run("review", "--db", db, "--game", "2")
    assert one_line_error(code, out, err) and "given up before its first guess" in err


def test_bad_input_is_one_line_and_status_2(tmp_path):
    db = str(tmp_path / "h.sqlite3")
    assert one_line_error(*run("review", "--db", db))  # no finished game yet
    run("play", "--seed", "5", "--db", db, input="1122\n")
    code, out, err = run("review", "--db", db, "--game", "1")
    assert one_line_error(code, out, err) and "not finished" in err
    assert one_line_error(*run("review", "--db", db, "--game", "7"))
    code, out, err = run("review", "1122=1,0", "1122=0,1")
    assert one_line_error(code, out, err) and "contradict" in err
    assert one_line_error(*run("review", "1122=4,0", "1234=0,0"))
    assert one_line_error(*run("review", "1122=1,0", "--game", "1", "--db", db))
    assert one_line_error(*run("review", "1122=1,0", "--budget", "-2"))
    assert one_line_error(*run("review", "1122=1,0", "--budget", "soon"))
    # the budget is a duration, as evaluate's: 1s reviews as 1 does
    assert run("review", "1122=1,0", "--budget", "1s")[1] == run("review", "1122=1,0", "--budget", "1")[1]
    assert one_line_error(*run("review", "1122=1,0", "--plot", "chart.txt"))
    assert one_line_error(*run("review", "11223=1,0"))


def test_a_match_is_reviewed_game_by_game_both_sides(tmp_path):
    from mastermind.games.match_review import review_match
    from mastermind.history.store import Store

    db = str(tmp_path / "h.sqlite3")
    code, _, _ = run("match", "--players", "knuth,entropy", "--games", "2", "--seed", "1", "--db", db)
    assert code == 0
    code, out, err = run("review", "--db", db, "--game", "1")
    assert code == 0, err
    assert "Match 1, game 1: player 2 (entropy) breaks the code." in out
    assert "Match 1, game 2: player 1 (knuth) breaks the code." in out
    with Store(db) as store:
        expected = review_match(store.get(1).record)
    assert out.splitlines()[-2:] == expected.summary_lines()
    assert expected.summary_lines()[0].startswith("Player 1 (knuth): ")
    code, out, _ = run("review", "--db", db, "--game", "1", "--json")
    data = json.loads(out)
    assert [(g["number"], g["breaker"]) for g in data["games"]] == [(1, 2), (2, 1)]
    assert [p["name"] for p in data["players"]] == ["knuth", "entropy"]
    code, out, err = run("review", "--db", db, "--game", "1", "--practice")
    assert one_line_error(code, out, err) and "a match's games are reviewed, not practised" in err


def test_a_match_is_reviewed_once_over_as_on_the_boards_and_its_end_names_the_command(tmp_path):
    # the engine's rule (games.reviewable): a match is reviewed whole, once over, as the board and
    # the web page offer it; its end names the command, as play's end does
    db = str(tmp_path / "h.sqlite3")
    code, out, _ = run("match", "--players", "human,knuth", "--seed", "1", "--db", db, input="1234\nquit\n")
    assert code == 1 and "mastermind review" not in out  # stopped after game 1 of 2
    code, out, err = run("review", "--db", db, "--game", "1")
    assert one_line_error(code, out, err) and "the match is not over: resume it first" in err
    code, out, _ = run("match", "--players", "knuth,entropy", "--seed", "1", "--db", db)
    assert code == 0 and out.endswith(f"mastermind review --db {db} --game 2\n")


def test_the_plot_is_written(tmp_path):
    path = tmp_path / "review.png"
    code, _, err = run("review", *README_GAME, "--plot", str(path))
    assert code == 0 and path.stat().st_size > 0 and "chart written" in err


def test_play_reviews_the_game_at_its_end():
    code, out, _ = run(
        "play", "--seed", "2026", "--no-history", "--review", input="1122\n1344\n1235\n3312\n1111\n2154\n"
    )
    assert code == 0
    assert "You broke the code in 6 guesses!" in out
    assert "The code was known and not played 1 time." in out
    rows = [line.split() for line in out.splitlines() if "->" in line]
    assert rows[3][-2:] == ["best", "!"] and rows[4][-2:] == ["blunder", "x"]


def test_the_review_draws_the_game_on_a_chart_and_ends_with_a_line_to_share():
    code, out, err = run("review", "1123=0,0", "4456=3,0", "4455=4,0")
    assert code == 0, err
    lines = out.splitlines()
    chart = lines[lines.index("codes left  o your guesses  + the best guess  * both") :]
    # 1,296 codes, then 81 after 1123 (near the 74 row), 8 after 4456, the win: each the best's too
    assert [chart[1], chart[3], chart[5], chart[6]] == [
        " 1296 ┤*",
        "   74 ┤    *",
        "    4 ┤        *",
        "    1 ┤            *",
    ]
    assert chart[9].split() == ["★", "★", "?!"]
    assert "Accuracy 85, luck 66 (out of 100; 50 is average luck)." in lines
    assert lines[-1] == "Share: Mastermind 4x6: won in 3 (best play 4.34) · accuracy 85 · luck 66 · ★ ★ ?!"


def test_json_has_accuracy_and_luck_per_move_and_per_game():
    code, out, _ = run("review", *README_GAME, "--json")
    assert code == 0
    data = json.loads(out)
    assert [m["verdict"] for m in data["moves"]] == ["good", "good", "good", "best", "best"]
    knuth = round(100 * 2 ** (-(77 / 1296) / 0.3), 2)  # 1122 first loses 77/1296 (5702 - 5625)
    assert data["moves"][3]["accuracy"] == 100.0 and data["moves"][0]["accuracy"] == knuth
    assert all(0 < m["luck"] < 100 for m in data["moves"])
    assert data["summary"]["accuracy"] == round(sum(m["accuracy"] for m in data["moves"]) / 5, 2)
    assert data["summary"]["share"].endswith("accuracy 92 · luck 48 · ✓ ✓ ✓ ★ ★")


PRACTICE_GAME = ["1111=0,0", "2222=0,0", "3333=1,0", "3444=2,0", "3455=3,0", "1234=0,2", "3456=4,0"]


def test_practice_asks_for_better_guesses_where_the_player_erred():
    typed = "1187\n1111\n1122\nsolution\nskip\n3465\n"
    code, out, err = run("review", *PRACTICE_GAME, "--practice", input=typed)
    assert code == 0, err
    practice = out[out.index("Practice: 4 positions") :].splitlines()
    assert "You played 1111 here: mistake (loss 0.5347)." in practice
    assert "better guess> 1187" in practice and any("'8' is not a colour" in line for line in practice)
    assert any(line.startswith("better guess> 1111") for line in practice)
    assert any(
        line.startswith("1111: mistake")
        and line.endswith("Not yet: a guess within 0.1 of the best is accepted.")
        for line in practice
    )
    assert any(line.startswith("1122: good") and line.endswith("accuracy 87. Solved.") for line in practice)
    assert "The solution: 2234, 3.9408 guesses expected." in practice
    assert "2 codes possible: 3456 3465." in practice
    assert practice[-1] == "Solved 2 of 4 positions."


def test_practice_ends_with_the_count_at_the_end_of_input():
    code, out, _ = run("review", *PRACTICE_GAME, "--practice", input="1122\n")
    assert code == 0 and out.splitlines()[-1] == "Solved 1 of 4 positions."


def test_practice_without_mistakes_says_so_and_practice_with_json_is_refused():
    code, out, _ = run("review", *README_GAME, "--practice", input="")
    assert code == 0 and out.splitlines()[-1].startswith("No mistake or blunder to practise")
    assert one_line_error(*run("review", *README_GAME, "--practice", "--json"))


def test_the_practice_prompt_answers_the_words_of_play_and_says_its_own():
    # 'hint' was "'h' is not a colour": play's words were read as a code
    typed = "hint\nundo\nhelp\n?\nboard\n1187\nquit\n"
    code, out, err = run("review", *PRACTICE_GAME, "--practice", input=typed)
    assert code == 0, err
    practice = out[out.index("Practice: 4 positions") :].splitlines()
    assert practice[0].endswith("'solution', 'skip' or 'quit' (help: every word).")
    said = dict(zip(practice, practice[1:], strict=False))
    assert said["better guess> hint"] == (
        "No hint here: the best guess is what you are looking for. solution shows it; skip moves on."
    )
    assert said["better guess> undo"] == (
        "Nothing to undo: each try is valued on its own. Type another guess, solution or skip."
    )
    words = (
        "Type a better guess; solution (s): the best guess; skip (n): the next position; "
        "board: this position again; quit."
    )
    assert said["better guess> help"] == said["better guess> ?"] == words
    assert said["better guess> board"] == "Position 1 of 4: guess 1."
    assert said["better guess> 1187"].endswith(
        "is not a colour of this game (type colours as 1-6, a-f or RGBYOP). Try again (or type help)."
    )
    assert practice[-1] == "Solved 0 of 4 positions."
    assert not any("'h' is not a colour" in line for line in practice)


def standing_kept(tmp_path) -> tuple:
    """The local player's puzzle standing kept beside the history ``h.sqlite3`` in ``tmp_path``."""
    from mastermind.games.puzzles import START
    from mastermind.history.puzzle_ratings import LocalStanding

    s = LocalStanding(tmp_path / "h.sqlite3", START).load()
    return round(s.rating, 2), s.puzzles, s.solved, s.current, s.tried


def test_puzzles_serve_the_one_rated_nearest_the_player_and_keep_the_standing_beside_the_history(tmp_path):
    """The web page's rule (games/puzzles.py serve, first_try): of the 110 tree puzzles and the
    game's one (rated 1309), the first rated 1500 (8 codes, 4 accepted) is served to a player of
    1500; solved at the first try, 1500 + 32 / 2 = 1516, and the next is the nearest to 1516."""
    db = str(tmp_path / "h.sqlite3")
    typed = "1122\n1344\n1235\n3312\n1111\n2154\n"  # 1111 when only 2154 was left: a blunder
    code, _, _ = run("play", "--seed", "2026", "--db", db, input=typed)
    assert code == 0
    # play's words first: each answered, none taken for the first try (which counts)
    code, out, err = run("review", "--puzzles", "--db", db, input="hint\nundo\n5645\n")
    assert code == 0, err
    lines = out.splitlines()
    assert "puzzle guess> hint" in lines and "puzzle guess> undo" in lines
    assert any(line.startswith("No hint here: the best guess is what you are looking for.") for line in lines)
    assert lines[0].startswith(
        "111 puzzles (1 from your games, 110 from the optimal trees); your rating 1500. "
        "Type a guess (your first try counts)"
    )
    assert lines[1] == "A puzzle from the optimal tree, rated 1500: guess 3."  # after 1123 0,0 4456 0,3
    assert lines[4].startswith("8 codes possible: 5544 5564 5645 ")
    assert "Rating 1500 -> 1516 (the puzzle is rated 1500)." in lines
    assert lines[-1] == "Your rating 1516 · 1 puzzle, 1 solved at the first try."
    # the next: the nearest to 1516 of the rest (the game's, at 1309, is farther), served, not tried
    from mastermind import Rules
    from mastermind.games.puzzles import heading, nearest, tree_puzzles

    second = nearest(tree_puzzles(Rules()), 1516, {"tree:1123-00_4456-03"})
    assert second is not None and abs(second.rating - 1516) < 20
    served = standing_kept(tmp_path)
    assert served == (1516.0, 1, 1, second.name, False)
    assert f"{heading(second)}." in lines
    # a sitting later: the puzzle served and not tried is served again, the rating carried over
    code, out, _ = run("review", "--puzzles", "--db", db, input="")
    assert "your rating 1516" in out.splitlines()[0]
    assert out.splitlines()[1] == f"{heading(second)}." and standing_kept(tmp_path) == served
    assert one_line_error(*run("review", "--puzzles", "--db", db, "--json"))


def test_an_old_puzzle_rating_carries_over_and_a_tie_serves_the_players_own_game_first(tmp_path):
    """An old puzzle-rating.json's rating and count start the standing; at 1309 the game's puzzle
    (1 code, 1 accepted: 1500 + 400 log10(1/3) = 1309) ties with the trees' of one code, and the
    player's own comes first. Solved: 1309 expects 1/2 against it, + 16."""
    db = str(tmp_path / "h.sqlite3")
    typed = "1122\n1344\n1235\n3312\n1111\n2154\n"
    assert run("play", "--seed", "2026", "--db", db, input=typed)[0] == 0
    old = 1500 + 400 * math.log10(1 / 3)
    (tmp_path / "puzzle-rating.json").write_text(json.dumps({"rating": old, "puzzles": 7}))
    code, out, err = run("review", "--puzzles", "--db", db, input="2154\nquit\n")
    assert code == 0, err
    lines = out.splitlines()
    assert "your rating 1309. " in lines[0] and lines[1] == "A puzzle from your games, rated 1309: guess 5."
    assert "Rating 1309 -> 1325 (the puzzle is rated 1309)." in lines
    assert standing_kept(tmp_path)[:3] == (round(old + 16, 2), 8, 1)


def test_a_puzzle_standings_file_that_cannot_be_read_is_one_line_and_exit_2(tmp_path):
    (tmp_path / "puzzle-ratings.sqlite3").write_text("not a database " * 40)
    code, out, err = run("review", "--puzzles", "--db", str(tmp_path / "h.sqlite3"), input="quit\n")
    assert code == 2 and err.startswith("mastermind: error: the puzzle ratings ") and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_a_review_of_bulls_and_cows_names_the_game_as_it_speaks_of_it():
    """Ten digits 0-9, none repeated: Bulls and Cows, in the heading and in the line to share (3
    digits here: 720 codes, valued exactly), not '3 pegs, 10 colours' nor 'Mastermind 3x10'."""
    code, out, err = run("review", "--pegs", "3", "--colors", "10", "--no-repeats", "012=0,3", "120=3,0")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "3 digits 0-9, no digit repeats, 10 guesses; won."
    assert lines[-1].startswith("Share: Bulls and Cows 3x10: won in 2 (best play ")
    bulls = ["--pegs", "3", "--colors", "10", "--no-repeats"]
    code, out, err = run("review", *bulls, "--notation", "letters", "abc=0,3", "bca=3,0")
    # in letters the game speaks of colours: Mastermind's words, and its name
    assert code == 0, err
    assert out.splitlines()[-1].startswith("Share: Mastermind 3x10 no repeats: won in 2 ")


def test_the_chart_keeps_its_bottom_row_for_one_code_left():
    # 2 codes left after 2245 (nearer 1 than 4 on the log scale) were drawn on the "1" row, as if
    # the code was found: the bottom row is one code alone, the top row the codes at the start
    code, out, err = run("review", "3456=1,1", "2245=3,0")
    assert code == 0, err
    lines = out.splitlines()
    chart = lines[lines.index("codes left  o your guesses  + the best guess  * both") + 1 :][:6]
    assert chart == [
        " 1296 ┤*",
        "  309 ┤    *",  # 252 codes after 3456
        "   74 ┤",
        "   18 ┤        +",  # the best guess's expected codes left (34.7), on the scale's nearest row
        "    4 ┤        o",  # 2 codes left: the row above one code's
        "    1 ┤",
    ]


def test_the_budget_binds_in_a_small_game():
    # 3 pegs of 5 colours: 125 codes, once always exact whatever --budget said
    code, out, err = run("review", "-p", "3", "-c", "5", "111=0,0", "--budget", "0")
    assert code == 0, err
    row = next(line for line in out.splitlines() if "->" in line)
    assert "~" in row and "the exact search ran past 0.0 s" in out
