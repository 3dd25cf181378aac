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
import hashlib
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from baselines.agent import Agent
from baselines.factory import agent_choices, make_agent
from baselines.learners.evaluation import (
    AUTO,
    EvalRow,
    cut_eval_history,
    eval_row,
    evaluate_against,
    evaluation_opponents,
    plot_learning_curve,
    write_eval_rows,
)
from baselines.learners.sb3.agent import (
    ModelCard,
    SB3Agent,
    detect_algorithm,
    load_model,
    model_steps,
    read_model_card,
    read_safe_card,
    save_model,
    sidecar_path,
    write_safe_files,
    zip_path,
)
from baselines.learners.sb3.imitation import collect_demonstrations, pretrain_policy
from baselines.learners.sb3.policies import ALGORITHMS, algorithm_class, make_model
from baselines.learners.sb3.safe import weights_path
from baselines.learners.sb3.selfplay import SNAPSHOT_PATTERN, SnapshotCallback, list_snapshots
from baselines.learners.sb3.training import (
    VEC_ENV_KINDS,
    IllegalActionCounter,
    OpponentMix,
    PeriodicCallback,
    TqdmCallback,
    make_vec_env,
)
from baselines.runs import RunDirectory
from baselines.settings import checked_game, split_names
from boardenvs.core import Game, check_int

SELFPLAY = "selfplay"
"""The opponent name that stands for snapshots of the learner."""
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


@dataclass
class SB3Settings:
    """One SB3 training run of :func:`train` (the fields are ``scripts/train_sb3.py``'s options)."""

    game: str = "quoridor"
    """Game name (see boardenvs.list_games())."""
    config: list[str] = field(default_factory=list)
    """Game config as key=value pairs, e.g. board_size=5 num_players=4 (with --resume: the model's by default)."""
    algo: str = "ppo"
    """Algorithm: ppo (MaskablePPO) or dqn (masked DQN)."""
    opponents: str = "random"
    """Comma-separated training opponents, one drawn per episode: random, the game's scripted agents
    (Quoridor: path, heuristic), selfplay (snapshots of the learner)."""
    steps: int = 100_000
    """Environment steps to train (on --resume: steps to add to where the run, or its killed continuation,
    started; rerunning a killed command finishes the same target)."""
    seed: int = 0
    """Seed of the model, the envs and the evaluation games."""
    n_envs: int = 4
    """Number of parallel training envs."""
    vec: str = "dummy"
    """Vectorised env: dummy (one process) or subproc (one worker process per env)."""
    eval_every: int = 10_000
    """Evaluate (and save latest.zip) every this many steps."""
    eval_games: int = 100
    """Games per evaluation opponent (seats rotate)."""
    eval_sampled: bool = False
    """Evaluate the policy by sampling its moves (PPO: from its masked policy; DQN: epsilon-greedy) instead of
    playing its best one. A PPO policy is stochastic: on node conquest its argmax loops (0 of 100 against random)
    where its samples win most games."""
    eval_opponents: str = AUTO
    """Comma-separated evaluation opponents (make_agent names, sb3:<model.zip> too); auto: random plus the
    game's heuristic agent if it has one."""
    out: str = ""
    """Output directory; empty: runs/<game>-<algo>-<seed>, or the directory of --resume."""
    resume: str = ""
    """Run to continue: its folder or a model in it (e.g. runs/q5/model.zip); training goes on from the folder's
    newest intact checkpoint (model.zip or latest.zip) and eval.csv is cut back to it, so it keeps one history."""
    force: bool = False
    """Replace a run already in the output directory (its files are deleted); without it a new run refuses a
    directory that holds one."""
    progress: bool = True
    """Show a progress bar (--no-progress turns it off)."""
    learning_rate: float = 0.0
    """Learning rate; 0: the algorithm's default (PPO 3e-4, DQN 1e-4)."""
    batch_size: int = 0
    """Minibatch size; 0: the algorithm's default (PPO 128, DQN 64)."""
    gamma: float = 0.99
    """Discount factor."""
    shaping: float = 0.0
    """Weight of potential-based reward shaping from the game's heuristic value (baselines.learners.shaping): each
    step adds shaping * (gamma * phi(next) - phi(now)); 0: off, the reward is the game's return alone."""
    teacher: str = ""
    """PPO: an agent of the game (make_agent name, e.g. greedy) whose moves the policy imitates before
    reinforcement learning (behaviour cloning, baselines.learners.sb3.imitation); empty: none. A resumed run has
    it already and skips it. Fine-tune gently (e.g. learning_rate 3e-5, ent_coef 0): at PPO's defaults the first
    updates undid the clone in the benchmark (docs/results/benchmark.md)."""
    teacher_steps: int = 50_000
    """PPO with a teacher: the teacher's decisions recorded in the training env (not counted in steps)."""
    teacher_epochs: int = 20
    """PPO with a teacher: passes of behaviour cloning over its decisions."""
    n_steps: int = 256
    """PPO: rollout steps per env between updates."""
    n_epochs: int = 10
    """PPO: optimisation epochs per rollout."""
    ent_coef: float = 0.01
    """PPO: entropy bonus."""
    buffer_size: int = 50_000
    """DQN: replay buffer size."""
    learning_starts: int = 1_000
    """DQN: steps of random legal play before learning."""
    exploration_fraction: float = 0.3
    """DQN: fraction of the run over which epsilon decays."""
    exploration_final_eps: float = 0.05
    """DQN: final epsilon."""
    target_update_interval: int = 1_000
    """DQN: steps between target-network updates."""
    snapshot_every: int = 10_000
    """Self-play: save a snapshot of the learner every this many steps."""
    snapshot_share: float = 0.5
    """Self-play: probability that an episode's opponent is a snapshot (once one exists)."""
    latest_share: float = 0.5
    """Self-play: probability that a drawn snapshot is the latest one."""


@dataclass
class TrainResult:
    """What a training run produced.

    Attributes:
        out: The output directory.
        model_path: The final model (``model.zip``; the sidecar is ``model.json``).
        best_model_path: The model of the best evaluation so far (``best.zip``: highest mean win rate over the
            evaluation opponents, like SB3's ``EvalCallback`` keeps ``best_model``). Its score was measured on the
            evaluation seeds, so report it on fresh seeds.
        eval_csv: The evaluation log.
        curve_png: The learning-curve plot.
        steps: The model's total training steps (resumed runs included).
        wall_seconds: Total training wall time (resumed runs included).
        final_eval: The last evaluation, one row per opponent.
        train_illegal: Illegal actions played in training during this run.
        snapshots: Self-play snapshots saved during this run.
    """

    out: Path
    model_path: Path
    best_model_path: Path
    eval_csv: Path
    curve_png: Path
    steps: int
    wall_seconds: float
    final_eval: list[EvalRow]
    train_illegal: int
    snapshots: list[Path]


@dataclass(frozen=True)
class Checkpoint:
    """A saved model a run can continue from.

    Attributes:
        path: The model's zip.
        steps: The training steps stored in the zip (they agree with the sidecar's).
        card: Its sidecar, or ``None`` for a model saved without one.
    """

    path: Path
    steps: int
    card: ModelCard | None


@dataclass
class TrainPlan:
    """The validated run: everything ``main`` needs, computed before any training.

    ``start_steps`` is where this stretch of training started (0 for a new run; for a resumed run, the steps of
    the finished run it continues, or the start recorded by the killed continuation it finishes) and
    ``target_steps`` is ``start_steps + steps``, where it ends.
    """

    game: Game
    config: dict[str, Any]
    scripted: tuple[str, ...]
    selfplay: bool
    eval_opponents: list[str]
    out: Path
    resume: Checkpoint | None
    start_steps: int = 0
    target_steps: int = 0


# -- validation -----------------------------------------------------------------------------------
def resume_defaults(settings: SB3Settings) -> SB3Settings:
    """``settings`` with the resumed model's game config when ``resume`` is given without ``config``."""
    if not settings.resume or settings.config:
        return settings
    card = find_checkpoint(settings.resume, settings.out).card
    if card is None or not card.config:
        return settings
    return dataclasses.replace(settings, config=[f"{key}={value!r}" for key, value in card.config.items()])


def plan_training(settings: SB3Settings) -> TrainPlan:
    """Check every setting and build the :class:`TrainPlan`; ``ValueError`` naming the bad parameter."""
    settings = resume_defaults(settings)
    _check_numbers(settings)
    game, config = checked_game(settings.game, settings.config)
    opponents = _training_opponents(settings.opponents, settings.game)
    _check_teacher(settings)
    resume = _checked_resume(settings, game)
    default_out = Path(f"runs/{settings.game}-{settings.algo}-{settings.seed}")
    out = Path(settings.out) if settings.out else run_folder(settings.resume) if resume else default_out
    scripted = tuple(name for name in opponents if name != SELFPLAY)
    eval_opponents = evaluation_opponents(settings.eval_opponents, settings.game)
    start = _start_steps(resume, out) if resume else 0
    plan = TrainPlan(game, config, scripted, SELFPLAY in opponents, eval_opponents, out, resume)
    plan.start_steps, plan.target_steps = start, start + settings.steps
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
    if settings.resume and settings.force:
        raise ValueError("resume and force exclude each other: resume continues a run, force replaces it")


def _check_teacher(settings: SB3Settings) -> None:
    if not settings.teacher:
        return
    if settings.algo != "ppo":
        raise ValueError(f"teacher: behaviour cloning warm-starts a PPO policy only, but algo={settings.algo!r}")
    choices = agent_choices(settings.game)
    if settings.teacher not in choices:
        raise ValueError(
            f"teacher: unknown agent {settings.teacher!r} for game {settings.game!r}; choices: {sorted(choices)}"
        )


def _training_opponents(text: str, game_name: str) -> list[str]:
    names = split_names(text)
    choices = sorted([*agent_choices(game_name), SELFPLAY])
    unknown = [name for name in names if name not in choices]
    if not names or unknown:
        raise ValueError(
            f"opponents: unknown opponent(s) {unknown or [text]} for game {game_name!r}; choices: {choices}"
        )
    return list(dict.fromkeys(names))


def _checked_resume(settings: SB3Settings, game: Game) -> Checkpoint | None:
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


# -- checkpoints ----------------------------------------------------------------------------------
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


def find_checkpoint(resume: str, out: str = "") -> Checkpoint:
    """The newest intact checkpoint of the run ``resume`` names (in ``out`` if given): ``model.zip`` or
    ``latest.zip`` of the folder, or the model ``resume`` names, whichever holds the most steps.

    Raises:
        ValueError: no model there, or none intact (each problem is named).
    """
    folder, named = resume_source(resume)
    folder = Path(out) if out else folder
    candidates = [folder / name for name in CHECKPOINTS]
    candidates += [named] if named is not None and named not in candidates else []
    found: list[Checkpoint] = []
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


def read_checkpoint(path: Path) -> Checkpoint:
    """The :class:`Checkpoint` at ``path``; ``ValueError`` if the zip is unreadable or its card describes another
    step (only possible for a zip saved without its card inside, paired with a newer sidecar by a kill between
    the two writes)."""
    steps, card = model_steps(path), read_model_card(path)
    if card is not None and card.steps != steps:
        raise ValueError(
            f"{str(path)!r} holds step {steps} but its sidecar {sidecar_path(path).name} says {card.steps} (the "
            "run was killed while saving them)"
        )
    return Checkpoint(path, steps, card)


def _start_steps(checkpoint: Checkpoint, out: Path) -> int:
    """Where the training that ``checkpoint`` continues started: a ``latest.zip`` newer than ``model.zip`` is a
    killed stretch (its recorded start), anything else a finished run (its own steps)."""
    if checkpoint.path != out / "latest.zip" or checkpoint.card is None:
        return checkpoint.steps
    return int(checkpoint.card.extra.get("start_steps", checkpoint.steps))


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
    model = algorithm_class(settings.algo).load(plan.resume.path, env=env, device="cpu")
    model.set_random_seed(settings.seed + int(model.num_timesteps))
    return model


# -- resuming -------------------------------------------------------------------------------------
def restore_run(plan: TrainPlan) -> tuple[list[EvalRow], list[str]]:
    """Cut the run in ``plan.out`` back to the checkpoint it resumes from: the ``eval.csv`` rows up to its step
    (a half-written last row dropped), no snapshot and no ``best.zip`` from after it. Returns the kept rows and
    a note on each thing changed."""
    assert plan.resume is not None, "restore_run is for resumed runs"
    steps = plan.resume.steps
    kept, dropped = cut_eval_history(plan.out / "eval.csv", steps)
    notes = [f"resuming {plan.out} from {plan.resume.path.name} at step {steps} (training to {plan.target_steps})"]
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


# -- evaluation -----------------------------------------------------------------------------------
class EvalRecorder:
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
        self.settings, self.plan, self.counter = settings, plan, counter
        card = plan.resume.card if plan.resume else None
        self.started = time.perf_counter() - (card.wall_seconds if card else 0.0)
        self.opponents: dict[str, Agent] = {
            name: make_agent(name, settings.game, settings.seed) for name in plan.eval_opponents
        }
        self.csv_path, self.png_path = plan.out / "eval.csv", plan.out / "learning_curve.png"
        self.history = list(history)
        resumed_at = plan.resume.steps if plan.resume else -1
        self.last_rows = [row for row in self.history if row.steps == resumed_at]
        self.last_steps = resumed_at if self.last_rows else -1
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

    def wall_seconds(self) -> float:
        """Training wall time so far, earlier runs included."""
        return time.perf_counter() - self.started

    def __call__(self, model: Any) -> None:
        """Evaluate ``model`` now; add the rows to ``eval.csv``, redraw the plot, save ``latest.zip`` (and
        ``best.zip`` if it scores best)."""
        learner = SB3Agent(
            model, self.plan.game, name="learner", seed=self.settings.seed, stochastic=self.settings.eval_sampled
        )
        wall = self.wall_seconds()
        self.last_rows = [self._evaluate(learner, name, opponent, wall) for name, opponent in self.opponents.items()]
        self.last_steps = int(model.num_timesteps)
        self.history += self.last_rows
        write_eval_rows(self.csv_path, self.history)
        plot_learning_curve(self.history, self.png_path, title=self._title())
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
        plan = self.plan
        marks = {"start_steps": plan.start_steps, "target_steps": plan.target_steps}
        save_model(model, path, plan.game, self.wall_seconds(), args=self.args_dict(), **marks, **extra)

    def _evaluate(self, learner: SB3Agent, name: str, opponent: Agent, wall: float) -> EvalRow:
        illegal_before = learner.illegal_predictions
        games, seed = self.settings.eval_games, self.settings.seed
        results = evaluate_against(self.plan.game, learner, opponent, games, seed, name)
        illegal = learner.illegal_predictions - illegal_before
        steps = int(learner.model.num_timesteps)
        return eval_row(steps, wall, name, results, illegal=illegal, train_illegal=self.counter.illegal)

    def status(self) -> str:
        """The latest win rates, for the progress bar."""
        return " ".join(f"{row.opponent} {row.win_rate:.2f}" for row in self.last_rows)

    def _title(self) -> str:
        config = " ".join(self.settings.config) or "default config"
        return f"{self.settings.game} ({config}), {self.settings.algo}, seed {self.settings.seed}"

    def args_dict(self) -> dict[str, Any]:
        """The run's settings, recorded in the saved models' sidecars (under ``args``)."""
        return dataclasses.asdict(self.settings)


def best_score(rows: list[EvalRow]) -> float:
    """The highest mean win rate over the evaluation opponents among the evaluations in ``rows`` (-1: none)."""
    by_steps: dict[int, list[float]] = {}
    for row in rows:
        by_steps.setdefault(row.steps, []).append(row.win_rate)
    return max((sum(rates) / len(rates) for rates in by_steps.values()), default=-1.0)


# -- the run --------------------------------------------------------------------------------------
def training_callbacks(settings: SB3Settings, plan: TrainPlan, recorder: EvalRecorder) -> list[Any]:
    """Illegal-move counter, periodic evaluation, self-play snapshots and the progress bar."""
    callbacks: list[Any] = [recorder.counter, PeriodicCallback(settings.eval_every, recorder)]
    if plan.selfplay:
        callbacks.append(SnapshotCallback(plan.out / "snapshots", settings.snapshot_every, plan.game))
    if settings.progress:
        label = f"{settings.game} {settings.algo}"
        callbacks.append(TqdmCallback(remaining_steps(plan), label, status=recorder.status))
    return callbacks


def remaining_steps(plan: TrainPlan) -> int:
    """Steps still to train: to ``plan.target_steps`` from the checkpoint (or from 0)."""
    return plan.target_steps - (plan.resume.steps if plan.resume else 0)


def opponent_mix(settings: SB3Settings, plan: TrainPlan) -> OpponentMix:
    """The training envs' :class:`~baselines.learners.sb3.training.OpponentMix`."""
    snapshot_dir = str(plan.out / "snapshots") if plan.selfplay else None
    return OpponentMix(plan.scripted, snapshot_dir, settings.snapshot_share, settings.latest_share)


def train(settings: SB3Settings) -> TrainResult:
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
        mix = opponent_mix(settings, plan)
        env = make_vec_env(
            settings.game, plan.config, mix, settings.n_envs, settings.vec, settings.shaping, settings.gamma
        )
        try:
            return _train_in(settings, plan, env, history)
        finally:
            env.close()


def _train_in(settings: SB3Settings, plan: TrainPlan, env: Any, history: list[EvalRow]) -> TrainResult:
    model = build_model(settings, plan, env)
    recorder = EvalRecorder(settings, plan, history, IllegalActionCounter())
    callbacks = training_callbacks(settings, plan, recorder)
    if plan.resume is None and settings.teacher:
        clone_teacher(settings, plan, model)
    if plan.resume is None:
        recorder(model)
    else:
        recorder.keep_if_best(model)
    if remaining_steps(plan) > 0:
        model.learn(remaining_steps(plan), callback=callbacks, reset_num_timesteps=plan.resume is None)
    return _finish(model, recorder, callbacks)


def clone_teacher(settings: SB3Settings, plan: TrainPlan, model: Any) -> list[dict[str, float]]:
    """Behaviour cloning of ``settings.teacher`` into ``model``'s policy (before step 0); the per-epoch losses."""
    demos = collect_demonstrations(
        settings.game, plan.config, settings.teacher, opponent_mix(settings, plan), settings.teacher_steps,
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


def _finish(model: Any, recorder: EvalRecorder, callbacks: list[Any]) -> TrainResult:
    if recorder.last_steps != model.num_timesteps:
        recorder(model)
    plan = recorder.plan
    recorder.save(model, plan.out / "model.zip")
    snapshots = [path for callback in callbacks if isinstance(callback, SnapshotCallback) for path in callback.saved]
    return TrainResult(
        out=plan.out,
        model_path=plan.out / "model.zip",
        best_model_path=recorder.best_path,
        eval_csv=recorder.csv_path,
        curve_png=recorder.png_path,
        steps=int(model.num_timesteps),
        wall_seconds=recorder.wall_seconds(),
        final_eval=recorder.last_rows,
        train_illegal=recorder.counter.illegal,
        snapshots=snapshots,
    )
