"""The terminal UI, driven as a person drives it: Textual's Pilot presses keys and clicks."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys

import pytest

pytest.importorskip("textual", reason="the tui extra (textual) is not installed")

from mastermind import SolverState  # noqa: E402
from mastermind.core.feedback import Feedback  # noqa: E402
from mastermind.core.rules import Rules  # noqa: E402
from mastermind.history.store import Store  # noqa: E402
from mastermind.tui.app import MastermindApp  # noqa: E402
from mastermind.tui.board import BoardRow, Peg  # noqa: E402
from mastermind.tui.game_screen import GameScreen  # noqa: E402
from mastermind.tui.settings import SavedSettings  # noqa: E402
from mastermind.tui.view import BOARD_ROWS  # noqa: E402
from tui_pilot import board, configure, driven, settle, type_code  # noqa: E402


def stored(record_kind: str = "play"):
    with Store() as store:
        return [g for g in store.games() if g.kind == record_kind]


@driven
async def test_a_whole_game_won_with_the_keyboard():
    app = MastermindApp(seed=2026)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = board(app)
        game = screen.game
        secret = screen.notation.format_code(game.secret)
        await type_code(app, pilot, "1122")
        assert [str(m.guess) for m in game.moves] == ["1122"]
        # a wrong key, arrows and backspace on the way
        await pilot.press("6", "6", "backspace", "backspace", "left", "right", "left")
        assert screen.entry == [None] * 4 and screen.cursor == 0
        await pilot.press(*secret[:3], "9")  # 9 is no colour of this game: nothing happens
        assert screen.entry[:3] == list(game.secret.colors[:3]) and screen.entry[3] is None
        await type_code(app, pilot, secret[3])
        assert game.outcome == "won" and len(game.moves) == 2
        assert "You broke the code in 2 guesses" in str(screen.message)
        [saved] = stored()
        assert saved.finished and saved.outcome == "won"
        assert [m["guess"] for m in saved.record["moves"]] == ["1122", secret]
        await pilot.press("enter")  # a new game
        await pilot.pause()
        assert board(app).game is not game and not board(app).game.moves


@driven
async def test_keys_arriving_at_once_are_handled_in_the_order_typed():
    """A paste, a slow link or tmux send-keys deliver many keys at once: Backspace and the
    arrows act where they were typed among the symbols."""
    app = MastermindApp(seed=2026)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = board(app)
        entry = lambda: "".join("." if c is None else str(c + 1) for c in screen.entry)  # noqa: E731
        await pilot.press("backspace", *"5643")
        assert entry() == "5643"
        await pilot.press("delete", "home", *"1234", "backspace", "5")
        assert entry() == "1235"
        await pilot.press("backspace", "left", "left", "6")
        assert entry() == "163." and screen.cursor == 2
        assert str(screen.game.secret) != "1634"
        await pilot.press("end", "4", "enter", *"1122", "enter")  # Enter too, in its place
        assert [str(m.guess) for m in screen.game.moves] == ["1634", "1122"]


@driven
async def test_a_generous_guess_limit_builds_rows_only_as_they_are_reached():
    app = MastermindApp(seed=7, rules=Rules(4, 6, max_guesses=200))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = board(app)
        assert len(screen.query(BoardRow)) == BOARD_ROWS
        codes = [
            c
            for c in ("".join(p) for p in itertools.product("123456", repeat=4))
            if c != str(screen.game.secret)
        ][: BOARD_ROWS + 2]
        for code in codes:
            await type_code(app, pilot, code)
        await pilot.pause()
        assert [row.row for row in screen.query(BoardRow).results(BoardRow)] == list(range(1, BOARD_ROWS + 4))
        last = screen.query_one(f"#row-{BOARD_ROWS + 2}", BoardRow)
        assert "".join(str(p.render()).strip() for p in last.query(Peg).results(Peg)) == codes[-1]
        assert screen.query_one(f"#row-{BOARD_ROWS + 3}").has_class("current")
        assert "Guess 15 of 200" in str(screen.query_one("#status").render())


@driven
async def test_a_game_played_with_the_mouse():
    app = MastermindApp(seed=7)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = board(app)
        secret = screen.game.secret.colors
        await pilot.click("#color-0")
        await pilot.click("#color-1")
        await pilot.click("#peg-1-0")  # back to the first hole
        await pilot.click("#color-2")
        assert screen.entry == [2, 1, None, None] and screen.cursor == 1
        await pilot.click("#peg-1-3")
        await pilot.click("#color-3")
        await pilot.click("#peg-1-2")
        await pilot.click("#color-4")
        await pilot.click("#submit")
        await settle(app, pilot)
        assert [m.guess.colors for m in screen.game.moves] == [(2, 1, 4, 3)]
        for color in secret:
            await pilot.click(f"#color-{color}")
        await pilot.click("#submit")
        await settle(app, pilot)
        assert screen.game.outcome == "won"
        assert stored()[0].outcome == "won"


@driven
async def test_undo_takes_back_a_row_and_the_history_follows():
    app = MastermindApp(seed=3)
    async with app.run_test() as pilot:
        screen = board(app)
        await type_code(app, pilot, "1122")
        await type_code(app, pilot, "3456")
        await pilot.press("ctrl+z")
        await settle(app, pilot)
        assert [str(m.guess) for m in screen.game.moves] == ["1122"]
        assert [m["guess"] for m in stored()[0].record["moves"]] == ["1122"]
        assert "Took back" in str(screen.message)
        await pilot.press("ctrl+z", "ctrl+z")
        assert not screen.game.moves and "Nothing to undo" in str(screen.message)


@driven
async def test_a_digit_that_is_no_colour_of_the_game_is_said_not_dropped_unsaid():
    app = MastermindApp(seed=3)
    async with app.run_test() as pilot:
        screen = board(app)
        await pilot.press("1", "7")
        await settle(app, pilot)
        assert str(screen.message) == "7 is not a colour of this game (1-6, a-f or RGBYOP)."
        assert screen.entry[:2] == [0, None]  # nothing else changed
        await pilot.press("2")
        await settle(app, pilot)
        assert screen.entry[:2] == [0, 1] and str(screen.message) == ""


@driven
async def test_undo_after_a_win_is_refused_and_the_result_stands():
    app = MastermindApp(seed=2026)
    async with app.run_test() as pilot:
        screen = board(app)
        await type_code(app, pilot, "1122")
        await type_code(app, pilot, screen.notation.format_code(screen.game.secret))
        assert screen.game.outcome == "won"
        await pilot.press("ctrl+z")
        await settle(app, pilot)
        assert screen.game.outcome == "won" and len(screen.game.moves) == 2
        assert "The game is over (the code was broken)" in str(screen.message)
        [saved] = stored()
        assert saved.outcome == "won" and len(saved.record["moves"]) == 2


@driven
async def test_a_hint_teaches_the_codes_left_the_split_and_the_expected_guesses():
    app = MastermindApp(seed=5)
    async with app.run_test() as pilot:
        screen = board(app)
        await pilot.press("question_mark")
        await settle(app, pilot)
        # Knuth's 1122 splits the 1,296 codes into 13 classes, the largest of 256 (Knuth 1977); the
        # optimum from here is 5625 / 1296 = 4.3403 guesses with 1123 (Koyama and Lai 1993)
        assert "Hint: 1,296 codes are still possible." in str(screen.info)
        assert "knuth would play 1122: it splits them into 13 classes, the largest of 256" in str(screen.info)
        assert "(the best, 1123: 4.3403)" in str(screen.info)
        assert screen.game.hints == 1


@driven
async def test_a_repeated_guess_is_pointed_out_before_it_costs_a_turn():
    app = MastermindApp(seed=11)
    async with app.run_test() as pilot:
        screen = board(app)
        await type_code(app, pilot, "1234")
        await type_code(app, pilot, "1234")
        # the games package's words (as the command line's), then the board's own way to go on
        said = "You played 1234 already (row 1): it would get the same reply. Enter again to play it anyway."
        assert len(screen.game.moves) == 1 and str(screen.message) == said
        await pilot.press("enter")
        await settle(app, pilot)
        assert len(screen.game.moves) == 2


@driven
async def test_an_incomplete_guess_is_refused_with_a_reason():
    app = MastermindApp(seed=11)
    async with app.run_test() as pilot:
        screen = board(app)
        await type_code(app, pilot, "12")
        assert not screen.game.moves and "2 holes still empty" in str(screen.message)


@driven
async def test_giving_up_shows_the_secret(private_settings):
    app = MastermindApp(seed=13)
    async with app.run_test() as pilot:
        screen = board(app)
        await type_code(app, pilot, "1122")
        await pilot.press("escape", "g")
        await settle(app, pilot)
        assert screen.game.outcome == "gave-up"
        assert screen.notation.format_code(screen.game.secret) in str(screen.message)
        assert stored()[0].outcome == "gave-up"


@driven
async def test_giving_up_clears_the_hint(private_settings):
    app = MastermindApp(seed=13)
    async with app.run_test() as pilot:
        screen = board(app)
        await type_code(app, pilot, "1122")
        await pilot.press("question_mark")
        await settle(app, pilot)
        assert "Hint:" in str(screen.query_one("#info").render())
        await pilot.press("escape", "g")
        await settle(app, pilot)
        assert screen.game.outcome == "gave-up"
        assert "Hint" not in str(screen.query_one("#info").render())


@driven
async def test_the_code_found_by_the_computer_is_shown_in_the_code_row(private_settings):
    configure(private_settings, mode="guess")
    app = MastermindApp(seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        screen = board(app)
        await pilot.press(*"bbbb", "enter")  # Knuth's first guess, 1122, is the code
        await settle(app, pilot)
        assert screen.game.outcome == "won" and "Found it: 1122" in str(screen.message)
        assert secret_row(screen) == ["1", "1", "2", "2"]


@driven
async def test_the_computer_breaks_your_code_and_a_contradiction_is_fixed(private_settings):
    configure(private_settings, mode="guess")
    app = MastermindApp(seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        screen = board(app)
        game = screen.game
        assert str(game.pending) == "1122"  # Knuth's first guess, waiting for the reply
        await pilot.press("b", "w", "backspace", "backspace", "enter")  # no key pegs
        await settle(app, pilot)
        assert str(game.pending) == "3345"
        await pilot.press("enter")
        await settle(app, pilot)
        assert str(game.pending) == "6666"  # all that is left: and it is not that either
        await pilot.press("enter")
        await settle(app, pilot)
        problem = game.problem
        assert problem is not None and problem.rows == (0, 1, 2)
        assert sorted(w.id for w in screen.query(".row.problem")) == ["row-1", "row-2", "row-3"]
        assert "Rows 1, 2, 3 cannot all be true" in str(screen.query_one("#info").render())
        assert len(screen.query(".correction")) == len(problem.corrections) == 17
        # rows 1 and 2 are not offered all black (1122 and 3345 fit the other replies): the guesses
        # after them were replied to, so neither was the secret
        assert {(c.row, str(c.reply)) for c in problem.corrections if c.reply.black == 4} == {(2, "4,0")}
        assert screen.selected == 3  # the last row involved is chosen first
        # fix row 2 by hand: up to it, enter 1 black and 1 white
        await pilot.press("up")
        assert screen.selected == 2
        await pilot.press("b", "w", "enter")
        await settle(app, pilot)
        assert game.moves[1].reply == Feedback(1, 1) and game.problem is None
        assert game.pending is not None  # the computer guesses again
        assert stored("guess")[0].record["moves"][1]["reply"] == "1,1"


def shown_keys(app) -> set[str]:
    """The actions the footer offers now (hidden and disabled ones left out)."""
    return {b.binding.action for b in app.screen.active_bindings.values() if b.enabled and b.binding.show}


@driven
async def test_no_hint_is_offered_when_the_computer_breaks_your_code(private_settings):
    configure(private_settings, mode="guess")
    app = MastermindApp(seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        assert "hint" not in shown_keys(app) and "undo" in shown_keys(app)
    configure(private_settings, mode="break")
    app = MastermindApp(seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        assert "hint" in shown_keys(app)


@driven
async def test_a_suggested_correction_is_taken_with_a_click(private_settings):
    configure(private_settings, mode="guess")
    app = MastermindApp(seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        for _ in range(3):
            await pilot.press("enter")
            await settle(app, pilot)
        game = board(app).game
        fix = game.problem.corrections[0]
        await pilot.click("#fix-1")
        await settle(app, pilot)
        assert game.problem is None and game.moves[fix.row].reply == fix.reply


@driven
async def test_settings_start_a_new_kind_of_game_and_are_remembered(private_settings):
    app = MastermindApp(seed=1)
    async with app.run_test(size=(80, 30)) as pilot:
        await pilot.press("escape", "s")
        await pilot.pause()
        app.screen.query_one("#pegs").value = "3"
        app.screen.query_one("#colors").value = "5"
        await pilot.click("#start")
        await settle(app, pilot)
        screen = board(app)
        assert (screen.rules.pegs, screen.rules.colors) == (3, 5)
    assert SavedSettings.load(private_settings).pegs == 3


@driven
async def test_impossible_settings_are_refused_on_the_form(private_settings):
    app = MastermindApp(seed=1)
    async with app.run_test(size=(80, 30)) as pilot:
        await pilot.press("escape", "s")
        await pilot.pause()
        app.screen.query_one("#pegs").value = "11"
        await pilot.click("#start")
        await pilot.pause()
        assert "pegs must be 1 to 10" in str(app.screen.query_one("#settings-error").render())
        app.screen.query_one("#pegs").value = "4"  # corrected: the error goes
        await pilot.pause()
        assert str(app.screen.query_one("#settings-error").render()).strip() == ""
        app.screen.query_one("#colors").value = ""  # the error names the field by its label
        await pilot.pause()  # (the edit's own message clears the form's error: it goes first)
        await pilot.click("#start")
        await pilot.pause()
        assert "Colours must be a whole number" in str(app.screen.query_one("#settings-error").render())


@driven
async def test_a_match_between_a_person_and_knuth_keeps_the_score(private_settings):
    configure(private_settings, mode="match", players=["human", "knuth"], games=2)
    app = MastermindApp(seed=4, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        screen = board(app)
        match = screen.match
        assert match is not None and match.waiting_for == "secret"
        await type_code(app, pilot, "3632")  # player 1 makes the code; knuth breaks it
        assert match.current.number == 2 and match.rounds[0].points == [5, 0]
        said = "Game 1: player 2 (knuth) broke the code 3632 in 5 guesses. Points: you 5, player 2 (knuth) 0."
        assert said in screen.log_lines  # the games package's words (games/words.py)
        await pilot.press("enter")  # from game 1's board, kept until the person moves on, to game 2
        await settle(app, pilot)
        secret = screen.notation.format_code(match.current.game.secret)
        await type_code(app, pilot, secret)
        assert match.over and match.score == [5, 1]
        assert "The match is over: you win, 5 points to 1." in str(screen.query_one("#status").render())
        [saved] = stored("match")
        assert saved.finished and saved.record["score"] == [5, 1]


@driven
async def test_a_match_in_hard_mode_refuses_a_guess_that_cannot_be_the_code(private_settings):
    """The Hard tick holds in a match as in a game alone: the person's games of the match are hard."""
    configure(private_settings, mode="match", players=["knuth", "human"], games=2, hard=True)
    app = MastermindApp(seed=4, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        screen = board(app)
        match = screen.match
        assert match is not None and match.hard and match.current.game.hard
        await type_code(app, pilot, "1122")
        game = match.current.game
        assert len(game.moves) == 1 and not game.over  # knuth's code is not 1122 (seed 4)
        possible = {str(c) for c in SolverState(game.rules, game.history).candidates()}
        wrong = next(c for c in ("3456", "1234", "5566", "1111") if c not in possible)
        await type_code(app, pilot, wrong)
        assert len(game.moves) == 1
        assert f"Hard mode: {wrong} cannot be the secret" in str(screen.query_one("#message").render())


@driven
async def test_points_for_wrong_information_show_in_the_score_at_once(private_settings):
    configure(private_settings, mode="match", players=["human", "knuth"], games=2)
    app = MastermindApp(seed=4, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        screen = board(app)
        await pilot.press("enter")  # no code: player 1 replies to knuth's guesses by hand
        await settle(app, pilot)
        for _ in range(6):  # "no peg right" to every guess, until the replies contradict each other
            if any("played again" in line for line in screen.log_lines):
                break
            await pilot.press("enter")
            await settle(app, pilot)
        said = (
            "Game 1: the replies contradict each other; it is played again "
            "and player 2 (knuth) gets 3 points."
        )
        assert said in screen.log_lines
        assert screen.match is not None and screen.match.current.number == 1
        score = str(screen.query_one("#score").render())
        assert "Player 1 (human): 0\nPlayer 2 (knuth): 3\n" in score


@driven
async def test_the_history_screen_lists_the_games(private_settings):
    app = MastermindApp(seed=2026)
    async with app.run_test(size=(80, 24)) as pilot:
        await type_code(app, pilot, "1122")
        await type_code(app, pilot, board(app).notation.format_code(board(app).game.secret))
        await pilot.press("enter")  # a new game, left unfinished
        await type_code(app, pilot, "1122")
        await pilot.press("escape", "h")
        await pilot.pause()
        table = app.screen.query_one("#games")
        assert table.row_count == 2
        stats = str(app.screen.query_one("#stats").render())
        assert "4x6: 1 played, 1 won (100%; 1 without help), mean 2.00 guesses" in stats
        await pilot.press("escape")
        assert isinstance(app.screen, GameScreen)


@driven
async def test_the_board_stays_usable_when_the_terminal_shrinks():
    app = MastermindApp(seed=2026, pace=0)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.resize_terminal(60, 16)
        await pilot.pause()
        await type_code(app, pilot, "1122")
        await pilot.pause()
        assert board(app).game.moves
        await pilot.click("#color-0")
        assert board(app).entry[0] == 0


def test_bad_settings_files_give_the_defaults(tmp_path):
    path = tmp_path / "tui.json"
    assert SavedSettings.load(path) == SavedSettings()
    path.write_text("{not json")
    assert SavedSettings.load(path) == SavedSettings()
    path.write_text(json.dumps({"pegs": 11}))
    assert SavedSettings.load(path) == SavedSettings()
    path.write_text(json.dumps({"pegs": 5, "colors": "many"}))
    assert SavedSettings.load(path).pegs == 5 and SavedSettings.load(path).colors == 6
    assert SavedSettings(pegs=3).save(path) is None and SavedSettings.load(path).pegs == 3


def notices(app) -> list[str]:
    return [n.message for n in app._notifications]


@pytest.mark.parametrize(
    "text, why",
    [
        ("{not json", "not JSON"),
        ("[4, 6]", "not a JSON object"),
        ('{"pegs": 11}', "pegs must be 1 to 10"),
        ('{"pegs": 5, "colors": "many", "sound": true}', "colors, sound ignored"),
        ('{"mode": "chess"}', "no mode 'chess'"),
        ('{"strategy": "nope"}', "unknown strategy 'nope'"),
    ],
)
@driven
async def test_a_bad_settings_file_is_said_once_and_the_defaults_used(private_settings, text, why):
    private_settings.write_text(text)
    app = MastermindApp(seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        [notice] = notices(app)
        assert str(private_settings) in notice and why in notice, notice
        assert board(app).rules.pegs == (5 if "many" in text else 4)


@driven
async def test_no_word_about_settings_never_saved(private_settings):
    app = MastermindApp(seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert notices(app) == []


@driven
async def test_a_reply_given_by_clicking_the_key_holes(private_settings):
    configure(private_settings, mode="guess")
    app = MastermindApp(seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        screen = board(app)
        await pilot.click("#keys-1", offset=(1, 0))  # the first hole: black
        await pilot.click("#keys-1", offset=(4, 0))  # the second hole: black,
        await pilot.click("#keys-1", offset=(4, 0))  # then white
        assert screen.keys == ["b", "w"]
        await pilot.click("#submit")
        await settle(app, pilot)
        assert screen.game.moves[0].reply == Feedback(1, 1) and screen.game.pending is not None


@driven
async def test_a_match_between_two_strategies_plays_itself_out(private_settings):
    configure(private_settings, mode="match", players=["knuth", "entropy"], games=2)
    app = MastermindApp(seed=9, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        match = board(app).match
        assert match is not None and match.over
        assert stored("match")[0].record["score"] == match.score
        assert board(app).log_lines[-1].startswith("The match is over: ")


@driven
async def test_the_blank_game_is_named_as_the_command_line_names_it(private_settings):
    from mastermind.core.rules import PRESETS
    from mastermind.games.game import Game

    game = Game.breaking(PRESETS["super-blank"], seed=1)
    game.guess("12345")
    game.give_up()
    with Store() as store:
        store.add(game.record())
    app = MastermindApp(seed=1)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("escape", "h")
        await pilot.pause()
        table = app.screen.query_one("#games")
        assert table.get_row_at(0)[3] == "5x8+blank"
        stats = str(app.screen.query_one("#stats").render())
        assert "You broke the computer's code, 5x8+blank: 1 played, 0 won" in stats


@driven
async def test_a_hint_in_a_match_is_the_matchs_and_kept_in_the_history_at_once(private_settings):
    """The board asks the match for its hint (the same as the command line's and the page's) and
    keeps the match's record with the hint counted, as a hint in a game alone is kept: a board
    closed before the next guess does not lose it."""
    configure(private_settings, mode="match", players=["knuth", "human"], games=2)
    app = MastermindApp(seed=4, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        screen = board(app)
        assert screen.match.waiting_for == "guess"  # knuth has made the code of game 1
        await pilot.press("question_mark")
        await settle(app, pilot)
        assert "Hint: 1,296 codes are still possible." in str(screen.info)
        assert screen.match.current.game.hints == 1
        [saved] = stored("match")
        assert saved.record["games"][0]["game"]["hints"] == 1


@driven
async def test_undo_in_a_match_takes_back_only_an_unanswered_guess_and_never_a_strategys(private_settings):
    configure(private_settings, mode="match", players=["knuth", "human"], games=2)
    app = MastermindApp(seed=4, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        screen = board(app)
        match = screen.match
        assert match.waiting_for == "guess"  # knuth has made the code of game 1
        await type_code(app, pilot, "1122")
        await type_code(app, pilot, "3456")
        await pilot.press("ctrl+z")
        await settle(app, pilot)
        assert [str(m.guess) for m in match.current.game.moves] == ["1122", "3456"]
        assert "Guess 2 has had its reply: in a match a replied guess stands." in str(screen.message)
        await type_code(app, pilot, screen.notation.format_code(match.current.game.secret))
        assert match.rounds[0].points == [3, 0]  # every reply the person saw is counted
        await pilot.press("ctrl+z")
        await settle(app, pilot)
        assert "Game 1 is over and game 2 has no guess yet: nothing to undo." in str(screen.message)
        await pilot.press("enter")  # on to game 2
        await settle(app, pilot)
        await type_code(app, pilot, "3632")  # the person makes the code; knuth breaks it
        assert match.over
        await pilot.press("ctrl+z")
        assert "The match is over: its games stand." in str(screen.message)
    configure(private_settings, mode="match", players=["human", "knuth"], games=2)
    app = MastermindApp(seed=4, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        screen = board(app)
        await pilot.press("enter")  # no secret: the person replies to every guess of knuth
        await settle(app, pilot)
        await pilot.press("b", "enter")
        await settle(app, pilot)
        await pilot.press("ctrl+z")
        assert "Knuth breaks this code: a strategy's guesses are not taken back" in str(screen.message)
        assert len(screen.match.current.game.moves) == 1
    configure(private_settings, mode="match", players=["human", "human"], games=2)
    app = MastermindApp(seed=4, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        screen = board(app)
        await pilot.press("enter")  # no secret: player 1 replies to every guess of player 2
        await settle(app, pilot)
        await type_code(app, pilot, "1122")
        assert screen.match.waiting_for == "reply"
        await pilot.press("ctrl+z")  # player 1 withdraws it before replying: nothing was revealed
        await settle(app, pilot)
        assert "Player 2 took back guess 1: it had no reply yet." in str(screen.message)
        assert screen.match.waiting_for == "guess" and screen.match.current.game.moves == []


def secret_row(screen) -> list[str]:
    """The code's row under the board, as the screen shows it."""
    return [str(peg.render()).strip() for peg in screen.query_one("#secret-row").query(".peg")]


@pytest.mark.parametrize("breaker", ["human", "knuth"])
@driven
async def test_a_person_choosing_the_code_of_a_match_types_it_masked(private_settings, breaker):
    configure(private_settings, mode="match", players=["human", breaker], games=2)
    app = MastermindApp(seed=4, pace=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        screen = board(app)
        await pilot.press("3", "6", "3")
        assert secret_row(screen) == ["●", "●", "●", "·"]  # a plain peg per hole: no colour, no symbol
        status = str(screen.query_one("#status").render())
        assert "Player 1: choose the code (it is masked: F2 shows it;" in status
        assert ("Player 2, look away!" in status) == (breaker == "human")
        assert "peek" in shown_keys(app)
        await pilot.press("f2")  # the codemaker peeks
        assert secret_row(screen) == ["3", "6", "3", "·"]
        assert "(F2 hides it;" in str(screen.query_one("#status").render())
        await pilot.press("f2", "2")
        assert secret_row(screen) == ["●"] * 4
        await pilot.press("enter")
        await settle(app, pilot)
        assert "peek" not in shown_keys(app)
        if breaker == "human":
            assert secret_row(screen) == ["?"] * 4  # hidden while it is broken
            await pilot.press("f2")
            assert secret_row(screen) == ["?"] * 4  # no peeking once the game is on
            await type_code(app, pilot, "1122")
            assert secret_row(screen) == ["?"] * 4
            await type_code(app, pilot, "3632")
        assert "broke the code 3632 in" in "\n".join(screen.log_lines)  # over: now its code is told


def said(app, selector: str) -> str:
    return str(app.screen.query_one(selector).render())


BULLS_AND_COWS = {"pegs": 4, "colors": 10, "repeats": False}


@driven
async def test_bulls_and_cows_speaks_of_bulls_cows_and_digits(private_settings):
    configure(private_settings, mode="guess", **BULLS_AND_COWS)
    app = MastermindApp(seed=1)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        screen = board(app)
        assert "b: bull (right digit, right place) · c: cow (right digit)" in said(app, "#help-line")
        await pilot.press("enter")  # 0123: none
        await settle(app, pilot)
        await pilot.press("enter")  # 4567: none, and two digits are left for four places
        await settle(app, pilot)
        assert str(app.screen.query_one("#fix-1").label).startswith("1  row 2 → 0B 2C  84 codes")  # latest
        await pilot.press("up", "c", "enter")  # row 1 fixed by hand to a cow: still no code fits
        await settle(app, pilot)
        assert screen.game.moves[0].reply == Feedback(0, 1) and screen.game.problem is not None
        assert "Row 1 is now 0 bulls, 1 cow." in str(screen.message)
        assert said(app, "#row-1 .count") == "0B 1C"
        await pilot.press("up", "b", "enter")  # and a bull: now codes fit
        await settle(app, pilot)
        assert screen.game.moves[0].reply == Feedback(1, 1) and screen.game.problem is None
    configure(private_settings, mode="play", **BULLS_AND_COWS)
    app = MastermindApp(seed=1)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        assert "Type 0-9, or click a digit" in said(app, "#help-line")
        assert app.screen.query_one("#color-3").tooltip == "digit 3"
        await type_code(app, pilot, "012")
        assert "1 hole still empty: a code has 4 digits." in str(board(app).message)
        await type_code(app, pilot, "0")
        refused = "This game allows no repeats: a code holds each symbol at most once."
        assert str(board(app).message) == refused


@driven
async def test_a_row_fixed_to_a_reply_that_still_contradicts_lists_the_new_corrections(private_settings):
    configure(private_settings, mode="guess")
    app = MastermindApp(seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        for _ in range(3):  # 1122, 3345, 6666: none; no code fits
            await pilot.press("enter")
            await settle(app, pilot)
        screen = board(app)
        assert screen.selected == 3 and screen.game.problem.rows == (0, 1, 2)
        await pilot.press("w", "enter")  # 6666 gets a white: no code fits row 3 alone
        await settle(app, pilot)
        problem = screen.game.problem
        assert problem.rows == (2,) and "Row 3 is now 0 black, 1 white." in str(screen.message)
        shown = [str(b.label) for b in app.screen.query(".correction") if b.display]
        assert shown == ["1  row 3 → 4B 0W  1 code"]  # 6666 itself; the others hidden


def launched(monkeypatch, *args):
    """``mastermind ARGS`` through the command line, the app built but not run: (exit code, stderr,
    the app or None)."""
    from click.testing import CliRunner

    from mastermind.cli import cli

    apps = []
    monkeypatch.setattr(MastermindApp, "run", lambda self: apps.append(self))
    monkeypatch.setattr("mastermind.cli.tui.need_terminal", lambda: None)  # CliRunner's input is no terminal
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stderr, (apps[0] if apps else None)


def test_tui_takes_the_game_options_for_this_run_and_saves_none(monkeypatch, private_settings):
    configure(private_settings, mode="guess", pegs=3, colors=5)
    code, err, app = launched(monkeypatch, "tui", "--preset", "super-blank", "--max-guesses", "12")
    assert code == 0 and "is 5 pegs, colours 1-8 and the blank, repeats allowed, 12 guesses" in err  # a note
    assert app.settings.mode == "guess" and app.settings.rules == Rules(5, 9, max_guesses=12, blank=True)
    assert json.loads(private_settings.read_text()) == {"mode": "guess", "pegs": 3, "colors": 5}
    code, _, app = launched(monkeypatch, "tui", "--notation", "letters")  # the remembered game, in letters
    assert app.settings.rules == Rules(3, 5) and app.notation == "letters"
    code, _, app = launched(monkeypatch, "tui")
    assert app.settings.rules == Rules(3, 5) and app.notation == ""


def test_an_app_that_stopped_on_an_error_exits_with_its_status(monkeypatch, private_settings):
    def crash(app):  # what Textual does when a handler raises: the error shown, the status set
        app._return_code = 1

    monkeypatch.setattr(MastermindApp, "run", crash)
    monkeypatch.setattr("mastermind.cli.tui.need_terminal", lambda: None)  # CliRunner's input is no terminal
    from click.testing import CliRunner

    from mastermind.cli import cli

    assert CliRunner().invoke(cli, ["tui", "--no-history"]).exit_code == 1


@pytest.mark.parametrize("given", [{"stdin": subprocess.DEVNULL}, {"input": "1122\n"}], ids=["file", "pipe"])
def test_tui_without_a_terminal_for_input_is_one_line_and_exit_2(tmp_path, private_settings, given):
    # on a file or a pipe the app waited for keys until killed
    env = {**os.environ, "MASTERMIND_DB": str(tmp_path / "h.sqlite3")}
    command = [sys.executable, "-m", "mastermind.cli", "tui"]
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=60, **given)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == (
        "mastermind: error: mastermind tui needs a terminal, and its input is not one "
        "(to play from a file or a pipe, use mastermind play or mastermind guess)\n"
    )


@pytest.mark.parametrize(
    "args, why",
    [
        (["--pegs", "11"], "pegs must be 1 to 10, not 11"),
        (["--blank", "--no-repeats"], "the blank needs repeats"),
        (["--preset", "chess"], "unknown preset 'chess'"),
        (["--colors", "12", "--notation", "digits"], "--notation digits writes at most 10 colours"),
        (["--pegs", "8", "--colors", "12"], "knuth cannot play 8 pegs, 12 colours"),  # the remembered mode
    ],
)
def test_bad_game_options_are_one_line_and_exit_2(monkeypatch, private_settings, args, why):
    configure(private_settings, mode="guess")
    code, err, app = launched(monkeypatch, "tui", *args)
    assert code == 2 and app is None
    assert err.startswith("mastermind: error: ") and why in err and err.count("\n") == 1, err


@driven
async def test_the_blank_game_on_the_board(private_settings):
    from mastermind.core.rules import PRESETS

    app = MastermindApp(seed=3, rules=PRESETS["super-blank"])
    async with app.run_test(size=(80, 24)) as pilot:
        screen = board(app)
        assert screen.sub_title.endswith("5x8+blank, 10 guesses")
        await pilot.pause()
        title = app.screen.query_one("HeaderTitle")
        header = str(title.render())
        assert header.endswith("5x8+blank, 10 guesses") and len(header) <= title.content_region.width
        assert "Type 1-8, or - (also .) for an empty hole, or click a colour" in said(app, "#help-line")
        assert app.screen.query_one("#color-8").tooltip == "the blank, a hole left empty: type - or ."
        await type_code(app, pilot, "12-.8")
        assert [screen.notation.format_code(m.guess) for m in screen.game.moves] == ["12--8"]
        assert [str(p.render()).strip() for p in app.screen.query("#row-1 .peg")] == list("12--8")
        await pilot.press("escape", "s")  # the settings screen shows the game, and saves what it starts
        await pilot.pause()
        assert app.screen.query_one("#colors").value == "8" and app.screen.query_one("#blank").value
        await pilot.press("ctrl+s")
        await settle(app, pilot)
        assert board(app).rules == PRESETS["super-blank"]
    assert SavedSettings.load(private_settings).rules == PRESETS["super-blank"]


@driven
async def test_with_the_setting_on_a_guess_that_cannot_be_the_secret_is_warned_about_then_played(
    private_settings,
):
    configure(private_settings, warn_inconsistent=True)
    app = MastermindApp(seed=11)
    async with app.run_test() as pilot:
        screen = board(app)
        screen.game.secret = screen.notation.parse_code("2154")
        await type_code(app, pilot, "1122")  # 1 black, 1 white
        await type_code(app, pilot, "1134")  # as the secret, 1122 would get 2 black
        message = str(screen.message)
        assert len(screen.game.moves) == 1
        assert (
            "1134 cannot be the secret: guess 1, 1122, got 1 black, 1 white, and would have got 2 black"
            in message
        )
        await pilot.press("enter")  # confirmed: played
        await settle(app, pilot)
        assert len(screen.game.moves) == 2


@driven
async def test_the_warning_about_impossible_guesses_is_off_by_default_and_set_on_the_settings_screen(
    private_settings,
):
    app = MastermindApp(seed=11)
    async with app.run_test(size=(80, 40)) as pilot:
        screen = board(app)
        screen.game.secret = screen.notation.parse_code("2154")
        await type_code(app, pilot, "1122")
        await type_code(app, pilot, "1134")  # cannot be the secret: played at once, nothing said
        assert len(screen.game.moves) == 2 and "cannot be the secret" not in str(screen.message)
        await pilot.press("escape", "s")
        await pilot.pause()
        tick = app.screen.query_one("#warn-inconsistent")
        assert not tick.value and "cannot be the secret" in str(tick.label)
        tick.value = True
        await pilot.click("#start")
        await settle(app, pilot)
    assert SavedSettings.load(private_settings).warn_inconsistent is True


@driven
async def test_capital_r_opens_the_review_as_the_finished_games_line_says_even_in_colour_letters():
    from mastermind.core.notation import Notation
    from mastermind.tui.review_screen import ReviewScreen

    app = MastermindApp(seed=2026, notation="colors")
    async with app.run_test(size=(110, 30)) as pilot:
        screen = board(app)
        letters = Notation(Rules(), "colors")
        for code in ("1122", "1344", "1235", "3312", "2154"):  # seed 2026 hides 2154
            await type_code(app, pilot, letters.format_code(letters.parse_code(code)))
        assert screen.game.outcome == "won" and "R: how each guess" in str(screen.message)
        await pilot.press("R")
        await settle(app, pilot)
        assert isinstance(app.screen, ReviewScreen)
