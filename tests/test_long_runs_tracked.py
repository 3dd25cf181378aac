"""The long runs' small files are tracked by git (design.md, "Long runs in the repository"): a ladder's game logs
and the standard benchmark's per-cell results and curves, so a fresh clone resumes and refits them; their
checkpoints, models and pictures are not."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TRACKED = (
    "runs/ladder/gravwell/round_000/random--vs--tree.jsonl",
    "runs/ladder/gravwell/round_002/tree--vs--mcts-50.jsonl",
    "runs/ladder/gravwell/rate_mcts-400.jsonl",
    "runs/ladder/gravwell/rate_mcts-400.json",
    "runs/ladder/gravwell/timing.csv",
    "runs/benchmark/standard/seed_3/splendor-ppo/result.json",
    "runs/benchmark/standard/seed_3/splendor-ppo/run/eval.csv",
    "runs/benchmark/standard/seed_0/quoridor-alphazero/run/history.csv",
)
IGNORED = (
    "runs/ladder/gravwell/ratings.csv",
    "runs/ladder/gravwell/bootstrap.csv",
    "runs/ladder/gravwell/ladder.png",
    "runs/benchmark/standard/seed_3/splendor-ppo/run/best.zip",
    "runs/benchmark/standard/seed_0/quoridor-alphazero/run/checkpoint/model.pt",
    "runs/benchmark/standard/seed_0/benchmark.md",
    "runs/benchmark/standard/aggregate.csv",
    "runs/benchmark/full/seed_0/quoridor-ppo/result.json",
    "runs/sb3/quoridor/model.zip",
)


def ignored(paths: tuple[str, ...]) -> set[str]:
    """The paths among ``paths`` that the repository's ignore rules leave out."""
    done = subprocess.run(
        ["git", "check-ignore", "--no-index", *paths], cwd=ROOT, capture_output=True, text=True, check=False
    )
    return set(done.stdout.split())


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(), reason="not a git checkout")
def test_the_long_runs_small_files_are_tracked_and_their_heavy_files_are_not() -> None:
    assert ignored(TRACKED) == set()
    assert ignored(IGNORED) == set(IGNORED)
