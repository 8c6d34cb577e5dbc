"""How soon ``mastermind web`` answers, and how long its first classic game's first moves take.

Starts ``mastermind web`` on a free port with fresh numba, optimal-tree and history directories (a
fresh install), then times: the page (``GET /``) answering, from the process's start; a new
classic game; its first guess; a hint; a second guess; a second hint. Least of ``--repeat`` runs.

    python benchmarks/web_ready.py --repeat 3
    python benchmarks/web_ready.py --repeat 3 --baseline /tmp/old/src   # another version, alternately

Also prints the CPU time of the server process until its page answers (user + system, read from
/proc), steadier than the wall time on a loaded machine.
"""

from __future__ import annotations

import argparse
import atexit
import http.cookiejar
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

from machine import cpu_model  # benchmarks/machine.py: the scripts run from this folder

STEPS = ["ready", "ready CPU", "new game", "guess 1122", "hint", "guess 1344", "hint again"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_of(pid: int) -> float:
    """The CPU seconds (user + system) a running process has used so far."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def once(src: str | None = None) -> dict[str, float]:
    root = tempfile.mkdtemp(prefix="mastermind-web-ready-")
    atexit.register(shutil.rmtree, root, True)
    base = dict(os.environ)
    # an installed package runs from its compiled bytecode (this workplace's shell turns it off)
    base.pop("PYTHONDONTWRITEBYTECODE", None)
    if src:
        base["PYTHONPATH"] = src
    env = dict(
        base,
        NUMBA_CACHE_DIR=os.path.join(root, "numba"),
        MASTERMIND_CACHE_DIR=os.path.join(root, "cache"),
        MASTERMIND_DB=os.path.join(root, "history.sqlite3"),
    )
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    started = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "mastermind.cli", "web", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    times: dict[str, float] = {}
    try:
        while True:
            try:
                opener.open(base + "/", timeout=5).read()
                break
            except (urllib.error.URLError, ConnectionError):
                if proc.poll() is not None:
                    sys.exit("mastermind web ended")
                time.sleep(0.01)
        times["ready"] = time.perf_counter() - started
        times["ready CPU"] = cpu_of(proc.pid)

        def post(step: str, path: str, data: dict) -> dict:
            t = time.perf_counter()
            request = urllib.request.Request(
                base + path, json.dumps(data).encode(), {"Content-Type": "application/json"}
            )
            answer = json.loads(opener.open(request, timeout=600).read())
            times[step] = time.perf_counter() - t
            return answer

        game = post("new game", "/api/games", {"preset": "classic", "mode": "break"})
        path = f"/api/games/{game['id']}"
        post("guess 1122", path + "/guesses", {"guess": "1122"})
        post("hint", path + "/hint", {})
        post("guess 1344", path + "/guesses", {"guess": "1344"})
        post("hint again", path + "/hint", {})
    finally:
        proc.terminate()
        proc.wait()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs [3]")
    parser.add_argument("--baseline", metavar="SRC", help="another copy's src folder, run alternately")
    opts = parser.parse_args()
    print(f"{cpu_model()}, {os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f}")
    versions = [None] + ([opts.baseline] if opts.baseline else [])
    once(None)  # the bytecode of each version written, as an installed package has it
    if opts.baseline:
        once(opts.baseline)
    runs: dict[str | None, list[dict[str, float]]] = {v: [] for v in versions}
    for _ in range(opts.repeat):  # alternately: both versions see the same load
        for version in versions:
            runs[version].append(once(version))
    print(f"{'':12} {'this':>7}" + (f" {'base':>7}" if opts.baseline else ""))
    for step in STEPS:
        cells = " ".join(f"{min(r[step] for r in runs[v]):7.3f}" for v in versions)
        print(f"{step:12} {cells} s")
    print(f"load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
