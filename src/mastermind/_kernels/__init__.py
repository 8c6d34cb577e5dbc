"""Private numeric kernels: numpy reference versions and numba-compiled fast versions.

Nothing outside the package imports this. Feedback is one small integer,
``black * (pegs + 1) + white``; codes are indices into a CodeSpace.

* ``reference``: plain numpy, the readable version every fast path is tested against.
* ``tables``: :class:`~.tables.CodeTables`, the arrays of one code space as one named structure.
* ``feedback``: the one compiled feedback rule and the one counting sort (grouping by reply).
* ``workspace``: kernels carve one buffer into named parts whose sizes are listed once.
* ``tree``: the partition strategies' search; ``optimal``: the exact optimal search;
  ``search``: the counter's skip-ahead search.
* ``jit``: numba's decorator, through which the kernels are compiled on first use (and then
  loaded from numba's on-disk cache).

Nothing here imports numba: a command that needs no compiled kernel never loads it. A front end
that wants to say why the first run is slow registers a listener with :func:`on_compile`.
"""

from __future__ import annotations

from collections.abc import Callable

_listeners: list[Callable[[bool], None]] = []


def on_compile(listener: Callable[[bool], None]) -> Callable[[], None]:
    """Call ``listener(True)`` when the JIT starts compiling kernels (a cold cache) and
    ``listener(False)`` when it is done; returns a function that removes the listener."""
    _listeners.append(listener)
    return lambda: _listeners.remove(listener) if listener in _listeners else None


def _compiling(started: bool) -> None:
    for listener in list(_listeners):
        listener(started)
