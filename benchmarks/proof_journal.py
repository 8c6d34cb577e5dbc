"""The size of a guided proof's checkpoint (its journal) in version 2 and in version 3 (compact).

Each game is proved twice in a fresh process, with a checkpoint in a temporary folder: as a
proof in version 2 (its sets' lines recorded with their leaves) and as a compact one
(``compact=True``: recorded without them); the table gives the journal's records and bytes,
xz's bytes for the whole journal (what it would weigh compressed once more, as committed), and
the wall clock. ``--convert JOURNAL`` rewrites the records of a journal of version 2 (a copy of
it: the file itself is only read) as a compact build would have written them, and gives the
same figures, for a build too long to run twice (docs/worst.md, "Proof builds that survive a
kill").

    python benchmarks/proof_journal.py --games 4x7,4x8
    python benchmarks/proof_journal.py --convert /path/to/4x9.journal --game 4x9
"""

from __future__ import annotations

import argparse
import base64
import json
import lzma
import os
import subprocess
import sys
import tempfile
import zlib

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
import json, sys, time
from mastermind import Rules
from mastermind.strategies.optimal.guided import prove_optimum
pegs, colors, optimum, workers, compact = (int(x) for x in sys.argv[1:6])
prove_optimum(Rules(pegs=3, colors=4), 206, workers=1)  # (the search compiled, or read from its cache)
started = time.perf_counter()
found = prove_optimum(Rules(pegs=pegs, colors=colors), optimum, workers=workers, checkpoint=sys.argv[6],
                      compact=bool(compact))
print(json.dumps({"wall": time.perf_counter() - started, "total": found.total}))
"""


def sizes(path: str) -> tuple[int, int, int, int]:
    """The journal's records, those of sets (with lines), its bytes, and xz's bytes for it."""
    with open(path, "rb") as f:
        raw = f.read()
    lines = raw.splitlines()[1:]
    sets = sum(1 for line in lines if b'"claim"' in line)
    return len(lines), sets, len(raw), len(lzma.compress(raw, preset=6))


def converted(path: str, pegs: int, colors: int, out: str) -> None:
    """The journal at ``path`` (version 2) written to ``out`` as a compact build writes it."""
    from mastermind import Rules
    from mastermind.verify.proof import COMPACT, PackedNode, _packed_lines

    rules = Rules(pegs=pegs, colors=colors)
    with open(path, encoding="utf-8") as f, open(out, "w", encoding="utf-8") as o:
        o.write(f.readline())
        for line in f:
            if not line.endswith("\n"):
                break  # (a torn last line)
            record = json.loads(line)
            if "line" in record:
                text = zlib.decompress(base64.b64decode(record["line"])).decode().split("\n")
                node = PackedNode(rules, "\n".join(text[2:-2]), len(text) - 5)
                if node.nodes > 1:  # (a leaf stays in version 2, one line: as the prover keeps it)
                    body = "\n".join(_packed_lines(node, COMPACT)).encode()
                    del record["line"]
                    record["compact"] = base64.b64encode(zlib.compress(body, 9)).decode()
            o.write(json.dumps(record) + "\n")


def show(label: str, path: str, wall: str = "") -> None:
    records, sets, size, xz = sizes(path)
    print(f"{label:24} {records:>9,} {sets:>9,} {size:>13,} {xz:>11,} {wall:>8}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="classic,4x7", help="comma-separated: " + ", ".join(GAMES))
    parser.add_argument("--workers", type=int, default=1, help="processes for each proof [1]")
    parser.add_argument("--convert", help="a journal of version 2 to rewrite as version 3 (a copy)")
    parser.add_argument("--game", default="4x9", help="the game of the journal to --convert [4x9]")
    args = parser.parse_args()
    print(machine_line())
    print(f"{'journal':24} {'records':>9} {'sets':>9} {'bytes':>13} {'xz bytes':>11} {'wall s':>8}")
    with tempfile.TemporaryDirectory() as folder:
        if args.convert:
            pegs, colors, _ = GAMES[args.game]
            out = os.path.join(folder, "compact.journal")
            converted(args.convert, pegs, colors, out)
            show(f"{args.game} version 2", args.convert)
            show(f"{args.game} version 3", out)
        for game in [] if args.convert else args.games.split(","):
            pegs, colors, optimum = GAMES[game]
            for compact in (0, 1):
                path = os.path.join(folder, f"{game}-{compact}.journal")
                numbers = (pegs, colors, optimum, args.workers, compact)
                command = [sys.executable, "-c", CHILD, *map(str, numbers), path]
                run = subprocess.run(command, capture_output=True, text=True, check=True)
                out = json.loads(run.stdout)
                assert out["total"] == optimum, out
                show(f"{game} version {3 if compact else 2}", path, f"{out['wall']:.1f}")
    print(f"load {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
