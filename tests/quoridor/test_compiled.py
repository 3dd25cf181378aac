"""The compiled playout (``baselines.games.quoridor.compiled``) against the engine: the same legal moves in every
position of every golden game and of random games, and the same playouts (final state, board, random numbers
used) from random positions of every board size, player count and jump rule; without Numba the Python playout."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

from baselines.games.quoridor import compiled, quoridor_playout
from baselines.games.quoridor.search import quoridor_python_playout
from baselines.search.playout import UniformStream
from boardenvs.games.quoridor import Quoridor
from boardenvs.games.quoridor.legality import legal_moves
from tests.quoridor.make_golden import GOLDEN_DIR

pytest.importorskip("numba")
if os.environ.get(compiled.DISABLE_VARIABLE, "") not in ("", "0"):
    pytest.skip(f"{compiled.DISABLE_VARIABLE} is set: the Python playout only", allow_module_level=True)

CONFIGS = [
    {},
    {"board_size": 5},
    {"num_players": 4},
    {"board_size": 7, "num_players": 4},
    {"liberal_jumps": True},
    {"board_size": 5, "num_players": 4, "liberal_jumps": True},
    {"board_size": 5, "max_moves": 12},  # games end at the move cap
]


def random_game(game: Quoridor, seed: int) -> list:
    """Every position of one random game (the start included, the end excluded)."""
    rng, state, positions = np.random.default_rng(seed), game.initial_state(), []
    while not game.is_terminal(state):
        positions.append(state)
        legal = game.legal_actions(state)
        state = game.apply(state, int(legal[rng.integers(len(legal))]))
    return positions


def same_playout(game: Quoridor, state, seed: int, plies: int) -> None:
    """Both playouts from ``state`` with equal streams reach the same state and board, using the same numbers."""
    python, fast = UniformStream(np.random.default_rng(seed)), UniformStream(np.random.default_rng(seed))
    expected = quoridor_python_playout(game, state, python, plies)
    found = compiled.compiled_playout(game, state, fast, plies)
    assert found.key() == expected.key() and found.truncated == expected.truncated
    assert (found.board.open, found.board.free, found.board.closers) == (
        expected.board.open, expected.board.free, expected.board.closers,
    )  # fmt: skip
    assert sorted(found.board.components) == sorted(expected.board.components)
    assert (fast.index, fast.values) == (python.index, python.values)
    assert game.returns(found).tolist() == game.returns(expected).tolist()


@pytest.mark.parametrize("path", sorted(GOLDEN_DIR.glob("*.jsonl")), ids=lambda path: path.stem)
def test_every_golden_position_has_the_engines_legal_moves_and_playouts(path: Path) -> None:
    header, *plies = [json.loads(line) for line in path.read_text().splitlines()]
    game = Quoridor(**header["config"])
    state = game.initial_state()
    for index, ply in enumerate(plies):
        assert compiled.compiled_legal_moves(game, state) == legal_moves(game.tables, state, game.liberal), index
        if index % 7 == 0:
            same_playout(game, state, seed=index, plies=-1 if index % 2 else 3)
        state = game.apply(state, ply["action"])


@pytest.mark.parametrize("config", CONFIGS, ids=lambda config: ",".join(f"{k}={v}" for k, v in config.items()) or "9x9")
def test_random_positions_have_the_engines_legal_moves_and_playouts(config: dict) -> None:
    game = Quoridor(**config)
    rng = np.random.default_rng(len(config))
    for seed in range(4):
        for index, state in enumerate(random_game(game, seed)):
            assert compiled.compiled_legal_moves(game, state) == legal_moves(game.tables, state, game.liberal)
            if rng.random() < 0.15:
                same_playout(game, state, seed=1000 * seed + index, plies=int(rng.choice([1, 2, 5, -1])))


def test_a_playout_longer_than_a_block_of_numbers_refills_where_the_python_one_does() -> None:
    game = Quoridor()
    for seed in range(3):
        python = UniformStream(np.random.default_rng(seed), block=7)
        fast = UniformStream(np.random.default_rng(seed), block=7)
        expected = quoridor_python_playout(game, game.initial_state(), python, -1)
        found = compiled.compiled_playout(game, game.initial_state(), fast, -1)
        assert found.key() == expected.key() and (fast.index, fast.values) == (python.index, python.values)


def test_the_search_uses_the_compiled_playout_and_falls_back_to_python_without_it() -> None:
    game = Quoridor(board_size=5)
    state = random_game(game, 3)[4]
    expected = quoridor_playout(game, state, UniformStream(np.random.default_rng(8)), -1)
    with compiled.python_only():
        assert compiled.compiled_playout(game, state, UniformStream(np.random.default_rng(8)), -1) is None
        fallback = quoridor_playout(game, state, UniformStream(np.random.default_rng(8)), -1)
    assert fallback.key() == expected.key() and compiled.DISABLE_VARIABLE not in os.environ
    assert compiled.compiled_playout(game, state, UniformStream(np.random.default_rng(8)), -1).key() == expected.key()


def test_finished_games_and_zero_plies_come_back_unchanged() -> None:
    game = Quoridor(board_size=5)
    start = game.initial_state()
    stream = UniformStream(np.random.default_rng(0))
    assert compiled.compiled_playout(game, start, stream, 0) is start and stream.index == 0
    end = compiled.compiled_playout(game, start, stream, -1)
    assert game.is_terminal(end) and compiled.compiled_playout(game, end, stream, -1) is end


def test_an_mcts_search_with_random_rollouts_is_the_same_with_either_playout() -> None:
    from baselines.search.mcts import MCTSAgent

    game = Quoridor()
    state = random_game(game, 5)[6]
    searches = []
    for only_python in (False, True):
        agent = MCTSAgent(4, simulations=60, evaluator="rollout")
        if only_python:
            with compiled.python_only():
                action = agent.act(game, state, state.current_player)
        else:
            action = agent.act(game, state, state.current_player)
        searches.append((action, agent.last_search.visits, agent.last_search.value))
    assert searches[0] == searches[1]
