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


@njit(cache=True)
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
#
# The kernels below allocate nothing: every buffer is a slice of one workspace made in Python.
# Each numpy function used inside a kernel costs the JIT a separate instantiation, and the
# first (cold) run pays for all of them.


@njit(cache=True)
def _next_free(used, c, colors):
    while c < colors and (used >> c) & 1:
        c += 1
    return c


@njit(cache=True)
def may_be_lowest(digits, g, used, pairs, npairs, pegs, colors, buf, relabel):
    """False if a symmetry of the node maps guess ``g`` to a lower code (then skip it).

    ``pairs[2t], pairs[2t + 1]`` are positions no guess has told apart (their transpositions
    generate the position symmetry); colours outside ``used`` are interchangeable.
    """
    # Free colours must appear in increasing order of first appearance, lowest first.
    expected = _next_free(used, np.int64(0), colors)
    seen = 0
    for i in range(pegs):
        d = np.int64(digits[g, i])
        if (used >> d) & 1 or (seen >> d) & 1:
            continue
        if d != expected:
            return False
        seen |= 1 << d
        expected = _next_free(used, expected + 1, colors)
    # Swapping two indistinguishable positions (then renaming free colours) must not go lower.
    for t in range(npairs):
        a = pairs[2 * t]
        b = pairs[2 * t + 1]
        if digits[g, a] == digits[g, b]:
            continue
        for i in range(pegs):
            buf[i] = digits[g, i]
        buf[a] = digits[g, b]
        buf[b] = digits[g, a]
        for k in range(colors):
            relabel[k] = -1
        nxt = _next_free(used, np.int64(0), colors)
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


# ---------------------------------------------------------------------------------------------
# scoring


_LOW4_I = np.int64(0x1111111111111111)
_LOW8_I = np.int64(0x0101010101010101)


@njit(cache=True)
def score_guess(packed, msid, shared, counts, weights, g, cands, lo, hi, pegs, width,
                criterion, bound, hist, seen, cpk, cms):  # fmt: skip
    """Score of ``g`` over cands[lo:hi]; returns ``bound`` as soon as it cannot get below it.

    ``hist`` must be all zero on entry and is left so; ``seen`` has room for hi - lo entries.
    ``cpk`` and ``cms`` hold the candidates' packed codes and multiset ids (from :func:`gather`)
    when the shared-colour table exists: read in order, they spare a lookup per pair.
    """
    s = 0
    parts = 0
    touched = 0
    result = bound
    tabled = shared.shape[0] > 0
    pg = np.int64(packed[g])
    mg = msid[g]
    for j in range(lo, hi):
        if tabled:
            x = pg ^ cpk[j - lo]
            if width == 4:
                y = x | (x >> 1)
                y = (y | (y >> 2)) & _LOW4_I
                differ = (y * _LOW4_I) >> 60
            else:
                y = x | (x >> 4)
                y = y | (y >> 2)
                y = (y | (y >> 1)) & _LOW8_I
                differ = (y * _LOW8_I) >> 56
            black = pegs - (differ & 15 if width == 4 else differ & 255)
            f = black * pegs + shared[mg, cms[j - lo]]
        else:
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


@njit(cache=True)
def even_split_bound(n, k, criterion, weights):
    """The least score any guess can have on n candidates with k possible replies."""
    if k <= 0:
        return BIG
    q = n // k
    r = n - q * k
    if criterion == MAX_CLASS:
        return q + 1 if r > 0 else q
    if criterion == SUM_SQUARES:
        return r * (q + 1) * (q + 1) + (k - r) * q * q
    if criterion == ENTROPY:
        return r * weights[q + 1] + (k - r) * weights[q]
    return -n if n < k else -k


#: Below this many candidates, scoring a guess is cheaper than testing its symmetry first.
SYMMETRY_FIRST = 24


def scratch_size(n: int, pegs: int, colors: int, kinds: int) -> int:
    """Entries of the workspace that :func:`choose` needs for n candidates."""
    return (pegs + 1) ** 2 + 3 * n + pegs + colors + 2 * pegs + kinds + pegs + 1


@njit(cache=True)
def choose(digits, packed, msid, shared, counts, weights, cands, lo, hi, used, blocks, pegs,
           colors, width, criterion, replies, scratch):  # fmt: skip
    """The guess with the least key (score, not a candidate, index) for cands[lo:hi].

    Candidates are scored first, ascending, keeping strict improvements only; then the other
    codes, which must beat the best candidate strictly. A code that is not the lowest of its
    symmetry class scores the same as that lowest one, met earlier in the same ascending loop,
    so it can never be strictly better: the symmetry test only saves work. Whole colour
    multisets are skipped when a bound shows they cannot beat the best so far: a guess's
    shared-colour count with a candidate depends only on the two multisets, candidates with
    different shared counts get different replies, and within a group sharing s colours a
    non-candidate tells at most s + 1 blacks apart (pegs - 1 when s = pegs); an even split is
    the best any guess can do with that many replies.
    """
    n = hi - lo
    if n <= 2:
        return cands[lo]
    nclasses = (pegs + 1) * (pegs + 1)
    kinds = shared.shape[0]
    at = 0
    hist = scratch[at : at + nclasses]
    at += nclasses
    seen = scratch[at : at + n]
    at += n
    buf = scratch[at : at + pegs]
    at += pegs
    relabel = scratch[at : at + colors]
    at += colors
    pairs = scratch[at : at + 2 * pegs]
    at += 2 * pegs
    ms_bound = scratch[at : at + kinds]
    at += kinds
    group = scratch[at : at + pegs + 1]
    at += pegs + 1
    cpk = scratch[at : at + n]
    at += n
    cms = scratch[at : at + n]
    if kinds > 0:
        for j in range(lo, hi):
            cpk[j - lo] = np.int64(packed[cands[j]])
            cms[j - lo] = msid[cands[j]]
    for f in range(nclasses):
        hist[f] = 0
    npairs = np.int64(0)
    for i in range(pegs):
        for j in range(i + 1, pegs):
            if blocks[j] == blocks[i]:
                pairs[2 * npairs] = i
                pairs[2 * npairs + 1] = j
                npairs += 1
                break
    check_first = n > SYMMETRY_FIRST

    # 1. candidates
    floor = even_split_bound(n, replies + 1, criterion, weights)  # a candidate may also win
    best, best_score = cands[lo], BIG
    for j in range(lo, hi):
        g = cands[j]
        if check_first and not may_be_lowest(digits, g, used, pairs, npairs, pegs, colors, buf,
                                             relabel):  # fmt: skip
            continue
        s = score_guess(packed, msid, shared, counts, weights, g, cands, lo, hi, pegs, width,
                        criterion, best_score, hist, seen, cpk, cms)  # fmt: skip
        if s < best_score:
            best, best_score = g, s
            if best_score <= floor:
                break
    floor = even_split_bound(n, replies, criterion, weights)
    if best_score <= floor or n == digits.shape[0]:  # (or every code is a candidate)
        return best

    # 2. bounds per colour multiset
    for m in range(kinds):
        for t in range(pegs + 1):
            group[t] = 0
        for j in range(lo, hi):
            group[shared[m, msid[cands[j]]]] += 1
        total = 0
        for t in range(pegs + 1):
            if group[t] > 0:
                b = even_split_bound(group[t], t + 1 if t < pegs else pegs - 1, criterion, weights)
                if criterion == MAX_CLASS:
                    total = b if b > total else total
                else:
                    total += b
        ms_bound[m] = total

    # 3. every other code, ascending
    k = lo
    for g in range(digits.shape[0]):
        while k < hi and cands[k] < g:
            k += 1
        if k < hi and cands[k] == g:
            continue
        if kinds > 0 and ms_bound[msid[g]] >= best_score:
            continue
        if check_first and not may_be_lowest(digits, g, used, pairs, npairs, pegs, colors, buf,
                                             relabel):  # fmt: skip
            continue
        s = score_guess(packed, msid, shared, counts, weights, g, cands, lo, hi, pegs, width,
                        criterion, best_score, hist, seen, cpk, cms)  # fmt: skip
        if s < best_score:
            best, best_score = g, s
            if best_score <= floor:
                break
    return best


# ---------------------------------------------------------------------------------------------
# whole subtrees


def workspace_size(n: int, pegs: int, colors: int, kinds: int, max_depth: int) -> int:
    """Entries of the workspace :func:`subtree` needs for a node of n secrets."""
    cap = (pegs + 1) ** 2 * (max_depth + 1) + 1
    return (max_depth + 1 + 3 * n + cap * (4 + pegs) + (pegs + 1) ** 2 + 1 + 2 * pegs
            + scratch_size(n, pegs, colors, kinds))  # fmt: skip


@njit(cache=True)
def subtree(digits, packed, msid, shared, counts, weights, cands_in, used0, blocks0, depth0,
            pegs, colors, width, criterion, replies, max_depth, first, choose_only, work):  # fmt: skip
    """Distribution of the strategy over the secrets ``cands_in``, and the node's guess.

    Fills ``work[0 : max_depth + 1]``: entry k >= 1 counts the secrets found with the k-th
    guess, entry 0 is the node's guess: ``first`` if it is >= 0, else the strategy's choice;
    ``depth0`` is that guess's number. With ``choose_only`` only the guess is computed. This is
    the one serial entry point, so the JIT compiles the search once for every use.
    """
    n = cands_in.shape[0]
    nclasses = (pegs + 1) * (pegs + 1)
    win = pegs * (pegs + 1)
    cap = nclasses * (max_depth + 1) + 1
    at = 0
    dist = work[at : at + max_depth + 1]
    at += max_depth + 1
    cands = work[at : at + n]
    at += n
    tmp = work[at : at + n]
    at += n
    fbs = work[at : at + n]
    at += n
    st_lo = work[at : at + cap]
    at += cap
    st_hi = work[at : at + cap]
    at += cap
    st_depth = work[at : at + cap]
    at += cap
    st_used = work[at : at + cap]
    at += cap
    st_blocks = work[at : at + cap * pegs]
    at += cap * pegs
    starts = work[at : at + nclasses + 1]
    at += nclasses + 1
    blocks = work[at : at + pegs]
    at += pegs
    new_blocks = work[at : at + pegs]
    at += pegs
    scratch = work[at:]
    for k in range(max_depth + 1):
        dist[k] = 0
    for j in range(n):
        cands[j] = cands_in[j]
    st_lo[0], st_hi[0], st_depth[0], st_used[0] = 0, n, depth0, used0
    for i in range(pegs):
        st_blocks[i] = blocks0[i]
    top = 1
    while top > 0:
        top -= 1
        lo, hi, depth, used = st_lo[top], st_hi[top], st_depth[top], st_used[top]
        for i in range(pegs):
            blocks[i] = st_blocks[top * pegs + i]
        size = hi - lo
        root = lo == 0 and hi == n and depth == depth0
        if root and first >= 0:
            g = first
        elif size <= 2:
            g = cands[lo]
        else:
            if depth >= max_depth:
                raise ValueError("a strategy made no progress")
            g = choose(digits, packed, msid, shared, counts, weights, cands, lo, hi, used, blocks,
                       pegs, colors, width, criterion, replies, scratch)  # fmt: skip
        if root:
            dist[0] = g
            if choose_only:
                return
        if size <= 2 and g == cands[lo]:  # the first is guessed; if wrong, the other is known
            dist[depth] += 1
            if size == 2:
                dist[depth + 1] += 1
            continue
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
        # the children's symmetry: the guess's colours are used, and positions stay together
        # only if the guess colours them alike
        new_used = used
        for i in range(pegs):
            new_used |= 1 << np.int64(digits[g, i])
            new_blocks[i] = -1
            for j in range(i):
                if blocks[j] == blocks[i] and digits[g, j] == digits[g, i]:
                    new_blocks[i] = new_blocks[j]
                    break
            if new_blocks[i] < 0:
                new_blocks[i] = i
        for f in range(nclasses - 1, -1, -1):  # starts[f] is now the end of class f
            begin = lo + (starts[f - 1] if f > 0 else 0)
            stop = lo + starts[f]
            if stop <= begin:
                continue
            if f == win:
                dist[depth] += 1
                continue
            st_lo[top], st_hi[top], st_depth[top], st_used[top] = begin, stop, depth + 1, new_used
            for i in range(pegs):
                st_blocks[top * pegs + i] = new_blocks[i]
            top += 1


@njit(cache=True, parallel=True)
def choose_many(digits, packed, msid, shared, counts, weights, flat, offsets, used, blocks, pegs,
                colors, width, criterion, replies, work_sizes):  # fmt: skip
    """The guess of each of many independent nodes, on all cores."""
    units = offsets.shape[0] - 1
    out = np.empty(units, dtype=np.int64)
    for u in prange(units):
        scratch = np.empty(work_sizes[u], dtype=np.int64)
        out[u] = choose(digits, packed, msid, shared, counts, weights, flat, offsets[u],
                        offsets[u + 1], used[u], blocks[u], pegs, colors, width, criterion,
                        replies, scratch)  # fmt: skip
    return out


@njit(cache=True, parallel=True)
def subtrees(digits, packed, msid, shared, counts, weights, flat, offsets, used, blocks, depth,
             pegs, colors, width, criterion, replies, max_depth, work_sizes):  # fmt: skip
    """Distributions of many independent subtrees, on all cores (largest first is best)."""
    units = offsets.shape[0] - 1
    out = np.zeros((units, max_depth + 1), dtype=np.int64)
    for u in prange(units):
        work = np.empty(work_sizes[u], dtype=np.int64)
        subtree(digits, packed, msid, shared, counts, weights, flat[offsets[u] : offsets[u + 1]],
                used[u], blocks[u], depth[u], pegs, colors, width, criterion, replies, max_depth,
                -1, False, work)  # fmt: skip
        for k in range(1, max_depth + 1):
            out[u, k] = work[k]
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

    def symmetry(self, guesses) -> tuple[np.int64, np.ndarray]:
        """Colours used and position blocks after the given guesses (code indices).

        Positions share a block while every guess so far has the same colour in them.
        """
        digits = self.arrays[0]
        used = 0
        columns: list[tuple[int, ...]] = [() for _ in range(self.pegs)]
        for g in guesses:
            for i, colour in enumerate(digits[g].tolist()):
                used |= 1 << colour
                columns[i] = (*columns[i], colour)
        labels: dict[tuple[int, ...], int] = {}
        blocks = np.array([labels.setdefault(c, len(labels)) for c in columns], dtype=np.int64)
        return np.int64(used), blocks


_PACKED: dict[tuple[int, int, bool], Packed] = {}


def packed_of(space: CodeSpace) -> Packed:
    key = (space.pegs, space.colors, space.rules.repeats)
    if key not in _PACKED:
        if len(_PACKED) >= 4:  # a few games per process at most; never grows without bound
            _PACKED.pop(next(iter(_PACKED)))
        _PACKED[key] = Packed(space)
    return _PACKED[key]
