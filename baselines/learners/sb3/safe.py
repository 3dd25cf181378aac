"""Trained SB3 policies as tensors and JSON: saved and loaded without unpickling anything.

An SB3 ``.zip`` stores Python objects with (cloud)pickle, and unpickling a file runs whatever code its author put in
it: loading a zip from someone else is running their program. The safe format is two files side by side:

- ``<stem>.pt``: the policy's ``state_dict`` (names and tensors only), written by ``torch.save`` and read by
  ``torch.load(weights_only=True)``, whose unpickler builds tensors and plain containers and refuses anything else;
- ``<stem>.json``: the model card (game, config, algorithm, steps, shapes, the run's settings; see
  :class:`~baselines.learners.sb3.model_card.ModelCard`) with a ``policy`` entry that describes the network: the policy
  class, its observation and action spaces, the features extractor and its settings, the net arch, the activation,
  the DQN's final epsilon, and the SHA-256 of the weights file.

Our code rebuilds the policy from that description (only the classes named in :data:`KNOWN_POLICY_CLASSES`,
:data:`EXTRACTORS` and :data:`ACTIVATIONS`: a description names classes, it never imports one) and loads the weights
into it. The policies it rebuilds (:data:`POLICY_CLASSES`) mask themselves with the observation's ``action_mask``
when ``predict`` is given no ``action_masks``, so SB3's own ``evaluate_policy`` plays a loaded model legally. The
digest ties the two files together: a weights file cut short, zeroed, changed or left over from another save is
refused before torch reads it. Every damaged or foreign file is a ``ValueError`` naming it.

This module defines the format (its name and version, the classes a description may name) and the error for a
file that only unpickling would read. The format's rooms: :mod:`baselines.learners.sb3.safe_writer` describes a
policy and writes its weights, :mod:`baselines.learners.sb3.safe_validation` checks a description and rebuilds its
spaces, :mod:`baselines.learners.sb3.safe_reader` rebuilds the policy and loads its weights, and
:class:`~baselines.learners.sb3.policy_model.PolicyModel` is what a loaded policy plays through.
"""

from __future__ import annotations

from pathlib import Path

from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy, MaskableMultiInputActorCriticPolicy
from stable_baselines3.common.policies import BasePolicy
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor, CombinedExtractor
from torch import nn

from baselines.learners.sb3.dqn import MaskedDQNPolicy
from baselines.learners.sb3.model_files import description_path, model_stem, weights_path
from baselines.learners.sb3.policies import PlanesExtractor, VectorExtractor
from baselines.learners.sb3.ppo import SelfMaskingMultiInputPolicy

FORMAT = "boardenvs-sb3-policy"
"""The ``format`` of a policy description."""
FORMAT_VERSION = 1
"""The ``version`` of a policy description this module reads and writes."""
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


def unsafe_zip_message(path: str | Path, switch: str) -> str:
    """Why a zip is not loaded and how to go on: convert it once, or load it with ``switch`` if it is trusted."""
    zip_file = model_stem(path).with_name(model_stem(path).name + ".zip")
    return (
        f"{str(zip_file)!r} is an SB3 zip, and loading one unpickles Python objects, which runs any code the file's "
        f"author put in it. Convert it once, if you trust it, with 'python -m scripts.convert_sb3 --model {zip_file}' "
        f"(it writes {weights_path(path).name} and {description_path(path).name}: tensors and JSON, which load "
        f"without running code), or load it as it is, only if you trust it, with {switch}"
    )


def algorithm_of_policy(policy: BasePolicy) -> str:
    """``"ppo"`` or ``"dqn"``: the algorithm whose policy ``policy`` is; ``ValueError`` for another policy."""
    if isinstance(policy, MaskedDQNPolicy):
        return "dqn"
    if isinstance(policy, MaskableActorCriticPolicy):
        return "ppo"
    raise ValueError(f"unsupported policy {type(policy).__name__}; expected MaskablePPO's or MaskedDQN's")


__all__ = [
    "ACTIVATIONS",
    "DESCRIBED_POLICIES",
    "DTYPES",
    "EXTRACTORS",
    "FORMAT",
    "FORMAT_VERSION",
    "KNOWN_POLICY_CLASSES",
    "POLICY_CLASSES",
    "POLICY_CLASS_NAMES",
    "UnsafeModelError",
    "algorithm_of_policy",
    "unsafe_zip_message",
]
