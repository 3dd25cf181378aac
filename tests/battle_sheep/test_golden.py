"""Replay the golden playthroughs (``python -m tests.battle_sheep.make_golden`` writes them) and diff every ply."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardenvs.games.battle_sheep import BattleSheep
from tests.battle_sheep.make_golden import GOLDEN_DIR
from tests.golden import replay_golden

FILES = sorted(GOLDEN_DIR.glob("*.jsonl"))


def test_golden_files_exist_and_stay_small() -> None:
    assert len(FILES) >= 4
    assert sum(path.stat().st_size for path in FILES) < 200_000


@pytest.mark.parametrize("path", FILES, ids=[path.stem for path in FILES])
def test_golden_playthrough_replays_exactly(path: Path) -> None:
    replay_golden(path, BattleSheep)
