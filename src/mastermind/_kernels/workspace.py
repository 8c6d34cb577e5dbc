"""Workspaces: one int64 buffer per kernel call, carved into named parts.

A kernel's parts and their sizes are listed once, by a ``*_parts`` function compiled with
numba: Python sums them to size the buffer, and the kernel calls it again to carve the same
buffer with :func:`carve`, so the two can never disagree. Kernels then allocate nothing.
"""

from __future__ import annotations

from .jit import njit


@njit(cache=True, inline="always")
def carve(work, at, n):
    """The part ``work[at : at + n]`` and where the next part starts."""
    return work[at : at + n], at + n


def size_of(parts: tuple[int, ...]) -> int:
    """Entries a workspace with these parts needs."""
    return int(sum(parts))
