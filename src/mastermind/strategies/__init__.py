"""Codebreaking strategies, chosen by name.

>>> from mastermind.rules import Rules
>>> make_strategy("knuth", Rules()).name
'knuth'
"""

from __future__ import annotations

import inspect

from ..code import Code
from ..errors import StrategyError
from ..rules import Rules
from .base import Strategy
from .counter import Counter
from .partition import Entropy, ExpectedSize, Knuth, MostParts, PartitionStrategy
from .random_choice import RandomCandidate
from .six_guess import SixGuess

STRATEGIES: list[type[Strategy]] = [
    Knuth,
    ExpectedSize,
    Entropy,
    MostParts,
    SixGuess,
    Counter,
    RandomCandidate,
]


def find_strategy(name: str) -> type[Strategy]:
    """The strategy class registered under ``name``."""
    key = name.strip().lower().replace("_", "-")
    for cls in STRATEGIES:
        if cls.name == key:
            return cls
    raise StrategyError(f"unknown strategy {name!r}; choose one of: {', '.join(s.name for s in STRATEGIES)}")


def make_strategy(name: str, rules: Rules, first: Code | str | None = None, **options) -> Strategy:
    """A strategy bound to ``rules``.

    ``options`` are passed on to the strategy's constructor where it takes them (e.g.
    ``tables=False`` for the counter), so a front end can offer every option to every strategy.
    """
    cls = find_strategy(name)
    accepted = inspect.signature(cls.__init__).parameters
    return cls(rules, first=first, **{k: v for k, v in options.items() if k in accepted})


__all__ = ["STRATEGIES", "PartitionStrategy", "Strategy", "find_strategy", "make_strategy"]
