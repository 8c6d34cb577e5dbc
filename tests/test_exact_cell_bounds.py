"""A guess's cell bounds are written twice in the exact search's kernels: compiled
(``cell_bounds``, for the guided proof, which asks tens of thousands of them) and in Python over
the search's own kernels (``bound_cells``, for the search, which asks few and would otherwise
compile the search again). The two must give the same bounds, whatever the set, the guesses left
and the cap."""

import numpy as np
import pytest

from mastermind import Rules
from mastermind.strategies.optimal.tables import FAIL, _feedback, _kernel, game_of


def both(game, S, g, left, sym, cap):
    kernel = _kernel()
    out = []
    for bound in (kernel.cell_bounds, kernel.bound_cells):
        ctl = np.zeros(kernel.CTL, dtype=np.int64)
        args = (game.t, S, np.int64(g), np.int64(left), *sym, game.new_counts(), game.new_bits(), ctl)
        out.append(bound(*args, np.int64(cap)))
    return out


@pytest.mark.parametrize("pegs, colors", [(4, 6), (3, 5)])
def test_the_compiled_and_the_python_cell_bounds_agree(pegs, colors):
    game = game_of(Rules(pegs=pegs, colors=colors))
    everything = np.arange(game.space.size, dtype=np.int64)
    first = 1  # 1112 (or 112): a first guess with more than one colour
    sets = [(everything, [])]
    sets += [(cell, [first]) for f, cell in _feedback().cells(game.codes, first, everything) if len(cell) > 2]
    compared = 0
    for S, history in sets[:6]:
        sym = game.group(history)
        for g in (0, first, game.space.size // 3, game.space.size - 1):
            for left in (64, 4, 3, 2):
                for cap in (FAIL, *(len(S) * (8 + k) // 4 for k in range(4))):
                    compiled, python = both(game, S, g, left, sym, cap)
                    assert np.array_equal(compiled, python), (S.size, history, g, left, cap)
                    compared += int(compiled.any())
    assert compared > 20  # bounds that are not all zero were compared
