"""The SVG contract every game keeps (``Game.render_svg``), its checks in ``check_game``, and the SVG writer."""

from __future__ import annotations

from xml.etree import ElementTree

import numpy as np
import pytest

from boardenvs import list_games, list_presets, make_game
from boardenvs.games.splendor.game import Splendor
from boardenvs.svg import SvgCanvas, group_actions, number, text_svg
from boardenvs.testing import ContractError, check_game

GAMES = ["quoridor", "splendor", "gravwell", "battle_sheep", "node_conquest"]


class SpectatorForEverySeat(Splendor):
    """A broken picture: every seat is shown the spectator's view (the other players' face-down reserves)."""

    def _render_svg(self, state, seat, mask):
        return super()._render_svg(state, None, mask)


class TargetsEverything(Splendor):
    """A broken picture: a click target for every action, legal or not."""

    def _render_svg(self, state, seat, mask):
        canvas = SvgCanvas(10, 10, "splendor")
        if mask is not None:
            canvas.target_rect(0, 0, 5, 5, list(range(self.spec.num_actions)), "all")
        return canvas.markup()


def test_check_game_catches_a_picture_that_shows_a_seat_hidden_cards():
    with pytest.raises(ContractError, match="render_svg.*changes under determinize"):
        check_game(SpectatorForEverySeat(), num_games=3)


def test_check_game_catches_click_targets_on_illegal_actions():
    with pytest.raises(ContractError, match="SVG targets of illegal actions"):
        check_game(TargetsEverything(), num_games=1)


@pytest.mark.parametrize("name", GAMES)
def test_every_game_draws_every_preset_as_well_formed_svg_of_a_fixed_size(name):
    for preset in [None, *list_presets(name)]:
        game = make_game(name, preset)
        rng = np.random.default_rng(0)
        state, sizes = game.initial_state(rng), set()
        while True:
            root = ElementTree.fromstring(game.render_svg(state))
            assert root.tag.endswith("svg") and root.attrib["data-game"] == name
            sizes.add((root.attrib["width"], root.attrib["height"]))
            if game.is_terminal(state):
                break
            state = game.apply(state, int(rng.choice(game.legal_actions(state))))
        assert len(sizes) == 1, (name, preset, sizes)


@pytest.mark.parametrize("name", GAMES)
def test_render_svg_refuses_a_bad_seat_or_mask(name):
    game = make_game(name)
    state = game.initial_state(np.random.default_rng(0))
    with pytest.raises(ValueError, match="seat must be in"):
        game.render_svg(state, seat=game.spec.num_players)
    with pytest.raises(ValueError, match="mask must have shape"):
        game.render_svg(state, mask=np.ones(3, dtype=bool))


def test_a_game_without_a_drawing_gets_its_text_as_svg():
    name = next(n for n in list_games() if n.startswith("toy_"))
    game = make_game(name)
    svg = game.render_svg(game.initial_state(np.random.default_rng(0)))
    assert ElementTree.fromstring(svg).attrib["data-game"] == name


def test_the_writer_escapes_text_and_attributes():
    canvas = SvgCanvas(20, 10, "x", title='<b> & "q"')
    canvas.text(1, 2, "</svg><script>")
    canvas.begin_target([1, 2], "a<b")
    canvas.end_group()
    root = ElementTree.fromstring(canvas.markup())
    assert root.find("{http://www.w3.org/2000/svg}title").text == '<b> & "q"'
    assert root.find("{http://www.w3.org/2000/svg}text").text == "</svg><script>"
    assert "<script>" not in canvas.markup()


def test_numbers_are_short_and_groups_keep_their_order():
    assert [number(v) for v in (4.0, 0.5, 2 / 3)] == ["4", "0.5", "0.67"]
    assert group_actions([("x", 1), ("y", 2), ("x", 3)]) == {"x": [1, 3], "y": [2]}
    assert text_svg("a\nb", "g").count("<text") == 2
