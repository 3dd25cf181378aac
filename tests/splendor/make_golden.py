"""Write the golden Splendor playthroughs: ``python -m tests.splendor.make_golden``.

Each file under ``tests/splendor/golden/`` is one seeded random game: a header line (game, version, config,
seed), then one line per ply with ``before``/``after`` (``to_text``), the ``action`` id, its ``move``, the sorted
``legal`` moves, the event type ids and the ``returns``. Regenerating is a reviewed change that bumps
``Splendor.version``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from boardenvs.games.splendor import Splendor
from tests.golden import print_written, write_golden

GOLDEN_DIR = Path(__file__).parent / "golden"
GAMES: dict[str, tuple[dict[str, Any], tuple[int, ...]]] = {
    "2p": ({"num_players": 2}, (0,)),
    "3p": ({"num_players": 3}, (1,)),
    "rinascimento": ({"rinascimento": True, "deck": "rinascimento_native"}, (2,)),
}


def event_types(state) -> dict[str, Any]:
    """The Table I type ids of the events the move recorded."""
    return {"events": [event.type for event in state.events]}


def write_all(directory: Path = GOLDEN_DIR) -> list[Path]:
    """Write every golden file; returns their paths."""
    return write_golden(directory, GAMES, Splendor, extra=event_types)


if __name__ == "__main__":
    print_written(write_all())
