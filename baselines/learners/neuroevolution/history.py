"""A neuro-evolution run's files: ``history.csv`` (one checked row per generation), the record a saved network
keeps of its evolution (:func:`training_record`), and resuming a run from its folder (:func:`resume_evolution`)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import asdict, fields
from pathlib import Path
from typing import Any

import numpy as np

from baselines.learners.neuroevolution.files import load_saved_network
from baselines.learners.neuroevolution.network import Network
from baselines.learners.neuroevolution.training import EvolutionSettings, Generation
from baselines.runs import atomic_write_text, damaged_line, split_lines
from boardenvs.games.gravwell.movement import WARP_GATE

NETWORK_FILE, HISTORY_FILE = "network.json", "history.csv"
"""The files of a run's folder (``scripts/evolve_gravwell.py``) that :func:`resume_evolution` reads."""
HISTORY_COLUMNS = tuple(item.name for item in fields(Generation))
"""The columns of ``history.csv``, in :class:`Generation`'s field order."""
_CELL_KINDS: dict[str, tuple[str, Callable[[str], Any]]] = {
    "generation": ("an integer >= 0", lambda text: _count(text, 0)),
    "runs": ("an integer >= 1", lambda text: _count(text, 1)),
    "score": ("a finite number >= 0", lambda text: _finite(text, 0.0, np.inf)),
    "wins": ("a finite number >= 0", lambda text: _finite(text, 0.0, np.inf)),
    "mean_tile": (f"a finite number in [0, {WARP_GATE}]", lambda text: _finite(text, 0.0, WARP_GATE)),
    "nodes": ("an integer >= 0", lambda text: _count(text, 0)),
    "child_won": ("True or False", lambda text: {"True": True, "False": False}[text]),
}


def _count(text: str, low: int) -> int:
    if not text.isdigit() or not text.isascii() or int(text) < low:
        raise ValueError(text)
    return int(text)


def _finite(text: str, low: float, high: float) -> float:
    value = float(text)
    if not (np.isfinite(value) and low <= value <= high):
        raise ValueError(text)
    return value


def write_history(history: Sequence[Generation], path: str | Path) -> Path:
    """Write ``history`` as ``history.csv`` (a header and one row per generation), atomically; returns the path."""
    return atomic_write_text(path, history_text(history))


def history_text(history: Sequence[Generation]) -> str:
    """The text of ``history.csv`` for ``history``: the header and one row per generation, each ending in a
    newline (every value as ``str`` writes it, which reads back to the same value)."""
    lines = [",".join(HISTORY_COLUMNS)] + [",".join(str(value) for value in asdict(row).values()) for row in history]
    return "\n".join(lines) + "\n"


def read_history(path: str | Path) -> list[Generation]:
    """The generations recorded in a ``history.csv`` written by :func:`write_history` (empty if there is none).

    Every cell is checked: the header must be :data:`HISTORY_COLUMNS`, every row must have that many cells, each
    cell the number or flag its column holds (finite, in range), generations numbered 0, 1, 2, ... and each score
    ``wins + mean_tile / 54``. The file is written whole, so a last line without its newline is damage too.

    Raises:
        ValueError: the first problem found, naming the file, the line and the column.
    """
    path = Path(path)
    if not path.is_file():
        return []
    lines, tail = split_lines(path.read_bytes())
    if tail:
        raise damaged_line(path, len(lines) + 1, "cut short: no newline at its end (the file is written whole)", "row")
    if not lines or _cells(lines[0]) != list(HISTORY_COLUMNS):
        raise damaged_line(path, 1, f"the header must be {','.join(HISTORY_COLUMNS)}", "header")
    return [_history_row(path, number, line) for number, line in enumerate(lines[1:], start=2)]


def _cells(line: bytes) -> list[str] | None:
    try:
        return line.decode("utf-8").rstrip("\n").split(",")
    except UnicodeDecodeError:
        return None


def _history_row(path: Path, number: int, line: bytes) -> Generation:
    cells = _cells(line)
    if cells is None or len(cells) != len(HISTORY_COLUMNS):
        found = "bytes that are not UTF-8" if cells is None else f"{len(cells)} cells"
        raise damaged_line(path, number, f"{found}, the header has {len(HISTORY_COLUMNS)} columns", "row")
    values = {}
    for column, (name, text) in enumerate(zip(HISTORY_COLUMNS, cells), start=1):
        what, parse = _CELL_KINDS[name]
        try:
            values[name] = parse(text)
        except (KeyError, ValueError):
            raise damaged_line(path, number, f"column {column} ({name!r}) is {text!r}, not {what}", "row") from None
    problem = _row_problem(values, number - 2)
    if problem:
        raise damaged_line(path, number, problem, "row")
    return Generation(**values)


def _row_problem(values: dict[str, Any], generation: int) -> str | None:
    if values["generation"] != generation:
        return f"column 1 ('generation') is {values['generation']}, but this row holds generation {generation}"
    if values["wins"] > values["runs"]:
        return f"column 4 ('wins') is {values['wins']}, more than its {values['runs']} runs (column 2)"
    score = values["wins"] + values["mean_tile"] / WARP_GATE
    if not np.isclose(values["score"], score, rtol=1e-9, atol=1e-9):
        return f"column 3 ('score') is {values['score']}, but wins + mean_tile / {WARP_GATE} is {score}"
    return None


def resume_evolution(
    folder: str | Path, settings: EvolutionSettings, network_name: str = NETWORK_FILE, history_name: str = HISTORY_FILE
) -> tuple[list[Generation], Network | None]:
    """The history and parent network a run in ``folder`` continues from (``([], None)``: start at generation 0).

    The run writes ``history.csv`` before ``network.json`` after each generation, so a kill between the two leaves
    one history row more than the network holds: that row is dropped and its generation played again (from the
    network it started from, so the run continues exactly). A run killed before its first network starts again.

    Raises:
        ValueError: a damaged file (:func:`read_history`, :func:`load_saved_network`), files of different lengths,
            settings other than the run's (only ``generations`` may change), or games per candidate that do not
            follow the settings (each message names the file).
    """
    folder = Path(folder)
    history_path, network_path = folder / history_name, folder / network_name
    history = read_history(history_path)
    if not network_path.is_file():
        if len(history) > 1:
            raise ValueError(
                f"resume: {str(network_path)!r} is missing but {str(history_path)!r} records {len(history)} "
                "generations: the run's network is lost; pass --force to start the run again"
            )
        return [], None  # killed before its first network: generation 0 is played again
    network, training = load_saved_network(network_path)
    _check_run_settings(network_path, training, settings)
    saved = training.get("generations")
    if len(history) == saved + 1:
        history = history[:-1]  # its network was not written: that generation is played again
    if len(history) != saved:
        raise ValueError(
            f"resume: {str(network_path)!r} was saved after generation {saved} but {str(history_path)!r} records "
            f"{len(history)}: the two files are of different runs; pass --force to start the run again"
        )
    _check_runs(history_path, history, settings)
    recorded = training.get("history_sha256")
    if recorded is not None and recorded != hashlib.sha256(history_text(history).encode()).hexdigest():
        raise ValueError(
            f"resume: {str(history_path)!r} is not the history {str(network_path)!r} was saved with (a value was "
            "changed after it was written); pass --force to start the run again"
        )
    return history, (network if history else None)


def _check_run_settings(path: Path, training: dict[str, Any], settings: EvolutionSettings) -> None:
    stored, saved = training.get("settings"), training.get("generations")
    if not isinstance(stored, dict) or not isinstance(saved, int) or isinstance(saved, bool) or saved < 1:
        raise ValueError(f"resume: {str(path)!r} does not record its run's settings and generations")
    given = {key: value for key, value in asdict(settings).items() if key != "generations"}
    changed = sorted(key for key, value in given.items() if stored.get(key) != value)
    if changed:
        raise ValueError(
            f"resume: settings {changed} differ from the run's in {str(path)!r} "
            f"({ {key: stored.get(key) for key in changed} }); only generations may change when a run is resumed"
        )


def _check_runs(path: Path, history: Sequence[Generation], settings: EvolutionSettings) -> None:
    """Each generation's games per candidate must follow from the one before (the rule of :func:`evolve`)."""
    runs = settings.start_runs
    for row in history:
        if row.runs != runs:
            problem = f"column 2 ('runs') is {row.runs}, but the settings give {runs}"
            raise damaged_line(path, row.generation + 2, problem, "row")
        if row.wins > row.runs / 2:
            runs = min(runs + settings.runs_step, settings.max_runs)


def training_record(
    settings: EvolutionSettings, history: Sequence[Generation], wall_seconds: float | None = None
) -> dict[str, Any]:
    """What a saved network records about its evolution: the settings, the number of generations, the SHA-256 of the
    ``history.csv`` text of those generations (so a resumed run can tell that file was not changed) and, when given,
    the run's wall time so far (a resumed run's clock goes on from it)."""
    digest = hashlib.sha256(history_text(history).encode()).hexdigest()
    record = {"settings": asdict(settings), "generations": len(history), "history_sha256": digest}
    return record if wall_seconds is None else {**record, "wall_seconds": round(wall_seconds, 3)}
