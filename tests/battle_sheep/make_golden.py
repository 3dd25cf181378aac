"""Write the golden Battle Sheep playthroughs: ``python -m tests.battle_sheep.make_golden``.

Each file under ``tests/battle_sheep/golden/`` is one seeded game on a small board. The first line is a
header (game, version, config, seed); every further line is one ply: ``before`` (``to_text``), the
``action`` id, its ``move`` string, the sorted ``legal`` move strings, ``after`` and the ``returns``
after the move. Moves are uniformly random legal moves. Regenerating the files is a reviewed change that
bumps ``BattleSheep.version``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from boardenvs.games.battle_sheep import BattleSheep
from tests.golden import print_written, write_golden

GOLDEN_DIR = Path(__file__).parent / "golden"
GAMES: dict[str, tuple[dict[str, Any], tuple[int, ...]]] = {
    "6x6_2p": ({"board_size": 6, "field_size": 18, "num_players": 2, "sheep_per_player": 4}, (0, 1)),
    "6x6_4p_teams": ({"board_size": 6, "field_size": 20, "sheep_per_player": 3, "teams": True}, (0,)),
    "7x7_3p_restricted": (
        {"board_size": 7, "field_size": 24, "num_players": 3, "sheep_per_player": 5, "restricted_splits": True},
        (0,),
    ),
}


def write_all(directory: Path = GOLDEN_DIR) -> list[Path]:
    """Write every golden file; returns their paths."""
    return write_golden(directory, GAMES, BattleSheep)


if __name__ == "__main__":
    print_written(write_all())
