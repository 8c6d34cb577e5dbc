"""Workspaces: one int64 buffer per kernel call, sliced into named parts.

A kernel's parts and their sizes are listed once, by a ``*_parts`` function compiled with
numba: Python sums them to size the buffer, and the kernel calls it again and slices the same
buffer part by part in that order, so the two can never disagree. Kernels then allocate nothing.
"""

from __future__ import annotations


def size_of(parts: tuple[int, ...]) -> int:
    """Entries a workspace with these parts needs."""
    return int(sum(parts))
