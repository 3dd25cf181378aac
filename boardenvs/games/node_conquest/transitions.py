"""What a legal Node Conquest move does: move and combat, elimination, growth, the next turn; the start position
and the ranking at the move cap.

The move cap itself is applied by ``boardenvs.core.Game.apply``; :meth:`Transitions.leaders` ranks the players there.
Which moves are legal is :mod:`~boardenvs.games.node_conquest.legality`'s job.
"""

from __future__ import annotations

import numpy as np

from boardenvs.core import TERMINAL
from boardenvs.games.node_conquest.config import NodeConquestConfig
from boardenvs.games.node_conquest.state import NEUTRAL, NodeConquestState
from boardenvs.games.node_conquest.tables import Board


class Transitions:
    """The transition rules of one config; ``successor`` is the hot path."""

    def __init__(self, config: NodeConquestConfig, board: Board, pass_action: int) -> None:
        self.board = board
        self.neighbours = board.neighbours
        self.degree = board.max_degree
        self.pass_action = pass_action
        self.keep = config.units_kept
        self.growth = board.growth
        self.mover_only = config.growth_timing == "mover_only"
        self.unit_tie_break = config.tie_break == "units"
        self.num_players = config.num_players
        self.config = config

    def initial_state(self) -> NodeConquestState:
        """Start nodes with ``start_units``, every other node neutral with the garrison; player 0 moves."""
        owner = np.full(self.board.num_nodes, NEUTRAL, dtype=np.int8)
        units = np.full(self.board.num_nodes, self.config.neutral_garrison, dtype=np.int64)
        for player, node in enumerate(self.board.starts):
            owner[node], units[node] = player, self.config.start_units
        return NodeConquestState(owner, units, (True,) * self.num_players, 0)

    def successor(self, state: NodeConquestState, action: int) -> NodeConquestState:
        """The state after a legal ``action``: move and combat, elimination, growth, then the next turn.

        The game ends here only by elimination; ``NodeConquest`` ends it at the move cap afterwards.
        """
        after = state.copy()
        player = state.current_player
        if action != self.pass_action:
            origin, slot = divmod(action, self.degree)
            target = int(self.neighbours[origin, slot])
            amount = int(after.units[origin]) - self.keep
            after.units[origin] -= amount
            self._arrive(after, target, amount, player)
        self._grow(after, player)
        after.ply += 1
        self._next_turn(after, player)
        return after

    def moving_amount(self, state: NodeConquestState, origin: int) -> int:
        """Units a move from ``origin`` sends (all but ``units_kept``)."""
        return int(state.units[origin]) - self.keep

    def _arrive(self, state: NodeConquestState, target: int, amount: int, player: int) -> None:
        """N4: join own units, else fight by difference (equal amounts leave the node neutral with 0)."""
        defender, defending = int(state.owner[target]), int(state.units[target])
        if defender == player:
            state.units[target] = defending + amount
            return
        if amount > defending:
            state.owner[target], state.units[target] = player, amount - defending
        elif amount < defending:
            state.units[target] = defending - amount
            return
        else:
            state.owner[target], state.units[target] = NEUTRAL, 0
        if defender != NEUTRAL and not (state.owner == defender).any():
            alive = list(state.alive)
            alive[defender] = False
            state.alive = tuple(alive)

    def _grow(self, state: NodeConquestState, player: int) -> None:
        owned = state.owner == player if self.mover_only else state.owner >= 0
        state.units += self.growth * owned

    def _next_turn(self, state: NodeConquestState, player: int) -> None:
        if sum(state.alive) == 1:
            state.current_player, state.winners = TERMINAL, (state.alive.index(True),)
        else:
            following = (player + 1) % self.num_players
            while not state.alive[following]:
                following = (following + 1) % self.num_players
            state.current_player = following

    def leaders(self, state: NodeConquestState) -> tuple[int, ...]:
        """The players ranked first at the move cap (most nodes, then most units with the ``units`` tie-break).

        Every player tied first is a winner; when all players tie the game is a draw (no winners).
        """
        ranks = [self.rank(state, player) for player in range(self.num_players)]
        best = max(ranks)
        winners = tuple(player for player, rank in enumerate(ranks) if rank == best)
        return () if len(winners) == self.num_players else winners

    def rank(self, state: NodeConquestState, player: int) -> tuple[int, int]:
        """``(nodes owned, total units if the tie-break is by units else 0)``."""
        owned = state.owner == player
        units = int(state.units[owned].sum()) if self.unit_tie_break else 0
        return int(owned.sum()), units
