"""The safe format's writer: a policy's JSON description and its weights file.

:func:`describe_policy` records what :mod:`baselines.learners.sb3.safe_reader` needs to rebuild the network (its
class, spaces, extractor, net arch, activation; refusing anything the format cannot rebuild) and
:func:`write_weights` writes the ``state_dict`` atomically and returns the digest the description holds.

Example:
    >>> description = describe_policy(model, write_weights(model.policy, "runs/x/model.pt"))  # doctest: +SKIP
"""

from __future__ import annotations

import hashlib
import math
from pathlib import Path
from typing import Any

import numpy as np
import torch as th
from gymnasium import spaces
from stable_baselines3.common.policies import BasePolicy

from baselines.learners.sb3.safe import (
    ACTIVATIONS,
    DESCRIBED_POLICIES,
    DTYPES,
    EXTRACTORS,
    FORMAT,
    FORMAT_VERSION,
    POLICY_CLASS_NAMES,
    algorithm_of_policy,
)
from baselines.runs import atomic_write


def describe_policy(model: Any, weights_sha256: str) -> dict[str, Any]:
    """The JSON description of ``model``'s policy (a MaskablePPO or MaskedDQN) whose weights have that digest.

    Raises:
        ValueError: the policy uses a class or setting the safe format cannot rebuild (the message names it).
    """
    policy = model.policy
    algo = algorithm_of_policy(policy)
    if type(policy) not in DESCRIBED_POLICIES[algo]:
        names = " or ".join(cls.__name__ for cls in DESCRIBED_POLICIES[algo])
        raise ValueError(f"the safe format rebuilds {names}, not {type(policy).__name__}")
    description: dict[str, Any] = {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "policy_class": POLICY_CLASS_NAMES[algo],
        "observation_space": _describe_dict_space(policy.observation_space),
        "action_space": {"n": int(policy.action_space.n)},
        "net_arch": _json_value("net_arch", policy.net_arch),
        "activation_fn": _name_in("activation_fn", policy.activation_fn, ACTIVATIONS),
        "features_extractor_class": _name_in("features_extractor_class", policy.features_extractor_class, EXTRACTORS),
        "features_extractor_kwargs": _json_value("features_extractor_kwargs", policy.features_extractor_kwargs),
        "normalize_images": bool(policy.normalize_images),
        "weights_sha256": weights_sha256,
    }
    if algo == "ppo":
        description["share_features_extractor"] = bool(policy.share_features_extractor)
    else:
        description["exploration_final_eps"] = float(model.exploration_final_eps)
    return description


def write_weights(policy: BasePolicy, path: str | Path) -> str:
    """Write ``policy``'s ``state_dict`` (tensors on the CPU) to ``path`` atomically; returns the file's SHA-256."""
    state = {name: tensor.detach().cpu() for name, tensor in policy.state_dict().items()}
    digest: list[str] = []

    def write(temporary: Path) -> None:
        th.save(state, temporary)
        digest.append(hashlib.sha256(temporary.read_bytes()).hexdigest())

    atomic_write(path, write)
    return digest[0]


def _describe_dict_space(space: spaces.Space) -> dict[str, Any]:
    entries = getattr(space, "spaces", None)
    if not isinstance(space, spaces.Dict) or not isinstance(entries, dict) or not entries:
        raise ValueError(f"the safe format describes Dict observation spaces of Boxes, got {space}")
    return {key: _describe_box(key, box) for key, box in entries.items()}


def _describe_box(key: str, box: spaces.Space) -> dict[str, Any]:
    if not isinstance(box, spaces.Box) or str(box.dtype) not in DTYPES:
        raise ValueError(f"the safe format describes Box entries of dtypes {list(DTYPES)}, got {key!r}: {box}")
    return {"shape": [int(size) for size in box.shape], "dtype": str(box.dtype),
            "low": _bounds_json(box.low), "high": _bounds_json(box.high)}  # fmt: skip


def _bounds_json(bounds: np.ndarray) -> Any:
    """One number when every element is the same, else the flat list; infinities as ``"inf"``/``"-inf"``."""
    flat = [_number_json(float(value)) for value in np.asarray(bounds, dtype=np.float64).reshape(-1)]
    return flat[0] if len(set(flat)) == 1 else flat


def _number_json(value: float) -> float | str:
    return value if math.isfinite(value) else ("inf" if value > 0 else "-inf")


def _name_in(what: str, cls: Any, known: dict[str, type]) -> str:
    name = getattr(cls, "__name__", repr(cls))
    if known.get(name) is not cls:
        raise ValueError(f"the safe format cannot rebuild {what} {name}; it knows {sorted(known)}")
    return name


def _json_value(what: str, value: Any) -> Any:
    """``value`` as plain JSON data (tuples become lists); ``ValueError`` naming ``what`` for anything else."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)):
        return [_json_value(what, item) for item in value]
    if isinstance(value, dict) and all(isinstance(key, str) for key in value):
        return {key: _json_value(what, item) for key, item in value.items()}
    raise ValueError(f"the safe format cannot describe {what}: {value!r} is not plain data")


__all__ = [
    "describe_policy",
    "write_weights",
]
