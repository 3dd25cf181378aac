"""Trained SB3 models as baselines agents; saving them (an SB3 zip and the safe files) and loading the safe files.

:func:`save_model` writes three files, each atomically: ``<name>.pt`` (the policy's tensors) and ``<name>.json``
(the :class:`ModelCard`: game name, game config, algorithm, steps, observation shape, number of actions, wall time,
with a ``policy`` entry describing the network and the digest of the weights), which together are the *safe model*
(:mod:`baselines.learners.sb3.safe`), and last ``<name>.zip`` (SB3's own format, with the card inside it, which a
training run resumes from). A reader in another process (a self-play worker) that sees the zip finds its safe files
complete, and a kill between the writes cannot pair a zip with another model's card: :func:`read_model_card` reads
the card inside the zip first, the sidecar only for models saved without one.

**Loading runs no code from the file.** :func:`load_model` and :meth:`SB3Agent.load` read the safe files: the card
(JSON) and the weights with ``torch.load(weights_only=True)``; a path may name the ``.pt``, the ``.json``, the
``.zip`` beside them (which is not opened) or their common stem. An SB3 zip unpickles Python objects, so code in it
runs: one without safe files is refused (:class:`~baselines.learners.sb3.safe.UnsafeModelError`, saying how to
convert it with ``python -m scripts.convert_sb3`` or to load it anyway), and only ``trusted=True`` (the spec
``sb3:unsafe:<zip>``) loads it with SB3, with the right class (the card's ``algo``, or else detected from the zip).
Either way the model's spaces are checked against the game before any game is played.

:class:`SB3Agent` plays with ``model.predict(obs, action_masks=mask, deterministic=True)`` on the same Dict
observation the env gives (``game.observe(view, player)`` + ``game.legal_action_mask(view)``). It never
returns an illegal action: the masks make one impossible, but should ``predict`` ever return one, the agent
warns (``RuntimeWarning``), counts it in ``illegal_predictions`` and plays the legal action the model scores
highest (PPO: its logit, DQN: its Q-value).

Example:
    >>> agent = SB3Agent.load("runs/quoridor-ppo-0/model.pt")  # doctest: +SKIP
    >>> make_agent("sb3:runs/quoridor-ppo-0/model.pt", "quoridor")  # the same, by name  # doctest: +SKIP
"""

from __future__ import annotations

import dataclasses
import json
import warnings
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch as th
from gymnasium import spaces
from stable_baselines3.common.base_class import BaseAlgorithm

from baselines.agent import BaseAgent, SeedLike
from baselines.learners.sb3.policies import ALGORITHMS, algorithm_class
from baselines.learners.sb3.safe import (
    PolicyModel,
    UnsafeModelError,
    algorithm_of_policy,
    describe_policy,
    description_path,
    load_policy,
    model_stem,
    unsafe_zip_message,
    weights_path,
    write_weights,
)
from baselines.runs import atomic_write, atomic_write_text
from boardenvs.core import Game
from boardenvs.observations import encode_observation
from boardenvs.registry import make_game


# -- the sidecar ----------------------------------------------------------------------------------
@dataclass
class ModelCard:
    """What a saved model was trained on, stored as ``<model>.json`` next to ``<model>.pt`` and ``<model>.zip``.

    Attributes:
        game: The registered game name.
        config: The game's config fields (``make_game(game, **config)`` rebuilds it).
        algo: ``"ppo"`` or ``"dqn"``.
        steps: Environment steps the model was trained for.
        observation_shape: The game's ``spec.observation_shape``.
        num_actions: The game's ``spec.num_actions``.
        wall_seconds: Training wall time so far (resumed runs add to it).
        extra: Anything else the trainer wants to remember (e.g. the training arguments).
        policy: The description of the network that the safe files hold
            (:func:`~baselines.learners.sb3.safe.describe_policy`); empty in the card inside a zip and in the
            sidecars of models saved before the safe format.
    """

    game: str
    config: dict[str, Any]
    algo: str
    steps: int
    observation_shape: list[int]
    num_actions: int
    wall_seconds: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)
    policy: dict[str, Any] = field(default_factory=dict)

    def make_game(self) -> Game:
        """The game the model was trained on."""
        return make_game(self.game, **self.config)


def zip_path(path: str | Path) -> Path:
    """The SB3 zip of the model ``path`` names: ``runs/x/model``, ``model.pt`` or ``model.json`` -> ``model.zip``."""
    stem = model_stem(path)
    return stem.with_name(stem.name + ".zip")


def sidecar_path(model_path: str | Path) -> Path:
    """The JSON sidecar of a model, which is also its safe description: ``runs/x/model.zip`` → ``runs/x/model.json``."""
    return description_path(model_path)


def algorithm_of(model: BaseAlgorithm | PolicyModel) -> str:
    """``"ppo"`` or ``"dqn"``: the name of the model's class in :data:`ALGORITHMS` (any ``MaskablePPO`` is ``"ppo"``:
    sb3-contrib's own, our :class:`~baselines.learners.sb3.ppo.MaskedPPO`)."""
    if isinstance(model, PolicyModel):
        return model.algo
    from sb3_contrib import MaskablePPO

    for algo in ALGORITHMS:
        if isinstance(model, MaskablePPO if algo == "ppo" else algorithm_class(algo)):
            return algo
    raise ValueError(f"unsupported model class {type(model).__name__}; expected MaskablePPO or MaskedDQN")


def model_card(model: BaseAlgorithm, game: Game, wall_seconds: float = 0.0, **extra: Any) -> ModelCard:
    """The :class:`ModelCard` of ``model`` trained on ``game``."""
    spec = game.spec
    config = dataclasses.asdict(game.config) if dataclasses.is_dataclass(game.config) else {}
    return ModelCard(
        game=spec.name,
        config=config,
        algo=algorithm_of(model),
        steps=int(model.num_timesteps),
        observation_shape=list(spec.observation_shape),
        num_actions=spec.num_actions,
        wall_seconds=float(wall_seconds),
        extra=dict(extra),
    )


CARD_IN_ZIP = "boardenvs_model_card.json"
"""The name of the model card inside a saved zip (SB3's loader ignores it)."""


def card_json(card: ModelCard, policy: bool = True) -> str:
    """The JSON text of ``card`` (without its ``policy`` entry when ``policy`` is false: the card inside a zip)."""
    data = dataclasses.asdict(card)
    if not policy:
        del data["policy"]
    return json.dumps(data, indent=2)


def save_model(model: BaseAlgorithm, path: str | Path, game: Game, wall_seconds: float = 0.0, **extra: Any) -> Path:
    """Save ``model`` as the safe files ``<path>.pt`` and ``<path>.json`` (:func:`save_safe_model`), then as
    ``<path>.zip`` with its card inside; each file appears atomically, in that order.

    Returns:
        The path of the zip file.
    """
    target = zip_path(path)
    card = model_card(model, game, wall_seconds, **extra)
    write_safe_files(model, target, card)
    inside = card_json(card, policy=False)

    def write_zip(temporary: Path) -> None:
        model.save(temporary)
        with zipfile.ZipFile(temporary, "a") as archive:
            archive.writestr(CARD_IN_ZIP, inside)

    atomic_write(target, write_zip)
    return target


def save_safe_model(
    model: BaseAlgorithm, path: str | Path, game: Game, wall_seconds: float = 0.0, **extra: Any
) -> Path:
    """Save ``model`` as the safe files only: ``<path>.pt`` (its tensors), then ``<path>.json`` (its card with the
    ``policy`` description); returns the ``.pt`` path."""
    return write_safe_files(model, path, model_card(model, game, wall_seconds, **extra))


def write_safe_files(model: BaseAlgorithm, path: str | Path, card: ModelCard) -> Path:
    """Write ``model``'s weights to ``<path>.pt``, then ``card`` with the policy's description to ``<path>.json``
    (each atomically; the description holds the weights' digest); returns the ``.pt`` path.

    Raises:
        ValueError: the policy uses a class or setting the safe format cannot rebuild.
    """
    describe_policy(model, "")  # refuse an unsupported policy before writing anything
    weights = weights_path(path)
    digest = write_weights(model.policy, weights)
    described = dataclasses.replace(card, policy=describe_policy(model, digest))
    atomic_write_text(description_path(path), card_json(described) + "\n")
    return weights


def read_model_card(model_path: str | Path) -> ModelCard | None:
    """The card of a model: the one inside its zip, else its sidecar, else ``None``.

    Raises:
        ValueError: the card is not a model card (the message names the file).
    """
    embedded = _embedded_card(zip_path(model_path))
    if embedded is not None:
        return _card_from_json(embedded, f"the model card inside {str(zip_path(model_path))!r}")
    path = sidecar_path(model_path)
    if not path.exists():
        return None
    return _card_from_json(path.read_bytes(), f"the model card {str(path)!r}")


def _embedded_card(path: Path) -> bytes | None:
    try:
        with zipfile.ZipFile(path) as archive:
            return archive.read(CARD_IN_ZIP) if CARD_IN_ZIP in archive.namelist() else None
    except (OSError, zipfile.BadZipFile):
        return None


def _card_from_json(text: bytes, what: str) -> ModelCard:
    known = {f.name for f in dataclasses.fields(ModelCard)}
    try:
        data = json.loads(text)
        return ModelCard(**{key: value for key, value in data.items() if key in known})
    except (ValueError, TypeError, AttributeError) as error:
        raise ValueError(f"{what} is damaged ({error}); delete it or the model") from None


def read_safe_card(model_path: str | Path) -> ModelCard:
    """The card of the safe model ``model_path`` names (its ``<stem>.json``), checked strictly.

    Raises:
        FileNotFoundError: no description there (and no zip either).
        UnsafeModelError: there is only an SB3 zip (or a card without a ``policy`` entry beside one): loading it
            would unpickle it; the message says how to convert it or load it anyway.
        ValueError: the description is damaged or foreign (the message names the file and what is wrong).
    """
    path = description_path(model_path)
    if not path.is_file():
        if zip_path(model_path).is_file():
            raise UnsafeModelError(unsafe_zip_message(model_path, _switch(model_path)))
        raise FileNotFoundError(
            f"no saved model at {str(model_path)!r} (a model is {weights_path(model_path).name} with its description "
            f"{path.name})"
        )
    card = _strict_card(path)
    if not card.policy:
        if zip_path(model_path).is_file():
            raise UnsafeModelError(unsafe_zip_message(model_path, _switch(model_path)))
        raise ValueError(f"{str(path)!r} is a model card without a 'policy' entry: no safe model is described there")
    return card


def _switch(model_path: str | Path) -> str:
    return f"'sb3:unsafe:{zip_path(model_path)}' (in Python: trusted=True)"


CARD_TYPES: dict[str, type | tuple[type, ...]] = {
    "game": str, "config": dict, "algo": str, "steps": int, "observation_shape": list, "num_actions": int,
    "wall_seconds": (int, float), "extra": dict, "policy": dict,
}  # fmt: skip
"""The fields of a model card in JSON and their types (``wall_seconds``, ``extra``, ``policy`` may be absent)."""
JSON_TYPES: dict[type, str] = {str: "string", dict: "object", list: "list", int: "integer", float: "number"}
"""The JSON names of the types in :data:`CARD_TYPES`, for error messages."""


def _strict_card(path: Path) -> ModelCard:
    """The card in the JSON file ``path``: every field present with its type; ``ValueError`` naming the file."""
    try:
        data = json.loads(path.read_bytes())
    except (OSError, ValueError) as error:
        raise ValueError(f"{str(path)!r} is not a model description (not JSON: {error})") from None
    if not isinstance(data, dict):
        raise ValueError(f"{str(path)!r} is not a model description (a JSON {type(data).__name__}, not an object)")
    optional = ("wall_seconds", "extra", "policy")
    for key, kind in CARD_TYPES.items():
        if key not in data and key in optional:
            continue
        if isinstance(data.get(key), bool) or not isinstance(data.get(key), kind):
            names = " or ".join(JSON_TYPES[each] for each in (kind if isinstance(kind, tuple) else (kind,)))
            raise ValueError(f"{str(path)!r} is not a model description: field {key!r} is missing or not a {names}")
    if data["algo"] not in ALGORITHMS:
        raise ValueError(f"{str(path)!r}: algo must be one of {list(ALGORITHMS)}, got {data['algo']!r}")
    return ModelCard(**{key: data[key] for key in CARD_TYPES if key in data})


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


# -- loading and checking -------------------------------------------------------------------------
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
        The model (a :class:`~baselines.learners.sb3.safe.PolicyModel`, or with ``trusted`` the SB3 algorithm), and
        its card (for a zip without one, rebuilt from the model: its ``game`` is then ``game``'s name, or ``""``).

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


# -- the agent ------------------------------------------------------------------------------------
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
    "CARD_IN_ZIP",
    "ModelCard",
    "SB3Agent",
    "UnsafeModelError",
    "algorithm_of",
    "card_json",
    "check_model_fits",
    "detect_algorithm",
    "load_model",
    "model_card",
    "read_model_card",
    "read_safe_card",
    "save_model",
    "save_safe_model",
    "sidecar_path",
    "write_safe_files",
    "zip_path",
]
