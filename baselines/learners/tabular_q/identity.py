"""What a trained file records about the game it was trained for, and the check of that record when it is read.

Tabular Q tables and QLNN networks (:mod:`baselines.learners.qlnn`) both save :func:`game_identity` and refuse to
play another game than the one it names.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from boardenvs.core import Game


def game_identity(game: Game) -> dict[str, Any]:
    """What a table records about its game: name, version, config (JSON form), action count, observation shape."""
    config = json.loads(json.dumps(dataclasses.asdict(game.config), default=str))
    spec = game.spec
    return {
        "name": spec.name,
        "version": spec.version,
        "config": config,
        "num_actions": spec.num_actions,
        "observation_shape": list(spec.observation_shape),
    }


def game_identity_problem(game: Any) -> str | None:
    """What is wrong with a game identity read from a file (:func:`game_identity`'s form), or ``None``."""
    if not isinstance(game, dict) or not isinstance(game.get("name"), str) or not isinstance(game.get("config"), dict):
        return "its game has no name or config"
    if not _is_positive_int(game.get("num_actions")) or not _is_int(game.get("version")):
        return "its game's num_actions or version is not an integer (num_actions >= 1)"
    shape = game.get("observation_shape")
    if not isinstance(shape, list) or not shape or not all(map(_is_positive_int, shape)):
        return f"its game's observation_shape {shape!r} is not a list of sizes"
    return None


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_positive_int(value: Any) -> bool:
    return _is_int(value) and value >= 1
