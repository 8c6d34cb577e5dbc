"""Proof files in the compact version (3): a proof on the total written without its leaves, whose
bounds the checker works out itself, xz-compressed by name; versions 1 and 2 still read. The
classic game's optimum (5,625, Koyama and Lai 1993) and 4x5's (2,463, Ville 2013)."""

from __future__ import annotations

import gzip
import lzma
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner

from mastermind import Rules
from mastermind.cli import cli
from mastermind.errors import ProofError
from mastermind.strategies.optimal.guided import prove_optimum
from mastermind.verify.check import check_file, compact_file
from mastermind.verify.proof import ProofFile

CLASSIC = Path(__file__).resolve().parent.parent / "results" / "4x6-lower.proof.gz"


def run(*args):
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout, result.stderr


@cache
def compact_4x5() -> str:
    """4x5's optimum proved, in version 3's text."""
    return ProofFile.loads(prove_optimum(Rules(pegs=4, colors=5), 2463, workers=1).proof.dumps()).dumps(3)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def test_the_classic_optimum_in_the_compact_version_checks_in_a_tenth_of_the_bytes(tmp_path):
    out = tmp_path / "classic.proof.xz"
    ProofFile.read(CLASSIC).write(out)  # (version 3 by the name)
    assert out.read_bytes()[:6] == b"\xfd7zXZ\x00"
    text = lzma.decompress(out.read_bytes()).decode()
    assert text.startswith("mastermind-proof 3\n") and text.split("\n")[2].startswith("5625 ")
    old_lines = len(gzip.decompress(CLASSIC.read_bytes()).decode().splitlines())
    checked = check_file(out)
    assert checked.total == 5625 and checked.nodes == len(text.splitlines()) - 3 < (old_lines - 3) / 10
    assert out.stat().st_size * 10 < CLASSIC.stat().st_size
    proof = ProofFile.read(out)  # in memory too
    assert proof.version == 3 and proof.check().total == 5625
    assert proof.dumps() == text  # (written again as it was read)
    with pytest.raises(ProofError, match="its leaves are left out"):
        proof.dumps(2)
    assert ProofFile.read(CLASSIC).check().total == 5625  # version 2 still read


def test_a_compact_proof_claiming_more_than_the_optimum_is_refused():
    text = ProofFile.read(CLASSIC).dumps(3)
    raised = text.replace('"total": 5625', '"total": 5626', 1).replace("\n5625 ", "\n5626 ", 1)
    with pytest.raises(
        ProofError, match=r"line 3: for guess \d+ the bounds reach only .* below the 5,626 claimed"
    ):
        ProofFile.loads(raised).check()


def test_a_line_left_out_of_a_compact_proof_is_refused_where_its_guess_needs_it():
    lines = compact_4x5().split("\n")
    tops = [i for i in range(3, len(lines) - 2) if _indent(lines[i]) == 1]
    passed = []
    for i in tops:
        j = i + 1
        while _indent(lines[j]) > 1:
            j += 1
        cut = lines[:i] + lines[j:]
        cut[-2] = f"end {len(cut) - 4}"
        cut[1] = cut[1].replace(f'"nodes": {len(lines) - 4}', f'"nodes": {len(cut) - 4}')
        try:
            ProofFile.loads("\n".join(cut)).check()
        except ProofError as err:
            assert "below the 2,463 claimed" in str(err)
        else:
            passed.append(lines[i].split()[:2])
    # (a line whose guess has room without it may go: here one of the 26)
    assert len(tops) > 20 and len(passed) <= 1 and tops[0] not in passed


def test_a_leaf_left_in_a_compact_proof_is_read_as_a_claim_and_checked():
    # version 3 reads a line with nothing below it like any other: its claim checked
    lines = compact_4x5().split("\n")
    leaf = next(i for i in range(4, len(lines) - 2) if _indent(lines[i + 1]) <= _indent(lines[i]) == 2)
    words = lines[leaf].split()
    words[2] = str(int(words[2]) + 50)
    lines[leaf] = " " * _indent(lines[leaf]) + " ".join(words)
    with pytest.raises(ProofError, match=f"line {leaf + 1}: "):
        ProofFile.loads("\n".join(lines)).check()


def test_verify_compact_rewrites_any_version_and_refuses_bad_files_in_one_line(tmp_path):
    new, again = tmp_path / "new.proof.xz", tmp_path / "again.proof.xz"
    code, out, _ = run("verify", CLASSIC, "--compact", new)
    assert code == 0 and "in the compact format" in out and "not checked yet" in out
    code, out, _ = run("verify", new)
    assert code == 0 and "at least 5,625 guesses in all" in out
    assert compact_file(new, again) == check_file(new).nodes  # version 3 to 3: the same lines
    assert lzma.decompress(again.read_bytes()) == lzma.decompress(new.read_bytes())
    cut = tmp_path / "cut.proof.xz"
    cut.write_bytes(new.read_bytes()[:-30])
    foreign = tmp_path / "foreign.proof.xz"
    foreign.write_bytes(lzma.compress(b"mastermind-proof 3\nnot json\n"))
    tree = tmp_path / "classic.tree"
    assert run("tree", "-s", "knuth", "--save", tree)[0] == 0
    for args, said in (
        ((cut,), "a damaged or truncated compressed file"),
        ((foreign,), "line 2: the header is not one line of JSON"),
        ((cut, "--compact", again), "a damaged or truncated compressed file"),
        ((tree, "--compact", again), "--compact rewrites a proof file"),
        ((CLASSIC, "--compact", tmp_path / "nowhere" / "x.xz"), "does not exist"),
    ):
        code, _, err = run("verify", *args)
        assert code == 2 and said in err and len(err.strip().splitlines()) == 1, args


def test_a_cells_bound_found_among_fewer_colours_is_the_least_over_every_code():
    """The checker works out a left-out cell's one-level bound in the game of the cell's own
    colours and one more (every guess that splits it differently); a plain tally over every code
    of the whole game must give the same, on cells that lack no colour, one, or several."""
    from collections import Counter

    from mastermind.verify.arithmetic import SKIP, least_total, reach
    from mastermind.verify.checker import _Checker

    rules = Rules(pegs=4, colors=7)
    checker = _Checker(rules, implicit=True)
    game, win = checker.game, 4 * 5
    cells = []
    for first, second in ((0, 1), (8, 400), (57, 1200), (0, 2400), (171, 1000)):
        for reply in sorted(set(game.row(first))):
            S = [i for i in range(rules.size) if game.row(first)[i] == reply]
            by_second = Counter(game.row(second)[i] for i in S)
            for r2 in by_second:
                cell = [i for i in S if game.row(second)[i] == r2]
                if 3 <= len(cell) <= 60:
                    cells.append(cell)
    narrowed = {len(checker.game.narrowed(cell)[0].codes) for cell in cells}
    assert len(narrowed) >= 3 and rules.size in narrowed  # the whole game, and smaller ones
    limited = Counter[int]()
    for K in (13, 6):
        for cell in cells:
            tallies = [Counter(game.row(g)[i] for i in cell) for g in range(rules.size)]
            for t in tallies:
                t.pop(win, None)
            most = min(K, max(len(t) for t in tallies))
            T = [least_total(most, m) for m in range(len(cell) + 1)]
            whole = [len(cell)]  # a guess that leaves the cell whole is skipped
            sums = [SKIP if list(t.values()) == whole else sum(T[m] for m in t.values()) for t in tallies]
            assert checker.one_level(cell, K) == len(cell) + min(sums), cell
            # within a guess limit (``left`` guesses for the cell): a guess with a cell past
            # F(K', left - 1) cannot finish in time, and a cell no guess finishes costs SKIP
            for left in (2, 3, 4):
                cap = reach(most, left - 1)
                fits = [s for s, t in zip(sums, tallies, strict=True) if max(t.values(), default=0) <= cap]
                want = min(SKIP, len(cell) + min(fits, default=SKIP))
                assert checker.one_level(cell, K, left) == want, (cell, left)
                limited[left] += want != len(cell) + min(sums)
    assert limited[2] > 0 and limited[3] > 0  # (the limit binds on some of these cells)
