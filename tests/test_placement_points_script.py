"""Tests of ``scripts/placement_points.py`` and ``baselines.arena.place_points``: points by finishing place."""

from __future__ import annotations

import numpy as np
import pytest

from baselines import RandomAgent, tournament
from baselines.arena import place_points
from boardenvs import make_game
from scripts.placement_points import Args, cli, main


def test_places_get_their_points_and_ties_split_them() -> None:
    table = [5.0, 3.0, 2.0, 1.0]
    assert place_points(np.array([0.1, 0.9, -0.5, 0.0]), table).tolist() == [3.0, 5.0, 1.0, 2.0]
    assert place_points(np.array([1.0, 1.0, 0.0, 0.0]), table).tolist() == [4.0, 4.0, 1.5, 1.5]
    assert place_points(np.array([0.0, 0.0, 0.0, 0.0]), table).tolist() == [2.75] * 4
    with pytest.raises(ValueError, match="one entry per seat"):
        place_points(np.array([1.0, 0.0]), table)


def test_a_logged_four_player_tournament(tmp_path, capsys) -> None:
    game = make_game("battle_sheep", preset="basic")
    log = tmp_path / "sheep.jsonl"
    tournament(game, {"a": RandomAgent}, 4, seed=1, field={"b": RandomAgent}, log_path=log)
    summary = main(Args(log=str(log)))
    assert summary["a"]["seats"] == 4 and summary["b"]["seats"] == 12
    total = 4 * summary["a"]["mean_points"] + 12 * summary["b"]["mean_points"]
    assert total == pytest.approx(4 * (5 + 3 + 2 + 1))  # every game hands out exactly 11 points
    cli([str(log), "--points", "5,3,2,1"])
    assert "points/seat" in capsys.readouterr().out


def test_a_file_that_is_not_a_log_is_refused(tmp_path) -> None:
    path = tmp_path / "other.jsonl"
    path.write_text('{"hello": 1}\n')
    with pytest.raises(ValueError, match="not a tournament log"):
        main(Args(log=str(path)))
    with pytest.raises(ValueError, match="log: give the path"):
        main(Args())
