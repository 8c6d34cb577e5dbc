"""The side of the board: the score, the status line, the help line and the corrections offered.

Each is drawn from what the games package says (the game, the match, what the screen expects next);
nothing here decides a rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from rich.text import Text
from textual.containers import VerticalScroll
from textual.widgets import Button

from ..core.notation import Notation, Terms
from ..core.text import plural as text_plural
from ..deduction.state import Correction
from ..games.game import Game
from ..games.match import Event, Match, Round
from ..games.words import Voice, event_text, match_ending, round_text
from .board import peg_text, pegs_text, reply_count

#: What the board waits for: a guess, the code a person chooses, a reply, or nothing.
Expect = Literal["code", "secret", "reply"] | None

#: A filled hole of the code being chosen, as others see it: no colour, no symbol.
MASKED_PEG = "●"


def plural(n: int, word: str) -> str:
    return text_plural(n, word, word + "es" if word.endswith("s") else None)


def unfocusable(button: Button) -> Button:
    """A button for the mouse: the keys stay with the board (Enter plays, it does not press)."""
    button.can_focus = False
    return button


def score_text(match: Match) -> Text:
    a, b = match.standing
    r = match.current
    return Text.assemble(
        (f"Player 1 ({match.players[0]}): {a}\nPlayer 2 ({match.players[1]}): {b}\n", "bold"),
        f"Game {r.number} of {match.games}: player {r.maker} makes the code, player {r.breaker} "
        f"breaks it; {match.scoring} scoring.",
    )


def secret_prompt(match: Match, peek: bool) -> Text:
    r = match.current
    maker, breaker = f"Player {r.maker}", f"player {r.breaker}"
    away = f"{breaker.capitalize()}, look away! " if match.is_human(r.breaker) else ""
    shown = "F2 hides it" if peek else "it is masked: F2 shows it"
    return Text.assemble(
        (f"{away}{maker}: choose the code", "bold"),
        f" ({shown}; Enter with no pegs: you reply to each guess yourself).",
    )


def secret_row(
    game: Game, expects: Expect, entry: Sequence[int | None], cursor: int, peek: bool, notation: Notation
) -> list[Text]:
    """The pegs of the code's row under the board: the code being chosen, masked (a plain peg per
    hole filled, unless the codemaker peeks), hidden while it is being broken, shown once the game
    is over."""
    kept = game.secret is not None or game.breaker is not None  # by the computer, or in a head
    if expects != "secret" and kept and not game.over:
        return [Text(" ? ", "bold #8899aa on #2b3a44") for _ in range(game.rules.pegs)]
    colors: list[int | None] = [None] * game.rules.pegs
    if expects == "secret":
        colors = list(entry)
    elif game.over and game.secret is not None:
        colors = list(game.secret.colors)
    elif game.outcome == "won":  # a code kept in the person's head, found: the last guess
        colors = list(game.moves[-1].guess.colors)
    texts = []
    for index, color in enumerate(colors):
        if expects == "secret" and not peek and color is not None:
            text = Text(f" {MASKED_PEG} ", "bold #c8d0d8 on #56616b")
        else:
            text = peg_text(notation, color)
        if expects == "secret" and index == cursor:
            text.stylize("underline reverse" if color is None else "underline")
        texts.append(text)
    return texts


def status_head(
    game: Game, match: Match | None, expects: Expect, notation: Notation, selected: int | None, peek: bool
) -> Text:
    """The first line of the status: what the board waits for, or how the match ended."""
    if match is not None and match.over:
        return Text(" ".join(match_ending(match, Voice.of(match))), "bold green")
    if expects == "secret" and match is not None:
        return secret_prompt(match, peek)
    if expects == "code":
        return Text(f"Guess {game.turn} of {game.rules.max_guesses}", "bold")
    if expects == "reply":
        if selected is not None:
            return Text(f"Fix the reply of row {selected}", "bold")
        if game.pending is not None:
            return Text.assemble(
                (f"Reply to guess {game.turn}: ", "bold"),
                pegs_text(notation, game.pending.colors),
                " (Enter with no key peg: none)",
            )
        return Text("The replies contradict each other.", "bold red")
    return Text("")


def match_pause(match: Match, held: Round | None, hurry: bool, notation: Notation) -> Text | None:
    """What a match shows while no person has to act: a finished game kept on the board until the
    person moves on, or a computer at work (one move at a time, Enter for the rest at once)."""
    if held is not None:
        r = match.current
        roles = f"player {r.maker} makes the code, player {r.breaker} breaks it"
        return Text.assemble(
            (round_text(held, notation, Voice.of(match)), "bold"),
            f" Enter: game {r.number} ({roles}).",
        )
    if match.over or match.waiting_for != "computer":
        return None
    r = match.current
    if r.game is None:
        return Text(f"Player {r.maker} ({match.players[r.maker - 1]}) chooses a code…", "italic")
    rest = "" if hurry else " (Enter: the rest of this game at once)"
    return Text(f"Player {r.breaker} ({match.players[r.breaker - 1]}) is breaking the code…{rest}", "italic")


def help_text(notation: Notation, expects: Expect, in_match: bool) -> str:
    """The keys that work now, in the game's words."""
    t = notation.terms
    if expects in ("code", "secret"):
        sym = notation.describe_symbols()
        return (
            f"Type {sym}, or click a {t.symbol} (typing into a full row starts it over) · ←→ move · "
            f"Backspace · Enter {'guesses' if expects == 'code' else 'sets the code'}"
        )
    if expects == "reply":
        fix = "" if in_match else " · ↑↓ choose a row to fix"
        black, white = t.keys[0].lower(), t.keys[1].lower()
        return (
            f"{black}: {t.black} (right {t.symbol}, right place) · {white}: {t.white} "
            f"(right {t.symbol}) · click the key holes · Backspace · Enter replies{fix}"
        )
    return ""


def correction_keys(terms: Terms) -> str:
    """The keys that take the corrections, in order: 1-9, 0, then the letters that are not key
    pegs of the game (b and w always, c in Bulls and Cows), so that every correction has one."""
    taken = "bw" + terms.keys.lower()
    return "1234567890" + "".join(ch for ch in "abcdefghijklmnopqrstuvwxyz" if ch not in taken)


def correction_labels(corrections: Sequence[Correction], terms: Terms) -> list[str]:
    """A label per correction, its key first, in aligned columns: '1  row  4 → 1B 1W   12 codes'
    (the codes that would be left)."""
    keys = correction_keys(terms)
    rows = max((len(str(c.row + 1)) for c in corrections), default=1)
    counts = max((len(f"{c.candidates:,}") for c in corrections), default=1)
    labels = []
    for n, fix in enumerate(corrections):
        key = keys[n] if n < len(keys) else " "
        left = f"{fix.candidates:>{counts},} {'code' if fix.candidates == 1 else 'codes'}"
        labels.append(f"{key}  row {fix.row + 1:>{rows}} → {reply_count(fix.reply, terms)}  {left}")
    return labels


class Corrections(VerticalScroll):
    """The corrections the games package offers for a contradiction, likeliest first: a button each, and a
    key each (:func:`correction_keys`)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, can_focus=False)
        self.shown: tuple[Correction, ...] = ()

    def show(self, corrections: Sequence[Correction], terms: Terms) -> None:
        wanted = tuple(corrections)
        if wanted == self.shown:
            return
        self.shown = wanted
        # the buttons are kept and relabelled, the ones not needed hidden: a button removed is
        # gone only later, and a new one of the same id mounted meanwhile is refused
        buttons = list(self.query(".correction").results(Button))
        for n, label in enumerate(correction_labels(wanted, terms), 1):
            if n <= len(buttons):
                buttons[n - 1].label = label
                buttons[n - 1].display = True
            else:
                self.mount(unfocusable(Button(label, id=f"fix-{n}", classes="correction", compact=True)))
        for button in buttons[len(wanted) :]:
            button.display = False


def event_line(match: Match, event: Event, notation: Notation) -> str | None:
    """The line the match's log gets for ``event``: a game replayed for wrong information, a game
    over with its points, the match over; None for the others (a move is on the board)."""
    if event.kind == "undone":  # (said in the message line)
        return None
    return event_text(event, match, notation, Voice.of(match))
