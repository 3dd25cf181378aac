"""The table-driven ``observe`` against a straightforward reference, on thousands of random states.

``observation.observe`` fills one preallocated vector by gathering rows of per-config tables (players in the
observer's order, 14 features per card, a face-down row per card for other players' hidden reserves). The
reference below builds the same vector value by value, the way the code before issue 18 did it: for every
preset and a few odd configs (no reserves, no nobles, two face-up cards, a 300-card deck), every seat of every
state of whole random games must get the same bytes, dtype and shape, in a fresh array.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

import boardenvs
from boardenvs.games.splendor import PRESETS, Splendor, SplendorState
from boardenvs.games.splendor.legality import paying_card
from boardenvs.games.splendor.state import PAY
from tests.playouts import random_game_positions
from tests.splendor.helpers import write_random_cards

CONFIGS: dict[str, dict[str, Any]] = {
    **{name: PRESETS[name] for name in boardenvs.list_presets("splendor")},
    "no_reserves_no_nobles": {"num_players": 3, "max_reserved": 0, "nobles": 0},
    "odd": {"num_players": 4, "face_up": 2, "max_reserved": 5, "gold": 9, "nobles": 2, "tokens_per_colour": 3},
    "rinascimento_odd": {"num_players": 3, "rinascimento": True, "max_reserved": 1, "face_up": 5, "gold": 0},
}  # fmt: skip
MIN_STATES = 2000
"""Random states checked per config (whole games, so a few more)."""


def reference_card(game: Splendor, card: int, face_down: bool = False) -> list[float]:
    """The 14 features of ``card`` (zeros for an empty slot; present, face_down and level when face down)."""
    cards = game.tables.cards
    if card < 0:
        return [0.0] * 14
    if face_down:
        return [1.0, 1.0, float(cards.level[card])] + [0.0] * 11
    bonus = [0.0] * 5
    bonus[int(cards.bonus[card])] = 1.0
    return [1.0, 0.0, float(cards.level[card]), float(cards.points[card]), *bonus, *cards.cost[card].tolist()]


def reference_observe(game: Splendor, state: SplendorState, player: int) -> np.ndarray:
    """The observation of ``player``, field after field in ``spec.observation_fields`` order."""
    config, cards = game.config, game.tables.cards
    n = config.num_players
    seats = [(player + i) % n for i in range(n)]
    values: list[float] = [*state.supply.tolist()]
    for columns in (range(0, 6), range(6, 11), [11], [12], [13]):  # tokens, bonuses, points, bought, nobles
        values += [state.players[seat, column] for seat in seats for column in columns]
    values += [sum(card >= 0 for card in state.reserved[seat]) for seat in seats]
    for card in state.face_up.ravel():
        values += reference_card(game, card)
    for noble in state.nobles:
        values += [1.0, *cards.noble_req[noble].tolist()] if noble >= 0 else [0.0] * 6
    for position, seat in enumerate(seats):
        for card, hidden in zip(state.reserved[seat], state.hidden[seat]):
            values += reference_card(game, card, face_down=bool(hidden) and position > 0)
    values += [len(ids) - state.top[level] for level, ids in enumerate(cards.by_level)]
    values += [float(state.phase == phase) for phase in range(4)]
    values += reference_card(game, paying_card(config, state) if state.phase == PAY else -1)
    values += list(state.gold_plan)
    values += [float((player - state.first_player) % n == position) for position in range(n)]
    values += [float(state.end_triggered)]
    return np.array(values, dtype=np.float32)


def check_observations(game: Splendor, seed: int) -> list[SplendorState]:
    """Compare every seat's observation of every random state with the reference; return the states."""
    size = game.spec.observation_shape[0]
    states = random_game_positions(game, np.random.default_rng(seed), min_positions=MIN_STATES)
    for state in states:
        for player in range(game.config.num_players):
            seen, expected = game.observe(state, player), reference_observe(game, state, player)
            assert seen.dtype == np.float32 and seen.shape == (size,) == expected.shape
            assert seen.tobytes() == expected.tobytes(), (state, player)
    return states


def others_face_down(state: SplendorState) -> bool:
    """Some reserve is face down (so all other players see it as a face-down card)."""
    return bool(state.hidden.any())


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_observe_equals_the_straightforward_one(name: str) -> None:
    game = Splendor(**CONFIGS[name])
    states = check_observations(game, seed=len(name))
    if game.config.max_reserved:
        assert sum(map(others_face_down, states)) > 100
        if not game.config.rinascimento:  # gold comes with reserves; official rules may ask how to pay it
            assert any(state.phase == PAY for state in states)


def test_observe_equals_the_straightforward_one_with_300_cards(tmp_path: Path) -> None:
    cards = write_random_cards(tmp_path)
    states = check_observations(Splendor(num_players=3, cards_file=str(cards)), seed=4)
    assert sum(map(others_face_down, states)) > 100


def test_each_observation_is_a_fresh_array() -> None:
    game = Splendor(num_players=3)
    state = game.initial_state(np.random.default_rng(0))
    first = game.observe(state, 1)
    first[:] = -1
    second = game.observe(state, 1)
    assert second.tobytes() == reference_observe(game, state, 1).tobytes()
    assert not np.shares_memory(second, game.observe(state, 1))
