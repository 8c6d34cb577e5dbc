"""review: a game valued move by move against the optimum (the games package's mastermind.review, drawn)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import click

from ..core.text import guess_count
from . import cli
from .common import db_option, fail, note_left_out, open_store
from .console import color_option, console_for
from .files import check_plot
from .game_options import game_notation, game_options
from .progress import progress_bar

if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from rich.console import Console

    from ..core.notation import Notation
    from ..core.rules import Rules
    from ..games.review import Review
    from ..games.sessions import Session
    from ..history.store import StoredGame


def check_budget(ctx: click.Context, param: click.Parameter, value: str | None) -> float | None:
    """A duration as evaluate's --budget takes it (90, 90s, 2m), or 0: the heuristic line at once."""
    from ..core.text import parse_duration

    if value is None:
        return None
    try:
        return 0.0 if value.strip() in ("0", "0s") else parse_duration(value)
    except ValueError as err:
        raise click.BadParameter(str(err)) from None


@cli.command()
@click.argument("history", nargs=-1, metavar="[HISTORY ...]")
@click.option("--game", "game_id", type=int, metavar="ID", help="Review game ID of the history.")
@game_options
@db_option
@click.option("--json", "as_json", is_flag=True, help="The review as JSON.")
@click.option(
    "--plot",
    metavar="FILE",
    help="Also draw the codes left after each guess, against what the best guesses would have left "
    "(.png, .svg, .pdf).",
)
@click.option(
    "--budget",
    metavar="DURATION",
    callback=check_budget,
    help="How long the exact search may take per move before the expected-size line stands in "
    "(seconds, or 90s, 2m; 0: that line at once) [3]: in every game, whatever its size (a game of "
    "up to 1,296 codes searches its whole tree first, within it). What is read from a book, a tree "
    "or the cache, and small positions, are exact whatever the budget. On a fresh install the exact "
    "search is compiled once, in the background (a minute or two, or 'mastermind compile' now): "
    "until then moves are valued by the expected-size line, and the summary says so.",
)
@click.option(
    "--practice",
    is_flag=True,
    help="Then practise: back to the position before each mistake or blunder, to find a better guess.",
)
@click.option(
    "--puzzles",
    is_flag=True,
    help="Puzzles from the mistakes of your latest 20 finished games of this game (options) and, in "
    "the classic game, from its optimal trees, the one rated nearest your rating served first, with "
    "a rating of your own that the first try at each moves (kept beside the history, as the web "
    "page's).",
)
@color_option
def review(
    history: tuple[str, ...],
    game_id: int | None,
    rules: Rules,
    db: str | None,
    as_json: bool,
    plot: str | None,
    budget: float | None,
    practice: bool,
    puzzles: bool,
) -> None:
    """Every move of a game against the optimum: the codes possible before and after, the
    information of the reply, the expected number of guesses from the move on with the guess
    played and with the best guess (exact, by the optimal search, within the game's guess
    limit), the loss, and a verdict: best, good (loss under 0.1), inaccuracy (under 0.3),
    mistake (under 0.6) or blunder. A '!' marks a move after which the code was known and not
    played next; 'x' a guess that could not be the secret; '~' a move valued by the
    expected-size line, where the exact search ran past --budget; 'f' a move made knowing a
    reply fixed later, valued as it was told then; 'h' a hint played (its strategy chooses by
    its own aim, which the legend names, not by the guesses expected).

    Without HISTORY or --game: the latest finished game of 'mastermind play'. With --game the
    game options are those of the saved game (the ones given are ignored).

    \b
    Examples:
      mastermind review                        # your last game of 'mastermind play'
      mastermind review --game 12 --json
      mastermind review 1122=1,1 1344=1,1 1235=0,3 3312=0,2 2154=4,0
      mastermind review --preset bulls-and-cows 0123=0,1 4567=1,1 --budget 10
      mastermind review --game 12 --plot review.png
      mastermind review --practice             # then find better guesses where you erred
      mastermind review --puzzles              # puzzles from your games and the trees, rated
    """
    from ..core.records import rules_from_dict
    from ..games.review import DEFAULT_BUDGET

    if plot:
        check_plot(plot)
    if history and game_id is not None:
        fail("give a HISTORY or --game ID, not both")
    if puzzles:
        if history or game_id is not None or as_json or practice or plot:
            fail("--puzzles is a practice of its own: give it with the game options and --db only")
        return solve_puzzles(db, rules)
    if practice and as_json:
        fail("--practice asks for guesses at the terminal: give it without --json")
    budget = DEFAULT_BUDGET if budget is None else budget
    subject: dict[str, Any] | list[Any]
    if history:
        notation = game_notation(rules)
        subject = notation.parse_history(list(history))
        which = None
    else:
        stored = _finished_game(db, game_id)
        subject, which = stored.record, stored.id
        rules = rules_from_dict(stored.record["rules"])
        notation = game_notation(rules)
    console = console_for(stderr=as_json)
    if practice and isinstance(subject, dict):
        from ..games.reviewable import practice_refusal

        why = practice_refusal(subject)  # the board's and the web page's rule
        if why is not None:
            fail(f"no practice: {why}")
    if isinstance(subject, dict) and subject.get("kind") == "match":
        if plot:
            fail("--plot is for one game: review the match without it")
        return _review_match(subject, notation, which, budget, as_json, console)
    result = _reviewed(subject, rules, budget)
    if plot:
        written = plot_review(result, notation, plot)
        click.echo(f"chart written to {written}", err=True)
    if as_json:
        data = result.to_dict(notation)
        data["game"] = which
        click.echo(json.dumps(data))
        return
    for line in review_lines(result, notation, which):
        console.print(line, markup=False, highlight=False)
    if practice:
        practise(result, notation, console)


def practise(result: Review, notation: Notation, console: Any) -> None:
    """The games package's practice session at the terminal; Ctrl-C or the end of input ends it
    with the count of the positions solved."""
    from ..games.practice import PracticeSession

    console.print()
    session = PracticeSession(result.practice(), notation)
    _drive_to_the_end(session, console, notation)


def solve_puzzles(db: str | None, rules: Rules) -> None:
    """The games package's puzzle session at the terminal; the player's standing is kept beside
    the history after each change (the games package says which puzzle, which try and how far)."""
    from ..games.puzzles import puzzle_games, puzzle_session

    # no history yet is no error here: the trees' puzzles need no game, and the standings are kept
    # beside the history named (made if need be)
    store = open_store(db, write=False, missing_ok=True)
    stored = store.games()
    with progress_bar(len(puzzle_games(stored)), "finding puzzles in your games") as bar:

        def advance(done: int, of: int) -> None:
            if bar:  # the bar counts games looked at
                from ..strategies.progress import Progress

                bar(Progress("play", done, of, done, of))

        notation = game_notation(rules)
        session = puzzle_session(store.path, stored, rules, notation, advance)
    console = console_for()
    _drive_to_the_end(session, console, notation)


def _finished_game(db: str | None, game_id: int | None) -> StoredGame:
    """The stored game to review: ``game_id``, or the latest game of 'mastermind play' that has a
    review; one the engine's rule gives none (the board's and the web page's) ends the command."""
    from ..games.reviewable import review_refusal

    store = open_store(db, write=False)
    if game_id is None:
        reviewable = [g for g in store.games("play") if review_refusal(g.record) is None]
        note_left_out(store)
        if not reviewable:
            where = f"in the history {store.path}"
            fail(f"there is no finished 'play' game to review {where}: give a HISTORY or --game ID")
        return reviewable[-1]
    stored = store.get(game_id)
    why = review_refusal(stored.record)
    if why is not None:
        resume = (
            "" if stored.finished else f": resume it first (mastermind {stored.kind} --resume {stored.id})"
        )
        fail(f"game {stored.id} has no review: {why}{resume}")
    return stored


def _review_match(
    record: dict[str, Any], notation: Notation, which: int | None, budget: float, as_json: bool, console: Any
) -> None:
    """Every finished game of a match reviewed (both sides), then each player's figures."""
    from ..games.match_review import review_match

    finished = sum(1 for g in record["games"] if g.get("finished"))
    with progress_bar(finished, "reviewing the match's games") as bar:

        def advance(done: int, of: int) -> None:
            if bar:  # the bar counts games reviewed
                from ..strategies.progress import Progress

                bar(Progress("play", done, of, done, of))

        result = review_match(record, budget=budget, progress=advance)
    if as_json:
        click.echo(json.dumps({**result.to_dict(notation), "game": which}))
        return
    if not result.games:
        fail(f"match {which} has no finished game to review yet")
    for game in result.games:
        name = result.players[game.breaker - 1]
        title = f"Match {which}, game {game.number}: player {game.breaker} ({name}) breaks the code."
        console.print(title, markup=False, highlight=False)
        for line in review_lines(game.review, notation):
            console.print(line, markup=False, highlight=False)
        console.print()
    for line in result.summary_lines():
        console.print(line, markup=False, highlight=False)


def _reviewed(subject: dict[str, Any] | list[Any], rules: Rules, budget: float) -> Review:
    """The review of a game (its record, or its moves), with a bar of the moves reviewed."""
    from ..games.review import review as review_of

    moves = len(subject["moves"]) if isinstance(subject, dict) else len(subject)
    with progress_bar(moves, "reviewing") as bar:

        def advance(done: int, of: int) -> None:
            if bar:  # the bar counts moves reviewed
                from ..strategies.progress import Progress

                bar(Progress("play", done, of, done, of))

        return review_of(subject, rules, budget=budget, progress=advance)


def review_lines(result: Review, notation: Notation, game_id: int | None = None) -> list[str]:
    """The review as a table and a summary, for people."""
    from ..games.review_chart import chart_lines

    rules = result.rules
    width = max(4, rules.pegs)
    title = f"Game {game_id}: " if game_id is not None else ""
    game = notation.describe_game()  # Bulls and Cows speaks of digits
    out = [f"{title}{game}, {guess_count(rules.max_guesses)}; {_outcome_words(result, notation)}."]
    if not result.moves:  # no table nor chart to draw
        return [*out, "", *result.summary_lines(), f"Share: {result.share_line(notation)}"]
    out.append(
        f"{'#':>2}  {'guess':<{width}}  {'reply':5}  {'codes':>13}  {'bits':>5}  {'expected':>8}  "
        f"{'best':<{width}}  {'best exp':>8}  {'loss':>6}  verdict"
    )
    for m in result.moves:
        expected = "-" if m.expected is None else f"{float(m.expected):.4f}"
        loss = "-" if m.loss is None else f"{float(m.loss):.4f}"
        codes = f"{m.before:,} -> {m.after:,}"
        out.append(
            f"{m.number:>2}  {notation.format_code(m.guess):<{width}}  {str(m.reply):5}  {codes:>13}  "
            f"{m.bits:5.2f}  {expected:>8}  {notation.format_code(m.best):<{width}}  "
            f"{float(m.best_expected):8.4f}  {loss:>6}  {m.verdict} {m.marks}".rstrip()
        )
        if m.after_codes is not None and m.after > 1 and m.reply.black != rules.pegs:
            out.append(f"    left: {' '.join(notation.format_code(c) for c in m.after_codes)}")
    out.append("")
    out += chart_lines(result)
    out.append("")
    out += result.summary_lines()
    legend = result.marks_legend()
    out += [] if legend is None else [legend]
    return [*out, f"Share: {result.share_line(notation)}"]


def _outcome_words(result: Review, notation: Notation) -> str:
    words = {"won": "won", "lost": "lost (out of guesses)", "gave-up": "given up", None: "not finished"}
    text = words.get(result.outcome, str(result.outcome))
    if result.secret is not None and result.outcome != "won":
        text += f", the secret was {notation.format_code(result.secret)}"
    return text


def plot_review(result: Review, notation: Notation, path: str) -> Path:
    """The codes left after each guess (a log scale), the player's against the best guesses'."""
    from matplotlib.figure import Figure

    from ..research.plot import PNG_DPI, check_plot_path

    path_ = check_plot_path(path)
    fig = Figure(figsize=(7.0, 4.0), layout="constrained")
    ax = fig.subplots()
    numbers = [0] + [m.number for m in result.moves]
    start = result.moves[0].before if result.moves else 1
    ax.plot(numbers, [start] + [m.after for m in result.moves], marker="o", label="your guesses")
    ax.plot(
        numbers,
        [start] + [m.best_after for m in result.moves],
        marker="s",
        linestyle="--",
        label="the best guess at each move",
    )
    for m in result.moves:
        if m.verdict not in ("best", "good"):
            ax.annotate(
                m.verdict, (m.number, m.after), textcoords="offset points", xytext=(4, 6), fontsize="small"
            )
    ax.set_yscale("log")
    ax.set_xticks(numbers)
    ax.set_xlabel("guess")
    ax.set_ylabel("codes left")
    ax.set_title(f"{result.rules.describe()}: codes left after each guess", fontsize="medium")
    ax.legend()
    fig.savefig(path_, dpi=PNG_DPI)
    return path_


def _drive_to_the_end(session: Session, console: Console, notation: Notation) -> None:
    """A practice or puzzle session at the terminal until its end; Ctrl-C or the end of input
    quits it, and it says what was solved."""
    from .session import drive, show

    try:
        finished = drive(session, console, err=False)
    except KeyboardInterrupt:
        click.echo()
        finished = False
    if not finished:
        show(console, notation, session.answer("quit"))
