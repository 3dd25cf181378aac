"""Resuming an SB3 run: find the newest intact checkpoint of a run folder and cut the run back to it.

A run folder holds ``model.zip`` (the finished run) and ``latest.zip`` (the last evaluation's model); a resumed run
goes on from whichever holds more steps and agrees with its sidecar (:func:`find_checkpoint`). Before training goes
on, :func:`restore_run` cuts ``eval.csv`` back to that step, removes the snapshots and the ``best.zip`` saved after
it, and rewrites the safe files of a model whose ``.pt``/``.json`` do not match its zip. The zips are the run's own:
SB3 unpickles them (see :mod:`baselines.learners.sb3.runs`).
"""

from __future__ import annotations

import dataclasses
import hashlib
from pathlib import Path

from baselines.learners.evaluation import EvalRow, cut_eval_history
from baselines.learners.runner import Resumed, TrainPlan, stretch_start
from baselines.learners.sb3.loading import load_model, model_steps
from baselines.learners.sb3.model_card import ModelCard, read_model_card, read_safe_card
from baselines.learners.sb3.model_files import sidecar_path, weights_path, zip_path
from baselines.learners.sb3.saving import write_safe_files
from baselines.learners.sb3.selfplay import SNAPSHOT_PATTERN, list_snapshots

CHECKPOINTS: tuple[str, ...] = ("model.zip", "latest.zip")
"""The models of a run folder that a resumed run can continue from (on a tie in steps, the first)."""
RUN_OUTPUTS: tuple[str, ...] = (
    "eval.csv",
    "learning_curve.png",
    "model.zip",
    "model.json",
    "model.pt",
    "latest.zip",
    "latest.json",
    "latest.pt",
    "best.zip",
    "best.json",
    "best.pt",
    "snapshots",
)
"""The files of a run: a folder holding any of them holds a run (``force`` deletes them)."""


# -- finding the checkpoint ----------------------------------------------------------------------------------
def resume_source(resume: str) -> tuple[Path, Path | None]:
    """The run folder that ``resume`` names and the model it names in it, if it names one: ``runs/q5`` is a
    folder, ``runs/q5/model.zip`` (or ``runs/q5/model``) a model in the folder ``runs/q5``."""
    path = Path(resume)
    if not path.is_dir() and (path.suffix == ".zip" or zip_path(path).is_file()):
        return path.parent, zip_path(path)
    return path, None


def run_folder(resume: str) -> Path:
    """The run folder ``resume`` names (:func:`resume_source`)."""
    return resume_source(resume)[0]


def find_checkpoint(resume: str, out: str = "") -> Resumed:
    """The newest intact checkpoint of the run ``resume`` names (in ``out`` if given): ``model.zip`` or
    ``latest.zip`` of the folder, or the model ``resume`` names, whichever holds the most steps.

    Raises:
        ValueError: no model there, or none intact (each problem is named).
    """
    folder, named = resume_source(resume)
    folder = Path(out) if out else folder
    candidates = [folder / name for name in CHECKPOINTS]
    candidates += [named] if named is not None and named not in candidates else []
    found: list[Resumed] = []
    problems: list[str] = []
    for path in (path for path in candidates if path.exists()):
        try:
            found.append(read_checkpoint(path))
        except ValueError as error:
            problems.append(str(error))
    if found:
        return max(found, key=lambda checkpoint: checkpoint.steps)
    if problems:
        raise ValueError(f"resume: no intact model in {str(folder)!r}: {'; '.join(problems)}")
    if any((folder / name).exists() for name in RUN_OUTPUTS):
        raise ValueError(
            f"resume: {str(folder)!r} holds no saved model yet (the run stopped before its first checkpoint); "
            "start it again with --force"
        )
    raise ValueError(f"resume: no saved model at {named if named is not None else folder}")


def read_checkpoint(path: Path) -> Resumed:
    """The checkpoint at ``path`` (its ``card`` the sidecar); ``ValueError`` if the zip is unreadable or its card
    describes another step (only possible for a zip saved without its card inside, paired with a newer sidecar by
    a kill between the two writes)."""
    steps, card = model_steps(path), read_model_card(path)
    if card is not None and card.steps != steps:
        raise ValueError(
            f"{str(path)!r} holds step {steps} but its sidecar {sidecar_path(path).name} says {card.steps} (the "
            "run was killed while saving them)"
        )
    if card is None:
        return Resumed(path, steps)
    return Resumed(path, steps, card.wall_seconds, card.extra, card)


def start_steps(checkpoint: Resumed, out: Path) -> int:
    """Where the training that ``checkpoint`` continues started: a ``latest.zip`` newer than ``model.zip`` is a
    killed stretch (its recorded start), anything else a finished run (its own steps)."""
    killed = checkpoint.path == out / "latest.zip" and checkpoint.card is not None
    return stretch_start(checkpoint, killed)


# -- resuming -------------------------------------------------------------------------------------
def restore_run(plan: TrainPlan) -> tuple[list[EvalRow], list[str]]:
    """Cut the run in ``plan.out`` back to the checkpoint it resumes from: the ``eval.csv`` rows up to its step
    (a half-written last row dropped), no snapshot and no ``best.zip`` from after it. Returns the kept rows and
    a note on each thing changed."""
    assert plan.resumed is not None, "restore_run is for resumed runs"
    steps = plan.resumed.steps
    kept, dropped = cut_eval_history(plan.out / "eval.csv", steps)
    notes = [f"resuming {plan.out} from {plan.resumed.path.name} at step {steps} (training to {plan.target_steps})"]
    notes += dropped
    notes += _remove_models_after(plan.out, steps)
    notes += _repair_model_files(plan.out)
    return kept, notes


def _repair_model_files(out: Path) -> list[str]:
    """Rewrite the safe files (``.pt`` and the ``.json`` sidecar) of each model of the run whose files do not match
    its zip (a kill came between the writes, or the run was saved before the safe format), from the zip and the
    card inside it; the zips are the run's own (see the module). A note for each."""
    notes = []
    models = [*(out / name for name in (*CHECKPOINTS, "best.zip")), *list_snapshots(out / "snapshots")]
    for path in models:
        card = read_model_card(path) if path.exists() else None
        if card is None or _safe_files_match(path, card):
            continue
        model, _ = load_model(path, trusted=True)
        write_safe_files(model, path, card)
        notes.append(f"rewrote {weights_path(path).name} and {sidecar_path(path).name} from {path.name}")
    return notes


def _safe_files_match(path: Path, card: ModelCard) -> bool:
    """Whether the safe files of the zip ``path`` are intact and describe the model of ``card``."""
    try:
        safe = read_safe_card(path)
        weights = weights_path(path).read_bytes()
    except (OSError, ValueError):
        return False
    facts = {**dataclasses.asdict(card), "policy": {}} == {**dataclasses.asdict(safe), "policy": {}}
    return facts and hashlib.sha256(weights).hexdigest() == safe.policy.get("weights_sha256")


def _remove_models_after(out: Path, steps: int) -> list[str]:
    """Delete the snapshots and the ``best.zip`` saved after ``steps`` (or damaged); a note for each."""
    notes: list[str] = []
    later = [path for path in (out / "snapshots").glob("snapshot_*.zip") if _snapshot_steps(path) > steps]
    for path in later:
        _delete_model(path)
    if later:
        notes.append(f"removed {len(later)} self-play snapshot(s) saved after step {steps}")
    best = out / "best.zip"
    if not best.exists() and (sidecar_path(best).exists() or weights_path(best).exists()):
        _delete_model(best)
        notes.append("removed best.json and best.pt: the run was killed before writing its best.zip")
    elif best.exists():
        try:
            best_steps = read_checkpoint(best).steps
        except ValueError as error:
            _delete_model(best)
            return [*notes, f"removed best.zip: {error}"]
        if best_steps > steps:
            _delete_model(best)
            notes.append(f"removed best.zip (step {best_steps}, after the checkpoint); the next evaluation saves one")
    return notes


def _snapshot_steps(path: Path) -> int:
    match = SNAPSHOT_PATTERN.match(path.name)
    return int(match.group(1)) if match else -1


def _delete_model(path: Path) -> None:
    path.unlink(missing_ok=True)
    sidecar_path(path).unlink(missing_ok=True)
    weights_path(path).unlink(missing_ok=True)


__all__ = [
    "CHECKPOINTS",
    "RUN_OUTPUTS",
    "find_checkpoint",
    "read_checkpoint",
    "restore_run",
    "resume_source",
    "run_folder",
    "start_steps",
]
