"""A policy loaded from the safe format, playing through the parts of an SB3 algorithm that an agent uses.

:class:`~baselines.learners.sb3.agent.SB3Agent` plays a :class:`PolicyModel` as it plays a trained algorithm:
``predict``, ``policy``, the spaces, the step count.
"""

from __future__ import annotations

import numpy as np
from stable_baselines3.common.policies import BasePolicy

from baselines.learners.sb3.dqn import with_action_masks


class PolicyModel:
    """A policy loaded from the safe format, with the parts of an SB3 algorithm an agent plays through.

    Args:
        algo: ``"ppo"`` or ``"dqn"``.
        policy: The loaded policy.
        num_timesteps: The steps it was trained for (its card's).
        exploration_final_eps: DQN's final epsilon (used when an agent plays it stochastically).
    """

    def __init__(self, algo: str, policy: BasePolicy, num_timesteps: int = 0, exploration_final_eps: float = 0.0):
        self.algo, self.policy = algo, policy
        self.num_timesteps, self.exploration_final_eps = num_timesteps, exploration_final_eps
        self.observation_space, self.action_space = policy.observation_space, policy.action_space

    def predict(
        self,
        observation: dict[str, np.ndarray],
        state: tuple[np.ndarray, ...] | None = None,
        episode_start: np.ndarray | None = None,
        deterministic: bool = False,
        action_masks: np.ndarray | None = None,
    ) -> tuple[np.ndarray, tuple[np.ndarray, ...] | None]:
        """The policy's action(s) as ``MaskablePPO.predict`` gives them (a DQN's greedy legal action).

        Without ``action_masks`` both policies mask with ``observation["action_mask"]``, so SB3's own
        ``evaluate_policy(model, env)``, which passes none, plays only legal moves.
        """
        if self.algo == "dqn":
            return self.policy.predict(with_action_masks(observation, action_masks), state, episode_start, True)
        return self.policy.predict(observation, state, episode_start, deterministic, action_masks=action_masks)


__all__ = [
    "PolicyModel",
]
