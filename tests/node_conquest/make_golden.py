"""Write the golden Node Conquest playthroughs: ``python -m tests.node_conquest.make_golden``.

Each file under ``tests/node_conquest/golden/`` is one seeded game. The first line is a header (game,
version, config, seed); every further line is one ply: ``before`` (``to_text``), the ``action`` id, its
``move`` string, the sorted ``legal`` move strings, ``after`` (``to_text``) and the ``returns`` after the
move. Moves are chosen half of the time uniformly at random and half of the time as the move that leaves
the mover the most nodes, so games are short and end by elimination or at small caps. Regenerating the
files is a reviewed change that bumps ``NodeConquest.version``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from boardenvs.games.node_conquest import NodeConquest
from tests.golden import print_written, write_golden
from tests.node_conquest.helpers import RING8

GOLDEN_DIR = Path(__file__).parent / "golden"
GAMES: dict[str, tuple[dict[str, Any], tuple[int, ...]]] = {
    "5x5_2p": ({"max_plies": 60}, (0,)),
    "3x3_2p": ({"rows": 3, "cols": 3}, (0, 1, 2)),
    "3x3_all_units": ({"rows": 3, "cols": 3, "move_all_units": True, "max_plies": 40}, (0,)),
    "hex_3x4_3p": ({"topology": "hex", "rows": 3, "cols": 4, "num_players": 3, "max_plies": 40}, (0,)),
    "ring8": ({**RING8, "max_plies": 30, "tie_break": "units"}, (0,)),
}


def choose(game: NodeConquest, state, rng: np.random.Generator) -> int:
    """Half random, half the legal move that leaves the mover the most nodes (lowest id on ties)."""
    legal = [int(a) for a in game.legal_actions(state)]
    if rng.random() < 0.5:
        return legal[rng.integers(len(legal))]
    player = state.current_player
    return max(legal, key=lambda a: game.scores(game.apply(state, a))[player])


def write_all(directory: Path = GOLDEN_DIR) -> list[Path]:
    """Write every golden file; returns their paths."""
    return write_golden(directory, GAMES, NodeConquest, choose)


if __name__ == "__main__":
    print_written(write_all())
