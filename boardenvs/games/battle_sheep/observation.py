"""The observation planes of Battle Sheep, from the observer's point of view.

Every plane's value on a cell depends only on that cell's owner and stack size, on who observes, on whether it
is the placement phase and on whether the observer is to move. So :func:`observe` does not build the planes one
comparison at a time: it numbers each cell's ``(owner, count)`` pair and reads the cell's whole column of planes
from a per-variant table with a single ``take`` (about 6x faster on the basic game's mid-game states, where the
plane-by-plane build cost more than the engine's move; tests/battle_sheep/test_observation_reference.py keeps
that build as the reference and checks every value against it).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from boardenvs.core import ObservationField
from boardenvs.games.battle_sheep.config import MAX_PLAYERS
from boardenvs.games.battle_sheep.state import FREE, NONFIELD, BattleSheepState

OWNER_BLOCKS: tuple[int, ...] = (*range(FREE, MAX_PLAYERS + 1), NONFIELD)
"""The ``owner`` value of each block of table columns: free, players 1..4, then not field. Listing ``NONFIELD``
(-1) last makes ``offsets[owner]`` (:class:`ObservationTables`) find its block by numpy's negative indexing."""


def observation_fields(num_players: int) -> tuple[ObservationField, ...]:
    """The named planes of ``float32[2p + 5, n, n]``."""
    p = num_players
    return (
        ObservationField("owners", 0, p, 0.0, 1.0, "1 on cells owned by each player, observer first, then turn order"),
        ObservationField("stacks", p, 2 * p, 0.0, 1.0, "stack size / sheep_per_player, same order; 0 where hidden"),
        ObservationField("count_known", 2 * p, 2 * p + 1, 0.0, 1.0, "1 on occupied cells whose count is visible"),
        ObservationField("field", 2 * p + 1, 2 * p + 2, 0.0, 1.0, "1 on playing-field cells"),
        ObservationField("free", 2 * p + 2, 2 * p + 3, 0.0, 1.0, "1 on free playing-field cells"),
        ObservationField("placement_phase", 2 * p + 3, 2 * p + 4, 0.0, 1.0, "constant 1 during the placement phase"),
        ObservationField("my_turn", 2 * p + 4, 2 * p + 5, 0.0, 1.0, "constant 1 when the observer is to move"),
    )


@dataclass(frozen=True)
class ObservationTables:
    """What one variant's cells look like to each observer, for :func:`observe` (read-only arrays).

    A cell with owner ``o`` and stack size ``c`` (``0 <= c <= sheep_per_player = S``) has the code
    ``offsets[o] + c``: block ``OWNER_BLOCKS.index(o)`` of ``S + 1`` consecutive codes, one per count.

    Attributes:
        offsets: ``int16[len(OWNER_BLOCKS)]``: the first code of each owner's block, indexed by the owner value
            (``NONFIELD`` reads the last entry).
        columns: ``columns[player, placing, my_turn]``: ``float32[2p + 5, codes]``, the planes seen by
            ``player`` on a cell of each code, in the placement phase or not, with ``player`` to move or not.
    """

    offsets: np.ndarray
    columns: dict[tuple[int, bool, bool], np.ndarray]


@cache
def observation_tables(num_players: int, sheep: int, hidden: bool) -> ObservationTables:
    """The (cached) :class:`ObservationTables` of a variant with ``num_players`` players of ``sheep`` sheep."""
    offsets = np.arange(len(OWNER_BLOCKS), dtype=np.int16) * (sheep + 1)
    owner = np.repeat(np.array(OWNER_BLOCKS), sheep + 1)  # the owner and count of each code
    counts = np.tile(np.arange(sheep + 1), len(OWNER_BLOCKS))
    columns = {}
    for player in range(num_players):
        for placing in (False, True):
            for my_turn in (False, True):
                table = _planes(owner, counts, player, num_players, sheep, hidden, placing, my_turn)
                table.setflags(write=False)
                columns[player, placing, my_turn] = table
    offsets.setflags(write=False)
    return ObservationTables(offsets, columns)


def _planes(
    owner: np.ndarray,
    counts: np.ndarray,
    player: int,
    num_players: int,
    sheep: int,
    hidden: bool,
    placing: bool,
    my_turn: bool,
) -> np.ndarray:
    """``float32[2p + 5, cells]``: the planes seen by ``player`` on cells with these owners and stack sizes,
    built plane by plane (``observation_fields`` order; other players' stack sizes are zero when ``hidden``)."""
    p = num_players
    planes = np.zeros((2 * p + 5, owner.size), dtype=np.float32)
    for slot in range(p):
        seat = (player + slot) % p
        planes[slot] = owner == seat + 1
        if slot == 0 or not hidden:
            planes[p + slot] = np.where(owner == seat + 1, counts, 0) / sheep
    planes[2 * p] = (owner == player + 1) if hidden else (owner > 0)
    planes[2 * p + 1] = owner != NONFIELD
    planes[2 * p + 2] = owner == FREE
    planes[2 * p + 3] = placing
    planes[2 * p + 4] = my_turn
    return planes


def observe(state: BattleSheepState, player: int, num_players: int, size: int, sheep: int, hidden: bool) -> np.ndarray:
    """The planes seen by ``player`` (0..p-1), a fresh array; other players' stack sizes are zero when ``hidden``.

    Reads each cell's column of :func:`_planes` from :func:`observation_tables` by the cell's code (two small
    integer operations and one ``take``, whatever the number of planes). Stack sizes must lie in ``0..sheep``, as
    in every state the game builds. ``ValueError`` for a ``player`` outside the game.
    """
    cells, tables = size * size, observation_tables(num_players, sheep, hidden)
    code = tables.offsets.take(state.owner[:cells])
    code += state.counts[:cells]
    placing = state.placed < num_players and state.current_player >= 0
    try:
        columns = tables.columns[player, placing, state.current_player == player]
    except KeyError:
        raise ValueError(f"player must be 0..{num_players - 1}, got {player!r}") from None
    planes = columns.take(code, 1)
    return planes.reshape(2 * num_players + 5, size, size)
