"""The rules of a match that a front end names before any game is played: the scoring rules and
their words, the points for wrong information, how a computer codemaker chooses. Plain constants,
so that a command's help (which lists them) loads nothing else.

>>> list(SCORING_RULES)
['standard', 'codebreaker', 'codemaker']
>>> "3 points" in scoring_help()
True
"""

from __future__ import annotations

#: The scoring rules of a match, by name: what each says.
SCORING_RULES: dict[str, str] = {
    "standard": "the codemaker scores one point per guess the breaker makes, plus one if the code "
    "is not broken by the last allowed guess; most points wins",
    "codebreaker": "the breaker scores one point per row of guesses; fewest points wins",
    "codemaker": "the codemaker scores one point per row not showing the code; most points wins",
}

#: Points for showing that the codemaker's replies contradict each other (the game is replayed).
WRONG_INFORMATION_POINTS = 3

#: Who gets the points for wrong information, in words.
WRONG_INFORMATION_RULE = (
    "Wrong information (replies that contradict each other) replays the game and gives the breaker "
    f"{WRONG_INFORMATION_POINTS} points (under codebreaker, the codemaker gets them: fewest wins)."
)

#: The most games a match may have (a strategy tournament of this many takes minutes).
MAX_MATCH_GAMES = 10_000

#: How a computer codemaker chooses its secret.
CODEMAKERS = ("random", "hardest")


def scoring_help() -> str:
    """Every scoring rule and the wrong-information rule, as one paragraph."""
    rules = "; ".join(f"{name}: {text.replace('; ', ', ')}" for name, text in SCORING_RULES.items())
    return f"{rules}. {WRONG_INFORMATION_RULE}"
