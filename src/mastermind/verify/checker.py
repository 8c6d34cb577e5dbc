"""The check of a proof, node by node: what a node's set allows, the set of each line under it, and
the node's claim once its lines are met; and the walk that checks a proof's lines as they are read."""

from __future__ import annotations

import collections
import dataclasses
from array import array
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..core.feedback import Feedback
from ..core.rules import Rules
from ..errors import ProofError
from .arithmetic import SKIP, _by_lanes, _Game, _Tally, least_total, reach
from .files import code_text
from .proof import ProofNode, _gens_text, _Reader

if TYPE_CHECKING:
    from .workers import _Dealer

# An entry of the check: a node, its secrets, the guesses left (a claim on guesses) and K.
_Entry = tuple["ProofNode", list[int], int, int]


@dataclass
class _Held:
    """The lines of a node read but not yet checked: sent to a process once they end, if they
    are few enough (see :func:`_walk`)."""

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
    """Check a node (``top``, its line read already) and the lines below it, as they are read
    (``root``: the proof's root): a node's claim at its end, once its lines are met. A set taken
    already (see :class:`_Checker`) has its lines read (their form checked) and counted, not
    checked. What is held is the path to the line read.

    With a ``pool`` of processes, the lines of each node are held as they are read; a node whose
    lines end within ``most`` is sent, its set and its lines as text, to a process; one with more
    is checked here (opened, its lines read again and each held in turn). So the few nodes above
    the pieces are checked here, each piece is read once by a process, and at most two pieces a
    process wait.

    With ``owner`` (a cut's pieces by their path: :class:`_Split`), only ``part``'s pieces are
    checked, with the nodes above the pieces (every part checks those, again even if their set
    was taken); the other parts' pieces are passed over unread. ``shared`` keeps the nodes
    above the pieces as opened, by path, for the next part's pass: there they are taken as
    they are, their claims checked already, and not counted again."""
    frames: list[_Open] = []  # the open nodes along the path, the top's first
    skip, skipped, counted = -1, 0, True  # lines not checked: below this depth, how many, whether they count
    held: _Held | None = None
    again: collections.deque[tuple[int, str]] = collections.deque()  # lines to read again
    path: list[int] = []  # with owner: the places of the lines that lead to the line read
    inside = 0 if owner is None else -1  # the depth of the part's piece being read (-1: none)
    index = checker.game.index

    def start(entry: _Entry, depth: int, above: bool) -> None:
        nonlocal skip, skipped, counted
        key = tuple(path[:depth])
        if above and shared is not None and key in shared:
            frames.append(dataclasses.replace(shared[key], splits={}, cells={}))
            return
        found = checker.open(entry, progress, above, root and depth == 0)
        if found is not None:
            frames.append(found)
            if above and shared is not None:  # (its claim checked: its tally not needed again)
                shared[key] = dataclasses.replace(
                    found, tally=_Tally(checker.game, [], set()), splits={}, cells={}, checked=True
                )
        elif entry[0].kind != "count":
            skip, skipped, counted = depth, 0, True

    def end(opened: _Open) -> None:
        if not opened.checked:
            checker.close(opened)

    start(top, 0, owner is not None)
    while True:
        if again:
            at, line = again.popleft()
        else:
            item = next(lines, None)
            if item is None:
                break
            at, line = item
        if held is not None:
            if len(line) - len(line.lstrip(" ")) - reader.base > held.depth:
                held.lines.append((at, line))
                if len(held.lines) > most:  # too many for one piece: opened here, its lines read again
                    again.extendleft(reversed(held.lines[1:]))
                    start(held.entry, held.depth, False)
                    held = None
                continue
            assert pool is not None
            pool.send(held, part)
            held = None
        if skip >= 0:
            if len(line) - len(line.lstrip(" ")) - reader.base > skip:
                if counted:  # (a set taken already: its lines read)
                    reader.take(at, line)
                    skipped += 1
                continue
            if counted and progress:
                progress(skipped)
            skip = -1
        depth, guess, reply, node = reader.take(at, line)
        while len(frames) > depth:
            end(frames.pop())
        assert guess is not None and reply is not None
        entry = checker.line(frames[-1], index[guess], reply, node)
        above = False
        if inside > 0 and depth <= inside:
            inside = -1  # (out of the part's piece)
        if inside < 0:
            del path[depth:]
            if len(path) == depth:
                path[-1] += 1
            else:
                path.append(0)
            assert owner is not None
            found = owner.get(tuple(path))
            if found is None:
                above = True  # above the pieces: every part checks it
            elif found[0] != part:
                skip, skipped, counted = depth, 0, False  # another part's piece
                continue
            else:
                inside = depth
        if pool is None or above or node.kind == "count":
            start(entry, depth, above)
        else:
            held = _Held(entry, depth, [(at, line)])
    if held is not None:
        assert pool is not None
        pool.send(held, part)
    if skip >= 0 and counted and progress:
        progress(skipped)
    while frames:
        end(frames.pop())


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
    checked: bool = False  # its claim checked already (in an earlier part's pass)


#: Bytes of sets the checker remembers as checked (see ``_Checker.taken``), in each process.
TAKEN_MEMORY = 256 << 20


class _Checker:
    """The check of one proof, node by node, in three steps: :meth:`open` checks what a node's
    set allows (its permutations, a count) and counts its guesses' cells; :meth:`line` finds the
    set of each line under it; :meth:`close` checks its claim once all its lines are met. So a
    node needs nothing but its set and the first lines of its own lines: a proof is checked as
    it is read (:func:`_walk`)."""

    def __init__(self, rules: Rules, first: tuple[tuple[int, ...], ...] = ()) -> None:
        self.rules = rules
        self.first = first  # the first guesses a claim on guesses is about (at the root)
        self.game = _Game(rules)
        self.tables: dict[int, list[int]] = {}  # T(K, m) for m up to the game's size, by K
        # What is claimed of a set depends on the set alone, not on the path to it; a set met
        # again with a claim no stronger than one taken already (the guesses left, or the total)
        # needs no second check: if the first one's lines fail, the whole check fails (a set's
        # own lines lie below it, with fewer guesses left: never the same node again). Only a
        # saving: forgotten when it passes TAKEN_MEMORY bytes.
        self.taken: dict[bytes, int] = {}
        self.taken_bytes = 0

    def least(self, K: int) -> list[int]:
        found = self.tables.get(K)
        if found is None:
            size = len(self.game.codes)
            found = self.tables[K] = [least_total(K, m) for m in range(size + 1)]
        return found

    def show(self, i: int) -> str:
        return code_text(self.rules, self.game.codes[i])

    def open(
        self, entry: _Entry, progress: Callable[[int], None] | None, again: bool = False, root: bool = False
    ) -> _Open | None:
        """Check what a node's set allows: a count, its permutations; None where nothing more is
        to check (a count, or a set taken already, unless ``again``: its lines then need no check)."""
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
        key, claim = array("i", S).tobytes(), (node.total if node.kind == "total" else k)
        if self.taken.get(key, -1) >= claim and not again:
            return None
        if key not in self.taken:
            if self.taken_bytes > TAKEN_MEMORY:
                self.taken.clear()
                self.taken_bytes = 0
            self.taken_bytes += len(key) + 100  # (the key, and its place in the dict)
        self.taken[key] = max(claim, self.taken.get(key, -1))
        if node.kind == "all" and k < 1:
            raise ProofError(f"line {node.line}: no guess is left to refute")
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
        return child, cell, opened.k - 1, opened.K

    def close(self, opened: _Open) -> None:
        """Check a node's claim, once every line under it is met (:meth:`line`)."""
        node, S, k, K, tally, least_codes, absent = (
            opened.node,
            opened.S,
            opened.k,
            opened.K,
            opened.tally,
            opened.least_codes,
            opened.absent,
        )
        game, cells = self.game, opened.cells
        opened.splits.clear()

        def checked(g: int) -> bool:
            """Whether guess g must be checked here: the least code of its class, or named."""
            if g in cells:
                return True
            return g in least_codes if least_codes is not None else game.least_absent(g, absent)

        if node.kind == "total":
            # Each guess checked (the least of its class, or named) must reach the claim: its
            # cells' counting bounds, raised by the lines naming it.
            T = self.least(K)
            n = len(S)
            sums = tally.totals(T, K, min(SKIP, max(0, node.total - n)))
            for g, named in cells.items():
                sums[g] += sum(max(0, child.total - T[m]) for m, child in named)
            # (guess by guess only where the classes were few: least_codes is then known)
            if least_codes is not None:
                pool: Iterable[int] = least_codes | set(cells)
            else:
                candidates = game.least_absent_codes(absent)
                pool = candidates if isinstance(candidates, range) else [*candidates, *cells]
            # (every code a guess to check: the least of the list of every code's sums)
            low = min(sums) if isinstance(pool, range) else min(map(sums.__getitem__, pool), default=SKIP)
            if n + low < node.total:
                g = min((g for g in pool if n + sums[g] < node.total), key=lambda g: (sums[g], g))
                raise ProofError(
                    f"line {node.line}: for guess {self.show(g)} the bounds reach only {n + sums[g]:,} on "
                    f"these {n:,} secrets, below the {node.total:,} claimed"
                )
            return
        bound = reach(K, k - 1)
        if opened.root and self.first:  # only the guesses claimed, every one of them
            claimed = {game.index[code] for code in self.first} - set(cells)
            unrefuted = [g for g in sorted(claimed) if tally.largest(g) <= bound]
        else:
            unrefuted = [g for g in sorted(set(tally.fitting(bound)) - set(cells)) if checked(g)]
        if unrefuted:
            g = unrefuted[0]
            raise ProofError(
                f"line {node.line}: guess {self.show(g)} is not refuted (its largest cell, "
                f"{tally.largest(g):,} secrets, fits in {k - 1} more guesses by counting, "
                "and no line refutes it)"
            )
