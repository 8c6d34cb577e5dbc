"""evaluate and compare with --executor, --checkpoint; Ctrl-C through the real entry point."""

import json
import os
import re
import signal
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from mastermind.cli import cli
from mastermind.runtime.install import install_command
from terminal import group_is_gone, started


def run(*args):
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_without_dask_the_dask_executor_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "dask.distributed", None)  # as if the extra were not installed
    code, out, err = run("evaluate", "--executor", "dask")
    assert code == 2 and out == ""
    assert install_command("distributed") in err and "Traceback" not in err


def test_cluster_options_need_the_dask_executor():
    code, _, err = run("evaluate", "--workers", "2")
    assert code == 2 and "--executor dask" in err
    code, _, err = run("evaluate", "--executor", "dask", "--scheduler", "tcp://127.0.0.1:1", "--workers", "2")
    assert code == 2 and "--workers" in err
    code, _, err = run("evaluate", "-s", "random", "--checkpoint", "x.jsonl")
    assert code == 2 and "randomised" in err


def test_evaluate_resumes_from_its_checkpoint(tmp_path):
    path = tmp_path / "knuth.jsonl"
    # --no-history: the second run must come from the checkpoint, not from the history's stored run
    args = ["evaluate", "--checkpoint", str(path), "--unit-size", "64", "--json", "--no-history"]
    code, out, err = run(*args)
    assert code == 0 and err == ""
    first = json.loads(out)
    assert (first["first_guess"], first["total"]) == ("1122", 5801)
    lines = path.read_text().splitlines()
    assert len(lines) > 20  # the header, the guesses chosen while splitting, the subtrees
    path.write_text("\n".join(lines[: len(lines) // 2]) + "\n")  # as if stopped half way
    code, out, err = run(*args)
    assert code == 0 and "resuming from" in err
    again = json.loads(out)
    assert again["distribution"] == first["distribution"] and again["first_guess"] == "1122"


def test_a_damaged_checkpoint_is_one_line_and_exit_2(tmp_path):
    path = tmp_path / "knuth.jsonl"
    path.write_text('{"mastermind-checkpoint": 1, "run": {"strategy": "knuth"}}\n')
    code, out, err = run("evaluate", "--checkpoint", str(path), "--unit-size", "64")
    assert code == 2 and out == "" and "belongs to another run" in err and len(err.splitlines()) == 1


def test_compare_keeps_one_checkpoint_per_strategy(tmp_path):
    folder = tmp_path / "checkpoints"  # (the test's history database is in tmp_path)
    folder.mkdir()
    args = ["compare", "--strategies", "knuth,most-parts", "--checkpoint", str(folder), "--unit-size", "64"]
    code, out, err = run(*args, "--json")
    assert code == 0, err
    assert [s["total"] for s in json.loads(out)] == [5801, 5668]
    assert sorted(p.name.split("-4x6-")[0] for p in folder.iterdir()) == ["knuth", "most-parts"]


def test_smaller_pieces_of_the_optimal_search_are_checkpointed_and_resumed_at_any_size(tmp_path, monkeypatch):
    monkeypatch.setenv("MASTERMIND_CACHE_DIR", str(tmp_path / "trees"))
    game = ["evaluate", "-s", "optimal", "-p", "4", "-c", "5", "--json", "--no-history", "--checkpoint"]
    results, lines = [], []
    for name, size in (("default", []), ("small", ["--unit-size", "50"])):
        path = tmp_path / f"{name}.jsonl"
        code, out, err = run(*game, str(path), *size)
        assert code == 0, err
        results.append(json.loads(out))
        lines.append(path.read_text().splitlines())
        for tree in (tmp_path / "trees" / "optimal").iterdir():
            tree.unlink()
    assert [r["total"] for r in results] == [2463, 2463]
    assert len(lines[1]) > 2 * len(lines[0])  # more pieces, each recorded as it finishes
    path = tmp_path / "small.jsonl"
    path.write_text("\n".join(lines[1][: len(lines[1]) // 2]) + "\n")  # stopped halfway
    code, out, err = run(*game, str(path))  # resumed with the default piece size
    assert code == 0 and "resuming from" in err, err
    assert json.loads(out)["distribution"] == results[0]["distribution"]


def test_off_a_terminal_a_long_run_writes_its_progress_in_lines(tmp_path, monkeypatch):
    from mastermind.cli import progress

    monkeypatch.setenv("MASTERMIND_CACHE_DIR", str(tmp_path / "trees"))
    monkeypatch.setattr(progress, "LOG_EVERY", 0.0)  # a line at each report, as a long run every minute
    game = ["-p", "4", "-c", "5", "--json", "--no-history", "--checkpoint"]
    code, out, err = run("evaluate", "-s", "optimal", *game, str(tmp_path / "optimal.jsonl"))
    assert code == 0 and json.loads(out)["total"] == 2463
    lines = err.splitlines()
    assert lines and all(line.startswith("optimal on 4x5: searching, ") for line in lines), err
    # 4x5's first guesses: 1111, 1112, 1122, 1123 and 1234, each searched or ruled out by its bound
    assert "best total so far 2,463, first guesses settled 5 of 5" in lines[-1] and " in)" in lines[-1]
    # the least total proved so far (once the best tree reaches it, the best total says it all)
    proved = [int(m.replace(",", "")) for m in re.findall(r"proved at least ([\d,]+)", err)]
    assert proved and proved == sorted(proved) and proved[-1] < 2463, err
    code, out, err = run("evaluate", "-s", "knuth", *game, str(tmp_path / "knuth.jsonl"), "--unit-size", "50")
    assert code == 0 and "of 625 secrets, subtrees" in err.splitlines()[-1]
    code, out, err = run("evaluate", "-s", "optimal", "-p", "4", "-c", "6", "--budget", "1m", "--no-history")
    assert code == 0 and "optimal on 4x6: lower bound " in err and ", best tree 5,625 (" in err


def test_a_short_run_off_a_terminal_writes_no_progress(tmp_path, monkeypatch):
    monkeypatch.setenv("MASTERMIND_CACHE_DIR", str(tmp_path / "trees"))
    code, out, err = run(
        "evaluate",
        "-s",
        "optimal",
        "-p",
        "4",
        "-c",
        "5",
        "--json",
        "--no-history",
        "--checkpoint",
        str(tmp_path / "optimal.jsonl"),
    )
    assert code == 0 and err == ""


@pytest.mark.slow
def test_compare_on_a_local_dask_cluster():
    code, out, err = run(
        "compare",
        "--strategies",
        "knuth,entropy",
        "--executor",
        "dask",
        "--workers",
        "2",
        "--unit-size",
        "100",
        "--json",
    )
    assert code == 0, err
    assert [(s["first_guess"], s["total"]) for s in json.loads(out)] == [("1122", 5801), ("1234", 5722)]


def test_optimal_resumes_its_search_from_a_checkpoint(tmp_path, monkeypatch):
    cache = tmp_path / "trees"
    monkeypatch.setenv("MASTERMIND_CACHE_DIR", str(cache))
    path = tmp_path / "optimal.jsonl"
    args = [
        "evaluate",
        "-s",
        "optimal",
        "--max-guesses",
        "5",
        "--checkpoint",
        str(path),
        "--json",
        "--no-history",
    ]
    code, out, err = run(*args)
    assert code == 0 and err == ""
    first = json.loads(out)
    assert (first["first_guess"], first["total"], first["max"]) == ("1123", 5626, 5)  # Koyama and Lai
    assert len(list((cache / "optimal").iterdir())) == 1  # cached as after a search in this process
    lines = path.read_text().splitlines()
    assert len(lines) > 10 and all("piece" in json.loads(line) for line in lines[1:])
    path.write_text("\n".join(lines[:6]) + "\n")  # as if stopped after 5 pieces
    for tree in (cache / "optimal").iterdir():
        tree.unlink()
    code, out, err = run(*args)
    assert code == 0 and "resuming from" in err and ": 5 pieces of the search" in err
    assert json.loads(out)["distribution"] == first["distribution"]
    path.write_text("\n".join(lines[:6]) + "\n")  # --no-cache says how, not what: the same run
    code, out, err = run(*args, "--no-cache")
    assert code == 0 and "resuming from" in err and ": 5 pieces of the search" in err, err
    assert json.loads(out)["distribution"] == first["distribution"]


@pytest.mark.slow
def test_optimal_on_a_local_dask_cluster_is_the_local_result(tmp_path, monkeypatch):
    code, out, err = run("evaluate", "-s", "optimal", "-p", "4", "-c", "5", "--json", "--no-history")
    assert code == 0, err
    local = json.loads(out)
    monkeypatch.setenv("MASTERMIND_CACHE_DIR", str(tmp_path / "fresh"))  # searched again, on Dask
    for game in (["-p", "4", "-c", "5"], ["-p", "4", "-c", "5", "--no-repeats"]):
        code, out, err = run(
            "evaluate",
            "-s",
            "optimal",
            *game,
            "--executor",
            "dask",
            "--workers",
            "2",
            "--json",
            "--no-history",
        )
        assert code == 0, err
        if "--no-repeats" in game:
            assert json.loads(out)["total"] == 462  # 4 pegs 5 colours, no repeats
            continue
        dask = json.loads(out)
        for key in ("first_guess", "distribution", "total"):
            assert dask[key] == local[key]
        assert local["total"] == 2463
    assert len(list((tmp_path / "fresh" / "optimal").iterdir())) == 2  # both trees cached


def test_a_cached_optimal_tree_needs_no_cluster():
    """With its tree cached (MASTERMIND_CACHE_DIR is per test), optimal on Dask reads the cache:
    no cluster is contacted, so even an unreachable scheduler gives the result."""
    game = ("-s", "optimal", "-p", "3", "-c", "4", "--json", "--no-history")
    code, out, err = run("evaluate", *game)
    assert code == 0, err
    code, again, err = run("evaluate", *game, "--executor", "dask", "--scheduler", "tcp://127.0.0.1:9")
    assert code == 0, err
    assert json.loads(again)["total"] == json.loads(out)["total"]


def test_mastermind_cache_dir_moves_the_checkpoints_of_runs_too(tmp_path, monkeypatch):
    from mastermind import Rules, make_strategy
    from mastermind.research import runner

    monkeypatch.setenv("MASTERMIND_CACHE_DIR", str(tmp_path / "all"))
    path = runner.default_checkpoint(make_strategy("knuth", Rules()), 64)
    assert path.parent == tmp_path / "all" / "runs"  # not the user's own cache


def _interrupt(tmp_path, *extra, game=("--pegs", "6", "--colors", "9")):
    """Start an evaluation (6 pegs 9 colours by default) as a terminal would (its own process
    group), wait until it has started its run, press Ctrl-C (SIGINT to the whole group)."""
    path = tmp_path / "run.jsonl"
    proc = started(
        [sys.executable, "-m", "mastermind.cli", "evaluate", *game, "--checkpoint", str(path), *extra],
        env={**os.environ, "MASTERMIND_CACHE_DIR": str(tmp_path / "trees")},
    )
    deadline = time.monotonic() + 240  # a generous bound for starting on a loaded machine, not a timing
    while not path.exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.1)
    assert proc.poll() is None, proc.communicate()
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    return proc, out, err


@pytest.mark.slow
def test_ctrl_c_stops_a_big_local_evaluation(tmp_path):
    proc, out, err = _interrupt(tmp_path)
    assert proc.returncode == 130
    assert out == "" and "interrupted" in err and "Traceback" not in err
    assert group_is_gone(proc.pid)


@pytest.mark.slow
def test_ctrl_c_stops_a_dask_evaluation_and_its_cluster(tmp_path):
    proc, out, err = _interrupt(tmp_path, "--executor", "dask", "--workers", "2")
    assert proc.returncode == 130
    assert out == "" and "interrupted" in err and "Traceback" not in err
    assert group_is_gone(proc.pid)  # the workers and their nannies are gone too


@pytest.mark.slow
def test_ctrl_c_stops_an_optimal_search_on_dask_and_its_cluster(tmp_path):
    # over a minute of search (4x8 takes about 5 s since issue 25, and could end before the signal)
    game = ("-s", "optimal", "--pegs", "4", "--colors", "9")
    proc, out, err = _interrupt(tmp_path, "--executor", "dask", "--workers", "2", game=game)
    assert proc.returncode == 130
    assert out == "" and "interrupted" in err and "Traceback" not in err
    assert group_is_gone(proc.pid)


@pytest.mark.slow
def test_kill_9_loses_nothing_recorded_and_the_same_command_finishes_the_run(tmp_path):
    path = tmp_path / "run.jsonl"
    command = [
        sys.executable,
        "-m",
        "mastermind.cli",
        "evaluate",
        "-s",
        "most-parts",
        "-p",
        "5",
        "-c",
        "8",
        "--checkpoint",
        str(path),
        "--unit-size",
        "64",
        "--json",
    ]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 240  # a bound for a loaded machine, not a timing

    def units_recorded():
        return path.exists() and '"unit"' in path.read_text()

    while not units_recorded() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    proc.kill()  # SIGKILL: no handler runs
    proc.communicate(timeout=60)
    if proc.returncode == 0:
        pytest.skip("the run finished before it could be killed")  # pragma: no cover
    done = path.read_text().count('"unit"')
    again = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    assert again.returncode == 0, again.stderr
    # every unit line written whole is used (a line being written when it was killed is dropped)
    resumed = int(again.stderr.split(f"resuming from {path}: ")[1].split()[0])
    assert 1 <= resumed <= done
    stats = json.loads(again.stdout)
    assert (stats["first_guess"], stats["total"], stats["games"]) == ("11223", 181834, 32768)


@pytest.mark.slow
def test_evaluate_on_an_existing_cluster_by_its_address():
    from dask.distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0") as cluster:
        code, out, err = run(
            "evaluate",
            "-s",
            "expected-size",
            "--executor",
            "dask",
            "--scheduler",
            cluster.scheduler_address,
            "--unit-size",
            "64",
            "--json",
        )
        assert code == 0, err
        assert (json.loads(out)["first_guess"], json.loads(out)["total"]) == ("1123", 5696)
        assert len(cluster.workers) == 2  # the cluster is not ours to shut down


@pytest.mark.slow  # waits for the connection to time out
def test_an_unreachable_scheduler_is_one_line_and_exit_2():
    code, out, err = run("evaluate", "--executor", "dask", "--scheduler", "tcp://127.0.0.1:9")
    assert code == 2 and out == ""
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in err and "Traceback" not in err


def test_a_finished_run_removes_its_default_checkpoint_and_stale_ones(tmp_path, monkeypatch):
    """Default checkpoints live under the user cache directory: the run's own is removed when the
    run is done, and so are those no run can resume (another version's, or not a checkpoint);
    an unfinished run of this version is kept for its resume."""
    from mastermind import Rules, make_strategy
    from mastermind.research import runner

    runs = tmp_path / "runs"
    runs.mkdir()
    monkeypatch.setattr(runner.checkpoint, "runs_dir", lambda: runs)
    old = runs / "knuth-4x6-000000000000.jsonl"
    identity = {**runner.run_identity(make_strategy("knuth", Rules()).spec(), 64), "version": "0.0.0-old"}
    old.write_text(json.dumps({"mastermind-checkpoint": 1, "run": identity}) + "\n")
    junk = runs / "junk.jsonl"
    junk.write_text("not a checkpoint\n")
    other = runner.default_checkpoint(make_strategy("entropy", Rules()), 64)
    book = runner.Checkpoint(other, runner.run_identity(make_strategy("entropy", Rules()).spec(), 64))
    book.open()  # an entropy run of this version, interrupted: it may be resumed
    book.close()
    code, out, _ = run("evaluate", "--unit-size", "64", "--json")
    assert code == 0 and json.loads(out)["total"] == 5801
    assert sorted(runs.iterdir()) == [other]


def test_an_optimal_search_that_is_not_quick_is_checkpointed_without_being_asked(tmp_path, monkeypatch):
    """Without --checkpoint, an optimal run of a game past QUICK_GAME keeps its pieces in its own
    file under the cache directory: the same command after an interruption finishes what is left,
    and the file goes when the run is done. (The limit is lowered so that classic stands for a
    large game.)"""
    import shutil

    from mastermind import Rules, make_strategy
    from mastermind.research import runner
    from mastermind.strategies.optimal import strategy as optimal

    monkeypatch.setenv("MASTERMIND_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(optimal, "QUICK_GAME", 1000)
    args = ["evaluate", "-s", "optimal", "--max-guesses", "5", "--json", "--no-history"]
    recorded = tmp_path / "recorded.jsonl"
    code, out, _ = run(*args, "--checkpoint", str(recorded))
    assert code == 0 and json.loads(out)["total"] == 5626  # Koyama and Lai
    own = runner.default_checkpoint(make_strategy("optimal", Rules(max_guesses=5)), None)
    lines = recorded.read_text().splitlines()
    own.parent.mkdir(parents=True, exist_ok=True)
    own.write_text("\n".join(lines[:6]) + "\n")  # as if the run without --checkpoint stopped after 5 pieces
    shutil.rmtree(tmp_path / "cache" / "optimal")  # the tree is not at hand: it is searched
    code, out, err = run(*args)
    assert code == 0 and json.loads(out)["total"] == 5626
    assert f"resuming from {own}: 5 pieces of the search already done" in err
    assert not own.exists()  # done: removed
    monkeypatch.setattr(optimal, "QUICK_GAME", 3125)  # classic is quick: searched in one go
    shutil.rmtree(tmp_path / "cache" / "optimal")
    own.write_text("\n".join(lines[:6]) + "\n")
    code, out, err = run(*args)
    assert code == 0 and json.loads(out)["total"] == 5626 and "resuming" not in err


def test_a_log_writes_the_last_report_again_when_no_line_came_for_a_minute(capsys, monkeypatch):
    from mastermind.cli import progress

    monkeypatch.setattr(progress, "LOG_EVERY", 0.0)
    log = progress.LogLines("optimal on 5x8", lambda done: f"searching, {done} pieces done")
    log.again()  # nothing reported yet: nothing to say
    log(3)
    log.again()  # (a piece of an hour running: the same report, a minute later)
    lines = capsys.readouterr().err.splitlines()
    said = "optimal on 5x8: searching, 3 pieces done ("
    assert len(lines) == 2 and all(line.startswith(said) for line in lines)
    log.every = 3600.0
    log(4)
    log.again()
    assert capsys.readouterr().err == ""  # not before a minute (here an hour) has passed


def test_a_ctrl_c_that_python_drops_ends_the_run_at_its_next_report(monkeypatch):
    from mastermind.cli.run_options import run_progress
    from mastermind.strategies.progress import Progress

    class Finalizer:  # Python prints and drops what a finalizer raises: "Exception ignored in"
        def __del__(self):
            signal.raise_signal(signal.SIGINT)

    dropped = []
    monkeypatch.setattr(sys, "unraisablehook", dropped.append)
    # Python's own handler, as in a command (a test runner's worker process may ignore Ctrl-C)
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with run_progress("knuth on 6x9") as report:
            report(Progress("split", 0, 1, 0, 10))
            Finalizer()  # the Ctrl-C lands in the finalizer and is lost there
            assert dropped == []  # and no "Exception ignored" traceback of it is printed
            with pytest.raises(KeyboardInterrupt):
                report(Progress("split", 1, 1, 0, 10))
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
        assert sys.unraisablehook == dropped.append  # (put back)
    finally:
        signal.signal(signal.SIGINT, before)
