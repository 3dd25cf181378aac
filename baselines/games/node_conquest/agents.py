"""Node Conquest: the scripted agent :class:`GreedyExpander` (seed 001 describes none; this one is ours) and
the value function of the search agents.

The agent reads only the public helpers of the game (``decode``, ``moving_amount``, ``board``) with
``legal_actions``. Its rules, tried in this order:

1. **Capture.** Among the legal moves whose units beat the defenders of a node it does not own, prefer enemy
   nodes over neutral ones, then the largest margin (units sent - defenders).
2. **Reinforce.** An own node is threatened when a neighbouring enemy node holds more units than it. Move
   into a threatened node from a *safe* own neighbour (one with no enemy neighbour), the most units first.
3. **Expand.** Move the biggest stack one step toward the nearest node it does not own (breadth-first
   distance over the map).
4. Otherwise (only PASS is legal) play any legal action.

Ties are broken by the agent's generator.

**Value function** (:func:`node_conquest_value`): the player's share ``h_i`` of the owned nodes and of the units
on them (averaged); ``v_i = (p h_i - 1) / (p - 1)``: 1 owning everything, 0 an even share, ``-1/(p-1)`` nothing
left.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from baselines.agent import BaseAgent
from boardenvs.core import Game


def node_conquest_value(game: Game, state: Any) -> np.ndarray:
    """Share of the owned nodes and of their units (see the module docstring)."""
    p = game.spec.num_players
    owned = state.owner >= 0
    owners = state.owner[owned]
    nodes = np.bincount(owners, minlength=p).astype(np.float64)
    units = np.bincount(owners, weights=state.units[owned], minlength=p)
    share = 0.5 * nodes / max(1.0, nodes.sum()) + 0.5 * units / max(1.0, units.sum())
    return np.clip((p * share - 1) / (p - 1), -1.0, 1.0)


class GreedyExpander(BaseAgent):
    """Captures what it can win, reinforces threatened frontier nodes, otherwise expands its biggest stack."""

    name = "greedy_expander"

    def act(self, game: Game, view: Any, player: int) -> int:
        """The action chosen by the rules of the module docstring."""
        legal = [int(a) for a in game.legal_actions(view)]
        decoded = [(action, game.decode(view, action)) for action in legal]
        moves = [(action, move) for action, move in decoded if move.origin >= 0]
        if not moves:
            return self.choose(legal)
        for rule in (self._captures, self._reinforcements, self._expansions):
            best = rule(game, view, player, moves)
            if best:
                return self.choose(best)
        return self.choose(legal)

    @staticmethod
    def _best(scored: list[tuple[Any, int]]) -> list[int]:
        if not scored:
            return []
        top = max(score for score, _ in scored)
        return [action for score, action in scored if score == top]

    def _captures(self, game: Game, view: Any, player: int, moves: list) -> list[int]:
        scored = []
        for action, move in moves:
            owner = int(view.owner[move.target])
            margin = game.moving_amount(view, move.origin) - int(view.units[move.target])
            if owner != player and margin > 0:
                scored.append(((owner >= 0, margin), action))
        return self._best(scored)

    def _reinforcements(self, game: Game, view: Any, player: int, moves: list) -> list[int]:
        scored = []
        for action, move in moves:
            into_threatened = view.owner[move.target] == player and self._threatened(game, view, player, move.target)
            if into_threatened and not self._enemy_neighbours(game, view, player, move.origin):
                scored.append((game.moving_amount(view, move.origin), action))
        return self._best(scored)

    def _expansions(self, game: Game, view: Any, player: int, moves: list) -> list[int]:
        foreign = np.flatnonzero(view.owner != player).tolist()
        if not foreign:
            return []
        distance = game.board.distances_from(foreign)
        biggest = max(int(view.units[move.origin]) for _, move in moves)
        scored = [(-int(distance[m.target]), a) for a, m in moves if int(view.units[m.origin]) == biggest]
        return self._best(scored)

    @staticmethod
    def _enemy_neighbours(game: Game, view: Any, player: int, node: int) -> list[int]:
        return [n for n in game.adjacency[node] if view.owner[n] >= 0 and view.owner[n] != player]

    def _threatened(self, game: Game, view: Any, player: int, node: int) -> bool:
        strength = int(view.units[node])
        return any(int(view.units[n]) > strength for n in self._enemy_neighbours(game, view, player, node))
