"""The files of Gravwell's tabular Q-learning: a run's ``.npz`` + ``.json`` pair, the compact JSON export (with a
digest) and the tables shipped in this package's ``models/`` folder, each checked before it is trusted."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np

from baselines.learners.gravwell_q.settings import GravwellQSettings
from baselines.learners.gravwell_q.states import STOP_STATES
from baselines.runs import check_digest, number_table, with_digest, zip_problem
from boardenvs.games.gravwell.cards import NUM_CARDS

SHIPPED_TABLES: dict[bool, str] = {False: "gravwell_q_correct.json", True: "gravwell_q_inert.json"}
"""Shipped table per ``inert_tractors`` setting (in :data:`MODELS_DIR`)."""
MODELS_DIR = Path(__file__).resolve().parent / "models"
"""Where the shipped tables live."""
TABLE_DECIMALS = 4
"""Decimals kept in an exported JSON table."""
Tables = tuple[np.ndarray, np.ndarray, np.ndarray]
"""``(q_play, q_stop, visits)``."""


def write_run_files(path: str | Path, settings: GravwellQSettings, name: str, tables: Tables) -> Path:
    """Write ``<path>.npz`` (tables) and ``<path>.json`` (settings and name); returns the npz path."""
    base = Path(path).with_suffix("")
    base.parent.mkdir(parents=True, exist_ok=True)
    q_play, q_stop, visits = tables
    np.savez(base.with_suffix(".npz"), q_play=q_play, q_stop=q_stop, visits=visits)
    base.with_suffix(".json").write_text(json.dumps({"settings": asdict(settings), "name": name}))
    return base.with_suffix(".npz")


def read_run_meta(path: str | Path) -> tuple[GravwellQSettings, str | None, Path]:
    """The settings and saved name of files written by :func:`write_run_files`, and the tables' path.

    Raises:
        FileNotFoundError: the ``.npz`` or ``.json`` file is missing.
        ValueError: the ``.json`` file is damaged (the message names it).
    """
    base = Path(path).with_suffix("")
    meta_path, tables_path = base.with_suffix(".json"), base.with_suffix(".npz")
    for file in (meta_path, tables_path):
        if not file.is_file():
            raise FileNotFoundError(f"qlearning: no file {str(file)!r} (save() writes a .npz and a .json)")
    meta = _json_object(meta_path.read_bytes(), repr(str(meta_path)))
    saved_name = meta.get("name")
    if saved_name is not None and not isinstance(saved_name, str):
        raise ValueError(f"qlearning: {str(meta_path)!r}: 'name' must be a string, got {saved_name!r}")
    return _settings(meta.get("settings"), repr(str(meta_path))), saved_name, tables_path


def read_run_tables(path: Path, settings: GravwellQSettings) -> Tables:
    """The tables of the ``.npz`` at ``path``, checked against ``settings`` (``ValueError`` naming it)."""
    tables = _npz_tables(path)
    problem = tables_problem(settings, tables["q_play"], tables["q_stop"], tables["visits"])
    if problem:
        raise ValueError(f"qlearning: {str(path)!r}: {problem}")
    return tables["q_play"], tables["q_stop"], tables["visits"]


def export_text(settings: GravwellQSettings, q_play: np.ndarray, q_stop: np.ndarray, training: dict[str, Any]) -> str:
    """The compact JSON export: settings, tables rounded to :data:`TABLE_DECIMALS` and ``training``, with the
    digest of that content (:func:`~baselines.runs.with_digest`)."""
    data = {
        "settings": asdict(settings),
        "training": training,
        "q_play": np.round(q_play, TABLE_DECIMALS).tolist(),
        "q_stop": np.round(q_stop, TABLE_DECIMALS).tolist(),
    }
    return json.dumps(with_digest(data), separators=(",", ":")) + "\n"


def parse_export(
    text: str | bytes, source: str, require_digest: bool
) -> tuple[GravwellQSettings, np.ndarray, np.ndarray]:
    """The settings and tables of an :func:`export_text` file (``ValueError`` naming ``source`` otherwise)."""
    data = check_digest(_json_object(text, source), f"qlearning: {source}", require_digest)
    settings = _settings(data.get("settings"), source)
    try:
        q_play, q_stop = (number_table(data.get(name), repr(name)) for name in ("q_play", "q_stop"))
    except ValueError as error:
        raise ValueError(f"qlearning: {source}: {error}") from None
    problem = tables_problem(settings, q_play, q_stop)
    if problem:
        raise ValueError(f"qlearning: {source}: {problem}")
    return settings, q_play, q_stop


def shipped_table(inert_tractors: bool) -> str:
    """The text of the package's trained table for the correct (False) or inert (True) tractors."""
    return (MODELS_DIR / SHIPPED_TABLES[bool(inert_tractors)]).read_text(encoding="utf-8")


def _json_object(text: str | bytes, source: str) -> dict[str, Any]:
    try:
        data = json.loads(text.decode("utf-8") if isinstance(text, bytes) else text)
    except (ValueError, RecursionError) as error:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        raise ValueError(f"qlearning: {source} is not a Q-learning table (not UTF-8 JSON: {error})") from None
    if not isinstance(data, dict):
        raise ValueError(f"qlearning: {source} is not a Q-learning table (not a JSON object)")
    return data


def _settings(data: Any, source: str) -> GravwellQSettings:
    if not isinstance(data, dict):
        raise ValueError(f"qlearning: {source}: its 'settings' must be an object, got {type(data).__name__}")
    try:
        return GravwellQSettings(**data)
    except (TypeError, ValueError) as error:
        raise ValueError(f"qlearning: {source}: its settings are not valid: {error}") from None


def _npz_tables(path: Path) -> dict[str, np.ndarray]:
    problem = zip_problem(path)
    if problem:
        raise ValueError(f"qlearning: {str(path)!r} is not a Q-learning table: {problem}")
    try:
        with np.load(path, allow_pickle=False) as data:
            return {name: data[name] for name in ("q_play", "q_stop", "visits")}
    except Exception as error:  # noqa: BLE001 - numpy and zipfile raise many types for damaged archives
        raise ValueError(f"qlearning: {str(path)!r} is not a Q-learning table: {error}") from None


def tables_problem(
    settings: GravwellQSettings, q_play: np.ndarray, q_stop: np.ndarray, visits: Any = None
) -> str | None:
    """What is wrong with tables for ``settings`` (``None`` if nothing): their shapes and finite values."""
    if q_play.shape != (settings.representation, NUM_CARDS) or q_stop.shape != (STOP_STATES, 2):
        return f"table shapes {q_play.shape}, {q_stop.shape} do not match {settings}"
    if not (np.isfinite(q_play).all() and np.isfinite(q_stop).all()):
        return "the tables hold NaN or an infinity"
    if visits is not None and (visits.shape != q_play.shape or visits.dtype.kind not in "iu" or (visits < 0).any()):
        return f"its visit counts must be integers >= 0 of shape {q_play.shape}"
    return None
