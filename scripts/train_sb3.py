"""Train MaskablePPO or a masked DQN on a boardenvs game and plot its learning curve.

    python -m scripts.train_sb3 --config board_size=5                       # PPO vs random on Quoridor 5x5
    python -m scripts.train_sb3 --config board_size=5 --algo dqn --steps 200000
    python -m scripts.train_sb3 --config board_size=5 --opponents random,heuristic,selfplay --vec subproc
    python -m scripts.train_sb3 --resume runs/quoridor-ppo-0/model.zip --steps 50000   # 50k more steps

The learner plays a random seat each episode against opponents drawn per episode from ``--opponents``
(``random``, the game's scripted agents, and ``selfplay``: snapshots of the learner saved every
``--snapshot-every`` steps). Every ``--eval-every`` steps it plays ``--eval-games`` seeded, seat-rotated
games against each evaluation opponent; the results go to ``<out>/eval.csv`` (win rate with draws counted
half, Wilson 95% interval, illegal moves) and ``<out>/learning_curve.png``, and the model to
``<out>/latest.zip`` (and to ``<out>/best.zip`` when its mean win rate is the best so far; measure that one
again on fresh seeds). The trained model ends in ``<out>/model.zip`` with its JSON sidecar ``model.json``; play
it with ``python -m scripts.tournament --agents random,heuristic,sb3:<out>/model.zip``.
"""

from __future__ import annotations

import dataclasses
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch

from baselines.agent import Agent
from baselines.factory import agent_choices, make_agent
from baselines.sb3.agent import SB3Agent, detect_algorithm, load_model, read_model_card, save_model, zip_path
from baselines.sb3.evaluation import (
    EvalRow,
    append_eval_rows,
    eval_row,
    evaluate_against,
    plot_learning_curve,
    read_eval_rows,
)
from baselines.sb3.policies import ALGORITHMS, algorithm_class, make_model
from baselines.sb3.selfplay import SnapshotCallback
from baselines.sb3.training import (
    VEC_ENV_KINDS,
    IllegalActionCounter,
    OpponentMix,
    PeriodicCallback,
    TqdmCallback,
    make_vec_env,
)
from boardenvs.core import Game, check_int
from boardenvs.registry import game_entry, make_game
from scripts._args import parse_args, parse_config

SELFPLAY = "selfplay"
"""The opponent name that stands for snapshots of the learner."""
AUTO = "auto"
"""``eval_opponents`` default: random plus the game's ``heuristic`` agent if it has one."""


@dataclass
class Args:
    """Train MaskablePPO or a masked DQN on a boardenvs game; evaluate it periodically in the arena."""

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
def resume_defaults(args: Args) -> Args:
    """``args`` with the resumed model's game config when ``--resume`` is given without ``--config``."""
    card = read_model_card(args.resume) if args.resume and not args.config else None
    if card is None or not card.config:
        return args
    return dataclasses.replace(args, config=[f"{key}={value!r}" for key, value in card.config.items()])


def plan_training(args: Args) -> TrainPlan:
    """Check every argument and build the :class:`TrainPlan`; ``ValueError`` naming the bad parameter."""
    args = resume_defaults(args)
    _check_numbers(args)
    game, config = _checked_game(args)
    opponents = _training_opponents(args.opponents, args.game)
    resume = _checked_resume(args, game)
    out = Path(args.out) if args.out else resume.parent if resume else Path(f"runs/{args.game}-{args.algo}-{args.seed}")
    scripted = tuple(name for name in opponents if name != SELFPLAY)
    eval_opponents = _evaluation_opponents(args.eval_opponents, args.game)
    return TrainPlan(game, config, scripted, SELFPLAY in opponents, eval_opponents, out, resume)


def _check_numbers(args: Args) -> None:
    if args.algo not in ALGORITHMS:
        raise ValueError(f"algo must be one of {list(ALGORITHMS)}, got {args.algo!r}")
    if args.vec not in VEC_ENV_KINDS:
        raise ValueError(f"vec must be one of {list(VEC_ENV_KINDS)}, got {args.vec!r}")
    positive = ("steps", "n_envs", "eval_every", "eval_games", "n_steps", "n_epochs", "snapshot_every")
    for name in (*positive, "buffer_size", "target_update_interval"):
        check_int(name, getattr(args, name), 1)
    for name in ("seed", "batch_size", "learning_starts"):
        check_int(name, getattr(args, name), 0)
    for name in ("snapshot_share", "latest_share", "exploration_fraction", "exploration_final_eps", "gamma"):
        if not 0.0 <= getattr(args, name) <= 1.0:
            raise ValueError(f"{name} must be in [0, 1], got {getattr(args, name)!r}")
    if args.learning_rate < 0:
        raise ValueError(f"learning_rate must be >= 0 (0: the default), got {args.learning_rate!r}")


def _checked_game(args: Args) -> tuple[Game, dict[str, Any]]:
    try:
        game_entry(args.game)
    except ValueError as error:
        raise ValueError(f"game: {error}") from None
    try:
        config = parse_config(args.config)
        return make_game(args.game, **config), config
    except (TypeError, ValueError) as error:
        raise ValueError(f"config {args.config}: {error}") from None


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


def _checked_resume(args: Args, game: Game) -> Path | None:
    if not args.resume:
        return None
    path = zip_path(args.resume)
    if not path.exists():
        raise ValueError(f"resume: no saved model at {path}")
    algo = detect_algorithm(path)
    if algo != args.algo:
        raise ValueError(f"resume: {path} is a {algo} model, but algo={args.algo!r}")
    try:
        _, card = load_model(path, game)
    except ValueError as error:
        raise ValueError(f"resume: {error}") from None
    if card.game and card.game != game.spec.name:
        raise ValueError(f"resume: {path} was trained on game {card.game!r}, not {game.spec.name!r}")
    return path


# -- the model ------------------------------------------------------------------------------------
def hyperparameters(args: Args) -> dict[str, Any]:
    """The constructor arguments of the algorithm (``learning_rate``/``batch_size`` only if set)."""
    chosen: dict[str, Any] = {"gamma": args.gamma}
    if args.learning_rate > 0:
        chosen["learning_rate"] = args.learning_rate
    if args.batch_size > 0:
        chosen["batch_size"] = args.batch_size
    if args.algo == "ppo":
        return {**chosen, "n_steps": args.n_steps, "n_epochs": args.n_epochs, "ent_coef": args.ent_coef}
    dqn_names = ("buffer_size", "learning_starts", "exploration_fraction", "exploration_final_eps")
    return {**chosen, **{name: getattr(args, name) for name in (*dqn_names, "target_update_interval")}}


def build_model(args: Args, plan: TrainPlan, env: Any) -> Any:
    """A new model, or the resumed one attached to ``env`` (reseeded from the seed and its step count)."""
    if plan.resume is None:
        return make_model(args.algo, env, plan.game, seed=args.seed, **hyperparameters(args))
    model = algorithm_class(args.algo).load(plan.resume, env=env, device="cpu")
    model.set_random_seed(args.seed + int(model.num_timesteps))
    return model


# -- evaluation -----------------------------------------------------------------------------------
class EvalRecorder:
    """Evaluates the model against every evaluation opponent, logs to CSV, redraws the plot, saves latest/best.

    Args:
        args: The run's arguments.
        plan: The validated plan.
        wall_offset: Wall seconds of earlier (resumed) training.
        counter: The training illegal-action counter (reported in the CSV).
    """

    def __init__(self, args: Args, plan: TrainPlan, wall_offset: float, counter: IllegalActionCounter) -> None:
        self.args, self.plan, self.counter = args, plan, counter
        self.started = time.perf_counter() - wall_offset
        self.opponents: dict[str, Agent] = {
            name: make_agent(name, args.game, args.seed) for name in plan.eval_opponents
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
        results = evaluate_against(self.plan.game, learner, opponent, self.args.eval_games, self.args.seed, name)
        illegal = learner.illegal_predictions - illegal_before
        steps = int(learner.model.num_timesteps)
        return eval_row(steps, wall, name, results, illegal=illegal, train_illegal=self.counter.illegal)

    def status(self) -> str:
        """The latest win rates, for the progress bar."""
        return " ".join(f"{row.opponent} {row.win_rate:.2f}" for row in self.last_rows)

    def _title(self) -> str:
        config = " ".join(self.args.config) or "default config"
        return f"{self.args.game} ({config}), {self.args.algo}, seed {self.args.seed}"

    def args_dict(self) -> dict[str, Any]:
        """The run's arguments, recorded in the saved models' sidecars."""
        return dataclasses.asdict(self.args)


def best_score(rows: list[EvalRow]) -> float:
    """The highest mean win rate over the evaluation opponents among the evaluations in ``rows`` (-1: none)."""
    by_steps: dict[int, list[float]] = {}
    for row in rows:
        by_steps.setdefault(row.steps, []).append(row.win_rate)
    return max((sum(rates) / len(rates) for rates in by_steps.values()), default=-1.0)


# -- the run --------------------------------------------------------------------------------------
def training_callbacks(args: Args, plan: TrainPlan, recorder: EvalRecorder) -> list[Any]:
    """Illegal-move counter, periodic evaluation, self-play snapshots and the progress bar."""
    callbacks: list[Any] = [recorder.counter, PeriodicCallback(args.eval_every, recorder)]
    if plan.selfplay:
        callbacks.append(SnapshotCallback(plan.out / "snapshots", args.snapshot_every, plan.game))
    if args.progress:
        callbacks.append(TqdmCallback(args.steps, f"{args.game} {args.algo}", status=recorder.status))
    return callbacks


def opponent_mix(args: Args, plan: TrainPlan) -> OpponentMix:
    """The training envs' :class:`~baselines.sb3.training.OpponentMix`."""
    snapshot_dir = str(plan.out / "snapshots") if plan.selfplay else None
    return OpponentMix(plan.scripted, snapshot_dir, args.snapshot_share, args.latest_share)


def main(args: Args) -> TrainResult:
    """Validate ``args``, train, evaluate periodically, save the model; return what was produced."""
    args = resume_defaults(args)
    plan = plan_training(args)
    torch.set_num_threads(1)
    card = read_model_card(plan.resume) if plan.resume else None
    _prepare_output(plan)
    env = make_vec_env(args.game, plan.config, opponent_mix(args, plan), args.n_envs, args.vec)
    try:
        model = build_model(args, plan, env)
        recorder = EvalRecorder(args, plan, card.wall_seconds if card else 0.0, IllegalActionCounter())
        callbacks = training_callbacks(args, plan, recorder)
        if plan.resume is None:
            recorder(model)
        model.learn(args.steps, callback=callbacks, reset_num_timesteps=plan.resume is None)
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


def cli(argv: list[str] | None = None) -> TrainResult:
    """Entry point of ``python -m scripts.train_sb3``: train, then print the final evaluation."""
    args = parse_args(Args, argv if argv is not None else sys.argv[1:], description=__doc__)
    result = main(args)
    print(f"{args.game} {' '.join(args.config)} {args.algo}: {result.steps} steps in {result.wall_seconds:.0f} s")
    for row in result.final_eval:
        interval = f"[{row.ci_low:.2f}, {row.ci_high:.2f}]"
        print(f"  vs {row.opponent}: win rate {row.win_rate:.3f} {interval} over {row.games} games")
    print(f"illegal moves: {result.train_illegal} in training, {sum(row.illegal for row in result.final_eval)} in eval")
    print(f"wrote {result.model_path}, {result.best_model_path}, {result.eval_csv}, {result.curve_png}")
    return result


if __name__ == "__main__":
    cli()
