"""Codebreaking strategies, chosen by name.

>>> from mastermind.core.rules import Rules
>>> make_strategy("knuth", Rules()).name
'knuth'
"""

from __future__ import annotations

from typing import Any

from ..core.code import Code
from ..core.rules import Rules
from ..core.text import quote
from ..errors import StrategyError
from .base import Strategy, StrategySpec
from .counter import Counter
from .optimal.strategy import Optimal
from .partition import Entropy, ExpectedSize, Knuth, MostParts, PartitionStrategy
from .random_choice import RandomCandidate
from .six_guess import SixGuess

STRATEGIES: list[type[Strategy]] = [
    Knuth,
    ExpectedSize,
    Entropy,
    MostParts,
    Optimal,
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
    names = ", ".join(s.name for s in STRATEGIES)
    raise StrategyError(f"unknown strategy {quote(name)}; choose one of: {names}")


def make_strategy(name: str, rules: Rules, first: Code | str | int | None = None, **options: Any) -> Strategy:
    """A strategy bound to ``rules``.

    ``options`` are the strategy's own (e.g. ``tables=False`` for the counter); an option the
    strategy does not take is refused with a StrategyError.
    """
    return find_strategy(name)(rules, first, **options)


__all__ = ["STRATEGIES", "PartitionStrategy", "Strategy", "StrategySpec", "find_strategy", "make_strategy"]
