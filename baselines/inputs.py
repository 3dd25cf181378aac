"""A run's inputs read from text: a game config from ``key=value`` strings, the game it names (errors naming the
setting that is wrong), and comma-separated name lists. Scripts and the library's run functions share them.
"""

from __future__ import annotations

import ast
from typing import Any

from boardenvs.core import Game
from boardenvs.registry import game_entry, make_game


def parse_config(pairs: list[str]) -> dict[str, Any]:
    """Game config from ``key=value`` strings; values are read as Python literals when possible.

    Example:
        >>> parse_config(["board_size=5", "preset=small", "teams=True"])
        {'board_size': 5, 'preset': 'small', 'teams': True}
    """
    config: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise ValueError(f"config entries must look like key=value, got {pair!r}")
        try:
            config[key] = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            config[key] = value
    return config


def checked_game(game_name: str, config: list[str]) -> tuple[Game, dict[str, Any]]:
    """The game ``game_name`` with the ``key=value`` ``config`` and the config as a dict; a ``ValueError`` that
    starts with ``game:`` or ``config [...]:`` names the setting that is wrong."""
    try:
        game_entry(game_name)
    except ValueError as error:
        raise ValueError(f"game: {error}") from None
    try:
        parsed = parse_config(config)
        return make_game(game_name, **parsed), parsed
    except (TypeError, ValueError) as error:
        raise ValueError(f"config {config}: {error}") from None


def split_names(text: str) -> list[str]:
    """The names in a comma-separated list, stripped, empty entries dropped, repeats removed.

    >>> split_names(" random, heuristic,,random ")
    ['random', 'heuristic']
    """
    return list(dict.fromkeys(name.strip() for name in text.split(",") if name.strip()))
