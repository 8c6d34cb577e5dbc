"""The optimal strategy: the least expected number of guesses, exactly (Koyama and Lai 1993).

The whole tree of a game is found once by the exact search (:mod:`.search`) and kept in the
user's cache directory (keyed by the rules, the forced first guess and the package version), so
the next request for the same game is instant. A cache file is checked before it is used
(checksum, then the tree itself is replayed against every secret) and rebuilt if it fails.
Positions off the tree (a history the strategy would not have played) are searched on their own.
"""

from __future__ import annotations

import hashlib
import json
import os
import zipfile
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from ..._kernels import cells
from ...core.code import Code
from ...core.records import package_version
from ...core.rules import Rules
from ...core.text import guess_count
from ...deduction.state import SolverState
from ...errors import StrategyError
from ..base import MapTasks, PieceBook, SearchCost, SearchedTree, Strategy
from ..capabilities import OnBounds, TreeSearch
from ..progress import OnProgress
from .search import (
    OptimalNode,
    Solution,
    check_tree,
    game_of,
    solve_below,
    solve_piece,
    solve_position,
    to_flat,
)

if TYPE_CHECKING:
    from .anytime import Bounds

#: Version of the cache file's layout.
CACHE_FORMAT = 1

#: Games up to this many codes (5 pegs 5 colours) are searched in seconds, larger ones in minutes
#: to hours (docs/results.md): ``compare`` runs optimal by default only on games this small, and a
#: longer search is announced before it starts.
QUICK_GAME = 3125


#: Whole games searched from start to end, as docs/results.md records them (codes, wall-clock
#: seconds of the whole process): :func:`search_seconds` scales from them, so that the figure
#: announced before a long search comes from searches that ran.
MEASURED_SEARCHES = ((1296, 0.7), (2401, 1.8), (4096, 5.9), (6561, 89.0), (7776, 298.0))

#: How a position's search grows with the guesses tried, beyond the codes still possible: as
#: (guesses / codes) ** POSITION_GROWTH. A position searches every code of the game as a guess, so
#: its few candidates alone understate it; fitted to the 5x8 position of docs/optimal.md.
POSITION_GROWTH = 1.5


def search_seconds(codes: int, guesses: int | None = None) -> tuple[float, bool]:
    """A rough figure of the seconds of the exact search of ``codes`` codes with guesses among
    ``guesses`` (a whole game: the same), and whether it is beyond the largest search measured
    (then the figure is that search's time, a floor). Interpolated in log-log between the
    :data:`MEASURED_SEARCHES`, times the position's factor: an order of magnitude.

    >>> [round(search_seconds(n)[0], 1) for n in (1296, 4096, 7776)], search_seconds(10_000)
    ([0.7, 5.9, 298.0], (298.0, True))
    """
    import math

    guesses = codes if guesses is None else guesses
    largest, longest = MEASURED_SEARCHES[-1]
    if codes > largest:
        return longest, True
    points = MEASURED_SEARCHES
    i = max([0] + [k for k in range(len(points) - 1) if points[k][0] <= codes])  # below the first: its slope
    below, above = points[i], points[i + 1]
    slope = math.log(above[1] / below[1]) / math.log(above[0] / below[0])
    seconds = below[1] * (codes / below[0]) ** slope
    return seconds * (guesses / codes) ** POSITION_GROWTH, False


def cache_dir() -> Path:
    """Where optimal trees are kept: ``optimal`` under :func:`mastermind.core.records.cache_home`."""
    from ...core.records import cache_home

    return cache_home() / "optimal"


class Optimal(Strategy, TreeSearch):
    """Play the tree with the least total number of guesses over all secrets, within the
    rules' guess limit; from any position, an optimal next guess for what is still possible.

    Args:
        rules: the game.
        first: force the first guess (the rest of the tree is then optimal given it).
        cache: option, keep whole trees on disk (default True).
    """

    name = "optimal"
    summary = "least expected number of guesses, exact, within the guess limit (Koyama and Lai 1993)"
    options: ClassVar[dict[str, Any]] = {"cache": True}
    means: ClassVar[frozenset[str]] = frozenset({"cache"})

    def __init__(self, rules: Rules, first: Code | str | int | None = None, **options: Any) -> None:
        super().__init__(rules, first, **options)
        self.space.require_enumerable()
        self.cache = bool(self.settings["cache"])
        self._tree: OptimalNode | None = None
        self._positions: dict[tuple, OptimalNode] = {}
        self._possible: dict[tuple, int] = {}  # by history: :meth:`pick_possible`'s code

    # -- the whole tree ----------------------------------------------------------------------

    def cache_path(self) -> Path:
        r = self.rules
        first = "" if self.first is None else f"-first{self.first}"
        name = (
            f"{r.pegs}x{r.colors}{'' if r.repeats else '-norepeat'}-max{r.max_guesses}{first}"
            f"-v{package_version()}.npz"
        )
        return cache_dir() / name

    def _meta(self) -> dict:
        r = self.rules
        return {
            "format": CACHE_FORMAT,
            "version": package_version(),
            "pegs": r.pegs,
            "colors": r.colors,
            "repeats": r.repeats,
            "max_guesses": r.max_guesses,
            "first": self.first,
        }

    def _load(self) -> OptimalNode | None:
        """The cached tree, or None if there is none or it is not exactly right."""
        path = self.cache_path()
        try:
            with np.load(path, allow_pickle=False) as data:
                meta = json.loads(str(data["meta"]))
                flat = np.array(data["flat"], dtype=np.int64)
            if {k: meta.get(k) for k in self._meta()} != self._meta():
                return None
            if hashlib.sha256(flat.tobytes()).hexdigest() != meta["sha256"]:
                return None
            root = check_tree(self.rules, flat, np.arange(self.space.size), self.rules.max_guesses)
            if root.cost != meta["total"] or (self.first is not None and root.guess != self.first):
                return None
            return root
        except (
            OSError,
            EOFError,
            KeyError,
            ValueError,
            zipfile.BadZipFile,
        ):  # missing, partial, corrupt: rebuilt
            return None

    def _save(self, sol: Solution) -> None:
        path = self.cache_path()
        meta = {**self._meta(), "total": sol.cost, "sha256": hashlib.sha256(sol.flat.tobytes()).hexdigest()}
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp.npz")
            np.savez(tmp, flat=sol.flat, meta=np.array(json.dumps(meta)))
            os.replace(tmp, path)  # a killed process leaves no half-written cache file
        except OSError:
            pass  # an unwritable cache only costs the next run the search

    def decision_tree(self) -> OptimalNode:
        """The whole optimal tree (from the cache, or searched now and cached).

        Raises:
            StrategyError: no strategy finds every secret within the rules' guess limit; the
                message names the smallest limit that works.
        """
        if self._tree is not None:
            return self._tree
        root = self._load() if self.cache else None
        if root is None:
            everything = np.arange(self.space.size, dtype=np.int64)
            sol = solve_position(self.rules, everything, first=self.first, progress=self.search_progress)
            if sol is None:
                raise StrategyError(self._no_tree_message(everything))
            root = sol.tree()
            if self.cache:
                self._save(sol)
        self._tree = root
        return root

    def bounds(
        self,
        seconds: float | None = None,
        on_better: OnBounds | None = None,
        stop: Any = None,
        on_tree: OnBounds | None = None,
        save_every: float = 60.0,
        book: PieceBook | None = None,
        piece_size: int | None = None,
    ) -> Bounds:
        """Search the whole tree for at most ``seconds``: an :class:`~.anytime.Bounds` with a
        proven lower bound on the least total, the best tree found and whether it is optimal
        (then it is kept and cached as :meth:`decision_tree` would). A tree already at hand
        answers at once. ``on_better(lower, upper, None)`` hears of each improvement; setting
        the event ``stop`` stops the search as the time limit does; ``on_tree(lower, upper,
        tree)`` gets the best tree so far every ``save_every`` seconds while it improves.
        ``book`` (a checkpoint) keeps what the search finishes, and gives it back to a run
        resumed with the same book (see :func:`.anytime.bound_game`); ``piece_size``: the largest
        set without a budget searched in one compiled call (see :func:`.anytime.bound_game`).

        Raises:
            StrategyError: no strategy finds every secret within the rules' guess limit.
        """
        from .anytime import Bounds, bound_game

        known = self.known_tree()
        if known is not None:
            return Bounds(known.cost, known.cost, to_flat(known), True)
        found = bound_game(
            self.rules,
            seconds,
            first=self.first,
            progress=self.search_progress,
            on_better=on_better,
            stop=stop,
            on_tree=on_tree,
            save_every=save_every,
            book=book,
            piece_size=piece_size,
        )
        if found.complete and found.upper is None:
            raise StrategyError(self._no_tree_message(np.arange(self.space.size, dtype=np.int64)))
        if found.complete and found.flat is not None:  # the search's own tree, as decision_tree's
            self.adopt(Solution(int(found.upper or 0), found.flat))
        return found

    def known_tree(self) -> OptimalNode | None:
        """The whole tree if it is at hand (found already, or in the cache), else None."""
        if self._tree is None and self.cache:
            self._tree = self._load()
        return self._tree

    def adopt(self, sol: Solution) -> OptimalNode:
        """Take a whole tree searched elsewhere (by the runner, in pieces): checked against every
        secret, kept, and cached like one searched here.

        Raises:
            ValueError: it is not a tree of this game within its guess limit.
        """
        everything = np.arange(self.space.size, dtype=np.int64)
        root = check_tree(self.rules, sol.flat, everything, self.rules.max_guesses)
        if root.cost != sol.cost or (self.first is not None and root.guess != self.first):
            raise ValueError("not a tree of this strategy")
        if self.cache:
            self._save(sol)
        self._tree = root
        return root

    def no_tree_message(self) -> str:
        """Why there is no tree: the guess limit is too small; names the smallest that works."""
        return self._no_tree_message(np.arange(self.space.size, dtype=np.int64))

    def _no_tree_message(self, everything: np.ndarray) -> str:
        limit = self.rules.max_guesses + 1
        while solve_position(self.rules, everything, left=limit, first=self.first) is None:
            limit += 1
        start = "" if self.first is None else " starting with that first guess"
        return (
            f"no strategy finds every secret of {self.rules.describe()} within "
            f"{guess_count(self.rules.max_guesses)}{start}; "
            f"the smallest limit that works is {limit}"
        )

    def prepare(self) -> None:
        self.decision_tree()

    # -- the whole tree, as the runner and the front ends ask for it (TreeSearch) ----------------

    def search_tree(
        self,
        map_tasks: MapTasks | None = None,
        book: PieceBook | None = None,
        progress: OnProgress | None = None,
        workers: int | None = None,
        piece_size: int | None = None,
    ) -> SearchedTree:
        """The whole optimal tree: from the cache, or searched on this process's threads
        (``map_tasks`` None, progress to :attr:`search_progress`), or with its root search cut
        into pieces at any depth run by ``map_tasks`` (see :func:`.split.search_in_pieces`), kept in ``book``
        as they finish, progress to ``progress``. ``piece_size``: the largest set searched as one
        piece, with or without a budget (at least :data:`~.run.SERIAL_SET`; default
        :func:`.split.cut_sizes`): smaller pieces are checkpointed sooner, at some cost in work
        (docs/optimal.md). A tree searched is cached.

        Raises:
            StrategyError: no tree finds every secret within the guess limit.
        """
        known = self.known_tree()
        if known is not None:
            return SearchedTree(known.cost, known, to_flat(known))
        if map_tasks is None:
            root = self.decision_tree()
            return SearchedTree(root.cost, root, to_flat(root))
        from .in_pieces import search_in_pieces
        from .search import piece_limit

        size = piece_limit(piece_size)
        sol, solved, resumed = search_in_pieces(
            self.rules,
            map_tasks,
            first=self.first,
            book=book,
            progress=progress,
            workers=workers or 2,
            split=size,
            big=size,
        )
        if sol is None:
            raise StrategyError(self.no_tree_message())
        return SearchedTree(sol.cost, self.adopt(sol), sol.flat, solved, resumed)

    def quick(self) -> bool:
        """Whether the whole tree is at hand in seconds: a game of at most :data:`QUICK_GAME`
        codes, or a tree already in the cache (then kept)."""
        return self.space.size <= QUICK_GAME or self.tree_at_hand()

    def search_cost(self, state: SolverState | None = None) -> SearchCost | None:
        """What the search behind the next guess at ``state`` (the whole tree by default) is
        likely to cost, where it is not quick: longer than a whole game of :data:`QUICK_GAME`
        codes (the limit of :meth:`quick`). None where it is quick or not needed: the tree or the
        position is at hand.

        >>> from mastermind import Rules
        >>> Optimal(Rules(), cache=False).search_cost() is None
        True
        >>> cost = Optimal(Rules(pegs=5, colors=8), cache=False).search_cost()
        >>> (cost.codes, cost.beyond)
        (32768, True)
        """
        whole = state is None or not state.history
        if whole:
            if self.quick():
                return None
            codes = self.space.size
        else:
            assert state is not None
            key = tuple((code.colors, reply) for code, reply in state.history)
            if key in self._positions or self._on_tree(state):
                return None
            codes = len(state.candidate_indices())
        seconds, beyond = search_seconds(codes, self.space.size)
        if not beyond and seconds <= search_seconds(QUICK_GAME)[0]:
            return None
        return SearchCost(codes, self.space.size, seconds, beyond)

    def _on_tree(self, state: SolverState) -> bool:
        """Whether ``state`` is a position of the whole tree at hand (its next guess is read)."""
        node: OptimalNode | None = self.known_tree()
        pegs, win = self.rules.pegs, self.rules.pegs * (self.rules.pegs + 1)
        for code, reply in state.history:
            if node is None or node.guess != self.space.index(code.colors):
                return False
            f = reply.to_int(pegs)
            node = None if f == win else node.children.get(f)
        return node is not None

    def prepare_pieces(self) -> None:
        """The compiled search loaded (on a tiny game) and this game's tables built: not the
        search itself, which is the work."""
        solve_piece(Rules(pegs=2, colors=3), ())
        game_of(self.rules)

    # -- any position ------------------------------------------------------------------------

    def node(self, state: SolverState) -> OptimalNode:
        """The optimal subtree from ``state``: its guess is an optimal next guess, its cost
        the least total number of guesses (this one included) over the candidates left."""
        if not state.history and self.first is None or self._tree is not None:
            node: OptimalNode | None = self.decision_tree()
            pegs, win = self.rules.pegs, self.rules.pegs * (self.rules.pegs + 1)
            for code, reply in state.history:
                if node is None or node.guess != self.space.index(code.colors):
                    node = None
                    break
                f = reply.to_int(pegs)
                node = None if f == win else node.children.get(f)
            if node is not None:
                return node
        key = tuple((code.colors, reply) for code, reply in state.history)
        if key not in self._positions:
            left = self.rules.max_guesses - len(state.history)
            if left < 1:
                raise StrategyError(f"no guesses are left of the {self.rules.max_guesses} allowed")
            cands = state.candidate_indices()
            guesses = [self.space.index(code.colors) for code, _ in state.history]
            first = self.first if not state.history else None
            sol = solve_position(self.rules, cands, guesses, left, first=first, progress=self.search_progress)
            if sol is None:
                raise StrategyError(
                    f"no strategy finds each of the {len(cands):,} codes still possible within "
                    f"the {left} guesses left"
                )
            self._positions[key] = sol.tree()
        return self._positions[key]

    def pick(self, state: SolverState) -> int:
        return self.node(state).guess

    def pick_possible(self, state: SolverState) -> int | None:
        """The code still possible that costs least to play now, the best tree following it
        (ties: the least code): each searched with it as the position's guess, in the order of
        its counting bound, until no bound left can beat the best found."""
        cands = state.candidate_indices()
        left = self.rules.max_guesses - len(state.history)
        if len(cands) <= 2 or left < 2:  # (the first splits the rest best; or only a win counts)
            return int(cands[0]) if len(cands) else None
        key = tuple((code.colors, reply) for code, reply in state.history)
        if key not in self._possible:
            guesses = [self.space.index(code.colors) for code, _ in state.history]
            lb, win = game_of(self.rules).t.lb, self.rules.win

            def counted(x: int) -> int:  # (each secret left costs this guess and what finds it)
                return len(cands) + sum(
                    int(lb[len(cell)]) for f, cell in cells(self.space, x, cands) if f != win
                )

            bounds = sorted((counted(x), x) for x in cands.tolist())
            best: tuple[int, int] | None = None
            for bound, x in bounds:
                if best is not None and (bound, x) > best:
                    break  # (this code and every one after it costs at least its bound)
                # (after the best, a code is searched only for a lower cost, or the same and
                # less; one the history's symmetry maps to a lower code is then not searched:
                # that code, possible too, as costly and with the same bound, came before it)
                if best is None:
                    sol = solve_position(self.rules, cands, guesses, left, first=x)
                else:
                    sol = solve_below(self.rules, cands, guesses, left, x, best[0] + (x < best[1]))
                if sol is not None and (best is None or (sol.cost, x) < best):
                    best = (sol.cost, x)
            self._possible[key] = int(cands[0]) if best is None else best[1]
        return self._possible[key]

    def expected_guesses(self, state: SolverState) -> float:
        """The least expected number of guesses still needed (the next one included), over the
        codes still possible, each equally likely."""
        node = self.node(state)
        return node.cost / node.size
