"""The worst case: `mastermind worst`, its trees and its proofs (checked by `mastermind verify`).

Published figures: Knuth, "The Computer as Master Mind", J. Recreational Math. 9 (1976-77): every
classic code (4 pegs, 6 colours) is found within 5 guesses, and not within 4. The small games'
worst cases are computed here by a plain search that tries every guess at every node.
"""

import gzip
import json
import random
import tempfile
from collections import Counter
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from mastermind.cli import cli
from mastermind.core.feedback import Feedback, score
from mastermind.core.rules import Rules
from mastermind.errors import ProofError
from mastermind.strategies.optimal.worst import WorstSearch, decide, seed_of
from mastermind.verify import arithmetic as arithmetic_module
from mastermind.verify import check as check_module
from mastermind.verify import checker as checker_module
from mastermind.verify.arithmetic import SKIP, _Game, _Tally, least_total, reach
from mastermind.verify.check import check_file
from mastermind.verify.files import every_code
from mastermind.verify.proof import ProofFile, ProofNode
from mastermind.verify.tree import TreeFile


def run(*args):
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout, result.stderr


def plain_decision(rules):
    """The codes of the game, the cells of a guess on a set, and ``can(S, k)``: whether the
    secrets of S (a frozenset of codes) can all be found within k guesses, by trying every guess
    at every set (no counting bound, no symmetry)."""
    codes = every_code(rules)
    win = Feedback(rules.pegs, 0)

    def cells_of(g, S):
        cells = {}
        for s in S:
            cells.setdefault(score(g, s), set()).add(s)
        cells.pop(win, None)
        return [frozenset(c) for c in cells.values()]

    @cache
    def can(S, k):
        if len(S) <= 1:
            return k >= len(S)
        if k <= 1:
            return False
        return any(all(can(c, k - 1) for c in cells_of(g, S)) for g in codes)

    return codes, cells_of, can


def plain_worst_case(rules):
    """The least number of guesses that always suffices, by :func:`plain_decision`: the least k
    for which the whole game can be solved."""
    codes, _, can = plain_decision(rules)
    k = 1
    while not can(frozenset(codes), k):
        k += 1
    return k


@pytest.mark.parametrize(
    "pegs,colors,repeats",
    [(2, 3, True), (3, 3, True), (2, 4, True), (3, 4, True), (2, 5, True), (3, 4, False), (3, 5, False)],
)
def test_the_least_worst_case_of_small_games_agrees_with_a_plain_search(pegs, colors, repeats):
    rules = Rules(pegs=pegs, colors=colors, repeats=repeats)
    best, below = WorstSearch(rules).least()
    assert best.possible and best.guesses == plain_worst_case(rules)
    assert best.tree.verify().max <= best.guesses
    assert below is not None and not below.possible
    assert below.proof.check().guesses == best.guesses - 1


@pytest.mark.parametrize("pegs,colors,repeats", [(3, 4, True), (2, 5, True), (3, 5, False)])
def test_each_first_guess_alone_is_answered_as_a_plain_search_answers_it(pegs, colors, repeats):
    rules = Rules(pegs=pegs, colors=colors, repeats=repeats)
    codes, cells_of, can = plain_decision(rules)
    least = plain_worst_case(rules)
    for k in (least - 1, least):
        for i, g in enumerate(codes):
            works = all(can(c, k - 1) for c in cells_of(g, frozenset(codes)))
            found = WorstSearch(rules).decide(k, first=[i])
            assert found.possible == works
            if works:
                assert found.tree.root.guess == g and found.tree.verify().max <= k
            else:
                checked = ProofFile.loads(found.proof.dumps()).check()
                assert checked.guesses == k and checked.first == ("".join("123456789"[c] for c in g),)


def test_worst_first_proves_which_first_guesses_cannot_begin_a_tree(tmp_path):
    proof = tmp_path / "no-1111.proof.gz"
    code, out, _ = run("worst", "--max-guesses", 5, "--first", "1111", "--proof", proof)
    assert code == 0 and "no tree finds every secret within 5 guesses beginning with 1111" in out
    code, out, _ = run("verify", proof)
    assert code == 0 and out.rstrip().endswith("within 5 guesses beginning with 1111")
    tree = tmp_path / "1122.tree.gz"
    code, out, _ = run("worst", "--max-guesses", 5, "--first", "1111,1122", "--save", tree, "--json")
    answer = json.loads(out)
    assert code == 0 and answer["possible"] is True and answer["first"] == ["1111", "1122"]
    replayed = TreeFile.read(tree)
    assert replayed.root.guess == (0, 0, 1, 1) and replayed.verify().max == 5
    # the header's claim is what is checked: a first guess added to it is refused at the root
    text = gzip.decompress(proof.read_bytes()).decode()
    refused(text.replace('["1111"]', '["1111", "1122"]'), "line 3: guess 1122 is not refuted")
    refused(text.replace('["1111"]', '"1111"'), "'first' is a list of first guesses")
    for args, message in (
        (("--first", "1111"), "--first asks whether a tree within --max-guesses begins with these guesses"),
        (("--max-guesses", 5, "--first", "1117"), "--first: '1117': '7' is not a colour of this game"),
        (("--max-guesses", 5, "--first", "1111,1111"), "--first: 1111 is given twice"),
    ):
        code, _, err = run("worst", *args)
        assert code == 2 and err.startswith(f"mastermind: error: {message}") and err.count("\n") == 1


def test_a_set_met_again_is_checked_once_and_a_flaw_in_its_first_lines_is_still_found():
    # 1112 and 1122 leave the same cell with reply 0,0 (the codes of colours 3 to 7): the search
    # refutes it once and writes its lines under both
    found = WorstSearch(Rules(pegs=4, colors=7)).decide(5, first=[1, 8])  # 1112, 1122
    text = found.proof.dumps()
    lines = text.split("\n")
    tops = [i for i, line in enumerate(lines) if line.startswith(" ") and not line.startswith("  ")]
    assert [lines[i].split()[:2] for i in tops] == [["1112", "0,0"], ["1122", "0,0"]]
    assert lines[tops[0] + 1 : tops[1]] == lines[tops[1] + 1 : -2]  # the same lines below each
    steps = []
    checked = ProofFile.loads(text).check(progress=steps.append)
    assert checked.first == ("1112", "1122") and sum(steps) == checked.nodes
    assert tops[1] - tops[0] - 1 in steps  # the second cell's lines, counted without a check
    i = tops[0] + 1  # a refutation of the first cell's lines damaged: a reply no secret gives
    guess, reply, rest = lines[i].split(maxsplit=2)
    lines[i] = lines[i][: len(lines[i]) - len(lines[i].lstrip())] + f"{guess} 4,0 {rest}"
    refused("\n".join(lines), "no secret of the set gives reply 4,0")


def test_proofs_on_first_guesses_join_into_a_proof_on_the_whole_game(tmp_path):
    parts = {"a": "1111,1112", "b": "1122,1123", "c": "1234"}  # every first guess up to symmetry
    for name, first in parts.items():
        code, _, _ = run("worst", "--max-guesses", 4, "--first", first, "--proof", tmp_path / f"{name}.proof")
        assert code == 0
    joins = [a for name in parts for a in ("--join", tmp_path / f"{name}.proof")]
    code, out, _ = run("worst", *joins[:4], "--proof", tmp_path / "ab.proof")
    assert code == 0 and "within 4 guesses beginning with 1111, 1112, 1122 or 1123" in out
    partial = ProofFile.read(tmp_path / "ab.proof").check()
    assert partial.first == ("1111", "1112", "1122", "1123")
    code, out, _ = run("worst", *joins, "--proof", tmp_path / "all.proof", "--json")
    assert code == 0 and json.loads(out)["first"] is None
    whole = ProofFile.read(tmp_path / "all.proof").check()
    assert whole.guesses == 4 and whole.first == ()  # Knuth 1977: the classic needs 5
    code, out, _ = run("verify", tmp_path / "all.proof")
    assert code == 0 and out.rstrip().endswith("repeats allowed within 4 guesses")
    run("worst", "--max-guesses", 3, "--first", "1234", "--proof", tmp_path / "d.proof")
    run("worst", "--max-guesses", 4, "--proof", tmp_path / "whole.proof")
    for extra, message in (
        (("--join", tmp_path / "d.proof"), "d.proof is about 3 guesses, "),
        (("--join", tmp_path / "whole.proof"), "whole.proof: not a proof on first guesses"),
        (("--max-guesses", 5), "--join: the proofs are about 4 guesses, not --max-guesses 5"),
        (("-c", 7), "--join: the proofs are about 4 pegs, 6 colours"),
    ):
        code, _, err = run("worst", *joins, *extra, "--proof", tmp_path / "x.proof")
        assert code == 2 and message in err and err.count("\n") == 1, err
    code, _, err = run("worst", *joins)
    assert code == 2 and "--join writes the joined proof to the file given by --proof" in err


@pytest.mark.parametrize("pegs,colors,repeats", [(4, 6, True), (5, 4, True), (4, 7, False)])
def test_the_scan_of_every_code_secret_by_secret_finds_the_same_perfect_guess(pegs, colors, repeats):
    # the search reads every code as a guess secret by secret; the plain scan reads guess by guess
    search = WorstSearch(Rules(pegs=pegs, colors=colors, repeats=repeats))
    rng = random.Random(7)
    found = 0
    for size in [1, 2, 3, 5, 8, 12, 16, 20] * 12:
        S = np.array(sorted(rng.sample(range(search.rules.size), size)), dtype=np.int64)
        g = search.k.perfect_any(search.fbm, S, search._masks)
        assert g == search.k.perfect_guess(search.fbm, S, search.every, search.nrep)
        if g >= 0:
            found += 1
            assert len({int(search.fbm[g, s]) for s in S}) == size  # every secret its own reply
    assert 0 < found < 96  # both answers met


def test_the_classic_needs_5_guesses_as_knuth_showed_with_its_tree_and_the_proof_that_4_do_not(tmp_path):
    tree, proof = tmp_path / "classic.tree.gz", tmp_path / "classic-not4.proof.gz"
    code, out, err = run("worst", "--save", tree, "--proof", proof, "--json")
    assert code == 0, err
    result = json.loads(out)
    assert result["least"] == 5 and result["tree"]["max"] == 5 and result["proof"]["guesses"] == 4
    code, out, _ = run("verify", tree, "--json")
    assert code == 0 and json.loads(out)["max"] == 5
    code, out, _ = run("verify", proof, "--json")
    assert code == 0
    checked = json.loads(out)
    assert checked["kind"] == "proof" and checked["guesses"] == 4 and checked["verified"] is True


@pytest.mark.parametrize(
    "pegs,colors,least", [(4, 5, 5), (3, 5, 5), (3, 7, 6), pytest.param(4, 7, 6, marks=pytest.mark.slow)]
)
def test_known_worst_cases_are_found_and_their_proofs_check(pegs, colors, least):
    # 4x5 5 and 4x7 6 (Jaeger and Peczarski); 3 pegs: floor((c - 1) / 3) + 4 for c >= 5
    rules = Rules(pegs=pegs, colors=colors)
    best, below = WorstSearch(rules).least()
    assert best.guesses == least and best.tree.verify().max == least
    assert ProofFile.loads(below.proof.dumps()).check().guesses == least - 1


def _seed(rules, name):
    """A heuristic's whole tree of ``rules``' game, as a tree file (as `tree --save` writes it)."""
    from mastermind import make_strategy
    from mastermind.research.evaluation import strategy_tree

    return TreeFile.of_tree(rules, strategy_tree(make_strategy(name, rules)), strategy=name)


@pytest.mark.parametrize("pegs,colors,seeded_by", [(4, 6, "entropy"), (4, 5, "most-parts"), (3, 5, "knuth")])
def test_a_seed_tree_gives_the_same_answers_with_a_tree_or_a_proof_that_check(pegs, colors, seeded_by):
    rules = Rules(pegs=pegs, colors=colors)
    seed = seed_of(_seed(rules, seeded_by), rules)
    plain = WorstSearch(rules).least()
    best, below = WorstSearch(rules).least(seed=seed)
    assert best.guesses == plain[0].guesses and best.tree.verify().max <= best.guesses
    assert below.guesses == best.guesses - 1
    assert ProofFile.loads(below.proof.dumps()).check().guesses == below.guesses


def test_a_seed_that_fits_is_the_tree_and_one_too_deep_is_mended_below_its_first_guess():
    rules = Rules()
    knuth = _seed(rules, "knuth")  # at most 5 guesses: it fits within 5 as it is
    found = WorstSearch(rules).decide(5, seed=seed_of(knuth, rules))
    assert found.nodes == 1 and found.tree.dumps().split("\n")[2:] == knuth.dumps().split("\n")[2:]
    entropy = _seed(rules, "entropy")  # 1234 first, and some secrets take 6 guesses
    assert entropy.header["max"] == 6
    found = WorstSearch(rules).decide(5, seed=seed_of(entropy, rules))
    assert found.possible and found.tree.verify().max == 5
    assert found.tree.root.guess == entropy.root.guess  # 1234 works within 5 once some subtrees change
    kept = [c for f, c in found.tree.root.children.items() if c == entropy.root.children[f]]
    assert 0 < len(kept) < len(entropy.root.children)


def test_worst_refuses_a_bad_seed_in_one_line(tmp_path):
    rules = Rules(pegs=3, colors=4)
    good = tmp_path / "3x4.tree"
    _seed(rules, "entropy").write(good)
    lines = good.read_text().splitlines()
    wrong = tmp_path / "wrong.tree"  # a guess changed: the secrets below no longer give its replies
    wrong.write_text("\n".join([*lines[:4], lines[4][:-3] + "444", *lines[5:]]) + "\n")
    for args, words in [
        (("--seed", good), "not of 4 pegs, 6 colours"),
        (("-p", 3, "-c", 4, "--seed", tmp_path / "none.tree"), "cannot read"),
        (("-p", 3, "-c", 4, "--seed", wrong), "line"),
    ]:
        code, out, err = run("worst", *args)
        assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and words in err, (args, err)
    code, out, err = run("worst", "-p", 3, "-c", 4, "--seed", good, "--json")
    assert code == 0 and json.loads(out)["least"] == 4


@pytest.mark.long
def test_bulls_and_cows_needs_7_guesses():
    from mastermind.core.rules import PRESETS

    rules = PRESETS["bulls-and-cows"]
    assert decide(rules, 7).tree.verify().max == 7
    assert ProofFile.loads(decide(rules, 6).proof.dumps()).check().guesses == 6


def test_a_limit_that_works_gives_a_tree_and_one_that_does_not_gives_a_proof():
    rules = Rules(pegs=4, colors=6)
    assert decide(rules, 6).possible
    no = decide(rules, 4)
    assert not no.possible and no.tree is None and no.proof.check().guesses == 4


def test_a_file_asked_for_that_the_answer_has_none_for_is_said_not_written(tmp_path):
    code, out, err = run("worst", "-p", "3", "-c", "3", "--max-guesses", "2", "--save", tmp_path / "t")
    assert code == 0 and "no tree finds every secret within 2 guesses" in out
    assert "no tree was found, so none is written to" in err and not (tmp_path / "t").exists()
    code, out, err = run("worst", "-p", "3", "-c", "3", "--max-guesses", "4", "--proof", tmp_path / "p")
    assert code == 0 and "yes: within 4 guesses" in out
    assert "no limit was proved impossible, so no proof is written" in err and not (tmp_path / "p").exists()


def test_the_checker_scores_by_the_rule_of_score():
    rules = Rules(pegs=4, colors=5, repeats=False)
    game = _Game(rules)
    p1 = rules.pegs + 1
    for g, guess in enumerate(game.codes):
        row = game.row(g)
        assert [row[j] for j in range(len(game.codes))] == [
            (lambda f: f.black * p1 + f.white)(score(guess, s)) for s in game.codes
        ]


@pytest.mark.parametrize("repeats", [True, False])
@pytest.mark.parametrize("size", [1, 2, 14, 17, 127, 128, 300])
def test_both_ways_of_counting_cells_agree_with_a_plain_tally(size, repeats):
    rules = Rules(colors=6 if repeats else 8, repeats=repeats)
    game = _Game(rules)
    rng = random.Random(size)
    S = sorted(rng.sample(range(rules.size), size))
    every = range(rules.size)
    lanes, one_by_one = _Tally(game, S, None), _Tally(game, S, set(every))
    plain = [Counter(game.row(g)[i] for i in S if game.row(g)[i] != 4 * 5) for g in every]
    assert lanes.most_cells() == one_by_one.most_cells() == max(len(t) for t in plain)
    for bound in (0, 1, 3, 14, size):
        fits = [g for g in every if max(plain[g].values(), default=0) <= bound]
        assert sorted(lanes.fitting(bound)) == sorted(one_by_one.fitting(bound)) == fits
    # the sums of the counting bound over each guess's cells (the check of a proof on the total),
    # a guess that leaves S whole (a single cell) being skipped
    for K in (1, 2, 13):
        least = [least_total(K, m) for m in range(size + 1)]
        expected = [SKIP if list(t.values()) == [size] else sum(least[m] for m in t.values()) for t in plain]
        by_lanes = [SKIP if total >= SKIP else total for total in lanes.totals(least, K)]
        by_guess = one_by_one.totals(least, K)
        assert by_lanes == [by_guess[g] for g in every] == expected
        # in narrower lanes, where a claim needs no more than 2**14: a whole set's guess reaches it
        narrow = lanes.totals(least, K, 1 << 14)
        pairs = zip(narrow, expected, strict=True)
        assert all(got >= 1 << 14 if want == SKIP else got == want for got, want in pairs)


@pytest.mark.parametrize(
    "rules",
    [
        Rules(pegs=2, colors=6),
        Rules(pegs=3, colors=5),
        Rules(),
        Rules(colors=8, repeats=False),
        Rules(pegs=5, colors=4),
    ]
    + [Rules(pegs=7, colors=2)],
    ids=str,
)
def test_the_one_level_bound_by_cells_alone_is_the_counted_one_where_it_is_given(rules):
    """verify.arithmetic.least_by_cells (lanes of 8, 16, 32 and 64 bits as the replies are 4 to
    34): the least over the guesses of the sum of T(K', m) over their cells, as a plain tally
    finds it, or None; and given wherever no cell can hold more than K' + 1 secrets."""
    game, rng, given = _Game(rules), random.Random(rules.size), 0
    win = rules.pegs * (rules.pegs + 1)
    tables = cache(lambda k: [least_total(k, m) for m in range(201)])  # (no set here is larger)
    plain = [[game.row(g)[i] for i in range(rules.size)] for g in range(rules.size)]
    # random sets, and those of few colours (whose guesses give few cells, and large ones)
    sets = [
        sorted(rng.sample(range(rules.size), min(m, rules.size))) for m in [2, 3, 5, 9, 14, 15, 20, 40] * 4
    ]
    for k in (2, 3, rules.pegs + 1):
        S = [i for i, code in enumerate(game.codes) if max(code) < k]
        sets += [S] if 1 < len(S) <= 200 else []
    for S in sets:
        cells = [Counter(plain[g][i] for i in S if plain[g][i] != win) for g in range(rules.size)]
        for K in (1, 2, 5, 13, 40):
            K1 = min(K, max(len(t) for t in cells))
            least = [least_total(K1, m) for m in range(len(S) + 1)]
            whole = [list(t.values()) == [len(S)] for t in cells]
            want = min(sum(least[m] for m in t.values()) for t, w in zip(cells, whole, strict=True) if not w)
            got = arithmetic_module.least_by_cells(game, S, K, tables)
            assert got == want if len(S) <= K1 + 1 else got in (None, want)  # (no cell is then over K1 + 1)
            given += got is not None
            # within a guess limit: the codes with a cell past F(K', left - 1) left out
            for left in (2, 3):
                cap = arithmetic_module.reach(K1, left - 1)
                fits = [
                    sum(least[m] for m in t.values())
                    for t, w in zip(cells, whole, strict=True)
                    if not w and max(t.values(), default=0) <= cap
                ]
                got = arithmetic_module.least_by_cells(game, S, K, tables, left)
                assert got in (None, min(fits, default=SKIP)), (S, K, left)
    assert given > 0.4 * len(sets) * 5


def test_counting_bound():
    assert [reach(13, k) for k in range(5)] == [0, 1, 14, 183, 2380]
    # 4 guesses reach at most 2,380 classic codes: the root alone is no proof, 3 guesses' 183 is
    assert ProofFile.of(Rules(), 3, ProofNode("count")).check().guesses == 3
    with pytest.raises(ProofError, match="proves nothing"):
        ProofFile.of(Rules(), 4, ProofNode("count")).check()


# -- damaged proofs --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def proof_text():
    """The proof that no tree finds every code of 3 pegs 7 colours within 5 guesses."""
    found = decide(Rules(pegs=3, colors=7), 5)
    assert not found.possible and found.proof.header["nodes"] > 20
    return found.proof.dumps()


@pytest.fixture(params=["every code at once", "guess by guess"])
def counting(request, monkeypatch):
    """The checker's two ways of counting cells (verify.arithmetic._Tally), forced: each must accept the
    proof and refuse each damage alike."""
    lanes = request.param == "every code at once"
    monkeypatch.setattr(checker_module, "_by_lanes", lambda *args: lanes)


def refused(text, match):
    """The damage is found by one process, and by two that share the proof (cut to its lines);
    and in a file read line by line, by one process and by two, each node with lines of its own
    checked by the first or sent to the second."""
    with pytest.raises(ProofError, match=match):
        ProofFile.loads(text).check()
    with pytest.MonkeyPatch.context() as patch, pytest.raises(ProofError, match=match):
        patch.setattr(check_module, "PARALLEL_FROM", 0)
        ProofFile.loads(text).check(jobs=2)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "damaged.proof"
        path.write_text(text)
        for jobs, pieces in ((1, 16), (2, 1), (2, 10**6)):
            with pytest.MonkeyPatch.context() as patch, pytest.raises(ProofError, match=match) as err:
                patch.setattr(check_module, "PARALLEL_FROM", 0)
                patch.setattr(check_module, "PIECES_PER_JOB", pieces)
                check_file(path, jobs=jobs)
            assert str(err.value).startswith(f"{path}, line ")


def test_the_untouched_proof_checks(proof_text, counting):
    assert ProofFile.loads(proof_text).check().nodes == ProofFile.loads(proof_text).root.size()


def test_the_untouched_proof_checks_on_two_processes_line_by_line(proof_text, monkeypatch):
    monkeypatch.setattr(check_module, "PARALLEL_FROM", 0)
    monkeypatch.setattr(check_module, "PIECES_PER_JOB", 10**6)  # every line a task of its own
    found, steps = ProofFile.loads(proof_text), []
    checked = found.check(steps.append, jobs=2)
    assert checked.guesses == 5 and checked.nodes == sum(steps) == found.root.size()


def test_a_reply_no_secret_gives_is_refused(proof_text, counting):
    lines = proof_text.split("\n")
    i = next(i for i, line in enumerate(lines) if line.startswith("  ") and " all " in line)
    parts = lines[i].split()
    parts[1] = "3,0"  # the win: never a cell
    lines[i] = lines[i][: len(lines[i]) - len(lines[i].lstrip())] + " ".join(parts)
    refused("\n".join(lines), "no secret of the set gives reply 3,0")


def leaf_all(lines):
    """The first line of an 'all' node with no line under it."""
    indent = [len(line) - len(line.lstrip()) for line in lines]
    return next(
        i
        for i in range(3, len(lines) - 1)
        if " all " in lines[i] and lines[i].startswith(" ") and indent[i + 1] <= indent[i]
    )


def test_a_count_claimed_where_it_does_not_hold_is_refused(proof_text, counting):
    lines = proof_text.split("\n")
    i = leaf_all(lines)
    lines[i] = lines[i].split(" all ")[0] + " count"
    refused("\n".join(lines), "proves nothing")


def test_a_refutation_left_out_is_refused(proof_text, counting):
    lines = proof_text.split("\n")
    i = next(i for i, line in enumerate(lines) if line.startswith(" ") and not line.startswith("  "))
    depth_end = next(j for j in range(i + 1, len(lines)) if not lines[j].startswith("  "))
    removed = depth_end - i
    kept = lines[:i] + lines[depth_end:]
    header = json.loads(kept[1])
    header["nodes"] -= removed
    kept[1] = json.dumps(header)
    end = next(j for j, line in enumerate(kept) if line.startswith("end "))
    kept[end] = f"end {int(kept[end][4:]) - removed}"
    refused("\n".join(kept), "is not refuted")


def test_a_symmetry_that_does_not_hold_is_refused(proof_text, counting):
    # below the first guess 123 with reply 0,1, the secrets hold one of the colours 1, 2, 3 out of
    # its place; swapping colours 1 and 4 sends 414 (which gives 0,1) to 141 (which gives 1,0)
    lines = proof_text.split("\n")
    i = next(i for i, line in enumerate(lines) if line.startswith(" 123 0,1 all "))
    lines[i] = " 123 0,1 all 012/3120456," + lines[i].split(" all ")[1]
    refused("\n".join(lines), "line 4: 012/3120456 does not map the set onto itself")


def test_a_truncated_or_foreign_proof_is_refused(proof_text, tmp_path):
    with pytest.raises(ProofError, match="cut short|nodes"):
        ProofFile.loads("\n".join(proof_text.split("\n")[:-3]))
    path = tmp_path / "p.proof.gz"
    path.write_bytes(gzip.compress(proof_text.encode())[:-20])
    with pytest.raises(ProofError, match="truncated"):
        ProofFile.read(path)
    with pytest.raises(ProofError, match=r"not a proof file \(it does not start with 'mastermind-proof N'\)"):
        ProofFile.loads("mastermind-tree 1\n{}\n1122\nend 1\n")
    with pytest.raises(ProofError, match="format '4'; this version reads format 1 and 2 and 3"):
        ProofFile.loads(proof_text.replace("mastermind-proof 2", "mastermind-proof 4", 1))


def test_verify_refuses_a_tampered_proof_in_one_line_with_status_2(proof_text, tmp_path):
    lines = proof_text.split("\n")
    i = leaf_all(lines)
    lines[i] = lines[i].split(" all ")[0] + " count"
    path = tmp_path / "tampered.proof"
    path.write_text("\n".join(lines))
    code, out, err = run("verify", path)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and "line" in err
    good = tmp_path / "good.proof"
    good.write_text(proof_text)
    assert run("verify", good)[0] == 0
    code, _, err = run("verify", good, "--pegs", "5")
    assert code == 2 and "not 5 pegs" in err


def test_worst_refuses_bad_input_in_one_line():
    code, _, err = run("worst", "-p", "6", "-c", "8")
    assert code == 2 and "up to 50,000 codes" in err and len(err.strip().splitlines()) == 1
    code, _, err = run("worst", "--save", "/no/such/folder/t.gz")
    assert code == 2 and "does not exist" in err


# -- the results of docs/results.md ----------------------------------------------------------

RESULTS_DIR = Path(__file__).resolve().parent.parent / "results"

#: docs/results.md, "The worst case": each game's least number of guesses that always suffices
WORST = {"5x6": 6, "5x7": 6, "4x9": 7, "4x10": 7}


@pytest.mark.long  # about 15 s of CPU
def test_super_mastermind_cannot_always_be_won_in_5_guesses_by_its_proof_file():
    # docs/results.md, "The worst case": 5x8 needs 6 or 7; the proof (4 nodes) rules out 5
    proof = ProofFile.read(RESULTS_DIR / "5x8-not5.proof.gz")
    assert (proof.rules.pegs, proof.rules.colors, proof.root.size()) == (5, 8, 4)
    assert proof.check().guesses == 5


@pytest.mark.parametrize("game", sorted(WORST))
def test_the_worst_case_tree_files_find_every_secret_within_the_least_number(game):
    tree = TreeFile.read(RESULTS_DIR / f"{game}-worst.tree.gz")
    assert tree.verify().max == WORST[game] == tree.header["max"]


# The replays of 4x10's proof (about 40 s of CPU), 5x6's (about 65 s) and 4x9's (57,752 nodes,
# about 5 minutes) run with the long tests (docs/results.md has the figures)
LONG = pytest.mark.long


@pytest.mark.parametrize(
    "game",
    [
        "5x7",
        pytest.param("4x10", marks=LONG),
        pytest.param("5x6", marks=LONG),
        pytest.param("4x9", marks=LONG),
    ],
)
def test_the_worst_case_proof_files_prove_one_guess_fewer_does_not_do(game):
    proof = ProofFile.read(RESULTS_DIR / f"{game}-worst.proof.gz")
    pegs, colors = map(int, game.split("x"))
    assert (proof.rules.pegs, proof.rules.colors) == (pegs, colors)
    assert proof.check().guesses == WORST[game] - 1


@pytest.mark.long  # about 25 minutes of CPU, with 2 GB kept (the default from 16 GB up; about 3 GB in all)
def test_super_mastermind_cannot_be_won_within_6_guesses_beginning_with_11111_11122_or_11112(monkeypatch):
    # docs/results.md, "Super Mastermind (5x8): 6 or 7": three of its 7 first guesses ruled out
    monkeypatch.setattr(arithmetic_module, "LANE_MEMORY", 2 << 30)
    checked = ProofFile.read(RESULTS_DIR / "5x8-not6-first3.proof.gz").check()
    assert (checked.rules.pegs, checked.rules.colors, checked.guesses) == (5, 8, 6)
    assert checked.first == ("11111", "11122", "11112")
