"""The SVG picture of Gravwell (``Gravwell.render_svg``, ``boardenvs/games/gravwell/svg.py``)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np
import pytest

import boardenvs
from boardenvs.games.gravwell import SYMBOLS, Gravwell, GravwellState, card_of_symbol
from boardenvs.games.gravwell.state import COMMIT, DRAFT, STOP
from boardenvs.games.gravwell.svg import TILE, tile_corner
from tests.gravwell.helpers import play_turn, turn_state
from tests.playouts import random_game_positions

SVG = "{http://www.w3.org/2000/svg}"
PRESETS = boardenvs.list_presets("gravwell")


def parse(markup: str) -> ET.Element:
    return ET.fromstring(markup)


def cards(root: ET.Element, zone: str, owner: int) -> list[str]:
    """The ``data-card`` of every card drawn in ``zone`` for ``owner``, in drawing order (``?``: face down)."""
    return [
        g.get("data-card")
        for g in root.iter(f"{SVG}g")
        if g.get("class") == "card" and g.get("data-zone") == zone and g.get("data-owner") == str(owner)
    ]


def targets(root: ET.Element) -> list[tuple[list[int], str]]:
    """``(action ids, label)`` of every click target."""
    return [
        ([int(a) for a in g.get("data-actions").split()], g.find(f"{SVG}title").text)
        for g in root.iter(f"{SVG}g")
        if g.get("class") == "target"
    ]


def texts(root: ET.Element) -> str:
    return "\n".join(element.text or "" for element in root.iter(f"{SVG}text"))


def positions(preset: str, seed: int = 0, every: int = 1) -> tuple[Gravwell, list[GravwellState]]:
    game = boardenvs.make_game("gravwell", preset)
    return game, random_game_positions(game, np.random.default_rng(seed))[::every]


def committed_state() -> tuple[Gravwell, GravwellState]:
    """3 players on turn 1; P1 drafted C face up; P0 has committed Ar in secret, P1 is to commit."""
    game = Gravwell(num_players=3)
    s = turn_state(game, [5, 10, 0, 36, 26], [["Ar", "B"], ["C", "Dy"], ["Es", "F"]])
    s.known = [0, 1 << card_of_symbol("C"), 0]
    s = game.apply(s, game.play_base + card_of_symbol("Ar"))
    assert s.phase == COMMIT and s.current_player == 1
    return game, s


# -- the whole position -----------------------------------------------------------------------------
@pytest.mark.parametrize("preset", PRESETS)
def test_every_view_parses_as_xml_and_the_canvas_size_is_fixed_per_config(preset: str) -> None:
    game, states = positions(preset, every=7)
    sizes = set()
    for state in states:
        for seat in [None, *range(game.n)]:
            root = parse(game.render_svg(state, seat, game.legal_action_mask(state)))
            sizes.add((root.get("width"), root.get("height"), root.get("viewBox")))
    assert len(sizes) == 1


@pytest.mark.parametrize("preset", ["2p", "3p", "4p"])
def test_every_ship_and_hulk_is_drawn_on_its_tile(preset: str) -> None:
    game, states = positions(preset, seed=1, every=5)
    for state in states:
        root = parse(game.render_svg(state))
        ships = {int(c.get("data-player")): c for c in root.iter(f"{SVG}circle") if c.get("class") == "ship"}
        assert sorted(ships) == list(range(game.n))
        for player, circle in ships.items():
            assert _on_tile(float(circle.get("cx")), float(circle.get("cy")), state.pos[player])
        hulks = [r for r in root.iter(f"{SVG}rect") if r.get("class") == "hulk"]
        assert len(hulks) == len(state.pos) - game.n == (1 if game.n == 2 else 2)
        centres = [(float(r.get("x")) + float(r.get("width")) / 2, float(r.get("y")) + float(r.get("height")) / 2)
                   for r in hulks]  # fmt: skip
        for (x, y), tile in zip(centres, state.pos[game.n :]):
            assert _on_tile(x, y, tile)


def _on_tile(x: float, y: float, tile: int) -> bool:
    left, top = tile_corner(tile)
    return left <= x <= left + TILE and top <= y <= top + TILE


def test_header_names_the_round_turn_phase_and_the_player_to_act() -> None:
    game, state = committed_state()
    header = parse(game.render_svg(state)).find(f"{SVG}title").text
    assert header == "Round 1/6 \u00b7 turn 1/6 \u00b7 P1 (blue) chooses a card in secret"
    draft = game.initial_state(np.random.default_rng(0))
    assert "draft: P" in parse(game.render_svg(draft)).find(f"{SVG}title").text


def test_the_escape_is_drawn_as_the_result_with_the_ranking() -> None:
    game = Gravwell(num_players=4)
    s = turn_state(game, [50, 0, 0, 30, 36, 26], [["Ne", "Ar"], ["Zr", "B"], ["C", "Dy"], ["Es", "F"]], stops=False)
    s = play_turn(game, s, ["Ne", "Zr", "C", "Es"])
    assert s.winner == 0
    root = parse(game.render_svg(s))
    assert root.find(f"{SVG}title").text == "Game over: P0 (red) escaped through the Warp Gate"
    assert "1st \u2013 winner" in texts(root) and "Final ranking" in texts(root)


def test_hands_show_symbol_and_value_and_the_draft_shows_every_open_stack() -> None:
    game = Gravwell(num_players=2)
    state = game.initial_state(np.random.default_rng(4))
    taker = state.current_player
    state = game.apply(state, 3)
    root = parse(game.render_svg(state))
    up, down = state.stacks[3]
    assert sorted(cards(root, "hand", taker)) == sorted([SYMBOLS[up], SYMBOLS[down]])
    for stack, face_up, face_down in state.open_stacks():
        assert cards(root, "stack", stack) == [SYMBOLS[face_up], SYMBOLS[face_down]]
    assert cards(root, "stack", 3) == [] and "taken" in texts(root)


def test_played_cards_of_the_round_and_the_latest_reveal_are_face_up() -> None:
    game = Gravwell(num_players=2)
    s = turn_state(game, [5, 10, 36], [["Ar", "B"], ["C", "Dy"]], stops=False)
    s = play_turn(game, s, ["B", "Dy"])
    root = parse(game.render_svg(s, seat=0))
    assert cards(root, "played", -1) == ["B", "Dy"]
    assert cards(root, "reveal", 0) == ["B"] and cards(root, "reveal", 1) == ["Dy"]
    assert cards(root, "last", 1) == ["Dy"]


# -- hidden information ---------------------------------------------------------------------------
def test_other_players_secret_commit_is_face_down_for_a_seat() -> None:
    game, state = committed_state()
    assert cards(parse(game.render_svg(state, seat=1)), "commit", 0) == ["?"]
    assert cards(parse(game.render_svg(state, seat=2)), "commit", 0) == ["?"]
    assert cards(parse(game.render_svg(state, seat=0)), "commit", 0) == ["Ar"]
    assert cards(parse(game.render_svg(state)), "commit", 0) == ["Ar"]
    assert cards(parse(game.render_svg(state, seat=1)), "commit", 1) == []  # not committed yet


def test_other_players_unknown_hand_cards_are_face_down_and_cards_drafted_face_up_are_shown() -> None:
    game, state = committed_state()
    seat_view = parse(game.render_svg(state, seat=0))
    assert cards(seat_view, "hand", 0) == ["Ar", "B"]  # its own hand
    assert cards(seat_view, "hand", 1) == ["C", "?"]  # C was drafted face up
    assert cards(seat_view, "hand", 2) == ["?", "?"]
    spectator = parse(game.render_svg(state))
    assert cards(spectator, "hand", 1) == ["C", "Dy"] and cards(spectator, "hand", 2) == ["Es", "F"]


@pytest.mark.parametrize("no_secrets", [False, True])
def test_face_down_stack_cards_are_hidden_from_seats_unless_no_secrets(no_secrets: bool) -> None:
    game = Gravwell(num_players=3, no_secrets=no_secrets)
    state = game.initial_state(np.random.default_rng(2))
    for seat in range(3):
        root = parse(game.render_svg(state, seat))
        for stack, up, down in state.open_stacks():
            assert cards(root, "stack", stack) == [SYMBOLS[up], SYMBOLS[down] if no_secrets else "?"]
    spectator = parse(game.render_svg(state))
    assert all(cards(spectator, "stack", s) == [SYMBOLS[u], SYMBOLS[d]] for s, u, d in state.open_stacks())


@pytest.mark.parametrize("preset", PRESETS)
def test_seat_view_is_the_same_for_every_determinization(preset: str) -> None:
    game, states = positions(preset, seed=2, every=6)
    for state in states:
        mask = game.legal_action_mask(state)
        for seat in range(game.n):
            own = game.legal_action_mask_of(state, seat) if seat in game.simultaneous_players(state) else None
            for view_mask in (None, mask, own):
                expected = game.render_svg(state, seat, view_mask)
                for seed in range(2):
                    view = game.determinize(state, seat, np.random.default_rng(seed))
                    assert game.render_svg(view, seat, view_mask) == expected


def test_emergency_stop_shows_whether_it_was_used() -> None:
    game = Gravwell(num_players=3)
    state = turn_state(game, [5, 10, 0, 36, 26], [["Ar"], ["B"], ["C"]])
    state.stops = [True, False, True]
    signs = [
        p for p in parse(game.render_svg(state, seat=1)).iter(f"{SVG}polygon") if p.get("class") == "emergency-stop"
    ]
    assert [sign.get("data-available") for sign in signs] == ["1", "0", "1"]
    assert "used" in texts(parse(game.render_svg(state, seat=1)))


# -- targets ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("preset", PRESETS)
def test_targets_hold_only_legal_actions_and_every_legal_action_has_one(preset: str) -> None:
    game, states = positions(preset, seed=3, every=2)
    for state in states:
        mask = game.legal_action_mask(state)
        for seat in {None, max(state.current_player, 0)}:
            found = targets(parse(game.render_svg(state, seat, mask)))
            ids = [action for actions, _ in found for action in actions]
            assert sorted(ids) == game.legal_actions(state).tolist()
            for actions, label in found:
                assert label == ", ".join(game.action_to_str(state, a) for a in actions)


def test_a_seat_still_to_commit_gets_targets_on_its_own_hand() -> None:
    game, state = committed_state()  # P1 to commit, P2 after it
    found = targets(parse(game.render_svg(state, 2, game.legal_action_mask_of(state, 2))))
    assert found == [
        ([game.play_base + card_of_symbol("Es")], "play Es"),
        ([game.play_base + card_of_symbol("F")], "play F"),
    ]
    everything = np.ones(game.spec.num_actions, dtype=bool)
    assert targets(parse(game.render_svg(state, 0, everything))) == []  # P0 has already committed


def test_a_seat_that_is_not_to_act_gets_no_targets() -> None:
    game = Gravwell(num_players=3)
    state = game.initial_state(np.random.default_rng(0))
    assert state.phase == DRAFT
    other = (state.current_player + 1) % 3
    assert targets(parse(game.render_svg(state, other, game.legal_action_mask(state)))) == []


def test_emergency_stop_decision_targets_the_stop_sign_and_the_go_button() -> None:
    game = Gravwell(num_players=2)
    state = turn_state(game, [5, 10, 36], [["Ar"], ["B"]])
    state = game.apply(game.apply(state, game.play_base + card_of_symbol("Ar")), game.play_base + card_of_symbol("B"))
    assert state.phase == STOP
    found = targets(parse(game.render_svg(state, state.current_player, game.legal_action_mask(state))))
    assert found == [([game.stop_action], "stop"), ([game.stop_action + 1], "go")]


def test_no_targets_without_a_mask() -> None:
    game, states = positions("4p", seed=4, every=4)
    for state in states:
        assert 'class="target"' not in game.render_svg(state)
        assert 'class="target"' not in game.render_svg(state, max(state.current_player, 0))
