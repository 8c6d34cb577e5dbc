"""Codes: the value type people see, and the CodeSpace that numbers every code of a game."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from math import perm
from numbers import Integral
from typing import TYPE_CHECKING, Union

from ..errors import NotationError
from .rules import Rules

if TYPE_CHECKING:  # numpy is imported when a table is first built: `mastermind --help` needs none
    import numpy as np

    from .notation import Notation

#: The largest code space that is ever enumerated into an array (pegs * 8 MiB of digits).
ENUMERATION_LIMIT = 1 << 23


@dataclass(frozen=True, slots=True, order=True)
class Code:
    """A code as a tuple of 0-based colours, first peg first.

    A code is made from colour indices, or from text in its game's notation when the game's rules
    are given (:meth:`parse` is the same): ``Code("1122", rules)`` is ``Code((0, 0, 1, 1))``.
    A code made by its game (parsed, or taken from a :class:`CodeSpace`) knows its rules, and
    ``str`` writes it as that game does: the symbols depend on the number of colours (Knuth's
    digits 1-9 up to 9 colours, 0-9 for 10, letters from 11). A bare tuple of colours could belong
    to any game, so its ``str`` is its ``repr``. The rules take no part in comparisons: a code
    equals another with the same colours.

    >>> Code((0, 0, 1, 1))
    Code((0, 0, 1, 1))
    >>> code = Code("1122", Rules())
    >>> code, str(code), code == Code([0, 0, 1, 1])
    (Code((0, 0, 1, 1)), '1122', True)
    >>> str(CodeSpace.of(Rules()).code(7)), str(CodeSpace.of(Rules(colors=10)).code(7))
    ('1122', '0007')
    >>> str(Code((0, 0, 1, 1)))
    'Code((0, 0, 1, 1))'
    >>> Code("1122")
    Traceback (most recent call last):
    mastermind.errors.NotationError: Code('1122') needs its game to read the text: Code('1122', rules) \
or Code.parse('1122', rules); or give colour indices from 0, e.g. Code((0, 0, 1, 1))
    """

    colors: tuple[int, ...]
    rules: Rules | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        colors, rules = self.colors, self.rules
        if rules is not None and not isinstance(rules, Rules):
            raise NotationError(f"a code's rules must be a Rules, not {rules!r}")
        if isinstance(colors, str):
            if rules is None:
                raise NotationError(
                    f"Code({colors!r}) needs its game to read the text: Code({colors!r}, rules) or "
                    f"Code.parse({colors!r}, rules); or give colour indices from 0, e.g. Code((0, 0, 1, 1))"
                )
            colors = _notation(rules).parse_code(colors).colors
        else:
            colors = _colors(colors, rules)
        if rules is not None:
            colors = CodeSpace.of(rules).check_code(colors)
        object.__setattr__(self, "colors", colors)

    @classmethod
    def _made(cls, colors: tuple[int, ...], rules: Rules | None) -> Code:
        """A code whose colours are known to be right (hot paths: no checks)."""
        code = object.__new__(cls)
        object.__setattr__(code, "colors", colors)
        object.__setattr__(code, "rules", rules)
        return code

    @classmethod
    def parse(cls, text: str, rules: Rules) -> Code:
        """The code ``text`` writes in the game of ``rules``, in any notation that game reads
        (see :meth:`mastermind.core.notation.Notation.parse_code`).

        >>> Code.parse("RRGG", Rules()), Code.parse("0123", Rules(colors=10, repeats=False))
        (Code((0, 0, 1, 1)), Code((0, 1, 2, 3)))
        """
        if not isinstance(text, str):
            raise NotationError(f"Code.parse reads text, not {text!r}; Code(colours, rules) takes indices")
        return _notation(rules).parse_code(text)

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
        return _notation(self.rules).format_code(self.colors)


def _notation(rules: Rules) -> Notation:
    from .notation import Notation  # it imports this module

    return Notation(rules)


def _colors(value: object, rules: Rules | None) -> tuple[int, ...]:
    """``value`` as a tuple of colour indices, or NotationError saying what a code may be."""
    if isinstance(value, Code):
        return value.colors
    if type(value) is tuple and all(type(c) is int for c in value):
        return value  # the common case, made cheap
    if isinstance(value, Iterable) and not isinstance(value, bytes | bytearray | dict | set | frozenset):
        items = list(value)
        if all(_is_integer(c) for c in items):
            return tuple(int(c) for c in items)
    raise NotationError(not_a_code(value, rules))


def _is_integer(value: object) -> bool:
    return (
        isinstance(value, Integral)
        and not isinstance(value, bool)
        or (
            hasattr(value, "dtype") and getattr(value, "ndim", 1) == 0 and value.dtype.kind in "iu"  # numpy
        )
    )


def _reads(notation: Notation, text: str) -> bool:
    """Whether ``text`` is a code of the notation's game."""
    try:
        notation.parse_code(text)
    except NotationError:
        return False
    return True


def not_a_code(value: object, rules: Rules | None) -> str:
    """Why ``value`` is not a code, and what a code may be given as, for messages.

    >>> not_a_code(1234, Rules())
    "1234 is a number, not a code: write it as text in the game's notation, '1234', or give a Code \
or colour indices from 0 to 5, e.g. (0, 1, 2, 3)"
    """
    if rules is None:
        text, indices, example = "with the game's rules, Code('1234', rules)", "from 0", "(0, 1, 2, 3)"
    else:
        notation = _notation(rules)
        example_code = notation.example()
        text = f"in the game's notation, {example_code!r}"
        indices = f"from 0 to {rules.colors - 1}"
        example = repr(tuple(notation.parse_code(example_code).colors))
    if isinstance(value, Integral) and not isinstance(value, bool):
        if rules is not None and _reads(_notation(rules), str(value)):  # (0 is no code: not '0')
            text = f"in the game's notation, {str(value)!r}"
        return (
            f"{value!r} is a number, not a code: write it as text {text}, or give a Code or colour "
            f"indices {indices}, e.g. {example}"
        )
    return (
        f"{value!r} is not a code: give it as text {text}, as a Code, or as colour indices {indices}, "
        f"e.g. {example}"
    )


#: What the library takes wherever a code is given: text in the game's notation, a Code, or a sequence
#: of colour indices (see :func:`as_code`).
CodeLike = Union["Code", str, Sequence[int]]


def as_code(value: CodeLike, rules: Rules) -> Code:
    """``value`` as a code of the game of ``rules``: text in the game's notation, a :class:`Code`,
    or a sequence of colour indices; anything else, or a code of another game, is a NotationError
    saying what is accepted. The code returned knows its rules (its ``str`` is the game's text).

    >>> str(as_code("1122", Rules())), str(as_code([0, 0, 1, 1], Rules())), str(as_code((0, 1), Rules(2)))
    ('1122', '1122', '12')
    >>> as_code(1234, Rules())
    Traceback (most recent call last):
    mastermind.errors.NotationError: 1234 is a number, not a code: write it as text in the game's notation, \
'1234', or give a Code or colour indices from 0 to 5, e.g. (0, 1, 2, 3)
    """
    if isinstance(value, str):
        return _notation(rules).parse_code(value)
    if isinstance(value, Code) and value.rules is not None and not _same_codes(value.rules, rules):
        raise NotationError(f"{value} is a code of {value.rules.describe()}; this game is {rules.describe()}")
    return Code._made(CodeSpace.of(rules).check_code(_colors(value, rules)), rules)


def _same_codes(a: Rules, b: Rules) -> bool:
    """Whether two games have the same codes, written the same way (the guess limit aside)."""
    return (a.pegs, a.colors, a.repeats, a.blank) == (b.pegs, b.colors, b.repeats, b.blank)


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
            return Code._made(tuple(reversed(out)), self.rules)
        free = list(range(self.colors))
        out = []
        for i in range(self.pegs):
            block = perm(self.colors - i - 1, self.pegs - i - 1)
            k, index = divmod(index, block)
            out.append(free.pop(k))
        return Code._made(tuple(out), self.rules)

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
