"""Cross-check the bitboard engine against the plain reference in ``reference.py``.

This covers what OpenSpiel cannot: four players (OpenSpiel's 4-player Quoridor aborts on some
games) and the liberal jump rule. Positions come from seeded games that favour pawn moves and
give each player many walls, so walls are placed with pawns all over the board.
"""

from __future__ import annotations

import numpy as np
import pytest

from boardenvs.games.quoridor import Quoridor
from tests.quoridor import reference
from tests.quoridor.helpers import legal_strings, placed_walls

VARIANTS = {
    "2p_5x5": {"board_size": 5, "walls_per_player": 8},
    "2p_4x4": {"board_size": 4, "walls_per_player": 6},
    "4p_5x5": {"board_size": 5, "num_players": 4, "walls_per_player": 4},
    "4p_6x6": {"board_size": 6, "num_players": 4, "walls_per_player": 6},
    "4p_4x4": {"board_size": 4, "num_players": 4, "walls_per_player": 3},
    "liberal_2p_5x5": {"board_size": 5, "walls_per_player": 8, "liberal_jumps": True},
    "liberal_4p_5x5": {"board_size": 5, "num_players": 4, "walls_per_player": 4, "liberal_jumps": True},
}


def reference_moves(game: Quoridor, state) -> set[str]:
    walls = {(row, col, "h" if horizontal else "v") for row, col, horizontal in placed_walls(game, state)}
    pawns = [game.pawn_square(state, p) for p in range(game.config.num_players)]
    n, player = game.config.board_size, state.current_player
    return reference.legal_moves(n, walls, pawns, list(state.walls_left), player, game.config.liberal_jumps)


@pytest.mark.parametrize("config", VARIANTS.values(), ids=list(VARIANTS))
def test_legal_moves_match_the_reference(config: dict) -> None:
    game = Quoridor(**config)
    rng = np.random.default_rng(7)
    checked = 0
    for _ in range(12):
        state = game.initial_state(rng)
        while not game.is_terminal(state):
            assert legal_strings(game, state) == reference_moves(game, state), game.to_text(state)
            checked += 1
            actions = [int(a) for a in game.legal_actions(state)]
            pawn = [a for a in actions if game.decode(state, a).kind == "pawn"]
            pool = pawn if pawn and rng.random() < 0.6 else actions
            state = game.apply(state, pool[rng.integers(len(pool))])
    assert checked > 100
