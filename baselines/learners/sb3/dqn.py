"""DQN that never plays an illegal move: masked Q-values, masked exploration, masked warm-up.

SB3's DQN knows nothing of action masks. :class:`MaskedDQN` reads the mask from the Dict observation
(``obs["action_mask"]``, as the boardenvs envs provide it) and uses it everywhere an action is chosen:

- **Q-values** (:class:`MaskedQNetwork`): illegal actions get the finite :data:`MASKED_Q_VALUE` (-1e9, not
  ``-inf``, which would give ``inf * 0 = NaN`` in the TD target). This masks the greedy ``argmax`` and the
  target's ``max``, since the target network reads ``next_obs`` with its own mask. A row whose mask is all
  zero gets Q-values 0: no move is left, so its value is 0. The envs show a finished episode with an all-ones
  mask (safe for masked samplers, see ``docs/tools.md``), so :meth:`MaskedDQN._store_transition` stores every
  final observation with an all-zero mask. This keeps targets right even where SB3 bootstraps from a final
  observation (a game that ends at its move cap is reported as truncated, and SB3 does not zero the bootstrap of
  a truncation).
- **ε-exploration** (:meth:`MaskedDQN.predict`): each row explores with probability ε (one coin per row,
  SB3 flips one coin for the batch) and then plays a uniformly random *legal* action.
- **Warm-up** (:meth:`MaskedDQN._sample_action`): before ``learning_starts``, SB3 samples
  ``action_space.sample()`` unmasked; here every env samples one of its legal actions.

The coins and random actions come from the action space's generator, which SB3 seeds with the model's seed.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
import torch as th
from gymnasium import spaces
from stable_baselines3 import DQN
from stable_baselines3.common.noise import ActionNoise
from stable_baselines3.common.policies import BasePolicy
from stable_baselines3.dqn.policies import DQNPolicy, QNetwork

MASKED_Q_VALUE: float = -1e9
"""The Q-value given to illegal actions: finite, so no ``inf * 0 = NaN`` ever arises."""

ObservationLike = np.ndarray | dict[str, np.ndarray]


def mask_q_values(q_values: th.Tensor, action_mask: th.Tensor) -> th.Tensor:
    """Q-values with illegal actions set to :data:`MASKED_Q_VALUE`, and rows with no legal action set to 0.

    Args:
        q_values: ``[batch, num_actions]``.
        action_mask: ``[batch, num_actions]``, nonzero where the action is legal.
    """
    legal = action_mask.reshape(q_values.shape) > 0
    masked = th.where(legal, q_values, th.full_like(q_values, MASKED_Q_VALUE))
    return th.where(legal.any(dim=1, keepdim=True), masked, th.zeros_like(q_values))


class MaskedQNetwork(QNetwork):
    """SB3's Q-network with :func:`mask_q_values` applied to its output (``obs["action_mask"]``)."""

    def forward(self, obs: dict[str, th.Tensor]) -> th.Tensor:  # type: ignore[override]
        """Masked Q-values of a batch of Dict observations."""
        return mask_q_values(super().forward(obs), obs["action_mask"])


class MaskedDQNPolicy(DQNPolicy):
    """DQN policy over ``Dict(observation=..., action_mask=...)`` whose online and target nets are masked."""

    def __init__(self, observation_space: spaces.Space, *args: Any, **kwargs: Any) -> None:
        if not isinstance(observation_space, spaces.Dict) or "action_mask" not in observation_space.spaces:
            raise ValueError(f"MaskedDQN needs a Dict observation space with an 'action_mask', got {observation_space}")
        super().__init__(observation_space, *args, **kwargs)

    def make_q_net(self) -> MaskedQNetwork:
        """A masked Q-network with its own features extractor (as SB3's ``make_q_net``)."""
        net_args = self._update_features_extractor(self.net_args, features_extractor=None)
        return MaskedQNetwork(**net_args).to(self.device)


class MaskedDQN(DQN):
    """SB3's DQN with action masks in the greedy choice, the TD target, ε-exploration and the warm-up.

    Use it like ``DQN`` with ``"MultiInputPolicy"`` on an env whose observations carry ``"action_mask"``;
    ``predict`` also accepts ``action_masks=`` like ``MaskablePPO.predict``.
    """

    policy_aliases: ClassVar[dict[str, type[BasePolicy]]] = {"MultiInputPolicy": MaskedDQNPolicy}

    def predict(  # type: ignore[override]
        self,
        observation: ObservationLike,
        state: tuple[np.ndarray, ...] | None = None,
        episode_start: np.ndarray | None = None,
        deterministic: bool = False,
        action_masks: np.ndarray | None = None,
    ) -> tuple[np.ndarray, tuple[np.ndarray, ...] | None]:
        """The greedy legal action, or with probability ε (when not ``deterministic``) a random legal one.

        Args:
            observation: A Dict observation, single or batched.
            state: Unused (no recurrent policy); passed through.
            episode_start: Unused; passed through.
            deterministic: Always greedy when True.
            action_masks: Legal actions (``[num_actions]`` or ``[batch, num_actions]``, bool or 0/1); by
                default ``observation["action_mask"]``.
        """
        observation = with_action_masks(observation, action_masks)
        actions, state = self.policy.predict(observation, state, episode_start, deterministic=True)
        if deterministic or self.exploration_rate <= 0.0:
            return actions, state
        masks = legal_masks(observation, int(self.action_space.n))
        explore = self.action_space.np_random.random(masks.shape[0]) < self.exploration_rate
        flat = np.array(actions).reshape(-1)
        flat[explore] = random_legal_actions(masks[explore], self.action_space.np_random, flat[explore])
        return flat.reshape(np.shape(actions)), state

    def _store_transition(
        self,
        replay_buffer: Any,
        buffer_action: np.ndarray,
        new_obs: ObservationLike,
        reward: np.ndarray,
        dones: np.ndarray,
        infos: list[dict[str, Any]],
    ) -> None:
        """SB3's, with each final observation's mask cleared: the game is over, so the target's value there is 0."""
        for done, info in zip(dones, infos):
            final = info.get("terminal_observation") if done else None
            if isinstance(final, dict) and "action_mask" in final:
                info["terminal_observation"] = {**final, "action_mask": np.zeros_like(final["action_mask"])}
        super()._store_transition(replay_buffer, buffer_action, new_obs, reward, dones, infos)

    def _sample_action(
        self, learning_starts: int, action_noise: ActionNoise | None = None, n_envs: int = 1
    ) -> tuple[np.ndarray, np.ndarray]:
        """A legal action per env: uniformly random during the warm-up, else ε-greedy via :meth:`predict`."""
        del action_noise  # discrete actions take no noise
        assert self._last_obs is not None, "self._last_obs was not set"
        if self.num_timesteps < learning_starts:
            masks = legal_masks(self._last_obs, int(self.action_space.n))
            actions = random_legal_actions(masks, self.action_space.np_random, np.zeros(n_envs, dtype=np.int64))
        else:
            actions, _ = self.predict(self._last_obs, deterministic=False)
        actions = np.asarray(actions).reshape(n_envs)
        return actions, actions


# -- mask helpers ---------------------------------------------------------------------------------
def with_action_masks(observation: ObservationLike, action_masks: np.ndarray | None) -> dict[str, np.ndarray]:
    """``observation`` (a Dict observation) with its ``action_mask`` replaced by ``action_masks`` if given."""
    if not isinstance(observation, dict) or "action_mask" not in observation:
        raise ValueError("MaskedDQN needs Dict observations with an 'action_mask' entry")
    if action_masks is None:
        return observation
    current = np.asarray(observation["action_mask"])
    masks = np.asarray(action_masks)
    if masks.size != current.size:
        raise ValueError(f"action_masks has {masks.size} entries, the observation's mask {current.size}")
    return {**observation, "action_mask": masks.astype(current.dtype).reshape(current.shape)}


def legal_masks(observation: dict[str, Any], num_actions: int) -> np.ndarray:
    """``bool[batch, num_actions]``: the legal actions of each row of a (single or batched) Dict observation."""
    return np.asarray(observation["action_mask"]).reshape(-1, num_actions) > 0


def random_legal_actions(masks: np.ndarray, rng: np.random.Generator, fallback: np.ndarray) -> np.ndarray:
    """One uniformly random legal action per row of ``masks``; ``fallback`` where a row has no legal action.

    Args:
        masks: ``bool[rows, num_actions]``.
        rng: The generator.
        fallback: ``int[rows]``, used for rows with no legal action (an observation after the game ended).
    """
    actions = np.array(fallback, dtype=np.int64).reshape(-1)
    for row, mask in enumerate(masks):
        legal = np.flatnonzero(mask)
        if legal.size:
            actions[row] = legal[rng.integers(legal.size)]
    return actions


__all__ = [
    "MASKED_Q_VALUE",
    "MaskedDQN",
    "MaskedDQNPolicy",
    "MaskedQNetwork",
    "legal_masks",
    "mask_q_values",
    "random_legal_actions",
    "with_action_masks",
]
