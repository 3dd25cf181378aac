"""Running one cell: train (or resume) it, evaluate it and write its ``result.json``; checking a cell before
any trains; the worker process that runs cells."""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import time
from typing import Any

from baselines.benchmark import trainers
from baselines.benchmark.cell_settings import alphazero_settings, learner_settings, sb3_settings, with_settings
from baselines.benchmark.evaluation import final_evaluation
from baselines.benchmark.jobs import RESULT, SPEC, CellJob, Trained, read_result
from baselines.benchmark.table import SB3_LEARNERS, SCRIPTED, UNITS
from baselines.inputs import parse_config
from baselines.learners.evaluation import EvalRow
from baselines.runs import atomic_write_text
from boardenvs.registry import make_game


def run_cell(job: CellJob) -> dict[str, Any]:
    """Train (or resume) and evaluate one cell; write and return its result. A cell finished under the same spec
    is returned as it is (unless ``force``); one finished under another spec, or forced, starts again."""
    spec, previous = job.cell.spec(job.budget, job.seed), read_result(job.folder)
    if previous is not None and previous.get("spec") == spec and not job.force:
        return previous
    if previous is not None or job.force:
        shutil.rmtree(job.folder, ignore_errors=True)
    stored = job.folder / SPEC
    if stored.is_file() and json.loads(stored.read_text()) != spec:
        shutil.rmtree(job.folder / "run", ignore_errors=True)  # a killed run of another spec: start again
    atomic_write_text(stored, json.dumps(spec, indent=2) + "\n")
    began = time.perf_counter()
    trained = trainers.TRAINERS[job.cell.learner](job)
    evaluating = time.perf_counter()
    rows = final_evaluation(job, trained.model)
    now = time.perf_counter()
    result = make_result(job, trained, rows, now - evaluating, now - began)
    atomic_write_text(job.folder / RESULT, json.dumps(result, indent=2) + "\n")
    return result


def run_job(job: CellJob) -> tuple[dict[str, Any] | None, str]:
    """:func:`run_cell` for a worker: prints a line as the cell starts; returns its result and ``""``, or
    ``None`` and the error that stopped it (so one failing cell does not stop the others)."""
    print(f"[{elapsed_text(job.started)}] start {job.cell.name} (seed {job.seed}, {job.budget} budget)", flush=True)
    try:
        return run_cell(job), ""
    except Exception as error:  # noqa: BLE001 -- reported by the caller with the cell's name
        return None, f"{type(error).__name__}: {error}"


def start_worker() -> None:
    """Set up a process that runs cells: one torch thread (the cells share the machine's cores)."""
    os.environ["OMP_NUM_THREADS"] = "1"
    import torch

    torch.set_num_threads(1)


def elapsed_text(started: float) -> str:
    """Minutes since ``started`` (a ``time.time()``), for progress lines."""
    return f"{(time.time() - started) / 60:5.1f} min"


def make_result(job: CellJob, trained: Trained, rows: list[EvalRow], eval_seconds: float, seconds: float) -> dict:
    """The cell's ``result.json``."""
    cell = job.cell
    return {
        "cell": cell.name, "game": cell.game, "config": list(cell.config), "variant": cell.variant,
        "learner": cell.learner, "budget": job.budget, "seed": job.seed, "unit": UNITS[cell.learner],
        "trained": trained.trained, "train_seconds": trained.train_seconds, "eval_seconds": eval_seconds,
        "cell_seconds": seconds, "train_illegal": trained.train_illegal,
        "model": str(trained.model.relative_to(job.folder)), **trained.extra,
        "scripted": SCRIPTED[cell.game], "evaluations": [dataclasses.asdict(row) for row in rows],
        "spec": cell.spec(job.budget, job.seed),
    }  # fmt: skip


def check_cell(job: CellJob) -> None:
    """Build the cell's game and learner settings now: ``ValueError`` naming the cell for a bad config or setting
    (before any cell trains)."""
    cell = job.cell
    try:
        make_game(cell.game, **parse_config(list(cell.config)))
        if cell.learner in SB3_LEARNERS:
            sb3_settings(job, resume=False)
        elif cell.learner == "alphazero":
            alphazero_settings(job)
        else:
            from baselines.learners.tabular_q import TabularQSettings

            with_settings(TabularQSettings(), learner_settings(cell, cell.budget(job.budget)))
    except (TypeError, ValueError) as error:
        raise ValueError(f"cell {cell.name}: {error}") from None
