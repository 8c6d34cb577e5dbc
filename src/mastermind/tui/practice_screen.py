"""Practice from your mistakes, and puzzles, on the terminal board: the games package's sessions
(:class:`~mastermind.games.practice.PracticeSession`, :class:`~mastermind.games.puzzles.PuzzleSession`)
drawn. Each position's rows and codes, a guess typed and tried (Enter), its value told; Ctrl+S the
solution, Ctrl+N skip; the count of the positions solved (and the rating). The words and the
decisions are the session's; this screen only shows them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Header, Input, Static

from ..core.notation import Notation
from ..errors import MastermindError
from ..games.practice import PracticeSession
from ..games.puzzles import PuzzleSession
from ..games.sessions import Board, Say
from .board import keys_text, pegs_text

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from ..games.review import Review
    from ..games.sessions import Out

#: How the session's emphases look here.
STYLES = {"error": "red", "won": "bold green", "strong": "bold", "alarm": "bold red"}


class PracticeScreen(Screen[None]):
    """The positions before a reviewed game's mistakes and blunders, one after another."""

    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back"),
        Binding("ctrl+s", "line('solution')", "Solution"),
        Binding("ctrl+n", "line('skip')", "Skip"),
    ]

    def __init__(
        self,
        result: Review | None,
        notation: Notation | None = None,
        session: PracticeSession | PuzzleSession | None = None,
        title: str = "Practise your mistakes",
    ) -> None:
        super().__init__()
        if session is None:
            assert result is not None, "a review to practise, or a session"
            session = PracticeSession(result.practice(), notation or Notation(result.rules))
        self.session: PracticeSession | PuzzleSession = session
        self.notation = session.notation
        self.heading = title

    def compose(self) -> ComposeResult:
        yield Header(icon="◉")
        with VerticalScroll(id="practice"):
            yield Static("", id="practice-position")
            yield Static("", id="practice-result")
            yield Static("", id="practice-count")
        yield Input(placeholder="a better guess (Enter tries it)", id="practice-guess")
        yield Footer()

    def on_mount(self) -> None:
        self.title = self.heading
        self.draw(self.session.start())
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.input.value = ""
        self.action_line(event.value)

    def action_line(self, line: str) -> None:
        if self.session.done:
            return
        try:
            outs = list(self.session.answer(line))
        except MastermindError as err:  # the standing could not be kept: said, the screen goes on
            self.notify(str(err), severity="error")
            return
        # what the line was answered stays under the position; the next position (its heading is
        # the first strong line) is drawn afresh
        cut = next(
            (i for i, o in enumerate(outs) if isinstance(o, Say) and o.parts[0][1] == "strong"), len(outs)
        )
        self.query_one("#practice-result", Static).update(self.text(outs[:cut]))
        if cut < len(outs) and not self.session.done:
            self.query_one("#practice-position", Static).update(self.text(outs[cut:]))
        self.count()
        if self.session.done:
            self.query_one(Input).disabled = True
            final = self.text(outs[-1:])
            self.query_one("#practice-position", Static).update(final.append("\nEscape: back to the review."))

    def draw(self, outs: Iterable[Out]) -> None:
        self.query_one("#practice-position", Static).update(self.text(list(outs)))
        self.count()

    def count(self) -> None:
        self.query_one("#practice-count", Static).update(Text(self.session.tally, "dim"))

    def text(self, outs: Sequence[Out]) -> Text:
        text = Text()
        for out in outs:
            if text:
                text.append("\n")
            if isinstance(out, Board):
                for i, (guess, reply) in enumerate(out.history, 1):
                    text.append(f"{i:>2}  ")
                    text.append_text(pegs_text(self.notation, guess.colors, gap=""))
                    text.append("  ")
                    text.append_text(keys_text(reply, self.notation.rules.pegs, gap=""))
                    text.append(f"  {self.notation.format_code(guess)} {reply.black},{reply.white}")
                    if i < len(out.history):
                        text.append("\n")
            elif isinstance(out, Say):
                for part, emphasis in out.parts:
                    text.append(part, STYLES.get(emphasis, ""))
        return text
