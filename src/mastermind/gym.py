"""Mastermind as a Gymnasium environment (the optional ``rl`` extra: ``pip install -e
'.[rl]'`` in a checkout).

Importing this module registers ``Mastermind-v0``; ``gymnasium.make("mastermind.gym:Mastermind-v0")``
imports it itself. Any game is made through keyword arguments: ``rules=Rules(...)``, a
``preset`` name, or ``pegs``, ``colors``, ``repeats``, ``max_guesses`` and ``blank``.

- The **action** is a code index (``Discrete(codes)``): codes are numbered in numeric order,
  ``CodeSpace.of(rules).code(action)`` is the code.
- The **observation** is the history so far: an int64 array of one row per allowed guess, each
  row the guess's colours (0-based) then its black and white pegs; rows not played yet are -1.
- The **reward** is -1 per guess, so the return is minus the number of guesses.
- An episode **terminates** when the code is found and is **truncated** when the guesses allowed
  are spent without finding it.
- :meth:`MastermindEnv.action_masks` says which codes are still possible (for masked agents such
  as sb3-contrib's MaskablePPO; through wrappers, ``env.unwrapped.action_masks()``).
- ``info`` holds the reply (``"reply"``: black, white) and how many codes are still possible
  (``"candidates"``); ``reset(options={"secret": code})`` plays against a given secret (text, a
  Code, colour indices or an index), otherwise the secret is drawn from the environment's
  generator (``reset(seed=...)``).

>>> import gymnasium
>>> env = gymnasium.make("Mastermind-v0")
>>> observation, info = env.reset(seed=1, options={"secret": "3632"})
>>> observation, reward, terminated, truncated, info = env.step(7)       # 1122
>>> observation[0].tolist(), reward, terminated, info["candidates"]
([0, 0, 1, 1, 1, 0], -1.0, False, 256)
"""

from __future__ import annotations

from typing import Any, SupportsFloat

import numpy as np

from .core.code import CodeSpace, as_code
from .core.rules import Rules, find_rules
from .deduction.state import SolverState
from .errors import MastermindError, RulesError
from .games.game import Game

try:
    import gymnasium
    from gymnasium import spaces
except ImportError as err:  # pragma: no cover - the rl extra is installed with the tests
    from .runtime.install import install_command

    raise MastermindError(f"mastermind.gym needs gymnasium: {install_command('rl')}") from err

#: The id under which the environment is registered.
ENV_ID = "Mastermind-v0"


def _rules(rules: Rules | None, preset: str | None, **sizes: Any) -> Rules:
    """The game of the environment's keyword arguments: ``rules``, or a preset and sizes over it."""
    given = {k: v for k, v in sizes.items() if v is not None}
    if rules is not None and (preset is not None or given):
        raise RulesError("give the game as rules=Rules(...), or as a preset and sizes, not both")
    if rules is not None:
        return rules
    base = find_rules(preset) if preset is not None else Rules()
    fields = {
        "pegs": base.pegs,
        "colors": base.colors,
        "repeats": base.repeats,
        "max_guesses": base.max_guesses,
        "blank": base.blank,
    }
    return Rules(**{**fields, **given})


class MastermindEnv(gymnasium.Env[np.ndarray, np.int64]):
    """One codebreaker's game per episode, against a secret drawn at random (see the module).

    Args:
        rules: the game; or give ``preset`` and any of the sizes.
        preset: a preset's name (``classic``, ``super``, ``super-blank``, ``bulls-and-cows``).
        pegs: pegs per code, as in :class:`Rules` (over the preset's, if one is named);
            so are the four below.
        colors: colours.
        repeats: whether a colour may repeat in a code.
        max_guesses: guesses allowed.
        blank: whether the blank is one more colour.
        render_mode: ``"ansi"``: :meth:`render` returns the board as text.
    """

    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self,
        rules: Rules | None = None,
        *,
        preset: str | None = None,
        pegs: int | None = None,
        colors: int | None = None,
        repeats: bool | None = None,
        max_guesses: int | None = None,
        blank: bool | None = None,
        render_mode: str | None = None,
    ) -> None:
        self.rules = _rules(
            rules, preset, pegs=pegs, colors=colors, repeats=repeats, max_guesses=max_guesses, blank=blank
        )
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise MastermindError(f"render mode {render_mode!r} is not one of: ansi")
        self.render_mode = render_mode
        self.space = CodeSpace.of(self.rules)
        pegs_, colors_ = self.rules.pegs, self.rules.colors
        self.action_space = spaces.Discrete(self.space.size)
        self.observation_space = spaces.Box(
            low=-1, high=max(colors_ - 1, pegs_), shape=(self.rules.max_guesses, pegs_ + 2), dtype=np.int64
        )
        self.game: Game | None = None

    def _observation(self) -> np.ndarray:
        obs = np.full((self.rules.max_guesses, self.rules.pegs + 2), -1, dtype=np.int64)
        assert self.game is not None
        for row, move in enumerate(self.game.moves):
            obs[row, : self.rules.pegs] = move.guess.colors
            obs[row, self.rules.pegs :] = move.reply
        return obs

    def _info(self) -> dict[str, Any]:
        assert self.game is not None
        info: dict[str, Any] = {"candidates": self.game.candidates()}
        if self.game.moves:
            info["reply"] = tuple(self.game.moves[-1].reply)
        return info

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        secret = (options or {}).get("secret")
        if secret is None:
            index = int(self.np_random.integers(self.space.size))
        elif isinstance(secret, int | np.integer):
            index = int(secret)
            if not 0 <= index < self.space.size:
                raise MastermindError(f"no code of {self.rules.describe()} has index {index}")
        else:
            index = self.space.index(as_code(secret, self.rules).colors)
        self.game = Game(self.rules, secret=self.space.code(index), kind="play", seed=0)
        return self._observation(), self._info()

    def step(self, action: np.int64 | int) -> tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]:
        if self.game is None:
            raise MastermindError("call reset() before step()")
        if self.game.over:
            raise MastermindError("the episode is over: call reset()")
        if not self.action_space.contains(np.int64(action)):
            raise MastermindError(f"action {action!r} is not a code index from 0 to {self.space.size - 1}")
        self.game.guess(self.space.code(int(action)))
        terminated = self.game.outcome == "won"
        truncated = self.game.outcome == "lost"
        return self._observation(), -1.0, terminated, truncated, self._info()

    def action_masks(self) -> np.ndarray:
        """Which actions are codes still possible (a bool per code index): every code before the
        first guess."""
        if self.game is None:
            raise MastermindError("call reset() before action_masks()")
        mask = np.zeros(self.space.size, dtype=bool)
        mask[SolverState(self.rules, self.game.history).candidate_indices()] = True
        return mask

    def render(self) -> str | None:  # type: ignore[override]
        if self.render_mode != "ansi" or self.game is None:
            return None
        return str(self.game)


gymnasium.register(id=ENV_ID, entry_point="mastermind.gym:MastermindEnv")
