"""Rule scenarios of official Splendor (docs/rules/rules.md §3.3, P1-P7) and Rinascimento's variant (R1, R5-R9)."""

from __future__ import annotations

import numpy as np
import pytest

from boardenvs.games.splendor import Splendor
from boardenvs.games.splendor import events as ev
from boardenvs.games.splendor.state import MAIN, NOBLE, PAY, POINTS, RETURN
from tests.splendor.helpers import edit, event_types, legal_moves, play, start, with_player

GAME = Splendor()


def test_setup_uses_the_official_token_counts_and_players_plus_one_nobles() -> None:
    for n, stack in ((2, 4), (3, 5), (4, 7)):
        game = Splendor(num_players=n)
        state = game.initial_state(np.random.default_rng(1))
        assert state.supply.tolist() == [stack] * 5 + [5]
        assert len(state.nobles) == n + 1 and (state.face_up >= 0).sum() == 12


def test_gold_substitutes_for_a_missing_colour_and_goes_back_to_the_supply() -> None:
    state = start(GAME)
    card = int(state.face_up[0, 0])
    cost = GAME.tables.cards.cost[card].astype(int)
    short = int(np.flatnonzero(cost)[0])
    tokens = list(cost) + [1]
    tokens[short] -= 1
    state = with_player(state, 0, tokens=tokens)
    supply_before = state.supply.copy()
    after = play(GAME, state, "buy L1#1")
    assert after.players[0, :6].tolist() == [0] * 6
    assert (after.supply - supply_before).tolist() == tokens
    assert after.players[0, 12] == 1


def test_bonuses_discount_the_cost() -> None:
    state = start(GAME)
    card = int(state.face_up[0, 1])
    state = with_player(state, 0, bonuses=GAME.tables.cards.cost[card], bought=5)
    assert "buy L1#2" in legal_moves(GAME, state)


def test_tokens_above_ten_are_returned_one_per_sub_decision_by_the_same_player() -> None:
    state = with_player(start(GAME), 0, tokens=(2, 2, 2, 2, 1, 0))
    state = play(GAME, state, "take WUG")
    assert state.phase == RETURN and state.current_player == 0
    assert legal_moves(GAME, state) == ["return W", "return U", "return G", "return R", "return K"]
    state = play(GAME, state, "return K")
    assert state.phase == RETURN and state.current_player == 0
    state = play(GAME, state, "return R")
    assert state.phase == MAIN and state.current_player == 1 and state.players[0, :6].sum() == 10


def test_take_two_of_a_colour_needs_a_stack_of_four() -> None:
    state = edit(start(GAME), supply=[3, 4, 4, 4, 4, 5])
    moves = legal_moves(GAME, state)
    assert "take 2 W" not in moves and "take 2 U" in moves


def test_fewer_than_three_colours_only_when_fewer_are_available() -> None:
    state = start(GAME)
    assert all(len(m.split()[1]) == 3 for m in legal_moves(GAME, state) if m.startswith("take") and m[5] != "2")
    state = edit(state, supply=[0, 0, 0, 1, 2, 5])
    takes = [m for m in legal_moves(GAME, state) if m.startswith("take")]
    assert takes == ["take RK"]


def test_several_qualifying_nobles_give_a_noble_choice() -> None:
    state = edit(start(GAME), nobles=[0, 1, 5])  # W4 U4, W4 K4, U4 G4
    state = with_player(state, 0, bonuses=(4, 4, 0, 0, 4), bought=12)
    state = play(GAME, state, "take WUG")
    assert state.phase == NOBLE and state.current_player == 0
    assert legal_moves(GAME, state) == ["noble 1", "noble 2"]
    state = play(GAME, state, "noble 2")
    assert state.players[0, POINTS] == 3 and state.nobles.tolist() == [0, -1, 5] and state.current_player == 1


def test_a_single_qualifying_noble_visits_automatically() -> None:
    state = edit(start(GAME), nobles=[0, 7, 5])
    state = with_player(state, 0, bonuses=(4, 4, 0, 0, 0), bought=8)
    state = play(GAME, state, "take WUG")
    assert state.players[0, POINTS] == 3 and state.nobles.tolist() == [-1, 7, 5] and state.current_player == 1


def test_the_final_round_is_completed() -> None:
    state = with_player(start(GAME), 0, points=15)
    state = play(GAME, state, "take WUG")
    assert state.end_triggered and state.current_player == 1
    state = play(GAME, state, "take WUG")
    assert GAME.is_terminal(state) and GAME.returns(state).tolist() == [1.0, -1.0]


def test_the_end_comes_at_once_when_the_last_seat_of_the_round_triggers_it() -> None:
    state = start(GAME, player=1)
    state.first_player = 0
    state = play(GAME, with_player(state, 1, points=15), "take WUG")
    assert GAME.is_terminal(state)


def test_tie_on_points_goes_to_fewer_cards_then_is_shared() -> None:
    state = with_player(with_player(start(GAME), 0, points=15, bought=9), 1, points=15, bought=8)
    state.current_player = -1
    assert GAME.returns(state).tolist() == [-1.0, 1.0]
    state = with_player(state, 0, points=15, bought=8)
    state.current_player = -1
    assert GAME.returns(state).tolist() == [0.0, 0.0]
    game = Splendor(num_players=4)
    state = game.initial_state(np.random.default_rng(0)).copy()
    state.players[:2, POINTS] = 16
    state.current_player = -1
    assert game.returns(state).tolist() == pytest.approx([1 / 3, 1 / 3, -1 / 3, -1 / 3])


def test_reserve_limit_of_three() -> None:
    state = play(GAME, start(GAME), "reserve L1#1", "take WUG", "reserve deck L2", "take WUG")
    state = play(GAME, state, "reserve L3#4")
    assert state.players[0, 5] == 3 and (state.reserved[0] >= 0).sum() == 3
    state = play(GAME, state, "take WUG")
    assert not any(m.startswith("reserve") for m in legal_moves(GAME, state))


def test_reserving_without_gold_is_allowed_and_gives_none() -> None:
    state = edit(start(GAME), supply=[4, 4, 4, 4, 4, 0])
    state = play(GAME, state, "reserve L2#2")
    assert state.players[0, 5] == 0 and state.reserved[0, 0] >= 0


def test_buying_a_reserved_card_frees_its_slot() -> None:
    state = play(GAME, start(GAME), "reserve L1#1", "take WUG")
    card = int(state.reserved[0, 0])
    state = with_player(state, 0, tokens=list(GAME.tables.cards.cost[card]) + [0])
    state = play(GAME, state, "buy reserved 1")
    assert state.reserved[0].tolist() == [-1, -1, -1] and state.players[0, 12] == 1


def test_an_empty_deck_leaves_the_slot_empty_and_cannot_be_reserved_from() -> None:
    state = start(GAME)
    state.top[2] = 20
    state = play(GAME, state, "reserve L3#1")
    assert state.face_up[2, 0] == -1
    assert "reserve deck L3" not in legal_moves(GAME, state) and "reserve L3#1" not in legal_moves(GAME, state)


def test_pass_only_when_nothing_else_is_legal_and_all_passing_ends_the_game() -> None:
    state = start(GAME)
    assert "pass" not in legal_moves(GAME, state)
    state = edit(state, supply=[0, 0, 0, 0, 0, 0], reserved=np.full((2, 3), 7), top=[40, 30, 20])
    state.face_up[:] = -1
    state.mask = None
    assert legal_moves(GAME, state) == ["pass"]
    state = play(GAME, state, "pass", "pass")
    assert GAME.is_terminal(state)


def test_max_plies_truncates_with_a_ranking() -> None:
    game = Splendor(max_plies=10)
    state = game.initial_state(np.random.default_rng(3))
    rng = np.random.default_rng(3)
    while not game.is_terminal(state):
        state = game.apply(state, int(rng.choice(game.legal_actions(state))))
    assert state.ply == 10 and game.is_truncated(state) and abs(game.returns(state).sum()) < 1e-6


# -- official payment: gold may replace any gem (the "pay" phase) --------------------------------
CARD_R2_K1 = 0
"""Official card 0: a level-1 white card costing red 2, black 1."""


def buying_position(tokens) -> object:
    state = with_player(start(GAME), 0, tokens=tokens)
    state.face_up[0, 0] = CARD_R2_K1
    return state


def test_paying_with_gold_while_holding_the_colour_is_a_choice() -> None:
    state = play(GAME, buying_position((0, 0, 0, 2, 1, 1)), "buy L1#1")
    assert state.phase == PAY and state.current_player == 0 and state.players[0, 12] == 0
    assert legal_moves(GAME, state) == ["gold for R", "gold for K", "pay"]
    kept_gold = play(GAME, state, "pay")
    assert kept_gold.players[0, :6].tolist() == [0, 0, 0, 0, 0, 1] and kept_gold.current_player == 1
    kept_black = play(GAME, state, "gold for K")  # the last spare gold: the purchase completes
    assert kept_black.players[0, :6].tolist() == [0, 0, 0, 0, 1, 0] and kept_black.phase == MAIN
    assert kept_black.players[0, 12] == 1 and kept_black.supply[5] == state.supply[5] + 1
    assert event_types(kept_black)[:6] == [
        ev.DECREASE_PLAYER_TOKENS,
        ev.INCREASE_TOKENS,
        ev.DECREASE_PLAYER_GOLD,
        ev.INCREASE_GOLD,
        ev.RECEIVE_CARD_POINTS,
        ev.RECEIVE_CARD_BONUS,
    ]


def test_several_golds_can_go_to_one_colour() -> None:
    state = play(GAME, buying_position((0, 0, 0, 2, 1, 2)), "buy L1#1", "gold for R")
    assert state.phase == PAY and state.gold_plan == (0, 0, 0, 1, 0)
    assert "gold for R" in legal_moves(GAME, state)
    state = play(GAME, state, "gold for R")
    assert state.phase == MAIN and state.players[0, :6].tolist() == [0, 0, 0, 2, 0, 0]


def test_gold_may_replace_a_held_token_of_a_colour_the_player_is_short_of() -> None:
    """Gold is a wildcard for any gem (official FAQ): owing 2 red with 1 red and 2 gold, the player may pay
    1 red + 1 gold or keep its red and pay 2 gold for the red."""
    state = play(GAME, buying_position((0, 0, 0, 1, 1, 2)), "buy L1#1")
    assert state.phase == PAY and legal_moves(GAME, state) == ["gold for R", "gold for K", "pay"]
    kept_red = play(GAME, state, "gold for R")  # the last spare gold: the purchase completes
    assert kept_red.phase == MAIN and kept_red.players[0, :6].tolist() == [0, 0, 0, 1, 0, 0]
    assert kept_red.supply[3] == state.supply[3] and kept_red.supply[5] == state.supply[5] + 2
    spent_red = play(GAME, state, "pay")
    assert spent_red.players[0, :6].tolist() == [0, 0, 0, 0, 0, 1]


def test_a_player_short_of_a_colour_may_pay_the_whole_card_in_gold() -> None:
    state = play(GAME, buying_position((0, 0, 0, 1, 1, 3)), "buy L1#1", "gold for R")  # owes R2 K1
    assert state.phase == PAY and state.gold_plan == (0, 0, 0, 1, 0)
    assert legal_moves(GAME, state) == ["gold for K", "pay"]
    all_gold = play(GAME, state, "gold for K")
    assert all_gold.phase == MAIN and all_gold.players[0, :6].tolist() == [0, 0, 0, 1, 1, 0]
    assert all_gold.players[0, 12] == 1


def test_no_payment_choice_without_spare_gold() -> None:
    exact = play(GAME, buying_position((0, 0, 0, 1, 1, 1)), "buy L1#1")  # the gold must cover the red
    assert exact.phase == MAIN and exact.players[0, :6].tolist() == [0] * 6 and exact.current_player == 1
    no_gold = play(GAME, buying_position((0, 0, 0, 2, 1, 0)), "buy L1#1")
    assert no_gold.phase == MAIN and no_gold.players[0, 12] == 1


def test_a_face_down_reserve_is_shown_while_it_is_paid_for() -> None:
    state = play(GAME, start(GAME), "reserve deck L1", "take WUG")
    card = int(state.reserved[0, 0])
    cost = [int(v) for v in GAME.tables.cards.cost[card]]
    state = with_player(state, 0, tokens=cost + [2])
    paying = play(GAME, state, "buy reserved 1")
    assert paying.phase == PAY and not paying.hidden[0, 0]
    rng = np.random.default_rng(0)
    assert all(GAME.determinize(paying, 1, rng).reserved[0, 0] == card for _ in range(5))
    observed = GAME.spec.split_observation(GAME.observe(paying, 1))["paying"]
    assert observed[0] == 1 and observed[1] == 0 and observed[9:].tolist() == cost


def test_official_returns_may_include_gold() -> None:
    state = play(GAME, with_player(start(GAME), 0, tokens=(2, 2, 2, 1, 1, 1)), "take WUG")
    assert state.phase == RETURN and "return Y" in legal_moves(GAME, state)
    state = play(GAME, state, "return Y", "return W")
    assert state.current_player == 1 and state.players[0, :6].sum() == 10 and state.players[0, 5] == 0
