"""A lower bound on the least total with a proof that the plain-Python checker replays.

Optima: 3 pegs 4 colours 206, 4x4 905, 5 pegs 3 colours 816, 4x5 2463 (Ville 2013), the classic
5625 (Koyama and Lai 1993); the tiny games against the plain search of test_optimal.py. Each
proof reaches the optimum: with a tree file of the same total, the optimum is then checked by
plain Python from both sides.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from mastermind import Rules
from mastermind.cli import cli
from mastermind.errors import ProofError
from mastermind.strategies.optimal import guided as guided_module
from mastermind.strategies.optimal import lower as lower_module
from mastermind.strategies.optimal import proof_book, proof_workers
from mastermind.strategies.optimal import run as run_module
from mastermind.strategies.optimal.guided import prove_optimum
from mastermind.strategies.optimal.lower import prove
from mastermind.strategies.piece_control import usable_cores
from mastermind.verify import check as check_module
from mastermind.verify import checker as checker_module
from mastermind.verify import workers as workers_module
from mastermind.verify.arithmetic import least_total, other_replies
from mastermind.verify.check import check_file
from mastermind.verify.files import game_dict
from mastermind.verify.parts import MAX_PARTS, Parts
from mastermind.verify.proof import ProofFile
from test_optimal import TINY, plain_optimum

OPTIMA = [
    (Rules(pegs=3, colors=4), 206),
    (Rules(pegs=4, colors=4), 905),
    (Rules(pegs=5, colors=3), 816),
    (Rules(pegs=4, colors=5), 2463),
]


@pytest.fixture(params=["every code at once", "guess by guess"])
def counting(request, monkeypatch):
    """The checker's two ways of counting cells, forced."""
    lanes = request.param == "every code at once"
    monkeypatch.setattr(checker_module, "_by_lanes", lambda *args: lanes)


def checks(found) -> int:
    """The total the proof file proves, read back from its text and checked."""
    checked = ProofFile.loads(found.proof.dumps()).check()
    assert checked.claim == "total" and checked.nodes == found.proof.header["nodes"]
    return checked.total


@pytest.mark.parametrize(("rules", "optimum"), OPTIMA, ids=lambda x: repr(x) if isinstance(x, Rules) else "")
def test_the_proof_proves_the_published_optimum(rules, optimum, counting):
    found = prove(rules, target=optimum)
    assert checks(found) == found.total == optimum


def test_the_classic_optimum_is_proved():
    found = prove(Rules(pegs=4, colors=6), target=5625)
    assert checks(found) == found.total == 5625


@pytest.mark.parametrize("rules", TINY, ids=repr)
def test_the_proof_proves_the_plain_search_optimum(rules):
    optimum = plain_optimum(rules, range(rules.size), 20)
    found = prove(rules, target=optimum)
    assert checks(found) == found.total == optimum


def test_deepening_raises_the_bound_of_one_and_two_levels():
    rules = Rules(pegs=4, colors=5)
    shallow = prove(rules, target=0)  # the root's guesses with their cells bounded once
    deep = prove(rules, target=2463)
    assert shallow.deepened == 1 and deep.deepened > 1
    counted = least_total(other_replies(4), rules.size)  # counting alone at the root
    assert counted < checks(shallow) == shallow.total < checks(deep) == deep.total == 2463


def test_a_claim_one_higher_is_refused_at_its_line(counting):
    text = prove(Rules(pegs=3, colors=4), target=206).proof.dumps()
    lines = text.split("\n")
    header = json.loads(lines[1])
    total = header["total"]
    lines[1] = json.dumps(header | {"total": total + 1})
    lines[2] = lines[2].replace(f"total {total} ", f"total {total + 1} ", 1)
    with pytest.raises(ProofError, match=r"line 3: for guess \w+ the bounds reach only .* below the"):
        ProofFile.loads("\n".join(lines)).check()


def test_a_child_claim_raised_or_a_line_dropped_is_refused(counting):
    text = prove(Rules(pegs=4, colors=4), target=905).proof.dumps()
    lines = text.split("\n")
    child = next(i for i, line in enumerate(lines) if line.startswith("  ") and " total " in line)
    head, rest = lines[child].split(" total ", 1)
    number, gens = rest.split(" ", 1)
    raised = [*lines]
    raised[child] = f"{head} total {int(number) + 1} {gens}"
    with pytest.raises(ProofError, match=rf"line {child + 1}: for guess \w+ the bounds reach only"):
        ProofFile.loads("\n".join(raised)).check()
    # a line under the root dropped, with all it holds: its guess no longer reaches the claim
    first = next(i for i, line in enumerate(lines) if line.startswith(" ") and not line.startswith("  "))
    end = first + 1
    while lines[end].startswith("  "):
        end += 1
    body = lines[2:first] + lines[end:-2]
    header = json.loads(lines[1]) | {"nodes": len(body)}
    dropped = [lines[0], json.dumps(header), *body, f"end {len(body)}"]
    with pytest.raises(ProofError, match=r"line 3: for guess \w+ the bounds reach only"):
        ProofFile.loads("\n".join(dropped)).check()


def test_a_proof_checked_on_two_processes_proves_the_same_and_finds_a_deep_fault(monkeypatch):
    monkeypatch.setattr(check_module, "PARALLEL_FROM", 0)
    text = (RESULTS_DIR / "4x6-lower.proof.gz").read_bytes()
    found = ProofFile.loads(gzip.decompress(text).decode())
    steps: list[int] = []
    checked = found.check(steps.append, jobs=2)
    assert checked.total == 5625 and checked.nodes == sum(steps) == found.root.size() == 2389
    # a claim three levels down (in a piece that a process checks whole) raised by one
    lines = gzip.decompress(text).decode().split("\n")
    deep = next(i for i, line in enumerate(lines) if line.startswith("   ") and line[3] != " ")
    head, rest = lines[deep].split(" total ", 1)
    number, gens = rest.split(" ", 1)
    lines[deep] = f"{head} total {int(number) + 1} {gens}"
    with pytest.raises(ProofError, match=rf"line {deep + 1}: for guess \w+ the bounds reach only"):
        ProofFile.loads("\n".join(lines)).check(jobs=2)


@pytest.mark.parametrize("pieces", [1, 16, 10**6])
def test_a_proof_file_is_checked_as_it_is_read_not_held_whole(monkeypatch, tmp_path, pieces):
    # pieces a process: 1 (the nodes under the root sent whole), 16 (the large ones checked
    # here, their lines read again and sent), 10**6 (every node with lines of its own checked here)
    monkeypatch.setattr(check_module, "PARALLEL_FROM", 0)
    monkeypatch.setattr(check_module, "PIECES_PER_JOB", pieces)
    text = gzip.decompress((RESULTS_DIR / "4x6-lower.proof.gz").read_bytes()).decode()
    found_split = ProofFile.loads(text).cut(5)

    def whole(*args):
        raise AssertionError("the proof was read whole")

    monkeypatch.setattr(ProofFile, "loads", whole)
    path = RESULTS_DIR / "4x6-lower.proof.gz"
    passed: list[tuple[int, int]] = []
    for jobs in (1, 2):
        steps: list[int] = []
        checked = check_file(path, steps.append, jobs)
        assert checked.claim == "total" and checked.total == 5625 and checked.nodes == sum(steps) == 2389
        # and cut into parts, each a pass over the file: the same cut as the proof's in memory
        head = check_module.scan(path)
        split = head.cut(5)
        assert (split.owner, split.lines) == (found_split.owner, found_split.lines)
        passed.clear()
        steps.clear()
        checked = check_file(
            path, steps.append, jobs, head, Parts(5, 3, 5), lambda *said: passed.append(said)
        )
        assert passed == [(part, split.lines[part - 1]) for part in (5, 4, 3)]
        assert checked.nodes == sum(steps) == split.shared + sum(split.lines[2:]) and not checked.whole
    # a claim deep down raised by one: refused at its line, whoever checks it
    lines = text.split("\n")
    deep = max(range(2, len(lines) - 1), key=lambda i: len(lines[i]) - len(lines[i].lstrip()))
    head, rest = lines[deep].split(" total ", 1)
    number, gens = rest.split(" ", 1)
    lines[deep] = f"{head} total {int(number) + 1} {gens}"
    path = tmp_path / "damaged.proof.gz"
    path.write_bytes(gzip.compress("\n".join(lines).encode()))
    if pieces == 16:  # cut into parts: refused by the part that holds it, no other
        refusing = []
        for part in range(1, 6):
            try:
                check_file(path, None, 2, None, Parts(part, part, 5))
            except ProofError:
                refusing.append(part)
        assert len(refusing) == 1
    for jobs in (1, 2):
        with pytest.raises(
            ProofError, match=rf"^{re.escape(str(path))}, line {deep + 1}: for guess \w+ the bounds"
        ):
            check_file(path, None, jobs)


def test_a_proof_file_whose_header_and_root_disagree_or_whose_lines_are_odd_is_refused(monkeypatch, tmp_path):
    monkeypatch.setattr(check_module, "PARALLEL_FROM", 0)
    text = gzip.decompress((RESULTS_DIR / "4x6-lower.proof.gz").read_bytes()).decode()
    lines = text.split("\n")
    deep = next(i for i, line in enumerate(lines) if line.startswith("   ") and " total " in line)
    header = lines[1].replace('"total": 5625', '"total": 9999')
    joined = [
        *lines[:deep],
        lines[deep] + "\r" + lines[deep + 1],
        *lines[deep + 2 : -2],
        lines[deep + 1],
        *lines[-2:],
    ]
    odd = {
        # a claim higher than the one checked: the header's, or the root's lower than its header's
        "header.proof": ("\n".join([lines[0], header, *lines[2:]]), "line 3: the root claims 5625, the"),
        "root.proof": (text.replace("\ntotal 5625 ", "\ntotal 5624 ", 1), "line 3: the root claims 5624"),
        # two lines joined by a carriage return, and a line more to keep the count: a line no one reads
        "return.proof": ("\n".join(joined), f"line {deep + 1}: not 'total"),
        "digit.proof": (
            text.replace(lines[deep], re.sub(r" total \d+ ", " total \u00b2 ", lines[deep])),
            f"line {deep + 1}: not 'total",
        ),
    }
    for name, (damaged, message) in odd.items():
        path = tmp_path / name
        path.write_text(damaged)
        for jobs, parts in ((1, None), (2, None), (1, Parts(1, 5, 5))):
            with pytest.raises(ProofError, match=re.escape(f"{path}, {message}")):
                check_file(path, None, jobs, None, parts)
        code, out, err = run("verify", path, "--workers", 1)
        assert code == 2 and out == "" and err.count("\n") == 1 and message in err, err
    path = tmp_path / "binary.proof"  # not text, far from its header: refused in one line, cut into parts too
    path.write_bytes(text.replace(lines[deep], lines[deep] + " \xff", 1).encode("latin-1"))
    code, _, err = run("verify", path, "--part", "1/5")
    assert code == 2 and err == f"mastermind: error: {path}: not a proof file (not text)\n"


def test_a_proof_file_cut_short_or_miscounted_is_refused_before_any_line_is_checked(tmp_path):
    packed = (RESULTS_DIR / "4x6-lower.proof.gz").read_bytes()
    text = gzip.decompress(packed).decode()
    lines = text.split("\n")
    cases = {
        "cut.proof.gz": (packed[:-20], "truncated"),
        "no-end.proof": ("\n".join(lines[:-3]).encode(), r"cut short \(no 'end' line\)"),
        "end.proof": ("\n".join([*lines[:-2], "end 2388", ""]).encode(), "where its 'end' line says 2,388"),
        "nodes.proof": (text.replace('"nodes": 2389', '"nodes": 2390').encode(), "its header says 2390"),
        "binary.proof": (text.replace("total", "t\xffal", 1).encode("latin-1"), "not text"),
    }
    for name, (data, message) in cases.items():
        (tmp_path / name).write_bytes(data)
        steps: list[int] = []
        with pytest.raises(ProofError, match=message):
            check_file(tmp_path / name, steps.append)
        assert steps == [] or name == "binary.proof", name


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_check_cut_into_parts_checks_every_line_and_each_part_refuses_its_own_faults(monkeypatch, jobs):
    monkeypatch.setattr(check_module, "PARALLEL_FROM", 0)
    text = gzip.decompress((RESULTS_DIR / "4x6-lower.proof.gz").read_bytes()).decode()
    found = ProofFile.loads(text)
    split = found.cut(5)
    assert split.shared + sum(split.lines) == found.root.size() == 2389
    assert split.shared > 1 and min(split.lines) > 0  # (nodes checked in every part, and pieces in each)
    passed: list[tuple[int, int]] = []
    for part in range(1, 6):
        steps: list[int] = []
        checked = found.check(steps.append, jobs, Parts(part, part, 5), lambda *said: passed.append(said))
        assert checked.total == 5625 and not checked.whole
        assert checked.nodes == sum(steps) == split.shared + split.lines[part - 1]
    assert passed == [(part, split.lines[part - 1]) for part in range(1, 6)]
    passed.clear()
    checked = found.check(None, jobs, Parts(1, 5, 5), lambda *said: passed.append(said))
    assert checked.whole and checked.nodes == 2389 and [part for part, _ in passed] == [1, 2, 3, 4, 5]
    passed.clear()
    checked = found.check(None, jobs, Parts(5, 3, 5), lambda *said: passed.append(said))
    assert [part for part, _ in passed] == [5, 4, 3] and checked.nodes == split.shared + sum(split.lines[2:])
    # a claim deep in one piece raised by one: the part that holds the piece refuses it, no other
    lines = text.split("\n")
    deep = max(range(2, len(lines) - 1), key=lambda i: len(lines[i]) - len(lines[i].lstrip()))  # the deepest
    head, rest = lines[deep].split(" total ", 1)
    number, gens = rest.split(" ", 1)
    lines[deep] = f"{head} total {int(number) + 1} {gens}"
    damaged = ProofFile.loads("\n".join(lines))
    refused = []
    for part in range(1, 6):
        try:
            damaged.check(None, jobs, Parts(part, part, 5))
        except ProofError as err:
            assert f"line {deep + 1}: for guess" in str(err)
            refused.append(part)
    assert len(refused) == 1
    with pytest.raises(ProofError, match=rf"line {deep + 1}: for guess"):
        damaged.check(None, jobs, Parts(1, 5, 5))


def test_parts_are_read_as_i_of_n_or_i_to_j_of_n():
    assert Parts.parse("3/8") == Parts(3, 3, 8) and Parts.parse(" 2 - 5 / 8 ") == Parts(2, 5, 8)
    assert Parts.parse("1-8/8").whole and not Parts.parse("1-7/8").whole
    assert [p.text() for p in Parts.parse("3-5/8").others()] == ["1-2/8", "6-8/8"]
    assert Parts.parse("1/1").others() == [] and Parts.parse("8-1/8").whole
    down = Parts.parse("6-3/8")
    assert list(down.numbers) == [6, 5, 4, 3] and [p.text() for p in down.others()] == ["1-2/8", "7-8/8"]
    for bad in ["", "3", "0/4", "5/4", "3-5/4", "a/b", "1/0", f"1/{MAX_PARTS + 1}"]:
        with pytest.raises(ValueError):
            Parts.parse(bad)
    assert Parts.parse(f"1/{MAX_PARTS}").count == MAX_PARTS


def test_a_cut_into_more_parts_than_any_machines_share_is_one_line_not_a_memory_error():
    # 1/99999999999 made a list of that many part sizes: MemoryError, a traceback, exit status 1
    code, out, err = run("verify", RESULTS_DIR / "5x7-worst.proof.gz", "--part", "1/99999999999")
    assert code == 2 and out == ""
    why = f"a check is cut into at most {MAX_PARTS:,} parts (1/99999999999)"
    assert err == f"mastermind: error: --part: {why}\n"
    code, out, _ = run("verify", RESULTS_DIR / "5x7-worst.proof.gz", "--part", "1/7")
    assert code == 0 and out.startswith("part 1 of 7 checked (1 node of its own; ")  # not '1 nodes'


def test_verify_checks_some_parts_and_says_which_others_are_needed(monkeypatch):
    monkeypatch.setattr(check_module, "PARALLEL_FROM", 0)
    path = RESULTS_DIR / "4x6-lower.proof.gz"
    code, out, _ = run("verify", path, "--part", "2-3/4", "--workers", 2)
    said = out.strip().splitlines()
    lines = ProofFile.read(path).cut(4).lines
    for part, line in zip((2, 3), said[:2], strict=True):
        assert line.startswith(f"part {part} of 4 checked ({lines[part - 1]:,} nodes of its own; 0 min ")
    assert "once the others pass too (--part 1/4 and --part 4/4, on any machine)" in said[2]
    assert "takes at least 5,625 guesses in all" in said[2]
    code, out, _ = run("verify", path, "--part", "4/4", "--json")
    said = json.loads(out)
    assert code == 0 and said["passed"] and said["verified"] is False and said["part"] == "4/4"
    code, out, _ = run("verify", path, "--part", "1-4/4", "--json")
    assert code == 0 and json.loads(out)["verified"] is True and json.loads(out)["nodes"] == 2389
    for bad, words in [("5/4", "parts run from 1 to 4"), ("half", "is not I/N")]:
        code, _, err = run("verify", path, "--part", bad)
        assert code == 2 and words in err and len(err.strip().splitlines()) == 1
    code, _, err = run("verify", RESULTS_DIR / "4x6-optimal.tree.gz", "--part", "1/2")
    assert code == 2 and "--part cuts the check of a proof file" in err
    code, _, err = run("verify", RESULTS_DIR / "no-such.proof.gz", "--part", "1/2")  # as without --part
    assert code == 2 and "cannot read it" in err and len(err.strip().splitlines()) == 1


def test_a_claim_on_the_total_needs_total_lines_and_a_matching_root():
    text = prove(Rules(pegs=3, colors=4), target=206).proof.dumps()
    lines = text.split("\n")
    total = json.loads(lines[1])["total"]
    with pytest.raises(ProofError, match="line 3: the root claims"):
        ProofFile.loads(text.replace(f'"total": {total}', f'"total": {total - 1}', 1))
    broken = [*lines]
    broken[3] = broken[3].split(" total ")[0] + " count"
    with pytest.raises(ProofError, match="line 4: not 'total LEAST PERMUTATIONS'"):
        ProofFile.loads("\n".join(broken))
    with pytest.raises(ProofError, match="'total' is not a whole number"):
        ProofFile.loads(text.replace(f'"total": {total}', '"total": "many"', 1))


def test_a_version_1_file_is_read_as_a_claim_on_guesses():
    from mastermind.strategies.optimal.worst import decide

    text = decide(Rules(pegs=3, colors=5), 4).proof.dumps()
    lines = text.split("\n")
    header = json.loads(lines[1])
    assert header["claim"] == "guesses" and lines[0] == "mastermind-proof 2"
    del header["claim"]
    old = "\n".join(["mastermind-proof 1", json.dumps(header), *lines[2:]])
    checked = ProofFile.loads(old).check()
    assert checked.claim == "guesses" and checked.guesses == 4


def run(*args):
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout, result.stderr


def test_evaluate_writes_the_proof_and_verify_checks_it(tmp_path):
    path = tmp_path / "4x5.proof.gz"
    code, out, _ = run(
        "evaluate",
        "-s",
        "optimal",
        "-p",
        4,
        "-c",
        5,
        "--budget",
        "1m",
        "--proof",
        path,
        "--json",
        "--no-history",
    )
    assert code == 0
    report = json.loads(out)
    assert report["exact"] and report["total"] == 2463
    assert report["proof"]["file"] == str(path) and report["proof"]["total"] == 2463
    code, out, _ = run("verify", path, "--json")
    assert code == 0
    checked = json.loads(out)
    assert checked["verified"] and checked["total"] == report["proof"]["total"]
    code, out, _ = run("verify", path)
    assert code == 0 and f"takes at least {report['proof']['total']:,} guesses in all" in out


@pytest.mark.parametrize("suffix", [".gz", ".xz"])
def test_evaluate_keeps_what_a_cut_proof_proved_and_the_same_command_resumes_it(
    tmp_path, monkeypatch, suffix
):
    path, journal = tmp_path / f"classic.proof{suffix}", tmp_path / f"classic.proof{suffix}.journal"
    command = ("evaluate", "-s", "optimal", "--budget", "1m", "--proof", path, "--json", "--no-history")
    whole, keep, expiries = guided_module.prove_optimum, proof_book._Book.keep, []

    class Clock:  # the proof's time: out once its first set is kept, however loaded the machine
        daemon = True

        def __init__(self, seconds, expire):
            expiries.append(expire)

        def start(self):
            pass

        def cancel(self):
            pass

    def kept(book, node, claim):
        keep(book, node, claim)
        if expiries:
            expiries.pop()()

    monkeypatch.setattr(guided_module, "threading", SimpleNamespace(Event=threading.Event, Timer=Clock))
    monkeypatch.setattr(proof_book._Book, "keep", kept)
    monkeypatch.setattr(
        guided_module, "prove_optimum", lambda *args, **kw: whole(*args, **{**kw, "seconds": 60})
    )
    code, out, err = run(*command)  # (the proof's time cut short)
    assert code == 0 and json.loads(out)["proof"]["total"] < 5625 and journal.exists()
    assert f"what the proof has proved is kept in {journal}: the same command resumes from it" in err
    # a proof of version 3 (.xz) keeps its sets in version 3, one of version 2 in version 2
    assert ('"compact"' in journal.read_text()) is (suffix == ".xz")
    monkeypatch.undo()
    code, out, err = run(*command)
    assert code == 0 and f"resuming the proof from {journal}" in err
    assert json.loads(out)["proof"]["total"] == 5625 == ProofFile.read(path).check().total
    assert ProofFile.read(path).version == (3 if suffix == ".xz" else 2)
    assert not journal.exists()  # (the proof ended: nothing left to resume)


def test_a_process_of_the_check_that_dies_is_reported_in_one_line(monkeypatch):
    monkeypatch.setattr(check_module, "PARALLEL_FROM", 0)
    monkeypatch.setattr(workers_module, "_check_piece", lambda *piece: os._exit(9))  # (as if killed)
    code, _, err = run("verify", RESULTS_DIR / "4x6-lower.proof.gz", "--workers", 2)
    assert code == 2 and "a process checking the proof died" in err and len(err.strip().splitlines()) == 1


def test_a_fault_of_the_checker_in_a_process_is_reported_in_one_line(monkeypatch):
    def fails(checker, reader, piece):
        raise RuntimeError("no such line")

    monkeypatch.setattr(check_module, "PARALLEL_FROM", 0)
    monkeypatch.setattr(workers_module, "_check_piece", fails)
    code, _, err = run("verify", RESULTS_DIR / "4x6-lower.proof.gz", "--workers", 2)
    said = "mastermind: error: a process checking the proof failed: RuntimeError: no such line"
    assert code == 2 and err.strip() == said


def test_verify_checks_a_proof_on_the_processes_asked_and_refuses_none(monkeypatch):
    monkeypatch.setattr(check_module, "PARALLEL_FROM", 0)
    code, out, _ = run("verify", RESULTS_DIR / "4x6-lower.proof.gz", "--workers", 2, "--json")
    assert code == 0 and json.loads(out)["total"] == 5625 and json.loads(out)["nodes"] == 2389
    code, _, err = run("verify", RESULTS_DIR / "4x6-lower.proof.gz", "--workers", 0)
    assert code == 2 and "--workers" in err and "Traceback" not in err


def test_ctrl_c_twice_stops_a_check_on_several_processes_in_one_line():
    # as a terminal would: the command in a process group of its own, SIGINT to the whole group
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "mastermind",
            "verify",
            str(RESULTS_DIR / "4x7-lower.proof.gz"),
            "--workers",
            "2",
            "--part",
            "1-12/12",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # (even from a background job)
    )
    assert proc.stdout is not None and proc.stdout.readline().startswith("part 1 of 12 checked")
    os.killpg(proc.pid, signal.SIGINT)
    time.sleep(0.02)  # pressed again while it stops: that once could hang it, or end it in a traceback
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and err == "mastermind: interrupted\n"
    with pytest.raises(ProcessLookupError):  # none of its processes is left
        for _ in range(300):
            os.killpg(proc.pid, 0)
            time.sleep(0.1)


def test_off_a_terminal_a_long_check_writes_its_progress_in_lines(monkeypatch):
    from mastermind.cli import progress

    monkeypatch.setattr(progress, "LOG_EVERY", 0.0)  # a line at each report, as a long check every minute
    path = RESULTS_DIR / "4x6-lower.proof.gz"
    code, out, err = run("verify", path, "--workers", 1)
    lines = err.splitlines()
    assert code == 0 and "takes at least 5,625 guesses in all" in out
    assert lines and all(line.startswith(f"checking {path}: ") for line in lines), err
    assert lines[-1].startswith(f"checking {path}: 2,389 of 2,389 (") and lines[-1].endswith(" in)")


def test_a_guided_proof_reports_its_progress_while_a_search_at_its_root_runs(monkeypatch):
    # each exact cost at the root of a large game is a search of minutes: the progress (and a
    # terminal's clock, or the log's line a minute) must go on meanwhile; here the root's first
    # search is made to last 1.5 s
    from mastermind.strategies.optimal import run as search_run

    searching, calls, main = threading.Event(), [], os.getpid()
    real = search_run._Run.kernel_call

    def slow(self, *args, **kwargs):
        if os.getpid() == main and not calls:
            calls.append(1)
            searching.set()
            time.sleep(1.5)
            searching.clear()
        return real(self, *args, **kwargs)

    monkeypatch.setattr(search_run._Run, "kernel_call", slow)
    during: list[bool] = []
    found = prove_optimum(
        Rules(pegs=4, colors=4), 905, workers=2, progress=lambda *_: during.append(searching.is_set())
    )
    assert found.total == 905 and calls and any(during)


def test_off_a_terminal_a_guided_proof_writes_its_progress_in_lines(monkeypatch, tmp_path):
    from mastermind.cli import progress

    monkeypatch.setattr(progress, "LOG_EVERY", 0.0)  # a line at each report, as a long proof every minute
    proof = tmp_path / "p.proof"
    code, _, err = run(
        "evaluate", "-s", "optimal", "-p", 3, "-c", 4, "--budget", "1m", "--proof", proof, "--no-history"
    )
    lines = [line for line in err.splitlines() if line.startswith("proof of a lower bound: ")]
    assert code == 0 and lines and lines[-1].startswith("proof of a lower bound: 206 of 206 ("), err


def test_proof_without_budget_or_to_a_missing_folder_is_one_line_and_status_2(tmp_path):
    code, _, err = run("evaluate", "-s", "optimal", "--proof", tmp_path / "p.proof")
    assert code == 2 and "give --budget too" in err and len(err.strip().splitlines()) == 1
    code, _, err = run("evaluate", "-s", "optimal", "--budget", "1m", "--proof", tmp_path / "no" / "p.proof")
    assert code == 2 and "does not exist" in err and len(err.strip().splitlines()) == 1


def test_a_prover_stopped_at_once_still_writes_a_proof_that_checks():
    import threading

    stop = threading.Event()
    stop.set()
    rules = Rules(pegs=4, colors=5)
    found = prove(rules, target=2463, stop=stop)
    # nothing was bounded deeper: the claim is counting's at the root, and it still checks
    assert found.total == least_total(other_replies(4), rules.size) == checks(found)


# -- the proof guided by the exact search --------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "optimum"),
    [*OPTIMA, (Rules(pegs=4, colors=6), 5625)],
    ids=lambda x: repr(x) if isinstance(x, Rules) else "",
)
def test_the_guided_proof_proves_the_published_optimum(rules, optimum, counting):
    found = prove_optimum(rules)  # the optimum found by the exact search, then proved
    assert checks(found) == found.total == optimum


@pytest.mark.parametrize("rules", TINY, ids=repr)
def test_the_guided_proof_proves_the_plain_search_optimum(rules):
    optimum = plain_optimum(rules, range(rules.size), 20)
    found = prove_optimum(rules, optimum)
    assert checks(found) == found.total == optimum


def test_the_guided_proof_is_smaller_than_the_counting_one_on_the_classic_game():
    rules = Rules(pegs=4, colors=6)
    guided, counted = prove_optimum(rules, 5625), prove(rules, target=5625)
    assert guided.total == counted.total == 5625
    assert guided.proof.header["nodes"] < counted.proof.header["nodes"]


def test_an_aim_above_the_optimum_ends_at_the_optimum():
    # as the classic game's least total within 5 guesses (5,626) is above its least (5,625)
    for rules, aim, optimum in ((Rules(pegs=3, colors=4), 207, 206), (Rules(pegs=4, colors=6), 5626, 5625)):
        found = prove_optimum(rules, aim)
        assert checks(found) == found.total == optimum


def test_a_guess_that_leaves_the_set_whole_is_left_to_the_checker():
    import numpy as np

    from mastermind.strategies.optimal.guided import _Guided
    from mastermind.strategies.optimal.lower import _Set
    from mastermind.strategies.optimal.symmetry import root_group

    prover = _Guided(Rules(pegs=3, colors=4), None)
    try:
        digits = prover.game.codes.digits
        S = np.array([i for i, row in enumerate(digits.tolist()) if 0 not in row], dtype=np.int64)
        node = _Set(S, (), root_group(3, 4), 0, 0)
        node.guesses = {0: prover.cells(node, 0, prover.game.group([]))}  # 111: every secret replies 0,0
        assert [len(c.S) for c in node.guesses[0].values()] == [len(S)] == [27]
        # no claim is too high for it: the checker skips a guess that leaves the set whole
        assert prover.raise_guess(node, 0, 10**6)
        assert prover.proof_node(node, 10**6).children == []
    finally:
        prover.run.pool.shutdown()


def test_a_guess_is_bounded_largest_cell_first_and_no_further_than_its_cap():
    import numpy as np

    from mastermind.strategies.optimal.guided import _Guided
    from mastermind.strategies.optimal.lower import FAIL, _Set
    from mastermind.strategies.optimal.symmetry import root_group

    prover = _Guided(Rules(pegs=4, colors=6), None)
    try:
        node = _Set(np.arange(1296, dtype=np.int64), (), root_group(4, 6), 0, 0)
        sym, g = prover.game.group([]), 8  # 1123
        whole = prover.cells(node, g, sym)
        counted = 1296 + sum(int(prover.lb[len(c.S)]) for c in whole.values())
        bounded = 1296 + sum(c.low for c in whole.values())
        assert counted < bounded
        by_size = sorted(whole, key=lambda f: (-len(whole[f].S), f))

        def first(k: int) -> dict[int, int]:  # the k largest cells bounded, the others counted
            counts = {f: int(prover.lb[len(whole[f].S)]) for f in whole}
            return {f: whole[f].low if i < k else counts[f] for i, f in enumerate(by_size)}

        for cap in (counted, counted + 1, (counted + bounded) // 2, bounded, bounded + 1, FAIL):
            cut = {f: c.low for f, c in prover.cells(node, g, sym, cap).items()}
            enough = [k for k in range(len(whole) + 1) if 1296 + sum(first(k).values()) >= cap]
            assert cut == first(enough[0] if enough else len(whole))
        # (a cap a little below the whole bound spares some cells)
        assert any(1296 + sum(first(k).values()) >= bounded - 20 for k in range(len(whole) - 1))
    finally:
        prover.run.pool.shutdown()


def test_the_roots_exact_costs_are_kept_as_each_is_found(tmp_path, monkeypatch):
    rules, path = Rules(pegs=4, colors=6), tmp_path / "proof.jsonl"
    calls: list[int] = []
    call = run_module._Run.kernel_call

    def counted(self, *args, **kwargs):
        if len(calls) == 2:
            self.interrupt()  # as Ctrl-C while the root's third cell is searched
        found = call(self, *args, **kwargs)
        calls.append(min(found[0], args[3]))  # (a search that fails its budget: it costs at least that)
        return found

    monkeypatch.setattr(run_module._Run, "kernel_call", counted)
    cut = prove_optimum(rules, 5625, workers=1, checkpoint=path)
    assert not cut.ended and checks(cut) == cut.total < 5625
    kept = [json.loads(line) for line in path.read_text().splitlines()[1:]]
    # the two costs found are on disk; the search stopped midway left nothing
    assert [(len(r["history"]), r["cost"]) for r in kept] == [(1, cost) for cost in calls[:2]]
    monkeypatch.setattr(run_module._Run, "kernel_call", call)
    assert (
        prove_optimum(rules, 5625, workers=1, checkpoint=path).proof.dumps()
        == prove_optimum(rules, 5625, workers=1).proof.dumps()
    )


def test_a_guided_proof_out_of_time_or_stopped_still_writes_a_proof_that_checks():
    import threading

    rules = Rules(pegs=4, colors=6)  # (a second's proof: the time is up long before it ends)
    stop = threading.Event()
    timed = prove_optimum(rules, 5625, seconds=0, stop=stop)
    assert not stop.is_set() and checks(timed) == timed.total < 5625  # out of time: no Ctrl-C
    stop.set()
    stopped = prove_optimum(rules, 5625, stop=stop)
    assert stop.is_set() and checks(stopped) == stopped.total < 5625


def test_worker_processes_write_the_same_proof_as_one_process(monkeypatch):
    rules = Rules(pegs=4, colors=6)
    alone = prove_optimum(rules, 5625, workers=1)
    handed: list[int] = []
    submit = proof_workers._Workers.submit

    def counted(self, node, g, claim):
        handed.append(len(node.history))
        submit(self, node, g, claim)

    monkeypatch.setattr(proof_workers._Workers, "submit", counted)
    shared = prove_optimum(rules, 5625, workers=2)
    assert (
        set(handed) == {lower_module.TASK_DEPTH - 1} and len(handed) > 5
    )  # (guesses at sets one guess deep)
    assert shared.proof.dumps() == alone.proof.dumps() and checks(shared) == 5625


def test_the_next_sets_tasks_are_sent_before_a_set_is_sealed(monkeypatch):
    rules = Rules(pegs=4, colors=6)
    events: list[tuple[str, int, int]] = []  # (what, the set, tasks sent and not answered)
    submit, seal = proof_workers._Workers.submit, guided_module._Guided.seal

    def sent(self, node, g, claim):
        events.append(("sent", id(node), self.running))
        submit(self, node, g, claim)

    def sealed(self, node, claim):
        if len(node.history) == lower_module.TASK_DEPTH - 1:
            events.append(("sealed", id(node), -1))
        seal(self, node, claim)

    monkeypatch.setattr(proof_workers._Workers, "submit", sent)
    monkeypatch.setattr(guided_module._Guided, "seal", sealed)
    assert checks(prove_optimum(rules, 5625, workers=2)) == 5625
    order = list(dict.fromkeys(s for what, s, _ in events if what == "sealed"))  # sets in the order sealed
    first_sent = {s: i for i, (what, s, _) in reversed(list(enumerate(events))) if what == "sent"}
    sealed_at = {s: i for i, (what, s, _) in enumerate(events) if what == "sealed"}
    pairs = zip(order, order[1:], strict=False)
    ahead = [b for a, b in pairs if b in first_sent and first_sent[b] < sealed_at[a]]
    assert len(ahead) >= 2  # a set's tasks went out while the set before it waited for its last answers
    # a set is opened only while fewer than two tasks per worker wait
    opened = [running for i, (what, s, running) in enumerate(events) if what == "sent" and first_sent[s] == i]
    assert max(opened) < 4


def test_the_prover_holds_the_sets_below_the_root_packed_and_writes_the_same_file(tmp_path):
    from mastermind.verify.files import write_file
    from mastermind.verify.proof import PackedNode

    rules = Rules(pegs=4, colors=6)
    found = prove_optimum(rules, 5625, workers=1)
    below = [child for _, _, child in found.proof.root.children]
    packed = [child for child in below if isinstance(child, PackedNode)]
    assert packed and all(isinstance(child, PackedNode) or not child.children for child in below)
    found.proof.write(tmp_path / "packed.proof.gz")
    read = ProofFile.read(tmp_path / "packed.proof.gz")  # (every node a plain one)
    assert not any(isinstance(child, PackedNode) for _, _, child in read.root.children)
    read.write(tmp_path / "read.proof.gz")
    assert (tmp_path / "packed.proof.gz").read_bytes() == (tmp_path / "read.proof.gz").read_bytes()
    assert found.proof.root.size() == read.root.size() == found.proof.header["nodes"]
    # unpacked, a packed line is the lines it was packed from
    assert [child.total for child in below] == [child.total for _, _, child in read.root.children]
    first = packed[0]
    plain = read.root.children[next(i for i, child in enumerate(below) if child is first)][2]
    assert ProofFile.of_total(rules, 1, first).dumps() == ProofFile.of_total(rules, 1, plain).dumps()
    assert ProofFile.loads(found.proof.dumps()).check().total == found.proof.check().total == 5625
    # written in pieces, the same bytes as written at once
    text = found.proof.dumps()
    write_file(tmp_path / "once.gz", text)
    write_file(tmp_path / "pieces.gz", iter(text.splitlines(keepends=True)))
    assert (tmp_path / "once.gz").read_bytes() == (tmp_path / "pieces.gz").read_bytes()
    assert gzip.decompress((tmp_path / "pieces.gz").read_bytes()).decode() == text


def test_a_proof_stopped_while_worker_processes_prove_sets_still_checks():
    import threading

    stop = threading.Event()
    seen: list[int] = []

    def progress(bound: int, aim: int | None) -> None:
        seen.append(bound)
        if len(seen) == 4:  # (the first root guess's second cell: its sets are with the workers)
            stop.set()

    found = prove_optimum(Rules(pegs=4, colors=7), 11228, stop=stop, progress=progress, workers=2)
    assert stop.is_set() and checks(found) == found.total < 11228


@pytest.mark.parametrize("how", ["fails", "dies"])
def test_a_worker_process_that_fails_or_dies_stops_the_proof_with_a_clear_error(monkeypatch, how):
    from mastermind.errors import ExecutorError, StrategyError

    raise_guess = guided_module._Guided.raise_guess

    def broken(self, node, g, claim, *args):
        if self.workers is None and len(node.history) >= lower_module.TASK_DEPTH:  # (in a worker)
            if how == "dies":
                os._exit(1)
            raise StrategyError("broken on purpose")
        return raise_guess(self, node, g, claim, *args)

    monkeypatch.setattr(guided_module._Guided, "raise_guess", broken)  # (the workers are forked with it)
    error = ExecutorError if how == "dies" else StrategyError
    words = "died (killed, or out of memory?)" if how == "dies" else "StrategyError: broken on purpose"
    with pytest.raises(error, match=re.escape(words)):
        prove_optimum(Rules(pegs=4, colors=6), 5625, workers=2)


@pytest.mark.parametrize("workers", [1, 2])
def test_a_guided_proof_stopped_resumes_from_its_checkpoint_to_the_same_proof(tmp_path, monkeypatch, workers):
    import threading

    rules, path = Rules(pegs=4, colors=6), tmp_path / "proof.jsonl"
    whole = prove_optimum(rules, 5625, workers=workers)
    stop, reports = threading.Event(), []

    def progress(bound: int, aim: int | None) -> None:
        reports.append(bound)
        if len(reports) == 4:  # (three cells of the first root guess proved, the sets below them too)
            stop.set()

    cut = prove_optimum(rules, 5625, stop=stop, progress=progress, workers=workers, checkpoint=path)
    assert checks(cut) == cut.total < 5625 and not cut.ended
    kept = path.read_text().splitlines()
    assert json.loads(kept[0]) == {"checkpoint": "mastermind-guided-proof", "game": game_dict(rules)}
    assert any(len(json.loads(line)["history"]) == lower_module.TASK_DEPTH for line in kept[1:])
    resumed = prove_optimum(rules, 5625, workers=workers, checkpoint=path)
    assert resumed.proof.dumps() == whole.proof.dumps() and resumed.ended
    records = path.read_text().splitlines()
    assert records[: len(kept)] == kept  # (appended to, and nothing recorded twice: what was kept was taken)
    answers = ("line", "low", "cost")
    keys = [
        tuple((k, str(v)) for k, v in sorted(json.loads(line).items()) if k not in answers)
        for line in records[1:]
    ]
    assert len(keys) == len(set(keys)) > len(kept)
    # once whole, the checkpoint holds every set below the root: only the root is bounded again
    deepened: list[int] = []
    deepen = guided_module._Guided.deepen

    def counted(self, node, cap):
        deepened.append(len(node.S))
        deepen(self, node, cap)

    monkeypatch.setattr(guided_module._Guided, "deepen", counted)
    again = prove_optimum(rules, 5625, workers=workers, checkpoint=path)
    assert again.proof.dumps() == whole.proof.dumps() and deepened == [1296]


def test_a_workers_records_reach_the_checkpoint_before_its_task_ends(tmp_path, monkeypatch):
    import threading

    stop, path, woke = threading.Event(), tmp_path / "proof.jsonl", tmp_path / "woke"
    sent, written = proof_book._Outbox.write, proof_book._Book.write
    seen: list[bool] = []

    def slow(self, record):  # a worker: its first set proved is sent, then it takes its time
        sent(self, record)
        if "line" in record:
            time.sleep(30)
            woke.touch()

    def kept(self, record):  # the prover: stopped once a worker's set is on disk
        written(self, record)
        if "line" in record and len(record["history"]) == lower_module.TASK_DEPTH:
            seen.append(woke.exists())
            stop.set()

    monkeypatch.setattr(proof_book._Outbox, "write", slow)
    monkeypatch.setattr(proof_book._Book, "write", kept)
    cut = prove_optimum(Rules(pegs=4, colors=6), 5625, stop=stop, workers=2, checkpoint=path)
    assert not cut.ended and checks(cut) == cut.total
    assert seen[0] is False  # on disk while the worker that proved it was still at its task
    lines = [json.loads(line) for line in path.read_text().splitlines()[1:]]
    assert any("line" in r and len(r["history"]) == lower_module.TASK_DEPTH for r in lines)


def test_a_stop_keeps_every_record_the_workers_had_sent(tmp_path, monkeypatch):
    import threading

    stop, path, log = threading.Event(), tmp_path / "proof.jsonl", tmp_path / "sent"
    main, seen = os.getpid(), []
    sent, deepen = proof_book._Outbox.write, guided_module._Guided.deepen

    def logged(self, record):  # a worker: each record sent, then noted
        sent(self, record)
        with open(log, "a") as f:
            f.write(json.dumps(record, sort_keys=True) + "\n")

    def busy(self, node, cap):  # the prover, busy with its third set while the workers send
        deepen(self, node, cap)
        if os.getpid() == main and len(node.history) == 1:
            seen.append(node)
            if len(seen) == 3:
                time.sleep(1.0)
                seen.extend(log.read_text().splitlines())  # what had been sent by then
                stop.set()

    monkeypatch.setattr(proof_book._Outbox, "write", logged)
    monkeypatch.setattr(guided_module._Guided, "deepen", busy)
    cut = prove_optimum(Rules(pegs=4, colors=6), 5625, stop=stop, workers=2, checkpoint=path)
    assert not cut.ended and checks(cut) == cut.total
    kept = {json.dumps(json.loads(line), sort_keys=True) for line in path.read_text().splitlines()[1:]}
    before = set(seen[3:])
    assert before and before <= kept


def test_a_guided_proofs_checkpoint_of_another_game_or_damaged_is_refused(tmp_path):
    from mastermind.errors import CheckpointError

    rules, path = Rules(pegs=4, colors=4), tmp_path / "proof.jsonl"
    prove_optimum(rules, 905, workers=1, checkpoint=path)
    kept = path.read_text().splitlines()
    with pytest.raises(CheckpointError, match=r"is the checkpoint of another game \(4 pegs, 4 colours\)"):
        prove_optimum(Rules(pegs=3, colors=4), 206, checkpoint=path)
    line = next(i for i, text in enumerate(kept) if '"line"' in text)
    record = json.loads(kept[line])
    record["low"] += 1  # a bound its line does not claim
    path.write_text("\n".join([*kept[:line], json.dumps(record), *kept[line + 1 :]]) + "\n")
    with pytest.raises(CheckpointError, match=f"line {line + 1}: damaged"):
        prove_optimum(rules, 905, checkpoint=path)
    record = json.loads(kept[line])
    record["line"] = "QUJDRA" + record["line"][6:]  # base64 still, its compressed text damaged
    path.write_text("\n".join([*kept[:line], json.dumps(record), *kept[line + 1 :]]) + "\n")
    with pytest.raises(CheckpointError, match=f"line {line + 1}: damaged"):
        prove_optimum(rules, 905, checkpoint=path)
    path.write_text("\n".join(kept) + "\n" + kept[-1][:30])  # a last line cut short by a kill: dropped
    assert prove_optimum(rules, 905, workers=1, checkpoint=path).total == 905
    assert path.read_text() == "\n".join(kept) + "\n"


def test_the_guided_proof_rises_guess_by_guess_at_the_root():
    seen: list[tuple[int, int | None]] = []
    found = prove_optimum(Rules(pegs=4, colors=5), progress=lambda bound, aim: seen.append((bound, aim)))
    bounds = [bound for bound, _ in seen]
    assert {aim for _, aim in seen} == {2463} and bounds == sorted(bounds) and len(set(bounds)) > 2
    assert bounds[-1] == found.total == 2463


def test_the_guided_proof_reports_while_the_sets_below_the_root_are_proved(monkeypatch):
    def count(seen):
        prove_optimum(Rules(pegs=4, colors=5), 2463, progress=lambda bound, aim: seen.append(bound))
        return seen

    quiet = count([])
    clock = iter(range(0, 10**9, 2))  # two seconds pass at every look: every set proved is reported
    monkeypatch.setattr(guided_module, "time", SimpleNamespace(perf_counter=lambda: next(clock)))
    beating = count([])
    assert len(beating) > len(quiet) and beating == sorted(beating) and beating[-1] == quiet[-1] == 2463


# -- the proof files of docs/results.md ----------------------------------------------------------

RESULTS_DIR = Path(__file__).resolve().parent.parent / "results"

#: docs/results.md, "Lower bounds anyone can check": what each proof file in results/ proves
LOWER = {
    "4x6": 5625,
    "4x7": 11228,
    "5x5": 13496,
    "4x8": 20471,
    "bulls-and-cows": 26274,
    "4x9": 34666,
    "5x6": 36721,
    "5x7": 81353,
    "4x10": 55632,
    "5x8": 167253,
    "6x6": 224577,
}


@pytest.mark.parametrize(
    "game",
    [
        "4x6",
        pytest.param("4x7", marks=pytest.mark.long),
        pytest.param("4x8", marks=pytest.mark.long),
        pytest.param("bulls-and-cows", marks=pytest.mark.long),
        pytest.param("4x9", marks=pytest.mark.long),  # (version 3: .xz)
        pytest.param("5x6", marks=pytest.mark.long),  # (version 3: .xz)
        pytest.param("5x7", marks=pytest.mark.long),
        pytest.param("5x5", marks=pytest.mark.long),
        pytest.param("4x10", marks=pytest.mark.long),
        pytest.param("5x8", marks=pytest.mark.long),
        pytest.param("6x6", marks=pytest.mark.long),
    ],
)
def test_the_lower_bound_proof_files_prove_their_totals(game):
    path = RESULTS_DIR / f"{game}-lower.proof.gz"
    found = ProofFile.read(path if path.exists() else path.with_suffix(".xz"))
    rules = Rules(pegs=4, colors=10, repeats=False) if game == "bulls-and-cows" else None
    if rules is None:
        pegs, colors = map(int, game.split("x"))
        rules = Rules(pegs=pegs, colors=colors)
    assert found.claim == "total" and found.rules == rules
    assert found.check(jobs=usable_cores()).total == found.header["total"] == LOWER[game]


@pytest.mark.parametrize("compact", [False, True], ids=["version 2", "compact"])
def test_a_guided_proof_killed_outright_resumes_from_its_checkpoint_to_the_same_proof(tmp_path, compact):
    # kill -9 in the middle of the build (and a record torn by it): the same call resumes
    rules, path = Rules(pegs=4, colors=6), tmp_path / "proof.jsonl"
    code = (
        "import sys; from mastermind import Rules; "
        "from mastermind.strategies.optimal.guided import prove_optimum; "
        "prove_optimum(Rules(pegs=4, colors=6), 5625, workers=1, checkpoint=sys.argv[1], "
        f"compact={compact})"
    )
    child = subprocess.Popen([sys.executable, "-c", code, str(path)])
    try:
        while child.poll() is None and (not path.exists() or path.read_text().count("\n") < 4):
            time.sleep(0.002)
        child.send_signal(signal.SIGKILL)
    finally:
        child.wait()
    assert child.returncode == -signal.SIGKILL  # (killed before it had finished)
    kept = path.read_text().count("\n")
    with open(path, "a") as f:
        f.write('{"history": [12')  # a record cut short by the kill
    resumed = prove_optimum(rules, 5625, workers=1, checkpoint=path, compact=compact)
    whole = prove_optimum(rules, 5625, workers=1, compact=compact)
    assert resumed.ended and resumed.proof.dumps() == whole.proof.dumps()
    assert path.read_text().count("\n") > kept >= 4 and '{"history": [12' not in path.read_text()
    assert any(('"compact"' in line) is compact for line in path.read_text().splitlines()[1:])


# -- compact proofs and checkpoints (version 3) -----------------------------------------------------


def test_a_compact_guided_proof_is_the_proof_in_version_2_less_its_leaves():
    rules = Rules(pegs=4, colors=6)
    wordy = prove_optimum(rules, 5625, workers=1)
    compact = prove_optimum(rules, 5625, workers=1, compact=True)
    assert compact.proof.version == 3 and compact.proof.dumps() == wordy.proof.dumps(3)
    assert compact.proof.check().total == checks(compact) == 5625
    assert compact.proof.header["nodes"] == 58 < wordy.proof.header["nodes"] == 2593
    with pytest.raises(ProofError, match="cannot be written in version 2: its leaves are left out"):
        compact.proof.dumps(2)


@pytest.mark.parametrize("workers", [1, 2])
def test_a_checkpoint_in_version_2_goes_on_in_version_3_and_not_back(tmp_path, workers):
    import threading

    from mastermind.errors import CheckpointError

    rules, path = Rules(pegs=4, colors=6), tmp_path / "proof.jsonl"
    stop, reports = threading.Event(), []

    def progress(bound: int, aim: int | None) -> None:
        reports.append(bound)
        if len(reports) == 4:
            stop.set()

    # records in version 2, as every build wrote them before version 3 (commit fcb9fe5 and older)
    prove_optimum(rules, 5625, stop=stop, progress=progress, workers=workers, checkpoint=path)
    old = path.read_text().splitlines()
    assert len(old) > 4 and not any('"compact"' in line for line in old)
    resumed = prove_optimum(rules, 5625, workers=workers, checkpoint=path, compact=True)
    assert resumed.ended and resumed.proof.dumps() == prove_optimum(rules, 5625, workers=1).proof.dumps(3)
    lines = path.read_text().splitlines()
    assert lines[: len(old)] == old and any('"compact"' in line for line in lines[len(old) :])
    assert prove_optimum(rules, 5625, workers=workers, checkpoint=path, compact=True).proof.dumps() == (
        resumed.proof.dumps()
    )
    with pytest.raises(CheckpointError, match="holds sets proved in version 3 .* as a compact proof"):
        prove_optimum(rules, 5625, workers=workers, checkpoint=path)


def test_a_compact_record_damaged_is_refused(tmp_path):
    from mastermind.errors import CheckpointError

    rules, path = Rules(pegs=4, colors=4), tmp_path / "proof.jsonl"
    prove_optimum(rules, 905, workers=1, checkpoint=path, compact=True)
    kept = path.read_text().splitlines()
    line = next(i for i, text in enumerate(kept) if '"compact"' in text)
    for damage in ({"low": 1}, {"compact": "QUJDRA" + json.loads(kept[line])["compact"][6:]}):
        record = {**json.loads(kept[line]), **damage}
        path.write_text("\n".join([*kept[:line], json.dumps(record), *kept[line + 1 :]]) + "\n")
        with pytest.raises(CheckpointError, match=f"line {line + 1}: damaged"):
            prove_optimum(rules, 905, checkpoint=path, compact=True)


UNFINISHED = sorted((RESULTS_DIR / "unfinished").glob("*.checkpoint.jsonl.xz"))


@pytest.mark.parametrize("kept", UNFINISHED, ids=lambda path: path.name.split(".")[0])
def test_an_unfinished_proof_s_checkpoint_reads_back_as_a_compact_build_of_its_game(kept, tmp_path):
    """results/unfinished holds the checkpoints of guided proofs between sittings (results/README.md):
    the next sitting resumes from each, so every record must read back as a compact build of its
    game (and guess limit, from its name: 4x10-max7-lower is 4x10 within 7) reads it."""
    import lzma
    import re

    from mastermind.strategies.optimal.proof_book import _Book
    from mastermind.verify.proof import COMPACT

    pegs, colors, within = re.fullmatch(r"(\d+)x(\d+)(?:-max(\d+))?-lower", kept.name.split(".")[0]).groups()
    path = tmp_path / "checkpoint.jsonl"
    path.write_bytes(lzma.decompress(kept.read_bytes()))
    records = path.read_text().count("\n") - 1  # every line but the header
    limit = None if within is None else int(within)
    # a record it cannot read, or a header of another game or limit: CheckpointError
    book = _Book(path, Rules(pegs=int(pegs), colors=int(colors)), compact=True, within=limit)
    assert 0 < len(book.sets) + len(book.costs) <= records  # (a set proved again after a kill: once)
    if book.sets:  # (the root's exact costs are all found first: until then, costs alone)
        assert any(proof.version == COMPACT for _, proof in book.sets.values())  # (a leaf keeps version 2)


def test_the_unfinished_checkpoints_are_found():
    # (an empty glob would skip the test above, not fail it)
    assert {"5x7-lower"} <= {path.name.split(".")[0] for path in UNFINISHED}
