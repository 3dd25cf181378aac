"""Generic tabular Q-learning for every registered game (:class:`TabularQAgent`, :func:`train`).

* **State.** The bytes of what the acting seat observes: ``game.observe(view, player).tobytes()`` (negative
  zeros made positive), where ``view`` is the seat's determinized view. Only what the seat may see enters the
  key, so hidden information never leaks into the table, and every determinization of one position gives the
  same key. Games whose observations are seat-relative (most are) share one table between seats.
* **Values.** ``dict[bytes, float64[num_actions]]``, each row created lazily (filled with ``initial_value``)
  the first time training meets its state.
* **Update.** Between two successive decisions of the learner in one seat (whatever other seats did in
  between, and however many times that seat moves in a row), ``Q(s, a) += α (γ · max_{a' legal in s'} Q(s', a')
  - Q(s, a))`` with no reward on the way; the seat's last decision of a game is updated toward its terminal
  ``game.returns`` (a truncated game ends the same way, with the returns the game gives it).
* **Exploration** while training is ε-greedy (optionally decayed linearly to ``epsilon_final`` over the
  training) or Boltzmann with temperature ``T``, both over the legal actions only. :class:`TabularQAgent`
  itself plays greedily over the legal actions (ties broken with its seeded generator); a state the table
  never met gets a uniformly random legal action.

:func:`train` puts a learner in rotating seats against opponents (or in every seat with ``opponents="self"``)
and evaluates it against an opponent every ``eval_every`` episodes. A table is saved as one ``.npz`` file that
also records the game (name, version, config) it was trained for; ``make_agent("tabular_q:table=<path.npz>",
game_name)`` loads it, and playing it in another game raises ``ValueError``.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from baselines.agent import Agent, BaseAgent, SeedLike
from baselines.params import choice_param, float_param
from baselines.progress import progress_bar
from baselines.runs import zip_problem
from boardenvs.core import Game, check_int

EXPLORATIONS = ("epsilon", "boltzmann")
"""Exploration policies while training."""
FORMAT = "tabular_q"
FORMAT_VERSION = 1
"""What a saved table's metadata says it is; files of another format or version are refused."""
SELF_PLAY = "self"
"""``opponents`` value that puts the learner in every seat."""


def observation_key(game: Game, view: Any, player: int) -> bytes:
    """The table key of ``player``'s decision in ``view``: the bytes of its float32 observation."""
    observation = np.asarray(game.observe(view, player), dtype=np.float32)
    return (observation + np.float32(0.0)).tobytes()  # -0.0 + 0.0 == +0.0: one key per observed value


# -- settings -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class QSettings:
    """Learning settings; every field is validated and a bad one raises ``ValueError`` naming it.

    Attributes:
        learning_rate: step size ``α`` in (0, 1].
        discount: ``γ`` in [0, 1] per decision of the seat (terminal returns are the only reward).
        exploration: ``"epsilon"`` (ε-greedy) or ``"boltzmann"`` (softmax of ``Q / T``), over legal actions.
        epsilon: ε in [0, 1] at the start of training.
        epsilon_final: ε at the end of training, reached linearly (``None``: ε stays constant).
        temperature: Boltzmann temperature ``T`` > 0.
        initial_value: the value of every action in a newly met state (optimism explores more).
    """

    learning_rate: float = 0.2
    discount: float = 0.99
    exploration: str = "epsilon"
    epsilon: float = 0.2
    epsilon_final: float | None = None
    temperature: float = 0.1
    initial_value: float = 0.0

    def __post_init__(self) -> None:
        checked = {
            "learning_rate": float_param("learning_rate", self.learning_rate, 0.0, 1.0, positive=True),
            "discount": float_param("discount", self.discount, 0.0, 1.0),
            "exploration": choice_param("exploration", self.exploration, EXPLORATIONS),
            "epsilon": float_param("epsilon", self.epsilon, 0.0, 1.0),
            "epsilon_final": float_param("epsilon_final", self.epsilon_final, 0.0, 1.0, optional=True),
            "temperature": float_param("temperature", self.temperature, 0.0, positive=True),
            "initial_value": float_param("initial_value", self.initial_value, -math.inf),
        }
        for name, value in checked.items():
            object.__setattr__(self, name, value)

    def epsilon_at(self, episode: int, episodes: int) -> float:
        """ε of training episode ``episode`` (0-based) of ``episodes``: linear from ``epsilon`` to the final."""
        if self.epsilon_final is None or episodes <= 1:
            return self.epsilon
        return self.epsilon + (self.epsilon_final - self.epsilon) * episode / (episodes - 1)


def as_settings(settings: QSettings | dict[str, Any] | None) -> QSettings:
    """``settings`` as :class:`QSettings` (a dict gives its fields; ``None`` the defaults)."""
    if settings is None:
        return QSettings()
    if isinstance(settings, QSettings):
        return settings
    if isinstance(settings, dict):
        known = {f.name for f in dataclasses.fields(QSettings)}
        unknown = sorted(set(settings) - known)
        if unknown:
            raise ValueError(f"settings: unknown field(s) {unknown}; allowed: {sorted(known)}")
        return QSettings(**settings)
    raise TypeError(f"settings must be a QSettings, a dict or None, got {type(settings).__name__}")


# -- the table ------------------------------------------------------------------------------------
def game_identity(game: Game) -> dict[str, Any]:
    """What a table records about its game: name, version, config (JSON form), action count, observation shape."""
    config = json.loads(json.dumps(dataclasses.asdict(game.config), default=str))
    spec = game.spec
    return {
        "name": spec.name,
        "version": spec.version,
        "config": config,
        "num_actions": spec.num_actions,
        "observation_shape": list(spec.observation_shape),
    }


class QTable:
    """The Q values of one game, the settings they were learned with, and facts about the training.

    Args:
        game: identity of the game (:func:`game_identity`).
        settings: the learning settings.
        values: state key → ``float64[num_actions]``; empty if ``None``.
        training: facts about how the table was made (episodes, opponents, seeds), saved with it.
    """

    def __init__(
        self,
        game: dict[str, Any],
        settings: QSettings,
        values: dict[bytes, np.ndarray] | None = None,
        training: dict[str, Any] | None = None,
    ) -> None:
        self.game = game
        self.settings = settings
        self.values: dict[bytes, np.ndarray] = {} if values is None else values
        self.training: dict[str, Any] = dict(training or {})

    @classmethod
    def empty(cls, game: Game, settings: QSettings | dict[str, Any] | None = None) -> QTable:
        """A table for ``game`` that knows no state yet."""
        return cls(game_identity(game), as_settings(settings))

    @property
    def num_states(self) -> int:
        """How many states the table holds."""
        return len(self.values)

    @property
    def num_actions(self) -> int:
        return int(self.game["num_actions"])

    def row(self, key: bytes) -> np.ndarray:
        """The values of state ``key``, created (all ``initial_value``) if new."""
        values = self.values.get(key)
        if values is None:
            values = np.full(self.num_actions, self.settings.initial_value, dtype=np.float64)
            self.values[key] = values
        return values

    def check_game(self, game: Game) -> None:
        """``ValueError`` unless the table was trained for ``game`` (same name, version, config and sizes)."""
        mine, theirs = self.game, game_identity(game)
        if mine["name"] != theirs["name"]:
            raise ValueError(f"table was trained for game {mine['name']!r}, not {theirs['name']!r}")
        for field_name in ("version", "config", "num_actions", "observation_shape"):
            if mine[field_name] != theirs[field_name]:
                raise ValueError(
                    f"table was trained for {mine['name']} with {field_name} {mine[field_name]!r}, "
                    f"but this game has {theirs[field_name]!r}"
                )

    def metadata(self) -> dict[str, Any]:
        """Everything but the values, as saved in the file."""
        return {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "game": self.game,
            "settings": dataclasses.asdict(self.settings),
            "training": self.training,
        }

    def save(self, path: str | Path) -> Path:
        """Write the table to ``path`` (``.npz`` is appended when missing); returns the path written."""
        path = Path(path)
        if path.suffix != ".npz":
            path = path.with_name(path.name + ".npz")
        path.parent.mkdir(parents=True, exist_ok=True)
        key_size = int(np.prod(self.game["observation_shape"])) * 4
        keys = np.frombuffer(b"".join(self.values), dtype=np.uint8).reshape(len(self.values), key_size)
        values = np.array(list(self.values.values()), dtype=np.float64).reshape(len(self.values), self.num_actions)
        meta = np.array(json.dumps(self.metadata()))
        np.savez_compressed(path, keys=keys, values=values, meta=meta)
        return path

    @classmethod
    def load(cls, path: str | Path) -> QTable:
        """A table written by :meth:`save`, checked before it is trusted: the archive's CRCs, the metadata's fields
        and types, the arrays' shapes against the game it names, finite values and distinct keys.

        Raises:
            FileNotFoundError: no file at ``path``.
            ValueError: not a table, or a damaged one (the message names the file and what is wrong).
        """
        path = Path(path)
        if not path.exists():
            raise FileNotFoundError(f"table: no file {str(path)!r}")
        meta, keys, values = _read_table_arrays(path)
        problem = _metadata_problem(meta) or _arrays_problem(meta["game"], keys, values)
        if problem:
            raise ValueError(f"table: {str(path)!r} is not a valid tabular Q file: {problem}")
        try:
            settings = QSettings(**meta["settings"])
        except (TypeError, ValueError) as error:
            raise ValueError(f"table: {str(path)!r} has bad settings: {error}") from None
        rows = {key.tobytes(): row.copy() for key, row in zip(keys, values)}
        return cls(meta["game"], settings, rows, meta["training"])


def _read_table_arrays(path: Path) -> tuple[dict[str, Any], np.ndarray, np.ndarray]:
    """The metadata, keys and values of a table file (``ValueError`` naming it if they cannot be read)."""
    problem = zip_problem(path)
    if problem:
        raise ValueError(f"table: {str(path)!r} is not a tabular Q file written by QTable.save: {problem}")
    try:
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"][()]))
            keys, values = data["keys"], data["values"]
    except Exception as error:  # noqa: BLE001 - numpy and zipfile raise many types for damaged archives
        raise ValueError(f"table: {str(path)!r} is not a tabular Q file written by QTable.save: {error}") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT or meta.get("format_version") != FORMAT_VERSION:
        found = (meta.get("format"), meta.get("format_version")) if isinstance(meta, dict) else (None, None)
        raise ValueError(f"table: {str(path)!r} has format {found[0]!r} v{found[1]}, not {FORMAT!r} v{FORMAT_VERSION}")
    return meta, keys, values


def _metadata_problem(meta: dict[str, Any]) -> str | None:
    for name in ("game", "settings", "training"):
        if not isinstance(meta.get(name), dict):
            return f"its metadata has no {name!r} object"
    return game_identity_problem(meta["game"])


def game_identity_problem(game: Any) -> str | None:
    """What is wrong with a game identity read from a file (:func:`game_identity`'s form), or ``None``."""
    if not isinstance(game, dict) or not isinstance(game.get("name"), str) or not isinstance(game.get("config"), dict):
        return "its game has no name or config"
    if not _is_positive_int(game.get("num_actions")) or not _is_int(game.get("version")):
        return "its game's num_actions or version is not an integer (num_actions >= 1)"
    shape = game.get("observation_shape")
    if not isinstance(shape, list) or not shape or not all(map(_is_positive_int, shape)):
        return f"its game's observation_shape {shape!r} is not a list of sizes"
    return None


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_positive_int(value: Any) -> bool:
    return _is_int(value) and value >= 1


def _arrays_problem(game: dict[str, Any], keys: np.ndarray, values: np.ndarray) -> str | None:
    key_size = math.prod(game["observation_shape"]) * 4
    if keys.dtype != np.uint8 or keys.ndim != 2 or keys.shape[1] != key_size:
        return f"its keys must be uint8 rows of {key_size} bytes, got {keys.dtype} {keys.shape}"
    expected = (len(keys), game["num_actions"])
    if values.dtype != np.float64 or values.shape != expected:
        return f"its values must be float64 of shape {expected}, got {values.dtype} {values.shape}"
    if not np.isfinite(values).all():
        return "its values hold NaN or an infinity"
    observations = keys.view(np.float32)
    if not np.isfinite(observations).all() or np.signbit(observations[observations == 0]).any():
        return "its keys are not observations (a key holds NaN, an infinity or -0)"
    if len(np.unique(keys, axis=0)) != len(keys):
        return "a state key appears twice"
    return None


# -- choosing actions -----------------------------------------------------------------------------
def greedy_action(values: np.ndarray, legal: np.ndarray, rng: np.random.Generator) -> int:
    """A legal action of largest value (ties broken uniformly with ``rng``)."""
    legal_values = values[legal]
    best = legal[legal_values == legal_values.max()]
    return int(best[0] if len(best) == 1 else best[rng.integers(len(best))])


def boltzmann_action(values: np.ndarray, legal: np.ndarray, temperature: float, rng: np.random.Generator) -> int:
    """A legal action drawn with probability proportional to ``exp(Q / T)``."""
    logits = values[legal] / temperature
    weights = np.exp(logits - logits.max())
    return int(legal[rng.choice(len(legal), p=weights / weights.sum())])


def exploring_action(
    values: np.ndarray, legal: np.ndarray, settings: QSettings, epsilon: float, rng: np.random.Generator
) -> int:
    """The training policy's legal action: ε-greedy with ``epsilon``, or Boltzmann (``settings.exploration``)."""
    if settings.exploration == "boltzmann":
        return boltzmann_action(values, legal, settings.temperature, rng)
    if epsilon > 0.0 and rng.random() < epsilon:
        return int(legal[rng.integers(len(legal))])
    return greedy_action(values, legal, rng)


# -- the agent ------------------------------------------------------------------------------------
class TabularQAgent(BaseAgent):
    """Plays greedily from a Q table: ``make_agent("tabular_q:table=runs/tabular_q/ttt/table.npz", game_name)``.

    Args:
        seed: the agent's seed (tie-breaks, moves in states the table never met).
        name: display name (default ``"tabular_q"``).
        table: a :class:`QTable` or the path of one saved by :meth:`QTable.save` (required).

    Raises:
        ValueError: no table, or a file that is not a table; playing a game the table was not trained for.
        FileNotFoundError: the table file does not exist.
    """

    name = "tabular_q"

    def __init__(
        self, seed: SeedLike = None, name: str | None = None, *, table: QTable | str | Path | None = None
    ) -> None:
        super().__init__(seed, name)
        if table is None:
            raise ValueError("agent 'tabular_q' needs table=<path to a .npz written by scripts/train_tabular_q.py>")
        if not isinstance(table, (QTable, str, Path)):
            raise TypeError(f"table must be a QTable or a path, got {type(table).__name__}")
        self.table = table if isinstance(table, QTable) else QTable.load(table)
        self._checked: Game | None = None
        self.moves = 0
        """Moves chosen by :meth:`act` (reset it to measure a stretch of play)."""
        self.informed_moves = 0
        """Of those, the moves the table decided: a known state whose legal actions' values are not all equal."""

    def check_game(self, game: Game) -> None:
        """``ValueError`` unless the table was trained for ``game`` (remembered after the first check)."""
        if self._checked is not game:
            self.table.check_game(game)
            self._checked = game

    def act(self, game: Game, view: Any, player: int) -> int:
        """The best legal action by the table; a uniformly random legal action in an unknown state."""
        self.check_game(game)
        legal = game.legal_actions(view)
        values = self.table.values.get(observation_key(game, view, player))
        self.moves += 1
        if values is None:
            return self.choose(legal)
        legal_values = values[legal]
        self.informed_moves += bool(legal_values.min() < legal_values.max())
        return greedy_action(values, legal, self.rng)

    def save(self, path: str | Path) -> Path:
        """Save the table (see :meth:`QTable.save`)."""
        return self.table.save(path)

    @classmethod
    def load(
        cls, path: str | Path, seed: SeedLike = None, name: str | None = None, game: Game | None = None
    ) -> TabularQAgent:
        """An agent playing the table at ``path``; with ``game``, ``ValueError`` at once if trained for another."""
        agent = cls(seed, name, table=path)
        if game is not None:
            agent.check_game(game)
        return agent


# -- learning -------------------------------------------------------------------------------------
class SeatLearner:
    """Q-learning updates for the learner's seats, one game at a time.

    Call :meth:`step` at each of the learner's decisions (it updates the seat's previous decision and picks
    the exploring action) and :meth:`finish` with the final returns.
    """

    def __init__(self, table: QTable, rng: np.random.Generator) -> None:
        self.table = table
        self.rng = rng
        self.pending: dict[int, tuple[np.ndarray, int]] = {}
        """Seat → (values row, action) of its last decision, waiting for its target."""

    def update(self, row: np.ndarray, action: int, target: float) -> None:
        """``Q(s, a) += α (target - Q(s, a))`` on the ``row`` of ``s``."""
        row[action] += self.table.settings.learning_rate * (target - row[action])

    def step(self, game: Game, view: Any, player: int, epsilon: float) -> int:
        """The learner's action for ``player`` in ``view``, after updating the seat's previous decision."""
        legal = game.legal_actions(view)
        row = self.table.row(observation_key(game, view, player))
        previous = self.pending.get(player)
        if previous is not None:
            self.update(previous[0], previous[1], self.table.settings.discount * float(row[legal].max()))
        action = exploring_action(row, legal, self.table.settings, epsilon, self.rng)
        self.pending[player] = (row, action)
        return action

    def finish(self, returns: np.ndarray) -> None:
        """Update every seat's last decision toward its return, and forget the game."""
        for player, (row, action) in self.pending.items():
            self.update(row, action, float(returns[player]))
        self.pending = {}


def seat_outcome(returns: np.ndarray, seat: int) -> float:
    """1 if ``seat``'s return beats every other seat's, 0.5 on a tie for first, else 0 (as the arena counts)."""
    others = float(np.delete(returns, seat).max())
    mine = float(returns[seat])
    return 1.0 if mine > others else 0.5 if mine == others else 0.0


def play_training_episode(
    game: Game,
    learner: SeatLearner,
    seats: Sequence[Agent | None],
    epsilon: float,
    rng: np.random.Generator,
) -> np.ndarray:
    """Play one game with the learner in the seats marked ``None``; returns the final returns.

    Every seat decides from its determinized view, as in :func:`baselines.arena.play_game`; ``rng`` drives the
    setup and the determinizations.
    """
    state = game.initial_state(rng)
    while not game.is_terminal(state):
        player = state.current_player
        view = game.determinize(state, player, rng)
        opponent = seats[player]
        action = learner.step(game, view, player, epsilon) if opponent is None else opponent.act(game, view, player)
        state = game.apply(state, action)
    returns = game.returns(state)
    learner.finish(returns)
    return returns


@dataclass(frozen=True)
class TrainingPoint:
    """One row of the training history, written after ``episode`` training episodes.

    ``train_score`` is the learner's mean outcome (1 win, 0.5 shared first place, 0 loss) over the training
    episodes since the previous row (NaN in self-play or before any episode); the ``eval_*`` fields are the
    greedy agent's results against the evaluation opponent (NaN score and interval without evaluation games),
    and ``eval_informed`` the share of its evaluation moves that the table decided (see
    :attr:`TabularQAgent.informed_moves`; the others are uniformly random; NaN without games).
    """

    episode: int
    epsilon: float
    states: int
    train_score: float
    eval_games: int
    eval_wins: int
    eval_draws: int
    eval_losses: int
    eval_score: float
    eval_low: float
    eval_high: float
    eval_informed: float


def _opponent_seats(game: Game, opponents: str | Agent, seed: int) -> list[Agent] | None:
    """One opponent per seat (``None`` for self-play), built from an agent spec or shared when an agent."""
    if isinstance(opponents, str):
        if opponents.strip().lower() == SELF_PLAY:
            return None
        from baselines.factory import make_agent

        seeds = np.random.SeedSequence(seed).generate_state(game.spec.num_players)
        return [make_agent(opponents, game.spec.name, seed=int(s)) for s in seeds]
    if callable(getattr(opponents, "act", None)):
        return [opponents] * game.spec.num_players
    raise TypeError(f"opponents must be 'self', an agent spec or an agent, got {type(opponents).__name__}")


def _opponents_label(opponents: str | Agent) -> str:
    return opponents if isinstance(opponents, str) else str(getattr(opponents, "name", type(opponents).__name__))


class QTrainer:
    """The state of one training run (see :func:`train`, which documents the arguments)."""

    def __init__(
        self,
        game: Game,
        agent: TabularQAgent,
        opponents: str | Agent,
        seed: int,
        eval_games: int,
        eval_opponent: str,
    ) -> None:
        from baselines.factory import make_agent

        self.game, self.agent, self.eval_games = game, agent, eval_games
        play, explore, opponent, evaluation = np.random.SeedSequence(seed).spawn(4)
        self.play_rng = np.random.default_rng(play)
        self.learner = SeatLearner(agent.table, np.random.default_rng(explore))
        self.opponents = _opponent_seats(game, opponents, int(opponent.generate_state(1)[0]))
        opponent_seed, self.eval_seed = (int(value) for value in evaluation.generate_state(2))
        self.evaluator = make_agent(eval_opponent, game.spec.name, seed=opponent_seed)
        self.outcomes: list[float] = []

    def episode(self, index: int, epsilon: float) -> None:
        """Play training episode ``index`` (the learner in seat ``index % n``, or in every seat in self-play)."""
        num_players = self.game.spec.num_players
        if self.opponents is None:
            play_training_episode(self.game, self.learner, [None] * num_players, epsilon, self.play_rng)
            return
        seat = index % num_players
        seats = [None if player == seat else self.opponents[player] for player in range(num_players)]
        returns = play_training_episode(self.game, self.learner, seats, epsilon, self.play_rng)
        self.outcomes.append(seat_outcome(returns, seat))

    def evaluate(self) -> tuple[int, int, int]:
        """``(wins, draws, losses)`` of the greedy agent against the evaluation opponent (the same seeds each time)."""
        from baselines.arena import evaluate_against

        if self.eval_games == 0:
            return 0, 0, 0
        self.agent.moves = self.agent.informed_moves = 0
        return evaluate_against(self.game, self.agent, self.evaluator, self.eval_games, self.eval_seed)

    def point(self, episode: int, epsilon: float) -> TrainingPoint:
        """Evaluate now and summarise the training outcomes since the last point (which it then forgets)."""
        from baselines.arena.ratings import wilson_interval

        wins, draws, losses = self.evaluate()
        games, points = wins + draws + losses, wins + 0.5 * draws
        score = points / games if games else math.nan
        low, high = wilson_interval(points, games) if games else (math.nan, math.nan)
        train_score = float(np.mean(self.outcomes)) if self.outcomes else math.nan
        self.outcomes = []
        informed = self.agent.informed_moves / self.agent.moves if games and self.agent.moves else math.nan
        states = self.agent.table.num_states
        return TrainingPoint(episode, epsilon, states, train_score, games, wins, draws, losses, score, low, high,
                             informed)  # fmt: skip


def train(
    game: Game,
    episodes: int,
    opponents: str | Agent = "random",
    settings: QSettings | dict[str, Any] | None = None,
    seed: int = 0,
    progress: bool = False,
    *,
    eval_every: int = 0,
    eval_games: int = 0,
    eval_opponent: str = "random",
    agent: TabularQAgent | None = None,
) -> tuple[TabularQAgent, list[TrainingPoint]]:
    """Train a table by Q-learning; return the greedy agent and the history.

    Args:
        game: the game.
        episodes: training games, >= 1.
        opponents: ``"self"`` (the learner in every seat, all seats updating one table), an agent spec for
            :func:`baselines.factory.make_agent` (``"random"``, ``"mcts:simulations=20"``, ...; one agent per seat),
            or an agent object (shared by the other seats). Against opponents the learner's seat rotates:
            episode ``i`` puts it in seat ``i % num_players``.
        settings: learning settings (default: ``agent``'s table's settings, else :class:`QSettings`).
        seed: seed of the setups, determinizations, exploration, opponents and evaluation games.
        progress: show a tqdm bar.
        eval_every: add a history row every this many episodes (and after the last); 0: only after the last.
            With ``eval_every`` > 0 the untrained table gets a row too (episode 0).
        eval_games: games per evaluation against ``eval_opponent`` (learner seat rotating; 0: no evaluation).
        eval_opponent: agent spec of the evaluation opponent.
        agent: continue training this agent's table (it must be for ``game``); default a new empty table.

    Returns:
        The agent (its table trained; it plays greedily) and the :class:`TrainingPoint` rows.
    """
    check_int("episodes", episodes, 1)
    check_int("eval_every", eval_every, 0)
    check_int("eval_games", eval_games, 0)
    if agent is None:
        agent = TabularQAgent(seed, table=QTable.empty(game, settings))
    else:
        agent.check_game(game)
        if settings is not None:
            agent.table.settings = as_settings(settings)
    trainer = QTrainer(game, agent, opponents, seed, eval_games, eval_opponent)
    schedule = agent.table.settings
    history = [trainer.point(0, schedule.epsilon_at(0, episodes))] if eval_every else []
    with progress_bar(progress, episodes, f"{game.spec.name} tabular Q", "episode") as bar:
        for episode in range(episodes):
            epsilon = schedule.epsilon_at(episode, episodes)
            trainer.episode(episode, epsilon)
            bar.update()
            if episode + 1 == episodes or (eval_every and (episode + 1) % eval_every == 0):
                history.append(trainer.point(episode + 1, epsilon))
    agent.table.training = {
        "episodes": int(agent.table.training.get("episodes", 0)) + episodes,
        "opponents": _opponents_label(opponents),
        "seed": seed,
    }
    return agent, history
