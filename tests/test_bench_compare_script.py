"""scripts.bench_compare: the bench in two versions of the code, alternating, medians side by side."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from scripts.bench_compare import Args, Row, main, table


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_comparing_head_with_this_tree_measures_every_row_in_both_trees() -> None:
    inside = subprocess.run(["git", "rev-parse", "--is-inside-work-tree"], capture_output=True, text=True)
    if inside.stdout.strip() != "true":
        pytest.skip("not a git checkout")
    args = Args(
        before="HEAD", games=["node_conquest"], config=["rows=3", "cols=3"], rounds=2, seconds=0.05, progress=False
    )
    rows = main(args)
    names = [row.name for row in rows]
    assert names[:2] == ["node_conquest forward model", "node_conquest forward model, mask"]
    assert all(len(row.before) == 2 and len(row.after) == 2 for row in rows)
    assert all(row.ratio > 0 for row in rows)
    worktrees = subprocess.run(["git", "worktree", "list"], capture_output=True, text=True).stdout
    assert "before" not in worktrees  # the temporary worktree is gone


def test_the_table_gives_medians_the_ratio_and_its_range() -> None:
    row = Row("x forward model", before=[100.0, 200.0, 300.0], after=[110.0, 180.0, 330.0])
    assert row.ratio == pytest.approx(0.9)
    assert row.ratio_range() == pytest.approx((0.9, 1.1))
    lines = table([row]).splitlines()
    assert lines[1].split()[-3:] == ["180", "0.900", "0.900-1.100"]


def test_rounds_must_be_positive() -> None:
    with pytest.raises(ValueError, match="rounds must be >= 1"):
        main(Args(rounds=0))


def test_a_row_only_one_tree_measures_is_left_out(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    from scripts import bench_compare

    def fake_rates(tree, args, out):
        rates = {"g forward model": 10.0 if tree.name == "before" else 20.0}
        return rates if tree.name == "before" else {**rates, "g new row": 5.0}

    monkeypatch.setattr(bench_compare, "bench_rates", fake_rates)
    rows = bench_compare.compare(tmp_path / "before", tmp_path / "after", Args(rounds=2, progress=False))
    assert [row.name for row in rows] == ["g forward model"] and rows[0].ratio == pytest.approx(2.0)
