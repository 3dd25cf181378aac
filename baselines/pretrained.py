"""Shelves of trained models shipped with the package: a folder of model files and the ``index.json`` naming them.

A shelf holds at most one model per game config (and per ``kind``, where a shelf keeps several kinds of model, such
as the SB3 shelf's ``ppo`` and ``dqn``). Each ``index.json`` entry records the model's ``file`` (in the folder),
its ``game``, the game's whole ``config`` (``dataclasses.asdict(game.config)``, as JSON), the ``command`` that
trained it and ``notes`` (where its results are written up), plus the shelf's own matching fields (``algo``).

:meth:`Shelf.find` gives the model trained for a game's exact name and config, or a ``ValueError`` naming the
configs that do have one (only the settings that differ from the game's defaults, so the message stays short).
The index is checked whole before any entry is used: a file that is not JSON, not a list, or an entry without its
``file``, ``game`` or ``config`` (or with a field of the wrong type) is a ``ValueError`` naming the index and the
entry; an entry's ``file`` must name a file inside the shelf's folder (no ``..``, no absolute path, no symbolic
link leading out), or it is refused with the file named. :meth:`Shelf.ship` copies a file in (with its companion
files, such as an SB3 model's ``.json`` description) and replaces the entry of the same game, config and kind. Both
AlphaZero's networks (:mod:`baselines.learners.alphazero.pretrained`) and the SB3 models
(:mod:`baselines.learners.sb3.pretrained`) are shelves.

Example:
    >>> from boardenvs import make_game
    >>> shelf = Shelf(Path("/nowhere"), "ppo:pretrained", "model")
    >>> shelf.entries()
    []
    >>> shelf.find(make_game("quoridor"))
    Traceback (most recent call last):
    ...
    ValueError: ppo:pretrained: no model is shipped for 'quoridor'; games with one: []
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import shutil
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from baselines.runs import atomic_write, atomic_write_text
from boardenvs.core import Game

INDEX = "index.json"
"""The name of a shelf's index, next to its model files."""
ENTRY_FIELDS: dict[str, type] = {"file": str, "game": str, "config": dict}
"""The fields every index entry has, with their JSON types."""
OPTIONAL_FIELDS: dict[str, type] = {"command": str, "notes": str, "algo": str}
"""Fields an index entry may have, with their JSON types."""


def json_config(config: Mapping[str, Any]) -> dict[str, Any]:
    """``config`` as it reads back from JSON (tuples become lists), so a game's config and an entry's compare."""
    return json.loads(json.dumps(dict(config), default=str))


def game_config(game: Game) -> dict[str, Any]:
    """The whole config of ``game`` in its JSON form (what an index entry records)."""
    return json_config(dataclasses.asdict(game.config))


def non_default(config: Mapping[str, Any], game: Game) -> dict[str, Any]:
    """The entries of ``config`` that differ from ``game``'s default config (both in their JSON form)."""
    defaults = json_config(dataclasses.asdict(type(game.config)()))
    return {key: value for key, value in json_config(config).items() if defaults.get(key) != value}


def config_digest(config: Mapping[str, Any]) -> str:
    """Eight hex digits that name a config in a model's file name."""
    return hashlib.sha1(json.dumps(dict(config), sort_keys=True, default=str).encode()).hexdigest()[:8]


@dataclass(frozen=True)
class Shelf:
    """A folder of shipped models and its ``index.json``.

    Attributes:
        folder: Where the model files and the index are.
        label: The agent spec that plays them (``"alphazero:pretrained"``), at the head of every error message.
        noun: What a model is called in messages (``"network"``, ``"model"``).
    """

    folder: Path
    label: str
    noun: str = "model"

    @property
    def index_path(self) -> Path:
        """The shelf's ``index.json``."""
        return self.folder / INDEX

    def entries(self) -> list[dict[str, Any]]:
        """The index entries (``file``, ``game``, ``config``, ``command``, ``notes`` and the shelf's own fields);
        an empty list when there is no index yet.

        Raises:
            ValueError: the index is damaged or foreign: not JSON, not a list, an entry that is not an object, lacks
                ``file``, ``game`` or ``config``, has a field of the wrong type, or names a file outside the folder
                (the message names the index, the entry and what is wrong).
        """
        if not self.index_path.exists():
            return []
        where = f"{self.label}: {str(self.index_path)!r}"
        try:
            entries = json.loads(self.index_path.read_bytes())
        except (OSError, ValueError) as error:
            raise ValueError(f"{where} is not a readable index (not JSON: {error})") from None
        if not isinstance(entries, list):
            raise ValueError(f"{where} must hold a JSON list of entries, not a JSON {type(entries).__name__}")
        for number, entry in enumerate(entries, 1):
            self._check_entry(number, entry)
        return entries

    def model_path(self, file: str) -> Path:
        """The path of the model file ``file`` (an entry's) in the shelf's folder.

        Raises:
            ValueError: ``file`` is empty, absolute, has a ``..`` part, or leads out of the folder through a
                symbolic link (the message names it).
        """
        relative = Path(file)
        if not file.strip() or relative.is_absolute() or ".." in relative.parts or "\\" in file or not relative.parts:
            raise ValueError(
                f"{self.label}: the index {str(self.index_path)!r} names the file {file!r}; a model file must be "
                f"named relative to {str(self.folder)!r} without '..' (nor an absolute path)"
            )
        path = self.folder / relative
        if not path.resolve().is_relative_to(self.folder.resolve()):
            raise ValueError(
                f"{self.label}: the index {str(self.index_path)!r} names the file {file!r}, which leads out of "
                f"{str(self.folder)!r} (to {str(path.resolve())!r}, through a symbolic link)"
            )
        return path

    def _check_entry(self, number: int, entry: Any) -> None:
        where = f"{self.label}: {str(self.index_path)!r} entry {number}"
        if not isinstance(entry, dict):
            raise ValueError(f"{where} must be a JSON object with {sorted(ENTRY_FIELDS)}, got {entry!r:.80}")
        for key in ENTRY_FIELDS:
            if key not in entry:
                raise ValueError(f"{where} has no {key!r} (every entry names its {sorted(ENTRY_FIELDS)})")
        for key, kind in {**ENTRY_FIELDS, **OPTIONAL_FIELDS}.items():
            if key in entry and not isinstance(entry[key], kind):
                raise ValueError(f"{where}: {key!r} must be a JSON {_json_type(kind)}, got {entry[key]!r:.80}")
        self.model_path(entry["file"])

    def find(self, game: Game, match: Mapping[str, Any] | None = None) -> Path:
        """The file of the model trained for ``game``'s name and exact config (and the ``match`` fields).

        Raises:
            ValueError: none is shipped for that config; the message names the configs that have one, or the
                games that have one when ``game``'s has none.
        """
        match = dict(match or {})
        entries = [entry for entry in self.entries() if _matches(entry, game.spec.name, match)]
        config = game_config(game)
        for entry in entries:
            if json_config(entry["config"]) == config:
                return self.model_path(entry["file"])
        if not entries:
            games = sorted({entry["game"] for entry in self.entries() if _matches(entry, entry["game"], match)})
            raise ValueError(f"{self.label}: no {self.noun} is shipped for {game.spec.name!r}; games with one: {games}")
        configs = "; ".join(str(non_default(entry["config"], game)) for entry in entries)
        raise ValueError(
            f"{self.label}: no {self.noun} is shipped for {game.spec.name} with config {non_default(config, game)}; "
            f"configs with one (settings that differ from the defaults): {configs}"
        )

    def ship(
        self,
        source: str | Path,
        game: str,
        config: Mapping[str, Any],
        command: str,
        notes: str = "",
        *,
        match: Mapping[str, Any] | None = None,
        companions: Mapping[str, str | Path] | None = None,
    ) -> Path:
        """Copy ``source`` into the shelf as ``<game>[_<match values>]_<config digest><suffix>`` and record it,
        replacing the entry of the same game, config and ``match`` fields; every file is written atomically.

        Args:
            source: The model file.
            game: Its game's registered name.
            config: Its game's whole config.
            command: The command that trained it.
            notes: Where its results are written up, or anything else worth knowing.
            match: The shelf's own fields of the entry (``{"algo": "ppo"}``), matched by :meth:`find`.
            companions: Files shipped beside the model: new suffix (``".json"``) -> file to copy.

        Returns:
            The path of the shipped model.
        """
        match, config = dict(match or {}), json_config(config)
        stem = "_".join([game, *(str(value) for value in match.values()), config_digest(config)])
        target = self.folder / f"{stem}{Path(source).suffix}"
        _copy(source, target)
        for suffix, path in (companions or {}).items():
            _copy(path, target.with_suffix(suffix))
        kept = [entry for entry in self.entries() if not self._same(entry, game, config, match)]
        entry = {"file": target.name, "game": game, "config": config, **match, "command": command, "notes": notes}
        atomic_write_text(self.index_path, json.dumps([*kept, entry], indent=2) + "\n")
        return target

    @staticmethod
    def _same(entry: Mapping[str, Any], game: str, config: dict[str, Any], match: Mapping[str, Any]) -> bool:
        return _matches(entry, game, match) and json_config(entry["config"]) == config


def _json_type(kind: type) -> str:
    return {str: "string", dict: "object", list: "list"}.get(kind, kind.__name__)


def _matches(entry: Mapping[str, Any], game: str, match: Mapping[str, Any]) -> bool:
    return entry["game"] == game and all(entry.get(key) == value for key, value in match.items())


def _copy(source: str | Path, target: Path) -> None:
    if not Path(source).is_file():
        raise FileNotFoundError(f"nothing to ship: no file {str(source)!r}")
    atomic_write(target, lambda temporary: shutil.copyfile(source, temporary))


__all__ = [
    "ENTRY_FIELDS",
    "INDEX",
    "OPTIONAL_FIELDS",
    "Shelf",
    "config_digest",
    "game_config",
    "json_config",
    "non_default",
]
