"""Models that mask themselves from the observation: callers that pass no mask (SB3's ``evaluate_policy``, rl-zoo3,
SuperSuit) get legal moves; ``evaluate_model`` evaluates with masks; the safe format reads old and new descriptions.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

from sb3_contrib import MaskablePPO  # noqa: E402
from sb3_contrib.common.maskable.evaluation import evaluate_policy as masked_evaluate_policy  # noqa: E402
from sb3_contrib.common.maskable.policies import MaskableMultiInputActorCriticPolicy  # noqa: E402
from stable_baselines3.common.env_util import make_vec_env  # noqa: E402
from stable_baselines3.common.evaluation import evaluate_policy  # noqa: E402

import boardenvs  # noqa: E402, F401  (registers the envs)
from baselines.learners.sb3 import (  # noqa: E402
    MaskedPPO,
    SelfMaskingMultiInputPolicy,
    evaluate_model,
    load_model,
    make_model,
    save_model,
)
from baselines.learners.sb3 import pretrained as sb3_pretrained  # noqa: E402
from baselines.learners.sb3.model_files import description_path  # noqa: E402
from baselines.learners.sb3.policy_model import PolicyModel  # noqa: E402
from baselines.learners.sb3.safe_reader import load_policy  # noqa: E402
from boardenvs.envs import gym_env_id  # noqa: E402
from boardenvs.registry import make_game  # noqa: E402

QUORIDOR = "boardenvs/Quoridor-v0"


@pytest.fixture(autouse=True)
def one_torch_thread() -> None:
    torch.set_num_threads(1)


def quoridor_env(**kwargs: Any) -> gymnasium.Env:
    return gymnasium.make(QUORIDOR, board_size=5, **kwargs)


def seeded_vec_env(env_id: str, seed: int, config: dict[str, Any]) -> Any:
    """SB3's VecEnv as rl-zoo3 builds its evaluation env: the first reset seeded, then the env's generator."""
    return make_vec_env(env_id, n_envs=1, seed=seed, env_kwargs=config)


def untrained(model_class: type = MaskedPPO) -> Any:
    """An untrained PPO on Quoridor 5x5: its policy is close to uniform, so an unmasked one plays illegal moves."""
    game = make_game("quoridor", board_size=5)
    if model_class is MaskedPPO:
        return make_model("ppo", quoridor_env(), game, seed=0)
    from baselines.learners.sb3.policies import policy_kwargs_for

    return MaskablePPO("MultiInputPolicy", quoridor_env(), seed=0, device="cpu", policy_kwargs=policy_kwargs_for(game))


# -- the self-masking policy ----------------------------------------------------------------------
def test_make_model_builds_a_maskable_ppo_whose_policy_masks_itself() -> None:
    model = untrained()
    assert isinstance(model, MaskablePPO) and type(model.policy) is SelfMaskingMultiInputPolicy


def test_without_action_masks_predict_takes_the_observations_mask_and_explicit_masks_win() -> None:
    model, env = untrained(), quoridor_env()
    rng = np.random.default_rng(0)
    observation, _ = env.reset(seed=0)
    for _ in range(200):
        action, _ = model.predict(observation, deterministic=False)
        assert observation["action_mask"][int(action)], "a sampled action is legal"
        observation, _, terminated, truncated, _ = env.step(int(action))
        if terminated or truncated:
            observation, _ = env.reset(seed=int(rng.integers(1000)))
    legal = np.flatnonzero(observation["action_mask"])
    only = np.zeros_like(observation["action_mask"], dtype=bool)
    only[legal[-1]] = True
    for deterministic in (True, False):
        action, _ = model.predict(observation, deterministic=deterministic, action_masks=only)
        assert int(action) == legal[-1]


def test_forward_and_evaluate_actions_mask_alike_so_the_ppo_ratio_starts_at_one() -> None:
    model, env = untrained(), quoridor_env()
    observation, _ = env.reset(seed=3)
    tensors, _ = model.policy.obs_to_tensor(observation)
    with torch.no_grad():
        actions, _, log_prob = model.policy(tensors)
        _, evaluated, _ = model.policy.evaluate_actions(tensors, actions)
        masks = torch.as_tensor(observation["action_mask"]).reshape(1, -1) > 0
        _, explicit, _ = model.policy.evaluate_actions(tensors, actions, action_masks=masks)
    assert observation["action_mask"][int(actions)]
    assert torch.allclose(log_prob, evaluated) and torch.allclose(evaluated, explicit)


def test_sb3_evaluate_policy_plays_legal_moves_where_the_plain_policy_played_illegal_ones() -> None:
    plain, ours = untrained(MaskablePPO), untrained()
    ours.policy.load_state_dict(plain.policy.state_dict())
    assert type(plain.policy) is MaskableMultiInputActorCriticPolicy
    unmasked = evaluate_policy(plain, seeded_vec_env(QUORIDOR, 0, {"board_size": 5}), 10, return_episode_rewards=True)
    assert np.mean(unmasked[0]) < -0.5 and np.mean(unmasked[1]) < 3, "short episodes, ended by illegal moves"
    returns, lengths = evaluate_policy(ours, seeded_vec_env(QUORIDOR, 0, {"board_size": 5}), 10,
                                       return_episode_rewards=True)  # fmt: skip
    masked = evaluate_model(ours, QUORIDOR, 10, seed=0, board_size=5)
    assert (returns, lengths) == (masked.returns, masked.lengths) and masked.illegal_moves == 0
    plain_masked = evaluate_model(plain, QUORIDOR, 10, seed=0, board_size=5)
    assert plain_masked == masked, "evaluate_model gives the masks to any model whose predict takes them"


def test_maskedppo_loads_a_plain_maskable_ppo_zip_with_the_self_masking_policy(tmp_path: Path) -> None:
    plain = untrained(MaskablePPO)
    plain.save(tmp_path / "plain.zip")
    loaded = MaskedPPO.load(tmp_path / "plain.zip", device="cpu")
    assert type(loaded.policy) is SelfMaskingMultiInputPolicy
    for name, tensor in plain.policy.state_dict().items():
        assert torch.equal(tensor, loaded.policy.state_dict()[name])


# -- the safe format: old and new descriptions ----------------------------------------------------
def test_saved_models_record_the_networks_class_and_load_self_masking(tmp_path: Path) -> None:
    game = make_game("quoridor", board_size=5)
    for model in (untrained(), untrained(MaskablePPO)):  # ours, and sb3-contrib's plain policy
        save_model(model, tmp_path / "model", game)
        card = json.loads(description_path(tmp_path / "model").read_text())
        assert card["policy"]["policy_class"] == "MaskableMultiInputActorCriticPolicy", "readable by older readers"
        for trusted in (False, True):
            loaded, _ = load_model(tmp_path / "model", game, trusted=trusted)
            assert type(loaded.policy) is SelfMaskingMultiInputPolicy


def test_a_description_naming_the_self_masking_class_loads_too(tmp_path: Path) -> None:
    game = make_game("quoridor", board_size=5)
    save_model(untrained(), tmp_path / "model", game)
    card = json.loads(description_path(tmp_path / "model").read_text())
    description = {**card["policy"], "policy_class": "SelfMaskingMultiInputPolicy"}
    policy = load_policy(description, tmp_path / "model.pt", "test")
    assert type(policy) is SelfMaskingMultiInputPolicy


# -- the shipped models under every evaluator -----------------------------------------------------
@pytest.mark.parametrize("entry", sb3_pretrained.shipped(), ids=lambda entry: entry["game"])
def test_each_shipped_model_scores_the_same_under_sb3_sb3_contrib_and_our_evaluation(entry: dict[str, Any]) -> None:
    config = {key: value for key, value in entry["config"].items() if value is not None}
    game = make_game(entry["game"], **config)
    model, card = sb3_pretrained.load_pretrained(game)
    assert isinstance(model, PolicyModel) and card.game == entry["game"]
    env_id, episodes, seed = gym_env_id(entry["game"]), 8, 5
    plain = evaluate_policy(model, seeded_vec_env(env_id, seed, config), episodes, return_episode_rewards=True)
    masked = masked_evaluate_policy(model, seeded_vec_env(env_id, seed, config), episodes, return_episode_rewards=True)
    ours = evaluate_model(model, env_id, episodes, seed=seed, **config)
    assert plain == masked == (ours.returns, ours.lengths)
    assert ours.illegal_moves == 0 and ours.wins > 0


def test_load_pretrained_names_the_configs_that_have_a_model() -> None:
    with pytest.raises(ValueError, match="no model is shipped for quoridor with config"):
        sb3_pretrained.load_pretrained(make_game("quoridor", board_size=7))


# -- evaluate_model -------------------------------------------------------------------------------
class FirstActionModel:
    """A mask-less model (its ``predict`` takes no ``action_masks``) that always plays action 0."""

    def predict(self, observation: Any, state: Any = None, episode_start: Any = None, deterministic: bool = False):
        return np.zeros((), dtype=np.int64), state


def test_evaluate_model_counts_the_illegal_moves_of_a_model_that_takes_no_masks() -> None:
    result = evaluate_model(FirstActionModel(), "quoridor", 6, seed=0, board_size=5, illegal_action_penalty=-1.0)
    assert result.episodes == 6 and result.illegal_moves == result.losses > 0
    assert result.wins + result.draws + result.losses == 6 and result.mean_length >= 1
    low, high = result.return_interval
    assert low <= result.mean_return <= high and "illegal moves" in str(result)


def test_evaluate_model_counts_every_replaced_move_and_judges_the_game_not_the_penalised_return() -> None:
    result = evaluate_model(FirstActionModel(), "quoridor", 4, seed=0, board_size=5, illegal_action="replace",
                            illegal_action_penalty=-0.5)  # fmt: skip
    assert result.illegal_moves > result.episodes == 4, "the games went on after each replaced move"
    assert result.wins + result.draws + result.losses == 4
    assert any(outcome == 1 and value < 0 for outcome, value in zip(result.outcomes, result.returns)), (
        "a game won with replaced moves has a negative return and is a win"
    )


def test_evaluate_model_plays_the_given_opponent_and_is_reproducible() -> None:
    model = untrained()
    first = evaluate_model(model, "quoridor", 4, seed=2, opponent="heuristic", board_size=5)
    again = evaluate_model(model, QUORIDOR, 4, seed=2, opponent="heuristic", board_size=5)
    assert first == again and first.illegal_moves == 0
    assert first.win_interval[0] <= first.win_rate <= first.win_interval[1]


def test_evaluate_model_refuses_what_it_cannot_use() -> None:
    with pytest.raises(ValueError, match="n_episodes must be an int >= 1"):
        evaluate_model(untrained(), "quoridor", 0)
    with pytest.raises(ValueError, match="opponent and env kwargs configure a new env"):
        evaluate_model(untrained(), quoridor_env(), 1, opponent="random")
