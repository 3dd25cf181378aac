"""The shipped conformance checker on every Splendor preset, and the registry entry."""

from __future__ import annotations

import pytest

import boardenvs
from boardenvs.games.splendor import PRESETS
from boardenvs.testing import check_game


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_check_game_passes_for_every_preset(preset: str) -> None:
    report = check_game(boardenvs.make_game("splendor", preset=preset), num_games=6, seed=11)
    assert report.games == 6 and report.truncated_games == 0


def test_doctest_example_in_the_spec_sheet() -> None:
    import doctest

    from boardenvs.games.splendor import game

    assert doctest.testmod(game).failed == 0


def test_rinascimento_preset_is_the_defaultx2_setting() -> None:
    config = boardenvs.make_game("splendor", preset="rinascimento").config
    assert (config.num_players, config.tokens_per_colour, config.nobles, config.rinascimento) == (2, 4, 3, True)
    assert config.deck == "rinascimento_native"
