"""A whole SB3 training run: check the settings, train, evaluate periodically, save, and resume.

:func:`train` runs what :class:`SB3Settings` describes. The learner plays a random seat each episode against
opponents drawn per episode from ``opponents`` (``random``, the game's scripted agents, and ``selfplay``:
snapshots of the learner saved every ``snapshot_every`` steps). Every ``eval_every`` steps it plays
``eval_games`` seeded, seat-rotated games against each evaluation opponent; the results go to
``<out>/eval.csv`` (win rate with draws counted half, Wilson 95% interval, illegal moves) and
``<out>/learning_curve.png``, and the model to ``<out>/latest.zip`` (and to ``<out>/best.zip`` when its mean
win rate is the best so far). The trained model ends in ``<out>/model.zip`` with its JSON sidecar
``model.json``, which also records the run's settings. Every model is saved twice (:func:`save_model`): as the safe
files ``<name>.pt`` and ``<name>.json`` (tensors and JSON, which ``sb3:<out>/model.pt`` and the self-play pool load
without running code) and as SB3's ``<name>.zip``, which only a resumed run loads.

**Runs survive a kill.** Every file is written to a temporary file and renamed (:func:`baselines.runs.atomic_write`),
so a ``kill -9`` at any moment leaves each file whole, and the output folder is locked while a run writes it. A
new run refuses a folder that already holds one (``FileExistsError`` naming ``--resume`` and ``--force``);
``force`` deletes the old run's files first. A run given ``resume`` (its folder, or a model in it such as
``model.zip``) continues from the folder's newest intact checkpoint (``model.zip`` or ``latest.zip``, whichever
holds more steps and agrees with its sidecar): its step counter and wall time go on, ``eval.csv`` is cut back to
that checkpoint's step (rows of the lost stretch are dropped, a half-written last row too), snapshots and
``best.zip`` from after it are removed, and without ``config`` the model's own game config is used. ``steps``
counts from where the run started: a fresh run trains to ``steps``, a continuation of a finished run to its
steps plus ``steps``, and rerunning a killed command (with ``resume``) finishes that same target, so every step
is trained and every evaluation logged once. (SB3 does not save a DQN's replay buffer or the random state, so a
continued run is not bit-identical to an uninterrupted one.) ``scripts/train_sb3.py`` is the command line.

**Resuming trusts the run's own zips.** SB3 unpickles a zip to go on training it, which runs any code in the file;
resume only runs you made (a run folder from elsewhere: play its safe ``.pt`` files, or convert its zips with
``scripts/convert_sb3.py`` and train anew). A resumed run also rewrites the safe files of a checkpoint whose
``.pt``/``.json`` do not match its zip (a kill between the writes, or a run saved before the safe format).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from baselines.factory import agent_choices
from baselines.inputs import checked_game
from baselines.learners.evaluation import EvalRow
from baselines.learners.runner import (
    SELFPLAY,
    EvalLog,
    OpponentMix,
    RunResult,
    TrainPlan,
    best_score,
    check_agent_specs,
    check_resume_force,
    evaluation_opponents,
    resumed_config,
    run_title,
    training_opponents,
)
from baselines.learners.sb3.agent import SB3Agent
from baselines.learners.sb3.imitation import collect_demonstrations, pretrain_policy
from baselines.learners.sb3.loading import detect_algorithm, load_model
from baselines.learners.sb3.model_card import read_model_card
from baselines.learners.sb3.policies import ALGORITHMS, algorithm_class, make_model
from baselines.learners.sb3.resume import (
    CHECKPOINTS,
    RUN_OUTPUTS,
    find_checkpoint,
    read_checkpoint,
    restore_run,
    resume_source,
    run_folder,
    start_steps,
)
from baselines.learners.sb3.saving import save_model
from baselines.learners.sb3.selfplay import SnapshotCallback
from baselines.learners.sb3.settings import SB3Settings
from baselines.learners.sb3.training import (
    VEC_ENV_KINDS,
    IllegalActionCounter,
    PeriodicCallback,
    TqdmCallback,
    make_vec_env,
)
from baselines.runs import RunDirectory
from boardenvs.core import Game, check_int


@dataclass
class SB3RunResult(RunResult):
    """What a training run produced (besides :class:`~baselines.learners.runner.RunResult`'s fields).

    Attributes:
        model_path: The final model (``model.zip``; the sidecar is ``model.json``).
        best_model_path: The model of the best evaluation so far (``best.zip``: highest mean win rate over the
            evaluation opponents, like SB3's ``EvalCallback`` keeps ``best_model``). Its score was measured on the
            evaluation seeds, so report it on fresh seeds.
        snapshots: Self-play snapshots saved during this run.
    """

    model_path: Path
    best_model_path: Path
    snapshots: list[Path]


# -- validation -----------------------------------------------------------------------------------
def resume_defaults(settings: SB3Settings) -> SB3Settings:
    """``settings`` with the resumed model's game config when ``resume`` is given without ``config``."""
    if not settings.resume or settings.config:
        return settings
    card = find_checkpoint(settings.resume, settings.out).card
    return resumed_config(settings, card.config if card is not None else None)


def plan_training(settings: SB3Settings) -> TrainPlan:
    """Check every setting and build the :class:`~baselines.learners.runner.TrainPlan` (``plan.resumed`` the
    checkpoint, its ``card`` the sidecar); ``ValueError`` naming the bad parameter."""
    settings = resume_defaults(settings)
    _check_numbers(settings)
    game, config = checked_game(settings.game, settings.config)
    opponents = training_opponents(settings.opponents, settings.game, (SELFPLAY,))
    _check_teacher(settings)
    resumed = _checked_resume(settings, game)
    default_out = Path(f"runs/{settings.game}-{settings.algo}-{settings.seed}")
    out = Path(settings.out) if settings.out else run_folder(settings.resume) if resumed else default_out
    snapshot_dir = str(out / "snapshots") if SELFPLAY in opponents else None
    mix = OpponentMix(opponents, snapshot_dir, settings.snapshot_share, settings.latest_share)
    eval_opponents = evaluation_opponents(settings.eval_opponents, settings.game)
    plan = TrainPlan(game, config, mix, eval_opponents, out, resumed)
    plan.start_steps = start_steps(resumed, out) if resumed else 0
    plan.target_steps = plan.start_steps + settings.steps
    return plan


def _check_numbers(settings: SB3Settings) -> None:
    if settings.algo not in ALGORITHMS:
        raise ValueError(f"algo must be one of {list(ALGORITHMS)}, got {settings.algo!r}")
    if settings.vec not in VEC_ENV_KINDS:
        raise ValueError(f"vec must be one of {list(VEC_ENV_KINDS)}, got {settings.vec!r}")
    positive = ("steps", "n_envs", "eval_every", "eval_games", "n_steps", "n_epochs", "snapshot_every", "teacher_steps",
                "teacher_epochs")  # fmt: skip
    for name in (*positive, "buffer_size", "target_update_interval"):
        check_int(name, getattr(settings, name), 1)
    for name in ("seed", "batch_size", "learning_starts"):
        check_int(name, getattr(settings, name), 0)
    for name in ("snapshot_share", "latest_share", "exploration_fraction", "exploration_final_eps", "gamma"):
        if not 0.0 <= getattr(settings, name) <= 1.0:
            raise ValueError(f"{name} must be in [0, 1], got {getattr(settings, name)!r}")
    if settings.learning_rate < 0:
        raise ValueError(f"learning_rate must be >= 0 (0: the default), got {settings.learning_rate!r}")
    if not (math.isfinite(settings.shaping) and settings.shaping >= 0):
        raise ValueError(f"shaping must be a finite number >= 0 (0: off), got {settings.shaping!r}")
    check_resume_force(settings.resume, settings.force)


def _check_teacher(settings: SB3Settings) -> None:
    if not settings.teacher:
        return
    if settings.algo != "ppo":
        raise ValueError(f"teacher: behaviour cloning warm-starts a PPO policy only, but algo={settings.algo!r}")
    check_agent_specs("teacher", [settings.teacher], settings.game, models=False)


def _checked_resume(settings: SB3Settings, game: Game) -> Any:
    if not settings.resume:
        return None
    checkpoint = find_checkpoint(settings.resume, settings.out)
    path = checkpoint.path
    algo = detect_algorithm(path)
    if algo != settings.algo:
        raise ValueError(f"resume: {path} is a {algo} model, but algo={settings.algo!r}")
    try:
        _, card = load_model(path, game, trusted=True)  # the run's own zip (see the module: resume trusts it)
    except ValueError as error:
        raise ValueError(f"resume: {error}") from None
    if card.game and card.game != game.spec.name:
        raise ValueError(f"resume: {path} was trained on game {card.game!r}, not {game.spec.name!r}")
    return checkpoint


# -- the model ------------------------------------------------------------------------------------
def hyperparameters(settings: SB3Settings) -> dict[str, Any]:
    """The constructor arguments of the algorithm (``learning_rate``/``batch_size`` only if set)."""
    chosen: dict[str, Any] = {"gamma": settings.gamma}
    if settings.learning_rate > 0:
        chosen["learning_rate"] = settings.learning_rate
    if settings.batch_size > 0:
        chosen["batch_size"] = settings.batch_size
    if settings.algo == "ppo":
        return {**chosen, "n_steps": settings.n_steps, "n_epochs": settings.n_epochs, "ent_coef": settings.ent_coef}
    dqn_names = ("buffer_size", "learning_starts", "exploration_fraction", "exploration_final_eps")
    return {**chosen, **{name: getattr(settings, name) for name in (*dqn_names, "target_update_interval")}}


def build_model(settings: SB3Settings, plan: TrainPlan, env: Any) -> Any:
    """A new model, or the resumed one attached to ``env`` (reseeded from the seed and its step count)."""
    if plan.resume is None:
        return make_model(settings.algo, env, plan.game, seed=settings.seed, **hyperparameters(settings))
    model = algorithm_class(settings.algo).load(plan.resume, env=env, device="cpu")
    model.set_random_seed(settings.seed + int(model.num_timesteps))
    return model


# -- evaluation -----------------------------------------------------------------------------------
class EvalRecorder(EvalLog):
    """Evaluates the model against every evaluation opponent, logs to CSV, redraws the plot, saves latest/best.

    Every file is rewritten atomically and in this order: ``eval.csv``, the plot, ``latest.zip``, ``best.zip``;
    so a killed run's newest intact checkpoint never lies behind a ``best.zip``, and the rows after it are the
    ones a resumed run drops.

    Args:
        settings: The run's settings.
        plan: The validated plan.
        history: The rows of ``eval.csv`` so far (a resumed run's, cut back to its checkpoint).
        counter: The training illegal-action counter (reported in the CSV).
    """

    def __init__(
        self, settings: SB3Settings, plan: TrainPlan, history: Sequence[EvalRow], counter: IllegalActionCounter
    ) -> None:
        title = run_title(settings, settings.algo)
        super().__init__(plan, settings.game, settings.seed, settings.eval_games, title, history)
        self.settings, self.counter = settings, counter
        self.best_path = plan.out / "best.zip"
        self.best_score = self._stored_best_score()

    def _stored_best_score(self) -> float:
        """The score of the ``best.zip`` kept from earlier (recorded in its card, else in ``eval.csv``), or -1."""
        card = read_model_card(self.best_path) if self.best_path.exists() else None
        if card is None:
            return -1.0
        if "score" in card.extra:
            return float(card.extra["score"])
        return best_score([row for row in self.history if row.steps == card.steps])

    def __call__(self, model: Any) -> None:
        """Evaluate ``model`` now; add the rows to ``eval.csv``, redraw the plot, save ``latest.zip`` (and
        ``best.zip`` if it scores best)."""
        learner = SB3Agent(
            model, self.plan.game, name="learner", seed=self.settings.seed, stochastic=self.settings.eval_sampled
        )
        self.train_illegal = self.counter.illegal
        self.record(learner, int(model.num_timesteps))
        self.save(model, self.plan.out / "latest.zip")
        self.keep_if_best(model)

    def keep_if_best(self, model: Any) -> None:
        """Save ``model`` as ``best.zip`` if its latest evaluation beats the best so far (a resumed run calls
        this for its checkpoint: a kill between saving ``latest.zip`` and ``best.zip`` loses no best model)."""
        score = best_score(self.last_rows)
        if self.last_rows and score > self.best_score:
            self.best_score = score
            self.save(model, self.best_path, score=score)

    def save(self, model: Any, path: Path, **extra: Any) -> None:
        """Save ``model`` at ``path`` with the run's settings and its start and target steps in the sidecar."""
        save_model(
            model, path, self.plan.game, self.wall_seconds(), args=self.args_dict(), **self.plan.marks(), **extra
        )

    def args_dict(self) -> dict[str, Any]:
        """The run's settings, recorded in the saved models' sidecars (under ``args``)."""
        return dataclasses.asdict(self.settings)


# -- the run --------------------------------------------------------------------------------------
def training_callbacks(settings: SB3Settings, plan: TrainPlan, recorder: EvalRecorder) -> list[Any]:
    """Illegal-move counter, periodic evaluation, self-play snapshots and the progress bar."""
    callbacks: list[Any] = [recorder.counter, PeriodicCallback(settings.eval_every, recorder)]
    if plan.mix.snapshot_dir is not None:
        callbacks.append(SnapshotCallback(plan.out / "snapshots", settings.snapshot_every, plan.game))
    if settings.progress:
        label = f"{settings.game} {settings.algo}"
        callbacks.append(TqdmCallback(plan.remaining_steps(), label, status=recorder.status))
    return callbacks


def remaining_steps(plan: TrainPlan) -> int:
    """Steps still to train: to ``plan.target_steps`` from the checkpoint (or from 0)."""
    return plan.remaining_steps()


def train(settings: SB3Settings) -> SB3RunResult:
    """Check ``settings``, claim the output folder, train (or go on training), evaluate periodically, save the
    model; return what was produced.

    Raises:
        ValueError: a bad setting, or ``resume`` without an intact model to continue, or a damaged ``eval.csv``
            line (named by file and line).
        FileExistsError: a new run in a folder that holds one, without ``force``.
        RuntimeError: another process is writing the folder.
    """
    settings = resume_defaults(settings)
    plan = plan_training(settings)
    with RunDirectory(plan.out, RUN_OUTPUTS, resume=plan.resume is not None, force=settings.force):
        history: list[EvalRow] = []
        if plan.resume is not None:
            history, notes = restore_run(plan)
            print("\n".join(notes))
        env = make_vec_env(
            settings.game, plan.config, plan.mix, settings.n_envs, settings.vec, settings.shaping, settings.gamma
        )
        try:
            return _train_in(settings, plan, env, history)
        finally:
            env.close()


def _train_in(settings: SB3Settings, plan: TrainPlan, env: Any, history: list[EvalRow]) -> SB3RunResult:
    model = build_model(settings, plan, env)
    recorder = EvalRecorder(settings, plan, history, IllegalActionCounter())
    callbacks = training_callbacks(settings, plan, recorder)
    if plan.resume is None and settings.teacher:
        clone_teacher(settings, plan, model)
    if plan.resume is None:
        recorder(model)
    else:
        recorder.keep_if_best(model)
    if plan.remaining_steps() > 0:
        model.learn(plan.remaining_steps(), callback=callbacks, reset_num_timesteps=plan.resume is None)
    return _finish(model, recorder, callbacks)


def clone_teacher(settings: SB3Settings, plan: TrainPlan, model: Any) -> list[dict[str, float]]:
    """Behaviour cloning of ``settings.teacher`` into ``model``'s policy (before step 0); the per-epoch losses."""
    demos = collect_demonstrations(
        settings.game, plan.config, settings.teacher, plan.mix, settings.teacher_steps,
        settings.seed, settings.shaping, settings.gamma, settings.progress,
    )  # fmt: skip
    history = pretrain_policy(model, demos, settings.teacher_epochs, settings.seed, progress=settings.progress)
    last = history[-1]
    print(
        f"behaviour cloning of {settings.teacher}: {demos.size} decisions of {demos.episodes} games (its mean return "
        f"{demos.teacher_return:.2f}), {settings.teacher_epochs} epochs: agrees on {last['agreement']:.0%}, policy "
        f"loss {last['policy_loss']:.3f}, value loss {last['value_loss']:.4f}"
    )
    return history


def _finish(model: Any, recorder: EvalRecorder, callbacks: list[Any]) -> SB3RunResult:
    if recorder.last_steps != model.num_timesteps:
        recorder(model)
    plan = recorder.plan
    recorder.save(model, plan.out / "model.zip")
    recorder.train_illegal = recorder.counter.illegal
    snapshots = [path for callback in callbacks if isinstance(callback, SnapshotCallback) for path in callback.saved]
    fields = recorder.result_fields(int(model.num_timesteps))
    return SB3RunResult(
        **fields, model_path=plan.out / "model.zip", best_model_path=recorder.best_path, snapshots=snapshots
    )


__all__ = [
    "CHECKPOINTS",
    "RUN_OUTPUTS",
    "SB3Settings",
    "TrainPlan",
    "SB3RunResult",
    "agent_choices",
    "build_model",
    "find_checkpoint",
    "plan_training",
    "read_checkpoint",
    "restore_run",
    "resume_defaults",
    "resume_source",
    "run_folder",
    "train",
]
