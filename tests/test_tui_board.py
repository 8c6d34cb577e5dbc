"""The board as a player meets it: a layout that fits the terminal, rows that take no more than a
code, corrections for every key, replies not shown before they are given."""

from __future__ import annotations

import asyncio
import json

import pytest

pytest.importorskip("textual", reason="the tui extra (textual) is not installed")

from mastermind import Feedback, Rules  # noqa: E402
from mastermind.deduction.state import Correction  # noqa: E402
from mastermind.tui.app import MastermindApp  # noqa: E402
from mastermind.tui.board import (  # noqa: E402  # noqa: E402
    KEY_BLACK,
    KEY_WHITE,
    SIDE_MIN,
    board_layout,
    board_width,
    key_width,
    keys_text,
)
from mastermind.tui.game_screen import GameScreen  # noqa: E402
from mastermind.tui.panel import correction_keys, correction_labels  # noqa: E402
from tui_pilot import board, configure, driven, settle, type_code  # noqa: E402


def fits(widget, screen) -> bool:
    """Whether ``widget`` lies wholly inside the screen, and its text is not cut at its right edge."""
    region, size = widget.region, screen.size
    return region.x >= 0 and region.right <= size.width and widget.size.width <= size.width


@pytest.mark.parametrize("size", [(60, 20), (80, 24), (100, 30)])
@driven
async def test_the_side_panel_fits_beside_the_board_or_goes_under_it(size):
    app = MastermindApp(seed=2026, history=False)
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        await pilot.press(*"1122", "enter", "question_mark")
        await settle(app, pilot)
        screen = board(app)
        side, main = screen.query_one("#side"), screen.query_one("#main")
        stacked = screen.has_class("-stacked")
        assert stacked == (size[0] - board_width(4) < SIDE_MIN)
        assert side.region.right <= main.region.right  # never past the screen's edge
        assert side.size.width >= (main.size.width - 2 if stacked else SIDE_MIN - 2)
        if stacked:  # under the board, as wide as the screen
            assert side.region.y >= screen.query_one("#board").region.bottom
        info = screen.query_one("#info")
        assert "Hint:" in str(info.render())
        assert info.size.width <= side.size.width  # the hint wraps inside the panel: no word cut


def test_the_layout_rules_at_the_sizes_a_player_uses():
    # classic: the panel under the board at 60 columns, beside it from 80; a gap between rows when
    # all ten and the code's row fit (80x24 does, 60x20 does not)
    assert board_layout((60, 20), 4, 10) == (True, False)
    assert board_layout((80, 24), 4, 10) == (False, True)
    assert board_layout((100, 30), 4, 10) == (False, True)
    assert board_layout((80, 20), 4, 10) == (False, False)
    assert board_layout((80, 24), 8, 10)[0] and not board_layout((120, 30), 8, 10)[0]  # 8 pegs: wider


@driven
async def test_consecutive_rows_have_a_gap_between_them_when_they_fit():
    app = MastermindApp(seed=2026, history=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press(*"1122", "enter", *"1122", "enter", "enter")  # the same code twice
        await settle(app, pilot)
        one, two = (board(app).query_one(f"#row-{n}") for n in (1, 2))
        assert two.region.y - one.region.bottom == 1  # pegs of one colour do not merge into a bar
        code_row = board(app).query_one("#secret-row")
        assert code_row.region.bottom <= board(app).query_one("#board").region.bottom


def test_key_pegs_are_drawn_in_their_colours_larger_than_a_character():
    text = keys_text(Feedback(1, 1), 4)
    assert text.plain == "●  ○  ·  · " and key_width(4) == 2  # two columns each, a column between
    styles = [str(span.style) for span in text.spans]
    assert f"on {KEY_BLACK}" in styles[0] and f"on {KEY_WHITE}" in styles[1]
    assert keys_text(None, 4).plain == "·  ·  ·  · "
    assert key_width(8) == 1 and keys_text(Feedback(0, 0), 8).plain == "· · · · · · · ·"


@driven
async def test_a_full_row_takes_no_symbol_over_its_last_peg_the_next_code_starts_it_over():
    app = MastermindApp(seed=11, history=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        screen = board(app)
        await pilot.press(*"1122", "enter")
        await pilot.press(*"1122", "enter")  # pointed out: played already; the row stays full
        await settle(app, pilot)
        assert "already (row 1)" in str(screen.message) and screen.entry == [0, 0, 1, 1]
        await pilot.press(*"3456")  # a new code over the full row: it starts over
        assert screen.entry == [2, 3, 4, 5]
        await pilot.press("enter")
        await settle(app, pilot)
        assert [str(m.guess) for m in screen.game.moves] == ["1122", "3456"]  # not 1126
        await pilot.press(*"123", "left", "5", "6")  # the cursor moved back: 1256, then full
        assert screen.entry == [0, 1, 4, 5] and screen.cursor == 4
        await pilot.press("backspace")  # Backspace on a full row empties its last hole
        assert screen.entry == [0, 1, 4, None] and screen.cursor == 3


def test_every_correction_has_a_key_and_the_labels_line_up():
    from mastermind.core.notation import BULLS_AND_COWS, MASTERMIND

    keys = correction_keys(MASTERMIND)
    assert keys.startswith("1234567890a") and not set("bw") & set(keys) and len(keys) == 34
    assert "c" not in correction_keys(BULLS_AND_COWS)  # c is a cow there
    fixes = [
        Correction(row, Feedback(b, w), n)
        for row, b, w, n in [(9, 1, 1, 1), (3, 0, 2, 23), *[(r, 1, 0, 1200) for r in range(12)]]
    ]
    labels = correction_labels(fixes, MASTERMIND)
    assert labels[0] == "1  row 10 → 1B 1W      1 code"
    assert labels[1] == "2  row  4 → 0B 2W     23 codes"
    assert labels[10] == "a  row  9 → 1B 0W  1,200 codes"
    assert len({len(label) for label in labels[1:]}) == 1 and len({label.index("→") for label in labels}) == 1


@driven
async def test_more_than_nine_corrections_are_each_taken_by_a_key(private_settings):
    private_settings.write_text(json.dumps({"mode": "guess"}))
    app = MastermindApp(seed=1, history=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        for _ in range(3):  # 1122, 3345, 6666: none; no code fits
            await pilot.press("enter")
            await settle(app, pilot)
        game = board(app).game
        corrections = game.problem.corrections
        assert len(corrections) == 17
        eleventh = corrections[10]
        labels = [str(b.label) for b in app.screen.query(".correction") if b.display]
        assert labels[10].startswith("a  row")
        await pilot.press("a")  # the eleventh correction, by its key
        await settle(app, pilot)
        assert game.moves[eleventh.row].reply == eleventh.reply


@driven
async def test_a_new_row_of_the_computers_guess_shows_no_reply_before_one_is_given(private_settings):
    private_settings.write_text(json.dumps({"mode": "guess"}))
    app = MastermindApp(seed=1, history=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        screen = board(app)
        assert str(screen.query_one("#row-1 .count").render()) == ""  # not 0B 0W
        await pilot.press("w")
        assert str(screen.query_one("#row-1 .count").render()) == "0B 1W"
        await pilot.press("backspace")
        assert str(screen.query_one("#row-1 .count").render()) == ""
        await pilot.press("enter")  # Enter with no key peg: the reply none
        await settle(app, pilot)
        assert screen.game.moves[0].reply == Feedback(0, 0)
        assert str(screen.query_one("#row-1 .count").render()) == "0B 0W"


@driven
async def test_a_click_on_a_key_hole_of_two_columns_cycles_that_hole(private_settings):
    private_settings.write_text(json.dumps({"mode": "guess"}))
    app = MastermindApp(seed=1, history=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        screen = board(app)
        await pilot.click("#keys-1", offset=(2, 0))  # the first hole (after the strip's padding)
        await pilot.click("#keys-1", offset=(5, 0))  # the second hole
        await pilot.click("#keys-1", offset=(5, 0))
        assert screen.keys == ["b", "w"]


def test_a_hint_strategy_too_small_for_the_game_gives_way_in_the_app_too():
    async def run():
        app = MastermindApp(seed=1, history=False, rules=Rules(pegs=8, colors=10))
        async with app.run_test(size=(120, 30)) as pilot:
            await settle(app, pilot)
            await pilot.press("question_mark")
            await settle(app, pilot)
            info = str(board(app).query_one("#info").render())
            assert "Hint: counter would play:" in info
            assert "Knuth cannot play this game, so counter hints." in info
            assert "Guess 1 of 10" in str(board(app).query_one("#status").render())  # the turn line stays

    asyncio.run(run())


@driven
async def test_the_kernels_compiling_are_said_inside_the_app_and_the_note_goes_when_they_are_done():
    from mastermind import _kernels

    app = MastermindApp(seed=1, history=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        screen = board(app)
        screen.busy = True  # a strategy at work, as when a hint is asked
        await asyncio.to_thread(_kernels._compiling, True)  # the JIT starts, in the worker's thread
        await pilot.pause()
        status = str(screen.query_one("#status").render())
        assert "Thinking… compiling the kernels this needs, the first time only" in status
        await asyncio.to_thread(_kernels._compiling, False)
        await pilot.pause()
        assert "compiling" not in str(screen.query_one("#status").render())
    assert app._compiling not in _kernels._listeners  # the app stops listening when it ends


def test_the_tui_command_writes_no_compile_notice_across_the_app(monkeypatch):
    import io

    from click.testing import CliRunner

    from mastermind import _kernels
    from mastermind.cli import cli
    from mastermind.cli.progress import COMPILE_LABEL, compile_notice

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    def run(self):  # the app's screen is the terminal: the kernels compile while it runs
        _kernels._compiling(True)
        _kernels._compiling(False)

    monkeypatch.setattr(MastermindApp, "run", run)
    monkeypatch.setattr("mastermind.cli.tui.need_terminal", lambda: None)  # CliRunner's input is no terminal
    stream = Terminal()
    with compile_notice(stream):  # what the command line does when stderr is a terminal
        result = CliRunner().invoke(cli, ["tui", "--no-history"])
        assert result.exit_code == 0, result.output
        assert stream.getvalue() == ""  # nothing written over the board
        _kernels._compiling(True)  # outside the app, the compile bar is shown as before
    assert COMPILE_LABEL in stream.getvalue()


@driven
async def test_a_match_shows_the_computers_guesses_one_by_one_and_the_finished_board_until_enter(
    private_settings,
):
    private_settings.write_text(json.dumps({"mode": "match", "players": ["human", "knuth"], "games": 2}))
    app = MastermindApp(seed=4, pace=3600, history=False)  # a move an hour: only what the test calls
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        screen = board(app)
        match = screen.match
        await pilot.press(*"3632", "enter")  # player 1 makes the code; knuth breaks it
        await settle(app, pilot)
        assert screen.game is match.current.game and screen.game.moves == []  # no guess shown at once
        status = str(screen.query_one("#status").render())
        assert "Player 2 (knuth) is breaking the code… (Enter: the rest of this game at once)" in status
        screen._match_advance()  # the pace's timer: one guess
        await settle(app, pilot)
        assert len(screen.game.moves) == 1 and str(screen.query_one("#row-1 .count").render()) != ""
        await pilot.press("enter")  # the rest at once
        await settle(app, pilot)
        finished = match.rounds[0].game
        assert match.current.number == 2 and finished.outcome == "won" and len(finished.moves) == 5
        assert screen.game is finished and screen.held is match.rounds[0]  # its board stays
        assert [str(peg.render()).strip() for peg in screen.query_one("#secret-row").query(".peg")] == list(
            "3632"
        )  # the code, shown now the game is over
        status = str(screen.query_one("#status").render())
        said = "Game 1: player 2 (knuth) broke the code 3632 in 5 guesses. Points: you 5, player 2 (knuth) 0."
        assert f"{said} Enter: game 2 (player 2 makes the code" in status
        await pilot.press(*"1122")  # nothing is typed into a finished board
        assert screen.entry == [None] * 4 and screen.game is finished
        await pilot.press("enter")  # the person moves on: knuth's code is chosen, the board is empty
        await settle(app, pilot)
        assert screen.held is None and screen.game is match.current.game and screen.game.moves == []
        assert screen.expects == "code"


@pytest.mark.parametrize("size", [(60, 20), (80, 24), (100, 30)])
@driven
async def test_the_settings_fit_start_on_the_first_field_and_say_what_each_choice_is(private_settings, size):
    from textual.widgets import Checkbox, Select

    from mastermind.games.scoring import SCORING_RULES
    from mastermind.strategies import STRATEGIES

    private_settings.write_text(json.dumps({"mode": "match", "repeats": True, "blank": False}))
    app = MastermindApp(seed=1, history=False)
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        await pilot.press("escape", "s")
        await settle(app, pilot)
        screen = app.screen
        assert app.focused is screen.query_one("#mode")  # the keys work on the form at once
        for button in ("#start", "#cancel"):  # in sight, match fields and all
            region = screen.query_one(button).region
            assert region.height and region.bottom <= size[1] and region.right <= size[0], button
        assert "Ctrl+S" in str(screen.query_one("#start").label)
        about = str(screen.query_one("#settings-about").render())
        knuth = next(s.summary for s in STRATEGIES if s.name == "knuth")
        assert f"knuth: {knuth}" in about.replace("\n", " ")
        assert "standard scoring: the codemaker scores one point per guess" in about.replace("\n", " ")
        repeats, blank = (screen.query_one(f"#{name}", Checkbox) for name in ("repeats", "blank"))
        assert "X" in str(repeats.render()) and "X" not in str(blank.render())  # not ticked: empty
        screen.query_one("#scoring", Select).value = "codebreaker"
        await pilot.pause()
        about = str(screen.query_one("#settings-about").render()).replace("\n", " ")
        assert SCORING_RULES["codebreaker"] in about
        await pilot.press("ctrl+s")  # Start, as the button says
        await settle(app, pilot)
        assert isinstance(app.screen, GameScreen) and app.settings.scoring == "codebreaker"


@driven
async def test_question_mark_is_the_hint_on_the_board_and_f1_the_help_everywhere():
    from textual.widgets import OptionList

    from mastermind.tui.screens import HelpScreen, MenuScreen

    app = MastermindApp(seed=1, history=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("escape")
        assert isinstance(app.screen, MenuScreen)
        options = app.screen.query_one(OptionList)
        labels = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        assert "F1 Help: the rules and the keys" in labels
        assert not any(label.startswith("?") for label in labels)
        await pilot.press("question_mark")  # not the help here either: one key, one meaning
        assert isinstance(app.screen, MenuScreen)
        await pilot.press("f1")
        await settle(app, pilot)
        assert isinstance(app.screen, HelpScreen)


def test_the_command_line_draws_black_key_pegs_black_as_it_calls_them():
    from rich.console import Console

    from mastermind.cli.console import keys_text as terminal_keys

    text = terminal_keys(Console(force_terminal=True), Feedback(1, 1), 4)
    assert text.plain == "●○··"
    black, white = (str(span.style) for span in text.spans[:2])
    assert "black" in black.split(" on ")[0] and "red" not in black
    assert "white" in white.split(" on ")[0]


@driven
async def test_the_history_screen_resumes_an_unfinished_game_on_the_board_in_its_own_row():
    from textual.widgets import DataTable

    from mastermind.history.store import Store, local_time
    from mastermind.tui.screens import HistoryScreen

    app = MastermindApp(seed=7)  # the history: this test's own database (MASTERMIND_DB)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        first = board(app).game
        secret = first.notation.format_code(first.secret)
        await pilot.press(*"1122", "enter")
        await settle(app, pilot)
        await pilot.press("escape", "n")  # a new game: the first waits, unfinished, in the history
        await settle(app, pilot)
        await pilot.press(*"3456", "enter", "ctrl+z")  # one guess, taken back: a game with no move
        await settle(app, pilot)
        with Store() as store:
            (saved,) = store.games()  # the game taken back to no move is not listed for ever
        assert [m["guess"] for m in saved.record["moves"]] == ["1122"] and not saved.finished
        await pilot.press("escape", "h")
        await settle(app, pilot)
        history = app.screen
        assert isinstance(history, HistoryScreen)
        table = history.query_one("#games", DataTable)
        assert table.get_row_at(0)[1] == local_time(saved.started)  # in the local zone, not UTC
        assert "(UTC)" not in str(table.columns)
        assert "No finished games yet." in str(history.query_one("#stats").render())  # no row of zero
        await pilot.press("enter")  # on the unfinished game: it goes on on the board
        await settle(app, pilot)
        screen = board(app)
        assert [str(m.guess) for m in screen.game.moves] == ["1122"] and screen.game.secret == first.secret
        assert "goes on from its last move" in str(screen.query_one("#message").render())
        await pilot.press(*secret, "enter")
        await settle(app, pilot)
        assert screen.game.outcome == "won"
    with Store() as store:
        (done,) = store.games()  # the same row, now finished: no second one
    assert done.id == saved.id and done.finished and len(done.record["moves"]) == 2


@driven
async def test_an_unfinished_match_goes_on_from_the_history_with_its_score(private_settings):
    private_settings.write_text(json.dumps({"mode": "match", "players": ["human", "knuth"], "games": 2}))
    app = MastermindApp(seed=4, pace=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        await pilot.press(*"3632", "enter")  # game 1: knuth breaks 3632 in 5
        await settle(app, pilot)
        assert board(app).match.score == [5, 0]
        await pilot.press("escape", "n", "escape", "h")  # a new match; the first waits in the history
        await settle(app, pilot)
        await pilot.press("down", "enter")  # the older one, unfinished
        await settle(app, pilot)
        screen = board(app)
        assert screen.match is not None and screen.match.score == [5, 0] and screen.match.current.number == 2
        assert screen.expects == "code"  # knuth's code of game 2, to break


@driven
async def test_a_hint_in_the_panel_under_the_board_is_scrolled_into_sight():
    app = MastermindApp(seed=1, history=False, rules=Rules(pegs=8, colors=10))
    async with app.run_test(size=(60, 20)) as pilot:
        await settle(app, pilot)
        screen = board(app)
        assert screen.has_class("-stacked")
        await pilot.press("question_mark")
        await settle(app, pilot)
        side, info = screen.query_one("#side"), screen.query_one("#info")
        for _ in range(50):  # the panel follows once the hint is laid out, a frame or two later
            if side.scroll_y:
                break
            await pilot.pause(0.02)
        assert side.scroll_y > 0  # the panel scrolled down to it: every line of the hint in sight
        assert side.region.y <= info.region.y and info.region.bottom <= side.region.bottom


@driven
async def test_a_contradiction_under_the_board_is_scrolled_to_with_its_first_corrections_in_sight(
    private_settings,
):
    private_settings.write_text(json.dumps({"mode": "guess"}))
    app = MastermindApp(seed=1, history=False)
    async with app.run_test(size=(60, 20)) as pilot:
        await settle(app, pilot)
        screen = board(app)
        assert screen.has_class("-stacked")
        for _ in range(3):  # 1122, 3345, 6666: none; no code fits
            await pilot.press("enter")
            await settle(app, pilot)
        assert screen.game.problem is not None
        side, info = screen.query_one("#side"), screen.query_one("#info")
        first = screen.query_one("#fix-1")
        for _ in range(50):  # the panel follows once the corrections are laid out, a frame or two later
            if first.region and side.region.contains_region(first.region):
                break
            await pilot.pause(0.02)
        assert side.region.y <= info.region.y  # the text's first line is in sight
        assert side.region.contains_region(first.region)  # and the likeliest correction, to take


@driven
async def test_the_field_with_the_focus_is_drawn_apart_from_the_others_in_the_settings(private_settings):
    app = MastermindApp(seed=1, history=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("escape", "s")
        await settle(app, pilot)
        screen = app.screen

        def shown(select_id):  # the part of a Select that is drawn: its current value
            return screen.query_one(f"#{select_id} > SelectCurrent").styles.background

        assert app.focused is screen.query_one("#mode")
        assert shown("mode") != shown("preset")  # the select's own background is hidden under it
        await pilot.press("tab")
        await pilot.pause()
        assert app.focused is screen.query_one("#preset") and shown("preset") != shown("mode")


@pytest.mark.parametrize("size", [(60, 24), (80, 24), (100, 32)])
@driven
async def test_a_message_over_several_lines_moves_neither_the_palette_nor_the_button(private_settings, size):
    """A warning that wraps (two lines at 60 columns, four beside the board at 80) pushed the
    palette and the Guess button down from under the mouse; it is said under them, whole."""
    configure(private_settings, warn_inconsistent=True)
    app = MastermindApp(seed=2026, history=False)
    async with app.run_test(size=size) as pilot:
        screen = board(app)
        await type_code(app, pilot, "1122")
        palette, button, message = (screen.query_one(name) for name in ("#palette", "#submit", "#message"))
        where = (palette.region.offset, button.region.offset)
        wrong = next(c for c in ("3456", "5566", "6543") if screen.game.inconsistency(c) is not None)
        said = [
            (("1", "enter"), "3 holes still empty"),  # one line
            (("ctrl+z",), "Cleared the row"),
            ((*"1122", "enter"), "You played 1122 already"),  # two lines and more
            ((*wrong, "enter"), f"{wrong} cannot be the secret"),
        ]
        for keys, words in said:
            await pilot.press(*keys)
            await pilot.pause()
            text = " ".join(str(message.render()).split())
            assert words in text, text
            assert (palette.region.offset, button.region.offset) == where, words
            assert screen.query_one("#side").region.contains_region(message.region), words  # whole, in sight
        assert text.endswith("Enter again to play it anyway.") and message.size.height >= 2


@driven
async def test_a_message_under_the_controls_is_scrolled_into_sight_on_a_short_panel(private_settings):
    """Under the board at 60 x 24, a match's score and the codemaker's prompt fill the panel: the
    message said under the palette and the button is scrolled to, and they stay in sight too."""
    configure(private_settings, mode="match", players=["human", "knuth"])
    app = MastermindApp(seed=1, history=False)
    async with app.run_test(size=(60, 24)) as pilot:
        await settle(app, pilot)
        screen = board(app)
        await pilot.press("1", "2", "enter")
        await settle(app, pilot)
        side = screen.query_one("#side")
        assert "2 holes still empty" in str(screen.query_one("#message").render())
        for name in ("#message", "#submit", "#palette"):
            assert side.region.contains_region(screen.query_one(name).region), name
