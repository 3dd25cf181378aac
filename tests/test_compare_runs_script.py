"""Tests of ``scripts/compare_runs.py``: it reads SB3 runs' eval.csv, prints and plots one opponent's win rates."""

from __future__ import annotations

from pathlib import Path

import pytest

from baselines.learners.evaluation import eval_row, write_eval_rows
from scripts.compare_runs import Args, main


def write_run(folder: Path, rates: list[float]) -> Path:
    rows = []
    for index, rate in enumerate(rates):
        wins = round(rate * 10)
        rows += [eval_row(1000 * index, 60.0 * index, "random", (wins, 0, 10 - wins))]
        rows += [eval_row(1000 * index, 60.0 * index, "greedy", (0, 0, 10))]
    folder.mkdir(parents=True)
    write_eval_rows(folder / "eval.csv", rows)
    return folder


def test_compare_runs_plots_one_line_per_run_from_the_opponents_rows(tmp_path: Path, capsys) -> None:
    off, on = write_run(tmp_path / "off", [0.5, 0.6]), write_run(tmp_path / "on", [0.5, 0.9, 1.0])
    png = tmp_path / "plot.png"
    runs = main(Args(runs=[f"off={off}", f"shaping=3={on}"], opponent="random", png=str(png)))
    assert list(runs) == ["off", "shaping=3"]
    assert [row.win_rate for row in runs["shaping=3"]] == [0.5, 0.9, 1.0]
    assert png.stat().st_size > 0
    assert "shaping=3" in capsys.readouterr().out


def test_compare_runs_names_a_missing_run_an_unknown_opponent_and_a_bad_pair(tmp_path: Path) -> None:
    run = write_run(tmp_path / "run", [0.5])
    with pytest.raises(FileNotFoundError, match="eval.csv"):
        main(Args(runs=[f"a={tmp_path / 'missing'}"], png=str(tmp_path / "p.png")))
    with pytest.raises(ValueError, match="no evaluation against 'buyer'"):
        main(Args(runs=[f"a={run}"], opponent="buyer", png=str(tmp_path / "p.png")))
    with pytest.raises(ValueError, match="name=folder"):
        main(Args(runs=[str(run)], png=str(tmp_path / "p.png")))
    with pytest.raises(ValueError, match="at least one"):
        main(Args(runs=[], png=str(tmp_path / "p.png")))
