"""numba's ``njit`` and ``prange`` for the kernels, and word of when the JIT compiles.

Every kernel module imports numba through here, so importing one also starts watching numba's
compile events: a kernel compiled (not loaded from numba's on-disk cache) calls the listeners
given to :func:`mastermind._kernels.on_compile`, once when the outermost compilation starts and
once when it ends.
"""

from __future__ import annotations

from numba import njit, prange
from numba.core import event

from . import _compiling

__all__ = ["ALLOCATES_NOTHING", "njit", "prange"]

#: Options for a kernel that allocates nothing (every buffer it uses is a slice of a workspace
#: made in Python): it is compiled without numba's reference counting, which otherwise wraps
#: every array slice, argument and call in increments and decrements that the JIT must emit
#: and optimise (about a tenth of a cold compilation). numba refuses to compile such a kernel
#: if it does allocate. (``_nrt`` is numba's own switch for this.)
ALLOCATES_NOTHING = {"_nrt": False}


class _Watch(event.Listener):
    """Counts nested compilations (a kernel compiles the kernels it calls) and reports the outermost."""

    def __init__(self) -> None:
        self.depth = 0

    def on_start(self, ev: event.Event) -> None:
        self.depth += 1
        if self.depth == 1:
            _compiling(True)

    def on_end(self, ev: event.Event) -> None:
        self.depth -= 1
        if self.depth == 0:
            _compiling(False)


event.register("numba:compile", _Watch())
