"""The states of Gravwell's tabular Q-learning (seed 000, §3.4): card play from the nearest opponent ships ahead
and behind (144 states, or 864 with the turn), the Emergency Stop from the turn and the pending move (120)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from boardenvs.games.gravwell import Gravwell
from boardenvs.games.gravwell.movement import SINGULARITY, resolve
from boardenvs.games.gravwell.tables import TURNS

SIGHT = 10
"""The sensation limit: exact distances 1..10 are seen."""
DIRECTION_CODES = SIGHT + 2
"""Per direction: distances 1..10, "beyond sight", "none"."""
STATES_144, STATES_864 = DIRECTION_CODES**2, TURNS * DIRECTION_CODES**2
STOP_STATES = TURNS * 2 * SIGHT
"""Emergency Stop states: turn × direction × distance (120)."""


def _direction_code(distance: int | None) -> int:
    """0..9 for distances 1..10, 10 beyond sight, 11 for no ship on that side."""
    if distance is None:
        return SIGHT + 1
    return distance - 1 if distance <= SIGHT else SIGHT


def nearest_opponents(pos: Sequence[int], player: int, num_players: int) -> tuple[int | None, int | None]:
    """Distances to the nearest opponent ship ahead and behind (``None``: none on that side)."""
    here = pos[player]
    ahead = behind = None
    for other in range(num_players):
        tile = pos[other]
        if other == player or tile in (SINGULARITY, here):
            continue
        gap = abs(tile - here)
        if tile > here:
            ahead = gap if ahead is None else min(ahead, gap)
        else:
            behind = gap if behind is None else min(behind, gap)
    return ahead, behind


def state_144(pos: Sequence[int], player: int, num_players: int) -> int:
    """The 144-state index (0..143) of ``player`` from the ship tiles."""
    ahead, behind = nearest_opponents(pos, player, num_players)
    return _direction_code(ahead) * DIRECTION_CODES + _direction_code(behind)


def state_864(pos: Sequence[int], player: int, num_players: int, turn: int) -> int:
    """The 864-state index (0..863): the turn (0..5) times 144 plus the 144-state index."""
    return turn * STATES_144 + state_144(pos, player, num_players)


def play_state(view: Any, player: int, num_players: int, representation: int) -> int:
    """The card-play state of ``player`` in ``view`` for the chosen representation."""
    if representation == 144:
        return state_144(view.pos, player, num_players)
    return state_864(view.pos, player, num_players, view.turn)


def stop_state(turn: int, movement: int) -> int:
    """The Emergency Stop state (0..119) of a card that would move the own ship by ``movement`` tiles."""
    direction = 0 if movement >= 0 else 1
    distance = min(max(abs(movement), 1), SIGHT)
    return (turn * 2 + direction) * SIGHT + distance - 1


def pending_movement(game: Gravwell, view: Any, player: int) -> int:
    """How far the own card about to resolve would move the own ship (negative: backwards)."""
    card, owner = view.queue[0]
    pos = list(view.pos)
    before = pos[owner]
    resolve(pos, owner, card, game.n, game.config.inert_tractors)
    del player
    return pos[owner] - before
