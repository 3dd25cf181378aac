"""Which Battle Sheep actions are legal and why an action is not (docs/rules/rules.md §4).

The rules, in the order an action is checked; each is written once below, with its message:

* **Phase.** While players place (``placed < num_players``) only placements are legal, afterwards only splits.
* **Placement** (:func:`placement_cells` is their mask): the cell is on the playing field (:func:`on_field`), nobody
  holds it (:func:`unoccupied`) and it is a border cell, on the board edge or beside a non-field cell
  (:func:`on_border`). Each rule takes one cell or a slice of cells, so the mask and the test of one action
  (:func:`can_place`) ask the very same functions.
* **Split** (:func:`split_problem` finds the first that fails): the cell holds a stack of the player to move
  (``OWN``), the stack can be split, at least 2 sheep (``SPLITTABLE``: :func:`split_sizes` allows a size), the first
  cell in the direction is free (``OPEN``) and the group size is one of :func:`split_sizes` (``SIZE``). The legal
  ids of the mask are the composition of the same rules, enumerated from the tables (:func:`split_ids`: the mover's
  stacks, the open first cells, the runs of allowed sizes); :func:`can_move` asks whether that composition is
  non-empty. These two loop in Python over a few cells (a numpy call costs as much as reading ~20 cells,
  docs/results/battle_sheep_speed.md), reading ``owner`` and ``counts`` through memoryviews.

:func:`illegal_reason` asks the rules in order and writes the message of the first that refuses the action, with what
may be played instead. It uses only what the player to move may see: cell owners (public) and its own stack sizes,
never another player's stack size (hidden with ``hidden_counts``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from boardenvs.games.battle_sheep.config import BattleSheepConfig
from boardenvs.games.battle_sheep.notation import Move
from boardenvs.games.battle_sheep.state import FREE, NONFIELD, BattleSheepState
from boardenvs.games.battle_sheep.tables import DIRECTION_NAMES, SplitTables, Tables, cell_name
from boardenvs.games.battle_sheep.text import PLAYER_LETTERS

Board = np.ndarray | memoryview
"""A state's ``owner`` or ``counts``: the array, or a ``memoryview`` of it, whose items read as Python ints
several times faster than numpy scalars (the per-move loops take views)."""
Cells = int | slice | np.ndarray
"""One cell, or several: a placement rule answers a ``bool`` for one and a ``bool`` array for several."""
OK, OWN, SPLITTABLE, OPEN, SIZE = range(5)
""":func:`split_problem`'s answers: legal, or the split rule that refuses the split."""
MAX_LISTED = 16
"""Longest list of cells a reason spells out; longer lists end with "and N more"."""


# -- placement ------------------------------------------------------------------------------------------------------
def on_field(owner: np.ndarray, cells: Cells) -> Any:
    """Placement rule 1: a starting stack goes on the playing field."""
    return owner[cells] != NONFIELD


def unoccupied(owner: np.ndarray, cells: Cells) -> Any:
    """Placement rule 2: ... on a cell nobody holds (a field cell that is ``FREE``; see :func:`on_field`)."""
    return owner[cells] <= FREE


def on_border(t: Tables, owner: np.ndarray, cells: Cells, neighbourhood: int) -> Any:
    """Placement rule 3: ... on a border cell: on the board edge or beside (``neighbourhood=8``: or diagonal to) a
    non-field cell (docs/rules/rules.md S2); the sentinel off the board is not field."""
    around = t.orthogonal if neighbourhood == 4 else t.around8
    return (owner[around[:, cells]] == NONFIELD).any(axis=0)


def placement_cells(t: Tables, owner: np.ndarray, neighbourhood: int) -> np.ndarray:
    """``bool[cells]``: the cells where a starting stack may be placed (the three placement rules)."""
    cells = slice(0, t.cells)
    return on_field(owner, cells) & unoccupied(owner, cells) & on_border(t, owner, cells, neighbourhood)


def can_place(t: Tables, owner: np.ndarray, cell: int, neighbourhood: int) -> bool:
    """Whether a starting stack may go on ``cell`` (the three placement rules, for one cell)."""
    return bool(on_field(owner, cell) and unoccupied(owner, cell) and on_border(t, owner, cell, neighbourhood))


def placement_reason(t: Tables, state: BattleSheepState, move: Move, neighbourhood: int) -> str:
    """Why the placement-phase ``move`` is refused ("" if it is legal): the first rule that refuses it."""
    if move.kind != "place":
        player = player_name(state.current_player)
        return f"it is the placement phase: {player} must place its starting stack before any stack can split"
    name, owner = cell_name(t.size, move.cell), state.owner
    if not on_field(owner, move.cell):
        return f"{name} is not on the playing field"
    if not unoccupied(owner, move.cell):
        return f"{name} is already taken by {player_name(int(owner[move.cell]) - 1)}"
    if on_border(t, owner, move.cell, neighbourhood):
        return ""
    touch = "beside" if neighbourhood == 4 else "beside or diagonal to"
    return f"{name} is not a border cell (a starting stack goes on the board edge or {touch} a non-field cell)"


# -- splits ---------------------------------------------------------------------------------------------------------
def split_sizes(count: int, restricted: bool) -> tuple[int, ...]:
    """The group sizes that may leave a stack of ``count`` sheep: 1..count-1, or with ``restricted`` splits
    only 1, ``count // 2`` and ``count - 1`` (seed 003's move set); none for a single sheep."""
    return tuple(m for m in range(1, count) if not restricted or m in (1, count // 2, count - 1))


def split_problem(t: Tables, s: SplitTables, state: BattleSheepState, cell: int, direction: int, split: int) -> int:
    """``OK`` if the player to move may send ``split`` sheep from ``cell`` towards ``direction``, else the first
    split rule that refuses it: ``OWN``, ``SPLITTABLE``, ``OPEN`` or ``SIZE``."""
    owner = state.owner
    if owner[cell] != state.current_player + 1:
        return OWN
    sizes = s.sizes[state.counts[cell]]
    if not sizes:
        return SPLITTABLE
    if owner[t.neighbours[cell][direction]] != FREE:
        return OPEN
    return OK if split in sizes else SIZE


def split_ids(s: SplitTables, owner: Board, counts: Board, cells: tuple[int, ...]) -> list[int]:
    """The action ids of every legal split of the stacks on ``cells`` (the mover's, ascending), ascending.

    A splittable stack (sizes in ``s.sizes[count]``, as runs of ids ``s.runs[count]``) with a free first cell
    in a direction may send each allowed size: the ids ``first_id + start .. first_id + stop - 1`` for
    ``(start, stop)`` in ``s.runs[count]``, with ``first_id`` from ``s.openings[cell]``. Ids grow with the
    cell, then the direction, then the size, so walking the cells in order lists them sorted.
    """
    ids: list[int] = []
    openings, runs = s.openings, s.runs
    for cell in cells:
        sizes = runs[counts[cell]]
        if sizes:
            for first_id, first_cell in openings[cell]:
                if owner[first_cell] == FREE:
                    for start, stop in sizes:
                        ids += range(first_id + start, first_id + stop)
    return ids


def can_move(t: Tables, s: SplitTables, owner: Board, counts: Board, cells: tuple[int, ...]) -> bool:
    """Whether a stack on ``cells`` (the player's) has a legal split: :func:`split_ids` would not be empty."""
    neighbours, sizes = t.neighbours, s.sizes
    for cell in cells:
        if sizes[counts[cell]]:
            for nxt in neighbours[cell]:
                if owner[nxt] == FREE:
                    return True
    return False


def has_move(t: Tables, s: SplitTables, state: BattleSheepState, player: int) -> bool:
    """Whether ``player`` has a split-and-slide move."""
    return can_move(t, s, memoryview(state.owner), memoryview(state.counts), state.stacks[player])


def movable_cells(t: Tables, state: BattleSheepState, player: int) -> np.ndarray:
    """Sorted cells of ``player`` holding more than one sheep."""
    return np.flatnonzero((state.owner[: t.cells] == player + 1) & (state.counts[: t.cells] > 1))


def open_directions(t: Tables, owner: np.ndarray, cells: np.ndarray) -> np.ndarray:
    """``bool[8, len(cells)]``: the first cell in each direction from each of ``cells`` is free."""
    return owner[t.step[:, cells]] == FREE


def split_reason(t: Tables, s: SplitTables, state: BattleSheepState, move: Move, restricted: bool) -> str:
    """Why the move-phase ``move`` is refused ("" if it is legal): the message of the first rule that refuses it."""
    player = state.current_player
    if move.kind == "place":
        return f"the placement phase is over; {player_name(player)} must split a stack; {_movable(t, state)}"
    problem = split_problem(t, s, state, move.cell, move.direction, move.split)
    name, owner, count = cell_name(t.size, move.cell), int(state.owner[move.cell]), int(state.counts[move.cell])
    if problem == OWN:
        return f"{_not_yours(name, owner, player)}; {_movable(t, state)}"
    if problem == SPLITTABLE:
        return f"the stack on {name} has only 1 sheep and cannot be split; {_movable(t, state)}"
    if problem == OPEN:
        return _blocked(t, state, move)
    if problem == OK:
        return ""
    rule = "with restricted splits, " if restricted else ""
    sizes = list(s.sizes[count])
    return f"{rule}the stack on {name} ({count} sheep) can send {_sizes_text(sizes)} sheep, not {move.split}"


def _not_yours(name: str, owner: int, player: int) -> str:
    if owner == NONFIELD:
        return f"{name} is not on the playing field"
    if owner == FREE:
        return f"there is no stack on {name}"
    return f"the stack on {name} belongs to {player_name(owner - 1)}, not to {player_name(player)}"


def _movable(t: Tables, state: BattleSheepState) -> str:
    """The player's stacks that have a move, with their sizes (the player's own, so not hidden)."""
    cells = movable_cells(t, state, state.current_player)
    cells = cells[open_directions(t, state.owner, cells).any(axis=0)]
    stacks = [f"{cell_name(t.size, int(c))} ({int(state.counts[c])} sheep)" for c in cells]
    return "stacks that can move: " + listing(stacks)


def _blocked(t: Tables, state: BattleSheepState, move: Move) -> str:
    """Why the first cell in the move's direction is not free, and which directions are open."""
    direction = DIRECTION_NAMES[move.direction]
    name, first = cell_name(t.size, move.cell), int(t.step[move.direction, move.cell])
    owner = int(state.owner[first])
    if first == t.cells:
        where = f"{name} is on the board edge, no cell lies {direction} of it"
    elif owner == NONFIELD:
        where = f"{cell_name(t.size, first)}, {direction} of {name}, is not on the playing field"
    else:
        where = f"{cell_name(t.size, first)}, {direction} of {name}, is taken by {player_name(owner - 1)}"
    open_ = open_directions(t, state.owner, np.array([move.cell]))[:, 0]
    if open_.any():
        names = ", ".join(DIRECTION_NAMES[d] for d in np.flatnonzero(open_))
        return f"{where}; open directions from {name}: {names}"
    return f"{where}; no direction is open from {name}; {_movable(t, state)}"


# -- the message ----------------------------------------------------------------------------------------------------
def illegal_reason(
    t: Tables, s: SplitTables, config: BattleSheepConfig, state: BattleSheepState, move: Move, text: str, placing: bool
) -> str:
    """Why ``move`` (written ``text``) cannot be played in the non-terminal ``state`` ("" if it can), and what may
    be played instead; ``placing`` tells the phase."""
    if placing:
        why = placement_reason(t, state, move, config.border_neighbourhood)
        return f"{text}: {why}; free border cells: {_free_border(t, state, config.border_neighbourhood)}" if why else ""
    why = split_reason(t, s, state, move, config.restricted_splits)
    return f"{text}: {why}" if why else ""


def _free_border(t: Tables, state: BattleSheepState, neighbourhood: int) -> str:
    cells = np.flatnonzero(placement_cells(t, state.owner, neighbourhood))
    return listing([cell_name(t.size, int(c)) for c in cells])


def player_name(player: int) -> str:
    """``"player 0 (A)"``: the seat and the letter the board shows."""
    return f"player {player} ({PLAYER_LETTERS[player]})"


def listing(items: list[str]) -> str:
    """``"a1, b1, c1"``, cut after :data:`MAX_LISTED` items with ``"and N more"``."""
    if len(items) <= MAX_LISTED:
        return ", ".join(items)
    return ", ".join(items[:MAX_LISTED]) + f" and {len(items) - MAX_LISTED} more"


def _sizes_text(sizes: list[int]) -> str:
    """``"1..5"`` for a run of three or more, else ``"1, 3 or 5"``."""
    if len(sizes) > 2 and sizes == list(range(sizes[0], sizes[-1] + 1)):
        return f"{sizes[0]}..{sizes[-1]}"
    if len(sizes) == 1:
        return str(sizes[0])
    return ", ".join(map(str, sizes[:-1])) + f" or {sizes[-1]}"
