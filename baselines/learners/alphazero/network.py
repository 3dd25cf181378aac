"""The AlphaZero policy-value network and its checkpoints.

The network reads one seat's observation (``game.observe(state, seat)``) and returns policy logits over every
action id and a value per seat in [-1, 1], **in the observer's seat order**: entry ``k`` is the value for seat
``(observer + k) % num_players``, so the same weights serve every seat; :meth:`PolicyValueNet.heads` adds the
auxiliary score head (the final score margins, same seat order, KataGo's score target). Plane observations
``(C, H, W)`` go through a 3x3 convolution and residual blocks; vector observations through a two-layer MLP.
Illegal actions are removed by :func:`masked_log_softmax` (their probability is exactly 0).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import torch
from torch import nn

from baselines.runs import atomic_write, check_zip
from baselines.settings import Range, setting
from boardenvs.core import Game

M = TypeVar("M", bound=nn.Module)


@dataclass(frozen=True)
class NetworkConfig:
    """Size of the network.

    Attributes:
        channels: convolution channels (plane observations), >= 1.
        blocks: residual blocks after the first convolution (plane observations), >= 0.
        hidden: width of the MLP trunk (vector observations) and of the value head, >= 1.
    """

    channels: int = setting(64, Range(1, 4096))
    blocks: int = setting(2, Range(0, 1000))
    hidden: int = setting(128, Range(1, 65536))

    def __post_init__(self) -> None:
        for name, low in (("channels", 1), ("blocks", 0), ("hidden", 1)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise ValueError(f"NetworkConfig.{name} must be an int >= {low}, got {value!r}")


class _ResidualBlock(nn.Module):
    def __init__(self, channels: int) -> None:
        super().__init__()
        self.layers = nn.Sequential(
            nn.Conv2d(channels, channels, 3, padding=1, bias=False),
            nn.BatchNorm2d(channels),
            nn.ReLU(),
            nn.Conv2d(channels, channels, 3, padding=1, bias=False),
            nn.BatchNorm2d(channels),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(x + self.layers(x))


class PolicyValueNet(nn.Module):
    """``forward(observations) -> (logits[B, num_actions], values[B, num_players])`` (values after tanh);
    ``heads(observations)`` adds ``scores[B, num_players]`` (score margins after tanh).

    Args:
        observation_shape: ``game.spec.observation_shape``: ``(C, H, W)`` planes or ``(N,)`` vectors.
        num_actions: size of the policy head.
        num_players: size of the value head.
        config: layer sizes.
    """

    def __init__(
        self, observation_shape: tuple[int, ...], num_actions: int, num_players: int, config: NetworkConfig
    ) -> None:
        super().__init__()
        if len(observation_shape) not in (1, 3):
            raise ValueError(f"observation_shape must be (C, H, W) or (N,), got {observation_shape}")
        self.observation_shape = tuple(observation_shape)
        self.num_actions, self.num_players, self.config = num_actions, num_players, config
        if len(observation_shape) == 3:
            self.trunk, features = self._conv_trunk(observation_shape, config)
        else:
            self.trunk, features = self._mlp_trunk(observation_shape[0], config)
        self.policy_head = nn.Linear(features, num_actions)
        self.value_head = nn.Sequential(
            nn.Linear(features, config.hidden), nn.ReLU(), nn.Linear(config.hidden, num_players)
        )
        self.score_head = nn.Sequential(
            nn.Linear(features, config.hidden), nn.ReLU(), nn.Linear(config.hidden, num_players)
        )

    @staticmethod
    def _conv_trunk(shape: tuple[int, ...], config: NetworkConfig) -> tuple[nn.Module, int]:
        channels, height, width = shape
        layers: list[nn.Module] = [
            nn.Conv2d(channels, config.channels, 3, padding=1, bias=False),
            nn.BatchNorm2d(config.channels),
            nn.ReLU(),
        ]
        layers += [_ResidualBlock(config.channels) for _ in range(config.blocks)]
        layers += [nn.Conv2d(config.channels, 2, 1), nn.ReLU(), nn.Flatten()]
        return nn.Sequential(*layers), 2 * height * width

    @staticmethod
    def _mlp_trunk(size: int, config: NetworkConfig) -> tuple[nn.Module, int]:
        trunk = nn.Sequential(
            nn.Linear(size, config.hidden), nn.ReLU(), nn.Linear(config.hidden, config.hidden), nn.ReLU()
        )
        return trunk, config.hidden

    def forward(self, observations: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        features = self.trunk(observations)
        return self.policy_head(features), torch.tanh(self.value_head(features))

    def heads(self, observations: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """``(logits, values, scores)``: :meth:`forward` and the auxiliary score head."""
        features = self.trunk(observations)
        values, scores = torch.tanh(self.value_head(features)), torch.tanh(self.score_head(features))
        return self.policy_head(features), values, scores

    @property
    def device(self) -> torch.device:
        return next(self.parameters()).device

    @classmethod
    def for_game(cls, game: Game, config: NetworkConfig | None = None, seed: int | None = None) -> PolicyValueNet:
        """A fresh network sized for ``game``; ``seed`` makes its initial weights reproducible (torch's global
        generator is left as it was)."""
        spec = game.spec
        with torch.random.fork_rng(devices=[]):
            if seed is not None:
                torch.manual_seed(seed)
            return cls(spec.observation_shape, spec.num_actions, spec.num_players, config or NetworkConfig())


def masked_log_softmax(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """``log_softmax`` over the legal actions (``mask`` true); illegal entries get ``-inf`` (probability 0).
    Every row needs at least one legal action."""
    return torch.log_softmax(logits.masked_fill(~mask, float("-inf")), dim=-1)


# -- checkpoints ----------------------------------------------------------------------------------
CHECKPOINT_VERSION = 2
"""Version 2 added the score head."""


def resolve_device(device: str) -> torch.device:
    """``"auto"`` (a GPU when torch sees one, else the CPU), ``"cpu"`` or ``"cuda"`` (``"cuda:1"``) as a device.

    Raises:
        ValueError: another value, or a GPU asked for where torch sees none.
    """
    name = device.strip().lower() if isinstance(device, str) else device
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if name == "cpu":
        return torch.device("cpu")
    if isinstance(name, str) and (name == "cuda" or name.startswith("cuda:")):
        if not torch.cuda.is_available():
            raise ValueError(f"device {device!r}: torch sees no CUDA GPU on this machine (use 'cpu' or 'auto')")
        return torch.device(name)
    raise ValueError(f"device must be 'auto', 'cpu' or 'cuda' (or 'cuda:<index>'), got {device!r}")


def save_checkpoint(path: str | Path, net: PolicyValueNet, game: Game, extra: dict[str, Any] | None = None) -> Path:
    """Write ``net`` with what it was built for (game name, config, network sizes) to ``path`` (``.pt``),
    atomically (:func:`atomic_write`); the weights are stored on the CPU."""
    data = {
        "version": CHECKPOINT_VERSION,
        "game": game.spec.name,
        "game_config": dataclasses.asdict(game.config),
        "network": dataclasses.asdict(net.config),
        "observation_shape": list(net.observation_shape),
        "num_actions": net.num_actions,
        "num_players": net.num_players,
        "state_dict": {key: value.detach().cpu() for key, value in net.state_dict().items()},
        "extra": extra or {},
    }
    return atomic_write(path, lambda temporary: torch.save(data, temporary))


def load_checkpoint(
    path: str | Path, game: Game | None = None, device: str = "cpu"
) -> tuple[PolicyValueNet, dict[str, Any]]:
    """The network saved at ``path`` (in eval mode, on ``device``) and the checkpoint's metadata.

    Raises:
        FileNotFoundError: no file at ``path``.
        ValueError: not a checkpoint of this module (another file, a damaged or truncated one, another
            version), or (with ``game``) one made for another game or config.
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"checkpoint {str(path)!r} does not exist")
    data = read_torch_file(path, "AlphaZero checkpoint")
    if not isinstance(data, dict) or data.get("version") != CHECKPOINT_VERSION:
        found = data.get("version") if isinstance(data, dict) else None
        raise ValueError(
            f"{str(path)!r} is not an AlphaZero checkpoint of version {CHECKPOINT_VERSION} (found version {found!r})"
        )
    _check_checkpoint_fields(path, data)
    if game is not None:
        check_matches(str(path), data, game)
    try:
        config = NetworkConfig(**data["network"])
    except (TypeError, ValueError) as error:
        raise ValueError(f"{str(path)!r}: the checkpoint's network sizes are not valid: {error}") from None
    shape, actions, players = tuple(data["observation_shape"]), data["num_actions"], data["num_players"]
    label = repr(str(path))
    net = build_for_weights(lambda: PolicyValueNet(shape, actions, players, config), data["state_dict"], label)
    net.to(resolve_device(device)).eval()
    return net, {key: value for key, value in data.items() if key != "state_dict"}


CHECKPOINT_FIELDS: dict[str, tuple[str, Any]] = {
    "game": ("a game name", lambda value: isinstance(value, str)),
    "game_config": ("an object", lambda value: isinstance(value, dict)),
    "network": ("an object of network sizes", lambda value: isinstance(value, dict)),
    "observation_shape": ("a list of sizes >= 1", lambda value: _is_shape(value)),
    "num_actions": ("an integer >= 1", lambda value: _is_size(value)),
    "num_players": ("an integer >= 1", lambda value: _is_size(value)),
    "state_dict": ("an object of tensors", lambda value: _is_tensor_dict(value)),
    "extra": ("an object", lambda value: isinstance(value, dict)),
}
"""Every field of a checkpoint, what it must be, and its test."""


def _is_size(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


def _is_shape(value: Any) -> bool:
    return isinstance(value, list | tuple) and len(value) in (1, 3) and all(map(_is_size, value))


def _is_tensor_dict(value: Any) -> bool:
    return isinstance(value, dict) and all(isinstance(item, torch.Tensor) for item in value.values())


def _check_checkpoint_fields(path: Path, data: dict[str, Any]) -> None:
    for name, (what, valid) in CHECKPOINT_FIELDS.items():
        if name not in data or not valid(data[name]):
            found = type(data[name]).__name__ if name in data else "nothing"
            raise ValueError(f"{str(path)!r} is not a valid AlphaZero checkpoint: {name!r} must be {what}, got {found}")


def build_for_weights(build: Callable[[], M], weights: Any, label: str, what: str = "weights") -> M:
    """``build()`` with ``weights`` loaded, for weights and sizes read from a file: the module is first built on
    torch's ``meta`` device (no memory), so sizes that do not match the weights are refused before anything is
    allocated (a tampered size cannot ask for a huge network); then :func:`load_weights`.

    Raises:
        ValueError: naming ``label``: the weights are not finite tensors with the names and shapes of the module.
    """
    if not _is_tensor_dict(weights):
        raise ValueError(f"{label}: its {what} are not a mapping of names to tensors")
    try:
        with torch.device("meta"):
            probe = build()
    except (TypeError, ValueError, RuntimeError, OverflowError) as error:
        raise ValueError(f"{label}: the network it describes cannot be built: {str(error)[:200]}") from None
    difference = _shape_difference(probe, weights)
    if difference:
        raise ValueError(f"{label}: its {what} do not fit the network it describes ({difference})")
    module = build()
    load_weights(module, weights, label, what)
    return module


def _shape_difference(module: nn.Module, weights: dict[str, torch.Tensor]) -> str | None:
    """How ``weights`` differ from ``module``'s own tensors in names and shapes (``None``: they do not)."""
    expected = {name: tuple(tensor.shape) for name, tensor in module.state_dict().items()}
    given = {name: tuple(tensor.shape) for name, tensor in weights.items()}
    differ = sorted(name for name in expected.keys() | given.keys() if expected.get(name) != given.get(name))
    if not differ:
        return None
    first = differ[0]
    return (
        f"{len(differ)} tensors differ; {first!r} is {given.get(first, 'missing')}, the network's is "
        f"{expected.get(first, 'absent')}"
    )


def load_weights(module: nn.Module, weights: Any, label: str, what: str = "weights") -> None:
    """``module.load_state_dict(weights)`` for weights read from a file: the tensors must be finite and fit the
    module exactly (same names and shapes), else a ``ValueError`` naming ``label`` (the file)."""
    if not _is_tensor_dict(weights):
        raise ValueError(f"{label}: its {what} are not a mapping of names to tensors")
    difference = _shape_difference(module, weights)
    if difference:
        raise ValueError(f"{label}: its {what} do not fit the network ({difference})")
    check_finite(weights, label, what)
    try:
        module.load_state_dict(weights)
    except (RuntimeError, ValueError, KeyError, TypeError) as error:
        raise ValueError(f"{label}: its {what} do not fit the network: {str(error).strip()[:300]}") from None


def check_finite(tensors: Any, label: str, what: str = "weights") -> None:
    """Raise ``ValueError`` naming ``label`` if any floating-point tensor in ``tensors`` (a tensor, or a nested
    dict/list of them) holds NaN or an infinity."""
    for name, tensor in _tensors(tensors, ""):
        if tensor.is_floating_point() and not bool(torch.isfinite(tensor).all()):
            raise ValueError(f"{label}: its {what} hold a value that is not finite (NaN or infinite) in {name!r}")


def _tensors(value: Any, name: str) -> Iterator[tuple[str, torch.Tensor]]:
    if isinstance(value, torch.Tensor):
        yield name or "tensor", value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _tensors(item, f"{name}.{key}" if name else str(key))
    elif isinstance(value, list | tuple):
        for index, item in enumerate(value):
            yield from _tensors(item, f"{name}[{index}]")


def read_torch_file(path: Path, what: str) -> Any:
    """``torch.load`` of ``path`` (tensors only, onto the CPU), after checking the archive's CRCs
    (:func:`~baselines.runs.check_zip`: torch does not, so a flipped bit would load as another weight); a damaged
    file is a ``ValueError`` naming it."""
    check_zip(path, what)
    try:
        return torch.load(path, map_location="cpu", weights_only=True)
    except Exception as error:  # torch raises several types for damaged files (pickle, zip, runtime)
        raise ValueError(f"{str(path)!r} is not a readable {what} (damaged or truncated?): {error}") from None


def check_matches(label: str, data: dict[str, Any], game: Game, who: str = "checkpoint") -> None:
    """Refuse checkpoint metadata ``data`` (named ``label``) made for another game or config than ``game``."""
    spec = game.spec
    if data["game"] != spec.name:
        raise ValueError(f"{who}: checkpoint {label!r} was trained for game {data['game']!r}, not {spec.name!r}")
    shape = (tuple(data["observation_shape"]), data["num_actions"], data["num_players"])
    expected = (tuple(spec.observation_shape), spec.num_actions, spec.num_players)
    config = dataclasses.asdict(game.config)
    if data["game_config"] != config:
        raise ValueError(
            f"{who}: checkpoint {label!r} was trained for {data['game']} with config {data['game_config']}, not "
            f"this game's config {config}"
        )
    if shape != expected:
        raise ValueError(
            f"{who}: checkpoint {label!r} is sized for (observation shape, actions, seats) {shape}, but "
            f"{spec.name} with config {config} has {expected}"
        )
