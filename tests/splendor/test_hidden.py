"""Hidden information: deck order and face-down reserves never leak through observations or events."""

from __future__ import annotations

import numpy as np

from boardenvs.games.splendor import Splendor, event_counts, hc_group
from boardenvs.games.splendor import events as ev
from tests.splendor.helpers import play, start, with_player

GAME = Splendor(num_players=3)


def test_a_deck_top_reserve_is_hidden_from_others_but_not_its_owner() -> None:
    state = play(GAME, start(GAME), "reserve deck L2")
    assert state.hidden[0, 0]
    rng = np.random.default_rng(0)
    views = [GAME.determinize(state, 1, rng) for _ in range(20)]
    assert len({int(v.reserved[0, 0]) for v in views}) > 1  # player 1 does not know the card
    assert all(np.array_equal(GAME.observe(v, 1), GAME.observe(state, 1)) for v in views)
    assert all(GAME.tables.cards.level[v.reserved[0, 0]] == 2 for v in views)  # its level is public
    own = [GAME.determinize(state, 0, rng) for _ in range(5)]
    assert all(v.reserved[0, 0] == state.reserved[0, 0] for v in own)


def unseen_cards(state, level: int) -> list[int]:
    """Player 2's unseen cards of ``level``: the deck and the face-down reserves of players 0 and 1."""
    hidden = [int(state.reserved[p, 0]) for p in (0, 1) if state.hidden[p, 0]]
    hidden = [card for card in hidden if GAME.tables.cards.level[card] == level + 1]
    return sorted(state.decks[level, state.top[level] :].tolist() + hidden)


def test_determinize_reshuffles_exactly_the_unseen_cards() -> None:
    state = play(GAME, start(GAME), "reserve deck L1", "reserve L1#2", "reserve deck L1")
    view = GAME.determinize(state, 2, np.random.default_rng(5))
    for level in range(3):
        assert unseen_cards(view, level) == unseen_cards(state, level)
    assert view.reserved[1, 0] == state.reserved[1, 0] and np.array_equal(view.face_up, state.face_up)


def test_no_observation_reveals_a_hidden_card_along_random_games() -> None:
    rng = np.random.default_rng(2)
    for seed in range(3):
        state = GAME.initial_state(np.random.default_rng(seed))
        while not GAME.is_terminal(state):
            for player in range(3):
                obs = GAME.observe(state, player)
                for _ in range(2):
                    assert np.array_equal(GAME.observe(GAME.determinize(state, player, rng), player), obs)
            state = GAME.apply(state, int(rng.choice(GAME.legal_actions(state))))


def test_visible_events_blank_other_players_face_down_cards() -> None:
    state = play(GAME, start(GAME), "reserve deck L3")
    events = list(state.events)
    assert [e.type for e in events] == [ev.RESERVE_HIDDEN_CARD, ev.DECREASE_GOLD, ev.INCREASE_PLAYER_GOLD]
    assert GAME.visible_events(state, events, 1)[0].card == -1 and events[0].face_down
    assert GAME.visible_events(state, events, 0)[0].card == int(state.reserved[0, 0])
    assert GAME.visible_events(state, events, 1)[1:] == events[1:]


def test_events_follow_table_one_and_the_hc_grouping() -> None:
    state = play(GAME, start(GAME), "take WUG")
    assert [e.type for e in state.events] == [2, 8] * 3 and all(e.who == 0 for e in state.events)
    assert event_counts(list(state.events), 0, grouped=True) == [3, 0, 0, 0, 0]
    assert [hc_group(t) for t in (8, 10, 12, 13, 14, 16, 17, 0)] == [0, 0, 1, 2, 3, 4, 4, -1]
    setup = GAME.initial_state(np.random.default_rng(0)).events
    assert [e.type for e in setup[:2]] == [ev.DRAW_CARD, ev.FILL_CARD] and setup[-1].type == ev.FILL_NOBLE
    assert all(e.who == ev.ENGINE for e in setup) and len(setup) == 2 * 12 + 4


def test_every_purchase_records_card_points_even_zero_as_rinascimento_does() -> None:
    state = start(GAME)
    cards = GAME.tables.cards
    zero = next(int(c) for c in cards.by_level[0] if cards.points[c] == 0)
    state.face_up[0, 0] = zero
    state = with_player(state, 0, tokens=[int(v) for v in cards.cost[zero]] + [0])
    after = play(GAME, state, "buy L1#1")
    points = [e for e in after.events if e.type == ev.RECEIVE_CARD_POINTS]
    assert len(points) == 1 and points[0].points == 0 and points[0].card == zero
    assert event_counts(list(after.events), 0, grouped=True)[4] == 1  # hc "receive points" counts the purchase
    paid = [e for e in after.events if e.type == ev.DECREASE_PLAYER_TOKENS]
    assert sorted((e.stack, e.amount) for e in paid) == [(c, int(v)) for c, v in enumerate(cards.cost[zero]) if v]


def test_gold_paid_for_several_colours_is_one_event_pair_per_colour() -> None:
    state = start(GAME)
    state.face_up[0, 0] = 0  # red 2, black 1
    after = play(GAME, with_player(state, 0, tokens=(0, 0, 0, 0, 0, 3)), "buy L1#1")
    gold = [e for e in after.events if e.type == ev.DECREASE_PLAYER_GOLD]
    assert [e.amount for e in gold] == [2, 1] and after.players[0, 5] == 0
