"""Fast partition search: the next guess at one node, and whole strategy trees, in numba.

Three things make it fast, none of which changes a single choice:

* Feedback without a table: codes are packed into one uint64 (4 or 8 bits a peg), so black is a
  few bit operations; the shared-colour count comes from a small table indexed by the codes'
  colour multisets (or a loop over colours where that table would be too big).
* Symmetry: colours no guess has used are interchangeable, and so are positions that every past
  guess colours alike. Only guesses that may be the lowest of their class are scored (a guess is
  skipped when renaming its free colours, or swapping two of its indistinguishable positions,
  gives a lower code). The lowest member of a class has the same score and candidacy as the
  others and wins the numeric tie-break, so the chosen guess is the same as without the
  reduction.
* Pruning: candidates are scored first; a non-candidate must score strictly better to win, so it
  is abandoned as soon as its partial score cannot, and not tried at all once a candidate
  reaches the best score any non-candidate could have (an even split over every reply).

The criteria are those of ``reference.py``: integer scores, lower is better; ties go to a
candidate, then to the lowest index.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..code import CodeSpace
from .reference import ENTROPY, MAX_CLASS, MOST_PARTS, SUM_SQUARES

BIG = np.int64(2**62)
#: Largest colour-multiset table for the shared-colour count (uint8 entries).
SHARED_TABLE_LIMIT = 1 << 24
_LOW4 = np.uint64(0x1111111111111111)
_LOW8 = np.uint64(0x0101010101010101)
_U1, _U2, _U4 = np.uint64(1), np.uint64(2), np.uint64(4)
_U56, _U60 = np.uint64(56), np.uint64(60)


# ---------------------------------------------------------------------------------------------
# feedback


@njit(cache=True, inline="always")
def fb(packed, msid, shared, counts, a, b, pegs, width):
    """Feedback integer black * (pegs + 1) + white of codes ``a`` and ``b``."""
    x = packed[a] ^ packed[b]
    if width == 4:
        y = x | (x >> _U1)
        y = (y | (y >> _U2)) & _LOW4
        differ = np.int64((y * _LOW4) >> _U60)
    else:
        y = x | (x >> _U4)
        y = y | (y >> _U2)
        y = (y | (y >> _U1)) & _LOW8
        differ = np.int64((y * _LOW8) >> _U56)
    black = pegs - differ
    if shared.shape[0] > 0:
        common = np.int64(shared[msid[a], msid[b]])
    else:
        common = 0
        for k in range(counts.shape[1]):
            x1 = counts[a, k]
            y1 = counts[b, k]
            common += x1 if x1 < y1 else y1
    return black * (pegs + 1) + common - black


@njit(cache=True)
def feedback_many(packed, msid, shared, counts, guess, cands, pegs, width):
    out = np.empty(cands.shape[0], dtype=np.int64)
    for j in range(cands.shape[0]):
        out[j] = fb(packed, msid, shared, counts, guess, cands[j], pegs, width)
    return out


# ---------------------------------------------------------------------------------------------
# symmetry


@njit(cache=True, inline="always")
def _next_free(used, c, colors):
    while c < colors and (used >> c) & 1:
        c += 1
    return c


@njit(cache=True)
def may_be_lowest(digits, g, used, pair_a, pair_b, npairs, pegs, colors, buf, relabel):
    """False if a symmetry of the node maps guess ``g`` to a lower code (then skip it)."""
    # Free colours must appear in increasing order of first appearance, lowest first.
    expected = _next_free(used, 0, colors)
    seen = np.int64(0)
    for i in range(pegs):
        d = np.int64(digits[g, i])
        if (used >> d) & 1 or (seen >> d) & 1:
            continue
        if d != expected:
            return False
        seen |= np.int64(1) << d
        expected = _next_free(used, expected + 1, colors)
    # Swapping two indistinguishable positions (then renaming free colours) must not go lower.
    for t in range(npairs):
        a = pair_a[t]
        b = pair_b[t]
        if digits[g, a] == digits[g, b]:
            continue
        for i in range(pegs):
            buf[i] = digits[g, i]
        buf[a] = digits[g, b]
        buf[b] = digits[g, a]
        for k in range(colors):
            relabel[k] = -1
        nxt = _next_free(used, 0, colors)
        for i in range(pegs):
            d = buf[i]
            if not (used >> d) & 1:
                if relabel[d] < 0:
                    relabel[d] = nxt
                    nxt = _next_free(used, nxt + 1, colors)
                buf[i] = relabel[d]
        for i in range(pegs):
            if buf[i] != digits[g, i]:
                if buf[i] < digits[g, i]:
                    return False
                break
    return True


@njit(cache=True)
def block_pairs(blocks, pegs):
    """Consecutive positions of each block: their transpositions generate the position symmetry."""
    pair_a = np.empty(pegs, dtype=np.int64)
    pair_b = np.empty(pegs, dtype=np.int64)
    n = 0
    for i in range(pegs):
        for j in range(i + 1, pegs):
            if blocks[j] == blocks[i]:
                pair_a[n] = i
                pair_b[n] = j
                n += 1
                break
    return pair_a, pair_b, n


@njit(cache=True)
def refine_blocks(blocks, digits, guess, pegs):
    """Positions stay together only if the new guess colours them alike."""
    out = np.empty(pegs, dtype=np.int64)
    n = 0
    for i in range(pegs):
        out[i] = -1
        for j in range(i):
            if blocks[j] == blocks[i] and digits[guess, j] == digits[guess, i]:
                out[i] = out[j]
                break
        if out[i] < 0:
            out[i] = n
            n += 1
    return out


@njit(cache=True)
def colours_of(digits, guess, pegs):
    used = np.int64(0)
    for i in range(pegs):
        used |= np.int64(1) << np.int64(digits[guess, i])
    return used


# ---------------------------------------------------------------------------------------------
# scoring one guess


@njit(cache=True)
def score_guess(packed, msid, shared, counts, weights, g, cands, lo, hi, pegs, width,
                criterion, bound, hist, seen):  # fmt: skip
    """Score of ``g`` over cands[lo:hi]; returns ``bound`` as soon as it cannot get below it.

    ``hist`` must be all zero on entry and is left so; ``seen`` has room for hi - lo entries.
    """
    s = np.int64(0)
    parts = np.int64(0)
    touched = 0
    result = bound
    for j in range(lo, hi):
        f = fb(packed, msid, shared, counts, g, cands[j], pegs, width)
        c = hist[f]
        hist[f] = c + 1
        seen[touched] = f
        touched += 1
        if criterion == MAX_CLASS:
            if c + 1 > s:
                s = c + 1
                if s >= bound:
                    break
        elif criterion == SUM_SQUARES:
            s += 2 * c + 1
            if s >= bound:
                break
        elif criterion == ENTROPY:
            s += weights[c + 1] - weights[c]
            if s >= bound:
                break
        else:  # MOST_PARTS: -(parts), and at best every remaining candidate opens a new part
            if c == 0:
                parts += 1
            if -(parts + (hi - 1 - j)) >= bound:
                break
    else:
        result = -parts if criterion == MOST_PARTS else s
    for t in range(touched):
        hist[seen[t]] = 0
    return result


#: Below this many candidates, scoring a guess is cheaper than testing its symmetry first.
SYMMETRY_FIRST = 24


@njit(cache=True)
def even_split_bound(n, k, criterion, weights):
    """The least score any guess can have on n candidates with k possible replies."""
    if k <= 0:
        return BIG
    q = n // k
    r = n - q * k
    if criterion == MAX_CLASS:
        return q + (1 if r > 0 else 0)
    if criterion == SUM_SQUARES:
        return r * (q + 1) * (q + 1) + (k - r) * q * q
    if criterion == ENTROPY:
        return r * weights[q + 1] + (k - r) * weights[q]
    return -min(n, k)


# ---------------------------------------------------------------------------------------------
# choosing the guess at one node


@njit(cache=True)
def _best_candidate(digits, packed, msid, shared, counts, weights, cands, lo, hi, used, blocks,
                    pegs, colors, width, criterion, replies, hist):  # fmt: skip
    pair_a, pair_b, npairs = block_pairs(blocks, pegs)
    buf = np.empty(pegs, dtype=np.int64)
    relabel = np.empty(colors, dtype=np.int64)
    n = hi - lo
    floor = even_split_bound(n, replies + 1, criterion, weights)  # a candidate may also win
    best, best_score = np.int64(-1), BIG
    seen = np.empty(n, dtype=np.int64)
    check_first = n > SYMMETRY_FIRST
    for j in range(lo, hi):
        g = cands[j]
        # A guess that is not the lowest of its symmetry class scores the same as that lowest
        # one, met earlier in this ascending loop, so it can never be strictly better: testing
        # symmetry only saves work, and only pays when scoring is dear.
        if check_first and not may_be_lowest(digits, g, used, pair_a, pair_b, npairs, pegs,
                                             colors, buf, relabel):  # fmt: skip
            continue
        s = score_guess(packed, msid, shared, counts, weights, g, cands, lo, hi, pegs, width,
                        criterion, best_score, hist, seen)  # fmt: skip
        if s < best_score:
            best, best_score = g, s
            if best_score <= floor:
                break
    return best, best_score


@njit(cache=True)
def multiset_bounds(msid, shared, weights, cands, lo, hi, pegs, criterion):
    """For each colour multiset, the least score a non-candidate guess of it can have.

    A guess's shared-colour count with a candidate depends only on the two multisets, and
    candidates with different shared counts get different replies. Within a group sharing s
    colours, a non-candidate can only tell blacks 0..s apart (0..pegs-2 when s = pegs), so the
    score is at least that of an even split of each group over its possible blacks.
    """
    kinds = shared.shape[0]
    out = np.empty(kinds, dtype=np.int64)
    group = np.zeros(pegs + 1, dtype=np.int64)
    for m in range(kinds):
        for t in range(pegs + 1):
            group[t] = 0
        for j in range(lo, hi):
            group[shared[m, msid[cands[j]]]] += 1
        total = np.int64(0)
        for t in range(pegs + 1):
            if group[t] == 0:
                continue
            blacks = t + 1 if t < pegs else pegs - 1
            b = even_split_bound(group[t], blacks, criterion, weights)
            if criterion == MAX_CLASS:
                total = max(total, b)
            else:
                total += b
        out[m] = total
    return out


@njit(cache=True)
def _scan_others(digits, packed, msid, shared, counts, weights, cands, lo, hi, used, blocks,
                 pegs, colors, width, criterion, start, stop, bound, floor, hist, ms_bound):  # fmt: skip
    """The best non-candidate in codes start..stop-1 scoring below ``bound`` (or -1)."""
    pair_a, pair_b, npairs = block_pairs(blocks, pegs)
    pruned = ms_bound.shape[0] > 0
    buf = np.empty(pegs, dtype=np.int64)
    relabel = np.empty(colors, dtype=np.int64)
    k = lo + np.searchsorted(cands[lo:hi], start)
    seen = np.empty(hi - lo, dtype=np.int64)
    check_first = hi - lo > SYMMETRY_FIRST
    best, best_score = np.int64(-1), bound
    for g in range(start, stop):
        while k < hi and cands[k] < g:
            k += 1
        if k < hi and cands[k] == g:
            continue
        if pruned and ms_bound[msid[g]] >= best_score:
            continue
        if check_first and not may_be_lowest(digits, g, used, pair_a, pair_b, npairs, pegs,
                                             colors, buf, relabel):  # fmt: skip
            continue
        s = score_guess(packed, msid, shared, counts, weights, g, cands, lo, hi, pegs, width,
                        criterion, best_score, hist, seen)  # fmt: skip
        if s < best_score:
            best, best_score = g, s
            if best_score <= floor:
                break
    return best, best_score


@njit(cache=True)
def bounds_for(msid, shared, weights, cands, lo, hi, pegs, criterion):
    """Multiset bounds where the shared-colour table exists, else an empty array (no pruning)."""
    if shared.shape[0] == 0:
        return np.zeros(0, dtype=np.int64)
    return multiset_bounds(msid, shared, weights, cands, lo, hi, pegs, criterion)


@njit(cache=True)
def choose_serial(digits, packed, msid, shared, counts, weights, cands, lo, hi, used, blocks,
                  pegs, colors, width, criterion, replies):  # fmt: skip
    """The guess with the least key (score, not a candidate, index) for cands[lo:hi]."""
    n = hi - lo
    if n <= 2:
        return cands[lo]
    hist = np.zeros((pegs + 1) * (pegs + 1), dtype=np.int64)
    best, best_score = _best_candidate(digits, packed, msid, shared, counts, weights, cands, lo,
                                       hi, used, blocks, pegs, colors, width, criterion, replies,
                                       hist)  # fmt: skip
    floor = even_split_bound(n, replies, criterion, weights)
    if best_score <= floor:
        return best
    ms_bound = bounds_for(msid, shared, weights, cands, lo, hi, pegs, criterion)
    other, other_score = _scan_others(digits, packed, msid, shared, counts, weights, cands, lo,
                                      hi, used, blocks, pegs, colors, width, criterion, 0,
                                      digits.shape[0], best_score, floor, hist, ms_bound)  # fmt: skip
    return other if other >= 0 else best


@njit(cache=True, parallel=True)
def scan_others_parallel(digits, packed, msid, shared, counts, weights, cands, used, blocks,
                         pegs, colors, width, criterion, bound, floor, chunks):  # fmt: skip
    """The best non-candidate of the whole code space, scanned in ``chunks`` parallel pieces."""
    total = digits.shape[0]
    size = (total + chunks - 1) // chunks
    bests = np.full(chunks, -1, dtype=np.int64)
    scores = np.full(chunks, bound, dtype=np.int64)
    ms_bound = bounds_for(msid, shared, weights, cands, 0, cands.shape[0], pegs, criterion)
    for c in prange(chunks):
        hist = np.zeros((pegs + 1) * (pegs + 1), dtype=np.int64)
        start = c * size
        stop = min(total, start + size)
        if start < stop:
            b, s = _scan_others(digits, packed, msid, shared, counts, weights, cands, 0,
                                cands.shape[0], used, blocks, pegs, colors, width, criterion,
                                start, stop, bound, floor, hist, ms_bound)  # fmt: skip
            bests[c] = b
            scores[c] = s
    best, best_score = np.int64(-1), bound
    for c in range(chunks):  # chunks are in index order: strict < keeps the lowest index
        if bests[c] >= 0 and scores[c] < best_score:
            best, best_score = bests[c], scores[c]
    return best


# ---------------------------------------------------------------------------------------------
# whole subtrees


@njit(cache=True)
def subtree(digits, packed, msid, shared, counts, weights, cands_in, used0, blocks0, depth0,
            pegs, colors, width, criterion, replies, max_depth, first=-1):  # fmt: skip
    """Distribution (guesses -> secrets) of the strategy over the secrets ``cands_in``.

    The node's guess is ``first`` if given (>= 0), else chosen here; ``depth0`` is its number.
    """
    n = cands_in.shape[0]
    dist = np.zeros(max_depth + 1, dtype=np.int64)
    cands = cands_in.copy()
    tmp = np.empty(n, dtype=np.int64)
    fbs = np.empty(n, dtype=np.int64)
    nclasses = (pegs + 1) * (pegs + 1)
    win = pegs * (pegs + 1)
    cap = nclasses * (max_depth + 1) + 1
    st_lo = np.empty(cap, dtype=np.int64)
    st_hi = np.empty(cap, dtype=np.int64)
    st_depth = np.empty(cap, dtype=np.int64)
    st_used = np.empty(cap, dtype=np.int64)
    st_blocks = np.empty((cap, pegs), dtype=np.int64)
    starts = np.empty(nclasses + 1, dtype=np.int64)
    top = 0
    st_lo[0], st_hi[0], st_depth[0], st_used[0] = 0, n, depth0, used0
    st_blocks[0] = blocks0
    top = 1
    while top > 0:
        top -= 1
        lo, hi, depth, used = st_lo[top], st_hi[top], st_depth[top], st_used[top]
        blocks = st_blocks[top].copy()
        size = hi - lo
        if size == 1:
            dist[depth] += 1
            continue
        if size == 2:
            dist[depth] += 1
            dist[depth + 1] += 1
            continue
        if depth >= max_depth:
            raise ValueError("a strategy made no progress")
        if first >= 0 and depth == depth0:
            g = np.int64(first)
        else:
            g = choose_serial(digits, packed, msid, shared, counts, weights, cands, lo, hi, used,
                              blocks, pegs, colors, width, criterion, replies)  # fmt: skip
        for f in range(nclasses + 1):
            starts[f] = 0
        for j in range(lo, hi):
            f = fb(packed, msid, shared, counts, g, cands[j], pegs, width)
            fbs[j] = f
            starts[f + 1] += 1
        for f in range(nclasses):
            starts[f + 1] += starts[f]
        for j in range(lo, hi):  # stable counting sort keeps each class ascending
            f = fbs[j]
            tmp[lo + starts[f]] = cands[j]
            starts[f] += 1
        for j in range(lo, hi):
            cands[j] = tmp[j]
        new_used = used | colours_of(digits, g, pegs)
        new_blocks = refine_blocks(blocks, digits, g, pegs)
        for f in range(nclasses - 1, -1, -1):  # starts[f] is now the end of class f
            begin = lo + (starts[f - 1] if f > 0 else 0)
            stop = lo + starts[f]
            if stop <= begin:
                continue
            if f == win:
                dist[depth] += 1
                continue
            st_lo[top], st_hi[top], st_depth[top], st_used[top] = begin, stop, depth + 1, new_used
            st_blocks[top] = new_blocks
            top += 1
    return dist


@njit(cache=True, parallel=True)
def subtrees(digits, packed, msid, shared, counts, weights, flat, offsets, used, blocks, depth,
             pegs, colors, width, criterion, replies, max_depth):  # fmt: skip
    """Distributions of many independent subtrees, on all cores (largest first is best)."""
    units = offsets.shape[0] - 1
    out = np.zeros((units, max_depth + 1), dtype=np.int64)
    for u in prange(units):
        out[u] = subtree(digits, packed, msid, shared, counts, weights,
                         flat[offsets[u]:offsets[u + 1]], used[u], blocks[u], depth[u], pegs,
                         colors, width, criterion, replies, max_depth)  # fmt: skip
    return out.sum(axis=0)


# ---------------------------------------------------------------------------------------------
# the Python side


class Packed:
    """The arrays the kernels need for one code space (built once per space)."""

    def __init__(self, space: CodeSpace) -> None:
        digits = space.digits()
        counts = space.counts()
        self.pegs, self.colors = space.pegs, space.colors
        self.width = 4 if space.colors <= 16 else 8
        packed = np.zeros(space.size, dtype=np.uint64)
        for i in range(space.pegs):
            packed |= digits[:, i].astype(np.uint64) << np.uint64(self.width * i)
        kinds, msid = np.unique(counts, axis=0, return_inverse=True)
        if len(kinds) ** 2 <= SHARED_TABLE_LIMIT:
            shared = np.empty((len(kinds), len(kinds)), dtype=np.uint8)
            for a in range(len(kinds)):
                shared[a] = np.minimum(kinds[a], kinds).sum(axis=1)
        else:
            shared = np.zeros((0, 0), dtype=np.uint8)
        self.arrays = (digits, packed, msid.astype(np.int32).ravel(), shared, counts)

    def symmetry(self, guesses) -> tuple[int, np.ndarray]:
        """Colours used and position blocks after the given guesses (code indices)."""
        digits = self.arrays[0]
        used = np.int64(0)
        blocks = np.zeros(self.pegs, dtype=np.int64)
        for g in guesses:
            used |= colours_of(digits, g, self.pegs)
            blocks = refine_blocks(blocks, digits, g, self.pegs)
        return used, blocks


_PACKED: dict[tuple[int, int, bool], Packed] = {}


def packed_of(space: CodeSpace) -> Packed:
    key = (space.pegs, space.colors, space.rules.repeats)
    if key not in _PACKED:
        if len(_PACKED) >= 4:  # a few games per process at most; never grows without bound
            _PACKED.pop(next(iter(_PACKED)))
        _PACKED[key] = Packed(space)
    return _PACKED[key]
