"""Node Conquest moves: the ``Move`` NamedTuple, the codec between moves and action ids, and the move text.

Action id ``origin * D + slot`` moves from node ``origin`` through its neighbour slot ``slot`` (``D`` =
``board.max_degree``); PASS, in variants that have it, is the last id (``pass_action``, -1 where there is none).
The text is ``"b3>R"`` (node name, slot name), ``"n12>n7"`` on graphs, or ``"pass"``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from boardenvs.games.node_conquest.tables import Board

PASS_TEXT = "pass"


class Move(NamedTuple):
    """A move: units go from node ``origin`` through its neighbour slot ``slot`` to node ``target``.

    ``decode`` fills all three (``target`` is -1 for a slot that leads off the map); ``PASS_MOVE`` (all -1)
    is PASS. ``encode`` needs ``origin`` and the ``target`` or the ``slot``, -1 meaning "not given": given
    both, they must agree. ``Move(0, -1, 1)`` and ``Move(0, 1, -1)`` are both "a1>R" on a grid.
    """

    origin: int
    slot: int
    target: int


PASS_MOVE = Move(-1, -1, -1)
"""The PASS action's move (only in variants where a player can be stuck)."""


def action_name(board: Board, pass_action: int, action: int) -> str:
    """``"b3>R"``, ``"n12>n7"`` or ``"pass"`` (``slot<k>`` for a slot that leads off the map)."""
    if action == pass_action:
        return PASS_TEXT
    origin, slot = divmod(action, board.max_degree)
    names = board.slot_names[origin]
    return f"{board.node_names[origin]}>{names[slot] if slot < len(names) else f'slot{slot}'}"


def actions_by_name(board: Board, pass_action: int) -> dict[str, int]:
    """The id of every move text of the map (every slot that leads to a node, and PASS where it exists)."""
    valid = np.flatnonzero(board.valid.ravel()).tolist()
    ids = valid + ([pass_action] if pass_action >= 0 else [])
    return {action_name(board, pass_action, action): action for action in ids}


def move_of_action(board: Board, pass_action: int, action: int) -> Move:
    """The ``Move`` of the in-range id ``action`` (``PASS_MOVE`` for PASS)."""
    if action == pass_action:
        return PASS_MOVE
    origin, slot = divmod(action, board.max_degree)
    return Move(origin, slot, int(board.neighbours[origin, slot]))


def action_of_move(board: Board, pass_action: int, move: Move) -> int:
    """The id of ``move``: from ``origin`` to the ``target`` or through the ``slot`` (-1: not given; both given must
    agree), or PASS for ``PASS_MOVE``; ``ValueError`` if no id has that move."""
    origin, slot, target = (int(value) for value in move)
    if (origin, slot, target) == PASS_MOVE:
        if pass_action < 0:
            raise ValueError("this variant has no pass move")
        return pass_action
    if not 0 <= origin < board.num_nodes:
        raise ValueError(f"origin {origin} is not a node (0..{board.num_nodes - 1})")
    if target != -1:
        slot = _slot_to(board, origin, target, slot)
    elif not 0 <= slot < board.max_degree:
        raise ValueError(f"{move} needs a target node or a slot in 0..{board.max_degree - 1}")
    return origin * board.max_degree + slot


def _slot_to(board: Board, origin: int, target: int, slot: int) -> int:
    """The slot from ``origin`` to ``target``; ``ValueError`` if there is none or ``slot`` (not -1) differs."""
    found = np.flatnonzero(board.neighbours[origin] == target)
    if len(found) == 0:
        neighbours = board.adjacency[origin]
        raise ValueError(f"node {target} is not a neighbour of node {origin} (neighbours: {neighbours})")
    if slot not in (-1, int(found[0])):
        raise ValueError(f"slot {slot} of node {origin} does not lead to node {target} (slot {found[0]} does)")
    return int(found[0])
