"""The SVG picture of a Node Conquest position: every node, edge, owner and unit count, the score, the targets."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from boardenvs.games.node_conquest import NodeConquest, NodeConquestState
from boardenvs.games.node_conquest.svg import NEUTRAL_FILL, STEP, layout_for
from boardenvs.svg import PLAYER_COLOURS
from tests.node_conquest.helpers import RING8

SVG = "{http://www.w3.org/2000/svg}"
SMALL = NodeConquest(rows=3, cols=3)
HEX = NodeConquest(topology="hex", rows=4, cols=5, num_players=3)
RING = NodeConquest(**RING8)
GRAPH = NodeConquest(
    topology="graph", nodes=6, edges=((0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 0), (0, 3), (1, 4)), num_players=3
)
VARIANTS = {"grid": NodeConquest(), "small": SMALL, "hex": HEX, "ring": RING, "graph": GRAPH}


def parse(markup: str) -> ET.Element:
    return ET.fromstring(markup)


def playout(game: NodeConquest, seed: int) -> list[NodeConquestState]:
    rng = np.random.default_rng(seed)
    states = [game.initial_state(rng)]
    while states[-1].current_player >= 0:
        legal = game.legal_actions(states[-1])
        states.append(game.apply(states[-1], int(legal[rng.integers(len(legal))])))
    return states


def nodes(root: ET.Element) -> dict[str, ET.Element]:
    return {e.get("data-node"): e for e in root.iter(f"{SVG}circle") if e.get("data-node")}


def edges(root: ET.Element) -> list[str]:
    group = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "edges")
    return [line.get("data-edge") for line in group]


def targets(root: ET.Element) -> list[ET.Element]:
    return [group for group in root.iter(f"{SVG}g") if group.get("class") == "target"]


def texts(root: ET.Element) -> list[str]:
    return [element.text or "" for element in root.iter(f"{SVG}text")]


def player_line(root: ET.Element, player: int) -> str:
    return next(e.text for e in root.iter(f"{SVG}text") if e.get("data-player") == str(player))


def centre(circle: ET.Element) -> tuple[float, float]:
    return float(circle.get("cx")), float(circle.get("cy"))


# -- the position ---------------------------------------------------------------------------------
@pytest.mark.parametrize("game", VARIANTS.values(), ids=list(VARIANTS))
def test_the_picture_of_every_state_of_a_playout_parses_as_svg(game: NodeConquest) -> None:
    for state in playout(game, 0)[::7]:
        root = parse(game.render_svg(state, None, game.legal_action_mask(state)))
        assert root.tag == f"{SVG}svg" and root.get("data-game") == "node_conquest"


@pytest.mark.parametrize("game", VARIANTS.values(), ids=list(VARIANTS))
def test_every_node_and_edge_is_drawn(game: NodeConquest) -> None:
    root = parse(game.render_svg(game.initial_state()))
    names = game.board.node_names
    assert sorted(nodes(root)) == sorted(names)
    expected = {f"{names[a]}-{names[b]}" for a, others in enumerate(game.adjacency) for b in others if a < b}
    drawn = edges(root)
    assert len(drawn) == len(expected) and set(drawn) == expected


def test_an_edge_joins_the_centres_of_its_nodes() -> None:
    root = parse(HEX.render_svg(HEX.initial_state()))
    discs = nodes(root)
    for line in next(g for g in root.iter(f"{SVG}g") if g.get("class") == "edges"):
        a, b = line.get("data-edge").split("-")
        ends = {(float(line.get("x1")), float(line.get("y1"))), (float(line.get("x2")), float(line.get("y2")))}
        assert ends == {centre(discs[a]), centre(discs[b])}


def test_unit_counts_are_written_on_nodes() -> None:
    state = SMALL.position("A7 .0 .3 B12 A2 .0 .0 .0 B1234")
    root = parse(SMALL.render_svg(state))
    counts = {e.get("data-units"): e for e in root.iter(f"{SVG}text") if e.get("data-units")}
    discs = nodes(root)
    for node, name in enumerate(SMALL.board.node_names):
        assert counts[name].text == str(int(state.units[node]))
        assert (float(counts[name].get("x")), float(counts[name].get("y"))) == centre(discs[name])


def test_nodes_are_filled_with_their_owner_colour_and_neutral_nodes_grey() -> None:
    state = HEX.initial_state()
    discs = nodes(parse(HEX.render_svg(state)))
    for node, name in enumerate(HEX.board.node_names):
        owner = int(state.owner[node])
        assert discs[name].get("fill") == (NEUTRAL_FILL if owner < 0 else PLAYER_COLOURS[owner])


def test_a_grid_is_drawn_in_rows_and_columns_with_coordinates() -> None:
    root = parse(SMALL.render_svg(SMALL.initial_state()))
    discs = nodes(root)
    assert centre(discs["b1"])[0] - centre(discs["a1"])[0] == STEP and centre(discs["a1"])[1] == centre(discs["b1"])[1]
    assert centre(discs["a2"])[1] - centre(discs["a1"])[1] == STEP and centre(discs["a1"])[0] == centre(discs["a2"])[0]
    assert {"a", "b", "c", "1", "2", "3"} <= set(texts(root))


def test_hex_odd_rows_are_shifted_half_a_step_right() -> None:
    discs = nodes(parse(HEX.render_svg(HEX.initial_state())))
    assert centre(discs["a2"])[0] - centre(discs["a1"])[0] == STEP / 2
    assert centre(discs["a3"])[0] == centre(discs["a1"])[0]
    assert centre(discs["a2"])[1] > centre(discs["a1"])[1]


def test_a_graph_is_laid_out_on_a_circle_with_its_node_names() -> None:
    root = parse(GRAPH.render_svg(GRAPH.initial_state()))
    points = [centre(disc) for disc in nodes(root).values()]
    mid_x, mid_y = np.mean([x for x, _ in points]), np.mean([y for _, y in points])
    radii = [math.hypot(x - mid_x, y - mid_y) for x, y in points]
    assert max(radii) - min(radii) <= 2  # integer pixels
    assert len(set(points)) == GRAPH.board.num_nodes
    assert {f"n{k}" for k in range(6)} <= set(texts(root))


def test_growth_rates_are_written_when_they_differ() -> None:
    root = parse(RING.render_svg(RING.initial_state()))
    rates = [int(e.get("data-growth")) for e in root.iter(f"{SVG}text") if e.get("data-growth")]
    assert rates == list(RING8["growth"])
    assert any("its +rate" in text for text in texts(root))


def test_equal_growth_rates_are_written_once_in_the_panel() -> None:
    game = NodeConquest(rows=3, cols=3, growth=(2,) * 9)
    root = parse(game.render_svg(game.initial_state()))
    assert not [e for e in root.iter(f"{SVG}text") if e.get("data-growth")]
    assert any("gains +2 after every ply" in text for text in texts(root))


def test_whose_turn_it_is_and_each_players_nodes_and_units_are_written() -> None:
    state = HEX.position(" ".join(["A5", "A3", "B7"] + [".0"] * 16 + ["C9"]), to_move=1, ply=4)
    root = parse(HEX.render_svg(state))
    assert "blue (player 1) to move, ply 4 of 200" in texts(root)
    assert player_line(root, 0) == "red (player 0): 2 nodes, 8 units"
    assert player_line(root, 1) == "blue (player 1): 1 node, 7 units  \u25c0 to move"
    assert player_line(root, 2) == "yellow (player 2): 1 node, 9 units"


def test_the_winner_is_written_at_the_end() -> None:
    state = SMALL.position("A9 B3 .0 .0 .0 .0 .0 .0 .0")
    root = parse(SMALL.render_svg(SMALL.apply(state, SMALL.parse_action(state, "a1>R"))))
    assert "red (player 0) wins by elimination, ply 1 of 200" in texts(root)
    assert "winner" in player_line(root, 0) and "eliminated" in player_line(root, 1)


@pytest.mark.parametrize(
    ("players", "cells", "result"),
    [
        (2, "A5 .0 .0 .0 .0 .0 .0 .0 B5", "red (player 0) wins at the ply cap, ply 1 of 1"),
        (2, "A5 A1 .0 .0 .0 .0 .0 B1 B5", "draw at the ply cap, ply 1 of 1"),
        (3, "A5 A1 .0 .0 .0 .0 C1 B1 B5", "red (player 0) and blue (player 1) win at the ply cap, ply 1 of 1"),
    ],
    ids=["sole", "draw", "shared"],
)
def test_results_at_the_ply_cap_are_written(players: int, cells: str, result: str) -> None:
    game = NodeConquest(rows=3, cols=3, num_players=players, max_plies=1)
    state = game.position(cells)
    assert result in texts(parse(game.render_svg(game.apply(state, game.parse_action(state, "a1>R")))))


# -- seats ----------------------------------------------------------------------------------------
def test_a_seat_sees_the_same_picture_of_a_state_and_of_its_determinization() -> None:
    rng = np.random.default_rng(0)
    for state in playout(HEX, 1)[::9]:
        mask = HEX.legal_action_mask(state)
        for seat in range(3):
            assert HEX.render_svg(state, seat, mask) == HEX.render_svg(HEX.determinize(state, seat, rng), seat, mask)


def test_the_seat_is_marked_as_you() -> None:
    root = parse(SMALL.render_svg(SMALL.initial_state(), seat=1))
    assert "(you)" in player_line(root, 1) and "(you)" not in player_line(root, 0)


# -- click targets --------------------------------------------------------------------------------
def test_no_targets_without_a_mask() -> None:
    state = playout(SMALL, 2)[6]
    assert targets(parse(SMALL.render_svg(state))) == []
    assert targets(parse(SMALL.render_svg(state, 0))) == []


@pytest.mark.parametrize("game", VARIANTS.values(), ids=list(VARIANTS))
def test_targets_are_exactly_the_legal_moves(game: NodeConquest) -> None:
    for state in playout(game, 3)[::5]:
        mask = game.legal_action_mask(state)
        found = targets(parse(game.render_svg(state, None, mask)))
        actions = [[int(a) for a in group.get("data-actions").split()] for group in found]
        assert all(len(group) == 1 for group in actions)
        legal = [a for a in np.flatnonzero(mask).tolist() if a != game.legality.pass_action]
        assert sorted(group[0] for group in actions) == legal
        for group, (action,) in zip(found, actions):
            assert group.find(f"{SVG}title").text == game.action_to_str(state, action)


@pytest.mark.parametrize("game", [SMALL, HEX, GRAPH], ids=["grid", "hex", "graph"])
def test_a_move_target_lies_on_the_half_of_its_edge_next_to_the_node_it_moves_to(game: NodeConquest) -> None:
    layout = layout_for(game.config)
    everything = np.zeros(game.spec.num_actions, dtype=bool)
    everything[: game.board.num_nodes * game.board.max_degree] = game.board.valid.ravel()
    found = targets(parse(game.render_svg(game.initial_state(), None, everything)))
    assert len(found) == int(game.board.valid.sum())
    for group in found:
        origin, slot = divmod(int(group.get("data-actions")), game.board.max_degree)
        target = int(game.board.neighbours[origin, slot])
        points = [tuple(map(float, p.split(","))) for p in group.find(f"{SVG}polygon").get("points").split()]

        def distance(node: int, point: tuple[float, float]) -> float:
            return math.hypot(point[0] - layout.xs[node], point[1] - layout.ys[node])

        assert min(range(game.board.num_nodes), key=lambda node: distance(node, points[0])) == target  # the tip
        assert all(distance(target, point) < distance(origin, point) for point in points)


def test_the_two_directions_of_an_edge_have_separate_targets() -> None:
    state = SMALL.position("A5 A5 .0 .0 .0 .0 .0 .0 B1")
    found = targets(parse(SMALL.render_svg(state, None, SMALL.legal_action_mask(state))))
    labels = {group.find(f"{SVG}title").text: group.find(f"{SVG}polygon").get("points") for group in found}
    assert "a1>R" in labels and "b1>L" in labels and labels["a1>R"] != labels["b1>L"]


def test_pass_gets_no_target() -> None:
    game = NodeConquest(rows=3, cols=3, move_all_units=True)
    state = game.position("A0 .0 .0 .0 .0 .0 .0 .0 B5")
    mask = game.legal_action_mask(state)
    assert np.flatnonzero(mask).tolist() == [game.legality.pass_action]
    assert targets(parse(game.render_svg(state, 0, mask))) == []


def test_a_finished_game_draws_no_targets_even_with_a_mask() -> None:
    state = playout(SMALL, 4)[-1]
    assert targets(parse(SMALL.render_svg(state, None, np.ones(SMALL.spec.num_actions, dtype=bool)))) == []
