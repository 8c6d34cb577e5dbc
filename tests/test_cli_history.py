"""The history through the command line: games saved move by move, listed, shown, resumed."""

import json
import os
import signal
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from conftest import kill_after_moves
from mastermind import Rules
from mastermind.cli import cli
from mastermind.games.game import Game
from mastermind.history.store import Store

SMALL = ["--pegs", "3", "--colors", "4"]


def run(*args, input=None):
    result = CliRunner().invoke(cli, list(args), input=input)
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout, result.stderr


def two_wrong_guesses(secret: str, pegs: int, colors: int) -> list[str]:
    """Two codes, neither the secret (so that the game goes on)."""
    codes = [str(c) * pegs for c in range(1, colors + 1)]
    return [c for c in codes if c != secret][:2]


def test_play_is_saved_and_listed_and_shown(tmp_path):
    db = str(tmp_path / "h.db")
    game = Game.breaking(Rules(pegs=3, colors=4), seed=5)
    secret = game.notation.format_code(game.secret)
    wrong = two_wrong_guesses(secret, 3, 4)[0]
    code, _, _ = run("play", "--db", db, "--seed", "5", *SMALL, input=f"{wrong}\n{secret}\n")
    assert code == 0
    code, out, _ = run("history", "--db", db)
    assert code == 0
    header, row = out.splitlines()
    assert header.split() == ["id", "when", "kind", "rules", "guesses", "outcome", "finished"]
    assert row.split()[0] == "1" and row.split()[3:] == ["play", "3x4", "2", "won", "yes"]
    code, out, _ = run("history", "1", "--db", db)
    assert code == 0
    assert "Game 1: play" in out and "finished, won." in out
    assert "the secret" in out and "3 black, 0 white" in out
    code, out, _ = run("history", "--db", db, "--json")
    [record] = json.loads(out)
    assert (record["id"], record["kind"], record["finished"], record["outcome"]) == (1, "play", True, "won")
    assert record["rules"] == {"pegs": 3, "colors": 4, "repeats": True, "max_guesses": 10, "blank": False}
    assert record["moves"] == [
        {"guess": wrong, "reply": record["moves"][0]["reply"]},
        {"guess": secret, "reply": "3,0"},
    ]


def test_no_history_saves_nothing_and_the_environment_names_the_database(tmp_path, private_history):
    code, _, _ = run("play", "--seed", "1", *SMALL, "--no-history", input="quit\n")
    assert code == 1
    assert not private_history.exists()
    code, _, _ = run("play", "--seed", "1", *SMALL, input="quit\n")  # MASTERMIND_DB: the fixture's file
    with Store(private_history) as store:
        assert [g.outcome for g in store.games()] == ["gave-up"]


def test_guess_and_match_are_saved(tmp_path):
    db = str(tmp_path / "h.db")
    assert run("guess", "--db", db, *SMALL, "--secret", "123")[0] == 0
    code, _, _ = run("match", "--db", db, *SMALL, "--players", "knuth,entropy", "--seed", "2")
    assert code == 0
    with Store(db) as store:
        g, m = store.games()
        assert (g.kind, g.finished, g.outcome) == ("guess", True, "won")
        assert g.record["moves"][-1] == {"guess": "123", "reply": "3,0"}
        assert (m.kind, m.finished, len(m.record["games"])) == ("match", True, 2)
    code, out, _ = run("history", "--db", db, "--json")
    match = json.loads(out)[1]
    assert len(match["moves"]) == sum(g["guesses"] for g in match["games"])


def test_history_shows_a_reply_fixed_with_the_reply_it_had(tmp_path):
    db = str(tmp_path / "h.db")
    script = "1,1\n2,0\n3,0\n3,0\n3,0\nfix 2 3,0\n4,0\n"  # 1234 broken by knuth, row 2 at first wrong
    assert run("guess", "--db", db, input=script)[0] == 0
    code, out, _ = run("history", "--db", db, "1")
    assert code == 0 and "  before guess 6: fixed row 2 (1134) from 2,0 to 3,0" in out.splitlines()
    code, out, _ = run("history", "--db", db, "1", "--json")
    assert json.loads(out)["moves"][1]["fixed"] == [{"reply": "2,0", "turn": 6}]
    code, out, _ = run("review", "--db", db, "--game", "1")
    assert code == 0 and "blunder" not in out and out.count(" best f") == 3


def test_guess_resumes_with_the_same_rows(tmp_path):
    db = str(tmp_path / "h.db")
    # an unfinished game of the computer breaking a person's code, one reply given
    game = Game.solving(Rules(pegs=3, colors=4), "knuth")
    game.reply("0,1")
    with Store(db) as store:
        game_id = store.add(game.record())
    code, out, _ = run("guess", "--db", db, "--resume", str(game_id), input="quit\n")
    assert f"Resuming game {game_id}: 1 guess made." in out
    assert "0 black, 1 white" in out  # the first row is back on the board
    assert "Guess 2:" in out
    with Store(db) as store:
        stored = store.get(game_id)
        assert stored.outcome == "gave-up" and len(stored.record["moves"]) == 1


def test_resume_errors_are_one_line(tmp_path):
    db = str(tmp_path / "h.db")
    code, _, err = run("play", "--db", db, "--resume")
    assert code == 2
    assert err.strip().endswith("there is no unfinished play game in the history " + db + " to resume")
    run("play", "--db", db, *SMALL, input="quit\n")
    code, _, err = run("play", "--db", db, "--resume", "1")
    assert code == 2 and err.count("\n") == 1 and "game 1 is over (gave-up)" in err
    code, _, err = run("guess", "--db", db, "--resume", "1")
    assert code == 2 and "game 1 is a play game, not a guess game" in err
    code, _, err = run("play", "--no-history", "--resume")
    assert code == 2 and "--resume needs the history" in err


@pytest.mark.parametrize(
    "args",
    [
        ["play", "--resume", "-1"],
        ["play", "--resume=-1"],
        ["guess", "--resume", "-1"],
        ["match", "--resume", "-1"],
        ["history", "-1"],
        ["history", "-1", "--json"],
    ],
)
def test_a_negative_game_id_is_no_game_not_an_option(tmp_path, args):
    # click read -1 as an option: "No such option '-1'"
    code, out, err = run(*args, "--db", str(tmp_path / "h.db"), input="")
    assert code == 2 and out == "" and err == "mastermind: error: there is no game -1 in the history\n"


def test_a_corrupt_database_is_one_line_and_exit_2_but_no_history_plays(tmp_path):
    bad = tmp_path / "bad.db"
    bad.write_bytes(b"not a database at all " * 200)
    for command in (["play", *SMALL], ["guess", *SMALL], ["match", "--players", "knuth,knuth"], ["history"]):
        code, out, err = run(*command, "--db", str(bad), input="quit\n")
        assert code == 2, command
        assert out == ""
        assert err.count("\n") == 1 and "is corrupt (not an SQLite database)" in err
    code, out, _ = run("play", "--db", str(bad), "--no-history", "--seed", "1", *SMALL, input="quit\n")
    assert code == 1 and "You gave up: the code was " in out


def test_a_killed_game_keeps_every_committed_move_and_resumes(tmp_path):
    """A real process, killed with SIGKILL after two guesses, loses nothing that was played."""
    db = tmp_path / "h.db"
    game = Game.breaking(Rules(), seed=1)
    secret = game.notation.format_code(game.secret)
    first, second = two_wrong_guesses(secret, 4, 6)
    seen, status = kill_after_moves(
        ["play", "--seed", "1"],
        f"{first}\n{second}\n",
        db,
        lambda games: len(games[0].record["moves"]) if games else 0,
    )
    assert seen == 2 and status == -signal.SIGKILL
    with Store(db) as store:
        [stored] = store.games()
    assert (stored.finished, stored.outcome) == (False, "playing")
    assert [m["guess"] for m in stored.record["moves"]] == [first, second]
    code, out, _ = run("play", "--db", str(db), "--resume", input=f"{secret}\n")
    assert code == 0
    assert f"Resuming game {stored.id}: 2 guesses made." in out
    assert "You broke the code in 3 guesses!" in out
    with Store(db) as store:
        done = store.get(stored.id)
    assert (done.finished, done.outcome) == (True, "won")
    assert [m["guess"] for m in done.record["moves"]] == [first, second, secret]


def test_a_game_whose_every_move_is_taken_back_leaves_the_history_and_comes_back_at_its_next(tmp_path):
    db = str(tmp_path / "h.db")
    code, out, _ = run("guess", "--db", db, input="1,0\nundo\n")  # one reply, taken back, then stop
    assert code == 1 and "Stopped before any move: there is nothing to resume." in out
    with Store(db) as store:
        assert store.games() == []  # not listed as unfinished for ever
    code, out, _ = run("play", "--db", db, "--seed", "1", *SMALL, input="111\nundo\n222\n")
    assert code == 1 and f"Stopped; resume with mastermind play --db {db} --resume 3." in out
    with Store(db) as store:  # rows 1 and 2 were made and removed: an id is never given twice
        assert [(g.id, [m["guess"] for m in g.record["moves"]]) for g in store.games()] == [(3, ["222"])]


def test_a_database_that_fails_mid_game_is_one_warning_and_the_game_goes_on(tmp_path, capsys):
    from mastermind.cli.recording import Recorder

    store = Store(tmp_path / "h.db")
    recorder = Recorder(store)
    game = Game.breaking(Rules(pegs=3, colors=4), seed=1)
    game.guess("111")
    recorder.save(game.record())
    store.close()  # the database is gone from under the game
    game.guess("222")
    recorder.save(game.record())
    game.guess("333")
    recorder.save(game.record())  # no second warning: each move tries again, the warning is said once
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "warning: the history database" in err and "its next move tries to save it again" in err
    assert recorder.behind and recorder.saved_moves() == 1
    with Store(tmp_path / "h.db") as again:
        assert [m["guess"] for m in again.get(recorder.id).record["moves"]] == ["111"]  # as last saved


def test_the_history_is_exported_as_csv_one_row_per_game_or_per_move(tmp_path):
    import csv
    import io

    db = str(tmp_path / "h.db")
    assert run("guess", "--db", db, *SMALL, "--secret", "123")[0] == 0
    assert run("match", "--db", db, *SMALL, "--players", "knuth,entropy", "--seed", "2")[0] == 0
    run("play", "--db", db, *SMALL, "--seed", "1", input="111\nquit\n")  # given up
    with Store(db) as store:
        guess, match, play = store.games()
    code, out, err = run("history", "--db", db, "--csv", "-")
    assert code == 0 and err == ""
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["id"] for r in rows] == ["1", "2", "3"]
    assert rows[0] == {
        "id": "1",
        "started": guess.started,
        "updated": guess.updated,
        "kind": "guess",
        "pegs": "3",
        "colors": "4",
        "repeats": "1",
        "blank": "0",
        "max_guesses": "10",
        "guesses": str(len(guess.record["moves"])),
        "outcome": "won",
        "finished": "1",
    }
    assert rows[1]["guesses"] == str(sum(g["guesses"] for g in match.record["games"]))
    assert (rows[2]["kind"], rows[2]["outcome"], rows[2]["guesses"]) == ("play", "gave-up", "1")
    path = tmp_path / "moves.csv"
    code, _, err = run("history", "--db", db, "--csv", str(path), "--moves")
    moves = list(csv.DictReader(path.open(newline="")))
    assert code == 0 and err == f"{len(moves)} moves written to {path}\n"
    assert len(moves) == sum(int(r["guesses"]) for r in rows)
    last = [m for m in moves if m["id"] == "1"][-1]
    assert (last["game"], last["guess"], last["black"], last["white"]) == ("", "123", "3", "0")
    in_match = [m for m in moves if m["id"] == "2"]
    assert {m["game"] for m in in_match} == {"1", "2"}
    for number in ("1", "2"):
        game = [m for m in in_match if m["game"] == number]
        assert [m["move"] for m in game] == [str(i) for i in range(1, len(game) + 1)]
        assert game[-1]["black"] == "3"  # each game of the match ends with its code broken
    code, out, _ = run("history", "2", "--db", db, "--csv", "-")  # one game
    assert [r["id"] for r in csv.DictReader(io.StringIO(out))] == ["2"]
    assert run("guess", "--db", db, "--preset", "super-blank", "--secret", "12-34")[0] == 0
    code, out, _ = run("history", "4", "--db", db, "--csv", "-")
    (blank,) = csv.DictReader(io.StringIO(out))  # told apart from 5 pegs of 9 colours
    assert (blank["pegs"], blank["colors"], blank["blank"]) == ("5", "9", "1")


def test_csv_errors_are_one_line(tmp_path):
    db = str(tmp_path / "h.db")
    with Store(db):  # an empty history (one not there is refused first: see below)
        pass
    for args, message in [
        (["--csv", str(tmp_path / "no" / "x.csv")], "cannot write"),
        (["--csv", str(tmp_path)], "is a directory"),
        (["--csv", "-", "--json"], "choose one"),
        (["--moves"], "add --csv FILE"),
        (["5", "--csv", "-"], "there is no game 5 in the history"),
    ]:
        code, out, err = run("history", "--db", db, *args)
        assert code == 2 and out == "" and err.count("\n") == 1 and message in err, (args, err)


def test_two_sessions_write_at_once_and_both_games_are_intact(tmp_path):
    """Two real processes play into the same database at the same time: each move of each game is
    committed, and neither player hears of the other (no 'database is locked')."""
    import itertools

    db = tmp_path / "h.db"
    rules = Rules(pegs=3, colors=4, max_guesses=30)
    players = []
    for seed in (1, 2):
        game = Game.breaking(rules, seed=seed)
        codes = ["".join(c) for c in itertools.product("1234", repeat=3)]
        wrong = [c for c in codes if c != game.notation.format_code(game.secret)][:30]
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "mastermind.cli",
                "play",
                "--db",
                str(db),
                "--seed",
                str(seed),
                *SMALL,
                "--max-guesses",
                "30",
                "--no-color",
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        players.append((proc, wrong))
    try:
        deadline = time.monotonic() + 120  # a generous wait for a slow machine, not a measurement
        started = 0
        for proc, wrong in players:  # a game is kept from its first move: both make theirs
            assert proc.stdin is not None
            proc.stdin.write(f"{wrong[0]}\n")
            proc.stdin.flush()
        while started < 2 and time.monotonic() < deadline and all(p.poll() is None for p, _ in players):
            time.sleep(0.05)
            if db.exists():
                with Store(db) as store:
                    started = len(store.games())
        assert started == 2  # both wait for their second guess: now both get all the others at once
        for proc, wrong in players:
            assert proc.stdin is not None
            proc.stdin.write("".join(f"{c}\n" for c in wrong[1:]))
            proc.stdin.flush()
        outputs = [proc.communicate(timeout=120) for proc, _ in players]
    finally:
        for proc, _ in players:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    for (proc, _), (out, err) in zip(players, outputs, strict=True):
        assert proc.returncode == 1, err  # out of guesses: not won
        assert err == "" and "Out of guesses: the code was " in out
    with Store(db) as store:
        games = store.games()
    assert sorted(g.record["seed"] for g in games) == [1, 2]
    for g in games:
        _, wrong = players[g.record["seed"] - 1]
        assert (g.finished, g.outcome) == (True, "lost")
        assert [m["guess"] for m in g.record["moves"]] == wrong


def _as_a_user_without_override(path) -> list[str]:
    """A command prefix under which file modes apply: none for an ordinary user; as root (which
    writes through any mode), setpriv without CAP_DAC_OVERRIDE. Skips when file modes cannot be
    made to apply here; checks that ``path``, read-only, really cannot be opened for writing."""
    import shutil

    import pytest

    prefix: list[str] = []
    if os.geteuid() == 0:
        if shutil.which("setpriv") is None:
            pytest.skip("running as root without setpriv: a read-only file would still be writable")
        prefix = ["setpriv", "--bounding-set=-dac_override", "--inh-caps=-dac_override"]
    probe = subprocess.run(
        [*prefix, sys.executable, "-c", f"open({str(path)!r}, 'r+b')"],
        capture_output=True,
        text=True,
        check=False,
    )
    if "PermissionError" not in probe.stderr:
        pytest.skip(f"a read-only file can be written here ({probe.stderr.strip() or 'no error'})")
    return prefix


def test_a_read_only_database_is_one_line_and_exit_2_but_no_history_plays(tmp_path):
    db = tmp_path / "h.db"
    run("play", "--db", str(db), *SMALL, "--seed", "1", input="quit\n")
    before = db.read_bytes()
    db.chmod(0o444)
    prefix = _as_a_user_without_override(db)

    def mastermind(*args):
        return subprocess.run(
            [*prefix, sys.executable, "-m", "mastermind.cli", *args, "--db", str(db)],
            input="quit\n",
            capture_output=True,
            text=True,
            check=False,
        )

    for command, hint in [
        (["play", *SMALL], "play"),
        (["guess", *SMALL], "play"),
        (["match", "--players", "knuth,knuth"], "play"),
        (["evaluate", *SMALL], "evaluate"),
        (["compare", *SMALL], "evaluate"),
    ]:
        proc = mastermind(*command)
        assert proc.returncode == 2, (command, proc.stderr)
        assert proc.stdout == ""
        assert proc.stderr == (
            f"mastermind: error: the history database {db} is read-only; "
            f"use --no-history to {hint} without it\n"
        )
    proc = mastermind("play", *SMALL, "--seed", "1", "--no-history")
    assert proc.returncode == 1 and "You gave up: the code was " in proc.stdout and proc.stderr == ""
    proc = mastermind("history")  # reading needs no writing
    assert proc.returncode == 0
    assert proc.stdout.splitlines()[1].split()[3:] == ["play", "3x4", "0", "gave-up", "yes"]
    assert mastermind("stats").returncode == 0
    assert db.read_bytes() == before


def test_a_history_in_a_folder_that_cannot_be_written_is_still_read(tmp_path):
    # SQLite needs the -shm file beside a database in WAL mode even to read it: history, stats
    # and review said "is read-only" (exit 2) where the Store promises a read-only history is listed
    folder = tmp_path / "kept"
    folder.mkdir()
    db = folder / "h.db"
    run("play", "--db", str(db), "--seed", "2026", input="1122\n1344\n1235\n3312\n2154\n")
    before = sorted(folder.iterdir())
    folder.chmod(0o555)
    try:
        prefix = ["setpriv", "--bounding-set=-dac_override", "--inh-caps=-dac_override"]
        prefix = prefix if os.geteuid() == 0 else []  # as root, file modes apply without the override
        probe = [*prefix, sys.executable, "-c", f"open({str(folder / 'probe')!r}, 'x')"]
        try:
            made = "PermissionError" not in subprocess.run(probe, capture_output=True, text=True).stderr
        except FileNotFoundError:  # no setpriv
            made = True
        if made:
            pytest.skip("a file can be made in a read-only folder here")

        def mastermind(*args):
            command = [*prefix, sys.executable, "-m", "mastermind.cli", *args, "--db", str(db)]
            return subprocess.run(command, input="quit\n", capture_output=True, text=True, check=False)

        proc = mastermind("history")
        assert proc.returncode == 0 and proc.stdout.splitlines()[1].split()[3:] == [
            "play",
            "4x6",
            "5",
            "won",
            "yes",
        ]
        assert mastermind("stats").returncode == 0
        proc = mastermind("review", "--json")
        assert proc.returncode == 0 and json.loads(proc.stdout)["summary"]["guesses"] == 5
        proc = mastermind("play", "--seed", "1")  # a game needs to write: refused, as before
        assert proc.returncode == 2 and "read-only; use --no-history to play without it" in proc.stderr
    finally:
        folder.chmod(0o755)
    assert sorted(folder.iterdir()) == before


def test_a_directory_an_empty_name_or_a_huge_id_is_one_line(tmp_path, monkeypatch):
    for args, message in [
        (["play", "--db", str(tmp_path)], "is a directory"),
        (["history", "--db", str(tmp_path)], "is a directory"),
        (["stats", "--db", ""], "path is empty"),
        (["play", "--db", ""], "path is empty"),
        (["history", "99999999999999999999"], "there is no game 99999999999999999999"),
        (["play", "--resume", "99999999999999999999"], "there is no game 99999999999999999999"),
    ]:
        code, out, err = run(*args, input="quit\n")
        assert code == 2 and out == "" and err.count("\n") == 1 and message in err, (args, err)
    monkeypatch.setenv("MASTERMIND_DB", str(tmp_path))  # the environment is not checked by click
    code, out, err = run("play", input="quit\n")
    assert code == 2 and out == ""
    assert (
        err == f"mastermind: error: the history database {tmp_path} is a directory, not a file; use "
        "--no-history to play without it\n"
    )


def test_the_json_of_a_game_or_match_still_played_keeps_its_secret_and_seed(tmp_path):
    db = str(tmp_path / "h.db")
    run("play", "--seed", "77", "--db", db, input="1122\n")  # stopped by the end of input, unfinished
    run("match", "--players", "knuth,human", "--games", "2", "--db", db, input="1122\n")
    [game, match] = json.loads(run("history", "--db", db, "--json")[1])
    assert game["outcome"] == "playing" and (game["secret"], game["seed"]) == (None, None)
    assert json.loads(run("history", "1", "--db", db, "--json")[1])["secret"] is None
    first = match["games"][0]
    assert (
        match["seed"] is None
        and (first["secret"], first["game"]["secret"], first["game"]["seed"]) == (None,) * 3
    )
    # once the game is over, its record is shown whole
    run("play", "--resume", "1", "--db", db, input="quit\n")
    over = json.loads(run("history", "1", "--db", db, "--json")[1])
    assert over["outcome"] == "gave-up" and (over["secret"], over["seed"]) == ("3332", 77)


def test_the_json_a_game_or_match_stopped_prints_keeps_its_secret_and_seed(tmp_path):
    """``--json`` at the end of a game stopped unfinished shows what ``history --json`` shows: no
    secret nor seed, which would let the game (the code of the day, say) be resumed and won."""
    db = str(tmp_path / "h.db")
    code, out, _ = run("play", "--seed", "77", "--db", db, "--json", input="1122\n")
    stopped = json.loads(out)
    assert (
        code == 1 and stopped["outcome"] == "playing" and (stopped["secret"], stopped["seed"]) == (None, None)
    )
    code, out, _ = run(
        "match", "--players", "knuth,human", "--games", "2", "--db", db, "--json", input="1122\n"
    )
    match = json.loads(out)
    first = match["games"][0]
    assert code == 1 and match["seed"] is None
    assert (first["secret"], first["game"]["secret"], first["game"]["seed"]) == (None,) * 3
    code, out, _ = run("play", "--resume", "1", "--db", db, "--json", input="3332\n")  # won: shown whole
    won = json.loads(out)
    assert code == 0 and won["outcome"] == "won" and (won["secret"], won["seed"]) == ("3332", 77)


REFUSED = "--resume goes on with the saved game as it was made (its rules, players, strategy, seed and mode)"


@pytest.mark.parametrize(
    "command, option",
    [
        ("play", ["--hard"]),
        ("play", ["--pegs", "4"]),
        ("play", ["--strategy", "entropy"]),
        ("play", ["--seed", "3"]),
        ("guess", ["--secret", "123"]),
        ("guess", ["--first", "112"]),
        ("guess", ["--colors", "5"]),
        ("match", ["--players", "knuth,entropy"]),
        ("match", ["--hard"]),
        ("match", ["--games", "4"]),
    ],
)
def test_an_option_a_resumed_game_would_ignore_is_refused_in_one_line(tmp_path, command, option):
    """A saved game keeps its own settings: an option that would change them is refused, not
    ignored (play --resume --hard once played on outside hard mode), and the game is untouched."""
    db = str(tmp_path / "h.db")
    with Store(db) as store:
        game = Game.breaking(Rules(pegs=3, colors=4), seed=5) if command == "play" else None
        if game is not None:
            game.guess("111")
            store.add(game.record())
        before = [(g.id, g.record) for g in store.games()]
    code, out, err = run(command, "--db", db, "--resume", *option, input="quit\n")
    assert code == 2 and out == ""
    assert err == f"mastermind: error: {REFUSED}: it takes no {option[0]}\n"
    with Store(db) as store:
        assert [(g.id, g.record) for g in store.games()] == before


def test_options_of_the_session_alone_go_with_resume(tmp_path):
    db = str(tmp_path / "h.db")
    with Store(db) as store:
        game = Game.breaking(Rules(pegs=3, colors=4), seed=5)
        game.guess("111")
        store.add(game.record())
    code, out, err = run("play", "--db", db, "--resume", "--warn-inconsistent", "--json", input="quit\n")
    assert code == 1 and json.loads(out)["outcome"] == "gave-up"


@pytest.mark.parametrize(
    "args",
    [["history"], ["history", "1"], ["history", "--json"], ["history", "--csv", "-"], ["stats"], ["review"]],
)
@pytest.mark.parametrize("where", ["missing-folder/h.db", "h.db"])
def test_a_command_that_reads_the_history_refuses_a_db_that_is_not_there(tmp_path, args, where):
    """An empty history would hide a mistyped --db (play refuses a folder that is not there)."""
    db = str(tmp_path / where)
    code, out, err = run(*args, "--db", db)
    assert code == 2 and out == ""
    assert err == f"mastermind: error: the history database {db!r} does not exist (no game was saved there)\n"
    assert not os.path.exists(db)
