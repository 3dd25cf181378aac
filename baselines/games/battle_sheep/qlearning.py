"""Battle Sheep's ``qlearning`` agent: seed 003's tabular Q-learning (its game-1 comparison), with a shipped table.

The seed's Q-table holds "Q-values in the format [row, column, moving direction], [...] a 12 x 12 x 8 matrix",
updated by the Bellman equation; it says nothing more. Our reading of that abstraction:

* **State and action.** The table has no board state: an entry is the value of moving a group from the stack
  on cell ``(row, column)`` in one of the 8 directions. The agent plays the legal (cell, direction) pair with
  the highest value (ties to its generator) and moves half the stack (``n // 2``, the middle one of the seed's
  three split sizes 1, n // 2, n - 1; the table has no split dimension). Other board sizes read the 12 x 12
  table through the cell's scaled position (``row * 12 // n``).
* **Placement.** The seed's convolution start cell (:meth:`EvaluationAgent.start_cell`), as in all its agents.
* **Learning** (:func:`learn`). One-step Q-learning between the learner's successive decisions:
  ``Q(s, a) += alpha (r + gamma max_a' Q(s', a') - Q(s, a))`` over the legal pairs ``a'`` of the next decision,
  with ``r`` the change of the learner's region score over the interval divided by ``S ** 1.25`` (the seed's
  score normaliser) and, after its last decision, that change plus the game's return (``gamma`` does not
  apply there). Exploration is epsilon-greedy, epsilon falling linearly. The learner takes each seat in turn
  against random players in the 4-player basic game (course game 1).
* **Hidden stack sizes** do not matter: the agent reads only its own stacks and which cells are free.

The shipped table (``baselines/data/battle_sheep_q.json``, written by ``python -m scripts.battle_sheep_paper
--train-q``) is what ``make_agent("qlearning", "battle_sheep")`` plays; ``qlearning:table=<file.json>`` plays
another one.

Example:
    >>> table = SheepQTable.load()
    >>> table.values.shape, table.board_size
    ((12, 12, 8), 12)
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from baselines.agent import BaseAgent, RandomAgent, SeedLike
from baselines.games.battle_sheep.evaluation import EvaluationAgent
from baselines.params import float_param
from baselines.progress import progress_bar
from baselines.runs import check_digest, number_table, with_digest
from boardenvs.core import Game
from boardenvs.games.battle_sheep import BattleSheep, Move
from boardenvs.games.battle_sheep.rules import movable_cells, open_directions

TABLE_SIZE = 12
"""Rows and columns of the seed's table (its game 1 board)."""
DIRECTIONS = 8
SHIPPED_TABLE = "battle_sheep_q.json"
"""The package's trained table, under ``baselines/data/``."""
SHIPPED = "shipped"
"""``table`` value naming the shipped table."""
FORMAT = "battle_sheep_q"
FORMAT_VERSION = 1
TABLE_DECIMALS = 5
"""Decimals kept in a saved table."""


@dataclass(frozen=True)
class SheepQSettings:
    """Learning settings (the seed gives none); a bad value raises ``ValueError`` naming it.

    Attributes:
        learning_rate: ``alpha`` in (0, 1].
        discount: ``gamma`` in [0, 1] per decision of the learner.
        epsilon: exploration at the first training game, in [0, 1].
        epsilon_final: exploration at the last training game, in [0, 1] (linear in between).
    """

    learning_rate: float = 0.05
    discount: float = 0.9
    epsilon: float = 0.3
    epsilon_final: float = 0.02

    def __post_init__(self) -> None:
        float_param("learning_rate", self.learning_rate, 0.0, 1.0, positive=True)
        for name in ("discount", "epsilon", "epsilon_final"):
            float_param(name, getattr(self, name), 0.0, 1.0)

    def epsilon_at(self, game: int, games: int) -> float:
        """Exploration of training game ``game`` (0-based) of ``games``."""
        share = game / (games - 1) if games > 1 else 0.0
        return self.epsilon + (self.epsilon_final - self.epsilon) * share


@dataclass
class SheepQTable:
    """The ``board_size x board_size x 8`` Q values, the settings they were learned with, and how.

    Attributes:
        values: ``float64[board_size, board_size, 8]``: value of moving from cell ``(row, column)`` in direction
            ``d`` (``boardenvs.games.battle_sheep.tables.DIRECTION_NAMES`` order).
        settings: the learning settings.
        training: facts about the training (games, seed, opponents), saved with the table.
    """

    values: np.ndarray = field(default_factory=lambda: np.zeros((TABLE_SIZE, TABLE_SIZE, DIRECTIONS)))
    settings: SheepQSettings = field(default_factory=SheepQSettings)
    training: dict[str, Any] = field(default_factory=dict)

    @property
    def board_size(self) -> int:
        """Rows (= columns) of the table."""
        return int(self.values.shape[0])

    def entries(self, game: Game, cells: np.ndarray, directions: np.ndarray) -> np.ndarray:
        """The values of moving from ``cells`` of ``game``'s board in ``directions`` (scaled positions)."""
        n, size = game.config.board_size, self.board_size
        rows, columns = (cells // n) * size // n, (cells % n) * size // n
        return self.values[rows, columns, directions]

    def to_json(self) -> str:
        """The table as JSON text (values rounded to :data:`TABLE_DECIMALS` decimals), with the digest of its
        content (:func:`~baselines.runs.with_digest`)."""
        data = {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "settings": asdict(self.settings),
            "training": self.training,
            "values": np.round(self.values, TABLE_DECIMALS).tolist(),
        }
        return json.dumps(with_digest(data), separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str | bytes, source: str = "table", require_digest: bool = False) -> SheepQTable:
        """The table written by :meth:`to_json` (``source`` names it in errors).

        The content must match its digest when it has one (``require_digest``: it must have one, as the shipped
        table does), the settings must be valid and the values a finite ``n x n x 8`` table.

        Raises:
            ValueError: naming ``source`` and what is wrong.
        """
        try:
            data = json.loads(text.decode("utf-8") if isinstance(text, bytes) else text)
        except (ValueError, RecursionError) as error:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
            raise ValueError(f"{source}: not a {FORMAT} table (not UTF-8 JSON: {error})") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("version") != FORMAT_VERSION:
            raise ValueError(f"{source}: not a {FORMAT} table of version {FORMAT_VERSION}")
        data = check_digest(data, source, require_digest)
        if not isinstance(data.get("settings"), dict):
            raise ValueError(f"{source}: not a valid {FORMAT} table: its 'settings' must be an object")
        try:
            values = number_table(data.get("values"), "'values'")
            settings = SheepQSettings(**data["settings"])
        except (TypeError, ValueError) as error:
            raise ValueError(f"{source}: not a valid {FORMAT} table: {error}") from None
        if values.ndim != 3 or values.shape[0] != values.shape[1] or values.shape[2] != DIRECTIONS:
            raise ValueError(f"{source}: values of shape {values.shape}, expected (n, n, {DIRECTIONS})")
        if values.shape[0] < 1 or not np.isfinite(values).all():
            raise ValueError(f"{source}: the values must be finite numbers, at least one cell of them")
        training = data.get("training", {})
        if not isinstance(training, dict):
            raise ValueError(f"{source}: 'training' must be an object, got {type(training).__name__}")
        return cls(values, settings, dict(training))

    @classmethod
    def load(cls, table: str = SHIPPED) -> SheepQTable:
        """The shipped table (``"shipped"``) or the one saved at path ``table``."""
        if table == SHIPPED:
            text = (resources.files("baselines") / "data" / SHIPPED_TABLE).read_bytes()
            return cls.from_json(text, f"baselines/data/{SHIPPED_TABLE}", require_digest=True)
        path = Path(table)
        if not path.is_file():
            raise FileNotFoundError(f"qlearning table {table!r} does not exist")
        return cls.from_json(path.read_bytes(), repr(str(path)))

    def save(self, path: str | Path) -> None:
        """Write :meth:`to_json` to ``path``."""
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_text(self.to_json() + "\n")


def move_pairs(game: Game, state: Any, player: int) -> tuple[np.ndarray, np.ndarray]:
    """``(cells, directions)`` of ``player``'s legal (stack, direction) pairs in ``state``."""
    cells = movable_cells(game.tables, state, player)
    directions, index = np.nonzero(open_directions(game.tables, state.owner, cells))
    return cells[index], directions


def half_split_action(game: Game, state: Any, cell: int, direction: int) -> int:
    """The action that moves half the stack on ``cell`` (``n // 2`` sheep) in ``direction``."""
    split = int(state.counts[cell]) // 2
    return game.encode(state, Move("move", int(cell), int(direction), split))


class QLearningAgent(BaseAgent):
    """Seed 003's tabular Q agent, greedy with a trained table (see the module docstring).

    Args:
        seed: the agent's seed (int, generator or ``None``).
        name: display name (default ``"qlearning"``).
        table: ``"shipped"`` (the package's table), the path of a table saved by :meth:`SheepQTable.save`, or a
            :class:`SheepQTable` (used as is: a learner updates it in place).
    """

    name = "qlearning"

    def __init__(self, seed: SeedLike = None, name: str | None = None, *, table: str | SheepQTable = SHIPPED) -> None:
        super().__init__(seed, name)
        self.table = table if isinstance(table, SheepQTable) else SheepQTable.load(str(table))

    def act(self, game: Game, view: Any, player: int) -> int:
        """The seed's start cell while placing, else half the stack along the best (cell, direction)."""
        if game.in_placement(view):
            return EvaluationAgent.start_cell(game, view)
        cells, directions = move_pairs(game, view, player)
        if cells.size == 0:
            raise ValueError(f"{self.name}: no legal move for player {player} (is the game over?)")
        return self.greedy(game, view, cells, directions)

    def greedy(self, game: Game, view: Any, cells: np.ndarray, directions: np.ndarray) -> int:
        """The half-stack move of a best-valued pair (ties to the generator)."""
        values = self.table.entries(game, cells, directions)
        best = np.flatnonzero(values >= values.max() - 1e-12)
        pick = int(best[int(self.rng.integers(best.size))])
        return half_split_action(game, view, int(cells[pick]), int(directions[pick]))


# -- training -------------------------------------------------------------------------------------
@dataclass
class _Pending:
    """The learner's last decision, waiting for its target: the table entry and the score then."""

    index: tuple[int, int, int]
    score: float


class QLearner:
    """Learns a :class:`SheepQTable` by playing (see "Learning" in the module docstring)."""

    def __init__(self, game: BattleSheep, settings: SheepQSettings, seed: int) -> None:
        if game.config.board_size != TABLE_SIZE:
            raise ValueError(f"board_size: the table is learned on the {TABLE_SIZE}x{TABLE_SIZE} board")
        self.game, self.settings = game, settings
        self.table = SheepQTable(settings=settings)
        self.agent = QLearningAgent(seed, "learner", table=self.table)
        self.scale = float(game.config.sheep_per_player) ** 1.25

    def play(self, seed: int, epsilon: float) -> np.ndarray:
        """One training game with the learner in seat ``seed % num_players`` against random players; returns
        the game's returns."""
        game = self.game
        seat = seed % game.spec.num_players
        opponent = RandomAgent(seed)
        state, pending = game.initial_state(np.random.default_rng(seed)), None
        while not game.is_terminal(state):
            player = state.current_player
            if player != seat or game.in_placement(state):
                agent = self.agent if player == seat else opponent
                state = game.apply(state, agent.act(game, state, player))
                continue
            pending, action = self._decide(state, seat, pending, epsilon)
            state = game.apply(state, action)
        if pending is not None:
            final = self._score(state, seat) - pending.score + float(game.returns(state)[seat])
            self._update(pending.index, final)
        return game.returns(state)

    def _decide(self, state: Any, seat: int, pending: _Pending | None, epsilon: float) -> tuple[_Pending, int]:
        """Update the last decision toward this one, then choose (epsilon-greedy)."""
        game = self.game
        cells, directions = move_pairs(game, state, seat)
        score = self._score(state, seat)
        if pending is not None:
            best_next = float(self.table.entries(game, cells, directions).max())
            self._update(pending.index, score - pending.score + self.settings.discount * best_next)
        if self.agent.rng.random() < epsilon:
            pick = int(self.agent.rng.integers(cells.size))
            action = half_split_action(game, state, int(cells[pick]), int(directions[pick]))
        else:
            action = self.agent.greedy(game, state, cells, directions)
        cell, direction = game.decode(state, action)[1:3]
        return _Pending((cell // TABLE_SIZE, cell % TABLE_SIZE, direction), score), action

    def _score(self, state: Any, seat: int) -> float:
        return float(self.game.scores(state)[seat]) / self.scale

    def _update(self, index: tuple[int, int, int], target: float) -> None:
        values = self.table.values
        values[index] += self.settings.learning_rate * (target - values[index])


def learn(
    games: int,
    seed: int = 0,
    settings: SheepQSettings | None = None,
    game: BattleSheep | None = None,
    progress: bool = False,
) -> tuple[SheepQTable, np.ndarray]:
    """Train a table for ``games`` games (the basic 4-player game unless ``game`` is given); returns it and the
    learner's return in every game."""
    settings = settings or SheepQSettings()
    game = game or BattleSheep()
    learner = QLearner(game, settings, seed)
    returns = np.zeros(games)
    bar = progress_bar(progress, games, "battle_sheep qlearning", "game")
    for index in range(games):
        game_seed = seed * 1_000_003 + index
        returns[index] = learner.play(game_seed, settings.epsilon_at(index, games))[game_seed % game.spec.num_players]
        bar.update()
    bar.close()
    learner.table.training = {"games": games, "seed": seed, "opponents": "random", "game": "basic (course game 1)"}
    return learner.table, returns
