"""Loading a saved SB3 model, checked against the game it must play.

**Loading runs no code from the file.** :func:`load_model` reads the safe files: the card (JSON) and the weights with
``torch.load(weights_only=True)``; a path may name the ``.pt``, the ``.json``, the ``.zip`` beside them (which is
not opened) or their common stem. An SB3 zip unpickles Python objects, so code in it runs: one without safe files
is refused (:class:`~baselines.learners.sb3.safe.UnsafeModelError`, saying how to convert it with
``python -m scripts.convert_sb3`` or to load it anyway), and only ``trusted=True`` (the spec ``sb3:unsafe:<zip>``)
loads it with SB3, with the right class (the card's ``algo``, or else detected from the zip). Either way the
model's spaces are checked against the game before any game is played (:func:`check_model_fits`).
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

from gymnasium import spaces
from stable_baselines3.common.base_class import BaseAlgorithm

from baselines.learners.sb3.model_card import ModelCard, algorithm_of, model_card, read_model_card, read_safe_card
from baselines.learners.sb3.model_files import description_path, weights_path, zip_path
from baselines.learners.sb3.policies import algorithm_class
from baselines.learners.sb3.policy_model import PolicyModel
from baselines.learners.sb3.safe import algorithm_of_policy
from baselines.learners.sb3.safe_reader import load_policy
from boardenvs.core import Game


def model_steps(model_path: str | Path) -> int:
    """The training steps stored inside a saved model's zip (``num_timesteps``), without loading the model.

    Raises:
        ValueError: the file is not a readable SB3 model (cut short, damaged, another kind of file).
    """
    path = zip_path(model_path)
    try:
        with zipfile.ZipFile(path) as archive:
            return int(json.loads(archive.read("data"))["num_timesteps"])
    except (OSError, zipfile.BadZipFile, KeyError, ValueError, TypeError) as error:
        raise ValueError(f"{str(path)!r} is not a readable SB3 model ({type(error).__name__}: {error})") from None


def detect_algorithm(model_path: str | Path) -> str:
    """The algorithm of a saved model: from its sidecar, else from the hyper-parameters stored in the zip."""
    card = read_model_card(model_path)
    if card is not None:
        return card.algo
    with zipfile.ZipFile(zip_path(model_path)) as archive:
        data = json.loads(archive.read("data"))
    if "exploration_fraction" in data:
        return "dqn"
    if "n_epochs" in data:
        return "ppo"
    raise ValueError(f"cannot tell the algorithm of {model_path}: neither a PPO nor a DQN model")


def check_model_fits(model: BaseAlgorithm | PolicyModel, game: Game, source: str = "the model") -> None:
    """``ValueError`` naming both shapes unless ``model``'s spaces are those of ``game``'s single-agent env."""
    observation_space = model.observation_space
    shape: tuple[int, ...] | None = None
    if isinstance(observation_space, spaces.Dict) and "observation" in observation_space.spaces:
        shape = tuple(observation_space["observation"].shape)
    num_actions = int(getattr(model.action_space, "n", -1))
    spec = game.spec
    if shape != tuple(spec.observation_shape) or num_actions != spec.num_actions:
        raise ValueError(
            f"{source} was trained on observations of shape {shape} with {num_actions} actions, but game "
            f"{game!r} has observations of shape {tuple(spec.observation_shape)} with {spec.num_actions} actions"
        )


def load_model(
    path: str | Path, game: Game | None = None, device: str = "cpu", trusted: bool = False
) -> tuple[BaseAlgorithm | PolicyModel, ModelCard]:
    """Load a saved model and check it against ``game`` (default: the card's game).

    Args:
        path: The model: its ``.pt``, ``.json``, ``.zip`` or their stem.
        game: The game it must fit.
        device: Torch device.
        trusted: Load the SB3 zip itself (its MaskedPPO or MaskedDQN, able to train on) instead of the safe
            files. SB3 unpickles the zip, which runs any code in it: only for files you trust (a run's own).

    Either way the model's policy masks itself with ``obs["action_mask"]`` when ``predict`` is given no
    ``action_masks`` (a zip's plain MaskablePPO policy is given the self-masking one, which has the same tensors), so
    the model plays legal moves for SB3's ``evaluate_policy``, rl-zoo3 or any caller that passes no mask.

    Returns:
        The model (a :class:`~baselines.learners.sb3.policy_model.PolicyModel`, or with ``trusted`` the SB3
        algorithm), and its card (for a zip without one, rebuilt from the model: its ``game`` is then ``game``'s
        name, or ``""``).

    Raises:
        FileNotFoundError: No such model file.
        UnsafeModelError: Only an SB3 zip is there and ``trusted`` is false (the message says how to go on).
        ValueError: A damaged or foreign file (named), or a model that does not fit the game (both shapes named).
    """
    if not trusted:
        return _load_safe(path, game, device)
    target = zip_path(path)
    if not target.exists():
        raise FileNotFoundError(f"no saved model at {target}")
    model_steps(target)  # a zip cut short, empty or of another kind: a ValueError naming it
    card = read_model_card(target)
    try:
        model = algorithm_class(detect_algorithm(target)).load(target, device=device)
    except (OSError, KeyError, ValueError, RuntimeError, zipfile.BadZipFile) as error:
        raise ValueError(f"{str(target)!r} is not a readable SB3 model ({type(error).__name__}: {error})") from None
    game = game if game is not None else (card.make_game() if card is not None else None)
    if game is not None:
        check_model_fits(model, game, source=f"model {target}")
    return model, card if card is not None else _card_without_sidecar(model, game)


def _load_safe(path: str | Path, game: Game | None, device: str) -> tuple[PolicyModel, ModelCard]:
    card = read_safe_card(path)
    source = f"the model description {str(description_path(path))!r}"
    policy = load_policy(card.policy, weights_path(path), source, device)
    if algorithm_of_policy(policy) != card.algo:
        raise ValueError(f"{source} says algo {card.algo!r} but describes a {card.policy['policy_class']}")
    eps = card.policy.get("exploration_final_eps", 0.0)
    model = PolicyModel(card.algo, policy, card.steps, float(eps) if isinstance(eps, (int, float)) else 0.0)
    if game is None and card.game:
        try:
            game = card.make_game()
        except (TypeError, ValueError) as error:
            raise ValueError(f"{source}: its game {card.game!r} with its config cannot be made: {error}") from None
    if game is not None:
        check_model_fits(model, game, source=f"model {str(weights_path(path))!r}")
    return model, card


def _card_without_sidecar(model: BaseAlgorithm, game: Game | None) -> ModelCard:
    if game is not None:
        return model_card(model, game)
    shape = list(model.observation_space["observation"].shape)  # type: ignore[index]
    return ModelCard("", {}, algorithm_of(model), int(model.num_timesteps), shape, int(model.action_space.n))


__all__ = [
    "check_model_fits",
    "detect_algorithm",
    "load_model",
    "model_steps",
]
