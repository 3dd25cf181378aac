"""Every Node Conquest variant passes the shipped conformance checker; the registry knows the presets."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import boardenvs
from boardenvs.games.node_conquest import NodeConquest, NodeConquestConfig
from boardenvs.svg import PLAYER_COLOURS
from boardenvs.testing import check_game
from tests.node_conquest.helpers import RING8

VARIANTS = {
    "default_5x5": {},
    "3x3": {"rows": 3, "cols": 3},
    "7x5_rectangular": {"rows": 7, "cols": 5},
    "hex_5x5": {"topology": "hex"},
    "hex_4x6_3p": {"topology": "hex", "rows": 4, "cols": 6, "num_players": 3},
    "ring8_graph": RING8,
    "3_players": {"num_players": 3},
    "4_players": {"num_players": 4},
    "move_all_units": {"move_all_units": True},
    "mover_only_growth": {"growth_timing": "mover_only", "num_players": 3},
    "garrison_units_tie_break_short": {"neutral_garrison": 2, "tie_break": "units", "max_plies": 40},
}


@pytest.mark.parametrize("config", VARIANTS.values(), ids=list(VARIANTS))
def test_variant_passes_check_game(config: dict) -> None:
    report = check_game(NodeConquest(**config), num_games=4, seed=0)
    assert report.games == 4 and report.plies > 20


@pytest.mark.parametrize("preset", boardenvs.list_presets("node_conquest"))
def test_registry_preset_passes_check_game(preset: str) -> None:
    game = boardenvs.make_game("node_conquest", preset=preset)
    assert check_game(game, num_games=3, seed=0).games == 3


def test_is_legal_is_false_out_of_range_and_after_the_end_and_never_raises() -> None:
    game = NodeConquest(rows=3, cols=3, neutral_garrison=2)  # neutral nodes hold 2 units: owner -1 == TERMINAL
    state = game.initial_state()
    assert game.is_legal(state, 1) and not game.is_legal(state, 0)  # a1>R; a1>U leads off the map
    assert not any(game.is_legal(state, a) for a in (-1, 36, 10**9, -(10**9)))
    over = game.apply(game.position("A9 B2 .2 .2 .2 .2 .2 .2 .2"), 1)
    assert game.is_terminal(over) and not any(game.is_legal(over, a) for a in range(36))


def test_apply_reports_bad_action_types_ranges_and_the_end() -> None:
    game = NodeConquest(rows=3, cols=3)
    state = game.initial_state()
    assert game.apply(state, np.int64(1)).key() == game.apply(state, 1).key()
    with pytest.raises(TypeError, match="action must be an int, got bool"):
        game.apply(state, True)
    with pytest.raises(ValueError, match=r"action 36 is out of range \[0, 36\)"):
        game.apply(state, 36)
    over = game.apply(game.position("A9 B2 . . . . . . ."), 1)
    with pytest.raises(ValueError, match="action 1 played after the game ended"):
        game.apply(over, 1)


def test_registry_presets() -> None:
    assert "node_conquest" in boardenvs.list_games()
    assert boardenvs.make_game("node_conquest", preset="paper").config == NodeConquestConfig()
    assert boardenvs.make_game("node_conquest", preset="small").config == NodeConquestConfig(rows=3, cols=3)


def test_spec_of_the_paper_game() -> None:
    spec = NodeConquest().spec
    assert (spec.name, spec.num_players, spec.num_actions, spec.max_game_length) == ("node_conquest", 2, 100, 200)
    assert spec.observation_shape == (9, 5, 5) and spec.observation_kind == "planes"
    names = ["owners", "units", "neutral_units", "growth", "node_exists", "time_elapsed", "my_turn"]
    assert [f.name for f in spec.observation_fields] == names
    assert spec.symmetries == ("rotate_180_swap_players",) and spec.perfect_information and spec.zero_sum


def test_graph_game_has_vector_observation_and_adjacency() -> None:
    game = NodeConquest(**RING8)
    assert game.spec.observation_kind == "vector" and game.spec.observation_shape == (9 * 8,)
    assert game.adjacency[0] == (1, 7) and game.spec.symmetries == ()
    assert game.spec.num_actions == 8 * 2  # every node grows: no PASS
    state = game.initial_state()
    obs = game.observe(state, 1)
    assert obs[game.spec.field("owners").start + 4] == 1.0  # observer (player 1) owns node 4


def test_hex_has_six_slots_and_planes() -> None:
    game = NodeConquest(topology="hex", rows=3, cols=3)
    assert game.spec.num_actions == 54 and game.spec.observation_shape == (9, 3, 3)
    assert set(game.adjacency[4]) == {3, 5, 1, 2, 7, 8}  # b2 is on an odd row (shifted right)


def test_game_and_state_pickle_small() -> None:
    game = NodeConquest(**RING8)
    assert pickle.loads(pickle.dumps(game)) == game and len(pickle.dumps(game)) < 1000
    state = game.initial_state()
    assert pickle.loads(pickle.dumps(state)).key() == state.key()


def test_render_rgb_draws_owner_colours() -> None:
    pytest.importorskip("PIL")
    game = NodeConquest()
    image = game.render_rgb(game.initial_state())
    assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3
    pixels = {tuple(p) for p in image.reshape(-1, 3).tolist()}
    owners = {tuple(int(c[k : k + 2], 16) for k in (1, 3, 5)) for c in PLAYER_COLOURS[:2]}
    assert owners <= pixels and len(pixels) >= 4  # background, neutral, two players' discs
    ring = NodeConquest(**RING8)
    assert ring.render_rgb(ring.initial_state()).shape[2] == 3
