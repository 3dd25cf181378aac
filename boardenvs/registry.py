"""The registry of games and of the named opponents their environments can play against.

``make_game(name, **config)`` and ``list_games()`` find games; ``register_game`` adds one (``boardenvs.games``
registers the five built-in games).

Opponents are a hook for agent packages: ``register_opponent(game, name, factory)`` makes ``name`` a valid
``opponent=`` of the game's single-agent environment. ``boardenvs`` names no agent package itself: the first time
an opponent is looked up, it calls every function advertised under the ``boardenvs.opponents`` entry-point group
of the installed packages (this project's agent package advertises its scripted agents there, see
``pyproject.toml``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import metadata
from typing import Any

from boardenvs.core import Game

OPPONENT_ENTRY_POINTS = "boardenvs.opponents"
"""Entry-point group of functions that register opponents (each is called once, with no arguments)."""


@dataclass(frozen=True)
class GameEntry:
    """A registered game: its class, named config presets and the name of its Gymnasium env id."""

    name: str
    game_class: type[Game]
    presets: dict[str, dict[str, Any]] = field(default_factory=dict)
    gym_name: str = ""  # CamelCase name used in "boardenvs/<GymName>-v<version>"


_REGISTRY: dict[str, GameEntry] = {}
_OPPONENTS: dict[str, dict[str, Callable[[], Any]]] = {}
_DEFAULT_OPPONENT: dict[str, str] = {}
_PLUGINS_LOADED: list[bool] = [False]


def register_game(
    name: str,
    game_class: type[Game],
    presets: dict[str, dict[str, Any]] | None = None,
    gym_name: str | None = None,
) -> GameEntry:
    """Add a game to the registry (called once per game by ``boardenvs.games``)."""
    if name in _REGISTRY:
        raise ValueError(f"game {name!r} is already registered")
    gym_name = gym_name or name.title().replace("_", "")
    entry = GameEntry(name, game_class, dict(presets or {}), gym_name)
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


# -- opponents ------------------------------------------------------------------------------------
def register_opponent(game_name: str, name: str, factory: Callable[[], Any], *, default: bool = False) -> None:
    """Make ``name`` an opponent of game ``game_name``: ``factory()`` returns a fresh agent.

    ``default=True`` also makes it the game's ``"heuristic"`` opponent (the name ``"heuristic"`` itself is allowed
    only for the default). ``"random"`` is the environments' own. Registering a name again replaces it.
    """
    if not name or name == "random" or (name == "heuristic" and not default):
        raise ValueError(
            f"opponent name must be non-empty, not 'random', and 'heuristic' only as the default; got {name!r}"
        )
    if not callable(factory):
        raise TypeError(f"factory must be callable, got {type(factory).__name__}")
    _OPPONENTS.setdefault(game_name, {})[name] = factory
    if default:
        _DEFAULT_OPPONENT[game_name] = name


def list_opponents(game_name: str) -> list[str]:
    """The registered opponent names of ``game_name`` (``"heuristic"`` first when it has a default)."""
    _load_opponent_plugins()
    names = sorted(set(_OPPONENTS.get(game_name, {})) - {"heuristic"})
    return (["heuristic"] if game_name in _DEFAULT_OPPONENT else []) + names


def make_opponent_agent(game_name: str, name: str) -> Any:
    """A fresh agent of the opponent ``name`` registered for ``game_name`` (``"heuristic"``: the default one).

    Raises:
        ValueError: No such opponent is registered; the message lists those that are.
    """
    _load_opponent_plugins()
    key = _DEFAULT_OPPONENT.get(game_name, name) if name == "heuristic" else name
    factory = _OPPONENTS.get(game_name, {}).get(key)
    if factory is None:
        known = ["random", *list_opponents(game_name)]
        raise ValueError(f"game {game_name!r} has no registered opponent {name!r}; opponents: {known}")
    return factory()


def _load_opponent_plugins() -> None:
    """Call every ``boardenvs.opponents`` entry point once (each registers its packages' opponents)."""
    if _PLUGINS_LOADED[0]:
        return
    _PLUGINS_LOADED[0] = True
    for entry_point in metadata.entry_points(group=OPPONENT_ENTRY_POINTS):
        try:
            entry_point.load()()
        except Exception as error:
            plugin = f"{entry_point.value!r} ({OPPONENT_ENTRY_POINTS})"
            raise RuntimeError(f"the opponent plugin {plugin} failed: {error}") from error
