"""What a strategy did against a set of secrets: the distribution of guesses, and its figures."""

from __future__ import annotations

from dataclasses import dataclass

from ..core.code import Code
from ..core.notation import Notation
from ..core.records import rules_from_dict
from ..core.rules import Rules
from ..errors import RecordError


@dataclass
class Stats:
    """How a strategy did against a set of secrets.

    ``distribution`` maps the number of guesses to the number of secrets solved with that many;
    games are played to the end, and ``lost`` counts those that took more than the rules allow.
    ``seconds`` is the time of the games (the first guess included), after
    :meth:`Strategy.prepare` has built the strategy's tables and loaded its compiled code; for a
    strategy that finds its whole tree by its own search (optimal), the time of that search.
    ``tree_at_hand``: that tree was at hand before the run (read from the cache, or searched
    earlier), so ``seconds`` is the time of reading it, not of a search.
    """

    strategy: str
    rules: Rules
    first_guess: Code | None  # None when it varies from game to game
    distribution: dict[int, int]
    seconds: float
    codes: int
    sample: bool = False
    seed: int | None = None
    tree_at_hand: bool = False

    @property
    def games(self) -> int:
        return sum(self.distribution.values())

    @property
    def total(self) -> int:
        return sum(k * n for k, n in self.distribution.items())

    @property
    def mean(self) -> float:
        return self.total / self.games if self.games else 0.0

    @property
    def max(self) -> int:
        return max(self.distribution, default=0)

    @property
    def lost(self) -> int:
        return sum(n for k, n in self.distribution.items() if k > self.rules.max_guesses)

    def __str__(self) -> str:
        """The figures people compare strategies by, in one paragraph.

        >>> from mastermind import evaluate, make_strategy
        >>> print(evaluate(make_strategy("knuth", Rules())))
        knuth on 4 pegs, 6 colours, repeats allowed: 1,296 secrets, first guess 1122, total 5,801 guesses, \
mean 4.4761, max 5
        guesses: 1: 1, 2: 6, 3: 62, 4: 533, 5: 694
        """
        first = "random" if self.first_guess is None else Notation(self.rules).format_code(self.first_guess)
        secrets = f"a sample of {self.games:,} secrets" if self.sample else f"{self.games:,} secrets"
        lost = f", {self.lost:,} lost (over {self.rules.max_guesses})" if self.lost else ""
        spread = ", ".join(f"{k}: {n:,}" for k, n in sorted(self.distribution.items()))
        return (
            f"{self.strategy} on {self.rules.describe()}: {secrets}, first guess {first}, "
            f"total {self.total:,} guesses, mean {self.mean:.4f}, max {self.max}{lost}\nguesses: {spread}"
        )

    def _repr_html_(self) -> str:
        from ..core.display import bar_chart

        return bar_chart(self.distribution, str(self).splitlines()[0], "guesses", "secrets")

    def to_dict(self, notation: Notation | None = None) -> dict:
        """A plain dict for JSON; codes written in ``notation`` (the game's own by default)."""
        notation = notation or Notation(self.rules)
        first = "random" if self.first_guess is None else notation.format_code(self.first_guess)
        return {
            "strategy": self.strategy,
            "pegs": self.rules.pegs,
            "colors": self.rules.colors,
            "repeats": self.rules.repeats,
            "max_guesses": self.rules.max_guesses,
            "blank": self.rules.blank,
            "codes": self.codes,
            "games": self.games,
            "sample": self.sample,
            "seed": self.seed,
            "first_guess": first,
            "total": self.total,
            "mean": round(self.mean, 6),
            "max": self.max,
            "lost": self.lost,
            "distribution": {str(k): n for k, n in sorted(self.distribution.items())},
            "seconds": round(self.seconds, 6),
            "tree_at_hand": self.tree_at_hand,
        }

    @classmethod
    def from_dict(cls, data: dict) -> Stats:
        """The statistics that :meth:`to_dict` wrote (codes in the game's own notation).

        >>> from mastermind import evaluate, make_strategy
        >>> stats = evaluate(make_strategy("knuth", Rules(pegs=2, colors=3)))
        >>> Stats.from_dict(stats.to_dict()).to_dict() == stats.to_dict()
        True
        """
        try:
            rules = rules_from_dict(data)
            first = data["first_guess"]
            return cls(
                strategy=data["strategy"],
                rules=rules,
                first_guess=None if first == "random" else Notation(rules).parse_code(first),
                distribution={int(k): int(n) for k, n in data["distribution"].items()},
                seconds=float(data["seconds"]),
                codes=int(data["codes"]),
                sample=bool(data["sample"]),
                seed=data["seed"],
                tree_at_hand=bool(data.get("tree_at_hand", False)),  # absent from older records
            )
        except (KeyError, TypeError, ValueError, AttributeError) as err:
            raise RecordError(f"a run record is incomplete: {err!r}") from None
