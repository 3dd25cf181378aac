"""Trained SB3 models as baselines agents, and saving/loading models with a JSON sidecar.

:func:`save_model` writes ``<name>.zip`` (SB3's format, with the :class:`ModelCard` inside it: game name, game
config, algorithm, steps, observation shape, number of actions, wall time) and a copy of the card as the sidecar
``<name>.json``, each atomically, so a reader in another process (a self-play worker) never sees half a file,
and a kill between the two writes cannot pair a model with another model's card: :func:`read_model_card`
reads the card inside the zip first, the sidecar only for models saved without one. :func:`load_model` loads with
the right class (the card's ``algo``, or else detected from the zip) and checks the model's spaces against the
game before any game is played.

:class:`SB3Agent` plays with ``model.predict(obs, action_masks=mask, deterministic=True)`` on the same Dict
observation the env gives (``game.observe(view, player)`` + ``game.legal_action_mask(view)``). It never
returns an illegal action: the masks make one impossible, but should ``predict`` ever return one, the agent
warns (``RuntimeWarning``), counts it in ``illegal_predictions`` and plays the legal action the model scores
highest (PPO: its logit, DQN: its Q-value).

Example:
    >>> agent = SB3Agent.load("runs/quoridor-ppo-0/model.zip")  # doctest: +SKIP
    >>> make_agent("sb3:runs/quoridor-ppo-0/model.zip", "quoridor")  # the same, by name  # doctest: +SKIP
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
from baselines.runs import atomic_write, atomic_write_text
from boardenvs.aec import encode_observation
from boardenvs.core import Game
from boardenvs.registry import make_game


# -- the sidecar ----------------------------------------------------------------------------------
@dataclass
class ModelCard:
    """What a saved model was trained on, stored as ``<model>.json`` next to ``<model>.zip``.

    Attributes:
        game: The registered game name.
        config: The game's config fields (``make_game(game, **config)`` rebuilds it).
        algo: ``"ppo"`` or ``"dqn"``.
        steps: Environment steps the model was trained for.
        observation_shape: The game's ``spec.observation_shape``.
        num_actions: The game's ``spec.num_actions``.
        wall_seconds: Training wall time so far (resumed runs add to it).
        extra: Anything else the trainer wants to remember (e.g. the training arguments).
    """

    game: str
    config: dict[str, Any]
    algo: str
    steps: int
    observation_shape: list[int]
    num_actions: int
    wall_seconds: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)

    def make_game(self) -> Game:
        """The game the model was trained on."""
        return make_game(self.game, **self.config)


def zip_path(path: str | Path) -> Path:
    """``path`` with the ``.zip`` suffix SB3 uses (added if missing)."""
    path = Path(path)
    return path if path.suffix == ".zip" else path.with_name(path.name + ".zip")


def sidecar_path(model_path: str | Path) -> Path:
    """The JSON sidecar of a model: ``runs/x/model.zip`` → ``runs/x/model.json``."""
    return zip_path(model_path).with_suffix(".json")


def algorithm_of(model: BaseAlgorithm) -> str:
    """``"ppo"`` or ``"dqn"``: the name of the model's class in :data:`ALGORITHMS`."""
    for algo in ALGORITHMS:
        if isinstance(model, algorithm_class(algo)):
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


def save_model(model: BaseAlgorithm, path: str | Path, game: Game, wall_seconds: float = 0.0, **extra: Any) -> Path:
    """Save ``model`` as ``<path>.zip`` with its card inside and as the ``<path>.json`` sidecar; both files
    appear atomically, the zip first.

    Returns:
        The path of the zip file.
    """
    target = zip_path(path)
    card = model_card(model, game, wall_seconds, **extra)
    card_json = json.dumps(dataclasses.asdict(card), indent=2)

    def write_zip(temporary: Path) -> None:
        model.save(temporary)
        with zipfile.ZipFile(temporary, "a") as archive:
            archive.writestr(CARD_IN_ZIP, card_json)

    atomic_write(target, write_zip)
    atomic_write_text(sidecar_path(target), card_json)
    return target


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
def check_model_fits(model: BaseAlgorithm, game: Game, source: str = "the model") -> None:
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


def load_model(path: str | Path, game: Game | None = None, device: str = "cpu") -> tuple[BaseAlgorithm, ModelCard]:
    """Load a saved MaskablePPO or MaskedDQN and check it against ``game`` (default: the card's game).

    Returns:
        The model, and its card (rebuilt from the model if the sidecar is missing; its ``game`` is then
        ``game``'s name, or ``""`` if no game was given).

    Raises:
        FileNotFoundError: No such model file.
        ValueError: The model does not fit the game (the message names both shapes).
    """
    target = zip_path(path)
    if not target.exists():
        raise FileNotFoundError(f"no saved model at {target}")
    card = read_model_card(target)
    model = algorithm_class(detect_algorithm(target)).load(target, device=device)
    game = game if game is not None else (card.make_game() if card is not None else None)
    if game is not None:
        check_model_fits(model, game, source=f"model {target}")
    return model, card if card is not None else _card_without_sidecar(model, game)


def _card_without_sidecar(model: BaseAlgorithm, game: Game | None) -> ModelCard:
    if game is not None:
        return model_card(model, game)
    shape = list(model.observation_space["observation"].shape)  # type: ignore[index]
    return ModelCard("", {}, algorithm_of(model), int(model.num_timesteps), shape, int(model.action_space.n))


# -- the agent ------------------------------------------------------------------------------------
class SB3Agent(BaseAgent):
    """A trained MaskablePPO or MaskedDQN playing as a baselines agent.

    Args:
        model: The trained model.
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
        model: BaseAlgorithm,
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
    ) -> SB3Agent:
        """The agent of a saved model; the game defaults to the one in the model's sidecar.

        Args:
            path: The model's zip file.
            game: The game it will play (checked now); default: the sidecar's game.
            name: Display name; default: the file's stem.
            seed: The agent's seed.
            stochastic: See the class.
            device: Torch device.
            game_name: If given, the sidecar's game must have this name.

        Raises:
            FileNotFoundError: No such model file.
            ValueError: The model does not fit ``game`` (the message names both shapes), or its sidecar names
                another game than ``game_name``.
        """
        card = read_model_card(path)
        if game_name is not None and card is not None and card.game != game_name:
            raise ValueError(f"model {zip_path(path)} was trained on game {card.game!r}, not {game_name!r}")
        model, card = load_model(path, game, device)
        game = game if game is not None else (card.make_game() if card.game else None)
        return cls(model, game, name or zip_path(path).stem, seed, stochastic, card)

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
        """``float[num_actions]``: PPO's policy logits or DQN's Q-values for one observation."""
        tensors, _ = self.model.policy.obs_to_tensor(observation)
        with th.no_grad():
            if self.algo == "dqn":
                scores = self.model.policy.q_net(tensors)
            else:
                scores = self.model.policy.get_distribution(tensors).distribution.logits
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
    "ModelCard",
    "SB3Agent",
    "algorithm_of",
    "check_model_fits",
    "detect_algorithm",
    "load_model",
    "model_card",
    "read_model_card",
    "save_model",
    "sidecar_path",
    "zip_path",
]
