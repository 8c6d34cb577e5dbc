"""The exact optimal search: least total number of guesses over a set of secrets (Koyama and Lai 1993).

The cost of a set S of secrets is the sum, over its secrets, of the guesses needed to find each
one. For a guess g, ``cost(S | g) = |S| + sum of cost(S_f)`` over the replies f other than the
win, S_f being the secrets that give reply f. The search is a depth-first branch and bound; every
rule that skips work is exact (it never changes the optimal cost):

* Lower bound (``lb``): with b replies other than the win, a tree finds at most 1 secret with
  its first guess, b with its second, b**2 with its third...; so ``lb[n]`` (the sum over k of
  ``max(0, n - (1 + b + ... + b**(k-1)))``) is at most the cost of any n secrets, and
  ``n + sum lb[|S_f|]`` at most the cost of a guess. A guess whose bound reaches the budget (the
  best cost so far) cannot improve on it and is not searched.
* Guess limit: a cell of n secrets needs at least ``dmin[n]`` more guesses (the least k with
  ``1 + b + ... + b**(k-1) >= n``); a guess leaving a cell that cannot be solved in the guesses
  left is not playable.
* Symmetry: a guess is tried only if it is the least code of its class. History symmetry: the
  peg permutations with a colour map that send every guess so far to itself (colours never
  played are interchangeable) map the secrets still possible onto themselves, so a guess and its
  image cost the same. Cell colour symmetry: a colour absent from every secret of S gives no
  black and no white against any of them, so absent colours may be replaced, without changing
  any reply, by the least absent colour (with repeats) or by the least absent colours in
  increasing order (without). The least code of the class closed under both is kept by both
  filters, so chaining them is exact.
* Order: guesses by increasing bound (ties: lower code first), cells of a guess smallest first,
  each cell given the budget left after the other cells' bounds (replaced by exact costs as they
  are solved); a guess is abandoned as soon as it cannot beat the best.
* Small sets: 1 secret costs 1, 2 cost 3; a candidate whose other replies are all different
  costs ``2n - 1``, which no tree beats (only one secret can be found by the first guess); if no
  candidate does that, one that leaves a single pair among singletons costs ``2n``, which then no
  tree beats either (any other first guess leaves n - 1 secrets that cost at least n - 1 more,
  with equality only for such a perfect split, or n more if it is not a candidate).
* A guess that leaves every secret in one cell is never useful (it costs |S| more than S).
* Fewer replies: if no guess at all gives more than K replies other than the win on S, no guess
  gives more on a subset of S either, so below S a tree finds at most 1, K, K**2... secrets with
  its successive guesses: ``lbk[K]`` (the bound with b replaced by K) holds for every cell of S.
  The pass that bounds the guesses of S finds K for free (it knows every guess's replies).
* Cells bounded before they are solved: at a node of at least ``pre_node`` secrets, the cells of
  at least ``pre_cell`` secrets of a guess about to be tried get their own least guess bound (the
  best any guess can do there, one level down) before any cell is solved: a guess whose cells
  cannot beat the best total so far is dropped without solving its small cells first.
* Memo: the cost of a set of secrets with a number of guesses left depends on nothing else (not
  on the guesses that led there, whose symmetry only skips guesses that cost the same), nor does
  the tree chosen for it (below). Each thread keeps a table of the sets it has searched: the
  exact cost and tree of a set solved, or "at least the budget" for a set that failed; a set met
  again is answered from it (the table is emptied when full).

The result is deterministic: at every node the chosen guess is the first in the fixed order
(bound, code) that reaches the least cost, whatever the budget the node was given, as long as
that least cost is below the budget (otherwise the node fails and its parent's guess with it).

The tree chosen is written to ``arena`` in preorder: a node is ``guess, 2 * k + w`` followed by
k cells, each ``reply`` then the cell's node; w is 1 when the guess is one of the node's secrets
(found there: the win has no cell), else 0.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba.core import types
from numba.extending import overload

from .feedback import blacks, counting_sort, replies, reply_at
from .feedback import reply as code_reply
from .jit import ALLOCATES_NOTHING, bit_of, bits_set, inner, njit
from .partition import next_free

BIG = np.int64(1 << 60)

#: ctl entries (one small int64 array per search call, of CTL entries): KMAX is the most replies
#: other than the win that any guess gives on the set last bounded.
STOP, NODES, OVERFLOW, END, KMAX = 0, 1, 2, 3, 4
CTL = 8

#: The memo's layout: MEMO_HEAD entries (table slots T, next free entry, entries, hits,
#: clears, 3 spare), then T slots of two entries (hash, entry) and the entries, each
#: ``n, left, exact, value, tree length, the n secrets, the tree``.
MEMO_HEAD = 8
M_SLOTS, M_TOP, M_COUNT, M_HITS, M_CLEARS = 0, 1, 2, 3, 4


class SearchTables(NamedTuple):
    """What the optimal search reads for one game (one numba argument).

    Attributes:
        fbm: (size, size) uint8 reply of guess (row) to secret (column), or (0, 0) for a game
            too large for the matrix: replies are then computed from ``codes`` as needed.
        codes: the game's :class:`~.tables.CodeTables` (the feedback rule's inputs).
        digits: (size, pegs) uint8 colours of every code.
        cmask: (size,) int64 bit mask of a code's colours.
        lb: (size + 1,) int64 lower bound on the cost of n secrets.
        dlb: (size + 1,) int64 ``lb[c + 1] - lb[c]`` (what a cell of c gains with one more).
        dmin: (size + 1,) int64 least number of guesses that can find n secrets.
        pegs, colors: the game.
        repeats: whether colours may repeat.
        replies: b, the number of replies other than the win.
        lbk: (b + 1, size + 1) int64: row K is ``lb`` when no guess leaves more than K cells.
        pre_node, pre_cell: the cells of at least ``pre_cell`` secrets at a node of at least
            ``pre_node`` get their own least bound before the guess's cells are solved.
    """

    fbm: np.ndarray
    codes: object
    digits: np.ndarray
    cmask: np.ndarray
    lb: np.ndarray
    dlb: np.ndarray
    dmin: np.ndarray
    pegs: int
    colors: int
    repeats: bool
    replies: int
    lbk: np.ndarray
    pre_node: int
    pre_cell: int


def reply_matrix(t):
    """The reply of every code (row, as guess) to every code (column, as secret): rows shared
    out to one Python thread a core, each running :func:`reply_rows`, which releases the GIL
    (rather than a parallel kernel, whose compilation is a large part of a first run's)."""
    import threading

    from numba import config

    n = t.digits.shape[0]
    out = np.empty((n, n), dtype=np.uint8)
    threads = max(1, min(n // 256, config.NUMBA_NUM_THREADS))
    cuts = [n * i // threads for i in range(threads + 1)]
    if threads == 1:
        reply_rows(t, np.int64(0), np.int64(n), out)
        return out
    workers = [
        threading.Thread(target=reply_rows, args=(t, np.int64(cuts[i]), np.int64(cuts[i + 1]), out))
        for i in range(threads)
    ]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return out


@njit(cache=True, nogil=True, **ALLOCATES_NOTHING)
def reply_rows(t, lo, hi, out):
    """Rows ``lo`` to ``hi`` of :func:`reply_matrix` into ``out``."""
    n = out.shape[1]
    for g in range(lo, hi):
        for j in range(n):
            out[g, j] = code_reply(t, g, np.int64(j))


@njit(cache=True, inline="always")
def rep(fbm, codes, g, s):
    """The reply to guess g when the secret is s: from the matrix ``fbm`` (a search's tables'),
    or computed from ``codes`` when it is empty (a call: one compiled copy of the rule for all
    the places that read a reply). Hot loops take ``fbm`` into a local first: then the compiler
    sees that the test never changes and keeps the matrix path as tight as without."""
    if fbm.shape[0] > 0:
        return np.int64(fbm[g, s])
    return reply_at(codes, np.int64(g), np.int64(s))


@njit(cache=True, inline="always")
def reply_row(t, s, row):
    """The reply of every code, as guess, to secret s: the matrix's row s (it is symmetric), or
    computed into ``row`` (size uint8) for a game without the matrix (:func:`computed_row`)."""
    if t.fbm.shape[0] > 0:
        return t.fbm[s]
    return computed_row(t.codes, np.int64(s), row)


@inner(cache=True, **ALLOCATES_NOTHING)
def computed_row(c, s, row):
    """The reply of every code, as guess, to secret s, computed into ``row``; returns it. A kernel
    of its own: :func:`reply_row`'s callers then hold no copy of the feedback rule."""
    ps = np.int64(c.packed[s])
    if c.shared.shape[0] > 0:
        ms = c.msid[s]
        for g in range(row.shape[0]):
            row[g] = blacks(np.int64(c.packed[g]), ps, c.pegs, c.width) * c.pegs + c.shared[c.msid[g], ms]
    else:
        for g in range(row.shape[0]):
            row[g] = code_reply(c, g, s)
    return row


def bounds_by_replies(size: int, b: int) -> np.ndarray:
    """``lb`` for sets of 0..size secrets when at most K replies other than the win can occur,
    for every K from 0 to b (row K; K = 0 is given K = 1's row: a set with no reply to tell its
    secrets apart has one secret)."""
    out = np.zeros((b + 1, size + 1), dtype=np.int64)
    n = np.arange(size + 1, dtype=np.int64)
    for K in range(1, b + 1):
        reach, level = 0, 1
        while reach < size:
            out[K] += np.maximum(0, n - reach)
            reach += level
            level *= K
    out[0] = out[1]
    return out


def bounds(size: int, b: int) -> tuple[np.ndarray, np.ndarray]:
    """``lb`` and ``dmin`` for sets of 0..size secrets when b replies other than the win exist."""
    lb = np.zeros(size + 1, dtype=np.int64)
    dmin = np.zeros(size + 1, dtype=np.int64)
    n = np.arange(size + 1, dtype=np.int64)
    reach, level, k = 0, 1, 0  # reach = 1 + b + ... + b**(k-1): secrets found within k guesses
    while reach < size:
        lb += np.maximum(0, n - reach)
        dmin[(n > reach)] = k + 1
        reach += level
        level *= b
        k += 1
    return lb, dmin


# ---------------------------------------------------------------------------------------------
# symmetry
#
# The history group is a list of m elements, each ``pegs`` entries of a peg permutation p and
# ``colors`` entries of a colour map s (-1 where a colour was never played): it maps a code x to
# y with y[i] = s(x[p[i]]); every element sends each guess so far to itself.


@njit(cache=True, **ALLOCATES_NOTHING)
def least_in_history_class(digits, g, group, gbase, m, used, pegs, colors, relabel):
    """Whether no element of the history group (free colours renamed at best) maps g lower."""
    w = pegs + colors
    for e in range(m):
        base = gbase + e * w
        nxt = next_free(used, np.int64(0), colors)  # not a literal 0: one compile
        assigned = np.int64(0)
        for i in range(pegs):
            c = np.int64(digits[g, group[base + i]])
            if (used >> c) & 1:
                y = group[base + pegs + c]
            elif (assigned >> c) & 1:
                y = relabel[c]
            else:
                relabel[c] = nxt
                assigned |= np.int64(1) << c
                y = nxt
                nxt = next_free(used, nxt + 1, colors)
            d = digits[g, i]
            if y < d:
                return False
            if y > d:
                break
    return True


@inner(cache=True, **ALLOCATES_NOTHING)
def least_in_cell_class(digits, g, absent, absent_list, repeats, pegs):
    """Whether g uses the colours absent from the cell as the least such guess does."""
    k = 0
    for i in range(pegs):
        c = np.int64(digits[g, i])
        if (absent >> c) & 1:
            if repeats:
                if c != absent_list[0]:
                    return False
            else:
                if c != absent_list[k]:
                    return False
                k += 1
    return True


@njit(cache=True, **ALLOCATES_NOTHING)
def child_group(digits, g, group, gbase, m, used, pegs, colors, out, obase, ext):
    """The elements of the group that also send g to itself (colour maps extended); returns how
    many were written at ``out[obase:]``."""
    w = pegs + colors
    k = 0
    for e in range(m):
        base = gbase + e * w
        for c in range(colors):
            ext[c] = -1
            ext[colors + c] = -1  # inverse
        ok = True
        for i in range(pegs):
            colour = np.int64(digits[g, group[base + i]])
            target = np.int64(digits[g, i])
            if (used >> colour) & 1:
                if group[base + pegs + colour] != target:
                    ok = False
                    break
            else:
                if (used >> target) & 1:
                    ok = False
                    break
                if ext[colour] < 0 and ext[colors + target] < 0:
                    ext[colour] = target
                    ext[colors + target] = colour
                elif ext[colour] != target:
                    ok = False
                    break
        if ok:
            ob = obase + k * w
            for i in range(pegs):
                out[ob + i] = group[base + i]
            for c in range(colors):
                out[ob + pegs + c] = group[base + pegs + c] if (used >> c) & 1 else ext[c]
            k += 1
    return k


# ---------------------------------------------------------------------------------------------
# the memo (one per thread: see the module's documentation and MEMO_HEAD)


def new_memo(entries: int, slots: int) -> np.ndarray:
    """An empty memo of ``entries`` int64 in all, with ``slots`` (a power of two) table slots."""
    memo = np.zeros(entries, dtype=np.int64)
    memo[M_SLOTS] = slots
    memo[M_TOP] = MEMO_HEAD + 2 * slots
    return memo


@njit(cache=True, inline="always")
def memo_hash(S, n, left):
    """A 64-bit hash of (S, left), never 0 (0 marks an empty slot)."""
    h = np.uint64(n) * np.uint64(0x9E3779B97F4A7C15) + np.uint64(left)
    for j in range(n):
        h = (h ^ np.uint64(S[j])) * np.uint64(0xBF58476D1CE4E5B9)
        h ^= h >> np.uint64(29)
    return np.int64(h | np.uint64(1))


@inner(cache=True, **ALLOCATES_NOTHING)
def memo_find(memo, S, n, left, h):
    """The slot holding (S, left): its index, or -1 - the index of the empty slot where it
    would go. An entry is taken only if its secrets are S itself (not only its hash)."""
    mask = memo[M_SLOTS] - 1
    i = h & mask
    while True:
        at = MEMO_HEAD + 2 * i
        if memo[at] == 0:
            return -i - 1
        if memo[at] == h:
            e = memo[at + 1]
            if memo[e] == n and memo[e + 1] == left:
                same = True
                for j in range(n):
                    if memo[e + 5 + j] != S[j]:
                        same = False
                        break
                if same:
                    return i
        i = (i + 1) & mask


@inner(cache=True, **ALLOCATES_NOTHING)
def memo_put(memo, S, n, left, h, exact, value, arena, a, b):
    """Record (S, left): ``exact`` = 1, its least cost ``value`` and tree ``arena[a:b]``;
    ``exact`` = 0, a cost of at least ``value``. Empties the memo first when it is full."""
    slots = memo[M_SLOTS]
    need = 5 + n + (b - a)
    base = MEMO_HEAD + 2 * slots
    if need > memo.shape[0] - base:
        return
    if memo[M_TOP] + need > memo.shape[0] or 2 * memo[M_COUNT] >= slots:
        for i in range(MEMO_HEAD, base):
            memo[i] = 0
        memo[M_TOP] = base
        memo[M_COUNT] = 0
        memo[M_CLEARS] += 1
    slot = memo_find(memo, S, n, left, h)
    if slot < 0:
        slot = -slot - 1
        memo[M_COUNT] += 1
    e = memo[M_TOP]
    memo[e] = n
    memo[e + 1] = left
    memo[e + 2] = exact
    memo[e + 3] = value
    memo[e + 4] = b - a
    for j in range(n):
        memo[e + 5 + j] = S[j]
    for j in range(b - a):
        memo[e + 5 + n + j] = arena[a + j]
    memo[M_TOP] = e + need
    memo[MEMO_HEAD + 2 * slot] = h
    memo[MEMO_HEAD + 2 * slot + 1] = e


# ---------------------------------------------------------------------------------------------
# the search


@inner(cache=True, **ALLOCATES_NOTHING)
def node_parts(n, size, pegs, colors, m):
    """Sizes of a node's parts of the stack, in carving order: hist, seen, glist, gbound, part,
    keys, tmp, starts, cell_lo, cell_n, cell_f, cell_lb, relabel, absent_list, ext, child group."""
    nrep = (pegs + 1) * (pegs + 1)
    return (
        nrep,
        nrep,
        size,
        size,
        n,
        n,
        n,
        nrep + 1,
        nrep,
        nrep,
        nrep,
        nrep,
        colors,
        colors,
        2 * colors,
        m * (pegs + colors),
    )


@inner(cache=True, **ALLOCATES_NOTHING)
def _count_cells(t, S, n, size, nrep, dlb, counts, bnd, rowbuf, ctl):
    """Every guess's cell sizes (``counts[g * nrep + f]``) and bound (``bnd[g]``), reading the
    replies secret by secret (:func:`reply_row`). Stops early if ``ctl[STOP]`` is set."""
    for g in range(size):
        bnd[g] = n
    for j in range(n):
        if ctl[STOP] != 0:
            return
        row = reply_row(t, S[j], rowbuf)
        at = np.uint64(0)  # unsigned: the compiler then checks no index for a negative one
        for g in range(size):
            i = at + np.uint64(row[g])
            c = counts[i]
            counts[i] = c + 1
            bnd[g] += dlb[c]
            at += np.uint64(nrep)
    for j in range(n):  # a guess that is a secret was counted a cell of 1 for its win
        bnd[S[j]] -= dlb[0]


@inner(cache=True, **ALLOCATES_NOTHING)
def _clear_cells(t, S, n, size, nrep, counts):
    if n < nrep and t.fbm.shape[0] > 0:
        for j in range(n):
            row = t.fbm[S[j]]
            for g in range(size):
                counts[g * nrep + row[g]] = 0
    else:
        counts[:] = 0


@njit(cache=True, inline="always")
def _feasible(counts, g, n, nrep, win, dmin, left):
    """Whether no cell of g holds every secret, and each can be finished in time."""
    biggest = 0
    for f in range(nrep):
        c = counts[g * nrep + f]
        if f != win and c > biggest:
            biggest = c
    return biggest < n and dmin[biggest] <= left - 1


@inner(cache=True, **ALLOCATES_NOTHING)
def absent_colours(t, S, n, absent_list):
    """The colours absent from every secret of S, as a mask; their list (ascending) in
    ``absent_list``."""
    present = np.int64(0)
    for j in range(n):
        present |= t.cmask[S[j]]
    absent = ((np.int64(1) << t.colors) - 1) & ~present
    na = 0
    for c in range(t.colors):
        if (absent >> c) & 1:
            absent_list[na] = c
            na += 1
    return absent


@njit(cache=True, inline="always")
def least_of_class(t, g, absent, absent_list, group, gbase, m, used, relabel):
    """Whether g is the least of its class under both symmetries (cell colours, history)."""
    if absent & t.cmask[g] and not least_in_cell_class(t.digits, g, absent, absent_list, t.repeats, t.pegs):
        return False
    if m == 1 and used == (np.int64(1) << t.colors) - 1:  # only the identity, no free colour
        return True
    return least_in_history_class(t.digits, g, group, gbase, m, used, t.pegs, t.colors, relabel)


@inner(cache=True, **ALLOCATES_NOTHING)
def _bound_by_counts(
    t,
    S,
    n,
    left,
    budget,
    group,
    gbase,
    m,
    used,
    counts,
    bnd,
    rowbuf,
    glist,
    gbound,
    relabel,
    absent_list,
    ctl,
):
    """:func:`bound_guesses` where no mask holds the replies (8 pegs or more): every guess's
    cell sizes counted (:func:`_count_cells`), then the least guesses of their class whose
    bound is below the budget and whose cells can each be finished in time."""
    size = t.digits.shape[0]
    nrep = (t.pegs + 1) * (t.pegs + 1)
    win = t.pegs * (t.pegs + 1)
    ctl[KMAX] = t.replies
    _count_cells(t, S, n, size, nrep, t.dlb, counts, bnd, rowbuf, ctl)
    absent = absent_colours(t, S, n, absent_list)
    k = np.int64(0)
    for g in range(size):
        if bnd[g] >= budget:
            continue
        if not least_of_class(t, g, absent, absent_list, group, gbase, m, used, relabel):
            continue
        if not _feasible(counts, g, n, nrep, win, t.dmin, left):
            continue
        glist[k] = g
        gbound[k] = bnd[g]
        k += 1
    _clear_cells(t, S, n, size, nrep, counts)
    return k if ctl[STOP] == 0 else 0


def by_counts(
    t,
    S,
    n,
    left,
    budget,
    group,
    gbase,
    m,
    used,
    counts,
    bnd,
    bits,
    rowbuf,
    glist,
    gbound,
    relabel,
    absent_list,
    ctl,
):
    """:func:`_bound_by_counts` where ``bits`` is None, for :func:`bound_guesses`. This body runs
    only where numba's JIT is off; compiled, a kernel calling it gets its overload below."""
    args = (t, S, n, left, budget, group, gbase, m, used, counts, bnd, rowbuf, glist, gbound, relabel)
    return _bound_by_counts(*args, absent_list, ctl)


@overload(by_counts)
def _by_counts(
    t,
    S,
    n,
    left,
    budget,
    group,
    gbase,
    m,
    used,
    counts,
    bnd,
    bits,
    rowbuf,
    glist,
    gbound,
    relabel,
    absent_list,
    ctl,
):
    """:func:`by_counts` chosen by the type of ``bits``, when a kernel calling it is compiled:
    the counting kernel where ``bits`` is None, else nothing (never called: ``bound_guesses``
    calls it only for None). A game with masks then does not compile the counting path at all,
    which numba would otherwise do for the untaken branch of ``bits is None``."""
    if bits == types.none:

        def counted(
            t,
            S,
            n,
            left,
            budget,
            group,
            gbase,
            m,
            used,
            counts,
            bnd,
            bits,
            rowbuf,
            glist,
            gbound,
            relabel,
            absent_list,
            ctl,
        ):
            return _bound_by_counts(
                t,
                S,
                n,
                left,
                budget,
                group,
                gbase,
                m,
                used,
                counts,
                bnd,
                rowbuf,
                glist,
                gbound,
                relabel,
                absent_list,
                ctl,
            )

        return counted

    def unused(
        t,
        S,
        n,
        left,
        budget,
        group,
        gbase,
        m,
        used,
        counts,
        bnd,
        bits,
        rowbuf,
        glist,
        gbound,
        relabel,
        absent_list,
        ctl,
    ):
        return np.int64(0)

    return unused


@njit(cache=True, nogil=True, **ALLOCATES_NOTHING)
def bound_guesses(
    t,
    S,
    n,
    left,
    budget,
    group,
    gbase,
    m,
    used,
    counts,
    bnd,
    bits,
    rowbuf,
    glist,
    gbound,
    relabel,
    absent_list,
    ctl,
    lazy,
):
    """Bound every playable least guess of its class; returns how many were kept (those whose
    bound is below ``budget``), with their codes in ``glist`` (ascending) and bounds in
    ``gbound``.

    The replies are read secret by secret along the rows of the (symmetric) reply matrix. First
    the set of replies each guess sees, as a bit mask (a vectorisable OR per guess and secret):
    ``lb[c] >= 2c - 1`` for every cell, with equality up to b + 1 secrets, so
    ``n + 2 (n - w) - k`` for k cells (w: the guess is a secret) is a bound, exact when
    ``n <= b + 1``. Otherwise the guesses it leaves below the budget that are least of their
    class get their exact bound from their cell sizes: counted one guess at a time (giving up
    at the budget) when they are few, else all together in one more pass (:func:`_count_kept`).
    ``counts`` (size * replies, all zero on entry and on exit), ``bnd``, ``bits`` and ``rowbuf``
    (size) are scratch. When ``ctl[STOP]`` is set it returns 0 (a large game's rows take a while).
    ``bits`` is None where no mask holds the replies (8 pegs or more): see :func:`by_counts`.
    """
    if bits is None:  # numba drops the rest for this type, and by_counts for an array
        return by_counts(
            t,
            S,
            n,
            left,
            budget,
            group,
            gbase,
            m,
            used,
            counts,
            bnd,
            bits,
            rowbuf,
            glist,
            gbound,
            relabel,
            absent_list,
            ctl,
        )
    digits, dlb, dmin, fbm, codes = t.digits, t.dlb, t.dmin, t.fbm, t.codes
    pegs = t.pegs
    size = digits.shape[0]
    nrep = (pegs + 1) * (pegs + 1)
    win = pegs * (pegs + 1)
    for g in range(size):
        bits[g] = 0
    like = bits[0]  # a mask's type: each bit is shifted in it (32 bits up to 5 pegs)
    j = 0
    if fbm.shape[0] > 0:  # two secrets' rows at a time: half the masks' loads and stores
        while j + 1 < n:
            if ctl[STOP] != 0:
                return 0
            row, row2 = fbm[S[j]], fbm[S[j + 1]]
            for g in range(size):
                bits[g] |= bit_of(like, row[g]) | bit_of(like, row2[g])
            j += 2
    while j < n:
        if ctl[STOP] != 0:
            return 0
        row = reply_row(t, S[j], rowbuf)
        for g in range(size):
            bits[g] |= bit_of(like, row[g])
        j += 1
    kmax = np.int64(0)
    for g in range(size):
        x = bits[g]
        w = np.int64((x >> np.uint64(win)) & np.uint64(1))
        cells = np.int64(bits_set(x)) - w  # the replies other than the win
        if cells > kmax:
            kmax = cells
        # a useless guess (one cell), or one leaving a pair when one guess is left
        useless = (cells == 1 and w == 0) or (left < 3 and cells != n - w)
        bnd[g] = BIG if useless else 3 * n - 2 * w - cells
    ctl[KMAX] = kmax
    # k starts as an int64, not a literal 0: numba would compile _count_kept for that type too
    if lazy != 0 and n <= t.replies + 1:  # the caller checks the class of those it tries
        k = np.int64(0)
        for g in range(size):  # without a branch: which guesses pass is hard to predict
            b = bnd[g]
            glist[k] = g
            gbound[k] = b
            k += 1 if b < budget else 0
        return k
    absent = absent_colours(t, S, n, absent_list)
    k = np.int64(0)
    for g in range(size):
        if bnd[g] >= budget:
            continue
        if not least_of_class(t, g, absent, absent_list, group, gbase, m, used, relabel):
            continue
        glist[k] = g
        gbound[k] = bnd[g]
        k += 1
    if n <= t.replies + 1 or k == 0:
        return k
    kept = 0
    if 4 * k < size:  # few: one at a time, giving up at the budget
        hist = counts[:nrep]
        seen = counts[nrep : 2 * nrep]
        for i in range(k):
            g = glist[i]
            bound = n
            touched = 0
            biggest = 0
            for j in range(n):
                # the matrix read down column g, row S[j] (it is symmetric): the guesses come in
                # ascending order, so each secret's row is read a cache line at a time, where
                # row g, read at the secrets, is a line per secret and guess (mostly misses)
                f = rep(fbm, codes, S[j], g)
                c = hist[f]
                hist[f] = c + 1
                if c == 0:
                    seen[touched] = f
                    touched += 1
                if f != win:
                    bound += dlb[c]
                    if c + 1 > biggest:
                        biggest = c + 1
                    if bound >= budget:
                        break
            for q in range(touched):  # both back to zero: they are the first entries of counts
                hist[seen[q]] = 0
                seen[q] = 0
            if bound < budget and biggest < n and dmin[biggest] <= left - 1:
                glist[kept] = g
                gbound[kept] = bound
                kept += 1
        return kept
    return _count_kept(t, S, n, nrep, win, left, budget, counts, rowbuf, glist, gbound, k, ctl)  # many


@inner(cache=True, **ALLOCATES_NOTHING)
def _count_kept(t, S, n, nrep, win, left, budget, counts, rowbuf, glist, gbound, k, ctl):
    """The exact bound of each of the k guesses of ``glist`` from its cell sizes, all counted in
    one more pass over the secrets: keeps (in order, compacted) those below the budget whose
    cells can each be finished in time, and returns how many. Guess i's counts are
    ``counts[i * nrep:]``: only the k guesses are counted, next to each other, and each count
    is one increment (the bound is summed once, from the sizes, as the counts are cleared)."""
    lb, dmin = t.lb, t.dmin
    for j in range(n):
        if ctl[STOP] != 0:
            break
        row = reply_row(t, S[j], rowbuf)
        at = np.uint64(0)  # unsigned: the compiler then checks no index for a negative one
        for i in range(k):
            counts[at + np.uint64(row[np.uint64(glist[i])])] += 1
            at += np.uint64(nrep)
    kept = 0
    for i in range(k):
        base = i * nrep
        bound = n
        biggest = np.int64(0)
        for f in range(nrep):
            c = np.int64(counts[base + f])
            counts[base + f] = 0
            if f != win:
                bound += lb[c]
                if c > biggest:
                    biggest = c
        glist[kept] = glist[i]
        gbound[kept] = bound
        kept += 1 if bound < budget and biggest < n and dmin[biggest] <= left - 1 else 0
    return kept if ctl[STOP] == 0 else 0


@inner(cache=True, **ALLOCATES_NOTHING)
def _write_pair(t, S, arena, at):
    fbm, codes = t.fbm, t.codes
    a, b = S[0], S[1]
    arena[at] = a
    arena[at + 1] = 3  # one cell, and a wins
    arena[at + 2] = rep(fbm, codes, a, b)
    arena[at + 3] = b
    arena[at + 4] = 1
    return at + 5


@inner(cache=True, **ALLOCATES_NOTHING)
def _shortcut(t, S, n, left, hist, seen, arena, at, ctl):
    """A candidate splitting the others into singletons (cost 2n - 1), or failing that into
    singletons and one pair (2n): returns the cost, or 0 if neither exists."""
    win = t.pegs * (t.pegs + 1)
    fbm, codes = t.fbm, t.codes
    for want_pair in range(2):
        if want_pair == 1 and (left < 3 or n - 2 > t.replies):
            break
        if want_pair == 0 and n - 1 > t.replies:
            continue
        for i in range(n):
            g = S[i]
            touched = 0
            pairs = 0
            ok = True
            for j in range(n):
                f = rep(fbm, codes, g, S[j])
                c = hist[f]
                hist[f] = c + 1
                if c == 0:
                    seen[touched] = f
                    touched += 1
                elif f != win:
                    if c == 1 and want_pair == 1 and pairs == 0:
                        pairs = 1
                    else:
                        ok = False
                        break
            for k in range(touched):
                hist[seen[k]] = 0
            if not ok or pairs != want_pair:
                continue
            # write g, then its cells in reply order (a pair: its first secret, then the other)
            end = at + 2
            if end + 3 * n + 8 > arena.shape[0]:
                ctl[OVERFLOW] = 1
                ctl[STOP] = 1
                return 0
            arena[at] = g
            cells = 0
            for j in range(n):
                s = S[j]
                if s == g:
                    continue
                f = rep(fbm, codes, g, s)
                first = True
                for q in range(j):  # a pair's second secret was written with the first
                    if S[q] != g and rep(fbm, codes, g, S[q]) == f:
                        first = False
                        break
                if not first:
                    continue
                arena[end] = f
                other = -1
                for q in range(j + 1, n):
                    if S[q] != g and rep(fbm, codes, g, S[q]) == f:
                        other = S[q]
                        break
                if other < 0:
                    arena[end + 1] = s
                    arena[end + 2] = 1
                    end += 3
                else:
                    arena[end + 1] = s
                    arena[end + 2] = 3
                    arena[end + 3] = rep(fbm, codes, s, other)
                    arena[end + 4] = other
                    arena[end + 5] = 1
                    end += 6
                cells += 1
            arena[at + 1] = 2 * cells + 1
            ctl[END] = end
            return 2 * n - 1 + want_pair
    return 0


@njit(cache=True, nogil=True, **ALLOCATES_NOTHING)
def search(
    t,
    stack,
    s_at,
    n,
    left,
    budget,
    gbase,
    m,
    used,
    top,
    arena,
    at,
    ctl,
    counts,
    bnd,
    bits,
    rowbuf,
    first,
    memo,
):
    """The least cost of the n secrets ``stack[s_at : s_at + n]`` (ascending) with ``left``
    guesses at most, if it is below ``budget``; otherwise some value >= budget.

    On success the chosen tree is in ``arena[at : ctl[END]]``. ``stack[gbase:]`` holds the m
    elements of the history group, ``used`` the colours played so far; ``stack[top:]`` is free
    scratch. Setting ``ctl[STOP]`` (from another thread) makes every node fail at once. ``memo``
    is this thread's memo (empty: none). (Every array argument is one of the same few, and every
    number an int64: numba's cache cannot reload a recursive function whose recursive call
    converts its arguments.)
    """
    S = stack[s_at : s_at + n]
    group = stack
    if ctl[STOP] != 0:
        return BIG
    ctl[NODES] += 1
    lb = t.lb
    if n == 1:
        if budget <= 1:
            return BIG
        arena[at] = S[0]
        arena[at + 1] = 1
        ctl[END] = at + 2
        return 1
    if left < t.dmin[n] or lb[n] >= budget:
        return BIG
    if n == 2:
        ctl[END] = _write_pair(t, S, arena, at)
        return 3
    pegs, colors, fbm, codes, digits, cmask = t.pegs, t.colors, t.fbm, t.codes, t.digits, t.cmask
    nrep = (pegs + 1) * (pegs + 1)
    win = pegs * (pegs + 1)
    size = digits.shape[0]
    parts = node_parts(n, size, pegs, colors, m)
    need = 0
    for p in parts:
        need += p
    if top + need > stack.shape[0] or at + 12 * n + 16 > arena.shape[0]:
        ctl[OVERFLOW] = 1
        ctl[STOP] = 1
        return BIG
    # the node's parts of the stack, sliced in place (not an inlined helper: each inlined copy
    # is typed and lowered again, a first run's compile time)
    q = top
    hist = stack[q : q + parts[0]]
    q += parts[0]
    seen = stack[q : q + parts[1]]
    q += parts[1]
    glist = stack[q : q + parts[2]]
    q += parts[2]
    gbound = stack[q : q + parts[3]]
    q += parts[3]
    part_at = q
    part = stack[q : q + parts[4]]
    q += parts[4]
    keys = stack[q : q + parts[5]]
    q += parts[5]
    tmp = stack[q : q + parts[6]]
    q += parts[6]
    starts = stack[q : q + parts[7]]
    q += parts[7]
    cell_lo = stack[q : q + parts[8]]
    q += parts[8]
    cell_n = stack[q : q + parts[9]]
    q += parts[9]
    cell_f = stack[q : q + parts[10]]
    q += parts[10]
    cell_lb = stack[q : q + parts[11]]
    q += parts[11]
    relabel = stack[q : q + parts[12]]
    q += parts[12]
    absent_list = stack[q : q + parts[13]]
    q += parts[13]
    ext = stack[q : q + parts[14]]
    q += parts[14]
    cgroup_at = q
    q += parts[15]
    for f in range(nrep):
        hist[f] = 0

    if n <= t.replies + 2 and left >= 2 and first < 0:
        cost = _shortcut(t, S, n, left, hist, seen, arena, at, ctl)
        if cost > 0:
            return cost if cost < budget else BIG
        if ctl[STOP] != 0 or budget <= 2 * n:  # without the shortcut's trees, S costs 2n or more
            return BIG

    use_memo = first < 0 and memo.shape[0] > 0
    h = np.int64(0)
    if use_memo:
        h = memo_hash(S, n, left)
        slot = memo_find(memo, S, n, left, h)
        if slot >= 0:
            e = memo[MEMO_HEAD + 2 * slot + 1]
            value = memo[e + 3]
            if memo[e + 2] == 1 or budget <= value:
                memo[M_HITS] += 1
            if memo[e + 2] == 1:
                if value >= budget:
                    return BIG
                length = memo[e + 4]
                if at + length > arena.shape[0]:
                    ctl[OVERFLOW] = 1
                    ctl[STOP] = 1
                    return BIG
                for j in range(length):
                    arena[at + j] = memo[e + 5 + n + j]
                ctl[END] = at + length
                return value
            if budget <= value:
                return BIG

    # a small set's bounds are exact from one pass, and few of its guesses are tried before the
    # budget stops the search: the class of a guess is checked only when it is tried
    lazy = (t.pegs + 1) * t.pegs < 64 and n <= t.replies + 1
    k = bound_guesses(
        t,
        S,
        n,
        left,
        budget,
        group,
        gbase,
        m,
        used,
        counts,
        bnd,
        bits,
        rowbuf,
        glist,
        gbound,
        relabel,
        absent_list,
        ctl,
        np.int64(1),
    )
    absent = absent_colours(t, S, n, absent_list) if lazy else np.int64(0)
    # no guess gives more than K replies here, nor on any cell: lb with K for b holds below
    lbk = t.lbk[ctl[KMAX]]
    if first >= 0:  # only this guess (if it is one of those kept)
        kept = 0
        for i in range(k):
            if glist[i] == first:
                glist[0] = first
                gbound[0] = gbound[i]
                kept = 1
                break
        k = kept
    best = budget
    best_end = at
    found = False
    while True:
        i_best = -1
        b_best = best
        for i in range(k):
            if gbound[i] < b_best:
                b_best = gbound[i]
                i_best = i
        if i_best < 0:
            break
        gbound[i_best] = BIG  # tried
        g = glist[i_best]
        if lazy and not least_of_class(t, g, absent, absent_list, group, gbase, m, used, relabel):
            continue
        # the cells of g, smallest first (ties: lower reply)
        for j in range(n):
            part[j] = S[j]
            keys[j] = rep(fbm, codes, g, S[j])
        counting_sort(part, keys, 0, n, nrep, starts, tmp)
        cells = 0
        for f in range(nrep):
            c = starts[f + 1] - starts[f]
            if c == 0 or f == win:
                continue
            j = cells
            while j > 0 and cell_n[j - 1] > c:
                cell_lo[j] = cell_lo[j - 1]
                cell_n[j] = cell_n[j - 1]
                cell_f[j] = cell_f[j - 1]
                j -= 1
            cell_lo[j] = starts[f]
            cell_n[j] = c
            cell_f[j] = f
            cells += 1
        total = n
        for ci in range(cells):
            cell_lb[ci] = lbk[cell_n[ci]]
            total += cell_lb[ci]
        if total >= best:
            continue
        mc = -1
        if n >= t.pre_node:  # the large cells' own least bounds first, largest first
            for ci in range(cells - 1, -1, -1):
                c = cell_n[ci]
                if c < t.pre_cell or total >= best:
                    break
                if mc < 0:
                    mc = child_group(digits, g, group, gbase, m, used, pegs, colors, stack, cgroup_at, ext)
                if q + 2 * size > stack.shape[0]:
                    ctl[OVERFLOW] = 1
                    ctl[STOP] = 1
                    return BIG
                lo = cell_lo[ci]
                least = best - (total - cell_lb[ci])  # the least bound of a guess there, if lower
                gb = stack[q + size : q + 2 * size]
                kc = bound_guesses(
                    t,
                    part[lo : lo + c],
                    c,
                    left - 1,
                    least,
                    stack,
                    cgroup_at,
                    mc,
                    used | cmask[g],
                    counts,
                    bnd,
                    bits,
                    rowbuf,
                    stack[q : q + size],
                    gb,
                    relabel,
                    absent_list,
                    ctl,
                    np.int64(0),
                )
                for i in range(kc):
                    least = min(least, gb[i])
                if least > cell_lb[ci]:
                    total += least - cell_lb[ci]
                    cell_lb[ci] = least
            if ctl[STOP] != 0:
                return BIG
            if total >= best:
                continue
        w = best_end
        if w + 6 * n + 8 > arena.shape[0]:
            ctl[OVERFLOW] = 1
            ctl[STOP] = 1
            return BIG
        arena[w] = g
        arena[w + 1] = 2 * cells + (1 if starts[win + 1] > starts[win] else 0)
        w += 2
        ok = True
        for ci in range(cells):
            c = cell_n[ci]
            lo = cell_lo[ci]
            arena[w] = cell_f[ci]
            w += 1
            if c == 1:
                arena[w] = part[lo]
                arena[w + 1] = 1
                w += 2
                continue
            if c == 2:
                w = _write_pair(t, part[lo : lo + 2], arena, w)
                continue
            if mc < 0:
                mc = child_group(digits, g, group, gbase, m, used, pegs, colors, stack, cgroup_at, ext)
            cell_budget = best - (total - cell_lb[ci])
            r = search(
                t,
                stack,
                part_at + lo,
                np.int64(c),
                left - 1,
                cell_budget,
                cgroup_at,
                mc,
                used | cmask[g],
                q,
                arena,
                w,
                ctl,
                counts,
                bnd,
                bits,
                rowbuf,
                np.int64(-1),
                memo,
            )
            if r >= cell_budget:
                ok = False
                break
            total += r - cell_lb[ci]
            w = ctl[END]
        if ctl[STOP] != 0:
            return BIG
        if not ok:
            continue
        best = total
        found = True
        if best_end != at:  # move the new best down over the old one
            length = w - best_end
            for j in range(length):
                arena[at + j] = arena[best_end + j]
            best_end = at + length
        else:
            best_end = w
    if not found:
        if use_memo and ctl[STOP] == 0:  # searched to the end: no tree costs less than budget
            memo_put(memo, S, n, left, h, np.int64(0), budget, arena, at, at)
        return BIG
    ctl[END] = best_end
    if use_memo:
        memo_put(memo, S, n, left, h, np.int64(1), best, arena, at, best_end)
    return best


def solve(t, S, left, budget, group, m, used, first, stack, arena, ctl, counts, bnd, bits, rowbuf, memo):
    """:func:`search` on the secrets S with the history group ``group``, releasing the GIL:
    both are copied to the start of ``stack``. With ``first`` >= 0 only that guess is tried
    at S (if it is the least of its class and playable). ``counts`` (size * replies, uint16 or
    uint32 beyond 65,535 codes, all zero), ``bnd`` (size, int64), ``bits`` (size, the game's
    mask type: uint32 up to 5 pegs, else uint64) and ``rowbuf`` (size, uint8) are scratch;
    ``memo`` is the calling thread's (see :func:`new_memo`; an empty array for none). In Python
    rather than a kernel: a kernel calling the search would compile it all over again (numba
    optimises each kernel with every kernel it calls)."""
    ctl[END] = 0
    n = S.shape[0]
    k = group.shape[0]
    if n + k + 64 > stack.shape[0]:
        ctl[OVERFLOW] = 1
        return BIG
    stack[:n] = S
    stack[n : n + k] = group
    return search(
        t,
        stack,
        np.int64(0),
        np.int64(n),
        np.int64(left),
        np.int64(budget),
        np.int64(n),
        np.int64(m),
        np.int64(used),
        np.int64(n + k),
        arena,
        np.int64(0),
        ctl,
        counts,
        bnd,
        bits,
        rowbuf,
        np.int64(first),
        memo,
    )


def _scratch(t):
    """bound_guesses's scratch: bnd, rowbuf, glist, gbound (size), relabel, absent_list (colours)."""
    size = t.digits.shape[0]
    zeros = np.zeros
    return (
        zeros(size, dtype=np.int64),
        zeros(size, dtype=np.uint8),
        zeros(size, dtype=np.int64),
        zeros(size, dtype=np.int64),
        zeros(t.colors, dtype=np.int64),
        zeros(t.colors, dtype=np.int64),
    )


def root_guesses(t, S, left, budget, group, m, used, counts, bits, ctl):
    """The playable least guesses at S with bound below ``budget``: (codes, bounds), unordered
    (the caller sorts them); none if ``ctl[STOP]`` is set meanwhile. ``counts`` and ``bits`` are
    scratch as for :func:`solve` (``bits`` of the search's mask type: then :func:`bound_guesses`
    is compiled once for both). In Python, calling the search's own kernel (see :func:`solve`)."""
    bnd, rowbuf, glist, gbound, relabel, absent_list = _scratch(t)
    zero = np.int64(0)
    k = bound_guesses(
        t,
        S,
        np.int64(S.shape[0]),
        np.int64(left),
        np.int64(budget),
        group,
        zero,
        np.int64(m),
        np.int64(used),
        counts,
        bnd,
        bits,
        rowbuf,
        glist,
        gbound,
        relabel,
        absent_list,
        ctl,
        zero,
    )
    return glist[:k].copy(), gbound[:k].copy()


def bound_cells(t, S, g, left, group, m, used, counts, bits, ctl, cap):
    """A lower bound on the cost of each cell of guess g at S (indexed by reply; 0 where there is
    no cell, and for the win) with ``left - 1`` guesses: 1 and 3 for cells of one and two
    secrets, the least guess bound of a larger cell (the best any guess can do there, one level
    down), BIG for a cell that cannot be finished in time. The cells are bounded largest first
    (ties: lower reply), and those left are 0 once the guess is known to cost ``cap`` or more
    (``|S|`` and its cells' bounds, each at least the counting bound ``t.lb``): with a cap of BIG
    every cell is bounded unless one is BIG (the guess cannot finish in time: the cells after it
    are left at 0). ``counts`` and ``bits`` are scratch as for :func:`root_guesses`; none if
    ``ctl[STOP]`` is set meanwhile.

    One source, run two ways: as Python over the search's own kernels by the search, which asks
    it of few guesses (a kernel calling the search's kernels would compile them all over again,
    see :func:`solve`), and compiled as :func:`cell_bounds` by the guided proof, which asks it
    tens of thousands of times. So it is written in what both numpy and numba run, with a loop
    over the replies only (few) and whole-array operations over the secrets."""
    pegs, colors = t.pegs, t.colors
    size = t.digits.shape[0]
    nrep = (pegs + 1) * (pegs + 1)
    win = pegs * (pegs + 1)
    n = S.shape[0]
    out = np.zeros(nrep, dtype=np.int64)
    keys = t.fbm[g, S] if t.fbm.shape[0] > 0 else replies(t.codes, g, S)
    part = S[np.argsort(keys, kind="mergesort")]  # stable: each cell stays ascending
    starts = np.zeros(nrep + 1, dtype=np.int64)
    starts[1:] = np.cumsum(np.bincount(keys, minlength=nrep))
    sizes = starts[1:] - starts[:-1]
    zero = np.int64(0)
    cgroup = np.empty(max(1, m) * (pegs + colors), dtype=np.int64)
    ext = np.empty(2 * colors, dtype=np.int64)
    mc = child_group(
        t.digits, g, group, zero, np.int64(m), used, np.int64(pegs), np.int64(colors), cgroup, zero, ext
    )
    bnd = np.zeros(size, dtype=np.int64)
    rowbuf = np.zeros(size, dtype=np.uint8)
    glist = np.zeros(size, dtype=np.int64)
    gbound = np.zeros(size, dtype=np.int64)
    relabel = np.zeros(colors, dtype=np.int64)
    absent_list = np.zeros(colors, dtype=np.int64)
    # the replies by cell size, largest first (ties by reply), and what the guess costs at least
    order = np.zeros(nrep, dtype=np.int64)
    k = 0
    reach = np.int64(n)
    for f in range(nrep):
        c = sizes[f]
        if c == 0 or f == win:
            continue
        reach += t.lb[c]
        i = k
        while i > 0 and sizes[order[i - 1]] < c:
            order[i] = order[i - 1]
            i -= 1
        order[i] = f
        k += 1
    cused = used | t.cmask[g]
    for j in range(k):
        if reach >= cap:
            break
        f = order[j]
        c = sizes[f]
        if left - 1 < t.dmin[c]:
            out[f] = BIG
        elif c <= 2:
            out[f] = 2 * c - 1
        else:  # the least bound of a guess there
            kc = bound_guesses(
                t,
                part[starts[f] : starts[f + 1]],
                np.int64(c),
                np.int64(left - 1),
                BIG,
                cgroup,
                zero,
                np.int64(mc),
                cused,
                counts,
                bnd,
                bits,
                rowbuf,
                glist,
                gbound,
                relabel,
                absent_list,
                ctl,
                zero,
            )
            out[f] = gbound[:kc].min() if kc > 0 else BIG
        if out[f] > t.lb[c]:
            reach = BIG if out[f] >= BIG else reach + out[f] - t.lb[c]
    return out


#: :func:`bound_cells` compiled, for the guided proof (compiled when a proof first asks for it,
#: not by a search).
cell_bounds = njit(cache=True, nogil=True)(bound_cells)


@njit(cache=True, nogil=True)
def heap_permutations(pegs):
    """Every permutation of range(pegs), one a row, in the order of Heap's algorithm (the order
    the search has always had): compiled, since 10 pegs have 3,628,800 (11 s in Python)."""
    m = 1
    for k in range(2, pegs + 1):
        m *= k
    out = np.empty((m, pegs), dtype=np.int64)
    a = np.arange(pegs)
    c = np.zeros(pegs, dtype=np.int64)
    out[0] = a
    row, i = 1, 0
    while i < pegs:
        if c[i] < i:
            j = 0 if i % 2 == 0 else c[i]
            a[j], a[i] = a[i], a[j]
            out[row] = a
            row += 1
            c[i] += 1
            i = 0
        else:
            c[i] = 0
            i += 1
    return out


def history_group(digits, guesses, pegs, colors):
    """The history group of the given guesses (code indices), from all peg permutations. In
    Python (once per history), over the search's own :func:`child_group` and
    :func:`heap_permutations`."""
    pegs, colors = int(pegs), int(colors)
    perms = heap_permutations(np.int64(pegs))
    w = pegs + colors
    m = len(perms)
    table = np.empty((m, w), dtype=np.int64)  # (one pass over it: 10 pegs make 350 MB)
    table[:, :pegs] = perms
    table[:, pegs:] = -1
    group = table.ravel()
    used = np.int64(0)
    out = np.empty(m * w, dtype=np.int64)
    ext = np.empty(2 * colors, dtype=np.int64)
    zero = np.int64(0)
    for g in np.asarray(guesses, dtype=np.int64):
        m = int(
            child_group(
                digits, g, group, zero, np.int64(m), used, np.int64(pegs), np.int64(colors), out, zero, ext
            )
        )
        group[: m * w] = out[: m * w]
        for d in digits[g]:
            used |= np.int64(1) << np.int64(d)
    # the identity first: it is always there, and it rejects the most
    rows = group[: m * w].reshape(m, w)
    ident = np.flatnonzero((rows[:, :pegs] == np.arange(pegs)).all(axis=1))
    if ident.size and ident[0] > 0:
        e = int(ident[0])
        rows[[0, e]] = rows[[e, 0]]
    return (group if m * w == len(group) else group[: m * w].copy()), m, int(used)
