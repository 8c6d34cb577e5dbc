"""The engine of play: a code being broken, the computer breaking yours, and matches.

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
import secrets as _secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from ..core.code import Code, CodeSpace
from ..core.feedback import Feedback, score
from ..core.notation import Notation
from ..core.records import (
    RECORD_VERSION,
    check_version,
    code_from_text,
    code_text,
    reply_from_text,
    reply_text,
    rules_from_dict,
    rules_to_dict,
)
from ..core.rules import Rules
from ..core.seeds import check_seed, generator
from ..core.text import quote
from ..errors import ContradictionError, GameError, RecordError
from ..solver.state import Correction, SolverState, diagnose, smallest_contradiction, suggest_corrections
from ..strategies import Strategy, find_strategy, make_strategy

Outcome = Literal["playing", "won", "lost", "gave-up"]

#: A finished game's outcome in words, for messages.
_OUTCOME_WORDS = {"won": "the code was broken", "lost": "no guesses are left", "gave-up": "it was given up"}

#: The strategy that gives hints unless another is named.
DEFAULT_STRATEGY = "knuth"


def fresh_seed() -> int:
    """A new random seed, to be reported so that the game or run can be repeated."""
    return _secrets.randbelow(2**31)


@dataclass(frozen=True)
class Move:
    """One row of the board: a guess and the reply it got."""

    guess: Code
    reply: Feedback


@dataclass(frozen=True)
class Hint:
    """What a strategy would play, and how many codes are still possible (None: too many to count)."""

    strategy: str
    guess: Code
    candidates: int | None


@dataclass(frozen=True)
class Problem:
    """Replies that contradict each other.

    Attributes:
        rows: 0-based rows of a smallest set that cannot all be true.
        corrections: every single reply that, written differently, makes the history consistent.
        message: one paragraph for people, naming the rows and the corrections.
    """

    rows: tuple[int, ...]
    corrections: tuple[Correction, ...]
    message: str


class Game:
    """One game: a breaker (a person, or a strategy) tries to find a code.

    Either the secret is known to the engine, which then scores every guess as a referee, or it
    is in the codemaker's head and the codemaker types each reply: then the engine checks the
    replies as they come and reports a :class:`Problem` as soon as they contradict each other.

    Use :meth:`breaking` for a person breaking the computer's code and :meth:`solving` for the
    computer breaking a person's.

    Args:
        rules: the game.
        secret: the code to find, or None when the codemaker replies by hand.
        breaker: the strategy that guesses, or None when a person does.
        strategy: the strategy that gives hints (and guesses, if it is the breaker).
        first: overrides the strategy's first guess.
        seed: the seed of the secret and of a randomised strategy; drawn if None, and kept.
        kind: what the record calls the game ("play", "guess", or "match" for a game of a match).
    """

    def __init__(
        self,
        rules: Rules,
        *,
        secret: Code | str | None = None,
        breaker: str | None = None,
        strategy: str = DEFAULT_STRATEGY,
        first: Code | str | None = None,
        seed: int | None = None,
        kind: str | None = None,
    ) -> None:
        self.rules = rules
        self.notation = Notation(rules)
        self.space = CodeSpace.of(rules)
        self.seed = fresh_seed() if check_seed(seed) is None else seed
        self.strategy_name = find_strategy(breaker or strategy).name  # unknown names: refused now
        self.breaker = None if breaker is None else self.strategy_name
        self.first = self._code(first) if first is not None else None
        self.secret = self._code(secret) if secret is not None else None
        self.kind = kind or ("play" if self.breaker is None else "guess")
        self.moves: list[Move] = []
        self.pending: Code | None = None  # a guess that waits for the codemaker's reply
        self.hints = 0
        self.gave_up = False
        self._player: Strategy | None = None
        self._proposals: dict[tuple[Move, ...], Code] = {}
        self._strategy_problem: Problem | None = None
        self._problems: dict[tuple[Move, ...], Problem | None] = {}
        if self.breaker is not None:
            self.player()  # a strategy that cannot play this game: refused before the game starts

    @classmethod
    def breaking(cls, rules: Rules, seed: int | None = None, strategy: str = DEFAULT_STRATEGY) -> Game:
        """A person breaks a secret the computer draws from ``seed``; ``strategy`` gives hints."""
        game = cls(rules, strategy=strategy, seed=seed, kind="play")
        game.secret = game.space.code(random.Random(game.seed).randrange(game.space.size))
        return game

    @classmethod
    def solving(
        cls,
        rules: Rules,
        strategy: str = DEFAULT_STRATEGY,
        secret: Code | str | None = None,
        first: Code | str | None = None,
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
        if self.moves and self.moves[-1].reply.black == self.rules.pegs:
            return "won"
        if len(self.moves) >= self.rules.max_guesses and self.problem is None:
            return "lost"
        return "playing"

    @property
    def over(self) -> bool:
        return self.outcome != "playing"

    @property
    def history(self) -> list[tuple[Code, Feedback]]:
        return [(m.guess, m.reply) for m in self.moves]

    def candidates(self) -> int | None:
        """How many codes fit every reply so far (None when the game is too large to count them)."""
        if not self.space.enumerable or self.problem is not None:
            return None
        return len(SolverState(self.rules, self.history).candidate_indices())

    def repeat_of(self, guess: Code | str) -> int | None:
        """The row (1-based) where ``guess`` was played already, or None: a front end may warn
        before a repeated guess costs a turn (it is allowed)."""
        code = self._code(guess)
        for row, move in enumerate(self.moves, 1):
            if move.guess == code:
                return row
        return None

    @property
    def problem(self) -> Problem | None:
        """The contradiction in the replies, if there is one (never when the engine holds the secret)."""
        if self.secret is not None or not self.moves:
            return None
        if not self.space.enumerable:
            return self._strategy_problem
        key = tuple(self.moves)
        if key not in self._problems:  # read several times a move: diagnosed once per history
            self._problems = {key: self._diagnose()}
        return self._problems[key]

    def _diagnose(self) -> Problem | None:
        history = self.history
        rows = smallest_contradiction(self.rules, history)
        if rows is None:
            return None
        message = diagnose(self.rules, history, self.notation) or ""
        return Problem(tuple(rows), tuple(suggest_corrections(self.rules, history)), message)

    # -- the breaker's side ------------------------------------------------------------------------

    def player(self) -> Strategy:
        """The strategy of this game (the breaker, or the one that gives hints), made once."""
        if self._player is None:
            self._player = make_strategy(self.strategy_name, self.rules, first=self.first)
            self._player.new_game(generator(self.seed))
        return self._player

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
        """The hint strategy's guess and the number of codes left; counted in the record."""
        guess = self.proposal()
        self.hints += 1
        return Hint(self.strategy_name, guess, self.candidates())

    def guess(self, code: Code | str) -> Move | None:
        """Play ``code``. With the secret known, the reply is given at once and the row returned;
        otherwise the guess waits for :meth:`reply` and None is returned."""
        self._check_open()
        if self.pending is not None:
            raise GameError(f"guess {self.turn} is waiting for its reply")
        guess = self._code(code)
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
        move = Move(self.moves[row - 1].guess, fb)
        self.moves[row - 1] = move
        self.pending = None
        self._strategy_problem = None
        return move

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
        return self.moves.pop()

    def withdraw(self) -> Code:
        """Take back the guess that waits for the codemaker's reply (a person's, before it is
        answered); the rows stay as they are."""
        if self.pending is None:
            raise GameError("no guess is waiting for its reply")
        guess, self.pending = self.pending, None
        return guess

    def give_up(self) -> None:
        self.gave_up = True
        self.pending = None

    # -- records -----------------------------------------------------------------------------------

    def record(self) -> dict[str, Any]:
        """The game as a plain, versioned dict (see :mod:`mastermind.core.records`)."""
        return {
            "version": RECORD_VERSION,
            "kind": self.kind,
            "rules": rules_to_dict(self.rules),
            "seed": self.seed,
            "players": {
                "breaker": self.breaker or "human",
                "maker": "computer" if self.kind == "play" else ("referee" if self.secret else "human"),
            },
            "strategy": self.strategy_name,
            "first": code_text(self.rules, self.first),
            "secret": code_text(self.rules, self.secret),
            "moves": [
                {"guess": code_text(self.rules, m.guess), "reply": reply_text(m.reply)} for m in self.moves
            ],
            "hints": self.hints,
            "outcome": self.outcome,
            "finished": self.over,
        }

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> Game:
        """The game a record describes, ready to go on from where it stopped."""
        check_version(record, ("play", "guess", "match"))
        try:
            rules = rules_from_dict(record["rules"])
            breaker = record["players"]["breaker"]
            game = cls(
                rules,
                secret=code_from_text(rules, record["secret"]),
                breaker=None if breaker == "human" else breaker,
                strategy=record["strategy"],
                first=code_from_text(rules, record.get("first")),
                seed=record["seed"],
                kind=record["kind"],
            )
            for move in record["moves"]:
                guess = code_from_text(rules, move["guess"])
                assert guess is not None
                game.moves.append(Move(guess, reply_from_text(rules, move["reply"])))
            game.hints = int(record.get("hints", 0))
            game.gave_up = record.get("outcome") == "gave-up"
        except (KeyError, TypeError, AssertionError) as err:
            raise RecordError(f"a game record is incomplete: {err!r}") from None
        if game.breaker is not None and not game.over and game.player().randomized:
            game._choose_again()
        return game

    def _choose_again(self) -> None:
        """A randomised breaker's choices made again, one per row, so that its generator is where
        it was when the game was stopped: the game goes on with the guesses it would have made."""
        player = self.player()
        for row in range(len(self.moves)):
            player.choose(SolverState(self.rules, self.history[:row]))

    # -- helpers -----------------------------------------------------------------------------------

    def _check_open(self) -> None:
        if self.over:
            raise GameError(f"the game is over ({self.outcome})")

    def _code(self, code: Code | str) -> Code:
        if isinstance(code, str):
            return self.notation.parse_code(code)
        self.space.check_code(code.colors)
        return code

    def _reply(self, reply: Feedback | str) -> Feedback:
        if isinstance(reply, str):
            return self.notation.parse_feedback(reply)
        from ..core.notation import check_feedback

        check_feedback(reply, self.rules)
        return Feedback(*reply)

    def __repr__(self) -> str:
        return f"<Game {self.kind} {self.rules!r}: {len(self.moves)} moves, {self.outcome}>"


# --- matches ---------------------------------------------------------------------------------------

#: The scoring rules of a match, by name: what each says.
SCORING_RULES: dict[str, str] = {
    "standard": "the codemaker scores one point per guess the breaker makes, plus one if the code "
    "is not broken by the last allowed guess; most points wins",
    "codebreaker": "the breaker scores one point per row of guesses; fewest points wins",
    "codemaker": "the codemaker scores one point per row not showing the code; most points wins",
}

#: Points for showing that the codemaker's replies contradict each other (the game is replayed).
WRONG_INFORMATION_POINTS = 3

#: The most games a match may have (a strategy tournament of this many takes minutes).
MAX_MATCH_GAMES = 10_000

#: How a computer codemaker chooses its secret.
CODEMAKERS = ("random", "hardest")

Waiting = Literal["secret", "guess", "reply", "computer"]


@dataclass
class Round:
    """One game of a match: who makes the code, who breaks it, and what it scored."""

    number: int
    maker: int  # player number, 1 or 2
    breaker: int
    game: Game | None = None
    replayed: int = 0
    points: list[int] | None = None  # set when the game is over
    referee: bool = True  # whether the engine holds the secret (False: the maker replies by hand)


@dataclass(frozen=True)
class Event:
    """Something that happened in a match, for a front end to show.

    kind: "secret" (a codemaker chose), "move", "undone" (the breaker's guess taken back before
    its reply: ``move`` is None, ``row`` its row), "replayed" (wrong
    information: the game starts again), "round-over" or "match-over".
    """

    kind: str
    round: Round
    move: Move | None = None
    row: int = 0  # the move's row (1-based)
    problem: Problem | None = None


class Match:
    """An even number of games between two players, the roles alternating, scored by a rule.

    Player 1 makes the code in game 1 and player 2 breaks it; then they swap. A player is
    ``"human"`` or a strategy name. A computer codemaker draws a secret uniformly at random
    from ``seed``, or with ``codemaker="hardest"`` picks a secret that costs the breaker's
    strategy the most guesses (against a person or a randomised strategy: the hint strategy's).
    A human codemaker gives the referee a secret, or types every reply; if the breaker's
    guesses show that the replies contradict each other, the game is replayed and the breaker
    gets three points (under the codebreaker's score, where fewest points wins, the three
    points go to the codemaker instead, so wrong information always costs the one who gave it).
    A breaker who gives up is scored as if every allowed guess was used without breaking the code.

    A front end asks :attr:`waiting_for` and calls the matching method: :meth:`set_secret`,
    :meth:`guess`, :meth:`reply` or :meth:`advance` (a computer's move); each returns the events.
    A person's guess still waiting for its reply may be taken back with :meth:`undo`; a replied
    guess stands.
    """

    def __init__(
        self,
        rules: Rules,
        players: Sequence[str],
        games: int = 2,
        scoring: str = "standard",
        seed: int | None = None,
        codemaker: str = "random",
        strategy: str = DEFAULT_STRATEGY,
    ) -> None:
        if len(players) != 2:
            raise GameError(f"a match has two players, not {len(players)}")
        if games < 2:
            raise GameError(f"a match has at least 2 games (each player makes a code), not {games}")
        if games > MAX_MATCH_GAMES:
            raise GameError(f"a match has at most {MAX_MATCH_GAMES:,} games, not {quote(games)}")
        if games % 2:
            raise GameError(f"a match has an even number of games (each makes as many codes), not {games}")
        if scoring not in SCORING_RULES:
            raise GameError(f"unknown scoring rule {scoring!r}; choose one of: {', '.join(SCORING_RULES)}")
        if codemaker not in CODEMAKERS:
            raise GameError(f"unknown codemaker {codemaker!r}; choose one of: {', '.join(CODEMAKERS)}")
        check_seed(seed)
        self.rules = rules
        self.players = [_player_name(p) for p in players]
        self.games = games
        self.scoring = scoring
        self.codemaker = codemaker
        self.strategy = find_strategy(strategy).name
        self.seed = fresh_seed() if seed is None else seed
        self.rounds: list[Round] = [Round(1, maker=1, breaker=2)]
        self._rng = random.Random(self.seed)
        self._depths: dict[str, np.ndarray] = {}
        for name in self.players:
            if name != "human":
                make_strategy(name, rules)  # a strategy that cannot play this game: refused now

    # -- state -------------------------------------------------------------------------------------

    @property
    def current(self) -> Round:
        return self.rounds[-1]

    @property
    def over(self) -> bool:
        return len(self.rounds) == self.games and self.current.points is not None

    @property
    def waiting_for(self) -> Waiting | None:
        """What the match needs next, or None when it is over."""
        if self.over:
            return None
        r = self.current
        if r.game is None:
            return "secret" if self.is_human(r.maker) else "computer"
        if r.game.pending is not None:
            return "reply"
        return "guess" if self.is_human(r.breaker) else "computer"

    def is_human(self, player: int) -> bool:
        return self.players[player - 1] == "human"

    @property
    def score(self) -> list[int]:
        totals = [0, 0]
        for r in self.rounds:
            if r.points:
                totals = [a + b for a, b in zip(totals, r.points, strict=True)]
        return totals

    @property
    def standing(self) -> list[int]:
        """The score as it stands now: :attr:`score`, plus the points for wrong information already
        given in the game being replayed (the engine adds them to that game's points when it ends).
        """
        totals = self.score
        r = self.current
        if not self.over and r.points is None and r.replayed:
            totals[self.penalty_to(r) - 1] += WRONG_INFORMATION_POINTS * r.replayed
        return totals

    @property
    def winner(self) -> int | None:
        """1 or 2 by the scoring rule (most points, or fewest for the codebreaker's score); None on a tie."""
        a, b = self.score
        if a == b:
            return None
        fewest = self.scoring == "codebreaker"
        return 1 if (a < b) == fewest else 2

    # -- moves -------------------------------------------------------------------------------------

    def set_secret(self, secret: Code | str | None) -> list[Event]:
        """A human codemaker's choice: a secret for the referee to score, or None to reply by hand."""
        if self.waiting_for != "secret":
            raise GameError("no codemaker is choosing a secret now")
        return self._start(secret, referee=secret is not None)

    def guess(self, code: Code | str) -> list[Event]:
        """A human breaker's guess."""
        if self.waiting_for != "guess":
            raise GameError("it is not a person's turn to guess")
        game = self._game()
        move = game.guess(code)
        return self._after(move)

    def reply(self, reply: Feedback | str) -> list[Event]:
        """A human codemaker's reply to the waiting guess."""
        if self.waiting_for != "reply":
            raise GameError("no guess is waiting for a reply")
        return self._after(self._game().reply(reply))

    def give_up(self) -> list[Event]:
        """The breaker gives up the current game."""
        game = self._game()
        game.give_up()
        return self._after(None)

    def undo(self) -> list[Event]:
        """Take back a person's guess that still waits for the codemaker's reply: no information
        was given for it (at the reply prompt of a person-against-person match it is the codemaker
        who withdraws it). A guess that has had its reply stands: the breaker has seen the reply,
        and taking the row back would let them see replies the score never counts. A finished
        game stands too, and a strategy's guesses are never taken back (nor a reply given to one:
        a wrong reply is wrong information, and the game is replayed when the guesses show it)."""
        if self.over:
            raise GameError("the match is over: its games stand")
        r = self.current
        game = r.game
        if game is None or (not game.moves and game.pending is None):
            if r.number > 1:
                raise GameError(f"game {r.number - 1} is over and game {r.number} has no guess yet: "
                                "nothing to undo")  # fmt: skip
            raise GameError("nothing to undo: no guess yet")
        if not self.is_human(r.breaker):
            raise GameError(f"{self.players[r.breaker - 1]} breaks this code: a strategy's guesses "
                            "are not taken back, nor the replies given to them")  # fmt: skip
        if game.pending is None:
            raise GameError(f"guess {len(game.moves)} has had its reply: in a match a replied guess stands")
        row = game.turn
        game.withdraw()
        return [Event("undone", r, row=row)]

    def advance(self) -> list[Event]:
        """One move of a computer: a computer codemaker's secret, or a computer breaker's guess."""
        if self.waiting_for != "computer":
            raise GameError("it is not a computer's turn")
        r = self.current
        if r.game is None:
            return self._start(self._computer_secret(r), referee=True)
        game = r.game
        try:
            move = game.guess(game.proposal())
        except ContradictionError:
            return self._replay()
        return self._after(move)

    def play_out(self) -> list[Event]:
        """Every computer move until a person must act or the match is over."""
        events: list[Event] = []
        while self.waiting_for == "computer":
            events += self.advance()
        return events

    # -- records -----------------------------------------------------------------------------------

    def record(self) -> dict[str, Any]:
        """The match as a plain, versioned dict: players, scoring, each game, the score, the winner."""
        games = []
        for r in self.rounds:
            if r.game is None:
                continue
            g = r.game
            games.append({
                "number": r.number,
                "maker": r.maker,
                "breaker": r.breaker,
                "secret": code_text(self.rules, g.secret),
                "referee": r.referee,
                "guesses": len(g.moves),
                "broken": g.outcome == "won",
                "replayed": r.replayed,
                "points": r.points,
                "finished": r.points is not None,
                "game": g.record(),
            })  # fmt: skip
        return {
            "version": RECORD_VERSION,
            "kind": "match",
            "rules": rules_to_dict(self.rules),
            "seed": self.seed,
            "players": list(self.players),
            "scoring": self.scoring,
            "codemaker": self.codemaker,
            "strategy": self.strategy,
            "games_planned": self.games,
            "games": games,
            "score": self.score,
            "winner": self.winner if self.over else None,
            "finished": self.over,
        }

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> Match:
        """The match a record describes (finished games and the one in progress)."""
        check_version(record, "match")
        try:
            match = cls(
                rules_from_dict(record["rules"]),
                record["players"],
                record["games_planned"],
                record["scoring"],
                record["seed"],
                record["codemaker"],
                record["strategy"],
            )
            match.rounds = []
            for g in record["games"]:
                game = Game.from_record(g["game"])
                r = Round(g["number"], g["maker"], g["breaker"], game, g["replayed"], g["points"])
                r.referee = g["referee"]
                match.rounds.append(r)
                match._draw_again(r)
            if not match.rounds:
                match.rounds = [Round(1, maker=1, breaker=2)]
            elif match.current.points is not None and len(match.rounds) < match.games:
                match._next_round()
        except (KeyError, TypeError, ValueError) as err:
            if isinstance(err, RecordError):
                raise
            raise RecordError(f"a match record is incomplete: {err!r}") from None
        return match

    # -- the rules of a match ----------------------------------------------------------------------

    def _game(self) -> Game:
        game = self.current.game
        if game is None:
            raise GameError("the game has not started: the codemaker has not chosen yet")
        return game

    def _start(self, secret: Code | str | None, referee: bool) -> list[Event]:
        r = self.current
        r.referee = referee
        r.game = self._new_game(r, secret)
        return [Event("secret", r)]

    def _new_game(self, r: Round, secret: Code | str | None) -> Game:
        breaker = self.players[r.breaker - 1]
        return Game(
            self.rules,
            secret=secret,
            breaker=None if breaker == "human" else breaker,
            strategy=self.strategy,
            seed=self._rng.randrange(2**31),
            kind="match",
        )

    def _draw_again(self, r: Round) -> None:
        """Draw again what round ``r`` drew from the match's generator (a computer's secret, then a
        seed for each game, replays included), so that a match read back from its record draws
        next what it would have drawn had it never stopped."""
        if not self.is_human(r.maker):
            self._computer_secret(r)
        for _ in range(1 + r.replayed):
            self._rng.randrange(2**31)

    def _computer_secret(self, r: Round) -> Code:
        space = CodeSpace.of(self.rules)
        if self.codemaker == "random":
            return space.code(self._rng.randrange(space.size))
        breaker = self.players[r.breaker - 1]
        model = breaker if breaker != "human" and not find_strategy(breaker).randomized else self.strategy
        if model not in self._depths:
            from ..research.evaluation import guesses_per_secret

            self._depths[model] = guesses_per_secret(make_strategy(model, self.rules))
        depths = self._depths[model]
        hardest = np.flatnonzero(depths == depths.max())
        return space.code(int(hardest[self._rng.randrange(len(hardest))]))

    def _after(self, move: Move | None) -> list[Event]:
        r = self.current
        game = self._game()
        events = [Event("move", r, move=move, row=len(game.moves))] if move is not None else []
        if game.problem is not None:
            return events + self._replay()
        if game.over:
            r.points = self._points(r)
            events.append(Event("round-over", r))
            if len(self.rounds) == self.games:
                events.append(Event("match-over", r))
            else:
                self._next_round()
        return events

    def _replay(self) -> list[Event]:
        r = self.current
        problem = self._game().problem
        r.replayed += 1
        r.game = self._new_game(r, None)
        return [Event("replayed", r, problem=problem)]

    def _next_round(self) -> None:
        r = self.current
        self.rounds.append(Round(r.number + 1, maker=r.breaker, breaker=r.maker))

    def _points(self, r: Round) -> list[int]:
        game = self._game()
        broken = game.outcome == "won"
        rows = len(game.moves) if game.outcome != "gave-up" else self.rules.max_guesses
        maker = breaker = 0
        if self.scoring == "standard":
            maker = rows + (0 if broken else 1)
        elif self.scoring == "codemaker":
            maker = rows - (1 if broken else 0)
        else:
            breaker = rows
        points = [0, 0]
        points[r.maker - 1] += maker
        points[r.breaker - 1] += breaker
        points[self.penalty_to(r) - 1] += WRONG_INFORMATION_POINTS * r.replayed
        return points

    def penalty_to(self, r: Round) -> int:
        """Who gets the points for wrong information: the breaker, or under the codebreaker's score
        (fewest points wins) the codemaker."""
        return r.maker if self.scoring == "codebreaker" else r.breaker


def _player_name(name: str) -> str:
    """``human``, or a registered strategy's own name (an unknown one is refused)."""
    key = name.strip().lower()
    return key if key == "human" else find_strategy(name).name


__all__ = ["CODEMAKERS", "SCORING_RULES", "Event", "Game", "Hint", "Match", "Move", "Problem", "Round"]
