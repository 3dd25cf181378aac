"""Replay the golden playthroughs (``python -m tests.splendor.make_golden`` writes them) and diff every ply."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from boardenvs.games.splendor import Splendor
from tests.splendor.make_golden import GOLDEN_DIR

FILES = sorted(GOLDEN_DIR.glob("*.jsonl"))


def test_golden_files_exist_and_stay_small() -> None:
    assert len(FILES) == 3
    assert sum(path.stat().st_size for path in FILES) < 600_000


@pytest.mark.parametrize("path", FILES, ids=[path.stem for path in FILES])
def test_golden_playthrough_replays_exactly(path: Path) -> None:
    header, *plies = [json.loads(line) for line in path.read_text().splitlines()]
    game = Splendor(**header["config"])
    assert header["version"] == game.version, "golden files are from another rules version: regenerate and review"
    state = game.initial_state(np.random.default_rng(header["seed"]))
    for index, ply in enumerate(plies):
        where = f"{path.name} ply {index}"
        assert game.to_text(state) == ply["before"], where
        assert sorted(game.action_to_str(state, int(a)) for a in game.legal_actions(state)) == ply["legal"], where
        assert game.parse_action(state, ply["move"]) == ply["action"], where
        state = game.apply(state, ply["action"])
        assert [e.type for e in state.events] == ply["events"], where
        assert game.to_text(state) == ply["after"], where
        assert game.returns(state).tolist() == ply["returns"], where
    assert game.is_terminal(state)
