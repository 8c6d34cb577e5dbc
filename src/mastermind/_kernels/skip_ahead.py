"""Skip-ahead search: the first code in counter order consistent with a history.

The counter's digits are the pegs, the first peg most significant. A colour table says which
colour each digit stands for at each position (``table[position, digit] = colour``); the identity
table gives plain numeric order. The search walks the digits from the most significant one and
abandons a prefix as soon as some row of the history can no longer be satisfied, so a whole block
of counter values is skipped at once and the code space is never enumerated.

For a row with guess ``g`` and reply (B black, W white), write ``S = B + W`` for the colours the
guess and the secret share. After the first ``k`` pegs of a code are fixed, with ``b`` blacks and
``s`` shared colours counted so far against ``g``, each of the ``p - k`` pegs still open adds at
most one black and at most one shared colour, and neither count ever falls. So a prefix can only
be completed if ``b <= B <= b + (p - k)`` and ``s <= S <= s + (p - k)``. When every peg is fixed
the bounds say ``b == B`` and ``s == S``: exactly consistency. The first complete code the walk
reaches is therefore the first consistent code in counter order. After each digit a cheap
look-ahead (:func:`_completable`) also checks that the open positions can still supply what each
row lacks, given the colours that other rows have ruled out. Two further shortcuts drop only
prefixes that cannot lead to a consistent code: once one "dead" colour has led nowhere at a
position, the other dead colours are skipped there; and in long searches, the states that led
nowhere are remembered (different prefixes often leave the same state: see :func:`_signature`).
"""

from __future__ import annotations

import numpy as np

from .jit import njit


@njit(cache=True)
def _completable(guesses, blacks, shared, gcount, used, black, share, start, repeats, forbid):
    """Whether the open positions ``start..`` can still give every row its missing pegs.

    A colour is ruled out at an open position when it would give a row a black or a shared
    colour more than its reply allows (or would repeat a colour where repeats are not allowed).
    A row that still needs ``n`` blacks needs ``n`` open positions where its own colour is not
    ruled out; one that needs ``n`` shared colours needs ``n`` open positions where one of the
    colours it still lacks is allowed. ``forbid`` is scratch space.
    """
    nrows = guesses.shape[0]
    pegs, colors = forbid.shape
    for j in range(start, pegs):
        for c in range(colors):
            forbid[j, c] = (not repeats) and used[c] > 0
    for r in range(nrows):
        if black[r] == blacks[r]:
            for j in range(start, pegs):
                forbid[j, guesses[r, j]] = True
        if share[r] == shared[r]:
            for c in range(colors):
                if used[c] < gcount[r, c]:
                    for j in range(start, pegs):
                        forbid[j, c] = True
    for r in range(nrows):
        need = blacks[r] - black[r]
        if need > 0:
            n = 0
            for j in range(start, pegs):
                if not forbid[j, guesses[r, j]]:
                    n += 1
            if n < need:
                return False
        need = shared[r] - share[r]
        if need > 0:
            n = 0
            for j in range(start, pegs):
                for c in range(colors):
                    if used[c] < gcount[r, c] and not forbid[j, c]:
                        n += 1
                        break
            if n < need:
                return False
    return True


#: A search that has placed this many digits starts remembering the states that led nowhere.
MEMO_AFTER = 20_000

#: Bytes the memory of failed states may take.
MEMO_BYTES = 32 << 20


@njit(cache=True)
def _signature(key, depth, black_row, used, cap):
    """Fill ``key`` with what decides the rest of the search, and return its hash.

    The open positions only see the position reached, the blacks of each row so far, and the
    colour counts of the prefix up to the most that any guess has (more of a colour changes no
    shared count); the shared counts so far follow from those colour counts.
    """
    nrows = black_row.shape[0]
    key[0] = depth
    for r in range(nrows):
        key[1 + r] = black_row[r]
    for c in range(cap.shape[0]):
        key[1 + nrows + c] = min(used[c], cap[c])
    h = np.uint64(14695981039346656037)
    for i in range(key.shape[0]):
        h = (h ^ np.uint64(key[i])) * np.uint64(1099511628211)
    return h


@njit(cache=True)
def _slot(keys, filled, key, h):
    """Open addressing: the slot of ``key`` and whether it is there, or the empty slot for it."""
    mask = keys.shape[0] - 1
    i = np.int64(h & np.uint64(mask))
    while filled[i]:
        same = True
        for j in range(key.shape[0]):
            if keys[i, j] != key[j]:
                same = False
                break
        if same:
            return i, True
        i = (i + 1) & mask
    return i, False


@njit(cache=True)
def first_consistent(guesses, blacks, shared, table, repeats, start, out, memo_after=MEMO_AFTER):
    """Write the first consistent code in counter order into ``out``; return whether one exists.

    Args:
        guesses: (rows, pegs) int64 colours of the guesses of the history.
        blacks: (rows,) int64 black pegs of each reply.
        shared: (rows,) int64 black + white pegs of each reply.
        table: (pegs, colors) int64; ``table[k, d]`` is the colour of digit ``d`` at position ``k``.
        repeats: whether a colour may appear more than once in a code.
        start: (pegs,) int64 digits of the counter value to start from; codes before it are skipped
            (all zeros to search from the beginning).
        out: (pegs,) int64, receives the colours of the code found.
        memo_after: after this many digits placed, remember the states that led nowhere.
    """
    nrows = guesses.shape[0]
    pegs, colors = table.shape
    # guess colour counts, per row
    gcount = np.zeros((nrows, colors), dtype=np.int64)
    for r in range(nrows):
        for i in range(pegs):
            gcount[r, guesses[r, i]] += 1
    # A colour is dead from position k on when it can add no black (no guess has it at k or
    # later) and no shared colour (the prefix has it at least as often as any guess): every dead
    # colour then leaves the same rows to satisfy, so if one leads nowhere, all do.
    most = np.zeros(colors, dtype=np.int64)
    last = np.zeros(colors, dtype=np.int64)
    for c in range(colors):
        last[c] = -1
    for r in range(nrows):
        for i in range(pegs):
            c = guesses[r, i]
            most[c] = max(most[c], gcount[r, c])
            last[c] = max(last[c], i)
    # Different prefixes often leave the same state (see _signature): once a state has led
    # nowhere, it is remembered, and prefixes that reach it again are dropped at once.
    cap = most.copy()
    if not repeats:
        for c in range(colors):
            cap[c] = max(cap[c], 1)  # a colour used once is then unavailable
    key = np.zeros(1 + nrows + colors, dtype=np.int8)
    keys = np.zeros((1, key.shape[0]), dtype=np.int8)
    filled = np.zeros(1, dtype=np.bool_)
    stored = 0
    placements = 0
    complete = np.zeros(pegs, dtype=np.bool_)  # the digit at k had its whole subtree searched
    dead_failed = np.zeros(pegs, dtype=np.bool_)  # a dead colour at k led nowhere
    used = np.zeros(colors, dtype=np.int64)  # colour counts of the prefix
    # black / shared counts of the prefix of length k against each row, for every k
    black = np.zeros((pegs + 1, nrows), dtype=np.int64)
    share = np.zeros((pegs + 1, nrows), dtype=np.int64)
    digit = np.zeros(pegs, dtype=np.int64)
    placed = np.zeros(pegs, dtype=np.bool_)
    forbid = np.zeros((pegs, colors), dtype=np.bool_)
    tight = 0  # digit[:tight] == start[:tight]: the prefix is still at the starting value
    k = 0
    while k >= 0:
        rest = pegs - k - 1
        if placed[k]:  # back from position k + 1: take this position's colour off, try the next
            c = table[k, digit[k]]
            if complete[k] and k < pegs - 1 and filled.shape[0] > 1 and 2 * stored < filled.shape[0]:
                h = _signature(key, k + 1, black[k + 1], used, cap)
                i, there = _slot(keys, filled, key, h)
                if not there:
                    for q in range(key.shape[0]):  # element by element: nothing to broadcast
                        keys[i, q] = key[q]
                    filled[i] = True
                    stored += 1
            used[c] -= 1
            if complete[k] and used[c] >= most[c] and last[c] < k:
                dead_failed[k] = True
            d = digit[k] + 1
        else:  # a fresh position: from the starting digit while the prefix is the start's
            dead_failed[k] = False
            d = start[k] if tight >= k else 0
        found = False
        while d < colors:
            c = table[k, d]
            if dead_failed[k] and used[c] >= most[c] and last[c] < k:
                d += 1
                continue
            if repeats or used[c] == 0:
                ok = True
                for r in range(nrows):
                    b = black[k, r]
                    if guesses[r, k] == c:
                        b += 1
                    s = share[k, r]
                    if used[c] < gcount[r, c]:
                        s += 1
                    if b > blacks[r] or b + rest < blacks[r] or s > shared[r] or s + rest < shared[r]:
                        ok = False
                        break
                    black[k + 1, r] = b
                    share[k + 1, r] = s
                if ok and filled.shape[0] > 1 and k < pegs - 1:
                    used[c] += 1
                    h = _signature(key, k + 1, black[k + 1], used, cap)
                    used[c] -= 1
                    ok = not _slot(keys, filled, key, h)[1]
                if ok:
                    found = True
                    break
            d += 1
        if not found:
            placed[k] = False
            k -= 1
            continue
        digit[k] = d
        placed[k] = True
        complete[k] = not (tight >= k and d == start[k])
        tight = k + 1 if tight >= k and d == start[k] else min(tight, k)
        used[table[k, d]] += 1
        placements += 1
        if placements == memo_after:
            size = 1 << 22
            while size * key.shape[0] > MEMO_BYTES:
                size >>= 1
            keys = np.zeros((size, key.shape[0]), dtype=np.int8)
            filled = np.zeros(size, dtype=np.bool_)
        if k < pegs - 1 and not _completable(
            guesses, blacks, shared, gcount, used, black[k + 1], share[k + 1], k + 1, repeats, forbid
        ):
            continue  # no completion: try the next digit here
        if k == pegs - 1:
            for i in range(pegs):
                out[i] = table[i, digit[i]]
            return True
        k += 1
    return False


def history_arrays(pegs: int, rows) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The arrays :func:`first_consistent` takes, from (guess colours, (black, white)) rows."""
    n = len(rows)
    guesses = np.zeros((n, pegs), dtype=np.int64)
    blacks = np.zeros(n, dtype=np.int64)
    shared = np.zeros(n, dtype=np.int64)
    for r, (guess, (b, w)) in enumerate(rows):
        guesses[r] = tuple(guess)
        blacks[r] = b
        shared[r] = b + w
    return guesses, blacks, shared


def identity_table(pegs: int, colors: int) -> np.ndarray:
    """The colour table of plain numeric order: digit d is colour d at every position."""
    return np.tile(np.arange(colors, dtype=np.int64), (pegs, 1))


def find_first(
    pegs: int,
    colors: int,
    repeats: bool,
    rows,
    table: np.ndarray | None = None,
    start=None,
    memo_after: int = MEMO_AFTER,
):
    """The colours of the first code in counter order consistent with ``rows``, or None.

    ``rows`` are (guess colours, (black, white)) pairs; ``table`` defaults to numeric order;
    ``start`` (counter digits) skips the values before it.
    """
    if table is None:
        table = identity_table(pegs, colors)
    guesses, blacks, shared = history_arrays(pegs, rows)
    begin = np.zeros(pegs, dtype=np.int64) if start is None else np.asarray(start, dtype=np.int64)
    out = np.zeros(pegs, dtype=np.int64)
    if first_consistent(guesses, blacks, shared, table, repeats, begin, out, memo_after):
        return tuple(int(c) for c in out)
    return None
