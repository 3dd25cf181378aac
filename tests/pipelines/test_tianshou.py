"""Tianshou 2.x on every game: masked collection through its ``PettingZooEnv`` and one short multi-agent DQN
epoch, with no illegal move (the raw env raises on one) and replay buffers of the expected shapes."""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np
import pytest

pytest.importorskip("tianshou")
torch = pytest.importorskip("torch")

from tianshou.algorithm import DQN, MARLRandomDiscreteMaskedOffPolicyAlgorithm, MultiAgentOffPolicyAlgorithm  # noqa: E402
from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy  # noqa: E402
from tianshou.algorithm.optim import AdamOptimizerFactory  # noqa: E402
from tianshou.data import Collector, ReplayBuffer, VectorReplayBuffer  # noqa: E402
from tianshou.env import DummyVectorEnv, PettingZooEnv  # noqa: E402
from tianshou.trainer import OffPolicyTrainerParams  # noqa: E402
from tianshou.utils.net.common import Net  # noqa: E402

from boardenvs.aec import BoardGameAEC  # noqa: E402
from boardenvs.envs import module_name  # noqa: E402
from tests.pipelines.cases import CASES  # noqa: E402


def raw_env(game: str, config: dict[str, Any]) -> BoardGameAEC:
    """The game's raw AEC env from its ``<game>_v<version>`` module: an illegal action raises ``ValueError``."""
    return importlib.import_module(module_name(game)).raw_env(**config)


def tianshou_env(game: str, config: dict[str, Any]) -> PettingZooEnv:
    return PettingZooEnv(raw_env(game, config))


def random_players(env: PettingZooEnv) -> list[MARLRandomDiscreteMaskedOffPolicyAlgorithm]:
    return [MARLRandomDiscreteMaskedOffPolicyAlgorithm(action_space=env.action_space) for _ in env.agents]


def dqn_player(env: PettingZooEnv) -> DQN:
    """A small masked DQN (Tianshou masks greedy and ε-random actions with ``obs.mask``)."""
    shape = env.observation_space["observation"].shape
    net = Net(state_shape=shape, action_shape=int(env.action_space.n), hidden_sizes=[64])
    policy = DiscreteQLearningPolicy(model=net, action_space=env.action_space, eps_training=0.2, eps_inference=0.05)
    return DQN(policy=policy, optim=AdamOptimizerFactory(lr=1e-3), gamma=0.9, target_update_freq=20)


def assert_buffer_is_legal_and_shaped(buffer: ReplayBuffer, env: PettingZooEnv) -> None:
    """Every stored action is legal under its stored mask, and obs/mask/reward arrays have the env's shapes."""
    indices = buffer.sample_indices(0)  # every stored transition
    n = len(indices)
    assert n == len(buffer) > 0
    data = buffer[indices]
    observation_shape = env.observation_space["observation"].shape
    assert data.obs.obs.shape == (n, *observation_shape)
    assert data.obs.obs.dtype == np.float32
    assert data.obs.mask.shape == (n, env.action_space.n)
    assert data.rew.shape == (n, len(env.agents))
    assert data.obs.mask[np.arange(n), data.act.astype(int)].all(), "an illegal action was stored"
    assert set(np.unique(data.obs.agent_id)) <= set(env.agents)


@pytest.fixture(autouse=True)
def _one_torch_thread() -> None:
    torch.set_num_threads(1)


@pytest.mark.parametrize(("game", "config"), CASES)
def test_masked_random_collect(game: str, config: dict[str, Any]) -> None:
    envs = DummyVectorEnv([lambda: tianshou_env(game, config) for _ in range(2)])
    envs.seed(0)
    template = tianshou_env(game, config)
    algorithm = MultiAgentOffPolicyAlgorithm(algorithms=random_players(template), env=template)
    buffer = VectorReplayBuffer(600, len(envs))
    stats = Collector(algorithm, envs, buffer, exploration_noise=True).collect(n_step=300, reset_before_collect=True)
    assert stats.n_collected_steps >= 300
    assert_buffer_is_legal_and_shaped(buffer, template)
    if stats.n_collected_episodes:
        assert stats.returns.shape == (stats.n_collected_episodes, len(template.agents))


@pytest.mark.parametrize(("game", "config"), CASES)
def test_one_short_dqn_epoch(game: str, config: dict[str, Any]) -> None:
    np.random.seed(0)
    torch.manual_seed(0)
    template = tianshou_env(game, config)
    learner = dqn_player(template)
    players = [learner, *random_players(template)[1:]]
    algorithm = MultiAgentOffPolicyAlgorithm(algorithms=players, env=template)
    envs = DummyVectorEnv([lambda: tianshou_env(game, config) for _ in range(2)])
    envs.seed(1)
    buffer = VectorReplayBuffer(1000, len(envs))
    collector = Collector(algorithm, envs, buffer, exploration_noise=True)
    collector.reset()
    collector.collect(n_step=64)
    before = [p.detach().clone() for p in learner.policy.model.parameters()]
    result = algorithm.run_training(
        OffPolicyTrainerParams(
            training_collector=collector,
            max_epochs=1,
            epoch_num_steps=64,
            collection_step_num_env_steps=16,
            batch_size=32,
            update_step_num_gradient_steps_per_sample=0.25,
            test_in_training=False,
            multi_agent_return_reduction=lambda returns: returns[:, 0],
            verbose=False,
            show_progress=False,
        )
    )
    assert result.train_step >= 64
    assert result.update_step > 0
    after = list(learner.policy.model.parameters())
    assert any(not torch.equal(b, a) for b, a in zip(before, after, strict=True)), "the DQN did not learn"
    assert_buffer_is_legal_and_shaped(buffer, template)


def test_an_unsupported_observation_format_is_named() -> None:
    """Tianshou stores ``obs["observation"]`` as one array: the dict format is the user's choice, but a bad format
    or layout fails when the env is built, naming the option."""
    with pytest.raises(ValueError, match="observation_layout"):
        tianshou_env("splendor", {"observation_layout": "channels_last"})
    with pytest.raises(ValueError, match="observation_format"):
        tianshou_env("quoridor", {"board_size": 5, "observation_format": "table"})
