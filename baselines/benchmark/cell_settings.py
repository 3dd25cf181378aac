"""A cell's learner settings: ``key=value`` pairs set on the learner's settings dataclass, and the SB3 and
AlphaZero settings each cell trains with."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any

from baselines.benchmark.jobs import CellJob
from baselines.benchmark.table import SCRIPTED, SELFPLAY, Budget, Cell
from baselines.inputs import parse_config


def with_settings(settings: Any, pairs: Iterable[str], reserved: Iterable[str] = ()) -> Any:
    """The dataclass ``settings`` with the ``key=value`` ``pairs`` set, all at once (so settings that check each
    other are checked together): a key is a field, a nested dataclass's field by its path
    (``selfplay.simulations``) or, if only one nested dataclass has it, by its own name (``simulations``).

    Raises:
        ValueError: an unknown or ``reserved`` key (the message lists the allowed ones), or a bad value.
    """
    changes: dict[str, Any] = {}
    nested: dict[str, dict[str, Any]] = {}
    for key, value in parse_config(list(pairs)).items():
        if key in reserved:
            raise ValueError(f"setting {key!r} is set by the benchmark from the cell itself, not by its settings")
        path = _field_path(settings, key)
        if len(path) == 1:
            changes[path[0]] = value
        else:
            nested.setdefault(path[0], {})[path[1]] = value
    for name, values in nested.items():
        changes[name] = dataclasses.replace(getattr(settings, name), **values)
    return dataclasses.replace(settings, **changes)


def _field_path(settings: Any, key: str) -> list[str]:
    """``[field]`` or ``[nested field, its field]`` for a setting's key; ``ValueError`` listing the choices."""
    names = {f.name for f in dataclasses.fields(settings)}
    nested = {f.name: {g.name for g in dataclasses.fields(getattr(settings, f.name))}
              for f in dataclasses.fields(settings) if dataclasses.is_dataclass(getattr(settings, f.name))}  # fmt: skip
    path = key.split(".") if "." in key else [key]
    if len(path) == 1 and key not in names:
        owners = [name for name, fields in nested.items() if key in fields]
        path = [owners[0], key] if len(owners) == 1 else path
    if (len(path) == 1 and path[0] in names) or (len(path) == 2 and path[1] in nested.get(path[0], set())):
        return path
    choices = sorted(names | {f"{name}.{inner}" for name, fields in nested.items() for inner in fields})
    raise ValueError(f"unknown setting {key!r} for {type(settings).__name__}; choices: {choices}")


def learner_settings(cell: Cell, budget: Budget) -> tuple[str, ...]:
    """The cell's settings with the budget's over them."""
    return (*cell.settings, *budget.settings)


SAMPLED_LEARNERS: tuple[str, ...] = ("ppo",)
"""Learners evaluated (curves and final) by sampling their policy instead of playing its best move: PPO learns a
stochastic policy, and on node conquest its argmax loops between two nodes until the move cap (0 of 100 against
random) where its samples win most games. DQN plays its greedy policy."""
SB3_RESERVED = ("game", "config", "algo", "opponents", "steps", "seed", "out", "resume", "force", "progress")
"""SB3 settings the benchmark sets from the cell."""


def sb3_settings(job: CellJob, resume: bool) -> Any:
    """The :class:`SB3Settings` of an SB3 cell (``resume``: continue its run)."""
    from baselines.learners.sb3.runs import SB3Settings

    cell, budget, run = job.cell, job.cell.budget(job.budget), job.folder / "run"
    settings = SB3Settings(
        game=cell.game, config=list(cell.config), algo=cell.learner, opponents=cell.opponents,
        steps=budget.train, seed=job.seed, eval_every=max(1, budget.train // budget.curve_points),
        eval_games=budget.curve_games, eval_opponents=f"random,{SCRIPTED[cell.game]}", out=str(run),
        resume=str(run) if resume else "", force=not resume, progress=job.progress,
        eval_sampled=cell.learner in SAMPLED_LEARNERS,
    )  # fmt: skip
    return with_settings(settings, learner_settings(cell, budget), SB3_RESERVED)


def alphazero_settings(job: CellJob) -> Any:
    """The :class:`AlphaZeroSettings` of an AlphaZero cell."""
    from baselines.learners.alphazero import AlphaZeroSettings

    cell, budget = job.cell, job.cell.budget(job.budget)
    names = [name.strip() for name in cell.opponents.split(",") if name.strip()]
    sparring = [name for name in names if name != SELFPLAY]
    if SELFPLAY not in names or len(sparring) > 1:
        raise ValueError(
            f"cell {cell.name}: AlphaZero's opponents are 'selfplay' or 'selfplay,<sparring agent>', "
            f"got {cell.opponents!r}"
        )
    settings = AlphaZeroSettings(
        iterations=budget.train, time_budget_minutes=budget.minutes or None, eval_games=budget.curve_games,
        eval_every=max(1, budget.train // budget.curve_points), eval_opponents=("random", SCRIPTED[cell.game]),
        sparring=sparring[0] if sparring else "", sparring_fraction=0.5 if sparring else 0.0, workers=1,
        device="cpu", seed=job.seed,
    )  # fmt: skip
    return with_settings(settings, learner_settings(cell, budget), ("iterations", "seed", "workers"))
