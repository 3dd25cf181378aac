"""Cross-check against OpenSpiel's Quoridor (2 players): legal moves, turn, board drawing and outcome.

Both engines are driven by the same seeded random choice of a legal move string, at every
position of every game. OpenSpiel's PASS is the mover's own square; ours is ``"pass"``.
"""

from __future__ import annotations

import numpy as np
import pytest

from boardenvs.games.quoridor import Quoridor
from tests.quoridor.helpers import WALL_SUFFIXES, square

pyspiel = pytest.importorskip("pyspiel")

CHUNKS = 4  # games are split in chunks so that pytest-xdist can spread them


def _openspiel(board_size: int, walls: int | None = None):
    params = {"board_size": board_size, "players": 2}
    if walls is not None:
        params["wall_count"] = walls
    return pyspiel.load_game("quoridor", params)


def _our_moves(game: Quoridor, state) -> dict[str, int]:
    """Our legal moves by OpenSpiel's name (PASS named after the mover's square)."""
    moves = {}
    for action in game.legal_actions(state):
        name = game.action_to_str(state, int(action))
        if name == "pass":
            name = square(*game.pawn_square(state, state.current_player))
        moves[name] = int(action)
    return moves


def _openspiel_board(their_state) -> str:
    """OpenSpiel's drawing without its first line, player 1's pawn drawn as ``1`` like ours."""
    return str(their_state).split("\n", 1)[1].rstrip("\n").replace("@", "1")


def _choose(rng: np.random.Generator, names: list[str], pawn_bias: float) -> str:
    pawn = [name for name in names if not name.endswith(WALL_SUFFIXES)]
    pool = pawn if pawn and rng.random() < pawn_bias else names
    return pool[rng.integers(len(pool))]


def play_both(game: Quoridor, theirs_game, rng: np.random.Generator, pawn_bias: float = 0.0) -> int:
    """Play one game in both engines, comparing every position; returns the number of plies."""
    ours, theirs = game.initial_state(rng), theirs_game.new_initial_state()
    while not theirs.is_terminal():
        assert ours.current_player == theirs.current_player(), game.to_text(ours)
        our_moves = _our_moves(game, ours)
        their_moves = {theirs.action_to_string(a): a for a in theirs.legal_actions()}
        assert sorted(our_moves) == sorted(their_moves), game.to_text(ours)
        assert game.to_text(ours).split("\n", 1)[1] == _openspiel_board(theirs)
        name = _choose(rng, sorted(our_moves), pawn_bias)
        ours = game.apply(ours, our_moves[name])
        theirs.apply_action(their_moves[name])
    assert game.is_terminal(ours), game.to_text(ours)
    assert game.returns(ours).tolist() == list(theirs.returns())
    assert ours.ply == len(theirs.history())
    return ours.ply


@pytest.mark.parametrize("board_size", [9, 5])
def test_defaults_match_openspiel(board_size: int) -> None:
    theirs = _openspiel(board_size)
    game = Quoridor(board_size=board_size)
    assert theirs.get_parameters()["wall_count"] == game.config.walls
    assert theirs.max_game_length() == game.spec.max_game_length


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("board_size", [9, 5])
def test_random_games_match_openspiel(board_size: int, chunk: int) -> None:
    game, theirs = Quoridor(board_size=board_size), _openspiel(board_size)
    games = 200 // CHUNKS
    for index in range(chunk * games, (chunk + 1) * games):
        play_both(game, theirs, np.random.default_rng(index))


@pytest.mark.parametrize("board_size, walls, games", [(9, 30, 20), (7, 20, 60), (4, 6, 150), (3, 4, 150)])
def test_pawn_heavy_games_with_many_walls_match_openspiel(board_size: int, walls: int, games: int) -> None:
    """Walls placed while pawns roam the board: probes the 'keep a path' rule from many squares."""
    game, theirs = Quoridor(board_size=board_size, walls_per_player=walls), _openspiel(board_size, walls)
    for index in range(games):
        play_both(game, theirs, np.random.default_rng(1000 + index), pawn_bias=0.7)
