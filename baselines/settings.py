"""Script arguments turned into the library's settings dataclasses, one field at a time, the same way everywhere.

A script reads its command line into an ``Args`` dataclass (one flag per field); the library takes a settings
dataclass (``QSettings``, ``AlphaZeroSettings``, ``SB3RunSettings``, ...). :func:`settings_from` fills every
field of the settings from the argument of the same name, so adding a setting means adding one field to each,
and a settings field the arguments lack is an error rather than a silently kept default. :func:`parse_config`
reads a game config given as ``key=value`` strings, :func:`checked_game` builds the game a run names (errors
naming the setting), :func:`split_names` reads a comma-separated list of names.

Example:
    >>> from dataclasses import dataclass
    >>> @dataclass
    ... class Settings:
    ...     rate: float = 0.1
    ...     rounds: int = 10
    ...     decay: float = 0.0
    >>> @dataclass
    ... class Args:
    ...     rate: float = 0.5
    ...     games: int = 3
    ...     out: str = "runs"
    >>> settings_from(Args(), Settings, renames={"rounds": "games"}, defaults=["decay"])
    Settings(rate=0.5, rounds=3, decay=0.0)
    >>> settings_from(Args(), Settings, renames={"rounds": "games"})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: Args has no field 'decay' for the setting Settings.decay ('decay'): add the argument, ...
"""

from __future__ import annotations

import ast
import dataclasses
import typing
from collections.abc import Iterable, Mapping
from typing import Any, TypeVar

from boardenvs.core import Game
from boardenvs.registry import game_entry, make_game

S = TypeVar("S")


def settings_from(
    args: Any, cls: type[S], *, renames: Mapping[str, str] | None = None, defaults: Iterable[str] = ()
) -> S:
    """The ``cls`` settings whose fields take the values of the same-named fields of the dataclass ``args``.

    A settings field whose type is itself a dataclass (nested settings) and that ``args`` does not have is
    built the same way from ``args``; its fields are named by their path, ``"selfplay.simulations"``. Fields
    of ``args`` that no setting uses (an output folder, a progress flag) are ignored.

    Args:
        args: the script's arguments (a dataclass instance).
        cls: the settings dataclass to build; its own checks (``__post_init__``) run as usual.
        renames: settings field path -> name of the argument that holds its value.
        defaults: settings field paths that keep their default (the script does not expose them).

    Raises:
        ValueError: a settings field has no argument of its name and is neither renamed nor kept at its
            default, or ``renames``/``defaults`` name a field ``cls`` does not have.
    """
    renames, keep = dict(renames or {}), set(defaults)
    unknown = sorted((set(renames) | keep) - _field_paths(cls))
    if unknown:
        raise ValueError(f"renames/defaults name fields {cls.__name__} does not have: {unknown}")
    available = {f.name for f in dataclasses.fields(args)}
    return _build(args, available, cls, "", renames, keep)


def _build(args: Any, available: set[str], cls: type[S], prefix: str, renames: dict[str, str], keep: set[str]) -> S:
    """``cls`` filled from ``args``; ``prefix`` is the path of ``cls`` inside the top-level settings."""
    values: dict[str, Any] = {}
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        path = prefix + f.name
        if path in keep or not f.init:
            continue
        source = renames.get(path, f.name)
        nested = None if source in available or path in renames else _dataclass_type(cls, f.name)
        if source in available:
            values[f.name] = getattr(args, source)
        elif nested is not None:
            values[f.name] = _build(args, available, nested, path + ".", renames, keep)
        else:
            raise ValueError(
                f"{type(args).__name__} has no field {source!r} for the setting {cls.__name__}.{f.name} "
                f"({path!r}): add the argument, map it with renames={{{path!r}: ...}}, or keep the default with "
                f"defaults=[{path!r}]"
            )
    return cls(**values)


def _dataclass_type(cls: type, name: str) -> type | None:
    """The type of field ``name`` of ``cls`` if it is a dataclass, else ``None``."""
    hint = typing.get_type_hints(cls).get(name)
    return hint if isinstance(hint, type) and dataclasses.is_dataclass(hint) else None


def _field_paths(cls: type, prefix: str = "") -> set[str]:
    """Every field path of ``cls``, nested settings included (``"selfplay"`` and ``"selfplay.simulations"``)."""
    paths = set()
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        paths.add(prefix + f.name)
        nested = _dataclass_type(cls, f.name)
        if nested is not None:
            paths |= _field_paths(nested, prefix + f.name + ".")
    return paths


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
