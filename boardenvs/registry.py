"""The registry of games: ``make_game(name, **config)`` and ``list_games()``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from boardenvs.core import Game


@dataclass(frozen=True)
class GameEntry:
    """A registered game: its class, named config presets and the names of its env ids."""

    name: str
    game_class: type[Game]
    presets: dict[str, dict[str, Any]] = field(default_factory=dict)
    gym_name: str = ""  # CamelCase name used in "boardenvs/<GymName>-v<version>"
    heuristic_agent: str = ""  # "module:Class" of the game's scripted agent, imported lazily by the adapters


_REGISTRY: dict[str, GameEntry] = {}


def register_game(
    name: str,
    game_class: type[Game],
    presets: dict[str, dict[str, Any]] | None = None,
    gym_name: str | None = None,
    heuristic_agent: str = "",
) -> GameEntry:
    """Add a game to the registry (called once per game by ``boardenvs.games``).

    ``heuristic_agent`` is the ``"module:Class"`` path of the game's scripted agent (a class or factory called
    with no arguments); the single-agent env imports it lazily for ``opponent="heuristic"``.
    """
    if name in _REGISTRY:
        raise ValueError(f"game {name!r} is already registered")
    gym_name = gym_name or name.title().replace("_", "")
    entry = GameEntry(name, game_class, dict(presets or {}), gym_name, heuristic_agent)
    _REGISTRY[name] = entry
    return entry


def game_entry(name: str) -> GameEntry:
    """The registry entry of ``name``; ``ValueError`` listing the known games otherwise."""
    try:
        return _REGISTRY[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}; available games: {list_games()}") from None


def list_games() -> list[str]:
    """Names of all registered games, sorted."""
    return sorted(_REGISTRY)


def list_presets(name: str) -> list[str]:
    """Names of the config presets of game ``name``."""
    return sorted(game_entry(name).presets)


def make_game(name: str, preset: str | None = None, **config: Any) -> Game:
    """Create game ``name`` with a named ``preset`` and/or config fields (fields override the preset)."""
    entry = game_entry(name)
    settings: dict[str, Any] = {}
    if preset is not None:
        if preset not in entry.presets:
            raise ValueError(f"unknown preset {preset!r} for game {name!r}; presets: {list_presets(name)}")
        settings.update(entry.presets[preset])
    settings.update(config)
    return entry.game_class(**settings)
