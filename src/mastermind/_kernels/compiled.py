"""numba kernels for filtering candidates by a reply and grouping them by reply (the search is in tree.py)."""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, inline="always")
def _feedback(digits, counts, a, b, pegs, colors):
    black = 0
    for i in range(pegs):
        if digits[a, i] == digits[b, i]:
            black += 1
    shared = 0
    for k in range(colors):
        x = counts[a, k]
        y = counts[b, k]
        shared += x if x < y else y
    return black * (pegs + 1) + shared - black


@njit(cache=True)
def feedback_against(digits, counts, guess, candidates):
    pegs = digits.shape[1]
    colors = counts.shape[1]
    out = np.empty(candidates.shape[0], dtype=np.uint8)
    for j in range(candidates.shape[0]):
        out[j] = _feedback(digits, counts, guess, candidates[j], pegs, colors)
    return out


@njit(cache=True)
def split(feedback, nclasses):
    """Stable grouping of positions by feedback: (order, starts) like a counting sort."""
    n = feedback.shape[0]
    starts = np.zeros(nclasses + 1, dtype=np.int64)
    for j in range(n):
        starts[feedback[j] + 1] += 1
    for f in range(nclasses):
        starts[f + 1] += starts[f]
    fill = starts[:-1].copy()
    order = np.empty(n, dtype=np.int64)
    for j in range(n):
        f = feedback[j]
        order[fill[f]] = j
        fill[f] += 1
    return order, starts
