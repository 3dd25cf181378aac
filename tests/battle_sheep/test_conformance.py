"""Every Battle Sheep preset and a sample of configs pass ``check_game``; spec, presets, config errors."""

from __future__ import annotations

import pickle

import pytest

import boardenvs
from boardenvs.games.battle_sheep import PRESETS, BattleSheep, BattleSheepConfig
from boardenvs.games.battle_sheep.config import settings_rows
from boardenvs.testing import check_game

VARIANTS = {
    **{f"preset_{name}": config for name, config in PRESETS.items()},
    "2p_small": {"board_size": 6, "field_size": 16, "num_players": 2, "sheep_per_player": 5},
    "3p": {"board_size": 8, "field_size": 30, "num_players": 3, "sheep_per_player": 8},
    "restricted_splits": {"restricted_splits": True},
    "hidden_3p": {"board_size": 7, "field_size": 25, "num_players": 3, "sheep_per_player": 6, "hidden_counts": True},
    "one_sheep": {"board_size": 4, "field_size": 6, "num_players": 2, "sheep_per_player": 1},
    "border_8": {"board_size": 8, "field_size": 40, "border_neighbourhood": 8, "sheep_per_player": 6},
}


@pytest.mark.parametrize("config", VARIANTS.values(), ids=list(VARIANTS))
def test_variant_passes_check_game(config: dict) -> None:
    report = check_game(BattleSheep(**config), num_games=4, seed=0)
    assert report.games == 4 and report.truncated_games == 0


def test_registry_presets_match_the_course_settings_table() -> None:
    rows = settings_rows()
    assert [row["agent_dir"] for row in rows] == ["game_1", "game_2", "game_3", "game_4"]
    for row, name in zip(rows, ["basic", "overcrowded", "imperfect", "teams"]):
        config = boardenvs.make_game("battle_sheep", preset=name).config
        assert f"{config.board_size}x{config.board_size}" == row["board"]
        assert row["playing_field_cells"].startswith(str(config.field_size))
        assert int(row["sheep_per_player"]) == config.sheep_per_player
        assert row["players"].startswith(str(config.num_players))
    assert boardenvs.make_game("battle_sheep", preset="imperfect").config.hidden_counts
    assert boardenvs.make_game("battle_sheep", preset="teams").config.teams


def test_spec_of_the_basic_game() -> None:
    spec = BattleSheep().spec
    assert spec.num_actions == 144 * (1 + 8 * 15)
    assert spec.observation_shape == (13, 12, 12)
    assert [f.name for f in spec.observation_fields] == [
        "owners",
        "stacks",
        "count_known",
        "field",
        "free",
        "placement_phase",
        "my_turn",
    ]
    assert spec.max_game_length == 64 and spec.zero_sum and spec.perfect_information
    assert not BattleSheep(hidden_counts=True).spec.perfect_information


@pytest.mark.parametrize(
    "config, field",
    [
        ({"sheep_per_player": 0}, "sheep_per_player"),
        ({"field_size": 145}, "field_size"),
        ({"teams": True, "num_players": 2}, "teams"),
        ({"num_players": 5}, "num_players"),
        ({"board_size": 1}, "board_size"),
        ({"field_size": 3}, "field_size"),
        ({"hidden_counts": 1}, "hidden_counts"),
        ({"border_neighbourhood": 6}, "border_neighbourhood"),
    ],
)
def test_config_errors_name_the_field(config: dict, field: str) -> None:
    with pytest.raises(ValueError, match=field):
        BattleSheepConfig(**config)


def test_game_pickles_small_and_equal() -> None:
    game = BattleSheep(teams=True)
    assert pickle.loads(pickle.dumps(game)) == game
    assert len(pickle.dumps(game)) < 1000
