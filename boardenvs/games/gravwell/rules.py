"""Ship movement of Gravwell, as the Gravitas engine resolves one card (RULES.md §1.5), on a plain list.

``pos`` lists the tile (0..54) of every ship: the players' ships first, then the hulks. Tile 0 (the
Singularity) holds any number of ships and is ignored when looking for the nearest ship; every other
tile holds at most one ship. A ship reaching tile 54 (the Warp Gate) escapes.
"""

from __future__ import annotations

from boardenvs.games.gravwell.cards import NORMAL, TRACTOR, TYPES, VALUES

SINGULARITY, WARP_GATE = 0, 54
"""The first and the last tile."""
_FAR = 100
"""Distance sentinel for "no ship on this side" (the engine's value)."""

Move = tuple[int, int, int]
"""``(ship, from_tile, to_tile)`` of one ship moved by a card."""


def heading(pos: list[int], ship: int) -> int:
    """+1 if ``ship``'s nearest ship is ahead, -1 if behind, 0 if it is stuck.

    Ships on tile 0 are ignored. On equal distances the side with more (non-Singularity) ships wins;
    equal counts too (or no ship at all) mean the ship is stuck.
    """
    here = pos[ship]
    ahead = behind = _FAR
    num_ahead = num_behind = 0
    for other, tile in enumerate(pos):
        if other == ship or tile == SINGULARITY:
            continue
        if tile > here:
            num_ahead += 1
            ahead = min(ahead, tile - here)
        else:
            num_behind += 1
            behind = min(behind, here - tile)
    if ahead != behind:
        return 1 if ahead < behind else -1
    if num_ahead != num_behind:
        return 1 if num_ahead > num_behind else -1
    return 0


def slide(pos: list[int], ship: int, delta: int) -> int:
    """Move ``ship`` by ``delta`` tiles (clamped to 0..54), then on past occupied tiles; returns its tile.

    Only the landing tile matters (ships jump over others); tiles 0 and 54 never block.
    """
    step = 1 if delta > 0 else -1
    tile = min(WARP_GATE, max(SINGULARITY, pos[ship] + delta))
    while SINGULARITY < tile < WARP_GATE and _occupied(pos, ship, tile):
        tile += step
    pos[ship] = tile
    return tile


def _occupied(pos: list[int], ship: int, tile: int) -> bool:
    return any(other_tile == tile and other != ship for other, other_tile in enumerate(pos))


def is_stuck_for(pos: list[int], owner: int, card: int) -> bool:
    """True if ``card`` played by ``owner`` does nothing because the owner is stuck (never for tractors)."""
    return TYPES[card] != TRACTOR and heading(pos, owner) == 0


def resolve(pos: list[int], owner: int, card: int, num_players: int, inert_tractors: bool) -> list[Move]:
    """Apply ``card`` of ``owner`` to ``pos`` (mutated); returns the moves, stopping at an escape.

    Normal cards move the owner towards its nearest ship, repulsors away from it; tractors pull every
    other ship off the Singularity towards the owner, nearest first (ties: the ship behind first).
    """
    if TYPES[card] == TRACTOR:
        return [] if inert_tractors else _pull(pos, owner, VALUES[card], num_players)
    direction = heading(pos, owner)
    if direction == 0:
        return []
    if TYPES[card] != NORMAL:
        direction = -direction
    start = pos[owner]
    return [(owner, start, slide(pos, owner, direction * VALUES[card]))]


def _pull(pos: list[int], owner: int, value: int, num_players: int) -> list[Move]:
    here = pos[owner]
    order = sorted(
        (ship for ship in range(len(pos)) if ship != owner and pos[ship] != SINGULARITY),
        key=lambda ship: (abs(pos[ship] - here), pos[ship] > here),
    )
    moves = []
    for ship in order:
        start = pos[ship]
        step = 1 if here > start else -1
        moves.append((ship, start, slide(pos, ship, step * value)))
        if pos[ship] == WARP_GATE and ship < num_players:
            break
    return moves


def escaped(pos: list[int], moves: list[Move], num_players: int) -> int:
    """The player whose ship reached the Warp Gate in ``moves``, or -1."""
    for ship, _, tile in moves:
        if tile == WARP_GATE and ship < num_players:
            return ship
    return -1
