"""The worst-case decision search on several processes (strategies/optimal/worst_in_pieces.py): the
same answers as the plain search, with a tree or a proof that the plain-Python checkers accept,
whichever worker finishes first; and the search with a width, which may find a yes but never
claims a no."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from mastermind.cli import cli
from mastermind.core.rules import Rules
from mastermind.errors import CheckpointError
from mastermind.strategies.optimal.worst import WorstSearch
from mastermind.strategies.optimal.worst_in_pieces import WorstSearchInPieces
from mastermind.verify.proof import ProofFile
from terminal import group_is_gone, started


def run(*args):
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize(
    "pegs,colors,repeats,window", [(4, 5, True, 1), (4, 5, True, 3), (3, 7, True, 2), (4, 6, False, 2)]
)
def test_the_split_search_finds_the_plain_searchs_least_with_a_tree_and_a_proof_that_check(
    pegs, colors, repeats, window
):
    rules = Rules(pegs=pegs, colors=colors, repeats=repeats)
    plain, plain_below = WorstSearch(rules).least()
    # small=8: sets of more than 8 secrets two guesses down are searched on this process, so
    # that these small games go through every part of the split (threads, tasks, withdrawals)
    best, below = WorstSearchInPieces(rules, workers=2, small=8, window=window).least()
    assert best.guesses == plain.guesses
    assert best.tree.verify().max <= best.guesses
    assert below.guesses == plain_below.guesses == best.guesses - 1
    assert ProofFile.loads(below.proof.dumps()).check().guesses == below.guesses


def test_a_no_searched_in_parts_at_every_depth_is_a_proof_that_checks():
    # 4 pegs 7 colours within 5: no (it needs 6); its proof has many levels
    rules = Rules(pegs=4, colors=7)
    found = WorstSearchInPieces(rules, workers=2, split_depth=3, small=20).decide(5)
    assert not found.possible and found.proof is not None and found.nodes > 1
    assert ProofFile.loads(found.proof.dumps()).check().guesses == 5


@pytest.mark.parametrize("pegs,colors,seeded_by", [(4, 6, "entropy"), (4, 5, "most-parts"), (4, 7, "knuth")])
def test_the_split_search_mends_a_seed_and_gives_the_plain_searchs_answers(pegs, colors, seeded_by):
    from mastermind.strategies.optimal.worst import seed_of
    from test_worst import _seed

    rules = Rules(pegs=pegs, colors=colors)
    seed = seed_of(_seed(rules, seeded_by), rules)
    plain, plain_below = WorstSearch(rules).least()
    # the workers are sent the seed's subtrees: a new copy with each set
    best, below = WorstSearchInPieces(rules, workers=2, small=8).least(seed=seed)
    assert best.guesses == plain.guesses and best.tree.verify().max <= best.guesses
    assert best.tree.root.guess == seed.guess  # its first guess kept: mended below it
    assert ProofFile.loads(below.proof.dumps()).check().guesses == plain_below.guesses


def test_a_width_finds_a_yes_quickly_and_never_claims_a_no():
    rules = Rules(pegs=4, colors=7)
    yes = WorstSearch(rules, width=3).decide(6)
    assert yes.possible and yes.tree.verify().max <= 6
    no = WorstSearch(rules, width=3).decide(5)
    assert not no.possible and no.proof is None  # some guesses untried: nothing is proved
    assert not WorstSearchInPieces(rules, workers=2, small=8, width=3).decide(5).proof


def test_worst_on_workers_from_the_command_line(tmp_path):
    tree, proof = tmp_path / "t.gz", tmp_path / "p.gz"
    code, out, err = run(
        "worst", "-p", 4, "-c", 5, "--workers", 2, "--save", tree, "--proof", proof, "--json"
    )
    assert code == 0, err
    result = json.loads(out)
    assert result["least"] == 5 and result["proof"]["guesses"] == 4
    code, out, _ = run("verify", proof, "--json")
    assert code == 0 and json.loads(out)["verified"] is True
    code, out, _ = run("verify", tree, "--json")
    assert code == 0 and json.loads(out)["max"] == 5


def test_worst_with_a_width_says_a_no_is_no_proof_and_refuses_what_would_need_one():
    code, out, err = run("worst", "-p", 4, "-c", 7, "--max-guesses", 5, "--width", 3)
    assert code == 0, err
    assert "not a proof" in out and "no tree finds" not in out
    code, out, _ = run("worst", "-p", 4, "-c", 7, "--max-guesses", 5, "--width", 3, "--json")
    assert json.loads(out)["possible"] is None and json.loads(out)["width"] == 3
    code, out, _ = run("worst", "-p", 4, "-c", 7, "--max-guesses", 6, "--width", 3, "--json")
    assert json.loads(out)["possible"] is True
    for bad in (
        ("--width", 3),
        ("--max-guesses", 5, "--width", 3, "--proof", "p.gz"),
        ("--workers", 0),
        ("--width", "x", "--max-guesses", 5),
    ):
        code, _, err = run("worst", "-p", 4, "-c", 7, *bad)
        assert code == 2 and len(err.strip().splitlines()) == 1, err


@pytest.mark.slow
def test_ctrl_c_stops_the_split_search_and_its_workers(tmp_path):
    # 4x9 within 6 takes minutes of search: interrupted once its workers are running
    proc = started(
        [
            sys.executable,
            "-m",
            "mastermind.cli",
            "worst",
            "-p",
            "4",
            "-c",
            "9",
            "--max-guesses",
            "6",
            "--workers",
            "2",
        ],
    )
    deadline = time.monotonic() + 240  # a bound for starting on a loaded machine, not a timing
    while proc.poll() is None and time.monotonic() < deadline and len(_children(proc.pid)) < 2:
        time.sleep(0.1)
    assert proc.poll() is None, proc.communicate()
    time.sleep(1)
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert out == "" and "interrupted" in err and "Traceback" not in err
    assert group_is_gone(proc.pid), "a worker outlived the search"


def _children(pid):
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return f.read().split()
    except OSError:
        return []


@pytest.mark.slow
def test_a_worker_killed_mid_search_stops_the_search_with_one_clear_error():
    import threading

    from mastermind.errors import StrategyError

    search = WorstSearchInPieces(Rules(pegs=4, colors=9), workers=2)  # within 6: a minute of search

    def kill_one() -> None:
        deadline = time.monotonic() + 120
        while search._pool is None and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(1)
        os.kill(search._pool.pool.processes[0].pid, signal.SIGKILL)

    threading.Thread(target=kill_one, daemon=True).start()
    with pytest.raises(StrategyError, match="ended unexpectedly"):
        search.decide(6)


def test_a_checkpoint_resumes_the_search_with_the_same_answer_and_a_proof_that_checks(tmp_path):
    rules, path = Rules(pegs=4, colors=7), tmp_path / "run.jsonl"
    first = WorstSearchInPieces(rules, workers=2, small=20, checkpoint=path).decide(5)
    recorded = path.read_text().splitlines()
    assert json.loads(recorded[0])["game"] == {"pegs": 4, "colors": 7, "repeats": True, "blank": False}
    assert len(recorded) > 2
    again = WorstSearchInPieces(rules, workers=2, small=20, checkpoint=path)
    assert again.resumed == len(recorded) - 1
    second = again.decide(5)
    assert not first.possible and not second.possible and second.nodes < first.nodes
    assert ProofFile.loads(second.proof.dumps()).check().guesses == 5
    # a last line cut short by a kill is dropped from the file and its set decided again
    path.write_text("\n".join(recorded[:-1]) + "\n" + recorded[-1][: len(recorded[-1]) // 2])
    assert WorstSearchInPieces(rules, workers=1, small=20, checkpoint=path).resumed == len(recorded) - 2
    assert path.read_text() == "\n".join(recorded[:-1]) + "\n"
    resumed = WorstSearchInPieces(rules, workers=1, small=20, checkpoint=path)
    assert not resumed.decide(5).possible and resumed.resumed == len(recorded) - 2
    lines = len(path.read_text().splitlines())  # what was decided again is appended, readable
    assert WorstSearchInPieces(rules, workers=1, small=20, checkpoint=path).resumed == lines - 1
    # damage elsewhere is refused, and so is a record that does not hold what it claims
    path.write_text("\n".join([recorded[0], recorded[1][:50], *recorded[2:]]) + "\n")
    with pytest.raises(CheckpointError, match="line 2: damaged"):
        WorstSearchInPieces(rules, workers=1, small=20, checkpoint=path)
    line = next(i for i, text in enumerate(recorded) if '"possible": false' in text)
    wrong = recorded[line].replace('"k": ', '"k": 1', 1)  # a proof for another number of guesses
    path.write_text("\n".join([*recorded[:line], wrong, *recorded[line + 1 :]]) + "\n")
    with pytest.raises(CheckpointError, match=f"line {line + 1}: damaged"):
        WorstSearchInPieces(rules, workers=1, small=20, checkpoint=path)
    path.write_text("\n".join(recorded) + "\n")
    with pytest.raises(CheckpointError, match="another game"):
        WorstSearchInPieces(Rules(pegs=4, colors=6), workers=1, checkpoint=path)
    with pytest.raises(CheckpointError, match="width"):
        WorstSearchInPieces(rules, workers=1, checkpoint=path, width=3)


def test_worst_resumes_from_its_checkpoint_and_refuses_a_foreign_one_in_one_line(tmp_path):
    path = tmp_path / "run.jsonl"
    code, out, err = run("worst", "-p", 4, "-c", 7, "--max-guesses", 5, "--checkpoint", path, "--json")
    assert code == 0 and json.loads(out)["possible"] is False, err
    code, out, err = run("worst", "-p", 4, "-c", 7, "--max-guesses", 5, "--checkpoint", path, "--json")
    assert code == 0 and json.loads(out)["possible"] is False
    assert f"resuming from {path}: " in err
    code, out, _ = run("worst", "-p", 4, "-c", 7, "--checkpoint", path)  # every set from the file
    assert code == 0 and "within 5 guesses (a proof of" in out and "counting alone" not in out
    code, _, err = run("worst", "-p", 4, "-c", 8, "--max-guesses", 5, "--checkpoint", path)
    assert code == 2 and "another game" in err and len(err.strip().splitlines()) == 1
    (tmp_path / "junk").write_text("not a checkpoint\n")
    for bad in (
        ("--checkpoint", tmp_path / "junk"),
        ("--checkpoint", "/proc/no-file"),
        ("--proof", "/proc/no-file"),
    ):
        code, _, err = run("worst", "-p", 4, "-c", 7, *bad)
        assert code == 2 and len(err.strip().splitlines()) == 1, err
        assert "not a checkpoint" in err or "cannot write" in err


@pytest.mark.slow
def test_workers_end_when_the_calling_process_is_killed_and_the_run_resumes(tmp_path):
    path = tmp_path / "run.jsonl"
    command = [
        sys.executable,
        "-m",
        "mastermind.cli",
        "worst",
        "-p",
        "5",
        "-c",
        "6",
        "--max-guesses",
        "5",
        "--workers",
        "2",
        "--checkpoint",
        str(path),
    ]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    deadline = time.monotonic() + 240  # a bound for a loaded machine, not a timing
    while proc.poll() is None and time.monotonic() < deadline and _lines(path) < 3:
        time.sleep(0.1)
    assert proc.poll() is None and len(_children(proc.pid)) >= 2
    proc.kill()  # SIGKILL: no handler runs, the workers are not told
    proc.wait(timeout=60)
    assert group_is_gone(proc.pid), "a worker outlived the process that started it"
    again = subprocess.run([*command, "--json"], capture_output=True, text=True, timeout=600, check=False)
    assert again.returncode == 0 and json.loads(again.stdout)["possible"] is False, again.stderr
    assert f"resuming from {path}: " in again.stderr


def _lines(path):
    return path.read_text().count("\n") if path.exists() else 0


def test_with_first_guesses_given_the_split_search_reports_its_progress_as_the_plain_one_does():
    rules, reports = Rules(pegs=4, colors=7), {}
    for name, search in (
        ("plain", WorstSearch),
        ("split", lambda r, progress: WorstSearchInPieces(r, workers=2, small=20, progress=progress)),
    ):
        seen = reports[name] = []
        assert not search(rules, progress=seen.append).decide(5, first=[1, 8]).possible  # 1112, 1122
    # 1112 is refuted at its cell of reply 0,0 guess by guess (half of the work: two first
    # guesses), then 1122 at once: it shares that cell, known by then
    for seen in reports.values():
        assert len(seen) > 5 and seen == sorted(seen) and 0.5 in seen and seen[-1] == 1.0
        # the cell's guesses refuted one by one: 625 of the 2,400 secrets in 1112's cells, so up
        # to a quarter of its half
        assert 0.1 < max(s for s in seen if s < 0.5) <= 0.5 * 625 / 2400


def test_the_plain_search_reports_a_refuted_guess_done_at_once():
    # 4x7 within 5: each of the 5 root guesses refuted in turn; the last one's refutation is the
    # end of the search, and the bar says so (it used to stop at 0.8, waiting for a next guess)
    seen: list[float] = []
    assert not WorstSearch(Rules(pegs=4, colors=7), progress=seen.append).decide(5).possible
    assert seen == sorted(seen) and seen[-1] == 1.0
    assert all(any(abs(s - done) < 1e-9 for s in seen) for done in (0.2, 0.4, 0.6, 0.8))  # each guess


@pytest.mark.parametrize("first", [None, [8]], ids=["root", "first 1122"])
def test_a_search_that_finds_a_tree_moves_its_progress_through_the_cells_and_never_back(first):
    # the first guess tried works: its cells, taken in turn, move the bar (it used to sit at 0
    # in the plain search, and to start again at each cell with the first guesses given)
    rules = Rules(pegs=4, colors=7)
    for search in (
        WorstSearch(rules, progress=(plain := []).append),
        WorstSearchInPieces(rules, workers=2, small=20, progress=(split := []).append),
    ):
        assert search.decide(6, first=first).possible
    for seen in (plain, split):
        assert seen == sorted(seen) and len(set(seen)) > 5, seen[:20]
