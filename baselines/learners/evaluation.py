"""Evaluation of a learning agent with the arena and its ``eval.csv`` log (the learning curve is drawn by
:func:`baselines.plots.plot_learning_curve`).

:func:`~baselines.arena.evaluate_against` (re-exported here) plays seeded games with ``play_game``:
game ``i`` uses the game seed ``seeds[i // n]`` with the learner in seat ``i % n`` (``n`` players) and
the opponent agent in every other seat, so the seats rotate and every evaluation uses the same games
(common random numbers along the learning curve). The win rate counts draws as half a win; its 95%
interval is Wilson's.
"""

from __future__ import annotations

import csv
import dataclasses
import io
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from baselines.arena import LEARNER_NAME, evaluate_against
from baselines.arena.ratings import wilson_interval
from baselines.runs import atomic_write_text, damaged_line, split_lines


@dataclass(frozen=True)
class EvalRow:
    """One evaluation of the learner against one opponent: a row of ``eval.csv``.

    Attributes:
        steps: Training steps of the learner.
        wall_seconds: Training wall time when evaluated (evaluation time included).
        opponent: The opponent's name.
        games: Games played.
        wins: Games won.
        draws: Games drawn (a shared first place).
        losses: Games lost.
        win_rate: ``(wins + draws / 2) / games``.
        ci_low: Lower end of the Wilson 95% interval.
        ci_high: Upper end.
        illegal: Illegal actions the learner's model predicted (each replaced by a legal one).
        train_illegal: Illegal actions played in training so far (in this run).
    """

    steps: int
    wall_seconds: float
    opponent: str
    games: int
    wins: int
    draws: int
    losses: int
    win_rate: float
    ci_low: float
    ci_high: float
    illegal: int = 0
    train_illegal: int = 0


EVAL_COLUMNS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(EvalRow))
"""The columns of ``eval.csv``, in order."""


def eval_row(steps: int, wall_seconds: float, opponent: str, results: tuple[int, int, int], **extra: int) -> EvalRow:
    """The :class:`EvalRow` of ``(wins, draws, losses)``, with the win rate and its Wilson interval."""
    wins, draws, losses = results
    games = wins + draws + losses
    points = wins + 0.5 * draws
    low, high = wilson_interval(points, games)
    rate = points / games if games else 0.0
    return EvalRow(steps, wall_seconds, opponent, games, wins, draws, losses, rate, low, high, **extra)


# -- the CSV log ----------------------------------------------------------------------------------
REQUIRED_COLUMNS: tuple[str, ...] = tuple(
    f.name for f in dataclasses.fields(EvalRow) if f.default is dataclasses.MISSING
)
"""The columns an ``eval.csv`` must have (older files lack the illegal-move columns, which default to 0)."""


@dataclass(frozen=True)
class EvalHistory:
    """What an ``eval.csv`` holds.

    Attributes:
        rows: Every complete row, in file order.
        partial_line: The number of a half-written last line that was left out (its writer was killed), or
            ``None``.
    """

    rows: list[EvalRow]
    partial_line: int | None = None


def write_eval_rows(path: str | Path, rows: Sequence[EvalRow]) -> None:
    """Write ``rows`` (with the header) as the whole CSV at ``path``, atomically: a kill leaves the old file or
    the new one."""
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(EVAL_COLUMNS)
    for row in rows:
        writer.writerow([getattr(row, column) for column in EVAL_COLUMNS])
    atomic_write_text(path, text.getvalue())


def append_eval_rows(path: str | Path, rows: Sequence[EvalRow]) -> None:
    """Add ``rows`` to the CSV at ``path`` (created with its header if new), rewriting it atomically."""
    write_eval_rows(path, [*read_eval_rows(path), *rows])


def read_eval_rows(path: str | Path) -> list[EvalRow]:
    """Every complete row of an ``eval.csv`` (empty if the file does not exist; see :func:`read_eval_history`)."""
    return read_eval_history(path).rows


def read_eval_history(path: str | Path) -> EvalHistory:
    """The rows of an ``eval.csv``, every line checked.

    A last line without its newline is a row whose writer was killed: it is left out (``partial_line``).

    Raises:
        ValueError: the header lacks a column, or a complete row is blank, has the wrong number of fields or a
            value that is not a number (the message names the file and the line).
    """
    path = Path(path)
    if not path.exists():
        return EvalHistory([])
    lines, tail = split_lines(path.read_bytes())
    partial = len(lines) + 1 if tail else None
    if not lines:
        return EvalHistory([], partial)
    header = _fields(path, 1, lines[0], "header")
    missing = [column for column in REQUIRED_COLUMNS if column not in header]
    if missing:
        raise damaged_line(path, 1, f"no column(s) {missing}", "header")
    rows = [_parse_row(path, number, header, line) for number, line in enumerate(lines[1:], start=2)]
    return EvalHistory(rows, partial)


def cut_eval_history(path: str | Path, steps: int) -> tuple[list[EvalRow], list[str]]:
    """Cut the ``eval.csv`` at ``path`` back to the rows up to ``steps`` (a resumed run's checkpoint), dropping a
    half-written last row too; the file is rewritten only if something was dropped. Returns the kept rows and a
    note on each thing dropped."""
    history = read_eval_history(path)
    kept = [row for row in history.rows if row.steps <= steps]
    notes = []
    if history.partial_line is not None:
        notes.append(f"{path}: dropped the half-written row on line {history.partial_line}")
    if len(kept) < len(history.rows):
        notes.append(f"{path}: dropped {len(history.rows) - len(kept)} row(s) logged after step {steps}")
    if notes:
        write_eval_rows(path, kept)
    return kept, notes


def _fields(path: Path, number: int, line: bytes, what: str) -> list[str]:
    try:
        return next(csv.reader([line.decode("utf-8")]), [])
    except (UnicodeDecodeError, csv.Error) as error:
        raise damaged_line(path, number, str(error), what) from None


def _parse_row(path: Path, number: int, header: list[str], line: bytes) -> EvalRow:
    fields = _fields(path, number, line, "row")
    if len(fields) != len(header):
        raise damaged_line(path, number, f"{len(fields)} field(s) where the header has {len(header)}", "row")
    types = {f.name: f.type for f in dataclasses.fields(EvalRow)}
    values: dict[str, Any] = {}
    try:
        for column, text in zip(header, fields):
            kind = types.get(column)
            if kind is not None:
                values[column] = text if kind == "str" else float(text) if kind == "float" else int(float(text))
    except ValueError as error:
        raise damaged_line(path, number, f"column {column!r}: {error}", "row") from None
    return EvalRow(**values)


AUTO = "auto"
"""The ``eval_opponents`` of a training run that stands for random plus the game's ``heuristic`` agent if it has
one (:func:`baselines.learners.runner.opponents.evaluation_opponents`)."""


__all__ = [
    "AUTO",
    "EVAL_COLUMNS",
    "EvalHistory",
    "EvalRow",
    "LEARNER_NAME",
    "append_eval_rows",
    "cut_eval_history",
    "eval_row",
    "evaluate_against",
    "read_eval_history",
    "read_eval_rows",
    "write_eval_rows",
]
