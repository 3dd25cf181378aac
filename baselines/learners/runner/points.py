"""A run's own history file: one CSV row per point of a family's dataclass (tabular Q's ``TabularQPoint``, QLNN's
``QLNNPoint``), written atomically, read back by the field types and cut back to a resumed run's checkpoint.

This is the family's detail beside the shared ``eval.csv`` (:class:`~baselines.learners.runner.record.EvalLog`):
the states a table knows, the training score, ε, the share of moves a table decided.
"""

from __future__ import annotations

import csv
import dataclasses
import io
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TypeVar

from baselines.runs import atomic_write_text

P = TypeVar("P")


def points_text(rows: Sequence[Any], cls: type) -> str:
    """The CSV text of ``rows`` (instances of the dataclass ``cls``): a header of its fields and one row each."""
    columns = [item.name for item in dataclasses.fields(cls)]
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(columns)
    writer.writerows([getattr(row, column) for column in columns] for row in rows)
    return buffer.getvalue()


def write_points(rows: Sequence[Any], cls: type, path: str | Path) -> Path:
    """Write ``rows`` as the CSV of :func:`points_text`, atomically; returns the path."""
    return atomic_write_text(path, points_text(rows, cls))


def read_points(path: str | Path, cls: type[P]) -> list[P]:
    """The rows of a file written by :func:`write_points` for ``cls`` (empty if there is none).

    Raises:
        ValueError: a header other than ``cls``'s fields, or a cell that is not of its field's type (the message
            names the file and the line).
    """
    path = Path(path)
    if not path.is_file():
        return []
    with open(path, newline="") as handle:
        lines = list(csv.reader(handle))
    columns = [item.name for item in dataclasses.fields(cls)]  # type: ignore[arg-type]
    if not lines or lines[0] != columns:
        raise ValueError(f"{str(path)!r} line 1: the header must be {','.join(columns)}")
    return [_point(path, number, cells, cls) for number, cells in enumerate(lines[1:], start=2)]


def _point(path: Path, number: int, cells: list[str], cls: type[P]) -> P:
    kinds = [str(item.type) for item in dataclasses.fields(cls)]  # type: ignore[arg-type]
    try:
        if len(cells) != len(kinds):
            raise ValueError(f"{len(cells)} cells, the header has {len(kinds)}")
        return cls(*(int(cell) if kind == "int" else float(cell) for kind, cell in zip(kinds, cells)))
    except ValueError as error:
        raise ValueError(f"{str(path)!r} line {number}: damaged row ({error})") from None


def cut_points(path: str | Path, cls: type[P], steps: int, at: str = "episode") -> list[P]:
    """The rows of ``path`` up to ``steps`` (their field ``at``); the file is rewritten if any was dropped."""
    rows = read_points(path, cls)
    kept = [row for row in rows if getattr(row, at) <= steps]
    if len(kept) < len(rows):
        write_points(kept, cls, path)
    return kept


__all__ = ["cut_points", "points_text", "read_points", "write_points"]
