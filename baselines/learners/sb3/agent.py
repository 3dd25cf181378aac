"""A trained SB3 model (or a policy loaded from the safe files) playing as a baselines agent.

:class:`SB3Agent` plays with ``model.predict(obs, action_masks=mask, deterministic=True)`` on the same Dict
observation the env gives (``game.observe(view, player)`` + ``game.legal_action_mask(view)``). It never
returns an illegal action: the masks make one impossible, but should ``predict`` ever return one, the agent
warns (``RuntimeWarning``), counts it in ``illegal_predictions`` and plays the legal action the model scores
highest (PPO: its logit, DQN: its Q-value). :meth:`SB3Agent.load` reads a saved model the way
:func:`~baselines.learners.sb3.loading.load_model` does (the safe files; a zip only when trusted).

Example:
    >>> agent = SB3Agent.load("runs/quoridor-ppo-0/model.pt")  # doctest: +SKIP
    >>> make_agent("sb3:runs/quoridor-ppo-0/model.pt", "quoridor")  # the same, by name  # doctest: +SKIP
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import numpy as np
import torch as th
from stable_baselines3.common.base_class import BaseAlgorithm

from baselines.agent import BaseAgent, SeedLike
from baselines.learners.sb3.loading import check_model_fits, load_model
from baselines.learners.sb3.model_card import ModelCard, algorithm_of, read_model_card, read_safe_card
from baselines.learners.sb3.model_files import model_stem
from baselines.learners.sb3.policy_model import PolicyModel
from boardenvs.core import Game
from boardenvs.observations import encode_observation


class SB3Agent(BaseAgent):
    """A trained MaskablePPO or MaskedDQN playing as a baselines agent.

    Args:
        model: The trained model (an SB3 algorithm, or a policy loaded from the safe files).
        game: If given, checked against the model at once; other games are checked on their first move.
        name: The agent's display name.
        seed: Seeds the agent's generator (used only when ``stochastic``).
        stochastic: Sample moves instead of playing the best one: PPO samples its masked policy, DQN plays
            ε-greedy with the model's ``exploration_final_eps``, both with the agent's own generator.
        card: The model's :class:`ModelCard`, if known.

    Attributes:
        illegal_predictions: How many times ``predict`` returned an illegal action (replaced; see the module).
    """

    name = "sb3"

    def __init__(
        self,
        model: BaseAlgorithm | PolicyModel,
        game: Game | None = None,
        name: str | None = None,
        seed: SeedLike = None,
        stochastic: bool = False,
        card: ModelCard | None = None,
    ) -> None:
        super().__init__(seed, name)
        self.model = model
        self.algo = algorithm_of(model)
        self.stochastic = stochastic
        self.card = card
        self.illegal_predictions = 0
        self._fitting_games: set[Game] = set()
        if game is not None:
            self.check_game(game)

    @classmethod
    def load(
        cls,
        path: str | Path,
        game: Game | None = None,
        name: str | None = None,
        seed: SeedLike = None,
        stochastic: bool = False,
        device: str = "cpu",
        game_name: str | None = None,
        trusted: bool = False,
    ) -> SB3Agent:
        """The agent of a saved model; the game defaults to the one in the model's card.

        Args:
            path: The model: its ``.pt``, its ``.json``, the ``.zip`` beside them or their stem.
            game: The game it will play (checked now); default: the sidecar's game.
            name: Display name; default: the file's stem.
            seed: The agent's seed.
            stochastic: See the class.
            device: Torch device.
            game_name: If given, the card's game must have this name.
            trusted: Load the SB3 zip with SB3, which unpickles it and so runs any code in it (see
                :func:`load_model`); without it only the safe files are read.

        Raises:
            FileNotFoundError: No such model file.
            UnsafeModelError: Only an SB3 zip is there and ``trusted`` is false.
            ValueError: A damaged or foreign file (named), the model does not fit ``game`` (the message names both
                shapes), or its card names another game than ``game_name``.
        """
        card = read_model_card(path) if trusted else read_safe_card(path)
        if game_name is not None and card is not None and card.game != game_name:
            raise ValueError(f"model {model_stem(path)} was trained on game {card.game!r}, not {game_name!r}")
        model, card = load_model(path, game, device, trusted)
        game = game if game is not None else (card.make_game() if card.game else None)
        return cls(model, game, name or model_stem(path).name, seed, stochastic, card)

    def check_game(self, game: Game) -> None:
        """``ValueError`` naming both shapes unless the model fits ``game`` (remembered once checked)."""
        if game not in self._fitting_games:
            check_model_fits(self.model, game, source=f"SB3 agent {self.name!r}")
            self._fitting_games.add(game)

    def act(self, game: Game, view: Any, player: int) -> int:
        """The model's move for ``player`` in ``view``; always a legal action."""
        self.check_game(game)
        mask = np.array(game.legal_action_mask(view), dtype=bool)  # a writable copy: torch reads it
        observation = encode_observation(game, view, player, "array", mask)
        action = self._sampled_action(observation, mask) if self.stochastic else self._best_action(observation, mask)
        if 0 <= action < mask.size and mask[action]:
            return action
        return self._replace_illegal(observation, mask, action)

    def action_scores(self, observation: dict[str, np.ndarray]) -> np.ndarray:
        """``float[num_actions]``: PPO's policy logits (normalized over the observation's legal actions) or DQN's
        Q-values (masked) for one observation."""
        tensors, _ = self.model.policy.obs_to_tensor(observation)
        with th.no_grad():
            if self.algo == "dqn":
                scores = self.model.policy.q_net(tensors)
            else:  # the mask given explicitly: the same scores from sb3-contrib's plain policy and the self-masking one
                masks = np.asarray(observation["action_mask"]).reshape(1, -1) > 0
                scores = self.model.policy.get_distribution(tensors, action_masks=masks).distribution.logits
        return scores.cpu().numpy().reshape(-1)

    def _best_action(self, observation: dict[str, np.ndarray], mask: np.ndarray) -> int:
        action, _ = self.model.predict(observation, action_masks=mask, deterministic=True)
        return int(action)

    def _sampled_action(self, observation: dict[str, np.ndarray], mask: np.ndarray) -> int:
        legal = np.flatnonzero(mask)
        if self.algo == "dqn":
            if self.rng.random() < float(self.model.exploration_final_eps):
                return self.choose(legal)
            return self._best_action(observation, mask)
        logits = self.action_scores(observation)[legal]
        probabilities = np.exp(logits - logits.max())
        return int(legal[self.rng.choice(legal.size, p=probabilities / probabilities.sum())])

    def _replace_illegal(self, observation: dict[str, np.ndarray], mask: np.ndarray, action: int) -> int:
        self.illegal_predictions += 1
        legal = np.flatnonzero(mask)
        replacement = int(legal[np.argmax(self.action_scores(observation)[legal])])
        warnings.warn(
            f"SB3 agent {self.name!r} predicted the illegal action {action}; playing the best legal action "
            f"{replacement} instead",
            RuntimeWarning,
            stacklevel=3,
        )
        return replacement


__all__ = [
    "SB3Agent",
]
