"""The screens around the board: the menu, the new-game settings, the history, the help."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical, VerticalScroll
from textual.css.scalar import Scalar
from textual.screen import ModalScreen, Screen
from textual.widgets import (
    Button,
    Checkbox,
    DataTable,
    Footer,
    Header,
    Input,
    Label,
    Markdown,
    OptionList,
    Select,
    Static,
)
from textual.widgets.option_list import Option

from ..core.notation import Notation
from ..core.records import rules_from_dict
from ..core.rules import PRESETS, Rules
from ..errors import MastermindError
from ..games.scoring import SCORING_RULES
from ..games.settings import PREFERENCES
from ..history.store import StoredGame, local_time, moves_of
from ..strategies import STRATEGIES
from .settings import MODES, SavedSettings

# --- the menu ---------------------------------------------------------------------------------------

MENU = [
    ("new", "n", "New game"),
    ("settings", "s", "New game with other settings…"),
    ("give-up", "g", "Give up this game"),
    ("history", "h", "History and statistics"),
    ("puzzles", "z", "Puzzles: find the best guess"),
    ("help", "f1", "Help: the rules and the keys"),
    ("quit", "q", "Quit"),
]


class MenuScreen(ModalScreen[str | None]):
    """Escape: what to do next, by key or by click; returns the choice."""

    BINDINGS = [
        Binding("escape", "dismiss(None)", "Back"),
        *[Binding(key, f"choose('{name}')", label, show=False) for name, key, label in MENU],
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="menu", classes="dialog"):
            yield Label("Mastermind", classes="dialog-title")
            # F1 for help as on the board (where ? is a hint), in a column of its own
            options = [
                Option(f"{key.upper() if len(key) > 1 else key:<3}{label}", id=name)
                for name, key, label in MENU
            ]
            yield OptionList(*options, id="menu-list")

    @on(OptionList.OptionSelected)
    def selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_choose(self, name: str) -> None:
        self.dismiss(name)


# --- help -------------------------------------------------------------------------------------------

HELP = """\
# Mastermind

One player, the **codemaker**, chooses a secret code: a row of coloured pegs. The other, the
**codebreaker**, tries to find it in as few guesses as possible. Every guess gets a reply in key
pegs:

- **● black**: a peg of the right colour in the right place;
- **○ white**: a peg of the right colour in another place.

Each peg of the code and of the guess counts once. The code is broken when every key peg is black.

**Bulls and Cows** (the preset bulls-and-cows: 4 of the 10 digits 0-9, none repeated) is the same
game in other words: a black peg is a **bull** and a white one a **cow**.

Every colour is also drawn with its symbol (a digit or a letter): type the symbol to play the colour.

## Keys
| key | what it does |
|---|---|
| symbols (1-6, a-f, …) | put a colour in the hole under the cursor; typed into a full row, start it over |
| ← → | move the cursor; a click on a hole moves it there |
| Backspace, Delete | empty a hole |
| Enter | play the guess; give the reply; a new game when one is over; in a match, the next game |
| b, w (c) | a black (bull) or a white (cow) key peg, when you reply; a click on a key hole cycles it |
| ↑ ↓ | choose a played row to fix its reply (the computer breaks your code) |
| 1-9 | take a suggested correction when your replies contradict each other |
| ? | a hint: the codes left, the strategy's guess, how it splits them, its worth and your last guess's |
| Ctrl+Z | clear the row being typed, then undo the last row (in a match: a guess not yet replied to) |
| r | when a game is over: each guess against the best one (also from the history: Enter on a game) |
| Escape | the menu: new game, settings, give up, history, help, quit |
| Ctrl+Q | quit |

## Modes
- **You break the computer's code.** The computer draws a secret; find it.
- **The computer breaks yours.** Keep a code in mind and reply to its guesses. If your replies
  contradict each other, the rows involved are marked and the corrections that would mend them are
  listed: take one, or choose any row with ↑ ↓ and enter its reply again.
- **A match.** Two players, each a person or a strategy, make and break codes in turn; the score
  is kept by the chosen rule (standard: the codemaker scores a point per guess).

Every game is saved move by move in the history (the same one as the `mastermind` command's).
"""


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,q,f1", "dismiss(None)", "Back")]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help", classes="dialog"):
            yield Markdown(HELP)
            yield Button("Back", id="back", variant="primary")

    @on(Button.Pressed, "#back")
    def back(self) -> None:
        self.dismiss(None)


# --- settings: a new game ---------------------------------------------------------------------------


def _strategies() -> list[tuple[str, str]]:
    return [(s.name, s.name) for s in STRATEGIES]


class Tick(Checkbox):
    """A checkbox whose box is empty when it is not ticked (Textual's shows a dim X there, which
    reads as ticked)."""

    @property
    def BUTTON_INNER(self) -> str:  # type: ignore[override]  # the name Textual reads
        return "X" if self.value else " "


def strategy_about(name: str) -> str:
    """A strategy's one-line description, from the registry."""
    return next((s.summary for s in STRATEGIES if s.name == name), "")


def _preset_of(rules: Rules) -> str:
    for name, preset in PRESETS.items():
        if preset == rules:
            return name
    return "custom"


#: The blank lines inside the settings dialog (app.CSS): above and below its content, under its
#: title, above the lines on the choices and above the buttons (and one above an error); where the
#: screen is too short for all of the form with them, they are left out but the one above the buttons.
SPACING = 5


class SettingsScreen(ModalScreen[SavedSettings | None]):
    """The next game: mode, rules, strategy, and for a match the players, games and scoring."""

    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel"), Binding("ctrl+s", "start", "Start")]

    def __init__(self, settings: SavedSettings) -> None:
        super().__init__()
        self.settings = settings

    def compose(self) -> ComposeResult:
        s = self.settings
        players = [("human", "human"), *_strategies()]
        with Vertical(id="settings", classes="dialog"):
            yield Label("New game", classes="dialog-title")
            # the form scrolls, the buttons below it stay in sight however short the screen
            with VerticalScroll(id="settings-form"), Grid(classes="form"):
                yield Label("Mode")
                yield Select(
                    [(v, k) for k, v in MODES.items()],
                    value=s.mode,
                    allow_blank=False,
                    id="mode",
                    compact=True,
                )
                yield Label("Preset")
                yield Select(
                    [(k, k) for k in [*PRESETS, "custom"]],
                    value=_preset_of(s.rules),
                    allow_blank=False,
                    id="preset",
                    compact=True,
                )
                yield Label("Pegs")
                yield Input(str(s.pegs), type="integer", id="pegs", compact=True)
                yield Label("Colours")
                yield Input(str(s.colors), type="integer", id="colors", compact=True)
                yield Label("Codes")
                with Horizontal(classes="checks"):
                    yield Tick("repeats", s.repeats, id="repeats", compact=True)
                    yield Tick("blank (an empty hole)", s.blank, id="blank", compact=True)
                yield Label("Guesses")
                yield Input(str(s.max_guesses), type="integer", id="max-guesses", compact=True)
                yield Label("Strategy")
                yield Select(_strategies(), value=s.strategy, allow_blank=False, id="strategy", compact=True)
                yield Label("Warn")
                warn = Tick(
                    "when a guess cannot be the secret",
                    s.warn_inconsistent,
                    id="warn-inconsistent",
                    compact=True,
                )
                warn.tooltip = PREFERENCES["warn_inconsistent"]
                yield warn
                yield Label("Hard")
                hard = Tick("every guess could be the secret", s.hard, id="hard", compact=True)
                hard.tooltip = PREFERENCES["hard"]
                yield hard
                for n in (1, 2):
                    yield Label(f"Player {n}", classes="match")
                    yield Select(
                        players,
                        value=s.players[n - 1],
                        allow_blank=False,
                        id=f"player{n}",
                        classes="match",
                        compact=True,
                    )
                yield Label("Games", classes="match")
                yield Input(str(s.games), type="integer", id="games", classes="match", compact=True)
                yield Label("Scoring", classes="match")
                yield Select(
                    [(k, k) for k in SCORING_RULES],
                    value=s.scoring,
                    allow_blank=False,
                    id="scoring",
                    classes="match",
                    compact=True,
                )
            yield Static("", id="settings-about")
            error = Static("", id="settings-error")
            error.display = False  # a line only when there is an error to say
            yield error
            with Horizontal(classes="buttons"):
                yield Button("Start (Ctrl+S)", id="start", variant="primary", compact=True)
                yield Button("Cancel (Esc)", id="cancel", compact=True)

    def on_mount(self) -> None:
        self._show_match_fields()
        self.query_one("#mode", Select).focus()  # the keys work on the form at once, from the top
        self._about()

    def on_resize(self, event: events.Resize) -> None:
        self.call_after_refresh(self._fit)

    def _fit(self) -> None:
        """The form as tall as the screen leaves it beside the rest of the dialog (its border and
        padding, title, descriptions, error and buttons, as laid out now): the rest of the form
        scrolls, and the buttons stay in sight. Where the whole form and its blank lines do not fit,
        the blank lines go first (every field of a match then fits 60 x 24 unscrolled)."""
        dialog, form = self.query_one("#settings"), self.query_one("#settings-form")
        rows = form.query_one(Grid).styles.height
        rows_needed = int(rows.value) if rows is not None and rows.is_cells else 0
        spaced = (
            rows_needed
            + sum(w.outer_size.height for w in dialog.children if w is not form and w.display)
            + dialog.styles.border.spacing.height
            + SPACING
            + self.query_one("#settings-error").display  # the blank line above it
        )
        short = spaced > self.size.height
        if short != self.has_class("-short"):
            self.set_class(short, "-short")
            self.call_after_refresh(self._fit)  # measured again once laid out with its blank lines or none
            return
        others = sum(
            w.outer_size.height + w.styles.margin.top + w.styles.margin.bottom
            for w in dialog.children
            if w is not form and w.display
        )
        chrome = dialog.outer_size.height - dialog.size.height
        room = self.size.height - chrome - others - form.styles.margin.top - form.styles.margin.bottom
        if form.styles.max_height != Scalar.from_number(max(3, room)):
            form.styles.max_height = max(3, room)

    @on(Select.Changed, "#strategy")
    @on(Select.Changed, "#scoring")
    def _about(self) -> None:
        """A line on the strategy chosen, and in a match one on the scoring rule."""
        strategy = str(self.query_one("#strategy", Select).value)
        text = Text.assemble((strategy, "bold"), f": {strategy_about(strategy)}")
        if self.query_one("#mode", Select).value == "match":
            scoring = str(self.query_one("#scoring", Select).value)
            rule = SCORING_RULES[scoring]
            text.append_text(Text.assemble("\n", (f"{scoring} scoring", "bold"), f": {rule}"))
        self.query_one("#settings-about", Static).update(text)
        self.call_after_refresh(self._fit)  # the lines it takes change what is left to the form

    def _say_error(self, text: Text | str) -> None:
        """The form's error, under the lines on the choices; no line at all when there is none."""
        error = self.query_one("#settings-error", Static)
        error.update(text)
        if error.display != bool(str(text)):
            error.display = bool(str(text))
            self.call_after_refresh(self._fit)  # the lines it takes change what is left to the form

    def _show_match_fields(self) -> None:
        match = self.query_one("#mode", Select).value == "match"
        for widget in self.query(".match"):
            widget.display = match
        # a row per field: the grid's own height counts a line per widget (a label and its field
        # each), which left as many blank lines under the form as it has fields, where there was room
        form = self.query_one("#settings-form Grid")
        form.styles.height = sum(widget.display for widget in form.children) // 2

    @on(Select.Changed, "#mode")
    def mode_changed(self) -> None:
        self._show_match_fields()
        self._about()
        self.call_after_refresh(self._fit)

    @on(Select.Changed, "#preset")
    def preset_changed(self, event: Select.Changed) -> None:
        preset = PRESETS.get(str(event.value))
        if preset is None:
            return
        self.query_one("#pegs", Input).value = str(preset.pegs)
        self.query_one("#colors", Input).value = str(preset.real_colors)
        self.query_one("#repeats", Checkbox).value = preset.repeats
        self.query_one("#blank", Checkbox).value = preset.blank
        self.query_one("#max-guesses", Input).value = str(preset.max_guesses)

    @on(Input.Changed, "#pegs, #colors, #max-guesses")
    @on(Checkbox.Changed, "#repeats, #blank")
    def rules_edited(self) -> None:
        """A field of the game edited: the preset names what the fields now make, the preset they
        match or custom (it named the preset last chosen, whatever the fields had become)."""
        preset = self.query_one("#preset", Select)
        name = self._preset_of_fields()
        if preset.value != name:
            preset.value = name  # a preset named is one the fields have already: nothing is set again

    def _preset_of_fields(self) -> str:
        """The preset the game fields make as they stand; custom where they make another game, or
        none (a field empty or out of range)."""
        try:
            rules = SavedSettings(
                pegs=int(self.query_one("#pegs", Input).value),
                colors=int(self.query_one("#colors", Input).value),
                max_guesses=int(self.query_one("#max-guesses", Input).value),
                repeats=self.query_one("#repeats", Checkbox).value,
                blank=self.query_one("#blank", Checkbox).value,
            ).rules
        except ValueError:  # not a whole number, or no game (the rules' error is a ValueError too)
            return "custom"
        return _preset_of(rules)

    @on(Input.Changed)
    @on(Select.Changed)
    @on(Checkbox.Changed)
    def edited(self) -> None:
        """A value changed: the error about the last one refused no longer holds."""
        self._say_error("")

    @on(Button.Pressed, "#cancel")
    def cancel(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed, "#start")
    def action_start(self) -> None:
        def number(widget_id: str, label: str) -> int:
            text = self.query_one(f"#{widget_id}", Input).value.strip()
            if not text.lstrip("-").isdigit():
                raise MastermindError(f"{label} must be a whole number")
            return int(text)

        def value(widget_id: str) -> str:
            return str(self.query_one(f"#{widget_id}", Select).value)

        try:
            checked = {name: self.query_one(f"#{name}", Checkbox).value for name in ("repeats", "blank")}
            warn = self.query_one("#warn-inconsistent", Checkbox).value
            hard = self.query_one("#hard", Checkbox).value
            settings = SavedSettings(
                mode=value("mode"),
                pegs=number("pegs", "Pegs"),
                colors=number("colors", "Colours"),
                max_guesses=number("max-guesses", "Guesses"),
                **checked,
                strategy=value("strategy"),
                players=[value("player1"), value("player2")],
                games=number("games", "Games"),
                scoring=value("scoring"),
                warn_inconsistent=warn,
                hard=hard,
            )
            Notation(settings.rules)
            settings.check()
        except MastermindError as err:
            self._say_error(Text(str(err), "red"))
            return
        self.dismiss(settings)


# --- history ----------------------------------------------------------------------------------------


#: Below this width the history's table leaves out the help a game had and the year it was started,
#: and puts the start last (the line under the table says them for the game under the cursor): the
#: id, the kind, the game, the guesses and the outcome fit a 60-column terminal.
HISTORY_NARROW = 80


class HistoryScreen(Screen[StoredGame | None]):
    """The games of the history, newest first, and the statistics of the finished ones; Enter (or a
    click) on an unfinished game ends the screen with that game (to go on with it on the board), on
    a finished one opens its review."""

    BINDINGS = [Binding("escape,q", "dismiss(None)", "Back")]

    def __init__(self, store: Any) -> None:
        super().__init__()
        self.store = store
        self.games: list[StoredGame] = []  # newest first, as listed
        self.narrow: bool | None = None  # the table laid out for a terminal under HISTORY_NARROW columns

    def compose(self) -> ComposeResult:
        yield Header(icon="◉")
        with Vertical(id="history"):
            yield Static("", id="stats")
            yield DataTable(id="games", cursor_type="row", zebra_stripes=True)
            yield Static("", id="games-detail")
        yield Footer()

    def on_mount(self) -> None:
        self.title = "History"
        stats = self.query_one("#stats", Static)
        if self.store is None:
            stats.update("The history is off: games are not saved.")
            self.query_one("#games-detail").display = False
            return
        games = self.store.games()
        how = "Enter on a game: an unfinished one goes on on the board, a finished one shows its review."
        stats.update(Text.assemble(statistics_text(games), (how, "dim")))
        self.games = list(reversed(games))
        self.fill_table(self.size.width < HISTORY_NARROW)

    def fill_table(self, narrow: bool, row: int = 0) -> None:
        """The games, each column in full where the terminal has 80 columns; else without the help
        and the year, the start last (the line under the table says them); the cursor on ``row``."""
        self.narrow = narrow
        table = self.query_one("#games", DataTable)
        table.clear(columns=True)
        if narrow:
            table.add_columns("id", "kind", "rules", "guesses", "outcome", "started")
        else:
            table.add_columns("id", "started", "kind", "rules", "guesses", "outcome", "help")
        for g in self.games:
            record = g.record
            moves = str(len(moves_of(record)))
            game = rules_from_dict(record["rules"]).short_name()
            started = local_time(g.started)
            if narrow:
                outcome = g.outcome if g.finished else "unfinished"
                cells = [str(g.id), g.kind, game, moves, outcome, started[5:]]  # 12-07 18:21
            else:
                outcome = g.outcome if g.finished else f"{g.outcome} (unfinished)"
                cells = [str(g.id), started, g.kind, game, moves, outcome, help_text(record)]
            table.add_row(*cells, key=str(g.id))
        if self.games:
            table.move_cursor(row=row)
        self.show_detail(table.cursor_row)

    def on_resize(self, event: events.Resize) -> None:
        narrow = event.size.width < HISTORY_NARROW
        if self.store is not None and self.narrow is not None and narrow != self.narrow:
            self.fill_table(narrow, self.query_one("#games", DataTable).cursor_row)

    @on(DataTable.RowHighlighted, "#games")
    def highlighted(self, event: DataTable.RowHighlighted) -> None:
        self.show_detail(event.cursor_row)

    def show_detail(self, row: int) -> None:
        """Under a narrow table, what it leaves out of the game under the cursor: when it was
        started, and the help its breaker had."""
        detail = self.query_one("#games-detail", Static)
        detail.display = bool(self.narrow and self.games)
        if not detail.display or not 0 <= row < len(self.games):
            return
        g = self.games[row]
        helped = help_text(g.record)
        detail.update(
            Text(f"Game {g.id}, started {local_time(g.started)}" + (f"; {helped}" if helped else ""), "dim")
        )

    @on(DataTable.RowSelected, "#games")
    def open_game(self, event: DataTable.RowSelected) -> None:
        """The game chosen: an unfinished one (a game or a match) goes on on the board, from its last
        move; a finished game or match opens its review."""
        from ..games.reviewable import review_refusal
        from .review_screen import ReviewScreen

        stored = self.store.get(int(str(event.row_key.value)))
        if not stored.finished:
            self.dismiss(stored)  # the app puts it on the board
            return
        why = review_refusal(stored.record)  # the rule of the board, the command line and the page
        if why is not None:
            self.notify(f"No review: {why}.")
        else:  # a match: each of its games reviewed, both sides
            self.app.push_screen(ReviewScreen(stored.record, title=f"Review of game {stored.id}"))


def help_text(record: dict[str, Any]) -> str:
    """The help a game's breaker had: hints asked and guesses taken back ('' for none)."""
    if record.get("kind") == "match":
        return ""
    hints = int(record.get("hints", 0))
    undos = sum(a.get("kind") == "undo" for a in record.get("assists", ()))
    parts = ([f"{hints} hint{'s' if hints != 1 else ''}"] if hints else []) + (
        [f"{undos} taken back"] if undos else []
    )
    return ", ".join(parts)


def statistics_text(games: list[Any]) -> Text:
    """The library's statistics of the stored games, one line per kind and game size."""
    from ..history.stats import KINDS, game_stats

    text = Text()
    for kind in KINDS:
        who = "You broke the computer's code" if kind == "play" else "The computer broke yours"
        for s in game_stats(games, kind):
            if not s.played:  # only unfinished games of this size: nothing to count yet
                continue
            mean = "-" if s.mean_guesses is None else f"{s.mean_guesses:.2f}"
            text.append(f"{who}, {s.rules.short_name()}: ", style="bold")
            text.append(
                f"{s.played} played, {s.won} won ({s.win_rate:.0%}; {s.won_unaided} without help), "
                f"mean {mean} guesses, best streak {s.best_streak}\n"
            )
    if not text:
        text.append("No finished games yet.\n")
    return text
