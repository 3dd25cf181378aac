"""The SVG picture of a Quoridor position: everything a person needs to read the position, and the click targets."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np
import pytest

from boardenvs.games.quoridor import Quoridor, QuoridorState
from boardenvs.games.quoridor.svg import GAP, SQUARE, TARGET_THICKNESS, layout_for
from boardenvs.svg import PLAYER_COLOURS
from tests.quoridor.helpers import play, random_positions

SVG = "{http://www.w3.org/2000/svg}"
SMALL = Quoridor(board_size=5)
SMALL_4P = Quoridor(board_size=5, num_players=4)


def parse(markup: str) -> ET.Element:
    return ET.fromstring(markup)


def texts(root: ET.Element) -> list[str]:
    return [element.text or "" for element in root.iter(f"{SVG}text")]


def targets(root: ET.Element) -> list[ET.Element]:
    return [group for group in root.iter(f"{SVG}g") if group.get("class") == "target"]


def target_actions(root: ET.Element) -> list[list[int]]:
    return [[int(a) for a in group.get("data-actions").split()] for group in targets(root)]


def target_box(group: ET.Element) -> tuple[float, float, float, float]:
    rect = group.find(f"{SVG}rect")
    return tuple(float(rect.get(name)) for name in ("x", "y", "width", "height"))


def player_line(root: ET.Element, player: int) -> str:
    return next(e.text for e in root.iter(f"{SVG}text") if e.get("data-player") == str(player))


def finished(game: Quoridor, seed: int) -> QuoridorState:
    rng = np.random.default_rng(seed)
    state = game.initial_state(rng)
    while state.current_player >= 0:
        legal = game.legal_actions(state)
        state = game.apply(state, int(legal[rng.integers(len(legal))]))
    return state


# -- the position ---------------------------------------------------------------------------------
@pytest.mark.parametrize("game", [Quoridor(), SMALL, SMALL_4P, Quoridor(board_size=4)], ids=["9x9", "5x5", "4p", "4x4"])
def test_the_picture_of_every_position_parses_as_svg(game: Quoridor) -> None:
    for state in random_positions(game, seed=1, count=15):
        root = parse(game.render_svg(state, None, game.legal_action_mask(state)))
        assert root.tag == f"{SVG}svg" and root.get("data-game") == "quoridor"
    assert parse(game.render_svg(finished(game, 2))).tag == f"{SVG}svg"


def test_every_placed_wall_is_drawn() -> None:
    walls = ["a1h", "c1v", "b3h", "d4h", "a4v"]
    root = parse(SMALL.render_svg(SMALL.position(["c5", "c1"], walls)))
    group = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "walls")
    assert sorted(rect.get("data-wall") for rect in group) == sorted(walls)


def test_a_wall_spans_two_squares_in_the_groove_under_or_right_of_its_anchor() -> None:
    root = parse(SMALL.render_svg(SMALL.position(["c5", "c1"], ["b2h", "d3v"])))
    layout = layout_for(SMALL.tables)
    bars = {rect.get("data-wall"): rect for rect in root.iter(f"{SVG}rect") if rect.get("data-wall")}
    horizontal = [float(bars["b2h"].get(k)) for k in ("x", "y", "width", "height")]
    vertical = [float(bars["d3v"].get(k)) for k in ("x", "y", "width", "height")]
    assert horizontal == [layout.x(1), layout.y(1) + SQUARE, 2 * SQUARE + GAP, GAP]
    assert vertical == [layout.x(3) + SQUARE, layout.y(2), GAP, 2 * SQUARE + GAP]


def test_pawns_are_drawn_in_seat_colours_on_their_squares() -> None:
    state = SMALL_4P.position(["c5", "a2", "d1", "e4"])
    layout = layout_for(SMALL_4P.tables)
    pawns = [e for e in parse(SMALL_4P.render_svg(state)).iter(f"{SVG}circle") if e.get("data-pawn")]
    for pawn in pawns:
        player = int(pawn.get("data-pawn"))
        row, col = SMALL_4P.pawn_square(state, player)
        assert pawn.get("fill") == PLAYER_COLOURS[player]
        centre = (layout.x(col) + SQUARE / 2, layout.y(row) + SQUARE / 2)
        assert (float(pawn.get("cx")), float(pawn.get("cy"))) == centre
    assert sorted(int(p.get("data-pawn")) for p in pawns) == [0, 1, 2, 3]


def test_coordinates_use_the_notation_columns_and_rows() -> None:
    root = parse(Quoridor().render_svg(Quoridor().initial_state()))
    written = texts(next(g for g in root.iter(f"{SVG}g") if g.get("class") == "coordinates"))
    assert len(written) == 4 * 9
    for name in [*"abcdefghi", *(str(k) for k in range(1, 10))]:
        assert written.count(name) == 2  # on both sides of the board


def test_row_1_is_drawn_at_the_top_as_in_the_notation() -> None:
    root = parse(SMALL.render_svg(SMALL.position(["a2", "e4"], to_move=1)))
    pawns = {e.get("data-pawn"): float(e.get("cy")) for e in root.iter(f"{SVG}circle") if e.get("data-pawn")}
    assert pawns["0"] < pawns["1"]


def test_walls_left_are_written_for_each_player() -> None:
    root = parse(SMALL_4P.render_svg(SMALL_4P.position(["c5", "a3", "c1", "e3"], walls_left=[3, 0, 2, 1])))
    for player, walls in enumerate([3, 0, 2, 1]):
        assert f": {walls} walls left" in player_line(root, player)


def test_each_goal_side_is_marked_in_the_player_colour() -> None:
    game = Quoridor(num_players=4)
    root = parse(game.render_svg(game.initial_state()))
    layout = layout_for(game.tables)
    strips = {int(r.get("data-goal")): r for r in root.iter(f"{SVG}rect") if r.get("data-goal")}
    board_end = layout.top + layout.span
    assert float(strips[0].get("y")) < layout.top  # player 0: the top row
    assert float(strips[1].get("x")) >= layout.left + layout.span  # player 1: the right column
    assert float(strips[2].get("y")) >= board_end  # player 2: the bottom row
    assert float(strips[3].get("x")) < layout.left  # player 3: the left column
    assert all(strips[p].get("fill") == PLAYER_COLOURS[p] for p in range(4))
    assert "goal: row 1 (top)" in player_line(root, 0) and "goal: column i (right)" in player_line(root, 1)


def test_whose_turn_it_is_is_written_and_the_pawn_to_move_ringed() -> None:
    state = play(SMALL, SMALL.initial_state(), "c4")
    root = parse(SMALL.render_svg(state))
    assert "blue (player 1) to move, ply 1" in texts(root)
    assert "to move" in player_line(root, 1) and "to move" not in player_line(root, 0)
    assert root.find(f"{SVG}title").text.startswith("Quoridor 5x5: blue (player 1) to move")


def test_the_winner_is_written_at_the_end() -> None:
    state = play(SMALL, SMALL.position(["c2", "a4"]), "c1")
    root = parse(SMALL.render_svg(state))
    assert "red (player 0) wins, ply 1" in texts(root) and "winner" in player_line(root, 0)


def test_a_draw_at_the_move_cap_is_written() -> None:
    game = Quoridor(board_size=5, max_moves=2)
    state = play(game, game.initial_state(), "c4", "c2")
    assert "draw at the move cap, ply 2" in texts(parse(game.render_svg(state)))


# -- seats ----------------------------------------------------------------------------------------
def test_a_seat_sees_the_same_picture_of_a_state_and_of_its_determinization() -> None:
    rng = np.random.default_rng(0)
    for state in random_positions(SMALL_4P, seed=3, count=5):
        mask = SMALL_4P.legal_action_mask(state)
        for seat in range(4):
            view = SMALL_4P.determinize(state, seat, rng)
            assert SMALL_4P.render_svg(state, seat, mask) == SMALL_4P.render_svg(view, seat, mask)


def test_the_seat_is_marked_as_you() -> None:
    root = parse(SMALL.render_svg(SMALL.initial_state(), seat=1))
    assert "(you)" in player_line(root, 1) and "(you)" not in player_line(root, 0)
    assert "(you)" not in "".join(texts(parse(SMALL.render_svg(SMALL.initial_state()))))


# -- click targets --------------------------------------------------------------------------------
def test_no_targets_without_a_mask() -> None:
    state = SMALL.initial_state()
    assert targets(parse(SMALL.render_svg(state))) == []
    assert targets(parse(SMALL.render_svg(state, 0))) == []


@pytest.mark.parametrize("game", [SMALL, SMALL_4P, Quoridor()], ids=["5x5", "4p", "9x9"])
def test_targets_are_exactly_the_legal_pawn_moves_and_walls(game: Quoridor) -> None:
    for state in [game.initial_state(), *random_positions(game, seed=4, count=10)]:
        mask = game.legal_action_mask(state)
        root = parse(game.render_svg(state, None, mask))
        found = target_actions(root)
        assert all(len(actions) == 1 for actions in found)
        legal = [a for a in np.flatnonzero(mask).tolist() if game.action_to_str(state, a) != "pass"]
        assert sorted(a for actions in found for a in actions) == legal
        for group in targets(root):
            action = int(group.get("data-actions"))
            assert group.find(f"{SVG}title").text == game.action_to_str(state, action)


def test_a_pawn_target_covers_the_destination_square() -> None:
    state = SMALL.initial_state()
    layout = layout_for(SMALL.tables)
    root = parse(SMALL.render_svg(state, None, SMALL.legal_action_mask(state)))
    squares = {g.find(f"{SVG}title").text: target_box(g) for g in targets(root)}
    assert squares["c4"] == (layout.x(2), layout.y(3), SQUARE, SQUARE)
    assert squares["b5"] == (layout.x(1), layout.y(4), SQUARE, SQUARE)


def test_wall_targets_are_thin_one_square_segments_below_or_right_of_the_anchor() -> None:
    state = SMALL.initial_state()
    layout = layout_for(SMALL.tables)
    root = parse(SMALL.render_svg(state, None, SMALL.legal_action_mask(state)))
    boxes = {g.find(f"{SVG}title").text: target_box(g) for g in targets(root)}
    inset = (GAP - TARGET_THICKNESS) / 2
    assert boxes["b3h"] == (layout.x(1), layout.y(2) + SQUARE + inset, SQUARE, TARGET_THICKNESS)
    assert boxes["b3v"] == (layout.x(1) + SQUARE + inset, layout.y(2), TARGET_THICKNESS, SQUARE)


def test_no_two_targets_overlap() -> None:
    state = Quoridor().initial_state()
    root = parse(Quoridor().render_svg(state, None, Quoridor().legal_action_mask(state)))
    boxes = [target_box(g) for g in targets(root)]
    assert len(boxes) == 3 + 128
    for k, (x, y, w, h) in enumerate(boxes):
        for x2, y2, w2, h2 in boxes[k + 1 :]:
            assert x + w <= x2 or x2 + w2 <= x or y + h <= y2 or y2 + h2 <= y


def test_targets_use_the_frame_ids_of_the_player_to_move() -> None:
    state = play(SMALL, SMALL.initial_state(), "c4")  # player 1 to move: its ids are in its turned frame
    root = parse(SMALL.render_svg(state, 1, SMALL.legal_action_mask(state)))
    for group in targets(root):
        action = int(group.get("data-actions"))
        assert SMALL.parse_action(state, group.find(f"{SVG}title").text) == action


def test_pass_gets_no_target() -> None:
    game = Quoridor(board_size=4, num_players=4)  # player 0 on a4: wall above, edges, pawns b4 and c4 beside it
    state = game.position(["a4", "b4", "a1", "c4"], ["a3h"], walls_left=[0, 1, 1, 1])
    mask = game.legal_action_mask(state)
    assert [game.action_to_str(state, a) for a in np.flatnonzero(mask)] == ["pass"]
    assert targets(parse(game.render_svg(state, 0, mask))) == []


def test_a_finished_game_draws_no_targets_even_with_a_mask() -> None:
    state = finished(SMALL, 5)
    root = parse(SMALL.render_svg(state, None, np.ones(SMALL.spec.num_actions, dtype=bool)))
    assert targets(root) == []
