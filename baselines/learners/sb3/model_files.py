"""The files of a saved SB3 model and how a path names them.

A model saved by :func:`~baselines.learners.sb3.saving.save_model` is up to three files with one stem:
``<stem>.pt`` (the policy's tensors) and ``<stem>.json`` (its card and the policy's description), the *safe model*
(:mod:`baselines.learners.sb3.safe`), and ``<stem>.zip`` (SB3's own format). A path with any of those suffixes, or
with none, names the same model; these functions turn it into the path of each file.
"""

from __future__ import annotations

from pathlib import Path

WEIGHTS_SUFFIX = ".pt"
"""The suffix of a safe model's weights file."""
DESCRIPTION_SUFFIX = ".json"
"""The suffix of a safe model's description (its model card with the ``policy`` entry)."""
MODEL_SUFFIXES: tuple[str, ...] = (".zip", WEIGHTS_SUFFIX, DESCRIPTION_SUFFIX)
"""The suffixes of a model's files; a path with any of them, or with none, names the same model."""


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


def zip_path(path: str | Path) -> Path:
    """The SB3 zip of the model ``path`` names: ``runs/x/model``, ``model.pt`` or ``model.json`` -> ``model.zip``."""
    stem = model_stem(path)
    return stem.with_name(stem.name + ".zip")


def sidecar_path(model_path: str | Path) -> Path:
    """The JSON sidecar of a model, which is also its safe description: ``runs/x/model.zip`` → ``runs/x/model.json``."""
    return description_path(model_path)


__all__ = [
    "DESCRIPTION_SUFFIX",
    "MODEL_SUFFIXES",
    "WEIGHTS_SUFFIX",
    "description_path",
    "model_stem",
    "sidecar_path",
    "weights_path",
    "zip_path",
]
