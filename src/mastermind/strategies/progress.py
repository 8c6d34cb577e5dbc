"""Where long work stands: one record and one callback shape, from a strategy's own search up to
the runner and the front ends that draw it.

>>> seen = []
>>> report: OnProgress = seen.append
>>> report(Progress("play", 3, 9, 3, 9))
>>> seen[0].fraction
0.3333333333333333
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Literal, NamedTuple

if TYPE_CHECKING:
    import numpy as np

#: What the work is doing: ``"play"`` secrets played (units are secrets), ``"split"`` guesses
#: chosen at the nodes of the current level of a tree being cut into subtrees, ``"solve"``
#: subtrees solved, ``"search"`` pieces of an exact search done (of those still worth trying;
#: ``best`` is the least total found so far, ``tree`` that tree, ``firsts`` its first guesses
#: settled, ``lower`` a proven lower bound on the least total).
Stage = Literal["play", "split", "solve", "search"]


class Progress(NamedTuple):
    """Where a piece of long work stands: its stage, units done of how many, secrets done of how many.

    The units depend on the stage (see :data:`Stage`). ``secrets_done`` only grows during a run; a
    search counts no secrets until it ends. ``units`` may change as the work learns more (a search
    drops guesses its bounds rule out). An exact search reports the ``best`` total it has found
    and its ``tree`` (in the search's preorder array; of the set searched, the whole game when
    the search is of the whole game), so that a caller can keep that tree as it improves: hours
    of a long search are then never lost with it.
    """

    stage: Stage
    units_done: int
    units: int
    secrets_done: int
    secrets: int
    best: int | None = None
    tree: np.ndarray | None = None
    #: (first guesses settled, of how many): those searched, or ruled out by their bounds
    firsts: tuple[int, int] | None = None
    #: what the search has proved the least total to be at least, where it says
    lower: int | None = None

    @property
    def fraction(self) -> float:
        """The share of the units done (0 when there are none yet)."""
        return self.units_done / self.units if self.units else 0.0


#: Called with each new :class:`Progress`; it may raise (KeyboardInterrupt) to stop the work.
OnProgress = Callable[[Progress], None]


def counting(progress: OnProgress | None, secrets: int) -> Callable[[int], None] | None:
    """A tally for work that finds secrets one or a few at a time (a walk, games one by one):
    each call ``tally(n)`` reports n more secrets done to ``progress`` (stage ``"play"``)."""
    if progress is None:
        return None
    done = 0

    def tally(n: int) -> None:
        nonlocal done
        done += n
        progress(Progress("play", done, secrets, done, secrets))

    return tally
