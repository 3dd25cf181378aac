"""The baselines' benchmark: every learner on every game, at a stated budget, in one resumable table.

:data:`TABLE` is the benchmark as data: one :class:`Cell` per game and learner, each with its game config, its
training opponents, its learner settings and a :class:`Budget` per budget name (``small``: minutes for the whole
table, a smoke test; ``full``: hours). :func:`run_cell` trains one cell with the learner's own trainer (SB3's
:func:`~baselines.learners.sb3.runs.train`, :class:`~baselines.learners.alphazero.AlphaZeroTrainer`, tabular
:func:`~baselines.learners.tabular_q.train`), then evaluates the trained agent on fresh seeds against ``random``
and against the game's best scripted agent (:data:`SCRIPTED`), seats rotated, counting illegal moves; it writes
``<out>/<cell>/result.json`` (atomically) last, so a cell with a result is finished and is never trained again
(unless its spec changed or ``force``). A killed cell continues with the learner's own resume where it has one
(SB3 and AlphaZero runs), otherwise it starts again.

From the results, :func:`write_outputs` writes ``benchmark.csv`` (one row per cell and evaluation opponent),
``benchmark.md`` (one markdown table, game x learner) and one learning-curve PNG per game, every learner of the
game on it, read from each learner's own history (:func:`learning_curve`). :func:`ship_models` copies each game's
best PPO model into the shelf of ``ppo:pretrained`` (:mod:`baselines.learners.sb3.pretrained`).
``scripts/benchmark.py`` is the command line.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import os
import shutil
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from baselines.agent import Agent
from baselines.arena import evaluate_against
from baselines.factory import make_agent
from baselines.learners.evaluation import EvalRow, eval_row, read_eval_rows, wall_time_unit, write_eval_rows
from baselines.runs import atomic_write, atomic_write_text
from baselines.settings import parse_config
from boardenvs.core import Game
from boardenvs.registry import make_game

LEARNERS: tuple[str, ...] = ("ppo", "dqn", "tabular_q", "alphazero")
"""The learners of the benchmark: MaskablePPO and masked DQN (SB3 runs), tabular Q-learning, AlphaZero."""
SB3_LEARNERS: tuple[str, ...] = ("ppo", "dqn")
"""The learners trained by an SB3 run (the cell's ``learner`` is the run's ``algo``)."""
SELFPLAY = "selfplay"
"""The training opponent that stands for the learner itself (SB3 snapshots, AlphaZero self-play, tabular self)."""
UNITS: dict[str, str] = {"ppo": "steps", "dqn": "steps", "tabular_q": "episodes", "alphazero": "self-play games"}
"""What a cell's ``train`` budget and its ``trained`` result count, per learner."""
RESULT = "result.json"
"""A finished cell's result, in its folder."""
SPEC = "cell.json"
"""The spec a cell's run was started with (a changed spec starts the run again)."""


# -- the table as data ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Budget:
    """How long a cell trains and how many games evaluate it, under one budget name.

    Attributes:
        name: The budget (``small``, ``full``; tests pass others).
        train: SB3: environment steps; tabular Q: episodes; AlphaZero: iterations (at most).
        minutes: AlphaZero: training-time budget, self-play and training (0: none, ``train`` iterations).
        eval_games: Final evaluation: games against each opponent on fresh seeds, seats rotated.
        curve_points: Evaluations during training, for the learning curve (SB3 and tabular: every
            ``train / curve_points``; AlphaZero: every ``train / curve_points`` iterations and after the last,
            unless its settings give ``eval_every``, as a time budget usually ends the run sooner).
        curve_games: Games against each opponent at each learning-curve point.
        settings: Learner settings of this budget (``key=value``), over the cell's own.
    """

    name: str
    train: int
    minutes: float = 0.0
    eval_games: int = 40
    curve_points: int = 4
    curve_games: int = 10
    settings: tuple[str, ...] = ()


def small(train: int, minutes: float = 0.0, settings: tuple[str, ...] = ()) -> Budget:
    """The ``small`` budget: the whole table in <= 15 minutes on 2 cores; 40 evaluation games per opponent."""
    return Budget("small", train, minutes, eval_games=40, curve_points=3, curve_games=10, settings=settings)


def full(train: int, minutes: float = 0.0, settings: tuple[str, ...] = ()) -> Budget:
    """The ``full`` budget: the whole table in <= 6 hours on 2 cores; 200 evaluation games per opponent."""
    return Budget("full", train, minutes, eval_games=200, curve_points=10, curve_games=50, settings=settings)


@dataclass(frozen=True)
class Cell:
    """One learner on one game config.

    Attributes:
        game: The registered game name.
        config: Its config as ``key=value`` strings (``[]``: the default config).
        learner: One of :data:`LEARNERS`.
        opponents: Training opponents. SB3: the run's ``opponents`` (``random``, scripted agents, ``selfplay``);
            tabular Q: one agent spec in the other seats, or ``selfplay``; AlphaZero: ``selfplay``, optionally with
            one sparring agent (``selfplay,heuristic``: that share of the games, ``sparring_fraction``, default
            0.5, seats it).
        budgets: One :class:`Budget` per budget name.
        settings: Learner settings (``key=value``): SB3Settings, QSettings or AlphaZeroSettings fields (nested
            ones by their own name, ``simulations``, or path, ``selfplay.simulations``).
        variant: Set when the cell plays another config than its game's benchmark config: what it is (shown in
            the table and the plots).
    """

    game: str
    config: tuple[str, ...]
    learner: str
    opponents: str
    budgets: tuple[Budget, ...]
    settings: tuple[str, ...] = ()
    variant: str = ""

    @property
    def name(self) -> str:
        """The cell's folder name: ``<game>-<learner>``."""
        return f"{self.game}-{self.learner}"

    def budget(self, name: str) -> Budget:
        """The budget called ``name``; ``ValueError`` naming the cell's budgets."""
        for budget in self.budgets:
            if budget.name == name:
                return budget
        raise ValueError(f"cell {self.name} has no budget {name!r}; budgets: {[b.name for b in self.budgets]}")

    def spec(self, budget: str, seed: int) -> dict[str, Any]:
        """What the cell's result depends on (stored with the run; a change starts it again)."""
        mine = dataclasses.asdict(self)
        mine["budgets"] = dataclasses.asdict(self.budget(budget))
        return json.loads(json.dumps({**mine, "seed": seed}))


SCRIPTED: dict[str, str] = {
    "quoridor": "heuristic",
    "node_conquest": "greedy",
    "splendor": "buyer",  # beats osla 74-26 over 100 games (tournament, 2p official, seed 0)
    "gravwell": "tree",
    "battle_sheep": "evaluation",
}
"""Each game's best scripted agent: every cell is evaluated against ``random`` and this agent."""

# The benchmark config of each game: its default 2-player config where that trains within the full budget, else
# the smallest config that keeps the game's character.
QUORIDOR = ("board_size=5",)  # 9x9 needs far more than the full budget; 5x5 keeps walls, jumps and races (58 actions)
NODE_CONQUEST = ()  # the default 5x5 grid, 2 players, is seed 001's own game; small enough as it is
SPLENDOR = ()  # the default: 2 players, official rules and deck (the card game is the same at any board size)
GRAVWELL = ("num_players=2",)  # the default has 4 players; 2 is the smallest table (same cards and secret bids)
BATTLE_SHEEP = ("num_players=2", "board_size=6", "field_size=16", "sheep_per_player=8")  # the 4-player default
# has 17,424 actions on a 12x12 board (8x8 with 16 sheep still 7,744, a 16 MB PPO model); 16 fields on 6x6 with 8
# sheep each (2,052 actions) keep the split-and-block play: stacks split, slide until blocked, regions decide
# Tabular Q keys its table by the raw observation: it needs a config whose positions recur, so its cells play
# another config, labelled as such.
QUORIDOR_3 = ("board_size=3",)  # the smallest Quoridor: a few hundred states
NODE_CONQUEST_SMALL = ("rows=3", "cols=3")  # the smallest preset, 'small' (boardenvs.list_presets)

NC_SB3 = ("shaping=3",)
"""Node conquest's SB3 settings: potential-based shaping by the node share (``baselines.learners.shaping``)."""
BC_SMALL = ("teacher_steps=2000", "teacher_epochs=2")
"""PPO's behaviour-cloning warm start under the small budget (the full budget keeps SB3Settings' 50k x 20)."""
BC_FINETUNE = ("learning_rate=3e-5", "ent_coef=0.0")
"""PPO's settings after a cloned start. With the defaults (3e-4, entropy bonus 0.01) PPO undid the clone: on
Splendor it fell from 0.41 to 0.06 against buyer within 100k steps, and no cell's later checkpoint beat its step
0. At a tenth of the rate and no entropy bonus it kept the clone and went on (0.40 -> 0.56 by 200k steps)."""
AZ_SETTINGS = ("simulations=32", "epochs=2", "batch_size=128", "buffer_iterations=4")
"""AlphaZero's settings in every cell: those of the networks shipped in ``alphazero:pretrained``."""
AZ_SMALL = ("games_per_iteration=10", "eval_simulations=16", "eval_every=2")
"""AlphaZero's small budget: short iterations, so a minute holds a few of them."""
AZ_FULL = ("games_per_iteration=40", "eval_every=3")
"""AlphaZero's full budget: the shipped networks' iterations."""

# fmt: off
TABLE: tuple[Cell, ...] = (
    # Quoridor 5x5
    Cell("quoridor", QUORIDOR, "ppo", "random,path,heuristic", (small(20_000), full(1_000_000))),
    Cell("quoridor", QUORIDOR, "dqn", "random,path,heuristic", (small(20_000), full(1_000_000))),
    Cell("quoridor", QUORIDOR_3, "tabular_q", "random", (small(5_000), full(200_000)), variant="3x3"),
    Cell("quoridor", QUORIDOR, "alphazero", "selfplay,heuristic",  # the shipped network's recipe
         (small(100, 1.0, (*AZ_SMALL, "warm_start_games=30")), full(200, 30.0, (*AZ_FULL, "warm_start_games=300"))),
         (*AZ_SETTINGS, "warm_start=heuristic")),
    # node conquest 5x5
    # against random alone: with greedy in the mix (it wins every game it plays at this budget, so half the episodes
    # teach nothing) PPO stood at 0.53-0.58 against random after 200k-300k steps of the full run. Shaped by the node
    # share (docs/results/reward_shaping.md, one seed each): unshaped, PPO was at 0.49-0.71 against random after
    # 100k-400k steps; with shaping=3, at 0.86-0.94
    # PPO starts from a behaviour clone of greedy (baselines.learners.sb3.imitation), which already beats random;
    # without it PPO reached 0.82 against random and 0.00 against greedy (docs/results/benchmark.md)
    Cell("node_conquest", NODE_CONQUEST, "ppo", "random,greedy", (small(20_000, 0, BC_SMALL), full(1_000_000)),
         (*NC_SB3, "teacher=greedy", *BC_FINETUNE)),
    Cell("node_conquest", NODE_CONQUEST, "dqn", "random", (small(20_000), full(1_000_000)), NC_SB3),
    Cell("node_conquest", NODE_CONQUEST_SMALL, "tabular_q", "random", (small(2_000), full(20_000)), variant="3x3"),
    Cell("node_conquest", NODE_CONQUEST, "alphazero", "selfplay,greedy",  # the shipped network's recipe
         (small(100, 1.0, (*AZ_SMALL, "warm_start_games=30")),
          full(200, 30.0, ("games_per_iteration=50", "eval_every=3", "warm_start_games=400"))),
         (*AZ_SETTINGS, "warm_start=greedy", "keep_warm_start=True")),
    # Splendor, 2 players
    Cell("splendor", SPLENDOR, "ppo", "random,buyer", (small(20_000, 0, BC_SMALL), full(1_000_000)),
         ("teacher=buyer", *BC_FINETUNE)),
    Cell("splendor", SPLENDOR, "dqn", "random,buyer", (small(20_000), full(1_000_000))),
    Cell("splendor", SPLENDOR, "alphazero", "selfplay",
         (small(100, 1.0, AZ_SMALL), full(200, 30.0, AZ_FULL)), AZ_SETTINGS),
    # Gravwell, 2 players
    Cell("gravwell", GRAVWELL, "ppo", "random,tree", (small(20_000), full(1_000_000))),
    Cell("gravwell", GRAVWELL, "dqn", "random,tree", (small(20_000), full(1_000_000))),
    Cell("gravwell", GRAVWELL, "alphazero", "selfplay",
         (small(100, 1.0, AZ_SMALL), full(200, 30.0, AZ_FULL)), AZ_SETTINGS),
    # Battle Sheep 6x6, 2 players
    Cell("battle_sheep", BATTLE_SHEEP, "ppo", "random,evaluation", (small(4_000, 0, BC_SMALL), full(300_000)),
         ("teacher=evaluation", *BC_FINETUNE)),
    Cell("battle_sheep", BATTLE_SHEEP, "dqn", "random,evaluation", (small(4_000), full(300_000))),
    Cell("battle_sheep", BATTLE_SHEEP, "alphazero", "selfplay",
         (small(100, 1.0, AZ_SMALL), full(200, 30.0, AZ_FULL)), AZ_SETTINGS),
)
# fmt: on
"""The benchmark: one cell per game and learner (edit budgets and settings here)."""


def check_table(table: Sequence[Cell]) -> None:
    """``ValueError`` for a cell with an unknown learner or game, no scripted agent, or a repeated folder name."""
    names = [cell.name for cell in table]
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise ValueError(f"one cell per game and learner (folders <game>-<learner>), repeated: {repeated}")
    for cell in table:
        if cell.learner not in LEARNERS:
            raise ValueError(f"cell {cell.name}: learner must be one of {list(LEARNERS)}, got {cell.learner!r}")
        if cell.game not in SCRIPTED:
            raise ValueError(f"cell {cell.name}: game {cell.game!r} has no scripted agent in SCRIPTED")


def budget_names(table: Sequence[Cell]) -> list[str]:
    """Every budget name some cell of ``table`` has, sorted."""
    return sorted({budget.name for cell in table for budget in cell.budgets})


def select(table: Sequence[Cell], games: Sequence[str] = (), learners: Sequence[str] = ()) -> list[Cell]:
    """The cells of ``table`` whose game is in ``games`` and learner in ``learners`` (empty: all).

    Raises:
        ValueError: a name that no cell has (the message lists the choices).
    """
    for chosen, what, have in (
        (games, "games", sorted({cell.game for cell in table})),
        (learners, "learners", sorted({cell.learner for cell in table})),
    ):
        unknown = sorted(set(chosen) - set(have))
        if unknown:
            raise ValueError(f"{what}: unknown {unknown}; choices: {have}")
    return [cell for cell in table if (not games or cell.game in games) and (not learners or cell.learner in learners)]


# -- settings -----------------------------------------------------------------------------------------------------
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


# -- one cell -----------------------------------------------------------------------------------------------------
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
    trained = TRAINERS[job.cell.learner](job)
    evaluating = time.perf_counter()
    rows = final_evaluation(job, trained.model)
    now = time.perf_counter()
    result = make_result(job, trained, rows, now - evaluating, now - began)
    atomic_write_text(job.folder / RESULT, json.dumps(result, indent=2) + "\n")
    return result


def run_job(job: CellJob) -> tuple[dict[str, Any] | None, str]:
    """:func:`run_cell` for a worker: prints a line as the cell starts; returns its result and ``""``, or
    ``None`` and the error that stopped it (so one failing cell does not stop the others)."""
    print(f"[{elapsed_text(job.started)}] start {job.cell.name} ({job.budget} budget)", flush=True)
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


# -- the final evaluation -----------------------------------------------------------------------------------------
class CountingAgent:
    """An agent that counts (and replaces) illegal actions of the agent it wraps.

    Every action is checked against the mask of the view the agent was given; an illegal one is counted in
    ``illegal`` and replaced by a uniformly random legal action, so the game goes on and the count is reported
    instead of stopping the evaluation. An agent's own count of replaced predictions (``illegal_predictions``,
    :class:`~baselines.learners.sb3.SB3Agent`) is added.
    """

    def __init__(self, agent: Agent) -> None:
        self.agent, self.name, self.replaced = agent, agent.name, 0
        self.rng = np.random.default_rng(0)

    @property
    def illegal(self) -> int:
        """Illegal actions so far: replaced here, or by the agent itself."""
        return self.replaced + int(getattr(self.agent, "illegal_predictions", 0))

    def reseed(self, seed: int) -> None:
        """Reseed the wrapped agent and the replacement draws (the arena does this before each game)."""
        self.rng = np.random.default_rng(seed)
        reseed = getattr(self.agent, "reseed", None)
        if callable(reseed):
            reseed(seed)

    def act(self, game: Game, view: Any, player: int) -> int:
        """The wrapped agent's action, or a random legal one in place of an illegal one (counted)."""
        action = self.agent.act(game, view, player)
        mask = game.legal_action_mask(view)
        if isinstance(action, (int, np.integer)) and 0 <= action < mask.size and mask[action]:
            return int(action)
        self.replaced += 1
        return int(self.rng.choice(np.flatnonzero(mask)))


def final_seed(seed: int) -> int:
    """The seed of the final evaluation's games: derived from the benchmark seed, apart from every training and
    learning-curve seed."""
    return int(np.random.SeedSequence([seed, 19]).generate_state(1)[0])


def final_evaluation(job: CellJob, model: Path) -> list[EvalRow]:
    """The trained agent against ``random`` and the game's scripted agent, ``eval_games`` each on fresh seeds."""
    cell, games, seed = job.cell, job.cell.budget(job.budget).eval_games, final_seed(job.seed)
    game = make_game(cell.game, **parse_config(list(cell.config)))
    learner, rows = CountingAgent(trained_agent(job, model, game)), []
    for index, opponent_name in enumerate(("random", SCRIPTED[cell.game])):
        before = learner.illegal
        opponent = make_agent(opponent_name, cell.game, seed=seed + 1 + index)
        results = evaluate_against(game, learner, opponent, games, seed, opponent_name)
        rows.append(eval_row(0, 0.0, opponent_name, results, illegal=learner.illegal - before))
    return rows


def trained_agent(job: CellJob, model: Path, game: Game) -> Agent:
    """The agent that plays a cell's trained model."""
    learner, seed = job.cell.learner, final_seed(job.seed)
    if learner in SB3_LEARNERS:
        from baselines.learners.sb3.agent import SB3Agent

        return SB3Agent.load(model, game, name=learner, seed=seed, stochastic=learner in SAMPLED_LEARNERS)
    if learner == "tabular_q":
        from baselines.learners.tabular_q import TabularQAgent

        return TabularQAgent.load(model, seed, learner, game)
    from baselines.learners.alphazero.agent import AlphaZeroAgent

    settings = alphazero_settings(job)
    simulations = settings.eval_simulations or settings.selfplay.simulations
    return AlphaZeroAgent(seed, learner, checkpoint=model, simulations=simulations)


# -- the learners -------------------------------------------------------------------------------------------------
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


def train_sb3(job: CellJob) -> Trained:
    """Train an SB3 cell: resume its run from the newest checkpoint if it has one, else start it."""
    from baselines.learners.sb3.agent import read_model_card
    from baselines.learners.sb3.runs import find_checkpoint, train

    run = job.folder / "run"
    final = run / "model.zip"
    if not final.is_file():  # model.zip is written when the run has finished
        try:
            find_checkpoint(str(run))
            resume = True
        except ValueError:
            resume = False
        train(sb3_settings(job, resume))
    card = read_model_card(final)
    assert card is not None
    model = run / "best.zip" if (run / "best.zip").is_file() else final
    best = read_model_card(model)
    extra = {"model_steps": best.steps if best is not None else card.steps}
    illegal = sum(row.train_illegal for row in read_eval_rows(run / "eval.csv")[-1:])
    return Trained(model, card.steps, card.wall_seconds, illegal, extra)


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


def train_alphazero(job: CellJob) -> Trained:
    """Train an AlphaZero cell, resuming its run from its last completed iteration if it has one."""
    from baselines.learners.alphazero import AlphaZeroTrainer

    run = job.folder / "run"
    resume = (run / "state.pt").is_file()
    config = parse_config(list(job.cell.config))
    trainer = AlphaZeroTrainer(job.cell.game, config, alphazero_settings(job), run, job.progress,
                               resume=resume, force=not resume)  # fmt: skip
    history = trainer.run()
    seconds = history[-1]["elapsed_seconds"] + sum(row["eval_seconds"] for row in history) if history else 0.0
    games = sum(int(row["games"]) for row in history)
    return Trained(trainer.best_path, games, seconds, extra={"iterations": len(history)})


def train_tabular_q(job: CellJob) -> Trained:
    """Train a tabular Q cell from scratch in ``curve_points`` stretches, each followed by a learning-curve
    evaluation against both opponents (``run/eval.csv``; steps count episodes); the table is ``run/table.npz``."""
    from baselines.learners.tabular_q import QSettings, TabularQAgent, train

    cell, budget, run = job.cell, job.cell.budget(job.budget), job.folder / "run"
    shutil.rmtree(run, ignore_errors=True)
    game = make_game(cell.game, **parse_config(list(cell.config)))
    settings = with_settings(QSettings(), learner_settings(cell, budget))
    opponents = "self" if cell.opponents.strip() == SELFPLAY else cell.opponents
    agent: TabularQAgent | None = None
    rows: list[EvalRow] = []
    began, done = time.perf_counter(), 0
    for stretch, episodes in enumerate(stretches(budget.train, budget.curve_points)):
        chunk = stretch_settings(settings, done, episodes, budget.train)
        agent, _ = train(game, episodes, opponents, chunk, job.seed + stretch, job.progress, agent=agent)
        done += episodes
        rows += curve_rows(job, game, agent, done, time.perf_counter() - began)
        write_eval_rows(run / "eval.csv", rows)
    assert agent is not None
    model = agent.save(run / "table.npz")
    return Trained(model, done, time.perf_counter() - began, extra={"states": agent.table.num_states})


def stretches(total: int, parts: int) -> list[int]:
    """``total`` split into ``parts`` near-equal positive stretches (fewer if ``total`` is smaller)."""
    parts = max(1, min(parts, total))
    return [total // parts + (index < total % parts) for index in range(parts)]


def stretch_settings(settings: Any, start: int, episodes: int, total: int) -> Any:
    """``settings`` for episodes ``start .. start + episodes`` of ``total``: a decaying epsilon goes on where the
    previous stretch left it."""
    if settings.epsilon_final is None or total <= 1:
        return settings
    at = [settings.epsilon + (settings.epsilon_final - settings.epsilon) * e / (total - 1)
          for e in (start, start + episodes - 1)]  # fmt: skip
    return dataclasses.replace(settings, epsilon=at[0], epsilon_final=at[1])


def curve_rows(job: CellJob, game: Game, agent: Agent, steps: int, seconds: float) -> list[EvalRow]:
    """A learning-curve point of a tabular cell: ``curve_games`` against each opponent, the same seeds each time."""
    games, rows = job.cell.budget(job.budget).curve_games, []
    for index, name in enumerate(("random", SCRIPTED[job.cell.game])):
        opponent = make_agent(name, job.cell.game, seed=job.seed + 1 + index)
        results = evaluate_against(game, agent, opponent, games, job.seed, name)
        rows.append(eval_row(steps, seconds, name, results))
    return rows


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
            from baselines.learners.tabular_q import QSettings

            with_settings(QSettings(), learner_settings(cell, cell.budget(job.budget)))
    except (TypeError, ValueError) as error:
        raise ValueError(f"cell {cell.name}: {error}") from None


TRAINERS = {"ppo": train_sb3, "dqn": train_sb3, "tabular_q": train_tabular_q, "alphazero": train_alphazero}
"""Each learner's training of a cell."""


# -- the outputs --------------------------------------------------------------------------------------------------
CSV_COLUMNS: tuple[str, ...] = (
    "game", "config", "variant", "learner", "budget", "seed", "unit", "trained", "wall_seconds", "eval_seconds",
    "opponent", "role", "games", "wins", "draws", "losses", "win_rate", "ci_low", "ci_high", "illegal",
)  # fmt: skip
"""The columns of ``benchmark.csv`` (one row per cell and evaluation opponent; ``wall_seconds``: training)."""


def finished_results(out: Path, table: Sequence[Cell]) -> list[dict[str, Any]]:
    """The results in ``out`` of the cells of ``table``, in table order."""
    results = [read_result(out / cell.name) for cell in table]
    return [result for result in results if result is not None]


def write_outputs(out: Path, table: Sequence[Cell], budget: str) -> list[Path]:
    """Write ``benchmark.csv``, ``benchmark.md`` and ``curve_<game>.png`` from the finished cells; return them."""
    results = finished_results(out, table)
    written = [write_csv(out / "benchmark.csv", results), write_markdown(out / "benchmark.md", table, results, budget)]
    for game in dict.fromkeys(cell.game for cell in table):
        mine = [result for result in results if result["game"] == game]
        if mine:
            written.append(plot_game(out / f"curve_{game}.png", out, mine, budget))
    return written


def write_csv(path: Path, results: Sequence[Mapping[str, Any]]) -> Path:
    """``benchmark.csv``: one row per cell and evaluation opponent."""
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for result in results:
        for row in result["evaluations"]:
            role = "random" if row["opponent"] == "random" else "scripted"
            values = {**result, **row, "config": " ".join(result["config"]), "role": role,
                      "wall_seconds": round(result["train_seconds"], 1),
                      "eval_seconds": round(result["eval_seconds"], 1)}  # fmt: skip
            writer.writerow([values[column] for column in CSV_COLUMNS])
    return atomic_write_text(path, text.getvalue())


def score_text(row: Mapping[str, Any]) -> str:
    """``0.95 [0.83, 0.99]``: a win rate with its 95% interval."""
    return f"{row['win_rate']:.2f} [{row['ci_low']:.2f}, {row['ci_high']:.2f}]"


def duration_text(seconds: float) -> str:
    """``42 s``, ``3.5 min`` or ``1.2 h``."""
    if seconds < 120:
        return f"{seconds:.0f} s"
    return f"{seconds / 60:.1f} min" if seconds < 3 * 3600 else f"{seconds / 3600:.1f} h"


def markdown_row(cell: Cell, result: Mapping[str, Any] | None) -> str:
    """One line of ``benchmark.md``: the cell's training and its scores, or that it has not run yet."""
    config = " ".join(cell.config) or "default"
    head = f"| {cell.game} | {config}{f' ({cell.variant})' if cell.variant else ''} | {cell.learner} |"
    if result is None:
        return f"{head} not run yet | | | | |"
    random_row, scripted_row = result["evaluations"]
    illegal = sum(row["illegal"] for row in result["evaluations"]) + result.get("train_illegal", 0)
    flag = f"**{illegal} illegal moves**" if illegal else "0"
    trained = f"{result['trained']:,} {result['unit']}"
    scored_at = result.get("model_steps", result["trained"])
    if scored_at != result["trained"]:  # an SB3 cell scores its best checkpoint (best.zip)
        trained += f"; best at {scored_at:,}"
    scores = f"{score_text(random_row)} | {scripted_row['opponent']}: {score_text(scripted_row)}"
    return f"{head} {trained} | {duration_text(result['train_seconds'])} | {scores} | {flag} |"


def write_markdown(path: Path, table: Sequence[Cell], results: Sequence[Mapping[str, Any]], budget: str) -> Path:
    """``benchmark.md``: one table, game x learner -> training, wall time and scores with 95% intervals."""
    by_name = {result["cell"]: result for result in results}
    games = sorted({str(row["games"]) for result in results for row in result["evaluations"]})
    lines = [
        f"Benchmark, budget `{budget}`: {len(by_name)} of {len(table)} cells finished. Scores count a draw as half a "
        f"win, with Wilson 95% intervals, over {' or '.join(games) or 'no'} games per opponent on fresh seeds, seats "
        "rotated; PPO samples its policy, the other learners play their best move. Wall time: training, the run's "
        "own learning-curve evaluations included.",
        "",
        "| game | config | learner | trained | wall time | vs random [95% CI] | vs scripted [95% CI] | illegal moves |",
        "|---|---|---|---:|---:|---|---|---:|",
        *(markdown_row(cell, by_name.get(cell.name)) for cell in table),
    ]
    return atomic_write_text(path, "\n".join(lines) + "\n")


@dataclass(frozen=True)
class CurvePoint:
    """One learning-curve evaluation of a cell: training wall minutes, opponent role and score with interval."""

    minutes: float
    role: str
    win_rate: float
    ci_low: float
    ci_high: float


def learning_curve(folder: Path, result: Mapping[str, Any]) -> list[CurvePoint]:
    """A finished cell's learning curve, read from its learner's own history and normalised: SB3's and the
    tabular cells' ``eval.csv`` (wall seconds), AlphaZero's ``history.csv`` (``elapsed_seconds``, self-play and
    training, plus the evaluations so far, so every learner's x axis counts its evaluations alike)."""
    run, scripted = folder / "run", result["scripted"]
    if result["learner"] == "alphazero":
        return _alphazero_curve(run / "history.csv", scripted)
    roles = {"random": "random", scripted: "scripted"}
    return [CurvePoint(row.wall_seconds / 60, roles[row.opponent], row.win_rate, row.ci_low, row.ci_high)
            for row in read_eval_rows(run / "eval.csv") if row.opponent in roles]  # fmt: skip


def _alphazero_curve(path: Path, scripted: str) -> list[CurvePoint]:
    from baselines.learners.alphazero.trainer import eval_columns, label_of

    if not path.is_file():
        return []
    with open(path, newline="") as handle:
        rows = list(csv.DictReader(handle))
    points, evaluating = [], 0.0
    for row in rows:
        evaluating += float(row["eval_seconds"])
        minutes = (float(row["elapsed_seconds"]) + evaluating) / 60
        for role, label in (("random", "random"), ("scripted", label_of(scripted))):
            score, low, high = (float(row.get(column, -1)) for column in eval_columns(label))
            if score >= 0:
                points.append(CurvePoint(minutes, role, score, low, high))
    return points


def plot_game(path: Path, out: Path, results: Sequence[Mapping[str, Any]], budget: str) -> Path:
    """``curve_<game>.png``: win rate against training wall time, vs random (left) and vs the scripted agent
    (right), one line with its 95% band per learner and its final evaluation as a point with an error bar."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(1, 2, figsize=(12, 4.4), sharey=True)
    longest = max(result["train_seconds"] for result in results)
    unit, per_unit = wall_time_unit(longest)
    for result in results:
        _plot_cell(axes, learning_curve(out / result["cell"], result), result, 60 / per_unit)
    scripted = results[0]["scripted"]
    for axis, title in zip(axes, ("vs random", f"vs {scripted} (scripted)")):
        axis.set_title(title)
        axis.set_xlabel(f"training wall time ({unit})")
        axis.set_ylim(-0.02, 1.02)
        axis.grid(alpha=0.3)
    axes[0].set_ylabel("win rate (draws half), 95% CI")
    axes[1].legend(loc="best", fontsize=8)
    figure.suptitle(f"{results[0]['game']}: benchmark ({budget} budget); points: final evaluation on fresh seeds")
    figure.tight_layout()
    atomic_write(path, lambda temporary: figure.savefig(temporary, dpi=110, format="png"))
    plt.close(figure)
    return path


def _plot_cell(axes: Any, points: list[CurvePoint], result: Mapping[str, Any], scale: float) -> None:
    label = result["learner"] + (f" ({' '.join(result['config'])})" if result.get("variant") else "")
    color = None
    for axis, role, final in zip(axes, ("random", "scripted"), result["evaluations"]):
        mine = sorted((point for point in points if point.role == role), key=lambda point: point.minutes)
        x = [point.minutes * scale for point in mine]
        line = axis.plot(x, [point.win_rate for point in mine], marker="o", markersize=3, label=label, color=color)[0]
        color = line.get_color()
        axis.fill_between(x, [p.ci_low for p in mine], [p.ci_high for p in mine], color=color, alpha=0.15, lw=0)
        error = [[final["win_rate"] - final["ci_low"]], [final["ci_high"] - final["win_rate"]]]
        axis.errorbar([result["train_seconds"] / 60 * scale], [final["win_rate"]], yerr=error, color=color,
                      marker="D", capsize=3)  # fmt: skip


# -- shipping -----------------------------------------------------------------------------------------------------
def mean_score(result: Mapping[str, Any]) -> float:
    """The mean win rate of a result over its evaluation opponents."""
    return float(np.mean([row["win_rate"] for row in result["evaluations"]]))


def ship_models(
    out: Path, table: Sequence[Cell], budget: str, models_dir: str | Path | None = None, command: str = ""
) -> list[Path]:
    """Copy each game's best PPO model of the finished table in ``out`` into the ``ppo:pretrained`` shelf.

    Raises:
        ValueError: no PPO cell in ``table``, or one that has not finished (nothing is shipped then).
    """
    from baselines.learners.sb3.pretrained import ship

    cells = [cell for cell in table if cell.learner == "ppo"]
    missing = [cell.name for cell in cells if read_result(out / cell.name) is None]
    if not cells or missing:
        raise ValueError(f"ship: finish the PPO cells first (unfinished in {str(out)!r}: {missing or 'no PPO cell'})")
    shipped = []
    for game in dict.fromkeys(cell.game for cell in cells):
        results = [read_result(out / cell.name) or {} for cell in cells if cell.game == game]
        best = max(results, key=mean_score)
        notes = f"benchmark cell {best['cell']} ({budget} budget): " + ", ".join(
            f"vs {row['opponent']} {score_text(row)} over {row['games']} games" for row in best["evaluations"]
        )
        run_command = command or f"python -m scripts.benchmark --budget {budget} --games {game} --learners ppo"
        shipped.append(ship(out / best["cell"] / best["model"], run_command, f"{notes}; docs/results/benchmark.md",
                            models_dir))  # fmt: skip
    return shipped


def summary(result: Mapping[str, Any]) -> str:
    """One line on a finished cell: what it trained and its scores."""
    scores = ", ".join(f"vs {row['opponent']} {score_text(row)}" for row in result["evaluations"])
    illegal = sum(row["illegal"] for row in result["evaluations"]) + result.get("train_illegal", 0)
    flag = f", {illegal} ILLEGAL MOVES" if illegal else ""
    return f"{result['trained']:,} {result['unit']} in {duration_text(result['train_seconds'])}: {scores}{flag}"


__all__ = [
    "LEARNERS",
    "SCRIPTED",
    "TABLE",
    "Budget",
    "Cell",
    "CellJob",
    "CountingAgent",
    "budget_names",
    "check_cell",
    "check_table",
    "elapsed_text",
    "read_result",
    "run_job",
    "start_worker",
    "final_evaluation",
    "is_finished",
    "learning_curve",
    "run_cell",
    "select",
    "ship_models",
    "small",
    "full",
    "summary",
    "write_outputs",
]
