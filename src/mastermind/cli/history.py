"""history: the games kept in the history database, as a list, one board, or JSON records."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import click

from ..core.records import rules_from_dict
from ..core.text import guess_count
from ..history.stats import KINDS
from ..history.store import GAME_COLUMNS, MOVE_COLUMNS, local_time, moves_of
from . import cli
from .common import TakesGameId, db_option, fail, note_left_out, open_store
from .console import board, color_option, console_for
from .files import check_output, check_plot

if TYPE_CHECKING:
    from ..core.notation import Notation
    from ..games.game import Game
    from ..history.store import Store, StoredGame


def when(stamp: str) -> str:
    """A stored UTC time, in local time to the minute (as the board's history shows it)."""
    return local_time(stamp)


def entry(stored: StoredGame) -> dict[str, Any]:
    """A stored game as JSON: its record as it may be shown (no secret while it is played)."""
    from ..games.game_record import shown

    return {
        "id": stored.id,
        "started": stored.started,
        "updated": stored.updated,
        **shown(stored.record),
        "finished": stored.finished,
        "moves": moves_of(stored.record),
    }


@cli.command(cls=TakesGameId)
@click.argument("game_id", type=int, required=False, metavar="[ID]")
@db_option
@click.option("--json", "as_json", is_flag=True, help="The records as JSON (one object with ID).")
@click.option(
    "--csv",
    "csv_path",
    metavar="FILE",
    # the columns named from the list the export writes, so that the help cannot leave one out
    help=f"Write the games as CSV to FILE (- for stdout): {', '.join(GAME_COLUMNS)}.",
)
@click.option(
    "--moves",
    is_flag=True,
    help=f"With --csv: one row per move instead ({', '.join(MOVE_COLUMNS)}; game: the game of a match).",
)
@color_option
def history(game_id: int | None, db: str | None, as_json: bool, csv_path: str | None, moves: bool) -> None:
    """The games saved by play, guess and match: a list, or game ID's board.

    Every game is saved after each move, so a game that was stopped or killed is listed as
    unfinished and can be resumed (mastermind play --resume ID).

    \b
    Examples:
      mastermind history
      mastermind history 3
      mastermind history --json
      mastermind history --csv games.csv
      mastermind history --csv - --moves       # one row per move, on stdout
    """
    if as_json and csv_path is not None:
        fail("--json and --csv are two outputs: choose one")
    if moves and csv_path is None:
        fail("--moves is a layout of --csv: add --csv FILE (or --csv - for stdout)")
    if csv_path is not None:
        check_output(csv_path, "--csv", stdout=True)
    store = open_store(db, write=False)
    if csv_path is not None:
        export(store, game_id, csv_path, moves)
        return
    if game_id is not None:
        stored = store.get(game_id)
        if as_json:
            click.echo(json.dumps(entry(stored)))
            return
        show_game(stored)
        return
    games = store.games()
    note_left_out(store)
    if as_json:
        click.echo(json.dumps([entry(g) for g in games]))
        return
    if not games:
        click.echo(f"No games in the history yet ({store.path}).")
        return
    click.echo(f"{'id':>4}  {'when':16}  {'kind':5}  {'rules':16}  {'guesses':>7}  {'outcome':9}  finished")
    for g in games:
        rules = rules_from_dict(g.record["rules"]).short_name()
        n = len(moves_of(g.record))
        done = "yes" if g.finished else "no"
        click.echo(f"{g.id:>4}  {when(g.started):16}  {g.kind:5}  {rules:16}  {n:>7}  {g.outcome:9}  {done}")


def export(store: Store, game_id: int | None, path: str, moves: bool) -> None:
    """Game ``game_id`` (or every game) as CSV to ``path``, - for stdout."""
    import sys

    from ..history.store import write_csv

    games = [store.get(game_id)] if game_id is not None else store.games()
    note_left_out(store)
    if path == "-":
        write_csv(games, sys.stdout, moves)
        return
    try:
        with open(path, "w", newline="", encoding="utf-8") as stream:
            rows = write_csv(games, stream, moves)
    except OSError as err:
        fail(f"cannot write {path}: {err.strerror or err}")
    click.echo(f"{rows} {'move' if moves else 'game'}{'s' if rows != 1 else ''} written to {path}", err=True)


def show_game(stored: StoredGame) -> None:
    """One game's board (each game of a match); the secret only once the game is over."""
    from ..core.notation import Notation
    from ..games.game import Game
    from ..games.match import Match

    console = console_for()
    record = stored.record
    state = "finished" if stored.finished else "unfinished"
    console.print(
        f"Game {stored.id}: {stored.kind}, started {when(stored.started)}, {state}, {stored.outcome}.",
        markup=False,
    )
    games: list[tuple[str, Game]]  # a heading (none for a game of one's own) and the game
    if stored.kind == "match":
        m = Match.from_record(record)
        score = ", ".join(f"{player} {points}" for player, points in zip(m.players, m.standing, strict=True))
        console.print(f"Players: {', '.join(m.players)}; scoring {m.scoring}; score {score}.", markup=False)
        games = []
        for r in m.rounds:
            for n, replay in enumerate(r.replays, 1):  # the games given up for wrong information
                again = "" if len(r.replays) == 1 else f" (time {n})"
                games.append(
                    (
                        f"Game {r.number} of the match, replayed{again}: the replies contradict each other",
                        replay,
                    )
                )
            if r.game is not None:
                games.append(
                    (f"Game {r.number} of the match" + (", played again" if r.replays else ""), r.game)
                )
    else:
        games = [("", Game.from_record(record))]
    for heading, game in games:
        if heading:
            console.print(f"{heading}:", markup=False)
        notation = Notation(game.rules)
        console.print(f"  {notation.describe_game()}, {guess_count(game.rules.max_guesses)}", markup=False)
        secret = game.secret if game.over else None
        board(console, notation, game.history, game.rules, secret)
        for line in assist_lines(game, notation):
            console.print(line, markup=False)


def assist_lines(game: Game, notation: Notation) -> list[str]:
    """The help the breaker had, in order: hints asked and guesses taken back, with the guess each
    came at; then the replies fixed, each with the reply it had."""
    out = []
    for a in game.assists:
        if a.kind == "hint":
            out.append(f"  before guess {a.turn}: asked a hint ({notation.format_code(a.guess)})")
        else:
            out.append(f"  at guess {a.turn}: took back {notation.format_code(a.guess)} ({a.reply})")
    fixes = []  # the replies fixed, each with the reply it had and the guess made after the fix
    for row, m in enumerate(game.moves, 1):
        replies = [was for was, _ in m.fixed] + [m.reply]
        for (was, turn), now in zip(m.fixed, replies[1:], strict=True):
            fixes.append((turn, row, m.guess, was, now))
    for turn, row, guess, was, now in sorted(fixes, key=lambda f: f[0]):
        code = notation.format_code(guess)
        out.append(f"  before guess {turn}: fixed row {row} ({code}) from {was} to {now}")
    counted = sum(a.kind == "hint" for a in game.assists)
    if game.hints > counted:  # a record older than version 3 counts its hints only
        out.append(f"  {game.hints - counted} hint{'s' if game.hints - counted != 1 else ''} asked")
    return out


@cli.command()
@click.option(
    "--kind",
    type=click.Choice(KINDS),
    default="play",
    show_default=True,
    help="play: your games breaking the computer's code; guess: the computer breaking yours.",
)
@db_option
@click.option("--json", "as_json", is_flag=True, help="A JSON list, one object per game size.")
@click.option("--plot", metavar="FILE", help="Also draw the guesses as bar charts (.png, .svg, .pdf).")
@color_option
def stats(kind: str, db: str | None, as_json: bool, plot: str | None) -> None:
    """Your record from the history: games played and won, guesses, streaks, per game size.

    Only finished games count, one table row per game size (pegs, colours, repeats, guesses
    allowed). By default the games of 'play', where you break the computer's code: won is the
    code broken, and a game lost (out of guesses) or given up is played and not won; the mean
    and the distribution are of the guesses of the won games. --kind guess gives the same
    figures for the computer breaking the codes you kept. Matches have their own score (see
    'mastermind history ID') and are not counted. A streak is a run of won games in the order
    they were started: the best one, and the current one (0 if the latest game was not won).
    Unaided counts the games won without a hint or a guess taken back. The codes of the day
    (play --daily) count apart, in a line below the table (not in --json).

    \b
    Examples:
      mastermind stats
      mastermind stats --json
      mastermind stats --plot record.png
    """
    from ..history.stats import game_stats
    from ..research.plot import plot_game_stats

    if plot:
        check_plot(plot)
    store = open_store(db, write=False)
    games = store.games(kind)  # read once (every record by the engine): the table and the daily line
    groups = game_stats(games, kind)
    note_left_out(store)
    finished = [s for s in groups if s.played]
    if plot:
        written = plot_game_stats(finished, plot)
        click.echo(f"chart written to {written}", err=True)
    if as_json:
        click.echo(json.dumps([s.to_dict() for s in groups]))
        return
    daily = codes_of_the_day(games) if kind == "play" else None
    if not finished:
        waiting = sum(s.unfinished for s in groups)
        more = f" ({waiting} unfinished: mastermind {kind} --resume)" if waiting else ""
        click.echo(f"No finished {kind} games in the history yet{more}." if daily is None else daily)
        return
    who = "Your games breaking the computer's code" if kind == "play" else "The computer breaking your codes"
    console_for().print(stats_table(finished, f"{who} ({store.path})"))
    waiting = sum(s.unfinished for s in groups)
    if waiting:
        click.echo(
            f"{waiting} unfinished game{'s' if waiting != 1 else ''} not counted "
            f"(mastermind {kind} --resume)."
        )
    if daily is not None:
        click.echo(daily)


def codes_of_the_day(games: list[StoredGame]) -> str | None:
    """The line of the codes of the day (``play --daily``) among the history's ``games`` of play,
    which count apart from the other games: played, won, the streak; None where none is finished."""
    from ..games.daily import daily_stats, today

    d = daily_stats(games, today())
    return d.summary() if d.played else None


def stats_table(finished: list[Any], title: str) -> Any:
    """The statistics as a rich table of one row per game size; it fits 80 columns, every header
    whole (no side borders, headers on two lines)."""
    from rich import box
    from rich.table import Table

    table = Table(
        title=title,
        title_justify="left",
        box=box.SIMPLE_HEAD,
        show_edge=False,
        pad_edge=False,
        collapse_padding=True,
    )
    left = ("game", "distribution")
    for column in ("game", "played", "won", "unaided", "win\nrate", "mean", "distribution", "lost"):
        table.add_column(column, justify="left" if column in left else "right")
    for column in ("gave\nup", "best\nstreak", "streak\nnow"):
        table.add_column(column, justify="right")
    for s in finished:
        mean = "-" if s.mean_guesses is None else f"{s.mean_guesses:.2f}"
        dist = " ".join(f"{k}:{n}" for k, n in s.distribution.items()) or "-"
        cells = (s.played, s.won, s.won_unaided, f"{s.win_rate:.0%}", mean, dist, s.lost, s.gave_up)
        table.add_row(s.rules.short_name(), *map(str, cells), str(s.best_streak), str(s.current_streak))
    return table
