"""The selection rules of :class:`baselines.search.mcts.MCTSAgent`: which child a simulation visits next.

* **UCT** (``_select_uct``): ``Q + c sqrt(ln N / n)``, every child tried once first, in a random order or by
  decreasing prior when the evaluator gives priors.
* **PUCT** (``_select_puct``): ``Q + c P sqrt(N) / (1 + n)``, unvisited children valued 0; the root's priors may
  carry Dirichlet noise (``_add_root_noise``).
* **Gumbel, below the root** (``_select_gumbel``): the action that most lacks visits compared with the improved
  policy (:mod:`baselines.search.gumbel`).

The rules are methods of the agent (a subclass may override one, e.g. ``_select_uct``) and read its settings:
``rng``, ``exploration``, ``dirichlet_alpha``, ``dirichlet_fraction``, ``gumbel_c_visit`` and ``gumbel_c_scale``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from baselines.search import gumbel
from baselines.search.mcts_tree import Node, TreeUpdates, evaluated_value
from boardenvs.core import Game


class SelectionRules(TreeUpdates):
    """UCT, PUCT and Gumbel's interior selection over a node's legal actions, and the priors they read."""

    rng: np.random.Generator
    exploration: float
    dirichlet_alpha: float
    dirichlet_fraction: float
    gumbel_c_visit: float
    gumbel_c_scale: float

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
        """The first child never visited, else the child with the best UCT score."""
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
        """The child with the best PUCT score (unvisited children valued 0; created when chosen)."""
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
        policy = self._improved_policy(priors, visits, values, evaluated_value(node, to_move))
        action = actions[gumbel.interior_choice(policy, visits)]
        return self._child(game, node, state, action), action

    def _improved_policy(
        self, priors: list[float], visits: list[int], values: list[float], node_value: float
    ) -> list[float]:
        """Gumbel's improved policy of a node's actions with the agent's ``c_visit`` and ``c_scale``."""
        return gumbel.improved_policy(priors, visits, values, node_value, self.gumbel_c_visit, self.gumbel_c_scale)

    def _action_statistics(
        self, game: Game, node: Node, actions: list[int], to_move: int, legal_count: int | None = None
    ) -> tuple[list[float], list[int], list[float]]:
        """Priors, visits and mean values (for ``to_move``) of ``actions`` at ``node``; ``legal_count``: the
        number of legal actions when ``actions`` is a part of them (an action without a prior gets ``1 /
        legal_count``; the node's priors must then be known)."""
        prior_of = node.priors if node.priors is not None else self._priors(node, actions)
        uniform = 1.0 / (legal_count or len(actions))
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
