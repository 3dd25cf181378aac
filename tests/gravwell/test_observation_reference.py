"""The generated ``observe`` against a straightforward reference, on thousands of random states.

``observation.observe`` joins ready-made ``float32`` byte pieces in a small function generated per observer
seat (the seat rotation written out as constant indices). The reference below builds the same vector value by
value, the way the code before issue 18 read: for every preset and every player count with and without inert
tractors and No Secrets, every seat of every state of whole random games must get the same bytes, dtype and
shape, in a fresh array; so must every seat's determinized view (what agents see) and the views with blanked
face-down cards that the hidden-information test builds.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest

import boardenvs
from boardenvs.games.gravwell import Gravwell, GravwellState
from boardenvs.games.gravwell.cards import NUM_CARDS
from boardenvs.games.gravwell.state import COMMIT
from boardenvs.games.gravwell.tables import ROUNDS, TURNS
from boardenvs.registry import game_entry

PRESETS: dict[str, dict[str, Any]] = {
    name: game_entry("gravwell").presets[name] for name in boardenvs.list_presets("gravwell")
}
CONFIGS: dict[str, dict[str, Any]] = {
    **{f"preset_{name}": config for name, config in PRESETS.items()},
    **{
        f"{n}p_inert{int(inert)}_open{int(open_)}": {
            "num_players": n, "inert_tractors": inert, "no_secrets": open_, "hardcore": (n + inert) % 2 == 1,
        }
        for n, inert, open_ in itertools.product((2, 3, 4), (False, True), (False, True))
    },
}  # fmt: skip
MIN_STATES = 2000
"""Random states checked per config (whole games, so a few more)."""
DETERMINIZE_EVERY = 7
"""Every seat's determinized view is checked on every 7th state."""


def card_bits(cards: int) -> list[float]:
    """26 entries: 1 for each card in the bitmask ``cards``."""
    return [float(cards >> card & 1) for card in range(NUM_CARDS)]


def one_hot(index: int, size: int) -> list[float]:
    """``size`` entries, 1 at ``index`` (all 0 for -1)."""
    return [float(k == index) for k in range(size)]


def reference_observe(game: Gravwell, state: GravwellState, player: int) -> np.ndarray:
    """The observation of ``player``, field after field in ``observation.field_sizes`` order."""
    n = game.n
    seats = [(player + k) % n for k in range(n)]
    hulks = [tile / 54.0 for tile in state.pos[n:]]
    values = [state.pos[seat] / 54.0 for seat in seats] + hulks + [0.0] * (2 - len(hulks))
    values += card_bits(state.hands[seats[0]])
    for seat in seats[1:]:
        values += card_bits(state.known[seat] & state.hands[seat])
    values += [state.hands[seat].bit_count() / 6.0 for seat in seats]
    for index, (up, down) in enumerate(state.stacks):
        if state.free >> index & 1:
            values += [(up + 1) / NUM_CARDS, (down + 1) / NUM_CARDS if game.config.no_secrets else 0.0]
        else:
            values += [0.0, 0.0]
    values += [float(bool(state.stops[seat])) for seat in seats]
    values += [float(state.phase == COMMIT and state.commits[seat] >= 0) for seat in seats]
    for seat in seats:
        values += one_hot(state.revealed[seat], NUM_CARDS)
    pending = {card for card, _owner in state.queue}
    values += [float(card in pending) for card in range(NUM_CARDS)]
    values += one_hot(min(state.round, ROUNDS - 1), ROUNDS) + one_hot(state.turn, TURNS) + one_hot(state.phase, 3)
    values += [float(state.current_player == seat) for seat in seats]
    return np.array(values, dtype=np.float32)


def blanked(state: GravwellState) -> GravwellState:
    """``state`` with every face-down stack card replaced by -1 (as the hidden-information test does)."""
    twin = state.copy()
    twin.stacks = tuple((up, -1) for up, _down in state.stacks)
    return twin


def random_states(game: Gravwell, seed: int) -> list[GravwellState]:
    """At least ``MIN_STATES`` states of random games, each from its first to its final state, with every
    seat's determinized view of every ``DETERMINIZE_EVERY``-th state and (unless No Secrets shows face-down
    cards) a blanked twin of each of those."""
    rng = np.random.default_rng(seed)
    states: list[GravwellState] = []
    while len(states) < MIN_STATES:
        state = game.initial_state(rng)
        while True:
            states.append(state)
            if len(states) % DETERMINIZE_EVERY == 0:
                states += [game.determinize(state, seat, rng) for seat in range(game.n)]
                states += [] if game.config.no_secrets else [blanked(state)]
            if game.is_terminal(state):
                break
            state = game.apply(state, int(rng.choice(game.legal_actions(state))))
    return states


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_observe_matches_the_reference_on_random_states(name: str) -> None:
    game = Gravwell(**CONFIGS[name])
    shape = game.spec.observation_shape
    for state in random_states(game, seed=sorted(CONFIGS).index(name)):
        for player in range(game.n):
            observation, expected = game.observe(state, player), reference_observe(game, state, player)
            assert observation.dtype == np.float32 and observation.shape == shape == expected.shape
            assert observation.tobytes() == expected.tobytes(), (name, state, player)


def test_observe_returns_a_fresh_writable_array() -> None:
    game = Gravwell()
    state = game.initial_state(np.random.default_rng(0))
    first = game.observe(state, 1)
    first[:] = 7.0
    second = game.observe(state, 1)
    assert second.flags.writeable and not np.shares_memory(first, second)
    assert second.tobytes() == reference_observe(game, state, 1).tobytes()
