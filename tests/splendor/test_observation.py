"""The observation vector: documented typed fields, seen from the observer's seat; events through infos."""

from __future__ import annotations

import boardenvs
from boardenvs.aec import BoardGameAEC
from boardenvs.games.splendor import events as ev
from tests.splendor.helpers import play, start, with_player

GAME = boardenvs.make_game("splendor", preset="3p")

FIELDS = ["supply", "tokens", "bonuses", "points", "cards_bought", "nobles_taken", "reserved_count", "face_up",
          "nobles", "my_reserved", "others_reserved", "deck_counts", "phase", "paying", "gold_plan", "turn_order",
          "end_triggered"]  # fmt: skip


def test_the_fields_are_documented_and_cover_the_vector() -> None:
    fields = GAME.spec.observation_fields
    assert [f.name for f in fields] == FIELDS and all(f.description for f in fields)
    assert fields[0].start == 0 and fields[-1].stop == GAME.spec.observation_shape[0]
    assert all(a.stop == b.start for a, b in zip(fields, fields[1:]))


def test_players_are_seen_from_the_observers_seat() -> None:
    state = with_player(with_player(start(GAME), 1, tokens=(1, 2, 3, 0, 0, 1), points=4), 2, points=7)
    seen = GAME.spec.split_observation(GAME.observe(state, 1))
    assert seen["tokens"][:6].tolist() == [1, 2, 3, 0, 0, 1]  # me first
    assert seen["points"].tolist() == [4, 7, 0]  # then the players after me in turn order
    assert seen["turn_order"].tolist() == [0, 1, 0] and seen["phase"].tolist() == [1, 0, 0, 0]


def test_my_reserves_are_visible_and_others_face_down_reserves_show_only_their_level() -> None:
    state = play(GAME, start(GAME), "reserve deck L2")
    mine = GAME.spec.split_observation(GAME.observe(state, 0))
    theirs = GAME.spec.split_observation(GAME.observe(state, 2))
    card = int(state.reserved[0, 0])
    assert mine["my_reserved"][:14][9:].tolist() == GAME.tables.cards.cost[card].tolist()
    seen = theirs["others_reserved"].reshape(-1, 14)[0]  # player 0 comes right after player 2
    assert seen[:3].tolist() == [1, 1, 2] and not seen[3:].any()
    assert theirs["reserved_count"].tolist() == [0, 1, 0] and not theirs["others_reserved"][14:].any()


def test_the_env_passes_each_agent_the_events_it_may_see() -> None:
    raw = BoardGameAEC("splendor", preset="3p", events=True)
    raw.reset(seed=0)
    mover = raw.game_state.current_player
    raw.step(raw.game.parse_action(raw.game_state, "reserve deck L1"))
    for agent, info in raw.infos.items():
        reserve = info["events"][0]
        assert reserve.type == ev.RESERVE_HIDDEN_CARD and reserve.who == mover
        assert (reserve.card >= 0) == (agent == f"player_{mover}")
