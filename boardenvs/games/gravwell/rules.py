"""Ship movement of Gravwell, as the Gravitas engine resolves one card (RULES.md §1.5), on a plain list.

``pos`` lists the tile (0..54) of every ship: the players' ships first, then the hulks. Tile 0 (the
Singularity) holds any number of ships and is ignored when looking for the nearest ship; every other
tile holds at most one ship (tile 54 too, except hulks pulled onto it). A ship reaching tile 54 (the Warp
Gate) escapes.
"""

from __future__ import annotations

from boardenvs.games.gravwell.cards import NORMAL, REPULSOR, TRACTOR, TYPES, VALUES

SINGULARITY, WARP_GATE = 0, 54
"""The first and the last tile."""
_FAR = 100
"""Distance sentinel for "no ship on this side" (the engine's value)."""
SIGNED_VALUES: tuple[int, ...] = tuple(
    value if kind == NORMAL else -value if kind == REPULSOR else 0 for kind, value in zip(TYPES, VALUES)
)
"""Per card: tiles moved towards the nearest ship (negative: away from it; 0 for tractors)."""

_SHIP_BITS, _SHIP_MASK = 3, 7
"""``pull`` packs a ship index (at most 4 players + 2 hulks) in the low bits of its sort key."""

Move = tuple[int, int, int]
"""``(ship, from_tile, to_tile)`` of one ship moved by a card."""


def heading(pos: list[int], ship: int) -> int:
    """+1 if ``ship``'s nearest ship is ahead, -1 if behind, 0 if it is stuck.

    Ships on tile 0 are ignored. On equal distances the side with more (non-Singularity) ships wins;
    equal counts too (or no ship at all) mean the ship is stuck. Another ship on the same tile counts as
    behind, at distance 0.
    """
    here = pos[ship]
    above, below = WARP_GATE + 1, 0  # the nearest occupied tiles ahead and behind (0: none behind)
    num_ahead = num_behind = same = 0  # same: ships on ``here`` (itself included), off the Singularity
    for tile in pos:
        if tile > here:
            num_ahead += 1
            if tile < above:
                above = tile
        elif tile < here:
            if tile:
                num_behind += 1
                if tile > below:
                    below = tile
        elif tile:
            same += 1
    ahead = above - here if num_ahead else _FAR
    if same > 1:
        num_behind += same - 1
        behind = 0
    else:
        behind = here - below if num_behind else _FAR
    if ahead != behind:
        return 1 if ahead < behind else -1
    if num_ahead != num_behind:
        return 1 if num_ahead > num_behind else -1
    return 0


def slide(pos: list[int], ship: int, delta: int) -> int:
    """Move ``ship`` by ``delta`` (non-zero) tiles, clamped to 0..54, then on past occupied tiles; returns its tile.

    Only the landing tile matters (ships jump over others); tiles 0 and 54 never block. The ship never
    meets its own start tile again: it moves away from it.
    """
    tile = pos[ship] + delta
    if tile >= WARP_GATE:
        tile = WARP_GATE
    elif tile <= SINGULARITY:
        tile = SINGULARITY
    else:
        step = 1 if delta > 0 else -1
        while SINGULARITY < tile < WARP_GATE and tile in pos:
            tile += step
    pos[ship] = tile
    return tile


def is_stuck_for(pos: list[int], owner: int, card: int) -> bool:
    """True if ``card`` played by ``owner`` does nothing because the owner is stuck (never for tractors)."""
    return TYPES[card] != TRACTOR and heading(pos, owner) == 0


def resolve(
    pos: list[int], owner: int, card: int, num_players: int, inert_tractors: bool, direction: int | None = None
) -> list[Move]:
    """Apply ``card`` of ``owner`` to ``pos`` (mutated); returns the moves, stopping at an escape.

    Normal cards move the owner towards its nearest ship, repulsors away from it; tractors pull every
    other ship off the Singularity towards the owner, nearest first (ties: the ship behind first).
    ``direction`` is ``heading(pos, owner)`` when the caller already knows it.
    """
    signed = SIGNED_VALUES[card]
    if not signed:
        return [] if inert_tractors else pull(pos, owner, VALUES[card], num_players)
    if direction is None:
        direction = heading(pos, owner)
    if direction == 0:
        return []
    start = pos[owner]
    return [(owner, start, slide(pos, owner, direction * signed))]


def pull(pos: list[int], owner: int, value: int, num_players: int) -> list[Move]:
    """A tractor of ``value`` played by ``owner``: pull every other ship off the Singularity ``value`` tiles
    towards the owner, nearest first (ties: the ship behind first), stopping when a player's ship escapes."""
    here = pos[owner]
    order = []  # per ship to pull: (distance, is ahead, ship) packed in one int, so a plain sort orders them
    for ship, tile in enumerate(pos):
        if tile and ship != owner:
            rank = (tile - here) * 2 + 1 if tile > here else (here - tile) * 2  # by distance, behind first
            order.append(rank << _SHIP_BITS | ship)
    order.sort()
    moves = []
    for key in order:
        ship = key & _SHIP_MASK
        start = pos[ship]
        tile = slide(pos, ship, value if here > start else -value)
        moves.append((ship, start, tile))
        if tile == WARP_GATE and ship < num_players:
            break
    return moves


def escaped(pos: list[int], moves: list[Move], num_players: int) -> int:
    """The player whose ship reached the Warp Gate in ``moves``, or -1."""
    for ship, _, tile in moves:
        if tile == WARP_GATE and ship < num_players:
            return ship
    return -1
