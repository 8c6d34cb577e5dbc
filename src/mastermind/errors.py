"""The exceptions of the package: one base class, and a subclass for each kind of failure.

Every failure the package reports on purpose is one of these (the command line turns them into one
line and exit status 2). Those caused by a value given (all but :class:`StoreError`) are also
ValueErrors, so code that catches ValueError around a call keeps working.
"""

from __future__ import annotations


class MastermindError(Exception):
    """Base class of every error this package raises on purpose."""


class RulesError(MastermindError, ValueError):
    """A game that cannot exist (sizes out of range, no repeats with too few colours, unknown preset)."""


class NotationError(MastermindError, ValueError):
    """Text that does not parse as a code, a feedback or a history item."""


class FeedbackError(NotationError):
    """A feedback that cannot occur in this game (3 black 1 white on 4 pegs, say)."""


class StrategyError(MastermindError, ValueError):
    """An unknown strategy, or one that cannot play the given game."""


class UnknownStrategyError(StrategyError):
    """No strategy is registered under the name (one that failed to load is a StrategyError)."""


class ContradictionError(MastermindError, ValueError):
    """A history that no secret satisfies.

    Attributes:
        rows: 0-based positions, in the history, of a smallest set of rows that contradict each other.
    """

    def __init__(self, message: str, rows: tuple[int, ...]) -> None:
        super().__init__(message)
        self.rows = rows


class GameError(MastermindError, ValueError):
    """A move the game does not allow now (a guess after the end, nothing to undo, no such row)."""


class RecordError(MastermindError, ValueError):
    """A game, match or run record that cannot be read (unknown kind, newer version, missing fields)."""


class SeedError(MastermindError, ValueError):
    """A seed that cannot seed a generator (negative, or not a whole number)."""


class SampleError(MastermindError, ValueError):
    """A sample of secrets that cannot be drawn: more than can be held in memory."""


class StoreError(MastermindError):
    """The history database cannot be used (locked, read-only, corrupt, or from a newer version)."""


class ExecutorError(MastermindError, ValueError):
    """An executor that cannot run: an unknown one, a missing optional package, an unreachable cluster."""


class CheckpointError(MastermindError, ValueError):
    """A checkpoint file that cannot be trusted: damaged, or written by another run."""


class PlotError(MastermindError, ValueError):
    """A chart that cannot be written (unknown file type, no such folder)."""


class SettingsError(MastermindError, ValueError):
    """A setting of the wrong kind, unknown, or out of range (a player's settings of the next game)."""


class TreeError(MastermindError, ValueError):
    """A strategy's tree that does not hold: damaged, or not a tree of its secrets within the guess
    limit (a cached or checkpointed tree is checked before it is trusted)."""


class TreeFileError(TreeError):
    """A tree file that cannot be read, is of another game, or whose tree is not what it says."""


class ProofError(MastermindError, ValueError):
    """A proof file that cannot be read, is damaged, or one of whose claims does not hold."""
