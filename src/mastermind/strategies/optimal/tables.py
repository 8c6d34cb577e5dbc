"""The compiled search's tables for one game, built once per game and process, and what every
search of the game shares: its constants, its leaves, its workers' memos."""

from __future__ import annotations

import threading
from collections.abc import Sequence

import numpy as np

from ..._kernels.tables import tables_of
from ...core.code import CodeSpace
from ...core.feedback import possible_feedbacks
from ...core.rules import Rules

FAIL = 1 << 60  # the kernel's BIG: no tree

#: The cells of at least PRE_CELL secrets of a guess at a node of at least PRE_NODE are bounded
#: (their least guess bound) before the guess's cells are solved (see the kernel). Smaller ones
#: cost more to bound than they save (measured: docs/optimal.md).
PRE_NODE, PRE_CELL = 100, 60

#: Each worker thread's memo of sets searched (see the kernel): int64 entries per code of the game,
#: at most MEMO_LIMIT (64 MB; numpy's zeroed memory is only taken as it is written), with a table
#: slot for every MEMO_PER_SLOT entries. Emptied when full: only the speed depends on it.
MEMO_PER_CODE, MEMO_LIMIT, MEMO_PER_SLOT = 2048, 1 << 23, 16

#: Largest game whose reply matrix (size**2 bytes, 400 MB at this size) is built: the search reads
#: a reply from it far faster than it computes one. Larger games (5x8's would be 1 GB in every
#: process) compute each reply where it is needed (slower, and the same tree).
MATRIX_LIMIT = 20_000


def _kernel():
    """The compiled search, imported (numba with it) only when a search is made."""
    from ..._kernels import exact as optimal

    return optimal


def _feedback():
    from ..._kernels import feedback

    return feedback


class SearchGame:
    """The compiled search's tables for one game (built once per game and process)."""

    def __init__(self, rules: Rules, matrix: bool) -> None:
        space = CodeSpace.of(rules)
        space.require_enumerable()
        self.space = space
        self.codes = codes = tables_of(space)
        b = len(possible_feedbacks(rules.pegs, rules.colors, rules.repeats)) - 1
        lb, dmin = _kernel().bounds(space.size, b)
        lbk = _kernel().bounds_by_replies(space.size, b)
        cmask = np.zeros(space.size, dtype=np.int64)
        for i in range(rules.pegs):
            cmask |= np.int64(1) << codes.digits[:, i].astype(np.int64)
        dlb = np.zeros(space.size + 1, dtype=np.int64)
        dlb[:-1] = np.diff(lb)
        fbm = _kernel().reply_matrix(codes) if matrix else np.zeros((0, 0), dtype=np.uint8)
        self.t = _kernel().SearchTables(
            fbm,
            codes,
            codes.digits,
            cmask,
            lb,
            dlb,
            dmin,
            rules.pegs,
            rules.colors,
            rules.repeats,
            b,
            lbk,
            PRE_NODE,
            PRE_CELL,
        )
        self.win = rules.pegs * (rules.pegs + 1)
        #: cell counts fit 16 bits below 65,536 codes
        self.count_type = np.uint16 if space.size < 1 << 16 else np.uint32
        #: a guess's replies as a bit mask fit 32 bits up to 5 pegs (the win is reply 30): half
        #: the memory of 64 bits, read and written once per secret at every set bounded; none
        #: fits from 8 pegs (the search then counts cells)
        self.mask_type = np.uint32 if self.win < 32 else np.uint64 if self.win < 64 else None

    def new_counts(self) -> np.ndarray:
        """Zeroed cell-count scratch for the compiled search."""
        return np.zeros(self.space.size * (self.t.pegs + 1) ** 2, dtype=self.count_type)

    def new_bits(self) -> np.ndarray | None:
        """Reply-mask scratch for the compiled search, of its one mask type (so each kernel that
        bounds guesses is compiled once); None where no mask fits (8 pegs or more: then, and only
        then, the kernels compile their path that counts cells instead)."""
        return None if self.mask_type is None else np.empty(self.space.size, dtype=self.mask_type)

    def root_guesses(
        self,
        S: np.ndarray,
        left: int,
        budget: int,
        sym: tuple[np.ndarray, int, np.int64],
        ctl: np.ndarray | None = None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """The guesses the search tries at S, in its order, and their bounds (see the kernel)."""
        if ctl is None:
            ctl = np.zeros(_kernel().CTL, dtype=np.int64)
        codes, bounds = _kernel().root_guesses(
            self.t, S, left, np.int64(budget), *sym, self.new_counts(), self.new_bits(), ctl
        )
        order = np.lexsort((codes, bounds))  # by bound, then code
        return codes[order], bounds[order]

    def reply(self, guess: int, secret: int) -> int:
        """The reply to ``guess`` when the secret is ``secret``."""
        fbm = self.t.fbm
        if fbm.shape[0] > 0:
            return int(fbm[guess, secret])
        return int(_feedback().replies(self.codes, guess, np.array([secret], dtype=np.int64))[0])

    def cells(self, guess: int, S: np.ndarray) -> list[tuple[int, np.ndarray]]:
        """S grouped by reply to ``guess``, as :func:`mastermind._kernels.feedback.cells` groups
        it: read from the reply matrix with numpy where the game has one (a search's first run
        then compiles no kernel for the few splits it makes in Python), else compiled."""
        fbm = self.t.fbm
        if fbm.shape[0] == 0:
            return _feedback().cells(self.codes, guess, S)
        keys = fbm[guess, S]
        order = np.argsort(keys, kind="stable")
        at = [0, *np.cumsum(np.bincount(keys, minlength=self.win + 1)).tolist()]
        return [(f, S[order[at[f] : at[f + 1]]]) for f in range(len(at) - 1) if at[f + 1] > at[f]]

    def group(self, guesses: Sequence[int]) -> tuple[np.ndarray, int, np.int64]:
        g, m, used = _kernel().history_group(
            self.t.digits, np.asarray(guesses, dtype=np.int64), self.t.pegs, self.t.colors
        )
        return g, int(m), np.int64(used)


_GAMES: dict[tuple[int, int, bool, bool], SearchGame] = {}
_GAMES_LOCK = threading.Lock()


def game_of(rules: Rules) -> SearchGame:
    matrix = rules.size <= MATRIX_LIMIT
    key = (rules.pegs, rules.colors, rules.repeats, matrix)
    with _GAMES_LOCK:
        if key not in _GAMES:
            if len(_GAMES) >= 2:
                _GAMES.pop(next(iter(_GAMES)))
            _GAMES[key] = SearchGame(rules, matrix)
        return _GAMES[key]


def new_memo(size: int) -> np.ndarray:
    """A worker's empty memo for a game of ``size`` codes (an empty array: no memo, when
    MEMO_PER_CODE or MEMO_LIMIT leave too little room for one)."""
    entries = min(MEMO_LIMIT, MEMO_PER_CODE * size)
    if entries < 1024:
        return np.zeros(0, dtype=np.int64)
    slots = 1 << max(4, (entries // MEMO_PER_SLOT).bit_length() - 1)
    return _kernel().new_memo(entries, slots)


def _leaf(game: SearchGame, cell: np.ndarray) -> tuple[int, np.ndarray]:
    """Exact tree of one or two secrets."""
    if len(cell) == 1:
        return 1, np.array([cell[0], 1], dtype=np.int64)
    a, b = int(cell[0]), int(cell[1])
    return 3, np.array([a, 3, game.reply(a, b), b, 1], dtype=np.int64)
