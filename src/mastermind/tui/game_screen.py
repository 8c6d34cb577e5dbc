"""The board screen: one game or one match, driven by the keyboard and the mouse.

The screen only reads keys and clicks, calls :class:`~mastermind.games.game.Game` and
:class:`~mastermind.games.match.Match`, and draws what they say: whether a guess may be made, the
replies, hints, contradictions and their corrections, the score, all come from the games package.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Button, Footer, Header, Static

from ..core.code import Code
from ..core.notation import Notation
from ..core.text import plural as text_plural
from ..core.text import sentence
from ..errors import ContradictionError, GameError, MastermindError, NotationError
from ..games.game import Game
from ..games.match import Event, Match, Round
from ..games.words import Voice, event_text
from ..history.store import Recorder, StoredGame
from .board import (
    BoardRow,
    KeyHoles,
    Palette,
    PaletteColor,
    Peg,
    board_layout,
    color_name,
    pegs_text,
)
from .keys import BoardKeys
from .panel import (
    Corrections,
    Expect,
    event_line,
    plural,
    unfocusable,
)
from .settings import MODES, SavedSettings
from .thinking import off_screen
from .view import BoardView

#: What the person types while the game or match waits for them: a secret, a guess (a code), a
#: reply (to the guess waiting for one, or to fix a row when the replies contradict each other).
_EXPECTED: dict[str, Expect] = {"secret": "secret", "guess": "code", "reply": "reply", "fix": "reply"}


#: The columns of the header beside its title: the icon's on the left, as many on the right (the
#: title is centred).
HEADER_SIDES = 18


class GameScreen(BoardKeys, BoardView):
    """The board and what goes with it: the palette, the status, hints and problems, the score."""

    # The footer shows these; their keys, and the board's editing keys, are handled in on_key
    # with the symbols, in the order they come (a binding runs only once the key has passed the
    # screen, after the symbols typed later: a paste of "Backspace 5678" would lose the 8).
    BINDINGS = [
        Binding("enter", "submit", "Enter"),
        Binding("ctrl+z", "undo", "Undo"),
        Binding("f2", "peek", "Peek"),
        Binding("question_mark", "hint", "Hint"),
        Binding("r", "review", "Review"),
        Binding("f1", "app.help", "Help"),
        Binding("escape", "app.menu", "Menu"),
    ]

    def __init__(
        self,
        settings: SavedSettings,
        store: Any,
        pace: float = 0.8,
        seed: int | None = None,
        notation: str = "",
        resume: StoredGame | None = None,
    ) -> None:
        """``resume``: a saved game (or match) to go on with, instead of a new one."""
        super().__init__()
        self.seed = seed  # the first game's (or match's) seed; later ones are drawn
        self.resume = resume
        self.settings = settings
        self.store = store
        self.pace = pace  # seconds between two computer moves of a match
        self.rules = settings.rules
        try:  # the style asked for, where it has a symbol for every colour of this game
            self.notation = Notation(self.rules, notation)
        except NotationError:
            self.notation = Notation(self.rules)
        self.game: Game
        self.match: Match | None = None
        self.busy = False
        self.generation = 0  # a computer's result for an abandoned game is dropped
        self.entry: list[int | None] = []
        self.cursor = 0
        self.keys: list[str] = []  # the key pegs being entered: "b" and "w"
        self.selected: int | None = None  # a played row chosen to fix (1-based); None: the pending row
        self.message: Text = Text("")
        self.info: Text = Text("")
        self.log_lines: list[str] = []
        self.warned: Code | None = None
        self.peek = False  # whether the code a person is choosing is shown (it is masked)
        self.held: Round | None = None  # a finished game of a match, shown until the person moves on
        self.hurry = False  # the computer's moves of this game of a match at once, not one by one
        self.recorder = Recorder(store)
        self._ready = False  # drawn once mounted
        self._new_game()

    # -- layout ------------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header(icon="◉")
        with Horizontal(id="main"):
            with VerticalScroll(id="board", can_focus=False):
                for row in range(1, self._rows_wanted() + 1):
                    yield BoardRow(row, self.rules.pegs)
                with Horizontal(id="secret-row", classes="row"):
                    yield Static("", id="secret-label", classes="number")
                    with Horizontal(classes="code"):
                        for i in range(self.rules.pegs):
                            yield Peg(0, i)
            with VerticalScroll(id="side", can_focus=False):
                # what to do now first, then the controls and what was said about the last move;
                # the keys that do it (a reference) after what is to be read
                yield Static("", id="score")
                yield Static("", id="status")
                yield Palette(self.notation)
                yield unfocusable(Button("Guess", id="submit", compact=True))
                # what was just said, under the controls: a warning or a refusal that wraps over
                # lines moves nothing the person is using (above the palette, it moved it down)
                yield Static("", id="message")
                yield Static("", id="info")
                yield Corrections(id="corrections")
                yield Static("", id="help-line")
                yield Static("", id="log")
        yield Footer()

    def on_mount(self) -> None:
        self._fit(self.app.size.width, self.app.size.height)
        self._ready = True
        self.refresh_view()
        self.call_after_refresh(self.next_step)

    def on_resize(self, event: events.Resize) -> None:
        self._fit(event.size.width, event.size.height)
        self.call_after_refresh(self._scroll_to_current)

    def _fit(self, width: int, height: int) -> None:
        stacked, spaced = board_layout((width, height), self.rules.pegs, self._rows_wanted())
        self.set_class(stacked, "-stacked")
        self.set_class(spaced, "-spaced")
        self.title, self.sub_title = self._heading(width)
        for footer in self.query(Footer):  # a match's keys, spaced, run past 60 columns ('^q Qu')
            footer.compact = width < 80

    def _heading(self, width: int) -> tuple[str, str]:
        """The header's title and subtitle: the mode and the game, without the program's name (all
        of it fits 80 columns); where that is cut off, the game without its guess limit (the board
        says it: 'Guess 1 of 10'), then the game alone."""
        hard = ", hard" if self.game.hard else ""
        game = self.rules.short_name(limit=False)
        mode, guesses = MODES[self.settings.mode], plural(self.rules.max_guesses, "guess")
        room = width - HEADER_SIDES
        for title, sub in ((mode, f"{game}, {guesses}{hard}"), (mode, f"{game}{hard}")):
            if len(title) + len(" — ") + len(sub) <= room:
                return title, sub
        return f"{game}, {guesses}{hard}", ""

    # -- starting ----------------------------------------------------------------------------------

    def _new_game(self) -> None:
        s = self.settings
        seed, self.seed = self.seed, None
        self.generation += 1
        self.recorder = Recorder(self.store)
        self.match = None
        self.held, self.hurry = None, False
        self.log_lines = []
        resume, self.resume = self.resume, None
        if resume is not None:  # a saved game goes on in its own row of the history
            self.recorder = Recorder(self.store, resume.id)
            if resume.kind == "match":
                self.match = Match.from_record(resume.record)
                self.game = self.match.current.game or Game(self.rules)
            else:
                self.game = Game.from_record(resume.record)
            self.message = Text(f"Game {resume.id} goes on from its last move.")
        elif s.mode == "match":
            self.match = Match(
                self.rules, s.players, s.games, s.scoring, seed=seed, strategy=s.strategy, hard=s.hard
            )
            self.game = Game(self.rules)  # nothing played yet: an empty board
        elif s.mode == "guess":
            self.game = Game.solving(self.rules, s.strategy, seed=seed)
        else:
            self.game = Game.breaking(self.rules, seed=seed, strategy=s.strategy, hard=s.hard)
        self._reset_entry()
        self.info = Text("")
        if resume is None:
            self.message = Text("")

    def new_game(self) -> None:
        self.busy = False
        self._new_game()
        self.refresh_view()
        self.next_step()

    def _reset_entry(self) -> None:
        self.entry = [None] * self.rules.pegs
        self.cursor = 0
        self.keys = []
        self.selected = None
        self.warned = None
        self.peek = False

    # -- what is asked of the person now -----------------------------------------------------------

    @property
    def expects(self) -> Expect:
        if self.busy or self.held is not None:
            return None
        wait = self.match.waiting_for if self.match is not None else self.game.waiting_for
        return _EXPECTED.get(wait or "")

    def next_step(self) -> None:
        """Let the computer move if it is its turn: the guess of a strategy breaking the person's
        code, or a computer's move in a match (one at a time, ``pace`` seconds apart, unless the
        person asked for the rest of the game at once)."""
        if self.busy or self.held is not None:
            return
        if self.match is not None:
            if self.match.waiting_for == "computer":
                choosing = self.match.current.game is None  # a computer's code: nothing to watch
                pace = 0 if self.hurry or choosing else self.pace
                self.set_timer(pace, self._match_advance) if pace else self._match_advance()
            return
        if self.game.waiting_for == "computer":
            self.think(self.game.proposal, self._proposed)

    def think(self, job: Callable[[], Any], done: Callable[[Any], None]) -> None:
        """Run ``job`` (a strategy's choice) off the screen's thread, then ``done`` with its result;
        a MastermindError is shown instead."""
        self.busy = True
        generation = self.generation
        self.refresh_view()

        def work() -> None:
            try:
                result, error = job(), None
            except MastermindError as err:
                result, error = None, err
            self.app.call_from_thread(finish, result, error)

        def finish(result: Any, error: MastermindError | None) -> None:
            if generation != self.generation:
                return
            self.busy = False
            if error is not None:
                self.failed(error)
            else:
                done(result)
            self.refresh_view()

        self.run_worker(off_screen(work), thread=True, group="think")

    def failed(self, error: MastermindError) -> None:
        if isinstance(error, ContradictionError) and self.game.moves:
            self.info = Text(f"{error}. Fix a row (select it with ↑↓ and enter its reply) or undo.", "red")
        else:
            self.message = Text(str(error), "red")

    def _proposed(self, code: Code) -> None:
        self.game.guess(code)  # the strategy's guess waits for the person's reply
        left = self.game.candidates()
        codes = "" if left is None else f" ({plural(left, 'code')} possible)"
        self.message = Text(f"My guess {self.game.turn}: {self.notation.format_code(code)}{codes}")

    def _match_advance(self) -> None:
        match = self.match
        if match is None or self.busy or match.waiting_for != "computer":
            return
        self.think(match.advance, self._match_events)

    def _match_events(self, events_: list[Event]) -> None:
        assert self.match is not None
        m = self.match
        for ev in events_:
            if ev.kind == "undone":
                self._reset_entry()
                self.info = Text("")
                self.message = Text(event_text(ev, m, self.notation, Voice.of(m)) or "")
            elif ev.kind == "replayed" and ev.problem is not None:
                self.info = Text(ev.problem.message, "red")
            line = event_line(m, ev, self.notation)
            if line:
                self.add_log(line)
            r = ev.round
            if ev.kind == "round-over" and r.game is not None and not m.over and "human" in m.players:
                self.held = r  # its board stays, secret and all, until the person moves on
                self.game = r.game
        self.recorder.save(m.record())
        if m.over and self.check_action("review", ()):  # offered as a game's review is, at its end
            self.message = Text("Enter: a new match; R: how each game's guesses compared with the best.")
        if self.held is not None:
            self.hurry = False
            return
        if m.current.game is not None:
            self.game = m.current.game
        self.next_step()

    def next_game(self) -> None:
        """The person moves on from a finished game of the match to the next one."""
        assert self.match is not None
        self.held = None
        self._reset_entry()
        self.info = Text("")
        self.message = Text("")
        self.game = self.match.current.game or Game(self.rules)  # the next code not chosen yet: empty
        self.refresh_view()
        self.next_step()

    def add_log(self, line: str) -> None:
        self.log_lines.append(line)

    # -- keys and clicks ---------------------------------------------------------------------------

    def choose_row(self, row: int) -> None:
        game = self.game
        if row <= len(game.moves):
            self.selected = row
            reply = game.moves[row - 1].reply
            self.keys = ["b"] * reply.black + ["w"] * reply.white
        else:
            self.selected = None
            self.keys = []
        self.refresh_view()

    @on(Peg.Clicked)
    def peg_clicked(self, message: Peg.Clicked) -> None:
        """A click on a hole of the row being entered puts the cursor there."""
        expects = self.expects
        row = self.game.turn if expects == "code" else 0 if expects == "secret" else None
        if message.row == row:
            message.stop()
            self.cursor = message.index
            self.refresh_view()

    @on(BoardRow.Clicked)
    def row_clicked(self, message: BoardRow.Clicked) -> None:
        """A click on a played row, when replies are entered, chooses it to be fixed."""
        if self.expects == "reply" and self.match is None and message.row <= self.game.turn:
            self.choose_row(message.row)

    @on(KeyHoles.Clicked)
    def keys_clicked(self, message: KeyHoles.Clicked) -> None:
        """A click on a key hole of the row being replied to cycles it: none, black, white."""
        if self.expects != "reply":
            return
        if self.match is None and message.row != (self.selected or self.game.turn):
            if message.row > len(self.game.moves) + (self.game.pending is not None):
                return
            self.choose_row(message.row)
        elif self.match is not None and message.row != self.game.turn:
            return
        holes = [*self.keys, *[""] * (self.rules.pegs - len(self.keys))]
        if message.hole < len(holes):
            holes[message.hole] = {"": "b", "b": "w", "w": ""}[holes[message.hole]]
        self.keys = sorted(k for k in holes if k)
        self.refresh_view()

    @on(PaletteColor.Picked)
    def color_picked(self, message: PaletteColor.Picked) -> None:
        if self.expects in ("code", "secret"):
            self.put(message.color)

    @on(Button.Pressed, "#submit")
    def submit_pressed(self) -> None:
        self.action_submit()

    @on(Button.Pressed, ".correction")
    def correction_pressed(self, event: Button.Pressed) -> None:
        number = int((event.button.id or "fix-0").rsplit("-", 1)[1])
        self.apply_correction(number)

    # -- the moves ---------------------------------------------------------------------------------

    def action_submit(self) -> None:
        expects = self.expects
        if expects is None:
            if self.held is not None:
                self.next_game()
            elif self.match.over if self.match is not None else self.game.over:
                self.new_game()
            elif self.match is not None and self.match.waiting_for == "computer":
                self.hurry = True  # the computer's moves of this game at once, from now
                self._match_advance()
                self.refresh_view()
            return
        try:
            if expects == "code":
                self.submit_guess()
            elif expects == "secret":
                self.submit_secret()
            else:
                self.submit_reply()
        except MastermindError as err:  # (a sentence, as the web page says it)
            self.message = Text(f"{sentence(err)}.", "red")
        self.refresh_view()

    def _entered_code(self) -> Code | None:
        if any(c is None for c in self.entry):
            missing = sum(c is None for c in self.entry)
            pegs = text_plural(self.rules.pegs, self.notation.terms.place)
            self.message = Text(f"{plural(missing, 'hole')} still empty: a code has {pegs}.", "red")
            return None
        return Code(tuple(c for c in self.entry if c is not None), self.rules)

    def submit_guess(self) -> None:
        code = self._entered_code()
        if code is None:
            return
        game = self.game
        self.game.space.check_code(code.colors)  # no repeats where the game forbids them: said first
        # the games package says whether and why (a match's game as a single one); the board
        # only says how to go on
        warning = self._played().warning(code, self.settings.warn_inconsistent, self.notation)
        if warning is not None and self.warned != code:  # a warning, not a refusal: Enter plays it
            self.warned = code
            self.message = Text(f"{warning}. Enter again to play it anyway.", "yellow")
            return
        if self.match is not None:
            self._match_events(self.match.guess(code))
        else:
            game.guess(code)
            self.recorder.save(game.record())
            self._announce_end()
        self._reset_entry()
        self.info = Text("")

    def submit_secret(self) -> None:
        assert self.match is not None
        if all(c is None for c in self.entry):
            events_ = self.match.set_secret(None)  # no secret: the codemaker replies to every guess
        else:
            code = self._entered_code()
            if code is None:
                return
            events_ = self.match.set_secret(code)
        self._reset_entry()
        self._match_events(events_)

    def submit_reply(self) -> None:
        reply = self.notation.parse_feedback("".join(self.keys) or "-")
        if self.match is not None:
            self._match_events(self.match.reply(reply))
        elif self.selected is not None and self.selected <= len(self.game.moves):
            self.game.fix(self.selected, reply)
            self._after_reply(f"Row {self.selected} is now {self.notation.terms.reply(reply)}.")
        else:
            self.game.reply(reply)
            self._after_reply()

    def _after_reply(self, said: str = "") -> None:
        self.message = Text(said)
        self.recorder.save(self.game.record())
        self._reset_entry()
        problem = self.game.problem
        if problem is not None:  # the last row involved is chosen to be fixed first
            self.choose_row(problem.rows[-1] + 1)
            self.call_after_refresh(self._show_info)
        self.info = Text("")
        self._announce_end()
        self.next_step()

    def apply_correction(self, number: int) -> None:
        problem = self.game.problem
        if self.match is not None or problem is None or not 1 <= number <= len(problem.corrections):
            return
        fix = problem.corrections[number - 1]
        self.game.correct(fix)
        self._after_reply(f"Row {fix.row + 1} is now {self.notation.terms.reply(fix.reply)}.")
        self.refresh_view()

    def _announce_end(self) -> None:
        game = self.game
        if not game.over or self.match is not None:
            return
        style = "bold green" if game.outcome == "won" else "bold yellow"
        review = "; R: how each guess compared with the best" if self.check_action("review", ()) else ""
        words = " ".join(game.closing_lines(self.notation))  # the games package's, as the page's
        self.message = Text(f"{words} Enter: a new game{review}.", style)

    def action_undo(self) -> None:
        if self.busy:
            return
        if self.expects in ("code", "secret") and any(c is not None for c in self.entry):
            self.entry = [None] * self.rules.pegs  # a half-typed row goes first, then the rows
            self.cursor = 0
            self.message = Text("Cleared the row; Ctrl+Z again takes back the last guess.")
        elif self.match is not None:
            try:
                self._match_events(self.match.undo())
            except MastermindError as err:  # nothing to undo, a strategy's guess: the games package says why
                self.message = Text(f"{sentence(err)}.", "yellow")
        else:
            try:
                self.game.undo()
            except MastermindError as err:  # nothing to undo, or the game is over: the games package says why
                self.message = Text(f"{sentence(err)}.", "yellow")
            else:
                self.recorder.save(self.game.record())
                self._reset_entry()
                self.info = Text("")
                self.message = Text("Took back the last row.")
                self.next_step()
        self.refresh_view()

    def action_peek(self) -> None:
        """Show or hide again the code a person is choosing (masked: others may see the screen)."""
        if self.expects == "secret":
            self.peek = not self.peek
            self.refresh_view()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A hint is for a person breaking a code: none offered where the computer breaks the
        person's (hidden), greyed out in a match while the person is not guessing. Showing the
        code being chosen is offered only while it is chosen."""
        if action == "peek":
            return self.expects == "secret"
        if action == "review":  # the engine's rule, the command line's and the web page's
            from ..games.reviewable import review_refusal

            return review_refusal(self._played()) is None
        if action != "hint":
            return True
        if self.settings.mode == "guess":
            return False
        return True if self.expects == "code" else None

    def action_review(self) -> None:
        """The review of the game or match just finished, on its own screen (a match's: each of
        its games, both sides)."""
        if self.check_action("review", ()):
            from .review_screen import ReviewScreen

            if self.match is not None:
                screen = ReviewScreen(self.match.record(), self.notation, "Review of this match")
            else:
                screen = ReviewScreen(self.game, self.notation, "Review of this game")
            self.app.push_screen(screen)

    def _played(self) -> Game | Match:
        """What the board plays: the match, or the game alone."""
        return self.match if self.match is not None else self.game

    def action_hint(self) -> None:
        if self.expects != "code":
            return
        from ..games.advice import hint_given  # (the match says when a hint may be asked)

        played = self._played()
        self.think(lambda: hint_given(played), self._hint_given)

    def _hint_given(self, given: Any) -> None:
        from ..games.advice import Advice

        if isinstance(given, Advice):
            self._advised(given)
        else:
            self._hinted(given)

    def _advised(self, advice: Any) -> None:
        """The hint that teaches (the words of the command line), the guess drawn in pegs."""
        lines = advice.lines(self.notation)
        pegs = pegs_text(self.notation, advice.hint.guess)
        self.info = Text.assemble(f"Hint: {lines[0]}\n{lines[1]}\n", pegs, "\n", "\n".join(lines[2:]))
        self.call_after_refresh(self._show_info)
        self._save_hint()

    def _hinted(self, hint: Any) -> None:
        guess = self.notation.format_code(hint.guess)
        left = "" if hint.candidates is None else f"{plural(hint.candidates, 'code')} still possible; "
        pegs = pegs_text(self.notation, hint.guess)
        note = f"\n{sentence(hint.note)}." if hint.note else ""
        # the pegs on a line of their own: a peg is never cut where the line wraps
        self.info = Text.assemble(f"Hint: {left}{hint.lead}:\n", pegs, f" ({guess}){note}")
        self.call_after_refresh(self._show_info)
        self._save_hint()

    def _save_hint(self) -> None:
        """The hint just given kept in the history, as a move is: it is counted in the game's
        record, and a board closed now must not lose it (a match's record is kept from its first
        code; a game alone from its first guess)."""
        if self.match is not None:
            self.recorder.save(self.match.record())
        elif self.game.moves:
            self.recorder.save(self.game.record())

    def give_up(self) -> None:
        if self.busy:
            return
        if self.match is not None:
            try:
                events = self.match.give_up()
            except GameError as err:  # (the match says who may give up, and when)
                self.message = Text(f"{sentence(err)}.", "yellow")
                self.refresh_view()
                return
            self._match_events(events)
        elif not self.game.over:
            self.game.give_up()
            self.recorder.save(self.game.record())
            self._announce_end()
        self.info = Text("")  # a hint for the game given up is of no use now
        self.refresh_view()


__all__ = ["GameScreen", "color_name"]
