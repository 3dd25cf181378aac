"""Seed 004's Q-learning neural network (§2.2, §4.7, §4.8): :class:`QLNNAgent` and :func:`train`.

* **Network.** An MLP from the acting seat's flattened observation (``game.observe(view, player)``) to one
  value per action of the game. The agent plays the legal action of largest value (illegal actions masked;
  the thesis tries the best action and then the next best until one is legal, which is the same move).
* **Target (thesis eq. 2.2).** At each decision of the learner, the desired output vector is a copy of the
  network's output in which only the played action's value is replaced: by the final return when the game
  ended before the learner's next turn, else by ``r + γ max_{a' legal} Q(s', a')`` in the position where the
  learner is on the move again. The loss is the squared error on that one output, so only the played
  action's output row of the last layer receives a gradient.
* **Thesis mode** (the defaults): one SGD step per decision, on that decision alone, no target network, no
  replay, terminal rewards only. **Learning mode** adds what it takes: a replay buffer (``replay`` > 0) with
  mini-batches, a target network (``target_sync`` > 0), Adam, and potential-based shaping by the
  path-length difference (``shaping`` > 0; games with ``distance_to_goal``, i.e. Quoridor).
* **Exploration** is ε-greedy over the legal actions, ε decaying linearly from ``epsilon`` to
  ``epsilon_final`` over the first ``epsilon_decay`` share of the episodes.

A network is saved as one ``.pt`` file (weights plus the game identity and the settings); ``make_agent(
"qlnn:weights=<path.pt>", game)`` plays any such file, and ``make_agent("qlnn", "quoridor")`` the network
shipped in ``baselines/data`` for the game's config (see :data:`SHIPPED`).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from baselines.agent import Agent, BaseAgent, SeedLike
from baselines.learners.tabular_q import (
    _opponent_seats,
    game_identity,
    game_identity_problem,
    greedy_action,
    seat_outcome,
)
from baselines.params import choice_param, float_param, int_param
from baselines.progress import progress_bar
from baselines.runs import atomic_write, zip_problem
from boardenvs.core import Game, check_int

FORMAT = "qlnn"
FORMAT_VERSION = 1
"""What a saved network's metadata says it is; other files are refused."""
ACTIVATIONS = ("sigmoid", "tanh", "relu")
OPTIMIZERS = ("sgd", "adam")
DATA_DIR = Path(__file__).resolve().parent.parent / "data"
SHIPPED: dict[str, list[str]] = {"quoridor": ["quoridor_qlnn_5x5.pt"]}
"""Game name -> the networks shipped in ``baselines/data`` (each records the config it was trained on)."""


def _torch() -> Any:
    import torch

    return torch


# -- settings -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class QLNNSettings:
    """Network and learning settings; a bad field raises ``ValueError`` naming it.

    Attributes:
        hidden: hidden layer widths (the thesis' fig. 5.1: 160, 187).
        activation: hidden activation, ``sigmoid`` (thesis era), ``tanh`` or ``relu``.
        optimizer: ``sgd`` (plain, the thesis' "network learning rate") or ``adam``.
        learning_rate: the optimizer's step size.
        discount: ``γ`` per own decision (the thesis gives no value).
        epsilon, epsilon_final, epsilon_decay: ε-greedy from ``epsilon`` to ``epsilon_final``, linearly over the
            first ``epsilon_decay`` share of the episodes.
        shaping: weight of the potential-based reward ``γΦ(s') - Φ(s)``, ``Φ = (d_opp - d_me) / cells`` (0: none).
        replay: replay buffer size (0: one update per decision on that decision alone, as the thesis).
        batch_size: mini-batch size with replay.
        target_sync: copy the network into the target network every this many updates (0: no target network).
    """

    hidden: tuple[int, ...] = (160, 187)
    activation: str = "sigmoid"
    optimizer: str = "sgd"
    learning_rate: float = 0.01
    discount: float = 0.9
    epsilon: float = 1.0
    epsilon_final: float = 0.05
    epsilon_decay: float = 1.0
    shaping: float = 0.0
    replay: int = 0
    batch_size: int = 64
    target_sync: int = 0

    def __post_init__(self) -> None:
        hidden = tuple(int_param("hidden", width, 1) for width in self.hidden)
        checked = {
            "hidden": hidden,
            "activation": choice_param("activation", self.activation, ACTIVATIONS),
            "optimizer": choice_param("optimizer", self.optimizer, OPTIMIZERS),
            "learning_rate": float_param("learning_rate", self.learning_rate, 0.0, positive=True),
            "discount": float_param("discount", self.discount, 0.0, 1.0),
            "epsilon": float_param("epsilon", self.epsilon, 0.0, 1.0),
            "epsilon_final": float_param("epsilon_final", self.epsilon_final, 0.0, 1.0),
            "epsilon_decay": float_param("epsilon_decay", self.epsilon_decay, 0.0, 1.0, positive=True),
            "shaping": float_param("shaping", self.shaping, 0.0),
            "replay": int_param("replay", self.replay, 0),
            "batch_size": int_param("batch_size", self.batch_size, 1),
            "target_sync": int_param("target_sync", self.target_sync, 0),
        }
        for name, value in checked.items():
            object.__setattr__(self, name, value)

    def epsilon_at(self, episode: int, episodes: int) -> float:
        """ε of training episode ``episode`` (0-based) of ``episodes``."""
        span = max(1.0, self.epsilon_decay * episodes - 1)
        fraction = min(1.0, episode / span)
        return self.epsilon + (self.epsilon_final - self.epsilon) * fraction


# -- the network ----------------------------------------------------------------------------------
def build_network(inputs: int, outputs: int, settings: QLNNSettings) -> Any:
    """The MLP ``inputs -> hidden... -> outputs`` (linear output layer)."""
    nn = _torch().nn
    activation = {"sigmoid": nn.Sigmoid, "tanh": nn.Tanh, "relu": nn.ReLU}[settings.activation]
    layers: list[Any] = []
    width = inputs
    for hidden in settings.hidden:
        layers += [nn.Linear(width, hidden), activation()]
        width = hidden
    layers.append(nn.Linear(width, outputs))
    return nn.Sequential(*layers)


def observation_vector(game: Game, view: Any, player: int) -> np.ndarray:
    """``player``'s observation of ``view``, flattened to float32."""
    return np.asarray(game.observe(view, player), dtype=np.float32).reshape(-1)


class QNetwork:
    """A network, the game it scores actions of, its settings and how it was trained."""

    def __init__(
        self, game: dict[str, Any], settings: QLNNSettings, module: Any = None, training: dict[str, Any] | None = None
    ) -> None:
        self.game = game
        self.settings = settings
        inputs = int(np.prod(game["observation_shape"]))
        self.module = module if module is not None else build_network(inputs, int(game["num_actions"]), settings)
        self.training: dict[str, Any] = dict(training or {})

    @classmethod
    def empty(cls, game: Game, settings: QLNNSettings | None = None, seed: int = 0) -> QNetwork:
        """A freshly initialised network for ``game`` (initialisation seeded with ``seed``)."""
        _torch().manual_seed(seed)
        return cls(game_identity(game), settings or QLNNSettings())

    def values(self, observation: np.ndarray) -> np.ndarray:
        """The action values of one flattened observation."""
        torch = _torch()
        with torch.no_grad():
            return self.module(torch.from_numpy(observation)[None])[0].numpy()

    def check_game(self, game: Game) -> None:
        """``ValueError`` unless the network was trained for ``game`` (name, version, config, sizes)."""
        mine, theirs = self.game, game_identity(game)
        for field_name in ("name", "version", "config", "num_actions", "observation_shape"):
            if mine[field_name] != theirs[field_name]:
                raise ValueError(
                    f"qlnn network was trained for {mine['name']} with {field_name} {mine[field_name]!r}, "
                    f"but this game has {theirs[field_name]!r}"
                )

    def save(self, path: str | Path) -> Path:
        """Write the network and its metadata to ``path`` (a ``.pt`` file); returns the path."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        settings = dataclasses.asdict(self.settings)
        settings["hidden"] = list(settings["hidden"])
        payload = {"format": FORMAT, "format_version": FORMAT_VERSION, "game": self.game, "settings": settings,
                   "training": self.training, "state_dict": self.module.state_dict()}  # fmt: skip
        atomic_write(path, lambda temporary: _torch().save(payload, temporary))
        return path

    @classmethod
    def load(cls, path: str | Path) -> QNetwork:
        """A network written by :meth:`save`, checked before it is trusted: the archive's CRCs, the metadata, the
        settings, and weights that are finite and of the shapes the settings and game give.

        Raises:
            FileNotFoundError: no file at ``path``.
            ValueError: not such a network, or a damaged one (the message names the file and what is wrong).
        """
        path = Path(path)
        if not path.exists():
            raise FileNotFoundError(f"qlnn: no weights file {str(path)!r}")
        label = f"qlnn: {str(path)!r}"
        payload = _read_payload(path, label)
        try:
            settings = QLNNSettings(**{**payload["settings"], "hidden": tuple(payload["settings"]["hidden"])})
        except (KeyError, TypeError, ValueError) as error:
            raise ValueError(f"{label} has bad settings: {error}") from None
        game = payload["game"]
        inputs, outputs = math.prod(game["observation_shape"]), game["num_actions"]
        module = _checked_module(lambda: build_network(inputs, outputs, settings), payload["state_dict"], label)
        return cls(game, settings, module, payload["training"])


def _read_payload(path: Path, label: str) -> dict[str, Any]:
    """The checked top level of a saved network: format, game identity, settings, training and weights."""
    problem = zip_problem(path)
    if problem:
        raise ValueError(f"{label} is not a network written by QNetwork.save: {problem}")
    try:
        payload = _torch().load(path, map_location="cpu", weights_only=True)
    except Exception as error:  # noqa: BLE001 - any unreadable file is reported the same way
        raise ValueError(f"{label} is not a network written by QNetwork.save: {error}") from None
    found = (payload.get("format"), payload.get("format_version")) if isinstance(payload, dict) else (None, None)
    if found != (FORMAT, FORMAT_VERSION):
        raise ValueError(f"{label} is not a network written by QNetwork.save: format {found[0]!r} v{found[1]}")
    problem = game_identity_problem(payload.get("game"))
    for name in ("settings", "training", "state_dict"):
        if not isinstance(payload.get(name), dict):
            problem = problem or f"it has no {name!r} object"
    if problem:
        raise ValueError(f"{label} is not a valid qlnn network: {problem}")
    return payload


def _checked_module(build: Any, weights: dict[str, Any], label: str) -> Any:
    """``build()`` with ``weights`` loaded, after checking (on torch's ``meta`` device, no memory) that the weights
    are finite tensors of the names and shapes it has: a tampered size cannot ask for a huge network."""
    torch = _torch()
    if not all(isinstance(tensor, torch.Tensor) for tensor in weights.values()):
        raise ValueError(f"{label}: its weights are not all tensors")
    try:
        with torch.device("meta"):
            expected = {name: tuple(tensor.shape) for name, tensor in build().state_dict().items()}
    except (TypeError, ValueError, RuntimeError, OverflowError) as error:
        raise ValueError(f"{label}: the network its settings give cannot be built: {str(error)[:200]}") from None
    given = {name: tuple(tensor.shape) for name, tensor in weights.items()}
    if given != expected:
        first = sorted(name for name in expected.keys() | given.keys() if expected.get(name) != given.get(name))[0]
        raise ValueError(
            f"{label}: its weights do not fit the network its settings give ({first!r} is "
            f"{given.get(first, 'missing')}, the network's is {expected.get(first, 'absent')})"
        )
    if not all(bool(torch.isfinite(tensor).all()) for tensor in weights.values()):
        raise ValueError(f"{label}: its weights hold NaN or an infinity")
    module = build()
    module.load_state_dict(weights)
    return module


def shipped_network(game: Game) -> QNetwork:
    """The network shipped for ``game``'s config; ``ValueError`` naming the configs that have one otherwise."""
    networks = [QNetwork.load(DATA_DIR / name) for name in SHIPPED.get(game.spec.name, [])]
    identity = game_identity(game)
    for network in networks:
        if network.game["config"] == identity["config"] and network.game["version"] == identity["version"]:
            return network
    have = [network.game["config"] for network in networks]
    raise ValueError(
        f"qlnn: no shipped network for {game.spec.name} with config {identity['config']!r}; "
        f"shipped configs: {have or 'none'}; pass qlnn:weights=<path.pt> from scripts/train_qlnn.py"
    )


# -- the agent ------------------------------------------------------------------------------------
class QLNNAgent(BaseAgent):
    """Plays the legal action the network values most: ``make_agent("qlnn", "quoridor")`` or ``qlnn:weights=...``.

    Args:
        seed: the agent's seed (ties).
        name: display name (default ``"qlnn"``).
        weights: a :class:`QNetwork` or the path of one; ``None``: the shipped network for the game's config,
            loaded at the first move.
    """

    name = "qlnn"

    def __init__(self, seed: SeedLike = None, name: str | None = None, *, weights: QNetwork | str | Path | None = None):
        super().__init__(seed, name)
        if weights is not None and not isinstance(weights, (QNetwork, str, Path)):
            raise TypeError(f"weights must be a QNetwork or a path, got {type(weights).__name__}")
        self.network: QNetwork | None = QNetwork.load(weights) if isinstance(weights, (str, Path)) else weights
        self._checked: Game | None = None

    def network_for(self, game: Game) -> QNetwork:
        """The network, loading the shipped one and checking it matches ``game`` on first use."""
        if self._checked is not game:
            if self.network is None:
                self.network = shipped_network(game)
            self.network.check_game(game)
            self._checked = game
        assert self.network is not None
        return self.network

    def act(self, game: Game, view: Any, player: int) -> int:
        """The legal action of largest value (ties broken by the agent's generator)."""
        network = self.network_for(game)
        values = network.values(observation_vector(game, view, player))
        return greedy_action(values, np.asarray(game.legal_actions(view)), self.rng)


# -- learning -------------------------------------------------------------------------------------
def potential(game: Game, state: Any, player: int) -> float:
    """Φ = (opponents' best distance - own distance) / cells; 0 for games without ``distance_to_goal``."""
    distance = getattr(game, "distance_to_goal", None)
    if distance is None:
        return 0.0
    others = [distance(state, other) for other in range(game.spec.num_players) if other != player]
    cells = game.config.board_size**2
    return (min(others) - distance(state, player)) / cells


@dataclass
class Transition:
    """One decision of the learner waiting for (or given) its target."""

    observation: np.ndarray
    action: int
    reward: float = 0.0
    next_observation: np.ndarray | None = None
    next_legal: np.ndarray | None = None


class QLearner:
    """Applies the thesis' target to the learner's decisions (online, or through replay and a target network)."""

    def __init__(self, network: QNetwork, rng: np.random.Generator) -> None:
        torch = _torch()
        self.network, self.rng = network, rng
        settings = network.settings
        parameters = network.module.parameters()
        optimizer = torch.optim.Adam if settings.optimizer == "adam" else torch.optim.SGD
        self.optimizer = optimizer(parameters, lr=settings.learning_rate)
        self.target = _copy_module(network.module) if settings.target_sync else None
        self.buffer: list[Transition] = []
        self.updates = 0
        self.played: set[int] = set()
        """Every action the learner played (the only output rows the thesis' target moves)."""

    def record(self, transition: Transition) -> None:
        """A finished transition: learn from it (online) or store it and learn from a mini-batch (replay)."""
        self.played.add(transition.action)
        settings = self.network.settings
        if not settings.replay:
            self.learn([transition])
            return
        if len(self.buffer) >= settings.replay:
            self.buffer[int(self.rng.integers(len(self.buffer)))] = transition
        else:
            self.buffer.append(transition)
        if len(self.buffer) >= settings.batch_size:
            picks = self.rng.choice(len(self.buffer), settings.batch_size, replace=False)
            self.learn([self.buffer[int(i)] for i in picks])

    def targets(self, batch: Sequence[Transition]) -> Any:
        """``r`` (terminal, return included) or ``r + γ max_{legal} Q(s')`` per transition."""
        torch = _torch()
        module = self.target if self.target is not None else self.network.module
        result = torch.tensor([t.reward for t in batch], dtype=torch.float32)
        live = [i for i, t in enumerate(batch) if t.next_observation is not None]
        if live:
            with torch.no_grad():
                values = module(torch.from_numpy(np.stack([batch[i].next_observation for i in live])))
            for row, i in enumerate(live):
                best = values[row, torch.from_numpy(batch[i].next_legal)].max()
                result[i] += self.network.settings.discount * best
        return result

    def learn(self, batch: Sequence[Transition]) -> None:
        """One gradient step on the squared error of the played actions' outputs."""
        torch = _torch()
        targets = self.targets(batch)
        observations = torch.from_numpy(np.stack([t.observation for t in batch]))
        actions = torch.tensor([t.action for t in batch])
        outputs = self.network.module(observations).gather(1, actions[:, None])[:, 0]
        loss = ((outputs - targets) ** 2).mean()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.updates += 1
        sync = self.network.settings.target_sync
        if self.target is not None and self.updates % sync == 0:
            self.target.load_state_dict(self.network.module.state_dict())


def _copy_module(module: Any) -> Any:
    import copy

    return copy.deepcopy(module)


def play_training_episode(
    game: Game, learner: QLearner, seat: int, opponents: Sequence[Agent], epsilon: float, rng: np.random.Generator
) -> np.ndarray:
    """One game with the learner in ``seat``; returns the final returns."""
    settings = learner.network.settings
    state = game.initial_state(rng)
    pending: Transition | None = None
    pending_potential = 0.0
    while not game.is_terminal(state):
        player = state.current_player
        view = game.determinize(state, player, rng)
        if player != seat:
            state = game.apply(state, opponents[player].act(game, view, player))
            continue
        observation = observation_vector(game, view, player)
        legal = np.asarray(game.legal_actions(view))
        now_potential = potential(game, view, seat) if settings.shaping else 0.0
        if pending is not None:
            pending.reward = settings.shaping * (settings.discount * now_potential - pending_potential)
            pending.next_observation, pending.next_legal = observation, legal
            learner.record(pending)
        if epsilon > 0.0 and learner.rng.random() < epsilon:
            action = int(legal[learner.rng.integers(len(legal))])
        else:
            action = greedy_action(learner.network.values(observation), legal, learner.rng)
        pending, pending_potential = Transition(observation, action), now_potential
        state = game.apply(state, action)
    returns = game.returns(state)
    if pending is not None:
        pending.reward = float(returns[seat]) - settings.shaping * pending_potential
        learner.record(pending)
    return returns


@dataclass(frozen=True)
class TrainingPoint:
    """One row of the learning curve: after ``episode`` episodes, the greedy agent vs the evaluation opponent."""

    episode: int
    epsilon: float
    seconds: float
    train_score: float
    eval_games: int
    eval_wins: int
    eval_draws: int
    eval_losses: int
    eval_score: float
    eval_low: float
    eval_high: float


def evaluation_point(
    game: Game, agent: QLNNAgent, opponent: Agent, games: int, seed: int, head: tuple[int, float, float, float]
) -> TrainingPoint:
    """Evaluate ``agent`` over ``games`` seat-rotated games; ``head`` is (episode, ε, seconds, train score)."""
    from baselines.arena import evaluate_against
    from baselines.arena.ratings import wilson_interval

    wins, draws, losses = evaluate_against(game, agent, opponent, games, seed) if games else (0, 0, 0)
    points = wins + 0.5 * draws
    score = points / games if games else math.nan
    low, high = wilson_interval(points, games) if games else (math.nan, math.nan)
    return TrainingPoint(*head, games, wins, draws, losses, score, low, high)


def train(
    game: Game,
    episodes: int,
    opponents: str = "path",
    settings: QLNNSettings | None = None,
    seed: int = 0,
    progress: bool = False,
    *,
    eval_every: int = 0,
    eval_games: int = 0,
    eval_opponent: str = "random",
    callback: Any = None,
) -> tuple[QLNNAgent, list[TrainingPoint], QLearner]:
    """Train a network against ``opponents`` (an agent spec; the learner's seat rotates, episode ``i`` in seat
    ``i % num_players``); return the greedy agent, the learning curve and the learner.

    With ``eval_every`` > 0 the curve gets a row every that many episodes (and at 0 and after the last), each
    from ``eval_games`` greedy games against ``eval_opponent`` (the same seeds each time). ``callback(point)``
    is called with every row. Seeded: the same arguments give the same network.
    """
    import time

    from baselines.factory import make_agent

    check_int("episodes", episodes, 1)
    check_int("eval_every", eval_every, 0)
    check_int("eval_games", eval_games, 0)
    settings = settings or QLNNSettings()
    init, play, explore, opponent, evaluation = np.random.SeedSequence(seed).spawn(5)
    _torch().manual_seed(int(init.generate_state(1)[0]))
    network = QNetwork(game_identity(game), settings)
    learner = QLearner(network, np.random.default_rng(explore))
    agent = QLNNAgent(seed, weights=network)
    play_rng = np.random.default_rng(play)
    seats = _opponent_seats(game, opponents, int(opponent.generate_state(1)[0])) or []
    if not seats:
        raise ValueError("qlnn: opponents must be an agent spec, not self-play")
    eval_seed, evaluator_seed = (int(v) for v in evaluation.generate_state(2))
    evaluator = make_agent(eval_opponent, game.spec.name, seed=evaluator_seed)
    history: list[TrainingPoint] = []
    outcomes: list[float] = []
    start = time.perf_counter()

    def add_point(episode: int, epsilon: float) -> None:
        train_score = float(np.mean(outcomes)) if outcomes else math.nan
        outcomes.clear()
        head = (episode, epsilon, time.perf_counter() - start, train_score)
        history.append(evaluation_point(game, agent, evaluator, eval_games, eval_seed, head))
        if callback is not None:
            callback(history[-1])

    if eval_every:
        add_point(0, settings.epsilon_at(0, episodes))
    with progress_bar(progress, episodes, f"{game.spec.name} qlnn", "episode") as bar:
        for episode in range(episodes):
            epsilon = settings.epsilon_at(episode, episodes)
            seat = episode % game.spec.num_players
            returns = play_training_episode(game, learner, seat, seats, epsilon, play_rng)
            outcomes.append(seat_outcome(returns, seat))
            bar.update()
            if episode + 1 == episodes or (eval_every and (episode + 1) % eval_every == 0):
                add_point(episode + 1, epsilon)
    network.training = {"episodes": episodes, "opponents": opponents, "seed": seed,
                        "seconds": round(time.perf_counter() - start, 1)}  # fmt: skip
    return agent, history, learner
