"""The session of ``mastermind match``: two players, an even number of games, roles alternating,
played line by line as the other sessions are (:mod:`.sessions`): a computer's moves are played as
they come, a person's are asked for, and each game's end, score and penalty are said in words.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator
from typing import TYPE_CHECKING, Any

from ..core.code import Code
from ..core.notation import Notation
from ..core.text import guess_count, sentence
from ..errors import GameError, MastermindError
from .scoring import SCORING_RULES
from .sessions import (
    CONFIRM_BY_TYPING,
    MATCH_WAY_OUT,
    QUIT,
    SECRET_WAY_OUT,
    Board,
    Out,
    Row,
    Say,
    Session,
    hint_lines,
    hint_said,
    long_work_note,
    reply_words,
    say,
    think_note,
)
from .words import Voice, event_text, match_ending

if TYPE_CHECKING:
    from .match import Event, Match


class MatchSession(Session):
    """mastermind match: two players, an even number of games, roles alternating (``match``);
    a computer's moves are played as they come, a person's are asked for. ``resumed``: the name of
    the match taken up again from the history. Quit at a person's prompt asks the match to stop
    (:attr:`stop_asked`), as the end of input does. ``warn_inconsistent``: a person's guess that
    cannot be the secret is pointed out before it is played, as in a single game."""

    def __init__(
        self,
        match: Match,
        notation: Notation,
        resumed: int | str | None = None,
        warn_inconsistent: bool = False,
        **hooks: Any,
    ) -> None:
        super().__init__(notation, **hooks)
        self.match, self.resumed, self.warn_inconsistent = match, resumed, warn_inconsistent
        self.stop_asked = False
        self._announced = 0
        self._warned: Code | None = None  # a guess pointed out once: typed again, it is played

    def record(self) -> dict[str, Any]:
        return self.match.record()

    @property
    def voice(self) -> Voice:
        """The point of view of the match's sentences (:mod:`.words`): one terminal for both players."""
        return Voice.of(self.match)

    def who(self, player: int) -> str:
        return f"player {player} ({self.match.players[player - 1]})"

    def totals(self) -> str:
        a, b = self.match.standing  # with the points for wrong information already given in this game
        return f"{self.who(1)} {a}, {self.who(2)} {b}"

    @property
    def played(self) -> int:
        return sum(r.points is not None for r in self.match.rounds)

    @property
    def hidden(self) -> bool:
        return self.match.waiting_for == "secret"

    @property
    def prompt(self) -> str:
        m = self.match
        wait, r = m.waiting_for, m.current
        if wait == "secret":
            return f"{self.who(r.maker)}, your secret (or Enter to reply to each guess yourself)> "
        if wait == "guess" and r.game is not None:
            return f"{self.who(r.breaker)}, guess {r.game.turn} of {self.rules.max_guesses}> "
        return f"{self.who(r.maker)}, your reply> "

    def stopped(self, how_to_resume: str) -> Say:
        """What Ctrl-C, quit or the end of input says: the match stops with the score so far."""
        return say(
            f"Match stopped after {self.played} of {self.match.games} games. "
            f"Score: {self.totals()}{how_to_resume}."
        )

    def start(self) -> Iterator[Out]:
        m, rules = self.match, self.rules
        yield say(
            f"A match of {m.games} games on {self.notation.describe_game()}, "
            f"{guess_count(rules.max_guesses)} each, seed {m.seed}: {self.who(1)} against {self.who(2)}. "
            f"Scoring: {m.scoring} ({SCORING_RULES[m.scoring]})."
        )
        if self.resumed is not None:
            yield say(
                f"Resuming match {self.resumed}: {self.played} of {m.games} games played. "
                f"Score: {self.totals()}."
            )
        yield from self._advance()

    def answer(self, line: str) -> Iterator[Out]:
        m, notation = self.match, self.notation
        wait, command = m.waiting_for, line.lower()
        events: list[Event] = []
        if wait == "secret":
            try:
                secret = notation.parse_code(line) if line else None
            except MastermindError:  # its message quotes the secret: never shown
                if command in QUIT:  # a code that reads as a word is a code: only now a command
                    self.stop_asked = self.done = True
                    return
                if command in ("help", "?"):
                    yield say(self._secret_help())
                else:
                    yield say(self._secret_refused(), "error")
            else:
                try:
                    events = m.set_secret(secret)
                except MastermindError:
                    yield say(self._secret_refused(), "error")
        elif command in QUIT:
            self.stop_asked = self.done = True
            return
        elif wait == "guess":
            events = yield from self._guess(line)
        elif not line:  # no reply: the prompt again (no key pegs is typed, as 0,0 or -)
            pass
        elif command in ("help", "?", "hint"):
            yield say(self._reply_help(command == "hint"))
        else:
            try:
                events = (
                    (yield from self._undo()) if command == "undo" else m.reply(notation.parse_feedback(line))
                )
            except MastermindError as err:
                yield say(f"{err}.", "error")
        if events:
            self.commit()  # kept before it is shown: a secret shown by a game's end stays shown
        yield from self._show(events)
        yield from self._advance()

    def _guess(self, line: str) -> Generator[Out, None, list[Event]]:
        """A person's line at the guess prompt: what it shows, and (returned) the match's events."""
        m, command = self.match, line.lower()
        if not line:
            return []
        if command == "give up":
            return m.give_up()
        if command == "undo":
            return (yield from self._undo())
        if command in ("help", "?"):
            yield say(self._guess_help())
        elif command == "hint":  # the hint that teaches, as in play and on the board
            try:
                with self.thinking(m.strategy):
                    lines = hint_lines(m, self.notation)
            except MastermindError as err:
                yield say(f"No hint: {err}")
            else:
                yield from hint_said(lines)
        else:
            try:
                code = self.notation.parse_code(line)
            except MastermindError as err:
                yield Say((("Not a guess:", "error"), (f" {err}.", "")))
                return []
            try:
                warning = m.warning(code, self.warn_inconsistent, self.notation)
                if warning is not None and self._warned != code:  # a warning, not a refusal
                    self._warned = code
                    yield say(f"{warning}. {CONFIRM_BY_TYPING}")
                    return []
                self._warned = None
                return m.guess(code)
            except GameError as err:  # hard mode's refusal, in the games package's words
                yield Say((("Not allowed:", "error"), (f" {err}. Try again (or type hint).", "")))
            except MastermindError as err:
                yield Say((("Not a guess:", "error"), (f" {err}.", "")))
        return []

    def _undo(self) -> Generator[Out, None, list[Event]]:
        """The match's undo: a guess waiting for its reply taken back, or one line saying why not."""
        try:
            return self.match.undo()
        except MastermindError as err:
            yield say(f"{sentence(err)}.")
            return []

    def _advance(self) -> Iterator[Out]:
        """The computers' moves played until a person is asked, or the match is over."""
        m = self.match
        while not m.over:
            self.commit()  # every move is kept before the next one is asked
            r = m.current
            if self._announced != r.number:
                self._announced = r.number
                self._warned = None  # a warning is about a game's rows: a new game has none
                roles = f"{self.who(r.maker)} makes the code, {self.who(r.breaker)} breaks it"
                yield Say(((f"Game {r.number} of {m.games}:", "strong"), (f" {roles}.", "")))
                for row, move in enumerate(r.game.moves if r.game else [], 1):  # a resumed game's rows
                    yield Row(row, move.guess, move.reply)
            wait = m.waiting_for
            if wait != "computer":
                if wait == "reply":
                    assert r.game is not None and r.game.pending is not None
                    yield say(f"Guess {r.game.turn}: {self.notation.format_code(r.game.pending)}")
                return
            if r.game is not None:  # a computer's guess: its search may be long (an optimal breaker's)
                yield from think_note(r.game, MATCH_WAY_OUT)
            elif (walked := m.secret_search()) is not None:  # the hardest secret: a whole tree walked
                yield from long_work_note(walked, None, SECRET_WAY_OUT)
            with self.thinking(self.who(r.maker if r.game is None else r.breaker)):
                events = m.advance()  # an optimal breaker searches its whole tree at first
            yield from self._show(events)
        self.done = True
        for line in match_ending(m, self.voice):
            yield Say(((line, "strong"),))

    def _show(self, events: list[Event]) -> Iterator[Out]:
        """Each event of the match, as the transcript shows it."""
        m, notation = self.match, self.notation
        for event in events:
            r = event.round
            if event.kind == "secret" and not m.is_human(r.maker):
                yield say(f"{self.who(r.maker)} has chosen a secret.")
            elif event.kind == "secret":
                how = (
                    "the computer scores the guesses"
                    if r.referee
                    else f"{self.who(r.maker)} replies to each guess"
                )
                yield say(f"Secret set: {how}.")
            elif event.kind == "move" and event.move is not None:
                yield Row(event.row, event.move.guess, event.move.reply)
            elif event.kind == "undone" and r.game is not None:
                yield say(event_text(event, m, notation, self.voice) or "")
                yield Board(tuple(r.game.history))
            elif event.kind == "replayed":
                why = event.problem.message if event.problem else ""  # the rows that show it
                yield Say((("Wrong information:", "alarm"), (f" {why}.", "")))
                yield say(event_text(event, m, notation, self.voice) or "")
            elif event.kind == "round-over" and r.game is not None and r.points is not None:
                yield say(event_text(event, m, notation, self.voice) or "")

    def _secret_refused(self) -> str:
        """Why a secret is refused, without quoting or naming what was typed: the breaker may be
        watching the screen."""
        code = self.notation.terms.code_of(self.rules, self.notation.describe_input())
        repeats = "" if self.rules.repeats else ", no repeats"
        return f"Not a code of this game: a secret is {code}{repeats} (what you typed is not shown)."

    def _secret_help(self) -> str:
        """What a codemaker may type at the secret prompt."""
        code = self.notation.terms.code_of(self.rules, self.notation.describe_input())
        return (
            f"Type your secret, a code of {code} (it is not shown), for the computer to score the "
            "guesses; or Enter to reply to each guess yourself; quit, Ctrl-D or Ctrl-C: stop the "
            "match, to resume later."
        )

    def _guess_help(self) -> str:
        """What a person breaking a code may type at the guess prompt."""
        code = self.notation.terms.code_of(self.rules, self.notation.describe_symbols())
        return (
            f"Type a code of {code} (e.g. {self.notation.example()}); hint: ask {self.match.strategy}; "
            "undo: take "
            "back a guess still waiting for its reply; give up: end this game (scored as every guess used); "
            "quit, Ctrl-D or Ctrl-C: stop the match, to resume later."
        )

    def _reply_help(self, asked_hint: bool) -> str:
        """What a codemaker may type at the reply prompt (a hint is the breaker's, not the codemaker's)."""
        no_hint = "No hint for the codemaker: hints are for the one breaking the code. " if asked_hint else ""
        # a person's guess waiting for its reply may be taken back, a strategy's never (Match.undo)
        undo = (
            "undo: take back the guess (it had no reply yet); "
            if self.match.is_human(self.match.current.breaker)
            else ""
        )
        stop = "quit, Ctrl-D or Ctrl-C: stop the match, to resume later."
        return f"{no_hint}{reply_words(self.notation)}; {undo}{stop}"
