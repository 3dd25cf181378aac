"""The RLlib side of a run: the PPO config, snapshot slots, the illegal-move metric and a local Ray.

:func:`ppo_config` starts from :func:`~baselines.learners.rllib.masked_ppo.masked_ppo_config` (masked module, CNN
or MLP from the game's observation, one torch thread per sampling process) and swaps in the training env
(:class:`~baselines.learners.rllib.env.TableEnv`, registered as ``boardenvs_table``), the modules (``shared``,
trained, plus the frozen ``snapshot_<k>`` slots when snapshots play, listed in ``policies_to_train`` as not
trained), the agent-to-module mapping (:func:`~baselines.learners.rllib.env.module_for_agent`) and the PPO
hyper-parameters of the settings.

Snapshots are weights copied, on the learner, from ``shared`` into a slot (:func:`copy_to_snapshot`), then pushed to
every env runner (:func:`push_to_env_runners`): RLlib's own weight sync only sends the modules it just trained, and
an env runner ignores weights whose sequence number it already has, so the push sends them without one.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from baselines.learners.rllib.env import TableEnv, module_for_agent, snapshot_modules
from baselines.learners.rllib.masked_ppo import SHARED_POLICY, masked_ppo_config, model_config
from baselines.learners.rllib.settings import RLlibSettings
from baselines.learners.runner.opponents import OpponentMix
from boardenvs.rllib import OBSERVATIONS_KEY, require_ray

TABLE_ENV = "boardenvs_table"
"""The RLlib (tune) name of :class:`TableEnv`."""
ILLEGAL_METRIC = "illegal_actions"
"""The env runner metric counting illegal actions played in training (summed per iteration)."""


def make_table_env(env_config: dict[str, Any]) -> TableEnv:
    """The env creator registered as :data:`TABLE_ENV`."""
    return TableEnv(dict(env_config))


def register_table_env() -> str:
    """Register :class:`TableEnv` with ``ray.tune`` as :data:`TABLE_ENV`; returns the name."""
    require_ray()
    from ray.tune.registry import register_env

    register_env(TABLE_ENV, make_table_env)
    return TABLE_ENV


def network_config(settings: RLlibSettings, observation_shape: tuple[int, ...]) -> dict[str, Any]:
    """RLlib's ``model_config``: :func:`~baselines.learners.rllib.masked_ppo.model_config` with the settings' layers
    where given."""
    model = {**model_config(observation_shape), "vf_share_layers": settings.share_layers}
    planes = len(observation_shape) == 3
    if planes and settings.conv_channels:
        strides = [1] * len(settings.conv_channels)
        strides[-1] = 2 if len(strides) > 1 and max(observation_shape[:2]) > 8 else 1
        model["conv_filters"] = [[channels, 3, stride] for channels, stride in zip(settings.conv_channels, strides)]
    if settings.hidden:
        model["head_fcnet_hiddens" if planes else "fcnet_hiddens"] = list(settings.hidden)
    return model


def module_specs(env: TableEnv, mix: OpponentMix, settings: RLlibSettings) -> dict[str, Any]:
    """One masked-PPO module spec per module id (``shared`` and the snapshot slots), with the env's spaces."""
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

    agent = env.possible_agents[0]
    observation_space, action_space = env.observation_spaces[agent], env.action_spaces[agent]
    model = network_config(settings, observation_space[OBSERVATIONS_KEY].shape)
    return {
        module_id: RLModuleSpec(
            module_class=ActionMaskingTorchRLModule,
            observation_space=observation_space,
            action_space=action_space,
            model_config=model,
        )
        for module_id in [SHARED_POLICY, *snapshot_modules(mix)]
    }


def ppo_config(settings: RLlibSettings, game_config: dict[str, Any], mix: OpponentMix) -> Any:
    """The ``PPOConfig`` of a run: masked PPO on :class:`TableEnv` with ``mix``, ``shared`` the only trained module."""
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec

    env_config = mix.env_config(settings.game, game_config)
    specs = module_specs(make_table_env(env_config), mix, settings)
    config = masked_ppo_config(
        settings.game,
        train_batch_size=settings.train_batch_size,
        minibatch_size=settings.minibatch_size,
        num_epochs=settings.num_epochs,
        lr=settings.lr,
        seed=settings.seed,
        **game_config,
    )
    return (
        config.environment(env=register_table_env(), env_config=env_config, disable_env_checking=True)
        .env_runners(num_env_runners=settings.workers, num_envs_per_env_runner=settings.envs_per_worker)
        .multi_agent(policies=set(specs), policy_mapping_fn=module_for_agent, policies_to_train=[SHARED_POLICY])
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs=specs))
        .training(
            gamma=settings.gamma,
            lambda_=settings.gae_lambda,
            entropy_coeff=settings.entropy_coeff,
            clip_param=settings.clip_param,
            vf_loss_coeff=settings.vf_loss_coeff,
            use_kl_loss=settings.kl_coeff > 0,
            kl_coeff=settings.kl_coeff,
            grad_clip=settings.grad_clip or None,
        )
        .callbacks(on_episode_end=log_illegal_actions)
    )


def log_illegal_actions(*, episode: Any, metrics_logger: Any, **kwargs: Any) -> None:
    """An ``on_episode_end`` callback: log how many agents' last infos report an illegal action (0 or 1)."""
    infos = episode.get_infos(-1)
    illegal = sum(bool(info.get("illegal_action", False)) for info in infos.values() if isinstance(info, dict))
    metrics_logger.log_value(ILLEGAL_METRIC, illegal, reduce="sum")


# -- snapshots --------------------------------------------------------------------------------------
def copy_to_snapshot(algo: Any, module_id: str) -> None:
    """Copy the learner's ``shared`` weights into the frozen module ``module_id``, on the learner and every env
    runner."""
    learner_group = algo.learner_group
    state = learner_group.get_state(components=f"learner/rl_module/{SHARED_POLICY}")
    learner_group.set_state({"learner": {"rl_module": {module_id: state["learner"]["rl_module"][SHARED_POLICY]}}})
    push_to_env_runners(algo, [module_id])


def push_to_env_runners(algo: Any, module_ids: list[str]) -> None:
    """Send the learner's weights of ``module_ids`` to every env runner (the local one included), unconditionally."""
    if not module_ids:
        return
    components = [f"learner/rl_module/{module_id}" for module_id in module_ids]
    state = algo.learner_group.get_state(components=components, inference_only=True)["learner"]["rl_module"]
    algo.env_runner_group.foreach_env_runner(lambda runner: runner.set_state({"rl_module": state}))


# -- ray ----------------------------------------------------------------------------------------------
@contextmanager
def local_ray(num_cpus: int) -> Iterator[None]:
    """A local Ray with ``num_cpus`` CPUs (no dashboard) for the block, unless one is already running (then that
    one is used and left running)."""
    require_ray()
    import ray

    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=num_cpus, include_dashboard=False, configure_logging=False)
    try:
        yield
    finally:
        if started:
            ray.shutdown()


__all__ = [
    "ILLEGAL_METRIC",
    "TABLE_ENV",
    "copy_to_snapshot",
    "local_ray",
    "log_illegal_actions",
    "make_table_env",
    "module_specs",
    "network_config",
    "ppo_config",
    "push_to_env_runners",
    "register_table_env",
]
