"""The terminal UI at 60 x 20, the smallest terminal docs/tui.md says the board fits: the review's
table once ran off the right edge (the best guess's value and the loss unseen), and the title was
cut to '10 g…'."""

import pytest

pytest.importorskip("textual")

from mastermind.tui.app import MastermindApp  # noqa: E402
from mastermind.tui.review_screen import ReviewScreen  # noqa: E402
from tui_pilot import board, configure, driven, settle, type_code  # noqa: E402


def labels(table) -> list[str]:
    return [str(column.label) for column in table.ordered_columns]


@driven
async def test_the_review_fits_60_columns_and_widens_with_the_terminal():
    app = MastermindApp(seed=2026)  # seed 2026 hides 2154 (the README's game)
    async with app.run_test(size=(60, 20)) as pilot:
        for code in ("1122", "1344", "1235", "3312", "1111", "2154"):
            await type_code(app, pilot, code)
        await pilot.press("r")
        await settle(app, pilot)
        review = app.screen
        assert isinstance(review, ReviewScreen) and review.result is not None
        table = review.query_one("#review-moves")
        assert table.virtual_size.width <= table.size.width, (table.virtual_size, table.size)
        assert labels(table) == ["", "guess", "reply", "codes left", "best", "loss"]
        assert [str(cell) for cell in table.get_row_at(0)[-3:]] == ["1,296→208", "1123", "0.059"]
        ghost = str(review.query_one("#review-ghost").render())
        assert "Expected guesses 4.400, the best 4.340" in ghost  # the values the table leaves out
        await pilot.press("down", "down")
        await pilot.resize_terminal(100, 30)
        await pilot.pause()
        assert labels(table) == ["", "guess", "reply", "codes left", "exp", "best", "best exp", "loss"]
        assert table.virtual_size.width <= table.size.width
        assert table.cursor_row == 2  # the move looked at stays under the cursor
        ghost = str(review.query_one("#review-ghost").render())
        assert ghost.startswith("Guess 3") and "Expected guesses" not in ghost


@driven
async def test_the_title_fits_60_columns():
    app = MastermindApp()
    async with app.run_test(size=(60, 20)) as pilot:
        screen = board(app)
        assert (screen.title, screen.sub_title) == ("You break the computer's code", "4x6")
        await pilot.resize_terminal(100, 30)
        await pilot.pause()
        assert (screen.title, screen.sub_title) == ("You break the computer's code", "4x6, 10 guesses")
        await pilot.resize_terminal(44, 20)
        await pilot.pause()
        assert (screen.title, screen.sub_title) == ("4x6, 10 guesses", "")


@driven
async def test_every_key_of_a_match_is_in_the_footer_at_60_columns(private_settings):
    """A match has the most keys (F2 to peek, ? to hint): spaced out, they ran past 60 columns,
    the last cut to '^q Qu'."""
    from textual.widgets import Footer
    from textual.widgets._footer import FooterKey

    configure(private_settings, mode="match")
    app = MastermindApp()
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        screen = board(app)
        assert (screen.title, screen.sub_title) == ("A match between two players", "4x6")
        keys = list(screen.query_one(Footer).query(FooterKey))
        assert keys[-1].description == "Quit" and keys[-1].region.right <= 60, keys[-1].region


@driven
async def test_the_history_fits_60_columns_and_says_what_it_leaves_out_under_the_table():
    """At 60 columns the history's table ran off the right edge: the outcome was cut
    ('playing (unfi') and the help not seen."""
    from mastermind.tui.screens import HistoryScreen

    app = MastermindApp(seed=2026)  # seed 2026 hides 2154 (the README's game)
    async with app.run_test(size=(60, 24)) as pilot:
        await type_code(app, pilot, "1122")
        await pilot.press("question_mark")  # a hint: help, said in the history
        await settle(app, pilot)
        await type_code(app, pilot, "2154")
        await pilot.press("enter")  # a new game, left unfinished
        await type_code(app, pilot, "1122")
        await pilot.press("escape", "h")
        await settle(app, pilot)
        history = app.screen
        assert isinstance(history, HistoryScreen)
        table = history.query_one("#games")
        assert table.virtual_size.width <= table.size.width, (table.virtual_size, table.size)
        assert labels(table) == ["id", "kind", "rules", "guesses", "outcome", "started"]
        newest, won = ([str(cell) for cell in table.get_row_at(row)] for row in (0, 1))
        assert newest[:5] == ["2", "play", "4x6", "1", "unfinished"]
        assert won[:5] == ["1", "play", "4x6", "2", "won"]
        detail = history.query_one("#games-detail")
        assert str(detail.render()).startswith("Game 2, started ")
        await pilot.press("down")
        await pilot.pause()
        said = str(detail.render())
        assert said.startswith("Game 1, started 20") and said.endswith("; 1 hint"), said  # the year too
        await pilot.resize_terminal(100, 32)
        await pilot.pause()
        assert labels(table) == ["id", "started", "kind", "rules", "guesses", "outcome", "help"]
        assert table.virtual_size.width <= table.size.width
        assert table.cursor_row == 1 and str(table.get_row_at(1)[-1]) == "1 hint"  # the game looked at
        assert not detail.display  # the table says it all
        assert str(table.get_row_at(0)[-2]) == "playing (unfinished)"
