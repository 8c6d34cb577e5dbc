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

from ..errors import StrategyError
from .feedback import blacks, counting_sort, reply
from .jit import ALLOCATES_NOTHING, njit
from .reference import ENTROPY, MAX_CLASS, MOST_PARTS, SUM_SQUARES
from .workspace import size_of

BIG = np.int64(2**62)


# ---------------------------------------------------------------------------------------------
# symmetry
#
# The kernels below allocate nothing: every buffer is a slice of one workspace made in Python.
# Each numpy function used inside a kernel costs the JIT a separate instantiation, and the
# first (cold) run pays for all of them.


@njit(cache=True, **ALLOCATES_NOTHING)
def next_free(used, c, colors):
    """The least colour from c on that is not in ``used`` (``colors`` if none): free colours are
    interchangeable, so they are taken in this order (the exact search uses it too)."""
    while c < colors and (used >> c) & 1:
        c += 1
    return c


@njit(cache=True, **ALLOCATES_NOTHING)
def may_be_lowest(digits, g, used, pairs, npairs, pegs, colors, buf, relabel):
    """False if a symmetry of the node maps guess ``g`` to a lower code (then skip it).

    ``pairs[2t], pairs[2t + 1]`` are positions no guess has told apart (their transpositions
    generate the position symmetry); colours outside ``used`` are interchangeable.
    """
    # Free colours must appear in increasing order of first appearance, lowest first.
    expected = next_free(used, np.int64(0), colors)
    seen = np.int64(0)
    for i in range(pegs):
        d = np.int64(digits[g, i])
        if (used >> d) & 1 or (seen >> d) & 1:
            continue
        if d != expected:
            return False
        seen |= 1 << d
        expected = next_free(used, expected + 1, colors)
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
        nxt = next_free(used, np.int64(0), colors)
        for i in range(pegs):
            d = buf[i]
            if not (used >> d) & 1:
                if relabel[d] < 0:
                    relabel[d] = nxt
                    nxt = next_free(used, nxt + 1, colors)
                buf[i] = relabel[d]
        for i in range(pegs):
            if buf[i] != digits[g, i]:
                if buf[i] < digits[g, i]:
                    return False
                break
    return True


# ---------------------------------------------------------------------------------------------
# scoring


@njit(cache=True, **ALLOCATES_NOTHING)
def score_guess(t, weights, g, cands, lo, hi, criterion, bound, hist, seen, cpk, cms):
    """Score of ``g`` over cands[lo:hi]; returns ``bound`` as soon as it cannot get below it.

    ``hist`` must be all zero on entry and is left so; ``seen`` has room for hi - lo entries.
    ``cpk`` and ``cms`` hold the candidates' packed codes and multiset ids (filled by
    :func:`choose`) when the shared-colour table exists: read in order, they spare a lookup per pair.
    """
    s = 0
    parts = 0
    touched = 0
    result = bound
    tabled = t.shared.shape[0] > 0
    pegs, width = t.pegs, t.width
    pg = np.int64(t.packed[g])
    mg = t.msid[g]
    for j in range(lo, hi):
        if tabled:  # the packed codes and multisets of the candidates, read in order
            f = blacks(pg, cpk[j - lo], pegs, width) * pegs + t.shared[mg, cms[j - lo]]
        else:
            f = reply(t, g, cands[j])
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
    for i in range(touched):
        hist[seen[i]] = 0
    return result


@njit(cache=True, **ALLOCATES_NOTHING)
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


@njit(cache=True, **ALLOCATES_NOTHING)
def choose_parts(n, pegs, colors, kinds):
    """Sizes of the parts of :func:`choose`'s workspace for n candidates, in carving order:
    hist, seen, buf, relabel, pairs, ms_bound, group, cpk, cms."""
    return ((pegs + 1) * (pegs + 1), n, pegs, colors, 2 * pegs, kinds, pegs + 1, n, n)


def scratch_size(n: int, pegs: int, colors: int, kinds: int) -> int:
    """Entries of the workspace that :func:`choose` needs for n candidates."""
    return size_of(choose_parts(n, pegs, colors, kinds))


@njit(cache=True, nogil=True, **ALLOCATES_NOTHING)
def choose(t, weights, cands, lo, hi, used, blocks, criterion, replies, scratch, stop):
    """The guess with the least key (score, not a candidate, index) for cands[lo:hi].

    Returns -1 as soon as ``stop[0]`` is set (by another thread: the search is abandoned).

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
    digits, msid, shared = t.digits, t.msid, t.shared
    pegs, colors = t.pegs, t.colors
    nclasses = (pegs + 1) * (pegs + 1)
    kinds = shared.shape[0]
    parts = choose_parts(n, pegs, colors, kinds)
    at = 0
    hist, at = scratch[at : at + parts[0]], at + parts[0]
    seen, at = scratch[at : at + parts[1]], at + parts[1]
    buf, at = scratch[at : at + parts[2]], at + parts[2]
    relabel, at = scratch[at : at + parts[3]], at + parts[3]
    pairs, at = scratch[at : at + parts[4]], at + parts[4]
    ms_bound, at = scratch[at : at + parts[5]], at + parts[5]
    group, at = scratch[at : at + parts[6]], at + parts[6]
    cpk, at = scratch[at : at + parts[7]], at + parts[7]
    cms, at = scratch[at : at + parts[8]], at + parts[8]
    if kinds > 0:
        for j in range(lo, hi):
            cpk[j - lo] = np.int64(t.packed[cands[j]])
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
        if stop[0] != 0:
            return -1
        g = cands[j]
        if check_first and not may_be_lowest(digits, g, used, pairs, npairs, pegs, colors, buf, relabel):
            continue
        s = score_guess(t, weights, g, cands, lo, hi, criterion, best_score, hist, seen, cpk, cms)
        if s < best_score:
            best, best_score = g, s
            if best_score <= floor:
                break
    floor = even_split_bound(n, replies, criterion, weights)
    if best_score <= floor or n == digits.shape[0]:  # (or every code is a candidate)
        return best

    # 2. bounds per colour multiset
    for m in range(kinds):
        for k in range(pegs + 1):
            group[k] = 0
        for j in range(lo, hi):
            group[shared[m, msid[cands[j]]]] += 1
        total = 0
        for k in range(pegs + 1):
            if group[k] > 0:
                b = even_split_bound(group[k], k + 1 if k < pegs else pegs - 1, criterion, weights)
                if criterion == MAX_CLASS:
                    total = b if b > total else total
                else:
                    total += b
        ms_bound[m] = total

    # 3. every other code, ascending
    k = lo
    for g in range(digits.shape[0]):
        if stop[0] != 0:
            return -1
        while k < hi and cands[k] < g:
            k += 1
        if k < hi and cands[k] == g:
            continue
        if kinds > 0 and ms_bound[msid[g]] >= best_score:
            continue
        if check_first and not may_be_lowest(digits, g, used, pairs, npairs, pegs, colors, buf, relabel):
            continue
        s = score_guess(t, weights, g, cands, lo, hi, criterion, best_score, hist, seen, cpk, cms)
        if s < best_score:
            best, best_score = g, s
            if best_score <= floor:
                break
    return best


def best_candidate(t, weights, cands, criterion, replies, used, blocks) -> int:
    """The candidate with the least key (score, index) among the candidates alone, for the guess
    hard mode allows: the first part of :func:`choose`, a compiled score per candidate, with its
    symmetry test (``used`` and ``blocks`` of the history, as :func:`choose` takes them) and its
    pruning (a candidate abandoned once its partial score cannot win; an even split over every
    reply ends the search)."""
    n = cands.shape[0]
    if n <= 2:
        return int(cands[0])
    pegs = t.pegs
    cands = np.ascontiguousarray(cands, dtype=np.int64)
    hist = np.zeros((pegs + 1) * (pegs + 1), dtype=np.int64)
    seen = np.empty(n, dtype=np.int64)
    tabled = t.shared.shape[0] > 0
    cpk = t.packed[cands].astype(np.int64) if tabled else seen
    cms = t.msid[cands].astype(np.int64) if tabled else seen
    # each position with the next one no guess has told apart from it, as choose pairs them
    nexts = [next((j for j in range(i + 1, pegs) if blocks[j] == blocks[i]), None) for i in range(pegs)]
    pairs = np.array([p for i, j in enumerate(nexts) if j is not None for p in (i, j)], dtype=np.int64)
    buf, relabel = np.empty(pegs, dtype=np.int64), np.empty(t.colors, dtype=np.int64)
    floor = even_split_bound(n, replies + 1, criterion, weights)
    best, best_score = cands[0], BIG
    for g in cands:
        if n > SYMMETRY_FIRST and not may_be_lowest(
            t.digits, g, used, pairs, len(pairs) // 2, pegs, t.colors, buf, relabel
        ):
            continue
        score = score_guess(t, weights, g, cands, 0, n, criterion, best_score, hist, seen, cpk, cms)
        if score < best_score:
            best, best_score = g, score
            if best_score <= floor:
                break
    return int(best)


# ---------------------------------------------------------------------------------------------
# whole subtrees


@njit(cache=True, **ALLOCATES_NOTHING)
def subtree_parts(n, pegs, colors, kinds, max_depth):
    """Sizes of the parts of :func:`subtree`'s workspace for a node of n secrets, in carving
    order: dist, cands, tmp, fbs, the stack (lo, hi, depth, used, blocks), starts, blocks,
    new_blocks, and :func:`choose`'s scratch."""
    cap = (pegs + 1) * (pegs + 1) * (max_depth + 1) + 1
    scratch = 0
    for p in choose_parts(n, pegs, colors, kinds):
        scratch += p
    return (
        max_depth + 1,
        n,
        n,
        n,
        cap,
        cap,
        cap,
        cap,
        cap * pegs,
        (pegs + 1) * (pegs + 1) + 1,
        pegs,
        pegs,
        scratch,
    )


def workspace_size(n: int, pegs: int, colors: int, kinds: int, max_depth: int) -> int:
    """Entries of the workspace :func:`subtree` needs for a node of n secrets."""
    return size_of(subtree_parts(n, pegs, colors, kinds, max_depth))


@njit(cache=True, nogil=True, **ALLOCATES_NOTHING)
def subtree(
    t,
    weights,
    cands_in,
    used0,
    blocks0,
    depth0,
    criterion,
    replies,
    max_depth,
    first,
    choose_only,
    work,
    stop,
):
    """Distribution of the strategy over the secrets ``cands_in``, and the node's guess.

    Fills ``work[0 : max_depth + 1]``: entry k >= 1 counts the secrets found with the k-th
    guess, entry 0 is the node's guess: ``first`` if it is >= 0, else the strategy's choice;
    ``depth0`` is that guess's number. With ``choose_only`` only the guess is computed. It calls
    :func:`choose`, compiled once for both: a command that only needs a guess (solve, a hint)
    calls :func:`choose` alone and compiles no more. When ``stop[0]`` is set (by another
    thread) it returns at once, leaving ``work`` meaningless.
    """
    n = cands_in.shape[0]
    pegs = t.pegs
    digits = t.digits
    nclasses = (pegs + 1) * (pegs + 1)
    win = pegs * (pegs + 1)
    parts = subtree_parts(n, pegs, t.colors, t.shared.shape[0], max_depth)
    at = 0
    dist, at = work[at : at + parts[0]], at + parts[0]
    cands, at = work[at : at + parts[1]], at + parts[1]
    tmp, at = work[at : at + parts[2]], at + parts[2]
    fbs, at = work[at : at + parts[3]], at + parts[3]
    st_lo, at = work[at : at + parts[4]], at + parts[4]
    st_hi, at = work[at : at + parts[5]], at + parts[5]
    st_depth, at = work[at : at + parts[6]], at + parts[6]
    st_used, at = work[at : at + parts[7]], at + parts[7]
    st_blocks, at = work[at : at + parts[8]], at + parts[8]
    starts, at = work[at : at + parts[9]], at + parts[9]
    blocks, at = work[at : at + parts[10]], at + parts[10]
    new_blocks, at = work[at : at + parts[11]], at + parts[11]
    scratch, at = work[at : at + parts[12]], at + parts[12]
    for k in range(max_depth + 1):
        dist[k] = 0
    for j in range(n):
        cands[j] = cands_in[j]
    st_lo[0], st_hi[0], st_depth[0], st_used[0] = 0, n, depth0, used0
    for i in range(pegs):
        st_blocks[i] = blocks0[i]
    top = 1
    while top > 0:
        if stop[0] != 0:
            return
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
                raise StrategyError("a strategy made no progress")
            g = choose(t, weights, cands, lo, hi, used, blocks, criterion, replies, scratch, stop)
            if g < 0:
                return
        if root:
            dist[0] = g
            if choose_only:
                return
        if size <= 2 and g == cands[lo]:  # the first is guessed; if wrong, the other is known
            dist[depth] += 1
            if size == 2:
                dist[depth + 1] += 1
            continue
        for j in range(lo, hi):
            fbs[j] = reply(t, g, cands[j])
        counting_sort(cands, fbs, lo, hi, nclasses, starts, tmp)  # each class stays ascending
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
        for f in range(nclasses - 1, -1, -1):
            begin = lo + starts[f]
            end = lo + starts[f + 1]
            if end <= begin:
                continue
            if f == win:
                dist[depth] += 1
                continue
            st_lo[top], st_hi[top], st_depth[top], st_used[top] = begin, end, depth + 1, new_used
            for i in range(pegs):
                st_blocks[top * pegs + i] = new_blocks[i]
            top += 1


def choose_many(t, weights, flat, offsets, used, blocks, criterion, replies, work_sizes, stop):
    """The guess of each of many independent nodes, on all cores.

    It runs :func:`subtree` on all cores as :func:`subtrees` does, told to stop at each node's
    guess (its ``choose_only``, which calls :func:`choose` as :func:`choose` alone would): a
    first run compiles nothing more for it. ``work_sizes`` (each node's scratch for
    :func:`choose`) is taken for the callers; the workspaces are sized here.
    """
    units = offsets.shape[0] - 1
    largest = int(np.diff(offsets).max(initial=1))
    # a node's guess is the first entry of its subtree, at depth 1 of at most 2 (none deeper is
    # visited): a small workspace
    size = workspace_size(largest, t.pegs, t.colors, t.shared.shape[0], 2)
    depth = np.ones(units, dtype=np.int64)
    rows = _on_cores(t, weights, flat, offsets, used, blocks, depth, criterion, replies, 2, size, True, stop)
    return rows[:, 0].copy()


def subtrees(t, weights, flat, offsets, used, blocks, depth, criterion, replies, max_depth, work_sizes, stop):
    """Distributions of many independent subtrees, one row each, on all cores (largest first is
    best). The kernels release the GIL, so a caller may run them in a thread and stay responsive;
    setting ``stop[0]`` abandons the work within milliseconds."""
    size = int(work_sizes.max(initial=1))
    return _on_cores(
        t, weights, flat, offsets, used, blocks, depth, criterion, replies, max_depth, size, False, stop
    )


def _on_cores(
    t, weights, flat, offsets, used, blocks, depth, criterion, replies, max_depth, size, choose_only, stop
):
    """The subtree of each node (its guess alone, with ``choose_only``) on all cores: one Python
    thread a core, each taking the next node (largest first, as given) and running the compiled
    :func:`subtree`, which releases the GIL, in a workspace of ``size`` of its own. Threads
    rather than a parallel kernel: the one kernel a first run compiles anyway, and no parallel
    kernel to compile (the largest item of a first run's compilation)."""
    import itertools
    import threading

    from numba import config

    units = offsets.shape[0] - 1
    out = np.zeros((units, max_depth + 1), dtype=np.int64)
    threads = max(1, min(units, config.NUMBA_NUM_THREADS))
    work = np.empty((threads, size), dtype=np.int64)
    first = np.int64(-1)  # not a literal: the subtree compiled for a tree's root serves here too
    nodes = itertools.count()  # next() of a count is atomic: each node is taken once
    failed: list[BaseException] = []

    def run(thread: int) -> None:
        mine = work[thread]
        try:
            while (u := next(nodes)) < units and not stop[0] and not failed:
                subtree(
                    t,
                    weights,
                    flat[offsets[u] : offsets[u + 1]],
                    used[u],
                    blocks[u],
                    depth[u],
                    criterion,
                    replies,
                    max_depth,
                    first,
                    choose_only,
                    mine,
                    stop,
                )
                if choose_only:
                    out[u, 0] = mine[0]
                else:
                    out[u, 1:] = mine[1 : max_depth + 1]
        except BaseException as err:  # handed to the caller below
            failed.append(err)

    if threads == 1:
        run(0)
    else:
        # Not daemons, and never left running: a thread still calling compiled code while the
        # interpreter exits (after Ctrl-C) can crash it. The caller's stop flag ends them within
        # milliseconds: set by the runner on Ctrl-C, or here if Ctrl-C reaches this thread.
        pool = [threading.Thread(target=run, args=(i,), name="mastermind-nodes") for i in range(threads)]
        for thread in pool:
            thread.start()
        try:
            for thread in pool:
                thread.join()
        except BaseException:
            was, stop[0] = stop[0], 1
            for thread in pool:
                thread.join()
            stop[0] = was  # a flag shared by calls nobody stops (never set) stays clear
            raise
    if failed:
        raise failed[0]
    return out
