"""Private numeric kernels: numpy reference versions and numba-compiled fast versions.

Nothing outside the package imports this. Feedback is one small integer,
``black * (pegs + 1) + white``; codes are indices into a CodeSpace.

* ``reference``: plain numpy, the readable version every fast path is tested against.
* ``tables``: :class:`~.tables.CodeTables`, the arrays of one code space as one named structure.
* ``feedback``: the one compiled feedback rule and the one counting sort (grouping by reply).
* ``workspace``: kernels slice one buffer into named parts whose sizes are listed once.
* ``partition``: the partition strategies' search; ``exact``: the exact optimal search;
  ``worst``: the hot loops of the worst-case search; ``skip_ahead``: the counter's skip-ahead
  search.
* ``jit``: numba's decorator, through which the kernels are compiled on first use (and then
  loaded from numba's on-disk cache).

Nothing here imports numba: a command that needs no compiled kernel never loads it. A front end
that wants to say why the first run is slow registers a listener with :func:`on_compile`.

A short-lived process (the command line) calls :func:`quick_start`: small games then run on the
numpy reference, which needs no numba at all (importing numba and loading the cached kernels
costs more than the whole numpy search of such a game). The results are the same either way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

    from ..core.code import CodeSpace

#: The largest game that :func:`quick_start` puts on the numpy reference: up to here the numpy
#: walk of a partition strategy's whole tree (on the reference's reply table) takes less time than
#: importing numba and loading its cached kernels (docs/performance.md, "The first run").
QUICK_GAME = 3125

_numpy_up_to = 0


def quick_start(up_to: int = QUICK_GAME) -> None:
    """Run games of at most ``up_to`` codes on the numpy reference instead of compiled kernels,
    for the rest of the process (0: none, the default of the library).

    It covers the partition strategies' choice of a guess (their whole trees are then walked in
    Python) and the grouping of candidates by reply (narrowing a history, walking a tree): a
    command on such a game imports no numba. Every guess, tree and total is the same as compiled;
    only the time differs, in favour of numpy for a process that would load numba for one small
    search, of the compiled kernels for anything larger or longer.
    """
    global _numpy_up_to
    _numpy_up_to = max(0, int(up_to))


def on_numpy(codes: int) -> bool:
    """Whether a game of this many codes runs on the numpy reference (see :func:`quick_start`)."""
    return codes <= _numpy_up_to


def replies(space: CodeSpace, guess: int, cands: np.ndarray) -> np.ndarray:
    """The reply to ``guess`` (a code index) of each of ``cands``, as uint8."""
    if on_numpy(space.size):
        from .reference import feedback_against

        return feedback_against(space, guess, cands)
    from .feedback import replies as compiled
    from .tables import tables_of

    return compiled(tables_of(space), guess, cands)


def cells(space: CodeSpace, guess: int, cands: np.ndarray) -> list[tuple[int, np.ndarray]]:
    """``cands`` grouped by their reply to ``guess``: (reply, codes) in increasing order of reply,
    each group in the order of ``cands``."""
    if on_numpy(space.size):
        from .reference import cells as grouped

        return grouped(space, guess, cands)
    from .feedback import cells as compiled
    from .tables import tables_of

    return compiled(tables_of(space), guess, cands)


_listeners: list[Callable[[bool], None]] = []

#: What a front end tells a person while the JIT compiles kernels (the first run, or after an
#: upgrade; later runs load them from numba's cache): one wording for the terminal and the board.
COMPILING = "compiling the kernels this needs, the first time only (up to a few minutes)..."


def on_compile(listener: Callable[[bool], None]) -> Callable[[], None]:
    """Call ``listener(True)`` when the JIT starts compiling kernels (a cold cache) and
    ``listener(False)`` when it is done; returns a function that removes the listener."""
    _listeners.append(listener)
    return lambda: _listeners.remove(listener) if listener in _listeners else None


def _compiling(started: bool) -> None:
    for listener in list(_listeners):
        listener(started)


_steps: list[Callable[[int, int], None]] = []


def on_compile_step(listener: Callable[[int, int], None]) -> Callable[[], None]:
    """Call ``listener(done, total)`` as the JIT compiles: of the kernels that the compilation
    under way needs and that are not compiled yet (the kernel first called and those it calls),
    how many are done. ``done`` reaches ``total`` when the outermost compilation ends. Returns a
    function that removes the listener."""
    _steps.append(listener)
    return lambda: _steps.remove(listener) if listener in _steps else None


def _compile_step(done: int, total: int) -> None:
    for listener in list(_steps):
        listener(done, total)
