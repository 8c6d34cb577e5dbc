"""Matches: an even number of games between two players, the roles alternating, scored by a rule.

The board game's scoring (the codemaker scores a point per guess; wrong information costs three
points) is decided here, once, for every front end.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from ..core.code import Code, CodeSpace
from ..core.feedback import Feedback
from ..core.notation import Notation
from ..core.records import RECORD_VERSION, check_version, code_text, rules_from_dict, rules_to_dict
from ..core.rules import Rules
from ..core.seeds import check_seed, fresh_seed
from ..core.text import number, plural, quote
from ..errors import ContradictionError, GameError, RecordError, StrategyError, UnknownStrategyError
from ..strategies import find_strategy, make_strategy
from ..strategies.base import Strategy
from .game import DEFAULT_STRATEGY, Game, Hint
from .game_record import SEED_BOUND, whole
from .moves import Move, Problem
from .scoring import CODEMAKERS, MAX_MATCH_GAMES, SCORING_RULES, WRONG_INFORMATION_POINTS

if TYPE_CHECKING:
    from .advice import Advice

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
    referee: bool = True  # whether the program holds the secret (False: the maker replies by hand)
    #: The games given up for wrong information, in order, with the rows that showed it: the
    #: guesses and replies stay in the record, so the history can show what was replayed and why.
    replays: list[Game] = field(default_factory=list)

    def summary(self) -> str:
        """How the game went, in a few words for the match's text (:meth:`Match.__str__`): 'broken
        in 5 guesses', 'not broken (the secret was 1234)'. A front end says a finished game with
        :func:`~.words.round_text`."""
        game = self.game
        if game is None:
            return "not started"
        if game.outcome == "won":
            return f"broken in {plural(len(game.moves), 'guess', 'guesses')}"
        if game.secret is not None:
            return f"not broken (the secret was {game.notation.format_code(game.secret)})"
        return "not broken"


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
    ``"human"``, a strategy's name or a :class:`Strategy` of this game (your own, say: it plays
    every game it breaks; a record keeps its name). A computer codemaker draws a secret uniformly at random
    from ``seed``, or with ``codemaker="hardest"`` picks a secret that costs the breaker's
    strategy the most guesses (against a person or a randomised strategy: the hint strategy's).
    A human codemaker gives the referee a secret, or types every reply; if the breaker's
    guesses show that the replies contradict each other, the game is replayed and the breaker
    gets three points (under the codebreaker's score, where fewest points wins, the three
    points go to the codemaker instead, so wrong information always costs the one who gave it).
    A breaker who gives up is scored as if every allowed guess was used without breaking the code.
    With ``hard``, every person breaking a code in the match is held to hard mode: a guess that
    cannot be the secret is refused, in the games' words (``Game.check_hard``; a strategy
    breaking plays what its criterion picks).

    A front end asks :attr:`waiting_for` and calls the matching method: :meth:`set_secret`,
    :meth:`guess`, :meth:`reply` or :meth:`advance` (a computer's move); each returns the events.
    A person's guess still waiting for its reply may be taken back with :meth:`undo`; a replied
    guess stands.
    """

    def __init__(
        self,
        rules: Rules,
        players: Sequence[str | Strategy],
        games: int = 2,
        scoring: str = "standard",
        seed: int | None = None,
        codemaker: str = "random",
        strategy: str = DEFAULT_STRATEGY,
        hard: bool = False,
    ) -> None:
        if len(players) != 2:
            raise GameError(f"a match has two players, not {len(players)}")
        if games < 2:
            raise GameError(f"a match has at least 2 games (each player makes a code), not {number(games)}")
        if games > MAX_MATCH_GAMES:
            raise GameError(f"a match has at most {MAX_MATCH_GAMES:,} games, not {number(games)}")
        if games % 2:
            raise GameError(
                f"a match has an even number of games (each makes as many codes), not {number(games)}"
            )
        if scoring not in SCORING_RULES:
            raise GameError(f"unknown scoring rule {scoring!r}; choose one of: {', '.join(SCORING_RULES)}")
        if codemaker not in CODEMAKERS:
            raise GameError(f"unknown codemaker {codemaker!r}; choose one of: {', '.join(CODEMAKERS)}")
        check_seed(seed)
        self.rules = rules
        self.players = [_player_name(n, p, rules) for n, p in enumerate(players, 1)]
        #: The players given as strategies, by player number (1 or 2); the others are made by name.
        self._agents = {n: p for n, p in enumerate(players, 1) if isinstance(p, Strategy)}
        self.games = games
        self.scoring = scoring
        self.codemaker = codemaker
        self.strategy = find_strategy(strategy).name
        #: Hard mode for every person breaking a code in the match: each game is made with it.
        self.hard = hard
        self.seed = fresh_seed() if seed is None else seed
        self.rounds: list[Round] = [Round(1, maker=1, breaker=2)]
        self._rng = random.Random(self.seed)
        self._depths: dict[str, np.ndarray] = {}
        self._walkers: dict[str, Strategy] = {}  # the strategies whose trees the hardest secrets walk
        self._redraw: list[Round] = []  # rounds read from a record whose draws are not yet made again
        for n, name in enumerate(self.players, 1):
            if name != "human" and n not in self._agents:
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
        given in the game being replayed (they are added to that game's points when it ends).
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

    def __repr__(self) -> str:
        a, b = self.players
        state = "over" if self.over else f"game {len(self.rounds)} of {self.games}"
        score = "-".join(str(n) for n in self.standing)
        return f"<Match {a} v {b}, {self.rules!r}, {self.scoring}: {state}, score {score}>"

    def __str__(self) -> str:
        """The match so far: each game's maker, breaker and outcome, then the score.

        >>> match = Match(Rules(), ("knuth", "most-parts"), seed=7)
        >>> _ = match.play_out()
        >>> print(match)
        A match of 2 games, 4 pegs, 6 colours, repeats allowed, 10 guesses, scoring standard
        game 1: player 1 (knuth) makes, player 2 (most-parts) breaks: broken in 5 guesses; points 5-0
        game 2: player 2 (most-parts) makes, player 1 (knuth) breaks: broken in 4 guesses; points 0-4
        score 5-4: player 1 (knuth) wins
        """
        lines = [f"A match of {self.games} games, {self.rules}, scoring {self.scoring}"]
        for r in self.rounds:
            points = "" if r.points is None else f"; points {r.points[0]}-{r.points[1]}"
            lines.append(
                f"game {r.number}: {self._who(r.maker)} makes, {self._who(r.breaker)} breaks: "
                f"{r.summary()}{points}"
            )
        score = "-".join(str(n) for n in self.standing)
        if self.over:
            outcome = "a tie" if self.winner is None else f"{self._who(self.winner)} wins"
            lines.append(f"score {score}: {outcome}")
        else:
            lines.append(f"score so far {score}")
        return "\n".join(lines)

    def _who(self, player: int) -> str:
        return f"player {player} ({self.players[player - 1]})"

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

    def warning(
        self, code: Code | str, inconsistent: bool = False, notation: Notation | None = None
    ) -> str | None:
        """What the person breaking the code is told before ``code`` is played, or None: a
        match's game warns as a single game does (:meth:`Game.warning`), a guess that cannot be
        the secret included where the player asked for it, so that a match played at the terminal,
        in the line session or on the web page says the same; refused, as :meth:`guess` is, when
        it is not a person's turn to guess."""
        if self.waiting_for != "guess":
            raise GameError("it is not a person's turn to guess")
        return self._game().warning(code, inconsistent, notation)

    def reply(self, reply: Feedback | str) -> list[Event]:
        """A human codemaker's reply to the waiting guess."""
        if self.waiting_for != "reply":
            raise GameError("no guess is waiting for a reply")
        return self._after(self._game().reply(reply))

    def hint(self) -> Hint:
        """A hint for the person breaking the code now (from the match's hint strategy): how many
        codes fit the replies and what the strategy would play; counted in the game's record (a
        hint costs no points: the record tells who had help)."""
        self._check_hint()
        return self._game().hint()

    def advise(self) -> Advice:
        """The hint that teaches (:func:`~mastermind.games.advice.advise`: the codes left, the
        split, the expected guesses), given when :meth:`hint` is and counted as it is."""
        from .advice import advise  # (the review's search: loaded only when a hint is asked)

        self._check_hint()
        return advise(self._game())

    def _check_hint(self) -> None:
        """A GameError saying why no hint may be asked now, unless a person is to guess: a hint
        is the breaker's, and a codemaker who saw one would know what the breaker is told."""
        waiting = self.waiting_for
        if waiting == "guess":
            return
        r = self.current
        if waiting is None:
            now = "the match is over"
        elif waiting == "secret" or r.game is None:
            now = "the codemaker has not chosen the code yet"
        elif waiting == "reply":
            now = "the guess waits for the codemaker's reply"
        else:
            now = f"{self.players[r.breaker - 1]} breaks this code"
        raise GameError(f"no hint now ({now}): a hint is for a person breaking a code, at their turn")

    def give_up(self) -> list[Event]:
        """The person breaking the code gives up the current game, at their turn to guess (a
        computer breaker does not give up, and a guess waiting for its reply is answered first)."""
        if self.waiting_for != "guess":
            raise GameError("only a person breaking a code can give up, at their turn to guess")
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
                raise GameError(
                    f"game {r.number - 1} is over and game {r.number} has no guess yet: nothing to undo"
                )
            raise GameError("nothing to undo: no guess yet")
        if not self.is_human(r.breaker):
            raise GameError(
                f"{self.players[r.breaker - 1]} breaks this code: a strategy's guesses "
                "are not taken back, nor the replies given to them"
            )
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
            games.append(
                {
                    "number": r.number,
                    "maker": r.maker,
                    "breaker": r.breaker,
                    "secret": code_text(self.rules, g.secret),
                    "referee": r.referee,
                    "guesses": len(g.moves),
                    "broken": g.outcome == "won",
                    "replayed": r.replayed,
                    "replays": [game.record() for game in r.replays],
                    "points": r.points,
                    "finished": r.points is not None,
                    "game": g.record(),
                }
            )
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
        } | ({"hard": True} if self.hard else {})  # absent outside hard mode: the record as it always was

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
                hard=bool(record.get("hard", False)),
            )
            if match.seed is not None:
                whole(match.seed, 0, SEED_BOUND, "seed")
            match.rounds = []
            if len(record["games"]) > match.games:
                raise RecordError(f"a match record has more games than its {match.games}")
            for g in record["games"]:
                game = Game.from_record(g["game"])
                r = Round(g["number"], g["maker"], g["breaker"], game, g["replayed"], g["points"])
                r.referee = g["referee"]
                r.replays = [Game.from_record(replay) for replay in g.get("replays", ())]
                match._check_round(r, "replays" in g)
                match.rounds.append(r)
                match._redraw.append(r)  # drawn again before the match's next draw (_generator)
            if not match.rounds:
                match.rounds = [Round(1, maker=1, breaker=2)]
            elif match.current.points is not None and len(match.rounds) < match.games:
                match._next_round()
        except (KeyError, TypeError, ValueError) as err:
            if isinstance(err, RecordError):
                raise
            raise RecordError(f"a match record is incomplete: {err!r}") from None
        return match

    def _check_round(self, r: Round, has_replays: bool) -> None:
        """Every number a round's record brought within what the match can have made (a
        RecordError if not): a record read from a file is anyone's, and its numbers run loops
        (:meth:`_draw_again` draws once per game replayed) and index the players."""
        whole(r.number, len(self.rounds) + 1, len(self.rounds) + 1, "game number")
        whole(r.maker, 1, 2, "codemaker")
        whole(r.breaker, 3 - r.maker, 3 - r.maker, "codebreaker")
        # each replay is in the record (from version 4): as many as replayed; an older record
        # bounded by the rows of a game (a generous bound: no draw loops longer than that)
        most = len(r.replays) if has_replays else self.rules.max_guesses
        whole(r.replayed, len(r.replays), most, "number of games replayed")
        games = [r.game, *r.replays]
        if any(g is None or g.rules != self.rules for g in games):
            raise RecordError(
                f"game {r.number} of a match record is not of the match's {self.rules.describe()}"
            )
        if not isinstance(r.referee, bool):
            raise RecordError(f"game {r.number} of a match record has a referee that is not true or false")
        if r.points is not None:
            if not isinstance(r.points, list) or len(r.points) != 2:
                raise RecordError(f"game {r.number} of a match record has points that are not two numbers")
            most = self.rules.max_guesses + 1 + WRONG_INFORMATION_POINTS * r.replayed
            for p in r.points:
                whole(p, 0, most, "points of a game")

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
        breaker: str | Strategy = self._agents.get(r.breaker, self.players[r.breaker - 1])
        return Game(
            self.rules,
            secret=secret,
            breaker=None if breaker == "human" else breaker,
            strategy=self.strategy,
            seed=self._generator().randrange(2**31),
            kind="match",
            hard=self.hard,
        )

    def _generator(self) -> random.Random:
        """The match's generator, once it has drawn again what the rounds of a match read back
        from its record drew. Deferred to the match's next draw, so that reading a record (as the
        history's listings do, every record) walks no strategy's tree for a hardest secret."""
        pending, self._redraw = self._redraw, []  # the draws below find none pending: in order
        for r in pending:
            self._draw_again(r)
        return self._rng

    def _draw_again(self, r: Round) -> None:
        """Draw again what round ``r`` drew from the match's generator (a computer's secret, then a
        seed for each game, replays included), so that a match read back from its record draws
        next what it would have drawn had it never stopped."""
        if not self.is_human(r.maker):
            self._computer_secret(r)
        for _ in range(1 + r.replayed):
            self._rng.randrange(2**31)

    def secret_search(self) -> Strategy | None:
        """The strategy whose whole tree a computer codemaker is about to walk to pick the current
        game's hardest secret (``codemaker="hardest"``), a walk that may be long (an exact search:
        :func:`~mastermind.strategies.capabilities.search_cost` says); None where no such walk
        is due (a random secret, a person's, a game begun, a tree walked already)."""
        r = self.current
        if self.over or self.codemaker != "hardest" or self.is_human(r.maker) or r.game is not None:
            return None
        model, player = self._secret_model(r)
        return None if model in self._depths else self._walker(model, player)

    def _secret_model(self, r: Round) -> tuple[str, Strategy | None]:
        """Whose guesses the hardest secret of round ``r`` is hardest for (the breaker's, or the
        match's --strategy where the breaker is a person or plays at random), and the breaker's
        own strategy object where it is that one."""
        breaker = self.players[r.breaker - 1]
        agent = self._agents.get(r.breaker)
        if agent is not None:
            return (breaker, agent) if not agent.randomized else (self.strategy, None)
        randomized = breaker == "human" or find_strategy(breaker).randomized
        return (self.strategy, None) if randomized else (breaker, None)

    def _walker(self, model: str, player: Strategy | None) -> Strategy:
        """The strategy the hardest secret walks: ``player``, or ``model`` made once for the match."""
        if player is None:
            player = self._walkers.get(model) or make_strategy(model, self.rules)
            self._walkers[model] = player
        return player

    def _computer_secret(self, r: Round) -> Code:
        space = CodeSpace.of(self.rules)
        rng = self._generator()
        if self.codemaker == "random":
            return space.code(rng.randrange(space.size))
        model, player = self._secret_model(r)
        if model not in self._depths:
            from ..strategies.walk import guesses_per_secret

            self._depths[model] = guesses_per_secret(self._walker(model, player))
        depths = self._depths[model]
        hardest = np.flatnonzero(depths == depths.max())
        return space.code(int(hardest[rng.randrange(len(hardest))]))

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
        given_up = self._game()
        problem = given_up.problem
        r.replayed += 1
        r.replays.append(given_up)
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


def _player_name(number: int, player: str | Strategy, rules: Rules) -> str:
    """``human``, or a registered strategy's own name (an empty or unknown one is refused, naming
    human among the choices); a strategy object's name, once it is found to be of this game."""
    if isinstance(player, Strategy):
        if CodeSpace.of(player.rules) is not CodeSpace.of(rules):
            raise StrategyError(
                f"the strategy {player.name} was made for {player.rules.describe()}; "
                f"this match is {rules.describe()}"
            )
        return player.name
    if not isinstance(player, str):
        raise StrategyError(f"a match's player is 'human', a strategy's name or a Strategy, not {player!r}")
    key = player.strip().lower()
    if key == "human":
        return key
    try:
        return find_strategy(player).name
    except UnknownStrategyError:  # (one that could not be loaded says why, as it is)
        from ..strategies import STRATEGIES  # (read already by the search that failed)

        choices = f"choose human or one of: {', '.join(s.name for s in STRATEGIES)}"
        if not key:
            raise StrategyError(f"player {number}'s name is empty; {choices}") from None
        raise StrategyError(f"unknown player {quote(player)}; {choices}") from None


__all__ = ["Event", "Match", "Round"]
