"""Kernels of the worst-case decision search (can every secret of a set be found within k guesses?).

The search itself is Python (``mastermind.strategies.optimal.worst``): these are its hot loops,
each a scan of guesses against a set of secrets through the game's reply matrix:

* :func:`guess_stats`: for every guess of a list, how many replies other than the win it gives
  on the set and the size of its largest such cell (the counting bound and the order of guesses
  are read off them);
* :func:`perfect_guess`, :func:`perfect_any`: a guess that tells every secret of the set apart
  (a set is solved within 2 guesses exactly when it has one), among some guesses or every code;
* :func:`representatives`: the guesses that are least in their class under the symmetries that
  fix the set (peg and colour permutations fixing every guess so far, and any permutation of the
  colours no secret of the set holds), so that one guess a class is searched.

A reply is ``black * (pegs + 1) + white``, as everywhere in the kernels.
"""

from __future__ import annotations

import numpy as np

from .exact import (
    least_in_cell_class,
    least_in_history_class,
    reply_matrix,  # noqa: F401  (the worst-case search reads the same matrix)
)
from .jit import njit


@njit(cache=True)
def guess_stats(fbm, S, guesses, nrep, win, ncells, biggest):
    """For each guess ``guesses[i]``: ``ncells[i]``, its number of replies other than the win on
    the secrets ``S``, and ``biggest[i]``, the size of its largest such cell. Both are counted
    as the secrets are read (a cell is new when its count reaches 1), and only the counts
    touched are cleared after a small set, so that a guess costs about |S|, not the replies."""
    counts = np.zeros(nrep, dtype=np.int64)
    n = S.shape[0]
    for i in range(guesses.shape[0]):
        row = fbm[guesses[i]]
        cells = 0
        most = 0
        for j in range(n):
            f = row[S[j]]
            c = counts[f] + 1
            counts[f] = c
            if f != win:
                if c == 1:
                    cells += 1
                if c > most:
                    most = c
        if n > nrep:
            for f in range(nrep):
                counts[f] = 0
        else:
            for j in range(n):
                counts[row[S[j]]] = 0
        ncells[i] = cells
        biggest[i] = most


@njit(cache=True)
def every_guess_stats(fbm, S, nrep, win, counts, ncells, biggest):
    """:func:`guess_stats` for every code as a guess at once, reading the replies secret by
    secret: row s of the matrix is every guess's reply to secret s (a reply does not change when
    guess and secret swap roles), read in order, where each guess's row would be read at the
    scattered places of S (a cache miss each, for a small S). ``counts`` (size * nrep, uint16;
    S has fewer than 65,536 secrets) is scratch."""
    size = fbm.shape[0]
    for i in range(size * nrep):
        counts[i] = 0
    for j in range(S.shape[0]):
        row = fbm[S[j]]
        for g in range(size):
            counts[g * nrep + row[g]] += 1
    for g in range(size):
        cells = 0
        most = 0
        base = g * nrep
        for f in range(nrep):
            c = int(counts[base + f])
            if c > 0 and f != win:
                cells += 1
                if c > most:
                    most = c
        ncells[g] = cells
        biggest[g] = most


@njit(cache=True)
def perfect_guess(fbm, S, guesses, nrep):
    """The first of ``guesses`` whose replies on ``S`` are all different (a tree of at most 2
    guesses then finds every secret), or -1."""
    stamp = np.zeros(nrep, dtype=np.int64)
    for i in range(guesses.shape[0]):
        row = fbm[guesses[i]]
        mark = i + 1
        ok = True
        for j in range(S.shape[0]):
            f = row[S[j]]
            if stamp[f] == mark:
                ok = False
                break
            stamp[f] = mark
        if ok:
            return guesses[i]
    return -1


@njit(cache=True)
def perfect_any(fbm, S, masks):
    """The least code whose replies on ``S`` are all different, or -1: :func:`perfect_guess`
    over every code, reading the matrix secret by secret (row s is every guess's reply to s),
    each guess's replies so far a bit mask in ``masks`` (scratch, one uint64 per code: replies
    below 63). A long sequential read where the scan guess by guess reads each row at the
    scattered places of S: on 5 pegs 8 colours, a set of 75 secrets proved not within 3 guesses
    (3,652 sets searched, most of them this scan) took 2.7 s instead of 26.6 s."""
    size = fbm.shape[0]
    for g in range(size):
        masks[g] = 0
    clash = np.uint64(1) << np.uint64(63)  # the top bit: no reply uses it (see above)
    for j in range(S.shape[0]):
        row = fbm[S[j]]
        for g in range(size):
            bit = np.uint64(1) << np.uint64(row[g])
            m = masks[g]
            if m & bit:
                m |= clash
            masks[g] = m | bit
    for g in range(size):
        if not masks[g] & clash:
            return g
    return -1


@njit(cache=True)
def representatives(digits, group, used, absent, repeats, out):
    """``out[g]`` = whether code g is least (in index order, that is lexicographic colours) in
    its class under the symmetries of a set of secrets, for every code g.

    ``group`` (m, pegs + colors) lists peg permutations p with a colour map s on the ``used``
    colours (those some guess so far played; -1 elsewhere): each maps a code x to y with
    ``y[i] = s(x[p[i]])`` and sends every guess so far to itself. The colours never played may
    be renamed among themselves as well, so an element's image is taken with them renamed at
    best (in order of first appearance, to the least free colours). Independently, the colours
    in ``absent`` (held by no secret of the set) may be renamed among themselves: a code is kept
    only if it uses them as the least such code does (the least absent colour wherever it uses
    one, with repeats; the least absent colours in increasing order, without). Both are
    permutations that map the set onto itself; the least code of the class generated by both
    passes both tests, so every class keeps at least one code.
    """
    size, pegs = digits.shape
    colors = group.shape[1] - pegs
    m = group.shape[0]
    relabel = np.zeros(colors, dtype=np.int64)
    absent_list = np.zeros(colors, dtype=np.int64)
    na = 0
    for colour in range(colors):
        if (absent >> colour) & 1:
            absent_list[na] = colour
            na += 1
    flat = group.reshape(-1)  # the layout of the exact search's groups (one element a row)
    for g in range(size):
        out[g] = least_in_cell_class(digits, g, absent, absent_list, repeats, pegs) and (
            least_in_history_class(digits, g, flat, 0, m, used, pegs, colors, relabel)
        )
