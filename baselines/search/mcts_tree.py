"""The tree of :class:`baselines.search.mcts.MCTSAgent`: its nodes, the statistics of a search, and the updates of a
simulation (creating a child, keeping a leaf's evaluation, the max^n backup and the virtual loss of batched search).

Children are keyed by ``(player to move) * num_actions + action``; a node's statistics are those of its ``mover``,
the player whose action led to it, so the backup adds each node's mover's entry of the value vector.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from boardenvs.core import Game


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


def evaluated_value(node: Node, player: int) -> float:
    """The evaluator's value of ``node`` for ``player`` (0 before the node was evaluated)."""
    return float(node.raw_values[player]) if node.raw_values is not None else 0.0


class TreeUpdates:
    """The updates of the tree during a simulation, as methods of the agent (a subclass may call ``_child``)."""

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
        """Add ``visits`` visits and ``value`` to the total of every node along ``path`` (batched search: a
        pending descent's virtual loss, and its removal)."""
        root.visits += visits
        for visited in path:
            visited.visits += visits
            visited.total += value
