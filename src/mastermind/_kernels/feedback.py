"""The one compiled feedback rule, and the one counting sort that groups codes by reply.

A reply is one small integer, ``black * (pegs + 1) + white``. Codes are packed 4 or 8 bits a
peg into a uint64 (:class:`~.tables.CodeTables`), so the blacks are a few bit operations on
``packed[a] ^ packed[b]``; the colours two codes share come from a table over colour multisets,
or from the colour counts where that table would be too big.
"""

from __future__ import annotations

import numpy as np

from .jit import ALLOCATES_NOTHING, inner, njit

_LOW4 = np.int64(0x1111111111111111)
_LOW8 = np.int64(0x0101010101010101)


@njit(cache=True, inline="always")
def blacks(x, y, pegs, width):
    """Positions where the packed codes ``x`` and ``y`` (int64) agree."""
    d = x ^ y
    if width == 4:
        d = d | (d >> 1)
        d = (d | (d >> 2)) & _LOW4
        differ = ((d * _LOW4) >> 60) & 15
    else:
        d = d | (d >> 4)
        d = d | (d >> 2)
        d = (d | (d >> 1)) & _LOW8
        differ = ((d * _LOW8) >> 56) & 255
    return pegs - differ


@njit(cache=True, inline="always")
def common(t, a, b):
    """Colours codes ``a`` and ``b`` share, counted with multiplicity (black + white)."""
    if t.shared.shape[0] > 0:
        return np.int64(t.shared[t.msid[a], t.msid[b]])
    n = 0
    for k in range(t.counts.shape[1]):
        x = t.counts[a, k]
        y = t.counts[b, k]
        n += x if x < y else y
    return np.int64(n)


@njit(cache=True, inline="always")
def reply(t, a, b):
    """The reply to guess ``a`` when the secret is ``b``: black * (pegs + 1) + white."""
    black = blacks(np.int64(t.packed[a]), np.int64(t.packed[b]), t.pegs, t.width)
    return black * t.pegs + common(t, a, b)


@inner(cache=True, **ALLOCATES_NOTHING)
def reply_at(t, a, b):
    """:func:`reply` (``a``, ``b``: int64) as a kernel of its own, for a kernel that reads a reply
    in many places: each is then a call (that LLVM inlines where it pays), where each inlined
    copy of the rule would be typed and lowered again by numba, a first run's compile time."""
    return reply(t, a, b)


@njit(cache=True)
def replies(t, guess, cands):
    """The reply to ``guess`` of each candidate, as uint8."""
    out = np.empty(cands.shape[0], dtype=np.uint8)
    for j in range(cands.shape[0]):
        out[j] = reply(t, guess, cands[j])
    return out


@njit(cache=True, inline="always")
def counting_sort(items, keys, lo, hi, nclasses, starts, tmp):
    """Sort ``items[lo:hi]`` in place by ``keys[lo:hi]``, stably (so each class stays ascending).

    Afterwards class ``f`` is ``items[lo + starts[f] : lo + starts[f + 1]]``; ``starts`` has
    nclasses + 1 entries and ``tmp`` at least ``hi`` (scratch).
    """
    for f in range(nclasses + 1):
        starts[f] = 0
    for j in range(lo, hi):
        starts[keys[j] + 1] += 1
    for f in range(nclasses):
        starts[f + 1] += starts[f]
    for j in range(lo, hi):
        f = keys[j]
        tmp[lo + starts[f]] = items[j]
        starts[f] += 1
    for j in range(lo, hi):
        items[j] = tmp[j]
    for f in range(nclasses, 0, -1):  # each start was moved to the class's end: shift back
        starts[f] = starts[f - 1]
    starts[0] = 0


def cells(t, guess, cands):
    """The codes of ``cands`` grouped by their reply to ``guess``: a list of (reply, codes), in
    increasing order of reply, each group in the order of ``cands``. Every Python walk of a tree
    (the reference walk, the runner's cutting, the check of an optimal tree) splits a node so."""
    order, starts = split(replies(t, guess, cands), (t.pegs + 1) * (t.pegs + 1))
    at = starts.tolist()
    return [(f, cands[order[at[f] : at[f + 1]]]) for f in range(len(at) - 1) if at[f + 1] > at[f]]


@njit(cache=True)
def split(keys, nclasses):
    """Positions 0..n-1 grouped by ``keys``: (order, starts), class f is order[starts[f]:starts[f+1]]."""
    n = keys.shape[0]
    order = np.arange(n)
    ks = keys.astype(np.int64)
    starts = np.empty(nclasses + 1, dtype=np.int64)
    tmp = np.empty(n, dtype=np.int64)
    counting_sort(order, ks, 0, n, nclasses, starts, tmp)
    return order, starts
