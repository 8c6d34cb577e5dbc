"""mastermind web under load: N visitors on 127.0.0.1, each playing whole classic games through the
API (Knuth's guesses, read from his tree, so the client spends no time choosing).

The server runs as its own process (``mastermind web`` over a fresh history), so its memory is its
own: the resident size with every visitor's game open at once, and the peak. Every visitor first
opens a game (all N open together), then plays it guess by guess, waiting ``--think`` seconds
(at random, 0 to twice that) between two guesses as a person does, and starts another game until
``--seconds`` have passed. Bounded: at most 5,000 visitors and 300 seconds, on this machine only.

python benchmarks/web_load.py --visitors 1000 --seconds 60 --think 1.0
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import aiohttp
from machine import cpu_model

from mastermind import CodeSpace, Notation, Rules, make_strategy, strategy_tree

MAX_VISITORS, MAX_SECONDS = 5_000, 300


def cpu_seconds(pid: int | None = None) -> float:
    """CPU time (user and system) of process ``pid`` (this one if None), in seconds."""
    stat = Path(f"/proc/{pid or 'self'}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(stat[11]) + int(stat[12])) / os.sysconf("SC_CLK_TCK")


def rss_mib(pid: int) -> tuple[float, float]:
    """The process's resident memory now and at its peak (VmRSS, VmHWM), in MiB."""
    fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines())
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


class Visitor:
    def __init__(self, base: str, tree, notation: Notation, space: CodeSpace, pegs: int) -> None:
        self.base, self.tree, self.notation, self.space, self.pegs = base, tree, notation, space, pegs
        self.session = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))

    async def post(self, path: str, body: dict | None = None) -> dict:
        async with self.session.post(self.base + path, json=body or {}) as response:
            data = await response.json()
            if response.status >= 400:
                raise RuntimeError(f"{path}: {response.status} {data}")
            return data

    async def open(self) -> int:
        return (await self.post("/api/games", {"mode": "break", "preset": "classic"}))["id"]

    async def play(self, game_id: int, think: float, latencies: list[float], deadline: float) -> bool:
        node = self.tree
        while True:
            if think:
                await asyncio.sleep(random.uniform(0, 2 * think))
            guess = self.notation.format_code(self.space.code(node.guess))
            started = time.perf_counter()
            answer = await self.post(f"/api/games/{game_id}/guesses", {"guess": guess})
            latencies.append(time.perf_counter() - started)
            if answer["finished"]:
                return answer["won"]
            node = node.children[answer["black"] * (self.pegs + 1) + answer["white"]]
            if time.monotonic() > deadline + 24 * think + 30:  # 10 guesses and a margin: a bug
                raise RuntimeError("a game did not end")


async def run(args: argparse.Namespace, base: str, pid: int) -> None:
    rules = Rules()
    tree = strategy_tree(make_strategy("knuth", rules))
    notation, space = Notation(rules), CodeSpace.of(rules)
    visitors = [Visitor(base, tree, notation, space, rules.pegs) for _ in range(args.visitors)]
    latencies: list[float] = []
    games = won = 0
    try:
        started = time.perf_counter()
        opened = await asyncio.gather(*(v.open() for v in visitors))
        opening = time.perf_counter() - started
        now, _ = rss_mib(pid)
        print(f"{args.visitors:,} games open at once: server resident {now:.0f} MiB "
              f"(opened in {opening:.1f} s)", flush=True)  # fmt: skip
        deadline = time.monotonic() + args.seconds
        started = time.perf_counter()
        server_cpu, client_cpu = cpu_seconds(pid), cpu_seconds()

        async def visit(v: Visitor, first: int) -> None:
            nonlocal games, won
            game_id = first
            while True:
                result = await v.play(game_id, args.think, latencies, deadline)
                won += result  # added after the await: other visitors count meanwhile
                games += 1
                if time.monotonic() > deadline:
                    return
                game_id = await v.open()

        await asyncio.gather(*(visit(v, g) for v, g in zip(visitors, opened, strict=True)))
        elapsed = time.perf_counter() - started
        server_cpu, client_cpu = cpu_seconds(pid) - server_cpu, cpu_seconds() - client_cpu
    finally:
        await asyncio.gather(*(v.session.close() for v in visitors))
    now, peak = rss_mib(pid)
    latencies.sort()

    def pct(p: float) -> float:
        return 1000 * latencies[min(len(latencies) - 1, int(p * len(latencies)))]

    print(f"{games:,} games ({won:,} won) in {elapsed:.1f} s: {games / elapsed:.1f} games/s; "
          f"{len(latencies):,} guesses, {len(latencies) / elapsed:.0f}/s")  # fmt: skip
    print(f"guess latency: p50 {pct(0.50):.1f} ms, p99 {pct(0.99):.1f} ms, max {1000 * latencies[-1]:.1f} ms")
    print(f"server memory: resident {now:.0f} MiB now, peak {peak:.0f} MiB")
    print(f"CPU while playing: server {server_cpu:.1f} s ({100 * server_cpu / elapsed:.0f}% of a core, "
          f"{1000 * server_cpu / max(1, len(latencies)):.2f} ms a guess), load client {client_cpu:.1f} s; "
          f"load average {os.getloadavg()[0]:.1f}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--visitors", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds between two guesses")
    args = parser.parse_args()
    if not 1 <= args.visitors <= MAX_VISITORS or not 0 < args.seconds <= MAX_SECONDS:
        sys.exit(f"at most {MAX_VISITORS:,} visitors and {MAX_SECONDS} seconds")
    print(f"machine: {cpu_model()}, {os.cpu_count()} cores; {args.visitors:,} visitors, {args.seconds:g} s, "
          f"think {args.think:g} s")  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "MASTERMIND_DB": str(Path(tmp) / "load.sqlite3")}
        # the limits are set for a crowd: one process serves everyone here
        limits = ["--limit", "rate=1000000", "--limit", "burst=1000000",
                  "--limit", f"games_in_memory={max(2000, 2 * args.visitors)}"]  # fmt: skip
        server = subprocess.Popen(
            [sys.executable, "-m", "mastermind.cli", "web", "--port", "0", *limits],
            stdout=subprocess.PIPE, text=True, env=env,
        )  # fmt: skip
        try:
            assert server.stdout is not None
            line = server.stdout.readline()
            address = re.search(r"http://127\.0\.0\.1:\d+", line)
            if not address:
                sys.exit(f"the server did not start: {line!r}")
            asyncio.run(run(args, address.group(0), server.pid))
        finally:
            server.send_signal(signal.SIGINT)
            server.wait(30)


if __name__ == "__main__":
    main()
