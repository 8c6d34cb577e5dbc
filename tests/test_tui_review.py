"""The review in the terminal UI, the teaching hint's record and the undo of a half-typed row,
driven through Textual's Pilot. The classic optimum, 5625 / 1296 = 4.3403 guesses with 1123, is
Koyama and Lai's (JRM 25, 1993)."""

from __future__ import annotations

import pytest

pytest.importorskip("textual", reason="the tui extra (textual) is not installed")

from mastermind.history.store import Store  # noqa: E402
from mastermind.tui.app import MastermindApp  # noqa: E402
from mastermind.tui.game_screen import GameScreen  # noqa: E402
from mastermind.tui.review_screen import ReviewScreen  # noqa: E402
from mastermind.tui.screens import HistoryScreen  # noqa: E402
from tui_pilot import board, configure, driven, settle, type_code  # noqa: E402


async def win_the_readme_game(app, pilot, extra=()):
    """Seed 2026 hides 2154: the README's game, with ``extra`` guesses before the last."""
    for code in ("1122", "1344", "1235", "3312", *extra, "2154"):
        await type_code(app, pilot, code)


async def hinted_and_taken_back(app, pilot):
    """1122, a hint, then 6666 taken back: a game with help of both kinds."""
    await type_code(app, pilot, "1122")
    await pilot.press("question_mark")
    await settle(app, pilot)
    await type_code(app, pilot, "6666")
    await pilot.press("ctrl+z")


@driven
async def test_the_review_of_a_game_just_won_marks_each_row():
    app = MastermindApp(seed=2026)
    async with app.run_test(size=(110, 30)) as pilot:
        screen = board(app)
        await win_the_readme_game(app, pilot, extra=("1111",))
        assert screen.game.outcome == "won"
        assert "R: how each guess compared with the best" in str(screen.message)
        await pilot.press("r")
        await settle(app, pilot)
        review = app.screen
        assert isinstance(review, ReviewScreen) and review.result is not None
        assert [m.verdict for m in review.result.moves] == ["good", "good", "good", "best", "blunder", "best"]
        table = review.query_one("#review-moves")
        assert table.row_count == 6
        marks = [str(table.get_row_at(i)[0]) for i in range(6)]
        assert marks == ["✓", "✓x", "✓", "★!", "??x", "★"]  # the code was known, then 1111 was played
        summary = str(review.query_one("#review-summary").render())
        assert "best play expects 4.3403 from the first move" in summary
        assert "3312: best, 1.8000 guesses expected; the code was known: 2154" in summary
        assert "1344: good, 3.5240 guesses expected; best 1314, 3.4519 (loss 0.0721); it could not" in summary
        assert "Marks: ! the code was known and not played next" in summary
        await pilot.press("escape")
        assert app.screen is screen


@driven
async def test_ctrl_z_clears_a_half_typed_row_before_it_takes_a_guess_back():
    app = MastermindApp(seed=2026)
    async with app.run_test() as pilot:
        screen = board(app)
        await type_code(app, pilot, "1122")
        await pilot.press("3", "4")
        assert screen.entry[:2] == [2, 3]
        await pilot.press("ctrl+z")
        assert screen.entry == [None] * 4 and len(screen.game.moves) == 1
        assert "Ctrl+Z again" in str(screen.message)
        await pilot.press("ctrl+z")
        assert not screen.game.moves
        assert [a.kind for a in screen.game.assists] == ["undo"]


@driven
async def test_the_history_opens_the_review_of_a_finished_game_and_shows_the_help_it_had():
    app = MastermindApp(seed=2026)
    async with app.run_test(size=(110, 30)) as pilot:
        screen = board(app)
        await hinted_and_taken_back(app, pilot)
        for code in ("1344", "1235", "3312", "2154"):
            await type_code(app, pilot, code)
        assert screen.game.outcome == "won" and screen.game.helped
        with Store() as store:
            [saved] = store.games()
        assert [a["kind"] for a in saved.record["assists"]] == ["hint", "undo"]
        await pilot.press("escape", "h")
        await settle(app, pilot)
        history = app.screen
        assert isinstance(history, HistoryScreen)
        table = history.query_one("#games")
        assert str(table.get_row_at(0)[-1]) == "1 hint, 1 taken back"
        assert "0 without help" in str(history.query_one("#stats").render())
        await pilot.press("enter")
        await settle(app, pilot)
        review = app.screen
        assert isinstance(review, ReviewScreen) and review.result is not None
        assert [str(m.guess) for m in review.result.moves][0] == str(screen.game.moves[0].guess)
        assert len(review.result.moves) == 5


@driven
async def test_an_unfinished_game_of_the_history_has_no_review_it_goes_on_on_the_board():
    app = MastermindApp(seed=2026)
    async with app.run_test(size=(110, 30)) as pilot:
        await type_code(app, pilot, "1122")
        await pilot.press("escape", "h")
        await settle(app, pilot)
        assert isinstance(app.screen, HistoryScreen)
        await pilot.press("enter")
        await settle(app, pilot)
        assert isinstance(app.screen, GameScreen)
        assert [str(m.guess) for m in app.screen.game.moves] == ["1122"]


@driven
async def test_the_review_and_the_history_fit_an_80_column_terminal():
    app = MastermindApp(seed=2026)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = board(app)
        await hinted_and_taken_back(app, pilot)
        for code in ("1344", "1235", "3312", "1111", "2154"):
            await type_code(app, pilot, code)
        await pilot.press("r")
        await settle(app, pilot)
        table = app.screen.query_one("#review-moves")
        assert table.virtual_size.width <= table.size.width, (table.virtual_size, table.size)
        await pilot.press("escape")
        assert app.screen is screen
        await pilot.press("escape", "h")
        await settle(app, pilot)
        assert isinstance(app.screen, HistoryScreen)
        table = app.screen.query_one("#games")
        assert str(table.get_row_at(0)[-1]) == "1 hint, 1 taken back"
        assert table.virtual_size.width <= table.size.width, (table.virtual_size, table.size)


@driven
async def test_the_review_shows_the_chart_the_ghost_row_and_practice_from_the_mistakes():
    from mastermind.tui.practice_screen import PracticeScreen

    app = MastermindApp(seed=2026)
    async with app.run_test(size=(80, 24)) as pilot:
        await win_the_readme_game(app, pilot, extra=("1111", "2222"))  # two guesses when 2154 was known
        await pilot.press("r")
        await settle(app, pilot)
        review = app.screen
        assert [m.verdict for m in review.result.moves][4:] == ["blunder", "blunder", "best"]
        chart = str(review.query_one("#review-chart").render()).splitlines()
        assert chart[0] == "codes left  o your guesses  + the best guess  * both"
        assert chart[-1].split() == ["✓", "✓", "✓", "★", "??", "??", "★"]
        ghost = str(review.query_one("#review-ghost").render())  # the first row's: 1122 against 1123
        assert "1122: 13 classes, at most 256, 204.5 left" in ghost
        assert "Best ☆" in ghost and "1123: 14 classes" in ghost
        await pilot.press("down")
        ghost = str(review.query_one("#review-ghost").render())
        assert "Guess 2" in ghost and "1344: " in ghost
        summary = str(review.query_one("#review-summary").render())
        assert "Accuracy " in summary and "Share: Mastermind 4x6: won in 7" in summary
        assert "P: practise your mistakes (2 positions)." in summary
        await pilot.press("p")
        await settle(app, pilot)
        practice = app.screen
        assert isinstance(practice, PracticeScreen)
        position = str(practice.query_one("#practice-position").render())
        assert "Position 1 of 2: guess 5." in position and "1 code possible: 2154." in position
        assert "You played 1111 here: blunder (loss 1.0000)." in position
        await type_code(app, pilot, "1111")
        result = str(practice.query_one("#practice-result").render())
        assert (
            result.startswith("1111: blunder, 2.0000 guesses expected against 1.0000") and "Not yet" in result
        )
        await type_code(app, pilot, "2154")
        assert str(practice.query_one("#practice-result").render()).endswith("accuracy 100. Solved.")
        assert "Position 2 of 2: guess 6." in str(practice.query_one("#practice-position").render())
        assert str(practice.query_one("#practice-count").render()) == "Solved 1 of 2"
        await pilot.press("ctrl+s")
        await settle(app, pilot)
        assert (
            str(practice.query_one("#practice-result").render())
            == "The solution: 2154, 1.0000 guesses expected."
        )
        assert "Solved 1 of 2 positions." in str(practice.query_one("#practice-position").render())
        await pilot.press("escape")
        assert app.screen is review


@driven
async def test_a_match_is_reviewed_game_by_game_both_sides():
    from mastermind import Rules
    from mastermind.games.match import Match

    match = Match(Rules(), ["knuth", "entropy"], games=2, seed=1)
    match.play_out()
    app = MastermindApp(seed=2026)
    async with app.run_test(size=(80, 24)) as pilot:
        review = ReviewScreen(match.record(), title="Review of match")
        app.push_screen(review)
        await settle(app, pilot)
        head = str(review.query_one("#review-head").render())
        assert "Game 1 (1 of 2; N: the next): player 2 (entropy) breaks." in head.replace("\n", " ")
        guesses = [str(m.guess) for m in match.rounds[0].game.moves]
        assert [str(m.guess) for m in review.result.moves] == guesses
        summary = str(review.query_one("#review-summary").render())
        assert (
            "Player 1 (knuth): 5 guesses in 1 game" in summary and "Player 2 (entropy): 4 guesses" in summary
        )
        await pilot.press("n")
        await settle(app, pilot)
        assert "player 1 (knuth) breaks" in str(review.query_one("#review-head").render()).replace("\n", " ")
        assert review.query_one("#review-moves").row_count == len(match.rounds[1].game.moves)


@driven
async def test_puzzles_from_the_saved_games_move_the_rating_on_the_board():
    from mastermind.tui.practice_screen import PracticeScreen

    app = MastermindApp(seed=2026)
    async with app.run_test(size=(80, 24)) as pilot:
        await win_the_readme_game(app, pilot, extra=("1111", "2222"))  # two blunders: one code was left
        await pilot.press("r")
        await settle(app, pilot)
        await pilot.press("z")
        await settle(app, pilot)
        puzzles = app.screen
        assert isinstance(puzzles, PracticeScreen) and puzzles.title == "Puzzles"
        position = str(puzzles.query_one("#practice-position").render())
        said = position.replace("\n", " ")
        assert "112 puzzles (2 from your games, 110 from the optimal trees); your rating 1500." in said
        # the games package's rule, the web page's too: the puzzle rated nearest the player first
        # (after 1123 got 0,0 and 4456 got 0,3: 8 codes, 4 accepted, 1500); the games' are 1309
        assert "A puzzle from the optimal tree, rated 1500: guess 3." in said
        await type_code(app, pilot, "5645")
        result = str(puzzles.query_one("#practice-result").render()).splitlines()
        assert (
            result[0].endswith("accuracy 100. Solved.")
            and result[1] == "Rating 1500 -> 1516 (the puzzle is rated 1500)."
        )
        count = str(puzzles.query_one("#practice-count").render())
        assert count == "Your rating 1516 · 1 puzzle, 1 solved at the first try"


async def open_puzzles(app, pilot):
    """The puzzles from the menu (Esc, then z), as a new player opens them."""
    await settle(app, pilot)
    await pilot.press("escape")
    await pilot.press("z")
    await settle(app, pilot)


@driven
async def test_a_new_player_gets_the_optimal_trees_puzzles_from_the_menu():
    from mastermind.tui.practice_screen import PracticeScreen

    app = MastermindApp(seed=2026)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_puzzles(app, pilot)
        puzzles = app.screen
        assert isinstance(puzzles, PracticeScreen) and puzzles.title == "Puzzles"
        said = str(puzzles.query_one("#practice-position").render()).replace("\n", " ")
        assert "110 puzzles (0 from your games, 110 from the optimal trees); your rating 1500." in said
        # the nearest to 1500: after 1123 got 0,0 and 4456 got 0,3, 8 codes, 4 of them accepted
        assert "A puzzle from the optimal tree, rated 1500: guess 3." in said
        await type_code(app, pilot, "1234")
        result = str(puzzles.query_one("#practice-result").render()).splitlines()
        # 1500 expects 1/2 against it: a first try not accepted, 1500 - 16 (a later one moves nothing)
        assert (
            not result[0].endswith("Solved.")
            and result[1] == "Rating 1500 -> 1484 (the puzzle is rated 1500)."
        )
        await type_code(app, pilot, "5645")
        result = str(puzzles.query_one("#practice-result").render()).splitlines()
        assert result[0].endswith("Solved.") and not any(line.startswith("Rating") for line in result)
        assert puzzles.session.standing.rating == 1484 and puzzles.session.standing.solved == 0


@driven
async def test_a_puzzle_standings_file_that_cannot_be_read_is_said_and_the_board_goes_on(tmp_path):
    from mastermind.tui.practice_screen import PracticeScreen

    (tmp_path / "puzzle-ratings.sqlite3").write_text("not a database " * 40)  # beside the history
    app = MastermindApp(seed=2026)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_puzzles(app, pilot)
        assert not isinstance(app.screen, PracticeScreen) and app.is_running
        assert any("the puzzle ratings" in str(n.message) for n in app._notifications)


@driven
async def test_the_review_of_bulls_and_cows_names_the_game_in_its_own_words():
    from mastermind import Game, Rules

    game = Game.breaking(Rules(pegs=3, colors=10, repeats=False), seed=1)  # 720 codes: exact
    secret = game.notation.format_code(game.secret)
    game.guess("012" if secret != "012" else "345")
    game.guess(secret)
    app = MastermindApp(seed=2026)
    async with app.run_test(size=(110, 30)) as pilot:
        review = ReviewScreen(game, game.notation, "Review of this game")
        app.push_screen(review)
        await settle(app, pilot)
        head = str(review.query_one("#review-head").render()).replace("\n", " ")
        assert head.startswith("3 digits 0-9, no digit repeats, 10 guesses: won")
        summary = str(review.query_one("#review-summary").render())
        assert "Share: Bulls and Cows 3x10: won in 2 " in summary


@driven
async def test_a_game_given_up_before_its_first_guess_has_no_review_on_the_board_nor_in_the_history():
    """The engine's rule (games.reviewable), the command line's and the web page's: nothing to value."""
    app = MastermindApp(seed=2026)
    async with app.run_test(size=(110, 30)) as pilot:
        screen = board(app)
        await pilot.press("escape", "g")
        await settle(app, pilot)
        assert screen.game.outcome == "gave-up" and not screen.game.moves
        assert not screen.check_action("review", ()) and "R:" not in str(screen.message)
        await pilot.press("r")
        await settle(app, pilot)
        assert app.screen is screen
        await pilot.press("escape", "h")
        await settle(app, pilot)
        history = app.screen
        assert isinstance(history, HistoryScreen)
        await pilot.press("enter")  # the finished game: no review to open
        await settle(app, pilot)
        assert app.screen is history


@driven
async def test_a_finished_match_is_reviewed_from_the_board_as_on_the_web_page(private_settings):
    configure(private_settings, mode="match", players=["knuth", "entropy"], games=2)
    app = MastermindApp(seed=9, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        screen = board(app)
        assert screen.match.over and "R: how each game's guesses compared" in str(screen.message)
        await pilot.press("r")
        await settle(app, pilot)
        review = app.screen
        assert isinstance(review, ReviewScreen) and review.match is not None
        assert [g.number for g in review.match.games] == [1, 2]


@driven
async def test_a_matchs_games_are_reviewed_not_practised_as_everywhere():
    from mastermind import Rules
    from mastermind.games.match import Match

    match = Match(Rules(), ["knuth", "human"], games=2, seed=1)
    match.play_out()  # knuth hides 2246
    for code in ("1111", "2246"):  # 1111: a mistake for any secret (see test_web_review)
        match.guess(code)
    match.set_secret("1234")
    match.play_out()
    app = MastermindApp(seed=2026)
    async with app.run_test(size=(80, 24)) as pilot:
        review = ReviewScreen(match.record(), title="Review of match")
        app.push_screen(review)
        await settle(app, pilot)
        assert review.result is not None and review.result.practice().positions  # a mistake there
        assert "P: practise" not in str(review.query_one("#review-summary").render())
        await pilot.press("p")
        await settle(app, pilot)
        assert app.screen is review
