"""What every compiled playout shares (``baselines.search.compiled``): the one switch turns each off and back on,
and a finished game or zero plies comes back as it went in, no number drawn. Each game's own checks of its rules
are in ``tests/<game>/test_compiled.py``."""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any

import numpy as np
import pytest

from baselines.search.compiled import DISABLE_VARIABLE, compiling_disabled, load_kernels
from baselines.search.playout import UniformStream
from boardenvs.registry import make_game

if importlib.util.find_spec("numba") is None or compiling_disabled():
    pytest.skip("the compiled playouts need Numba and the switch on", allow_module_level=True)

GAMES = {
    "quoridor": {"board_size": 5},
    "gravwell": {"num_players": 2},
    "battle_sheep": {"num_players": 2, "board_size": 6, "field_size": 16, "sheep_per_player": 8},
    "splendor": {"preset": "rinascimento"},
    "node_conquest": {},
}


def compiled_module(game_name: str) -> Any:
    return importlib.import_module(f"baselines.games.{game_name}.compiled")


@pytest.mark.parametrize("game_name", list(GAMES))
def test_the_variable_set_to_one_turns_the_compiled_playout_off_and_unset_on(
    game_name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    game, compiled = make_game(game_name, **GAMES[game_name]), compiled_module(game_name)
    start = game.initial_state(np.random.default_rng(0))
    monkeypatch.setenv(DISABLE_VARIABLE, "1")
    load_kernels.cache_clear()
    try:
        assert compiled.compiled_playout(game, start, UniformStream(np.random.default_rng(0)), -1) is None
    finally:
        monkeypatch.delenv(DISABLE_VARIABLE)
        load_kernels.cache_clear()
    assert load_kernels(f"baselines.games.{game_name}.kernels") is not None
    assert compiled.compiled_playout(game, start, UniformStream(np.random.default_rng(0)), -1) is not None


@pytest.mark.parametrize("game_name", list(GAMES))
def test_finished_games_and_zero_plies_come_back_unchanged_with_no_number_drawn(game_name: str) -> None:
    game, compiled = make_game(game_name, **GAMES[game_name]), compiled_module(game_name)
    start = game.initial_state(np.random.default_rng(0))
    stream = UniformStream(np.random.default_rng(0))
    assert compiled.compiled_playout(game, start, stream, 0) is start and stream.index == 0
    end = compiled.compiled_playout(game, start, stream, -1)
    index = stream.index
    assert game.is_terminal(end) and compiled.compiled_playout(game, end, stream, -1) is end and stream.index == index
