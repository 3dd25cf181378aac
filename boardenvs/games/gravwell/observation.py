"""The observation vector of one seat (``observation_kind="vector"``), "me" first (see ``Gravwell``)."""

from __future__ import annotations

import functools
from typing import Any, NamedTuple

import numpy as np

from boardenvs.core import ObservationField
from boardenvs.games.gravwell.cards import NUM_CARDS
from boardenvs.games.gravwell.rules import ROUNDS, TURNS
from boardenvs.games.gravwell.state import COMMIT, GravwellState

BOARD_END = 54.0


def field_sizes(n: int) -> list[tuple[str, int, str]]:
    """``(name, size, description)`` of every observation field for ``n`` players."""
    c = NUM_CARDS
    return [
        ("ships", n, "tile / 54 of each player's ship, me first, then the next seats"),
        ("hulks", 2, "tile / 54 of the hulks (36, then 26; 0 when absent)"),
        ("my_hand", c, "1 for each card in my hand (card index = resolution order)"),
        ("known_cards", (n - 1) * c, "per other seat, the cards everybody knows it holds (drafted face up)"),
        ("hand_sizes", n, "cards in hand / 6, per seat"),
        ("stacks", 3 * n * 2, "per stack: (face-up card + 1) / 26, (face-down card + 1) / 26 if shown; 0 taken"),
        ("emergency_stop", n, "1 if that seat's Emergency Stop is available"),
        ("committed", n, "1 if that seat already committed a card this turn (never which card)"),
        ("revealed", n * c, "per seat, the card it played in the latest reveal"),
        ("pending", c, "cards revealed this turn and not yet resolved"),
        ("round", ROUNDS, "one-hot round"),
        ("turn", TURNS, "one-hot turn within the round"),
        ("phase", 3, "one-hot phase: draft, commit, emergency stop"),
        ("to_move", n, "one-hot seat to move (all zero when the game is over)"),
    ]


def observation_fields(n: int) -> tuple[ObservationField, ...]:
    """The field layout for ``n`` players; all values lie in [0, 1]."""
    fields, start = [], 0
    for name, size, description in field_sizes(n):
        fields.append(ObservationField(name, start, start + size, 0.0, 1.0, description))
        start += size
    return tuple(fields)


class _Chunks(NamedTuple):
    """``float32`` bytes of every value an observation entry can take, so that ``observe`` joins ready-made
    pieces instead of writing entries one by one."""

    tile: tuple[bytes, ...]
    """Per tile 0..54: tile / 54."""
    hand_size: tuple[bytes, ...]
    """Per card count: count / 6."""
    stack_card: tuple[bytes, ...]
    """Per card 0..25: (card + 1) / 26."""
    bits: tuple[bytes, ...]
    """Per 13-bit chunk of a card bitmask: 13 entries, 1 where the bit is set."""
    one_hot_card: tuple[bytes, ...]
    """Per card + 1 (0: no card): 26 entries, 1 at the card."""
    one_hot_6: tuple[bytes, ...]
    """Per index 0..5: 6 entries, 1 at the index."""
    one_hot_3: tuple[bytes, ...]
    """Per phase: 3 entries, 1 at the phase."""


@functools.cache
def _chunks() -> _Chunks:
    def floats(values: Any) -> bytes:
        return np.asarray(values, dtype=np.float32).tobytes()

    eye = np.eye(NUM_CARDS + 1, dtype=np.float32)[:, 1:]
    chunk_bits = (np.arange(8192)[:, None] >> np.arange(13)) & 1
    return _Chunks(
        tuple(floats(tile / BOARD_END) for tile in range(int(BOARD_END) + 1)),
        tuple(floats(count / 6.0) for count in range(NUM_CARDS + 1)),
        tuple(floats((card + 1) / NUM_CARDS) for card in range(NUM_CARDS)),
        tuple(floats(row) for row in chunk_bits),
        tuple(row.tobytes() for row in eye),
        tuple(floats(np.eye(6)[k]) for k in range(6)),
        tuple(floats(np.eye(3)[k]) for k in range(3)),
    )


_ZERO, _ONE = bytes(4), np.float32(1.0).tobytes()


def observe(state: GravwellState, player: int, n: int, open_: bool) -> np.ndarray:
    """The observation of ``player``, its pieces joined in the order of ``field_sizes``; ``open_`` shows
    face-down stack cards (No Secrets)."""
    c = _chunks()
    seats = [(player + k) % n for k in range(n)]
    pos, hands, known, bits = state.pos, state.hands, state.known, c.bits
    parts = [c.tile[pos[seat]] for seat in seats]  # ships
    parts += [c.tile[tile] for tile in pos[n:]] + [_ZERO] * (n + 2 - len(pos))  # hulks
    for k, seat in enumerate(seats):  # my_hand, then known_cards
        cards = hands[seat] if k == 0 else known[seat] & hands[seat]
        parts += (bits[cards & 8191], bits[cards >> 13])
    parts += [c.hand_size[hands[seat].bit_count()] for seat in seats]
    free, no_card = state.free, _ZERO * 2
    for index, (up, down) in enumerate(state.stacks):
        if free >> index & 1:
            parts += (c.stack_card[up], c.stack_card[down] if open_ else _ZERO)
        else:
            parts.append(no_card)
    parts += [_ONE if state.stops[seat] else _ZERO for seat in seats]
    committing, commits = state.phase == COMMIT, state.commits
    parts += [_ONE if committing and commits[seat] >= 0 else _ZERO for seat in seats]
    parts += [c.one_hot_card[state.revealed[seat] + 1] for seat in seats]
    pending = 0
    for card, _owner in state.queue:
        pending |= 1 << card
    parts += (bits[pending & 8191], bits[pending >> 13])
    parts += (c.one_hot_6[min(state.round, ROUNDS - 1)], c.one_hot_6[state.turn], c.one_hot_3[state.phase])
    mover = state.current_player
    parts += [_ONE if mover >= 0 and seat == mover else _ZERO for seat in seats]
    return np.frombuffer(bytearray(b"".join(parts)), dtype=np.float32)
