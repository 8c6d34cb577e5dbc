"""How a guess splits the candidates: the teaching view of the partition strategies.

The numbers are those the strategies rank guesses by (Knuth's largest class, Irving's expected
size, Neuwirth's entropy, Kooi's number of classes), shown as people read them.

>>> from mastermind import Notation
>>> n = Notation(Rules())
>>> p = partition(Rules(), n.parse_code("4113"), [n.parse_code(c) for c in "1123 3151 1141 6544".split()])
>>> {str(f): k for f, k in p.classes.items()}, p.largest
({'0,1': 1, '1,2': 2, '2,1': 1}, 2)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from numbers import Integral

import numpy as np

from .._kernels import reference
from ..core.code import Code, CodeLike, CodeSpace, as_code
from ..core.feedback import Feedback
from ..core.notation import Notation
from ..core.rules import Rules
from ..core.text import plural
from ..errors import NotationError

#: The criteria, by the name of the strategy that uses each, with a label for people.
CRITERIA = {
    "knuth": "largest class",
    "expected-size": "expected size",
    "entropy": "entropy, bits",
    "most-parts": "classes",
}

_CRITERION_IDS = {
    "knuth": reference.MAX_CLASS,
    "expected-size": reference.SUM_SQUARES,
    "entropy": reference.ENTROPY,
    "most-parts": reference.MOST_PARTS,
}


@dataclass(frozen=True)
class Partition:
    """The reply classes of one guess against a set of candidates.

    Attributes:
        guess: the guess.
        size: the number of candidates split.
        classes: for each reply that occurs, how many candidates give it (in reply order).
        members: for each reply that occurs, the candidates that give it, in the order given.
        scores: each criterion's exact integer score (lower is better), by strategy name, so
            guesses can be ranked without float noise.
    """

    guess: Code
    size: int
    classes: dict[Feedback, int]
    members: dict[Feedback, list[Code]]
    scores: dict[str, int]

    @property
    def largest(self) -> int:
        """The largest class: the most candidates that can be left (Knuth's score)."""
        return max(self.classes.values(), default=0)

    @property
    def expected_size(self) -> float:
        """The expected number of candidates left, every candidate equally likely."""
        return sum(n * n for n in self.classes.values()) / self.size if self.size else 0.0

    @property
    def entropy(self) -> float:
        """The information of the reply, in bits."""
        total = self.size
        bits = -sum(n / total * math.log2(n / total) for n in self.classes.values()) if total else 0.0
        return bits + 0.0  # one class: -0.0 would print as "-0.000"

    @property
    def parts(self) -> int:
        """The number of different replies."""
        return len(self.classes)

    def __str__(self) -> str:
        notation = Notation(self.guess.rules) if self.guess.rules is not None else None
        write = notation.format_code if notation is not None else repr
        classes = "; ".join(
            f"{fb}: {' '.join(write(c) for c in codes)}" for fb, codes in self.members.items()
        )
        return (
            f"{write(self.guess)} splits {plural(self.size, 'candidate')}: {classes}\n"
            f"largest class {self.largest:,}, expected size {self.expected_size:.3f}, "
            f"entropy {self.entropy:.3f} bits, {plural(self.parts, 'class', 'classes')}"
        )

    def _repr_html_(self) -> str:
        from ..core import display

        if self.guess.rules is None:
            from html import escape

            return f"<pre>{escape(str(self))}</pre>"
        notation = Notation(self.guess.rules)
        rows = [
            (
                display.keys(fb, notation.rules.pegs) + f" {fb}",
                str(len(codes)),
                " ".join(display.code(notation, c) for c in codes[: display.CODES_SHOWN]),
            )
            for fb, codes in self.members.items()
        ]
        title, figures = str(self).split("\n", 1)[0].split(":")[0], str(self).splitlines()[-1]
        return display.table(["reply", "codes", "candidates"], rows, f"{title}; {figures}")

    def __repr__(self) -> str:
        return (
            f"<Partition of {self.size} candidates by {self.guess}: "
            f"{self.parts} classes, largest {self.largest}>"
        )

    def value(self, criterion: str) -> float:
        """The criterion's value as people read it (a strategy name from :data:`CRITERIA`)."""
        return {
            "knuth": self.largest,
            "expected-size": self.expected_size,
            "entropy": self.entropy,
            "most-parts": self.parts,
        }[criterion]


def _is_index(value: object) -> bool:
    return isinstance(value, Integral | np.integer) and not isinstance(value, bool)


def partition(rules: Rules, guess: CodeLike, candidates: Sequence[CodeLike] | np.ndarray) -> Partition:
    """Split ``candidates`` (codes in any form :func:`~mastermind.core.code.as_code` reads, or
    codes' indices in numeric order: numbers, a range or an array) by their reply to ``guess``.

    >>> print(partition(Rules(), "4113", ["1123", "3151", "1141", "6544"]))
    4113 splits 4 candidates: 0,1: 6544; 1,2: 3151 1141; 2,1: 1123
    largest class 2, expected size 1.500, entropy 1.500 bits, 3 classes
    >>> partition(Rules(), "1122", range(1296)).largest
    256
    """
    space = CodeSpace.of(rules)
    guess_code = as_code(guess, rules)
    if isinstance(candidates, np.ndarray | range):
        cands = np.asarray(candidates, dtype=np.int64)
    else:  # (a number is a code's index: as_code refuses numbers as codes)
        cands = np.array(
            [c if _is_index(c) else space.index(as_code(c, rules).colors) for c in candidates], dtype=np.int64
        )
    outside = cands[(cands < 0) | (cands >= space.size)]
    if len(outside):
        raise NotationError(
            f"code index {outside[0]} out of range: this game's codes are 0 to {space.size - 1}"
        )
    g = np.array([space.index(guess_code.colors)], dtype=np.int64)
    counts = reference.partition_counts(space, g, cands)
    weights = reference.entropy_weights(max(len(cands), 1))
    scores = {
        name: int(reference.criterion_scores(counts, cid, weights)[0]) for name, cid in _CRITERION_IDS.items()
    }
    replies = reference.feedback_against(space, int(g[0]), cands)
    classes: dict[Feedback, int] = {}
    members: dict[Feedback, list[Code]] = {}
    for f in np.flatnonzero(counts[0]).tolist():
        fb = Feedback.from_int(f, rules.pegs)
        classes[fb] = int(counts[0, f])
        members[fb] = [space.code(i) for i in cands[replies == f]]
    return Partition(guess_code, len(cands), classes, members, scores)
