"""Why a Battle Sheep action is illegal: one line for the error of ``apply`` / ``check_action``.

Every reason names the action as the game writes it (``"place c5"``, ``"c5 NE 3"``), says what is wrong
and what the player to move may do instead. It only uses what that player may see: cell owners (public)
and the player's own stack sizes, never another player's stack size (hidden with ``hidden_counts``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from boardenvs.games.battle_sheep.render import PLAYER_LETTERS
from boardenvs.games.battle_sheep.rules import movable_cells, open_directions, placement_cells
from boardenvs.games.battle_sheep.state import FREE, NONFIELD, BattleSheepState
from boardenvs.games.battle_sheep.tables import DIRECTION_NAMES, cell_name

if TYPE_CHECKING:
    from boardenvs.games.battle_sheep.game import BattleSheep, Move

MAX_LISTED = 16
"""Longest list of cells a reason spells out; longer lists end with "and N more"."""


def player_name(player: int) -> str:
    """``"player 0 (A)"``: the seat and the letter the board shows."""
    return f"player {player} ({PLAYER_LETTERS[player]})"


def listing(items: list[str]) -> str:
    """``"a1, b1, c1"``, cut after :data:`MAX_LISTED` items with ``"and N more"``."""
    if len(items) <= MAX_LISTED:
        return ", ".join(items)
    return ", ".join(items[:MAX_LISTED]) + f" and {len(items) - MAX_LISTED} more"


def illegal_reason(game: BattleSheep, state: BattleSheepState, action: int) -> str:
    """Why the in-range ``action`` cannot be played in the non-terminal ``state`` ("" if it can)."""
    move = game.decode(state, action)
    text = game.action_to_str(state, action)
    if game.in_placement(state):
        why = _placement_problem(game, state, move)
        return f"{text}: {why}; free border cells: {_free_border(game, state)}" if why else ""
    why = _move_problem(game, state, move)
    return f"{text}: {why}" if why else ""


def _placement_problem(game: BattleSheep, state: BattleSheepState, move: Move) -> str:
    player = player_name(state.current_player)
    if move.kind != "place":
        return f"it is the placement phase: {player} must place its starting stack before any stack can split"
    name, owner = cell_name(game.config.board_size, move.cell), int(state.owner[move.cell])
    if owner == NONFIELD:
        return f"{name} is not on the playing field"
    if owner != FREE:
        return f"{name} is already taken by {player_name(owner - 1)}"
    if placement_cells(game.tables, state.owner, game.config.border_neighbourhood)[move.cell]:
        return ""
    touch = "beside" if game.config.border_neighbourhood == 4 else "beside or diagonal to"
    return f"{name} is not a border cell (a starting stack goes on the board edge or {touch} a non-field cell)"


def _free_border(game: BattleSheep, state: BattleSheepState) -> str:
    cells = np.flatnonzero(placement_cells(game.tables, state.owner, game.config.border_neighbourhood))
    return listing([cell_name(game.config.board_size, int(c)) for c in cells])


def _move_problem(game: BattleSheep, state: BattleSheepState, move: Move) -> str:
    player = state.current_player
    if move.kind == "place":
        return f"the placement phase is over; {player_name(player)} must split a stack; {_movable(game, state)}"
    name, owner = cell_name(game.config.board_size, move.cell), int(state.owner[move.cell])
    if owner != player + 1:
        return f"{_not_yours(name, owner, player)}; {_movable(game, state)}"
    count = int(state.counts[move.cell])
    if count < 2:
        return f"the stack on {name} has only 1 sheep and cannot be split; {_movable(game, state)}"
    blocked = _blocked(game, state, move)
    if blocked:
        return blocked
    sizes = _allowed_sizes(game, count)
    if move.split in sizes:
        return ""
    rule = "with restricted splits, " if game.config.restricted_splits else ""
    return f"{rule}the stack on {name} ({count} sheep) can send {_sizes_text(sizes)} sheep, not {move.split}"


def _not_yours(name: str, owner: int, player: int) -> str:
    if owner == NONFIELD:
        return f"{name} is not on the playing field"
    if owner == FREE:
        return f"there is no stack on {name}"
    return f"the stack on {name} belongs to {player_name(owner - 1)}, not to {player_name(player)}"


def _movable(game: BattleSheep, state: BattleSheepState) -> str:
    """The player's stacks that have a move, with their sizes (the player's own, so not hidden)."""
    cells = movable_cells(game.tables, state, state.current_player)
    cells = cells[open_directions(game.tables, state.owner, cells).any(axis=0)]
    size = game.config.board_size
    stacks = [f"{cell_name(size, int(c))} ({int(state.counts[c])} sheep)" for c in cells]
    return "stacks that can move: " + listing(stacks)


def _blocked(game: BattleSheep, state: BattleSheepState, move: Move) -> str:
    """Why the first cell in the move's direction is not free ("" when it is free)."""
    size, direction = game.config.board_size, DIRECTION_NAMES[move.direction]
    name, first = cell_name(size, move.cell), int(game.tables.step[move.direction, move.cell])
    owner = int(state.owner[first])
    if owner == FREE:
        return ""
    if first == game.tables.cells:
        where = f"{name} is on the board edge, no cell lies {direction} of it"
    elif owner == NONFIELD:
        where = f"{cell_name(size, first)}, {direction} of {name}, is not on the playing field"
    else:
        where = f"{cell_name(size, first)}, {direction} of {name}, is taken by {player_name(owner - 1)}"
    open_ = open_directions(game.tables, state.owner, np.array([move.cell]))[:, 0]
    if open_.any():
        names = ", ".join(DIRECTION_NAMES[d] for d in np.flatnonzero(open_))
        return f"{where}; open directions from {name}: {names}"
    return f"{where}; no direction is open from {name}; {_movable(game, state)}"


def _allowed_sizes(game: BattleSheep, count: int) -> list[int]:
    """The group sizes that may leave a stack of ``count`` sheep."""
    return list(game.split_tables.sizes[count])


def _sizes_text(sizes: list[int]) -> str:
    """``"1..5"`` for a run of three or more, else ``"1, 3 or 5"``."""
    if len(sizes) > 2 and sizes == list(range(sizes[0], sizes[-1] + 1)):
        return f"{sizes[0]}..{sizes[-1]}"
    if len(sizes) == 1:
        return str(sizes[0])
    return ", ".join(map(str, sizes[:-1])) + f" or {sizes[-1]}"
