"""TorchRL on every game: ``check_env_specs`` on ``PettingZooWrapper(env, use_mask=True)``, a rollout with a masked
policy network and a collector, with no illegal move (the raw env raises on one, and every action taken is checked
against the acting agent's mask)."""

from __future__ import annotations

import importlib
import math
from typing import Any

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("torchrl")

from tensordict import TensorDictBase  # noqa: E402
from tensordict.nn import TensorDictModule  # noqa: E402
from torch import nn  # noqa: E402
from torchrl.collectors import Collector  # noqa: E402
from torchrl.envs import PettingZooWrapper  # noqa: E402
from torchrl.envs.utils import MarlGroupMapType, check_env_specs  # noqa: E402
from torchrl.modules import MaskedCategorical, ProbabilisticActor  # noqa: E402

from boardenvs.aec import BoardGameAEC  # noqa: E402
from boardenvs.envs import module_name  # noqa: E402
from tests.pipelines.cases import CASES  # noqa: E402

GROUP = "agents"
"""The one group of ``MarlGroupMapType.ALL_IN_ONE_GROUP``: every seat shares the policy."""
OBSERVATION = (GROUP, "observation", "observation")
ACTION_MASK = (GROUP, "action_mask")
ACTION = (GROUP, "action")


def raw_env(game: str, config: dict[str, Any]) -> BoardGameAEC:
    """The game's raw AEC env from its ``<game>_v<version>`` module: an illegal action raises ``ValueError``."""
    return importlib.import_module(module_name(game)).raw_env(**config)


def shared_env(game: str, config: dict[str, Any], seed: int = 0) -> PettingZooWrapper:
    """TorchRL's wrapper with all seats in one group (the acting seat is marked by ``(agents, mask)``)."""
    return PettingZooWrapper(
        env=raw_env(game, config), use_mask=True, group_map=MarlGroupMapType.ALL_IN_ONE_GROUP, seed=seed
    )


def masked_actor(env: PettingZooWrapper) -> ProbabilisticActor:
    """A small MLP policy whose logits go through ``MaskedCategorical`` with the env's per-agent action mask."""
    observation_shape = env.observation_spec[OBSERVATION].shape[1:]
    num_actions = env.full_action_spec[ACTION].space.n
    net = nn.Sequential(
        nn.Flatten(start_dim=-len(observation_shape)),
        nn.Linear(math.prod(observation_shape), 32),
        nn.Tanh(),
        nn.Linear(32, num_actions),
    )
    module = TensorDictModule(net, in_keys=[OBSERVATION], out_keys=[(GROUP, "logits")])
    return ProbabilisticActor(
        module,
        in_keys={"logits": (GROUP, "logits"), "mask": ACTION_MASK},
        out_keys=[ACTION],
        distribution_class=MaskedCategorical,
    )


def assert_acting_agents_moved_legally(data: TensorDictBase) -> int:
    """Every step's acting agent (``(agents, mask)``) chose an action its ``action_mask`` allows; returns the number
    of steps checked."""
    acting = data[GROUP, "mask"].reshape(-1, data[GROUP, "mask"].shape[-1])
    actions = data[ACTION].reshape(acting.shape)
    masks = data[ACTION_MASK].reshape(*acting.shape, -1)
    assert (acting.sum(-1) == 1).all(), "exactly one agent acts per AEC step"
    chosen_legal = masks.gather(-1, actions.unsqueeze(-1)).squeeze(-1)
    assert chosen_legal[acting].all(), "an acting agent took an illegal action"
    return int(acting.shape[0])


@pytest.fixture(autouse=True)
def _one_torch_thread() -> None:
    torch.set_num_threads(1)
    torch.manual_seed(0)


@pytest.mark.parametrize(("game", "config"), CASES)
def test_check_env_specs(game: str, config: dict[str, Any]) -> None:
    env = PettingZooWrapper(env=raw_env(game, config), use_mask=True, seed=0)  # one group per agent, TorchRL's default
    assert sorted(env.group_map) == env.possible_agents
    check_env_specs(env)
    check_env_specs(shared_env(game, config))


@pytest.mark.parametrize(("game", "config"), CASES)
def test_masked_rollout(game: str, config: dict[str, Any]) -> None:
    env = shared_env(game, config)
    data = env.rollout(60, policy=masked_actor(env), break_when_any_done=False)
    assert data.batch_size == torch.Size([60])
    assert assert_acting_agents_moved_legally(data) == 60
    num_players = len(env.possible_agents)
    assert data["next", GROUP, "reward"].shape == (60, num_players, 1)


@pytest.mark.parametrize(("game", "config"), CASES)
def test_masked_random_rollout_through_the_action_spec(game: str, config: dict[str, Any]) -> None:
    """No policy: TorchRL samples from the action spec, whose mask the wrapper updates every step."""
    env = PettingZooWrapper(env=raw_env(game, config), use_mask=True, seed=1)
    data = env.rollout(40, break_when_any_done=False)
    assert data.batch_size == torch.Size([40])


@pytest.mark.parametrize(("game", "config"), CASES)
def test_collector(game: str, config: dict[str, Any]) -> None:
    policy = masked_actor(shared_env(game, config))
    collector = Collector(
        lambda: shared_env(game, config, seed=2),
        policy,
        frames_per_batch=50,
        total_frames=100,
        auto_register_policy_transforms=False,
    )
    frames = 0
    for batch in collector:
        frames += assert_acting_agents_moved_legally(batch)
    collector.shutdown()
    assert frames == 100


def test_an_unsupported_observation_layout_is_named() -> None:
    with pytest.raises(ValueError, match="observation_layout"):
        PettingZooWrapper(env=raw_env("gravwell", {"observation_layout": "channels_last"}), use_mask=True)
