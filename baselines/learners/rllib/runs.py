"""A whole RLlib training run: check the settings, train, checkpoint and evaluate periodically, resume.

:func:`train` runs what :class:`~baselines.learners.rllib.settings.RLlibSettings` describes: masked PPO
(:mod:`baselines.learners.rllib.algorithm`) on the game, every episode at a table drawn from ``opponents``
(:mod:`baselines.learners.rllib.env`). At the start, every ``eval_every`` env steps and at the end it saves a
checkpoint (``<out>/checkpoints/step_<n>/``, the newest ``keep_checkpoints`` kept), loads the trained module from it
as an :class:`~baselines.learners.rllib.agent.RLlibAgent` and plays ``eval_games`` seeded, seat-rotated games against
each evaluation opponent with the project's arena (:func:`baselines.arena.evaluate_against`); the results go to
``<out>/eval.csv`` (win rate with draws counted half, Wilson 95% interval, illegal moves) and
``<out>/learning_curve.png``. With snapshot opponents, every ``snapshot_every`` steps the learner is copied into the
oldest snapshot slot.

**Runs survive a kill.** A checkpoint appears whole or not at all (written aside, then renamed), the CSV and the plot
are rewritten atomically, and the folder is locked while a run writes it (:class:`baselines.runs.RunDirectory`). A
new run refuses a folder that holds one (``FileExistsError`` naming ``--resume`` and ``--force``); ``force``
deletes it first. ``resume`` continues from the folder's newest checkpoint: ``eval.csv`` is cut back to its step
(and the checkpoint evaluated if the kill came before its rows were written), its step count and wall time go on,
and without ``config`` the checkpoint's game config is used. ``steps`` counts from where the run started: a fresh
run trains to ``steps``, a continuation of a finished run to its steps plus ``steps``, and rerunning a killed
command finishes that same target. (RLlib restores the networks, optimizers and connector states, not the random
state of the envs, so a continued run is not bit-identical to an uninterrupted one.)
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from baselines.inputs import checked_game, split_names
from baselines.learners.evaluation import EvalRow, cut_eval_history
from baselines.learners.rllib.agent import RLlibAgent
from baselines.learners.rllib.algorithm import (
    ILLEGAL_METRIC,
    copy_to_snapshot,
    local_ray,
    ppo_config,
    push_to_env_runners,
)
from baselines.learners.rllib.checkpoints import (
    CHECKPOINTS_DIR,
    RLlibCard,
    latest_checkpoint,
    prune_checkpoints,
    read_card,
    remove_partial_checkpoints,
    save_checkpoint,
    write_card,
)
from baselines.learners.rllib.env import snapshot_module_id, snapshot_modules
from baselines.learners.rllib.settings import RLlibSettings
from baselines.learners.runner import (
    SELF,
    SNAPSHOT,
    EvalLog,
    OpponentMix,
    Resumed,
    RunResult,
    TrainPlan,
    check_resume_force,
    crossed,
    evaluation_opponents,
    game_config_of,
    resumed_config,
    run_folder,
    run_title,
    stretch_start,
    training_opponents,
    was_killed,
)
from baselines.runs import RunDirectory
from boardenvs.core import Game, check_int
from boardenvs.registry import game_entry

RUN_OUTPUTS: tuple[str, ...] = ("eval.csv", "learning_curve.png", CHECKPOINTS_DIR)
"""The files of a run: a folder holding any of them holds a run (``force`` deletes them)."""


@dataclass
class RLlibRunResult(RunResult):
    """What a training run produced (besides :class:`~baselines.learners.runner.RunResult`'s fields).

    Attributes:
        checkpoint: The final checkpoint (load it with ``make_agent("rllib:unsafe:<checkpoint>", game)``).
        eval_seconds: The part of ``wall_seconds`` spent evaluating and checkpointing.
        iterations: RLlib training iterations of this run.
    """

    checkpoint: Path
    eval_seconds: float
    iterations: int


# -- validation -------------------------------------------------------------------------------------
def default_out(settings: RLlibSettings) -> Path:
    """The output directory: ``out``, or ``runs/<game>-rllib-<seed>``."""
    return run_folder(settings.out, settings.game, "rllib", settings.seed)


def resume_defaults(settings: RLlibSettings) -> RLlibSettings:
    """``settings`` with the newest checkpoint's game config when ``resume`` is given without ``config`` (unchanged
    if there is no readable checkpoint: :func:`plan_training` says why)."""
    checkpoint = latest_checkpoint(default_out(settings)) if settings.resume and not settings.config else None
    try:
        card = read_card(checkpoint) if checkpoint is not None else None
    except (FileNotFoundError, ValueError):
        card = None
    return resumed_config(settings, card.config if card is not None else None)


def plan_training(settings: RLlibSettings) -> TrainPlan:
    """Check every setting and build the :class:`~baselines.learners.runner.TrainPlan` (``plan.resumed.card`` is
    the resumed checkpoint's :class:`RLlibCard`); ``ValueError`` naming the bad parameter."""
    _check_numbers(settings)
    _check_game_name(settings.game)
    settings = resume_defaults(settings)
    out = default_out(settings)
    resumed = _checked_resume(settings, out)
    game, config = checked_game(settings.game, settings.config)
    mix = table_mix(settings.opponents, settings.snapshot_slots, settings.game)
    if resumed is not None:
        _check_resumable(resumed.card, game, mix)
    eval_opponents = evaluation_opponents(settings.eval_opponents, settings.game)
    plan = TrainPlan(game, config, mix, eval_opponents, out, resumed)
    plan.start_steps = stretch_start(resumed, was_killed(resumed)) if resumed is not None else 0
    plan.target_steps = plan.start_steps + settings.steps
    return plan


def table_mix(opponents: str, snapshot_slots: int, game_name: str) -> OpponentMix:
    """The training tables ``opponents`` names (the game's agents, ``self`` and ``snapshot``)."""
    return OpponentMix(training_opponents(opponents, game_name, (SELF, SNAPSHOT)), snapshot_slots=snapshot_slots)


POSITIVE_INTS = ("steps", "envs_per_worker", "eval_every", "eval_games", "snapshot_every", "snapshot_slots")
POSITIVE_INTS += ("train_batch_size", "minibatch_size", "num_epochs")
"""Integer settings that must be >= 1 (``conv_channels``/``hidden`` entries too)."""
POSITIVE_REALS = ("lr", "clip_param")
"""Real settings that must be finite and > 0."""
NON_NEGATIVE_REALS = ("entropy_coeff", "vf_loss_coeff", "kl_coeff", "grad_clip")
"""Real settings that must be finite and >= 0."""


def _check_numbers(settings: RLlibSettings) -> None:
    for name in POSITIVE_INTS:
        check_int(name, getattr(settings, name), 1)
    for name in ("conv_channels", "hidden"):
        for width in getattr(settings, name):
            check_int(name, width, 1)
    for name in ("seed", "workers", "keep_checkpoints"):
        check_int(name, getattr(settings, name), 0)
    for name in ("gamma", "gae_lambda"):
        if not 0.0 <= _number(getattr(settings, name)) <= 1.0:
            raise ValueError(f"{name} must be in [0, 1], got {getattr(settings, name)!r}")
    for name in (*POSITIVE_REALS, *NON_NEGATIVE_REALS):
        value, strict = _number(getattr(settings, name)), name in POSITIVE_REALS
        if not (value > 0 if strict else value >= 0) or math.isinf(value):
            bound = "> 0" if strict else ">= 0"
            raise ValueError(f"{name} must be a finite number {bound}, got {getattr(settings, name)!r}")
    check_resume_force(settings.resume, settings.force)


def _number(value: Any) -> float:
    """``value`` as a float, NaN unless it is a real number (not a bool)."""
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else math.nan


def _check_game_name(game_name: str) -> None:
    try:
        game_entry(game_name)
    except ValueError as error:
        raise ValueError(f"game: {error}") from None


def _checked_resume(settings: RLlibSettings, out: Path) -> Resumed | None:
    if not settings.resume:
        return None
    checkpoint = latest_checkpoint(out)
    if checkpoint is None:
        raise ValueError(f"resume: no checkpoint in {str(out / CHECKPOINTS_DIR)!r} to continue from")
    try:
        card = read_card(checkpoint)
    except (FileNotFoundError, ValueError) as error:
        raise ValueError(f"resume: {error}") from None
    if card.game != settings.game:
        raise ValueError(f"resume: {str(checkpoint)!r} was trained on game {card.game!r}, not {settings.game!r}")
    return Resumed(checkpoint, card.steps, card.wall_seconds, card.extra, card)


def _check_resumable(card: RLlibCard, game: Game, mix: OpponentMix) -> None:
    """The resumed checkpoint must hold the same game config and the same snapshot modules as the new settings."""
    config = game_config_of(game)
    if card.config != config:
        raise ValueError(f"config: the checkpoint was trained with {card.config}, not {config}")
    args = card.extra.get("args", {})
    old = OpponentMix(
        tuple(split_names(args.get("opponents", SELF))), snapshot_slots=int(args.get("snapshot_slots", 4))
    )
    if snapshot_modules(old) != snapshot_modules(mix):
        raise ValueError(
            f"opponents/snapshot_slots: the checkpoint holds the snapshot modules {snapshot_modules(old)}, the "
            f"settings ask for {snapshot_modules(mix)}; resume with the same snapshot setting"
        )


# -- checkpoints and evaluations ----------------------------------------------------------------------
class Recorder(EvalLog):
    """Checkpoints the algorithm, evaluates the checkpoint against every evaluation opponent, logs and plots.

    Every file is written whole (checkpoint folders renamed into place, the CSV and the plot atomically) and in
    this order: checkpoint, ``eval.csv``, plot; a resumed run re-evaluates a checkpoint that has no rows yet.

    Args:
        settings: The run's settings.
        plan: The validated plan.
        history: The rows of ``eval.csv`` so far (a resumed run's, cut back to its checkpoint).
    """

    def __init__(self, settings: RLlibSettings, plan: TrainPlan, history: Sequence[EvalRow]) -> None:
        title = run_title(settings, f"RLlib PPO vs {settings.opponents}")
        super().__init__(plan, settings.game, settings.seed, settings.eval_games, title, history)
        self.settings = settings
        resumed = plan.resumed
        self.eval_seconds = float(resumed.extra.get("eval_seconds", 0.0)) if resumed else 0.0
        self.checkpoint = plan.resume

    def card(self, steps: int) -> RLlibCard:
        """The card of a checkpoint taken now, after ``steps`` steps."""
        spec = self.plan.game.spec
        extra = {"args": dataclasses.asdict(self.settings), **self.plan.marks(), "eval_seconds": self.eval_seconds}
        config = game_config_of(self.plan.game)
        return RLlibCard(
            spec.name, config, steps, self.wall_seconds(), list(spec.observation_shape), spec.num_actions, extra=extra
        )

    def __call__(self, algo: Any, steps: int) -> None:
        """Checkpoint ``algo`` at ``steps``, evaluate the checkpoint, drop old checkpoints."""
        began = time.perf_counter()
        self.checkpoint = save_checkpoint(algo, self.plan.out, self.card(steps))
        self.evaluate(self.checkpoint, steps, began)
        prune_checkpoints(self.plan.out, self.settings.keep_checkpoints)

    def evaluate(self, checkpoint: Path, steps: int, began: float | None = None) -> None:
        """Evaluate ``checkpoint`` (at ``steps``); add its rows to ``eval.csv`` and redraw the plot; count the time
        since ``began`` (default: now) as evaluation time and record it in the checkpoint's card."""
        began = time.perf_counter() if began is None else began
        self.record(RLlibAgent.load(checkpoint, name="learner"), steps)
        self.eval_seconds += time.perf_counter() - began
        write_card(checkpoint, dataclasses.replace(self.card(steps), wall_seconds=self.wall_seconds()))


# -- resuming -----------------------------------------------------------------------------------------
def restore_history(plan: TrainPlan) -> tuple[list[EvalRow], list[str]]:
    """The ``eval.csv`` rows up to the resumed checkpoint's step (the file rewritten if rows were dropped, a
    half-written last row too), and a note on each thing changed."""
    assert plan.resumed is not None, "restore_history is for resumed runs"
    steps = plan.resumed.steps
    kept, dropped = cut_eval_history(plan.out / "eval.csv", steps)
    notes = [f"resuming {plan.out} from {plan.resume} at step {steps} (training to {plan.target_steps})"]
    return kept, notes + dropped


def build_algorithm(settings: RLlibSettings, plan: TrainPlan) -> Any:
    """The algorithm: new (every snapshot slot holding the initial learner) or restored from the checkpoint."""
    algo = ppo_config(settings, plan.config, plan.mix).build_algo()
    if plan.resume is not None:
        algo.restore_from_path(str(plan.resume.resolve()))
        push_to_env_runners(algo, snapshot_modules(plan.mix))
    else:
        for module_id in snapshot_modules(plan.mix):
            copy_to_snapshot(algo, module_id)
    return algo


# -- the run ------------------------------------------------------------------------------------------
def train(settings: RLlibSettings) -> RLlibRunResult:
    """Check ``settings``, claim the output folder, start a local Ray (unless one runs), train (or go on training)
    with periodic checkpoints and evaluations; return what was produced.

    Raises:
        ValueError: a bad setting (the message names it), ``resume`` without a checkpoint, or a damaged
            ``eval.csv`` line (named by file and line).
        FileExistsError: a new run in a folder that holds one, without ``force``.
        RuntimeError: another process is writing the folder.
    """
    plan = plan_training(settings)
    settings = resume_defaults(settings)
    with RunDirectory(plan.out, RUN_OUTPUTS, resume=plan.resume is not None, force=settings.force):
        remove_partial_checkpoints(plan.out)
        history: list[EvalRow] = []
        if plan.resume is not None:
            history, notes = restore_history(plan)
            print("\n".join(notes))
        with local_ray(num_cpus=settings.workers + 1):
            algo = build_algorithm(settings, plan)
            try:
                return _train_in(settings, plan, algo, Recorder(settings, plan, history))
            finally:
                algo.stop()


def _train_in(settings: RLlibSettings, plan: TrainPlan, algo: Any, recorder: Recorder) -> RLlibRunResult:
    steps = plan.resumed_steps
    if plan.resume is None:
        recorder(algo, steps)
    elif not recorder.last_rows:
        recorder.evaluate(plan.resume, steps)
    bar = _progress_bar(settings, plan, steps)
    iterations = 0
    while steps < plan.target_steps:
        sampled, illegal = _iteration(algo)
        iterations, before, steps = iterations + 1, steps, steps + sampled
        recorder.train_illegal += illegal
        _after_iteration(settings, plan, algo, recorder, before, steps)
        if bar is not None:
            bar.update(min(sampled, bar.total - bar.n))
            bar.set_postfix_str(recorder.status(), refresh=False)
    if bar is not None:
        bar.close()
    assert recorder.checkpoint is not None, "a run always has a checkpoint"
    fields = recorder.result_fields(steps)
    return RLlibRunResult(
        **fields, checkpoint=recorder.checkpoint, eval_seconds=recorder.eval_seconds, iterations=iterations
    )


def _after_iteration(
    settings: RLlibSettings, plan: TrainPlan, algo: Any, recorder: Recorder, before: int, steps: int
) -> None:
    """Snapshot the learner and checkpoint + evaluate where the iteration from ``before`` to ``steps`` crossed
    their periods (and checkpoint + evaluate at the target)."""
    if SNAPSHOT in plan.mix.opponents and crossed(before, steps, settings.snapshot_every):
        copy_to_snapshot(algo, snapshot_slot(steps, settings.snapshot_every, plan.mix.snapshot_slots))
    if crossed(before, steps, settings.eval_every) or steps >= plan.target_steps:
        recorder(algo, steps)


def snapshot_slot(steps: int, every: int, slots: int) -> str:
    """The slot the snapshot taken at ``steps`` goes to: the snapshots at ``every``, ``2 every``, ... fill slots
    0, 1, ... in turn, so each overwrites the oldest."""
    return snapshot_module_id((steps // every - 1) % slots)


def _iteration(algo: Any) -> tuple[int, int]:
    """One RLlib training iteration; returns the env steps it sampled and the illegal actions played."""
    from ray.rllib.utils.metrics import ENV_RUNNER_RESULTS, NUM_ENV_STEPS_SAMPLED

    runners = algo.train()[ENV_RUNNER_RESULTS]
    return int(runners[NUM_ENV_STEPS_SAMPLED]), int(runners.get(ILLEGAL_METRIC, 0))


def _progress_bar(settings: RLlibSettings, plan: TrainPlan, steps: int) -> Any:
    if not settings.progress:
        return None
    from tqdm import tqdm

    total = plan.target_steps - plan.start_steps
    return tqdm(total=total, initial=steps - plan.start_steps, desc=f"{settings.game} rllib", unit="step")


__all__ = [
    "RUN_OUTPUTS",
    "TrainPlan",
    "RLlibRunResult",
    "crossed",
    "plan_training",
    "resume_defaults",
    "snapshot_slot",
    "train",
]
