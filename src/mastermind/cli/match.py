"""match: two players, an even number of games, roles alternating, scored by the board game's rules.

A thin shell over :class:`mastermind.games.match.Match`: it asks whoever the match waits for, calls the
engine and prints what happened; the scoring, the replays and the roles are the engine's.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

import click

from ..core.text import guess_count, sentence
from ..games.scoring import (
    CODEMAKERS,
    MAX_MATCH_GAMES,
    SCORING_RULES,
    WRONG_INFORMATION_POINTS,
    scoring_help,
)
from . import cli
from .common import (
    EXIT_NOT_WON,
    EXIT_OK,
    Recorder,
    ask,
    board,
    board_row,
    color_option,
    console_for,
    escape,
    fail,
    game_notation,
    game_options,
    history_options,
    resumable,
    seed_option,
    strategy_option,
)
from .games import hint_words, reply_words
from .progress import thinking

if TYPE_CHECKING:
    from rich.console import Console

    from .. import Match, Notation, Rules
    from ..games.match import Event
    from ..history.store import Store


def hidden(prompt: str, err: bool) -> str | None:
    """A secret typed without echo: on a terminal through getpass, and scripted input is not
    copied to the transcript either (as every other answer is)."""
    if sys.stdin.isatty():
        import getpass

        try:
            return getpass.getpass(prompt).strip()
        except EOFError:
            return None
    click.echo(prompt, nl=False, err=err)
    try:
        line = input()
    except EOFError:
        click.echo(err=err)
        return None
    click.echo(err=err)
    return line.strip()


def secret_refused(rules: Rules, notation: Notation) -> str:
    """Why a secret is refused, without quoting or naming what was typed: the breaker may be
    watching the screen."""
    code = notation.terms.code_of(rules, notation.describe_input())
    repeats = "" if rules.repeats else ", no repeats"
    return f"Not a code of this game: a secret is {code}{repeats} (what you typed is not shown)."


@cli.command()
@game_options
@strategy_option
@click.option(
    "--players",
    metavar="A,B",
    help="Two players, each 'human' or a strategy name: knuth,entropy is a strategy tournament; "
    "human,human shares the keyboard with the computer as referee. Required, except with --resume.",
)
@click.option(
    "--games",
    type=int,
    default=2,
    show_default=True,
    metavar="N",
    help=f"Games to play: an even number, 2 to {MAX_MATCH_GAMES:,}.",
)
@click.option(
    "--scoring",
    type=click.Choice(list(SCORING_RULES)),
    default="standard",
    show_default=True,
    help=scoring_help(),
)
@click.option(
    "--codemaker",
    "maker",
    type=click.Choice(CODEMAKERS),
    default="random",
    show_default=True,
    help="How a computer makes its code: uniformly at random, or the secret that costs the breaker's "
    "strategy the most guesses (against a person: the --strategy's).",
)
@seed_option("Seed of the computers' secrets.")
@click.option("--json", "as_json", is_flag=True, help="Transcript on stderr; at the end, the match's record.")
@history_options
@click.option(
    "--resume",
    is_flag=False,
    flag_value="latest",
    default=None,
    metavar="[ID]",
    help="Go on with the latest unfinished match in the history (or match ID) from its last move: the "
    "same players, games, secrets and score; the other options are then ignored.",
)
@color_option
def match(
    rules: Rules,
    strategy: str,
    players: str | None,
    games: int,
    scoring: str,
    maker: str,
    seed: int | None,
    as_json: bool,
    store: Store | None,
    resume: str | None,
) -> None:
    """A match between two players: each game one makes a code and the other breaks it.

    Player 1 makes the code in game 1 and player 2 breaks it; the roles swap every game. A
    human codemaker types a secret for the computer to referee (hidden on a terminal), or
    presses Enter and types every reply as in the board game: if the replies contradict each
    other, the engine shows it and the game is replayed. A guess that has had its reply stands;
    a person's guess still waiting for a reply typed by hand may be taken back with undo (nothing
    was revealed for it). A breaker may give up, and ask for a hint (the --strategy's guess);
    help at a prompt says what may be typed there. Ctrl-C or the end of input stops the match
    with the score so far and says how to resume it (exit status 1); a finished match exits 0.

    \b
    Examples:
      mastermind match --players knuth,entropy --games 100 --seed 1   # a strategy tournament
      mastermind match --players human,knuth --games 2
      mastermind match --players human,human --scoring codebreaker
      mastermind match --players knuth,most-parts --codemaker hardest --json
      mastermind match --resume               # after Ctrl-C or a crash: go on from the last move
    """
    from ..errors import MastermindError
    from ..games.match import Match

    if resume is not None:
        stored = resumable(store, "match", resume)
        m = Match.from_record(stored.record)
        recorder = Recorder(store, stored.id)
        rules, games, scoring = m.rules, m.games, m.scoring
    elif players is None:
        fail("Missing option '--players' (two players, e.g. human,knuth), or --resume to go on with a match")
    else:
        m = Match(rules, [p.strip() for p in players.split(",")], games, scoring, seed, maker, strategy)
        recorder = Recorder(store)
    notation = game_notation(rules)
    console = console_for(stderr=as_json)
    say = console.print

    def who(player: int) -> str:
        return f"player {player} ({m.players[player - 1]})"

    def totals() -> str:
        a, b = m.standing  # with the points for wrong information already given in this game
        return f"{who(1)} {a}, {who(2)} {b}"

    def stop() -> None:
        """Ctrl-C or the end of input: the match stops unfinished, saved to be resumed; exit 1."""
        played = sum(r.points is not None for r in m.rounds)
        recorder.save(m.record())
        say(
            f"Match stopped after {played} of {games} games. Score: {totals()}"
            f"{recorder.resume_hint('match')}.",
            markup=False,
        )
        if as_json:
            click.echo(json.dumps(m.record()))
        sys.exit(EXIT_NOT_WON)

    def hint() -> None:
        """The engine's hint for the person guessing, as play gives it."""
        try:
            with thinking(console_for(stderr=True), m.strategy):
                given = m.hint()
        except MastermindError as err:
            say(f"No hint: {err}", markup=False)
            return
        say(f"Hint: {hint_words(given, notation)}", markup=False)

    def undo() -> list[Event]:
        """The engine's undo: a guess waiting for its reply taken back, or one line saying why not."""
        try:
            return m.undo()
        except MastermindError as err:
            say(f"{sentence(err)}.", markup=False)
            return []

    announced = 0
    try:
        say(
            f"A match of {games} games on {notation.describe_game()}, {guess_count(rules.max_guesses)} each, "
            f"seed {m.seed}: {who(1)} against {who(2)}. Scoring: {scoring} ({SCORING_RULES[scoring]}).",
            markup=False,
        )
        if resume is not None:
            played = sum(r.points is not None for r in m.rounds)
            say(
                f"Resuming match {recorder.id}: {played} of {games} games played. Score: {totals()}.",
                markup=False,
            )
        while not m.over:
            recorder.save(m.record())  # every move is committed before the next one is asked
            r = m.current
            if announced != r.number:
                announced = r.number
                roles = f"{who(r.maker)} makes the code, {who(r.breaker)} breaks it"
                say(f"[bold]Game {r.number} of {games}:[/] {roles}.")
                for row, move in enumerate(r.game.moves if r.game else [], 1):  # a resumed game's rows
                    board_row(console, notation, row, move.guess, move.reply, rules)
            wait = m.waiting_for
            if wait == "computer":
                with thinking(console_for(stderr=True), who(r.maker if r.game is None else r.breaker)):
                    events = m.advance()  # an optimal breaker searches its whole tree at first
            elif wait == "secret":
                ask_secret = f"{who(r.maker)}, your secret (or Enter to reply to each guess yourself)> "
                line = hidden(ask_secret, as_json)
                if line is None:
                    return stop()
                try:
                    events = m.set_secret(notation.parse_code(line) if line else None)
                except MastermindError:  # its message quotes the secret: never shown
                    say(secret_refused(rules, notation), style="red", markup=False)
                    continue
            elif wait == "guess":
                game = r.game
                assert game is not None
                line = ask(f"{who(r.breaker)}, guess {game.turn} of {rules.max_guesses}> ", err=as_json)
                if line is None or line.lower() in ("quit", "q", "exit"):
                    return stop()
                if not line:
                    continue
                if line.lower() == "give up":
                    events = m.give_up()
                elif line.lower() == "undo":
                    events = undo()
                elif line.lower() in ("help", "?"):
                    say(guess_help(notation, m.strategy), markup=False)
                    continue
                elif line.lower() == "hint":
                    hint()
                    continue
                else:
                    try:
                        events = m.guess(notation.parse_code(line))
                    except MastermindError as err:
                        say(f"[red]Not a guess:[/] {escape(str(err))}.")
                        continue
            else:  # a guess waits for a human codemaker's reply
                game = r.game
                assert game is not None and game.pending is not None
                say(f"Guess {game.turn}: {notation.format_code(game.pending)}", markup=False)
                line = ask(f"{who(r.maker)}, your reply> ", err=as_json)
                if line is None or line.lower() in ("quit", "q", "exit"):
                    return stop()
                if line.lower() in ("help", "?", "hint"):
                    say(reply_help(notation, line.lower() == "hint"), markup=False)
                    continue
                try:
                    events = undo() if line.lower() == "undo" else m.reply(notation.parse_feedback(line))
                except MastermindError as err:
                    say(f"[red]{escape(str(err))}.[/]")
                    continue
            for event in events:
                show(say, console, notation, rules, m, event, who)
    except KeyboardInterrupt:
        say("")
        return stop()
    a, b = m.score
    winner = m.winner
    result = "a draw" if winner is None else f"{who(winner)} wins"
    say(f"[bold]Final score:[/] {totals()}: {result}.")
    recorder.save(m.record())
    if as_json:
        click.echo(json.dumps(m.record()))
    sys.exit(EXIT_OK)


def guess_help(notation: Notation, strategy: str) -> str:
    """What a person breaking a code may type at the guess prompt."""
    code = notation.terms.code_of(notation.rules, notation.describe_symbols())
    return (
        f"Type a code of {code} (e.g. {notation.example()}); hint: ask {strategy}; undo: take back "
        "a guess still waiting for its reply; give up: end this game (scored as every guess used); "
        "quit, Ctrl-D or Ctrl-C: stop the match, to resume later."
    )


def reply_help(notation: Notation, asked_hint: bool) -> str:
    """What a codemaker may type at the reply prompt (a hint is the breaker's, not the codemaker's)."""
    no_hint = "No hint for the codemaker: hints are for the one breaking the code. " if asked_hint else ""
    return (
        f"{no_hint}{reply_words(notation)}; undo: take back the guess (it had no reply yet); quit, "
        "Ctrl-D or Ctrl-C: stop the match, to resume later."
    )


def show(
    say: Callable[..., None],
    console: Console,
    notation: Notation,
    rules: Rules,
    m: Match,
    event: Event,
    who: Callable[[int], str],
) -> None:
    """One event of the match, as a line of the transcript."""

    r = event.round
    if event.kind == "secret" and not m.is_human(r.maker):
        say(f"{who(r.maker)} has chosen a secret.", markup=False)
    elif event.kind == "secret":
        how = "the computer scores the guesses" if r.referee else f"{who(r.maker)} replies to each guess"
        say(f"Secret set: {how}.", markup=False)
    elif event.kind == "move" and event.move is not None:
        board_row(console, notation, event.row, event.move.guess, event.move.reply, rules)
    elif event.kind == "undone" and r.game is not None:
        say(f"Took back player {r.breaker}'s guess {event.row}: it had no reply yet.", markup=False)
        board(console, notation, r.game.history, rules)
    elif event.kind == "replayed":
        say(
            f"[bold red]Wrong information:[/] {escape(event.problem.message if event.problem else '')}. "
            f"Game {r.number} is replayed; {who(m.penalty_to(r))} gets {WRONG_INFORMATION_POINTS} points.",
        )
    elif event.kind == "round-over" and r.game is not None and r.points is not None:
        how = r.summary(notation)
        p1, p2 = r.points
        say(f"Game {r.number}: {how}. Points: {who(1)} {p1}, {who(2)} {p2}.", markup=False)
