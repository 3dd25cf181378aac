"""Checking what a browser sends the live arena: every field of a request is validated before anything changes.

An unknown game, config value, agent or field, a malformed value or an agent spec that would load a file is
refused with a :class:`RequestError` (an HTTP status and a message naming what was wrong), which leaves every game
unchanged. Whether a move is legal, the sender's and fresh is checked by the arena itself
(:mod:`baselines.web.sessions`), against the game it holds.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from baselines.factory import CLASS_PREFIX, RLLIB_PREFIX, SB3_PREFIX, expand_pretrained, parse_spec
from boardenvs.core import Game
from boardenvs.registry import list_games, list_presets, make_game
from boardenvs.replay import config_from_json

HUMAN = "human"
"""The seat spec of a person playing in the browser."""
FILE_SETTINGS = frozenset({"checkpoint", "model", "weights", "table"})
"""Agent settings that name a file to load (only ``pretrained`` is allowed from a browser)."""


class RequestError(Exception):
    """A request the arena refuses: ``status`` is the HTTP status, the message says what was wrong."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def check_fields(body: Any, allowed: set[str], where: str) -> Mapping[str, Any]:
    """``body`` as a JSON object with no fields but ``allowed``; 400 otherwise."""
    if not isinstance(body, Mapping):
        raise RequestError(400, f"{where}: the request body must be a JSON object")
    unknown = sorted(set(body) - allowed)
    if unknown:
        raise RequestError(400, f"{where}: unknown field(s) {unknown}; allowed: {sorted(allowed)}")
    return body


def int_field(body: Mapping[str, Any], name: str, low: int, high: int, required: bool = True) -> int | None:
    """The integer field ``name`` of ``body`` in ``low..high``; 400 naming it otherwise."""
    if name not in body or body[name] is None:
        if required:
            raise RequestError(400, f"field {name!r} is required (an integer in {low}..{high})")
        return None
    value = body[name]
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise RequestError(400, f"field {name!r} must be an integer in {low}..{high}, got {value!r}")
    return value


def check_agent_spec(spec: Any, game_name: str, allowed: tuple[str, ...]) -> str:
    """A seat's spec from a browser: ``human``, a spec the server allowed, or an agent spec naming no file."""
    if not isinstance(spec, str) or not spec.strip() or len(spec) > 200:
        raise RequestError(400, f"seats: each seat must be 'human' or an agent spec (text), got {spec!r}")
    spec = spec.strip()
    if spec == HUMAN or spec in allowed:
        return spec
    if spec.startswith((SB3_PREFIX, RLLIB_PREFIX)):
        raise RequestError(403, f"seats: {spec!r} loads a file; only the specs the server was started with "
                                f"(--allow-agent) may: {list(allowed)}")  # fmt: skip
    if spec.startswith(CLASS_PREFIX):
        raise RequestError(403, f"seats: {spec!r} imports code; only the specs the server was started with "
                                f"(--allow-agent) may: {list(allowed)}")  # fmt: skip
    try:
        name, settings = parse_spec(expand_pretrained(spec))
    except ValueError as error:
        raise RequestError(400, f"seats: {error}") from None
    for key, value in settings.items():
        if (key in FILE_SETTINGS and value != "pretrained") or _looks_like_path(value):
            raise RequestError(403, f"seats: {spec!r} names a file ({key}={value}); only 'pretrained' or the specs "
                                    f"the server was started with (--allow-agent) may load files")  # fmt: skip
    del name
    return spec


def _looks_like_path(value: Any) -> bool:
    return isinstance(value, str) and any(mark in value for mark in ("/", "\\", "~", ".."))


def build_game(body: Mapping[str, Any], max_plies: int) -> Game:
    """The game a create request names (``game``, ``preset``, ``config``); 400 naming what is wrong."""
    name = body.get("game")
    if name not in list_games():
        raise RequestError(400, f"game: unknown game {name!r}; games: {list_games()}")
    preset = body.get("preset")
    if preset is not None and preset not in list_presets(name):
        raise RequestError(400, f"preset: {name} has no preset {preset!r}; presets: {list_presets(name)}")
    config = body.get("config") or {}
    if not isinstance(config, Mapping):
        raise RequestError(400, "config: must be a JSON object of config fields")
    try:
        game = make_game(name, preset, **config_from_json(config))
    except (TypeError, ValueError) as error:
        raise RequestError(400, f"config: {error}") from None
    if game.spec.max_game_length > max_plies:
        raise RequestError(400, f"config: games longer than {max_plies} plies are not served "
                                f"(this config's move cap is {game.spec.max_game_length})")  # fmt: skip
    return game
