"""Replay the golden playthroughs (``python -m tests.node_conquest.make_golden`` writes them) and diff every ply."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardenvs.games.node_conquest import NodeConquest
from tests.golden import replay_golden
from tests.node_conquest.make_golden import GOLDEN_DIR

FILES = sorted(GOLDEN_DIR.glob("*.jsonl"))


def test_golden_files_exist_and_stay_small() -> None:
    assert len(FILES) >= 4
    assert sum(path.stat().st_size for path in FILES) < 300_000


@pytest.mark.parametrize("path", FILES, ids=[path.stem for path in FILES])
def test_golden_playthrough_replays_exactly(path: Path) -> None:
    replay_golden(path, NodeConquest)
