"""Gravwell's fixed sizes and the lookup tables built once per config (no rule decisions here).

:class:`Tables` is what the transitions read of a configured game; :class:`ActionTables` holds, per phase, the first
action id of the phase's range and the bytes from which a legal-action mask or id array is assembled for any set of
allowed indices of that range (the sets themselves come from the rules in ``legality``).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from boardenvs.games.gravwell.cards import NUM_CARDS
from boardenvs.games.gravwell.config import GravwellConfig
from boardenvs.games.gravwell.state import COMMIT, DRAFT, STOP

ROUNDS = TURNS = 6
"""A game lasts 6 rounds of 6 turns (each turn: every player commits one card, then they resolve)."""
HULKS_2P, HULKS_MORE = (36,), (36, 26)
"""The hulks' tiles: one hulk with 2 players, two with more."""
RawEvent = tuple[str, int, int, int, int]
"""``(kind, player, card, detail, tile)``: a ``GravwellEvent`` without its ply (that of the action)."""
CHUNK_BITS = 13
"""Masks and id arrays are assembled from two chunks of allowed indices: bits ``0..12`` and the bits above."""
CHUNK = (1 << CHUNK_BITS) - 1
_BYTES_13: tuple[bytes, ...] = tuple(bytes(bits >> k & 1 for k in range(CHUNK_BITS)) for bits in range(1 << CHUNK_BITS))
"""Per 13-bit chunk, its bits as 0/1 bytes (low bit first)."""


@dataclass(frozen=True, slots=True)
class Tables:
    """What the transitions read of one configured game (immutable; built by :func:`make_tables`).

    A frozen dataclass with slots: Python reads slots as fast as plain attributes (a NamedTuple's fields
    are slower to read, and the transitions read these on every move)."""

    n: int
    """Number of players."""
    num_stacks: int
    """Draft stacks per round (``3n``)."""
    hardcore: bool
    """One Emergency Stop for the whole game (not reset each round)."""
    inert_tractors: bool
    """Tractor cards move nothing (the Gravitas engine bug)."""
    hulks: tuple[int, ...]
    """Starting tiles of the hulks."""
    known_mask: tuple[tuple[int, ...], ...]
    """Per drafted stack ``[face_up][face_down]``: the bits of the cards everybody learns."""
    draft_events: tuple[tuple[tuple[tuple[RawEvent, ...], ...], ...], ...]
    """Per ``[player][stack][face_up]``: the events of that draft (shared constants)."""


def make_tables(config: GravwellConfig) -> Tables:
    """The :class:`Tables` of ``config``."""
    n = config.num_players
    bits = tuple(1 << card for card in range(NUM_CARDS))
    known_mask = tuple(
        tuple(bits[up] | (bits[down] if config.no_secrets else 0) for down in range(NUM_CARDS))
        for up in range(NUM_CARDS)
    )
    draft_events = tuple(
        tuple(tuple((("draft", p, up, stack, -1),) for up in range(NUM_CARDS)) for stack in range(3 * n))
        for p in range(n)
    )
    hulks = HULKS_2P if n == 2 else HULKS_MORE
    return Tables(n, 3 * n, config.hardcore, config.inert_tractors, hulks, known_mask, draft_events)


class ActionTables(NamedTuple):
    """The action ranges of an ``n``-player game and their masks and id arrays (all read-only), for any set of
    allowed indices of a range, given as a bitset ``bits`` (bit ``k``: action ``first[phase] + k``).

    The draft and the Emergency Stop ranges are small (at most 12 and 2 ids): their masks and ids are stored per
    bitset, ``by_bits_masks[phase][bits]`` and ``by_bits_ids[phase][bits]``. A hand of the commit phase has 26 bits:
    its mask is ``hand_mask_low[bits & CHUNK] + hand_mask_high[bits >> CHUNK_BITS]`` read as ``bool``, its ids
    ``hand_ids_low[...] + hand_ids_high[...]`` read as ``int64``.
    """

    n: int
    """Number of players."""
    num_actions: int
    first: tuple[int, int, int]
    """The first action id of each phase's range: ``0`` (stacks), ``3n`` (cards), ``3n + 26`` ("stop", "go")."""
    by_bits_masks: tuple[tuple[np.ndarray, ...], ...]
    by_bits_ids: tuple[tuple[np.ndarray, ...], ...]
    hand_mask_low: tuple[bytes, ...]
    hand_mask_high: tuple[bytes, ...]
    hand_ids_low: tuple[bytes, ...]
    hand_ids_high: tuple[bytes, ...]
    no_mask: np.ndarray
    """The mask of a finished game."""
    no_actions: np.ndarray
    """The legal ids of a finished game."""


@functools.cache
def action_tables(n: int) -> ActionTables:
    """The (cached) :class:`ActionTables` of an ``n``-player game."""
    num_stacks, num_actions = 3 * n, 3 * n + NUM_CARDS + 2
    first = [0, 0, 0]
    first[DRAFT], first[COMMIT], first[STOP] = 0, num_stacks, num_stacks + NUM_CARDS
    by_bits_masks: list[tuple[np.ndarray, ...]] = [(), (), ()]
    by_bits_ids: list[tuple[np.ndarray, ...]] = [(), (), ()]
    for phase, size in ((DRAFT, num_stacks), (STOP, 2)):
        by_bits_masks[phase] = tuple(_bits_to_mask(bits << first[phase], num_actions) for bits in range(1 << size))
        by_bits_ids[phase] = tuple(
            _read_only(np.frombuffer(_ids_bytes(bits, first[phase]), np.int64)) for bits in range(1 << size)
        )
    before, after = bytes(first[COMMIT]), bytes(2)
    return ActionTables(
        n, num_actions, (first[0], first[1], first[2]), tuple(by_bits_masks), tuple(by_bits_ids),
        tuple(before + chunk for chunk in _BYTES_13), tuple(chunk + after for chunk in _BYTES_13),
        tuple(_ids_bytes(bits, first[COMMIT]) for bits in range(1 << CHUNK_BITS)),
        tuple(_ids_bytes(bits, first[COMMIT] + CHUNK_BITS) for bits in range(1 << CHUNK_BITS)),
        _bits_to_mask(0, num_actions), _read_only(np.zeros(0, dtype=np.int64)),
    )  # fmt: skip


def _read_only(array: np.ndarray) -> np.ndarray:
    array.flags.writeable = False
    return array


def _bits_to_mask(bits: int, size: int) -> np.ndarray:
    """The read-only ``bool[size]`` mask whose true entries are the set bits of ``bits`` (action ids)."""
    chunks = b"".join(_BYTES_13[bits >> shift & CHUNK] for shift in range(0, size, CHUNK_BITS))
    return np.frombuffer(chunks[:size], dtype=np.bool_)


def _ids_bytes(bits: int, first: int) -> bytes:
    """The ``int64`` bytes of ``first + k`` for every set bit ``k`` of ``bits``."""
    return np.array([first + k for k in range(bits.bit_length()) if bits >> k & 1], dtype=np.int64).tobytes()
