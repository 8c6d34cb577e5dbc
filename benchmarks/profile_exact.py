"""Where the exact optimal search spends its time, by machine-code address (Linux, perf).

numba's compiled code carries no symbols that perf can read, so this script runs the search in a
child process under ``perf record``; the child, once the search is over, copies its executable
anonymous memory (where numba put the compiled code) to files. The samples that fell in that
code are then grouped by window of 256 bytes of machine code, and the busiest windows printed
with their share of all samples; ``--show N`` disassembles the N busiest (objdump; a window
starts where it starts, so its first instructions may be misread), which is enough to tell the
loop apart (a bounding pass, a count of cells, a list of guesses...).

    python benchmarks/profile_exact.py --game 4x7                  # the whole game, one thread
    python benchmarks/profile_exact.py --game 5x6 --after 11223 --rank 2 --show 2
                                        # the third largest cell of first guess 11223

Needs ``perf`` (and ``objdump`` for ``--show``). The share of samples outside the compiled code
(Python, numpy, numba's start, the kernel) is printed too: it includes the process's start.
"""

from __future__ import annotations

import argparse
import collections
import os
import subprocess
import sys
import tempfile

CHILD = r"""
import os, sys, time
import numpy as np
from mastermind import Rules
from mastermind._kernels import feedback
from mastermind.strategies.optimal.search import game_of, solve_position

pegs, colors, after, rank, workers, out = sys.argv[1:7]
rules = Rules(pegs=int(pegs), colors=int(colors))
game = game_of(rules)
secrets, history = np.arange(rules.size), []
if after:
    g = int(np.flatnonzero((game.codes.digits == [int(x) - 1 for x in after]).all(1))[0])
    replies = feedback.replies(game.codes, g, secrets)
    values, counts = np.unique(replies, return_counts=True)
    secrets, history = np.flatnonzero(replies == values[np.argsort(-counts)[int(rank)]]), [g]
started = time.perf_counter()
solution = solve_position(rules, secrets, history, workers=int(workers))
print(f"{len(secrets)} secrets: total {solution.cost} in {time.perf_counter() - started:.2f} s", flush=True)
memory = open("/proc/self/mem", "rb")
for line in open("/proc/self/maps").read().splitlines():
    fields = line.split()
    if "x" in fields[1] and len(fields) < 6:  # executable and anonymous: compiled code
        lo, hi = (int(x, 16) for x in fields[0].split("-"))
        memory.seek(lo)
        try:
            data = memory.read(hi - lo)
        except OSError:
            continue
        with open(os.path.join(out, f"{lo:x}.bin"), "wb") as f:
            f.write(data)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="4x7", help="PEGSxCOLOURS (default 4x7)")
    parser.add_argument("--after", help="a first guess (the game's digits, from 1): search a cell of it")
    parser.add_argument("--rank", type=int, default=0, help="which cell of --after, largest first (0)")
    parser.add_argument("--workers", type=int, default=1, help="threads of the search (default 1)")
    parser.add_argument("--top", type=int, default=15, help="windows printed (default 15)")
    parser.add_argument("--show", type=int, default=0, help="windows disassembled (default 0)")
    args = parser.parse_args()
    pegs, colors = args.game.split("x")
    with tempfile.TemporaryDirectory() as folder:
        code, data, script = (os.path.join(folder, name) for name in ("code", "perf.data", "child.py"))
        os.mkdir(code)
        with open(script, "w") as f:
            f.write(CHILD)
        env = {**os.environ, "MASTERMIND_CACHE_DIR": os.path.join(folder, "cache")}
        # first a tiny game, so that the kernels are compiled (or loaded) before perf watches
        subprocess.run([sys.executable, script, "3", "4", "", "0", "1", code], env=env, check=True)
        for name in os.listdir(code):
            os.remove(os.path.join(code, name))
        where = [args.after or "", str(args.rank), str(args.workers), code]
        child = [sys.executable, script, pegs, colors, *where]
        subprocess.run(["perf", "record", "-q", "-F", "2000", "-o", data, *child], env=env, check=True)
        report = subprocess.run(
            ["perf", "report", "-i", data, "--stdio", "--sort", "sym"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        bases = sorted(int(name[:-4], 16) for name in os.listdir(code))
        windows: collections.Counter[tuple[int, int]] = collections.Counter()
        outside = 0.0
        for line in report.splitlines():
            fields = line.split()
            if line.startswith("#") or len(fields) < 3 or not fields[0].endswith("%"):
                continue
            share, where = float(fields[0][:-1]), fields[-1]
            below = [b for b in bases if where.startswith("0x") and b <= int(where, 16)]
            if not below:
                outside += share
                continue
            windows[(max(below), (int(where, 16) - max(below)) // 256 * 256)] += share
        print(f"outside the compiled code: {outside:.1f} % (Python, numpy, numba, the process's start)")
        print(f"{'share':>7}  window of compiled code")
        for (base, offset), share in windows.most_common(args.top):
            print(f"{share:6.2f} %  {base:x}+{offset:x}")
        for base, offset in [key for key, _ in windows.most_common(args.show)]:
            print(f"\n--- {base:x}+{offset:x}")
            where = [f"--start-address={offset}", f"--stop-address={offset + 256}"]
            dump = subprocess.run(
                [
                    "objdump",
                    "-D",
                    "-b",
                    "binary",
                    "-mi386:x86-64",
                    *where,
                    os.path.join(code, f"{base:x}.bin"),
                ],
                capture_output=True,
                text=True,
                check=True,
            ).stdout
            print("\n".join(dump.splitlines()[7:]))


if __name__ == "__main__":
    main()
