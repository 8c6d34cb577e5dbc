"""The review screen: a finished game drawn row by row with the games package's review of each move.

The values and verdicts are :func:`mastermind.games.review.review`'s; this screen draws them: a
mark per row (the chess marks: ★ best, ✓ good, ?! inaccuracy, ? mistake, ?? blunder), the codes
left, the best guess, the expected guesses and the loss; under the table the ghost row of the
row the cursor is on (the best guess beside the player's, and how each split the codes), the game
on one chart (the games package's chart in text), the summary with accuracy and luck, and the
line to share. ``p`` practises the game's mistakes (:mod:`.practice_screen`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Static

from ..core.notation import Notation
from ..core.text import guess_count, plural, sentence
from ..errors import MastermindError
from ..games.review import VERDICT_MARKS, review
from ..games.review_chart import chart_lines
from ..games.reviewable import practice_refusal, review_refusal
from .board import keys_text, pegs_text
from .thinking import off_screen

if TYPE_CHECKING:
    from ..games.match_review import MatchReview
    from ..games.review import MoveReview, Review

#: How each verdict is marked on its row, and its colour.
STYLES = {
    "best": "bold green",
    "good": "green",
    "inaccuracy": "yellow",
    "mistake": "dark_orange",
    "blunder": "bold red",
}
MARKS = {name: (VERDICT_MARKS[name], style) for name, style in STYLES.items()}

#: Below this width the table leaves out the expected guesses of the move and of the best guess
#: (the ghost row under it says them, with the loss): it fits a 60-column terminal.
NARROW = 80


class ReviewScreen(Screen[None]):
    """A finished game (a Game or a game's record) reviewed move by move; computed off the
    screen's thread (an exact search may take seconds), Escape goes back."""

    BINDINGS = [
        Binding("escape,q", "app.pop_screen", "Back"),
        Binding("p", "practice", "Practise mistakes"),
        Binding("n", "next_game", "Next game", show=False),
        Binding("z", "puzzles", "Puzzles"),
    ]

    def __init__(self, subject: Any, notation: Notation | None = None, title: str = "Review") -> None:
        super().__init__()
        self.subject = subject
        self.notation = notation
        self.heading = title
        self.result: Review | None = None
        self.error: str | None = None
        self.match: MatchReview | None = None  # a match's record: each game reviewed, both sides
        self.game_at = 0
        self.narrow = False  # the table laid out for a terminal under NARROW columns

    def compose(self) -> ComposeResult:
        yield Header(icon="◉")
        with VerticalScroll(id="review"):
            yield Static(Text("Reviewing the game against the optimum…", "italic"), id="review-head")
            yield DataTable(id="review-moves", cursor_type="row", zebra_stripes=True)
            yield Static("", id="review-ghost")
            yield Static("", id="review-chart")
            yield Static("", id="review-summary")
        yield Footer()

    def on_mount(self) -> None:
        self.title = self.heading

        def work() -> None:
            result: Review | None = None
            try:
                subject = self.subject
                why = review_refusal(subject)  # the engine's rule, as the history offered it
                if why is not None:
                    raise MastermindError(why)
                if isinstance(subject, dict) and subject.get("kind") == "match" and "games" in subject:
                    from ..games.match_review import review_match

                    self.match = review_match(subject)
                    if not self.match.games:
                        raise MastermindError("the match has no finished game yet")
                    result = self.match.games[0].review
                else:
                    result = review(subject)
                error = None
            except MastermindError as err:
                result, error = None, str(err)
            self.app.call_from_thread(self.show, result, error)

        self.run_worker(off_screen(work), thread=True, group="review")

    def show(self, result: Review | None, error: str | None) -> None:
        self.result, self.error = result, error
        head = self.query_one("#review-head", Static)
        if result is None:
            head.update(Text(f"No review: {error}.", "red"))
            return
        notation = self.notation or Notation(result.rules)
        head.update(self.head_text(result, notation))
        self.fill_table(self.size.width < NARROW)
        self.query_one("#review-chart", Static).update(Text("\n".join(chart_lines(result))))
        self.query_one("#review-moves", DataTable).focus()  # the arrows walk the moves, with their ghost rows
        practice = len(result.practice().positions)
        lines = [*result.summary_lines(), f"Share: {result.share_line(notation)}"]
        if self.match is not None:
            lines += ["", *self.match.summary_lines()]
        if practice and practice_refusal(self.subject) is None:
            lines.append(f"P: practise your mistakes ({plural(practice, 'position')}).")
        summary = Text("\n".join(lines))
        notes = [m.comment(notation) for m in result.moves if m.noteworthy]
        legend = result.marks_legend()
        notes += [] if legend is None else [legend]
        if notes:
            summary.append("\n\n" + "\n".join(notes), style="dim")
        self.query_one("#review-summary", Static).update(summary)

    def fill_table(self, narrow: bool, row: int = 0) -> None:
        """The table of the moves, each value in full where the terminal has 80 columns, else
        without the expected guesses (the ghost row says them); the cursor on ``row``."""
        if self.result is None:
            return
        self.narrow = narrow
        notation = self.notation or Notation(self.result.rules)
        table = self.query_one("#review-moves", DataTable)
        table.clear(columns=True)
        # the rows are the moves in order, and what a mark means is said under the table
        if narrow:
            table.add_columns("", "guess", "reply", "codes left", "best", "loss")
        else:
            table.add_columns("", "guess", "reply", "codes left", "exp", "best", "best exp", "loss")
        for m in self.result.moves:
            table.add_row(*row_cells(m, notation, self.result.rules.pegs, narrow), key=str(m.number))
        table.move_cursor(row=row)
        self.show_ghost(table.cursor_row)

    def on_resize(self, event: events.Resize) -> None:
        narrow = event.size.width < NARROW
        if self.result is not None and narrow != self.narrow:
            self.fill_table(narrow, self.query_one("#review-moves", DataTable).cursor_row)

    def head_text(self, result: Review, notation: Notation) -> Text:
        """The game, its outcome, and in a match which game this is and who breaks."""
        rules = result.rules
        outcome = {"won": "won", "lost": "lost", "gave-up": "given up"}.get(result.outcome or "", "not won")
        secret = "" if result.secret is None else f", the code {notation.format_code(result.secret)}"
        which = ""
        if self.match is not None:
            game = self.match.games[self.game_at]
            name = self.match.players[game.breaker - 1]
            which = (
                f"Game {game.number} ({self.game_at + 1} of {len(self.match.games)}; N: the next): "
                f"player {game.breaker} ({name}) breaks. "
            )
        words = notation.describe_game()  # Bulls and Cows speaks of digits
        return Text(
            f"{which}{words}, {guess_count(rules.max_guesses)}: {outcome}{secret}. Each move "
            "against the best guess at its turn (expected guesses from the move on).",
            "bold",
        )

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self.show_ghost(event.cursor_row)

    def show_ghost(self, row: int) -> None:
        """The ghost row of move ``row`` (0 for the first): the best guess beside the player's."""
        if self.result is None or not 0 <= row < len(self.result.moves):
            return
        notation = self.notation or Notation(self.result.rules)
        ghost = ghost_text(self.result.moves[row], notation, values=self.narrow)
        self.query_one("#review-ghost", Static).update(ghost)

    def action_next_game(self) -> None:
        """A match's next game (the first after the last)."""
        if self.match is None:
            return
        self.game_at = (self.game_at + 1) % len(self.match.games)
        self.show(self.match.games[self.game_at].review, None)

    def action_puzzles(self) -> None:
        """Puzzles from the saved games of this game, rated (found off the screen's thread:
        each puzzle's possible codes are tried to rate it)."""
        store = getattr(self.app, "store", None)
        if self.result is None or store is None:
            self.notify("Puzzles come from the saved games: there is no history here.")
            return
        rules = self.result.rules
        notation = self.notation or Notation(rules)
        self.notify("Finding puzzles in your games…")

        def work() -> None:
            from ..games.puzzles import puzzle_session

            try:
                session = puzzle_session(store.path, store.games(), rules, notation)
            except MastermindError as err:  # the standing's file cannot be read: said, not a crash
                self.app.call_from_thread(self.notify, str(err), severity="error")
                return
            self.app.call_from_thread(self.open_puzzles, session)

        self.run_worker(off_screen(work), thread=True, group="puzzles")

    def open_puzzles(self, session: Any) -> None:
        from .practice_screen import PracticeScreen

        self.app.push_screen(PracticeScreen(None, session=session, title="Puzzles"))

    def action_practice(self) -> None:
        why = practice_refusal(self.subject)  # a match's games: reviewed, not practised, everywhere
        if why is not None:
            self.notify(f"{sentence(why)}.")
            return
        if self.result is None or not self.result.practice().positions:
            self.notify("No mistake or blunder to practise in this game.")
            return
        from .practice_screen import PracticeScreen

        self.app.push_screen(PracticeScreen(self.result, self.notation))


def ghost_text(m: MoveReview, notation: Notation, values: bool = False) -> Text:
    """The player's guess and, beside it, the best one (a ghost), with how each split the codes;
    with ``values`` the expected guesses of each too (the narrow table leaves them out)."""
    from ..games.accuracy import mean_left

    def split(sizes: tuple[int, ...]) -> str:
        classes = plural(len(sizes), "class", "classes")
        return f"{classes}, at most {sizes[0]:,}, {mean_left(sizes):.1f} left on average"

    text = Text(f"Guess {m.number}  ", "bold")
    text.append_text(pegs_text(notation, m.guess.colors, gap=""))
    text.append(f" {notation.format_code(m.guess)}: {split(m.split)}\n")
    if values:
        expected = "-" if m.expected is None else f"{float(m.expected):.3f}"
        text.append(f"Expected guesses {expected}, the best {float(m.best_expected):.3f}\n")
    if m.best == m.guess:
        return text.append(f"☆ the best guess: {notation.format_code(m.best)}", "dim")
    text.append("Best ☆    ", "dim")
    text.append_text(pegs_text(notation, m.best.colors, gap=""))
    text.append(f" {notation.format_code(m.best)}: {split(m.best_split)}", "dim")
    return text


def row_cells(m: MoveReview, notation: Notation, pegs: int, narrow: bool = False) -> list[Text | str]:
    """One row of the review table: the verdict's mark and the move's, the move, the codes left,
    the values (``narrow``: the best guess and the loss only)."""
    mark, style = MARKS[m.verdict]
    expected = "-" if m.expected is None else f"{float(m.expected):.3f}"
    loss = "-" if m.loss is None else f"{float(m.loss):.3f}"
    move: list[Text | str] = [
        Text.assemble((mark, style), m.marks),
        pegs_text(notation, m.guess.colors, gap=""),
        keys_text(m.reply, pegs, gap=""),
        f"{m.before:,}→{m.after:,}" if narrow else f"{m.before:,} → {m.after:,}",
    ]
    best = notation.format_code(m.best)
    if narrow:
        return [*move, best, Text(loss, style)]
    return [*move, expected, best, f"{float(m.best_expected):.3f}", Text(loss, style)]
