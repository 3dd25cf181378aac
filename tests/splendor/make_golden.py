"""Write the golden Splendor playthroughs: ``python -m tests.splendor.make_golden``.

Each file under ``tests/splendor/golden/`` is one seeded random game: a header line (game, version, config,
seed), then one line per ply with ``before``/``after`` (``to_text``), the ``action`` id, its ``move``, the sorted
``legal`` moves, the event type ids and the ``returns``. Regenerating is a reviewed change that bumps
``Splendor.version``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from boardenvs.games.splendor import Splendor

GOLDEN_DIR = Path(__file__).parent / "golden"
GAMES: dict[str, tuple[dict[str, Any], int]] = {
    "2p": ({"num_players": 2}, 0),
    "3p": ({"num_players": 3}, 1),
    "rinascimento": ({"rinascimento": True, "deck": "rinascimento_native"}, 2),
}


def playthrough(game: Splendor, seed: int) -> list[dict[str, Any]]:
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
                "events": [e.type for e in after.events],
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
    for name, (config, seed) in GAMES.items():
        game = Splendor(**config)
        header = {"game": game.name, "version": game.version, "config": config, "seed": seed}
        path = directory / f"{name}_seed{seed}.jsonl"
        path.write_text("".join(json.dumps(line) + "\n" for line in [header, *playthrough(game, seed)]))
        paths.append(path)
    return paths


if __name__ == "__main__":
    for written in write_all():
        print(f"{written}: {written.stat().st_size:,} bytes")
