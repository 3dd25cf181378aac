"""What a legal Battle Sheep action does: the setup of a new game (a random field), a placement or a split and
slide, and who acts next (docs/rules/rules.md §4).

:func:`play` is the game's ``_apply`` (legality is ``legality``'s and ``Game.apply``'s job). The per-move work loops
over a few cells in Python with the tables of ``tables.py``, reading ``owner`` through memoryviews (see
``legality``).
"""

from __future__ import annotations

from bisect import insort

import numpy as np

from boardenvs.core import TERMINAL
from boardenvs.games.battle_sheep.config import MAX_PLAYERS, BattleSheepConfig
from boardenvs.games.battle_sheep.legality import Board, can_move, placement_cells
from boardenvs.games.battle_sheep.notation import split_of
from boardenvs.games.battle_sheep.state import FREE, NONFIELD, BattleSheepState
from boardenvs.games.battle_sheep.tables import SplitTables, Tables


def generate_field(t: Tables, field_size: int, rng: np.random.Generator) -> np.ndarray:
    """``int8[cells + 1]`` owner array of a random 4-connected field of exactly ``field_size`` cells.

    Grows a polyomino from a random seed cell (docs/rules/rules.md S1): each step adds a uniformly drawn cell of
    the frontier (the free 4-neighbours of the field, in the order they were first reached) to the field and
    appends its new 4-neighbours to the frontier. One ``rng.integers`` draw per cell, so a seed always gives
    the same field.
    """
    start = int(rng.integers(t.cells))
    field = [start]
    frontier = list(t.orthogonal_cells[start])
    reached = {start, *frontier}  # the field and the frontier: cells never added to the frontier again
    for _ in range(field_size - 1):
        cell = frontier.pop(int(rng.integers(len(frontier))))
        field.append(cell)
        for nxt in t.orthogonal_cells[cell]:
            if nxt not in reached:
                reached.add(nxt)
                frontier.append(nxt)
    owner = np.full(t.cells + 1, NONFIELD, dtype=np.int8)
    owner[field] = FREE
    return owner


def new_game(t: Tables, s: SplitTables, config: BattleSheepConfig, rng: np.random.Generator) -> BattleSheepState:
    """A new random field, nobody placed yet, player 0 (or the first who can place) to move."""
    owner = generate_field(t, config.field_size, rng)
    counts = np.zeros(t.cells + 1, dtype=np.int16)
    state = BattleSheepState(owner, counts, 0, 0, stacks=((),) * MAX_PLAYERS)
    state.current_player = next_player(t, s, config, state, config.num_players - 1)
    return state


def play(
    t: Tables, s: SplitTables, config: BattleSheepConfig, state: BattleSheepState, action: int
) -> BattleSheepState:
    """Place the starting stack, or split a stack and slide the group; then the next player who can act."""
    player, placed = state.current_player, state.placed
    owner, counts = state.owner.copy(), state.counts.copy()
    if action < t.cells:
        cell, group, placed = action, config.sheep_per_player, placed + 1
    else:
        source, direction, group = split_of(t.cells, config.sheep_per_player - 1, action)
        cell = slide_end(t, memoryview(owner), source, direction)
        counts[source] -= group
    owner[cell], counts[cell] = player + 1, group
    new = BattleSheepState(owner, counts, placed, player, state.ply + 1, with_stack(state.stacks, player, cell))
    new.current_player = next_player(t, s, config, new, player)
    return new


def slide_end(t: Tables, owner: Board, cell: int, direction: int) -> int:
    """The last free cell along the ray (the group slides until blocked), or -1 if the first is not free."""
    end = -1
    for nxt in t.rays[cell][direction]:
        if owner[nxt] != FREE:
            break
        end = nxt
    return end


def with_stack(stacks: tuple[tuple[int, ...], ...], player: int, cell: int) -> tuple[tuple[int, ...], ...]:
    """``stacks`` (``BattleSheepState.stacks``) after ``player`` takes ``cell``, its cells kept ascending."""
    mine = list(stacks[player])
    insort(mine, cell)
    return (*stacks[:player], tuple(mine), *stacks[player + 1 :])


def next_player(t: Tables, s: SplitTables, config: BattleSheepConfig, state: BattleSheepState, after: int) -> int:
    """Who acts after ``after``: the next placer (skipping players without a placement cell), else the next
    player in turn order with a split (skipping blocked players), else ``TERMINAL``. Updates ``state.placed``
    when placers are skipped."""
    num_players = config.num_players
    while state.placed < num_players:
        if placement_cells(t, state.owner, config.border_neighbourhood).any():
            return state.placed
        state.placed += 1
    owner, counts = memoryview(state.owner), memoryview(state.counts)
    for offset in range(1, num_players + 1):
        player = (after + offset) % num_players
        if can_move(t, s, owner, counts, state.stacks[player]):
            return player
    return TERMINAL
