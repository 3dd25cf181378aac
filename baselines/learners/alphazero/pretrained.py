"""The AlphaZero networks shipped with the package, one per game config they were trained for.

``make_agent("alphazero:pretrained", game_name)`` plays the one whose game and config equal the game it is
asked to play. The files live in ``baselines/learners/alphazero/models/`` next to ``index.json``, which records
for each file its game, config, the command that trained it and where its results are written up
(``docs/results/alphazero.md``). :func:`ship` adds a checkpoint to the folder (``scripts/ship_alphazero.py``).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

from boardenvs.core import Game

PRETRAINED = "pretrained"
"""The ``checkpoint`` value of :class:`~baselines.learners.alphazero.agent.AlphaZeroAgent` that picks a shipped
network."""
MODELS_DIR = Path(__file__).resolve().parent / "models"
INDEX = "index.json"


def shipped(models_dir: Path = MODELS_DIR) -> list[dict[str, Any]]:
    """The index entries: ``file``, ``game``, ``config``, ``command``, ``notes``."""
    path = models_dir / INDEX
    if not path.is_file():
        return []
    return json.loads(path.read_text())


def pretrained_checkpoint(game: Game, models_dir: Path = MODELS_DIR) -> Path:
    """The shipped checkpoint trained for ``game``'s name and config.

    Raises:
        ValueError: none is shipped for that config; the message names the configs that have one.
    """
    config = dataclasses.asdict(game.config)
    entries = [entry for entry in shipped(models_dir) if entry["game"] == game.spec.name]
    for entry in entries:
        if entry["config"] == config:
            return models_dir / entry["file"]
    if not entries:
        games = sorted({entry["game"] for entry in shipped(models_dir)})
        raise ValueError(f"alphazero:pretrained: no network is shipped for {game.spec.name!r}; games with one: {games}")
    configs = "; ".join(str(_non_default(entry["config"], game)) for entry in entries)
    raise ValueError(
        f"alphazero:pretrained: no network is shipped for {game.spec.name} with config {_non_default(config, game)}; "
        f"configs with one (settings that differ from the defaults): {configs}"
    )


def _non_default(config: dict[str, Any], game: Game) -> dict[str, Any]:
    """The entries of ``config`` that differ from the game's default config."""
    defaults = dataclasses.asdict(type(game.config)())
    return {key: value for key, value in config.items() if defaults.get(key) != value}


def ship(checkpoint: str | Path, command: str, notes: str = "", models_dir: Path = MODELS_DIR) -> Path:
    """Copy ``checkpoint`` (a trainer's ``best.pt``) into ``models_dir`` and record it in the index, replacing
    the entry of the same game and config."""
    from baselines.learners.alphazero.network import load_checkpoint

    _, metadata = load_checkpoint(checkpoint)
    game, config = metadata["game"], metadata["game_config"]
    entries = [entry for entry in shipped(models_dir) if (entry["game"], entry["config"]) != (game, config)]
    digest = hashlib.sha1(json.dumps(config, sort_keys=True).encode()).hexdigest()[:8]
    name = f"{game}_{digest}.pt"
    models_dir.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(checkpoint, models_dir / name)
    entries.append({"file": name, "game": game, "config": config, "command": command, "notes": notes})
    (models_dir / INDEX).write_text(json.dumps(entries, indent=2) + "\n")
    return models_dir / name
