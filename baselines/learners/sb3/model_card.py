"""The card of a saved SB3 model: what it was trained on, and reading it back without loading the model.

A :class:`ModelCard` (game name, game config, algorithm, steps, observation shape, number of actions, wall time,
the trainer's extras and, in the safe files, the ``policy`` description) is stored as ``<name>.json`` beside the
model and, without its ``policy`` entry, inside the SB3 zip (:data:`CARD_IN_ZIP`). :func:`read_model_card` prefers
the card inside the zip, so that a kill between two writes cannot pair a zip with another model's card;
:func:`read_safe_card` reads the safe model's description strictly (every field present with its type) and refuses
a model that only its zip holds (:class:`~baselines.learners.sb3.safe.UnsafeModelError`).
"""

from __future__ import annotations

import dataclasses
import json
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from stable_baselines3.common.base_class import BaseAlgorithm

from baselines.learners.sb3.model_files import description_path, sidecar_path, weights_path, zip_path
from baselines.learners.sb3.policies import ALGORITHMS, algorithm_class
from baselines.learners.sb3.policy_model import PolicyModel
from baselines.learners.sb3.safe import UnsafeModelError, unsafe_zip_message
from boardenvs.core import Game
from boardenvs.registry import make_game


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
            (:func:`~baselines.learners.sb3.safe_writer.describe_policy`); empty in the card inside a zip and in the
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


__all__ = [
    "CARD_IN_ZIP",
    "CARD_TYPES",
    "JSON_TYPES",
    "ModelCard",
    "algorithm_of",
    "card_json",
    "model_card",
    "read_model_card",
    "read_safe_card",
]
