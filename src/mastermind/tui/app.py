"""The Textual app: the board screen, with the menu, settings, history and help around it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

from textual.app import App
from textual.binding import Binding

from ..core.notation import Notation
from ..core.records import rules_from_dict
from ..core.rules import Rules
from ..errors import MastermindError, StoreError
from ..history.store import StoredGame
from .game_screen import GameScreen
from .screens import HelpScreen, HistoryScreen, MenuScreen, SettingsScreen
from .settings import SavedSettings, default_path
from .thinking import off_screen

CSS = """
Screen { background: $background; }
#main { height: 1fr; }
#board { width: auto; height: 1fr; padding: 0 1; border-right: tall $panel; }
.row { height: 1; width: auto; }
GameScreen.-spaced BoardRow { margin-bottom: 1; }
GameScreen.-stacked #main { layout: vertical; }
GameScreen.-stacked #board { width: 100%; height: auto; max-height: 60%; border-right: none;
                             border-bottom: tall $panel; }
GameScreen.-stacked #side { height: 1fr; }
.row.current { background: $primary 25%; }
.row.current .number { color: $accent; text-style: bold; }
.row.selected { background: $primary 30%; }
.row.problem .number { background: $error; color: $text; }
.row.problem .keys { background: $error 40%; }
.number { width: 5; color: $text-muted; content-align: right middle; padding-right: 1; }
.code { width: auto; height: 1; }
.peg { width: 3; height: 1; margin-right: 1; }
.keys { width: auto; padding: 0 1; background: #7b8791; }
.count { width: 7; color: $text-muted; padding-left: 1; }
#secret-row { margin-top: 1; }
#side { width: 1fr; padding: 0 1; scrollbar-size-vertical: 1; }
#score { background: $boost; border-left: thick $accent; padding: 0 1; height: auto; margin-bottom: 1; }
#status { height: auto; }
#message { height: auto; margin-top: 1; }
#palette { layout: grid; grid-size: 6; grid-columns: 4; grid-rows: 1; grid-gutter: 1 0; height: auto;
           margin: 1 0 0 0; }
.chip { width: 3; height: 1; }
.chip:hover { text-style: reverse; }
#help-line { color: $text-muted; height: auto; margin-top: 1; }
#submit { margin-top: 1; min-width: 14; }
#info { height: auto; margin-top: 1; }
#corrections { height: auto; max-height: 8; scrollbar-size-vertical: 1; }
.correction { width: 100%; margin-top: 0; text-align: left; content-align: left middle; }
#log { height: auto; margin-top: 1; color: $text-muted; border-top: solid $panel; }
.dialog { background: $surface; border: thick $primary; padding: 1 2; }
.dialog-title { text-style: bold; color: $accent; margin-bottom: 1; }
MenuScreen, HelpScreen, SettingsScreen { align: center middle; }
#menu { width: 44; height: auto; }
#menu-list { height: auto; border: none; }
#help { width: 90%; max-width: 100; height: 90%; }
#settings { width: 64; max-width: 100%; height: auto; max-height: 100%; }
#settings-form { height: auto; scrollbar-size-vertical: 1; scrollbar-color: $accent 70%;
                 scrollbar-background: $panel; }
.form { grid-size: 2; grid-columns: 10 1fr; grid-rows: 1; grid-gutter: 0 1; height: auto; }
#settings-about { color: $text-muted; height: auto; margin-top: 1; }
#settings Select:focus > SelectCurrent, #settings Input:focus { background: $accent 30%; }
#settings-error { height: auto; margin: 1 0 0 0; }
.buttons { height: auto; margin-top: 1; }
SettingsScreen.-short #settings { padding: 0 2; }
SettingsScreen.-short #settings .dialog-title { margin-bottom: 0; }
SettingsScreen.-short #settings-about { margin-top: 0; }
SettingsScreen.-short #settings-error { margin-top: 0; }
.checks { height: 1; }
.checks Checkbox { margin-right: 2; }
.buttons Button { margin-right: 2; min-width: 10; }
#history { padding: 0 1; }
#review { padding: 0 1; }
#review-head { height: auto; margin: 1 0; }
#review-moves { height: auto; max-height: 1fr; }
#review-summary { height: auto; margin: 1 0; }
#stats { height: auto; margin: 1 0; }
#games { height: 1fr; scrollbar-size-vertical: 1; }
#games-detail { height: auto; }
"""


class MastermindApp(App[None]):
    """Mastermind in the terminal (and, through ``mastermind web``, in a browser)."""

    TITLE = "Mastermind"
    CSS = CSS
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", priority=True)]
    ENABLE_COMMAND_PALETTE = False

    def __init__(
        self,
        store: Any = None,
        settings_path: Path | None = None,
        pace: float = 0.8,
        history: bool = True,
        seed: int | None = None,
        rules: Rules | None = None,
        notation: str = "",
        resume: StoredGame | None = None,
    ) -> None:
        """``rules`` and ``notation`` (a style of :class:`~mastermind.core.notation.Notation`), when
        given, replace the remembered ones for this run: they are not saved (the settings screen
        saves what it starts). Raises the games package's error if they make no game with the remembered
        mode and players. ``resume``: a saved game (or match) the app starts on instead of a new one."""
        super().__init__()
        self.resume_first = resume
        self._board: GameScreen | None = None  # the last board: what is left unfinished at the end
        self.seed = seed
        self.settings_path = settings_path
        self.settings, self.settings_warning = SavedSettings.read(settings_path)
        try:
            self.settings.check()
        except MastermindError as err:  # a file edited by hand: a strategy or a player unknown...
            self.settings = SavedSettings()
            self.settings_warning = f"{settings_path or default_path()}: {err}; the default settings are used"
        if rules is not None:
            self.settings = replace(self.settings).with_rules(rules)
            self.settings.check()
        if notation:
            Notation(self.settings.rules, notation)  # a style too small for the game: refused now
        self.notation = notation
        self.pace = pace
        self.compiling = False  # whether the JIT is compiling kernels now (said in the status)
        self._stop_listening: Callable[[], None] = lambda: None
        self._stop_signals: Callable[[], None] = lambda: None
        self.store_warning: str | None = None
        if store is None and history:
            from ..games.game_record import read_stored
            from ..history.store import Store

            try:
                store = Store(reader=read_stored)  # a damaged game asked for: the engine says why
            except StoreError as err:
                self.store_warning = f"{err}; games are not saved"
        self.store = store

    def on_mount(self) -> None:
        from .._kernels import on_compile  # imports no numba

        self._stop_listening = on_compile(self._compiling)
        self._end_on_signals()
        first, self.resume_first = self.resume_first, None
        if first is not None:
            self._board = self._board_for(first)
        else:
            self._board = GameScreen(self.settings, self.store, self.pace, self.seed, self.notation)
        self.push_screen(self._board)
        for warning in (self.settings_warning, self.store_warning):
            if warning:
                self.notify(warning, severity="warning", timeout=10)

    def on_unmount(self) -> None:
        from ..games.thinking import stop_thinking

        self._stop_listening()
        self._stop_signals()
        # the searches in flight (a hint, a strategy's guess, a review) stop as the app ends: their
        # workers are given up at once (tui/thinking.py), and the process ends without them
        stop_thinking()

    def _end_on_signals(self) -> None:
        """SIGTERM and SIGHUP end the app as Ctrl+Q does: left to Python's default, they killed
        the process with the terminal still in the app's mode (no echo, the dead board on it)
        until `reset`. Every move is saved as it is made, so ending at once loses nothing."""
        import asyncio
        import signal

        loop = asyncio.get_running_loop()
        installed = []
        for name in ("SIGTERM", "SIGHUP"):
            number = getattr(signal, name, None)  # Windows has no SIGHUP
            if number is None:
                continue
            try:
                loop.add_signal_handler(number, self.exit)
            except (NotImplementedError, RuntimeError, ValueError):  # no such handler on this loop or thread
                continue
            installed.append(number)

        def stop() -> None:
            for number in installed:
                loop.remove_signal_handler(number)

        self._stop_signals = stop

    def _compiling(self, started: bool) -> None:
        """The JIT starts or ends compiling kernels (a strategy's first search, in a worker thread):
        the board says so in its status, inside the app, never on the terminal under it."""

        def show() -> None:
            self.compiling = started
            for screen in self.screen_stack:
                if isinstance(screen, GameScreen):
                    screen.refresh_view()

        try:
            self.call_from_thread(show)
        except RuntimeError:  # called on the app's own thread
            show()

    @property
    def board(self) -> GameScreen:
        for screen in reversed(self.screen_stack):
            if isinstance(screen, GameScreen):
                return screen
        raise LookupError("no board")  # pragma: no cover - the board is always at the bottom

    def start(self, settings: SavedSettings) -> None:
        """A new game with ``settings``, which are remembered for next time."""
        self.settings = settings
        problem = settings.save(self.settings_path)
        if problem:
            self.notify(problem, severity="warning")
        self._board = GameScreen(settings, self.store, self.pace, notation=self.notation)
        self.switch_screen(self._board)

    def resume(self, stored: StoredGame | None) -> None:
        """Go on with a saved game (or match) on the board, from its last move, saved in its own row;
        the remembered settings stay as they are."""
        if stored is not None:
            self._board = self._board_for(stored)
            self.switch_screen(self._board)

    def _board_for(self, stored: StoredGame) -> GameScreen:
        """A board going on with a saved game (or match), with the remembered settings but its own
        mode, rules and players."""
        settings = SavedSettings(**{**asdict(self.settings), "mode": stored.kind}).with_rules(
            rules_from_dict(stored.record["rules"])
        )
        record = stored.record
        settings.strategy = record.get("strategy", settings.strategy)
        if stored.kind == "match":
            settings.players, settings.games = list(record["players"]), record["games_planned"]
            settings.scoring = record["scoring"]
        return GameScreen(settings, self.store, self.pace, notation=self.notation, resume=stored)

    def left_unfinished(self) -> StoredGame | None:
        """The saved game (or match) the app was left with, if it is unfinished: after the app has
        ended, the command says how to go on with it."""
        board = self._board
        if board is None or board.recorder.store is None or board.recorder.id is None:
            return None  # nothing saved: no move made, no history, or the history failed mid-game
        try:
            stored = board.recorder.store.get(board.recorder.id)
        except StoreError:
            return None
        return None if stored.finished else stored

    def action_menu(self) -> None:
        def chosen(choice: str | None) -> None:
            if choice == "new":
                self.board.new_game()
            elif choice == "settings":
                self.action_settings()
            elif choice == "give-up":
                self.board.give_up()
            elif choice == "history":
                self.push_screen(HistoryScreen(self.store), self.resume)
            elif choice == "puzzles":
                self.open_puzzles()
            elif choice == "help":
                self.action_help()
            elif choice == "quit":
                self.exit()

        self.push_screen(MenuScreen(), chosen)

    def open_puzzles(self) -> None:
        """Puzzles of the game of the settings: its optimal trees' and the saved games' (found off
        the screen's thread), the rating kept beside the history where there is one."""
        rules, store = self.settings.rules, self.store
        try:
            notation = Notation(rules, self.notation)
        except MastermindError:  # a style that cannot write this game's colours: the game's own
            notation = Notation(rules)
        self.notify("Finding puzzles…")

        def work() -> None:
            from ..games.puzzles import puzzle_session

            stored = store.games() if store is not None else []
            try:
                session = puzzle_session(None if store is None else store.path, stored, rules, notation)
            except MastermindError as err:  # the standing's file cannot be read: said, not a crash
                self.call_from_thread(self.notify, str(err), severity="error")
                return
            self.call_from_thread(self.push_puzzles, session)

        self.run_worker(off_screen(work), thread=True, group="puzzles")

    def push_puzzles(self, session: Any) -> None:
        from .practice_screen import PracticeScreen

        self.push_screen(PracticeScreen(None, session=session, title="Puzzles"))

    def action_settings(self) -> None:
        def chosen(settings: SavedSettings | None) -> None:
            if settings is not None:
                self.start(settings)

        self.push_screen(SettingsScreen(self.settings), chosen)

    def action_help(self) -> None:
        self.push_screen(HelpScreen())
