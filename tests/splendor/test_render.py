"""The picture of a position: a real drawing (not the text fallback) that follows the state."""

from __future__ import annotations

import numpy as np
import pytest

import boardenvs
from boardenvs.core import text_to_rgb
from boardenvs.games.splendor.render import RESOURCE_COLOURS, image_size
from tests.splendor.helpers import play, start


@pytest.mark.parametrize("preset", ["2p", "4p", "rinascimento"])
def test_the_picture_is_an_rgb_array_of_the_documented_size(preset: str) -> None:
    game = boardenvs.make_game("splendor", preset=preset)
    image = game.render_rgb(game.initial_state(np.random.default_rng(0)))
    assert image.dtype == np.uint8 and image.shape == (*image_size(game.config), 3)
    assert image.shape != text_to_rgb(game.to_text(game.initial_state(np.random.default_rng(0)))).shape


def test_the_picture_changes_with_the_state_and_shows_the_gem_colours() -> None:
    game = boardenvs.make_game("splendor")
    state = start(game)
    before = game.render_rgb(state)
    after = game.render_rgb(play(game, state, "take WUG"))
    assert not np.array_equal(before, after)
    other_deal = game.render_rgb(game.initial_state(np.random.default_rng(1)))
    assert not np.array_equal(before, other_deal)
    pixels = {tuple(p) for p in before.reshape(-1, 3).tolist()}
    assert {tuple(c) for c in RESOURCE_COLOURS.tolist()} <= pixels  # every gem colour and gold is drawn


def test_the_picture_is_a_pure_function_of_the_state() -> None:
    game = boardenvs.make_game("splendor", preset="3p")
    state = game.initial_state(np.random.default_rng(4))
    assert np.array_equal(game.render_rgb(state), game.render_rgb(state.copy()))
