"""The Q network of QLNN (:class:`QNetwork`): an MLP from the flattened observation to one value per action, its
``.pt`` file (checked before it is trusted) and the networks shipped in this package's ``models/`` folder."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path
from typing import Any

import numpy as np

from baselines.learners.qlnn.settings import QLNNSettings
from baselines.learners.tabular_q.identity import game_identity, game_identity_problem
from baselines.runs import atomic_write, zip_problem
from boardenvs.core import Game

FORMAT = "qlnn"
FORMAT_VERSION = 1
"""What a saved network's metadata says it is; other files are refused."""
MODELS_DIR = Path(__file__).resolve().parent / "models"
"""Where the shipped networks live."""
SHIPPED: dict[str, list[str]] = {"quoridor": ["quoridor_qlnn_5x5.pt"]}
"""Game name -> the networks shipped in :data:`MODELS_DIR` (each records the config it was trained on)."""


def torch_module() -> Any:
    """``torch``, imported when first needed (it is an optional extra)."""
    import torch

    return torch


def build_network(inputs: int, outputs: int, settings: QLNNSettings) -> Any:
    """The MLP ``inputs -> hidden... -> outputs`` (linear output layer)."""
    nn = torch_module().nn
    activation = {"sigmoid": nn.Sigmoid, "tanh": nn.Tanh, "relu": nn.ReLU}[settings.activation]
    layers: list[Any] = []
    width = inputs
    for hidden in settings.hidden:
        layers += [nn.Linear(width, hidden), activation()]
        width = hidden
    layers.append(nn.Linear(width, outputs))
    return nn.Sequential(*layers)


def observation_vector(game: Game, view: Any, player: int) -> np.ndarray:
    """``player``'s observation of ``view``, flattened to float32."""
    return np.asarray(game.observe(view, player), dtype=np.float32).reshape(-1)


class QNetwork:
    """A network, the game it scores actions of, its settings and how it was trained."""

    def __init__(
        self, game: dict[str, Any], settings: QLNNSettings, module: Any = None, training: dict[str, Any] | None = None
    ) -> None:
        self.game = game
        self.settings = settings
        inputs = int(np.prod(game["observation_shape"]))
        self.module = module if module is not None else build_network(inputs, int(game["num_actions"]), settings)
        self.training: dict[str, Any] = dict(training or {})

    @classmethod
    def empty(cls, game: Game, settings: QLNNSettings | None = None, seed: int = 0) -> QNetwork:
        """A freshly initialised network for ``game`` (initialisation seeded with ``seed``)."""
        torch_module().manual_seed(seed)
        return cls(game_identity(game), settings or QLNNSettings())

    def values(self, observation: np.ndarray) -> np.ndarray:
        """The action values of one flattened observation."""
        torch = torch_module()
        with torch.no_grad():
            return self.module(torch.from_numpy(observation)[None])[0].numpy()

    def check_game(self, game: Game) -> None:
        """``ValueError`` unless the network was trained for ``game`` (name, version, config, sizes)."""
        mine, theirs = self.game, game_identity(game)
        for field_name in ("name", "version", "config", "num_actions", "observation_shape"):
            if mine[field_name] != theirs[field_name]:
                raise ValueError(
                    f"qlnn network was trained for {mine['name']} with {field_name} {mine[field_name]!r}, "
                    f"but this game has {theirs[field_name]!r}"
                )

    def save(self, path: str | Path) -> Path:
        """Write the network and its metadata to ``path`` (a ``.pt`` file); returns the path."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        settings = dataclasses.asdict(self.settings)
        settings["hidden"] = list(settings["hidden"])
        payload = {"format": FORMAT, "format_version": FORMAT_VERSION, "game": self.game, "settings": settings,
                   "training": self.training, "state_dict": self.module.state_dict()}  # fmt: skip
        atomic_write(path, lambda temporary: torch_module().save(payload, temporary))
        return path

    @classmethod
    def load(cls, path: str | Path) -> QNetwork:
        """A network written by :meth:`save`, checked before it is trusted: the archive's CRCs, the metadata, the
        settings, and weights that are finite and of the shapes the settings and game give.

        Raises:
            FileNotFoundError: no file at ``path``.
            ValueError: not such a network, or a damaged one (the message names the file and what is wrong).
        """
        path = Path(path)
        if not path.exists():
            raise FileNotFoundError(f"qlnn: no weights file {str(path)!r}")
        label = f"qlnn: {str(path)!r}"
        payload = _read_payload(path, label)
        try:
            settings = QLNNSettings(**{**payload["settings"], "hidden": tuple(payload["settings"]["hidden"])})
        except (KeyError, TypeError, ValueError) as error:
            raise ValueError(f"{label} has bad settings: {error}") from None
        game = payload["game"]
        inputs, outputs = math.prod(game["observation_shape"]), game["num_actions"]
        module = _checked_module(lambda: build_network(inputs, outputs, settings), payload["state_dict"], label)
        return cls(game, settings, module, payload["training"])


def _read_payload(path: Path, label: str) -> dict[str, Any]:
    """The checked top level of a saved network: format, game identity, settings, training and weights."""
    problem = zip_problem(path)
    if problem:
        raise ValueError(f"{label} is not a network written by QNetwork.save: {problem}")
    try:
        payload = torch_module().load(path, map_location="cpu", weights_only=True)
    except Exception as error:  # noqa: BLE001 - any unreadable file is reported the same way
        raise ValueError(f"{label} is not a network written by QNetwork.save: {error}") from None
    found = (payload.get("format"), payload.get("format_version")) if isinstance(payload, dict) else (None, None)
    if found != (FORMAT, FORMAT_VERSION):
        raise ValueError(f"{label} is not a network written by QNetwork.save: format {found[0]!r} v{found[1]}")
    problem = game_identity_problem(payload.get("game"))
    for name in ("settings", "training", "state_dict"):
        if not isinstance(payload.get(name), dict):
            problem = problem or f"it has no {name!r} object"
    if problem:
        raise ValueError(f"{label} is not a valid qlnn network: {problem}")
    return payload


def _checked_module(build: Any, weights: dict[str, Any], label: str) -> Any:
    """``build()`` with ``weights`` loaded, after checking (on torch's ``meta`` device, no memory) that the weights
    are finite tensors of the names and shapes it has: a tampered size cannot ask for a huge network."""
    torch = torch_module()
    if not all(isinstance(tensor, torch.Tensor) for tensor in weights.values()):
        raise ValueError(f"{label}: its weights are not all tensors")
    try:
        with torch.device("meta"):
            expected = {name: tuple(tensor.shape) for name, tensor in build().state_dict().items()}
    except (TypeError, ValueError, RuntimeError, OverflowError) as error:
        raise ValueError(f"{label}: the network its settings give cannot be built: {str(error)[:200]}") from None
    given = {name: tuple(tensor.shape) for name, tensor in weights.items()}
    if given != expected:
        first = sorted(name for name in expected.keys() | given.keys() if expected.get(name) != given.get(name))[0]
        raise ValueError(
            f"{label}: its weights do not fit the network its settings give ({first!r} is "
            f"{given.get(first, 'missing')}, the network's is {expected.get(first, 'absent')})"
        )
    if not all(bool(torch.isfinite(tensor).all()) for tensor in weights.values()):
        raise ValueError(f"{label}: its weights hold NaN or an infinity")
    module = build()
    module.load_state_dict(weights)
    return module


def shipped_network(game: Game) -> QNetwork:
    """The network shipped for ``game``'s config; ``ValueError`` naming the configs that have one otherwise."""
    networks = [QNetwork.load(MODELS_DIR / name) for name in SHIPPED.get(game.spec.name, [])]
    identity = game_identity(game)
    for network in networks:
        if network.game["config"] == identity["config"] and network.game["version"] == identity["version"]:
            return network
    have = [network.game["config"] for network in networks]
    raise ValueError(
        f"qlnn: no shipped network for {game.spec.name} with config {identity['config']!r}; "
        f"shipped configs: {have or 'none'}; pass qlnn:weights=<path.pt> from scripts/train_qlnn.py"
    )
