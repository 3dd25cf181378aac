"""Position values for search agents: per-game heuristics and the leaf evaluators of :mod:`baselines.mcts`.

Every value here is a vector with one entry per player in [-1, 1], each from that player's point of view,
like ``game.returns`` (a terminal state is always valued by ``game.returns``).

**Heuristics** (:data:`HEURISTIC_VALUES`, game name -> ``fn(game, state)``). Most are a *lead*: a strength
``s_i`` per player, and ``v_i = tanh((s_i - max_{j != i} s_j) / scale)`` (antisymmetric, so zero-sum with 2
players):

* **quoridor**: ``s_i = -(d_i + k_i / p) + 0.4 w_i`` with ``d_i`` the shortest-path distance to the goal
  (walls only, the game's cached distance tables), ``k_i`` how many plies until ``i`` moves (the player to
  move is ahead in a race), ``w_i`` walls in stock; scale 3 steps. A player to move one step from its goal
  gets 0.9 (the others -0.9/(p-1)): it wins next ply unless a pawn stands in the way.
* **battle_sheep**: seed 003's evaluation score ``e_i`` (``baselines.heuristics.battle_sheep``: score,
  rank, largest stack, mobility) for every player, partner-averaged with ``teams``;
  ``v_i = tanh(4 (e_i - mean(e)))``.
* **splendor**: ``s_i`` = points + 1.5 per bonus card + 0.2 per coloured token + 0.3 per gold + 0.1 per
  reserved card (points plus "engine value"; weights picked by a few short matches of heuristic MCTS
  against ``BuyerAgent``); scale 5 points.
* **gravwell**: ``s_i`` = the tile of the player's ship (distance travelled toward the Warp Gate, tile 54);
  scale 10 tiles.
* **node_conquest**: the player's share ``h_i`` of the owned nodes and of the units on them (averaged);
  ``v_i = (p h_i - 1) / (p - 1)``: 1 owning everything, 0 an even share, ``-1/(p-1)`` nothing left.

**Evaluators** (:class:`Evaluator`): ``evaluate(game, state) -> (values, priors)``; ``priors`` is
``float[num_actions]`` or ``None`` (uniform). :class:`RolloutEvaluator` plays random games (optionally
capped at a depth, then valued by the heuristic or by the scores), :class:`HeuristicEvaluator` returns the
heuristic at once. A network evaluator (AlphaZero) subclasses :class:`Evaluator` and returns priors for
PUCT; it may also override ``evaluate_batch``. Playouts use the game's entry of :data:`FAST_PLAYOUTS` when
there is one (Quoridor: the same uniform distribution over legal moves on the engine's bitmasks, about twice
as fast as ``legal_actions`` + ``apply``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from baselines.heuristics.battle_sheep import evaluation_score
from baselines.heuristics.quoridor import closest_opponent
from boardenvs.core import TERMINAL, Game
from boardenvs.games.quoridor import Quoridor
from boardenvs.games.quoridor.notation import move_of_unified
from boardenvs.games.quoridor.rules import legal_moves, successor
from boardenvs.games.splendor.state import BONUSES as SPLENDOR_BONUSES
from boardenvs.games.splendor.state import POINTS as SPLENDOR_POINTS
from boardenvs.games.splendor.state import TOKENS as SPLENDOR_TOKENS

HeuristicFn = Callable[[Game, Any], np.ndarray]
"""``fn(game, state) -> float[num_players]`` in [-1, 1], each entry from that player's point of view."""

QUORIDOR_WALL_WEIGHT = 0.4
QUORIDOR_WALL_REACH = 2
QUORIDOR_SCALE = 3.0
QUORIDOR_NEAR_WIN = 0.9
QUORIDOR_PRIOR_WEIGHTS = {
    "win": 100.0,
    "closer": 8.0,
    "same": 2.0,
    "back": 1.0,
    "wall": 0.05,
    "blocking": 1.0,
    "per_step": 3.0,
}
BATTLE_SHEEP_GAIN = 4.0
SPLENDOR_WEIGHTS = {"bonus": 1.5, "token": 0.2, "gold": 0.3, "reserved": 0.1}
SPLENDOR_SCALE = 5.0
GRAVWELL_SCALE = 10.0


# -- helpers ------------------------------------------------------------------------------------
def lead_values(strength: Sequence[float] | np.ndarray, scale: float) -> np.ndarray:
    """``tanh((s_i - max_{j != i} s_j) / scale)`` for every player ``i``."""
    s = np.asarray(strength, dtype=np.float64)
    if s.size < 2:
        return np.zeros_like(s)
    order = np.argsort(s)
    best, second = s[order[-1]], s[order[-2]]
    others_best = np.where(np.arange(s.size) == order[-1], second, best)
    return np.tanh((s - others_best) / scale)


def score_value(game: Game, state: Any) -> np.ndarray:
    """Value from ``game.scores``: ``(s_i - max_{j != i} s_j) / (max s - min s)``; returns if terminal.

    Games whose scores are the returns (the default) give zeros before the end.
    """
    if game.is_terminal(state):
        return np.asarray(game.returns(state), dtype=np.float64)
    scores = np.asarray(game.scores(state), dtype=np.float64)
    spread = float(scores.max() - scores.min())
    if spread <= 0:
        return np.zeros(game.spec.num_players)
    order = np.argsort(scores)
    others_best = np.where(np.arange(scores.size) == order[-1], scores[order[-2]], scores[order[-1]])
    return (scores - others_best) / spread


# -- the per-game heuristics --------------------------------------------------------------------
def quoridor_value(game: Game, state: Any) -> np.ndarray:
    """Shortest-path race with tempo and walls in stock (see the module docstring)."""
    p = game.spec.num_players
    to_move = state.current_player
    distances = [game.distance_to_goal(state, i) for i in range(p)]
    if distances[to_move] == 1:  # the player to move steps onto its goal line (barring a pawn in the way)
        values = np.full(p, -QUORIDOR_NEAR_WIN / (p - 1))
        values[to_move] = QUORIDOR_NEAR_WIN
        return values
    strength = [
        -(distances[i] + ((i - to_move) % p) / p) + QUORIDOR_WALL_WEIGHT * game.walls_left(state, i) for i in range(p)
    ]
    return lead_values(strength, QUORIDOR_SCALE)


def battle_sheep_value(game: Game, state: Any) -> np.ndarray:
    """Seed 003's evaluation score of every player, centred (see the module docstring)."""
    p = game.spec.num_players
    scores = np.array([evaluation_score(game, state, i) for i in range(p)])
    if game.config.teams:
        scores = (scores + np.roll(scores, 2)) / 2
    return np.tanh(BATTLE_SHEEP_GAIN * (scores - scores.mean()))


def splendor_value(game: Game, state: Any) -> np.ndarray:
    """Points plus engine value: bonuses, tokens, gold and reserved cards (see the module docstring)."""
    players = state.players.astype(np.float64)
    tokens, w = players[:, SPLENDOR_TOKENS], SPLENDOR_WEIGHTS
    strength = (
        players[:, SPLENDOR_POINTS]
        + w["bonus"] * players[:, SPLENDOR_BONUSES].sum(axis=1)
        + w["token"] * tokens[:, :5].sum(axis=1)
        + w["gold"] * tokens[:, 5]
        + w["reserved"] * (state.reserved >= 0).sum(axis=1)
    )
    return lead_values(strength, SPLENDOR_SCALE)


def gravwell_value(game: Game, state: Any) -> np.ndarray:
    """Each ship's lead toward the Warp Gate (see the module docstring)."""
    return lead_values(state.pos[: game.spec.num_players], GRAVWELL_SCALE)


def node_conquest_value(game: Game, state: Any) -> np.ndarray:
    """Share of the owned nodes and of their units (see the module docstring)."""
    p = game.spec.num_players
    owned = state.owner >= 0
    owners = state.owner[owned]
    nodes = np.bincount(owners, minlength=p).astype(np.float64)
    units = np.bincount(owners, weights=state.units[owned], minlength=p)
    share = 0.5 * nodes / max(1.0, nodes.sum()) + 0.5 * units / max(1.0, units.sum())
    return np.clip((p * share - 1) / (p - 1), -1.0, 1.0)


HEURISTIC_VALUES: dict[str, HeuristicFn] = {
    "quoridor": quoridor_value,
    "battle_sheep": battle_sheep_value,
    "splendor": splendor_value,
    "gravwell": gravwell_value,
    "node_conquest": node_conquest_value,
}
"""Game name -> heuristic value function (non-terminal states; :func:`heuristic_value` handles the end)."""


def quoridor_priors(game: Game, state: Any) -> np.ndarray:
    """Move-ordering priors: a winning step first, then steps by the distance they gain, then the walls that
    lengthen the nearest opponent's path by more than the mover's own; other walls last.

    Weights before normalisation (:data:`QUORIDOR_PRIOR_WEIGHTS`): winning step 100, step closer 8, step that
    keeps the distance 2, step back 1; a wall that adds ``g > 0`` steps to the opponent and ``e`` to the mover
    ``1 + 3 max(0, g - max(e, 0))``; any other wall and PASS 0.05.
    """
    w = QUORIDOR_PRIOR_WEIGHTS
    player, cells = state.current_player, game.tables.cells
    priors = np.zeros(game.spec.num_actions)
    legal = game.legal_actions(state)
    priors[legal] = w["wall"]
    before = game.distance_to_goal(state, player)
    for action in legal[legal < cells].tolist():
        after = game.apply(state, action)
        if game.is_terminal(after):
            priors[action] = w["win"]
            continue
        change = game.distance_to_goal(after, player) - before
        priors[action] = w["closer"] if change < 0 else w["same"] if change == 0 else w["back"]
    if game.walls_left(state, player) > 0:
        _prior_blocking_walls(game, state, legal[legal >= cells].tolist(), priors)
    return priors / priors.sum()


def _prior_blocking_walls(game: Game, state: Any, walls: list[int], priors: np.ndarray) -> None:
    """Raise the priors of the walls next to the nearest opponent's pawn that lengthen its path.

    Only walls anchored within :data:`QUORIDOR_WALL_REACH` rows and columns of the opponent's pawn are tried
    (applying all ~128 walls at every node would cost ten times the rest of the search).
    """
    w = QUORIDOR_PRIOR_WEIGHTS
    player = state.current_player
    opponent = closest_opponent(game, state, player)
    row, col = game.pawn_square(state, opponent)
    opponent_before, own_before = game.distance_to_goal(state, opponent), game.distance_to_goal(state, player)
    rows, cols = _anchors(game, max(player, 0))
    reach = QUORIDOR_WALL_REACH
    for action in walls:
        if not (row - reach <= rows[action] <= row + reach - 1 and col - reach <= cols[action] <= col + reach - 1):
            continue
        after = game.apply(state, action)
        gain = game.distance_to_goal(after, opponent) - opponent_before
        if gain > 0:
            own_gain = max(game.distance_to_goal(after, player) - own_before, 0)
            priors[action] = w["blocking"] + w["per_step"] * max(0, gain - own_gain)


@functools.lru_cache(maxsize=64)
def _anchors(game: Quoridor, player: int) -> tuple[list[int], list[int]]:
    """Absolute row and column of every action's square or wall anchor in ``player``'s frame (what
    ``game.decode`` gives), computed once per game and seat instead of once per wall per node."""
    moves = [move_of_unified(game.tables, unified) for unified in game.tables.frame_to_unified[player]]
    return [move.row for move in moves], [move.col for move in moves]


HEURISTIC_PRIORS: dict[str, Callable[[Game, Any], np.ndarray]] = {"quoridor": quoridor_priors}
"""Game name -> ``fn(game, state) -> float[num_actions]`` priors of :class:`HeuristicEvaluator` (the other
games get uniform priors). MCTS tries unvisited children in decreasing prior order and PUCT weighs them."""


def has_heuristic(game: Game) -> bool:
    """Whether :data:`HEURISTIC_VALUES` knows ``game``."""
    return game.spec.name in HEURISTIC_VALUES


def heuristic_value(game: Game, state: Any) -> np.ndarray:
    """``float64[num_players]`` in [-1, 1]: ``game.returns`` if terminal, else the game's heuristic.

    Raises:
        ValueError: the game has no heuristic (the message lists the games that have one).
    """
    fn = HEURISTIC_VALUES.get(game.spec.name)
    if fn is None:
        known = sorted(HEURISTIC_VALUES)
        raise ValueError(f"no heuristic value for game {game.spec.name!r}; games with heuristics: {known}")
    if game.is_terminal(state):
        return np.asarray(game.returns(state), dtype=np.float64)
    return np.clip(np.asarray(fn(game, state), dtype=np.float64), -1.0, 1.0)


# -- evaluators ---------------------------------------------------------------------------------
class Evaluator:
    """What MCTS calls on a leaf: ``evaluate(game, state) -> (values, priors)``.

    ``values`` is ``float[num_players]`` in [-1, 1] (each player's point of view); ``priors`` is
    ``float[num_actions]`` (non-negative; MCTS renormalises them over the legal actions) or ``None`` for
    uniform priors. Subclasses implement :meth:`evaluate`; :meth:`check` rejects games they cannot value,
    :meth:`reseed` restarts any random generator (the agent calls it before every search).
    """

    name = "evaluator"

    def check(self, game: Game) -> None:
        """Raise ``ValueError`` if this evaluator cannot value positions of ``game``."""
        del game

    def reseed(self, seed: int) -> None:
        """Restart the evaluator's random generator (a no-op for deterministic evaluators)."""
        del seed

    def evaluate(self, game: Game, state: Any) -> tuple[np.ndarray, np.ndarray | None]:
        """``(values, priors)`` of a non-terminal ``state``."""
        raise NotImplementedError

    def evaluate_batch(self, game: Game, states: Sequence[Any]) -> list[tuple[np.ndarray, np.ndarray | None]]:
        """:meth:`evaluate` of every state (a network evaluator overrides this with one forward pass)."""
        return [self.evaluate(game, state) for state in states]

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class HeuristicEvaluator(Evaluator):
    """The game's heuristic value (:func:`heuristic_value`) and its :data:`HEURISTIC_PRIORS` if any."""

    name = "heuristic"

    def check(self, game: Game) -> None:
        if not has_heuristic(game):
            raise ValueError(
                f"evaluator 'heuristic' is not available for game {game.spec.name!r}; "
                f"games with heuristics: {sorted(HEURISTIC_VALUES)}"
            )

    def evaluate(self, game: Game, state: Any) -> tuple[np.ndarray, np.ndarray | None]:
        values = heuristic_value(game, state)
        priors = HEURISTIC_PRIORS.get(game.spec.name)
        return values, (priors(game, state) if priors is not None else None)


CUTOFFS = ("auto", "heuristic", "scores")
_UNIFORM_BLOCK = 4096


class UniformStream:
    """Uniform numbers in [0, 1) from a seeded generator, drawn in blocks of ``block``.

    Hot loops read ``values[index]`` directly and call :meth:`refill` when ``index`` reaches the end.
    """

    def __init__(self, rng: np.random.Generator, block: int = _UNIFORM_BLOCK) -> None:
        self.rng = rng
        self.block = block
        self.values: list[float] = []
        self.index = 0

    def refill(self) -> list[float]:
        """A new block of numbers (``index`` back to 0)."""
        self.values = self.rng.random(self.block).tolist()
        self.index = 0
        return self.values

    def next(self) -> float:
        """The next number of the stream."""
        if self.index == len(self.values):
            self.refill()
        self.index += 1
        return self.values[self.index - 1]


PlayoutFn = Callable[[Game, Any, UniformStream, int], Any]
"""``fn(game, state, stream, plies) -> state``: uniformly random legal moves until the game ends or ``plies``
moves were played (``plies < 0``: no limit), random numbers taken from ``stream``."""


def random_playout(game: Game, state: Any, stream: UniformStream, plies: int) -> Any:
    """The generic playout: ``game.legal_actions`` + ``game.apply`` (see :data:`PlayoutFn`)."""
    legal_actions, apply, is_terminal = game.legal_actions, game.apply, game.is_terminal
    values, index = stream.values, stream.index
    while plies != 0 and not is_terminal(state):
        if index == len(values):
            values, index = stream.refill(), 0
        actions = legal_actions(state)
        state = apply(state, actions[int(values[index] * len(actions))])
        index += 1
        plies -= 1
    stream.index = index
    return state


def quoridor_playout(game: Game, state: Any, stream: UniformStream, plies: int) -> Any:
    """:func:`random_playout` for Quoridor on the engine's move bitmasks (same distribution, about 2x faster).

    The legal moves of the player to move are one int (``rules.legal_moves``, pawn squares then walls then
    PASS, see ``quoridor.tables``); each legal action is one set bit, so a uniformly random set bit is a
    uniformly random legal action: with only pawn moves the (at most 5) bits are listed, otherwise random
    bit positions below the highest set bit are drawn until one is set (about two draws while walls are
    left). ``rules.successor`` then plays it, exactly as ``game.apply`` does after its legality check.
    """
    tables, cap, liberal = game.tables, game.move_cap, game.liberal
    pawn_only = (1 << tables.cells) - 1
    values, index = stream.values, stream.index
    end = len(values)
    while plies != 0 and state.current_player != TERMINAL:
        legal = legal_moves(tables, state, liberal)
        if index == end:
            values, index, end = stream.refill(), 0, stream.block
        if legal <= pawn_only:
            bits = []
            while legal:
                low = legal & -legal
                bits.append(low.bit_length() - 1)
                legal ^= low
            move = bits[int(values[index] * len(bits))]
            index += 1
        else:
            top = legal.bit_length()
            move = int(values[index] * top)
            index += 1
            while not (legal >> move) & 1:
                if index == end:
                    values, index, end = stream.refill(), 0, stream.block
                move = int(values[index] * top)
                index += 1
        state = successor(tables, state, move, cap)
        plies -= 1
    stream.index = index
    return state


FAST_PLAYOUTS: dict[type, PlayoutFn] = {Quoridor: quoridor_playout}
"""Game class -> a faster playout with the distribution of :func:`random_playout` (uniform legal moves)."""


class RolloutEvaluator(Evaluator):
    """Uniformly random playouts to the end of the game (or to a depth cap).

    Args:
        depth: plies after which a playout stops and the position is valued by ``cutoff`` (``None``: play to
            the end; every game ends within ``spec.max_game_length`` plies).
        rollouts: playouts averaged per evaluation.
        cutoff: value at the depth cap: ``"heuristic"`` (:func:`heuristic_value`), ``"scores"``
            (:func:`score_value`, zeros for games without scores) or ``"auto"`` (the heuristic if the game
            has one, else the scores).
        fast: use the game's entry of :data:`FAST_PLAYOUTS` if it has one (same distribution, faster);
            ``False`` always plays ``game.legal_actions`` + ``game.apply``.
        seed: seed of the playout generator (the agent reseeds it before every search).
    """

    name = "rollout"

    def __init__(
        self,
        depth: int | None = None,
        rollouts: int = 1,
        cutoff: str = "auto",
        fast: bool = True,
        seed: int | None = None,
    ) -> None:
        if depth is not None and (isinstance(depth, bool) or not isinstance(depth, (int, np.integer)) or depth < 1):
            raise ValueError(f"rollout depth must be None or an int >= 1, got {depth!r}")
        if isinstance(rollouts, bool) or not isinstance(rollouts, (int, np.integer)) or rollouts < 1:
            raise ValueError(f"rollouts must be an int >= 1, got {rollouts!r}")
        if cutoff not in CUTOFFS:
            raise ValueError(f"cutoff must be one of {list(CUTOFFS)}, got {cutoff!r}")
        self.depth = None if depth is None else int(depth)
        self.rollouts = int(rollouts)
        self.cutoff = cutoff
        self.fast = bool(fast)
        self.reseed(seed)

    def reseed(self, seed: int | None) -> None:
        self.stream = UniformStream(np.random.default_rng(seed))

    def check(self, game: Game) -> None:
        if self.cutoff == "heuristic" and self.depth is not None:
            HeuristicEvaluator().check(game)

    def _cutoff_value(self, game: Game, state: Any) -> np.ndarray:
        if self.cutoff == "heuristic" or (self.cutoff == "auto" and has_heuristic(game)):
            return heuristic_value(game, state)
        return score_value(game, state)

    def evaluate(self, game: Game, state: Any) -> tuple[np.ndarray, None]:
        if self.rollouts == 1:
            return self.playout(game, state), None
        total = sum(self.playout(game, state) for _ in range(self.rollouts))
        return total / self.rollouts, None

    def playout(self, game: Game, state: Any) -> np.ndarray:
        """The value at the end of one random playout from ``state`` (or at the depth cap)."""
        play = FAST_PLAYOUTS.get(type(game), random_playout) if self.fast else random_playout
        state = play(game, state, self.stream, -1 if self.depth is None else self.depth)
        if game.is_terminal(state):
            return np.asarray(game.returns(state), dtype=np.float64)
        return self._cutoff_value(game, state)

    def __repr__(self) -> str:
        return (
            f"RolloutEvaluator(depth={self.depth}, rollouts={self.rollouts}, cutoff={self.cutoff!r}, fast={self.fast})"
        )


EVALUATORS: dict[str, type[Evaluator]] = {"rollout": RolloutEvaluator, "heuristic": HeuristicEvaluator}
"""Evaluator names accepted by ``MCTSAgent(evaluator=...)``."""


def make_evaluator(name: str, depth: int | None = None, rollouts: int = 1) -> Evaluator:
    """The evaluator called ``name``; ``depth``/``rollouts`` only apply to ``"rollout"``."""
    if name not in EVALUATORS:
        raise ValueError(f"evaluator must be one of {sorted(EVALUATORS)} or an Evaluator, got {name!r}")
    if name == "rollout":
        return RolloutEvaluator(depth, rollouts)
    return HeuristicEvaluator()
