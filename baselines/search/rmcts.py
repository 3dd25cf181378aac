"""Rinascimento's MCTS (seed 002's MCTS; the framework's ``MCTSPlayer`` / ``MCTSRootNode``): ``make_agent("rmcts")``.

The tree holds only the searching player's own decisions. An edge is one own decision followed by the other
players' decisions, played by the opponent model until the player decides again (Rinascimento's
``rollFullTurn``). One **simulation** starts from a fresh determinization of the view (Rinascimento reshuffles
the decks on every state copy) and

1. **descends** while the node lies above ``depth`` own decisions and the game goes on. A node without
   children, or with probability ``expansion_probability`` a node that has some, is **widened** (iterative
   widening): ``progression_size`` legal actions are sampled uniformly, with replacement; those that are not
   children yet become children, one of them at random is played and the descent stops there. Otherwise
   (or when the sample held nothing new) UCB picks among the children legal in this determinization:
   ``value / (n + epsilon) + exploration * sqrt(ln N / (n + epsilon))``, ties broken at random;
2. **rolls out** uniformly random own decisions until the simulation holds ``depth`` own decisions (tree
   edges included) or the game ends. Between them the other players play "nothing" (the lowest-id legal
   action, this contract's stand-in for Rinascimento's opponents that do not act in a rollout), or the
   opponent model with ``roll_with_opponents``;
3. **values** the end against the root, the Δ heuristic: ``value="score"`` own points gained (the paper's
   ``PointsHeuristic``), ``"score_diff"`` the change of :func:`baselines.search.rhea_params.score_diff_value`, and
   backs that one number up to every node of the path.

The move is the root child legal in the view with the best ``recommendation``: ``"value"`` (mean value, 0),
``"visits"`` (1) or ``"ucb"`` (2, the UCB above; Rinascimento's default). Opponent models are BMRH's
(:func:`baselines.search.rhea.model_opponent_action`: ``"nothing"`` 0, ``"random"`` 1, ``"osla"`` 2 with
``opponent_budget_share * budget`` probes).

**Budget.** ``budget`` simulated actions (every forward-model ``apply``: own decisions, the opponents' and the
OSLA probes; the paper's 1,000) or seconds (``budget_unit="seconds"``). A simulation the budget cannot finish
is dropped unbacked, as Java's ``BudgetOverException`` does. Without any child the move is a random legal one.

**Hyper-parameters** (RULES.md §3.8, ``rinascimento_agents.csv``): the defaults are MCTS*, R1's tuned values
(exploration 0, depth 1, opponents DoNothing, share 0.05, expansion probability 0.4, progression 1, epsilon
1e-6, recommendation UCB, no rolling with opponents); ``preset="java"`` gives the Java field defaults
(exploration 1.41, depth 20, expansion 0.2, progression 10). :data:`RMCTS_SEARCH_SPACE` is the tuning space.

**The reference's bugs are not reproduced.** ``MCTSRootNode.uct`` lacks braces and so always returns the last
child; here UCB is a real arg-max. Its tree policy loops while ``depth <= maxDepth`` and then rolls out
``maxDepth - depth`` actions, so the tree grows one level below ``maxDepth`` and those leaves get no rollout;
here a simulation holds exactly ``depth`` own decisions. The exploration term is written
``sqrt(log(N / (n + epsilon)))`` there; this is UCB1's ``sqrt(ln N / (n + epsilon))`` (MCTS* has exploration 0,
so its choice is the same). "Max child" compares summed values there; here it compares means.

**Why a new agent rather than options of** :class:`baselines.search.mcts.MCTSAgent`: that search is a max^n
tree over every player's decisions that expands all legal actions, counts simulations, and values leaves
by returns or evaluators. Rinascimento's differs in each of these (own decisions only with modelled opponents
inside an edge, sampled widening, a forward-model action budget, one Δ-heuristic number), so options would
change nearly every step of the generic search; a separate small agent keeps both readable. It uses only the
game contract, so it plays every game.

Example:
    >>> from boardenvs import make_game
    >>> from baselines.arena import play_game
    >>> from baselines.agent import RandomAgent
    >>> game = make_game("splendor", preset="rinascimento")
    >>> record = play_game(game, [RinascimentoMCTSAgent(seed=0, budget=100), RandomAgent(1)], seed=3)
    >>> record.returns.shape
    (2,)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from typing import Any

import numpy as np

from baselines.agent import MAX_SECONDS, BaseAgent, SeedLike
from baselines.params import bool_param, choice_param, float_param, int_param
from baselines.search.rhea import ActionBudget, BudgetSpent, model_opponent_action
from baselines.search.rhea_params import BUDGET_UNITS, PAPER_BUDGET, parse_opponent_model, score_diff_value
from boardenvs.core import Game

RECOMMENDATIONS = ("value", "visits", "ucb")
"""How the move is chosen among the root's children, in Rinascimento's numbering 0, 1, 2."""
VALUES = ("score", "score_diff")
"""The Δ heuristics."""

RMCTS_SEARCH_SPACE: dict[str, list[Any]] = {
    "exploration": [0.0, 1.41, 4.0, 9.0, 15.0, 20.0],
    "depth": [1, 2, 5, 10, 20],
    "opponent_model": ["nothing", "random", "osla"],
    "opponent_budget_share": [0.01, 0.05, 0.1],
    "expansion_probability": [0.1, 0.2, 0.3, 0.4],
    "progression_size": [1, 3, 5, 10, 15],
    "recommendation": ["value", "visits", "ucb"],
    "roll_with_opponents": [False, True],
}
"""MCTS's NTBEA search space (``agents/MCTSParams.json``, the one loaded at run time; RULES.md §3.8)."""


@dataclass(frozen=True)
class RMCTSParams:
    """Rinascimento MCTS hyper-parameters (see the module docstring); defaults: MCTS* (R1's tuned values)."""

    exploration: float = 0.0
    depth: int = 1
    opponent_model: str = "nothing"
    opponent_budget_share: float = 0.05
    expansion_probability: float = 0.4
    progression_size: int = 1
    epsilon: float = 1e-6
    recommendation: str = "ucb"
    roll_with_opponents: bool = False
    budget: float = PAPER_BUDGET
    budget_unit: str = "actions"
    value: str = "score"

    @property
    def opponent_probes(self) -> int:
        """Legal actions the OSLA opponent model tries per decision (at least 1)."""
        nominal = self.budget if self.budget_unit == "actions" else PAPER_BUDGET
        return max(1, int(round(self.opponent_budget_share * nominal)))


PRESETS: dict[str, dict[str, Any]] = {
    "mcts_r1": {},
    "java": {"exploration": 1.41, "depth": 20, "expansion_probability": 0.2, "progression_size": 10},
}
"""``mcts_r1``: MCTS* (the defaults); ``java``: the Java field defaults of ``MCTSPlayer``."""


def parse_recommendation(value: Any) -> str:
    """A recommendation by name or by Rinascimento's number (0 value, 1 visits, 2 ucb)."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)) and 0 <= value <= 2:
        return RECOMMENDATIONS[int(value)]
    if isinstance(value, str) and value.strip() in {"0", "1", "2"}:
        return RECOMMENDATIONS[int(value)]
    return choice_param("recommendation", value, RECOMMENDATIONS)


_PARSERS: dict[str, Callable[[Any], Any]] = {
    "exploration": lambda v: float_param("exploration", v, 0.0, 1e6),
    "depth": lambda v: int_param("depth", v, 1, 1000),
    "opponent_model": parse_opponent_model,
    "opponent_budget_share": lambda v: float_param("opponent_budget_share", v, 0.0, 1.0),
    "expansion_probability": lambda v: float_param("expansion_probability", v, 0.0, 1.0),
    "progression_size": lambda v: int_param("progression_size", v, 1, 10_000),
    "epsilon": lambda v: float_param("epsilon", v, 0.0, 1.0, positive=True),
    "recommendation": parse_recommendation,
    "roll_with_opponents": lambda v: bool_param("roll_with_opponents", v),
    "budget": lambda v: float_param("budget", v, 0.0, 1e9, positive=True),
    "budget_unit": lambda v: choice_param("budget_unit", v, BUDGET_UNITS),
    "value": lambda v: choice_param("value", v, VALUES),
}


def parse_rmcts_params(**hyperparams: Any) -> RMCTSParams:
    """Validated :class:`RMCTSParams` from keyword values (ints, floats, bools or strings); ``preset`` picks the
    base configuration."""
    preset = choice_param("preset", hyperparams.pop("preset", "mcts_r1"), tuple(PRESETS))
    names = {f.name for f in fields(RMCTSParams)}
    unknown = sorted(set(hyperparams) - names)
    if unknown:
        raise ValueError(f"unknown rmcts parameter {unknown[0]!r}; allowed: {sorted(names | {'preset'})}")
    merged = {**PRESETS[preset], **hyperparams}
    params = replace(RMCTSParams(), **{key: _PARSERS[key](value) for key, value in merged.items()})
    if params.budget_unit == "actions" and params.budget < 1:
        raise ValueError(f"budget must be >= 1 simulated action, got {params.budget!r}")
    if params.budget_unit == "seconds" and params.budget > MAX_SECONDS:
        raise ValueError(f"budget must be in (0, {MAX_SECONDS:g}] seconds, got {params.budget!r}")
    return params


# -- the tree -------------------------------------------------------------------------------------
class Node:
    """One own decision of the searching player: the ``action`` from the parent, visits ``n``, summed ``value``."""

    __slots__ = ("action", "parent", "children", "depth", "n", "value")

    def __init__(self, action: int, parent: Node | None) -> None:
        self.action, self.parent = action, parent
        self.children: dict[int, Node] = {}
        self.depth = 0 if parent is None else parent.depth + 1
        self.n, self.value = 0, 0.0

    def __repr__(self) -> str:
        return f"Node(action={self.action}, n={self.n}, value={self.value:.3f}, children={len(self.children)})"


class _Search:
    """One decision's search (see the module docstring)."""

    def __init__(self, agent: RinascimentoMCTSAgent, game: Game, view: Any, player: int) -> None:
        self.agent, self.game, self.view, self.player = agent, game, view, player
        self.params, self.rng = agent.params, agent.rng
        self.budget = ActionBudget(self.params.budget, self.params.budget_unit)
        self.root = Node(-1, None)
        self.root_value = self.heuristic(view)

    def run(self) -> Node:
        """Simulate until the budget is spent; the root."""
        while True:
            try:
                self.simulate()
            except BudgetSpent:
                return self.root

    def simulate(self) -> None:
        """One simulation: descend, roll out, value, back up."""
        game = self.game
        state = self.view if game.spec.perfect_information else game.determinize(self.view, self.player, self.rng)
        node, state = self.descend(state)
        for _ in range(self.params.depth - node.depth):
            if game.is_terminal(state):
                break
            state = self.full_turn(state, self.random_action(state), rollout=True)
        delta = self.heuristic(state) - self.root_value
        while node is not None:
            node.n, node.value = node.n + 1, node.value + delta
            node = node.parent

    def descend(self, state: Any) -> tuple[Any, Any]:
        """The tree policy: widen or select down to ``depth``; the node reached and its state."""
        node = self.root
        while node.depth < self.params.depth and not self.game.is_terminal(state):
            legal = np.flatnonzero(self.game.legal_action_mask(state))
            if not node.children or self.rng.random() < self.params.expansion_probability:
                child = self.widen(node, legal)
                if child is not None:
                    return child, self.full_turn(state, child.action)
            node = self.select(node, legal)
            state = self.full_turn(state, node.action)
        return node, state

    def widen(self, node: Node, legal: np.ndarray) -> Node | None:
        """Iterative widening: sample ``progression_size`` legal actions, add the new ones, return one of them."""
        sample = legal[self.rng.integers(len(legal), size=self.params.progression_size)]
        fresh = [int(action) for action in dict.fromkeys(sample.tolist()) if action not in node.children]
        for action in fresh:
            node.children[action] = Node(action, node)
        return node.children[fresh[int(self.rng.integers(len(fresh)))]] if fresh else None

    def select(self, node: Node, legal: np.ndarray) -> Node:
        """The child with the best UCB among those legal here (a new child if none is)."""
        children = [node.children[a] for a in legal.tolist() if a in node.children]
        if not children:
            action = int(legal[int(self.rng.integers(len(legal)))])
            node.children[action] = Node(action, node)
            return node.children[action]
        return best_child(children, self.ucb(node, children), self.rng)

    def ucb(self, parent: Node, children: list[Node]) -> list[float]:
        """``value / (n + epsilon) + exploration * sqrt(ln N / (n + epsilon))`` per child, ``N`` the parent's visits."""
        eps, c = self.params.epsilon, self.params.exploration
        if c == 0:
            return [child.value / (child.n + eps) for child in children]
        log_n = math.log(max(parent.n, 1))
        return [child.value / (child.n + eps) + c * math.sqrt(log_n / (child.n + eps)) for child in children]

    def full_turn(self, state: Any, action: int, rollout: bool = False) -> Any:
        """Play the own ``action``, then the others until the player decides again (or the game ends)."""
        game, player = self.game, self.player
        self.budget.spend()
        state = game.apply(state, action)
        model = "nothing" if rollout and not self.params.roll_with_opponents else self.params.opponent_model
        while not game.is_terminal(state) and state.current_player != player:
            mover = state.current_player
            other = model_opponent_action(game, state, mover, model, self.params.opponent_probes, self.rng,
                                          self.budget)  # fmt: skip
            self.budget.spend()
            state = game.apply(state, other)
        return state

    def random_action(self, state: Any) -> int:
        """A uniformly random legal action."""
        legal = np.flatnonzero(self.game.legal_action_mask(state))
        return int(legal[int(self.rng.integers(len(legal)))])

    def heuristic(self, state: Any) -> float:
        """The Δ heuristic's state value for the searching player."""
        if self.params.value == "score":
            return float(self.game.scores(state)[self.player])
        return score_diff_value(self.game, state, self.player)

    def recommend(self, legal: np.ndarray) -> int | None:
        """The root child legal in the view with the best ``recommendation`` (``None`` without any)."""
        children = [self.root.children[a] for a in legal.tolist() if a in self.root.children]
        if not children:
            return None
        how = self.params.recommendation
        if how == "ucb":
            keys = self.ucb(self.root, children)
        elif how == "visits":
            keys = [float(child.n) for child in children]
        else:
            keys = [child.value / child.n if child.n else -math.inf for child in children]
        return best_child(children, keys, self.rng).action


def best_child(children: list[Node], keys: list[float], rng: np.random.Generator) -> Node:
    """The child with the largest key, ties broken uniformly with ``rng``."""
    top = max(keys)
    best = [child for child, key in zip(children, keys) if key == top]
    return best[int(rng.integers(len(best)))]


class RinascimentoMCTSAgent(BaseAgent):
    """Rinascimento's MCTS with iterative widening and a forward-model budget; see the module docstring.

    Args:
        seed: an int, a generator or ``None``.
        name: display name (default ``"rmcts"``).
        **hyperparams: any field of :class:`RMCTSParams` and ``preset`` (a key of :data:`PRESETS`); values may
            be strings (``recommendation`` and ``opponent_model`` also by Rinascimento's numbers).

    Raises:
        ValueError: an unknown parameter or a bad value (the message names it and the allowed values).
    """

    name = "rmcts"

    def __init__(self, seed: SeedLike = None, name: str | None = None, **hyperparams: Any) -> None:
        super().__init__(seed, name)
        self.params = parse_rmcts_params(**hyperparams)
        self.last_root: Node | None = None

    def act(self, game: Game, view: Any, player: int) -> int:
        """The recommended root action after spending the budget (a random legal action without any child)."""
        if view.current_player != player:
            raise ValueError(f"player {player} is not to move (current player {view.current_player})")
        legal = np.flatnonzero(game.legal_action_mask(view))
        if len(legal) == 0:
            raise ValueError("no legal action: the game is over")
        if len(legal) == 1:
            return int(legal[0])
        search = _Search(self, game, view, player)
        self.last_root = search.run()
        action = search.recommend(legal)
        return self.choose(legal) if action is None else int(action)

    def __repr__(self) -> str:
        return f"RinascimentoMCTSAgent(name={self.name!r}, params={self.params})"
