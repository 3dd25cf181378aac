"""Tabular Q-learning agent for Gravwell, as §3.4 of seed 000 (Gravitas) describes it.

* **Card play.** State: the distance to the nearest opponent ship ahead and behind (hulks and ships in the
  Singularity, tile 0, are ignored; so are opponents on the agent's own tile, which only happens in the
  Singularity). Per direction 12 values: the exact distance 1..10, "a ship further than 10", "no ship on this
  side". 144 states, or 6 × 144 = 864 with the turn number. Actions: the 26 cards (only cards in hand are
  legal). Reward of a turn: the ship's movement ``l × d`` over the turn, multiplied by the negative factor
  ``γ`` when it went backwards (``reward_timing="turn"``), or 0 for turns 1-5 and the round's total
  movement (same factor) on turn 6 (``"round"``). Updates follow equation (6) with the next commit
  decision's legal cards as ``A``; a finished game is terminal (value 0).
* **Emergency Stop.** State ``(turn, direction, distance)``: 6 × 2 × 10 = 120 states (distance clipped to
  1..10; a move of 0 counts as forward 1). Actions: use / decline. Reward: ``-direction × distance`` when
  used, 0 when declined; the next ES decision of the same round is the next state (using the ES, the end of
  the round and the end of the game are terminal). ``use_stop=False`` (the paper's "disable ES") declines
  always.
* **Drafting** is not learned (the paper learns only card play and the ES): a uniformly random stack.

Exploration is Boltzmann (equation 5) with temperature ``T`` while training; a non-training agent plays
greedily (ties broken with its seeded generator). Only public facts of the view are used (ship tiles,
turn, the own hand and the own card about to resolve), so every determinization gives the same state.

Trained tables ship with the package (``baselines/data/gravwell_q_*.json``, written by
``python -m scripts.train_gravwell_q --export-json ...``): :class:`PretrainedQAgent` (registered as
``make_agent("qlearning", "gravwell")``) loads the one that matches the game's ``inert_tractors`` setting.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from baselines.agent import BaseAgent, SeedLike
from baselines.games.gravwell.agents import DecisionTreeAgent, RandomAgent, RandomNoStopAgent
from baselines.runs import check_digest, number_table, with_digest, zip_problem
from boardenvs.core import Game
from boardenvs.games.gravwell import Gravwell
from boardenvs.games.gravwell.cards import NUM_CARDS, bits_to_cards
from boardenvs.games.gravwell.rules import ROUNDS, SINGULARITY, TURNS, resolve
from boardenvs.games.gravwell.state import COMMIT, DRAFT

SIGHT = 10
"""The sensation limit: exact distances 1..10 are seen."""
DIRECTION_CODES = SIGHT + 2
"""Per direction: distances 1..10, "beyond sight", "none"."""
STATES_144, STATES_864 = DIRECTION_CODES**2, TURNS * DIRECTION_CODES**2
STOP_STATES = TURNS * 2 * SIGHT
"""Emergency Stop states: turn × direction × distance (120)."""
REPRESENTATIONS = (144, 864)
REWARD_TIMINGS = ("turn", "round")
SHIPPED_TABLES: dict[bool, str] = {False: "gravwell_q_correct.json", True: "gravwell_q_inert.json"}
"""Package-data table per ``inert_tractors`` setting (under ``baselines/data/``)."""
TABLE_DECIMALS = 4
"""Decimals kept in an exported JSON table."""


@dataclass(frozen=True)
class QSettings:
    """Learning settings (paper Table 1 defaults; the temperature is not given in the paper).

    Attributes:
        representation: 144 (relative positions) or 864 (also the turn).
        temperature: Boltzmann temperature ``T`` (> 0).
        learning_rate: ``α`` in (0, 1].
        discount: ``λ`` in [0, 1].
        negative_factor: ``γ`` in [1, 10], multiplies backward movement.
        reward_timing: "turn" (each turn) or "round" (whole round on the last turn).
        use_stop: learn and use the Emergency Stop; False declines it always.
    """

    representation: int = 144
    temperature: float = 1.0
    learning_rate: float = 0.7
    discount: float = 0.2
    negative_factor: float = 10.0
    reward_timing: str = "turn"
    use_stop: bool = True

    def __post_init__(self) -> None:
        if type(self.representation) is not int or self.representation not in REPRESENTATIONS:
            raise ValueError(f"representation must be 144 or 864, got {self.representation!r}")
        _check_range("temperature", self.temperature, 0.0, float("inf"), low_open=True)
        _check_range("learning_rate", self.learning_rate, 0.0, 1.0, low_open=True)
        _check_range("discount", self.discount, 0.0, 1.0)
        _check_range("negative_factor", self.negative_factor, 1.0, 10.0)
        if not isinstance(self.reward_timing, str) or self.reward_timing not in REWARD_TIMINGS:
            raise ValueError(f"reward_timing must be 'turn' or 'round', got {self.reward_timing!r}")
        if not isinstance(self.use_stop, bool):
            raise ValueError(f"use_stop must be a bool, got {self.use_stop!r}")


def _check_range(name: str, value: float, low: float, high: float, low_open: bool = False) -> None:
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and (low < value if low_open else low <= value)
    if not ok or not value <= high:
        bound = "(" if low_open else "["
        raise ValueError(f"{name} must be in {bound}{low}, {high}], got {value!r}")


# -- state representations ------------------------------------------------------------------------
def _direction_code(distance: int | None) -> int:
    """0..9 for distances 1..10, 10 beyond sight, 11 for no ship on that side."""
    if distance is None:
        return SIGHT + 1
    return distance - 1 if distance <= SIGHT else SIGHT


def nearest_opponents(pos: Sequence[int], player: int, num_players: int) -> tuple[int | None, int | None]:
    """Distances to the nearest opponent ship ahead and behind (``None``: none on that side)."""
    here = pos[player]
    ahead = behind = None
    for other in range(num_players):
        tile = pos[other]
        if other == player or tile in (SINGULARITY, here):
            continue
        gap = abs(tile - here)
        if tile > here:
            ahead = gap if ahead is None else min(ahead, gap)
        else:
            behind = gap if behind is None else min(behind, gap)
    return ahead, behind


def state_144(pos: Sequence[int], player: int, num_players: int) -> int:
    """The 144-state index (0..143) of ``player`` from the ship tiles."""
    ahead, behind = nearest_opponents(pos, player, num_players)
    return _direction_code(ahead) * DIRECTION_CODES + _direction_code(behind)


def state_864(pos: Sequence[int], player: int, num_players: int, turn: int) -> int:
    """The 864-state index (0..863): the turn (0..5) times 144 plus the 144-state index."""
    return turn * STATES_144 + state_144(pos, player, num_players)


def play_state(view: Any, player: int, num_players: int, representation: int) -> int:
    """The card-play state of ``player`` in ``view`` for the chosen representation."""
    if representation == 144:
        return state_144(view.pos, player, num_players)
    return state_864(view.pos, player, num_players, view.turn)


def stop_state(turn: int, movement: int) -> int:
    """The Emergency Stop state (0..119) of a card that would move the own ship by ``movement`` tiles."""
    direction = 0 if movement >= 0 else 1
    distance = min(max(abs(movement), 1), SIGHT)
    return (turn * 2 + direction) * SIGHT + distance - 1


def pending_movement(game: Gravwell, view: Any, player: int) -> int:
    """How far the own card about to resolve would move the own ship (negative: backwards)."""
    card, owner = view.queue[0]
    pos = list(view.pos)
    before = pos[owner]
    resolve(pos, owner, card, game.n, game.config.inert_tractors)
    del player
    return pos[owner] - before


# -- exploration ----------------------------------------------------------------------------------
def boltzmann_choice(values: np.ndarray, temperature: float, rng: np.random.Generator) -> int:
    """An index drawn with probability ``exp(v / T)`` normalised (equation 5)."""
    logits = (values - values.max()) / temperature
    weights = np.exp(logits)
    return int(rng.choice(len(values), p=weights / weights.sum()))


def greedy_choice(values: np.ndarray, rng: np.random.Generator) -> int:
    """The index of a largest value (ties broken by ``rng``)."""
    best = np.flatnonzero(values == values.max())
    return int(best[0] if len(best) == 1 else rng.choice(best))


# -- the agent ------------------------------------------------------------------------------------
@dataclass
class _Pending:
    """A decision waiting for its reward and next state."""

    state: int = -1
    action: int = -1
    round: int = -1
    turn: int = -1
    tile: int = 0
    round_start: int = 0


@dataclass
class _Memory:
    """What one training game remembers between decisions."""

    play: _Pending = field(default_factory=_Pending)
    stop: _Pending = field(default_factory=_Pending)


class QLearningAgent(BaseAgent):
    """Tabular Q-learning for card play and the Emergency Stop; random drafting (module docstring).

    Args:
        seed: seed of the agent's generator (exploration, drafting, tie-breaks).
        settings: the learning settings; default :class:`QSettings`.
        name: display name.
        training: explore with Boltzmann and update the tables; otherwise play greedily.
    """

    name = "qlearning"

    def __init__(
        self, seed: SeedLike = None, settings: QSettings | None = None, name: str | None = None, training: bool = False
    ) -> None:
        super().__init__(seed, name)
        self.settings = settings or QSettings()
        self.training = training
        self.q_play = np.zeros((self.settings.representation, NUM_CARDS))
        self.q_stop = np.zeros((STOP_STATES, 2))
        self.visits = np.zeros_like(self.q_play, dtype=np.int64)
        self.memory = _Memory()

    # -- acting -----------------------------------------------------------------------------------
    def act(self, game: Game, view: Any, player: int) -> int:
        """Random draft; Q-chosen card; Q-chosen Emergency Stop decision."""
        if view.phase == DRAFT:
            return self.choose(game.legal_actions(view))
        if view.phase == COMMIT:
            return game.play_base + self._choose_card(game, view, player)
        return game.stop_action + (0 if self._choose_stop(game, view, player) else 1)

    def _pick(self, values: np.ndarray) -> int:
        if self.training:
            return boltzmann_choice(values, self.settings.temperature, self.rng)
        return greedy_choice(values, self.rng)

    def _choose_card(self, game: Gravwell, view: Any, player: int) -> int:
        state = play_state(view, player, game.n, self.settings.representation)
        hand = np.array(bits_to_cards(view.hands[player]))
        if self.training:
            self._learn_play(view, player, state, hand)
            self._close_stop_if_new_round(view)
        card = int(hand[self._pick(self.q_play[state, hand])])
        if self.training:
            self._remember_play(view, player, state, card)
        return card

    def _choose_stop(self, game: Gravwell, view: Any, player: int) -> bool:
        if not self.settings.use_stop:
            return False
        movement = pending_movement(game, view, player)
        state = stop_state(view.turn, movement)
        if self.training:
            self._learn_stop(view, state)
        use = bool(self._pick(self.q_stop[state]))
        if self.training:
            self._remember_stop(view, state, use, movement)
        return use

    # -- learning ---------------------------------------------------------------------------------
    def start_game(self) -> None:
        """Forget the pending decisions of the previous game."""
        self.memory = _Memory()

    def _update(self, table: np.ndarray, state: int, action: int, reward: float, future: float) -> None:
        alpha, discount = self.settings.learning_rate, self.settings.discount
        table[state, action] = (1 - alpha) * table[state, action] + alpha * (reward + discount * future)

    def _shaped(self, movement: float) -> float:
        """Equation (7): ``l × d × γ`` with ``γ`` applied to backward movement only."""
        return movement * (self.settings.negative_factor if movement < 0 else 1.0)

    def _play_reward(self, tile: int) -> float:
        pending = self.memory.play
        if self.settings.reward_timing == "turn":
            return self._shaped(tile - pending.tile)
        if pending.turn == TURNS - 1:
            return self._shaped(tile - pending.round_start)
        return 0.0

    def _learn_play(self, view: Any, player: int, state: int, hand: np.ndarray) -> None:
        pending = self.memory.play
        if pending.state < 0:
            return
        reward = self._play_reward(view.pos[player])
        self._update(self.q_play, pending.state, pending.action, reward, float(self.q_play[state, hand].max()))

    def _remember_play(self, view: Any, player: int, state: int, card: int) -> None:
        previous = self.memory.play
        tile = view.pos[player]
        start = tile if view.turn == 0 or previous.round != view.round else previous.round_start
        self.memory.play = _Pending(state, card, view.round, view.turn, tile, start)
        self.visits[state, card] += 1

    def _learn_stop(self, view: Any, state: int) -> None:
        pending = self.memory.stop
        if pending.state < 0:
            return
        future = float(self.q_stop[state].max()) if pending.round == view.round else 0.0
        self._update(self.q_stop, pending.state, pending.action, 0.0, future)
        self.memory.stop = _Pending()

    def _remember_stop(self, view: Any, state: int, use: bool, movement: int) -> None:
        if use:
            self._update(self.q_stop, state, 1, float(-np.sign(movement) * min(abs(movement), SIGHT)), 0.0)
            self.memory.stop = _Pending()
        else:
            self.memory.stop = _Pending(state, 0, view.round)

    def _close_stop_if_new_round(self, view: Any) -> None:
        pending = self.memory.stop
        if pending.state >= 0 and pending.round != view.round:
            self._update(self.q_stop, pending.state, pending.action, 0.0, 0.0)
            self.memory.stop = _Pending()

    def end_game(self, final_pos: Sequence[int], player: int) -> None:
        """Terminal updates after a game: the last card (value 0 beyond) and an open ES decision."""
        pending = self.memory.play
        if pending.state >= 0:
            tile = final_pos[player]
            last = tile - (pending.tile if self.settings.reward_timing == "turn" else pending.round_start)
            self._update(self.q_play, pending.state, pending.action, self._shaped(last), 0.0)
        if self.memory.stop.state >= 0:
            stop = self.memory.stop
            self._update(self.q_stop, stop.state, stop.action, 0.0, 0.0)
        self.memory = _Memory()

    # -- persistence ------------------------------------------------------------------------------
    def save(self, path: str | Path) -> Path:
        """Write ``<path>.npz`` (tables) and ``<path>.json`` (settings); returns the npz path."""
        base = Path(path).with_suffix("")
        base.parent.mkdir(parents=True, exist_ok=True)
        np.savez(base.with_suffix(".npz"), q_play=self.q_play, q_stop=self.q_stop, visits=self.visits)
        base.with_suffix(".json").write_text(json.dumps({"settings": asdict(self.settings), "name": self.name}))
        return base.with_suffix(".npz")

    @classmethod
    def load(cls, path: str | Path, seed: SeedLike = None, name: str | None = None) -> QLearningAgent:
        """A greedy agent from files written by :meth:`save` (``path`` with or without suffix).

        Raises:
            FileNotFoundError: the ``.npz`` or ``.json`` file is missing.
            ValueError: either file is damaged, or the tables are not finite or do not fit the settings (the
                message names the file).
        """
        base = Path(path).with_suffix("")
        meta_path, tables_path = base.with_suffix(".json"), base.with_suffix(".npz")
        for file in (meta_path, tables_path):
            if not file.is_file():
                raise FileNotFoundError(f"qlearning: no file {str(file)!r} (save() writes a .npz and a .json)")
        meta = _json_object(meta_path.read_bytes(), repr(str(meta_path)))
        saved_name = meta.get("name")
        if saved_name is not None and not isinstance(saved_name, str):
            raise ValueError(f"qlearning: {str(meta_path)!r}: 'name' must be a string, got {saved_name!r}")
        agent = cls(seed, _settings(meta.get("settings"), repr(str(meta_path))), name=name or saved_name)
        tables = _npz_tables(tables_path)
        problem = _tables_problem(agent.settings, tables["q_play"], tables["q_stop"], tables["visits"])
        if problem:
            raise ValueError(f"qlearning: {str(tables_path)!r}: {problem}")
        agent.q_play, agent.q_stop, agent.visits = tables["q_play"], tables["q_stop"], tables["visits"]
        return agent

    def export_json(self, path: str | Path, training: dict[str, Any] | None = None) -> Path:
        """Write the greedy policy as one compact JSON file: settings, tables rounded to ``TABLE_DECIMALS``
        and ``training`` (how the tables were made), with the digest of that content
        (:func:`~baselines.runs.with_digest`); read back by :meth:`load_json`."""
        data = {
            "settings": asdict(self.settings),
            "training": training or {},
            "q_play": np.round(self.q_play, TABLE_DECIMALS).tolist(),
            "q_stop": np.round(self.q_stop, TABLE_DECIMALS).tolist(),
        }
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(with_digest(data), separators=(",", ":")) + "\n")
        return path

    def load_json(self, text: str | bytes, source: str = "table", require_digest: bool = False) -> None:
        """Take the settings and tables of an :meth:`export_json` file's ``text`` (``source`` names it in errors).

        The content must match its digest when it has one (``require_digest``: it must have one, as the shipped
        tables do), the settings must be valid, and the tables finite and of the shapes the settings give.

        Raises:
            ValueError: naming ``source`` and what is wrong; the agent is left as it was.
        """
        data = check_digest(_json_object(text, source), f"qlearning: {source}", require_digest)
        settings = _settings(data.get("settings"), source)
        try:
            q_play, q_stop = (number_table(data.get(name), repr(name)) for name in ("q_play", "q_stop"))
        except ValueError as error:
            raise ValueError(f"qlearning: {source}: {error}") from None
        problem = _tables_problem(settings, q_play, q_stop)
        if problem:
            raise ValueError(f"qlearning: {source}: {problem}")
        self.settings, self.q_play, self.q_stop = settings, q_play, q_stop
        self.visits = np.zeros_like(q_play, dtype=np.int64)


def _json_object(text: str | bytes, source: str) -> dict[str, Any]:
    try:
        data = json.loads(text.decode("utf-8") if isinstance(text, bytes) else text)
    except (ValueError, RecursionError) as error:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        raise ValueError(f"qlearning: {source} is not a Q-learning table (not UTF-8 JSON: {error})") from None
    if not isinstance(data, dict):
        raise ValueError(f"qlearning: {source} is not a Q-learning table (not a JSON object)")
    return data


def _settings(data: Any, source: str) -> QSettings:
    if not isinstance(data, dict):
        raise ValueError(f"qlearning: {source}: its 'settings' must be an object, got {type(data).__name__}")
    try:
        return QSettings(**data)
    except (TypeError, ValueError) as error:
        raise ValueError(f"qlearning: {source}: its settings are not valid: {error}") from None


def _npz_tables(path: Path) -> dict[str, np.ndarray]:
    problem = zip_problem(path)
    if problem:
        raise ValueError(f"qlearning: {str(path)!r} is not a Q-learning table: {problem}")
    try:
        with np.load(path, allow_pickle=False) as data:
            return {name: data[name] for name in ("q_play", "q_stop", "visits")}
    except Exception as error:  # noqa: BLE001 - numpy and zipfile raise many types for damaged archives
        raise ValueError(f"qlearning: {str(path)!r} is not a Q-learning table: {error}") from None


def _tables_problem(settings: QSettings, q_play: np.ndarray, q_stop: np.ndarray, visits: Any = None) -> str | None:
    """What is wrong with tables for ``settings`` (``None`` if nothing): their shapes and finite values."""
    if q_play.shape != (settings.representation, NUM_CARDS) or q_stop.shape != (STOP_STATES, 2):
        return f"table shapes {q_play.shape}, {q_stop.shape} do not match {settings}"
    if not (np.isfinite(q_play).all() and np.isfinite(q_stop).all()):
        return "the tables hold NaN or an infinity"
    if visits is not None and (visits.shape != q_play.shape or visits.dtype.kind not in "iu" or (visits < 0).any()):
        return f"its visit counts must be integers >= 0 of shape {q_play.shape}"
    return None


def shipped_table(inert_tractors: bool) -> str:
    """The text of the package's trained table for the correct (False) or inert (True) tractors."""
    return (resources.files("baselines") / "data" / SHIPPED_TABLES[bool(inert_tractors)]).read_text()


class PretrainedQAgent(QLearningAgent):
    """The greedy Q-learning agent with the shipped tables (``make_agent("qlearning", "gravwell", seed)``).

    When it first acts in a game (and whenever the game's ``inert_tractors`` setting changes) it loads the
    package table trained for that setting: 4-player games against three random agents (the table's
    ``training`` entry records how). It plays greedily and never learns.
    """

    name = "qlearning"

    def __init__(self, seed: SeedLike = None, name: str | None = None) -> None:
        super().__init__(seed, None, name)
        self.loaded_for: bool | None = None
        """The ``inert_tractors`` setting of the loaded table (None before the first move)."""

    def act(self, game: Game, view: Any, player: int) -> int:
        inert = bool(getattr(game.config, "inert_tractors", False))
        if self.loaded_for is not inert:
            self.load_json(shipped_table(inert), f"baselines/data/{SHIPPED_TABLES[inert]}", require_digest=True)
            self.loaded_for = inert
        return super().act(game, view, player)


# -- training -------------------------------------------------------------------------------------
def _opponent_factory(name: str) -> Callable[[int], BaseAgent]:
    factories: dict[str, Callable[[int], BaseAgent]] = {
        "random": RandomAgent, "random_no_es": RandomNoStopAgent, "tree": DecisionTreeAgent,
    }  # fmt: skip
    if name not in factories:
        raise ValueError(f"opponents: unknown opponent {name!r}; choices: {sorted(factories)}")
    return factories[name]


def train_game(game: Gravwell, agent: QLearningAgent, opponents: Sequence[BaseAgent], seed: int) -> bool:
    """Play one training game, the learner in seat ``seed % n``; True if the learner won (alone or tied)."""
    n = game.n
    seat = seed % n
    rng = np.random.default_rng(seed)
    seats: list[BaseAgent] = list(opponents[:seat]) + [agent] + list(opponents[seat:])
    for index, other in enumerate(seats):
        if other is not agent:
            other.reseed(seed * 7 + index)
    agent.start_game()
    state = game.initial_state(rng)
    while not game.is_terminal(state):
        player = state.current_player
        view = game.determinize(state, player, rng) if seats[player] is agent else state
        state = game.apply(state, seats[player].act(game, view, player))
    agent.end_game(state.pos, seat)
    return bool(game.returns(state)[seat] > 0)


def learn(
    agent: QLearningAgent,
    games: int,
    seed: int = 0,
    opponents: str = "random",
    game: Gravwell | None = None,
    progress: bool = False,
) -> np.ndarray:
    """Train ``agent`` for ``games`` seeded games against three opponents; returns the per-game win flags.

    Args:
        agent: the learner (switched to training mode for the run, then back to greedy).
        games: number of training games (>= 1).
        seed: the training seed (game ``i`` uses seed ``seed * 1_000_003 + i``).
        opponents: "random" (ES with probability 0.5), "random_no_es" or "tree"; the same kind in every seat.
        game: the game (default: a correct 4-player Gravwell).
        progress: show a tqdm progress bar.

    Opponents see the true state: they only use their own hand and public facts, and skipping their
    determinization makes training faster. The learner gets a determinized view.
    """
    if not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be a positive int, got {games!r}")
    game = game or Gravwell(num_players=4)
    factory = _opponent_factory(opponents)
    others = [factory(seed + index) for index in range(game.n - 1)]
    wins = np.zeros(games, dtype=bool)
    agent.training = True
    items: Any = range(games)
    if progress:
        from tqdm import tqdm

        items = tqdm(items, desc=f"Q-learning {agent.settings.representation}", unit="game")
    try:
        for index in items:
            wins[index] = train_game(game, agent, others, seed * 1_000_003 + index)
    finally:
        agent.training = False
    return wins


__all__ = [
    "PretrainedQAgent",
    "QLearningAgent",
    "QSettings",
    "ROUNDS",
    "boltzmann_choice",
    "learn",
    "play_state",
    "shipped_table",
    "state_144",
    "state_864",
    "stop_state",
]
