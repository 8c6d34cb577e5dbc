"""A player's record (mastermind.history.stats and mastermind stats): which games count, and the figures."""

import json

import pytest
from click.testing import CliRunner

from mastermind import Rules
from mastermind.cli import cli
from mastermind.errors import MastermindError
from mastermind.games.game import Game
from mastermind.games.match import Match
from mastermind.history.stats import game_stats
from mastermind.history.store import Store

SMALL = Rules(pegs=2, colors=3)


def finished_play(store, seed: int, wrong: int | None = 0, rules=SMALL) -> Game:
    """A play game: ``wrong`` guesses that are not the secret, then the secret (won in wrong + 1);
    given up if ``wrong`` is None."""
    game = Game.breaking(rules, seed=seed)
    if wrong is None:
        game.give_up()
    else:
        secret = game.notation.format_code(game.secret)
        others = [str(c) * rules.pegs for c in range(1, rules.colors + 1) if str(c) * rules.pegs != secret]
        for code in [*others[:wrong], secret]:
            game.guess(code)
    store.add(game.record())
    return game


def test_finished_play_games_count_per_game_size_with_streaks(tmp_path):
    with Store(tmp_path / "h.db") as store:
        finished_play(store, 1)  # won in 1
        finished_play(store, 2, 2)  # won in 3
        finished_play(store, 3, None)  # gave up: the streak ends
        lost = Game.breaking(SMALL, seed=4)
        wrong = next(c for c in ("11", "22", "33") if c != lost.notation.format_code(lost.secret))
        for _ in range(10):
            lost.guess(wrong)
        store.add(lost.record())  # lost: out of guesses
        for seed in (5, 6, 7):
            finished_play(store, seed)  # three won in 1: the best and current streak
        store.add(Game.breaking(SMALL, seed=8).record())  # unfinished: not counted
        finished_play(store, 9, rules=Rules())  # another game size
        guess = Game.solving(SMALL, "knuth", secret="12")
        while not guess.over:
            guess.guess(guess.proposal())
        store.add(guess.record())  # the computer breaking: not in the play figures
        m = Match(SMALL, ["knuth", "entropy"], 2, "standard", 1, "random", "knuth")
        m.play_out()
        store.add(m.record())  # a match: never counted
        games = store.games()
    small, classic = game_stats(games)
    assert (small.rules, small.played, small.won, small.lost, small.gave_up) == (SMALL, 7, 5, 1, 1)
    assert small.distribution == {1: 4, 3: 1}
    assert small.mean_guesses == pytest.approx(7 / 5)
    assert small.win_rate == pytest.approx(5 / 7)
    assert (small.best_streak, small.current_streak, small.unfinished) == (3, 3, 1)
    assert (classic.rules, classic.played, classic.won, classic.distribution) == (Rules(), 1, 1, {1: 1})
    [by_computer] = game_stats(games, "guess")
    assert (by_computer.played, by_computer.won) == (1, 1)
    assert by_computer.distribution == {len(guess.moves): 1}
    with pytest.raises(MastermindError, match="not 'match'"):
        game_stats(games, "match")


def test_a_streak_is_counted_per_game_size_and_ends_with_a_game_not_won(tmp_path):
    with Store(tmp_path / "h.db") as store:
        finished_play(store, 1)
        finished_play(store, 2, rules=Rules())
        finished_play(store, 3)  # the 2x3 streak goes on across the other size's game
        finished_play(store, 4, None)
        games = store.games()
    small = next(s for s in game_stats(games) if s.rules == SMALL)
    assert (small.best_streak, small.current_streak) == (2, 0)
    assert small.mean_guesses == 1.0 and small.to_dict()["mean_guesses"] == 1.0


def test_no_game_won_has_no_mean(tmp_path):
    with Store(tmp_path / "h.db") as store:
        finished_play(store, 1, None)
        [s] = game_stats(store.games())
    assert (s.played, s.won, s.mean_guesses, s.win_rate) == (1, 0, None, 0.0)
    assert s.to_dict()["mean_guesses"] is None


def test_the_stats_command_renders_the_library_figures(tmp_path):
    db = str(tmp_path / "h.db")
    with Store(db) as store:
        for seed in (1, 2):
            finished_play(store, seed)
        finished_play(store, 3, None)
        expected = [s.to_dict() for s in game_stats(store.games())]
    result = CliRunner().invoke(cli, ["stats", "--db", db, "--json"])
    assert result.exit_code == 0
    assert json.loads(result.stdout) == expected
    assert expected[0]["played"] == 3 and expected[0]["distribution"] == {"1": 2}
    chart = tmp_path / "record.png"
    result = CliRunner().invoke(cli, ["stats", "--db", db, "--plot", str(chart)], env={"COLUMNS": "80"})
    assert result.exit_code == 0 and chart.stat().st_size > 1000
    lines = result.stdout.splitlines()
    assert "…" not in result.stdout and max(map(len, lines[1:])) <= 80  # the table fits, headers whole
    header = [line.split() for line in lines if "played" in line or "streak" in line]
    assert header == [
        ["win", "gave", "best", "streak"],
        ["game", "played", "won", "unaided", "rate", "mean", "distribution", "lost", "up", "streak", "now"],
    ]
    row = next(line for line in lines if "2x3" in line)
    assert row.split() == ["2x3", "3", "2", "2", "67%", "1.00", "1:2", "0", "1", "2", "0"]


def test_stats_of_an_empty_history_and_a_chart_of_nothing(tmp_path):
    db = str(tmp_path / "h.db")
    with Store(db):  # an empty history (a --db that is not there is refused: test_cli_history)
        pass
    result = CliRunner().invoke(cli, ["stats", "--db", db])
    assert result.exit_code == 0 and result.stdout == "No finished play games in the history yet.\n"
    result = CliRunner().invoke(cli, ["stats", "--db", db, "--plot", str(tmp_path / "x.png")])
    assert result.exit_code == 2 and "there are no finished games to draw" in result.stderr
    assert result.stderr.count("\n") == 1
    result = CliRunner().invoke(cli, ["stats", "--db", db, "--plot", str(tmp_path / "x.txt")])
    assert result.exit_code == 2 and "must end in .png" in result.stderr
