"""The half-turn symmetry of the default game maps legal actions, successors and observations consistently."""

from __future__ import annotations

import numpy as np
import pytest

from boardenvs.games.node_conquest import NodeConquest


def test_half_turn_maps_legal_actions_successors_and_observations() -> None:
    game, rng = NodeConquest(), np.random.default_rng(3)
    state = game.initial_state()
    for _ in range(60):
        if game.is_terminal(state):
            break
        mirror = game.symmetric_state(state)
        legal = game.legal_actions(state)
        assert sorted(game.symmetric_action(int(a)) for a in legal) == game.legal_actions(mirror).tolist()
        for player in (0, 1):
            expected = game.symmetric_observation(game.observe(state, player))
            assert np.array_equal(game.observe(mirror, 1 - player), expected)
        action = int(rng.choice(legal))
        after = game.apply(state, action)
        assert game.apply(mirror, game.symmetric_action(action)).key() == game.symmetric_state(after).key()
        state = after


def test_symmetric_action_is_an_involution_and_matches_notation() -> None:
    game = NodeConquest()
    state = game.initial_state()
    assert game.action_to_str(state, game.symmetric_action(game.parse_action(state, "a1>R"))) == "e5>L"
    assert all(game.symmetric_action(game.symmetric_action(a)) == a for a in range(100))


@pytest.mark.parametrize("config", [{"num_players": 3}, {"topology": "hex"}, {"starts": (0, 4)}])
def test_no_symmetry_is_declared_where_it_does_not_hold(config: dict) -> None:
    game = NodeConquest(**config)
    assert game.spec.symmetries == ()
    with pytest.raises(ValueError, match="symmetry"):
        game.symmetric_action(0)
