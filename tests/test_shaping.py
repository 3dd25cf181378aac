"""Tests of ``baselines.learners.shaping.PotentialShaping``: the shaping term, its telescoping sum, its errors, and
its use by the SB3 training envs."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest

from baselines.games import games_with_values
from baselines.learners.shaping import PotentialShaping
from baselines.search.evaluators import heuristic_value
from boardenvs.registry import list_games
from boardenvs.single_agent import SingleAgentEnv

SMALL_CONFIGS: dict[str, dict[str, Any]] = {"quoridor": {"board_size": 5}, "node_conquest": {"rows": 3, "cols": 3}}


def shaped_env(name: str, weight: float = 2.0, gamma: float = 0.9) -> PotentialShaping:
    return PotentialShaping(SingleAgentEnv(name, **SMALL_CONFIGS.get(name, {})), weight=weight, gamma=gamma)


def play_episode(env: gymnasium.Env, seed: int) -> tuple[dict, list[tuple[float, dict]]]:
    """One random-legal episode: the reset info and ``(reward, info)`` of every step."""
    rng = np.random.default_rng(seed)
    _, first = env.reset(seed=seed)
    info, steps, done = first, [], False
    while not done:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _, reward, terminated, truncated, info = env.step(action)
        steps.append((reward, info))
        done = terminated or truncated
    return first, steps


@pytest.mark.parametrize("name", games_with_values())
def test_each_step_adds_gamma_phi_next_minus_phi_now(name: str) -> None:
    env = shaped_env(name)
    first, steps = play_episode(env, seed=3)
    before = first["potential"]
    for reward, info in steps:
        assert reward == pytest.approx(info["unshaped_reward"] + 0.9 * info["potential"] - before)
        before = info["potential"]


@pytest.mark.parametrize("name", games_with_values())
def test_potential_is_the_weighted_heuristic_of_the_learner_and_zero_at_the_end(name: str) -> None:
    env = shaped_env(name, weight=2.0)
    _, info = env.reset(seed=5)
    base = env.unwrapped
    expected = 2.0 * heuristic_value(base.game, base.game_state)[base.learner_seat]
    assert info["potential"] == pytest.approx(expected)
    _, steps = play_episode(env, seed=5)
    assert steps[-1][1]["potential"] == 0.0


def test_undiscounted_shaping_telescopes_to_the_return_minus_the_first_potential() -> None:
    env = shaped_env("node_conquest", weight=3.0, gamma=1.0)
    first, steps = play_episode(env, seed=11)
    shaped = sum(reward for reward, _ in steps)
    game_return = sum(info["unshaped_reward"] for _, info in steps)
    assert shaped == pytest.approx(game_return - first["potential"])
    assert game_return != 0.0  # the episode was decided, so the game's return is in the sum


def test_shaping_rejects_a_bad_weight_gamma_or_env() -> None:
    base = SingleAgentEnv("quoridor", board_size=5)
    for weight in (0.0, -1.0, float("nan"), "1"):
        with pytest.raises(ValueError, match="weight"):
            PotentialShaping(base, weight=weight)  # type: ignore[arg-type]
    for gamma in (0.0, 1.5):
        with pytest.raises(ValueError, match="gamma"):
            PotentialShaping(base, gamma=gamma)
    with pytest.raises(TypeError, match="SingleAgentEnv"):
        PotentialShaping(gymnasium.make("CartPole-v1"))


def test_shaping_a_game_without_a_heuristic_names_those_with_one() -> None:
    without = [name for name in list_games() if name not in games_with_values()]
    assert without, "the test registry holds a toy game without a heuristic"
    with pytest.raises(ValueError, match="games with one: .*quoridor"):
        PotentialShaping(SingleAgentEnv(without[0]))


class TestTrainingEnvs:
    @pytest.fixture(autouse=True)
    def needs_sb3(self) -> None:
        pytest.importorskip("sb3_contrib")

    def test_the_training_env_shapes_only_when_asked_and_monitor_logs_the_game_return(self) -> None:
        from baselines.learners.sb3.training import OpponentMix, make_training_env

        plain = make_training_env("node_conquest", SMALL_CONFIGS["node_conquest"], OpponentMix())
        assert not isinstance(plain, PotentialShaping)
        env = make_training_env("node_conquest", SMALL_CONFIGS["node_conquest"], OpponentMix(), shaping=1.5, gamma=1.0)
        assert isinstance(env, PotentialShaping) and env.weight == 1.5
        first, steps = play_episode(env, seed=2)
        logged = steps[-1][1]["episode"]["r"]  # SB3's Monitor sits inside the shaping
        assert logged == pytest.approx(sum(info["unshaped_reward"] for _, info in steps))
        assert sum(reward for reward, _ in steps) == pytest.approx(logged - first["potential"])

    def test_sb3_settings_reject_negative_shaping(self, tmp_path: Any) -> None:
        from baselines.learners.sb3.runs import SB3Settings, train

        with pytest.raises(ValueError, match="shaping"):
            train(SB3Settings(game="quoridor", config=["board_size=3"], shaping=-1.0, out=str(tmp_path / "run")))
