"""numba kernels for the hot paths. Each mirrors a function of ``reference.py``."""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from .reference import ENTROPY, MAX_CLASS, MOST_PARTS, SUM_SQUARES

# Below this many (guess, candidate) pairs a node is scored on one thread: starting threads costs more.
PARALLEL_WORK = 200_000


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


@njit(cache=True, parallel=True)
def feedback_table(digits, counts):
    """All-pairs feedback table (n, n) uint8."""
    n, pegs = digits.shape
    colors = counts.shape[1]
    out = np.empty((n, n), dtype=np.uint8)
    for a in prange(n):
        for b in range(n):
            out[a, b] = _feedback(digits, counts, a, b, pegs, colors)
    return out


@njit(cache=True)
def feedback_against(digits, counts, guess, candidates):
    pegs = digits.shape[1]
    colors = counts.shape[1]
    out = np.empty(candidates.shape[0], dtype=np.uint8)
    for j in range(candidates.shape[0]):
        out[j] = _feedback(digits, counts, guess, candidates[j], pegs, colors)
    return out


@njit(cache=True, inline="always")
def _score(hist, nclasses, criterion, weights):
    s = 0
    for f in range(nclasses):
        c = hist[f]
        if criterion == MAX_CLASS:
            if c > s:
                s = c
        elif criterion == SUM_SQUARES:
            s += c * c
        elif criterion == ENTROPY:
            s += weights[c]
        elif criterion == MOST_PARTS and c > 0:
            s -= 1
    return s


@njit(cache=True)
def _score_one(table, digits, counts, g, candidates, nclasses, criterion, weights, hist):
    for f in range(nclasses):
        hist[f] = 0
    if table.shape[0] > 0:
        row = table[g]
        for j in range(candidates.shape[0]):
            hist[row[candidates[j]]] += 1
    else:
        pegs = digits.shape[1]
        colors = counts.shape[1]
        for j in range(candidates.shape[0]):
            hist[_feedback(digits, counts, g, candidates[j], pegs, colors)] += 1
    return _score(hist, nclasses, criterion, weights)


@njit(cache=True)
def _scores_serial(table, digits, counts, pool, candidates, nclasses, criterion, weights):
    out = np.empty(pool.shape[0], dtype=np.int64)
    hist = np.zeros(nclasses, dtype=np.int64)
    for i in range(pool.shape[0]):
        out[i] = _score_one(table, digits, counts, pool[i], candidates, nclasses, criterion, weights, hist)
    return out


@njit(cache=True, parallel=True)
def _scores_parallel(table, digits, counts, pool, candidates, nclasses, criterion, weights):
    out = np.empty(pool.shape[0], dtype=np.int64)
    nchunks = 64
    size = (pool.shape[0] + nchunks - 1) // nchunks
    for c in prange(nchunks):
        hist = np.zeros(nclasses, dtype=np.int64)
        for i in range(c * size, min((c + 1) * size, pool.shape[0])):
            out[i] = _score_one(
                table, digits, counts, pool[i], candidates, nclasses, criterion, weights, hist
            )
    return out


@njit(cache=True)
def _pick(pool, scores, is_candidate):
    """Position in ``pool`` (ascending) of the least key (score, not a candidate, index)."""
    best = 0
    for i in range(1, pool.shape[0]):
        s = scores[i]
        if s < scores[best] or (s == scores[best] and is_candidate[pool[i]] and not is_candidate[pool[best]]):
            best = i
    return best


def guess_scores(table, digits, counts, pool, candidates, nclasses, criterion, weights):
    """Integer score of every guess of ``pool`` against ``candidates``; lower is better."""
    if pool.shape[0] * candidates.shape[0] >= PARALLEL_WORK:
        return _scores_parallel(table, digits, counts, pool, candidates, nclasses, criterion, weights)
    return _scores_serial(table, digits, counts, pool, candidates, nclasses, criterion, weights)


def best_guess(table, digits, counts, pool, candidates, is_candidate, nclasses, criterion, weights):
    """The code index of ``pool`` with the least key (score, not a candidate, index)."""
    scores = guess_scores(table, digits, counts, pool, candidates, nclasses, criterion, weights)
    return int(pool[_pick(pool, scores, is_candidate)])


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
