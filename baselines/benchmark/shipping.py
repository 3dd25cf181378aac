"""Shipping: each game's best PPO model of a finished table onto the ``ppo:pretrained`` shelf."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from baselines.benchmark.jobs import read_result
from baselines.benchmark.report import score_text
from baselines.benchmark.table import Cell


def mean_score(result: Mapping[str, Any]) -> float:
    """The mean win rate of a result over its evaluation opponents."""
    return float(np.mean([row["win_rate"] for row in result["evaluations"]]))


def ship_models(
    out: Path, table: Sequence[Cell], budget: str, models_dir: str | Path | None = None, command: str = ""
) -> list[Path]:
    """Copy each game's best PPO model of the finished table in ``out`` into the ``ppo:pretrained`` shelf.

    Raises:
        ValueError: no PPO cell in ``table``, or one that has not finished (nothing is shipped then).
    """
    from baselines.learners.sb3.pretrained import ship

    cells = [cell for cell in table if cell.learner == "ppo"]
    missing = [cell.name for cell in cells if read_result(out / cell.name) is None]
    if not cells or missing:
        raise ValueError(f"ship: finish the PPO cells first (unfinished in {str(out)!r}: {missing or 'no PPO cell'})")
    shipped = []
    for game in dict.fromkeys(cell.game for cell in cells):
        results = [read_result(out / cell.name) or {} for cell in cells if cell.game == game]
        best = max(results, key=mean_score)
        notes = f"benchmark cell {best['cell']} ({budget} budget): " + ", ".join(
            f"vs {row['opponent']} {score_text(row)} over {row['games']} games" for row in best["evaluations"]
        )
        run_command = command or f"python -m scripts.learner_benchmark --budget {budget} --games {game} --learners ppo"
        shipped.append(ship(out / best["cell"] / best["model"], run_command, f"{notes}; docs/results/benchmark.md",
                            models_dir))  # fmt: skip
    return shipped
