"""The worst case as an objective: the least number of guesses that always suffices.

A decision search answers "can every secret of a set S be found within k guesses, the winning
guess counted?" (an AND-OR search: some guess must work, and for it every cell). It answers yes
with a tree and no with a proof (:mod:`mastermind.verify.proof`), which a second, plain-Python
program checks. Every rule that skips work is exact:

* Counting: if no guess gives more than K replies other than the win on S, k guesses find at
  most ``F(K, k) = 1 + K + ... + K**(k-1)`` secrets of S or of any subset of it; so S is out of
  reach when ``|S| > F(K, k)``, and a guess is refuted when one of its cells has more than
  ``F(K, k - 1)``. K is the most replies any guess gives on S, computed at each node (it only
  falls going down).
* Symmetry: only the least guess of each class is tried, under the peg and colour permutations
  that send every guess so far to itself (they map S onto itself) and the renamings of colours
  held by no secret of S (ditto).
* Order: guesses by their largest cell (then more cells, then a possible secret first), so that
  the guesses most likely to work come first and those refuted by counting are never searched;
  a guess's cells largest first, so that a failing one is met soon.
* A set whose secrets a single guess tells apart takes 2 guesses (1 if it has one secret); a
  pair takes 2.
* Memo: whether a set can be solved within k guesses depends on the set alone; answers of sets
  met again are reused (the proof of a "no" is then written again where it is needed).
* Seed (optional): a whole tree of the game, such as a heuristic's. At a set it reaches, its
  subtree is taken as it is when it finds every secret within the guesses left; otherwise its
  guess is tried first, each cell with the seed's subtree below, before the search's own order.
  A "yes" then often needs a search only where the seed is too deep; a "no" is searched as
  without it (the seed's guess is one more guess tried), so its proof is the same kind.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ...core.code import CodeSpace
from ...core.feedback import Feedback
from ...core.rules import Rules
from ...errors import StrategyError
from ...verify.arithmetic import Perm, other_replies, reach
from ...verify.files import code_text, game_dict
from ...verify.proof import ProofFile, ProofNode
from ...verify.tree import TreeFile, TreeNode
from .symmetry import child_group, generators, root_group

#: The largest game searched: its reply matrix (codes squared bytes) must fit in memory.
MAX_CODES = 50_000

#: Sets of at most this many secrets are scanned secret by secret (every guess at once), larger
#: ones guess by guess: for a small set, one pass over its secrets costs less than one per guess
#: (the figures that chose it: docs/performance.md, "Constants chosen by measurement").
SMALL_SET = 300

#: Sets remembered before the memo is emptied.
MEMO_LIMIT = 2_000_000


class Stopped(Exception):
    """The search was asked to stop (:meth:`WorstSearch.stop`)."""


@dataclass
class Decision:
    """The answer for one limit: ``possible`` with ``tree`` (a TreeFile), or not, with ``proof``."""

    rules: Rules
    guesses: int
    possible: bool
    tree: TreeFile | None
    proof: ProofFile | None
    nodes: int


class WorstSearch:
    """The decision search on one game (see the module's documentation).

    Args:
        rules: the game (its guess limit is not used: each call says how many guesses).
        progress: ``progress(fraction)`` as the search moves through the root's guesses and the
            guesses of the sets two levels below.
        width: try at most this many guesses at each set (the seed's besides), the first in the
            search's order: a quicker search for a yes, whose no proves nothing (it comes without
            a proof).
    """

    def __init__(
        self, rules: Rules, progress: Callable[[float], None] | None = None, width: int | None = None
    ) -> None:
        if rules.size > MAX_CODES:
            raise StrategyError(
                f"{rules.describe()} has {rules.size:,} codes; the worst-case search holds every "
                f"reply in memory, up to {MAX_CODES:,} codes"
            )
        from ..._kernels import worst as kernels
        from ..._kernels.tables import tables_of

        self.k = kernels
        self.rules = rules
        self.space = CodeSpace.of(rules)
        tables = tables_of(self.space)
        self.digits = np.ascontiguousarray(tables.digits)
        self.colours = [tuple(int(c) for c in row) for row in self.digits.tolist()]
        self.fbm = kernels.reply_matrix(tables)
        self.pegs, self.colors = rules.pegs, rules.colors
        self.nrep = (self.pegs + 1) ** 2
        self.win = self.pegs * (self.pegs + 1)
        self.every = np.arange(rules.size, dtype=np.int64)
        self.cmask = np.zeros(rules.size, dtype=np.int64)  # bit mask of each code's colours
        for i in range(self.pegs):
            self.cmask |= np.left_shift(np.int64(1), self.digits[:, i].astype(np.int64))
        self._counts = np.empty(rules.size * self.nrep, dtype=np.uint16)
        self._masks = np.empty(rules.size, dtype=np.uint64)
        self.memo: dict[tuple[bytes, int], tuple[bool, object]] = {}
        self.nodes = 0
        #: The number of guesses being decided.
        self.limit = 0
        self.progress = progress
        self.width = width
        #: the levels watched for progress: (position, of how many guesses, the share of one guess
        #: that the one in hand's level below spans: its cell's share of the guess's secrets while
        #: the cells are taken in turn, largest first)
        self._frac: list[tuple[float, int, float]] = []
        self._stop = threading.Event()
        self._index = {c: i for i, c in enumerate(self.colours)}
        self._heights: dict[int, int] = {}

    def stop(self) -> None:
        """Ask a running search to stop (it raises :class:`Stopped`)."""
        self._stop.set()

    # -- the answers -----------------------------------------------------------------------

    def decide(self, guesses: int, seed: TreeNode | None = None, first: list[int] | None = None) -> Decision:
        """Whether every secret can be found within ``guesses`` guesses: a tree, or a proof.
        ``seed``: the root of a whole tree of this game (a tree file's, replayed first: see
        :func:`seed_of`), whose subtrees are kept where they fit and whose guesses are tried
        first (see the module's documentation). ``first``: the question asked of these first
        guesses (code indices) alone, in turn: a tree that begins with one of them, or a proof
        that none can begin a tree within ``guesses`` (its header lists them)."""
        group = root_group(self.pegs, self.colors)
        self._frac = []
        self.limit = guesses
        self._heights = {}
        K = other_replies(self.pegs)
        if first is None:
            ok, found = self._solve(self.every, guesses, K, group, 0, 0, seed)
        else:
            ok, found = self._first_guesses(guesses, K, group, first, seed)
        rules = self.rules
        if ok:
            assert isinstance(found, TreeNode)
            limit = Rules(
                pegs=rules.pegs,
                colors=rules.colors,
                repeats=rules.repeats,
                max_guesses=max(guesses, 1),
                blank=rules.blank,
            )
            tree = _tree_file(limit, found, guesses)
            return Decision(rules, guesses, True, tree, None, self.nodes)
        assert isinstance(found, ProofNode)
        if self.width is not None:  # some guesses were not tried: a no proves nothing
            return Decision(rules, guesses, False, None, None, self.nodes)
        info: dict[str, object] = {"search": "worst"}
        if first is not None:
            info["first"] = [code_text(rules, self.colours[g]) for g in first]
        return Decision(rules, guesses, False, None, ProofFile.of(rules, guesses, found, **info), self.nodes)

    def least(
        self, on_decision: Callable[[Decision], None] | None = None, seed: TreeNode | None = None
    ) -> tuple[Decision, Decision | None]:
        """The least number of guesses that always suffices: (its decision, with a tree; the
        decision one guess fewer, with its proof, or None when counting alone rules it out at
        the root, which then needs no search: its proof is the one line 'count'). ``seed`` as
        :meth:`decide` takes it."""
        n, b = self.rules.size, other_replies(self.pegs)
        d = 1
        while reach(b, d) < n:
            d += 1
        below: Decision | None = None
        if d > 1:
            counted = ProofFile.of(self.rules, d - 1, ProofNode("count"), search="worst")
            below = Decision(self.rules, d - 1, False, None, counted, 0)
        while True:
            found = self.decide(d, seed)
            if on_decision:
                on_decision(found)
            if found.possible:
                return found, below
            below = found
            d += 1

    def refutation(self, S: np.ndarray, guesses: int, group: list[Perm], used: int) -> ProofNode | None:
        """The proof's line that a set S (sorted codes, its history's ``group`` and colours
        ``used``) cannot all be found within ``guesses`` (a ``count`` or an ``all``, with its lines
        below), or None if it can."""
        ok, found = self._solve(S, guesses, other_replies(self.pegs), group, used, 0)
        if ok:
            return None
        assert isinstance(found, ProofNode)
        return found

    # -- the search ------------------------------------------------------------------------

    def _solve(
        self,
        S: np.ndarray,
        k: int,
        K: int,
        group: list[Perm],
        used: int,
        depth: int,
        seed: TreeNode | None = None,
    ) -> tuple[bool, object]:
        """(True, TreeNode) or (False, ProofNode): can S be found within k guesses? K bounds the
        replies other than the win of any guess on S; ``seed`` is a tree of S (or None)."""
        if self._stop.is_set():
            raise Stopped
        self.nodes += 1
        n = len(S)
        if n == 1 and k >= 1:
            return True, TreeNode(self.colours[S[0]])
        if n > reach(K, k):
            return False, ProofNode("count")
        if n == 2:  # k >= 2 here
            a, b = int(S[0]), int(S[1])
            return True, TreeNode(self.colours[a], {self._reply(a, b): TreeNode(self.colours[b])})
        key = (S.tobytes(), k)
        known = self.memo.get(key)
        if known is not None:
            return known
        fits = seed is not None and self._height(seed) <= k
        g = -1  # a guess that tells every secret apart (a possible secret first)
        if n <= self.nrep and not fits:
            g = self.k.perfect_guess(self.fbm, S, S, self.nrep)
            if g < 0 and self.nrep < 63:  # every code, secret by secret (replies as bits)
                g = self.k.perfect_any(self.fbm, S, self._masks)
            elif g < 0:
                g = self.k.perfect_guess(self.fbm, S, self.every, self.nrep)
        if fits:
            assert seed is not None
            result: tuple[bool, object] = (True, seed)
        elif g >= 0:
            result = (True, self._node(int(g), S))
        elif k <= 2:  # no guess tells them apart: every guess leaves a cell of 2 for 1 guess
            result = (False, ProofNode("all", self._gens(S, group, used)))
        else:
            seeded = None if seed is None else self._seeded(S, k, K, group, used, depth, seed)
            result = seeded if seeded is not None else self._search(S, k, K, group, used, depth)
        if len(self.memo) >= MEMO_LIMIT:
            self.memo.clear()
        self.memo[key] = result
        return result

    def _first_guesses(
        self, k: int, K: int, group: list[Perm], first: list[int], seed: TreeNode | None
    ) -> tuple[bool, object]:
        """The root with only the guesses of ``first`` tried, in turn, each cell largest first
        (but a cell already known to fail first of all: first guesses alike often share one):
        (True, a tree beginning with the first that works), or (False, a proof node whose lines
        refute each of them by one of its cells)."""
        proof = ProofNode("all", self._gens(self.every, group, 0))  # the checker's classes: few
        self._frac.append((0, len(first), 1.0))
        try:
            for i, g in enumerate(first):
                below, used = child_group(group, 0, self.colours[g], self.colors)
                same = seed is not None and seed.guess == self.colours[g]
                children: dict[Feedback, TreeNode] = {}
                cells = sorted(
                    self._cells(g, self.every), key=lambda fc: (not self._known_no(fc[1], k - 1), -len(fc[1]))
                )
                shares = _shares(cells)
                for (f, cell), (before, share) in zip(cells, shares, strict=True):
                    self._frac[-1] = (i + before, len(first), share)
                    reply = Feedback.from_int(f, self.pegs)
                    under = seed.children.get(reply) if seed is not None and same else None
                    ok, sub = self._solve(cell, k - 1, K, below, used, 1, under)
                    if not ok:
                        assert isinstance(sub, ProofNode)
                        proof.children.append((self.colours[g], reply, sub))
                        self._frac[-1] = (i + 1, len(first), 1.0)  # refuted: the guess is done
                        if self.progress is not None:
                            self._report()
                        break
                    assert isinstance(sub, TreeNode)
                    children[reply] = sub
                else:
                    return True, TreeNode(self.colours[g], children)
        finally:
            self._frac.pop()
        return False, proof

    def _known_no(self, S: np.ndarray, k: int) -> bool:
        """Whether S is already known not to be found within k guesses."""
        known = self.memo.get((S.tobytes(), k))
        return known is not None and not known[0]

    def _seeded(
        self, S: np.ndarray, k: int, K: int, group: list[Perm], used: int, depth: int, seed: TreeNode
    ) -> tuple[bool, object] | None:
        """The seed's guess at S, each cell (smallest first) within k - 1 with the seed's subtree
        there: (True, tree), or None when a cell cannot (the search then goes on as unseeded)."""
        g = self._index[seed.guess]
        below, child_used = child_group(group, used, seed.guess, self.colors)
        children: dict[Feedback, TreeNode] = {}
        for f, cell in sorted(self._cells(g, S), key=lambda fc: len(fc[1])):
            reply = Feedback.from_int(f, self.pegs)
            ok, sub = self._solve(cell, k - 1, K, below, child_used, depth + 1, seed.children.get(reply))
            if not ok:
                return None
            assert isinstance(sub, TreeNode)
            children[reply] = sub
        return True, TreeNode(seed.guess, children)

    def _height(self, node: TreeNode) -> int:
        """The most guesses the subtree of ``node`` takes (1: it is a leaf)."""
        h = self._heights.get(id(node))
        if h is None:
            h = 1 + max((self._height(c) for c in node.children.values()), default=0)
            self._heights[id(node)] = h
        return h

    def _cells(self, g: int, S: np.ndarray) -> list[tuple[int, np.ndarray]]:
        """The cells of guess g on S other than the win, by reply, each in S's order."""
        row = self.fbm[g][S]
        order = np.argsort(row, kind="stable")
        keys, ordered = row[order], S[order]
        cuts = (np.flatnonzero(keys[1:] != keys[:-1]) + 1).tolist()
        starts, ends = [0, *cuts], [*cuts, len(S)]
        replies = keys[starts].tolist()
        return [(f, ordered[a:b]) for f, a, b in zip(replies, starts, ends, strict=True) if f != self.win]

    def _plan(
        self, S: np.ndarray, k: int, K: int, group: list[Perm], used: int
    ) -> tuple[ProofNode, list[int], int]:
        """The guesses to try at S within k, in the search's order (those refuted by counting
        left out), the proof node that their refutations would fill, and K at S."""
        present = int(np.bitwise_or.reduce(self.cmask[S]))
        absent = ((1 << self.colors) - 1) & ~present
        keep = np.empty(self.rules.size, dtype=np.bool_)
        table = np.array([list(p) + list(s) for p, s in group], dtype=np.int64).reshape(
            len(group), self.pegs + self.colors
        )
        self.k.representatives(self.digits, table, np.int64(used), np.int64(absent), self.rules.repeats, keep)
        reps = np.flatnonzero(keep).astype(np.int64)
        if len(S) <= SMALL_SET and 4 * len(reps) >= self.rules.size:  # by secrets (cache-friendly)
            ncells = np.empty(self.rules.size, dtype=np.int64)
            biggest = np.empty(self.rules.size, dtype=np.int64)
            self.k.every_guess_stats(self.fbm, S, self.nrep, self.win, self._counts, ncells, biggest)
            ncells, biggest = ncells[reps], biggest[reps]
        else:
            ncells = np.empty(len(reps), dtype=np.int64)
            biggest = np.empty(len(reps), dtype=np.int64)
            self.k.guess_stats(self.fbm, S, reps, self.nrep, self.win, ncells, biggest)
        K = min(K, int(ncells.max()))
        proof = ProofNode("all", self._gens(S, group, used))
        if len(S) > reach(K, k):  # every guess has a cell above the bound (the checker sees it)
            return proof, [], K
        member = np.zeros(self.rules.size, dtype=np.bool_)
        member[S] = True
        playable = biggest <= reach(K, k - 1)
        order = np.lexsort((reps[playable], ~member[reps[playable]], -ncells[playable], biggest[playable]))
        if self.width is not None:
            order = order[: self.width]
        return proof, reps[playable][order].tolist(), K

    def _search(
        self, S: np.ndarray, k: int, K: int, group: list[Perm], used: int, depth: int
    ) -> tuple[bool, object]:
        proof, tries, K = self._plan(S, k, K, group, used)
        frame = len(self._frac)
        watched = depth < 3 and self.progress is not None
        if watched:
            self._frac.append((0, len(tries), 1.0))
        try:
            for i, g in enumerate(tries):
                parts = self._cells(g, S)
                parts.sort(key=lambda fc: -len(fc[1]))
                below, child_used = child_group(group, used, self.colours[g], self.colors)
                children: dict[Feedback, TreeNode] = {}
                failed = None
                shares = _shares(parts) if watched else []
                for j, (f, cell) in enumerate(parts):
                    if watched:  # the guess's cells in turn: a guess that works moves the bar too
                        self._frac[frame] = (i + shares[j][0], len(tries), shares[j][1])
                        self._report()
                    ok, sub = self._solve(cell, k - 1, K, below, child_used, depth + 1)
                    if not ok:
                        failed = (f, sub)
                        break
                    assert isinstance(sub, TreeNode)
                    children[Feedback.from_int(f, self.pegs)] = sub
                if failed is None:
                    return True, TreeNode(self.colours[g], children)
                f, sub = failed
                assert isinstance(sub, ProofNode)
                proof.children.append((self.colours[g], Feedback.from_int(f, self.pegs), sub))
                if watched:  # refuted: the guess is done now, not when the next one starts
                    self._frac[frame] = (i + 1, len(tries), 1.0)
                    self._report()
        finally:
            if watched:
                del self._frac[frame:]
        return False, proof

    # -- helpers ---------------------------------------------------------------------------

    def _report(self, within: float = 0.0) -> None:
        """The share of the search done: the guesses tried at each level watched (``_frac``, and
        the cells of the one in hand taken so far), and ``within`` the one in hand below them (the
        share of it done)."""
        assert self.progress is not None
        frac, scale = 0.0, 1.0
        for position, total, width in self._frac:
            unit = scale / max(total, 1)
            frac += position * unit
            scale = unit * width
        self.progress(frac + within * scale)

    def _reply(self, g: int, s: int) -> Feedback:
        return Feedback.from_int(int(self.fbm[g, s]), self.pegs)

    def _node(self, g: int, S: np.ndarray) -> TreeNode:
        """A guess that tells S apart, with each secret's leaf."""
        node = TreeNode(self.colours[g])
        for s in S.tolist():
            if s != g:
                node.children[self._reply(g, s)] = TreeNode(self.colours[s])
        return node

    def _gens(self, S: np.ndarray, group: list[Perm], used: int) -> list[Perm]:
        """Permutations that map S onto itself and generate the symmetries the search used."""
        present = int(np.bitwise_or.reduce(self.cmask[S]))
        return generators(group, used, present, self.pegs, self.colors)


def _tree_file(rules: Rules, root: TreeNode, guesses: int) -> TreeFile:
    """The tree file of a tree found by the search, its claims computed by a replay."""
    from ...core.records import package_version
    from ...verify.tree import replay

    tree = TreeFile(rules, root, {"game": game_dict(rules)})
    found = replay(tree)
    nodes = sum(1 for _ in root.walk())
    tree.header = {
        "game": game_dict(rules),
        "strategy": "worst",
        "options": {"max_guesses": guesses},
        "secrets": found.secrets,
        "total": found.total,
        "max": found.max,
        "distribution": {str(k): n for k, n in found.distribution.items()},
        "nodes": nodes,
        "written_by": f"mastermind-lab {package_version()}",
    }
    return tree


def seed_of(tree: TreeFile, rules: Rules) -> TreeNode:
    """The root of ``tree`` as a seed for the decision search on ``rules``' game, once the tree is
    replayed against every secret (:meth:`.TreeFile.verify`: its subtrees are then taken on trust).

    Raises:
        StrategyError: it is a tree of another game.
        TreeFileError: it does not find every secret as its header claims.
    """
    theirs = tree.rules
    if (theirs.pegs, theirs.colors, theirs.repeats, theirs.blank) != (
        rules.pegs,
        rules.colors,
        rules.repeats,
        rules.blank,
    ):
        raise StrategyError(f"the seed is a tree of {theirs.describe()}, not of {rules.describe()}")
    tree.verify()
    return tree.root


def _shares(cells: Sequence[tuple[int, np.ndarray]]) -> list[tuple[float, float]]:
    """Each cell's (share of the secrets in the cells before it, its own share): how far through
    a guess its search is when it reaches that cell, and how much of the guess the cell spans."""
    total = max(1, sum(len(cell) for _, cell in cells))
    out, before = [], 0
    for _, cell in cells:
        out.append((before / total, len(cell) / total))
        before += len(cell)
    return out


def least_guesses(
    rules: Rules, progress: Callable[[float], None] | None = None
) -> tuple[Decision, Decision | None]:
    """The least number of guesses that always suffices, with its tree and the proof that one
    fewer does not (see :meth:`WorstSearch.least`)."""
    return WorstSearch(rules, progress).least()


def decide(rules: Rules, guesses: int, progress: Callable[[float], None] | None = None) -> Decision:
    """Whether every secret of ``rules`` can be found within ``guesses`` guesses."""
    return WorstSearch(rules, progress).decide(guesses)
