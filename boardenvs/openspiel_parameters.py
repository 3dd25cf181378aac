"""The parameters of the boardenvs games in OpenSpiel: which config fields OpenSpiel carries, their defaults, and the
check that runs before a value reaches OpenSpiel's C++ side (:func:`check_parameters`, and :func:`load_game`, which
importing :mod:`boardenvs.openspiel` installs as ``pyspiel.load_game``).

Every int, float, bool or string field of a game's config is a parameter with the config's default (an optional int
field takes ``-1`` for "the game's default"), plus ``preset`` (``""`` = none) for games with presets and
``chance_outcomes``. An unknown name or a wrong type is an error naming the parameter; a bad value is the game
config's error naming the field and its allowed range; an int OpenSpiel cannot hold (2**31 or more) is refused here.
"""

from __future__ import annotations

import dataclasses
import re
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

import numpy as np
import pyspiel

from boardenvs.core import Game
from boardenvs.registry import game_entry, list_games, list_presets, make_game

PREFIX = "boardenvs_"
"""OpenSpiel name of game ``name``: ``PREFIX + name``."""
DEFAULT_CHANCE_OUTCOMES = 64
C_INT_MIN, C_INT_MAX = -(2**31), 2**31 - 1
"""The ints an OpenSpiel game parameter can hold (C++ ``int``)."""
MAX_CHANCE_OUTCOMES = 1 << 20
UNSET_INT = -1
"""Value of an optional int config field that means ``None`` (the game's own default)."""
_RESERVED = ("preset", "chance_outcomes")
_PYSPIEL_LOAD_GAME: Callable[..., Any] = getattr(pyspiel, "_boardenvs_unchecked_load_game", pyspiel.load_game)
"""OpenSpiel's own ``load_game`` (kept once, so reloading this module does not wrap the wrapper)."""


# -- parameters ------------------------------------------------------------------------------------
class ConfigParameter(NamedTuple):
    """One scalar config field offered as an OpenSpiel parameter."""

    name: str
    default: Any
    """The OpenSpiel default: the field's default, or ``UNSET_INT`` / ``""`` for an optional field."""
    optional: bool
    """True when ``UNSET_INT`` / ``""`` stands for ``None``."""


def openspiel_name(name: str) -> str:
    """The OpenSpiel short name of boardenvs game ``name``."""
    return PREFIX + name


def _scalar_type(hint: Any) -> tuple[type | None, bool]:
    """``(type, optional)`` of a config field annotation: ``int``, ``float``, ``bool``, ``str``, or ``None``."""
    optional = False
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        args = [arg for arg in typing.get_args(hint) if arg is not type(None)]
        optional = len(args) < len(typing.get_args(hint))
        hint = args[0] if len(args) == 1 else None
    return (hint if hint in (bool, int, float, str) else None), optional


def config_parameters(config_class: type) -> tuple[ConfigParameter, ...]:
    """The config fields that OpenSpiel can carry (ints, floats, bools, strings and optional ints/strings)."""
    hints = typing.get_type_hints(config_class)
    offered = []
    for field in dataclasses.fields(config_class):
        kind, optional = _scalar_type(hints.get(field.name))
        if kind is None or field.default is dataclasses.MISSING or field.name in _RESERVED:
            continue
        if field.default is None:
            if kind not in (int, str):
                continue
            default: Any = UNSET_INT if kind is int else ""
        else:
            default = field.default
        offered.append(ConfigParameter(field.name, default, field.default is None and optional))
    return tuple(offered)


def parameter_specification(name: str) -> dict[str, Any]:
    """The OpenSpiel parameters of game ``name`` with their defaults."""
    spec = {p.name: p.default for p in config_parameters(game_entry(name).game_class.config_class)}
    if list_presets(name):
        spec["preset"] = ""
    spec["chance_outcomes"] = DEFAULT_CHANCE_OUTCOMES
    return spec


def _full_parameters(name: str, params: dict[str, Any] | None) -> dict[str, Any]:
    """``params`` with the defaults filled in; ``ValueError`` naming unknown parameters."""
    spec = parameter_specification(name)
    unknown = sorted(set(params or {}) - set(spec))
    if unknown:
        raise ValueError(f"unknown parameter(s) {unknown} for {openspiel_name(name)}; parameters: {sorted(spec)}")
    return {**spec, **(params or {})}


def _checked_chance_outcomes(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_CHANCE_OUTCOMES:
        raise ValueError(f"chance_outcomes must be an int in 1..{MAX_CHANCE_OUTCOMES}, got {value!r}")
    return value


def _typed_parameter(key: str, value: Any, default: Any) -> Any:
    """``value`` as the Python type of the parameter's ``default`` (numpy scalars converted), or ``TypeError``
    naming ``key``: OpenSpiel carries bools, ints and strings and refuses one for another."""
    kind = type(default)
    if kind is bool and isinstance(value, (bool, np.bool_)):
        return bool(value)
    if kind is int and isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        return int(value)
    if kind is str and isinstance(value, str):
        return value
    article = "an" if kind is int else "a"
    raise TypeError(f"parameter {key} must be {article} {kind.__name__}, got {value!r} ({type(value).__name__})")


def check_parameters(name: str, params: Mapping[str, Any] | None) -> dict[str, Any]:
    """Every OpenSpiel parameter of game ``name``: ``params`` checked, with the defaults filled in.

    This runs before any value reaches OpenSpiel's C++ side (whose ints are 32-bit and whose errors name no
    parameter): unknown names, wrong types, ``chance_outcomes`` and every config value (by the game's config,
    whose error names the field and its allowed range) are refused here.

    Raises:
        ValueError: an unknown parameter, or a value out of its range (the message names both).
        TypeError: a value of the wrong type (a bool for an int, a float, a numpy array, ...).
    """
    return checked_parameters(name, params)[0]


def checked_parameters(name: str, params: Mapping[str, Any] | None) -> tuple[dict[str, Any], Game]:
    """:func:`check_parameters` and the boardenvs game the parameters describe."""
    spec = parameter_specification(name)
    full = _full_parameters(name, dict(params) if params is not None else None)
    full = {key: _typed_parameter(key, full[key], default) for key, default in spec.items()}
    _checked_chance_outcomes(full["chance_outcomes"])
    engine = engine_game(name, full)  # the config refuses a bad value naming the field and its range
    for key, value in full.items():
        if isinstance(value, int) and not isinstance(value, bool) and not C_INT_MIN <= value <= C_INT_MAX:
            raise ValueError(f"parameter {key} must be in {C_INT_MIN}..{C_INT_MAX} (OpenSpiel's int), got {value}")
    return full, engine


def _boardenvs_name(short_name: str) -> str | None:
    """The boardenvs game that the OpenSpiel ``short_name`` names, or ``None`` for another game."""
    name = short_name[len(PREFIX) :] if short_name.startswith(PREFIX) else None
    return name if name is not None and name in list_games() else None


def _parameter_from_text(text: str) -> Any:
    """A parameter value written in a game string, read as OpenSpiel reads it (``GameParameterFromString``)."""
    if text in ("True", "true", "False", "false"):
        return text in ("True", "true")
    if text and set(text) <= set("+-0123456789"):
        try:
            return int(text)
        except ValueError:
            return text  # OpenSpiel refuses it itself
    if text and set(text) <= set("+-0123456789."):
        try:
            return float(text)
        except ValueError:
            return text
    return text


def _parameters_from_string(text: str) -> tuple[str, dict[str, Any] | None]:
    """``("boardenvs_quoridor", {"board_size": 5})`` from ``"boardenvs_quoridor(board_size=5)"``; a string
    without parameters (or with nested ones, which no boardenvs game has) gives ``None`` for them."""
    match = re.fullmatch(r"([^()]+)\(([^()]*)\)", text.strip())
    if match is None:
        return text.strip(), None
    params: dict[str, Any] = {}
    for part in filter(None, match.group(2).split(",")):
        key, _, value = part.partition("=")
        params[key.strip()] = _parameter_from_text(value.strip())
    return match.group(1).strip(), params


def load_game(game: Any, params: Mapping[str, Any] | None = None) -> pyspiel.Game:
    """``pyspiel.load_game`` with a boardenvs game's parameters checked first (:func:`check_parameters`).

    Importing this module installs it as ``pyspiel.load_game``: OpenSpiel converts parameters to C++ types
    before any Python code of the game runs, so a value it cannot hold (an int of 2**31 or more) would fail
    there with an error naming no parameter. Other games, and a ``GameParametersStruct``, pass through unchanged.
    """
    if isinstance(game, str):
        short_name, written = _parameters_from_string(game) if params is None else (game, dict(params))
        name = _boardenvs_name(short_name)
        if name is not None and written is not None:
            full = check_parameters(name, written)
            params = None if params is None else {key: full[key] for key in params}
    return _PYSPIEL_LOAD_GAME(game) if params is None else _PYSPIEL_LOAD_GAME(game, params)


def engine_game(name: str, params: dict[str, Any]) -> Game:
    """The boardenvs game that the OpenSpiel parameters ``params`` (all of them, defaults included) describe.

    Only fields that differ from their defaults are passed on, so a preset's values stand unless overridden.
    """
    config = {}
    for parameter in config_parameters(game_entry(name).game_class.config_class):
        value = params[parameter.name]
        if value != parameter.default:  # an optional field at UNSET_INT / "" keeps its default, None
            config[parameter.name] = value
    return make_game(name, preset=params.get("preset") or None, **config)


def install_checked_load_game() -> None:
    """Make ``pyspiel.load_game`` the checked :func:`load_game` (once; importing this module does it)."""
    pyspiel._boardenvs_unchecked_load_game = _PYSPIEL_LOAD_GAME  # type: ignore[attr-defined]
    pyspiel.load_game = load_game
