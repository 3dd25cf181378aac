"""MaskablePPO whose policy masks itself from the observation, so callers that pass no mask play legal moves too.

sb3-contrib's ``MaskablePPO`` masks its logits only when it is handed ``action_masks``: its own training loop does
that, but SB3's ``evaluate_policy`` and ``EvalCallback``, rl-zoo3's ``enjoy`` and evaluation, SuperSuit and any
other caller written for plain SB3 call ``model.predict(obs)`` without them. The policy then samples from every
action, and on the single-agent env an illegal move ends the episode with ``illegal_action_penalty``: a model that
wins with masks scores ``-1.00 +/- 0.00`` with episodes of length 1.

The boardenvs observation always carries the mask (``{"observation": ..., "action_mask": int8[num_actions]}``), so
:class:`SelfMaskingMultiInputPolicy` uses ``obs["action_mask"]`` (nonzero = legal) whenever it is given no
``action_masks``: in ``predict``, ``forward`` (the rollouts), ``get_distribution`` and ``evaluate_actions`` (the
PPO update, which thus sees the same distribution as the rollout). Explicit ``action_masks`` still win when given.
It has exactly the tensors of sb3-contrib's ``MaskableMultiInputActorCriticPolicy``, so models saved with either
load into either.

:class:`MaskedPPO` is ``MaskablePPO`` with this policy as its ``"MultiInputPolicy"``; it also gives it to the
models it loads that were saved with sb3-contrib's plain ``MultiInputPolicy`` (zips from before this class, or from
``MaskablePPO`` itself). :func:`baselines.learners.sb3.policies.make_model` builds it for ``"ppo"``, the safe
format rebuilds this policy (:mod:`baselines.learners.sb3.safe`), and ``scripts/rl_zoo.py`` registers it in
rl-zoo3 as ``ppo_mask``. (The masked DQN, :mod:`baselines.learners.sb3.dqn`, has always masked itself: its
Q-network reads ``obs["action_mask"]``.)

Example:
    >>> import gymnasium, boardenvs
    >>> from stable_baselines3.common.evaluation import evaluate_policy
    >>> env = gymnasium.make("boardenvs/Quoridor-v0", board_size=5)  # doctest: +SKIP
    >>> model = MaskedPPO("MultiInputPolicy", env, seed=0).learn(10_000)  # doctest: +SKIP
    >>> evaluate_policy(model, env, n_eval_episodes=100)  # legal moves, no action_masks needed  # doctest: +SKIP
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
import torch as th
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.distributions import MaskableDistribution
from sb3_contrib.common.maskable.policies import MaskableMultiInputActorCriticPolicy
from stable_baselines3.common.policies import BasePolicy

MASK_KEY = "action_mask"
"""The entry of the Dict observation that holds the legal actions (nonzero = legal)."""

Masks = np.ndarray | th.Tensor | None


def observation_masks(observation: Any, action_masks: Masks = None) -> Masks:
    """The masks to apply: ``action_masks`` if given, else ``observation["action_mask"] > 0`` when the observation
    is a Dict that has one (of tensors or arrays, single or batched), else ``None`` (no masking)."""
    if action_masks is not None:
        return action_masks
    if isinstance(observation, dict) and MASK_KEY in observation:
        mask = observation[MASK_KEY]
        return mask > 0 if isinstance(mask, th.Tensor) else np.asarray(mask) > 0
    return None


class SelfMaskingMultiInputPolicy(MaskableMultiInputActorCriticPolicy):
    """sb3-contrib's ``MultiInputPolicy`` that masks with ``obs["action_mask"]`` when given no ``action_masks``.

    The same constructor, tensors and outputs as ``MaskableMultiInputActorCriticPolicy``; only the default of
    ``action_masks`` differs (see the module).
    """

    def forward(
        self, obs: dict[str, th.Tensor], deterministic: bool = False, action_masks: Masks = None
    ) -> tuple[th.Tensor, th.Tensor, th.Tensor]:
        """Actions, values and log-probabilities of a batch, masked by ``action_masks`` or the observation's mask."""
        return super().forward(obs, deterministic, observation_masks(obs, action_masks))

    def get_distribution(self, obs: dict[str, th.Tensor], action_masks: Masks = None) -> MaskableDistribution:
        """The action distribution, masked by ``action_masks`` or the observation's mask (``predict`` comes here)."""
        return super().get_distribution(obs, observation_masks(obs, action_masks))

    def evaluate_actions(
        self, obs: dict[str, th.Tensor], actions: th.Tensor, action_masks: Masks = None
    ) -> tuple[th.Tensor, th.Tensor, th.Tensor | None]:
        """Values, log-probabilities and entropy of ``actions``, masked as :meth:`forward` masks."""
        return super().evaluate_actions(obs, actions, observation_masks(obs, action_masks))


class MaskedPPO(MaskablePPO):
    """``MaskablePPO`` whose ``"MultiInputPolicy"`` is :class:`SelfMaskingMultiInputPolicy`.

    Use it as ``MaskablePPO`` (``MaskedPPO("MultiInputPolicy", env)``, ``MaskedPPO.load(path)``); a loaded model
    whose policy is sb3-contrib's plain ``MultiInputPolicy`` gets the self-masking one (the same tensors).
    """

    policy_aliases: ClassVar[dict[str, type[BasePolicy]]] = {
        **MaskablePPO.policy_aliases,
        "MultiInputPolicy": SelfMaskingMultiInputPolicy,
    }

    def _setup_model(self) -> None:
        if self.policy_class is MaskableMultiInputActorCriticPolicy:
            self.policy_class = SelfMaskingMultiInputPolicy
        super()._setup_model()


__all__ = ["MASK_KEY", "MaskedPPO", "SelfMaskingMultiInputPolicy", "observation_masks"]
