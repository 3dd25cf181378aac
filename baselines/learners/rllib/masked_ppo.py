"""A ready masked self-play PPO config for any game on RLlib, and the small networks it starts from.

The env layer (:mod:`boardenvs.rllib`) only adapts the games to RLlib; the learner's choices live here: one shared
``ActionMaskingTorchRLModule`` (module id :data:`SHARED_POLICY`) plays every seat, with a CNN sized from the planes
or an MLP for vectors (:func:`model_config`), sampling on the driver, one torch thread per sampling process, and the
env checker off (it samples unmasked actions). :func:`masked_ppo_config` is the whole recipe;
:mod:`baselines.learners.rllib.algorithm` starts a training run's config from it.

Ray is optional: this module imports without it, and :func:`masked_ppo_config` raises ``ImportError`` naming the
extra to install, ``pip install "boardenvs[pipelines]"``.

Example:
    >>> import ray  # doctest: +SKIP
    >>> ray.init(num_cpus=2)  # doctest: +SKIP
    >>> algo = masked_ppo_config("quoridor", board_size=5).build_algo()  # doctest: +SKIP
    >>> result = algo.train()  # doctest: +SKIP
"""

from __future__ import annotations

from functools import partial
from typing import Any

from boardenvs.rllib import OBSERVATIONS_KEY, make_aec_for_rllib, register_rllib_envs, require_ray, rllib_env_name

SHARED_POLICY = "shared"
"""The module id every seat maps to in :func:`masked_ppo_config` (self-play with one network)."""


def conv_filters(plane_shape: tuple[int, ...]) -> list[list[int]]:
    """Small ``[channels, kernel, stride]`` conv layers for ``(H, W, C)`` planes: 3x3 "same" convolutions, the
    second strided on boards larger than 8x8 so that the flattened features stay small."""
    height, width = plane_shape[0], plane_shape[1]
    stride = 2 if max(height, width) > 8 else 1
    return [[16, 3, 1], [32, 3, stride]]


def model_config(observation_shape: tuple[int, ...]) -> dict[str, Any]:
    """RLlib ``model_config`` for an observation shape: a CNN for ``(H, W, C)`` planes, an MLP for vectors."""
    if len(observation_shape) == 3:
        return {"conv_filters": conv_filters(observation_shape), "head_fcnet_hiddens": [64]}
    return {"fcnet_hiddens": [64, 64], "head_fcnet_hiddens": []}


def masked_module_spec(game_name: str, **env_kwargs: Any) -> Any:
    """The ``RLModuleSpec`` of one masked module for a game: RLlib's ``ActionMaskingTorchRLModule`` with the network
    of :func:`model_config` sized from the observation the RLlib env gives (``env_kwargs``: as for the env)."""
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

    probe = make_aec_for_rllib(game_name, **env_kwargs)
    observation_shape = probe.observation_space(probe.possible_agents[0])[OBSERVATIONS_KEY].shape
    return RLModuleSpec(module_class=ActionMaskingTorchRLModule, model_config=model_config(observation_shape))


def shared_module_spec(game_name: str, **env_kwargs: Any) -> Any:
    """The ``MultiRLModuleSpec`` of :func:`masked_ppo_config`: one :func:`masked_module_spec`, :data:`SHARED_POLICY`."""
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec

    return MultiRLModuleSpec(rl_module_specs={SHARED_POLICY: masked_module_spec(game_name, **env_kwargs)})


def masked_ppo_config(
    game_name: str,
    *,
    train_batch_size: int = 512,
    minibatch_size: int = 128,
    num_epochs: int = 4,
    lr: float = 3e-4,
    seed: int | None = None,
    raw: bool = False,
    torch_threads: int | None = 1,
    **env_kwargs: Any,
) -> Any:
    """A ready ``PPOConfig`` for masked self-play PPO on a game, sized for a small CPU.

    One shared ``ActionMaskingTorchRLModule`` plays every seat (observations are egocentric), with a CNN or an MLP
    from :func:`model_config`; sampling runs on the driver (no env runner actors, no learner actors) and the env
    checker is off (it samples unmasked actions). Change anything on the returned config before ``build_algo()``;
    without ray[rllib] this raises ``ImportError`` naming the extra to install.

    Args:
        game_name: A name from ``boardenvs.list_games()``.
        train_batch_size: Env steps per training iteration.
        minibatch_size: SGD minibatch size.
        num_epochs: SGD passes over each train batch.
        lr: Learning rate.
        seed: Seed of the env runners and networks.
        raw: Use the raw env (an illegal action raises) instead of the penalising one.
        torch_threads: Torch threads of each process that samples (with no env runner actors, the driver, where the
            learner runs too); one thread is far faster for these small networks on a busy small CPU. ``None``
            leaves torch's setting alone.
        **env_kwargs: Env kwargs passed as ``env_config`` (``preset``, game config fields).
    """
    require_ray()
    from ray.rllib.algorithms.ppo import PPOConfig

    register_rllib_envs()
    return (
        PPOConfig()
        .environment(env=rllib_env_name(game_name), env_config={**env_kwargs, "raw": raw}, disable_env_checking=True)
        .env_runners(num_env_runners=0, num_envs_per_env_runner=1, rollout_fragment_length="auto")
        .learners(num_learners=0)
        .multi_agent(policies={SHARED_POLICY}, policy_mapping_fn=shared_policy)
        .rl_module(rl_module_spec=shared_module_spec(game_name, **env_kwargs))
        .training(
            train_batch_size_per_learner=train_batch_size, minibatch_size=minibatch_size, num_epochs=num_epochs, lr=lr
        )
        .debugging(seed=seed)
        .callbacks(on_environment_created=partial(limit_torch_threads, torch_threads))
    )


def limit_torch_threads(threads: int | None, **kwargs: Any) -> None:
    """An ``on_environment_created`` callback: ``torch.set_num_threads(threads)`` in the env runner's process."""
    if threads is not None:
        import torch

        torch.set_num_threads(threads)


def shared_policy(agent_id: str, episode: Any = None, **kwargs: Any) -> str:
    """The policy mapping of :func:`masked_ppo_config`: every seat plays with the one shared module."""
    return SHARED_POLICY


__all__ = [
    "SHARED_POLICY",
    "conv_filters",
    "limit_torch_threads",
    "masked_module_spec",
    "masked_ppo_config",
    "model_config",
    "shared_module_spec",
    "shared_policy",
]
