"""Write the golden Quoridor playthroughs: ``python -m tests.quoridor.make_golden``.

Each file under ``tests/quoridor/golden/`` is one seeded game. The first line is a header
(game, version, config, seed); every further line is one ply: ``before`` (``to_text``), the
``action`` id, its ``move`` string, the sorted ``legal`` move strings, ``after`` (``to_text``)
and the ``returns`` after the move. Moves are chosen half of the time uniformly at random and
half of the time as the pawn step that most shortens the mover's path, so games are short and
have walls, jumps and a winner. Regenerating the files is a reviewed change that bumps
``Quoridor.version``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from boardenvs.games.quoridor import Quoridor
from tests.golden import print_written, write_golden

GOLDEN_DIR = Path(__file__).parent / "golden"
GAMES: dict[str, tuple[dict[str, Any], tuple[int, ...]]] = {
    "9x9_2p": ({"board_size": 9}, (0, 1)),
    "5x5_2p": ({"board_size": 5}, (0, 1, 2)),
    "5x5_4p": ({"board_size": 5, "num_players": 4}, (0, 1, 2)),
}


def choose(game: Quoridor, state, rng: np.random.Generator) -> int:
    """Half random, half the legal pawn move that brings the mover closest to its goal."""
    legal = [int(a) for a in game.legal_actions(state)]
    if rng.random() < 0.5:
        return legal[rng.integers(len(legal))]
    player = state.current_player
    pawn = [a for a in legal if game.decode(state, a).kind == "pawn"]
    if not pawn:
        return legal[rng.integers(len(legal))]
    return min(pawn, key=lambda a: game.distance_to_goal(game.apply(state, a), player))


def write_all(directory: Path = GOLDEN_DIR) -> list[Path]:
    """Write every golden file; returns their paths."""
    return write_golden(directory, GAMES, Quoridor, choose)


if __name__ == "__main__":
    print_written(write_all())
