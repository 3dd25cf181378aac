"""Gravwell movement scenarios, including the executed Gravitas outcomes of docs/rules/rules.md §7."""

from __future__ import annotations

import numpy as np
import pytest

from boardenvs.games.gravwell import Gravwell
from boardenvs.games.gravwell.cards import card_of_symbol
from boardenvs.games.gravwell.movement import heading, resolve, slide
from tests.gravwell.helpers import play_turn, turn_state


def c(symbol: str) -> int:
    return card_of_symbol(symbol)


def test_ship_with_equal_nearest_distances_and_counts_is_stuck() -> None:
    pos = [29, 22, 36]  # ship on 29, nearest 7 behind and 7 ahead, one ship each side
    assert heading(pos, 0) == 0
    moves: list = []
    assert resolve(pos, 0, c("Mg"), 2, False, moves=moves) == -1 and moves == [] and pos[0] == 29


def test_tie_in_distance_goes_to_the_side_with_more_ships() -> None:
    assert heading([29, 22, 36, 40], 0) == 1
    assert heading([29, 22, 36, 10], 0) == -1


def test_singularity_ships_are_ignored_and_a_ship_at_zero_sees_everything_ahead() -> None:
    assert heading([0, 0, 36], 0) == 1
    assert heading([10, 0, 0], 0) == 0  # nobody on the board: stuck


def test_normal_card_landing_on_an_occupied_tile_bumps_on() -> None:
    pos = [30, 33, 36]
    resolve(pos, 0, c("C"), 2, False)  # normal 3 from 30 onto 33
    assert pos[0] == 34


def test_repulsor_moves_away_from_the_nearest_ship() -> None:
    pos = [34, 10, 36]
    resolve(pos, 0, c("Ne"), 2, False)  # repulsor 6 away from the hulk on 36
    assert pos[0] == 28


def test_repulsor_reaching_the_warp_gate_wins_at_once_and_later_cards_do_not_resolve() -> None:
    game = Gravwell(num_players=2)
    s = turn_state(game, [52, 10, 36], [["Kr"], ["Zr"]], stops=False)
    s = play_turn(game, s, ["Kr", "Zr"])
    assert s.winner == 0 and s.pos[0] == 54 and s.pos[1] == 10
    assert game.is_terminal(s) and list(game.returns(s)) == [1.0, -1.0]


def test_overshooting_the_warp_gate_stops_on_it_and_moving_back_stops_in_the_singularity() -> None:
    pos = [50, 10, 36]
    assert slide(pos, 0, 10) == 54
    pos = [3, 10, 36]
    assert slide(pos, 0, -9) == 0


def test_tractor_pulls_nearest_first_behind_first_on_ties_and_bumps() -> None:
    pos, moves = [20, 17, 23, 36], []  # two ships at distance 3: the one behind (17) goes first
    assert resolve(pos, 0, c("Qt"), 3, False, moves=moves) == -1  # tractor 3
    assert [ship for _, _, _, ship, _ in moves] == [1, 2, 3]
    assert pos[1] == 21 and pos[2] == 19 and pos[3] == 33  # both land on 20 and bump on


def test_tractor_pulls_ships_out_of_the_singularity_too_and_is_inert_in_the_paper_engine() -> None:
    pos, moves = [10, 0, 36], []
    resolve(pos, 0, c("Jo"), 2, False, moves=moves)  # tractor 2: the Singularity ship (distance 10) goes first
    assert pos == [10, 2, 34] and [ship for _, _, _, ship, _ in moves] == [1, 2]
    pos = [0, 0, 36]
    resolve(pos, 0, c("Jo"), 2, False)  # a ship on the owner's own tile has no way to be pulled
    assert pos == [0, 0, 34]
    pos, moves = [10, 20, 36], []
    assert resolve(pos, 0, c("Jo"), 2, True, moves=moves) == -1 and moves == [] and pos == [10, 20, 36]


def test_cards_resolve_in_symbol_order_against_the_board_of_the_moment() -> None:
    game = Gravwell(num_players=2)
    s = turn_state(game, [0, 0, 36], [["Mg"], ["Ar"]], stops=False)
    s = play_turn(game, s, ["Mg", "Ar"])
    assert s.pos[:2] == [10, 1]  # Ar first: P1 0 -> 1; then Mg: P0 sees P1 ahead and moves 0 -> 10


def test_emergency_stop_cancels_the_own_card_once_per_round() -> None:
    game = Gravwell(num_players=2)
    s2 = turn_state(game, [20, 0, 36], [["Kr"], ["B"]])
    s2 = game.apply(game.apply(s2, game.play_base + c("Kr")), game.play_base + c("B"))
    assert s2.phase == 2 and s2.current_player == 1  # B resolves first: P1 decides
    s2 = game.apply(s2, game.stop_action)  # P1 stops B
    assert s2.pos[1] == 0 and not s2.stops[1]
    assert s2.phase == 2 and s2.current_player == 0
    s2 = game.apply(s2, game.stop_action + 1)  # P0 lets Kr resolve: repulsor 2 away from the hulk
    assert s2.pos[0] == 18


def test_emergency_stop_when_already_used_is_rejected() -> None:
    game = Gravwell(num_players=2)
    s = turn_state(game, [20, 0, 36], [["Kr"], ["B"]])
    s.stops = [False, False]
    s = game.apply(game.apply(s, game.play_base + c("Kr")), game.play_base + c("B"))
    assert s.phase == 1  # nobody is asked: the turn resolved
    with pytest.raises(ValueError, match="already used its Emergency Stop"):
        game.apply(s, game.stop_action)


def test_stuck_ship_is_not_asked_about_the_emergency_stop() -> None:
    game = Gravwell(num_players=2)
    s = turn_state(game, [29, 22, 36], [["Mg"], ["Ar"]])
    s.pos = [29, 0, 36]
    s = game.apply(game.apply(s, game.play_base + c("Mg")), game.play_base + c("Ar"))
    assert s.phase == 2 and s.current_player == 1  # P1's Ar (from 0) moves towards 29
    s = game.apply(s, game.stop_action + 1)
    assert s.pos[1] == 1 and s.phase == 2 and s.current_player == 0


@pytest.mark.parametrize("bad", [{"num_players": 1}, {"num_players": 5}, {"inert_tractors": 1}, {"variant": "x"}])
def test_bad_config_raises(bad: dict) -> None:
    with pytest.raises((ValueError, TypeError)):
        Gravwell(**bad)


@pytest.mark.parametrize("max_plies", [0, 10**6 + 1, 2**63])
def test_max_plies_has_a_range_named_in_the_error(max_plies: int) -> None:
    with pytest.raises(ValueError, match=rf"max_plies must be in 1\.\.1000000, got {max_plies}$"):
        Gravwell(max_plies=max_plies)


def test_card_not_in_hand_and_taken_stack_are_rejected() -> None:
    game = Gravwell(num_players=2)
    s = game.initial_state(np.random.default_rng(3))
    s2 = game.apply(s, 0)
    with pytest.raises(ValueError, match=r"stack 0 was already taken this round; open stacks: \[1, 2, 3, 4, 5\]"):
        game.apply(s2, 0)
    with pytest.raises(ValueError, match="is drafting"):
        game.apply(s2, game.play_base)
    t = turn_state(game, [0, 0, 36], [["Ar"], ["B"]])
    with pytest.raises(ValueError, match=r"card Mg is not in player 0's hand \(Ar\)"):
        game.apply(t, game.play_base + c("Mg"))
    with pytest.raises(ValueError, match="out of range"):
        game.apply(t, 10_000)


def test_a_card_or_draft_during_an_emergency_stop_decision_is_rejected_with_the_choice() -> None:
    game = Gravwell(num_players=2)
    s = turn_state(game, [20, 0, 36], [["Kr", "Mg"], ["B"]])
    s = game.apply(game.apply(s, game.play_base + c("Kr")), game.play_base + c("B"))
    assert s.phase == 2
    for action in (0, game.play_base + c("Mg")):
        with pytest.raises(ValueError, match="must decide on the Emergency Stop first: 'stop' or 'go'"):
            game.apply(s, action)
