"""The board's keys: symbols, key pegs and the editing keys, handled in the order they are typed.

The footer shows Enter, Undo, Peek and Hint as bindings, but every key of the board goes through
:meth:`BoardKeys.on_key` with the symbols: a binding runs only once the key has passed the
screen, after the symbols typed later, so a paste of "Backspace 5678" would lose the 8.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rich.text import Text
from textual import events

from .panel import correction_keys

if TYPE_CHECKING:
    from ..core.notation import Notation
    from ..core.rules import Rules
    from ..games.game import Game
    from ..games.match import Match
    from .panel import Expect


class BoardKeys:
    """The keyboard side of the board screen (a mixin of :class:`~.game_screen.GameScreen`)."""

    rules: Rules
    notation: Notation
    game: Game
    match: Match | None
    entry: list[int | None]
    cursor: int
    keys: list[str]
    selected: int | None
    message: Text

    @property
    def expects(self) -> Expect:
        """What the board waits for now (the screen knows)."""
        raise NotImplementedError

    # provided by the screen
    refresh_view: Callable[[], None]
    apply_correction: Callable[[int], None]
    choose_row: Callable[[int], None]
    action_submit: Callable[[], None]
    action_undo: Callable[[], None]
    action_peek: Callable[[], None]
    action_hint: Callable[[], None]
    action_review: Callable[[], None]

    def on_key(self, event: events.Key) -> None:
        """Every key of the board, the editing keys with the symbols, handled in the order typed."""
        if self._typed(event.character):
            event.stop()
            return
        action = self._key_actions().get(event.key)
        if action is not None:
            event.stop()
            event.prevent_default()
            action()

    def _typed(self, ch: str | None) -> bool:
        """A symbol put in the code, a key peg, or a correction taken: whether ``ch`` was one."""
        if not ch or not ch.isprintable() or ch.isspace():
            return False
        expects = self.expects
        if expects in ("code", "secret"):
            color = self.notation.color_of(ch)
            if color is not None:
                self.put(color)
                return True
            if ch.isdigit():  # (a letter may be a key's action: only a digit is surely a colour meant)
                symbols = self.notation.describe_input()
                self.message = Text(
                    f"{ch} is not a {self.notation.terms.symbol} of this game ({symbols}).", "yellow"
                )
                self.refresh_view()
                return True
        elif expects == "reply" and ch.lower() in "bw" + self.notation.terms.keys.lower():
            self.add_key("b" if ch.lower() == "b" else "w")  # the game's key letters, and b and w
            return True
        elif expects == "reply" and self.game.problem is not None:
            keys = correction_keys(self.notation.terms)[: len(self.game.problem.corrections)]
            if ch.lower() in keys:
                self.apply_correction(keys.index(ch.lower()) + 1)
                return True
        return False

    def _key_actions(self) -> dict[str, Callable[[], None]]:
        return {
            "enter": self.action_submit,
            "backspace": self.action_erase,
            "delete": self.action_clear,
            "left": lambda: self.action_move(-1),
            "right": lambda: self.action_move(1),
            "home": lambda: self.action_move(-self.rules.pegs),
            "end": lambda: self.action_move(self.rules.pegs),
            "up": lambda: self.action_select(-1),
            "down": lambda: self.action_select(1),
            "ctrl+z": self.action_undo,
            "f2": self.action_peek,
            "question_mark": self.action_hint,
            "r": self.action_review,
            "R": self.action_review,  # as the finished game's line names it (a colour letter only in a code)
        }

    def put(self, color: int) -> None:
        """Put ``color`` in the hole under the cursor and move on; past the last hole the cursor
        leaves the row (``cursor == pegs``): the row is full, and the next symbol starts it over
        (it never overwrites the last peg unseen)."""
        if self.cursor >= self.rules.pegs:  # a full row: a new code is being typed
            self.entry = [None] * self.rules.pegs
            self.cursor = 0
        self.entry[self.cursor] = color
        self.cursor += 1
        self.message = Text("")
        self.refresh_view()

    def add_key(self, key: str) -> None:
        if len(self.keys) < self.rules.pegs:
            self.keys.append(key)
            self.keys.sort()  # black pegs first
        self.refresh_view()

    def action_move(self, step: int) -> None:
        if self.expects in ("code", "secret"):
            self.cursor = max(0, min(self.rules.pegs - 1, min(self.cursor, self.rules.pegs - 1) + step))
            self.refresh_view()

    def action_erase(self) -> None:
        """Backspace: the hole before the cursor (or under it, at the end) is emptied."""
        expects = self.expects
        if expects in ("code", "secret"):
            if self.cursor >= self.rules.pegs or (self.entry[self.cursor] is None and self.cursor > 0):
                self.cursor -= 1
            self.entry[self.cursor] = None
            self.refresh_view()
        elif expects == "reply" and self.keys:
            self.keys.pop()
            self.refresh_view()

    def action_clear(self) -> None:
        if self.expects in ("code", "secret"):
            self.cursor = min(self.cursor, self.rules.pegs - 1)
            self.entry[self.cursor] = None
        elif self.expects == "reply":
            self.keys = []
        self.refresh_view()

    def action_select(self, step: int) -> None:
        """Up and down choose the row whose reply is entered: any played row can be fixed."""
        if self.expects != "reply" or self.match is not None:
            return
        rows = len(self.game.moves)
        current = self.selected if self.selected is not None else rows + 1
        last = rows + 1 if self.game.pending is not None else rows
        target = max(1, min(last, current + step))
        self.choose_row(target)
