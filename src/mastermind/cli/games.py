"""play and guess: a person breaks the computer's code, or the computer breaks a person's.

Both are thin shells over :class:`mastermind.games.game.Game`: they read lines, call the engine and
draw the board; every rule (the turn limit, the win, hints, undo, contradictions, fixes) is the
engine's.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, NoReturn

import click

from ..core.text import plural, sentence
from ..errors import GameError
from . import cli
from .common import (
    EXIT_NOT_WON,
    EXIT_OK,
    Recorder,
    ask,
    board,
    color_option,
    console_for,
    escape,
    game_notation,
    game_options,
    history_options,
    long_search_note,
    resumable,
    resume_option,
    seed_option,
    strategy_option,
)
from .progress import thinking

if TYPE_CHECKING:
    from .. import Game, Notation, Rules
    from ..games.game import Hint
    from ..history.store import Store

QUIT = ("quit", "q", "exit")


def finish(game: Game, as_json: bool, recorder: Recorder) -> NoReturn:
    """The game saved in the history and its record on stdout with --json; exit 0 if the code was
    broken, 1 if not."""
    recorder.save(game.record())
    if as_json:
        click.echo(json.dumps(game.record()))
    sys.exit(EXIT_OK if game.outcome == "won" else EXIT_NOT_WON)


def pause(say: Callable[..., None], game: Game, as_json: bool, recorder: Recorder, command: str) -> NoReturn:
    """End of input or Ctrl-C: the game stops unfinished, saved to be resumed (not given up: quit
    does that); exit status 1."""
    recorder.save(game.record())  # before the hint, which says whether there is a game to resume
    say(f"Stopped{recorder.resume_hint(command)}.", markup=False)
    finish(game, as_json, recorder)


@contextmanager
def stopped_by_ctrl_c(stop: Callable[[], NoReturn], err: bool) -> Iterator[None]:
    """Ctrl-C at a prompt (or while the computer thinks) stops the game as the end of input does:
    unfinished, saved, with the way to resume it said, exit status 1."""
    try:
        yield
    except KeyboardInterrupt:
        click.echo(err=err)  # the terminal echoed ^C: the message goes on a line of its own
        stop()


def reply_words(notation: Notation) -> str:
    """How to reply, in the game's words: 'Reply BLACK,WHITE (e.g. 1,2), key pegs (BWW) or - for none'."""
    from ..core.notation import example_reply

    terms, example = notation.terms, example_reply(notation.rules)
    return f"Reply {terms.reply_form} (e.g. {example}), key pegs ({terms.pegs_read(example)}) or - for none"


def hint_words(hint: Hint, notation: Notation) -> str:
    """A hint in words: '34 codes are still possible; knuth would play 1235.'"""
    guess = notation.format_code(hint.guess)
    note = f" ({hint.note})" if hint.note else ""
    if hint.candidates is None:  # a game too large to count: the strategy still hints
        return f"{hint.strategy} would play {guess}{note}."
    codes = "1 code is" if hint.candidates == 1 else f"{hint.candidates:,} codes are"
    return f"{codes} still possible; {hint.strategy} would play {guess}{note}."


# --- play: the user breaks the computer's code ------------------------------------------------------


@cli.command()
@game_options
@strategy_option
@seed_option("Seed for the secret: the same seed, the same game.")
@click.option(
    "--json", "as_json", is_flag=True, help="Board on stderr; at the end, the game's record as JSON."
)
@click.option("--review", "review_after", is_flag=True, help="When the game ends, review it move by move.")
@click.option(
    "--warn-inconsistent",
    is_flag=True,
    help="Warn before playing a guess that cannot be the secret (it contradicts a reply): type it again "
    "to play it.",
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
    earlier guess and reply it contradicts). When the game ends, --review (or mastermind review)
    values each move against the optimum. The end of input (Ctrl-D) or Ctrl-C stops the game unfinished:
    --resume goes on with it. Exit status 0 if you break the code, 1 if not.

    \b
    Examples:
      mastermind play
      mastermind play --seed 42 --strategy entropy
      mastermind play --preset super --max-guesses 12
      mastermind play --pegs 3 --colors 5 --no-repeats
      mastermind play --warn-inconsistent      # point out a guess that cannot be the secret
      mastermind play --resume                 # go on with the last game left unfinished
    """
    from ..deduction.state import SolverState
    from ..errors import MastermindError
    from ..games.game import Game

    if resume is not None:
        stored = resumable(store, "play", resume)
        game = Game.from_record(stored.record)
        rules, recorder = game.rules, Recorder(store, stored.id)
    else:
        game = Game.breaking(rules, seed=seed, strategy=strategy)
        recorder = Recorder(store)
    secret = game.secret
    assert secret is not None  # Game.breaking draws one; Game.from_record refuses a record of play without
    notation = game_notation(rules)
    console = console_for(stderr=as_json)
    say = console.print
    say(
        f"I have chosen a secret: {notation.describe_game(typing=True)}. "
        f"You have {plural(rules.max_guesses, 'guess', 'guesses')}. Type a guess, or help.",
        markup=False,
    )
    if resume is not None:
        say(f"Resuming game {recorder.id}: {plural(len(game.moves), 'guess', 'guesses')} made.", markup=False)
        board(console, notation, game.history, rules)
    warned = None  # a repeated guess, pointed out once
    with stopped_by_ctrl_c(lambda: pause(say, game, as_json, recorder, "play"), as_json):
        while not game.over:
            recorder.save(game.record())  # every move is committed before the next line is read
            line = ask(f"guess {game.turn} of {rules.max_guesses}> ", err=as_json)
            if line is None:  # end of input: the game waits in the history
                pause(say, game, as_json, recorder, "play")
            if line.lower() in QUIT:
                game.give_up()
                say(game.summary(notation), markup=False)
                finish(game, as_json, recorder)
            command = line.lower()
            if command in ("help", "?"):
                code_words = notation.terms.code_of(rules, notation.describe_symbols())
                say(
                    f"Type a code of {code_words} (e.g. {notation.example()}); hint: ask "
                    f"{game.strategy_name}; undo: take back the last guess; board: show the board; "
                    "quit: give up; Ctrl-D or Ctrl-C: stop, to resume later.",
                    markup=False,
                )
            elif command == "board":
                board(console, notation, game.history, rules)
            elif command == "undo":
                try:
                    game.undo()
                except GameError as err:  # nothing to undo: the engine says so
                    say(f"{sentence(err)}.", markup=False)
                    continue
                say("Took back the last guess.")
                board(console, notation, game.history, rules)
            elif command == "hint":
                try:
                    here = SolverState(rules, game.history)
                    note = long_search_note(game.player(), here, HINT_WAY_OUT)
                    if note is not None:  # said before the search, which may be long
                        say(f"Note: {note}.", markup=False)
                    with thinking(console, game.strategy_name):
                        lines = hint_lines(game, notation)
                except MastermindError as err:
                    say(f"No hint: {err}", markup=False)
                    continue
                say(f"Hint: {lines[0]}", markup=False)
                for line in lines[1:]:
                    say(f"  {line}", markup=False)
            elif command:
                try:
                    code = notation.parse_code(line)
                except MastermindError as err:
                    say(f"[red]Not a guess:[/] {escape(str(err))}. Try again (or type help).")
                    continue
                row = game.repeat_of(code)
                if row is not None and warned != code:
                    warned = code
                    say(
                        f"You played {notation.format_code(code)} already (row {row}): it would get the "
                        "same reply. Type it again to play it anyway.",
                        markup=False,
                    )
                    continue
                clash = game.inconsistency(code) if warn_inconsistent else None
                if clash is not None and warned != code:  # a warning, not a refusal
                    warned = code
                    say(f"{clash.warning(code, notation)}. Type it again to play it anyway.", markup=False)
                    continue
                warned = None
                game.guess(code)
                board(console, notation, game.history, rules)
    if game.outcome == "won":
        say(f"[bold green]{escape(game.summary(notation))}[/]")
    else:
        board(console, notation, [], rules, secret)
        say(game.summary(notation), markup=False)
    if review_after:
        from .review import review_lines

        with thinking(console, "the review"):
            from ..games.review import review

            reviewed = review(game)
        for text in review_lines(reviewed, notation, recorder.id):
            say(text, markup=False, highlight=False)
    elif recorder.id is not None:
        say(
            f"How each guess compares with the best: mastermind review{recorder.db_option()} --game "
            f"{recorder.id}",
            markup=False,
        )
    finish(game, as_json, recorder)


#: The way out of a hint's long search: a game of a heuristic strategy.
HINT_WAY_OUT = "a heuristic strategy hints in seconds (mastermind play --strategy entropy); "


def hint_lines(game: Game, notation: Notation) -> list[str]:
    """The hint in words (the engine's, as the board's): what teaches it where the game's codes can
    be listed, else the strategy's guess alone."""
    if not game.space.enumerable:
        return [hint_words(game.hint(), notation)]
    from ..games.advice import advise

    return advise(game).lines(notation)


# --- guess: the computer breaks the user's code -----------------------------------------------------


@cli.command()
@game_options
@strategy_option
@click.option("--secret", metavar="CODE", help="Let the computer score its own guesses (a demonstration).")
@click.option("--first", metavar="CODE", help="Override the strategy's first guess.")
@seed_option("Seed for randomised strategies.")
@click.option(
    "--json", "as_json", is_flag=True, help="Transcript on stderr; at the end, the game's record as JSON."
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
    from ..errors import ContradictionError, MastermindError
    from ..games.game import Game

    if resume is not None:
        stored = resumable(store, "guess", resume)
        game = Game.from_record(stored.record)
        rules, recorder = game.rules, Recorder(store, stored.id)
        secret_code = game.secret
    else:
        notation = game_notation(rules)
        secret_code = notation.parse_code(secret) if secret is not None else None
        first_code = notation.parse_code(first) if first is not None else None
        game = Game.solving(rules, strategy, secret=secret_code, first=first_code, seed=seed)
        recorder = Recorder(store)
    notation = game_notation(rules)
    console = console_for(stderr=as_json)
    say = console.print
    if resume is not None:
        say(f"Resuming game {recorder.id}: {plural(len(game.moves), 'guess', 'guesses')} made.", markup=False)
        board(console, notation, game.history, rules)
    elif secret_code is None:
        say(
            f"Think of a secret: {notation.describe_game(typing=True)}. "
            f"I have {plural(rules.max_guesses, 'guess', 'guesses')}. "
            f"{reply_words(notation)}; or type help.",
            markup=False,
        )

    def stop() -> NoReturn:
        say("Given up.")
        game.give_up()
        finish(game, as_json, recorder)

    def command(line: str) -> str:
        """Handle a command: 'again' when the history changed, 'ask' to ask again, 'reply' if none."""
        words = line.split()
        verb = words[0].lower()
        if verb in QUIT:
            stop()
        if verb in ("help", "?"):
            say(
                f"{reply_words(notation)}. fix ROW REPLY: correct an earlier reply (e.g. fix 2 0,1); "
                "undo: take back the last reply; board: show the board; quit: give up; Ctrl-D or "
                "Ctrl-C: stop, to resume later.",
                markup=False,
            )
            return "ask"
        if verb == "board":
            board(console, notation, game.history, rules)
            return "ask"
        if verb == "undo":
            try:
                game.undo()
            except GameError as err:  # nothing to undo: the engine says so
                say(f"{sentence(err)}.", markup=False)
                return "ask"
            say("Took back the last reply.")
            return "again"
        if verb == "fix":
            rows = f"1 to {len(game.moves)}" if game.moves else "none yet"
            if len(words) < 3 or not words[1].isdigit():
                say(f"Write fix ROW REPLY, e.g. fix 1 0,1 (rows: {rows}).", markup=False)
                return "ask"
            try:
                move = game.fix(int(words[1]), notation.parse_feedback(" ".join(words[2:])))
            except MastermindError as err:
                say(f"[red]Cannot fix:[/] {escape(str(err))}.")
                return "ask"
            say(f"Row {words[1]} is now {notation.format_code(move.guess)} = {move.reply}.", markup=False)
            return "again"
        return "reply"

    def read(prompt: str) -> tuple[str, str]:
        """The next non-empty line and what :func:`command` made of it; the end of input stops the
        game unfinished."""
        while True:
            line = ask(prompt, err=as_json)
            if line is None:
                pause(say, game, as_json, recorder, "guess")
            if line:
                return command(line), line

    def repair(problem: str) -> None:
        """Show what is wrong and take commands until a row is corrected or taken back."""
        say(f"[bold red]{escape(sentence(problem))}.[/]")
        board(console, notation, game.history, rules)
        while True:
            outcome, _ = read("fix ROW REPLY, undo or quit> ")
            if outcome == "again":
                return
            if outcome == "reply":
                say("First correct a reply: fix ROW REPLY (e.g. fix 1 0,1), or undo.", markup=False)

    with stopped_by_ctrl_c(lambda: pause(say, game, as_json, recorder, "guess"), as_json):
        while True:
            recorder.save(game.record())  # every reply is committed before the next guess is asked
            problem = game.problem
            if problem is not None:
                repair(problem.message)
                continue
            if game.outcome == "won":
                say(f"[bold green]{escape(game.summary(notation))}[/]")
                finish(game, as_json, recorder)
            if game.outcome == "lost":
                say(game.summary(notation), markup=False)
                finish(game, as_json, recorder)
            try:
                with thinking(console, game.strategy_name):
                    left = game.candidates()
                    code = game.proposal()
            except ContradictionError as err:
                if not game.moves:
                    raise  # the strategy cannot play this game at all: bad input, exit 2
                repair(str(err))  # a strategy that plays games too large to list found no code
                continue
            codes = "" if left is None else f"   ({'1 code' if left == 1 else f'{left:,} codes'} possible)"
            say(f"Guess {game.turn}: {notation.format_code(code)}{codes}", markup=False)
            if secret_code is not None:
                move = game.guess(code)
                assert move is not None
                say(f"  reply: {move.reply}", markup=False)
                continue
            while True:
                outcome, line = read("your reply> ")
                if outcome == "again":
                    break
                if outcome == "ask":
                    continue
                try:
                    game.reply(notation.parse_feedback(line))
                except MastermindError as err:
                    say(f"[red]{escape(str(err))}.[/] Try again (or type help).")
                    continue
                break
