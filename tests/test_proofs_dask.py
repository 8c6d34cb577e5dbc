"""Proofs on a Dask cluster: a guided proof's sets proved as tasks there (the same lines, the same
checkpoint, as on the prover's own processes), and a proof file's check cut into parts, a task
each (the claim said once every part has passed, a fault refused in the local check's words)."""

import gzip
import json
import os
import signal
import sys
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from mastermind.cli import cli
from mastermind.core.rules import Rules
from mastermind.research.runner import DaskExecutor
from mastermind.research.runner import proofs as dask_proofs
from mastermind.strategies.optimal.guided import prove_optimum
from mastermind.verify.check import scan
from mastermind.verify.parts import Parts
from terminal import group_is_gone, started

RESULTS = Path(__file__).resolve().parent.parent / "results"
CLASSIC = RESULTS / "4x6-lower.proof.gz"  # 2,389 lines: a few seconds in plain Python
CLAIM = "every tree for 4 pegs, 6 colours, repeats allowed takes at least 5,625 guesses in all"


def run(*args):
    result = CliRunner().invoke(cli, [str(a) for a in args])
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.slow
def test_a_guided_proof_on_a_cluster_is_the_proof_made_here_and_its_checkpoint_resumes(tmp_path):
    rules, journal = Rules(pegs=4, colors=5), tmp_path / "4x5.jsonl"
    here = prove_optimum(rules, 2463, workers=1, compact=True)
    with DaskExecutor(workers=2) as dask:
        there = dask_proofs.prove_optimum_on(dask, rules, 2463, compact=True, checkpoint=journal)
    assert there.ended and there.total == 2463
    assert there.proof.dumps() == here.proof.dumps()  # line for line
    there.proof.check()
    # what the tasks proved was written to the checkpoint here, as the prover's own processes
    # write it (in another order), and a proof started again takes it from there
    forked = tmp_path / "forked.jsonl"
    prove_optimum(rules, 2463, workers=2, compact=True, checkpoint=forked)
    assert sorted(journal.read_text().splitlines()) == sorted(forked.read_text().splitlines())
    again = prove_optimum(rules, 2463, workers=1, compact=True, checkpoint=journal)
    assert again.proof.dumps() == here.proof.dumps() and again.deepened < here.deepened


@pytest.mark.slow
def test_a_proof_within_a_guess_limit_on_a_cluster_is_the_proof_made_here(tmp_path):
    # (the tasks' provers are made within the limit too: without it, they would prove the
    # classic's cells to what they cost whatever the limit, and the root would stop at 5,625)
    rules = Rules(pegs=4, colors=6)
    here = prove_optimum(rules, 5626, workers=1, compact=True, within=5)
    with DaskExecutor(workers=2) as dask:
        there = dask_proofs.prove_optimum_on(dask, rules, 5626, compact=True, within=5)
    assert there.ended and there.total == 5626
    assert there.proof.dumps() == here.proof.dumps()
    assert there.proof.check().guesses == 5


@pytest.mark.slow
def test_evaluate_proves_on_the_cluster_given_proof_and_the_dask_executor(tmp_path, monkeypatch):
    sent, asked = [], []
    submit, costs = dask_proofs.DaskFarm.submit, dask_proofs.DaskFarm.costs

    def counted(farm, *task):
        sent.append(task)
        submit(farm, *task)

    def searched(farm, cells, keep):
        asked.extend(cells)
        return costs(farm, cells, keep)

    monkeypatch.setattr(dask_proofs.DaskFarm, "submit", counted)
    monkeypatch.setattr(dask_proofs.DaskFarm, "costs", searched)
    path = tmp_path / "4x5.proof.xz"
    game = ("-s", "optimal", "-p", "4", "-c", "5", "--budget", "1m", "--no-history")
    code, out, err = run("evaluate", *game, "--proof", path, "--executor", "dask", "--workers", "2")
    assert code == 0, err
    assert sent and asked  # the sets two guesses deep, and the root's cells' costs, were tasks there
    assert f"proof file: {path}: every tree costs at least 2,463" in out
    code, out, _ = run("verify", path)
    assert code == 0 and "at least 2,463 guesses in all" in out
    code, _, err = run("evaluate", *game, "--executor", "dask", "--workers", "2")  # no proof: refused
    assert code == 2 and "--budget searches in this process" in err


@pytest.mark.slow
def test_a_proof_is_checked_whole_on_a_local_cluster_a_part_per_task():
    code, out, err = run("verify", CLASSIC, "--executor", "dask", "--workers", "2")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[-1] == f"proof checked (2,389 nodes, plain Python): {CLAIM}"
    passed = {int(line.split()[1]): line for line in lines if line.startswith("part ")}
    assert sorted(passed) == [1, 2, 3, 4]  # two parts per worker
    own = sum(int(line.split("(")[1].split()[0].replace(",", "")) for line in passed.values())
    assert own + scan(CLASSIC).cut(4).shared == 2_389  # every node checked, each part's once

    code, out, _ = run("verify", CLASSIC, "--executor", "dask", "--workers", "2", "--part", "3/5", "--json")
    said = json.loads(out)
    assert code == 0 and said["passed"] and not said["verified"] and said["part"] == "3/5"
    assert said["nodes"] == scan(CLASSIC).nodes_checked(Parts(3, 3, 5))


@pytest.mark.slow
def test_a_damaged_proof_is_refused_on_the_cluster_in_the_words_of_the_local_check(tmp_path):
    lines = gzip.decompress(CLASSIC.read_bytes()).decode().split("\n")
    deepest = max(range(3, len(lines) - 2), key=lambda i: (len(lines[i]) - len(lines[i].lstrip()), i))
    indent = " " * (len(lines[deepest]) - len(lines[deepest].lstrip()))
    guess, _, rest = lines[deepest].split(maxsplit=2)
    lines[deepest] = f"{indent}{guess} 4,0 {rest}"  # the win as a reply: no secret gives it and goes on
    path = tmp_path / "damaged.proof"
    path.write_text("\n".join(lines))
    local = run("verify", path, "--workers", "1")
    on_dask = run("verify", path, "--executor", "dask", "--workers", "2")
    assert local[0] == on_dask[0] == 2
    assert on_dask[2] == local[2]  # one line, naming the file as given (not the worker's copy)
    assert on_dask[2].count("\n") == 1 and str(path) in on_dask[2] and f"line {deepest + 1}" in on_dask[2]


@pytest.mark.parametrize(
    "args, words",
    [
        ((CLASSIC, "--scheduler", "tcp://127.0.0.1:9"), "--scheduler goes with --executor dask"),
        (
            (CLASSIC, "--executor", "dask", "--scheduler", "tcp://127.0.0.1:9", "--workers", "2"),
            "has its own workers",
        ),
        ((CLASSIC, "--executor", "dask", "--compact", "out.xz"), "not with --executor dask"),
        ((RESULTS / "4x6-optimal.tree.gz", "--executor", "dask"), "is a tree file, replayed here"),
    ],
)
def test_cluster_options_that_do_not_fit_are_refused_in_one_line(args, words):
    code, out, err = run("verify", *args)
    assert code == 2 and out == ""
    assert words in err and err.count("\n") == 1


@pytest.mark.slow
def test_ctrl_c_stops_a_check_on_a_local_cluster_and_its_workers():
    proof = RESULTS / "4x7-lower.proof.gz"  # 81,426 lines: over a minute of CPU in 4 parts
    command = ["verify", str(proof), "--executor", "dask", "--workers", "2"]
    proc = started([sys.executable, "-m", "mastermind.cli", *command])
    assert proc.stdout is not None
    first = proc.stdout.readline()  # the first part passed: the cluster is at work on the others
    assert first.startswith("part "), proc.communicate()
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "proof checked" not in out and "interrupted" in err and "Traceback" not in err
    assert group_is_gone(proc.pid)  # the workers and their nannies are gone too


@pytest.fixture
def threaded():
    """A cluster in this process whose one worker runs two tasks at once, in two threads (as
    ``dask worker`` does, one thread a core, unless told otherwise); the test's own patches
    reach its tasks."""
    from dask.distributed import LocalCluster

    cluster = LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=":0")
    with cluster, DaskExecutor(cluster.scheduler_address) as dask:
        yield dask


@pytest.mark.slow
def test_a_worker_running_tasks_side_by_side_gives_each_thread_its_own_prover(threaded, tmp_path):
    # (one prover shared by the threads, each task setting its own book on it, would send what
    # one task proved in another's answer, or in none if that one had ended)
    rules = Rules(pegs=4, colors=5)
    here = prove_optimum(rules, 2463, workers=1, compact=True)
    journal, forked = tmp_path / "4x5.jsonl", tmp_path / "forked.jsonl"
    there = dask_proofs.prove_optimum_on(threaded, rules, 2463, compact=True, checkpoint=journal)
    assert there.ended and there.proof.dumps() == here.proof.dumps()
    prove_optimum(rules, 2463, workers=2, compact=True, checkpoint=forked)
    assert sorted(journal.read_text().splitlines()) == sorted(forked.read_text().splitlines())
    again = prove_optimum(rules, 2463, workers=1, compact=True, checkpoint=journal)
    assert again.proof.dumps() == here.proof.dumps() and again.deepened < here.deepened


@pytest.mark.slow
def test_a_build_stopped_on_a_cluster_keeps_what_its_running_tasks_proved(threaded, tmp_path, monkeypatch):
    from mastermind.strategies.optimal import proof_book

    rules, journal, stop = Rules(pegs=4, colors=5), tmp_path / "4x5.jsonl", threading.Event()
    first: list[dict] = []
    write = proof_book._Outbox.write

    def stopped_after_the_first(outbox, record):  # (on a worker: in this process, in its thread)
        write(outbox, record)
        if not first:
            first.append(record)
            stop.set()  # as Ctrl-C: the build stops while this task is still at work
            ends = time.monotonic() + 30
            while not getattr(dask_proofs, "_STOPPED", ()) and time.monotonic() < ends:
                time.sleep(0.01)  # (until the stop reaches the workers: then this task stops too)

    monkeypatch.setattr(proof_book._Outbox, "write", stopped_after_the_first)
    stopped = dask_proofs.prove_optimum_on(threaded, rules, 2463, compact=True, checkpoint=journal, stop=stop)
    assert not stopped.ended and stopped.total < 2463
    kept = [json.loads(line) for line in journal.read_text().splitlines()[1:]]
    assert first and first[0] in kept  # sent back by the task as it stopped, and written here
    monkeypatch.undo()
    # the workers' provers were stopped: the next build on the cluster makes new ones, and takes
    # what the stopped one kept
    here = prove_optimum(rules, 2463, workers=1, compact=True)
    again = dask_proofs.prove_optimum_on(threaded, rules, 2463, compact=True, checkpoint=journal)
    assert again.ended and again.proof.dumps() == here.proof.dumps()
