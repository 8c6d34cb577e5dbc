"""The checker's arithmetic: the game's codes and replies by the scoring rule, how a guess splits a
set of secrets (its cells, counted one guess at a time or every code at once), the counting bounds
a proof's claims rest on, and the classes of guesses that split a set alike."""

from __future__ import annotations

import sys
from array import array
from collections import Counter
from collections.abc import Callable

from ..core.rules import Rules
from ..runtime.pool import memory_share
from .files import every_code

#: Bytes the checker keeps of each secret's reply indicators (see ``_Game.indicators``); None: a
#: share of the memory this process may use (:func:`mastermind.runtime.pool.memory_share`), found
#: when a check starts.
LANE_MEMORY: int | None = None

#: What a guess that leaves its set whole is given, added to its total: never below a claim (such
#: a guess is skipped).
SKIP = 1 << 30

#: A permutation of codes: the pegs' images, then the colours'.
Perm = tuple[tuple[int, ...], tuple[int, ...]]


def reach(K: int, k: int) -> int:
    """F(K, k): the most secrets that k guesses can find when no guess gives more than K
    replies other than the win: 1 with the first guess, K more with the second, K**2 with the
    third... (each guess finds at most one secret, the one it names, and splits the rest).

    >>> [reach(13, k) for k in range(5)]
    [0, 1, 14, 183, 2380]
    """
    return sum(K**i for i in range(k))


def least_total(K: int, m: int) -> int:
    """T(K, m): the least total of any tree for m secrets when no guess gives more than K replies
    other than the win: each secret past the first F(K, j) needs a guess more.

    >>> [least_total(13, m) for m in (1, 2, 14, 15, 183)]
    [1, 3, 27, 30, 534]
    """
    total, j = 0, 0
    while (r := reach(K, j)) < m:
        total += m - r
        j += 1
    return total


def other_replies(pegs: int) -> int:
    """The game's number of replies other than the win: ``black + white <= pegs``, without
    ``(pegs - 1, 1)`` (which never occurs) and the win itself.

    >>> other_replies(4), other_replies(5)
    (13, 19)
    """
    return (pegs + 1) * (pegs + 2) // 2 - 2


class _Game:
    """The game's codes and their replies, computed here by the scoring rule (one guess's row of
    replies at a time, kept once computed)."""

    def __init__(self, rules: Rules) -> None:
        self.pegs = rules.pegs
        self.colors = rules.colors
        self.codes = every_code(rules)
        self.index = {c: i for i, c in enumerate(self.codes)}
        # Colours shared (with multiplicity) depend on the two codes' colour multisets only: a
        # table over the multisets, and each code's multiset number.
        tallies = [tuple(c.count(k) for k in range(rules.colors)) for c in self.codes]
        kinds: dict[tuple[int, ...], int] = {}
        self.kind = [kinds.setdefault(t, len(kinds)) for t in tallies]
        self.shared = [bytes(sum(map(min, a, b)) for b in kinds) for a in kinds]
        # The codes with colour c at peg i: at[i][c].
        self.at: list[list[list[int]]] = [[[] for _ in range(rules.colors)] for _ in range(rules.pegs)]
        for j, code in enumerate(self.codes):
            for i, c in enumerate(code):
                self.at[i][c].append(j)
        self.rows: dict[int, bytes] = {}
        self.scored = 0
        self.orbits: dict[tuple[tuple[Perm, ...], tuple[int, ...]], list[int]] = {}
        self.perm_images: dict[Perm, list[int]] = {}
        self.merges: dict[tuple[int, ...], list[int]] = {}
        self.repeats = rules.repeats
        # The replies other than the win (and (pegs - 1, 1), which no guess gets), each with a
        # table that turns a row into 1 where the row holds that reply and 0 elsewhere (see
        # :meth:`indicators`).
        p = rules.pegs
        found = {b * (p + 1) + w for b in range(p) for w in range(p + 1 - b)} - {(p - 1) * (p + 1) + 1}
        self.tables = [bytes(int(v == r) for v in range(256)) for r in sorted(found)]
        self.marks: dict[int, list[int]] = {}
        # The same replies as bits, a lane of ``lane`` bits per code (see :meth:`reply_bits`): a
        # table per byte of a lane, turning a row's reply into that byte of its bit.
        self.lane = next(b for b in (8, 16, 32, 64) if b >= len(self.tables))
        number = {r: k for k, r in enumerate(sorted(found))}
        self.bit_tables = [
            bytes((1 << number[v]) >> 8 * k & 255 if v in number else 0 for v in range(256))
            for k in range(self.lane // 8)
        ]
        self.bits: dict[int, int] = {}
        self.masks: tuple[int, int, int, int, int] | None = None
        self.fewer: dict[int, _Game] = {}  # the game of fewer colours, by their number (see narrowed)
        self.keep(LANE_MEMORY if LANE_MEMORY is not None else memory_share())

    def keep(self, memory: int) -> None:
        """Keep up to ``memory`` bytes of indicators (see :meth:`indicators`), and as much in all
        in the games of fewer colours (:meth:`narrowed`)."""
        self.memory = memory
        self.marks_kept = max(64, memory // max(1, len(self.tables) * len(self.codes)))
        self.bits_kept = max(64, memory // (self.lane // 8 * len(self.codes)))
        for game in self.fewer.values():
            game.keep(memory // self.colors)

    def narrowed(self, S: list[int]) -> tuple[_Game, list[int]]:
        """S in the game of the colours its secrets hold and one colour more, where two or more
        colours are absent from S (in a game with repeats): that game, and S's codes in it.

        A guess splits S as it does with every colour S lacks replaced by one of them (none
        gives a black or a white against S), so the codes holding no absent colour but the
        least are every way to split S; renamed, the colours held first and that one last,
        they are the codes of the smaller game, and the replies do not change when colours are
        renamed. So S's cells under every guess, and what counting makes of them, are those of
        the smaller game's: found there, on fewer codes."""
        held = sorted({c for i in S for c in self.codes[i]})
        if not self.repeats or len(held) + 2 > self.colors:
            return self, S
        game = self.fewer.get(len(held) + 1)
        if game is None:
            game = self.fewer[len(held) + 1] = _Game(Rules(pegs=self.pegs, colors=len(held) + 1))
            game.keep(self.memory // self.colors)
        name = dict(zip(held, range(len(held)), strict=True))
        return game, [game.index[tuple([name[c] for c in self.codes[i]])] for i in S]

    def row(self, g: int) -> bytes:
        """The reply (``black * (pegs + 1) + white``) of every code, as secret, to guess g, by the
        rule of :func:`mastermind.core.feedback.score`: blacks are the pegs alike, whites the
        colours shared (with multiplicity) less the blacks; so the reply is ``shared + pegs *
        blacks``."""
        row = self.rows.get(g)
        if row is None:
            shared = self.shared[self.kind[g]]
            out = bytearray(map(shared.__getitem__, self.kind))
            p = self.pegs
            for i, c in enumerate(self.codes[g]):
                for j in self.at[i][c]:
                    out[j] += p
            row = self.rows[g] = bytes(out)
            self.scored += len(self.codes)
        return row

    def indicators(self, s: int) -> list[int]:
        """For secret s and each reply other than the win: an integer whose byte g (little-endian:
        bits ``8 * g`` upwards) is 1 where guess g gets that reply from s, and 0 elsewhere. The
        reply does not change when guess and secret swap roles (blacks are the pegs alike, whites
        the colours shared less the blacks), so it is read off s's own row. Kept once computed
        (up to :data:`LANE_MEMORY` bytes)."""
        found = self.marks.get(s)
        if found is None:
            row = self.row(s)
            found = [int.from_bytes(row.translate(t), "little") for t in self.tables]
            if len(self.marks) >= self.marks_kept:
                self.marks.clear()
            self.marks[s] = found
        return found

    def lane_masks(self) -> tuple[int, int, int, int, int]:
        """For lanes of :attr:`lane` bits over the codes: 1 in each lane, then the masks that
        add up a lane's bits by halves (0x55.., 0x33.., 0x0f..) and its lowest byte."""
        found = self.masks
        if found is None:
            ones = int.from_bytes((b"\x01" + bytes(self.lane // 8 - 1)) * len(self.codes), "little")
            m1, m2, m4 = (ones * int(byte * (self.lane // 8), 16) for byte in ("55", "33", "0f"))
            found = self.masks = (ones, m1, m2, m4, ones * 255)
        return found

    def reply_bits(self, s: int) -> int:
        """For secret s: an integer with a lane of :attr:`lane` bits per guess g (little-endian),
        in which bit r is set where g gets the r-th reply other than the win from s (none where g
        is s). Kept once computed (up to :data:`LANE_MEMORY` bytes)."""
        found = self.bits.get(s)
        if found is None:
            row, step = self.row(s), len(self.bit_tables)
            out = bytearray(len(row) * step)
            for k, table in enumerate(self.bit_tables):
                out[k::step] = row.translate(table)
            found = int.from_bytes(out, "little")
            if len(self.bits) >= self.bits_kept:
                self.bits.clear()
            self.bits[s] = found
        return found

    def image(self, perm: Perm, i: int) -> int:
        p, s = perm
        x = self.codes[i]
        return self.index[tuple(s[x[p[k]]] for k in range(self.pegs))]

    def images(self, perm: Perm) -> list[int]:
        """The image of every code under the permutation (kept: nodes share permutations)."""
        found = self.perm_images.get(perm)
        if found is None:
            p, s = perm
            index, pegs = self.index, range(self.pegs)
            found = [index[tuple([s[x[p[k]]] for k in pegs])] for x in self.codes]
            if len(self.perm_images) > 4096:
                self.perm_images.clear()
            self.perm_images[perm] = found
        return found

    def least_absent_codes(self, absent: tuple[int, ...]) -> list[int] | range:
        """Every code that is the least of its class under the replacement of the colours of
        ``absent`` by the least of them alone (see :meth:`least_absent`)."""
        merged = self.merged(absent)
        if isinstance(merged, range):
            return merged
        return [g for g, m in enumerate(merged) if m == g]

    def least_absent(self, g: int, absent: tuple[int, ...]) -> bool:
        """Whether g is the least code of its class under the replacement of the colours of
        ``absent`` by the least of them alone (no permutations): it holds no other of them."""
        return not self.repeats or len(absent) < 2 or not set(self.codes[g]) & set(absent[1:])

    def merged(self, absent: tuple[int, ...]) -> list[int] | range:
        """Each code with the colours of ``absent`` replaced by the least of them (in a game
        with repeats; kept)."""
        if not self.repeats or len(absent) < 2:
            return range(len(self.codes))
        found = self.merges.get(absent)
        if found is None:
            least, others, index = absent[0], set(absent[1:]), self.index
            found = [index[tuple([least if c in others else c for c in x])] for x in self.codes]
            if len(self.merges) > 64:
                self.merges.clear()
            self.merges[absent] = found
        return found

    def least_of_classes(self, gens: list[Perm], absent: tuple[int, ...]) -> list[int]:
        """The least code of each class of guesses, under the group the permutations generate
        and (in a game with repeats) the replacement of any colour of ``absent`` by the least
        of them: guesses of one class split the set alike."""
        key = (tuple(gens), absent)
        found = self.orbits.get(key)
        if found is not None:
            return found
        n = len(self.codes)
        images = [self.images(perm) for perm in gens]
        merged = self.merged(absent)
        seen = bytearray(n)
        found = []
        for start in range(n):  # in increasing order: a class is first met at its least code
            if seen[start] or merged[start] != start:
                continue
            found.append(start)
            seen[start] = 1
            stack = [start]
            while stack:
                x = stack.pop()
                for img in images:
                    y = merged[img[x]]
                    if not seen[y]:
                        seen[y] = 1
                        stack.append(y)
        if len(self.orbits) > 4096:
            self.orbits.clear()
        self.orbits[key] = found
        return found


#: The most guesses :func:`least_by_cells` tallies one by one before it leaves the set to
#: :class:`_Tally`.
FEW_GUESSES = 64


def least_by_cells(
    game: _Game, S: list[int], K: int, least: Callable[[int], list[int]], left: int | None = None
) -> int | None:
    """The least over the codes, as guesses on S, of the sum of T(K', m) over a code's cells
    other than the win (m secrets each; K' the least of K and the most such cells a code gives;
    a code that leaves S whole left out; ``least(K')`` the list of T(K', m)), found from the
    codes' numbers of cells; None where that takes tallying more than :data:`FEW_GUESSES` codes
    one by one (or S has one secret, or is too large for the lanes). ``left``: the guesses a tree
    has left for S (within a guess limit): a code with a cell past F(K', left - 1) is left out
    too (:data:`SKIP` where every code is).

    A cell of m secrets costs at least 2m - 1 (exactly that up to m = K' + 1), so a code with c
    cells costs at least ``2 (|S| - w) - c`` (w 1 where it is a secret of S): the codes are
    tallied one by one from the least of these up, until every code left has a bound at least
    the least sum found. A code's cells are the bits of its lane in the OR of S's
    :meth:`_Game.reply_bits`, counted in place (each lane's bits added by halves), and the least
    lane is found by halving too: a pass over the codes per secret, as :class:`_Tally` makes,
    but of one bit per reply, not a byte, and none per code."""
    n, lane, K = len(S), game.lane, min(K, len(game.tables))
    if n < 2 or 2 * n >= 1 << lane - 1:
        return None
    ones, m1, m2, m4, low = game.lane_masks()
    x = 0
    for i in S:
        x |= game.reply_bits(i)
    x -= (x >> 1) & m1
    x = (x & m2) + ((x >> 2) & m2)
    x = (x + (x >> 4)) & m4
    shift = 8
    while shift < lane:
        x += x >> shift
        shift *= 2
    cells, top = x & low, ones << lane - 1
    if not (cells + top - K * ones) & top:  # no code gives K cells or more: K' is the most
        K -= _least_lane(K * ones - cells, ones, top, K)
    step = lane // 8
    members = bytearray(len(game.codes) * step)
    for i in S:
        members[i * step] = 1
    # No lane borrows, as c <= |S| - w. A code that leaves S whole (one cell, not in S) is
    # never the least: its 2 |S| - 1 is above any secret of S's 2 (|S| - 1) - c.
    bound = 2 * n * ones - 2 * int.from_bytes(members, "little") - cells
    low_bound = _least_lane(bound, ones, top, 2 * n)
    T, rows, win, inside = least(K), [game.row(i) for i in S], game.pegs * (game.pegs + 1), set(S)
    cap = n if left is None else reach(K, left - 1)

    def total(g: int) -> int:  # (a reply is the same with guess and secret swapped)
        sizes = Counter([row[g] for row in rows])
        sizes.pop(win, None)
        if len(sizes) == 1 and g not in inside or max(sizes.values(), default=0) > cap:
            return SKIP
        return sum(map(T.__getitem__, sizes.values()))

    at = ((bound + top - low_bound * ones) & top) ^ ((bound + top - (low_bound + 1) * ones) & top)
    found = total(((at & -at).bit_length() - 1) // lane)  # (the first code with the least bound)
    if found == low_bound:
        return found
    # the codes whose bound is below it (every bound is below the lanes' top bit)
    below = top ^ ((bound + top - min(found, 1 << lane - 1) * ones) & top)
    if below.bit_count() > FEW_GUESSES:
        return None
    raw = below.to_bytes(len(game.codes) * step, "little")
    at = raw.find(b"\x80", step - 1)
    while at >= 0:
        found = min(found, total(at // step))
        at = raw.find(b"\x80", at + step)
    return found


def _least_lane(x: int, ones: int, top: int, most: int) -> int:
    """The least of ``x``'s lanes (each below ``top``, the lanes' top bit; the least at most
    ``most``), found by halving: a lane is below v where adding ``top - v`` leaves its top bit
    clear."""
    lo, hi = 0, most  # the least lies in [lo, hi]
    while lo < hi:
        mid = (lo + hi) // 2
        if (x + top - (mid + 1) * ones) & top != top:  # some lane <= mid
            hi = mid
        else:
            lo = mid + 1
    return lo


def _lanes(raw: bytes, width: int) -> list[int]:
    """The numbers in lanes of ``width`` bytes, little-endian."""
    if width == 1:
        return list(raw)
    lanes = array("H" if width == 2 else "I", raw)
    if lanes.itemsize != width:  # a machine whose "I" is not 4 bytes
        return [int.from_bytes(raw[i : i + width], "little") for i in range(0, len(raw), width)]
    if sys.byteorder == "big":
        lanes.byteswap()
    return lanes.tolist()


def _rewiden(x: int, n: int, width: int, wider: int) -> int:
    """``x``'s ``n`` lanes of ``width`` bytes as lanes of ``wider`` bytes (the same numbers)."""
    if width == wider:
        return x
    raw = x.to_bytes(n * width, "little")
    out = bytearray(n * wider)
    for k in range(width):
        out[k::wider] = raw[k::width]
    return int.from_bytes(out, "little")


def _by_lanes(guesses: int | None, secrets: int, replies: int, codes: int) -> bool:
    """Whether to count every code at once (see _Tally) rather than ``guesses`` one by one: when
    they are many enough (None: every code, but for the absent colours' classes). The costs
    compared are each way's rough cost, per guess and per secret and reply."""
    return guesses is None or guesses * (2 + secrets / 10) > secrets * replies * codes / 2000


class _Tally:
    """How the guesses split a set S: the most cells other than the win that a guess gives, and
    the guesses whose every such cell has at most some number of secrets.

    Counted guess by guess (``guesses``: the replies of each on S, tallied) or, with ``guesses``
    None, for every code of the game at once: for each reply other than the win, the secrets of
    S that give it to each guess are counted in the lanes of one integer, a lane per guess (the
    sum of the secrets' :meth:`_Game.indicators`). A lane is wide enough for |S| to stay below
    its top bit, so that adding the same constant to every lane sets a lane's top bit exactly
    where its count passes a threshold, with no carry into the next lane. The first way costs
    a pass over S per guess, the second a pass over the codes per secret and reply."""

    def __init__(self, game: _Game, S: list[int], guesses: set[int] | None) -> None:
        self.game, self.S, self.n = game, S, len(game.codes)
        self.win = game.pegs * (game.pegs + 1)
        self.tallies: dict[int, Counter[int]] | None = None
        self.counts: list[int] = []
        self.cells: int | None = None
        if guesses is not None:
            self.tallies = {}
            for g in guesses:
                self.add(g)
            return
        self.width = width = 1 if len(S) < 1 << 7 else 2 if len(S) < 1 << 15 else 4
        self.top_bit = 8 * width - 1
        self.ones = int.from_bytes((b"\x01" + bytes(width - 1)) * self.n, "little")
        self.top = self.ones << self.top_bit
        # Added in one-byte lanes 255 secrets at a time (no lane can pass 255), then widened.
        self.counts = [0] * len(game.tables)
        for a in range(0, len(S), 255):
            marks = (game.indicators(i) for i in S[a : a + 255])
            part = [sum(col) for col in zip(*marks, strict=True)]
            self.counts = [c + _rewiden(x, self.n, 1, width) for c, x in zip(self.counts, part, strict=True)]

    def add(self, g: int) -> None:
        """Count guess g too (counted guess by guess; every code is counted already otherwise)."""
        if self.tallies is not None and g not in self.tallies:
            row = self.game.row(g)
            t = Counter([row[i] for i in self.S])
            t.pop(self.win, None)
            self.tallies[g] = t

    def most_cells(self) -> int:
        if self.tallies is not None:
            return max(len(t) for t in self.tallies.values())
        raw = self._cells().to_bytes(self.n * self.width, "little")
        return max(raw if self.width == 1 else _lanes(raw, self.width))

    def fitting(self, bound: int) -> list[int]:
        """The guesses (of those counted) whose every cell other than the win has at most
        ``bound`` secrets."""
        if self.tallies is not None:
            return [g for g, t in self.tallies.items() if max(t.values(), default=0) <= bound]
        if bound >= len(self.S):
            return list(range(self.n))
        over = 0
        for c in self.counts:  # top bits where the count passes the bound
            over |= (c + self.top - self.ones - bound * self.ones) & self.top
        return self._lanes_set(self.top ^ over)

    def totals(self, least: list[int], K: int, whole: int = SKIP) -> dict[int, int] | list[int]:
        """For each guess counted (a dict by guess; a list over every code when all are): the sum
        of ``least[m]`` over its cells other than the win (m secrets each), or at least ``whole``
        (at most :data:`SKIP`; SKIP itself where counted guess by guess) where it leaves S whole
        (one cell, S itself). ``least`` is T(K, m), so 2m - 1 up to K + 1."""
        n = len(self.S)
        if self.tallies is not None:
            out = {}
            for g, t in self.tallies.items():
                leaves = len(t) == 1 and next(iter(t.values())) == n
                out[g] = SKIP if leaves else sum(map(least.__getitem__, t.values()))
            return out
        # Read out in lanes of 2 bytes where every total and ``whole`` fit below 2**14 (the sum
        # over the cells is at most T(K, n), as T(K, a) + T(K, b) <= T(K, a + b)), else of 4: a cell
        # of m <= K + 1 secrets costs 2m - 1, so over the cells 2 (n - w) - cells, w = 1 where
        # the guess is a secret of S; a larger cell adds T(K, m) - (2m - 1), the sum over j >= 2
        # of max(0, m - F(K, j)): each term where m passes F(K, j), as (m + top - F) less top
        # (top: the lane's top bit), kept by a mask of whole lanes. A guess with all of S in one
        # cell gets half of the out lane's top more (at least ``whole``: never below a claim).
        # The terms are summed over the replies in the counts' own lanes (for each F, at most n
        # over the cells: no lane overflows), then widened once each; every step works on all
        # lanes at once, and the lanes are read out once.
        codes, tw = self.n, self.width
        width = 2 if least[n] < 1 << 14 and whole <= 1 << 14 else 4
        ones, top, bits = self.ones, self.top, self.top_bit
        lane = (1 << 8 * tw) - 1
        wide_ones = int.from_bytes((b"\x01" + bytes(width - 1)) * codes, "little")
        members = bytearray(codes * width)
        for i in self.S:
            members[i * width] = 1
        inside = int.from_bytes(members, "little")
        cells = self._cells()
        total = 2 * (n * wide_ones - inside) - _rewiden(cells, codes, tw, width)
        bound = 1 + K  # F(K, j) for j >= 2, below n
        while bound < n:
            over = 0
            for c in self.counts:
                mask = (((c + top - (bound + 1) * ones) & top) >> bits) * lane
                over += ((c + top - bound * ones) & mask) - (top & mask)
            total += _rewiden(over, codes, tw, width)
            bound = 1 + K * bound
        # S is one cell where there is one cell other than the win and no win (the guess not in S)
        one_cell = (((cells + top - ones) & top) ^ ((cells + top - 2 * ones) & top)) >> bits
        total += (_rewiden(one_cell, codes, tw, width) & ~inside) << 8 * width - 2
        return _lanes(total.to_bytes(codes * width, "little"), width)

    def _cells(self) -> int:
        """In each lane, the cells other than the win of that guess (kept once counted)."""
        if self.cells is None:
            self.cells = sum(((c + self.top - self.ones) & self.top) >> self.top_bit for c in self.counts)
        return self.cells

    def _lanes_set(self, bits: int) -> list[int]:
        """The lanes whose top bit is set in ``bits``."""
        found: list[int] = []
        if not bits:
            return found
        raw = bits.to_bytes(self.n * self.width, "little")
        at = raw.find(b"\x80")
        while at >= 0:
            found.append(at // self.width)
            at = raw.find(b"\x80", at + 1)
        return found

    def largest(self, g: int) -> int:
        """The most secrets in a cell other than the win of guess g (for messages)."""
        row = self.game.row(g)
        t = Counter([row[i] for i in self.S])
        t.pop(self.win, None)
        return max(t.values(), default=0)
