"""RLlib on every game through ``boardenvs.rllib``: the ``MultiAgentEnv`` (RLlib's observation keys, channels-last
planes, zero-sum episode ends) and one masked self-play PPO iteration per game
(``baselines.learners.rllib.masked_ppo``) with no illegal move (the raw env raises on one); bad options give errors
that name them."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

pytest.importorskip("ray.rllib")
import ray  # noqa: E402

from baselines.learners.rllib import masked_ppo  # noqa: E402
from boardenvs import rllib  # noqa: E402
from boardenvs.registry import make_game  # noqa: E402
from tests.pipelines.cases import CASES, SMALL_CONFIGS  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore:.*Overriding environment rllib-multi-agent-env-v0")


@pytest.fixture(scope="module")
def ray_session() -> Iterator[None]:
    """One small local Ray for the whole module (start-up takes seconds)."""
    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield
    if started:
        ray.shutdown()


def expected_shape(game: str, config: dict[str, Any]) -> tuple[int, ...]:
    """The game's observation shape as RLlib gets it: planes moved to ``(H, W, C)``, vectors as they are."""
    shape = make_game(game, **config).spec.observation_shape
    return (*shape[1:], shape[0]) if len(shape) == 3 else shape


def play_random_episode(env: Any, seed: int) -> dict[str, float]:
    """One masked random episode through the RLlib env API; returns every agent's summed reward."""
    rng = np.random.default_rng(seed)
    observations, _ = env.reset(seed=seed)
    totals: dict[str, float] = {}
    while True:
        (agent, observation), *others = observations.items()
        assert not others, "one agent moves at a time"
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        observations, rewards, terminateds, truncateds, _ = env.step({agent: action})
        for name, reward in rewards.items():
            totals[name] = totals.get(name, 0.0) + float(reward)
        if terminateds["__all__"] or truncateds["__all__"]:
            return totals


@pytest.mark.parametrize(("game", "config"), CASES)
def test_the_multi_agent_env_speaks_rllib(game: str, config: dict[str, Any]) -> None:
    env = rllib.make_rllib_env(game, raw=True, **config)
    agent = env.possible_agents[0]
    space = env.observation_spaces[agent]
    assert set(space.spaces) == {"observations", "action_mask"}
    assert space["observations"].shape == expected_shape(game, config)
    assert space["action_mask"].dtype == np.float32
    observations, _ = env.reset(seed=0)
    (mover, observation), *others = observations.items()
    assert mover in env.possible_agents and not others
    assert space.contains(observation)
    assert observation["observations"].dtype == np.float32 and observation["action_mask"].sum() >= 1
    totals = play_random_episode(env, seed=0)
    assert set(totals) == set(env.possible_agents), "every seat gets its final reward"


@pytest.mark.parametrize(("game", "config"), CASES)
def test_one_masked_ppo_iteration(ray_session: None, game: str, config: dict[str, Any]) -> None:
    config_ = masked_ppo.masked_ppo_config(
        game, train_batch_size=128, minibatch_size=64, num_epochs=1, seed=0, raw=True, **config
    )
    algo = config_.build_algo()
    try:
        result = algo.train()
    finally:
        algo.stop()
    assert result["env_runners"]["num_env_steps_sampled"] >= 128
    assert masked_ppo.SHARED_POLICY in result["learners"]


@pytest.mark.parametrize("game", sorted(SMALL_CONFIGS))
def test_masked_ppo_runs_out_of_the_box_on_the_default_config(ray_session: None, game: str) -> None:
    """No game config, the default model: one tiny iteration (the full-size games, 12x12 Battle Sheep included)."""
    algo = masked_ppo.masked_ppo_config(
        game, train_batch_size=64, minibatch_size=64, num_epochs=1, raw=True
    ).build_algo()
    try:
        result = algo.train()
    finally:
        algo.stop()
    assert result["env_runners"]["num_env_steps_sampled"] >= 64


def test_an_illegal_action_raises_in_the_raw_env_and_is_penalised_by_default() -> None:
    for raw in (True, False):
        env = rllib.make_rllib_env("quoridor", raw=raw, board_size=5)
        observations, _ = env.reset(seed=0)
        (agent, observation), *_ = observations.items()
        illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
        if raw:
            with pytest.raises(ValueError, match="illegal action"):
                env.step({agent: illegal})
        else:
            _, rewards, terminateds, truncateds, _ = env.step({agent: illegal})
            assert rewards[agent] == -1.0 and terminateds["__all__"] and truncateds["__all__"]


@pytest.mark.parametrize(
    ("make_actions", "message"),
    [
        (
            lambda agent, other, action: {other: action},
            r"exactly the agents to act, \['player_0'\]; it misses "
            r"\['player_0'\] and names \['player_1'\], who are not to act",
        ),
        (lambda agent, other, action: {}, r"misses \['player_0'\]$"),
        (lambda agent, other, action: {agent: action, other: action}, r"names \['player_1'\], who are not to act"),
        (lambda agent, other, action: {"player_9": action}, r"names \['player_9'\]"),
        (lambda agent, other, action: [action], "takes a dict of agent -> action for \\['player_0'\\], got list"),
    ],
    ids=["other-agent", "empty", "extra-agent", "unknown-agent", "not-a-dict"],
)
def test_a_step_naming_the_wrong_agents_is_a_value_error_naming_the_one_expected(make_actions, message) -> None:
    env = rllib.make_rllib_env("quoridor", raw=True, board_size=5)
    observations, _ = env.reset(seed=0)
    (agent, observation), *_ = observations.items()
    action = int(np.flatnonzero(observation["action_mask"])[0])
    other = next(name for name in env.possible_agents if name != agent)
    with pytest.raises(ValueError, match=message):
        env.step(make_actions(agent, other, action))
    after, *_ = env.step({agent: action})  # the refused step changed nothing: the game goes on from its start
    assert list(after) == [other] and env.env.unwrapped.game_state.ply == 1


def test_a_step_after_the_game_ended_says_to_reset() -> None:
    env = rllib.make_rllib_env("toy_tictactoe", raw=True)
    play_random_episode(env, seed=1)
    with pytest.raises(RuntimeError, match=r"call reset\(\)"):
        env.step({"player_0": 0})


def test_every_game_is_registered_under_its_name(ray_session: None) -> None:
    from ray.tune.registry import ENV_CREATOR, _global_registry

    names = rllib.register_rllib_envs()
    assert {f"boardenvs_{game}" for game in SMALL_CONFIGS} <= set(names)
    creator = _global_registry.get(ENV_CREATOR, "boardenvs_quoridor")
    assert creator({"board_size": 5}).observation_spaces["player_0"]["observations"].shape == (5, 5, 10)


@pytest.mark.parametrize(
    ("kwargs", "named"),
    [
        ({"observation_layout": "channels_first"}, "observation_layout"),
        ({"observation_format": "dict"}, "observation_format"),
        ({"observation_layout": "rows_first"}, "observation_layout"),
    ],
)
def test_an_unsupported_observation_option_is_named(kwargs: dict[str, Any], named: str) -> None:
    with pytest.raises(ValueError, match=named):
        rllib.make_rllib_env("quoridor", board_size=5, **kwargs)


def test_a_vector_game_refuses_channels_last() -> None:
    with pytest.raises(ValueError, match="observation_layout"):
        rllib.make_rllib_env("splendor", observation_layout="channels_last")


def test_conv_filters_shrink_only_large_boards() -> None:
    assert masked_ppo.conv_filters((5, 5, 10)) == [[16, 3, 1], [32, 3, 1]]
    assert masked_ppo.conv_filters((12, 12, 13))[-1][-1] == 2
    assert "conv_filters" not in masked_ppo.model_config((335,))


def test_missing_ray_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray.rllib", None)
    with pytest.raises(ImportError, match=r"boardenvs\[pipelines\]"):
        rllib.make_rllib_env("quoridor", board_size=5)
