"""Monte Carlo tree search for every boardenvs game: UCT or PUCT over any leaf evaluator.

One simulation walks down from the root, choosing children by UCT (``Q + c sqrt(ln N / n)``, every child
tried once first, in a random order or by decreasing prior when the evaluator gives priors) or PUCT
(``Q + c P sqrt(N) / (1 + n)``, unvisited children valued 0), until it reaches a terminal state (valued
by ``game.returns``) or a node never visited before (valued by the evaluator, whose priors feed PUCT).
The value *vector* (one entry per player, in [-1, 1]) is backed up: every node adds the entry of the
player who moved into it (max^n). So the search is right for 2-4 players, for several consecutive
decisions by the same player (sub-decisions) and for skipped turns: nothing assumes that players
alternate. Children are created when first chosen and keyed by ``(player to move, action)``.

**Gumbel root search** (``selection="gumbel"``, Danihelka et al. 2022; the arithmetic is in
:mod:`baselines.search.gumbel`). The root samples ``gumbel_actions`` actions without replacement by Gumbel-top-k
on the evaluator's priors and shares the simulations among them by sequential halving; below the root the
search visits the action that most lacks visits compared with the improved policy
``softmax(log prior + sigma(completed Q))``. The move is the surviving action with the best
``g + log prior + sigma(Q)``, and :attr:`SearchStats.policy_target` holds the root's improved policy (the
AlphaZero training target, useful after even 8-32 simulations). The Gumbel noise is the exploration: no
temperature, no Dirichlet noise, no tree reuse, and a simulation budget is required (the halving plans over it).

**Budget.** ``simulations`` and/or ``seconds``: the search stops at whichever comes first (at least one
simulation). The move played is the most visited root action, ties broken by the higher mean value and
then by the agent's generator (``temperature > 0``: sampled with probability proportional to
``visits ** (1 / temperature)``).

**Hidden information** (``game.spec.perfect_information`` false). The agent only sees its ``view``. Each
move draws ``determinizations`` states ``game.determinize(view, player, rng)`` and the simulations cycle
through them (simulation ``i`` uses determinization ``i % determinizations``). All of them share one tree
whose nodes are action sequences (single-observer information-set MCTS): a node keeps one state per
determinization, computed when first reached in it, and only the actions legal in the simulation's
determinization are candidates. Perfect-information games use the view itself and no determinization.

**Tree reuse** (perfect information only). After a move the subtree under the chosen action is kept; the
next ``act`` looks for a node whose ``state.key()`` equals the new view within :data:`REUSE_PLIES` plies
below it (the other players' moves) and continues from it with its statistics, else starts afresh.
``reseed`` (the arena calls it before every game) drops the tree.

**Parameters from strings.** Agent factories pass ``key=value`` pairs parsed to int/float/bool/str; every
parameter accepts those (``"none"`` for an optional one) and a bad value raises ``ValueError`` naming the
parameter and what is allowed.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from baselines.agent import MAX_COEFFICIENT, MAX_COUNT, MAX_SAMPLES, MAX_SECONDS, BaseAgent, SeedLike
from baselines.params import bool_param, choice_param, float_param, int_param
from baselines.search import gumbel
from baselines.search.evaluators import EVALUATORS, Evaluator, make_evaluator
from boardenvs.core import Game

SELECTIONS = ("uct", "puct", "gumbel")
REUSE_PLIES = 4
"""How many plies below the chosen child tree reuse searches for the new view."""
_SEED_BOUND = 2**63
VIRTUAL_LOSS = 1.0
"""Value subtracted per pending descent in batched search (``batch_size > 1``)."""


# -- the tree -------------------------------------------------------------------------------------
class Node:
    """A node of the search tree: the position after a sequence of actions.

    Attributes:
        mover: the player whose action led here (its statistics are from that player's point of view;
            -1 for a fresh root).
        visits: simulations through this node.
        total: sum of the backed-up values of ``mover``.
        children: ``(player to move) * num_actions + action`` -> child.
        states: the position in each determinization (``None`` until first reached in it).
        legal: the legal actions in each determinization, in a random order (``None`` until needed).
        raw_priors: the evaluator's priors from the first evaluation, if any.
        raw_values: the evaluator's value per player from that evaluation (Gumbel's completed Q reads the
            value of the player to move from it).
        priors: action -> prior renormalised over the legal actions (PUCT, Gumbel; ``None`` until needed).
    """

    __slots__ = ("mover", "visits", "total", "children", "states", "legal", "raw_priors", "raw_values", "priors")

    def __init__(self, mover: int, determinizations: int) -> None:
        self.mover = mover
        self.visits = 0
        self.total = 0.0
        self.children: dict[int, Node] = {}
        self.states: list[Any] = [None] * determinizations
        self.legal: list[list[int] | None] = [None] * determinizations
        self.raw_priors: np.ndarray | None = None
        self.raw_values: np.ndarray | None = None
        self.priors: dict[int, float] | None = None

    def value(self) -> float:
        """Mean backed-up value for ``mover`` (0 before any visit)."""
        return self.total / self.visits if self.visits else 0.0

    def __repr__(self) -> str:
        value, children = self.value(), len(self.children)
        return f"Node(mover={self.mover}, visits={self.visits}, value={value:.3f}, children={children})"


@dataclass
class SearchStats:
    """What the last search did.

    Attributes:
        simulations: simulations run for this move.
        seconds: wall-clock time of the move.
        visits: root action -> visits (reused visits included).
        value: the root's mean value for the player to move (visit-weighted over its children).
        reused: whether the search started from the kept subtree of the previous move.
        policy_target: Gumbel search only: the root's improved policy (action -> probability over the legal
            actions), ``None`` otherwise.
    """

    simulations: int = 0
    seconds: float = 0.0
    visits: dict[int, int] = field(default_factory=dict)
    value: float = 0.0
    reused: bool = False
    policy_target: dict[int, float] | None = None

    def policy(self, num_actions: int) -> np.ndarray:
        """``float32[num_actions]``: AlphaZero's policy target: the Gumbel search's improved policy, else the
        root visit distribution."""
        policy = np.zeros(num_actions, dtype=np.float32)
        for action, weight in (self.policy_target or self.visits).items():
            policy[action] = weight
        total = policy.sum()
        return policy / total if total > 0 else policy


def _node_value(node: Node, player: int) -> float:
    """The evaluator's value of ``node`` for ``player`` (0 before the node was evaluated)."""
    return float(node.raw_values[player]) if node.raw_values is not None else 0.0


# -- the agent ------------------------------------------------------------------------------------
DEFAULT_SIMULATIONS = 200
"""The budget of an :class:`MCTSAgent` given neither ``simulations`` nor ``seconds``."""


class MCTSAgent(BaseAgent):
    """Monte Carlo tree search (see the module docstring).

    Args:
        seed: the agent's seed (int, generator or ``None``).
        name: display name (default ``"mcts"``).
        simulations: simulations per move, >= 1, or ``None``.
        seconds: wall-clock budget per move, > 0, or ``None``. With both budgets the search stops at whichever
            comes first; with ``seconds`` alone time is the only limit; with neither, 200 simulations
            (:data:`DEFAULT_SIMULATIONS`).
        evaluator: ``"rollout"`` (random playouts), ``"heuristic"`` (the game's heuristic value from
            :mod:`baselines.search.evaluators`; checked at the first ``act``) or an :class:`Evaluator` instance
            (for example a network with priors for PUCT).
        selection: ``"uct"``, ``"puct"`` or ``"gumbel"`` (see the module docstring).
        exploration: the constant ``c`` of UCT/PUCT, >= 0.
        rollout_depth: plies per playout of the ``"rollout"`` evaluator before the position is valued by
            the game's heuristic (or its scores), >= 1, or ``None`` to play to the end.
        rollouts: playouts averaged per leaf by the ``"rollout"`` evaluator, >= 1.
        determinizations: hidden-information games: states sampled from the view per move, >= 1.
        reuse_tree: keep the subtree of the chosen move for the next move (perfect information only; not with
            ``"gumbel"``); ``None``: on for UCT and PUCT.
        temperature: 0 plays the most visited action; > 0 samples ``visits ** (1 / temperature)``.
        dirichlet_fraction: share of Dirichlet noise mixed into the root priors (PUCT), in [0, 1].
        dirichlet_alpha: concentration of that noise, > 0.
        batch_size: new leaves valued together by one ``evaluator.evaluate_batch`` call (virtual loss keeps
            the descents of a batch apart), >= 1; 1 is the plain sequential search.
        gumbel_actions: Gumbel: root actions sampled for sequential halving, >= 1.
        gumbel_scale: Gumbel: scale of the root's Gumbel noise, >= 0 (0: the top actions by prior, no noise).
        gumbel_c_visit: Gumbel: ``c_visit`` of ``sigma``, >= 0.
        gumbel_c_scale: Gumbel: ``c_scale`` of ``sigma``, > 0.
    """

    name = "mcts"

    def __init__(
        self,
        seed: SeedLike = None,
        name: str | None = None,
        *,
        simulations: int | None = None,
        seconds: float | None = None,
        evaluator: str | Evaluator = "rollout",
        selection: str = "uct",
        exploration: float = 1.4,
        rollout_depth: int | None = None,
        rollouts: int = 1,
        determinizations: int = 8,
        reuse_tree: bool | None = None,
        temperature: float = 0.0,
        dirichlet_fraction: float = 0.0,
        dirichlet_alpha: float = 0.3,
        batch_size: int = 1,
        gumbel_actions: int = 16,
        gumbel_scale: float = 1.0,
        gumbel_c_visit: float = 50.0,
        gumbel_c_scale: float = 0.1,
    ) -> None:
        super().__init__(seed, name)
        self.simulations = int_param("simulations", simulations, 1, MAX_COUNT, optional=True)
        self.seconds = float_param("seconds", seconds, 0.0, MAX_SECONDS, positive=True, optional=True)
        if self.simulations is None and self.seconds is None:
            self.simulations = DEFAULT_SIMULATIONS
        self.selection = choice_param("selection", selection, SELECTIONS)
        self.exploration = float_param("exploration", exploration, 0.0, MAX_COEFFICIENT)
        self.rollout_depth = int_param("rollout_depth", rollout_depth, 1, MAX_COUNT, optional=True)
        self.rollouts = int_param("rollouts", rollouts, 1, MAX_COUNT)
        self.determinizations = int_param("determinizations", determinizations, 1, MAX_SAMPLES)
        gumbel = self.selection == "gumbel"
        self.reuse_tree = not gumbel if reuse_tree is None else bool_param("reuse_tree", reuse_tree)
        self.temperature = float_param("temperature", temperature, 0.0, MAX_COEFFICIENT)
        self.dirichlet_fraction = float_param("dirichlet_fraction", dirichlet_fraction, 0.0, 1.0)
        self.dirichlet_alpha = float_param("dirichlet_alpha", dirichlet_alpha, 0.0, MAX_COEFFICIENT, positive=True)
        self.batch_size = int_param("batch_size", batch_size, 1, MAX_SAMPLES)
        self.gumbel_actions = int_param("gumbel_actions", gumbel_actions, 1, MAX_SAMPLES)
        self.gumbel_scale = float_param("gumbel_scale", gumbel_scale, 0.0, MAX_COEFFICIENT)
        self.gumbel_c_visit = float_param("gumbel_c_visit", gumbel_c_visit, 0.0, MAX_COEFFICIENT)
        self.gumbel_c_scale = float_param("gumbel_c_scale", gumbel_c_scale, 0.0, MAX_COEFFICIENT, positive=True)
        if gumbel:
            self._check_gumbel_settings()
        self.evaluator = self._build_evaluator(evaluator)
        self.last_search = SearchStats()
        self._checked: Game | None = None
        self._kept: tuple[Game, Node] | None = None
        self._gumbel_root: tuple[list[int], list[float], list[int]] = ([], [], [])
        """Gumbel search: the root's legal actions, their ``g + log prior`` and the considered indices."""

    def _check_gumbel_settings(self) -> None:
        """Reject settings that mean nothing to a Gumbel search (its noise is the exploration)."""
        conflicts = {
            "temperature": (self.temperature > 0, "it samples through its Gumbel noise (gumbel_scale)"),
            "dirichlet_fraction": (self.dirichlet_fraction > 0, "its root noise is the Gumbel noise"),
            "reuse_tree": (self.reuse_tree, "every move starts a fresh sequential halving"),
            "seconds": (self.simulations is None, "give simulations, the budget sequential halving plans over"),
        }
        for parameter, (conflict, reason) in conflicts.items():
            if conflict:
                value = getattr(self, parameter)
                raise ValueError(f"{parameter}={value!r} does not apply to selection='gumbel': {reason}")

    def _build_evaluator(self, evaluator: str | Evaluator) -> Evaluator:
        if isinstance(evaluator, Evaluator):
            self.evaluator_name = type(evaluator).__name__
            if self.rollout_depth is not None or self.rollouts != 1:
                raise ValueError("rollout_depth and rollouts only apply to evaluator='rollout'")
            return evaluator
        name = evaluator.strip().lower() if isinstance(evaluator, str) else evaluator
        if name not in EVALUATORS:
            raise ValueError(f"evaluator must be one of {sorted(EVALUATORS)} or an Evaluator, got {evaluator!r}")
        if name != "rollout" and (self.rollout_depth is not None or self.rollouts != 1):
            raise ValueError(f"rollout_depth and rollouts only apply to evaluator='rollout', not {name!r}")
        self.evaluator_name = name
        return make_evaluator(name, self.rollout_depth, self.rollouts)

    def reseed(self, seed: int) -> None:
        """Restart the generator and drop the kept tree (a new game begins)."""
        super().reseed(seed)
        self._kept = None

    # -- acting -----------------------------------------------------------------------------------
    def act(self, game: Game, view: Any, player: int) -> int:
        """The action the search prefers for ``player`` in ``view``."""
        start = time.perf_counter()
        self._check_game(game)
        legal = game.legal_actions(view)
        if len(legal) == 0:
            raise ValueError(f"{self.name}: no legal action in the position given (is the game over?)")
        perfect = game.spec.perfect_information
        root = self._reused_root(game, view) if perfect else None
        reused = root is not None
        if len(legal) == 1:
            action = int(legal[0])
            self._keep(game, root, player, action)
            self.last_search = SearchStats(0, time.perf_counter() - start, {action: 0}, 0.0, reused)
            return action
        self.evaluator.reseed(int(self.rng.integers(_SEED_BOUND)))
        if root is None:
            root = self._new_root(game, view, player, perfect)
        simulations = self._search(game, root, player, start)
        if self.selection == "gumbel":
            action, target = self._gumbel_final(game, root, player)
        else:
            action, target = self._final_action(game, root, player, legal), None
        seconds = time.perf_counter() - start
        self.last_search = self._stats(game, root, player, legal, simulations, seconds, reused)
        self.last_search.policy_target = target
        self._keep(game, root, player, action)
        return action

    def search(self, game: Game, view: Any, player: int) -> Node:
        """A fresh search of ``view`` for ``player`` with the agent's budget; returns the root (nothing kept).

        For analysis and training: ``root.children`` maps ``player * num_actions + action`` to the nodes
        of the actions tried, with their ``visits`` and ``value()``.
        """
        start = time.perf_counter()
        self._check_game(game)
        self.evaluator.reseed(int(self.rng.integers(_SEED_BOUND)))
        root = self._new_root(game, view, player, game.spec.perfect_information)
        self._search(game, root, player, start)
        return root

    def _check_game(self, game: Game) -> None:
        if self._checked is game:
            return
        try:
            self.evaluator.check(game)
        except ValueError as error:
            label = f"agent {self.name!r}: evaluator={self.evaluator_name!r}"
            raise ValueError(f"{label} cannot be used: {error}") from None
        self._checked = game

    def _new_root(self, game: Game, view: Any, player: int, perfect: bool) -> Node:
        if perfect:
            root = Node(-1, 1)
            root.states[0] = view
            return root
        root = Node(-1, self.determinizations)
        root.states = [game.determinize(view, player, self.rng) for _ in range(self.determinizations)]
        return root

    def _search(self, game: Game, root: Node, player: int, start: float) -> int:
        """Run simulations until the budget is spent; returns how many ran."""
        limit = self.simulations if self.simulations is not None else math.inf
        deadline = start + self.seconds if self.seconds is not None else math.inf
        if self.selection == "gumbel":
            return self._search_gumbel(game, root, player, limit, deadline)
        count, batch = len(root.states), self.batch_size
        simulate, clock = self._simulate, time.perf_counter
        done = 0
        if self.selection == "puct" and self.dirichlet_fraction > 0:
            if root.visits == 0:
                simulate(game, root, 0)
                done = 1
            self._add_root_noise(game, root)
        while done < limit and (done == 0 or clock() < deadline):
            if batch == 1:
                simulate(game, root, done % count)
                done += 1
            else:
                done += self._simulate_batch(game, root, done, int(min(batch, limit - done)))
        return done

    def _simulate(self, game: Game, root: Node, d: int, first_action: int | None = None) -> None:
        """One simulation in determinization ``d``: select (``first_action`` at the root, if given), evaluate a
        new leaf (or read a terminal), back up."""
        path, leaf, state, values = self._descend(game, root, d, None, first_action)
        if values is None:
            values, priors = self.evaluator.evaluate(game, state)
            self._set_evaluation(leaf, values, priors)
        self._backup(root, path, values)

    def _simulate_batch(
        self, game: Game, root: Node, first: int, size: int, root_choice: Callable[[int], int] | None = None
    ) -> int:
        """Up to ``size`` simulations whose new leaves are valued by one ``evaluate_batch`` call.

        Each descent adds a virtual loss (a visit valued -1 for its mover) along its path, so the next
        descents of the batch spread out; collecting stops early when a descent reaches a leaf that is already
        waiting. Terminal states are backed up at once. ``root_choice(index)``, if given, picks the root action of
        simulation ``index`` (after the virtual losses of the earlier descents). Returns the simulations
        completed (at least one).
        """
        count = len(root.states)
        waiting: dict[int, tuple[list[Node], Node, Any]] = {}
        done = 0
        for index in range(first, first + size):
            first_action = root_choice(index) if root_choice is not None else None
            path, leaf, state, values = self._descend(game, root, index % count, waiting, first_action)
            if values is not None:
                self._backup(root, path, values)
                done += 1
            elif id(leaf) in waiting:
                break
            else:
                waiting[id(leaf)] = (path, leaf, state)
                self._virtual_loss(root, path, 1, -VIRTUAL_LOSS)
        if waiting:
            items = list(waiting.values())
            results = self.evaluator.evaluate_batch(game, [state for _, _, state in items])
            for (path, leaf, _), (values, priors) in zip(items, results):
                self._virtual_loss(root, path, -1, VIRTUAL_LOSS)
                self._set_evaluation(leaf, values, priors)
                self._backup(root, path, values)
            done += len(items)
        return done

    def _descend(
        self, game: Game, root: Node, d: int, waiting: dict[int, Any] | None, first_action: int | None = None
    ) -> tuple[list[Node], Node, Any, np.ndarray | None]:
        """Select down to a terminal state (its returns come back), a new node or a node waiting for its value
        (values ``None``); returns the path below the root, the last node, its state and the values.
        ``first_action``, if given and legal in determinization ``d``, is taken at the root."""
        node, state, path = root, root.states[d], []
        is_terminal, select = game.is_terminal, getattr(self, f"_select_{self.selection}")
        while True:
            if is_terminal(state):
                return path, node, state, game.returns(state)
            if node.visits == 0 or (waiting and id(node) in waiting):
                return path, node, state, None
            if first_action is not None and node is root and first_action in self._legal(game, node, d, state):
                node, action = self._child(game, node, state, first_action), first_action
            else:
                node, action = select(game, node, d, state)
            child_state = node.states[d]
            if child_state is None:
                child_state = node.states[d] = game.apply(state, action)
            state = child_state
            path.append(node)

    @staticmethod
    def _child(game: Game, node: Node, state: Any, action: int) -> Node:
        """The child of ``node`` for ``action`` by the player to move in ``state`` (created if new)."""
        to_move = state.current_player
        key = to_move * game.spec.num_actions + action
        child = node.children.get(key)
        if child is None:
            child = node.children[key] = Node(to_move, len(node.states))
        return child

    @staticmethod
    def _set_evaluation(node: Node, values: Any, priors: np.ndarray | None) -> None:
        """Keep the first evaluation of ``node``: its priors and its value per player."""
        if priors is not None and node.raw_priors is None:
            node.raw_priors = np.asarray(priors, dtype=np.float64)
        if node.raw_values is None:
            node.raw_values = np.asarray(values, dtype=np.float64)

    @staticmethod
    def _backup(root: Node, path: list[Node], values: Any) -> None:
        """Add one visit and each node's mover's entry of ``values`` along ``path`` (max^n backup)."""
        vector = values.tolist() if isinstance(values, np.ndarray) else [float(v) for v in values]
        root.visits += 1
        for visited in path:
            visited.visits += 1
            visited.total += vector[visited.mover]

    @staticmethod
    def _virtual_loss(root: Node, path: list[Node], visits: int, value: float) -> None:
        root.visits += visits
        for visited in path:
            visited.visits += visits
            visited.total += value

    def _legal(self, game: Game, node: Node, d: int, state: Any) -> list[int]:
        """The legal actions of ``node`` in determinization ``d`` (cached): in a random order, or by decreasing
        prior (ties in a random order) when the evaluator gave priors, so unvisited children go best first."""
        actions = node.legal[d]
        if actions is None:
            legal = game.legal_actions(state)
            legal = legal[self.rng.permutation(len(legal))]
            if node.raw_priors is not None:
                legal = legal[np.argsort(-node.raw_priors[legal], kind="stable")]
            actions = node.legal[d] = legal.tolist()
        return actions

    def _select_uct(self, game: Game, node: Node, d: int, state: Any) -> tuple[Node, int]:
        actions = self._legal(game, node, d, state)
        to_move = state.current_player
        base, children = to_move * game.spec.num_actions, node.children
        explore = self.exploration * math.sqrt(math.log(node.visits))
        best, best_action, best_score = None, -1, -math.inf
        for action in actions:
            child = children.get(base + action)
            if child is None:
                child = children[base + action] = Node(to_move, len(node.states))
                return child, action
            visits = child.visits
            if visits == 0:
                return child, action
            score = child.total / visits + explore / math.sqrt(visits)
            if score > best_score:
                best, best_action, best_score = child, action, score
        return best, best_action  # type: ignore[return-value]

    def _select_puct(self, game: Game, node: Node, d: int, state: Any) -> tuple[Node, int]:
        actions = self._legal(game, node, d, state)
        priors = node.priors if node.priors is not None else self._priors(node, actions)
        to_move = state.current_player
        base, children = to_move * game.spec.num_actions, node.children
        explore = self.exploration * math.sqrt(node.visits)
        uniform = 1.0 / len(actions)
        best, best_action, best_score = None, -1, -math.inf
        for action in actions:
            child = children.get(base + action)
            prior = priors.get(action, uniform)
            if child is None or child.visits == 0:
                score = explore * prior
            else:
                score = child.total / child.visits + explore * prior / (1 + child.visits)
            if score > best_score:
                best, best_action, best_score = child, action, score
        if best is None:
            best = children[base + best_action] = Node(to_move, len(node.states))
        return best, best_action

    def _select_gumbel(self, game: Game, node: Node, d: int, state: Any) -> tuple[Node, int]:
        """Below the root: the action that most lacks visits compared with the improved policy."""
        actions = self._legal(game, node, d, state)
        to_move = state.current_player
        priors, visits, values = self._action_statistics(game, node, actions, to_move)
        policy = self._improved_policy(priors, visits, values, _node_value(node, to_move))
        action = actions[gumbel.interior_choice(policy, visits)]
        return self._child(game, node, state, action), action

    def _improved_policy(
        self, priors: list[float], visits: list[int], values: list[float], node_value: float
    ) -> list[float]:
        return gumbel.improved_policy(priors, visits, values, node_value, self.gumbel_c_visit, self.gumbel_c_scale)

    def _action_statistics(
        self, game: Game, node: Node, actions: list[int], to_move: int
    ) -> tuple[list[float], list[int], list[float]]:
        """Priors, visits and mean values (for ``to_move``) of ``actions`` at ``node``."""
        prior_of = node.priors if node.priors is not None else self._priors(node, actions)
        uniform = 1.0 / len(actions)
        base, children = to_move * game.spec.num_actions, node.children
        priors, visits, values = [], [], []
        for action in actions:
            child = children.get(base + action)
            priors.append(prior_of.get(action, uniform))
            if child is None or child.visits == 0:
                visits.append(0)
                values.append(0.0)
            else:
                visits.append(child.visits)
                values.append(child.total / child.visits)
        return priors, visits, values

    # -- Gumbel root search -----------------------------------------------------------------------
    def _search_gumbel(self, game: Game, root: Node, player: int, limit: float, deadline: float) -> int:
        """Evaluate the root, sample the considered actions, then sequential halving over the budget left."""
        done = 0
        if root.visits == 0:
            self._simulate(game, root, 0)
            done = 1
        actions = self._legal(game, root, 0, root.states[0])
        priors = self._action_statistics(game, root, actions, player)[0]
        noise = self.rng.gumbel(size=len(actions)) * self.gumbel_scale if self.gumbel_scale > 0 else 0.0
        scores = (np.asarray(gumbel.logits_of(priors)) + noise).tolist()
        considered = sorted(range(len(actions)), key=lambda i: -scores[i])[: self.gumbel_actions]
        self._gumbel_root = (actions, scores, considered)
        schedule = gumbel.halving_schedule(len(considered), int(max(0, limit - done)))
        count, clock, step, offset = len(root.states), time.perf_counter, 0, done

        def root_choice(index: int) -> int:
            return self._gumbel_root_action(game, root, player, schedule[index - offset])

        while step < len(schedule) and (done == 0 or clock() < deadline):
            size = min(self.batch_size, len(schedule) - step)
            if size == 1:
                self._simulate(game, root, done % count, root_choice(done))
                ran = 1
            else:
                ran = self._simulate_batch(game, root, done, size, root_choice)
            done, step = done + ran, step + ran
        return done

    def _gumbel_scores(
        self, game: Game, root: Node, player: int
    ) -> tuple[list[int], list[float], tuple[list[float], list[int], list[float]]]:
        """Root visits, ``g + log prior + sigma(completed Q)`` of every root action, and the statistics
        (priors, visits, values) they come from."""
        actions, scores, _ = self._gumbel_root
        statistics = self._action_statistics(game, root, actions, player)
        priors, visits, values = statistics
        completed = gumbel.completed_values(priors, visits, values, _node_value(root, player))
        sigmas = gumbel.sigma(completed, visits, self.gumbel_c_visit, self.gumbel_c_scale)
        return visits, [score + s for score, s in zip(scores, sigmas)], statistics

    def _gumbel_root_action(self, game: Game, root: Node, player: int, target: int) -> int:
        """The best considered action among those with ``target`` visits (else among the least visited)."""
        actions, _, considered = self._gumbel_root
        visits, scores, _ = self._gumbel_scores(game, root, player)
        candidates = [i for i in considered if visits[i] == target]
        if not candidates:
            fewest = min(visits[i] for i in considered)
            candidates = [i for i in considered if visits[i] == fewest]
        return actions[max(candidates, key=lambda i: scores[i])]

    def _gumbel_final(self, game: Game, root: Node, player: int) -> tuple[int, dict[int, float]]:
        """The move (the best of the most visited considered actions) and the root's improved policy."""
        actions, _, considered = self._gumbel_root
        visits, scores, (priors, _, values) = self._gumbel_scores(game, root, player)
        most = max(visits[i] for i in considered)
        action = actions[max((i for i in considered if visits[i] == most), key=lambda i: scores[i])]
        policy = self._improved_policy(priors, visits, values, _node_value(root, player))
        return action, dict(zip(actions, policy))

    @staticmethod
    def _priors(node: Node, actions: list[int]) -> dict[int, float]:
        """The evaluator's priors renormalised over ``actions`` (uniform without priors or mass)."""
        raw = node.raw_priors
        if raw is not None:
            masses = np.maximum(raw[actions], 0.0)
            total = float(masses.sum())
            if total > 0:
                node.priors = dict(zip(actions, (masses / total).tolist()))
                return node.priors
        node.priors = dict.fromkeys(actions, 1.0 / len(actions))
        return node.priors

    def _add_root_noise(self, game: Game, root: Node) -> None:
        """Mix Dirichlet noise into the root priors (AlphaZero self-play exploration)."""
        actions = self._legal(game, root, 0, root.states[0])
        priors = root.priors if root.priors is not None else self._priors(root, actions)
        noise = self.rng.dirichlet([self.dirichlet_alpha] * len(actions)).tolist()
        f = self.dirichlet_fraction
        root.priors = {a: (1 - f) * priors.get(a, 0.0) + f * eta for a, eta in zip(actions, noise)}

    # -- the move and the statistics --------------------------------------------------------------
    def _root_visits(self, game: Game, root: Node, player: int, legal: np.ndarray) -> dict[int, int]:
        base = player * game.spec.num_actions
        visits = {}
        for action in legal.tolist():
            child = root.children.get(base + action)
            visits[action] = child.visits if child is not None else 0
        return visits

    def _final_action(self, game: Game, root: Node, player: int, legal: np.ndarray) -> int:
        """The most visited legal root action, or a visit-count sample when ``temperature > 0``.

        Ties in visits go to the higher mean value, then to the agent's generator.
        """
        visits = self._root_visits(game, root, player, legal)
        actions = list(visits)
        counts = np.array([visits[a] for a in actions], dtype=np.float64)
        if self.temperature > 0 and counts.sum() > 0:
            weights = (counts / counts.max()) ** (1.0 / self.temperature)
            return int(actions[int(self.rng.choice(len(actions), p=weights / weights.sum()))])
        most = [a for a, c in zip(actions, counts) if c == counts.max()]
        if len(most) > 1:
            base = player * game.spec.num_actions
            values = {a: root.children[base + a].value() if base + a in root.children else 0.0 for a in most}
            best = max(values.values())
            most = [a for a in most if values[a] == best]
        return self.choose(most)

    def _stats(
        self, game: Game, root: Node, player: int, legal: np.ndarray, sims: int, seconds: float, reused: bool
    ) -> SearchStats:
        visits = self._root_visits(game, root, player, legal)
        base = player * game.spec.num_actions
        total = sum(visits.values())
        value = sum(root.children[base + a].total for a, n in visits.items() if n) / total if total else 0.0
        return SearchStats(sims, seconds, visits, value, reused)

    # -- tree reuse -------------------------------------------------------------------------------
    def _keep(self, game: Game, root: Node | None, player: int, action: int) -> None:
        """Remember the subtree under ``action`` for the next move (perfect information only)."""
        self._kept = None
        if root is not None and self.reuse_tree and game.spec.perfect_information:
            child = root.children.get(player * game.spec.num_actions + action)
            if child is not None:
                self._kept = (game, child)

    def _reused_root(self, game: Game, view: Any) -> Node | None:
        """The kept node whose state is ``view`` (searched :data:`REUSE_PLIES` plies deep), else ``None``."""
        if self._kept is None or not self.reuse_tree:
            return None
        kept_game, node = self._kept
        self._kept = None
        if kept_game is not game and kept_game != game:
            return None
        target, target_ply = view.key(), view.ply
        frontier = [node]
        for _ in range(REUSE_PLIES + 1):
            deeper = []
            for candidate in frontier:
                state = candidate.states[0]
                if state is None or state.ply > target_ply:
                    continue
                if state.ply == target_ply and state.key() == target:
                    return candidate
                deeper.extend(candidate.children.values())
            frontier = deeper
        return None

    def __repr__(self) -> str:
        budget = f"simulations={self.simulations}, seconds={self.seconds}"
        search = f"evaluator={self.evaluator_name!r}, selection={self.selection!r}"
        return f"MCTSAgent(name={self.name!r}, {budget}, {search})"
