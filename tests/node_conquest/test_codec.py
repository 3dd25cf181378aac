"""The move codec: ``decode(state, action) -> Move`` and ``encode(state, move) -> int`` for every kind of move."""

from __future__ import annotations

import pytest

from boardenvs.games.node_conquest import PASS_MOVE, Move, NodeConquest
from tests.node_conquest.helpers import RING8

CODEC_VARIANTS = {
    "grid": {},
    "hex": {"topology": "hex", "rows": 3, "cols": 4},
    "graph": RING8,
    "grid_with_pass": {"rows": 3, "cols": 3, "move_all_units": True},
}


@pytest.mark.parametrize("config", CODEC_VARIANTS.values(), ids=list(CODEC_VARIANTS))
def test_every_action_id_round_trips_through_its_move(config: dict) -> None:
    game = NodeConquest(**config)
    state = game.initial_state()
    for action in range(game.spec.num_actions):
        move = game.decode(state, action)
        assert isinstance(move, Move) and game.encode(state, move) == action


def test_a_grid_move_is_found_by_its_target_its_slot_or_both() -> None:
    game = NodeConquest()
    state = game.initial_state()
    assert game.decode(state, 1) == Move(origin=0, slot=1, target=1)  # a1>R
    assert game.encode(state, Move(0, -1, 1)) == game.encode(state, Move(0, 1, -1)) == 1
    assert game.encode(state, Move(24, -1, 19)) == game.parse_action(game.apply(state, 1), "e5>U")
    assert game.decode(state, 0) == Move(0, 0, -1)  # a1>U leads off the map: an id that is never legal


def test_a_hex_move_uses_the_six_slots_with_odd_rows_shifted() -> None:
    game = NodeConquest(topology="hex", rows=3, cols=3)
    state = game.initial_state()
    action = game.encode(state, Move(4, -1, 2))  # b2 (odd row) to c1 is NE
    assert game.action_to_str(state, action) == "b2>NE" and game.decode(state, action) == Move(4, 5, 2)


def test_a_graph_move_uses_the_sorted_neighbour_slots() -> None:
    game = NodeConquest(**RING8)
    state = game.initial_state()
    assert game.encode(state, Move(0, -1, 7)) == 1 and game.action_to_str(state, 1) == "n0>n7"
    assert game.decode(state, 8) == Move(4, 0, 3) and game.action_to_str(state, 8) == "n4>n3"


def test_pass_is_its_own_move() -> None:
    game = NodeConquest(rows=3, cols=3, move_all_units=True)
    state = game.initial_state()
    assert game.decode(state, game.legality.pass_action) == PASS_MOVE == Move(-1, -1, -1)
    assert game.encode(state, PASS_MOVE) == game.spec.num_actions - 1


@pytest.mark.parametrize(
    "move, message",
    [
        (Move(0, -1, 6), r"node 6 is not a neighbour of node 0 \(neighbours: \(1, 5\)\)"),
        (Move(0, 2, 1), "slot 2 of node 0 does not lead to node 1 \\(slot 1 does\\)"),
        (Move(25, -1, 24), "origin 25 is not a node"),
        (Move(0, -1, -1), "needs a target node or a slot"),
        (Move(0, 4, -1), "needs a target node or a slot in 0..3"),
        (PASS_MOVE, "no pass move"),
    ],
    ids=["not_a_neighbour", "slot_disagrees", "origin_off_the_map", "no_target_or_slot", "slot_out_of_range", "pass"],
)
def test_encode_rejects_moves_without_an_id(move: Move, message: str) -> None:
    game = NodeConquest()
    with pytest.raises(ValueError, match=message):
        game.encode(game.initial_state(), move)


def test_decode_rejects_ids_out_of_range() -> None:
    game = NodeConquest()
    with pytest.raises(ValueError, match=r"out of range \[0, 100\)"):
        game.decode(game.initial_state(), 100)
