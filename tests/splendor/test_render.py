"""The picture of a position: the game's SVG drawing rasterised (not the text fallback), following the state."""

from __future__ import annotations

import re

import numpy as np
import pytest

import boardenvs
from boardenvs.games.splendor.svg import GEM_FILLS
from boardenvs.raster import frame_size
from boardenvs.svg import text_svg
from tests.splendor.helpers import play, start

pytest.importorskip("PIL")


def picture_size(markup: str) -> tuple[float, float]:
    width, height = re.search(r'width="([\d.]+)" height="([\d.]+)"', markup).groups()
    return float(width), float(height)


@pytest.mark.parametrize("preset", ["2p", "4p", "rinascimento"])
def test_the_picture_is_an_rgb_array_of_the_svg_pictures_size(preset: str) -> None:
    game = boardenvs.make_game("splendor", preset=preset)
    state = game.initial_state(np.random.default_rng(0))
    image = game.render_rgb(state)
    assert image.dtype == np.uint8 and image.shape == (*frame_size(*picture_size(game.render_svg(state))), 3)
    assert image.shape[:2] != frame_size(*picture_size(text_svg(game.to_text(state), "splendor")))


def test_the_picture_changes_with_the_state_and_shows_the_gem_colours() -> None:
    game = boardenvs.make_game("splendor")
    state = start(game)
    before = game.render_rgb(state)
    after = game.render_rgb(play(game, state, "take WUG"))
    assert not np.array_equal(before, after)
    other_deal = game.render_rgb(game.initial_state(np.random.default_rng(1)))
    assert not np.array_equal(before, other_deal)
    pixels = {tuple(p) for p in before.reshape(-1, 3).tolist()}
    gems = {tuple(int(fill[k : k + 2], 16) for k in (1, 3, 5)) for fill in GEM_FILLS}
    assert gems <= pixels  # every gem colour and gold is drawn


def test_the_picture_is_a_pure_function_of_the_state() -> None:
    game = boardenvs.make_game("splendor", preset="3p")
    state = game.initial_state(np.random.default_rng(4))
    assert np.array_equal(game.render_rgb(state), game.render_rgb(state.copy()))
