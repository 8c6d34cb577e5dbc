"""Proofs on the total within a guess limit: every tree that finds every secret within D guesses
costs at least L.

The classic game's least total within 5 guesses is 5,626 (Koyama and Lai 1993), one more than
without a limit: its proof needs the limit (a guess is refuted where a cell cannot be found in the
guesses left), and the checker must refuse it without the limit, or with a looser one.
"""

from __future__ import annotations

import json
import lzma
from pathlib import Path

import pytest
from click.testing import CliRunner

from mastermind import Rules
from mastermind.cli import cli
from mastermind.errors import CheckpointError, ProofError, StrategyError
from mastermind.strategies.optimal.guided import prove_optimum
from mastermind.verify.check import check_file, compact_file
from mastermind.verify.files import game_dict
from mastermind.verify.proof import ProofFile

RESULTS_DIR = Path(__file__).resolve().parent.parent / "results"


@pytest.fixture(scope="module")
def classic5() -> ProofFile:
    return prove_optimum(Rules(pegs=4, colors=6), 5626, workers=1, within=5).proof


def test_the_classic_game_within_5_guesses_is_proved_to_cost_5626(classic5):
    checked = classic5.check()
    assert (checked.claim, checked.total, checked.guesses) == ("total", 5626, 5)
    assert classic5.header["within"] == 5 and classic5.rules.max_guesses == 5
    # the limit is what the proof needs: some guesses are refuted by lines that say a cell
    # cannot be found in the guesses left
    assert any(child.kind in ("all", "count") for _, _, child in _nodes(classic5.root))


@pytest.mark.parametrize(
    "pegs, colors, within, optimum",
    [(3, 4, 4, 206), (4, 3, 4, 246), (4, 4, 4, 905), (5, 3, 4, 816), (4, 5, 5, 2463), (4, 6, 6, 5625)],
)
def test_a_proof_within_a_limit_reaches_the_exact_searchs_optimum_within_it(pegs, colors, within, optimum):
    # (the least totals of `mastermind evaluate -s optimal --max-guesses`: the limit does not bind)
    found = prove_optimum(Rules(pegs=pegs, colors=colors), None, workers=1, within=within)
    assert found.total == optimum == found.proof.check().total and found.proof.check().guesses == within


def test_an_aim_above_the_optimum_within_the_limit_ends_at_it():
    assert prove_optimum(Rules(pegs=4, colors=6), 5627, workers=1, within=5).total == 5626


def test_worker_processes_prove_the_same_within_a_limit(classic5):
    found = prove_optimum(Rules(pegs=4, colors=6), 5626, workers=2, within=5)
    assert found.proof.dumps() == classic5.dumps()


def test_a_game_that_cannot_be_done_within_the_limit_is_refused_in_words():
    with pytest.raises(StrategyError, match="no tree finds every secret within 4 guesses"):
        prove_optimum(Rules(pegs=3, colors=5), None, workers=1, within=4)


def test_the_claim_one_higher_or_within_a_looser_limit_or_none_is_refused(classic5):
    lines = classic5.dumps().split("\n")
    header = json.loads(lines[1])

    def loads(head: dict, root: str | None = None) -> ProofFile:
        return ProofFile.loads("\n".join([lines[0], json.dumps(head), root or lines[2], *lines[3:]]))

    higher = loads(header | {"total": 5627}, lines[2].replace("total 5626 ", "total 5627 ", 1))
    with pytest.raises(ProofError, match=r"line 3: for guess \w+ the bounds reach only"):
        higher.check()
    # within 6 guesses the least total is 5,625: the refutations by the guesses left fail
    looser = header | {"within": 6, "game": header["game"] | {"max_guesses": 6}}
    with pytest.raises(ProofError, match=r"line \d+: guess \w+ is not refuted"):
        loads(looser).check()
    # (the game a proof within a limit is about is the game within that limit)
    with pytest.raises(ProofError, match=r"line 2: 'within' is 6, but the game's guess limit is 5"):
        loads(header | {"within": 6})
    # without the limit, its refutations are not lines a proof on the total may hold
    without = {k: v for k, v in header.items() if k != "within"}
    with pytest.raises(ProofError, match=r"line \d+: not 'total LEAST PERMUTATIONS'"):
        loads(without).check()


def test_a_refutation_dropped_or_a_total_under_an_all_is_refused(classic5):
    lines = classic5.dumps().split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith("  ") and line.split()[2] == "all")
    depth = len(lines[at]) - len(lines[at].lstrip())
    end = at + 1
    while len(lines[end]) - len(lines[end].lstrip()) > depth:
        end += 1
    body = lines[2:at] + lines[end:-2]
    head = json.loads(lines[1]) | {"nodes": len(body)}
    with pytest.raises(ProofError, match=r"for guess \w+ the bounds reach only"):
        ProofFile.loads("\n".join([lines[0], json.dumps(head), *body, f"end {len(body)}", ""])).check()
    # a line on the total below a refutation: refused, whatever it claims
    pad = " " * (depth + 1)
    code, reply = lines[at].split()[:2]
    body = [*lines[2 : at + 1], f"{pad}{code} {reply} total 1 -", *lines[at + 1 : -2]]
    head = json.loads(lines[1]) | {"nodes": len(body)}
    with pytest.raises(ProofError, match=r"a 'total' line under an 'all' line"):
        ProofFile.loads("\n".join([lines[0], json.dumps(head), *body, f"end {len(body)}", ""])).check()


def test_a_total_with_no_guess_left_is_refused():
    one_guess = Rules(2, 2, max_guesses=1)
    text = "\n".join(
        [
            "mastermind-proof 2",
            json.dumps({"game": game_dict(one_guess), "claim": "total", "total": 99, "within": 1}),
            "total 99 -",
            " 11 0,0 total 9 -",
            "end 2",
            "",
        ]
    )
    with pytest.raises(ProofError, match="line 4: a total within no guess left"):
        ProofFile.loads(text).check()


def test_a_proof_within_a_limit_in_the_compact_version_works_out_its_refutations(classic5, tmp_path):
    # Version 3 leaves out the leaves on the total and the refutations with nothing below them;
    # the checker works out a left-out cell's one-level bound within the guesses left, and a cell
    # that no guess can finish in time refutes its guess.
    book = tmp_path / "max5.jsonl"
    first = prove_optimum(Rules(pegs=4, colors=6), 5626, workers=1, within=5, compact=True, checkpoint=book)
    built = first.proof
    assert built.version == 3 and built.dumps() == classic5.dumps(3)
    # (its checkpoint's records hold those lines too: the proof taken from them is the same)
    again = prove_optimum(Rules(pegs=4, colors=6), 5626, workers=1, within=5, compact=True, checkpoint=book)
    assert again.proof.dumps() == built.dumps() and again.proof.check().total == 5626
    assert again.deepened < first.deepened  # (the sets it kept were taken, not proved again)
    assert len(built.dumps().splitlines()) < len(classic5.dumps().splitlines()) / 8
    refuted = [child for _, _, child in _nodes(classic5.root) if child.kind == "all" and not child.children]
    assert len(refuted) > 100 and not any(
        child.kind in ("all", "count") for _, _, child in _nodes(built.root)
    )
    path = tmp_path / "max5.proof.xz"
    classic5.write(path)  # (an .xz name: version 3)
    assert ProofFile.read(path).version == 3 and ProofFile.read(path).dumps() == built.dumps()
    checked = check_file(path)
    assert (checked.total, checked.guesses) == (5626, 5)
    v2 = tmp_path / "max5.proof.gz"
    classic5.write(v2)
    compact_file(v2, tmp_path / "rewritten.proof.xz")
    assert (tmp_path / "rewritten.proof.xz").read_bytes() == path.read_bytes()
    # within 6 guesses (the least total is then 5,625) the refutations prove nothing
    text = (
        built.dumps().replace('"within": 5', '"within": 6', 1).replace('"max_guesses": 5', '"max_guesses": 6')
    )
    with pytest.raises(ProofError, match="below the .* claimed"):
        ProofFile.loads(text).check()


def test_a_checkpoint_within_one_limit_is_refused_by_another(tmp_path):
    limited, free = tmp_path / "limited.jsonl", tmp_path / "free.jsonl"
    prove_optimum(Rules(pegs=3, colors=4), 206, workers=1, within=4, checkpoint=limited)
    prove_optimum(Rules(pegs=3, colors=4), 206, workers=1, checkpoint=free)
    with pytest.raises(CheckpointError, match="a limit of 4 guesses, not this one"):
        prove_optimum(Rules(pegs=3, colors=4), 206, workers=1, checkpoint=limited)
    with pytest.raises(CheckpointError, match="no guess limit, not this one"):
        prove_optimum(Rules(pegs=3, colors=4), 206, workers=1, within=4, checkpoint=free)


def test_evaluate_under_a_guess_limit_proves_the_total_within_it_and_verify_says_so(tmp_path):
    path = tmp_path / "classic-max5.proof.gz"
    args = ["evaluate", "-s", "optimal", "--max-guesses", "5", "--budget", "1m", "--proof", str(path)]
    result = CliRunner().invoke(cli, [*args, "--json", "--no-history"])
    report = json.loads(result.output)
    assert result.exit_code == 0 and report["total"] == 5626  # Koyama and Lai: 5,626 within 5
    assert report["proof"]["total"] == 5626 and report["proof"]["within"] == 5
    verified = CliRunner().invoke(cli, ["verify", str(path)])
    assert verified.exit_code == 0
    assert "every tree for 4 pegs, 6 colours, repeats allowed that finds every secret within 5 guesses" in (
        verified.output
    )
    assert "takes at least 5,626 guesses in all" in verified.output


@pytest.mark.parametrize(
    "name, total, within",
    [
        ("4x6-max5", 5626, 5),
        pytest.param("4x8-max6", 20473, 6, marks=pytest.mark.long),
        pytest.param("4x10-max7", 55634, 7, marks=pytest.mark.long),  # (an hour on 2 processes)
    ],
)
def test_the_proof_files_within_a_limit_prove_their_totals(name, total, within):
    checked = check_file(RESULTS_DIR / f"{name}-lower.proof.xz")
    assert (checked.claim, checked.total, checked.guesses) == ("total", total, within)


def _nodes(root):
    stack = [(None, None, root)]
    while stack:
        line = stack.pop()
        yield line
        stack.extend(line[2].children)


def test_a_claim_within_a_limit_no_tree_meets_is_said_to_hold_of_none(tmp_path):
    # Within 4 guesses no tree finds every secret of the classic game: every first guess is
    # refuted, so any total "holds" (of no tree), and verify says so rather than a bare figure.
    text = lzma.decompress((RESULTS_DIR / "4x6-max5-lower.proof.xz").read_bytes()).decode()
    lines = text.split("\n")
    head = json.loads(lines[1])
    head = head | {"within": 4, "total": 999999, "game": head["game"] | {"max_guesses": 4}}
    root = "999999 " + lines[2].split(" ", 1)[1]
    path = tmp_path / "none.proof"
    path.write_text("\n".join([lines[0], json.dumps(head), root, *lines[3:]]))
    assert check_file(path).vacuous and not check_file(RESULTS_DIR / "4x6-max5-lower.proof.xz").vacuous
    result = CliRunner().invoke(cli, ["verify", str(path)])
    assert result.exit_code == 0
    assert "no tree for 4 pegs, 6 colours, repeats allowed finds every secret within 4" in result.output
    assert "holds of none" in result.output
