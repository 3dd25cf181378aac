"""Behaviour cloning: a PPO policy's warm start from a teacher agent's moves (AlphaGo's supervised start).

:func:`collect_demonstrations` lets a teacher (a ``make_agent`` name, e.g. node conquest's ``greedy``) play the
learner's seat of the very training env PPO will use (same opponents, same reward wrappers) and records each
decision: the observation, the teacher's move, and the discounted return that followed it. The teacher sees
what any opponent inside the env sees, ``game.determinize(state, seat, rng)``: no hidden information.

:func:`pretrain_policy` then fits the MaskablePPO policy to them: cross-entropy of the teacher's move under the
masked policy, plus ``value_coef`` times the squared error of the value head against the recorded return, so
PPO's first advantages come from a critic that already knows the teacher's games. ``scripts/train_sb3.py
--teacher greedy`` does both before reinforcement learning starts; the evaluation at step 0 shows the cloned
policy's strength.

Example:
    >>> from baselines.learners.sb3.imitation import collect_demonstrations
    >>> from baselines.learners.runner import OpponentMix
    >>> demos = collect_demonstrations("node_conquest", {}, "greedy", OpponentMix(), steps=200, seed=0)
    >>> demos.size >= 200 and demos.actions.dtype.name == "int64"
    True
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch as th
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from torch.nn import functional

from baselines.factory import make_agent
from baselines.learners.runner.opponents import OpponentMix
from baselines.learners.sb3.training import make_training_env
from baselines.progress import progress_bar
from boardenvs.single_agent import AgentOpponent, SingleAgentEnv

ObsDict = dict[str, np.ndarray]


@dataclass(frozen=True)
class Demonstrations:
    """A teacher's decisions in the learner's seat, one row each.

    Attributes:
        observations: The env's observation dict, each entry stacked over the decisions.
        actions: ``int64[N]``: the teacher's moves (always legal).
        returns: ``float32[N]``: the discounted sum of the env's rewards from each decision to its episode's end.
        episodes: Finished episodes recorded.
        teacher_return: The teacher's mean undiscounted episode return.
    """

    observations: ObsDict
    actions: np.ndarray
    returns: np.ndarray
    episodes: int
    teacher_return: float

    @property
    def size(self) -> int:
        """Number of recorded decisions."""
        return int(self.actions.shape[0])


def collect_demonstrations(
    game_name: str,
    config: dict[str, Any],
    teacher: str,
    opponents: OpponentMix,
    steps: int,
    seed: int,
    shaping: float = 0.0,
    gamma: float = 0.99,
    progress: bool = False,
) -> Demonstrations:
    """At least ``steps`` decisions of ``teacher`` in the learner's seat of the training env (whole episodes:
    the last one is played to its end), seeded by ``seed``; ``shaping`` and ``gamma`` as in the training env.

    Raises:
        ValueError: ``steps`` < 1, or ``teacher`` is not an agent of the game (from ``make_agent``).
    """
    _check_count("steps", steps)
    chooser = AgentOpponent(make_agent(teacher, game_name, seed))
    env = make_training_env(game_name, config, opponents, shaping, gamma)
    game_env: SingleAgentEnv = env.unwrapped  # type: ignore[assignment]
    rows: list[tuple[ObsDict, int]] = []
    returns: list[float] = []
    episode_returns: list[float] = []
    try:
        with progress_bar(progress, steps, f"{teacher} demonstrations", "step") as bar:
            observation, _ = env.reset(seed=seed)
            while len(rows) < steps:
                shown = len(rows)
                episode, rewards, game_return, observation = _play_episode(env, game_env, chooser, observation)
                rows += episode
                returns += _discounted_returns(rewards, gamma)
                episode_returns.append(game_return)
                bar.update(min(len(rows), steps) - shown)
    finally:
        env.close()
    return Demonstrations(
        observations={key: np.stack([row[0][key] for row in rows]) for key in rows[0][0]},
        actions=np.array([row[1] for row in rows], dtype=np.int64),
        returns=np.array(returns, dtype=np.float32),
        episodes=len(episode_returns),
        teacher_return=float(np.mean(episode_returns)),
    )


def _play_episode(
    env: Any, game_env: SingleAgentEnv, chooser: AgentOpponent, observation: ObsDict
) -> tuple[list[tuple[ObsDict, int]], list[float], float, ObsDict]:
    """One episode from ``observation`` with the teacher's moves: its rows, the env's rewards, the game's return
    of the learner's seat, and the next episode's first observation."""
    rows: list[tuple[ObsDict, int]] = []
    rewards: list[float] = []
    while True:
        action = chooser.choose(game_env, int(game_env.learner_seat))
        rows.append(({key: np.array(value) for key, value in observation.items()}, action))
        observation, reward, terminated, truncated, _ = env.step(action)
        rewards.append(float(reward))
        if terminated or truncated:
            game_return = float(game_env.game.returns(game_env.game_state)[game_env.learner_seat])
            next_observation, _ = env.reset()
            return rows, rewards, game_return, next_observation


def _discounted_returns(rewards: list[float], gamma: float) -> list[float]:
    returns, running = [], 0.0
    for reward in reversed(rewards):
        running = reward + gamma * running
        returns.append(running)
    return returns[::-1]


def pretrain_policy(
    model: Any,
    demos: Demonstrations,
    epochs: int,
    seed: int,
    batch_size: int = 256,
    value_coef: float = 0.5,
    learning_rate: float = 3e-4,
    progress: bool = False,
) -> list[dict[str, float]]:
    """Fit ``model``'s MaskablePPO policy to ``demos`` for ``epochs`` passes of Adam at ``learning_rate`` (an
    optimizer of its own: PPO's keeps its rate and state, so a gentle fine-tuning rate does not slow the cloning);
    one row of mean losses per epoch (``policy_loss``: the teacher moves' negative log-likelihood, ``value_loss``,
    ``agreement``: the share of decisions where the policy's most likely move is the teacher's).

    Raises:
        ValueError: ``epochs`` or ``batch_size`` < 1, ``learning_rate`` not > 0, or a model without a masked policy
            (not MaskablePPO).
    """
    _check_count("epochs", epochs)
    _check_count("batch_size", batch_size)
    if not (isinstance(learning_rate, (int, float)) and math.isfinite(learning_rate) and learning_rate > 0):
        raise ValueError(f"learning_rate must be a finite number > 0, got {learning_rate!r}")
    policy = model.policy
    if not isinstance(policy, MaskableActorCriticPolicy):
        raise ValueError(f"behaviour cloning needs a MaskablePPO model, got {type(model).__name__}")
    optimizer = th.optim.Adam(policy.parameters(), lr=learning_rate)
    rng = np.random.default_rng(seed)
    history = []
    policy.set_training_mode(True)
    with progress_bar(progress, epochs, "behaviour cloning", "epoch") as bar:
        for _ in range(epochs):
            order = rng.permutation(demos.size)
            batches = [order[start : start + batch_size] for start in range(0, demos.size, batch_size)]
            history.append(_mean_rows([_train_batch(policy, optimizer, demos, batch, value_coef) for batch in batches]))
            bar.update(1)
    policy.set_training_mode(False)
    return history


def _train_batch(
    policy: Any, optimizer: th.optim.Optimizer, demos: Demonstrations, batch: np.ndarray, value_coef: float
) -> dict[str, float]:
    observations, _ = policy.obs_to_tensor({key: value[batch] for key, value in demos.observations.items()})
    masks = demos.observations["action_mask"][batch].astype(bool)
    actions = th.as_tensor(demos.actions[batch], device=policy.device)
    returns = th.as_tensor(demos.returns[batch], device=policy.device)
    values, distribution = _values_and_distribution(policy, observations, masks)
    policy_loss = -distribution.log_prob(actions).mean()
    value_loss = functional.mse_loss(values.flatten(), returns)
    optimizer.zero_grad()
    (policy_loss + value_coef * value_loss).backward()
    th.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
    optimizer.step()
    agreement = (distribution.distribution.probs.argmax(dim=1) == actions).float().mean()
    losses = {"policy_loss": policy_loss.item(), "value_loss": value_loss.item()}
    return {**losses, "agreement": agreement.item()}


def _values_and_distribution(policy: Any, observations: Any, masks: np.ndarray) -> tuple[th.Tensor, Any]:
    """The critic's values and the masked action distribution from one pass through the network, as
    ``MaskableActorCriticPolicy.evaluate_actions`` computes them (which returns the chosen actions' log-probability
    alone; the agreement needs the whole distribution)."""
    features = policy.extract_features(observations)
    if policy.share_features_extractor:
        latent_pi, latent_vf = policy.mlp_extractor(features)
    else:
        latent_pi = policy.mlp_extractor.forward_actor(features[0])
        latent_vf = policy.mlp_extractor.forward_critic(features[1])
    distribution = policy._get_action_dist_from_latent(latent_pi)
    distribution.apply_masking(masks)
    return policy.value_net(latent_vf), distribution


def _check_count(name: str, value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be an int >= 1, got {value!r}")


def _mean_rows(rows: list[dict[str, float]]) -> dict[str, float]:
    return {key: float(np.mean([row[key] for row in rows])) for key in rows[0]}


__all__ = ["Demonstrations", "collect_demonstrations", "pretrain_policy"]
