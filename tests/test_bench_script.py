"""scripts.bench runs every measurement and reports consistent numbers (speed itself is never asserted)."""

from __future__ import annotations

import json

from scripts.bench import Args, main, report


def test_bench_measures_the_forward_model_and_both_aec_loops(tmp_path) -> None:
    out = tmp_path / "bench.json"
    results = main(Args(games=["quoridor"], seconds=0.05, config=["board_size=3"], json_out=str(out)))
    names = [m.name for m in results["quoridor"]]
    assert names[:3] == ["quoridor forward model", "quoridor AEC raw_env", "quoridor AEC env()"]
    assert all(m.transitions > 0 and m.games > 0 and m.per_second > 0 for m in results["quoridor"])
    saved = json.loads(out.read_text())
    assert saved["quoridor"][0]["transitions"] == results["quoridor"][0].transitions


def test_report_gives_ratios_relative_to_the_forward_model() -> None:
    results = main(Args(games=["quoridor"], seconds=0.02, config=["board_size=3"]))["quoridor"]
    text = report(results)
    assert "1.00x" in text.splitlines()[1] and "games/s" in text.splitlines()[0]
