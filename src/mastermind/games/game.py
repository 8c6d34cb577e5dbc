"""A game: a code being broken by a person, or the computer breaking yours.

Every rule of play lives here, once, so that the command line, the terminal UI and the web page
cannot disagree: whether a guess may be made, when a game is won or lost, what a hint says, when
the replies contradict each other and how a row is fixed, and what a match scores. A front end
only reads input, calls these methods and draws what they return.

>>> game = Game.breaking(Rules(), seed=2026)
>>> game.guess("1122").reply, game.guesses_left
(Feedback(black=1, white=1), 9)
>>> game.undo().guess, game.turn
(Code((0, 0, 1, 1)), 1)
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any, Literal

from ..core.code import Code, CodeLike, CodeSpace, as_code
from ..core.feedback import Feedback, score
from ..core.notation import Notation
from ..core.rules import Rules
from ..core.seeds import check_seed, fresh_seed, generator
from ..core.text import plural
from ..deduction.state import Correction, SolverState
from ..errors import ContradictionError, GameError, StrategyError
from ..strategies import Strategy, find_strategy, make_strategy
from .hints import DEFAULT_STRATEGY, Hint, hint_strategy
from .moves import Assist, Inconsistency, Move, Problem, ending, inconsistency
from .moves import problem as problem_of

Outcome = Literal["playing", "won", "lost", "gave-up"]

#: What a game needs next (see :attr:`Game.waiting_for`).
GameWaiting = Literal["guess", "computer", "reply", "fix"]

#: A finished game's outcome in words, for messages.
_OUTCOME_WORDS = {"won": "the code was broken", "lost": "no guesses are left", "gave-up": "it was given up"}


#: Why a match's reply is not corrected (:meth:`Game.fix`; the match replays the game instead).
NOT_FIXED_IN_A_MATCH = "in a match a wrong reply is not fixed: the game is played again when it shows"


class Game:
    """One game: a breaker (a person, or a strategy) tries to find a code.

    Either the secret is known to the program, which then scores every guess as a referee, or it
    is in the codemaker's head and the codemaker types each reply: then the game checks the
    replies as they come and reports a :class:`~mastermind.games.moves.Problem` as soon as they
    contradict each other.

    Use :meth:`breaking` for a person breaking the computer's code and :meth:`solving` for the
    computer breaking a person's.

    Args:
        rules: the game.
        secret: the code to find (text in the game's notation, a Code or colour indices), or None
            when the codemaker replies by hand.
        breaker: the strategy that guesses (its name, or a :class:`~mastermind.strategies.Strategy`
            made for these rules), or None when a person does.
        strategy: the strategy that gives hints when a person guesses (a name or a Strategy).
        first: overrides the strategy's first guess (for a strategy given by name).
        seed: the seed of the secret and of a randomised strategy; drawn if None, and kept.
        kind: what the record calls the game ("play", "guess", or "match" for a game of a match).
        hard: hard mode: a person's every guess must be one that could still be the secret
            (:meth:`check_hard`); a guess that cannot be is refused, not warned of.
    """

    def __init__(
        self,
        rules: Rules,
        *,
        secret: CodeLike | None = None,
        breaker: str | Strategy | None = None,
        strategy: str | Strategy = DEFAULT_STRATEGY,
        first: CodeLike | None = None,
        seed: int | None = None,
        kind: str | None = None,
        hard: bool = False,
    ) -> None:
        self.rules = rules
        self.hard = hard
        self.notation = Notation(rules)
        self.space = CodeSpace.of(rules)
        self.seed = fresh_seed() if check_seed(seed) is None else seed
        player = breaker if breaker is not None else strategy
        self._player: Strategy | None = None
        if isinstance(player, Strategy):
            self._player = self._own(player)
            self.strategy_name = player.name
        elif isinstance(player, str):
            self.strategy_name = find_strategy(player).name  # unknown names: refused now
        else:
            what = "breaker" if breaker is not None else "strategy"
            raise StrategyError(
                f"a game's {what} is a strategy's name (e.g. 'knuth') or a Strategy, not {player!r}"
            )
        self.breaker = None if breaker is None else self.strategy_name
        self.first = self._code(first) if first is not None else None
        if self._player is not None:
            if self.first is not None:
                raise GameError("give the first guess to the strategy (its first=...), not to the game")
            if self._player.first is not None:  # kept in the record, which rebuilds the strategy by name
                self.first = self.space.code(self._player.first)
        self.secret = self._code(secret) if secret is not None else None
        self.kind = kind or ("play" if self.breaker is None else "guess")
        self.moves: list[Move] = []
        self.pending: Code | None = None  # a guess that waits for the codemaker's reply
        self.hints = 0
        self.assists: list[Assist] = []  # hints and guesses taken back, in order
        self.gave_up = False
        #: the date (ISO) of the code of the day this game plays, or None (:mod:`.daily`)
        self.daily: str | None = None
        self._proposals: dict[tuple[Move, ...], Code] = {}
        self._strategy_problem: Problem | None = None
        self._problems: dict[tuple[Move, ...], Problem | None] = {}
        if self.breaker is not None:
            self.player()  # a strategy that cannot play this game: refused before the game starts

    @classmethod
    def breaking(
        cls,
        rules: Rules,
        seed: int | None = None,
        strategy: str | Strategy = DEFAULT_STRATEGY,
        hard: bool = False,
    ) -> Game:
        """A person breaks a secret the computer draws from ``seed``; ``strategy`` gives hints;
        ``hard``: in hard mode (:meth:`check_hard`)."""
        game = cls(rules, strategy=strategy, seed=seed, kind="play", hard=hard)
        game.secret = game.space.code(random.Random(game.seed).randrange(game.space.size))
        return game

    @classmethod
    def solving(
        cls,
        rules: Rules,
        strategy: str | Strategy = DEFAULT_STRATEGY,
        secret: CodeLike | None = None,
        first: CodeLike | None = None,
        seed: int | None = None,
    ) -> Game:
        """The computer's ``strategy`` breaks a code the person keeps (or ``secret``, scored by itself)."""
        return cls(rules, secret=secret, breaker=strategy, first=first, seed=seed, kind="guess")

    # -- state -------------------------------------------------------------------------------------

    @property
    def turn(self) -> int:
        """The number of the next guess (1 for the first)."""
        return len(self.moves) + 1

    @property
    def guesses_left(self) -> int:
        return max(0, self.rules.max_guesses - len(self.moves))

    @property
    def outcome(self) -> Outcome:
        if self.gave_up:
            return "gave-up"
        end = ending(self.rules, self.history)
        # replies that contradict each other end nothing: a wrong one is fixed first (the last
        # row's all-black may be the wrong one, or an earlier reply, and the last row may win)
        if end is not None and self.problem is not None:
            return "playing"
        return end or "playing"

    @property
    def over(self) -> bool:
        return self.outcome != "playing"

    @property
    def waiting_for(self) -> GameWaiting | None:
        """Whose turn it is, or None once the game is over: ``"guess"`` (a person's guess),
        ``"computer"`` (the breaking strategy's guess: :meth:`proposal`, then :meth:`guess`),
        ``"reply"`` (the codemaker's reply to :attr:`pending`) or ``"fix"`` (the replies contradict
        each other: :attr:`problem` says how; a row must be fixed or undone before play goes on).

        >>> Game.solving(Rules(pegs=2, colors=3)).waiting_for
        'computer'
        >>> game = Game(Rules(pegs=2, colors=3))  # a person guesses, a person replies
        >>> game.waiting_for
        'guess'
        >>> _ = game.guess("11"); game.waiting_for
        'reply'
        >>> _ = game.reply("1,0"); _ = game.guess("11"); _ = game.reply("0,0"); game.waiting_for
        'fix'
        """
        if self.over:
            return None
        if self.pending is not None:
            return "reply"
        if self.problem is not None:
            return "fix"
        return "guess" if self.breaker is None else "computer"

    def expect(self, turn: GameWaiting) -> None:
        """Raise GameError, saying whose turn it is, unless the game waits for ``turn``: a front end
        that takes a person's guess (or reply) asks first, since :meth:`guess` also plays a
        strategy's guesses and :meth:`reply` the strategy's proposal.

        >>> Game.solving(Rules()).expect("guess")
        Traceback (most recent call last):
        mastermind.errors.GameError: it is the computer's turn to guess
        """
        waiting = self.waiting_for
        if waiting == turn:
            return
        if waiting is None:
            self._check_open()
            raise AssertionError("a game that waits for nothing is over")  # pragma: no cover
        raise GameError(
            {
                "guess": f"no guess is waiting for its reply: guess {self.turn} has not been made",
                "computer": "it is the computer's turn to guess",
                "reply": f"guess {self.turn} is waiting for its reply",
                "fix": "the replies contradict each other: fix a row or undo first",
            }[waiting]
        )

    def summary(self, notation: Notation | None = None) -> str:
        """How the game ended, in words, for the one who played it (codes in ``notation``).

        >>> game = Game.breaking(Rules(pegs=2, colors=2), seed=1)
        >>> _ = [game.guess(code) for code in ("11", "12", "21", "22") if not game.over]
        >>> game.summary()
        'You broke the code in 2 guesses!'
        """
        notation = notation or self.notation
        n = plural(len(self.moves), "guess", "guesses")
        if not self.over:
            raise GameError("the game is not over")
        if self.breaker is not None:
            if self.outcome == "won":
                return f"Found it: {notation.format_code(self.moves[-1].guess)} in {n}."
            return f"I could not find it in {n}." if self.outcome == "lost" else f"Given up after {n}."
        if self.outcome == "won":
            return f"You broke the code in {n}!"
        secret = "" if self.secret is None else f": the code was {notation.format_code(self.secret)}"
        return ("Out of guesses" if self.outcome == "lost" else "You gave up") + secret + "."

    def closing_lines(self, notation: Notation | None = None) -> list[str]:
        """A finished game's closing words, for the one who played it: :meth:`summary`, and what
        helped (the hints a person asked to break the code); empty while it goes on.

        >>> game = Game.breaking(Rules(pegs=2, colors=2), seed=1)
        >>> _ = game.hint(); _ = [game.guess(code) for code in ("11", "12", "21", "22") if not game.over]
        >>> game.closing_lines()
        ['You broke the code in 2 guesses!', 'With 1 hint.']
        """
        if not self.over:
            return []
        lines = [self.summary(notation)]
        if self.outcome == "won" and self.breaker is None and self.hints:
            lines.append(f"With {plural(self.hints, 'hint')}.")
        return lines

    @property
    def history(self) -> list[tuple[Code, Feedback]]:
        return [(m.guess, m.reply) for m in self.moves]

    def told(self, number: int) -> list[tuple[Code, Feedback]]:
        """The rows before guess ``number`` with the replies they had when it was made: a reply
        fixed later (:attr:`Move.fixed`) is the one the guess was made knowing.

        >>> game = Game.solving(Rules(pegs=2, colors=3))
        >>> _ = game.reply("1,0"), game.reply("0,0")
        >>> _ = game.fix(1, "0,1"); game.told(2)[0][1], game.told(3)[0][1]
        (Feedback(black=1, white=0), Feedback(black=0, white=1))
        """
        rows = []
        for m in self.moves[: number - 1]:
            reply = m.reply
            for was, turn in reversed(m.fixed):
                if number < turn:
                    reply = was
            rows.append((m.guess, reply))
        return rows

    def candidates(self) -> int | None:
        """How many codes fit every reply so far (None when the game is too large to count them)."""
        if not self.space.enumerable or self.problem is not None:
            return None
        return len(SolverState(self.rules, self.history).candidate_indices())

    def repeat_of(self, guess: CodeLike) -> int | None:
        """The row (1-based) where ``guess`` was played already, or None: a front end may warn
        before a repeated guess costs a turn (it is allowed). None where hard mode refuses it
        (:meth:`check_hard`: a guess played and not won cannot be the secret), so the refusal is
        said at once rather than after an offer to play it anyway."""
        code = self._code(guess)
        for row, move in enumerate(self.moves, 1):
            if move.guess == code:
                try:
                    self.check_hard(code)
                except GameError:
                    return None
                return row
        return None

    def inconsistency(self, guess: CodeLike) -> Inconsistency | None:
        """The first reply of this game that ``guess`` contradicts (it cannot be the secret), or
        None: see :func:`inconsistency`."""
        return inconsistency(self.history, self._code(guess))

    def warning(
        self, guess: CodeLike, inconsistent: bool = False, notation: Notation | None = None
    ) -> str | None:
        """What a person is told before ``guess`` is played, or None: the one rule every front end
        asks, so that none words it or orders it its own way. First a guess played already
        (:meth:`repeat_of`), then, where the player asked for it (``inconsistent``: the setting
        ``warn_inconsistent``), a guess that cannot be the secret (:meth:`inconsistency`). Both are
        legal: the front end plays the guess when the person confirms it, and adds how (its own
        keys). Hard mode warns of neither: it refuses them (:meth:`check_hard`). Codes are written
        in ``notation`` (the game's own by default).

        >>> game = Game.breaking(Rules(), seed=2026)
        >>> _ = game.guess("1122")  # 1 black, 1 white
        >>> game.warning("1122")
        'You played 1122 already (row 1): it would get the same reply'
        >>> game.warning("3456") is None, game.warning("3456", inconsistent=True)  # doctest: +ELLIPSIS
        (True, '3456 cannot be the secret: guess 1, 1122, got 1 black, 1 white, and would have got 0 ...')
        """
        notation = notation or self.notation
        code = self._code(guess)
        row = self.repeat_of(code)
        if row is not None:  # said first: "played already" says more than "cannot be the secret"
            return f"You played {notation.format_code(code)} already (row {row}): it would get the same reply"
        clash = self.inconsistency(code) if inconsistent and not self.hard else None
        return None if clash is None else clash.warning(code, notation)

    def check_hard(self, guess: CodeLike) -> None:
        """Hard mode's rule: raise GameError, in words that name the reply it contradicts, when
        ``guess`` cannot be the secret; nothing outside hard mode, nor for a strategy breaking (it
        plays what its criterion picks). The same rule as the warning of :meth:`inconsistency`,
        made a refusal.

        >>> game = Game.breaking(Rules(), seed=2026, hard=True)
        >>> _ = game.guess("1122")  # 1 black, 1 white
        >>> game.guess("3456")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        mastermind.errors.GameError: hard mode: 3456 cannot be the secret: guess 1, 1122, got 1 black, ...
        """
        if not self.hard or self.breaker is not None:
            return
        code = self._code(guess)
        clash = inconsistency(self.history, code)
        if clash is not None:
            raise GameError(f"hard mode: {clash.warning(code, self.notation)}")

    @property
    def problem(self) -> Problem | None:
        """The contradiction in the replies, if there is one (never when the program holds the secret)."""
        if self.secret is not None or not self.moves:
            return None
        if not self.space.enumerable:
            return self._strategy_problem
        key = tuple(self.moves)
        if key not in self._problems:  # read several times a move: diagnosed once per history
            self._problems = {key: problem_of(self.rules, self.history, self.notation)}
        return self._problems[key]

    # -- the breaker's side ------------------------------------------------------------------------

    def player(self) -> Strategy:
        """The strategy of this game (the breaker, or the one that gives hints), made once. A hint
        strategy that cannot play the game gives way to another
        (:func:`~mastermind.games.hints.hint_strategy`): a person breaking a code too large for it
        still gets hints (:attr:`Hint.instead_of`)."""
        if self._player is None:
            if self.breaker is not None:  # the breaker is the one named: no other plays for it
                player = make_strategy(self.strategy_name, self.rules, first=self.first)
            else:
                player = hint_strategy(self.strategy_name, self.rules, self.first)
            self._player = self._own(player)
        return self._player

    def _own(self, player: Strategy) -> Strategy:
        """``player`` made ready for this game: of the same game, with the game's generator."""
        if CodeSpace.of(player.rules) is not self.space:
            raise StrategyError(
                f"the strategy {player.name} was made for {player.rules.describe()}; "
                f"this game is {self.rules.describe()}"
            )
        player.new_game(generator(self.seed))
        return player

    def proposal(self) -> Code:
        """The strategy's next guess from what is known now.

        Raises:
            ContradictionError: the strategy finds no code that fits (games too large to list);
                :attr:`problem` then describes it.
        """
        self._check_open()
        if self.space.enumerable and self.problem is not None:
            raise GameError("the replies contradict each other: fix a row or undo first")
        key = tuple(self.moves)
        if key not in self._proposals:
            state = SolverState(self.rules, self.history)
            try:
                index = self.player().choose(state)
            except ContradictionError as err:
                if not self.moves:
                    raise
                self._strategy_problem = Problem(err.rows, (), str(err))
                raise
            self._proposals[key] = self.space.code(index)
        return self._proposals[key]

    def hint(self) -> Hint:
        """The hint strategy's guess and the number of codes left; counted in the record.

        On the last guess only a code still possible can win, and in hard mode only one may be
        played: where the strategy's guess is not one, the strategy's own choice among the codes
        still possible is hinted instead (:meth:`~mastermind.strategies.Strategy.pick_possible`;
        :attr:`Hint.passed_over` keeps the guess passed over).
        """
        guess = self.proposal()
        passed_over = None
        only_possible = self.guesses_left == 1 or (self.hard and self.breaker is None)
        if only_possible and self.inconsistency(guess) is not None:
            possible = self.player().pick_possible(SolverState(self.rules, self.history))
            if possible is not None:
                passed_over, guess = guess, self.space.code(possible)
        self.hints += 1
        self.assists.append(Assist("hint", self.turn, guess))
        hint = Hint.of(self.player().name, guess, self.candidates(), asked=self.strategy_name)
        return replace(hint, passed_over=passed_over, hard=passed_over is not None and self.guesses_left > 1)

    @property
    def helped(self) -> bool:
        """Whether the breaker had help: a hint, or a guess taken back (a person's game only)."""
        return self.hints > 0 or any(a.kind == "undo" for a in self.assists)

    def guess(self, code: CodeLike) -> Move | None:
        """Play ``code``. With the secret known, the reply is given at once and the row returned;
        otherwise the guess waits for :meth:`reply` and None is returned."""
        self._check_open()
        if self.pending is not None:
            raise GameError(f"guess {self.turn} is waiting for its reply")
        guess = self._code(code)
        self.check_hard(guess)
        if self.secret is None:
            self.pending = guess
            return None
        move = Move(guess, score(guess.colors, self.secret.colors))
        self.moves.append(move)
        return move

    # -- the codemaker's side ----------------------------------------------------------------------

    def reply(self, reply: Feedback | str) -> Move:
        """The codemaker's reply to the waiting guess (the strategy's proposal if none is waiting)."""
        if self.secret is not None:
            raise GameError("the computer scores this game itself")
        self._check_open()
        fb = self._reply(reply)
        guess = self.pending if self.pending is not None else self.proposal()
        move = Move(guess, fb)
        self.moves.append(move)
        self.pending = None
        return move

    def fix(self, row: int, reply: Feedback | str) -> Move:
        """Correct the reply of ``row`` (1-based). Only the last row can be fixed to the all-black
        reply (the game is then won): a row with rows after it was not the secret, or the codemaker
        would not have replied to the guesses after it; undo them first. No row is ever dropped."""
        if self.secret is not None:
            raise GameError("the computer scores this game itself: there is no reply to fix")
        if self.kind == "match":  # (the board game's rule: wrong information is played again, and costs)
            raise GameError(NOT_FIXED_IN_A_MATCH)
        if self.gave_up:
            raise GameError("the game is over")
        if not 1 <= row <= len(self.moves):
            rows = f"1 to {len(self.moves)}" if self.moves else "none yet"
            raise GameError(f"there is no row {row} (rows: {rows})")
        fb = self._reply(reply)
        if fb.black == self.rules.pegs and row < len(self.moves):
            raise GameError(
                f"row {row} cannot be all black: you replied to guesses after it (undo them first)"
            )
        old = self.moves[row - 1]
        fixed = old.fixed if fb == old.reply else (*old.fixed, (old.reply, self.turn))
        move = Move(old.guess, fb, fixed)
        self.moves[row - 1] = move
        self.pending = None
        self._strategy_problem = None
        return move

    def correct(self, correction: Correction) -> Move:
        """Take one of :attr:`problem`'s corrections (its ``row`` counts from 0, as the history's
        rows do; :meth:`fix` counts from 1, as people do).

        >>> game = Game.solving(Rules(), seed=1)
        >>> for reply in ["1,0", "0,1", "1,2", "1,2", "0,2"]:
        ...     _ = game.reply(reply)
        >>> str(game.problem.corrections[0]), str(game.correct(game.problem.corrections[0]).reply)
        ('row 4 to 1,1 (1 code would fit)', '1,1')
        """
        return self.fix(correction.row + 1, correction.reply)

    # -- either side -------------------------------------------------------------------------------

    def undo(self) -> Move:
        """Take back the last row (and any guess waiting for its reply); never once the game is over
        (won, lost or given up): its result stands."""
        if self.over:
            why = _OUTCOME_WORDS[self.outcome]
            raise GameError(f"the game is over ({why}): its rows cannot be taken back")
        if not self.moves:
            raise GameError("nothing to undo")
        self.pending = None
        self._strategy_problem = None
        move = self.moves.pop()
        turn = len(self.moves) + 1
        self.assists.append(Assist("undo", turn, move.guess, move.reply))
        # a fix made after the guess taken back comes before the guess that will take its place
        self.moves = [replace(m, fixed=tuple((was, min(t, turn)) for was, t in m.fixed)) for m in self.moves]
        return move

    def withdraw(self) -> Code:
        """Take back the guess that waits for the codemaker's reply (a person's, before it is
        answered); the rows stay as they are."""
        if self.pending is None:
            raise GameError("no guess is waiting for its reply")
        guess, self.pending = self.pending, None
        return guess

    def give_up(self) -> None:
        """The breaker stops; the game is over (never one that is over already: its result stands)."""
        self._check_open()
        self.gave_up = True
        self.pending = None

    # -- records -----------------------------------------------------------------------------------

    def record(self) -> dict[str, Any]:
        """The game as a plain, versioned dict (see :mod:`mastermind.games.game_record`)."""
        from .game_record import game_record

        return game_record(self)

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> Game:
        """The game a record describes, ready to go on from where it stopped."""
        from .game_record import game_from_record

        return game_from_record(record, cls)

    # -- helpers -----------------------------------------------------------------------------------

    def _check_open(self) -> None:
        if self.over:
            raise GameError(f"the game is over ({self.outcome})")

    def _code(self, code: CodeLike) -> Code:
        return as_code(code, self.rules)

    def _reply(self, reply: Feedback | str) -> Feedback:
        if isinstance(reply, str):
            return self.notation.parse_feedback(reply)
        from ..core.notation import check_feedback

        check_feedback(reply, self.rules)
        return Feedback(*reply)

    def __repr__(self) -> str:
        breaker = "a person" if self.breaker is None else self.breaker
        moves = plural(len(self.moves), "move")
        return f"<Game {self.kind} {self.rules!r}, {breaker} breaking: {moves}, {self.outcome}>"

    def __str__(self) -> str:
        """The board as text: a row per guess, its reply in words, then what the game waits for.

        >>> game = Game.breaking(Rules(), seed=2026)
        >>> _ = game.guess("1122"), game.guess("1344")
        >>> print(game)
        4 pegs, 6 colours, repeats allowed, 10 guesses
          1  1122  1 black, 1 white
          2  1344  1 black, 1 white
        guess 3 of 10
        """
        terms = self.notation.terms
        lines = [str(self.rules)]
        for row, move in enumerate(self.moves, 1):
            lines.append(f"{row:>3}  {self.notation.format_code(move.guess)}  {terms.reply(move.reply)}")
        if self.pending is not None:
            pending = self.notation.format_code(self.pending)
            lines.append(f"{self.turn:>3}  {pending}  (waiting for its reply)")
        status = self._status()
        return "\n".join([*lines, status] if status else lines)

    def _repr_html_(self) -> str:
        """The board in a notebook: coloured pegs with their symbols, key pegs, the rows that
        contradict each other in red."""
        from ..core.display import board

        rows: list[tuple[tuple[int, ...], Feedback | None]] = [(m.guess.colors, m.reply) for m in self.moves]
        if self.pending is not None:
            rows.append((self.pending.colors, None))
        marked = self.problem.rows if self.problem is not None else ()
        return board(self.notation, rows, str(self.rules), self._status(), marked)

    def _status(self) -> str:
        """What the game waits for, or how it ended, in words ("" while a reply is awaited)."""
        waiting = self.waiting_for
        if waiting is None:
            return self.summary()
        if waiting == "fix":
            return self.problem.message if self.problem else "the replies contradict each other"
        if waiting == "reply":
            return ""
        return f"guess {self.turn} of {self.rules.max_guesses}"
