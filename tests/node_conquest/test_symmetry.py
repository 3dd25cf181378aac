"""The half-turn symmetry of the default game maps legal actions, successors and observations consistently."""

from __future__ import annotations

import numpy as np
import pytest

from boardenvs.games.node_conquest import ROTATE_180, HalfTurn, NodeConquest
from boardenvs.testing import ContractError, check_game, check_symmetry


def test_half_turn_maps_legal_actions_successors_and_observations() -> None:
    game, rng = NodeConquest(), np.random.default_rng(3)
    sym, state = game.symmetries[0], game.initial_state()
    for _ in range(60):
        if game.is_terminal(state):
            break
        mirror = sym.state(state)
        legal = game.legal_actions(state)
        assert sorted(int(sym.actions[a]) for a in legal) == game.legal_actions(mirror).tolist()
        assert mirror.current_player == 1 - state.current_player
        for player in (0, 1):
            expected = sym.observation(game.observe(state, player))
            assert np.array_equal(game.observe(mirror, sym.players[player]), expected)
        action = int(rng.choice(legal))
        after = game.apply(state, action)
        assert game.apply(mirror, int(sym.actions[action])).key() == sym.state(after).key()
        state = after


def test_half_turn_maps_a1_right_to_e5_left_and_swaps_the_players() -> None:
    game = NodeConquest()
    sym, state = game.symmetries[0], game.initial_state()
    assert isinstance(sym, HalfTurn) and sym.name == ROTATE_180 and sym.players == (1, 0)
    assert game.action_to_str(state, int(sym.actions[game.parse_action(state, "a1>R")])) == "e5>L"
    assert game.action_to_str(state, int(sym.actions[game.parse_action(state, "a1>D")])) == "e5>U"
    turned = sym.state(state)
    assert turned.owner[24] == 1 and turned.owner[0] == 0 and turned.current_player == 1


def test_half_turn_is_an_involution() -> None:
    game = NodeConquest()
    sym = game.symmetries[0]
    assert np.array_equal(sym.actions[sym.actions], np.arange(100))
    state = game.apply(game.initial_state(), 1)
    assert sym.state(sym.state(state)).key() == state.key()
    obs = game.observe(state, 0)
    assert np.array_equal(sym.observation(sym.observation(obs)), obs)


def test_pass_maps_to_itself_and_winners_swap() -> None:
    game = NodeConquest(rows=3, cols=3, move_all_units=True)
    sym = game.symmetries[0]
    assert sym.actions[game.legality.pass_action] == game.legality.pass_action
    won = game.apply(game.position("A9 B2 . . . . . . ."), 1)
    assert won.winners == (0,) and sym.state(won).winners == (1,)
    assert game.returns(sym.state(won)).tolist() == [-1.0, 1.0]


@pytest.mark.parametrize(
    "config",
    [{}, {"rows": 3, "cols": 4}, {"move_all_units": True}, {"growth_timing": "mover_only", "max_plies": 40}],
    ids=["default", "3x4", "move_all_units_with_pass", "mover_only_growth_with_pass"],
)
def test_check_game_verifies_the_half_turn(config: dict) -> None:
    game = NodeConquest(**config)
    assert game.spec.symmetries == (ROTATE_180,)
    check_game(game, num_games=3, seed=0)


def test_check_symmetry_catches_a_wrong_observation_map() -> None:
    class Unturned(HalfTurn):
        def observation(self, observation: np.ndarray) -> np.ndarray:
            return observation.copy()

    game = NodeConquest(rows=3, cols=3)
    with pytest.raises(ContractError, match="observation does not transform"):
        check_symmetry(game, Unturned(game.board, game.spec.num_actions), game.initial_state(), 1)


@pytest.mark.parametrize(
    "config",
    [{"num_players": 3}, {"topology": "hex"}, {"starts": (0, 4)}, {"rows": 2, "cols": 2, "growth": (1, 2, 1, 1)}],
    ids=["3_players", "hex", "asymmetric_starts", "asymmetric_growth"],
)
def test_no_symmetry_is_declared_where_it_does_not_hold(config: dict) -> None:
    game = NodeConquest(**config)
    assert game.spec.symmetries == () and game.symmetries == ()
