"""MaskablePPO trains on the registered Gymnasium env without ever playing an illegal move."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

import boardenvs  # noqa: F401  (registers the envs)

sb3_contrib = pytest.importorskip("sb3_contrib")
torch = pytest.importorskip("torch")
from baselines.learners.sb3.training import IllegalActionCounter  # noqa: E402


def test_maskable_ppo_trains_on_quoridor_5x5_without_illegal_moves():
    torch.set_num_threads(1)
    env = gymnasium.make("boardenvs/Quoridor-v0", board_size=5)
    model = sb3_contrib.MaskablePPO("MultiInputPolicy", env, n_steps=512, batch_size=128, seed=0, device="cpu")
    counter = IllegalActionCounter()
    model.learn(total_timesteps=2048, callback=counter)
    assert counter.illegal == 0
    assert counter.episodes > 0
    obs, info = env.reset(seed=1)
    action, _ = model.predict(obs, action_masks=env.unwrapped.action_masks(), deterministic=True)
    assert info["action_mask"][int(action)]
    assert np.asarray(obs["action_mask"]).dtype == np.int8
