"""Which Node Conquest moves are legal, and why a move is not: every rule once, the mask and the reasons from it.

The rules (``docs/rules/rules.md`` §2), each decided by one function or table here with its message beside it:

1. **A move follows a neighbour slot** of its origin (``board.valid``; other slots lead off the map).
2. **Units move from the mover's own node** (:func:`owned_by`).
3. **A move sends at least one unit** and leaves ``units_kept`` behind (N3), so its origin needs
   ``min_units = units_kept + 1`` units (:func:`holds_enough`).
4. **PASS**, in the variants that have one (:func:`needs_pass`), only when no move is legal.

Rules 2 and 3 work on whole arrays (the mask) and on one node (the fast test) alike. :class:`Legality` composes
them into the mask and the fast test, and :meth:`Legality.reason` asks the same rules, in that order, which one
excludes an action.
"""

from __future__ import annotations

import numpy as np

from boardenvs.core import TERMINAL
from boardenvs.games.node_conquest.config import NodeConquestConfig
from boardenvs.games.node_conquest.notation import action_name
from boardenvs.games.node_conquest.state import NEUTRAL, NodeConquestState
from boardenvs.games.node_conquest.tables import Board


# -- 1. neighbour slots (the rule is ``board.valid``) ------------------------------------------------
def off_map_reason(name: str, where: str) -> str:
    """Why a move through a slot without a neighbour is illegal."""
    return f"{name} leads off the map: {where} has no neighbour that way"


# -- 2. the mover's own nodes ------------------------------------------------------------------------
def owned_by(owner: np.ndarray, player: int) -> np.ndarray:
    """Whether each node of ``owner`` (an array, or one node's owner) is ``player``'s."""
    return owner == player


def foreign_origin_reason(name: str, where: str, owner: int, player: int) -> str:
    """Why a move from a node that is not the mover's (:func:`owned_by`) is illegal."""
    whose = "neutral" if owner == NEUTRAL else f"player {owner}'s"
    return f"{name} moves from {where}, which is {whose}, not player {player}'s"


# -- 3. enough units to send one ---------------------------------------------------------------------
def holds_enough(units: np.ndarray, min_units: int) -> np.ndarray:
    """Whether each node of ``units`` (an array, or one node's units) can send a move: ``min_units`` or more."""
    return units >= min_units


def too_few_units_reason(name: str, where: str, units: int, min_units: int) -> str:
    """Why a move from a node without enough units (:func:`holds_enough`) is illegal."""
    return f"{name} moves from {where}, which has {units} unit(s); a move needs at least {min_units}"


# -- 4. PASS -----------------------------------------------------------------------------------------
def needs_pass(config: NodeConquestConfig, board: Board) -> bool:
    """Whether a player owning nodes can be left without a move (then the variant has a PASS action).

    With the default rules every owned node holds at least 2 units when its owner moves (N8). That fails
    with ``move_all_units`` (nodes at 0), ``mover_only`` growth (an attacked node can drop to 1), nodes
    that do not grow, or a start below 2 units.
    """
    return (
        config.move_all_units
        or config.growth_timing == "mover_only"
        or int(board.growth.min()) < 1
        or config.start_units < 2
    )


def pass_reason(player: int) -> str:
    """Why PASS is illegal while the mover has a move."""
    return f"pass is legal only when no move is, and player {player} can still move"


# -- the composition ---------------------------------------------------------------------------------
class Legality:
    """The legal moves of one config: the action layout, the mask, the fast test and the reasons.

    Attributes:
        num_actions: ``N * D``, plus one where the variant has PASS.
        pass_action: the PASS id (the last one), or -1 where the variant has none.
        min_units: units a node needs to move from (rule 3).
    """

    def __init__(self, config: NodeConquestConfig, board: Board) -> None:
        self.board = board
        self.valid = board.valid
        self.degree = board.max_degree
        self.move_actions = board.num_nodes * board.max_degree
        self.has_pass = needs_pass(config, board)
        self.num_actions = self.move_actions + int(self.has_pass)
        self.pass_action = self.move_actions if self.has_pass else -1
        self.min_units = config.units_kept + 1

    def mask(self, state: NodeConquestState) -> np.ndarray:
        """``bool[num_actions]``; PASS (if the variant has it) only when nothing else is legal."""
        player = state.current_player
        if player == TERMINAL:
            return np.zeros(self.num_actions, dtype=np.bool_)
        movable = owned_by(state.owner, player) & holds_enough(state.units, self.min_units)
        moves = (movable[:, None] & self.valid).ravel()
        if not self.has_pass:
            return moves
        mask = np.zeros(self.num_actions, dtype=np.bool_)
        mask[: self.move_actions] = moves
        mask[-1] = not moves.any()
        return mask

    def is_legal(self, state: NodeConquestState, action: int) -> bool:
        """Whether the int ``action`` is legal, mostly without building the mask; False when the game is over
        or the id is out of range (never raises)."""
        player = state.current_player
        if player == TERMINAL or not 0 <= action < self.num_actions:
            return False
        if action == self.pass_action:
            return bool(self.mask(state)[action])
        origin, slot = divmod(action, self.degree)
        return bool(
            self.valid[origin, slot]
            and owned_by(state.owner[origin], player)
            and holds_enough(state.units[origin], self.min_units)
        )

    def reason(self, state: NodeConquestState, action: int) -> str:
        """Why the in-range ``action`` is illegal in ``state`` (not over): the first rule that excludes it."""
        player = state.current_player
        if action == self.pass_action:
            return pass_reason(player)
        origin, slot = divmod(action, self.degree)
        name = action_name(self.board, self.pass_action, action)
        where = self.board.node_names[origin]
        if not self.valid[origin, slot]:
            return off_map_reason(name, where)
        if not owned_by(state.owner[origin], player):
            return foreign_origin_reason(name, where, int(state.owner[origin]), player)
        return too_few_units_reason(name, where, int(state.units[origin]), self.min_units)
