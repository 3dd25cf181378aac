"""Saving a trained SB3 model: the safe files, then SB3's zip with the card inside it.

:func:`save_model` writes three files, each atomically: ``<name>.pt`` (the policy's tensors) and ``<name>.json``
(the :class:`~baselines.learners.sb3.model_card.ModelCard` with a ``policy`` entry describing the network and the
digest of the weights), which together are the *safe model* (:mod:`baselines.learners.sb3.safe`), and last
``<name>.zip`` (SB3's own format, with the card inside it, which a training run resumes from). A reader in another
process (a self-play worker) that sees the zip finds its safe files complete, and a kill between the writes cannot
pair a zip with another model's card.
"""

from __future__ import annotations

import dataclasses
import zipfile
from pathlib import Path
from typing import Any

from stable_baselines3.common.base_class import BaseAlgorithm

from baselines.learners.sb3.model_card import CARD_IN_ZIP, ModelCard, card_json, model_card
from baselines.learners.sb3.model_files import description_path, weights_path, zip_path
from baselines.learners.sb3.safe_writer import describe_policy, write_weights
from baselines.runs import atomic_write, atomic_write_text
from boardenvs.core import Game


def save_model(model: BaseAlgorithm, path: str | Path, game: Game, wall_seconds: float = 0.0, **extra: Any) -> Path:
    """Save ``model`` as the safe files ``<path>.pt`` and ``<path>.json`` (:func:`save_safe_model`), then as
    ``<path>.zip`` with its card inside; each file appears atomically, in that order.

    Returns:
        The path of the zip file.
    """
    target = zip_path(path)
    card = model_card(model, game, wall_seconds, **extra)
    write_safe_files(model, target, card)
    inside = card_json(card, policy=False)

    def write_zip(temporary: Path) -> None:
        model.save(temporary)
        with zipfile.ZipFile(temporary, "a") as archive:
            archive.writestr(CARD_IN_ZIP, inside)

    atomic_write(target, write_zip)
    return target


def save_safe_model(
    model: BaseAlgorithm, path: str | Path, game: Game, wall_seconds: float = 0.0, **extra: Any
) -> Path:
    """Save ``model`` as the safe files only: ``<path>.pt`` (its tensors), then ``<path>.json`` (its card with the
    ``policy`` description); returns the ``.pt`` path."""
    return write_safe_files(model, path, model_card(model, game, wall_seconds, **extra))


def write_safe_files(model: BaseAlgorithm, path: str | Path, card: ModelCard) -> Path:
    """Write ``model``'s weights to ``<path>.pt``, then ``card`` with the policy's description to ``<path>.json``
    (each atomically; the description holds the weights' digest); returns the ``.pt`` path.

    Raises:
        ValueError: the policy uses a class or setting the safe format cannot rebuild.
    """
    describe_policy(model, "")  # refuse an unsupported policy before writing anything
    weights = weights_path(path)
    digest = write_weights(model.policy, weights)
    described = dataclasses.replace(card, policy=describe_policy(model, digest))
    atomic_write_text(description_path(path), card_json(described) + "\n")
    return weights


__all__ = [
    "save_model",
    "save_safe_model",
    "write_safe_files",
]
