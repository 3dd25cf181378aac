"""Replay the golden playthroughs (``python -m tests.gravwell.make_golden`` writes them) and diff every ply."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from boardenvs.games.gravwell import Gravwell
from tests.golden import replay_golden
from tests.gravwell.make_golden import GAMES, GOLDEN_DIR, extra_fields, write_all

FILES = sorted(GOLDEN_DIR.glob("*.jsonl"))


def test_golden_files_exist_and_stay_small() -> None:
    assert len(FILES) == sum(len(seeds) for _, seeds in GAMES.values())
    assert sum(path.stat().st_size for path in FILES) < 250_000


def test_golden_games_cover_tractor_pulls_stops_and_escapes() -> None:
    kinds, pulls = set(), 0
    for path in FILES:
        for line in path.read_text().splitlines()[1:]:
            for _ply, kind, player, _card, ship, _tile in json.loads(line)["events"]:
                kinds.add(kind)
                pulls += kind == "move" and ship != player
    assert {"emergency_stop", "escape", "stuck", "round"} <= kinds and pulls > 0


@pytest.mark.parametrize("path", FILES, ids=[path.stem for path in FILES])
def test_golden_playthrough_replays_exactly(path: Path) -> None:
    config = json.loads(path.read_text().splitlines()[0])["config"]
    replay_golden(path, Gravwell, extra=extra_fields(Gravwell(**config)))


def test_make_golden_regenerates_identical_files(tmp_path: Path) -> None:
    for path in write_all(tmp_path):
        assert path.read_bytes() == (GOLDEN_DIR / path.name).read_bytes(), path.name
