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

import json
from pathlib import Path
from typing import Any

import numpy as np

from boardenvs.games.quoridor import Quoridor

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


def playthrough(game: Quoridor, seed: int) -> list[dict[str, Any]]:
    """The ply records of one seeded game."""
    rng = np.random.default_rng(seed)
    state = game.initial_state(rng)
    records = []
    while not game.is_terminal(state):
        action = choose(game, state, rng)
        after = game.apply(state, action)
        records.append(
            {
                "before": game.to_text(state),
                "action": action,
                "move": game.action_to_str(state, action),
                "legal": sorted(game.action_to_str(state, int(a)) for a in game.legal_actions(state)),
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
        game = Quoridor(**config)
        for seed in seeds:
            header = {"game": game.name, "version": game.version, "config": config, "seed": seed}
            lines = [header, *playthrough(game, seed)]
            path = directory / f"{name}_seed{seed}.jsonl"
            path.write_text("".join(json.dumps(line) + "\n" for line in lines))
            paths.append(path)
    return paths


if __name__ == "__main__":
    for written in write_all():
        print(f"{written}: {written.stat().st_size:,} bytes")
