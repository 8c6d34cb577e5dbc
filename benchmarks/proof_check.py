"""Speed of the plain-Python proof check: `mastermind verify FILE --workers N`, a fresh process
each, for each proof file and each number of processes; prints the wall time, the CPU time (of
the process and its workers: the figure a shared machine inflates least), the most memory one
of its processes held (MB resident) and the verdict.

    python benchmarks/proof_check.py                                   # 4x6, 5x5 and 4x7, 1 and 2 processes
    python benchmarks/proof_check.py --files results/4x8-lower.proof.gz --workers 1,2,4
    python benchmarks/proof_check.py --workers 1 --baseline /tmp/old/src   # against another version
    python benchmarks/proof_check.py --workers 1,2 --parts 24      # and the check cut into 24 parts
    python benchmarks/proof_check.py --workers 1 --compact         # and each file in version 3
    python benchmarks/proof_check.py --compact --check-only 3      # the check's CPU alone, in turn

With ``--compact`` each file is also written in the compact version 3 (``mastermind verify FILE
--compact TMP.proof.xz``, into a temporary folder) and that copy checked right after it, each
row with the file's bytes: what the compact format gains in size and costs or saves in time.

With ``--check-only R`` each file (and its version 3 copy, with ``--compact``) is instead read
and checked in a fresh process R times, the files taken in turn, and the CPU time of
``ProofFile.read(FILE).check()`` alone printed each time (no start-up, no second process): the
figure that a shared machine disturbs least, for comparing two versions of one proof.

With ``--baseline SRC`` (the ``src`` folder of another copy of the package, e.g. from ``git archive
main | tar -x -C /tmp/old``) each check by this version is followed at once by the same check by
that one (PYTHONPATH=SRC), so that both see the same load on a shared machine. With ``--parts N``
each check is followed by the same check cut into N parts, all of them run by that one process
(``--part 1-N/N``): what cutting a check costs (the nodes every part checks are checked here
once; N machines would each check them).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile

from machine import machine_line, measured  # benchmarks/machine.py: the scripts run from this folder

FILES = ["results/4x6-lower.proof.gz", "results/5x5-lower.proof.gz", "results/4x7-lower.proof.gz"]

CHECK_ONLY = """
import sys, time
from mastermind.verify.proof import ProofFile
started = time.process_time()
checked = ProofFile.read(sys.argv[1]).check()
print(time.process_time() - started, checked.nodes)
"""


def check_only(files: list[str], rounds: int) -> None:
    """Each file read and checked in a fresh process, ``rounds`` times, the files in turn: the
    CPU seconds of the check alone."""
    print(f"{'file':34} {'bytes':>9} {'nodes':>9} {'check CPU s':>11}")
    for _ in range(rounds):
        for path in files:
            run = subprocess.run([sys.executable, "-c", CHECK_ONLY, path], capture_output=True, text=True)
            cpu, nodes = run.stdout.split()
            row = f"{os.path.basename(path):34} {os.path.getsize(path):9,} {int(nodes):9,}"
            print(f"{row} {float(cpu):11.1f}", flush=True)


def check(
    path: str, workers: int, source: str | None, parts: str | None = None
) -> tuple[float, float, float, str]:
    """Wall seconds, CPU seconds, the most MB one process held, and the verdict of one
    `mastermind verify` (the package from ``source`` if given; only ``parts`` of the check, if
    given)."""
    env = None if source is None else {**os.environ, "PYTHONPATH": source}
    command = [sys.executable, "-m", "mastermind", "verify", path, "--workers", str(workers)]
    command += ["--part", parts] if parts else []
    wall, cpu, peak, out = measured(command, env)
    return wall, cpu, peak, out.strip().splitlines()[-1]


def main() -> None:
    formatter = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=formatter)
    parser.add_argument("--files", default=",".join(FILES), help="proof files, comma-separated")
    parser.add_argument("--workers", default="1,2", help="numbers of processes, comma-separated")
    parser.add_argument("--baseline", metavar="SRC", help="also check with the package in SRC")
    parser.add_argument("--parts", type=int, metavar="N", help="also check it cut into N parts, all run here")
    parser.add_argument("--compact", action="store_true", help="also check each file in version 3")
    parser.add_argument("--check-only", type=int, metavar="R", help="the check's CPU alone, R times each")
    args = parser.parse_args()
    files = args.files.split(",")
    if args.compact:
        folder = tempfile.mkdtemp(prefix="compact-")
        for path in list(files):
            out = os.path.join(folder, os.path.basename(path).split(".")[0] + ".proof.xz")
            command = [sys.executable, "-m", "mastermind", "verify", path, "--compact", out]
            subprocess.run(command, check=True, capture_output=True)
            files.insert(files.index(path) + 1, out)
    print(machine_line())
    if args.check_only:
        check_only(files, args.check_only)
        print(f"load {os.getloadavg()[0]:.2f} at the end")
        return
    heads = f"{'file':34} {'bytes':>9} {'version':>8} {'workers':>7}"
    print(f"{heads} {'wall s':>8} {'CPU s':>8} {'MB':>6}  verdict")
    versions = [("this", None, None)] + ([("baseline", args.baseline, None)] if args.baseline else [])
    versions += [(f"{args.parts} parts", None, f"1-{args.parts}/{args.parts}")] if args.parts else []
    for path in files:
        for n in (int(w) for w in args.workers.split(",")):
            for name, source, parts in versions:
                wall, cpu, peak, verdict = check(path, n, source, parts)
                row = f"{os.path.basename(path):34} {os.path.getsize(path):9,} {name:>8} {n:>7}"
                row += f" {wall:8.1f} {cpu:8.1f} {peak:6.0f}"
                print(f"{row}  {verdict.split(':')[0]}", flush=True)
    print(f"load {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
