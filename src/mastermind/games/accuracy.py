"""Accuracy and luck: a reviewed move, and a game, in two numbers from 0 to 100.

**Accuracy** is how close a move came to the best play, from its loss in expected guesses
(:attr:`~.review.MoveReview.loss`): ``100 * 2 ** (-loss / HALF_LOSS)``. Best play is 100; the
accuracy halves with every :data:`HALF_LOSS` guesses lost, smoothly, and never reaches 0 for a
finite loss. The verdicts' bounds fall on round numbers: a loss of 0.1 (the end of ``good``)
is 79.4, 0.3 (the end of an ``inaccuracy``) exactly 50, 0.6 (the end of a ``mistake``) exactly 25;
so ``good`` is above 79.4, an ``inaccuracy`` above 50, a ``mistake`` above 25 and a ``blunder``
25 or less. A move that lets a code escape the guesses left (no finite loss) is 0. A game's
accuracy is the mean of its moves'.

**Luck** is how the reply a guess got compares with what that guess leaves on average. A guess
splits the ``n`` codes possible into classes by reply; a code in a class of ``k`` leaves ``k``,
so the guess leaves ``m = sum(k * k) / n`` codes on average (a win leaves its one code). A reply
that left ``a`` codes has luck ``100 * m / (m + a)``: 50 where it left the average, above 50
where it left fewer (75 for a third of the average), below 50 where it left more, 100 only in
the limit. In bits, it is the logistic of how much more the reply told than the guess tells on
average (``log2(m / a)``). A guess that cannot split the codes (one class) leaves ``m = a``:
50, no luck either way. A game's luck is the mean of its moves'.

Both are out of 100, not 99: 100 is reached (every move the best is an accuracy of 100), and a
percentage is read without a legend.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from fractions import Fraction

#: The loss (in expected guesses) that halves a move's accuracy: the end of an inaccuracy.
HALF_LOSS = 0.3


def accuracy(loss: Fraction | float | None) -> float:
    """A move's accuracy from its loss (None: the move let a code escape the guesses left).

    >>> accuracy(0), accuracy(0.3), accuracy(0.6), round(accuracy(0.1), 1), accuracy(None)
    (100.0, 50.0, 25.0, 79.4, 0.0)
    """
    if loss is None:
        return 0.0
    return 100.0 * 2.0 ** (-max(0.0, float(loss)) / HALF_LOSS)


def mean_left(sizes: Iterable[int]) -> float:
    """The codes a guess leaves on average, from the sizes of the classes it splits them into.

    >>> mean_left([1, 1, 2])
    1.5
    """
    sizes = [int(k) for k in sizes if k]
    return sum(k * k for k in sizes) / sum(sizes)


def luck(left: int, average: float) -> float:
    """A reply's luck: it left ``left`` codes where its guess leaves ``average`` on average.

    >>> luck(2, 2.0), luck(1, 3.0), luck(3, 1.0)
    (50.0, 75.0, 25.0)
    """
    return 100.0 * average / (average + left)


def mean(values: Sequence[float]) -> float | None:
    """The game's figure: the mean of its moves' (None for no move)."""
    return sum(values) / len(values) if values else None


def rounded(value: float | None) -> int | None:
    """A figure as it is shown: a whole number (half up), None for none."""
    return None if value is None else math.floor(value + 0.5)
