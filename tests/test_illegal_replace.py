"""``illegal_action="replace"``: an illegal action becomes a random legal one, penalised, and the game goes on; and
the finished episode's all-ones mask, which keeps a masked sampler under Gymnasium's next-step autoreset alive.

Every test here needs only the core install (numpy, Gymnasium, PettingZoo): CI also runs it against the newest
releases of both.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest

from boardenvs.envs import gym_env_id
from boardenvs.parallel import BoardGameParallel, parallel_env
from boardenvs.registry import list_games
from boardenvs.single_agent import SingleAgentEnv
from tests.env_cases import CASES, Case
from tests.toy_games import ensure_toy_games_registered

ensure_toy_games_registered()

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning:gymnasium")


def scripted(moves: list[int]) -> Any:
    queue = list(moves)
    return lambda obs, mask, rng: queue.pop(0)


def test_an_illegal_action_is_replaced_by_a_legal_one_and_the_game_goes_on() -> None:
    env = SingleAgentEnv(
        "toy_tictactoe", opponent=scripted([4, 8, 2, 6]), learner_seat=0, illegal_action="replace",
        illegal_action_penalty=-0.25,
    )  # fmt: skip
    env.reset(seed=3)
    env.step(0)
    before = env.game_state.ply
    obs, reward, terminated, truncated, info = env.step(4)  # taken by the opponent
    assert info["illegal_action"] is True and (terminated, truncated) == (False, False)
    assert reward == -0.25 and type(reward) is float
    assert env.game_state.ply == before + 2  # the replacement and the opponent's reply were played
    assert obs["action_mask"].any() and "illegal_actions" not in info


def test_the_penalty_adds_to_the_final_reward_and_the_last_info_counts_the_replacements() -> None:
    env = SingleAgentEnv("toy_countdown", opponent="random", learner_seat=0, illegal_action="replace",
                         illegal_action_penalty=-0.5)  # fmt: skip
    env.reset(seed=0)
    flagged, rewards, done = 0, [], False
    while not done:
        _, reward, terminated, truncated, info = env.step(99)  # never legal
        flagged += info.get("illegal_action", False)
        rewards.append(reward)
        done = terminated or truncated
    assert info["illegal_actions"] == flagged == len(rewards)
    final = float(env.game.returns(env.game_state)[env.learner_seat])
    assert rewards[-1] == final - 0.5 and all(r == -0.5 for r in rewards[:-1])


def test_the_replacement_comes_from_the_envs_seeded_generator() -> None:
    def episode(seed: int) -> list[bytes]:
        env = SingleAgentEnv("quoridor", board_size=5, illegal_action="replace")
        env.reset(seed=seed)
        keys, done = [], False
        while not done:
            _, _, terminated, truncated, _ = env.step(0)
            keys.append(env.game_state.key())
            done = terminated or truncated
        return keys

    assert episode(7) == episode(7)
    assert episode(7) != episode(8)


@pytest.mark.parametrize("case", [c for c in CASES if not c.values[0].name.startswith("toy_")])
def test_a_policy_that_ignores_the_mask_plays_whole_games_of_every_game(case: Case) -> None:
    env = SingleAgentEnv(case.name, **case.config, illegal_action="replace", illegal_action_penalty=0.0)
    obs, _ = env.reset(seed=1)
    done, steps = False, 0
    while not done:
        obs, reward, terminated, truncated, info = env.step(steps % env.action_space.n)
        done, steps = terminated or truncated, steps + 1
    assert env.game.is_terminal(env.game_state)
    assert reward == float(env.game.returns(env.game_state)[env.learner_seat])
    assert info["illegal_actions"] <= steps


def test_the_default_still_ends_the_episode_and_a_bad_mode_names_the_parameter() -> None:
    env = SingleAgentEnv("toy_tictactoe", opponent=scripted([4]), learner_seat=0)
    env.reset(seed=0)
    env.step(0)
    _, reward, terminated, _, info = env.step(4)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True)
    with pytest.raises(ValueError, match="illegal_action.*'end'.*'replace'"):
        SingleAgentEnv("toy_tictactoe", illegal_action="random")
    with pytest.raises(ValueError, match="illegal_action"):
        gymnasium.make(gym_env_id("quoridor"), board_size=5, illegal_action="ignore")


# -- the Parallel env -------------------------------------------------------------------------------
def test_the_parallel_env_replaces_penalises_and_flags_the_offender_only() -> None:
    env = parallel_env("toy_tictactoe", illegal_action="replace", illegal_reward=-0.1)
    env.reset(seed=0)
    env.step({"player_0": 4})
    _, rewards, terminations, _, infos = env.step({"player_1": 4})  # taken
    assert rewards == {"player_0": 0.0, "player_1": pytest.approx(-0.1)}
    assert infos["player_1"]["illegal_action"] is True and "illegal_action" not in infos["player_0"]
    assert not any(terminations.values()) and env.agents


@pytest.mark.parametrize("game_name", [name for name in list_games() if not name.startswith("toy_")])
def test_a_mask_less_parallel_loop_plays_every_game_to_its_end(game_name: str) -> None:
    config = {"board_size": 5} if game_name == "quoridor" else {}
    env = parallel_env(game_name, illegal_action="replace", illegal_reward=0.0, **config)
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    while env.agents:
        env.step({agent: int(rng.integers(env.action_space(agent).n)) for agent in env.agents})
    assert env.game.is_terminal(env.game_state)


def test_replace_in_the_parallel_env_needs_a_penalty() -> None:
    with pytest.raises(ValueError, match="illegal_action='replace' needs a finite illegal_reward"):
        BoardGameParallel("toy_tictactoe", illegal_action="replace")
    with pytest.raises(ValueError, match="illegal_action"):
        parallel_env("toy_tictactoe", illegal_action="skip")


# -- masks of finished episodes ---------------------------------------------------------------------
def test_a_finished_episode_shows_an_all_ones_mask_everywhere() -> None:
    env = SingleAgentEnv("toy_tictactoe", opponent=scripted([3, 4]), learner_seat=0)
    env.reset(seed=0)
    env.step(0)
    env.step(1)
    obs, reward, terminated, _, info = env.step(2)  # top row: the learner wins
    assert (reward, terminated) == (1.0, True)
    assert obs["action_mask"].dtype == np.int8 and obs["action_mask"].all()
    assert info["action_mask"].all() and env.action_masks().all()
    assert not SingleAgentEnv("toy_tictactoe").action_masks().any()  # before reset: nothing


def masked_sample(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    """A masked categorical over uniform logits, as CleanRL samples: fails (NaN) on an all-zero row."""
    probabilities = masks.astype(float) / masks.sum(axis=1, keepdims=True)
    return np.array([rng.choice(len(row), p=row) for row in probabilities])


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_a_masked_sampler_survives_next_step_autoreset_in_gymnasium_vector_envs(mode: str) -> None:
    envs = gymnasium.make_vec(gym_env_id("quoridor"), num_envs=2, vectorization_mode=mode, board_size=3)
    obs, info = envs.reset(seed=0)
    rng = np.random.default_rng(0)
    episodes = illegal = 0
    previous_done = np.zeros(2, dtype=bool)
    for _ in range(120):
        obs, _, terminated, truncated, info = envs.step(masked_sample(rng, obs["action_mask"]))
        illegal += int(np.sum(info.get("illegal_action", np.zeros(2, dtype=bool)) & ~previous_done))
        previous_done = terminated | truncated
        episodes += int(previous_done.sum())
    envs.close()
    assert episodes >= 4 and illegal == 0


def test_same_step_autoreset_shows_only_live_masks() -> None:
    autoreset = getattr(gymnasium.vector, "AutoresetMode", None)
    if autoreset is None:
        pytest.skip("Gymnasium < 1.1 has no autoreset_mode")
    envs = gymnasium.make_vec(
        gym_env_id("quoridor"), num_envs=2, vectorization_mode="sync", board_size=3,
        vector_kwargs={"autoreset_mode": autoreset.SAME_STEP},
    )  # fmt: skip
    obs, _ = envs.reset(seed=0)
    rng = np.random.default_rng(0)
    ends = 0
    for _ in range(60):
        obs, _, terminated, truncated, info = envs.step(masked_sample(rng, obs["action_mask"]))
        ends += int(np.sum(terminated | truncated))
        for row in obs["action_mask"]:
            assert 0 < row.sum() < row.size  # a live position's legal moves, never the finished episode's
    envs.close()
    assert ends > 0
