"""A whole SB3 training run: check the settings, train, evaluate periodically, save, and resume.

:func:`train` runs what :class:`SB3Settings` describes. The learner plays a random seat each episode against
opponents drawn per episode from ``opponents`` (``random``, the game's scripted agents, and ``selfplay``:
snapshots of the learner saved every ``snapshot_every`` steps). Every ``eval_every`` steps it plays
``eval_games`` seeded, seat-rotated games against each evaluation opponent; the results go to
``<out>/eval.csv`` (win rate with draws counted half, Wilson 95% interval, illegal moves) and
``<out>/learning_curve.png``, and the model to ``<out>/latest.zip`` (and to ``<out>/best.zip`` when its mean
win rate is the best so far). The trained model ends in ``<out>/model.zip`` with its JSON sidecar
``model.json``, which also records the run's settings.

A run given ``resume`` (a saved ``model.zip``) continues that model: its step counter and wall time go on,
``eval.csv`` is appended, and without ``config`` the model's own game config is used.
``scripts/train_sb3.py`` is the command line.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from baselines.agent import Agent
from baselines.factory import agent_choices, make_agent
from baselines.learners.sb3.agent import SB3Agent, detect_algorithm, load_model, read_model_card, save_model, zip_path
from baselines.learners.sb3.evaluation import (
    EvalRow,
    append_eval_rows,
    eval_row,
    evaluate_against,
    plot_learning_curve,
    read_eval_rows,
)
from baselines.learners.sb3.policies import ALGORITHMS, algorithm_class, make_model
from baselines.learners.sb3.selfplay import SnapshotCallback
from baselines.learners.sb3.training import (
    VEC_ENV_KINDS,
    IllegalActionCounter,
    OpponentMix,
    PeriodicCallback,
    TqdmCallback,
    make_vec_env,
)
from baselines.settings import parse_config
from boardenvs.core import Game, check_int
from boardenvs.registry import game_entry, make_game

SELFPLAY = "selfplay"
"""The opponent name that stands for snapshots of the learner."""
AUTO = "auto"
"""``eval_opponents`` default: random plus the game's ``heuristic`` agent if it has one."""


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
    """Environment steps to train (on --resume: steps to add)."""
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
    eval_opponents: str = AUTO
    """Comma-separated evaluation opponents (make_agent names, sb3:<model.zip> too); auto: random plus the
    game's heuristic agent if it has one."""
    out: str = ""
    """Output directory; empty: runs/<game>-<algo>-<seed>, or the directory of --resume."""
    resume: str = ""
    """Path of a saved model.zip to continue training (its step counter continues, eval.csv is appended)."""
    progress: bool = True
    """Show a progress bar (--no-progress turns it off)."""
    learning_rate: float = 0.0
    """Learning rate; 0: the algorithm's default (PPO 3e-4, DQN 1e-4)."""
    batch_size: int = 0
    """Minibatch size; 0: the algorithm's default (PPO 128, DQN 64)."""
    gamma: float = 0.99
    """Discount factor."""
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


@dataclass
class TrainPlan:
    """The validated run: everything ``main`` needs, computed before any training."""

    game: Game
    config: dict[str, Any]
    scripted: tuple[str, ...]
    selfplay: bool
    eval_opponents: list[str]
    out: Path
    resume: Path | None


# -- validation -----------------------------------------------------------------------------------
def resume_defaults(settings: SB3Settings) -> SB3Settings:
    """``settings`` with the resumed model's game config when ``resume`` is given without ``config``."""
    card = read_model_card(settings.resume) if settings.resume and not settings.config else None
    if card is None or not card.config:
        return settings
    return dataclasses.replace(settings, config=[f"{key}={value!r}" for key, value in card.config.items()])


def plan_training(settings: SB3Settings) -> TrainPlan:
    """Check every setting and build the :class:`TrainPlan`; ``ValueError`` naming the bad parameter."""
    settings = resume_defaults(settings)
    _check_numbers(settings)
    game, config = _checked_game(settings)
    opponents = _training_opponents(settings.opponents, settings.game)
    resume = _checked_resume(settings, game)
    default_out = Path(f"runs/{settings.game}-{settings.algo}-{settings.seed}")
    out = Path(settings.out) if settings.out else resume.parent if resume else default_out
    scripted = tuple(name for name in opponents if name != SELFPLAY)
    eval_opponents = _evaluation_opponents(settings.eval_opponents, settings.game)
    return TrainPlan(game, config, scripted, SELFPLAY in opponents, eval_opponents, out, resume)


def _check_numbers(settings: SB3Settings) -> None:
    if settings.algo not in ALGORITHMS:
        raise ValueError(f"algo must be one of {list(ALGORITHMS)}, got {settings.algo!r}")
    if settings.vec not in VEC_ENV_KINDS:
        raise ValueError(f"vec must be one of {list(VEC_ENV_KINDS)}, got {settings.vec!r}")
    positive = ("steps", "n_envs", "eval_every", "eval_games", "n_steps", "n_epochs", "snapshot_every")
    for name in (*positive, "buffer_size", "target_update_interval"):
        check_int(name, getattr(settings, name), 1)
    for name in ("seed", "batch_size", "learning_starts"):
        check_int(name, getattr(settings, name), 0)
    for name in ("snapshot_share", "latest_share", "exploration_fraction", "exploration_final_eps", "gamma"):
        if not 0.0 <= getattr(settings, name) <= 1.0:
            raise ValueError(f"{name} must be in [0, 1], got {getattr(settings, name)!r}")
    if settings.learning_rate < 0:
        raise ValueError(f"learning_rate must be >= 0 (0: the default), got {settings.learning_rate!r}")


def _checked_game(settings: SB3Settings) -> tuple[Game, dict[str, Any]]:
    try:
        game_entry(settings.game)
    except ValueError as error:
        raise ValueError(f"game: {error}") from None
    try:
        config = parse_config(settings.config)
        return make_game(settings.game, **config), config
    except (TypeError, ValueError) as error:
        raise ValueError(f"config {settings.config}: {error}") from None


def split_names(text: str) -> list[str]:
    """The names in a comma-separated list, stripped, empty entries dropped."""
    return [name.strip() for name in text.split(",") if name.strip()]


def _training_opponents(text: str, game_name: str) -> list[str]:
    names = split_names(text)
    choices = sorted([*agent_choices(game_name), SELFPLAY])
    unknown = [name for name in names if name not in choices]
    if not names or unknown:
        raise ValueError(
            f"opponents: unknown opponent(s) {unknown or [text]} for game {game_name!r}; choices: {choices}"
        )
    return list(dict.fromkeys(names))


def _evaluation_opponents(text: str, game_name: str) -> list[str]:
    if text.strip() == AUTO:
        return ["random", *(["heuristic"] if "heuristic" in agent_choices(game_name) else [])]
    names = list(dict.fromkeys(split_names(text)))
    if not names:
        raise ValueError(f"eval_opponents: name at least one opponent (or {AUTO!r}), got {text!r}")
    for name in names:
        try:
            make_agent(name, game_name)
        except (ValueError, FileNotFoundError) as error:
            raise ValueError(f"eval_opponents: {error}") from None
    return names


def _checked_resume(settings: SB3Settings, game: Game) -> Path | None:
    if not settings.resume:
        return None
    path = zip_path(settings.resume)
    if not path.exists():
        raise ValueError(f"resume: no saved model at {path}")
    algo = detect_algorithm(path)
    if algo != settings.algo:
        raise ValueError(f"resume: {path} is a {algo} model, but algo={settings.algo!r}")
    try:
        _, card = load_model(path, game)
    except ValueError as error:
        raise ValueError(f"resume: {error}") from None
    if card.game and card.game != game.spec.name:
        raise ValueError(f"resume: {path} was trained on game {card.game!r}, not {game.spec.name!r}")
    return path


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
class EvalRecorder:
    """Evaluates the model against every evaluation opponent, logs to CSV, redraws the plot, saves latest/best.

    Args:
        settings: The run's settings.
        plan: The validated plan.
        wall_offset: Wall seconds of earlier (resumed) training.
        counter: The training illegal-action counter (reported in the CSV).
    """

    def __init__(
        self, settings: SB3Settings, plan: TrainPlan, wall_offset: float, counter: IllegalActionCounter
    ) -> None:
        self.settings, self.plan, self.counter = settings, plan, counter
        self.started = time.perf_counter() - wall_offset
        self.opponents: dict[str, Agent] = {
            name: make_agent(name, settings.game, settings.seed) for name in plan.eval_opponents
        }
        self.csv_path, self.png_path = plan.out / "eval.csv", plan.out / "learning_curve.png"
        self.last_rows: list[EvalRow] = []
        self.last_steps = -1
        self.best_path = plan.out / "best.zip"
        self.best_score = best_score(read_eval_rows(self.csv_path)) if plan.resume else -1.0

    def wall_seconds(self) -> float:
        """Training wall time so far, earlier runs included."""
        return time.perf_counter() - self.started

    def __call__(self, model: Any) -> None:
        """Evaluate ``model`` now; append to ``eval.csv``, redraw the plot, save ``latest.zip``."""
        learner, wall = SB3Agent(model, self.plan.game, name="learner"), self.wall_seconds()
        self.last_rows = [self._evaluate(learner, name, opponent, wall) for name, opponent in self.opponents.items()]
        self.last_steps = int(model.num_timesteps)
        append_eval_rows(self.csv_path, self.last_rows)
        plot_learning_curve(read_eval_rows(self.csv_path), self.png_path, title=self._title())
        save_model(model, self.plan.out / "latest.zip", self.plan.game, self.wall_seconds(), args=self.args_dict())
        score = best_score(self.last_rows)
        if score > self.best_score:
            self.best_score = score
            save_model(model, self.best_path, self.plan.game, self.wall_seconds(), args=self.args_dict())

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
        callbacks.append(TqdmCallback(settings.steps, f"{settings.game} {settings.algo}", status=recorder.status))
    return callbacks


def opponent_mix(settings: SB3Settings, plan: TrainPlan) -> OpponentMix:
    """The training envs' :class:`~baselines.learners.sb3.training.OpponentMix`."""
    snapshot_dir = str(plan.out / "snapshots") if plan.selfplay else None
    return OpponentMix(plan.scripted, snapshot_dir, settings.snapshot_share, settings.latest_share)


def train(settings: SB3Settings) -> TrainResult:
    """Check ``settings``, train, evaluate periodically, save the model; return what was produced."""
    settings = resume_defaults(settings)
    plan = plan_training(settings)
    card = read_model_card(plan.resume) if plan.resume else None
    _prepare_output(plan)
    env = make_vec_env(settings.game, plan.config, opponent_mix(settings, plan), settings.n_envs, settings.vec)
    try:
        model = build_model(settings, plan, env)
        recorder = EvalRecorder(settings, plan, card.wall_seconds if card else 0.0, IllegalActionCounter())
        callbacks = training_callbacks(settings, plan, recorder)
        if plan.resume is None:
            recorder(model)
        model.learn(settings.steps, callback=callbacks, reset_num_timesteps=plan.resume is None)
        return _finish(model, recorder, callbacks)
    finally:
        env.close()


def _prepare_output(plan: TrainPlan) -> None:
    """Create the output directory; a new (not resumed) run starts a fresh ``eval.csv``."""
    plan.out.mkdir(parents=True, exist_ok=True)
    if plan.resume is None:
        (plan.out / "eval.csv").unlink(missing_ok=True)


def _finish(model: Any, recorder: EvalRecorder, callbacks: list[Any]) -> TrainResult:
    if recorder.last_steps != model.num_timesteps:
        recorder(model)
    plan = recorder.plan
    model_path = save_model(
        model, plan.out / "model.zip", plan.game, recorder.wall_seconds(), args=recorder.args_dict()
    )
    snapshots = [path for callback in callbacks if isinstance(callback, SnapshotCallback) for path in callback.saved]
    return TrainResult(
        out=plan.out,
        model_path=model_path,
        best_model_path=recorder.best_path,
        eval_csv=recorder.csv_path,
        curve_png=recorder.png_path,
        steps=int(model.num_timesteps),
        wall_seconds=recorder.wall_seconds(),
        final_eval=recorder.last_rows,
        train_illegal=recorder.counter.illegal,
        snapshots=snapshots,
    )
