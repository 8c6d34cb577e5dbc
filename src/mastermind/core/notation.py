"""Reading and writing codes, feedback and histories.

Input is lenient: ``"1122"``, ``"1 1 2 2"`` and ``"AABB"`` are the same classic code, and a
feedback may be ``"1,2"`` or ``"BWW"``. Output is always in one style per game. Every parse error
names the token it could not read and why. In a game with the blank (an empty hole, see
:mod:`mastermind.core.rules`) it is written ``-`` and read as ``-`` or ``.``: ``"12-4-"``; there ``-``
and ``.`` do not separate pegs.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..errors import FeedbackError, NotationError
from .code import Code
from .feedback import Feedback, possible_feedbacks
from .rules import Rules
from .text import plural, quote

DIGITS = "123456789"
DIGITS0 = "0123456789"
LETTERS = "abcdefghijklmnopqrstuvwxyz"
ALNUM = "0123456789abcdefghijklmnopqrstuvwxyz"

#: Colour names for the ``colors`` style; each has a distinct initial (black is K, as in CMYK).
COLOR_NAMES = (
    "red",
    "green",
    "blue",
    "yellow",
    "orange",
    "purple",
    "cyan",
    "white",
    "black",
    "magenta",
)
COLOR_INITIALS = "rgbyopcwkm"

STYLES = {"digits": DIGITS, "digits0": DIGITS0, "letters": LETTERS, "alnum": ALNUM, "colors": COLOR_INITIALS}

#: The styles a person chooses by name (``digits`` covers its 0-9 and 0-9a-z forms for 10 and more
#: colours, which the game picks itself).
CHOSEN_STYLES = ("digits", "letters", "colors")

_NAMES = {
    "digits": "digits",
    "digits0": "digits",
    "letters": "letters",
    "alnum": "digits and letters",
    "colors": "colours",
}

#: How the blank (an empty hole) is written, and every symbol read as the blank.
BLANK, BLANK_INPUT = "-", "-."

_SEPARATORS = re.compile(r"[\s,;\-_./|]+")
_SEPARATORS_BLANK = re.compile(r"[\s,;_/|]+")  # with the blank, "-" and "." are pegs


#: The symbols of each style in words, for a message that says how many colours it writes.
_SYMBOL_WORDS = {
    "digits": "1-9, or 0-9 with 10 colours",
    "digits0": "0-9",
    "letters": "a-z",
    "alnum": "0-9 then a-z",
    "colors": "the initials " + COLOR_INITIALS.upper(),
}


def most_colors(style: str) -> int:
    """The most colours notation ``style`` writes (``digits``: 9 digits 1-9, or ten 0-9).

    >>> [most_colors(style) for style in CHOSEN_STYLES]
    [10, 26, 10]
    """
    return len(DIGITS0) if style == "digits" else len(STYLES[style])


def too_few_symbols(
    style: str, colors: int, named: str = "notation {}", default: str = "the game's own notation"
) -> str | None:
    """Why notation ``style`` cannot write a game of ``colors`` colours, and which can, in one
    line; None where it can. ``named`` writes a notation's name and ``default`` the game's own
    notation (on the command line: ``--notation {}``, and leaving it out).

    >>> print(too_few_symbols("digits", 12))  # doctest: +NORMALIZE_WHITESPACE
    notation digits writes at most 10 colours (1-9, or 0-9 with 10 colours), and this game has 12:
    notation letters writes up to 26
    >>> print(too_few_symbols("letters", 36))  # doctest: +NORMALIZE_WHITESPACE
    notation letters writes at most 26 colours (a-z), and this game has 36: the game's own notation
    writes up to 36 (0-9 then a-z)
    >>> too_few_symbols("letters", 26) is None
    True
    """
    if style not in STYLES or most_colors(style) >= colors:
        return None
    fits = [other for other in CHOSEN_STYLES if most_colors(other) >= colors]
    if fits:
        advice = f"{named.format(fits[0])} writes up to {most_colors(fits[0])}"
    else:
        own = default_style(colors)
        advice = f"{default} writes up to {most_colors(own)} ({_SYMBOL_WORDS[own]})"
    return (
        f"{named.format(style)} writes at most {most_colors(style)} colours ({_SYMBOL_WORDS[style]}), "
        f"and this game has {colors}: {advice}"
    )


def default_style(colors: int) -> str:
    """Knuth's digits 1..9 up to 9 colours, 0..9 for 10, letters up to 26, then 0-9a-z."""
    if colors <= 9:
        return "digits"
    if colors == 10:
        return "digits0"
    if colors <= 26:
        return "letters"
    return "alnum"


@dataclass(frozen=True)
class Terms:
    """The words a game speaks: Mastermind's black and white key pegs and colours, or the bulls,
    cows and digits of Bulls and Cows (see :attr:`Notation.terms`).

    >>> MASTERMIND.reply(Feedback(1, 2)), BULLS_AND_COWS.reply(Feedback(1, 2))
    ('1 black, 2 white', '1 bull, 2 cows')
    """

    black: str  # a right symbol in the right place
    white: str  # a right symbol in another place
    symbol: str  # what a peg holds: a colour, a digit
    counted: bool  # whether black and white take a plural (1 bull, 2 bulls)
    place: str = "peg"  # one place of a code: a peg, a digit
    game: str = "Mastermind"  # the game's name, as a title or a shared line says it

    @property
    def keys(self) -> str:
        """The letters of the key pegs, black first: BW, or BC."""
        return (self.black[0] + self.white[0]).upper()

    @property
    def reply_form(self) -> str:
        """How a reply is written, for messages: BLACK,WHITE or BULLS,COWS."""
        many = "S" if self.counted else ""
        return f"{self.black.upper()}{many},{self.white.upper()}{many}"

    def reply(self, fb: Feedback) -> str:
        """A reply in words: '1 black, 2 white', or '1 bull, 2 cows'."""
        if self.counted:
            return f"{plural(fb.black, self.black)}, {plural(fb.white, self.white)}"
        return f"{fb.black} {self.black}, {fb.white} {self.white}"

    def pegs(self, fb: Feedback) -> str:
        """Key pegs as letters: ``BWW`` (``BCC``); ``-`` for none."""
        return self.keys[0] * fb.black + self.keys[1] * fb.white or "-"

    def pegs_read(self, fb: Feedback) -> str:
        """The key-peg letters read for ``fb``: ``BWW``, or ``BCC or BWW`` (B and W are always read).

        >>> BULLS_AND_COWS.pegs_read(Feedback(1, 2))
        'BCC or BWW'
        """
        own = self.pegs(fb)
        black_white = MASTERMIND.pegs(fb)
        return own if own == black_white else f"{own} or {black_white}"

    def code_of(self, rules: Rules, symbols: str = "") -> str:
        """A code of the game in words: '4 pegs, colours 1-6', or '4 digits 0-9' where a place is a
        symbol (``symbols`` describes them, as :meth:`Notation.describe_symbols` does)."""
        if self.place == self.symbol:
            return f"{plural(rules.pegs, self.place)} {symbols}".rstrip()
        return f"{plural(rules.pegs, self.place)}, {self.symbol}s {symbols}".rstrip()


MASTERMIND = Terms("black", "white", "colour", counted=False)
BULLS_AND_COWS = Terms("bull", "cow", "digit", counted=True, place="digit", game="Bulls and Cows")


def _span(style: str, symbols: str) -> str:
    return "".join(symbols).upper() if style == "colors" else f"{symbols[0]}-{symbols[-1]}"


@dataclass(frozen=True)
class Notation:
    """How codes of one game are written.

    >>> n = Notation(Rules())
    >>> n.parse_code("AABB"), n.format_code(n.parse_code("1 1 2 2"))
    (Code((0, 0, 1, 1)), '1122')
    """

    rules: Rules
    style: str = ""

    def __post_init__(self) -> None:
        colors = self.rules.real_colors
        style = self.style or default_style(colors)
        if style == "digits" and colors == 10:
            style = "digits0"  # the digits of a ten-colour game are 0-9
        if style not in STYLES:
            raise NotationError(f"unknown notation {quote(style)}; choose one of: {', '.join(STYLES)}")
        problem = too_few_symbols(style, colors)
        if problem is not None:
            raise NotationError(problem)
        object.__setattr__(self, "style", style)

    @property
    def terms(self) -> Terms:
        """The game's words: Bulls and Cows (ten digits 0-9, none repeated) speaks of bulls, cows and
        digits; every other game of black and white key pegs and colours."""
        bulls = self.style == "digits0" and self.rules.colors == 10 and not self.rules.repeats
        return BULLS_AND_COWS if bulls else MASTERMIND

    @property
    def symbols(self) -> str:
        """The symbol of each colour, in colour order (the blank, if any, is the last: ``-``)."""
        return STYLES[self.style][: self.rules.real_colors] + self._blank

    @property
    def _blank(self) -> str:
        return BLANK if self.rules.blank else ""

    def readings(self) -> list[tuple[str, str]]:
        """Every notation a code of this game may be typed in, as (style, symbols): the game's own
        first, then digits, letters and colours where they have a symbol for every colour (the
        blank is ``-`` in all of them)."""
        colors = self.rules.real_colors
        out = [(self.style, self.symbols)]
        for style in ("digits0" if colors == 10 else "digits", "letters", "colors"):
            if style != self.style and len(STYLES[style]) >= colors:
                out.append((style, STYLES[style][:colors] + self._blank))
        return out

    def describe_input(self) -> str:
        """How codes may be typed, for messages: '1-6, a-f or RGBYOP'."""
        ways = [
            self._describe_own() if style == self.style else _span(style, symbols.rstrip(BLANK))
            for style, symbols in self.readings()
        ]
        text = ways[0] if len(ways) == 1 else ", ".join(ways[:-1]) + " or " + ways[-1]
        return text + self._describe_blank()

    def parse_code(self, text: str) -> Code:
        """Read a code typed in any notation that fits the game (see :meth:`readings`), in any case,
        with digits of any script; raise NotationError quoting what was typed and saying why.

        >>> n = Notation(Rules())
        >>> [str(n.parse_code(t)) for t in ("1122", "a a b b", "RRGG", "\u0661\u0661\u0662\u0662")]
        ['1122', '1122', '1122', '1122']
        """
        raw = str(text).strip()
        typed = (_SEPARATORS_BLANK if self.rules.blank else _SEPARATORS).sub("", raw)
        token = ascii_digits(typed).lower()
        if len(token) != len(typed):  # a letter whose lower case is longer: quote the lower case
            typed = token
        if self.rules.blank:
            token = "".join(BLANK if ch in BLANK_INPUT else ch for ch in token)
        if not token:
            raise NotationError("empty code: type one symbol per peg, e.g. " + self.example())
        pegs, place = self.rules.pegs, self.terms.place
        if len(token) != pegs and not self.rules.blank:
            # "-" and "." are separators (1-1-2-2) where the game has no blank; a code that has its
            # pegs only when they count is one typed with the blank, which this game does not have
            with_blanks = _SEPARATORS.sub("", re.sub(r"[\-.]", "x", raw))
            if len(with_blanks) == pegs:
                mark = next(ch for ch in raw if ch in BLANK_INPUT)
                raise NotationError(
                    f"{quote(raw)}: {mark!r} is the blank (a hole left empty), and this game has none"
                )
        if len(token) != pegs:
            raise NotationError(
                f"{quote(raw)} has {plural(len(token), 'symbol')}; a code has {plural(pegs, place)}, "
                f"e.g. {self.example()}"
            )
        found: dict[tuple[int, ...], str] = {}  # each reading of the token, and its notation
        for style, symbols in self.readings():
            if all(ch in symbols for ch in token):
                found.setdefault(tuple(symbols.index(ch) for ch in token), style)
        if not found:
            known = "".join(symbols for _, symbols in self.readings())
            bad = next((typed[i] for i, ch in enumerate(token) if ch not in known), None)
            word = self.terms.symbol
            what = f"{bad!r} is not a {word} of this game" if bad else "it mixes notations"
            raise NotationError(f"{quote(raw)}: {what} (type {word}s as {self.describe_input()})")
        own = [c for c, style in found.items() if style == self.style]
        if not own and len(found) > 1:
            ways = " or ".join(f"{self.format_code(c)} (in {_NAMES[style]})" for c, style in found.items())
            raise NotationError(f"{quote(raw)} could be {ways}: type it as this game writes it")
        colors = own[0] if own else next(iter(found))
        if not self.rules.repeats and len(set(colors)) != pegs:
            repeated = next(typed[i] for i, c in enumerate(colors) if colors.count(c) > 1)
            raise NotationError(
                f"{quote(raw)}: {self.terms.symbol} {repeated!r} repeats, and this game allows no repeats"
            )
        return Code._made(colors, self.rules)

    def color_of(self, symbol: str) -> int | None:
        """The colour one typed symbol stands for, or None: for front ends that take a code one key
        at a time. The game's own symbols first, then any other notation of :meth:`readings` that
        reads the symbol one way only (in a game of six colours b is a letter and a colour: not read).

        >>> n = Notation(Rules())
        >>> n.color_of("3"), n.color_of("C"), n.color_of("R"), n.color_of("b"), n.color_of("7")
        (2, 2, 0, None, None)
        """
        ch = ascii_digits(str(symbol)).lower()
        if len(ch) != 1:
            return None
        if self.rules.blank and ch in BLANK_INPUT:
            return self.rules.blank_color
        if ch in self.symbols:
            return self.symbols.index(ch)
        found = {symbols.index(ch) for _, symbols in self.readings() if ch in symbols}
        return found.pop() if len(found) == 1 else None

    def format_code(self, code: Code | Sequence[int]) -> str:
        """Write a code in this notation."""
        symbols = self.symbols
        text = "".join(symbols[c] for c in code)
        return text.upper() if self.style == "colors" else text

    def describe_game(self, typing: bool = False) -> str:
        """The game in its own words, for messages and titles: '4 pegs, colours 1-6, repeats
        allowed'; Bulls and Cows speaks of digits. ``typing``: the blank as it is typed, for those
        about to type codes.

        >>> Notation(Rules()).describe_game(), Notation(Rules(colors=10, repeats=False)).describe_game()
        ('4 pegs, colours 1-6, repeats allowed', '4 digits 0-9, no digit repeats')
        >>> Notation(Rules(pegs=5, colors=9, blank=True)).describe_game()
        '5 pegs, colours 1-8 and the blank, repeats allowed'
        """
        terms = self.terms
        repeats = "repeats allowed" if self.rules.repeats else f"no {terms.symbol} repeats"
        symbols = self.describe_symbols()
        if self.rules.blank and not typing:
            symbols = f"{self._describe_own()} and the blank"
        return f"{terms.code_of(self.rules, symbols)}, {repeats}"

    def title(self, limit: bool = True) -> str:
        """The game named in a few characters, as a title or a line to share says it: its name
        and :meth:`.Rules.short_name` (Bulls and Cows has no repeats by its rules: not said again).

        >>> Notation(Rules()).title(), Notation(Rules(colors=10, repeats=False, max_guesses=7)).title()
        ('Mastermind 4x6', 'Bulls and Cows 4x10 /7')
        """
        short = self.rules.short_name(limit)
        if self.terms is BULLS_AND_COWS:
            short = short.replace(" no repeats", "", 1)
        return f"{self.terms.game} {short}"

    def describe_symbols(self) -> str:
        """The game's own symbols, for messages: '1-6', or 'R=red, G=green, ...'."""
        return self._describe_own() + self._describe_blank()

    def _describe_own(self) -> str:
        s = STYLES[self.style][: self.rules.real_colors]
        if self.style == "colors":
            return ", ".join(f"{i.upper()}={n}" for i, n in zip(s, COLOR_NAMES, strict=False))
        return f"{s[0]}-{s[-1]}" if len(s) > 1 else s

    def _describe_blank(self) -> str:
        return ", or - (also .) for an empty hole" if self.rules.blank else ""

    def example(self) -> str:
        """A valid example code of this game, for messages."""
        colors = [i % self.rules.colors for i in range(self.rules.pegs)]
        return self.format_code(colors)

    # feedback ---------------------------------------------------------------------------------

    def parse_feedback(self, text: str) -> Feedback:
        """Read ``"1,2"``, ``"1 2"``, ``"(1,2)"``, ``"BWW"`` or ``"-"`` (none) and check it can occur."""
        return parse_feedback(text, self.rules, self.terms)

    # histories --------------------------------------------------------------------------------

    def parse_history(self, items: str | Iterable[str]) -> list[tuple[Code, Feedback]]:
        """Read ``GUESS=BLACK,WHITE`` items, separated by spaces: ``"1122=1,0 1344=0,1"``."""
        if isinstance(items, str):
            items = items.split()
        out = []
        for n, item in enumerate(items, 1):
            for part in item.split():
                out.append(self.parse_history_item(part, n))
        return out

    def parse_history_item(self, item: str, n: int | None = None) -> tuple[Code, Feedback]:
        where = f"history item {n} " if n is not None else ""
        sep = "=" if "=" in item else (":" if ":" in item else None)
        if sep is None:
            raise NotationError(
                f"{where}{quote(item)} is not GUESS={self.terms.reply_form} (e.g. {self.example()}=1,0)"
            )
        guess_text, feedback_text = item.split(sep, 1)
        if not feedback_text.strip():
            raise NotationError(
                f"{where}{quote(item)} has no reply after {sep!r}: write {self.terms.reply_form} (e.g. 1,0), "
                "or - for none"
            )
        try:
            return self.parse_code(guess_text), self.parse_feedback(feedback_text)
        except NotationError as err:
            raise type(err)(f"{where}{quote(item)}: {err}") from None

    def format_history(self, history: Iterable[tuple[Code | Sequence[int], Feedback]]) -> str:
        return " ".join(f"{self.format_code(g)}={f.black},{f.white}" for g, f in history)


def parse_feedback(text: str, rules: Rules, terms: Terms = MASTERMIND) -> Feedback:
    """Read a reply and check that it can occur in this game; ``terms`` words the errors, and its
    key-peg letters are read too (C for a cow), besides B and W.

    >>> parse_feedback("BWW", Rules()), parse_feedback("1,2", Rules())
    (Feedback(black=1, white=2), Feedback(black=1, white=2))
    """
    raw = str(text).strip()
    token = ascii_digits(raw).strip("()[] ").lower()
    if token in ("", "-", "none", "0"):
        fb = Feedback(0, 0)
    elif re.fullmatch(rf"[bw{terms.keys.lower()}\s]+", token):
        fb = Feedback(token.count("b"), len(token.replace(" ", "")) - token.count("b"))
    else:
        m = re.fullmatch(r"(\d+)\s*[,;/ ]\s*(\d+)", token)
        if not m:
            raise FeedbackError(
                f"{quote(raw)} is not a reply: write {terms.reply_form} (e.g. {example_reply(rules)}) "
                f"or pegs (e.g. {terms.pegs_read(example_reply(rules))})"
            )
        fb = Feedback(_count(m.group(1), rules), _count(m.group(2), rules))
    check_feedback(fb, rules, raw, terms)
    return fb


def example_reply(rules: Rules) -> Feedback:
    """A reply that can occur in this game, for messages: 1,2 where it can, else 1,1 or 1,0.

    >>> str(example_reply(Rules())), str(example_reply(Rules(pegs=2))), str(example_reply(Rules(pegs=1)))
    ('1,2', '1,0', '1,0')
    """
    possible = possible_feedbacks(rules.pegs, rules.colors, rules.repeats)
    return next((fb for fb in (Feedback(1, 2), Feedback(1, 1)) if fb in possible), Feedback(1, 0))


def ascii_digits(text: str) -> str:
    """``text`` with every decimal digit of any script (Arabic-Indic, Devanagari...) written 0-9.

    >>> ascii_digits("\u0661\u0661\u0662\u0662")
    '1122'
    """
    return "".join(str(unicodedata.decimal(ch)) if ch.isdecimal() else ch for ch in text)


def _count(digits: str, rules: Rules) -> int:
    """A number of key pegs; one with more digits than a game has pegs stands for "too many" (an int
    of thousands of digits is refused by Python, and no game has that many pegs)."""
    digits = digits.lstrip("0") or "0"
    return int(digits) if len(digits) <= len(str(rules.pegs)) else rules.pegs + 1


def check_feedback(fb: Feedback, rules: Rules, raw: str | None = None, terms: Terms = MASTERMIND) -> None:
    """Raise FeedbackError if no guess and secret of this game give ``fb``."""
    if fb in possible_feedbacks(rules.pegs, rules.colors, rules.repeats):
        return
    shown = quote(raw) if raw is not None else f"{fb.black},{fb.white}"
    p = rules.pegs
    place = terms.place
    if fb.black + fb.white > p:
        why = f"there {'is' if p == 1 else 'are'} only {plural(p, place)}"
    elif fb.black == p - 1 and fb.white == 1:
        why = (
            f"with 1 {place} there is no other place for a {terms.symbol} to be in"
            if p == 1
            else f"if {plural(p - 1, place)} {'is' if p == 2 else 'are'} right, the last {place} cannot be "
            "right in another place"
        )
    else:
        least = 2 * p - rules.colors
        why = f"without repeats any two codes share at least {plural(least, terms.symbol)}"
    raise FeedbackError(f"impossible reply {shown}: {why}")


def format_pegs(fb: Feedback) -> str:
    """Key pegs as letters: ``BWW``; ``-`` for none."""
    return MASTERMIND.pegs(fb)
