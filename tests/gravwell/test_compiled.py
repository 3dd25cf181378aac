"""The compiled playout (``baselines.games.gravwell.compiled``) against the engine: from every golden position and from
random positions of every player count and variant (determinized views included), playouts of 1, 2 and 5 plies and
to the end reach the state of the generic ``random_playout`` (``key()``: events, reveals, ply, truncation included)
and use the same random numbers; blocks of numbers refill at the same place; the move cap truncates as
``Game.apply`` does; without Numba the generic playout gives the same states."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

from baselines.games import random_games
from baselines.games.gravwell import compiled
from baselines.search.playout import UniformStream, random_playout
from boardenvs.games.gravwell import Gravwell, GravwellState
from tests.gravwell.helpers import turn_state
from tests.gravwell.make_golden import GOLDEN_DIR
from tests.playouts import both_playouts, positions_before_the_end

pytest.importorskip("numba")
if os.environ.get(compiled.DISABLE_VARIABLE, "") not in ("", "0"):
    pytest.skip(f"{compiled.DISABLE_VARIABLE} is set: the Python playout only", allow_module_level=True)

CONFIGS = [
    {"num_players": 2},
    {"num_players": 3},
    {"num_players": 4},
    {"num_players": 2, "inert_tractors": True, "hardcore": True},
    {"num_players": 3, "no_secrets": True, "hardcore": True},
    {"num_players": 4, "inert_tractors": True, "no_secrets": True},
]
PLIES = (1, 2, 5, -1)


def config_id(config: dict) -> str:
    return ",".join(f"{key}={value}" for key, value in config.items())


def same_playout(game: Gravwell, state: GravwellState, seed: int, plies: int, block: int = 4096) -> GravwellState:
    """Both playouts from ``state`` with equal streams reach the same state using the same numbers; returns it."""
    expected, found = both_playouts(game, state, compiled.compiled_playout, seed, plies, block)
    assert found.direction == expected.direction and found.events == expected.events
    return found


@pytest.mark.parametrize("path", sorted(GOLDEN_DIR.glob("*.jsonl")), ids=lambda path: path.stem)
def test_every_golden_position_plays_out_as_the_generic_playout(path: Path) -> None:
    header, *plies = [json.loads(line) for line in path.read_text().splitlines()]
    game = Gravwell(**header["config"])
    state = game.initial_state(np.random.default_rng(header["seed"]))
    for index, ply in enumerate(plies):
        same_playout(game, state, seed=index, plies=PLIES[index % len(PLIES)])
        state = game.apply(state, ply["action"])


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_random_positions_and_their_determinized_views_play_out_as_the_generic_playout(config: dict) -> None:
    game = Gravwell(**config)
    rng = np.random.default_rng(len(config) + game.n)
    for seed in range(3):
        for index, state in enumerate(positions_before_the_end(game, seed)):
            if rng.random() < 0.25:
                view = game.determinize(state, state.current_player, rng) if rng.random() < 0.5 else state
                same_playout(game, view, seed=1000 * seed + index, plies=int(rng.choice(PLIES)))


def escaping_seeds(game: Gravwell, count: int) -> list[int]:
    """The first ``count`` seeds whose random game (start and numbers from the seed) ends by an escape (about 1 in 25
    random games does)."""
    seeds: list[int] = []
    seed = 0
    while len(seeds) < count:
        start, stream = game.initial_state(np.random.default_rng(seed)), UniformStream(np.random.default_rng(seed))
        seeds += [seed] if random_playout(game, start, stream, -1).winner >= 0 else []
        seed += 1
    return seeds


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_random_games_end_as_the_generic_playout_ends_them_by_an_escape_or_after_6_rounds(num_players: int) -> None:
    game = Gravwell(num_players=num_players)
    escaping = escaping_seeds(game, 3)
    for seed in sorted({*range(15), *escaping}):
        final = same_playout(game, game.initial_state(np.random.default_rng(seed)), seed=seed, plies=-1)
        assert game.is_terminal(final) and not final.truncated
        assert (final.winner >= 0) == (seed in escaping)
        assert final.events[-1].kind == "escape" if seed in escaping else final.round == 5 and final.turn == 5


def test_a_hulk_pulled_onto_the_warp_gate_wins_nothing_and_a_player_may_then_land_there() -> None:
    game = Gravwell(num_players=3)  # P0 on 53 plays Qt (tractor 3): the hulk on 51 goes first, onto 54
    state = turn_state(game, [53, 45, 5, 51, 26], [["Qt"], ["Ra"], ["Ar"]], stops=False)
    final = same_playout(game, state, seed=0, plies=3)
    assert final.pos[3] == 54 and final.winner == 1  # then P1's Ra (normal 9) lands on 54 too
    assert [event.kind for event in final.events[-2:]] == ["move", "escape"]


def test_a_block_of_seven_numbers_refills_where_the_generic_playout_does() -> None:
    game = Gravwell(num_players=4)
    for seed in range(3):
        start = game.initial_state(np.random.default_rng(seed))
        same_playout(game, start, seed=seed, plies=-1, block=7)
        same_playout(game, positions_before_the_end(game, seed)[40 + seed], seed=seed, plies=13, block=7)


@pytest.mark.parametrize("max_plies", [1, 7, 45, 100, 150])
def test_the_move_cap_truncates_the_game_as_game_apply_does(max_plies: int) -> None:
    game = Gravwell(num_players=3, max_plies=max_plies)
    for seed in range(4):
        final = same_playout(game, game.initial_state(np.random.default_rng(seed)), seed=seed, plies=-1)
        assert final.truncated and final.ply == max_plies and final.winner == -1


def test_an_escape_on_the_capped_ply_stands() -> None:
    full = Gravwell(num_players=2)
    for seed in escaping_seeds(full, 2):
        start, stream = full.initial_state(np.random.default_rng(seed)), UniformStream(np.random.default_rng(seed))
        end = random_playout(full, start, stream, -1)
        capped = Gravwell(num_players=2, max_plies=end.ply)
        final = same_playout(capped, capped.initial_state(np.random.default_rng(seed)), seed=seed, plies=-1)
        assert final.winner == end.winner >= 0 and not final.truncated and final.ply == end.ply


def test_the_python_playout_takes_over_without_numba_and_plays_the_same_games() -> None:
    game = Gravwell(num_players=4)
    state = positions_before_the_end(game, 3)[30]
    expected = compiled.gravwell_playout(game, state, UniformStream(np.random.default_rng(8)), -1)
    games = random_games("gravwell", game, 5, 3)
    with compiled.python_only():
        assert compiled.compiled_playout(game, state, UniformStream(np.random.default_rng(8)), -1) is None
        fallback = compiled.gravwell_playout(game, state, UniformStream(np.random.default_rng(8)), -1)
        assert random_games("gravwell", game, 5, 3) == games
    assert fallback.key() == expected.key() and compiled.DISABLE_VARIABLE not in os.environ
    assert compiled.compiled_playout(game, state, UniformStream(np.random.default_rng(8)), -1).key() == expected.key()




def test_the_returned_state_plays_on_in_the_engine() -> None:
    game = Gravwell(num_players=4)
    start = game.initial_state(np.random.default_rng(2))
    middle = compiled.compiled_playout(game, start, UniformStream(np.random.default_rng(2)), 77)
    copy = middle.copy()
    assert copy.key() == middle.key() and game.to_text(middle)
    action = int(game.legal_actions(middle)[0])
    assert game.apply(middle, action).key() == game.apply(copy, action).key()
    assert game.observe(middle, 1).tolist() == game.observe(copy, 1).tolist()
