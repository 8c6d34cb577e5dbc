"""What happened in a game or a match, in words: written here once, so that the command line, the
terminal board and the web page say the same sentences.

A match's sentences take a point of view (:class:`Voice`): at one device a lone person is "you" and
a computer is named with its strategy; in a friend's match each device speaks to its own player
("you", "your friend").

>>> from mastermind import Rules
>>> from mastermind.games.match import Match
>>> match = Match(Rules(pegs=2, colors=2), ["human", "knuth"], seed=1)
>>> Voice.of(match).name(1), Voice.of(match).name(2), Voice.of(match, seat=2).name(1)
('you', 'player 2 (knuth)', 'your friend')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..core.text import plural, sentence
from .scoring import WRONG_INFORMATION_POINTS

if TYPE_CHECKING:
    from ..core.notation import Notation
    from .game import Game
    from .match import Event, Match, Round


@dataclass(frozen=True)
class Voice:
    """Whose point of view a match's sentences take: how each player is named (``names``, player 1
    first), and which of them is spoken to as "you" (``you``; None: nobody)."""

    names: tuple[str, str]
    you: int | None = None

    @classmethod
    def of(cls, match: Match, seat: int | None = None) -> Voice:
        """The voice of a device: with ``seat``, a friend's match spoken to that player ("you" and
        "your friend"); without, one device for the match: a lone person is "you", two people are
        player 1 and player 2, a computer is named with its strategy ("player 2 (knuth)")."""
        if seat is not None:
            return cls(("you", "your friend") if seat == 1 else ("your friend", "you"), seat)
        people = [p for p in (1, 2) if match.is_human(p)]
        you = people[0] if len(people) == 1 else None

        def named(p: int) -> str:
            if p == you:
                return "you"
            return f"player {p}" if match.is_human(p) else f"player {p} ({match.players[p - 1]})"

        return cls((named(1), named(2)), you)

    def name(self, player: int) -> str:
        """How ``player`` (1 or 2) is named."""
        return self.names[player - 1]

    def does(self, player: int, verb: str, verbs: str) -> str:
        """``player`` and the verb that agrees: 'you win', 'player 2 wins'."""
        return f"{self.name(player)} {verb if player == self.you else verbs}"


def _code(notation: Notation, game: Game) -> str:
    return "" if game.secret is None else f" {notation.format_code(game.secret)}"


def round_text(r: Round, notation: Notation, voice: Voice) -> str:
    """A match's finished game in one line: who broke which code in how many guesses, and the
    points each player got for it (player 1 first, as every score shows them).

    >>> from mastermind import Rules
    >>> from mastermind.games.match import Match
    >>> match = Match(Rules(pegs=2, colors=2), ["human", "human"], seed=1)
    >>> _ = match.set_secret("12"); _ = match.guess("21"); _ = match.guess("12")
    >>> round_text(match.rounds[0], match.rounds[0].game.notation, Voice.of(match, seat=2))
    'Game 1: you broke the code 12 in 2 guesses. Points: your friend 2, you 0.'
    """
    game = r.game
    assert game is not None and r.points is not None
    code, who = _code(notation, game), voice.name(r.breaker)
    if game.outcome == "won":
        how = f"{who} broke the code{code} in {plural(len(game.moves), 'guess', 'guesses')}"
    elif game.outcome == "gave-up":
        how = f"{who} gave up" + (f"; the code was{code}" if code else "")
    else:
        how = f"{who} did not break the code{code}"
    points = ", ".join(f"{voice.name(p)} {r.points[p - 1]}" for p in (1, 2))  # as the score shows them
    return f"Game {r.number}: {how}. Points: {points}."


def round_moment(r: Round, match: Match, voice: Voice) -> list[str]:
    """The words of the moment a person breaks a match's code (a card on the board): empty for a
    game not broken, or broken by a computer.

    >>> from mastermind import Rules
    >>> from mastermind.games.match import Match
    >>> match = Match(Rules(pegs=2, colors=2), ["human", "human"], seed=1)
    >>> _ = match.set_secret("12"); _ = match.guess("12")
    >>> round_moment(match.rounds[0], match, Voice.of(match, seat=1))
    ['Your friend broke your code in 1 guess.']
    """
    game = r.game
    if game is None or game.outcome != "won" or not match.is_human(r.breaker):
        return []
    n = plural(len(game.moves), "guess", "guesses")
    if voice.you == r.maker:
        return [f"{sentence(voice.name(r.breaker))} broke your code in {n}."]
    return [f"{sentence(voice.name(r.breaker))} broke the code in {n}!"]


def match_ending(match: Match, voice: Voice) -> list[str]:
    """A finished match's closing words: who won, and by how many points; empty while it goes on.

    >>> from mastermind import Rules
    >>> from mastermind.games.match import Match
    >>> match = Match(Rules(pegs=2, colors=2), ["knuth", "entropy"], seed=1)
    >>> while not match.over: _ = match.advance()
    >>> match_ending(match, Voice.of(match))
    ['The match is over: player 2 (entropy) wins, 3 points to 2.']
    """
    if not match.over:
        return []
    winner, score = match.winner, match.score
    if winner is None:
        return [f"The match is over: a draw, {plural(score[0], 'point')} each."]
    won, lost = score[winner - 1], score[2 - winner]
    return [f"The match is over: {voice.does(winner, 'win', 'wins')}, {plural(won, 'point')} to {lost}."]


def event_text(event: Event, match: Match, notation: Notation, voice: Voice) -> str | None:
    """The sentence a match's event is told in: a guess taken back, a game replayed for wrong
    information, a game over with its points, the match over; None for the others (a secret chosen,
    a move: the board shows them)."""
    r = event.round
    if event.kind == "undone":
        return f"{sentence(voice.name(r.breaker))} took back guess {event.row}: it had no reply yet."
    if event.kind == "replayed":
        penalty = voice.does(match.penalty_to(r), "get", "gets")
        return (
            f"Game {r.number}: the replies contradict each other; it is played again and "
            f"{penalty} {WRONG_INFORMATION_POINTS} points."
        )
    if event.kind == "round-over" and r.game is not None and r.points is not None:
        return round_text(r, notation, voice)
    if event.kind == "match-over":
        return " ".join(match_ending(match, voice))
    return None


__all__ = ["Voice", "event_text", "match_ending", "round_moment", "round_text"]
