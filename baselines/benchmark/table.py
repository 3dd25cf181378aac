"""The benchmark as data: :data:`TABLE`, one :class:`Cell` per game and learner with its config, training
opponents, settings and a :class:`Budget` per budget name; the choice and checks of cells."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

LEARNERS: tuple[str, ...] = ("ppo", "dqn", "tabular_q", "alphazero")
"""The learners of the benchmark: MaskablePPO and masked DQN (SB3 runs), tabular Q-learning, AlphaZero."""
SB3_LEARNERS: tuple[str, ...] = ("ppo", "dqn")
"""The learners trained by an SB3 run (the cell's ``learner`` is the run's ``algo``)."""
SELFPLAY = "selfplay"
"""The training opponent that stands for the learner itself (SB3 snapshots, AlphaZero self-play, tabular self)."""
UNITS: dict[str, str] = {"ppo": "steps", "dqn": "steps", "tabular_q": "episodes", "alphazero": "self-play games"}
"""What a cell's ``train`` budget and its ``trained`` result count, per learner."""


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


def standard(train: int, minutes: float = 0.0, settings: tuple[str, ...] = ()) -> Budget:
    """The ``standard`` budget: every cell over 5 training seeds in <= 8 hours on 2 cores with 2 workers (about
    11 worker-minutes per run, evaluation included); 100 evaluation games per opponent."""
    return Budget("standard", train, minutes, eval_games=100, curve_points=5, curve_games=20, settings=settings)


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
        settings: Learner settings (``key=value``): SB3Settings, TabularQSettings or AlphaZeroSettings fields (nested
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
AZ_STANDARD_MINUTES = 8.0
"""AlphaZero's training minutes under the standard budget (the full budget's 30 would not fit 5 seeds in 8 hours)."""
BC_STANDARD = ("teacher_steps=10000", "teacher_epochs=5")
"""PPO's behaviour-cloning warm start under the standard budget."""

# fmt: off
TABLE: tuple[Cell, ...] = (
    # Quoridor 5x5
    Cell("quoridor", QUORIDOR, "ppo", "random,path,heuristic", (small(20_000), full(1_000_000), standard(200_000))),
    Cell("quoridor", QUORIDOR, "dqn", "random,path,heuristic", (small(20_000), full(1_000_000), standard(300_000))),
    Cell("quoridor", QUORIDOR_3, "tabular_q", "random", (small(5_000), full(200_000), standard(200_000)),
         variant="3x3"),
    Cell("quoridor", QUORIDOR, "alphazero", "selfplay,heuristic",  # the shipped network's recipe
         (small(100, 1.0, (*AZ_SMALL, "warm_start_games=30")), full(200, 30.0, (*AZ_FULL, "warm_start_games=300")),
          standard(200, AZ_STANDARD_MINUTES, (*AZ_FULL, "warm_start_games=100"))),
         (*AZ_SETTINGS, "warm_start=heuristic")),
    # node conquest 5x5
    # against random alone: with greedy in the mix (it wins every game it plays at this budget, so half the episodes
    # teach nothing) PPO stood at 0.53-0.58 against random after 200k-300k steps of the full run. Shaped by the node
    # share (docs/results/reward_shaping.md, one seed each): unshaped, PPO was at 0.49-0.71 against random after
    # 100k-400k steps; with shaping=3, at 0.86-0.94
    # PPO starts from a behaviour clone of greedy (baselines.learners.sb3.imitation), which already beats random;
    # without it PPO reached 0.82 against random and 0.00 against greedy (docs/results/benchmark.md)
    Cell("node_conquest", NODE_CONQUEST, "ppo", "random,greedy",
         (small(20_000, 0, BC_SMALL), full(1_000_000), standard(200_000, 0, BC_STANDARD)),
         (*NC_SB3, "teacher=greedy", *BC_FINETUNE)),
    Cell("node_conquest", NODE_CONQUEST, "dqn", "random", (small(20_000), full(1_000_000), standard(300_000)), NC_SB3),
    Cell("node_conquest", NODE_CONQUEST_SMALL, "tabular_q", "random", (small(2_000), full(20_000), standard(20_000)),
         variant="3x3"),
    Cell("node_conquest", NODE_CONQUEST, "alphazero", "selfplay,greedy",  # the shipped network's recipe
         (small(100, 1.0, (*AZ_SMALL, "warm_start_games=30")),
          full(200, 30.0, ("games_per_iteration=50", "eval_every=3", "warm_start_games=400")),
          standard(200, AZ_STANDARD_MINUTES, ("games_per_iteration=50", "eval_every=3", "warm_start_games=150"))),
         (*AZ_SETTINGS, "warm_start=greedy", "keep_warm_start=True")),
    # Splendor, 2 players
    Cell("splendor", SPLENDOR, "ppo", "random,buyer",
         (small(20_000, 0, BC_SMALL), full(1_000_000), standard(200_000, 0, BC_STANDARD)),
         ("teacher=buyer", *BC_FINETUNE)),
    Cell("splendor", SPLENDOR, "dqn", "random,buyer", (small(20_000), full(1_000_000), standard(300_000))),
    Cell("splendor", SPLENDOR, "alphazero", "selfplay",
         (small(100, 1.0, AZ_SMALL), full(200, 30.0, AZ_FULL), standard(200, AZ_STANDARD_MINUTES, AZ_FULL)),
         AZ_SETTINGS),
    # Gravwell, 2 players
    Cell("gravwell", GRAVWELL, "ppo", "random,tree", (small(20_000), full(1_000_000), standard(200_000))),
    Cell("gravwell", GRAVWELL, "dqn", "random,tree", (small(20_000), full(1_000_000), standard(300_000))),
    Cell("gravwell", GRAVWELL, "alphazero", "selfplay",
         (small(100, 1.0, AZ_SMALL), full(200, 30.0, AZ_FULL), standard(200, AZ_STANDARD_MINUTES, AZ_FULL)),
         AZ_SETTINGS),
    # Battle Sheep 6x6, 2 players
    Cell("battle_sheep", BATTLE_SHEEP, "ppo", "random,evaluation",
         (small(4_000, 0, BC_SMALL), full(300_000), standard(100_000, 0, BC_STANDARD)),
         ("teacher=evaluation", *BC_FINETUNE)),
    Cell("battle_sheep", BATTLE_SHEEP, "dqn", "random,evaluation",
         (small(4_000), full(300_000), standard(100_000))),
    Cell("battle_sheep", BATTLE_SHEEP, "alphazero", "selfplay",
         (small(100, 1.0, AZ_SMALL), full(200, 30.0, AZ_FULL), standard(200, AZ_STANDARD_MINUTES, AZ_FULL)),
         AZ_SETTINGS),
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
