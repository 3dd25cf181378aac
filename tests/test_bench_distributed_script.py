"""scripts.bench_distributed times one tournament per backend setup and checks they give the same records."""

from __future__ import annotations

import pytest

from scripts import bench_distributed
from scripts.bench_distributed import Args, Timing, chosen_setups, main, table

pytest.importorskip("ray")


def test_every_setup_is_timed_with_one_and_two_workers_and_gives_the_same_records(tmp_path) -> None:
    tiny = {"config": ["board_size=3"], "agents": "random,path", "games_per_pairing": 4, "rounds": 1}
    args = Args(**tiny, setups="cluster", out=str(tmp_path))
    timings, startup = main(args)
    assert [(t.setup, t.workers) for t in timings] == [("local", 1), ("local", 2), ("cluster", 1), ("cluster", 2)]
    assert all(t.games == 4 and t.seconds > 0 for t in timings) and startup["cluster"] > 0
    lines = (tmp_path / "bench_distributed.csv").read_text().splitlines()
    assert lines[0].split(",") == list(bench_distributed.FIELDS) and len(lines) == 5
    assert (tmp_path / "bench_distributed.png").exists()


def test_the_table_reads_medians_against_local() -> None:
    timings = [Timing("local", 1, 0, 10.0, 100), Timing("local", 2, 0, 5.0, 100), Timing("ray", 1, 0, 11.0, 100)]
    timings.append(Timing("ray", 2, 0, 5.5, 100))
    text = table(timings, {"ray": 4.2})
    assert "1.10" in text.splitlines()[3] and "ray 4.2 s" in text.splitlines()[-1]


def test_unknown_setups_and_empty_runs_are_refused() -> None:
    assert chosen_setups("cluster, ray") == ["local", "ray", "cluster"]
    with pytest.raises(ValueError, match="setups must name"):
        chosen_setups("locl")
    with pytest.raises(ValueError, match="rounds"):
        main(Args(rounds=0, setups="local", out=""))
