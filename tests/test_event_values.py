"""Event-value functions (seed 002 §III): synthesis, mixers, weights, and use as a value function."""

from __future__ import annotations

import math

import numpy as np
import pytest

from baselines.games.splendor.event_values import (
    PAPER_WEIGHTS,
    WEIGHT_VALUES,
    EventValueFunction,
    Mixer,
    count_events,
    num_weights,
    synthesize,
)
from boardenvs import make_game
from boardenvs.games.splendor import events as ev
from boardenvs.games.splendor.events import Event


def _events() -> list[Event]:
    """Player 0 takes three different tokens, buys a 2-point card and gets a noble; player 1 reserves."""
    return [
        Event(1, 0, ev.DECREASE_TOKENS, amount=1, stack=0),
        Event(1, 0, ev.INCREASE_PLAYER_TOKENS, amount=1, stack=0),
        Event(1, 0, ev.INCREASE_PLAYER_TOKENS, amount=1, stack=1),
        Event(1, 0, ev.INCREASE_PLAYER_TOKENS, amount=1, stack=2),
        Event(2, 1, ev.RESERVE_BOARD_CARD, card=4),
        Event(2, 1, ev.INCREASE_PLAYER_GOLD, amount=1),
        Event(3, 0, ev.RECEIVE_CARD_BONUS, amount=1, stack=3),
        Event(3, 0, ev.RECEIVE_CARD_POINTS, points=2),
        Event(3, 0, ev.NOBLE_TAKEN, noble=1),
        Event(3, 0, ev.RECEIVE_NOBLE, noble=1),
        Event(3, 0, ev.RECEIVE_NOBLE_POINTS, points=3, noble=1),
        Event(0, ev.ENGINE, ev.FILL_NOBLE, noble=2),
    ]


def test_identity_mapping_counts_each_of_the_18_types_of_the_player() -> None:
    theta = synthesize(_events(), player=0, mapping="id")
    expected = np.zeros(18)
    expected[[ev.DECREASE_TOKENS, ev.RECEIVE_CARD_BONUS, ev.RECEIVE_CARD_POINTS, ev.NOBLE_TAKEN]] = 1
    expected[[ev.RECEIVE_NOBLE, ev.RECEIVE_NOBLE_POINTS]] = 1
    expected[ev.INCREASE_PLAYER_TOKENS] = 3
    assert theta.tolist() == expected.tolist()


def test_hand_crafted_mapping_groups_and_discards_as_table_one() -> None:
    assert synthesize(_events(), 0, "hc").tolist() == [3, 0, 0, 1, 2]  # tokens, -, -, noble, card+noble points
    assert synthesize(_events(), 1, "hc").tolist() == [1, 0, 1, 0, 0]  # gold counts as "take token"


def test_setup_events_of_the_engine_are_nobody_s() -> None:
    counts = count_events(_events(), "id", num_players=2)
    assert counts.sum() == len(_events()) - 1
    assert counts[:, ev.FILL_NOBLE].sum() == 0


def test_difference_and_both_perspectives() -> None:
    own, other = synthesize(_events(), 0, "hc"), synthesize(_events(), 1, "hc")
    assert synthesize(_events(), 0, "hc", "difference").tolist() == (own - other).tolist()
    assert synthesize(_events(), 1, "hc", "both").tolist() == [*other, *own]
    assert synthesize([], 2, "hc", "difference", num_players=3).tolist() == [0.0] * 5


def test_linear_mixer_is_a_dot_product() -> None:
    ef = EventValueFunction("hc", 1, weights=[1.0, -1.0, 0.5, 2.0, 0.25])
    assert ef.value(_events(), 0) == pytest.approx(3 * 1.0 + 1 * 2.0 + 2 * 0.25)


def test_polynomial_mixer_of_degree_two_matches_the_paper_example() -> None:
    mixer = Mixer(2, degree=2)  # theta = [a, b]: w1 a^2 + w2 a b + w3 b^2
    assert mixer.num_weights == 3
    assert mixer(np.array([2.0, 3.0]), np.array([1.0, 10.0, 100.0])) == pytest.approx(4 + 60 + 900)


def test_polynomial_degree_three_has_only_cubic_terms() -> None:
    mixer = Mixer(3, degree=3)
    monomials = mixer.monomials(np.array([1.0, 2.0, 3.0]))
    assert len(monomials) == 10
    assert sorted(monomials.tolist()) == sorted([1, 2, 3, 4, 6, 9, 8, 12, 18, 27])


@pytest.mark.parametrize(
    ("mapping", "degree", "count"), [("hc", 1, 5), ("hc", 2, 15), ("hc", 3, 35), ("id", 1, 18), ("id", 2, 171)]
)
def test_weight_counts_are_those_of_table_two(mapping: str, degree: int, count: int) -> None:
    assert num_weights(mapping, degree) == count
    assert EventValueFunction(mapping, degree).weights.shape == (count,)


def test_id_cubic_has_1140_weights_and_both_doubles_the_features() -> None:
    assert num_weights("id", 3) == 1140
    assert num_weights("hc", 1, "both") == 10
    assert num_weights("hc", 2, "both") == math.comb(11, 2)


def test_default_weights_are_the_paper_s_tuned_linear_ones() -> None:
    assert EventValueFunction("hc").weights.tolist() == [0.2, 0.2, -0.4, -0.6, 0.8]
    assert EventValueFunction("id").weights.tolist() == list(PAPER_WEIGHTS[("id", 1)])
    assert EventValueFunction("hc", 2).weights.tolist() == [0.0] * 15
    assert WEIGHT_VALUES[0] == -1.0 and WEIGHT_VALUES[5] == 0.0 and WEIGHT_VALUES[-1] == 1.0


def test_paper_weights_prefer_points_from_cards_to_points_from_nobles() -> None:
    ef = EventValueFunction("hc")
    card = [Event(1, 0, ev.RECEIVE_CARD_POINTS, points=3)]
    noble = [Event(1, 0, ev.RECEIVE_NOBLE), Event(1, 0, ev.RECEIVE_NOBLE_POINTS, points=3)]
    assert ef.value(card, 0) > ef.value(noble, 0)
    assert ef.value(card, 1) == 0.0  # not player 1's event


def test_weights_can_be_set_and_are_validated() -> None:
    ef = EventValueFunction("hc")
    ef.weights = [0, 0, 0, 0, 1]
    assert ef.value(_events(), 0) == 2.0
    with pytest.raises(ValueError, match="weights must have 5 values"):
        ef.weights = [1.0, 2.0]
    with pytest.raises(ValueError, match="finite"):
        ef.weights = [0, 0, 0, 0, math.nan]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"mapping": "xy"}, "mapping must be one of"),
        ({"degree": 4}, "degree must be one of"),
        ({"perspective": "theirs"}, "perspective must be one of"),
    ],
)
def test_bad_arguments_raise(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        EventValueFunction(**kwargs)


def test_unknown_event_type_raises() -> None:
    with pytest.raises(ValueError, match="event type must be in 0..17"):
        synthesize([Event(0, 0, 18)], 0, "id")


def test_value_function_protocol_uses_the_game_s_player_count() -> None:
    game = make_game("splendor", num_players=3)
    ef = EventValueFunction("hc", weights=[0.2, 0.2, -0.4, -0.6, 0.8], perspective="difference")
    assert EventValueFunction("hc", perspective="difference").weights.tolist() == [0.0] * 5  # no paper weights
    events = [Event(1, 2, ev.RECEIVE_CARD_POINTS, points=1)]
    # player 0 saw nothing of its own; the mean of the two others is 1/2 a point event
    assert ef(game, None, None, 0, events) == pytest.approx(-0.5 * 0.8)


def test_real_game_events_feed_the_function() -> None:
    game = make_game("splendor")
    state = game.initial_state(np.random.default_rng(0))
    player = state.current_player
    after = game.apply(state, game.parse_action(state, "take WUG"))
    theta = synthesize(after.events, player, "hc")
    assert theta.tolist() == [3, 0, 0, 0, 0]


def test_amounts_count_points_and_tokens_by_size() -> None:
    assert synthesize(_events(), 0, "hc", count="amounts").tolist() == [3, 0, 0, 1, 5]
    zero_points = [Event(1, 0, ev.RECEIVE_CARD_POINTS, points=0), Event(1, 0, ev.INCREASE_PLAYER_TOKENS, amount=2)]
    assert synthesize(zero_points, 0, "hc").tolist() == [1, 0, 0, 0, 1]  # the paper: one event each
    assert synthesize(zero_points, 0, "hc", count="amounts").tolist() == [2, 0, 0, 0, 0]
    ef = EventValueFunction("hc", count="amounts")
    assert ef.value(zero_points, 0) == pytest.approx(0.4)
    with pytest.raises(ValueError, match="count must be one of"):
        EventValueFunction("hc", count="sizes")
