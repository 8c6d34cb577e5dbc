"""Codes: the value type people see, and the CodeSpace that numbers every code of a game."""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from math import perm
from typing import TYPE_CHECKING

from ..errors import NotationError
from .rules import Rules

if TYPE_CHECKING:  # numpy is imported when a table is first built: `mastermind --help` needs none
    import numpy as np

#: The largest code space that is ever enumerated into an array (pegs * 8 MiB of digits).
ENUMERATION_LIMIT = 1 << 23


@dataclass(frozen=True, slots=True, order=True)
class Code:
    """A code as a tuple of 0-based colours, first peg first.

    A code made by its game (parsed by a :class:`~mastermind.core.notation.Notation`, or taken from
    a :class:`CodeSpace`) knows its rules, and ``str`` writes it as that game does: the symbols
    depend on the number of colours (Knuth's digits 1-9 up to 9 colours, 0-9 for 10, letters from
    11). A bare tuple of colours could belong to any game, so its ``str`` is its ``repr``. The rules
    take no part in comparisons: a code equals another with the same colours.

    >>> Code((0, 0, 1, 1))
    Code((0, 0, 1, 1))
    >>> str(CodeSpace.of(Rules()).code(7)), str(CodeSpace.of(Rules(colors=10)).code(7))
    ('1122', '0007')
    >>> str(Code((0, 0, 1, 1)))
    'Code((0, 0, 1, 1))'
    """

    colors: tuple[int, ...]
    rules: Rules | None = field(default=None, compare=False, repr=False)

    def __len__(self) -> int:
        return len(self.colors)

    def __iter__(self) -> Iterator[int]:
        return iter(self.colors)

    def __getitem__(self, i: int) -> int:
        return self.colors[i]

    def __repr__(self) -> str:
        return f"Code({self.colors!r})"

    def __str__(self) -> str:
        if self.rules is None:
            return repr(self)
        from .notation import Notation

        return Notation(self.rules).format_code(self.colors)


class CodeSpace:
    """Every code of one game, numbered in numeric (lexicographic) order from 0.

    The index of a code is its rank in numeric order, so the lowest index is Knuth's
    "least numeric value". Arrays are built lazily and only when they fit in memory.

    >>> space = CodeSpace.of(Rules())
    >>> space.size, space.index((0, 0, 1, 1)), space.code(1295)
    (1296, 7, Code((5, 5, 5, 5)))
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.pegs = rules.pegs
        self.colors = rules.colors
        self.size = rules.size
        self._digits: np.ndarray | None = None
        self._counts: np.ndarray | None = None

    @staticmethod
    def of(rules: Rules) -> CodeSpace:
        """The shared CodeSpace of ``rules`` (the number of guesses does not matter; the blank does
        not change the codes, but how they are written)."""
        return _space(rules.pegs, rules.colors, rules.repeats, rules.blank)

    @property
    def enumerable(self) -> bool:
        """Whether every code of this game can be held in an array."""
        return self.size <= ENUMERATION_LIMIT

    def check_code(self, colors: Sequence[int]) -> tuple[int, ...]:
        """Return ``colors`` as a tuple, or raise NotationError saying what is wrong."""
        colors = tuple(int(c) for c in colors)
        if len(colors) != self.pegs:
            raise NotationError(f"a code has {self.pegs} pegs, not {len(colors)}")
        for c in colors:
            if not 0 <= c < self.colors:
                raise NotationError(f"colour {c + 1} is not one of the {self.colors} colours")
        if not self.rules.repeats and len(set(colors)) != len(colors):
            raise NotationError("this game allows no repeats: a code holds each symbol at most once")
        return colors

    def index(self, colors: Sequence[int]) -> int:
        """The index of a code given as 0-based colours."""
        colors = self.check_code(colors)
        if self.rules.repeats:
            index = 0
            for c in colors:
                index = index * self.colors + c
            return index
        index = 0
        used: list[int] = []
        for i, c in enumerate(colors):
            smaller_unused = c - sum(u < c for u in used)
            index += smaller_unused * perm(self.colors - i - 1, self.pegs - i - 1)
            used.append(c)
        return index

    def code(self, index: int) -> Code:
        """The code at ``index``."""
        index = int(index)
        if not 0 <= index < self.size:
            raise IndexError(f"code index {index} out of range 0..{self.size - 1}")
        if self.rules.repeats:
            out = []
            for _ in range(self.pegs):
                index, c = divmod(index, self.colors)
                out.append(c)
            return Code(tuple(reversed(out)), self.rules)
        free = list(range(self.colors))
        out = []
        for i in range(self.pegs):
            block = perm(self.colors - i - 1, self.pegs - i - 1)
            k, index = divmod(index, block)
            out.append(free.pop(k))
        return Code(tuple(out), self.rules)

    def require_enumerable(self) -> None:
        if not self.enumerable:
            from ..errors import StrategyError

            raise StrategyError(
                f"{self.rules.describe()} has {self.size:,} codes, too many to enumerate "
                f"(limit {ENUMERATION_LIMIT:,})"
            )

    def digits(self) -> np.ndarray:
        """All codes as a (size, pegs) uint8 array, in index order."""
        if self._digits is None:
            import numpy as np

            self.require_enumerable()
            if self.rules.repeats:
                index = np.arange(self.size, dtype=np.int64)
                out = np.empty((self.size, self.pegs), dtype=np.uint8)
                for i in range(self.pegs - 1, -1, -1):
                    out[:, i] = index % self.colors
                    index //= self.colors
            else:
                flat = itertools.chain.from_iterable(itertools.permutations(range(self.colors), self.pegs))
                out = np.fromiter(flat, dtype=np.uint8, count=self.size * self.pegs)
                out = out.reshape(self.size, self.pegs)
            out.setflags(write=False)
            self._digits = out
        return self._digits

    def counts(self) -> np.ndarray:
        """How many pegs of each colour every code has: a (size, colors) uint8 array."""
        if self._counts is None:
            import numpy as np

            digits = self.digits()
            out = np.zeros((self.size, self.colors), dtype=np.uint8)
            for i in range(self.pegs):
                out[np.arange(self.size), digits[:, i]] += 1
            out.setflags(write=False)
            self._counts = out
        return self._counts

    def __repr__(self) -> str:
        return f"CodeSpace({self.rules!r})"


@lru_cache(maxsize=8)
def _space(pegs: int, colors: int, repeats: bool, blank: bool) -> CodeSpace:
    return CodeSpace(Rules(pegs=pegs, colors=colors, repeats=repeats, blank=blank))
