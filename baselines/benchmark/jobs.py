"""One cell to run (:class:`CellJob`), what its training produced (:class:`Trained`), and its result files."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from baselines.benchmark.table import Cell

RESULT = "result.json"
"""A finished cell's result, in its folder."""
SPEC = "cell.json"
"""The spec a cell's run was started with (a changed spec starts the run again)."""


@dataclass
class Trained:
    """What a learner's training produced.

    Attributes:
        model: The trained model's file (the one evaluated).
        trained: Steps, episodes or self-play games (:data:`UNITS`).
        train_seconds: Training wall time, the run's periodic evaluations included (resumed stretches too).
        train_illegal: Illegal actions played in training (SB3; others cannot play one).
        extra: Anything else worth keeping in ``result.json``.
    """

    model: Path
    trained: int
    train_seconds: float
    train_illegal: int = 0
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class CellJob:
    """One cell to run (picklable, for a worker process).

    Attributes:
        cell: The cell.
        budget: The budget name.
        out: The benchmark's output folder (the cell's is ``out / cell.name``).
        seed: The benchmark seed.
        force: Train again even if the cell is finished.
        progress: Show the learner's own progress bars.
        started: ``time.time()`` when the benchmark started (progress lines show the time since).
    """

    cell: Cell
    budget: str
    out: Path
    seed: int
    force: bool = False
    progress: bool = False
    started: float = 0.0

    @property
    def folder(self) -> Path:
        return self.out / self.cell.name


def read_result(folder: Path) -> dict[str, Any] | None:
    """A cell folder's ``result.json``, or ``None`` if the cell has not finished."""
    path = folder / RESULT
    return json.loads(path.read_text()) if path.is_file() else None


def is_finished(job: CellJob) -> bool:
    """Whether the job's cell has a result for its current spec (``force`` aside)."""
    result = read_result(job.folder)
    return result is not None and result.get("spec") == job.cell.spec(job.budget, job.seed)
