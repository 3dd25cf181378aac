"""scripts/battle_sheep_paper.py: seed 003's five agents in one tournament next to the seed's numbers, and the Q
table's training mode (tiny budgets)."""

from __future__ import annotations

import csv
from pathlib import Path

from baselines.learners.sheep_q import SheepQTable
from scripts.battle_sheep_paper import PAPER_WINS, Args, agent_specs, main


def test_the_five_agents_play_one_tournament_written_next_to_the_seeds_numbers(tmp_path: Path) -> None:
    result = main(Args(simulations=4, games_per_pairing=4, out=str(tmp_path), progress=False))
    assert len(result.records) == 5 * 4 and {s.name for s in result.stats} == set(PAPER_WINS)
    with (tmp_path / "battle_sheep_paper.csv").open() as handle:
        rows = {row["agent"]: row for row in csv.DictReader(handle)}
    assert rows["mcts_evaluation"]["paper_wins"] == "7" and rows["minimax"]["spec"] == "minimax:depth=4:nodes=4"
    assert all(float(row["ci_low"]) <= float(row["win_rate"]) <= float(row["ci_high"]) for row in rows.values())
    assert (tmp_path / "battle_sheep_paper.png").stat().st_size > 0


def test_the_seeds_move_set_variant_writes_its_own_files(tmp_path: Path) -> None:
    main(Args(simulations=2, games_per_pairing=4, out=str(tmp_path), progress=False, restricted_splits=True))
    assert (tmp_path / "battle_sheep_paper_restricted_splits.csv").exists()


def test_training_mode_saves_a_table_and_evaluates_it(tmp_path: Path) -> None:
    path = tmp_path / "q.json"
    result = main(Args(train_q=True, train_games=20, q_eval_games=4, q_table=str(path), progress=False))
    assert SheepQTable.load(str(path)).training["games"] == 20
    assert {s.name for s in result.stats} == {"qlearning", "untrained", "random"}
    assert agent_specs(10, str(path))["qlearning"] == f"qlearning:table={path}"
