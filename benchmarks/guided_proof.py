"""Speed of the guided proof of an optimum (`prove_optimum`) on one process and on worker processes.

Each proof runs in a fresh process, after a small proof that compiles the search: the table
gives its wall clock, its CPU split between the prover and its workers (the prover's share is
what bounds the wall clock on many cores), the prover's memory at most (resident), its lines and
the total it proves; then the bytes of its file in version 2 (gzip) and in the compact version 3
(xz), and version 3's lines (docs/worst.md, "Proof files, version 3").

    python benchmarks/guided_proof.py                          # classic and 4x7, 1 and 2 processes
    python benchmarks/guided_proof.py --games 4x8 --workers 1,2,4
    python benchmarks/guided_proof.py --games 4x8 --workers 2,dask2   # dask2: a local Dask cluster of 2

(On a Dask cluster the workers' CPU is not this process's children's: the column then shows
the cluster's processes that ended with it, if any.)
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

from machine import machine_line  # benchmarks/machine.py: the scripts run from this folder

#: game: pegs, colours, optimum (docs/results.md)
GAMES = {
    "classic": (4, 6, 5625),
    "4x7": (4, 7, 11228),
    "5x5": (5, 5, 13496),
    "4x8": (4, 8, 20471),
    "4x9": (4, 9, 34666),
    "5x6": (5, 6, 36721),
}

CHILD = """
import json, os, resource, sys, tempfile, time
from mastermind import Rules
from mastermind.strategies.optimal.guided import prove_optimum
pegs, colors, optimum = (int(x) for x in sys.argv[1:4])
prove_optimum(Rules(pegs=3, colors=4), 206, workers=1)  # (the search compiled, or read from its cache)
if sys.argv[4].startswith("dask"):  # a local Dask cluster of that many workers, each compiled first
    from mastermind.research.runner import DaskExecutor
    from mastermind.research.runner.proofs import prove_optimum_on
    dask = DaskExecutor(workers=int(sys.argv[4][4:])).__enter__()
    dask.client.run(lambda: prove_optimum(Rules(pegs=3, colors=4), 206, workers=1) and None)
    prove = lambda rules: prove_optimum_on(dask, rules, optimum)
else:
    prove = lambda rules: prove_optimum(rules, optimum, workers=int(sys.argv[4]))
started, before = time.perf_counter(), resource.getrusage(resource.RUSAGE_SELF)
found = prove(Rules(pegs=pegs, colors=colors))
wall = time.perf_counter() - started
me, them = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
sizes = {}
with tempfile.TemporaryDirectory() as folder:
    for name in ("p.proof.gz", "p.proof.xz"):
        found.proof.write(os.path.join(folder, name))
        sizes[name[-2:]] = os.path.getsize(os.path.join(folder, name))
    with open(os.path.join(folder, "p.proof.xz"), "rb") as f:
        import lzma
        sizes["compact"] = lzma.decompress(f.read()).count(b"\\n") - 3
print(json.dumps({"wall": wall, "total": found.total, "lines": found.proof.header["nodes"], **sizes,
                  "prover": me.ru_utime + me.ru_stime - before.ru_utime - before.ru_stime,
                  "workers": them.ru_utime + them.ru_stime, "memory": me.ru_maxrss / 1024}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="classic,4x7", help="comma-separated: " + ", ".join(GAMES))
    parser.add_argument(
        "--workers", default="1,2", help="numbers of processes, comma-separated (daskN: a Dask cluster of N)"
    )
    args = parser.parse_args()
    print(machine_line())
    heads = f"{'wall s':>8} {'prover CPU s':>12} {'workers CPU s':>13} {'prover MB':>9} {'lines':>10}"
    print(f"{'game':8} {'workers':>7} {heads}  total  (gz bytes, xz bytes, compact lines)")
    for game in args.games.split(","):
        pegs, colors, optimum = GAMES[game]
        for n in args.workers.split(","):
            command = [sys.executable, "-c", CHILD, str(pegs), str(colors), str(optimum), n]
            out = json.loads(subprocess.run(command, capture_output=True, text=True, check=True).stdout)
            print(
                f"{game:8} {n:>7} {out['wall']:8.1f} {out['prover']:12.1f} {out['workers']:13.1f} "
                f"{out['memory']:9.0f} {out['lines']:>10,}  {out['total']:,}  "
                f"({out['gz']:,}, {out['xz']:,}, {out['compact']:,})",
                flush=True,
            )
    print(f"load {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
