"""The AlphaZero networks shipped with the package, one per game config they were trained for.

``make_agent("alphazero:pretrained", game_name)`` plays the one whose game and config equal the game it is
asked to play. The files live in ``baselines/learners/alphazero/models/`` next to ``index.json``, which records
for each file its game, config, the command that trained it and where its results are written up
(``docs/results/alphazero.md``). :func:`ship` adds a checkpoint to the folder (``scripts/ship_alphazero.py``).
The folder is a :class:`baselines.pretrained.Shelf`, as the SB3 models' is.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from baselines.pretrained import INDEX, Shelf
from boardenvs.core import Game

PRETRAINED = "pretrained"
"""The ``checkpoint`` value of :class:`~baselines.learners.alphazero.agent.AlphaZeroAgent` that picks a shipped
network."""
MODELS_DIR = Path(__file__).resolve().parent / "models"
LABEL = "alphazero:pretrained"
"""The agent spec of the shipped networks (the head of the shelf's error messages)."""


def shelf(models_dir: Path = MODELS_DIR) -> Shelf:
    """The shelf of AlphaZero networks in ``models_dir``."""
    return Shelf(Path(models_dir), LABEL, "network")


def shipped(models_dir: Path = MODELS_DIR) -> list[dict[str, Any]]:
    """The index entries: ``file``, ``game``, ``config``, ``command``, ``notes``."""
    return shelf(models_dir).entries()


def pretrained_checkpoint(game: Game, models_dir: Path = MODELS_DIR) -> Path:
    """The shipped checkpoint trained for ``game``'s name and config.

    Raises:
        ValueError: none is shipped for that config; the message names the configs that have one.
    """
    return shelf(models_dir).find(game)


def ship(checkpoint: str | Path, command: str, notes: str = "", models_dir: Path = MODELS_DIR) -> Path:
    """Copy ``checkpoint`` (a trainer's ``best.pt``) into ``models_dir`` and record it in the index, replacing
    the entry of the same game and config."""
    from baselines.learners.alphazero.network import load_checkpoint

    _, metadata = load_checkpoint(checkpoint)
    return shelf(models_dir).ship(checkpoint, metadata["game"], metadata["game_config"], command, notes)


__all__ = ["INDEX", "LABEL", "MODELS_DIR", "PRETRAINED", "pretrained_checkpoint", "ship", "shelf", "shipped"]
