"""match: two players, an even number of games, roles alternating, scored by the board game's rules.

It connects a :class:`mastermind.games.match_session.MatchSession` to the terminal: it asks whoever
the match waits for, prints what the session gives back, and saves, stops and exits; the
scoring, the replays and the roles are the games package's, and every word the session's.
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, NoReturn

import click

from ..games.scoring import CODEMAKERS, MAX_MATCH_GAMES, SCORING_RULES, scoring_help
from . import cli
from .common import (
    EXIT_NOT_WON,
    EXIT_OK,
    TakesGameId,
    fail,
    history_options,
    refuse_with_resume,
    resumable,
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

    from .. import Rules
    from ..games.match import Match
    from ..history.store import Store


@cli.command(cls=TakesGameId)
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
@click.option(
    "--hard",
    is_flag=True,
    help="Hard mode for a person breaking a code: every guess must be one that could still be the secret.",
)
@click.option(
    "--warn-inconsistent",
    is_flag=True,
    help="Warn a person breaking a code before playing a guess that cannot be the secret (it contradicts "
    "a reply): type it again to play it.",
)
@seed_option("Seed of the computers' secrets.")
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Transcript on stderr; at the end, the match's record (no secret of a game not over).",
)
@history_options
@click.option(
    "--resume",
    is_flag=False,
    flag_value="latest",
    default=None,
    metavar="[ID]",
    help="Go on with the latest unfinished match in the history (or match ID) from its last move: the "
    "same players, games, secrets, score and settings (an option that would change them, such as "
    "--players, --games, --seed or --hard, is refused).",
)
@color_option
def match(
    rules: Rules,
    strategy: str,
    players: str | None,
    games: int,
    scoring: str,
    maker: str,
    hard: bool,
    warn_inconsistent: bool,
    seed: int | None,
    as_json: bool,
    store: Store | None,
    resume: str | None,
) -> None:
    """A match between two players: each game one makes a code and the other breaks it.

    Player 1 makes the code in game 1 and player 2 breaks it; the roles swap every game. A
    human codemaker types a secret for the computer to referee (hidden on a terminal), or
    presses Enter and types every reply as in the board game: if the replies contradict each
    other, the program shows it and the game is replayed. A guess that has had its reply stands;
    a person's guess still waiting for a reply typed by hand may be taken back with undo (nothing
    was revealed for it). A breaker may give up, and ask for a hint (the --strategy's guess);
    help at a prompt says what may be typed there. A guess the breaker played already in the
    game is pointed out first (type it again to play it anyway); so is, with --warn-inconsistent,
    a guess that cannot be the secret, as in mastermind play. With --hard a person's guess that
    cannot be the secret is refused, in the words of the reply it contradicts (a resumed match
    keeps its mode). Ctrl-C or the end of input stops the match with the score so far and says how to
    resume it (exit status 1); a finished match exits 0.

    \b
    Examples:
      mastermind match --players knuth,entropy --games 100 --seed 1   # a strategy tournament
      mastermind match --players human,knuth --games 2
      mastermind match --players human,human --scoring codebreaker
      mastermind match --players knuth,human --hard   # refuse a guess that cannot be the secret
      mastermind match --players knuth,human --warn-inconsistent   # point such a guess out
      mastermind match --players knuth,most-parts --codemaker hardest --json
      mastermind match --resume               # after Ctrl-C or a crash: go on from the last move
    """
    from ..games.game_record import shown  # (--json: no secret of a game that can be resumed)
    from ..games.match import Match
    from ..games.match_session import MatchSession

    if resume is not None:
        refuse_with_resume(*RULE_OPTIONS, "strategy", "players", "games", "scoring", "maker", "hard", "seed")
        stored = resumable(store, "match", resume)
        m = Match.from_record(stored.record)
        recorder = Recorder(store, stored.id)
    elif players is None:
        fail("Missing option '--players' (two players, e.g. human,knuth), or --resume to go on with a match")
    else:
        m = Match(rules, [p.strip() for p in players.split(",")], games, scoring, seed, maker, strategy, hard)
        recorder = Recorder(store)
    console = console_for(stderr=as_json)
    session = MatchSession(
        m,
        game_notation(m.rules),
        resumed=None if resume is None else recorder.id,
        warn_inconsistent=warn_inconsistent,
        thinking=lambda who: thinking(console_for(stderr=True), who),
        commit=recorder.save,  # every move is committed before the next one is asked
    )

    def stop() -> NoReturn:
        """Ctrl-C, quit or the end of input: the match stops unfinished, saved to be resumed; exit 1."""
        recorder.save(m.record())
        show(console, session.notation, [session.stopped(recorder.resume_hint("match"))])
        if as_json:
            click.echo(json.dumps(shown(m.record())))
        sys.exit(EXIT_NOT_WON)

    try:
        if not drive(session, console, as_json) or session.stop_asked:
            stop()
    except KeyboardInterrupt:
        console.print("")
        stop()
    recorder.save(m.record())
    review_hint(m, console, recorder)
    if as_json:
        click.echo(json.dumps(shown(m.record())))
    sys.exit(EXIT_OK)


def review_hint(m: Match, console: Console, recorder: Recorder) -> None:
    """At a match's end, the command that reviews it, as play names its game's: where the
    engine's rule gives the match a review (the board and the web page offer it by the same)."""
    from ..games.reviewable import review_refusal

    if recorder.id is not None and review_refusal(m) is None:
        console.print(
            f"How each game's guesses compare with the best: mastermind review{recorder.db_option()} "
            f"--game {recorder.id}",
            markup=False,
        )
