"""The SVG picture of Battle Sheep (``BattleSheep.render_svg``, ``boardenvs/games/battle_sheep/svg.py``)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np
import pytest

import boardenvs
from boardenvs.games.battle_sheep import BattleSheep, BattleSheepState
from boardenvs.games.battle_sheep.tables import cell_name
from tests.battle_sheep.helpers import board, small_game
from tests.playouts import random_game_positions

SVG = "{http://www.w3.org/2000/svg}"
PRESETS = boardenvs.list_presets("battle_sheep")
ROWS = ["A3 . . B2 #", ". A1 . . B1", "# . . . .", "B1 . . . #", ". . . . #"]
"""A 2-player, 4-sheep position, A to move: a1 may send 1 or 2 sheep south (to a2) or east (to c1)."""


def parse(markup: str) -> ET.Element:
    return ET.fromstring(markup)


def stacks(root: ET.Element) -> dict[str, tuple[int, str]]:
    """``{cell: (player, what is written on its token)}`` for every stack drawn."""
    return {
        g.get("data-cell"): (int(g.get("data-player")), g.find(f"{SVG}text").text)
        for g in root.iter(f"{SVG}g")
        if g.get("class") == "stack"
    }


def cells(root: ET.Element, kind: str) -> set[str]:
    """The cells drawn as ``kind``: ``free``, ``blocked`` (outside the field) or ``owned``."""
    return {r.get("data-cell") for r in root.iter(f"{SVG}rect") if r.get("class") == f"cell {kind}"}


def targets(root: ET.Element) -> dict[tuple[float, float], tuple[list[int], str]]:
    """``{(x, y) of its rectangle: (action ids, label)}`` for every click target."""
    found = {}
    for g in root.iter(f"{SVG}g"):
        if g.get("class") == "target":
            rect = g.find(f"{SVG}rect")
            actions = [int(a) for a in g.get("data-actions").split()]
            found[float(rect.get("x")), float(rect.get("y"))] = (actions, g.find(f"{SVG}title").text)
    return found


def target_cells(game: BattleSheep, root: ET.Element) -> dict[str, tuple[list[int], str]]:
    """The targets by the cell they lie on (the owned/free cell rectangle that contains them)."""
    where = {}
    for rect in root.iter(f"{SVG}rect"):
        if (rect.get("class") or "").startswith("cell "):
            where[rect.get("data-cell")] = (float(rect.get("x")), float(rect.get("y")), float(rect.get("width")))
    result = {}
    for (x, y), value in targets(root).items():
        (name,) = [n for n, (cx, cy, w) in where.items() if cx <= x <= cx + w and cy <= y <= cy + w]
        result[name] = value
    return result


def texts(root: ET.Element) -> str:
    return "\n".join(element.text or "" for element in root.iter(f"{SVG}text"))


def positions(preset: str, seed: int = 0, every: int = 1) -> tuple[BattleSheep, list[BattleSheepState]]:
    game = boardenvs.make_game("battle_sheep", preset)
    return game, random_game_positions(game, np.random.default_rng(seed))[::every]


# -- the whole position -----------------------------------------------------------------------------
@pytest.mark.parametrize("preset", PRESETS)
def test_every_view_parses_as_xml_and_the_canvas_size_is_fixed_per_config(preset: str) -> None:
    game, states = positions(preset, every=4)
    sizes = set()
    for state in states:
        for seat in [None, *range(game.config.num_players)]:
            root = parse(game.render_svg(state, seat, game.legal_action_mask(state)))
            sizes.add((root.get("width"), root.get("height"), root.get("viewBox")))
    assert len(sizes) == 1


def test_every_cell_is_drawn_and_free_blocked_and_occupied_cells_are_distinct() -> None:
    game = small_game(field_size=20)
    root = parse(game.render_svg(board(game, ROWS, 0)))
    assert cells(root, "blocked") == {"e1", "a3", "e4", "e5"}
    assert cells(root, "owned") == {"a1", "d1", "b2", "e2", "a4"}
    assert len(cells(root, "free")) == 25 - 4 - 5


def test_stack_sizes_are_written_on_cells_in_the_owners_colour() -> None:
    game = small_game(field_size=20)
    root = parse(game.render_svg(board(game, ROWS, 0)))
    assert stacks(root) == {"a1": (0, "3"), "b2": (0, "1"), "d1": (1, "2"), "e2": (1, "1"), "a4": (1, "1")}


def test_header_names_the_player_to_move_and_the_phase() -> None:
    game = small_game(field_size=20)
    assert parse(game.render_svg(board(game, ROWS, 0))).find(f"{SVG}title").text.startswith("A (red) to move")
    start = game.initial_state(np.random.default_rng(0))
    assert parse(game.render_svg(start)).find(f"{SVG}title").text.startswith("Placement: A (red) places 4 sheep")


def test_panel_shows_each_players_sheep_stacks_and_score() -> None:
    game = small_game(field_size=20)
    words = texts(parse(game.render_svg(board(game, ROWS, 0))))
    assert "4 sheep on 2 stacks" in words and "4 sheep on 3 stacks" in words
    assert "score 2" in words and "score 3" in words


def test_teams_and_their_average_scores_are_shown() -> None:
    game, states = positions("teams", seed=1)
    words = texts(parse(game.render_svg(states[-1])))
    assert "team A+C" in words and "team B+D" in words and "team average" in words


@pytest.mark.parametrize("preset", ["basic", "teams"])
def test_the_result_and_every_players_place_are_drawn_at_the_end(preset: str) -> None:
    game, states = positions(preset, seed=2)
    end = states[-1]
    root = parse(game.render_svg(end))
    values = game.ranking_scores(end)
    winners = [p for p in range(4) if values[p] == values.max()]
    title = root.find(f"{SVG}title").text
    assert title.startswith("Game over: ") and all("ABCD"[p] in title.split(":")[1] for p in winners)
    places = [line for line in texts(root).splitlines() if " pts" in line]
    assert len(places) == 4 and sum(line.startswith("1st") for line in places) == len(winners)


# -- hidden information ---------------------------------------------------------------------------
def test_hidden_counts_are_not_drawn_for_other_players() -> None:
    game = small_game(field_size=20, hidden_counts=True)
    state = board(game, ROWS, 0)
    assert stacks(parse(game.render_svg(state, seat=0))) == {
        "a1": (0, "3"), "b2": (0, "1"), "d1": (1, "?"), "e2": (1, "?"), "a4": (1, "?")
    }  # fmt: skip
    assert stacks(parse(game.render_svg(state, seat=1))) == {
        "a1": (0, "?"), "b2": (0, "?"), "d1": (1, "2"), "e2": (1, "1"), "a4": (1, "1")
    }  # fmt: skip
    assert stacks(parse(game.render_svg(state)))["d1"] == (1, "2")  # the spectator sees everything


def test_counts_are_drawn_for_every_seat_without_hidden_counts() -> None:
    game = small_game(field_size=20)
    state = board(game, ROWS, 0)
    assert stacks(parse(game.render_svg(state, seat=0))) == stacks(parse(game.render_svg(state)))


@pytest.mark.parametrize("preset", PRESETS)
def test_seat_view_is_the_same_for_every_determinization(preset: str) -> None:
    game, states = positions(preset, seed=3, every=3)
    for state in states:
        mask = game.legal_action_mask(state)
        for seat in range(game.config.num_players):
            for view_mask in (None, mask):
                expected = game.render_svg(state, seat, view_mask)
                for seed in range(3):
                    view = game.determinize(state, seat, np.random.default_rng(seed))
                    assert game.render_svg(view, seat, view_mask) == expected


# -- targets ----------------------------------------------------------------------------------------
def test_a_move_target_is_on_the_destination_and_holds_every_move_ending_there() -> None:
    game = small_game(field_size=20)
    rows = [". . A2 . #", "# . . . .", "A2 . . B2 .", ". . B2 . .", ". . . . #"]
    state = board(game, rows, 0)
    found = target_cells(game, parse(game.render_svg(state, 0, game.legal_action_mask(state))))
    actions, label = found["c3"]  # a3 east and c1 south both stop on c3
    assert sorted(game.action_to_str(state, a) for a in actions) == ["a3 E 1", "c1 S 1"]
    assert label == ", ".join(game.action_to_str(state, a) for a in actions)


def test_targets_of_the_example_position() -> None:
    game = small_game(field_size=20)
    state = board(game, ROWS, 0)
    found = target_cells(game, parse(game.render_svg(state, None, game.legal_action_mask(state))))
    assert {cell: label for cell, (_, label) in found.items()} == {"a2": "a1 S 1, a1 S 2", "c1": "a1 E 1, a1 E 2"}


def test_placement_targets_are_the_free_border_cells() -> None:
    game, states = positions("basic", seed=4)
    state = states[1]
    assert game.in_placement(state)
    found = target_cells(game, parse(game.render_svg(state, None, game.legal_action_mask(state))))
    legal = game.legal_actions(state).tolist()
    assert found == {cell_name(12, a): ([a], game.action_to_str(state, a)) for a in legal}


@pytest.mark.parametrize("preset", PRESETS)
def test_targets_hold_only_legal_actions_and_every_legal_action_has_one(preset: str) -> None:
    game, states = positions(preset, seed=5, every=2)
    for state in states:
        mask = game.legal_action_mask(state)
        for seat in {None, max(state.current_player, 0)}:
            found = targets(parse(game.render_svg(state, seat, mask)))
            ids = [action for actions, _ in found.values() for action in actions]
            assert sorted(ids) == game.legal_actions(state).tolist()
            for actions, label in found.values():
                assert label == ", ".join(game.action_to_str(state, a) for a in actions)


def test_a_mask_with_illegal_actions_draws_only_the_legal_ones() -> None:
    game = small_game(field_size=20)
    state = board(game, ROWS, 0)
    found = targets(parse(game.render_svg(state, None, np.ones(game.spec.num_actions, dtype=bool))))
    assert sorted(a for actions, _ in found.values() for a in actions) == game.legal_actions(state).tolist()


def test_no_targets_without_a_mask_or_for_a_seat_not_to_move() -> None:
    game, states = positions("imperfect", seed=6, every=3)
    for state in states:
        assert 'class="target"' not in game.render_svg(state)
        if state.current_player >= 0:
            other = (state.current_player + 1) % 4
            assert 'class="target"' not in game.render_svg(state, other, game.legal_action_mask(state))
