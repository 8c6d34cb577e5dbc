"""mastermind.gym: the Gymnasium environment (issue 23) checked by Gymnasium's own checker, played
by a random agent and by Knuth's strategy as an agent over every classic secret."""

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import mastermind.gym  # noqa: F401 - registers Mastermind-v0
from mastermind import PRESETS, CodeSpace, MastermindError, Rules, SolverState, make_strategy
from mastermind.gym import ENV_ID, MastermindEnv

CLASSIC = Rules()


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"pegs": 3, "colors": 4},
        {"preset": "bulls-and-cows"},
        {"rules": Rules(pegs=3, colors=4, blank=True)},
    ],
    ids=["classic", "3x4", "bulls-and-cows", "blank"],
)
def test_the_environment_passes_gymnasiums_checker(kwargs):
    env = gymnasium.make(ENV_ID, **kwargs)
    check_env(env.unwrapped, skip_render_check=True)


def test_keyword_arguments_make_any_game():
    assert gymnasium.make(ENV_ID, preset="bulls-and-cows").unwrapped.rules == PRESETS["bulls-and-cows"]
    env = gymnasium.make(ENV_ID, pegs=5, colors=8, max_guesses=12).unwrapped
    assert env.rules == Rules(pegs=5, colors=8, max_guesses=12) and env.action_space.n == 32768
    assert env.observation_space.shape == (12, 7)
    with pytest.raises(MastermindError, match="not both"):
        MastermindEnv(Rules(), pegs=3)


def test_gymnasium_make_imports_the_module_itself():
    env = gymnasium.make("mastermind.gym:Mastermind-v0", pegs=2, colors=3)
    assert env.unwrapped.rules == Rules(pegs=2, colors=3)


def test_a_step_observes_the_guess_and_its_reply_and_costs_one():
    env = MastermindEnv()
    obs, info = env.reset(seed=5, options={"secret": "3632"})
    assert (obs == -1).all() and info == {"candidates": 1296}
    assert env.action_masks().all()
    obs, reward, terminated, truncated, info = env.step(7)  # 1122 against 3632: 1 black
    assert obs[0].tolist() == [0, 0, 1, 1, 1, 0] and (obs[1:] == -1).all()
    assert (reward, terminated, truncated) == (-1.0, False, False)
    assert info == {"candidates": 256, "reply": (1, 0)}
    assert env.action_masks().sum() == 256
    assert env.action_masks()[CodeSpace.of(CLASSIC).index((2, 5, 2, 1))]


def test_finding_the_code_terminates_and_running_out_truncates():
    env = MastermindEnv(Rules(max_guesses=2))
    env.reset(options={"secret": "1111"})
    assert env.step(1)[2:4] == (False, False)  # 1112
    _, _, terminated, truncated, _ = env.step(2)  # 1113: the second and last guess, not the code
    assert (terminated, truncated) == (False, True)
    with pytest.raises(MastermindError, match="the episode is over"):
        env.step(0)
    env.reset(options={"secret": "1111"})
    assert env.step(0)[2:4] == (True, False)


def test_a_secret_is_drawn_from_the_seed():
    env = MastermindEnv()
    env.reset(seed=11)
    first = env.game.secret
    env.reset(seed=11)
    assert env.game.secret == first


def test_actions_outside_the_codes_are_refused():
    env = MastermindEnv()
    env.reset(seed=1)
    with pytest.raises(MastermindError, match="not a code index from 0 to 1295"):
        env.step(1296)


def test_the_board_renders_as_text():
    env = MastermindEnv(render_mode="ansi")
    env.reset(options={"secret": "3632"})
    env.step(7)
    assert env.render().splitlines()[1] == "  1  1122  1 black, 0 white"


def test_a_random_agent_plays_to_the_end_with_minus_one_per_guess():
    env = gymnasium.make(ENV_ID, pegs=3, colors=4)
    env.action_space.seed(3)
    for episode in range(20):
        env.reset(seed=episode)
        total, steps, done = 0.0, 0, False
        while not done:
            _, reward, terminated, truncated, info = env.step(env.action_space.sample())
            total, steps, done = total + reward, steps + 1, terminated or truncated
        assert total == -steps
        assert terminated == (info["reply"] == (3, 0)) and truncated == (not terminated and steps == 10)


def test_a_masked_random_agent_always_finds_the_code():
    env = gymnasium.make(ENV_ID)
    rng = np.random.default_rng(0)
    for episode in range(20):
        env.reset(seed=episode)
        terminated = truncated = False
        while not (terminated or truncated):
            action = rng.choice(np.flatnonzero(env.unwrapped.action_masks()))
            _, _, terminated, truncated, _ = env.step(action)
        assert terminated


def test_knuths_strategy_as_an_agent_scores_5801_over_every_secret():
    # Knuth (1977), "The computer as Master Mind": 5801 guesses over the 1296 classic secrets.
    env = gymnasium.make(ENV_ID)
    knuth = make_strategy("knuth", CLASSIC)
    pegs = CLASSIC.pegs
    choices: dict[tuple, int] = {}  # the agent remembers its choice for a history it has seen
    total = 0.0
    for secret in range(CLASSIC.size):
        obs, _ = env.reset(options={"secret": secret})
        terminated = truncated = False
        while not (terminated or truncated):
            played = [tuple(row) for row in obs.tolist() if row[0] >= 0]
            if tuple(played) not in choices:
                history = [(row[:pegs], f"{row[pegs]},{row[pegs + 1]}") for row in played]
                choices[tuple(played)] = knuth.choose(SolverState(CLASSIC, history))
            obs, reward, terminated, truncated, _ = env.step(choices[tuple(played)])
            total += reward
        assert terminated
    assert -total == 5801
