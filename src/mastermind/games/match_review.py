"""A match reviewed: every finished game of it valued move by move (:func:`~.review.review`), so
both sides are seen, and each player's play over the games they broke: their accuracy and luck
(the means of their games', :mod:`.accuracy`), their guesses against best play's expected number.
A strategy's games are reviewed as a person's are: how good each strategy's play is shows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..core.notation import Notation
from ..core.records import rules_to_dict
from ..core.rules import Rules
from ..core.text import plural
from ..errors import RecordError
from . import accuracy as scores
from .review import DEFAULT_BUDGET, HEURISTIC, Progress, Review, review

if TYPE_CHECKING:
    from .match import Match


@dataclass(frozen=True)
class MatchGame:
    """One game of a match, reviewed: its number, the player who broke the code (1 or 2), and
    the review."""

    number: int
    breaker: int
    review: Review


@dataclass(frozen=True)
class MatchReview:
    """The finished games of a match, each reviewed; :func:`review_match` makes one."""

    rules: Rules
    players: tuple[str, str]
    games: tuple[MatchGame, ...]

    def player(self, number: int) -> dict[str, Any]:
        """Player ``number``'s play over the games they broke: games, guesses, best play's
        expected guesses, accuracy and luck (means over their games; None for no game)."""
        mine = [g.review for g in self.games if g.breaker == number]
        best = [float(r.optimal_expected) for r in mine if r.optimal_expected is not None]
        accuracy = scores.mean([r.accuracy for r in mine if r.accuracy is not None])
        luck = scores.mean([r.luck for r in mine if r.luck is not None])
        return {
            "name": self.players[number - 1],
            "games": len(mine),
            "guesses": sum(len(r.moves) for r in mine),
            "optimal_expected": round(sum(best), 6),
            "accuracy": None if accuracy is None else round(accuracy, 2),
            "luck": None if luck is None else round(luck, 2),
        }

    def summary_lines(self) -> list[str]:
        """Each player's line, the same in every front end."""
        out = []
        for number in (1, 2):
            p = self.player(number)
            if not p["games"]:
                out.append(f"Player {number} ({p['name']}) broke no code yet.")
                continue
            out.append(
                f"Player {number} ({p['name']}): {plural(p['guesses'], 'guess', 'guesses')} in "
                f"{plural(p['games'], 'game')} (best play expects {p['optimal_expected']:.2f}); "
                f"accuracy {scores.rounded(p['accuracy'])}, luck {scores.rounded(p['luck'])}."
            )
        return out

    def to_dict(self, notation: Notation | None = None) -> dict[str, Any]:
        """The match's review as JSON types: each game's review, and each player's figures."""
        notation = notation or Notation(self.rules)
        return {
            "kind": "match",
            "rules": rules_to_dict(self.rules),
            "players": [self.player(1), self.player(2)],
            "games": [
                {"number": g.number, "breaker": g.breaker, "review": g.review.to_dict(notation)}
                for g in self.games
            ],
        }


def review_match(
    subject: Match | dict[str, Any],
    *,
    budget: float | None = DEFAULT_BUDGET,
    heuristic: str = HEURISTIC,
    progress: Progress | None = None,
) -> MatchReview:
    """Review every finished game of a match (a :class:`~.match.Match` or its record);
    ``progress(games done, of how many)`` after each.

    Raises:
        RecordError: a record that is not a match's.
    """
    record = subject if isinstance(subject, dict) else subject.record()
    if record.get("kind") != "match" or "games" not in record:
        raise RecordError("this record is not a match's: review its game with review()")
    from ..core.records import rules_from_dict

    rules = rules_from_dict(record["rules"])
    finished = [g for g in record["games"] if g.get("finished")]
    games = []
    for done, g in enumerate(finished, 1):
        valued = review(g["game"], budget=budget, heuristic=heuristic)
        games.append(MatchGame(g["number"], g["breaker"], valued))
        if progress:
            progress(done, len(finished))
    players = record["players"]
    return MatchReview(rules, (str(players[0]), str(players[1])), tuple(games))
