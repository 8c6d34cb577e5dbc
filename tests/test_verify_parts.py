"""A proof's verdict does not depend on how its check is split: whole, cut into parts (each part
checked apart, as on other machines), or shared among processes, a good proof passes and a
damaged one gets one verdict, every time. Small proofs, made here, each damaged in several ways."""

from functools import cache

import pytest

from mastermind.core.rules import Rules
from mastermind.errors import ProofError
from mastermind.runtime.pool import can_fork
from mastermind.strategies.optimal.guided import prove_optimum
from mastermind.strategies.optimal.lower import prove
from mastermind.strategies.optimal.worst import WorstSearch
from mastermind.verify import check as check_module
from mastermind.verify.check import check_file
from mastermind.verify.parts import Parts
from mastermind.verify.proof import ProofFile


@cache
def good(name: str) -> str:
    """A proof's text: no tree within one guess fewer than the least worst case (2x3, 3x3, 4x4),
    the least total of 3x3 and 4x4, no tree of 4x5 within 5 guesses beginning with 1111, and none
    of 4x7 within 5 beginning with 1112 or 1122, whose cells of reply 0,0 are the same set: its
    lines come twice; and the least total of 4x5 in the compact version (3), whose lines under the
    root are the cells its leaves left out do not raise enough."""
    if name == "4x5 total compact":
        return ProofFile.loads(prove_optimum(Rules(pegs=4, colors=5), 2463, workers=1).proof.dumps()).dumps(3)
    if name == "4x5 first":
        return WorstSearch(Rules(pegs=4, colors=5)).decide(5, first=[0]).proof.dumps()
    if name == "4x7 first":
        return WorstSearch(Rules(pegs=4, colors=7)).decide(5, first=[1, 8]).proof.dumps()
    pegs, colors, claim = name.split()
    rules = Rules(pegs=int(pegs), colors=int(colors))
    if claim == "guesses":
        _, below = WorstSearch(rules).least()
        assert below is not None
        return below.proof.dumps()
    return prove(rules).proof.dumps()


GAMES = ["2 3 guesses", "3 3 guesses", "4 4 guesses", "3 3 total", "4 4 total", "4x5 first", "4x7 first"]
GAMES += ["4x5 total compact"]
# (the proofs of 2x3 and 4x4 are their root alone: a count)
WITH_LINES = [game for game in GAMES if game not in ("2 3 guesses", "4 4 guesses")]


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def damaged(text: str) -> dict[str, str]:
    """The proof damaged in several ways, each where the split puts it in one part or another."""
    lines = text.split("\n")
    body = range(3, len(lines) - 2)  # the lines under the root
    pegs = len(lines[3].split()[0])
    deepest = max(body, key=lambda i: (_indent(lines[i]), i))
    last = max(i for i in body if _indent(lines[i]) == 1)
    out = {}
    for where, i in (("deepest", deepest), ("first", body[0]), ("last", last)):
        guess, _, rest = lines[i].split(maxsplit=2)
        wrong = [*lines]  # the win as a line's reply: no secret of a set gives it and goes on
        wrong[i] = " " * _indent(lines[i]) + f"{guess} {pegs},0 {rest}"
        out[f"the win as the reply of the {where} line"] = "\n".join(wrong)
        words = lines[i].split()
        claim = 3 if words[2] == "total" else 2 if words[2].isdigit() else 0  # (version 2, or 3)
        if claim:  # a claim raised by one
            words[claim] = str(int(words[claim]) + 1)
            raised = [*lines]
            raised[i] = " " * _indent(lines[i]) + " ".join(words)
            out[f"the {where} line's claim raised"] = "\n".join(raised)
    return out


def verdicts(text: str, tmp_path, monkeypatch) -> set[str]:
    """The verdict of each way of checking the proof: whole, in memory and as a file; cut into 2,
    3 and 5 parts, each part checked apart; on 2 processes, whole and in parts."""
    path = tmp_path / "proof.txt"
    path.write_text(text)
    said: set[str] = set()

    def verdict(check) -> None:
        try:
            check()
        except ProofError:
            said.add("refused")
        else:
            said.add("passed")

    def each_part(count: int, jobs: int) -> None:
        refused = []
        for part in range(1, count + 1):
            try:
                check_file(path, None, jobs, None, Parts(part, part, count))
            except ProofError:
                refused.append(part)
        if refused:
            raise ProofError(f"parts {refused} of {count}")

    verdict(lambda: ProofFile.loads(text).check())
    verdict(lambda: check_file(path))
    for count in (2, 3, 5):
        verdict(lambda count=count: each_part(count, 1))
        verdict(lambda count=count: ProofFile.loads(text).check(parts=Parts(1, count, count)))
    if can_fork():
        monkeypatch.setattr(check_module, "PARALLEL_FROM", 0)
        for pieces in (1, 4, 10**6):  # the processes' pieces: the nodes under the root, smaller, single lines
            monkeypatch.setattr(check_module, "PIECES_PER_JOB", pieces)
            verdict(lambda: check_file(path, None, 2))
        verdict(lambda: each_part(3, 2))
    return said


@pytest.mark.parametrize("game", GAMES)
def test_a_good_proof_passes_however_its_check_is_split(game, tmp_path, monkeypatch):
    assert verdicts(good(game), tmp_path, monkeypatch) == {"passed"}


@pytest.mark.parametrize("game", WITH_LINES)
def test_a_damaged_proof_gets_one_verdict_however_its_check_is_split(game, tmp_path, monkeypatch):
    faults = damaged(good(game))
    assert len(faults) >= 3
    for fault, text in faults.items():
        found = verdicts(text, tmp_path, monkeypatch)
        assert len(found) == 1, fault  # the same verdict every time
        if "the win" in fault:  # (a claim raised may still hold, where the bound had room)
            assert found == {"refused"}, fault


def test_a_damaged_copy_of_lines_met_again_is_refused_however_its_check_is_split(tmp_path, monkeypatch):
    # 4x7 beginning with 1112 or 1122: the cell of reply 0,0 is the same set under both, with the
    # same lines; the second copy damaged. A check that took it on the strength of the first
    # copy would pass it whole and refuse it in a part that meets it first.
    lines = good("4x7 first").split("\n")
    tops = [i for i, line in enumerate(lines) if _indent(line) == 1]
    assert lines[tops[0] + 1 : tops[1]] == lines[tops[1] + 1 : -2]
    i = max(range(tops[1] + 1, len(lines) - 2), key=lambda i: (_indent(lines[i]), i))
    guess, _, rest = lines[i].split(maxsplit=2)
    lines[i] = " " * _indent(lines[i]) + f"{guess} 4,0 {rest}"
    assert verdicts("\n".join(lines), tmp_path, monkeypatch) == {"refused"}
    # undamaged, the second copy is counted without a second check, whole
    steps: list[int] = []
    ProofFile.loads(good("4x7 first")).check(progress=steps.append)
    assert tops[1] - tops[0] - 1 in steps


@pytest.mark.parametrize(
    "text, words",
    [
        ("1/0", "a check is cut into at least 1 part (1/0)"),
        ("0/0", "a check is cut into at least 1 part (0/0)"),
        ("5/4", "parts run from 1 to 4 (5/4)"),
        ("0-2/4", "parts run from 1 to 4 (0-2/4)"),
        ("2/1", "a check cut in 1 part has only part 1 (2/1)"),
    ],
)
def test_a_part_outside_the_cut_is_refused_in_words_that_fit_it(text, words):
    """'1/0' once said 'parts run from 1 to 0'; each refusal now names what is wrong and quotes
    the text. A range downwards (3-2/4) stays: it is how two machines take the parts from opposite
    ends."""
    with pytest.raises(ValueError) as refused:
        Parts.parse(text)
    assert str(refused.value) == words
    assert list(Parts.parse("3-2/4").numbers) == [3, 2]
