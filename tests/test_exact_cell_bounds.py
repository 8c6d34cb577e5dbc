"""A guess's cell bounds are one source in the exact search's kernels (``bound_cells``), run two
ways: as Python over the search's own kernels by the search, which asks few, and compiled
(``cell_bounds``) by the guided proof, which asks tens of thousands. Both must give the bounds
that their definition gives, written here again from the cells of the guess, the least bound of
the guesses at each cell (the search's root bounds, after the history and the guess) and the cap,
whatever the set, the guesses left and the cap."""

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


def by_definition(game, S, g, left, history, cap):
    """Each cell's bound, largest cell first (ties: lower reply), until the guess's least cost
    (|S| and every cell's bound, the counting bound where not yet bounded) reaches the cap."""
    lb, dmin = game.t.lb, game.t.dmin
    out = np.zeros((game.t.pegs + 1) ** 2, dtype=np.int64)
    cells = sorted(
        ((f, cell) for f, cell in _feedback().cells(game.codes, g, S) if f != game.win),
        key=lambda item: -len(item[1]),
    )
    sym = game.group([*history, g])
    reach = len(S) + sum(int(lb[len(cell)]) for _, cell in cells)
    for f, cell in cells:
        if reach >= cap:
            break
        c = len(cell)
        if left - 1 < dmin[c]:
            out[f] = FAIL
        elif c <= 2:
            out[f] = 2 * c - 1
        else:
            _, bounds = game.root_guesses(cell, left - 1, FAIL, sym)
            out[f] = bounds.min() if len(bounds) else FAIL
        if out[f] > lb[c]:
            reach = FAIL if out[f] >= FAIL else reach + int(out[f]) - int(lb[c])
    return out


@pytest.mark.parametrize("pegs, colors", [(4, 6), (3, 5)])
def test_the_compiled_and_the_python_cell_bounds_are_those_of_the_definition(pegs, colors):
    game = game_of(Rules(pegs=pegs, colors=colors))
    everything = np.arange(game.space.size, dtype=np.int64)
    first = 1  # 1112 (or 112): a first guess with more than one colour
    sets = [(everything, [])]
    sets += [(cell, [first]) for f, cell in _feedback().cells(game.codes, first, everything) if len(cell) > 2]
    compared = capped = 0
    for S, history in sets[:6]:
        sym = game.group(history)
        for g in (0, first, game.space.size // 3, game.space.size - 1):
            for left in (64, 4, 3, 2):
                for cap in (FAIL, *(len(S) * (8 + k) // 4 for k in range(4))):
                    compiled, python = both(game, S, g, left, sym, cap)
                    expected = by_definition(game, S, g, left, history, cap)
                    assert np.array_equal(compiled, expected), (S.size, history, g, left, cap)
                    assert np.array_equal(python, expected), (S.size, history, g, left, cap)
                    compared += int(expected.any())
                    capped += int(
                        cap < FAIL
                        and not np.array_equal(expected, by_definition(game, S, g, left, history, FAIL))
                    )
    assert compared > 20  # bounds that are not all zero were compared
    assert capped > 0  # and a cap that left cells unbounded


def test_the_peg_permutations_are_heaps_order_every_one_once():
    """The search's symmetry group starts from every permutation of the pegs, in the order of
    Heap's algorithm (the order it has always had), compiled: 10 pegs took 11 s in Python."""
    from mastermind._kernels.exact import heap_permutations

    def heaps(pegs):  # Heap's algorithm, as the search's Python loop wrote it
        a, c, perms, i = list(range(pegs)), [0] * pegs, [list(range(pegs))], 0
        while i < pegs:
            if c[i] < i:
                j = 0 if i % 2 == 0 else c[i]
                a[j], a[i] = a[i], a[j]
                perms.append(list(a))
                c[i] += 1
                i = 0
            else:
                c[i] = 0
                i += 1
        return perms

    for pegs in range(1, 8):
        perms = heap_permutations(np.int64(pegs))
        assert perms.tolist() == heaps(pegs)
        assert len({tuple(p) for p in perms.tolist()}) == len(perms) == len(heaps(pegs))
