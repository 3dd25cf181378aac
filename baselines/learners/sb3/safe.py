"""Trained SB3 policies as tensors and JSON: saved and loaded without unpickling anything.

An SB3 ``.zip`` stores Python objects with (cloud)pickle, and unpickling a file runs whatever code its author put in
it: loading a zip from someone else is running their program. The safe format is two files side by side:

- ``<stem>.pt``: the policy's ``state_dict`` (names and tensors only), written by ``torch.save`` and read by
  ``torch.load(weights_only=True)``, whose unpickler builds tensors and plain containers and refuses anything else;
- ``<stem>.json``: the model card (game, config, algorithm, steps, shapes, the run's settings; see
  :class:`~baselines.learners.sb3.agent.ModelCard`) with a ``policy`` entry that describes the network: the policy
  class, its observation and action spaces, the features extractor and its settings, the net arch, the activation,
  the DQN's final epsilon, and the SHA-256 of the weights file.

Our code rebuilds the policy from that description (only the classes named in :data:`KNOWN_POLICY_CLASSES`,
:data:`EXTRACTORS` and :data:`ACTIVATIONS`: a description names classes, it never imports one) and loads the weights
into it. The policies it rebuilds (:data:`POLICY_CLASSES`) mask themselves with the observation's ``action_mask``
when ``predict`` is given no ``action_masks``, so SB3's own ``evaluate_policy`` plays a loaded model legally. The
digest ties the two files together: a weights file cut short, zeroed, changed or left over from another save is
refused before torch reads it. Every damaged or foreign file is a ``ValueError`` naming it.

:class:`PolicyModel` is what a loaded policy plays through: the parts of an SB3 algorithm that
:class:`~baselines.learners.sb3.agent.SB3Agent` uses (``predict``, ``policy``, the spaces, the step count).

Example:
    >>> description = describe_policy(model, write_weights(model.policy, "runs/x/model.pt"))  # doctest: +SKIP
    >>> policy = load_policy(description, "runs/x/model.pt", "runs/x/model.json")  # doctest: +SKIP
"""

from __future__ import annotations

import hashlib
import io
import math
from pathlib import Path
from typing import Any

import numpy as np
import torch as th
from gymnasium import spaces
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy, MaskableMultiInputActorCriticPolicy
from stable_baselines3.common.policies import BasePolicy
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor, CombinedExtractor
from torch import nn

from baselines.learners.sb3.dqn import MaskedDQNPolicy, with_action_masks
from baselines.learners.sb3.policies import PlanesExtractor, VectorExtractor
from baselines.learners.sb3.ppo import SelfMaskingMultiInputPolicy
from baselines.runs import atomic_write

FORMAT = "boardenvs-sb3-policy"
"""The ``format`` of a policy description."""
FORMAT_VERSION = 1
"""The ``version`` of a policy description this module reads and writes."""
WEIGHTS_SUFFIX = ".pt"
"""The suffix of a safe model's weights file."""
DESCRIPTION_SUFFIX = ".json"
"""The suffix of a safe model's description (its model card with the ``policy`` entry)."""
MODEL_SUFFIXES: tuple[str, ...] = (".zip", WEIGHTS_SUFFIX, DESCRIPTION_SUFFIX)
"""The suffixes of a model's files; a path with any of them, or with none, names the same model."""
POLICY_CLASSES: dict[str, type[BasePolicy]] = {
    "ppo": SelfMaskingMultiInputPolicy,
    "dqn": MaskedDQNPolicy,
}
"""The policy class rebuilt for each algorithm. Both mask themselves with ``obs["action_mask"]`` when given no
``action_masks``, so a loaded model plays legal moves for callers that pass none (SB3's ``evaluate_policy``)."""
POLICY_CLASS_NAMES: dict[str, str] = {
    "ppo": MaskableMultiInputActorCriticPolicy.__name__,
    "dqn": MaskedDQNPolicy.__name__,
}
"""The ``policy_class`` a description records for each algorithm: the class of the network. PPO's is sb3-contrib's
``MaskableMultiInputActorCriticPolicy``, whose tensors :class:`SelfMaskingMultiInputPolicy` has unchanged, so the
files this module writes load in readers that know only that name (every description written so far names it)."""
DESCRIBED_POLICIES: dict[str, tuple[type[BasePolicy], ...]] = {
    "ppo": (MaskableMultiInputActorCriticPolicy, SelfMaskingMultiInputPolicy),
    "dqn": (MaskedDQNPolicy,),
}
"""The policy classes :func:`describe_policy` describes, for each algorithm (PPO's plain policy, from a zip made by
sb3-contrib's ``MaskablePPO``, is rebuilt as the self-masking one)."""
KNOWN_POLICY_CLASSES: dict[str, str] = {
    cls.__name__: algo for algo, classes in DESCRIBED_POLICIES.items() for cls in classes
}
"""The ``policy_class`` names a description may record, and the algorithm of each; each is rebuilt as that
algorithm's :data:`POLICY_CLASSES` entry."""
EXTRACTORS: dict[str, type[BaseFeaturesExtractor]] = {
    cls.__name__: cls for cls in (PlanesExtractor, VectorExtractor, CombinedExtractor)
}
"""The features extractors a description may name."""
ACTIVATIONS: dict[str, type[nn.Module]] = {
    cls.__name__: cls for cls in (nn.Tanh, nn.ReLU, nn.LeakyReLU, nn.ELU, nn.GELU, nn.SiLU, nn.Sigmoid, nn.Identity)
}
"""The activation functions a description may name."""
DTYPES: tuple[str, ...] = ("float32", "float64", "int8", "int32", "int64", "uint8", "bool")
"""The dtypes a described ``Box`` may have."""


class UnsafeModelError(ValueError):
    """Loading the file would unpickle it (and so run any code in it); the message says why and how to go on."""


# -- paths ----------------------------------------------------------------------------------------
def model_stem(path: str | Path) -> Path:
    """A model's path without its suffix: ``runs/x/model.zip``, ``model.pt`` or ``model.json`` -> ``runs/x/model``."""
    path = Path(path)
    return path.with_suffix("") if path.suffix in MODEL_SUFFIXES else path


def weights_path(path: str | Path) -> Path:
    """The weights file of the model ``path`` names (``<stem>.pt``)."""
    stem = model_stem(path)
    return stem.with_name(stem.name + WEIGHTS_SUFFIX)


def description_path(path: str | Path) -> Path:
    """The description of the model ``path`` names (``<stem>.json``, which is also the zip's sidecar)."""
    stem = model_stem(path)
    return stem.with_name(stem.name + DESCRIPTION_SUFFIX)


def unsafe_zip_message(path: str | Path, switch: str) -> str:
    """Why a zip is not loaded and how to go on: convert it once, or load it with ``switch`` if it is trusted."""
    zip_file = model_stem(path).with_name(model_stem(path).name + ".zip")
    return (
        f"{str(zip_file)!r} is an SB3 zip, and loading one unpickles Python objects, which runs any code the file's "
        f"author put in it. Convert it once, if you trust it, with 'python -m scripts.convert_sb3 --model {zip_file}' "
        f"(it writes {weights_path(path).name} and {description_path(path).name}: tensors and JSON, which load "
        f"without running code), or load it as it is, only if you trust it, with {switch}"
    )


# -- describing and writing -----------------------------------------------------------------------
def algorithm_of_policy(policy: BasePolicy) -> str:
    """``"ppo"`` or ``"dqn"``: the algorithm whose policy ``policy`` is; ``ValueError`` for another policy."""
    if isinstance(policy, MaskedDQNPolicy):
        return "dqn"
    if isinstance(policy, MaskableActorCriticPolicy):
        return "ppo"
    raise ValueError(f"unsupported policy {type(policy).__name__}; expected MaskablePPO's or MaskedDQN's")


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


# -- reading and rebuilding -----------------------------------------------------------------------
def check_description(description: Any, source: str) -> dict[str, Any]:
    """``description`` if it is a policy description this module reads; ``ValueError`` naming ``source`` and the
    first thing wrong otherwise."""
    if not isinstance(description, dict):
        raise ValueError(f"{source}: 'policy' must be a JSON object, got {type(description).__name__}")
    if description.get("format") != FORMAT or description.get("version") != FORMAT_VERSION:
        raise ValueError(
            f"{source}: not a policy description of format {FORMAT!r} version {FORMAT_VERSION} (found "
            f"{description.get('format')!r} version {description.get('version')!r})"
        )
    expected: dict[str, type | tuple[type, ...]] = {
        "policy_class": str, "observation_space": dict, "action_space": dict, "net_arch": (list, dict),
        "activation_fn": str, "features_extractor_class": str, "features_extractor_kwargs": dict,
        "normalize_images": bool, "weights_sha256": str,
    }  # fmt: skip
    for key, kind in expected.items():
        if not isinstance(description.get(key), kind):
            found = description.get(key)
            raise ValueError(f"{source}: policy entry {key!r} is missing or of the wrong type ({found!r})")
    return description


def build_policy(description: dict[str, Any], source: str) -> BasePolicy:
    """The untrained policy ``description`` describes (on the CPU, in eval mode).

    Raises:
        ValueError: the description names a class this module does not rebuild, or settings the class refuses.
    """
    check_description(description, source)
    classes = {name: (algo, POLICY_CLASSES[algo]) for name, algo in KNOWN_POLICY_CLASSES.items()}
    algo, policy_class = _known(source, "policy_class", description["policy_class"], classes)
    kwargs: dict[str, Any] = {
        "net_arch": description["net_arch"],
        "activation_fn": _known(source, "activation_fn", description["activation_fn"], ACTIVATIONS),
        "features_extractor_class": _known(
            source, "features_extractor_class", description["features_extractor_class"], EXTRACTORS
        ),
        "features_extractor_kwargs": description["features_extractor_kwargs"],
        "normalize_images": description["normalize_images"],
    }
    if algo == "ppo":
        shared = bool(description.get("share_features_extractor", True))
        kwargs.update(ortho_init=False, share_features_extractor=shared)
    observation_space = _dict_space(description["observation_space"], source)
    action_space = spaces.Discrete(_positive_int(description["action_space"].get("n"), source, "action_space.n"))
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


def _known(source: str, what: str, name: str, known: dict[str, Any]) -> Any:
    if name not in known:
        raise ValueError(f"{source}: unknown {what} {name!r}; the safe format knows {sorted(known)}")
    return known[name]


def _positive_int(value: Any, source: str, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{source}: {what} must be a positive integer, got {value!r}")
    return value


def _dict_space(description: dict[str, Any], source: str) -> spaces.Dict:
    if not description:
        raise ValueError(f"{source}: observation_space must name at least one entry")
    return spaces.Dict({key: _box(box, source, f"observation_space.{key}") for key, box in description.items()})


def _box(description: Any, source: str, what: str) -> spaces.Box:
    if not isinstance(description, dict) or description.get("dtype") not in DTYPES:
        raise ValueError(f"{source}: {what} must be a Box description with a dtype in {list(DTYPES)}")
    shape = description.get("shape")
    if not isinstance(shape, list) or not shape:
        raise ValueError(f"{source}: {what}.shape must be a list of positive integers, got {shape!r}")
    shape = tuple(_positive_int(size, source, f"{what}.shape") for size in shape)
    dtype = np.dtype(description["dtype"])
    low, high = (_bounds(description.get(key), shape, dtype, source, f"{what}.{key}") for key in ("low", "high"))
    try:
        return spaces.Box(low, high, shape, dtype=dtype)
    except (TypeError, ValueError) as error:
        raise ValueError(f"{source}: {what} is not a valid Box ({error})") from None


def _bounds(value: Any, shape: tuple[int, ...], dtype: np.dtype, source: str, what: str) -> np.ndarray:
    """The bounds array of a Box in ``dtype`` (an integer Box's infinities become its dtype's extremes)."""
    values = value if isinstance(value, list) else [value]
    numbers = []
    for item in values:
        infinite = isinstance(item, str) and item in ("inf", "-inf")
        if not infinite and (isinstance(item, bool) or not isinstance(item, (int, float))):
            raise ValueError(f"{source}: {what} must be numbers ('inf', '-inf' allowed), got {item!r}")
        numbers.append(float(item))
    size = int(np.prod(shape))
    if len(numbers) not in (1, size):
        raise ValueError(f"{source}: {what} has {len(numbers)} numbers for shape {list(shape)} (1 or {size})")
    bounds = np.broadcast_to(np.array(numbers), (size,)).reshape(shape)
    if np.issubdtype(dtype, np.integer):
        bounds = np.clip(bounds, np.iinfo(dtype).min, np.iinfo(dtype).max)
    return bounds.astype(dtype)


def _no_learning(_progress: float) -> float:
    """The learning-rate schedule of a rebuilt policy: it plays and is not trained, so its optimizer never steps."""
    return 0.0


# -- playing --------------------------------------------------------------------------------------
class PolicyModel:
    """A policy loaded from the safe format, with the parts of an SB3 algorithm an agent plays through.

    Args:
        algo: ``"ppo"`` or ``"dqn"``.
        policy: The loaded policy.
        num_timesteps: The steps it was trained for (its card's).
        exploration_final_eps: DQN's final epsilon (used when an agent plays it stochastically).
    """

    def __init__(self, algo: str, policy: BasePolicy, num_timesteps: int = 0, exploration_final_eps: float = 0.0):
        self.algo, self.policy = algo, policy
        self.num_timesteps, self.exploration_final_eps = num_timesteps, exploration_final_eps
        self.observation_space, self.action_space = policy.observation_space, policy.action_space

    def predict(
        self,
        observation: dict[str, np.ndarray],
        state: tuple[np.ndarray, ...] | None = None,
        episode_start: np.ndarray | None = None,
        deterministic: bool = False,
        action_masks: np.ndarray | None = None,
    ) -> tuple[np.ndarray, tuple[np.ndarray, ...] | None]:
        """The policy's action(s) as ``MaskablePPO.predict`` gives them (a DQN's greedy legal action).

        Without ``action_masks`` both policies mask with ``observation["action_mask"]``, so SB3's own
        ``evaluate_policy(model, env)``, which passes none, plays only legal moves.
        """
        if self.algo == "dqn":
            return self.policy.predict(with_action_masks(observation, action_masks), state, episode_start, True)
        return self.policy.predict(observation, state, episode_start, deterministic, action_masks=action_masks)


__all__ = [
    "ACTIVATIONS",
    "DESCRIBED_POLICIES",
    "DESCRIPTION_SUFFIX",
    "EXTRACTORS",
    "FORMAT",
    "FORMAT_VERSION",
    "KNOWN_POLICY_CLASSES",
    "MODEL_SUFFIXES",
    "POLICY_CLASSES",
    "POLICY_CLASS_NAMES",
    "PolicyModel",
    "UnsafeModelError",
    "WEIGHTS_SUFFIX",
    "algorithm_of_policy",
    "build_policy",
    "check_description",
    "describe_policy",
    "description_path",
    "load_policy",
    "model_stem",
    "read_weights",
    "unsafe_zip_message",
    "weights_path",
    "write_weights",
]
