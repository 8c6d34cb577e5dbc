"""numpy kernels: the readable reference that the compiled kernels are tested against."""

from __future__ import annotations

import functools
import weakref

import numpy as np

from ..core.code import CodeSpace
from ..errors import StrategyError

#: Criteria of the partition strategies, by number (shared with the compiled kernels).
MAX_CLASS, SUM_SQUARES, ENTROPY, MOST_PARTS = 0, 1, 2, 3

#: Fixed-point scale of the entropy weights.
ENTROPY_SCALE = 2.0**32


#: Games of at most this many codes keep the reply of every pair of codes (size**2 bytes: 1.7 MB
#: for the classic game, 9.8 MB for 5x5), computed once a process by :func:`feedback_block`'s
#: sums: the numpy walk of a tree then reads each node's replies from it instead of summing them
#: again. The same limit as the command line's quick start (``QUICK_GAME``), which walks them.
TABLE_LIMIT = 3125

_tables: weakref.WeakKeyDictionary[CodeSpace, np.ndarray] = weakref.WeakKeyDictionary()


def reply_table(space: CodeSpace) -> np.ndarray | None:
    """The reply of every code to every code, (size, size) uint8, symmetric; None above
    :data:`TABLE_LIMIT` codes."""
    if space.size > TABLE_LIMIT:
        return None
    table = _tables.get(space)
    if table is None:
        every = np.arange(space.size, dtype=np.int64)
        table = _tables[space] = _summed_block(space, every, every)
    return table


def feedback_against(space: CodeSpace, guess: int, candidates: np.ndarray) -> np.ndarray:
    """Feedback integers of ``guess`` against each candidate index."""
    table = _tables.get(space)  # read if a search built it; one row is not worth building it
    if table is not None:
        return table[guess, candidates]
    digits, counts = space.digits(), space.counts()
    black = (digits[candidates] == digits[guess]).sum(axis=1)
    shared = np.minimum(counts[candidates], counts[guess]).sum(axis=1)
    return (black * (space.pegs + 1) + (shared - black)).astype(np.uint8)


def feedback_block(space: CodeSpace, guesses: np.ndarray, candidates: np.ndarray) -> np.ndarray:
    """Feedback integers of every guess against every candidate: (len(guesses), len(candidates)).

    ``black * (pegs + 1) + white`` is ``black * pegs + shared``, where ``shared`` counts the
    colours the two codes have in common; both are summed a peg and a colour at a time over
    whole (guesses, candidates) planes, which numpy does fast (and once, for a small game:
    :func:`reply_table`).
    """
    table = reply_table(space)
    if table is not None:
        return table[candidates][:, guesses].T  # rows of a symmetric table: contiguous reads
    return _summed_block(space, guesses, candidates)


def _summed_block(space: CodeSpace, guesses: np.ndarray, candidates: np.ndarray) -> np.ndarray:
    digits, counts = space.digits(), space.counts()
    g, c = digits[guesses], digits[candidates]
    black = np.zeros((len(g), len(c)), dtype=np.uint8)
    for p in range(space.pegs):
        black += g[:, p, None] == c[None, :, p]
    g, c = counts[guesses], counts[candidates]
    shared = np.zeros_like(black)
    for k in range(space.colors):
        shared += np.minimum(g[:, k, None], c[None, :, k])
    return black * np.uint8(space.pegs) + shared


def cells(space: CodeSpace, guess: int, candidates: np.ndarray) -> list[tuple[int, np.ndarray]]:
    """The candidates grouped by their reply to ``guess``: (reply, candidates) in increasing order
    of reply, each group in the order given (as the compiled ``feedback.cells``)."""
    replies = feedback_against(space, guess, candidates)
    # the replies present, ascending (np.unique would import numpy.ma, a fiftieth of a second)
    return [(int(f), candidates[replies == f]) for f in np.flatnonzero(np.bincount(replies))]


def partition_counts(space: CodeSpace, guesses: np.ndarray, candidates: np.ndarray) -> np.ndarray:
    """For each guess, how many candidates fall in each feedback class: (len(guesses), classes)."""
    classes = (space.pegs + 1) ** 2
    out = np.zeros((len(guesses), classes), dtype=np.int64)
    step = max(1, (1 << 22) // max(1, len(candidates)))
    table = reply_table(space)
    if table is not None:  # the candidates' rows of the table at the guesses, a block at a time
        rows = len(guesses)
        flat = np.zeros(rows * classes, dtype=np.int64)
        # (guess, reply) numbered in 32 bits (at most 3,125 x 36): numpy counts them several
        # times faster than the same numbers in 64 bits
        offsets = np.arange(rows, dtype=np.int32) * np.int32(classes)
        many = max(1, (1 << 21) // max(1, rows))  # candidates per block: 8 MB at most
        for start in range(0, len(candidates), many):
            block = table[candidates[start : start + many]][:, guesses].astype(np.int32)
            block += offsets
            flat += np.bincount(block.ravel(), minlength=rows * classes)
        return flat.reshape(rows, classes)
    for start in range(0, len(guesses), step):
        block = feedback_block(space, guesses[start : start + step], candidates).astype(np.int64)
        rows = block.shape[0]
        flat = block + np.arange(rows, dtype=np.int64)[:, None] * classes
        out[start : start + rows] = np.bincount(flat.ravel(), minlength=rows * classes).reshape(rows, classes)
    return out


def entropy_weights(n_max: int) -> np.ndarray:
    """Fixed-point ``n * log2(n)`` for n = 0..n_max, exact for ties.

    Each weight is built from the prime factorisation of n, ``n * sum(e_p * L_p)`` with
    ``L_p = round(log2(p) * 2**32)``, so partitions whose sums of n*log(n) are equal in exact
    arithmetic get exactly equal integer sums (e.g. {4, 1, 1, 1, 1} and {2, 2, 2, 2}), in any
    order. Ranking differences below about 2**-32 bits are not resolved.
    """
    n_max = max(int(n_max), 1)
    composite = np.zeros(n_max + 1, dtype=bool)
    for p in range(2, int(n_max**0.5) + 1):
        if not composite[p]:
            composite[p * p :: p] = True
    log_sum = np.zeros(n_max + 1, dtype=np.int64)  # sum of e_p * L_p, i.e. fixed-point log2(n)
    for prime in (np.flatnonzero(~composite[2:]) + 2).tolist():  # once per power dividing n
        step, weight = prime, round(np.log2(prime) * ENTROPY_SCALE)
        while step <= n_max:
            log_sum[step::step] += weight
            step *= prime
    return np.arange(n_max + 1, dtype=np.int64) * log_sum


def criterion_scores(counts: np.ndarray, criterion: int, weights: np.ndarray | None) -> np.ndarray:
    """Integer score of each row of partition counts; lower is better."""
    if criterion == MAX_CLASS:
        return counts.max(axis=1)
    if criterion == SUM_SQUARES:
        return (counts * counts).sum(axis=1)
    if criterion == ENTROPY:
        if weights is None:  # the table for these counts: :func:`entropy_weights` of the largest
            weights = entropy_weights(int(counts.max(initial=0)))
        return weights[counts].sum(axis=1)
    if criterion == MOST_PARTS:
        return -(counts > 0).sum(axis=1)
    raise StrategyError(f"unknown criterion {criterion}")


def best_guess(
    space: CodeSpace,
    pool: np.ndarray,
    candidates: np.ndarray,
    criterion: int,
    weights: np.ndarray | None = None,
) -> int:
    """The pool index with the least key (score, not a candidate, index).

    Where the pool is every code, two shortcuts spare scoring it all, neither changing the
    answer (as the compiled ``partition.choose``, which takes both): at the first guess only the
    lowest code of each symmetry class is scored (:func:`class_leaders`); later, the candidates
    are scored first, and one that scores as well as an even split of the candidates over every
    reply a non-candidate can get (the best any non-candidate can do) is the answer, since a
    non-candidate must score strictly better to win.
    """
    if len(pool) == space.size:
        if len(candidates) == space.size:  # the first guess: every code is a candidate
            pool = class_leaders(space)
        elif len(candidates) > 2:
            scores = criterion_scores(partition_counts(space, candidates, candidates), criterion, weights)
            best = int(np.argmin(scores))  # the first of the least: candidates are ascending
            if scores[best] <= even_split(len(candidates), _replies(space), criterion, weights):
                return int(candidates[best])
    scores = criterion_scores(partition_counts(space, pool, candidates), criterion, weights)
    is_candidate = np.isin(pool, candidates)
    order = np.lexsort((pool, ~is_candidate, scores))
    return int(pool[order[0]])


def even_split(n: int, k: int, criterion: int, weights: np.ndarray | None) -> int:
    """The least score any guess can have on ``n`` candidates with ``k`` possible replies (as the
    compiled ``partition.even_split_bound``)."""
    q, r = divmod(n, k)
    if criterion == MAX_CLASS:
        return q + 1 if r > 0 else q
    if criterion == SUM_SQUARES:
        return r * (q + 1) * (q + 1) + (k - r) * q * q
    if criterion == ENTROPY:
        if weights is None:
            weights = entropy_weights(q + 1)
        return int(r * weights[q + 1] + (k - r) * weights[q])
    if criterion == MOST_PARTS:
        return -min(n, k)
    raise StrategyError(f"unknown criterion {criterion}")


def _replies(space: CodeSpace) -> int:
    """How many replies a guess that is not the secret can get: every possible one but the win."""
    return _replies_of(space.pegs, space.colors, space.rules.repeats)


@functools.cache
def _replies_of(pegs: int, colors: int, repeats: bool) -> int:
    from ..core.feedback import possible_feedbacks

    return len(possible_feedbacks(pegs, colors, repeats)) - 1


_leaders: weakref.WeakKeyDictionary[CodeSpace, np.ndarray] = weakref.WeakKeyDictionary()


def class_leaders(space: CodeSpace) -> np.ndarray:
    """The lowest code of each class of codes that renaming colours and reordering pegs map onto
    each other (ascending): before any guess, every member of a class splits the codes alike,
    and its lowest wins the tie. A class is the multiset of its codes' colour multiplicities
    (1122 and 3434 have two pairs), so the classic game has five: 1111, 1112, 1122, 1123, 1234.
    """
    leaders = _leaders.get(space)
    if leaders is None:
        shapes = -np.sort(-space.counts().astype(np.int16), axis=1)  # multiplicities, descending
        _, first = np.unique(shapes, axis=0, return_index=True)
        leaders = _leaders[space] = np.sort(first).astype(np.int64)
    return leaders
