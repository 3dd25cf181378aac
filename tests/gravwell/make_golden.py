"""Write the golden Gravwell playthroughs: ``python -m tests.gravwell.make_golden``.

Each file under ``tests/gravwell/golden/`` is one seeded game of uniformly random legal moves: a header line
(game, version, config, seed), then one line per ply with ``before``/``after`` (``to_text``), the ``action``
id, its ``move``, the sorted ``legal`` moves, the ``events`` the move recorded, ``obs`` (a digest of every
seat's observation after the move) and the ``returns``. Two 2-player games run to the end (one with the
inert-tractor compatibility flag and Hardcore, both ending in an escape); the 3- and 4-player games are cut
by ``max_plies`` (past the first round) to keep the files small. Regenerating the files is a reviewed change
that bumps ``Gravwell.version``.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from boardenvs.games.gravwell import Gravwell, GravwellState
from tests.golden import print_written, write_golden

GOLDEN_DIR = Path(__file__).parent / "golden"
GAMES: dict[str, tuple[dict[str, Any], tuple[int, ...]]] = {
    "2p": ({"num_players": 2}, (131,)),
    "2p_inert_hardcore": ({"num_players": 2, "inert_tractors": True, "hardcore": True}, (137,)),
    "3p_no_secrets_hardcore": ({"num_players": 3, "no_secrets": True, "hardcore": True, "max_plies": 45}, (0,)),
    "4p": ({"num_players": 4, "max_plies": 48}, (0,)),
    "4p_inert_no_secrets": ({"num_players": 4, "inert_tractors": True, "no_secrets": True, "max_plies": 48}, (1,)),
}


def observation_digest(game: Gravwell, state: GravwellState) -> str:
    """The first 12 hex digits of the sha256 of every seat's observation, seat 0 first."""
    digest = hashlib.sha256()
    for player in range(game.n):
        digest.update(game.observe(state, player).tobytes())
    return digest.hexdigest()[:12]


def extra_fields(game: Gravwell):
    """The recorder of the game-specific fields: the move's events and the observation digest."""

    def record(state: GravwellState) -> dict[str, Any]:
        return {"events": [list(event) for event in state.events], "obs": observation_digest(game, state)}

    return record


def write_all(directory: Path = GOLDEN_DIR) -> list[Path]:
    """Write every golden file; returns their paths."""
    paths = []
    for name, (config, seeds) in GAMES.items():
        paths += write_golden(directory, {name: (config, seeds)}, Gravwell, extra=extra_fields(Gravwell(**config)))
    return paths


if __name__ == "__main__":
    print_written(write_all())
