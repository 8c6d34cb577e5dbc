"""mastermind web under load: N visitors on 127.0.0.1, each playing whole classic games through the
API (Knuth's guesses, read from his tree, so the client spends no time choosing).

The server runs as its own process (``mastermind web`` over a fresh history), so its memory is its
own: the resident size with every visitor's game open at once, and the peak. Every visitor first
opens the code of the day (all N open together), then plays it guess by guess, waiting ``--think``
seconds (at random, 0 to twice that) between two guesses as a person does, and starts a practice
game until ``--seconds`` have passed. Bounded: at most 5,000 visitors and 300 seconds, on this machine only.

Where a guess's time goes: the latency the client measures (request sent to answer read) is split
into the server's own time (its ``Server-Timing`` header: first middleware to answer) and the rest
(waiting for the server's event loop, the network stack, the client's own loop); the server's
garbage collections (count and pauses, recorded by a hook of the launcher) and how late the
client's loop wakes from a 10 ms sleep (its wait for a core) are printed beside them, with the
load average at the start and the end.

python benchmarks/web_load.py --visitors 1000 --seconds 60 --think 1.0

``--friends N`` adds N pairs of visitors who play friend's matches by a link (2 games, then the
rematch, until the time is up), each device with its WebSocket open: each of their guesses is
timed as answered, and as arrived on the other device (the pushed view with the move read).

python benchmarks/web_load.py --visitors 500 --friends 250 --seconds 60 --think 5
"""

from __future__ import annotations

import argparse
import asyncio
import json
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

#: Each move's wait for its save in the server, where its Server-Timing says it.
SAVES: list[float] = []

#: Runs ``mastermind web`` with a hook that records every garbage collection's pause, written to
#: the file MASTERMIND_GC_LOG names when the server stops (JSON: [generation, start, wall ms, CPU ms]
#: each, the start on the monotonic clock that every process shares; the wall time includes waiting
#: for a core, the CPU time is the collection's own work).
LAUNCH = """
import atexit, gc, json, os, sys, time
pauses, started = [], [0.0, 0.0]
def hook(phase, info):
    if phase == "start":
        started[:] = time.perf_counter(), time.thread_time()
    else:
        pauses.append((info["generation"], started[0], 1000 * (time.perf_counter() - started[0]),
                       1000 * (time.thread_time() - started[1])))
gc.callbacks.append(hook)
atexit.register(lambda: open(os.environ["MASTERMIND_GC_LOG"], "w").write(json.dumps(pauses)))
from mastermind.cli import main
sys.argv[0] = "mastermind"
main()
"""


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

    async def post(self, path: str, body: dict | None = None, timings: list[float] | None = None) -> dict:
        async with self.session.post(self.base + path, json=body or {}) as response:
            data = await response.json()
            if response.status >= 400:
                raise RuntimeError(f"{path}: {response.status} {data}")
            # "app;dur=1.23, save;dur=0.80": the server's own milliseconds, and of them the wait for
            # the move's save (a server that does not say it: the whole only)
            timing = response.headers.get("Server-Timing")
            if timings is not None and timing is not None:
                parts = dict(part.split(";dur=") for part in timing.split(", "))
                timings.append(float(parts["app"]) / 1000)
                if "save" in parts:
                    SAVES.append(float(parts["save"]) / 1000)
            return data

    async def open(self, daily: bool = False) -> int:
        """A practice game, or the code of the day (every visitor's first game: one code for all)."""
        body = {"mode": "daily"} if daily else {"mode": "break", "preset": "classic"}
        return (await self.post("/api/games", body))["id"]

    async def play(
        self,
        game_id: int,
        think: float,
        latencies: list[tuple[float, float]],
        server: list[float],
        deadline: float,
    ) -> bool:
        node = self.tree
        while True:
            if think:
                await asyncio.sleep(random.uniform(0, 2 * think))
            guess = self.notation.format_code(self.space.code(node.guess))
            started = time.perf_counter()
            answer = await self.post(f"/api/games/{game_id}/guesses", {"guess": guess}, server)
            latencies.append((started, time.perf_counter() - started))
            if answer["finished"]:
                return answer["won"]
            node = node.children[answer["black"] * (self.pegs + 1) + answer["white"]]
            if time.monotonic() > deadline + 24 * think + 30:  # 10 guesses and a margin: a bug
                raise RuntimeError("a game did not end")


class Pair:
    """Two visitors playing friend's matches by a link, each with its socket open: the codemaker
    draws a code, the codebreaker plays Knuth's guesses; each guess is timed twice, its answer to
    the breaker and its arrival (the pushed view with that move) on the maker's device."""

    def __init__(self, base: str, tree, notation: Notation, space: CodeSpace, pegs: int) -> None:
        self.people = [Visitor(base, tree, notation, space, pegs) for _ in range(2)]
        self.base, self.tree, self.notation, self.space, self.pegs = base, tree, notation, space, pegs
        self.waiting: dict[tuple[int, int, int, int], asyncio.Future[float]] = {}
        self.sockets: list = []
        self.readers: list[asyncio.Task] = []
        self.first = 0  # which of the two has seat 1: the one who made the match, then swapped
        self.ids = [0, 0]  # each one's own number for the match being played (numbers are per visitor)

    def id_of(self, person: Visitor) -> int:
        return self.ids[self.people.index(person)]

    def seated(self, seat: int) -> Visitor:
        return self.people[self.first if seat == 1 else 1 - self.first]

    async def open(self, game_id: int | None = None) -> int:
        """A new match and its link taken (or the rematch ``game_id``'s), both sockets open."""
        host, guest = self.people
        if game_id is None:
            made = await host.post(
                "/api/games",
                {"mode": "match", "players": ["human", "friend"], "games": 2, "preset": "classic"},
            )
            joined = await guest.post(f"/api/join/{made['invite'].removeprefix('/join/')}")
        else:
            made = await host.post(f"/api/games/{self.ids[0]}/rematch")
            joined = await guest.post(f"/api/games/{self.ids[1]}/rematch")  # the same, by their number
            self.first = 1 - self.first
        self.ids = [made["id"], joined["id"]]
        await self.close_sockets()
        for seat in (1, 2):
            person = self.seated(seat)
            ws = await person.session.ws_connect(
                f"{self.base.replace('http', 'ws')}/api/games/{self.id_of(person)}/socket"
            )
            self.sockets.append(ws)
            self.readers.append(asyncio.create_task(self.read(ws, made["id"], seat)))
        return made["id"]

    async def read(self, ws, game_id: int, seat: int) -> None:
        async for message in ws:
            game = json.loads(message.data)["game"]
            if game.get("game"):
                key = (game_id, seat, game["round"]["number"], len(game["game"]["moves"]))
                waiter = self.waiting.pop(key, None)
                if waiter is not None and not waiter.done():
                    waiter.set_result(time.perf_counter())

    async def close_sockets(self) -> None:
        for ws in self.sockets:
            await ws.close()
        for task in self.readers:
            task.cancel()
        self.sockets, self.readers = [], []

    async def play(
        self, game_id: int, think: float, latencies: list, arrivals: list[float], server: list
    ) -> None:
        """The match's two games: the seats swap, the codemaker's device told of every guess."""
        for number in (1, 2):
            maker_seat = 1 if number == 1 else 2
            maker, breaker = self.seated(maker_seat), self.seated(3 - maker_seat)
            code = self.notation.format_code(self.space.code(random.randrange(self.space.size)))
            await maker.post(f"/api/games/{self.id_of(maker)}/secret", {"secret": code})
            node = self.tree
            for row in range(1, 12):
                if think:
                    await asyncio.sleep(random.uniform(0, 2 * think))
                guess = self.notation.format_code(self.space.code(node.guess))
                arrived = asyncio.get_running_loop().create_future()
                self.waiting[(game_id, maker_seat, number, row)] = arrived
                started = time.perf_counter()
                view = await breaker.post(
                    f"/api/games/{self.id_of(breaker)}/guesses", {"guess": guess}, server
                )
                latencies.append((started, time.perf_counter() - started))
                if view["round"]["number"] != number or view["finished"]:  # broken: the game is over
                    self.waiting.pop((game_id, maker_seat, number, row), None)
                    break
                arrivals.append(await asyncio.wait_for(arrived, 30) - started)
                node = node.children[view["black"] * (self.pegs + 1) + view["white"]]


async def run(
    args: argparse.Namespace, base: str, pid: int
) -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
    """Play; print what was measured; return each guess's (start, latency) and each moment the
    client's loop woke late (start, lateness), for the attribution of the slowest guesses."""
    rules = Rules()
    tree = strategy_tree(make_strategy("knuth", rules))
    notation, space = Notation(rules), CodeSpace.of(rules)
    visitors = [Visitor(base, tree, notation, space, rules.pegs) for _ in range(args.visitors)]
    pairs = [Pair(base, tree, notation, space, rules.pegs) for _ in range(args.friends)]
    matches = 0
    friend_latencies: list[tuple[float, float]] = []  # a friend's match guess: sent at, answered after
    arrivals: list[float] = []  # and its arrival on the codemaker's device, after it was sent
    latencies: list[tuple[float, float]] = []  # each guess: sent at, answered after (s)
    server: list[float] = []  # the server's own time of each guess
    lags: list[tuple[float, float]] = []  # the client's loop: went to sleep for 10 ms at, woke late by
    games = won = 0
    load_start = os.getloadavg()[0]
    try:
        started = time.perf_counter()
        opened = await asyncio.gather(*(v.open(daily=True) for v in visitors))
        paired = await asyncio.gather(*(p.open() for p in pairs))
        opening = time.perf_counter() - started
        now, _ = rss_mib(pid)
        print(
            f"{args.visitors:,} games (each the code of the day) and {args.friends:,} friend's matches "
            f"({2 * args.friends:,} visitors, each with its socket) open at once: "
            f"server resident {now:.0f} MiB (opened in {opening:.1f} s)",
            flush=True,
        )
        deadline = time.monotonic() + args.seconds
        started = time.perf_counter()
        server_cpu, client_cpu = cpu_seconds(pid), cpu_seconds()

        async def tick() -> None:
            while True:
                before = time.perf_counter()
                await asyncio.sleep(0.01)
                lags.append((before, time.perf_counter() - before - 0.01))

        ticker = asyncio.create_task(tick())

        async def visit(v: Visitor, first: int) -> None:
            nonlocal games, won
            game_id = first
            while True:
                result = await v.play(game_id, args.think, latencies, server, deadline)
                won += result  # added after the await: other visitors count meanwhile
                games += 1
                if time.monotonic() > deadline:
                    return
                game_id = await v.open()

        async def duel(p: Pair, first: int) -> None:
            nonlocal matches
            game_id = first
            while True:
                await p.play(game_id, args.think, friend_latencies, server, arrivals)
                matches += 1
                if time.monotonic() > deadline:
                    return
                game_id = await p.open(game_id)  # the rematch, the seats swapped

        await asyncio.gather(
            *(visit(v, g) for v, g in zip(visitors, opened, strict=True)),
            *(duel(p, g) for p, g in zip(pairs, paired, strict=True)),
        )
        ticker.cancel()
        elapsed = time.perf_counter() - started
        server_cpu, client_cpu = cpu_seconds(pid) - server_cpu, cpu_seconds() - client_cpu
    finally:
        for p in pairs:
            await p.close_sockets()
        await asyncio.gather(*(v.session.close() for v in [*visitors, *(x for p in pairs for x in p.people)]))
    now, peak = rss_mib(pid)

    def pct(values: list[float], p: float) -> float:
        ordered = sorted(values)
        return 1000 * ordered[min(len(ordered) - 1, int(p * len(ordered)))]

    def spread(values: list[float]) -> str:
        return (
            f"p50 {pct(values, 0.5):.1f} ms, p99 {pct(values, 0.99):.1f} ms, max {1000 * max(values):.1f} ms"
        )

    print(
        f"{games:,} games ({won:,} won) in {elapsed:.1f} s: {games / elapsed:.1f} games/s; "
        f"{len(latencies):,} guesses, {len(latencies) / elapsed:.0f}/s"
    )
    if latencies:
        print(f"guess latency (client): {spread([d for _, d in latencies])}")
    if friend_latencies:
        print(
            f"friend's matches: {matches:,} played to their end; {len(friend_latencies):,} guesses, "
            f"answered: {spread([d for _, d in friend_latencies])}"
        )
        print(f"  arrival on the codemaker's device (sent to pushed view read): {spread(arrivals)}")
    if server:  # a server that says its time
        print(f"  of which in the server (Server-Timing): {spread(server)}")
    if SAVES:
        print(f"  of which waiting for the move's save (the history's thread): {spread(SAVES)}")
    print(f"  the client's loop late by: {spread([d for _, d in lags])}")
    print(f"server memory: resident {now:.0f} MiB now, peak {peak:.0f} MiB")
    print(
        f"CPU while playing: server {server_cpu:.1f} s ({100 * server_cpu / elapsed:.0f}% of a core, "
        f"{1000 * server_cpu / max(1, len(latencies)):.2f} ms a guess), load client {client_cpu:.1f} s; "
        f"load average {load_start:.1f} at the start, {os.getloadavg()[0]:.1f} at the end"
    )
    return latencies + friend_latencies, lags


def attribute(latencies: list[tuple[float, float]], lags: list[tuple[float, float]], pauses: list) -> None:
    """Which of the slowest 1% of guesses were waiting while the server collected garbage, or while
    the client itself could not run (its loop 10 ms late or more: a core busy elsewhere)."""
    slow = sorted(latencies, key=lambda g: g[1])[-max(1, len(latencies) // 100) :]
    collections = [(start, start + wall / 1000, gen) for gen, start, wall, _ in pauses if wall >= 1]
    late = [(start, start + 0.01 + lag) for start, lag in lags if lag >= 0.01]

    def overlaps(guess: tuple[float, float], spans: list) -> bool:
        return any(a < guess[0] + guess[1] and guess[0] < b for a, b, *_ in spans)

    full = [c for c in collections if c[2] == 2]
    in_gc = sum(overlaps(g, collections) for g in slow)
    in_full = sum(overlaps(g, full) for g in slow)
    in_client = sum(overlaps(g, late) for g in slow)
    neither = sum(not overlaps(g, collections) and not overlaps(g, late) for g in slow)
    print(
        f"the slowest 1% of guesses ({len(slow)}, {1000 * slow[0][1]:.0f} ms or more): "
        f"{100 * in_gc / len(slow):.0f}% waited through a server garbage collection of 1 ms or more "
        f"({100 * in_full / len(slow):.0f}% a full one), {100 * in_client / len(slow):.0f}% through a "
        f"moment the client's own loop was 10 ms late or more, {100 * neither / len(slow):.0f}% through "
        "neither"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--visitors", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds between two guesses")
    parser.add_argument(
        "--friends", type=int, default=0, help="pairs of visitors more, playing friend's matches by a link"
    )
    args = parser.parse_args()
    if not 0 <= args.visitors + 2 * args.friends <= MAX_VISITORS or not 0 < args.seconds <= MAX_SECONDS:
        sys.exit(f"at most {MAX_VISITORS:,} visitors and {MAX_SECONDS} seconds")
    print(
        f"machine: {cpu_model()}, {os.cpu_count()} cores; {args.visitors:,} visitors and {args.friends:,} "
        f"pairs of friends, {args.seconds:g} s, "
        f"think {args.think:g} s"
    )
    with tempfile.TemporaryDirectory() as tmp:
        gc_log = Path(tmp) / "gc.json"
        env = {
            **os.environ,
            "MASTERMIND_DB": str(Path(tmp) / "load.sqlite3"),
            "MASTERMIND_GC_LOG": str(gc_log),
        }
        # the limits are set for a crowd: one process serves everyone here
        limits = [
            "--limit",
            "rate=1000000",
            "--limit",
            "burst=1000000",
            "--limit",
            f"games_in_memory={max(2000, 2 * args.visitors + 2 * args.friends)}",
        ]
        server = subprocess.Popen(
            [sys.executable, "-c", LAUNCH, "web", "--port", "0", *limits],
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        try:
            assert server.stdout is not None
            line = server.stdout.readline()
            address = re.search(r"http://127\.0\.0\.1:\d+", line)
            if not address:
                sys.exit(f"the server did not start: {line!r}")
            latencies, lags = asyncio.run(run(args, address.group(0), server.pid))
        finally:
            server.send_signal(signal.SIGINT)
            server.wait(30)
        if gc_log.exists():
            pauses = json.loads(gc_log.read_text())
            playing = min(start for start, _ in latencies)  # the first timed guess: the opening is over
            for generation in (0, 1, 2):
                wall = sorted(w for g, _, w, _ in pauses if g == generation)
                cpu = sorted(c for g, _, _, c in pauses if g == generation)
                timed = sorted(c for g, start, _, c in pauses if g == generation and start >= playing)
                if wall:
                    print(
                        f"server garbage collections, generation {generation}: {len(wall):,}; wall "
                        f"{sum(wall):.0f} ms in all, the longest {wall[-1]:.1f} ms; CPU {sum(cpu):.0f} ms "
                        f"in all, the longest {cpu[-1]:.1f} ms; while playing {len(timed):,}, the longest "
                        f"{timed[-1] if timed else 0:.1f} ms of CPU"
                    )
            attribute(latencies, lags, pauses)


if __name__ == "__main__":
    main()
