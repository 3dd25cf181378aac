"""Write the golden Battle Sheep playthroughs: ``python -m tests.battle_sheep.make_golden``.

Each file under ``tests/battle_sheep/golden/`` is one seeded game on a small board. The first line is a
header (game, version, config, seed); every further line is one ply: ``before`` (``to_text``), the
``action`` id, its ``move`` string, the sorted ``legal`` move strings, ``after`` and the ``returns``
after the move. Moves are uniformly random legal moves. Regenerating the files is a reviewed change that
bumps ``BattleSheep.version``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from boardenvs.games.battle_sheep import BattleSheep

GOLDEN_DIR = Path(__file__).parent / "golden"
GAMES: dict[str, tuple[dict[str, Any], tuple[int, ...]]] = {
    "6x6_2p": ({"board_size": 6, "field_size": 18, "num_players": 2, "sheep_per_player": 4}, (0, 1)),
    "6x6_4p_teams": ({"board_size": 6, "field_size": 20, "sheep_per_player": 3, "teams": True}, (0,)),
    "7x7_3p_restricted": (
        {"board_size": 7, "field_size": 24, "num_players": 3, "sheep_per_player": 5, "restricted_splits": True},
        (0,),
    ),
}


def playthrough(game: BattleSheep, seed: int) -> list[dict[str, Any]]:
    """The ply records of one seeded random game."""
    rng = np.random.default_rng(seed)
    state = game.initial_state(rng)
    records = []
    while not game.is_terminal(state):
        legal = game.legal_actions(state)
        action = int(legal[rng.integers(len(legal))])
        after = game.apply(state, action)
        records.append(
            {
                "before": game.to_text(state),
                "action": action,
                "move": game.action_to_str(state, action),
                "legal": sorted(game.action_to_str(state, int(a)) for a in legal),
                "after": game.to_text(after),
                "returns": game.returns(after).tolist(),
            }
        )
        state = after
    return records


def write_all(directory: Path = GOLDEN_DIR) -> list[Path]:
    """Write every golden file; returns their paths."""
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, (config, seeds) in GAMES.items():
        game = BattleSheep(**config)
        for seed in seeds:
            header = {"game": game.name, "version": game.version, "config": config, "seed": seed}
            path = directory / f"{name}_seed{seed}.jsonl"
            path.write_text("".join(json.dumps(line) + "\n" for line in [header, *playthrough(game, seed)]))
            paths.append(path)
    return paths


if __name__ == "__main__":
    for written in write_all():
        print(f"{written}: {written.stat().st_size:,} bytes")
