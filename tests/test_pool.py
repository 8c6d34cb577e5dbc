"""The package's one pool of worker processes (mastermind.runtime.pool): Ctrl-C ends it and its
workers, a worker killed is reported as an error, not waited for, and a fault leaves no worker."""

import io
import os
import queue
import signal
import sys
import textwrap

import pytest

from mastermind.errors import ExecutorError
from mastermind.runtime import pool as pool_module
from mastermind.runtime.pool import Pool, can_fork
from terminal import group_is_gone, started

pytestmark = pytest.mark.skipif(not can_fork(), reason="the pool forks its workers")


def _echo(tasks, results):
    while True:
        results.put(tasks.get() * 2)


def _gone(pid):
    """Whether the process is gone (or a zombie no one has reaped yet)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


def _get(pool):
    """The next result, however long the machine takes (a bound for a loaded machine, not a timing)."""
    for _ in range(600):
        try:
            return pool.get(timeout=0.5)
        except queue.Empty:
            continue
    raise AssertionError("no result and no error")


def test_the_workers_answer_and_are_ended_on_leaving_the_pool():
    with Pool(_echo, 2) as pool:
        for n in range(5):
            pool.put(n)
        assert sorted(_get(pool) for _ in range(5)) == [0, 2, 4, 6, 8]
        pids = [process.pid for process in pool.processes]
    assert all(process.exitcode is not None for process in pool.processes)
    assert all(_gone(pid) for pid in pids)


def test_each_worker_gets_its_own_arguments_after_the_shared_ones():
    def say(tasks, results, shared, mine):
        results.put((shared, mine))

    with Pool(say, 3, args=("all",), each=lambda i: (i,)) as pool:
        assert sorted(_get(pool) for _ in range(3)) == [("all", 0), ("all", 1), ("all", 2)]


def test_a_worker_killed_by_kill_9_is_reported_as_an_error_not_a_hang():
    with Pool(_echo, 2, died="a worker died: try fewer") as pool:
        pool.put(1)
        assert _get(pool) == 2
        os.kill(pool.processes[0].pid, signal.SIGKILL)
        with pytest.raises(ExecutorError, match="a worker died: try fewer"):
            _get(pool)
    assert all(process.exitcode is not None for process in pool.processes)


def test_a_fault_on_the_way_out_of_the_pool_ends_every_worker():
    with pytest.raises(RuntimeError, match="a fault"), Pool(_echo, 2) as pool:
        raise RuntimeError("a fault")
    assert all(process.exitcode is not None for process in pool.processes)


def test_ctrl_c_stops_the_pool_and_its_busy_workers_at_once():
    # Workers that never answer, and a caller waiting for them: Ctrl-C (SIGINT to the whole
    # group, as a terminal sends it) ends the caller's wait, and leaving the pool ends the workers.
    script = textwrap.dedent(
        """
        import queue, time
        from mastermind.runtime.pool import Pool

        def busy(tasks, results):
            while True:
                time.sleep(60)

        with Pool(busy, 2) as pool:
            print(*(p.pid for p in pool.processes), flush=True)
            while True:
                try:
                    pool.get(timeout=1.0)
                except queue.Empty:
                    pass
        """
    )
    proc = started([sys.executable, "-c", script])
    assert proc.stdout is not None
    workers = [int(pid) for pid in proc.stdout.readline().split()]
    assert len(workers) == 2 and proc.poll() is None
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=60)  # a bound for a loaded machine, not a timing
    assert proc.returncode != 0 and "KeyboardInterrupt" in err
    assert group_is_gone(proc.pid)  # the workers too: none was left behind


def test_a_worker_keeps_an_eighth_of_the_memory_it_may_use_from_128_mb_to_2_gb_found_when_asked(monkeypatch):
    GB, limits = 1 << 30, {}

    def read_limit(path, encoding=None):
        if path not in limits:
            raise FileNotFoundError(path)
        return io.StringIO(limits[path])

    monkeypatch.setattr(pool_module, "open", read_limit, raising=False)  # the cgroup files
    for machine, cgroup, kept in (
        (8 * GB, None, GB),  # an eighth
        (64 * GB, None, 2 * GB),  # at most 2 GB
        (GB, None, 128 << 20),  # at least 128 MB
        (64 * GB, "max", 2 * GB),  # a container without a limit
        (64 * GB, str(4 * GB), 512 << 20),  # a container's limit, lower than the machine
        (64 * GB, ("v1", str(4 * GB)), 512 << 20),  # the same, in a cgroup of version 1
    ):
        pages = {"SC_PAGE_SIZE": 4096, "SC_PHYS_PAGES": machine // 4096}
        monkeypatch.setattr(pool_module.os, "sysconf", pages.get)
        limits.clear()
        if isinstance(cgroup, tuple):
            limits["/sys/fs/cgroup/memory/memory.limit_in_bytes"] = cgroup[1]
        elif cgroup is not None:
            limits["/sys/fs/cgroup/memory.max"] = cgroup
        assert pool_module.memory_share() == kept, (machine, cgroup)
    # shared among the processes of a check, from 128 MB to 2 GB each
    monkeypatch.setattr(
        pool_module.os, "sysconf", {"SC_PAGE_SIZE": 4096, "SC_PHYS_PAGES": 128 * GB // 4096}.get
    )
    limits.clear()
    assert [pool_module.memory_share(jobs) for jobs in (1, 8, 16, 64, 1024)] == [
        2 * GB,
        2 * GB,
        GB,
        GB // 4,
        128 << 20,
    ]


def test_a_workers_own_pipe_closes_when_it_dies_so_its_caller_hears_it():
    # each worker's end of its pipe is closed here once it starts, and no later worker holds it
    import multiprocessing

    context = multiprocessing.get_context("fork")
    ours = []

    def each(i):
        mine, theirs = context.Pipe()
        ours.append(mine)
        return (theirs,)

    def listen(conn):
        conn.recv()

    with Pool(listen, 2, each=each, queues=False) as pool:
        os.kill(pool.processes[0].pid, signal.SIGKILL)
        assert ours[0].poll(60)  # (readable: the end of the pipe; a bound for a loaded machine)
        with pytest.raises(EOFError):
            ours[0].recv()
        assert not ours[1].poll(0)  # the other worker's pipe is open, and silent
