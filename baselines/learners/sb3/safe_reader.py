"""The safe format's reader: the policy a description describes, with the tensors of its weights file.

:func:`build_policy` rebuilds the untrained network from a checked description (only the classes the format
knows: a description names classes, it never imports one); :func:`read_weights` reads the tensors with
``torch.load(weights_only=True)`` once their digest matches the description's; :func:`load_policy` does both.

Example:
    >>> policy = load_policy(description, "runs/x/model.pt", "runs/x/model.json")  # doctest: +SKIP
"""

from __future__ import annotations

import hashlib
import io
from pathlib import Path
from typing import Any

import torch as th
from gymnasium import spaces
from stable_baselines3.common.policies import BasePolicy

from baselines.learners.sb3.model_files import description_path
from baselines.learners.sb3.safe import ACTIVATIONS, EXTRACTORS, KNOWN_POLICY_CLASSES, POLICY_CLASSES
from baselines.learners.sb3.safe_validation import check_description, described_space, known_entry, positive_int


def build_policy(description: dict[str, Any], source: str) -> BasePolicy:
    """The untrained policy ``description`` describes (on the CPU, in eval mode).

    Raises:
        ValueError: the description names a class this module does not rebuild, or settings the class refuses.
    """
    check_description(description, source)
    classes = {name: (algo, POLICY_CLASSES[algo]) for name, algo in KNOWN_POLICY_CLASSES.items()}
    algo, policy_class = known_entry(source, "policy_class", description["policy_class"], classes)
    kwargs: dict[str, Any] = {
        "net_arch": description["net_arch"],
        "activation_fn": known_entry(source, "activation_fn", description["activation_fn"], ACTIVATIONS),
        "features_extractor_class": known_entry(
            source, "features_extractor_class", description["features_extractor_class"], EXTRACTORS
        ),
        "features_extractor_kwargs": description["features_extractor_kwargs"],
        "normalize_images": description["normalize_images"],
    }
    if algo == "ppo":
        shared = bool(description.get("share_features_extractor", True))
        kwargs.update(ortho_init=False, share_features_extractor=shared)
    observation_space = described_space(description["observation_space"], source)
    action_space = spaces.Discrete(positive_int(description["action_space"].get("n"), source, "action_space.n"))
    try:
        policy = policy_class(observation_space, action_space, _no_learning, **kwargs)
    except (TypeError, ValueError, RuntimeError, KeyError) as error:
        raise ValueError(f"{source}: its policy cannot be built ({type(error).__name__}: {error})") from None
    policy.set_training_mode(False)
    return policy


def read_weights(path: str | Path, sha256: str) -> dict[str, th.Tensor]:
    """The tensors of the weights file ``path`` whose digest must be ``sha256``.

    Raises:
        FileNotFoundError: no such file.
        ValueError: its digest differs (cut short, damaged, from another save), or it holds anything but a dict of
            named tensors (``torch.load(weights_only=True)`` refuses every other object without building it).
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no weights file {str(path)!r} (the safe model's tensors)")
    data = path.read_bytes()
    if hashlib.sha256(data).hexdigest() != sha256:
        raise ValueError(
            f"{str(path)!r} is not the weights file its description {description_path(path).name} names (its SHA-256 "
            "differs: cut short, damaged, or written by another save); save or convert the model again"
        )
    try:
        weights = th.load(io.BytesIO(data), map_location="cpu", weights_only=True)
    except Exception as error:  # noqa: BLE001 - torch raises many types for files it refuses (pickle, zip, runtime)
        raise ValueError(f"{str(path)!r} is not a readable weights file: {type(error).__name__}: {error}") from None
    if not isinstance(weights, dict) or not all(
        isinstance(name, str) and isinstance(tensor, th.Tensor) for name, tensor in weights.items()
    ):
        raise ValueError(f"{str(path)!r} must hold a dict of named tensors (a policy's state_dict)")
    return weights


def load_policy(description: dict[str, Any], weights: str | Path, source: str, device: str = "cpu") -> BasePolicy:
    """The policy ``description`` describes with the tensors of the file ``weights``, in eval mode on ``device``.

    Raises:
        FileNotFoundError: no weights file.
        ValueError: a damaged description or weights file, or weights that do not fit the described policy (each
            message names the file).
    """
    policy = build_policy(description, source)
    state = read_weights(weights, description["weights_sha256"])
    try:
        policy.load_state_dict(state, strict=True)
    except RuntimeError as error:
        raise ValueError(
            f"{str(weights)!r} does not fit the policy {source} describes: {' '.join(str(error).split())}"
        ) from None
    policy.to(device)
    policy.set_training_mode(False)
    return policy


def _no_learning(_progress: float) -> float:
    """The learning-rate schedule of a rebuilt policy: it plays and is not trained, so its optimizer never steps."""
    return 0.0


__all__ = [
    "build_policy",
    "load_policy",
    "read_weights",
]
