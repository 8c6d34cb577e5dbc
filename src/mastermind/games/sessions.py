"""Sessions: a game or a match played line by line, as a front end that reads lines lives it.

A session takes one line the player typed and gives back what to show for it (lines of words,
the board, a row of it), and says what it asks next (:attr:`Session.prompt`) and when it is
done. It holds every word the player reads and every decision a line leads to; the front end
only connects it to the terminal: it prompts, reads, prints (in its own colours) and handles the
end of input and Ctrl-C. So a test plays a whole session by calling it, with no terminal.

What :meth:`Session.start` and :meth:`Session.answer` give is produced as it is shown: a note
said before a long search (a hint, the computer's guess) reaches the screen before the search
begins, and ``thinking(who)`` (a context manager the front end gives, a spinner on a terminal)
is entered while a strategy thinks.

Here are what every session shares (:class:`Session`, what it gives to show) and the sessions of
``play`` and ``guess``; the match's is :class:`~mastermind.games.match_session.MatchSession`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..core.code import Code
from ..core.feedback import Feedback
from ..core.notation import Notation, example_reply
from ..core.text import plural, sentence
from ..errors import ContradictionError, GameError, MastermindError

if TYPE_CHECKING:
    from ..deduction.state import SolverState
    from ..strategies import Strategy
    from .game import Game, Hint
    from .match import Match

#: What ends a game (play, guess) or stops a match at its prompts.
QUIT = ("quit", "q", "exit")

#: The way out of a hint's long search: a game of a heuristic strategy.
HINT_WAY_OUT = "a heuristic strategy hints in seconds (mastermind play --strategy entropy); "

#: The way out of a long search for the computer's guess (guess, match): a heuristic strategy.
GUESS_WAY_OUT = "a heuristic strategy guesses in seconds (--strategy entropy); "
MATCH_WAY_OUT = "a heuristic strategy plays in seconds (entropy in --players); "
#: The way out of a computer codemaker's long walk for the hardest secret.
SECRET_WAY_OUT = "--codemaker random draws a secret at once; "


@dataclass(frozen=True)
class Say:
    """A line of words, in parts, each with its emphasis: '' (none), 'error', 'alarm' (a game
    gone wrong), 'strong' or 'won'; the front end decides how each looks."""

    parts: tuple[tuple[str, str], ...]

    def __str__(self) -> str:
        return "".join(text for text, _ in self.parts)


def say(text: str, emphasis: str = "") -> Say:
    return Say(((text, emphasis),))


@dataclass(frozen=True)
class Board:
    """The board: a row for each move (none: '(no guesses yet)'), and the secret under them."""

    history: tuple[tuple[Code, Feedback], ...]
    secret: Code | None = None


@dataclass(frozen=True)
class Row:
    """One row of the board, as it is played."""

    number: int
    guess: Code
    reply: Feedback


Out = Say | Board | Row


def search_note(
    player: Strategy, state: SolverState | None = None, way_out: str = "", resumes: bool = False
) -> str | None:
    """Before a strategy's work that may be long (its
    :func:`~mastermind.strategies.capabilities.search_cost`): how large it is, what it is likely
    to cost, ``way_out`` and how to stop it (``resumes``: the same command resumes), in a line;
    None where the work is quick or not needed."""
    from ..strategies.capabilities import search_cost

    cost = search_cost(player, state)
    if cost is None:
        return None
    stop = "Ctrl-C stops, and the same command again resumes" if resumes else "Ctrl-C stops"
    return f"{player.name}: {cost}; {way_out}{stop}"


def think_note(game: Game, way_out: str) -> Iterator[Out]:
    """Before the breaker's next guess, where the search behind it may be long (an exact search
    of a large game): :func:`search_note`, as a line said before the search begins."""
    from ..deduction.state import SolverState

    yield from long_work_note(game.player(), SolverState(game.rules, game.history), way_out)


def long_work_note(player: Strategy, state: SolverState | None, way_out: str) -> Iterator[Out]:
    """:func:`search_note` as the line said before the work begins (nothing where it is quick):
    before a breaker's guess (:func:`think_note`), or a codemaker's walk of ``player``'s whole
    tree for the hardest secret."""
    note = search_note(player, state, way_out)
    if note is not None:
        yield say(f"Note: {note}.")


def reply_words(notation: Notation) -> str:
    """How to reply, in the game's words: 'Reply BLACK,WHITE (e.g. 1,2), key pegs (BWW) or - for none'."""
    terms, example = notation.terms, example_reply(notation.rules)
    return f"Reply {terms.reply_form} (e.g. {example}), key pegs ({terms.pegs_read(example)}) or - for none"


def hint_words(hint: Hint, notation: Notation) -> str:
    """A hint in words: '34 codes are still possible; knuth would play 1235.'"""
    guess = notation.format_code(hint.guess)
    note = f" ({hint.note})" if hint.note else ""
    if hint.candidates is None:  # a game too large to count: the strategy still hints
        return f"{hint.lead} {guess}{note}."
    codes = "1 code is" if hint.candidates == 1 else f"{hint.candidates:,} codes are"
    return f"{codes} still possible; {hint.lead} {guess}{note}."


def hint_lines(played: Game | Match, notation: Notation) -> list[str]:
    """The hint in words (:func:`~.advice.hint_given`, the same words as the board's): what
    teaches it where the game's codes can be listed, else the strategy's guess alone."""
    from .advice import Advice, hint_given

    given = hint_given(played)
    return given.lines(notation) if isinstance(given, Advice) else [hint_words(given, notation)]


def hint_said(lines: list[str]) -> Iterator[Out]:
    """The hint's lines (:func:`hint_lines`) as a session says them: 'Hint: ' and the first, the
    others indented below it."""
    yield say(f"Hint: {lines[0]}")
    for line in lines[1:]:
        yield say(f"  {line}")


class Session:
    """A game or match played line by line (see the module)."""

    #: Nothing more to read: the game or match is over, given up, or asked to stop.
    done = False

    @property
    def prompt(self) -> str:
        """What the next line is typed at."""
        raise NotImplementedError

    @property
    def hidden(self) -> bool:
        """Whether the next line is a secret: not shown as it is typed, nor echoed."""
        return False

    def __init__(
        self,
        notation: Notation,
        thinking: Callable[[str], AbstractContextManager[object]] | None = None,
        commit: Callable[[dict[str, Any]], object] | None = None,
    ) -> None:
        self.notation, self.rules = notation, notation.rules
        self.thinking = thinking or (lambda who: contextlib.nullcontext())
        self._commit = commit or (lambda record: None)

    def start(self) -> Iterator[Out]:
        """What is shown before the first line is read."""
        raise NotImplementedError

    def answer(self, line: str) -> Iterator[Out]:
        """What one line (stripped) leads to."""
        raise NotImplementedError

    def record(self) -> dict[str, Any]:
        raise NotImplementedError

    def commit(self) -> None:
        """Hand the record to be kept (the history): every move is kept before the next is asked."""
        self._commit(self.record())


#: How a line session's player confirms a guess warned of (:meth:`Game.warning` says why).
CONFIRM_BY_TYPING = "Type it again to play it anyway."


class PlaySession(Session):
    """mastermind play: a person breaks the computer's code (``game``, made by :meth:`Game.breaking`).

    ``warn_inconsistent``: a guess that cannot be the secret is pointed out before it is played;
    ``resumed``: the name of the game taken up again from the history."""

    def __init__(
        self,
        game: Game,
        notation: Notation,
        warn_inconsistent: bool = False,
        resumed: int | str | None = None,
        **hooks: Any,
    ) -> None:
        super().__init__(notation, **hooks)
        self.game, self.warn_inconsistent, self.resumed = game, warn_inconsistent, resumed
        self._warned: Code | None = None  # a guess pointed out once: typed again, it is played

    def record(self) -> dict[str, Any]:
        return self.game.record()

    @property
    def prompt(self) -> str:
        return f"guess {self.game.turn} of {self.rules.max_guesses}> "

    @property
    def gave_up(self) -> bool:
        return self.game.outcome == "gave-up"

    def start(self) -> Iterator[Out]:
        notation, rules, game = self.notation, self.rules, self.game
        if self.resumed is None:
            yield say(
                f"I have chosen a secret: {notation.describe_game(typing=True)}. "
                f"You have {plural(rules.max_guesses, 'guess', 'guesses')}. Type a guess, or help."
            )
        else:  # the same game goes on: no secret is drawn
            yield say(f"Resuming game {self.resumed}: {plural(len(game.moves), 'guess', 'guesses')} made.")
            yield say(
                f"Same secret as before: {notation.describe_game(typing=True)}. "
                f"You have {plural(game.guesses_left, 'guess', 'guesses')} left. Type a guess, or help."
            )
        if game.daily is not None:
            from datetime import date

            from .daily import day_number

            yield say(f"The code of the day: #{day_number(date.fromisoformat(game.daily))}.")
        if game.hard:
            yield say("Hard mode: every guess must be one that could still be the secret.")
        if self.resumed is not None:
            yield Board(tuple(game.history))
        yield from self._next()

    def stopped(self, how_to_resume: str) -> Say:
        """What the end of input or Ctrl-C says: the game stops unfinished, kept to be resumed."""
        return say(f"Stopped{how_to_resume}.")

    def answer(self, line: str) -> Iterator[Out]:
        game, notation, command = self.game, self.notation, line.lower()
        if command in QUIT:
            game.give_up()
            self.done = True
            self.commit()  # kept before the secret is shown: a kill then cannot undo the giving up
            yield say(game.summary(notation))
            return
        if command in ("help", "?"):
            code_words = notation.terms.code_of(self.rules, notation.describe_symbols())
            yield say(
                f"Type a code of {code_words} (e.g. {notation.example()}); hint: ask "
                f"{game.strategy_name}; undo: take back the last guess; board: show the board; "
                "quit: give up; Ctrl-D or Ctrl-C: stop, to resume later."
            )
        elif command == "board":
            yield Board(tuple(game.history))
        elif command == "undo":
            try:
                game.undo()
            except GameError as err:  # nothing to undo: the game says so
                yield say(f"{sentence(err)}.")
            else:
                yield say("Took back the last guess.")
                yield Board(tuple(game.history))
        elif command == "hint":
            yield from self._hint()
        elif command:
            yield from self._guess(line)
        yield from self._next()

    def _hint(self) -> Iterator[Out]:
        from ..deduction.state import SolverState

        game = self.game
        try:
            note = search_note(game.player(), SolverState(self.rules, game.history), HINT_WAY_OUT)
            if note is not None:  # said before the search, which may be long
                yield say(f"Note: {note}.")
            with self.thinking(game.strategy_name):
                lines = hint_lines(game, self.notation)
        except MastermindError as err:
            yield say(f"No hint: {err}")
            return
        yield from hint_said(lines)

    def _guess(self, line: str) -> Iterator[Out]:
        game, notation = self.game, self.notation
        try:
            code = notation.parse_code(line)
        except MastermindError as err:
            yield Say((("Not a guess:", "error"), (f" {err}. Try again (or type help).", "")))
            return
        warning = game.warning(code, self.warn_inconsistent, notation)
        if warning is not None and self._warned != code:  # a warning, not a refusal
            self._warned = code
            yield say(f"{warning}. {CONFIRM_BY_TYPING}")
            return
        self._warned = None
        try:
            game.guess(code)
        except GameError as err:  # hard mode's refusal, in the games package's words
            yield Say((("Not allowed:", "error"), (f" {err}. Try again (or type hint).", "")))
            return
        yield Board(tuple(game.history))

    def _next(self) -> Iterator[Out]:
        """The game kept before the next line, or its end shown."""
        game = self.game
        self.commit()  # (a game over is kept before its secret is shown)
        if not game.over:
            return
        self.done = True
        if game.outcome != "won":
            yield Board((), game.secret)
        for line in game.closing_lines(self.notation):  # the words of the boards too
            yield say(line, "won" if game.outcome == "won" else "")


class GuessSession(Session):
    """mastermind guess: the computer breaks a person's code (``game``, made by
    :meth:`Game.solving`), the person replying to each guess, or the computer itself where the
    game holds the secret. Replies that contradict each other are shown at once, and only a
    fix, an undo or quit is taken until they no longer do."""

    def __init__(
        self, game: Game, notation: Notation, resumed: int | str | None = None, **hooks: Any
    ) -> None:
        super().__init__(notation, **hooks)
        self.game, self.resumed = game, resumed
        self._repairing = False

    def record(self) -> dict[str, Any]:
        return self.game.record()

    @property
    def prompt(self) -> str:
        return "fix ROW REPLY, undo or quit> " if self._repairing else "your reply> "

    def stopped(self, how_to_resume: str) -> Say:
        """What the end of input or Ctrl-C says: the game stops unfinished, kept to be resumed."""
        return say(f"Stopped{how_to_resume}.")

    def start(self) -> Iterator[Out]:
        game, notation = self.game, self.notation
        if self.resumed is not None:
            yield say(f"Resuming game {self.resumed}: {plural(len(game.moves), 'guess', 'guesses')} made.")
            yield Board(tuple(game.history))
        elif game.secret is None:
            yield say(
                f"Think of a secret: {notation.describe_game(typing=True)}. "
                f"I have {plural(self.rules.max_guesses, 'guess', 'guesses')}. "
                f"{reply_words(notation)}; or type help."
            )
        yield from self._advance()

    def answer(self, line: str) -> Iterator[Out]:
        if not line:
            return
        game, notation = self.game, self.notation
        words = line.split()
        verb = words[0].lower()
        if verb in QUIT:
            game.give_up()
            self.done = True
            self.commit()  # the end kept, as every change is, by the session
            yield say("Given up.")
        elif verb in ("help", "?"):
            yield say(
                f"{reply_words(notation)}. fix ROW REPLY: correct an earlier reply (e.g. fix 2 0,1); "
                "undo: take back the last reply; board: show the board; quit: give up; Ctrl-D or "
                "Ctrl-C: stop, to resume later."
            )
        elif verb == "board":
            yield Board(tuple(game.history))
        elif verb == "undo":
            try:
                game.undo()
            except GameError as err:  # nothing to undo: the game says so
                yield say(f"{sentence(err)}.")
                return
            yield say("Took back the last reply.")
            yield from self._advance()
        elif verb == "fix":
            yield from self._fix(words)
        elif self._repairing:
            yield say("First correct a reply: fix ROW REPLY (e.g. fix 1 0,1), or undo.")
        else:
            try:
                game.reply(notation.parse_feedback(line))
            except MastermindError as err:
                yield Say(((f"{err}.", "error"), (" Try again (or type help).", "")))
                return
            yield from self._advance()

    def _fix(self, words: list[str]) -> Iterator[Out]:
        game, notation = self.game, self.notation
        rows = f"1 to {len(game.moves)}" if game.moves else "none yet"
        if len(words) < 3 or not words[1].isdigit():
            yield say(f"Write fix ROW REPLY, e.g. fix 1 0,1 (rows: {rows}).")
            return
        try:
            move = game.fix(int(words[1]), notation.parse_feedback(" ".join(words[2:])))
        except MastermindError as err:
            yield Say((("Cannot fix:", "error"), (f" {err}.", "")))
            return
        yield say(f"Row {words[1]} is now {notation.format_code(move.guess)} = {move.reply}.")
        yield from self._advance()

    def _advance(self) -> Iterator[Out]:
        """Play on until a reply is needed, the replies need correcting, or the game is over."""
        game, notation = self.game, self.notation
        self._repairing = False
        while True:
            self.commit()  # every reply is kept before the next guess is asked
            problem = game.problem
            if problem is not None:
                yield from self._repair(problem.message)
                return
            if game.outcome in ("won", "lost"):
                self.done = True
                for line in game.closing_lines(notation):  # the words of the boards too
                    yield say(line, "won" if game.outcome == "won" else "")
                return
            try:
                yield from think_note(game, GUESS_WAY_OUT)  # "is thinking" alone, for hours, says too little
                with self.thinking(game.strategy_name):
                    left = game.candidates()
                    code = game.proposal()
            except ContradictionError as err:
                if not game.moves:
                    raise  # the strategy cannot play this game at all
                yield from self._repair(
                    str(err)
                )  # a strategy that plays games too large to list found no code
                return
            codes = "" if left is None else f"   ({'1 code' if left == 1 else f'{left:,} codes'} possible)"
            yield say(f"Guess {game.turn}: {notation.format_code(code)}{codes}")
            if game.secret is None:
                return
            move = game.guess(code)
            assert move is not None
            yield say(f"  reply: {move.reply}")

    def _repair(self, problem: str) -> Iterator[Out]:
        self._repairing = True
        yield say(f"{sentence(problem)}.", "alarm")
        yield Board(tuple(self.game.history))
