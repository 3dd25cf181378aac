"""The Q table of generic tabular Q-learning (:class:`QTable`): its keys, its rows and its ``.npz`` file.

A state's key is the bytes of what the acting seat observes (:func:`observation_key`); its row holds one float64
value per action of the game, created lazily. A table is saved as one ``.npz`` file that also records the game it
was trained for (:func:`~baselines.learners.tabular_q.identity.game_identity`) and is checked before it is trusted.
"""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path
from typing import Any

import numpy as np

from baselines.learners.tabular_q.identity import game_identity, game_identity_problem
from baselines.learners.tabular_q.settings import TabularQSettings, as_settings
from baselines.runs import zip_problem
from boardenvs.core import Game

FORMAT = "tabular_q"
FORMAT_VERSION = 1
"""What a saved table's metadata says it is; files of another format or version are refused."""


def observation_key(game: Game, view: Any, player: int) -> bytes:
    """The table key of ``player``'s decision in ``view``: the bytes of its float32 observation."""
    observation = np.asarray(game.observe(view, player), dtype=np.float32)
    return (observation + np.float32(0.0)).tobytes()  # -0.0 + 0.0 == +0.0: one key per observed value


class QTable:
    """The Q values of one game, the settings they were learned with, and facts about the training.

    Args:
        game: identity of the game (:func:`game_identity`).
        settings: the learning settings.
        values: state key → ``float64[num_actions]``; empty if ``None``.
        training: facts about how the table was made (episodes, opponents, seeds), saved with it.
    """

    def __init__(
        self,
        game: dict[str, Any],
        settings: TabularQSettings,
        values: dict[bytes, np.ndarray] | None = None,
        training: dict[str, Any] | None = None,
    ) -> None:
        self.game = game
        self.settings = settings
        self.values: dict[bytes, np.ndarray] = {} if values is None else values
        self.training: dict[str, Any] = dict(training or {})

    @classmethod
    def empty(cls, game: Game, settings: TabularQSettings | dict[str, Any] | None = None) -> QTable:
        """A table for ``game`` that knows no state yet."""
        return cls(game_identity(game), as_settings(settings))

    @property
    def num_states(self) -> int:
        """How many states the table holds."""
        return len(self.values)

    @property
    def num_actions(self) -> int:
        """The game's number of actions: the length of every row."""
        return int(self.game["num_actions"])

    def row(self, key: bytes) -> np.ndarray:
        """The values of state ``key``, created (all ``initial_value``) if new."""
        values = self.values.get(key)
        if values is None:
            values = np.full(self.num_actions, self.settings.initial_value, dtype=np.float64)
            self.values[key] = values
        return values

    def check_game(self, game: Game) -> None:
        """``ValueError`` unless the table was trained for ``game`` (same name, version, config and sizes)."""
        mine, theirs = self.game, game_identity(game)
        if mine["name"] != theirs["name"]:
            raise ValueError(f"table was trained for game {mine['name']!r}, not {theirs['name']!r}")
        for field_name in ("version", "config", "num_actions", "observation_shape"):
            if mine[field_name] != theirs[field_name]:
                raise ValueError(
                    f"table was trained for {mine['name']} with {field_name} {mine[field_name]!r}, "
                    f"but this game has {theirs[field_name]!r}"
                )

    def metadata(self) -> dict[str, Any]:
        """Everything but the values, as saved in the file."""
        return {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "game": self.game,
            "settings": dataclasses.asdict(self.settings),
            "training": self.training,
        }

    def save(self, path: str | Path) -> Path:
        """Write the table to ``path`` (``.npz`` is appended when missing); returns the path written."""
        path = Path(path)
        if path.suffix != ".npz":
            path = path.with_name(path.name + ".npz")
        path.parent.mkdir(parents=True, exist_ok=True)
        key_size = int(np.prod(self.game["observation_shape"])) * 4
        keys = np.frombuffer(b"".join(self.values), dtype=np.uint8).reshape(len(self.values), key_size)
        values = np.array(list(self.values.values()), dtype=np.float64).reshape(len(self.values), self.num_actions)
        meta = np.array(json.dumps(self.metadata()))
        np.savez_compressed(path, keys=keys, values=values, meta=meta)
        return path

    @classmethod
    def load(cls, path: str | Path) -> QTable:
        """A table written by :meth:`save`, checked before it is trusted: the archive's CRCs, the metadata's fields
        and types, the arrays' shapes against the game it names, finite values and distinct keys.

        Raises:
            FileNotFoundError: no file at ``path``.
            ValueError: not a table, or a damaged one (the message names the file and what is wrong).
        """
        path = Path(path)
        if not path.exists():
            raise FileNotFoundError(f"table: no file {str(path)!r}")
        meta, keys, values = _read_table_arrays(path)
        problem = _metadata_problem(meta) or _arrays_problem(meta["game"], keys, values)
        if problem:
            raise ValueError(f"table: {str(path)!r} is not a valid tabular Q file: {problem}")
        try:
            settings = TabularQSettings(**meta["settings"])
        except (TypeError, ValueError) as error:
            raise ValueError(f"table: {str(path)!r} has bad settings: {error}") from None
        rows = {key.tobytes(): row.copy() for key, row in zip(keys, values)}
        return cls(meta["game"], settings, rows, meta["training"])


def _read_table_arrays(path: Path) -> tuple[dict[str, Any], np.ndarray, np.ndarray]:
    """The metadata, keys and values of a table file (``ValueError`` naming it if they cannot be read)."""
    problem = zip_problem(path)
    if problem:
        raise ValueError(f"table: {str(path)!r} is not a tabular Q file written by QTable.save: {problem}")
    try:
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"][()]))
            keys, values = data["keys"], data["values"]
    except Exception as error:  # noqa: BLE001 - numpy and zipfile raise many types for damaged archives
        raise ValueError(f"table: {str(path)!r} is not a tabular Q file written by QTable.save: {error}") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT or meta.get("format_version") != FORMAT_VERSION:
        found = (meta.get("format"), meta.get("format_version")) if isinstance(meta, dict) else (None, None)
        raise ValueError(f"table: {str(path)!r} has format {found[0]!r} v{found[1]}, not {FORMAT!r} v{FORMAT_VERSION}")
    return meta, keys, values


def _metadata_problem(meta: dict[str, Any]) -> str | None:
    for name in ("game", "settings", "training"):
        if not isinstance(meta.get(name), dict):
            return f"its metadata has no {name!r} object"
    return game_identity_problem(meta["game"])


def _arrays_problem(game: dict[str, Any], keys: np.ndarray, values: np.ndarray) -> str | None:
    key_size = math.prod(game["observation_shape"]) * 4
    if keys.dtype != np.uint8 or keys.ndim != 2 or keys.shape[1] != key_size:
        return f"its keys must be uint8 rows of {key_size} bytes, got {keys.dtype} {keys.shape}"
    expected = (len(keys), game["num_actions"])
    if values.dtype != np.float64 or values.shape != expected:
        return f"its values must be float64 of shape {expected}, got {values.dtype} {values.shape}"
    if not np.isfinite(values).all():
        return "its values hold NaN or an infinity"
    observations = keys.view(np.float32)
    if not np.isfinite(observations).all() or np.signbit(observations[observations == 0]).any():
        return "its keys are not observations (a key holds NaN, an infinity or -0)"
    if len(np.unique(keys, axis=0)) != len(keys):
        return "a state key appears twice"
    return None
