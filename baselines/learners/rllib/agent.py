"""A trained RLlib module as a baselines agent: ``make_agent("rllib:unsafe:<checkpoint>", game)``.

:class:`RLlibAgent` plays the masked greedy move of an RLlib ``ActionMaskingTorchRLModule``: it encodes the same
observation the RLlib env gives (:func:`boardenvs.rllib.encode_rllib_observation`: ``{"observations",
"action_mask"}``, board planes channels-last), runs the module's ``forward_inference`` and plays the legal action
with the highest logit. The module masks its logits already, so its overall argmax is legal; should it ever not be
(every legal logit at the mask's floor), the agent warns (``RuntimeWarning``), counts it in ``illegal_predictions``
and plays the best legal action anyway.

``RLlibAgent.load`` takes a checkpoint folder of ``scripts/train_rllib.py`` (``<out>/checkpoints/step_<n>``) or a
run folder (its newest checkpoint); the checkpoint's card names the game, which must match.

**A checkpoint is trusted code.** Ray restores a module with ``pickle`` (its class and constructor arguments, and
state), and unpickling a file runs any code its author put in it. There is no safe format for RLlib modules here, so
the spec ``rllib:<path>`` is refused (:func:`check_trusted`, :class:`UnsafeCheckpointError`) and only
``rllib:unsafe:<path>`` loads; ``RLlibAgent.load`` itself loads whatever it is given (the trainer evaluates its own
checkpoints with it): call it only on checkpoints you trust.

Example:
    >>> agent = RLlibAgent.load("runs/quoridor-rllib-0")  # doctest: +SKIP
    >>> make_agent("rllib:unsafe:runs/quoridor-rllib-0", "quoridor")  # the same, by name  # doctest: +SKIP
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import numpy as np
import torch

from baselines.agent import BaseAgent, SeedLike
from baselines.learners.rllib.checkpoints import RLlibCard, module_path, read_card, resolve_checkpoint
from boardenvs.core import Game
from boardenvs.rllib import encode_rllib_observation, require_ray


class UnsafeCheckpointError(ValueError):
    """An RLlib checkpoint was named without saying it is trusted (loading it unpickles it)."""


def check_trusted(path: str | Path, trusted: bool) -> None:
    """Refuse to load the RLlib checkpoint ``path`` unless ``trusted`` (the spec says ``rllib:unsafe:``).

    Raises:
        UnsafeCheckpointError: not ``trusted``; the message says why and how to go on.
    """
    if not trusted:
        raise UnsafeCheckpointError(
            f"{str(path)!r} names an RLlib checkpoint, and ray loads one with pickle, which runs any code the file's "
            f"author put in it (there is no safe format for RLlib modules). If you trust it (you trained it), write "
            f"'rllib:unsafe:{path}'"
        )


def load_module(checkpoint: str | Path, module_id: str) -> Any:
    """The RLlib module ``module_id`` of an algorithm checkpoint, on the CPU, in eval mode (ray unpickles it: only
    for checkpoints you trust).

    Raises:
        ImportError: ray[rllib] is not installed (the message names the extra).
        FileNotFoundError: the checkpoint has no such module.
    """
    require_ray()
    from ray.rllib.core.rl_module.rl_module import RLModule

    path = module_path(checkpoint, module_id)
    if not path.is_dir():
        raise FileNotFoundError(f"the RLlib checkpoint {str(checkpoint)!r} has no module {module_id!r} ({path})")
    module = RLModule.from_checkpoint(str(path.resolve()))
    module.eval()
    return module


def check_card_fits(card: RLlibCard, game: Game, source: str) -> None:
    """``ValueError`` naming both games unless the card's game, shape and actions are ``game``'s."""
    spec = game.spec
    if card.game != spec.name:
        raise ValueError(f"{source} was trained on game {card.game!r}, not {spec.name!r}")
    if card.num_actions != spec.num_actions or list(card.observation_shape) != list(spec.observation_shape):
        raise ValueError(
            f"{source} was trained on observations of shape {tuple(card.observation_shape)} with {card.num_actions} "
            f"actions, but {game!r} has shape {tuple(spec.observation_shape)} with {spec.num_actions} actions"
        )


class RLlibAgent(BaseAgent):
    """A trained RLlib masked-PPO module playing as a baselines agent (masked greedy argmax of its logits).

    Args:
        module: The RLlib module (an ``ActionMaskingTorchRLModule``).
        card: Its checkpoint's card (the game it was trained on).
        name: The agent's display name.
        seed: Seeds the agent's generator (the agent plays deterministically; kept for the interface).

    Attributes:
        illegal_predictions: How many times the module's best action was illegal (replaced; see the module doc).
    """

    name = "rllib"

    def __init__(self, module: Any, card: RLlibCard, name: str | None = None, seed: SeedLike = None) -> None:
        super().__init__(seed, name)
        self.module, self.card = module, card
        self.illegal_predictions = 0
        self._fitting_games: set[Game] = set()

    @classmethod
    def load(
        cls, path: str | Path, name: str | None = None, seed: SeedLike = None, game_name: str | None = None
    ) -> RLlibAgent:
        """The agent of a checkpoint (or of a run folder's newest checkpoint). Ray unpickles the checkpoint, which
        runs any code in it: only for checkpoints you trust (``make_agent`` asks for ``rllib:unsafe:``).

        Raises:
            FileNotFoundError: no checkpoint there.
            ValueError: its card names another game than ``game_name``, or is damaged.
        """
        checkpoint = resolve_checkpoint(path)
        card = read_card(checkpoint)
        if game_name is not None and card.game != game_name:
            raise ValueError(f"RLlib checkpoint {str(checkpoint)!r} was trained on {card.game!r}, not {game_name!r}")
        return cls(load_module(checkpoint, card.module_id), card, name or str(path), seed)

    def check_game(self, game: Game) -> None:
        """``ValueError`` unless the module was trained on ``game`` (remembered once checked)."""
        if game not in self._fitting_games:
            check_card_fits(self.card, game, f"RLlib agent {self.name!r}")
            self._fitting_games.add(game)

    def act(self, game: Game, view: Any, player: int) -> int:
        """The module's best legal action for ``player`` in ``view``."""
        self.check_game(game)
        mask = np.asarray(game.legal_action_mask(view), dtype=bool)
        scores = self.action_scores(encode_rllib_observation(game, view, player, mask))
        best = int(np.argmax(scores))
        if mask[best]:
            return best
        return self._replace_illegal(scores, mask, best)

    def action_scores(self, observation: dict[str, np.ndarray]) -> np.ndarray:
        """``float[num_actions]``: the module's masked logits for one observation."""
        batch = {key: torch.as_tensor(value[None]) for key, value in observation.items()}
        with torch.no_grad():
            output = self.module.forward_inference({"obs": batch})
        return output["action_dist_inputs"][0].cpu().numpy()

    def _replace_illegal(self, scores: np.ndarray, mask: np.ndarray, action: int) -> int:
        self.illegal_predictions += 1
        legal = np.flatnonzero(mask)
        replacement = int(legal[np.argmax(scores[legal])])
        warnings.warn(
            f"RLlib agent {self.name!r} scored the illegal action {action} best; playing the best legal action "
            f"{replacement} instead",
            RuntimeWarning,
            stacklevel=3,
        )
        return replacement


__all__ = ["RLlibAgent", "UnsafeCheckpointError", "check_card_fits", "check_trusted", "load_module"]
