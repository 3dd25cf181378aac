"""The engines' and tools' speed: what ``python -m scripts.bench`` measures (the script parses, prints, writes).

(Not to be confused with :mod:`baselines.benchmark`, the learner benchmark: how well each learner plays.)

- :mod:`~baselines.speed.timing`: :class:`Measurement`, the timed loop, pre-drawn random choices;
- :mod:`~baselines.speed.engines`: random-play transitions per second of a game's forward model, its pictures,
  and OpenSpiel's C++ Quoridor;
- :mod:`~baselines.speed.envs`: the same through the AEC, Gymnasium and vectorised environments;
- :mod:`~baselines.speed.games`: every row of one game (:func:`bench_game`) and their table (:func:`report`);
- :mod:`~baselines.speed.mcts`: MCTS simulations per second against OpenSpiel's ``MCTSBot``;
- :mod:`~baselines.speed.alphazero`: AlphaZero self-play search, batched against one-leaf;
- :mod:`~baselines.speed.arena`: the live arena's server time per move;
- :mod:`~baselines.speed.replay_pages`: HTML replay pages in headless Chromium.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from baselines.speed.alphazero import ALPHAZERO_ROUNDS, SelfPlaySpeed, bench_alphazero, report_alphazero
from baselines.speed.arena import ArenaLatency, bench_arena, report_arena
from baselines.speed.games import bench_game, report
from baselines.speed.mcts import SearchSpeed, bench_mcts, report_mcts
from baselines.speed.replay_pages import ReplayPageSpeed, bench_replay_pages, report_replay_pages
from baselines.speed.timing import Measurement, median_measurement


def as_json(measurement: Measurement | SearchSpeed | SelfPlaySpeed | ArenaLatency | ReplayPageSpeed) -> dict[str, Any]:
    """A measurement's fields and its rates, for a JSON file."""
    extra = {"per_second": measurement.per_second}
    if isinstance(measurement, Measurement):
        extra["games_per_second"] = measurement.games_per_second
    if isinstance(measurement, SelfPlaySpeed):
        extra["leaves_per_pass"] = measurement.leaves_per_pass
        extra["network_share"] = measurement.network_share
    return dataclasses.asdict(measurement) | extra


__all__ = [
    "ALPHAZERO_ROUNDS",
    "ArenaLatency",
    "Measurement",
    "ReplayPageSpeed",
    "SearchSpeed",
    "SelfPlaySpeed",
    "as_json",
    "bench_alphazero",
    "bench_arena",
    "bench_game",
    "bench_mcts",
    "bench_replay_pages",
    "median_measurement",
    "report",
    "report_alphazero",
    "report_arena",
    "report_mcts",
    "report_replay_pages",
]
