"""The plan of a training run, computed before any work: its game, opponents, folder and stretch of steps.

Every learner that trains for a number of steps and can be resumed plans its run the same way:

- :func:`resumed_config` fills a resumed run's game config from its checkpoint when the settings give none;
- :func:`run_folder` picks the output folder (``out``, or ``runs/<game>-<kind>-<seed>``);
- a resumed run goes on from a :class:`Resumed` checkpoint (its steps, wall time and the marks it recorded);
- :func:`stretch_start` says where the stretch of training the run belongs to started, so ``steps`` counts from
  there: a fresh run trains to ``steps``, a continuation of a finished run to its steps plus ``steps``, and rerunning
  a killed command (with resume) finishes that same target;
- the :class:`TrainPlan` holds it all; the family's plan function fills it from its settings (an episode-based
  run against one opponent, tabular Q's or QLNN's, with :func:`plan_episodes`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from baselines.inputs import checked_game
from baselines.learners.runner.opponents import OpponentMix, check_agent_specs
from boardenvs.core import Game, check_int


@dataclass(frozen=True)
class Resumed:
    """The checkpoint a resumed run goes on from.

    Attributes:
        path: The checkpoint (a file or a folder).
        steps: The training steps it holds.
        wall_seconds: The run's wall time when it was saved.
        extra: What the run recorded with it (``start_steps``, ``target_steps``, ``args``, ...).
        card: The family's own description of the checkpoint (an SB3 ``ModelCard``, an ``RLlibCard``), or ``None``.
    """

    path: Path
    steps: int
    wall_seconds: float = 0.0
    extra: Mapping[str, Any] = field(default_factory=dict)
    card: Any = None


@dataclass
class TrainPlan:
    """The validated run: everything the training needs, computed before any of it.

    ``start_steps`` is where this stretch of training started (0 for a new run; for a resumed run, the steps of
    the finished run it continues, or the start recorded by the killed continuation it finishes) and
    ``target_steps`` is ``start_steps + steps``, where it ends.
    """

    game: Game
    config: dict[str, Any]
    mix: OpponentMix
    eval_opponents: list[str]
    out: Path
    resumed: Resumed | None = None
    start_steps: int = 0
    target_steps: int = 0

    @property
    def resume(self) -> Path | None:
        """The checkpoint the run resumes from, or ``None`` for a new run."""
        return self.resumed.path if self.resumed is not None else None

    @property
    def resumed_steps(self) -> int:
        """The steps the run starts at: its checkpoint's, or 0."""
        return self.resumed.steps if self.resumed is not None else 0

    def remaining_steps(self) -> int:
        """Steps still to train: to ``target_steps`` from the checkpoint (or from 0)."""
        return self.target_steps - self.resumed_steps

    def marks(self) -> dict[str, int]:
        """The stretch's ``start_steps`` and ``target_steps``, recorded with every checkpoint."""
        return {"start_steps": self.start_steps, "target_steps": self.target_steps}


def was_killed(resumed: Resumed) -> bool:
    """Whether the run of ``resumed`` stopped before the ``target_steps`` it recorded (a kill, not a finish)."""
    return resumed.steps < int(resumed.extra.get("target_steps", resumed.steps))


def stretch_start(resumed: Resumed, killed: bool) -> int:
    """Where the stretch of training that ``resumed`` continues started: the start it recorded if it was ``killed``
    before its target, else its own steps (a finished run)."""
    return int(resumed.extra.get("start_steps", resumed.steps)) if killed else resumed.steps


def run_folder(out: str, game: str, kind: str, seed: int) -> Path:
    """The output folder of a run: ``out``, or ``runs/<game>-<kind>-<seed>``."""
    return Path(out) if out else Path(f"runs/{game}-{kind}-{seed}")


def resumed_config(settings: Any, config: Mapping[str, Any] | None) -> Any:
    """``settings`` with the resumed checkpoint's game ``config`` as ``key=value`` pairs when the settings give
    none (unchanged when they do, or the checkpoint has none)."""
    if settings.config or not config:
        return settings
    return dataclasses.replace(settings, config=[f"{key}={value!r}" for key, value in config.items()])


def game_config_of(game: Game) -> dict[str, Any]:
    """The game's config as a dict (what a checkpoint records)."""
    return dataclasses.asdict(game.config) if dataclasses.is_dataclass(game.config) else {}


def plan_episodes(
    settings: Any,
    kind: str,
    learner_kinds: Sequence[str] = (),
    resume_from: Callable[[Path], Resumed] | None = None,
) -> TrainPlan:
    """The plan of an episode-based run against one opponent (tabular Q, QLNN), every setting checked first.

    ``settings`` has ``game``, ``config``, ``episodes``, ``eval_every``, ``eval_games``, ``opponents`` (one agent
    of the game, or one of ``learner_kinds``), ``eval_opponent``, ``seed``, ``out`` and optionally ``resume`` and
    ``force``. A resumed run reads its checkpoint with ``resume_from(out)`` and counts ``episodes`` from the start
    of its stretch (:func:`stretch_start`).

    Raises:
        ValueError: a bad setting (the message names it), or ``resume`` for a family without ``resume_from``.
    """
    resume, force = bool(getattr(settings, "resume", False)), bool(getattr(settings, "force", False))
    check_resume_force(resume, force)
    if resume and resume_from is None:
        raise ValueError(f"resume: a {kind} run cannot be resumed")
    for name, low in (("episodes", 1), ("eval_every", 0), ("eval_games", 0)):
        check_int(name, getattr(settings, name), low)
    game, config = checked_game(settings.game, settings.config)
    check_agent_specs("opponents", [settings.opponents], settings.game, also=learner_kinds, models=False)
    eval_opponents = check_agent_specs("eval_opponent", [settings.eval_opponent], settings.game)
    out = run_folder(settings.out, settings.game, kind, settings.seed)
    resumed = resume_from(out) if resume and resume_from is not None else None
    plan = TrainPlan(game, config, OpponentMix((settings.opponents,)), eval_opponents, out, resumed)
    plan.start_steps = stretch_start(resumed, was_killed(resumed)) if resumed else 0
    plan.target_steps = plan.start_steps + settings.episodes
    return plan


def check_resume_force(resume: Any, force: bool) -> None:
    """``resume`` and ``force`` exclude each other: a ``ValueError`` naming both when both are set."""
    if resume and force:
        raise ValueError("resume and force exclude each other: resume continues a run, force replaces it")


__all__ = [
    "Resumed",
    "TrainPlan",
    "check_resume_force",
    "game_config_of",
    "plan_episodes",
    "resumed_config",
    "run_folder",
    "stretch_start",
    "was_killed",
]
