"""``scripts/splendor_paper.py``'s round robin (d): files, pairwise intervals, resuming from the log."""

from __future__ import annotations

import csv

import pytest

from scripts.splendor_paper import ROUND_ROBIN, Args, check_args, main, pairwise_markdown


def test_the_round_robin_writes_its_files_and_every_pairing_with_an_interval(tmp_path) -> None:
    args = Args(osla_games=0, validate_games=0, reference_games=0, round_robin_games=2, progress=False,
                round_robin_agents=["random", "osla", "rmcts:budget=20"], out=str(tmp_path))  # fmt: skip
    rows, result = main(args)
    assert rows == [] and result is not None and len(result.records) == 6
    for name in ("round_robin.jsonl", "round_robin.csv", "round_robin.png", "round_robin_pairwise.csv"):
        assert (tmp_path / name).stat().st_size > 0
    with open(tmp_path / "round_robin_pairwise.csv") as handle:
        pairwise = list(csv.DictReader(handle))
    assert len(pairwise) == 6 and all(row["games"] == "2" for row in pairwise)
    assert all(float(row["ci_low"]) <= float(row["win_rate"]) <= float(row["ci_high"]) for row in pairwise)
    table = pairwise_markdown(result)
    assert table.splitlines()[0] == "| row vs column | random | osla | rmcts:budget=20 |" and "[" in table
    again = main(args)[1]  # the complete log is read back, nothing is replayed
    assert [r.actions for r in again.records] == [r.actions for r in result.records]


def test_the_round_robin_is_the_papers_agent_set() -> None:
    assert ROUND_ROBIN == ["random", "osla", "rmcts", "rhea:preset=bmrh_r1", "srh", "rhea:preset=ef_linear_hc"]
    with pytest.raises(ValueError, match="round_robin_games must be >= 0"):
        check_args(Args(round_robin_games=-2))
