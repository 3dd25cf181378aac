"""The AlphaZero policy-value network and its checkpoints.

The network reads one seat's observation (``game.observe(state, seat)``) and returns policy logits over every
action id and a value per seat in [-1, 1], **in the observer's seat order**: entry ``k`` is the value for seat
``(observer + k) % num_players``, so the same weights serve every seat. Plane observations ``(C, H, W)`` go
through a 3x3 convolution and residual blocks; vector observations through a two-layer MLP. Illegal actions
are removed by :func:`masked_log_softmax` (their probability is exactly 0).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch
from torch import nn

from boardenvs.core import Game


@dataclass(frozen=True)
class NetworkConfig:
    """Size of the network.

    Attributes:
        channels: convolution channels (plane observations), >= 1.
        blocks: residual blocks after the first convolution (plane observations), >= 0.
        hidden: width of the MLP trunk (vector observations) and of the value head, >= 1.
    """

    channels: int = 64
    blocks: int = 2
    hidden: int = 128

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
    """``forward(observations) -> (logits[B, num_actions], values[B, num_players])`` (values after tanh).

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

    @classmethod
    def for_game(cls, game: Game, config: NetworkConfig | None = None) -> PolicyValueNet:
        """A fresh network sized for ``game``."""
        spec = game.spec
        return cls(spec.observation_shape, spec.num_actions, spec.num_players, config or NetworkConfig())


def masked_log_softmax(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """``log_softmax`` over the legal actions (``mask`` true); illegal entries get ``-inf`` (probability 0).
    Every row needs at least one legal action."""
    return torch.log_softmax(logits.masked_fill(~mask, float("-inf")), dim=-1)


# -- checkpoints ----------------------------------------------------------------------------------
CHECKPOINT_VERSION = 1


def save_checkpoint(path: str | Path, net: PolicyValueNet, game: Game, extra: dict[str, Any] | None = None) -> Path:
    """Write ``net`` with what it was built for (game name, config, network sizes) to ``path`` (``.pt``)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.save(
        {
            "version": CHECKPOINT_VERSION,
            "game": game.spec.name,
            "game_config": dataclasses.asdict(game.config),
            "network": dataclasses.asdict(net.config),
            "observation_shape": list(net.observation_shape),
            "num_actions": net.num_actions,
            "num_players": net.num_players,
            "state_dict": net.state_dict(),
            "extra": extra or {},
        },
        path,
    )
    return path


def load_checkpoint(path: str | Path, game: Game | None = None) -> tuple[PolicyValueNet, dict[str, Any]]:
    """The network saved at ``path`` (in eval mode) and the checkpoint's metadata.

    Raises:
        FileNotFoundError: no file at ``path``.
        ValueError: not a checkpoint of this module, or (with ``game``) one made for another game or config.
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"checkpoint {str(path)!r} does not exist")
    data = torch.load(path, map_location="cpu", weights_only=True)
    if not isinstance(data, dict) or data.get("version") != CHECKPOINT_VERSION:
        raise ValueError(f"{str(path)!r} is not an AlphaZero checkpoint (version {CHECKPOINT_VERSION})")
    if game is not None:
        _check_matches(path, data, game)
    net = PolicyValueNet(
        tuple(data["observation_shape"]), data["num_actions"], data["num_players"], NetworkConfig(**data["network"])
    )
    net.load_state_dict(data["state_dict"])
    net.eval()
    return net, {key: value for key, value in data.items() if key != "state_dict"}


def _check_matches(path: Path, data: dict[str, Any], game: Game) -> None:
    spec = game.spec
    if data["game"] != spec.name:
        raise ValueError(f"checkpoint {str(path)!r} was trained for game {data['game']!r}, not {spec.name!r}")
    shape = (tuple(data["observation_shape"]), data["num_actions"], data["num_players"])
    if shape != (spec.observation_shape, spec.num_actions, spec.num_players):
        raise ValueError(
            f"checkpoint {str(path)!r} was trained for {data['game']} with config {data['game_config']}, whose "
            f"observation/action/player sizes {shape} differ from this game's config {dataclasses.asdict(game.config)}"
        )
