"""Reading a history file on the web server (``POST /api/import``, web/transfer.py): how long the
largest file takes, and the games package's work for a match whose computer makes the hardest
codes (read back by a strategy's walk of the whole game).

python benchmarks/web_history_file.py

Prints: the file's size, the seconds ``read_file`` takes (every game read back by the games
package and written again), the seconds ``new_games`` takes to find them among as many of the
visitor's own (canonical JSON in a set), and the seconds one match of 5 pegs and 8 colours with
the hardest codes of entropy's strategy takes to make and to read back from its record.
"""

from __future__ import annotations

import json
import os
import time
from datetime import date

from mastermind import Game, Match, Rules
from mastermind.web.limits import Limits
from mastermind.web.settings import VisitorSettings
from mastermind.web.transfer import FILE_GAMES, FORMAT, VERSION, new_games, read_file


def main() -> None:
    games = []
    for seed in range(FILE_GAMES):
        game = Game.breaking(Rules(), seed=seed)
        game.guess("1122")
        if not game.over:
            game.give_up()
        games.append({"number": seed + 1, "record": game.record()})
    raw = json.dumps({"format": FORMAT, "version": VERSION, "games": games}).encode()
    print(f"load average at the start: {os.getloadavg()[0]:.1f}")
    print(f"a file of {FILE_GAMES:,} finished games of one guess: {len(raw):,} bytes")
    start = time.perf_counter()
    read, _ = read_file(raw, VisitorSettings(), Limits(), date.today())
    print(f"read_file: {time.perf_counter() - start:.1f} s")
    start = time.perf_counter()
    new_games(read, [record for _, record in read])
    print(f"new_games against as many of the visitor's own: {time.perf_counter() - start:.2f} s")
    rules = Rules(pegs=5, colors=8)
    start = time.perf_counter()
    match = Match(rules, ["entropy", "human"], 2, seed=5, codemaker="hardest")
    match.advance()
    made = time.perf_counter() - start
    print(f"a match of {rules.describe()}, entropy making the hardest codes: made in {made:.1f} s")
    start = time.perf_counter()
    Match.from_record(match.record())
    print(f"  read back from its record in {time.perf_counter() - start:.1f} s")
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
