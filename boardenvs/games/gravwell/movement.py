"""Ship movement of Gravwell, as the Gravitas engine resolves one card (docs/rules/rules.md §1.5), on a plain list.

:func:`resolve` is the one place where a card moves ships: the game (``transitions``), the agents and the tests
all call it. ``pos`` lists the tile (0..54) of every ship: the players' ships first, then the hulks. Tile 0
(the Singularity) holds any number of ships and is ignored when looking for the nearest ship; every other
tile holds at most one ship (tile 54 too, except hulks pulled onto it). A ship reaching tile 54 (the Warp
Gate) escapes.
"""

from __future__ import annotations

from boardenvs.games.gravwell.cards import NORMAL, REPULSOR, TYPES, VALUES

SINGULARITY, WARP_GATE = 0, 54
"""The first and the last tile."""
_FAR = 100
"""Distance sentinel for "no ship on this side" (the engine's value)."""
SIGNED_VALUES: tuple[int, ...] = tuple(
    value if kind == NORMAL else -value if kind == REPULSOR else 0 for kind, value in zip(TYPES, VALUES)
)
"""Per card: tiles moved towards the nearest ship (negative: away from it; 0 for tractors)."""

_SHIP_BITS, _SHIP_MASK = 3, 7
"""``_pull`` packs a ship index (at most 4 players + 2 hulks) in the low bits of its sort key."""

MoveEvent = tuple[str, int, int, int, int]
"""``("move", owner, card, ship, tile)``: ``card`` of ``owner`` moved ``ship`` to ``tile`` (the game's "move"
event, without its ply)."""


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


def resolve(
    pos: list[int],
    owner: int,
    card: int,
    num_players: int,
    inert_tractors: bool,
    direction: int | None = None,
    moves: list[MoveEvent] | None = None,
) -> int:
    """Apply ``card`` of ``owner`` to ``pos`` (mutated); returns the player whose ship reached the Warp Gate
    (the card stops there), or -1.

    Normal cards move the owner towards its nearest ship, repulsors away from it (nothing if the owner is
    stuck); tractors pull every other ship towards the owner, nearest first (ties: the
    ship behind first), unless ``inert_tractors``. ``direction`` is ``heading(pos, owner)`` when the caller
    already knows it (tractors ignore it). ``moves``, if given, receives a :data:`MoveEvent` per ship moved,
    in order: the game records exactly these as its "move" events.
    """
    signed = SIGNED_VALUES[card]
    if signed:
        if direction is None:
            direction = heading(pos, owner)
        if not direction:
            return -1
        tile = slide(pos, owner, direction * signed)
        if moves is not None:
            moves.append(("move", owner, card, owner, tile))
        return owner if tile == WARP_GATE else -1
    return -1 if inert_tractors else _pull(pos, owner, card, num_players, moves)


def _pull(pos: list[int], owner: int, card: int, num_players: int, moves: list[MoveEvent] | None) -> int:
    """The tractor ``card`` played by ``owner``: pull every other ship (those in the Singularity, tile 0,
    included: the seed's rule) ``VALUES[card]`` tiles towards the owner, nearest first (ties: the ship behind
    first), stopping when a player's ship escapes (returns it; -1 if none does)."""
    here, value = pos[owner], VALUES[card]
    order = []  # per ship to pull: (distance, is ahead, ship) packed in one int, so a plain sort orders them
    for ship, tile in enumerate(pos):
        if ship != owner and tile != here:  # the Singularity's ships too; one on the owner's tile has no way to go
            rank = (tile - here) * 2 + 1 if tile > here else (here - tile) * 2  # by distance, behind first
            order.append(rank << _SHIP_BITS | ship)
    order.sort()
    for key in order:
        ship = key & _SHIP_MASK
        tile = slide(pos, ship, value if here > pos[ship] else -value)
        if moves is not None:
            moves.append(("move", owner, card, ship, tile))
        if tile == WARP_GATE and ship < num_players:
            return ship
    return -1
