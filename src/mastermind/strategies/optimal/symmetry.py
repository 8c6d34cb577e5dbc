"""The symmetry of a history of guesses, as the proofs write it (:mod:`mastermind.verify.proof`).

A group element is a peg permutation p and a colour map s (-1 for a colour never played): it
maps a code x to y with ``y[i] = s(x[p[i]])`` and sends every guess so far to itself; colours
never played are free (any permutation of them may follow). The searches that write proofs keep
the group this way as they go down, and write, at each set, permutations that generate it.
"""

from __future__ import annotations

import itertools

from ...verify.arithmetic import Perm


def root_group(pegs: int, colors: int) -> list[Perm]:
    """The group before any guess: every peg permutation, no colour played."""
    return [(p, (-1,) * colors) for p in itertools.permutations(range(pegs))]


def child_group(group: list[Perm], used: int, code: tuple[int, ...], colors: int) -> tuple[list[Perm], int]:
    """The elements of the history's group that send guess ``code`` to itself too (their colour
    maps extended to its colours not played before), and the colours used after it (a bit
    mask)."""
    out: list[Perm] = []
    for p, s in group:
        ext: dict[int, int] = {}
        inv: dict[int, int] = {}
        ok = True
        for i in range(len(p)):
            c, target = code[p[i]], code[i]
            if (used >> c) & 1:
                if s[c] != target:
                    ok = False
                    break
            elif (used >> target) & 1 or ext.get(c, target) != target or inv.get(target, c) != c:
                ok = False
                break
            else:
                ext[c] = target
                inv[target] = c
        if ok:
            out.append((p, tuple(ext.get(c, s[c]) for c in range(colors))))
    new_used = used
    for c in code:
        new_used |= 1 << c
    return out, new_used


def generators(group: list[Perm], used: int, present: int, pegs: int, colors: int) -> list[Perm]:
    """Permutations that map a set of secrets (holding the colours of the bit mask ``present``)
    onto itself and generate the symmetries the searches use there: the history's (colours never
    played left in place), swaps of neighbouring colours never played, swaps of neighbouring
    colours absent from the set."""
    ident_p = tuple(range(pegs))
    ident_s = tuple(range(colors))
    out: list[Perm] = []
    for p, s in group:
        full = tuple(s[c] if (used >> c) & 1 else c for c in range(colors))
        if (p, full) != (ident_p, ident_s):
            out.append((p, full))
    every = (1 << colors) - 1
    for mask in (every & ~used, every & ~present):
        free = [c for c in range(colors) if (mask >> c) & 1]
        for a, b in itertools.pairwise(free):
            swap = list(ident_s)
            swap[a], swap[b] = b, a
            perm = (ident_p, tuple(swap))
            if perm not in out:
                out.append(perm)
    return out
