"""The check of a proof, node by node: what a node's set allows, the set of each line under it, and
the node's claim once its lines are met; and the walk that checks a proof's lines as they are read."""

from __future__ import annotations

import collections
import dataclasses
import hashlib
from array import array
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..core.feedback import Feedback
from ..core.rules import Rules
from ..core.text import plural
from ..errors import ProofError
from .arithmetic import SKIP, _by_lanes, _Game, _Tally, least_by_cells, reach
from .files import code_text
from .proof import ProofNode, _gens_text, _Reader

if TYPE_CHECKING:
    from .workers import _Dealer

# An entry of the check: a node, its secrets, the guesses left (a claim on guesses) and K.
_Entry = tuple["ProofNode", list[int], int, int]


@dataclass
class _Held:
    """A node's lines, its own first, held to be sent whole to a process (see :func:`_walk`)."""

    entry: _Entry
    depth: int
    lines: list[tuple[int, str]]


def _walk(
    checker: _Checker,
    reader: _Reader,
    top: _Entry,
    lines: Iterator[tuple[int, str]],
    progress: Callable[[int], None] | None,
    *,
    root: bool = False,
    pool: _Dealer | None = None,
    most: int = 0,
    owner: dict[tuple[int, ...], tuple[int, int]] | None = None,
    part: int = -1,
    shared: dict[tuple[int, ...], _Open] | None = None,
) -> None:
    """Check a node (``top``, its line read already: the proof's root with ``root``) and the
    ``lines`` below it, as they are read (:func:`_check_node`); ``progress(n)`` as n more nodes
    are checked. What is held is the path to the line read.

    With a ``pool`` of processes, a node whose lines end within ``most`` is sent, its set and
    its lines as text, to a process; one with more is checked here, its lines read again, each
    line under it sent or checked in turn. So the few nodes above the pieces are checked here,
    and each piece is read once by a process.

    With ``owner`` (a cut's pieces by their path: :class:`.parts._Cut`), only ``part``'s pieces
    are checked, with the nodes above the pieces (every part checks those); the other parts'
    pieces are passed over unread. ``shared`` keeps the nodes above the pieces as opened, by
    path, for the next part's pass: there they are taken as they are, their claims checked
    already, and not counted again."""
    walk = _Walk(checker, reader, _Lines(lines, reader.base), progress, root, pool, most, owner, part, shared)
    _check_node(walk, top, 0, (), owner is None)
    while walk.lines.ahead is not None:  # a line beside the top node: refused where it stands
        reader.take(*walk.lines.take())


def _check_node(walk: _Walk, entry: _Entry, depth: int, path: tuple[int, ...], inside: bool) -> bytes:
    """Check a node whose line is read, at ``depth``, and every line below it; the digest of those
    lines (:func:`_digest`). The argument, node by node (:class:`_Checker`): what the node's set
    allows; then, line by line, the set of the line under it (those of its set that give the
    line's reply to the line's guess), checked in turn as a node; then the node's claim, from
    the sets of its lines and counting. ``inside``: in a piece of this part (always, uncut)."""
    opened = walk.open(entry, depth, path, inside)
    if isinstance(opened, bytes):  # a count, or a copy of lines checked already: nothing to check
        return opened
    digest = hashlib.blake2b(digest_size=16)
    place = 0
    while walk.lines.below(depth):
        at, line = walk.lines.take()
        _, guess, reply, node = walk.reader.take(at, line)
        assert guess is not None and reply is not None
        child = walk.checker.line(opened, walk.checker.game.index[guess], reply, node)
        digest.update(line.strip().encode())
        digest.update(_route(walk, child, depth + 1, (*path, place), inside, (at, line)))
        place += 1
    if not opened.checked:
        walk.checker.close(opened)
        if inside:
            walk.checker.remember(entry, digest.digest())
    return digest.digest()


def _route(
    walk: _Walk, entry: _Entry, depth: int, path: tuple[int, ...], inside: bool, own: tuple[int, str]
) -> bytes:
    """Check a line under an open node where its check belongs: here, in a process (its lines
    sent whole, when they are few enough), or in another part (its lines passed over unread);
    the digest of its lines, where known."""
    if not inside:
        assert walk.owner is not None
        found = walk.owner.get(path)
        if found is not None and found[0] != walk.part:  # another part's piece
            walk.lines.pass_over(depth)
            return b""  # (unknown: a node above the pieces is not remembered)
        inside = found is not None  # (None: above the pieces, every part checks it)
    if walk.pool is not None and inside and entry[0].kind != "count":
        held = walk.lines.hold(depth, walk.most)
        if len(held) < walk.most:
            walk.pool.send(_Held(entry, depth, [own, *held]), walk.part)
            return _digest(held, walk.lines.base + depth)
        walk.lines.put_back(held)  # too many for one piece: checked here, its lines read again
    return _check_node(walk, entry, depth, path, inside)


def _digest(held: list[tuple[int, str]], indent: int) -> bytes:
    """The digest of a node's lines (at ``indent``), as :func:`_check_node` finds it: each line
    under the node (stripped), then the digest of that line's own lines."""
    found, _ = _digest_from(held, 0, indent)
    return found


def _digest_from(held: list[tuple[int, str]], start: int, indent: int) -> tuple[bytes, int]:
    digest, at = hashlib.blake2b(digest_size=16), start
    while at < len(held) and _indent(held[at][1]) > indent:
        line = held[at][1]
        below, at = _digest_from(held, at + 1, _indent(line))
        digest.update(line.strip().encode())
        digest.update(below)
    return digest.digest(), at


#: The digest of no lines (a count's).
_NO_LINES = hashlib.blake2b(digest_size=16).digest()


def _bound_key(S: list[int], K: int, left: int | None) -> tuple[bytes, int, int | None]:
    """A set's one-level bound is kept under this (``_Checker.bounds``)."""
    return array("i", S).tobytes(), K, left


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


class _Lines:
    """A proof's lines as they are read, the next one seen before it is taken (so that where a
    node's lines end is known without reading past them); depths count from ``base``."""

    def __init__(self, source: Iterator[tuple[int, str]], base: int) -> None:
        self.source, self.base = source, base
        self.kept: collections.deque[tuple[int, str]] = collections.deque()  # lines to read again
        self.ahead: tuple[int, str] | None = next(source, None)

    def below(self, depth: int) -> bool:
        """Whether the next line lies below a node at ``depth`` (indented deeper)."""
        return self.ahead is not None and _indent(self.ahead[1]) - self.base > depth

    def take(self) -> tuple[int, str]:
        taken = self.ahead
        assert taken is not None
        self.ahead = self.kept.popleft() if self.kept else next(self.source, None)
        return taken

    def hold(self, depth: int, most: int | None = None) -> list[tuple[int, str]]:
        """The lines below a node at ``depth``, taken; with ``most``, no more than that."""
        held: list[tuple[int, str]] = []
        while self.below(depth) and (most is None or len(held) < most):
            held.append(self.take())
        return held

    def pass_over(self, depth: int) -> None:
        """The lines below a node at ``depth``, taken and let go."""
        while self.below(depth):
            self.take()

    def put_back(self, held: list[tuple[int, str]]) -> None:
        """Lines taken, to be read again, first."""
        if held:
            if self.ahead is not None:
                self.kept.appendleft(self.ahead)
            self.kept.extendleft(reversed(held))
            self.ahead = self.kept.popleft()


@dataclass
class _Walk:
    """What :func:`_check_node` carries down a proof's lines (see :func:`_walk`)."""

    checker: _Checker
    reader: _Reader
    lines: _Lines
    progress: Callable[[int], None] | None
    root: bool
    pool: _Dealer | None
    most: int
    owner: dict[tuple[int, ...], tuple[int, int]] | None
    part: int
    shared: dict[tuple[int, ...], _Open] | None

    def open(self, entry: _Entry, depth: int, path: tuple[int, ...], inside: bool) -> _Open | bytes:
        """:meth:`_Checker.open`, or the node as an earlier part's pass opened it (above the
        pieces); or, where nothing is left to check, the digest of its lines: a count (none), or
        a set met again whose lines are a copy of those checked already with it (the same line,
        guesses left and K): they are read (their form checked) and counted, not checked again,
        as they would pass again. So whichever copy a check meets first, in whichever part or
        process, the verdict is the same."""
        if not inside and self.shared is not None and path in self.shared:
            return dataclasses.replace(self.shared[path], splits={}, cells={})
        twin = self.checker.twin(entry)
        if twin is not None and inside:
            held = self.lines.hold(depth)
            if _digest(held, self.lines.base + depth) == twin:
                if self.progress:  # (the node, then its lines)
                    self.progress(1)
                    self.progress(len(held))
                for at, line in held:
                    self.reader.take(at, line)
                return twin
            self.lines.put_back(held)
        found = self.checker.open(entry, self.progress, self.root and depth == 0)
        if found is None:
            return _NO_LINES
        if not inside and self.shared is not None:  # (its claim checked: its tally not needed again)
            self.shared[path] = dataclasses.replace(
                found, tally=_Tally(self.checker.game, [], set()), splits={}, cells={}, checked=True
            )
        return found


@dataclass
class _Open:
    """A node under check: what its claim needs (its set S, the guesses left k, the bound K on
    its guesses' cells, narrowed to S), and the cells its lines name, as they are met."""

    node: ProofNode
    S: list[int]
    k: int
    K: int
    tally: _Tally
    least_codes: set[int] | None
    absent: tuple[int, ...]
    root: bool
    splits: dict[int, dict[int, list[int]]] = field(default_factory=dict)  # guess -> reply -> cell
    cells: dict[int, list[tuple[int, ProofNode]]] = field(default_factory=dict)  # guess -> (size, node)
    named: dict[int, set[int]] = field(default_factory=dict)  # guess -> the replies its lines name
    checked: bool = False  # its claim checked already (in an earlier part's pass)


#: Bytes of sets the checker remembers as checked (see ``_Checker.taken``), in each process.
TAKEN_MEMORY = 256 << 20


class _Checker:
    """The check of one proof, node by node, in three steps: :meth:`open` checks what a node's
    set allows (its permutations, a count) and counts its guesses' cells; :meth:`line` finds the
    set of each line under it; :meth:`close` checks its claim once all its lines are met. So a
    node needs nothing but its set and the first lines of its own lines: a proof is checked as
    it is read (:func:`_walk`)."""

    def __init__(
        self,
        rules: Rules,
        first: tuple[tuple[int, ...], ...] = (),
        implicit: bool = False,
        within: bool = False,
    ) -> None:
        self.rules = rules
        # On the total within a guess limit: what a node claims depends on the guesses left too.
        self.within = within
        self.first = first  # the first guesses a claim on guesses is about (at the root)
        # Version 3 on the total: a guess short of its node's claim has its cells that no line
        # names raised to their one-level bounds (:meth:`_raised`), found here, not read.
        self.implicit = implicit
        # Within a guess limit: every first guess refuted, so that no tree finds every secret in
        # time, and the claim holds of none (found as the root is closed).
        self.vacuous = False
        self.bounds: dict[tuple[bytes, int, int | None], int] = {}  # (a cell, K, left) -> its bound
        self.game = _Game(rules)
        self.tables: dict[int, list[int]] = {}  # T(K, m) for m up to the game's size, by K
        # What a node's check finds depends on its set, guesses left, K, its line and the lines
        # below it alone, not on the path to it: a set met again with the same of each needs no
        # second check (:meth:`_Walk.open`). Only a saving: forgotten past TAKEN_MEMORY bytes.
        self.taken: dict[tuple[bytes, int, int, str], bytes] = {}  # -> the digest of its lines
        self.taken_bytes = 0

    def least(self, K: int) -> list[int]:
        """T(K, m) for m up to the game's size (:func:`~.arithmetic.least_total`), found one m
        after another: the m-th secret adds a guess for each level j with F(K, j) < m."""
        found = self.tables.get(K)
        if found is None:
            found, levels = [0], 0
            for m in range(1, len(self.game.codes) + 1):
                while reach(K, levels) < m:
                    levels += 1
                found.append(found[-1] + levels)
            self.tables[K] = found
        return found

    def show(self, i: int) -> str:
        return code_text(self.rules, self.game.codes[i])

    def _key(self, entry: _Entry) -> tuple[bytes, int, int, str]:
        node, S, k, K = entry
        return array("i", S).tobytes(), (k if node.kind == "all" or self.within else 0), K, node.text()

    def twin(self, entry: _Entry) -> bytes | None:
        """The digest of the lines checked already under a node like this one (see
        :meth:`remember`), if any."""
        return None if entry[0].kind == "count" else self.taken.get(self._key(entry))

    def remember(self, entry: _Entry, digest: bytes) -> None:
        """A node checked, and the digest of its lines: a copy met again needs no second check."""
        key = self._key(entry)
        if key not in self.taken:
            if self.taken_bytes > TAKEN_MEMORY:
                self.taken.clear()
                self.taken_bytes = 0
            self.taken_bytes += len(key[0]) + len(key[3]) + 200  # (the key, its digest, its place)
        self.taken[key] = digest

    def open(self, entry: _Entry, progress: Callable[[int], None] | None, root: bool = False) -> _Open | None:
        """Check what a node's set allows: a count, its permutations; None for a count (nothing
        more to check)."""
        node, S, k, K = entry
        game, rules = self.game, self.rules
        if progress:
            progress(1)
        if node.kind == "count":
            if len(S) <= reach(K, k):
                raise ProofError(
                    f"line {node.line}: {len(S):,} secrets can be told apart by {k} guesses that give at "
                    f"most {K} replies other than the win (up to {reach(K, k):,}): the count proves nothing"
                )
            return None
        if node.kind == "all" and k < 1:
            raise ProofError(f"line {node.line}: no guess is left to refute")
        if node.kind == "total" and self.within and k < 1:
            raise ProofError(f"line {node.line}: a total within no guess left (a 'count' says that)")
        members = set(S)
        for perm in node.gens:
            img = game.images(perm)
            if any(img[i] not in members for i in S):
                raise ProofError(f"line {node.line}: {_gens_text([perm])} does not map the set onto itself")
        held: set[int] = set()
        for i in S:
            held.update(game.codes[i])
        absent = tuple(c for c in range(rules.colors) if c not in held)
        # Two ways to the same figures (see _Tally): every code at once where the classes of
        # guesses are many (none but those of the absent colours: every code is tried), guess
        # by guess where they are few (the guesses the lines name are counted as they come).
        least_codes = set(game.least_of_classes(node.gens, absent)) if node.gens else None
        classes = None if least_codes is None else len(least_codes)
        if _by_lanes(classes, len(S), len(game.tables), len(game.codes)):
            tally = _Tally(game, S, None)
        else:
            least_codes = least_codes or set(game.least_of_classes(node.gens, absent))
            tally = _Tally(game, S, least_codes)
        # (a guess splits S as the least code of its class does: the least codes give K)
        return _Open(node, S, k, min(K, tally.most_cells()), tally, least_codes, absent, root)

    def line(self, opened: _Open, g: int, reply: Feedback, child: ProofNode) -> _Entry:
        """The entry of a line under an open node (guess g, its reply, the line's node): the
        secrets of the node's set that give that reply."""
        if child.kind == "total" and opened.node.kind != "total":
            raise ProofError(f"line {child.line}: a 'total' line under an '{opened.node.kind}' line")
        split = opened.splits.get(g)
        if split is None:
            row = self.game.row(g)
            split = opened.splits[g] = {}
            for i in opened.S:
                split.setdefault(row[i], []).append(i)
            opened.tally.add(g)
        pegs = self.rules.pegs
        f = reply.black * (pegs + 1) + reply.white
        cell = split.get(f, [])
        if f == pegs * (pegs + 1) or not cell:
            raise ProofError(f"line {child.line}: no secret of the set gives reply {reply} to {self.show(g)}")
        opened.cells.setdefault(g, []).append((len(cell), child))
        opened.named.setdefault(g, set()).add(f)
        return child, cell, opened.k - 1, opened.K

    def close(self, opened: _Open) -> None:
        """Check a node's claim, once every line under it is met (:meth:`line`)."""
        opened.splits.clear()
        if opened.node.kind == "total":
            self._close_total(opened)
        else:
            self._close_guesses(opened)

    def _close_total(self, opened: _Open) -> None:
        """Each guess checked (the least of its class, or named) must reach the claim: its cells'
        counting bounds, raised by the lines naming it; within a guess limit, or be refuted by the
        guesses left (:meth:`_refute`)."""
        node, n, cells, game = opened.node, len(opened.S), opened.cells, self.game
        T = self.least(opened.K)
        sums = opened.tally.totals(T, opened.K, min(SKIP, max(0, node.total - n)))
        for g, named in cells.items():
            sums[g] += sum(max(0, child.total - T[m]) for m, child in named)
        # (guess by guess only where the classes were few: least_codes is then known)
        if opened.least_codes is not None:
            pool: Iterable[int] = opened.least_codes | set(cells)
        else:
            candidates = game.least_absent_codes(opened.absent)
            pool = candidates if isinstance(candidates, range) else [*candidates, *cells]
        if self.within:
            self._refute(opened, pool, sums)
        if self.implicit:
            need = node.total - n
            for g in [g for g in pool if sums[g] < need]:
                sums[g] += self._raised(opened, g, need - sums[g], T)
        # (every code a guess to check: the least of the list of every code's sums)
        low = min(sums) if isinstance(pool, range) else min(map(sums.__getitem__, pool), default=SKIP)
        if opened.root and low >= SKIP:
            self.vacuous = True
        if n + low < node.total:
            g = min((g for g in pool if n + sums[g] < node.total), key=lambda g: (sums[g], g))
            raise ProofError(
                f"line {node.line}: for guess {self.show(g)} the bounds reach only {n + sums[g]:,} on "
                f"these {n:,} secrets, below the {node.total:,} claimed"
            )

    def _refute(self, opened: _Open, pool: Iterable[int], sums: dict[int, int] | list[int]) -> None:
        """Within a guess limit: the guesses that cannot finish in the guesses left, whatever
        their cells cost, reach any claim: by counting (a cell other than the win past F(K, k -
        1)) or by a line naming it that is a ``count`` or an ``all`` (its cell cannot be found
        within k - 1 guesses)."""
        fits = set(opened.tally.fitting(reach(opened.K, opened.k - 1)))
        for g in pool:
            if g not in fits:
                sums[g] = SKIP
        for g, named in opened.cells.items():
            if any(child.kind != "total" for _, child in named):
                sums[g] = SKIP

    def _raised(self, opened: _Open, g: int, short: int, T: list[int]) -> int:
        """What guess g's cells that no line names add to its bound, each raised from T(K, m) to
        its one-level bound (:meth:`one_level`), until they add ``short`` or none is left (a proof
        of version 3 leaves those cells' lines out): those whose bound is known already first
        (they cost nothing), then the largest. (The verdict does not depend on the order: a guess
        passes where all its cells together reach its claim.)"""
        row, win, named = self.game.row(g), self.rules.pegs * (self.rules.pegs + 1), opened.named.get(g, ())
        split: dict[int, list[int]] = {}
        for i in opened.S:
            split.setdefault(row[i], []).append(i)
        K, left = opened.K, (opened.k - 1 if self.within else None)
        cells = sorted(
            (c for f, c in split.items() if f != win and f not in named and len(c) > 2),
            key=lambda c: (_bound_key(c, K, left) not in self.bounds, -len(c)),
        )
        gained = 0
        for cell in cells:
            gained += max(0, self.one_level(cell, K, left) - T[len(cell)])
            if gained >= short:
                break
        return gained

    def one_level(self, S: list[int], K: int, left: int | None = None) -> int:
        """The least total of a set S that counting one guess down proves: |S| plus, over the
        guesses (but one that leaves S whole), the least sum of T(K', m) over a guess's cells,
        K' the most cells other than the win that a guess gives on S (at most K): what a line of
        S with nothing below it claims at most, found as its check finds it. ``left``: the
        guesses a tree has left for S, within a guess limit; a guess refuted by counting (a cell
        past F(K', left - 1)) is left out, and S costs :data:`SKIP` where every guess is."""
        key = _bound_key(S, K, left)
        found = self.bounds.get(key)
        if found is not None:
            return found
        # Counted in the game of S's colours and one more, where that is smaller: every code of
        # it is a guess to try (none holds two colours that S lacks).
        game, narrow = self.game.narrowed(S)
        least = least_by_cells(game, narrow, K, self.least, left)
        if least is None:
            tally = _Tally(game, narrow, None)
            K = min(K, tally.most_cells())
            T = self.least(K)
            sums = tally.totals(T, K, min(SKIP, T[len(S)] + 1))
            pool = range(len(sums)) if left is None else tally.fitting(reach(K, left - 1))
            least = min(map(sums.__getitem__, pool), default=SKIP)
            if least > T[len(S)]:  # (only guesses that leave S whole: S cannot be found in time)
                least = SKIP
        found = min(SKIP, len(S) + least)
        if len(self.bounds) > 1 << 16:
            self.bounds.clear()
        self.bounds[key] = found
        return found

    def _close_guesses(self, opened: _Open) -> None:
        """Every guess checked (the least of its class, or named; at the root of a claim on first
        guesses, those) must be refuted: by a line naming it, or by counting."""
        node, k, tally, cells, game = opened.node, opened.k, opened.tally, opened.cells, self.game
        least_codes, absent = opened.least_codes, opened.absent

        def checked(g: int) -> bool:
            """Whether guess g must be checked here: the least code of its class, or named."""
            if g in cells:
                return True
            return g in least_codes if least_codes is not None else game.least_absent(g, absent)

        bound = reach(opened.K, k - 1)
        if opened.root and self.first:  # only the guesses claimed, every one of them
            claimed = {game.index[code] for code in self.first} - set(cells)
            unrefuted = [g for g in sorted(claimed) if tally.largest(g) <= bound]
        else:
            unrefuted = [g for g in sorted(set(tally.fitting(bound)) - set(cells)) if checked(g)]
        if unrefuted:
            g = unrefuted[0]
            raise ProofError(
                f"line {node.line}: guess {self.show(g)} is not refuted (its largest cell, "
                f"{plural(tally.largest(g), 'secret')}, fits in {plural(k - 1, 'more guess', 'more guesses')}"
                " by counting, and no line refutes it)"
            )
