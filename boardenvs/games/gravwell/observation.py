"""The observation vector of one seat (``observation_kind="vector"``), "me" first (see ``Gravwell``)."""

from __future__ import annotations

import numpy as np

from boardenvs.core import ObservationField
from boardenvs.games.gravwell.cards import NUM_CARDS
from boardenvs.games.gravwell.state import COMMIT, GravwellState

ROUNDS = TURNS = 6
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


def observe(state: GravwellState, player: int, n: int, offsets: dict[str, int], size: int, open_: bool) -> np.ndarray:
    """The observation of ``player``; ``open_`` shows face-down stack cards (No Secrets)."""
    obs = np.zeros(size, dtype=np.float32)
    seats = [(player + k) % n for k in range(n)]
    _board(obs, state, seats, n, offsets)
    _cards(obs, state, seats, offsets)
    for index, up, down in state.open_stacks():
        base = offsets["stacks"] + 2 * index
        obs[base] = (up + 1) / NUM_CARDS
        obs[base + 1] = (down + 1) / NUM_CARDS if open_ else 0.0
    obs[offsets["round"] + min(state.round, ROUNDS - 1)] = 1.0
    obs[offsets["turn"] + state.turn] = 1.0
    obs[offsets["phase"] + state.phase] = 1.0
    if state.current_player >= 0:
        obs[offsets["to_move"] + seats.index(state.current_player)] = 1.0
    return obs


def _board(obs: np.ndarray, state: GravwellState, seats: list[int], n: int, offsets: dict[str, int]) -> None:
    for k, seat in enumerate(seats):
        obs[offsets["ships"] + k] = state.pos[seat] / BOARD_END
        obs[offsets["hand_sizes"] + k] = state.hands[seat].bit_count() / 6.0
        obs[offsets["emergency_stop"] + k] = float(state.stops[seat])
        obs[offsets["committed"] + k] = float(state.phase == COMMIT and state.commits[seat] >= 0)
        if state.revealed[seat] >= 0:
            obs[offsets["revealed"] + k * NUM_CARDS + state.revealed[seat]] = 1.0
    for k, tile in enumerate(state.pos[n:]):
        obs[offsets["hulks"] + k] = tile / BOARD_END


def _cards(obs: np.ndarray, state: GravwellState, seats: list[int], offsets: dict[str, int]) -> None:
    _bits(obs, offsets["my_hand"], state.hands[seats[0]])
    for k, seat in enumerate(seats[1:]):
        _bits(obs, offsets["known_cards"] + k * NUM_CARDS, state.known[seat] & state.hands[seat])
    for card, _owner in state.queue:
        obs[offsets["pending"] + card] = 1.0


def _bits(obs: np.ndarray, start: int, bits: int) -> None:
    card = 0
    while bits:
        if bits & 1:
            obs[start + card] = 1.0
        bits >>= 1
        card += 1
