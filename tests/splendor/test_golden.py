"""Replay the golden playthroughs (``python -m tests.splendor.make_golden`` writes them) and diff every ply."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardenvs.games.splendor import Splendor
from tests.golden import replay_golden
from tests.splendor.make_golden import GAMES, GOLDEN_DIR, event_types

FILES = sorted(GOLDEN_DIR.glob("*.jsonl"))


def test_golden_files_exist_and_stay_small() -> None:
    assert len(FILES) == sum(len(seeds) for _, seeds in GAMES.values())
    assert sum(path.stat().st_size for path in FILES) < 600_000


@pytest.mark.parametrize("path", FILES, ids=[path.stem for path in FILES])
def test_golden_playthrough_replays_exactly(path: Path) -> None:
    replay_golden(path, Splendor, extra=event_types)
