"""play and guess: a person breaks the computer's code, or the computer breaks a person's.

Both connect a session of :mod:`mastermind.games.sessions` to the terminal: they read lines,
print what the session gives back, and save, stop and exit; every rule (the turn limit, the win,
hints, undo, contradictions, fixes) is the games package's, and every word the session's.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, NoReturn

import click

from . import cli
from .common import (
    EXIT_NOT_WON,
    EXIT_OK,
    TakesGameId,
    fail,
    history_options,
    refuse_with_resume,
    resumable,
    resume_option,
    seed_option,
    strategy_option,
)
from .console import color_option, console_for
from .game_options import RULE_OPTIONS, game_notation, game_options
from .progress import thinking
from .recording import Recorder
from .session import drive, show

if TYPE_CHECKING:
    from rich.console import Console

    from .. import Game, Rules
    from ..games.sessions import GuessSession, PlaySession
    from ..history.store import Store


def finish(game: Game, as_json: bool, recorder: Recorder) -> NoReturn:
    """The game's record on stdout with --json; exit 0 if the code was broken, 1 if not. The
    history has the game as it ends already: the session committed its end before showing it (a
    secret shown is never of a game left open), :func:`pause` its stop; saved again only where
    that save failed (the recorder is behind: one more try)."""
    if recorder.behind:
        recorder.save(game.record())
    if as_json:  # (a game stopped unfinished shows no secret: it may be resumed)
        from ..games.game_record import shown

        click.echo(json.dumps(shown(game.record())))
    sys.exit(EXIT_OK if game.outcome == "won" else EXIT_NOT_WON)


def pause(
    session: PlaySession | GuessSession, console: Console, as_json: bool, recorder: Recorder, command: str
) -> NoReturn:
    """End of input or Ctrl-C: the game stops unfinished, saved to be resumed (not given up: quit
    does that); exit status 1."""
    recorder.save(session.record())  # before the hint, which says whether there is a game to resume
    show(console, session.notation, [session.stopped(recorder.resume_hint(command))])
    finish(session.game, as_json, recorder)


@contextmanager
def stopped_by_ctrl_c(stop: Callable[[], NoReturn], err: bool) -> Iterator[None]:
    """Ctrl-C at a prompt (or while the computer thinks) stops the game as the end of input does:
    unfinished, saved, with the way to resume it said, exit status 1."""
    try:
        yield
    except KeyboardInterrupt:
        click.echo(err=err)  # the terminal echoed ^C: the message goes on a line of its own
        stop()


def play_through(
    session: PlaySession | GuessSession, console: Console, as_json: bool, recorder: Recorder, command: str
) -> None:
    """The session of ``command`` at the terminal until its game is over (or paused: then it
    exits here)."""
    with stopped_by_ctrl_c(lambda: pause(session, console, as_json, recorder, command), as_json):
        if not drive(session, console, as_json):  # end of input: the game waits in the history
            pause(session, console, as_json, recorder, command)


# --- play: the user breaks the computer's code ------------------------------------------------------


@cli.command(cls=TakesGameId)
@game_options
@strategy_option
@seed_option("Seed for the secret: the same seed, the same game.")
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Board on stderr; at the end, the game's record as JSON (no secret of a game not over).",
)
@click.option("--review", "review_after", is_flag=True, help="When the game ends, review it move by move.")
@click.option(
    "--warn-inconsistent",
    is_flag=True,
    help="Warn before playing a guess that cannot be the secret (it contradicts a reply): type it again "
    "to play it.",
)
@click.option(
    "--hard", is_flag=True, help="Hard mode: every guess must be one that could still be the secret."
)
@click.option(
    "--daily",
    is_flag=True,
    help="The code of the day (the classic game, one code a day, kept with this history); at the "
    "end, the text to share.",
)
@history_options
@resume_option
@color_option
def play(
    rules: Rules,
    strategy: str,
    seed: int | None,
    as_json: bool,
    review_after: bool,
    warn_inconsistent: bool,
    hard: bool,
    daily: bool,
    store: Store | None,
    resume: str | None,
) -> None:
    """You are the codebreaker: find the computer's secret code.

    Type a guess (1122, "1 1 2 2" or AABB); the board is drawn again with the key pegs: one
    black for each peg of the right colour in the right place, one white for each other
    peg of the right colour. Commands: hint (the --strategy's guess: the codes still possible,
    how the guess splits them, the guesses it expects from here against the best, and how your
    last guess fared), undo, board, help, quit (give up: the secret is shown). Hints and guesses
    taken back are kept in the game's record. A code that spells a command can be typed with
    spaces between its pegs. A guess you played already is pointed out first: type it again to
    play it anyway; so is, with --warn-inconsistent, a guess that cannot be the secret (naming the
    earlier guess and reply it contradicts); with --hard such a guess is refused (hard mode: every
    guess must be one that could still be the secret). --daily plays the code of the day (the
    classic game; the day is UTC's; its code comes from the date and a key made at random beside
    the history, HISTORY.daily-key, so nobody can compute it): one game a day, taken up again if
    unfinished, and at its end a text to share, with no code in it. When the game ends, --review
    (or mastermind review) values each move against the optimum. The end of input (Ctrl-D) or
    Ctrl-C stops the game unfinished: --resume goes on with it. Exit status 0 if you break the code, 1 if not.

    \b
    Examples:
      mastermind play
      mastermind play --seed 42 --strategy entropy
      mastermind play --preset super --max-guesses 12
      mastermind play --pegs 3 --colors 5 --no-repeats
      mastermind play --warn-inconsistent      # point out a guess that cannot be the secret
      mastermind play --hard                   # refuse a guess that cannot be the secret
      mastermind play --daily                  # the code of the day, and a text to share
      mastermind play --resume                 # go on with the last game left unfinished
    """
    from ..games.game import Game
    from ..games.sessions import PlaySession

    if daily:
        from ..games.daily import DAILY_RULES

        if resume is not None or seed is not None:
            fail("--daily plays the code of the day: it takes no --resume or --seed")
        if rules != DAILY_RULES:
            fail(f"--daily plays the code of the day on {DAILY_RULES.short_name()}: it takes no other rules")
        if store is None:
            fail("--daily keeps the code of the day in the history (one game a day): not with --no-history")
        game, recorder = todays_game(store, hard)
        resume = None if recorder.id is None else str(recorder.id)
    elif resume is not None:
        refuse_with_resume(*RULE_OPTIONS, "strategy", "seed", "hard")
        stored = resumable(store, "play", resume)
        game = Game.from_record(stored.record)
        recorder = Recorder(store, stored.id)
    else:
        game = Game.breaking(rules, seed=seed, strategy=strategy, hard=hard)
        recorder = Recorder(store)
    console = console_for(stderr=as_json)
    session = PlaySession(
        game,
        game_notation(game.rules),
        warn_inconsistent,
        resumed=None if resume is None else recorder.id,
        thinking=lambda who: thinking(console, who),
        commit=recorder.save,  # every move is committed before the next line is read
    )
    if not game.over:
        play_through(session, console, as_json, recorder, "play")
        after_play(game, console, review_after, recorder)
    else:
        console.print(f"You have played the code of the day already: {game.summary()}", markup=False)
    if game.daily is not None:
        from ..games.daily import share_text

        console.print(f"To share:\n{share_text(game)}", markup=False, highlight=False)
        if recorder.store is not None:  # the game's end is saved (the session's commit): counted below
            from .history import codes_of_the_day

            console.print(codes_of_the_day(recorder.store.games(kind="play")), markup=False)
    finish(game, as_json, recorder)


def todays_game(store: Store | None, hard: bool) -> tuple[Game, Recorder]:
    """The code of the day: today's game in the history if there is one (finished or not: one
    game a day), else a new one, from the key kept beside the history."""
    from ..games.daily import daily_game, game_of_day, today
    from ..games.game import Game
    from ..history.keys import daily_key
    from ..history.store import default_path

    day = today()
    stored = None if store is None else game_of_day(store.games(kind="play"), day)
    if stored is not None:
        return Game.from_record(stored.record), Recorder(store, stored.id)
    key = daily_key(store.path if store is not None else default_path())
    return daily_game(day, key, hard=hard), Recorder(store)


def after_play(game: Game, console: Console, review_after: bool, recorder: Recorder) -> None:
    """A game played to its end: its review with --review, else the command that reviews it
    (neither where the engine's rule gives it none, as for a game given up before its first
    guess: with --review, the engine says why)."""
    from ..games.reviewable import review_refusal

    why = review_refusal(game)
    if why is not None:
        if review_after:
            console.print(f"No review: {why}.", markup=False)
        return
    if review_after:
        from ..games.review import review
        from .review import review_lines

        with thinking(console, "the review"):
            reviewed = review(game)
        for text in review_lines(reviewed, game_notation(game.rules), recorder.id):
            console.print(text, markup=False, highlight=False)
    elif recorder.id is not None:
        console.print(
            f"How each guess compares with the best: mastermind review{recorder.db_option()} --game "
            f"{recorder.id}",
            markup=False,
        )


# --- guess: the computer breaks the user's code -----------------------------------------------------


@cli.command(cls=TakesGameId)
@game_options
@strategy_option
@click.option("--secret", metavar="CODE", help="Let the computer score its own guesses (a demonstration).")
@click.option("--first", metavar="CODE", help="Override the strategy's first guess.")
@seed_option("Seed for randomised strategies.")
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Transcript on stderr; at the end, the game's record as JSON (no secret of a game not over).",
)
@history_options
@resume_option
@color_option
def guess(
    rules: Rules,
    strategy: str,
    secret: str | None,
    first: str | None,
    seed: int | None,
    as_json: bool,
    store: Store | None,
    resume: str | None,
) -> None:
    """The computer is the codebreaker: keep a secret code in mind and reply to its guesses.

    Reply BLACK,WHITE (1,2), key pegs (BWW) or - for none. If your replies contradict each
    other you are told at once which rows cannot all be true, and which single reply could be
    corrected, and to what. Commands: fix ROW REPLY (correct an earlier reply; only the last
    row can be fixed to the all-black reply), undo, board, help, quit (give up). The end of input
    (Ctrl-D) or Ctrl-C stops the game unfinished: --resume goes on with it. Exit status 0 when
    the code is found, 1 if not (out of guesses, quit, or stopped).

    \b
    Examples:
      mastermind guess
      mastermind guess --strategy entropy --preset bulls-and-cows
      mastermind guess --secret 3632           # scores itself: Knuth's example game
      mastermind guess --secret 3632 --json 2>/dev/null
      mastermind guess --resume 12             # go on with game 12 of the history
    """
    from ..games.game import Game
    from ..games.sessions import GuessSession

    if resume is not None:
        refuse_with_resume(*RULE_OPTIONS, "strategy", "secret", "first", "seed")
        stored = resumable(store, "guess", resume)
        game = Game.from_record(stored.record)
        recorder = Recorder(store, stored.id)
    else:
        notation = game_notation(rules)
        secret_code = notation.parse_code(secret) if secret is not None else None
        first_code = notation.parse_code(first) if first is not None else None
        game = Game.solving(rules, strategy, secret=secret_code, first=first_code, seed=seed)
        recorder = Recorder(store)
    console = console_for(stderr=as_json)
    session = GuessSession(
        game,
        game_notation(game.rules),
        resumed=None if resume is None else recorder.id,
        thinking=lambda who: thinking(console, who),
        commit=recorder.save,  # every reply is committed before the next guess is asked
    )
    play_through(session, console, as_json, recorder, "guess")
    finish(game, as_json, recorder)
