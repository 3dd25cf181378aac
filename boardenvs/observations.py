"""What every adapter shows an agent: the observation spaces and the masked observation, in each format and layout.

The game's observation is one float32 array with named fields (``GameSpec.observation_fields``); the adapters
(PettingZoo AEC and Parallel, the single-agent Gymnasium env, RLlib) offer it as that array or as a ``Dict`` of
the named fields (``observation_format``), with board planes channels first or last (``observation_layout``), beside
an ``int8`` action mask. Only Gymnasium's ``spaces`` are needed here, so the Gymnasium env does not import PettingZoo.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from boardenvs.core import Game, GameSpec, check_choice

OBSERVATION_FORMATS: tuple[str, ...] = ("array", "dict")
"""``"array"``: one float32 array; ``"dict"``: a ``spaces.Dict`` of the named fields of ``spec.observation_fields``."""
OBSERVATION_LAYOUTS: tuple[str, ...] = ("channels_first", "channels_last")
"""Board planes as ``(C, H, W)`` (the games' own, torch's) or ``(H, W, C)`` (PettingZoo classic's, RLlib's CNNs)."""
ObsDict = dict[str, Any]
"""A masked observation: ``{"observation": array or dict of arrays, "action_mask": int8[num_actions]}``."""


def check_observation_format(observation_format: str) -> None:
    """Raise ``ValueError`` naming ``observation_format`` unless it is one of :data:`OBSERVATION_FORMATS`."""
    check_choice("observation_format", observation_format, OBSERVATION_FORMATS)


def check_observation_layout(spec: GameSpec, observation_layout: str) -> None:
    """Raise ``ValueError`` naming ``observation_layout`` unless it is one of :data:`OBSERVATION_LAYOUTS` and fits
    the game (``"channels_last"`` needs board planes)."""
    check_choice("observation_layout", observation_layout, OBSERVATION_LAYOUTS)
    if observation_layout == "channels_last" and len(spec.observation_shape) != 3:
        raise ValueError(
            f"observation_layout='channels_last' needs board planes (C, H, W), but {spec.name}'s observation is a "
            f"vector of shape {spec.observation_shape}; use observation_layout='channels_first'"
        )


def in_layout(array: np.ndarray, observation_layout: str) -> np.ndarray:
    """``array`` (channels first) in ``observation_layout``: ``(C, H, W)`` as is, or a fresh ``(H, W, C)``."""
    if observation_layout == "channels_last":
        return np.ascontiguousarray(np.moveaxis(array, 0, -1))
    return array


def observation_bounds(spec: GameSpec) -> tuple[np.ndarray, np.ndarray]:
    """Per-element ``(low, high)`` float32 arrays of the observation, from the bounds of its named fields."""
    low = np.full(spec.observation_shape, -np.inf, dtype=np.float32)
    high = np.full(spec.observation_shape, np.inf, dtype=np.float32)
    for f in spec.observation_fields:
        low[f.start : f.stop] = f.low
        high[f.start : f.stop] = f.high
    return low, high


def observation_space(
    spec: GameSpec, observation_format: str = "array", observation_layout: str = "channels_first"
) -> spaces.Space:
    """The space of the game's observation: one float32 ``Box``, or a ``Dict`` of one ``Box`` per named field."""
    check_observation_format(observation_format)
    check_observation_layout(spec, observation_layout)
    if observation_format == "array":
        low, high = observation_bounds(spec)
        return spaces.Box(in_layout(low, observation_layout), in_layout(high, observation_layout), dtype=np.float32)
    rest = tuple(spec.observation_shape[1:])
    boxes = {}
    for f in spec.observation_fields:
        shape = (*rest, f.size) if observation_layout == "channels_last" else (f.size, *rest)
        boxes[f.name] = spaces.Box(f.low, f.high, shape, dtype=np.float32)
    return spaces.Dict(boxes)


def masked_observation_space(
    spec: GameSpec, observation_format: str = "array", observation_layout: str = "channels_first"
) -> spaces.Dict:
    """``Dict(observation=..., action_mask=Box(0, 1, (num_actions,), int8))``."""
    return spaces.Dict(
        {
            "observation": observation_space(spec, observation_format, observation_layout),
            "action_mask": spaces.Box(0, 1, (spec.num_actions,), dtype=np.int8),
        }
    )


def state_space(spec: GameSpec, observation_layout: str = "channels_first") -> spaces.Box:
    """The space of ``Game.global_state``: the observation's bounds once per seat, stacked on the first axis."""
    check_observation_layout(spec, observation_layout)
    low, high = (np.concatenate([bound] * spec.num_players, axis=0) for bound in observation_bounds(spec))
    return spaces.Box(in_layout(low, observation_layout), in_layout(high, observation_layout), dtype=np.float32)


def encode_observation(
    game: Game,
    state: Any,
    player: int,
    observation_format: str,
    mask: np.ndarray | None,
    observation_layout: str = "channels_first",
) -> ObsDict:
    """The masked observation of ``player``: fresh arrays, ``mask=None`` gives an all-zero action mask.

    Uses ``game.observe(state, player)``, which shows only what ``player`` may see and returns a fresh array.
    """
    observation = game.observe(state, player)
    if type(observation) is not np.ndarray or observation.dtype != np.float32:
        observation = np.asarray(observation, dtype=np.float32)
    action_mask = np.zeros(game.spec.num_actions, dtype=np.int8) if mask is None else np.asarray(mask).astype(np.int8)
    if observation_format == "array" and observation_layout == "channels_first":  # the default: as built
        return {"observation": observation, "action_mask": action_mask}
    if observation_format == "dict":
        fields = game.spec.split_observation(observation)
        return {
            "observation": {name: in_layout(part, observation_layout) for name, part in fields.items()},
            "action_mask": action_mask,
        }
    return {"observation": in_layout(observation, observation_layout), "action_mask": action_mask}


class LegalMaskCache:
    """The legal-action mask of the latest state asked about, computed once per state object.

    Both adapters read the mask several times per state (observation, legality check, ``action_masks``);
    states are never mutated, so the object identity of the state is a safe key. Callers must not modify
    the returned array.
    """

    def __init__(self) -> None:
        self._state: Any = None
        self._mask: np.ndarray | None = None

    def mask(self, game: Game, state: Any) -> np.ndarray:
        """``game.legal_action_mask(state)``, reused while ``state`` is the same object."""
        if self._mask is None or state is not self._state:
            self._mask = game.legal_action_mask(state)
            self._state = state
        return self._mask
