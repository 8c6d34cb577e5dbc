"""mastermind match, through the command line."""

import json
import re
import signal
import subprocess
import sys

import pytest
from click.testing import CliRunner

from conftest import kill_after_moves
from mastermind.cli import cli

WRONG_THEN_RIGHT = ["", "1,0", "0,1", "1,2", "1,2", "0,2", "1,0", "0,1", "1,2", "1,1", "4,0"]


def run(*args, input=None):
    result = CliRunner().invoke(cli, ["match", *args], input=input)
    return result.exit_code, result.stdout, result.stderr


def test_a_strategy_tournament_prints_the_match_record():
    code, out, err = run("--players", "knuth,entropy", "--games", "10", "--seed", "4", "--json")
    assert code == 0
    record = json.loads(out)
    assert record["players"] == ["knuth", "entropy"] and record["scoring"] == "standard"
    assert len(record["games"]) == 10 and record["finished"]
    for number, g in enumerate(record["games"], 1):
        assert (g["maker"], g["breaker"]) == ((1, 2) if number % 2 else (2, 1))
        assert g["broken"] and g["replayed"] == 0 and len(g["secret"]) == 4
        assert sum(g["points"]) == g["guesses"] == len(g["game"]["moves"])
    assert record["score"] == [sum(g["points"][i] for g in record["games"]) for i in (0, 1)]
    a, b = record["score"]
    assert record["winner"] == (None if a == b else 1 if a > b else 2)
    assert f"The match is over: player {record['winner']} (" in err
    again = json.loads(run("--players", "knuth,entropy", "--games", "10", "--seed", "4", "--json")[1])
    assert again == record  # the same seed, the same match


def test_an_odd_number_of_games_and_unknown_players_are_refused_in_one_line():
    for args, message in [
        (["--players", "knuth,entropy", "--games", "3"], "even number of games"),
        (["--players", "knuth,entropy", "--games", "0"], "a match has at least 2 games"),
        (["--players", "knuth,entropy", "--games", "-2"], "a match has at least 2 games"),
        (["--players", "knuth,entropy", "--games", "99999999999999999999"], "at most 10,000 games"),
        (["--players", "knuth"], "two players"),
        (["--players", "knuth,nobody"], "unknown player 'nobody'; choose human or one of"),
        (["--players", "knuth,entropy", "--scoring", "most"], "'most' is not one of"),
        (["--players", "knuth,entropy", "--seed", "-1"], "a seed must be a whole number, 0 or more"),
    ]:
        code, out, err = run(*args)
        assert code == 2 and message in err and err.count("\n") == 1, (args, err)


@pytest.mark.parametrize(
    "games, message",
    [
        ("10002", "a match has at most 10,000 games, not 10,002"),
        ("-20000", "a match has at least 2 games (each player makes a code), not -20,000"),
        ("10001", "a match has at most 10,000 games, not 10,001"),
        ("1001", "a match has an even number of games (each makes as many codes), not 1,001"),
        ("1" * 60, f"a match has at most 10,000 games, not {'111,' * 10}... (60 digits)"),
    ],
)
def test_the_number_of_games_refused_is_written_as_every_number_is_never_quoted(games, message):
    code, out, err = run("--players", "knuth,entropy", "--games", games)
    assert (code, err) == (2, f"mastermind: error: {message}\n")


def test_a_human_codemaker_who_gives_wrong_information_has_the_game_replayed():
    script = "\n".join(WRONG_THEN_RIGHT) + "\n"
    code, out, err = run("--players", "human,knuth", "--seed", "3", "--json", input=script)
    assert code == 1  # the input ends in game 2: the match stops with the score so far
    record = json.loads(out)
    first = record["games"][0]
    assert first["replayed"] == 1 and first["broken"] and first["guesses"] == 5
    assert first["points"] == [5, 3] and record["score"] == [5, 3] and not record["finished"]
    assert "Wrong information: the replies contradict each other" in err
    assert "player 2 (knuth) gets 3 points" in err
    assert (
        "Match stopped after 1 of 2 games. Score: player 1 (human) 5, player 2 (knuth) 3; resume with "
        "mastermind match --resume 1."
    ) in err


def test_a_match_stopped_in_a_replayed_game_counts_the_points_already_given_for_wrong_information():
    script = "\n".join(WRONG_THEN_RIGHT[:6]) + "\n"  # row 5 shows the replies wrong; then the input ends
    code, out, err = run("--players", "human,knuth", "--seed", "3", "--json", input=script)
    assert code == 1 and "player 2 (knuth) gets 3 points" in err
    assert (
        "Match stopped after 0 of 2 games. Score: player 1 (human) 0, player 2 (knuth) 3; resume with "
        "mastermind match --resume 1."
    ) in err
    record = json.loads(out)
    (first,) = record["games"]
    assert first["replayed"] == 1 and first["game"]["moves"] == []  # the game played again: no row yet
    (replay,) = first["replays"]  # the game given up for wrong information, row by row
    assert [m["reply"] for m in replay["moves"]] == ["1,0", "0,1", "1,2", "1,2", "0,2"]


def test_the_history_shows_the_guesses_of_a_game_replayed_for_wrong_information(tmp_path):
    db = str(tmp_path / "h.db")
    script = "\n".join(WRONG_THEN_RIGHT) + "\n"
    assert (
        CliRunner()
        .invoke(cli, ["match", "--db", db, "--players", "human,knuth", "--seed", "3"], input=script)
        .exit_code
        == 1
    )
    result = CliRunner().invoke(cli, ["history", "1", "--db", db])
    out = result.stdout
    assert result.exit_code == 0 and "score human 5, knuth 3" in out
    replayed = out.index("Game 1 of the match, replayed: the replies contradict each other:")
    again = out.index("Game 1 of the match, played again:")
    assert replayed < again
    rows = [line.split() for line in out[replayed:again].splitlines()[2:]]
    assert [row[0] for row in rows] == ["1", "2", "3", "4", "5"]  # every row of the game given up
    assert [" ".join(row[-4:]) for row in rows][-1] == "0 black, 2 white"
    assert "4 black, 0 white" in out[again:]  # and the game played again, broken


def test_help_and_hint_at_the_guess_and_reply_prompts():
    code, out, _ = run("--players", "human,human", "--seed", "5", input="1234\nhelp\nhint\nquit\n")
    assert code == 1  # P1 hides 1234; P2 asks for help and a hint, then stops
    assert "Type a code of 4 pegs, colours 1-6 (e.g. 1234); hint: ask knuth;" in out
    # the hint that teaches, in the words of play and the terminal board (it was one line here)
    assert "Hint: 1,296 codes are still possible.\n  knuth would play 1122: it splits them into 13" in out
    code, out, _ = run(
        "--players", "knuth,human", "--seed", "5", "--scoring", "codebreaker", input="1111\nhint\nquit\n"
    )
    hint = re.search(r"Hint: (\d+) codes are still possible\.\n  knuth would play \d{4}", out)
    assert code == 1 and hint and int(hint.group(1)) < 1296  # P2 breaks knuth's code: after a guess
    code, out, _ = run("--players", "human,knuth", "--seed", "5", input="\nhelp\nhint\n1,0\nquit\n")
    # the codemaker's help: knuth's guesses are never taken back, so no undo is offered
    assert "Reply BLACK,WHITE (e.g. 1,2), key pegs (BWW) or - for none; quit, Ctrl-D or Ctrl-C" in out
    assert "No hint for the codemaker: hints are for the one breaking the code." in out
    assert "Guess 2:" in out  # the reply after them was taken


def test_two_humans_share_the_keyboard_with_the_computer_as_referee():
    script = "3632\n1122\n3632\n1234\n1234\n"  # P1 hides 3632, P2 breaks it; P2 hides 1234, P1 guesses it
    code, out, _ = run("--players", "human,human", "--scoring", "codebreaker", input=script)
    assert code == 0
    assert "Game 1: player 2 broke the code 3632 in 2 guesses. Points: player 1 0, player 2 2." in out
    assert "Game 2: player 1 broke the code 1234 in 1 guess. Points: player 1 1, player 2 0." in out
    assert "The match is over: player 1 wins, 1 point to 2." in out  # (codebreaker: fewest wins)


def test_a_refused_secret_is_never_quoted_nor_echoed():
    # each refused secret is refused in one line that names none of what was typed
    script = "12345\n7777\n3.32\n3632\n3632\n"
    code, out, _ = run("--players", "human,knuth", "--seed", "1", input=script)
    assert code == 1  # the input ends in game 2
    refused = (
        "Not a code of this game: a secret is 4 pegs, colours 1-6, a-f or RGBYOP "
        "(what you typed is not shown)."
    )
    before = out[: out.index("Secret set: the computer scores the guesses.")]
    assert before.count(refused) == 3 and before.count("\n") == 9  # match, game, 4 prompts, 3 refusals
    for typed in ("12345", "7777", "'7'", "3.32", "'.'", "5 symbols", "3632"):
        assert typed not in before, typed
    assert "Game 1: player 2 (knuth) broke the code 3632 in" in out
    # a drawn seed could hold 1123
    args = ("--players", "human,human", "--games", "2", "--colors", "8", "--no-repeats", "--seed", "7")
    code, out, _ = run(*args, input="1123\n")
    assert "a secret is 4 pegs, colours 1-8, a-h or RGBYOPCW, no repeats (what you typed is not shown)" in out
    assert "1123" not in out


def test_a_replied_guess_stands_and_only_an_unanswered_one_is_taken_back():
    # P1 hides 1122; P2 sees the replies to 1234, 3456 and 1111 (each undo is refused) and breaks it
    # with the fourth guess. In game 2 P2 replies by hand: P1 guesses 1111 and P2, at the reply
    # prompt, withdraws that guess before answering it; nothing is left to undo then
    script = "1122\nundo\n1234\nundo\n3456\n1111\nundo\nundo\nundo\n1122\n\n1111\nundo\nundo\n1234\n4,0\n"
    code, out, _ = run("--players", "human,human", "--scoring", "codebreaker", input=script)
    assert code == 0, out
    assert "Nothing to undo: no guess yet." in out
    assert "Guess 1 has had its reply: in a match a replied guess stands." in out
    assert out.count("Guess 3 has had its reply: in a match a replied guess stands.") == 3
    assert "Game 1: player 2 broke the code 1122 in 4 guesses. Points: player 1 0, player 2 4." in out
    assert out.count("took back") == 1 and "Player 1 took back guess 1: it had no reply yet." in out
    assert "Game 2: player 1 broke the code in 1 guess." in out  # (replied by hand: no code known)
    assert "The match is over: player 1 wins, 1 point to 4." in out


def test_a_codemaker_replying_to_a_strategy_cannot_undo():
    code, out, _ = run("--players", "human,knuth", "--seed", "1", input="\nundo\nquit\n")
    assert code == 1
    assert "Knuth breaks this code: a strategy's guesses are not taken back" in out


def test_ctrl_c_stops_the_match_with_the_score_so_far():
    proc = subprocess.Popen(
        [sys.executable, "-m", "mastermind.cli", "match", "--players", "human,knuth", "--seed", "1"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    assert "A match of 2 games" in proc.stdout.readline()  # the match has started: interrupt it
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 1 and "Traceback" not in err
    assert "Match stopped after 0 of 2 games" in out


def test_a_match_killed_mid_game_resumes_from_its_last_move(tmp_path):
    """A real process, killed with SIGKILL in game 2 after two guesses, loses nothing that was
    played: the match goes on with the same secret, rows and score."""

    from mastermind.core.rules import Rules
    from mastermind.games.match import Match
    from mastermind.history.store import Store

    db = tmp_path / "h.db"
    model = Match(Rules(), ["human", "knuth"], 2, seed=1)
    model.set_secret("1234")
    model.play_out()  # knuth breaks 1234, then makes the code of game 2: the one to find
    secret = model.current.game.notation.format_code(model.current.game.secret)
    first, second = [c for c in ("1111", "2222", "3333") if c != secret][:2]

    def moves_of_game_2(games):
        rounds = games[0].record["games"] if games else []
        return len(rounds[1]["game"]["moves"]) if len(rounds) > 1 else 0

    seen, status = kill_after_moves(
        ["match", "--players", "human,knuth", "--seed", "1"],
        f"1234\n{first}\n{second}\n",
        db,
        moves_of_game_2,
    )
    assert seen == 2 and status == -signal.SIGKILL
    with Store(db) as store:
        [stored] = store.games()
    assert (stored.kind, stored.finished, stored.outcome) == ("match", False, "playing")
    game_1, game_2 = stored.record["games"]
    assert game_1["secret"] == "1234" and game_1["finished"] and game_2["secret"] == secret
    assert [m["guess"] for m in game_2["game"]["moves"]] == [first, second]
    result = CliRunner().invoke(cli, ["match", "--db", str(db), "--resume"], input=f"{secret}\n")
    assert result.exit_code == 0, result.output
    score = f"Score: player 1 (human) {game_1['guesses']}, player 2 (knuth) 0."
    assert f"Resuming match {stored.id}: 1 of 2 games played. {score}" in result.stdout
    assert f"Game 2: you broke the code {secret} in 3 guesses." in result.stdout
    with Store(db) as store:
        done = store.get(stored.id)
    assert done.finished and done.record["games"][0] == game_1
    assert [m["guess"] for m in done.record["games"][1]["game"]["moves"]] == [first, second, secret]
    assert done.record["score"] == [game_1["guesses"], 3]
    model.guess(first), model.guess(second), model.guess(secret)
    assert done.record == model.record()  # the match as if it had never been stopped


def test_match_resume_errors_are_one_line(tmp_path):
    db = str(tmp_path / "h.db")
    code, _, err = run("--db", db, "--resume")
    assert code == 2 and "there is no unfinished match in the history" in err and err.count("\n") == 1
    assert run("--db", db, "--players", "knuth,entropy")[0] == 0
    code, _, err = run("--db", db, "--resume", "1")
    assert code == 2 and "match 1 is over" in err and err.count("\n") == 1
    code, _, err = run("--db", db)
    assert code == 2 and "Missing option '--players'" in err and err.count("\n") == 1


def test_a_strategy_thinking_in_a_match_is_shown(monkeypatch):
    """An optimal breaker searches its whole tree at its first move: the match says who thinks
    (a spinner on a terminal), as play and guess do."""
    from contextlib import contextmanager

    import mastermind.cli.match as match_cli

    shown = []

    @contextmanager
    def thinking(console, who):
        shown.append(who)
        yield

    monkeypatch.setattr(match_cli, "thinking", thinking)
    code, out, err = run(
        "--players",
        "knuth,optimal",
        "--pegs",
        "3",
        "--colors",
        "3",
        "--games",
        "2",
        "--seed",
        "1",
        "--no-history",
    )
    assert code == 0, err
    assert "player 2 (optimal)" in shown and "player 1 (knuth)" in shown


def test_a_breaker_who_repeats_a_guess_is_warned_once_as_in_play():
    lines = "1122\n1122\n1122\nquit\n"
    code, out, _ = run("--players", "knuth,human", "--games", "2", "--seed", "1", "--no-history", input=lines)
    assert out.count("You played 1122 already (row 1): it would get the same reply") == 1
    assert re.search(r"^\s+2\s+1\s+1\s+2\s+2", out, re.M)  # typed again, it was played as row 2


def test_warn_inconsistent_points_out_a_guess_that_cannot_be_the_secret_once_then_plays_it():
    """As in mastermind play: the games package's words, then the guess typed again is played."""
    from mastermind import Code, Match, Rules, score

    drawn = Match(Rules(), ["knuth", "human"], 2, "standard", 1, "random", "knuth")
    drawn.advance()  # knuth's code for game 1, as the command draws it with --seed 1
    first = Code("1122", Rules())
    reply = score(first, drawn.current.game.secret)
    assert reply != score(first, "3456")  # 3456 cannot be the secret
    lines = "1122\n3456\n3456\nquit\n"
    args = ("--players", "knuth,human", "--games", "2", "--seed", "1", "--no-history")
    code, out, _ = run(*args, "--warn-inconsistent", input=lines)
    warning = f"3456 cannot be the secret: guess 1, 1122, got {reply.black} black, {reply.white} white"
    assert out.count(warning) == 1 and "Type it again to play it anyway." in out
    assert re.search(r"^\s+2\s+3\s+4\s+5\s+6", out, re.M)  # typed again, it was played as row 2
    code, out, _ = run(*args, input=lines)
    assert "cannot be the secret" not in out  # not asked for: played at once


def test_an_empty_line_at_a_hand_typed_reply_is_no_reply():
    """In a match a replied guess stands, and a wrong reply costs points: Enter alone at the reply
    prompt asks again rather than answer 0,0 (no key pegs is typed, as in `mastermind guess`)."""
    script = "\n\n4,0\n"  # at the secret's prompt Enter (reply by hand); then Enter; then the win
    code, out, err = run("--players", "human,knuth", "--seed", "5", "--json", input=script)
    assert code == 1  # the input ends in game 2
    first = json.loads(out)["games"][0]
    assert first["guesses"] == 1 and first["broken"] and first["replayed"] == 0
    assert err.count("Guess 1: 1122") == 2  # asked again after the empty line


def test_a_match_stopped_with_no_history_says_the_match_cannot_be_resumed():
    # it said "(the game is not saved in the history: ...)": the words play uses for its game
    code, out, err = run("--players", "human,knuth", "--seed", "3", "--no-history", input="")
    assert code == 1
    assert (
        "Match stopped after 0 of 2 games. Score: player 1 (human) 0, player 2 (knuth) 0 "
        "(the match is not saved in the history: it cannot be resumed)."
    ) in out


def test_a_match_stopped_before_its_first_code_keeps_nothing_and_then_keeps_the_code_set(tmp_path):
    # one rule for every front end (worth_keeping): the command line kept an empty match as
    # "resume with --resume 1", where the web page kept nothing, and nothing was there to resume
    db = str(tmp_path / "h.db")
    code, out, _ = run("--db", db, "--players", "human,knuth", "--seed", "3", input="")
    assert code == 1 and "before any move: there is nothing to resume" in out
    listed = CliRunner().invoke(cli, ["history", "--db", db])
    assert listed.exit_code == 0 and "No games in the history yet" in listed.stdout
    code, out, _ = run("--db", db, "--players", "human,knuth", "--seed", "3", input="1234\n")
    assert code == 1 and f"resume with mastermind match --db {db} --resume 1." in out  # a code set kept
    listed = CliRunner().invoke(cli, ["history", "--db", db, "--json"])
    assert [g["kind"] for g in json.loads(listed.stdout)] == ["match"]


@pytest.mark.parametrize(
    "players, message",
    [
        # "human" was not among the names offered, though a player may be one
        ("knuth,foo", "unknown player 'foo'; choose human or one of: knuth, expected-size, "),
        # it said "unknown strategy ''"
        (",knuth", "player 1's name is empty; choose human or one of: knuth, "),
        ("knuth,", "player 2's name is empty; choose human or one of: knuth, "),
    ],
)
def test_an_unknown_or_empty_player_is_refused_naming_human_among_the_choices(players, message):
    code, out, err = run("--players", players)
    assert code == 2 and err.startswith(f"mastermind: error: {message}") and err.count("\n") == 1, err
