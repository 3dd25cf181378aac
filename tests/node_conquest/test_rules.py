"""Rule scenarios of Node Conquest; each test name states the rule (3x3 boards: a1 b1 c1 / a2 b2 c2 / a3 b3 c3)."""

from __future__ import annotations

import numpy as np
import pytest

from boardenvs.core import TERMINAL
from boardenvs.games.node_conquest import Move, NodeConquest
from boardenvs.games.node_conquest.state import NEUTRAL


def play(game: NodeConquest, cells: str, move: str, to_move: int = 0, ply: int = 0):
    state = game.position(cells, to_move=to_move, ply=ply)
    return game.apply(state, game.parse_action(state, move))


SMALL = NodeConquest(rows=3, cols=3)


def test_start_is_16_units_in_opposite_corners() -> None:
    state = NodeConquest().initial_state()
    assert state.owner[0] == 0 and state.owner[24] == 1 and state.units[0] == state.units[24] == 16
    assert (state.owner[1:24] == NEUTRAL).all() and not state.units[1:24].any()


def test_opening_move_sends_15_units_from_the_corner_as_in_the_papers_figure_2() -> None:
    game = NodeConquest()
    state = game.initial_state()
    after = game.apply(state, game.parse_action(state, "a1>R"))
    assert after.units[1] - 1 == 15  # 15 arrive, then every owned node grows by 1
    assert after.owner[0] == 0 and after.units[0] == 1 + 1


def test_combat_attacker_with_more_units_captures_with_the_difference() -> None:
    after = play(SMALL, "A6 B3 . . . . . . B1", "a1>R")  # 5 against 3
    assert after.owner[1] == 0 and after.units[1] == 2 + 1  # + growth


def test_combat_defender_with_more_units_keeps_the_difference() -> None:
    after = play(SMALL, "A4 B5 . . . . . . B1", "a1>R")  # 3 against 5
    assert after.owner[1] == 1 and after.units[1] == 2 + 1


def test_combat_equal_units_leave_the_node_neutral_with_zero() -> None:
    after = play(SMALL, "A6 B5 . . . . . . B1", "a1>R")  # 5 against 5
    assert after.owner[1] == NEUTRAL and after.units[1] == 0  # neutral nodes do not grow


def test_moving_onto_an_own_node_adds_the_units() -> None:
    after = play(SMALL, "A6 A3 . . . . . . B1", "a1>R")
    assert after.units[1] == 3 + 5 + 1


def test_any_positive_move_captures_an_empty_neutral_node() -> None:
    after = play(SMALL, "A2 . . . . . . . B1", "a1>D")
    assert after.owner[3] == 0 and after.units[3] == 1 + 1


def test_neutral_garrison_defends_neutral_nodes() -> None:
    game = NodeConquest(rows=3, cols=3, neutral_garrison=3)
    state = game.initial_state()
    assert state.units[1] == 3 and state.owner[1] == NEUTRAL
    after = game.apply(state, game.parse_action(state, "a1>R"))  # 15 against 3
    assert after.owner[1] == 0 and after.units[1] == 12 + 1


def test_growth_every_ply_grows_every_owned_node_of_every_player() -> None:
    after = play(SMALL, "A6 . . . . . . B4 B1", "a1>D")
    assert after.units.tolist() == [2, 0, 0, 6, 0, 0, 0, 5, 2]


def test_growth_mover_only_grows_only_the_movers_nodes() -> None:
    game = NodeConquest(rows=3, cols=3, growth_timing="mover_only")
    after = play(game, "A6 . . . . . . B4 B1", "a1>D")
    assert after.units.tolist() == [2, 0, 0, 6, 0, 0, 0, 4, 1]


def test_growth_rates_come_from_the_config() -> None:
    game = NodeConquest(rows=3, cols=3, growth=(2, 1, 1, 3, 1, 1, 1, 1, 0))
    after = play(game, "A6 . . . . . . . B1", "a1>D")
    assert after.units[[0, 3, 8]].tolist() == [1 + 2, 5 + 3, 1]


def test_default_move_keeps_one_unit_on_the_origin() -> None:
    after = play(SMALL, "A6 . . . . . . . B1", "a1>R")
    assert after.owner[0] == 0 and after.units[0] == 1 + 1 and after.units[1] == 5 + 1


def test_move_all_units_leaves_the_origin_owned_with_zero() -> None:
    game = NodeConquest(rows=3, cols=3, move_all_units=True)
    after = play(game, "A6 . . . . . . . B1", "a1>R")
    assert after.owner[0] == 0 and after.units[0] == 0 + 1 and after.units[1] == 6 + 1


def test_a_node_with_one_unit_cannot_move_by_default() -> None:
    state = SMALL.position("A1 A5 . . . . . . B1")
    names = {SMALL.action_to_str(state, int(a)) for a in SMALL.legal_actions(state)}
    assert names == {"b1>L", "b1>R", "b1>D"}
    reason = r"action 1 is illegal here: a1>R moves from a1, which has 1 unit\(s\); a move needs at least 2"
    with pytest.raises(ValueError, match=reason):
        SMALL.apply(state, SMALL.encode(state, Move(0, -1, 1)))


def test_illegal_moves_say_why() -> None:
    state = SMALL.position("A3 . . . . . . . B1")
    reasons = {
        "a1>U": "a1>U leads off the map: a1 has no neighbour that way",
        "b1>R": "b1>R moves from b1, which is neutral, not player 0's",
        "c3>L": "c3>L moves from c3, which is player 1's, not player 0's",
    }
    for move, reason in reasons.items():
        with pytest.raises(ValueError, match=f"action {_action_id(move)} is illegal here: {reason}"):
            SMALL.apply(state, _action_id(move))
    stuck = NodeConquest(rows=3, cols=3, move_all_units=True)
    position = stuck.position("A0 . . . . . . . B1")
    with pytest.raises(ValueError, match="pass is legal only when no move is, and player 0 can still move"):
        stuck.apply(stuck.position("A2 . . . . . . . B1"), stuck.legality.pass_action)
    assert stuck.legal_actions(position).tolist() == [stuck.legality.pass_action]


def _action_id(move: str) -> int:
    """The id of a 3x3 grid move like ``"b1>R"`` (origin * 4 + slot, slots U, R, D, L), legal or not."""
    cell, direction = move.split(">")
    return ((int(cell[1]) - 1) * 3 + "abc".index(cell[0])) * 4 + "URDL".index(direction)


def test_elimination_wins_at_once() -> None:
    after = play(SMALL, "A6 B3 . . . . . . .", "a1>R")
    assert after.current_player == TERMINAL and not after.truncated
    assert SMALL.returns(after).tolist() == [1.0, -1.0]


def test_eliminated_players_are_skipped_in_turn_order() -> None:
    game = NodeConquest(rows=3, cols=3, num_players=3)
    after = play(game, "A6 B3 . . . . . . C4", "a1>R")
    assert after.alive == (True, False, True) and after.current_player == 2
    after = game.apply(after, game.parse_action(after, "c3>U"))
    assert after.current_player == 0


def test_last_player_standing_wins_with_three_players() -> None:
    game = NodeConquest(rows=3, cols=3, num_players=3)
    after = play(game, "A9 C2 . . . . . . .", "a1>R", ply=5)
    assert after.current_player == TERMINAL and game.returns(after).tolist() == [1.0, -0.5, -0.5]


def test_the_game_goes_on_until_the_last_ply_before_the_cap() -> None:
    game = NodeConquest(rows=3, cols=3, max_plies=10)
    after = play(game, "A6 . . . . . . . B9", "a1>R", ply=8)
    assert after.ply == 9 and after.current_player == 1 and not after.truncated
    assert not game.returns(after).any() and after.winners == ()


def test_at_the_cap_more_nodes_wins() -> None:
    game = NodeConquest(rows=3, cols=3, max_plies=10)
    after = play(game, "A6 . . . . . . . B9", "a1>R", ply=9)
    assert after.ply == 10 and after.truncated and after.current_player == TERMINAL and after.winners == (0,)
    assert game.returns(after).tolist() == [1.0, -1.0] and game.scores(after).tolist() == [2.0, 1.0]
    assert game.legal_actions(after).tolist() == [] and not game.is_legal(after, 0)


def test_an_elimination_on_the_last_ply_ends_by_elimination_not_truncation() -> None:
    game = NodeConquest(rows=3, cols=3, max_plies=10)
    after = play(game, "A9 B2 . . . . . . .", "a1>R", ply=9)
    assert after.ply == 10 and after.current_player == TERMINAL and not after.truncated and after.winners == (0,)
    assert game.returns(after).tolist() == [1.0, -1.0]


def test_a_player_eliminated_on_the_last_ply_of_three_loses_at_the_cap() -> None:
    game = NodeConquest(rows=3, cols=3, num_players=3, max_plies=10)
    after = play(game, "A9 C2 B1 . . . . . B5", "a1>R", ply=9)  # C owned only b1; A and B end with 2 nodes
    assert after.truncated and after.alive == (True, True, False) and after.winners == (0, 1)
    assert game.returns(after) == pytest.approx([0.25, 0.25, -0.5])


def test_at_the_cap_equal_nodes_draw() -> None:
    game = NodeConquest(rows=3, cols=3, max_plies=10)
    after = play(game, "A6 . . . . . . B1 B9", "a1>R", ply=9)
    assert after.truncated and after.winners == () and game.returns(after).tolist() == [0.0, 0.0]


def test_at_the_cap_the_units_tie_break_decides_equal_nodes() -> None:
    game = NodeConquest(rows=3, cols=3, max_plies=10, tie_break="units")
    after = play(game, "A6 . . . . . . B1 B9", "a1>R", ply=9)
    assert game.returns(after).tolist() == [-1.0, 1.0]  # 2 + 6 units against 2 + 10


def test_at_the_cap_a_sole_leader_of_four_gets_one_and_each_loser_minus_a_third() -> None:
    game = NodeConquest(rows=3, cols=3, num_players=4, max_plies=10)
    after = play(game, "A6 . C2 . . . D2 . B2", "a1>R", ply=9)  # A: 2 nodes, the others 1
    assert game.returns(after) == pytest.approx([1.0, -1 / 3, -1 / 3, -1 / 3])


def test_at_the_cap_tied_leaders_share_the_win_by_the_one_convention_of_every_game() -> None:
    """k winners of n get (n - k) / (k (n - 1)) each, every loser -1 / (n - 1) (``shared_win_returns``)."""
    game = NodeConquest(rows=3, cols=3, num_players=4, max_plies=10)
    after = play(game, "A6 C2 C2 . . . D2 . B2", "a1>D", ply=9)  # A and C: 2 nodes each
    assert after.winners == (0, 2)
    assert game.returns(after) == pytest.approx([1 / 3, -1 / 3, 1 / 3, -1 / 3])  # was +1/2 and -1/2
    after = play(game, "A6 . C2 C2 D2 . D2 . B2", "a1>R", ply=9)  # A, C and D: 2 nodes each
    assert game.returns(after) == pytest.approx([1 / 9, -1 / 3, 1 / 9, 1 / 9])
    three = NodeConquest(rows=3, cols=3, num_players=3, max_plies=10)
    after = play(three, "A6 . C2 . . . C2 . B2", "a1>R", ply=9)  # A and C: 2 nodes each
    assert three.returns(after) == pytest.approx([0.25, -0.5, 0.25])


def test_pass_exists_only_in_variants_where_a_player_can_be_stuck() -> None:
    assert NodeConquest().spec.num_actions == 100
    assert NodeConquest(move_all_units=True).spec.num_actions == 101
    assert NodeConquest(growth_timing="mover_only").spec.num_actions == 101


def test_pass_is_legal_only_when_stuck() -> None:
    game = NodeConquest(rows=3, cols=3, move_all_units=True)
    stuck = game.position("A0 A0 . . . . . . B4")
    assert [game.action_to_str(stuck, int(a)) for a in game.legal_actions(stuck)] == ["pass"]
    after = game.apply(stuck, game.parse_action(stuck, "pass"))
    assert after.current_player == 1 and after.units[[0, 1, 8]].tolist() == [1, 1, 5]
    free = game.position("A1 A0 . . . . . . B4")
    assert "pass" not in {game.action_to_str(free, int(a)) for a in game.legal_actions(free)}


def test_notation_on_hexes_and_graphs() -> None:
    hexes = NodeConquest(topology="hex", rows=3, cols=3)
    state = hexes.initial_state()
    assert sorted(hexes.action_to_str(state, int(a)) for a in hexes.legal_actions(state)) == ["a1>E", "a1>SE"]
    graph = NodeConquest(topology="graph", nodes=3, edges=((0, 1), (1, 2)), starts=(0, 2))
    state = graph.initial_state()
    assert [graph.action_to_str(state, int(a)) for a in graph.legal_actions(state)] == ["n0>n1"]
    with pytest.raises(ValueError, match="cannot read"):
        graph.parse_action(state, "n0>n2")


def test_observation_is_from_the_observers_point_of_view() -> None:
    game = NodeConquest(rows=3, cols=3)
    state = game.position("A50 . . . . . . . B200", to_move=1, ply=100)
    obs = game.spec.split_observation(game.observe(state, 1))
    assert obs["owners"][0, 2, 2] == 1 and obs["owners"][1, 0, 0] == 1
    assert obs["units"][0, 2, 2] == 1.0 and obs["units"][1, 0, 0] == pytest.approx(0.5)  # clipped at unit_scale
    assert np.all(obs["time_elapsed"] == 0.5) and np.all(obs["my_turn"] == 1)
    assert np.all(game.spec.split_observation(game.observe(state, 0))["my_turn"] == 0)
