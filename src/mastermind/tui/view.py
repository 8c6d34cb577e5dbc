"""The board screen's drawing: every row, the code's row and the side panel, redrawn from
the games package's state after each move (a mixin base of :class:`~.game_screen.GameScreen`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.widgets import Button, Static

from .._kernels import COMPILING
from ..core.feedback import Feedback
from .board import BoardRow, Peg
from .panel import Corrections, Expect, help_text, match_pause, score_text, secret_row, status_head

if TYPE_CHECKING:
    from ..core.notation import Notation
    from ..core.rules import Rules
    from ..games.game import Game
    from ..games.match import Match, Round
    from ..history.store import Recorder

#: Rows drawn from the start; past them (a generous guess limit) a row is added as it is reached,
#: so that a limit of a thousand guesses does not build a thousand rows before the first.
BOARD_ROWS = 12


class BoardView(Screen):
    """Draws the board and its panel from the game (the screen's state, declared here)."""

    rules: Rules
    notation: Notation
    game: Game
    match: Match | None
    entry: list[int | None]
    cursor: int
    keys: list[str]
    selected: int | None
    message: Text
    info: Text
    log_lines: list[str]
    peek: bool
    busy: bool
    held: Round | None
    hurry: bool
    recorder: Recorder
    _ready: bool
    _said: Text | None = None  # the message drawn last

    @property
    def expects(self) -> Expect:
        """What the board waits for now (the screen knows)."""
        raise NotImplementedError

    # -- drawing -----------------------------------------------------------------------------------

    def _rows_wanted(self) -> int:
        """The rows on the board: every row up to the guess limit where it is small, else the
        rows played and the one being played."""
        return min(self.rules.max_guesses, max(BOARD_ROWS, self.game.turn))

    def _add_rows(self) -> None:
        """Add the rows the game has reached; they are drawn once mounted."""
        have = len(self.query(BoardRow))
        if have >= self._rows_wanted():
            return
        rows = [BoardRow(row, self.rules.pegs) for row in range(have + 1, self._rows_wanted() + 1)]
        mounted = self.query_one("#board").mount(*rows, before="#secret-row")

        async def draw() -> None:
            await mounted
            self.refresh_view()

        self.call_later(draw)

    def refresh_view(self) -> None:
        if not self._ready:
            return
        self._add_rows()
        game, notation, expects = self.game, self.notation, self.expects
        problem_rows = set(game.problem.rows) if game.problem is not None else set()
        for row_widget in self.query(BoardRow).results(BoardRow):
            if not row_widget.is_mounted:
                continue  # drawn once mounted
            row = row_widget.row
            current = row == game.turn and not game.over and (expects == "code" or game.pending is not None)
            if row <= len(game.moves):
                move = game.moves[row - 1]
                reply: Feedback | None = move.reply
                if self.selected == row:
                    reply = self._keys_reply()
                row_widget.show(notation, move.guess.colors, reply, marked=self.selected == row)
            elif current and expects == "code":
                row_widget.show(notation, self.entry, None, cursor=self.cursor, marked=True)
            elif current and game.pending is not None:
                # no reply shown (not even 0B 0W) before the person has given a key peg
                entering = expects == "reply" and self.selected is None and bool(self.keys)
                reply = self._keys_reply() if entering else None
                row_widget.show(notation, game.pending.colors, reply, marked=self.selected is None)
            else:
                row_widget.show(notation, [], None)
            row_widget.set_class(current, "current")
            row_widget.set_class(row == self.selected, "selected")
            row_widget.set_class(row - 1 in problem_rows, "problem")
        self._draw_secret_row(expects)
        self._draw_side(expects)
        self._scroll_to_current()
        self.refresh_bindings()

    def _keys_reply(self) -> Feedback:
        return Feedback(self.keys.count("b"), self.keys.count("w"))

    def _draw_secret_row(self, expects: Expect) -> None:
        label = self.query_one("#secret-label", Static)
        label.update(Text("code", "bold" if expects == "secret" else "dim"))
        texts = secret_row(self.game, expects, self.entry, self.cursor, self.peek, self.notation)
        for peg in self.query_one("#secret-row").query(Peg).results(Peg):
            peg.update(texts[peg.index])

    def _draw_side(self, expects: Expect) -> None:
        game, match = self.game, self.match
        score = self.query_one("#score", Static)
        score.display = match is not None
        if match is not None:
            score.update(score_text(match))
        status = self.query_one("#status", Static)
        if self.busy:
            compiling = getattr(self.app, "compiling", False)
            head = Text(f"Thinking… {COMPILING}" if compiling else "Thinking…", "italic")
        else:
            paused = match_pause(match, self.held, self.hurry, self.notation) if match is not None else None
            head = paused or status_head(game, match, expects, self.notation, self.selected, self.peek)
        status.update(head)
        status.display = bool(head.plain)  # a finished game: nothing to do but what the message says
        message = self.query_one("#message", Static)
        if self._said is not self.message:  # a new message: drawn, and brought into sight
            self._said = self.message
            message.update(self.message)
            message.display = bool(self.message.plain)
            if message.display:
                self.call_after_refresh(self._show_message)
        submit = self.query_one("#submit", Button)
        computer = match is not None and not match.over and match.waiting_for == "computer"
        submit.display = expects is not None or self.game.over or bool(match and match.over) or computer
        if self.held is not None:
            label = "Next game"
        elif computer and not self.busy:
            label = "All at once"
        else:
            labels = {"code": "Guess", "secret": "Set the code", "reply": "Reply"}
            label = labels.get(expects or "", "New game")
        submit.label = label
        palette = self.query_one("#palette")
        palette.display = expects in ("code", "secret")
        self.query_one("#help-line", Static).update(help_text(self.notation, expects, match is not None))
        info = self.query_one("#info", Static)
        problem = game.problem if match is None else None
        text = self.info
        if problem is not None:
            rows = ", ".join(str(r + 1) for r in problem.rows)
            text = Text(
                f"Rows {rows} cannot all be true. Correct one reply: choose its row with ↑↓ "
                "and enter it, or take a correction, likeliest first (its key, or a click; "
                "the codes it would leave):",
                "red",
            )
        if self.recorder.warning:
            text = Text.assemble(text, "\n", (self.recorder.warning, "yellow"))
        info.update(text)
        info.display = bool(text.plain.strip())  # no blank lines where there is nothing to read
        corrections = () if problem is None else problem.corrections
        self.query_one(Corrections).show(corrections, self.notation.terms)
        log = self.query_one("#log", Static)
        log.display = bool(self.log_lines)
        log.update("\n".join(self.log_lines[-6:]))

    def _show_message(self, tries: int = 10) -> None:
        """The panel scrolled to a message just said, where it is out of sight under the controls
        (a short screen, or the panel under the board), as little as brings it in; once it is laid
        out (a frame or two after it was set)."""
        message, side = self.query_one("#message"), self.query_one("#side")
        if not message.display:
            return
        if not message.region and tries:
            self.set_timer(0.02, lambda: self._show_message(tries - 1))
            return
        if not side.region.contains_region(message.region):
            side.scroll_to_widget(message, animate=False)

    def _show_info(self, tries: int = 10) -> None:
        """The panel scrolled to what was just said there, a hint or a contradiction and its
        corrections (a short screen, or the panel under the board, would leave them out of sight);
        once the text is laid out (a frame or two after it was set)."""
        info, side = self.query_one("#info"), self.query_one("#side")
        corrections = self.query_one(Corrections)
        said = [info] + ([corrections] if corrections.shown else [])  # the corrections: to be taken
        if not all(widget.region for widget in said) and tries:
            self.set_timer(0.02, lambda: self._show_info(tries - 1))
            return
        if all(side.region.contains_region(widget.region) for widget in said):
            return  # in sight already: the status above it stays too
        # as little as brings it in; its first line at the top where it is taller than the panel
        # (a contradiction's text, then as many of its corrections, likeliest first, as fit)
        wanted = info.virtual_region_with_margin
        for widget in said[1:]:
            wanted = wanted.union(widget.virtual_region_with_margin)
        taller = wanted.height >= side.scrollable_content_region.height
        side.scroll_to_region(wanted, top=taller, animate=False)

    def _scroll_to_current(self) -> None:
        if not self._ready:
            return
        row = self.selected or min(self.game.turn, self.rules.max_guesses)
        try:
            widget = self.query_one(f"#row-{row}")
        except NoMatches:
            return
        self.query_one("#board").scroll_to_widget(widget, animate=False)
