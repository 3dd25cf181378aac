"""Tests of the learner benchmark (``baselines.benchmark`` and ``scripts/learner_benchmark.py``) on a micro budget
given as data: 2 games x 2 learners (PPO and AlphaZero) with a few hundred steps and 4 evaluation games per opponent."""

from __future__ import annotations

import csv
import dataclasses
import json
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

from baselines import benchmark  # noqa: E402
from baselines.agent import BaseAgent, RandomAgent  # noqa: E402
from baselines.arena import evaluate_against  # noqa: E402
from baselines.benchmark import TABLE, Budget, Cell, CellJob, CountingAgent, markdown_row, select  # noqa: E402
from baselines.benchmark.report import write_outputs  # noqa: E402
from baselines.benchmark.seed_report import write_seed_outputs  # noqa: E402
from baselines.factory import make_agent  # noqa: E402
from baselines.learners.evaluation import read_eval_rows  # noqa: E402
from baselines.learners.sb3 import pretrained as sb3_pretrained  # noqa: E402
from boardenvs.core import Game  # noqa: E402
from boardenvs.registry import make_game  # noqa: E402
from scripts import learner_benchmark as script  # noqa: E402
from scripts.learner_benchmark import Args, main  # noqa: E402

PPO_MICRO = Budget("micro", 128, eval_games=4, curve_points=2, curve_games=2,
                   settings=("n_envs=1", "n_steps=64", "batch_size=32", "n_epochs=1"))  # fmt: skip
AZ_MICRO = Budget("micro", 2, eval_games=4, curve_points=2, curve_games=2,
                  settings=("games_per_iteration=2", "simulations=4", "fast_simulations=2", "channels=4", "blocks=1",
                            "hidden=8", "batch_size=8", "eval_every=2"))  # fmt: skip
TABULAR_MICRO = Budget("micro", 40, eval_games=4, curve_points=2, curve_games=2)
TINY = {"quoridor": ("board_size=3",), "node_conquest": ("rows=3", "cols=3")}
"""The micro table's configs: the smallest of each game, so a cell takes seconds."""


def micro_cell(cell: Cell) -> Cell:
    budget = {"ppo": PPO_MICRO, "alphazero": AZ_MICRO, "tabular_q": TABULAR_MICRO}[cell.learner]
    return dataclasses.replace(cell, config=TINY[cell.game], budgets=(budget,), settings=())


MICRO_TABLE = tuple(micro_cell(cell) for cell in select(TABLE, ["quoridor", "node_conquest"], ["ppo", "alphazero"]))
TABULAR_TABLE = tuple(micro_cell(cell) for cell in select(TABLE, ["quoridor", "node_conquest"], ["tabular_q"]))


def micro_args(out: Path, **changes: Any) -> Args:
    return Args(**{"budget": "micro", "out": str(out), "progress": False, **changes})


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The micro table, run once (its output folder)."""
    torch.set_num_threads(1)
    out = tmp_path_factory.mktemp("benchmark")
    results = main(micro_args(out), MICRO_TABLE)
    assert [result["cell"] for result in results] == [cell.name for cell in MICRO_TABLE]
    return out


@pytest.fixture
def copy_of(finished: Path, tmp_path: Path) -> Path:
    """A copy of the finished micro table that a test may change."""
    return Path(shutil.copytree(finished, tmp_path / "out"))


# -- one run of the table ------------------------------------------------------------------------------------------
def test_every_cell_finishes_with_a_result_and_its_learners_history(finished: Path) -> None:
    for cell in MICRO_TABLE:
        result = json.loads((finished / "seed_0" / cell.name / "result.json").read_text())
        assert (result["game"], result["learner"], result["budget"], result["config"]) == (
            cell.game, cell.learner, "micro", list(cell.config))  # fmt: skip
        assert [row["opponent"] for row in result["evaluations"]] == ["random", benchmark.SCRIPTED[cell.game]]
        assert all(row["games"] == 4 and row["illegal"] == 0 for row in result["evaluations"])
        assert result["trained"] > 0 and result["train_seconds"] > 0
        assert (finished / "seed_0" / cell.name / result["model"]).is_file()
        history = "history.csv" if cell.learner == "alphazero" else "eval.csv"
        assert (finished / "seed_0" / cell.name / "run" / history).is_file()
        assert benchmark.learning_curve(finished / "seed_0" / cell.name, result), "the curve has points"


def test_after_a_cell_only_its_games_curves_are_drawn_again(copy_of: Path) -> None:
    pictures = [copy_of / "seed_0" / "curve_quoridor.png", copy_of / "seed_0" / "curve_node_conquest.png"]
    pictures += [copy_of / "curves_quoridor.png", copy_of / "curves_node_conquest.png"]
    for picture in pictures:
        picture.write_bytes(b"stale")
    written = write_outputs(copy_of / "seed_0", MICRO_TABLE, "micro", games={"quoridor"})
    written += write_seed_outputs(copy_of, MICRO_TABLE, "micro", games={"quoridor"})
    drawn = [picture.read_bytes() != b"stale" for picture in pictures]
    assert drawn == [True, False, True, False] and pictures[0] in written and pictures[1] not in written
    write_outputs(copy_of / "seed_0", MICRO_TABLE, "micro")  # every game, as at the end of a run
    assert pictures[1].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_csv_markdown_and_one_curve_per_game_are_written(finished: Path) -> None:
    with open(finished / "seed_0" / "benchmark.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 2 * len(MICRO_TABLE) and list(rows[0]) == list(benchmark.CSV_COLUMNS)
    assert {(row["game"], row["learner"], row["role"]) for row in rows} == {
        (cell.game, cell.learner, role) for cell in MICRO_TABLE for role in ("random", "scripted")}  # fmt: skip
    assert {row["unit"] for row in rows} == {"steps", "self-play games"} and {row["illegal"] for row in rows} == {"0"}
    table = (finished / "seed_0" / "benchmark.md").read_text()
    assert table.count("\n| quoridor |") == 2 and "| node_conquest | rows=3 cols=3 | alphazero |" in table
    assert "not run yet" not in table and "illegal moves**" not in table
    for game in ("quoridor", "node_conquest"):
        assert (finished / "seed_0" / f"curve_{game}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_rerun_trains_nothing_and_rewrites_no_result(copy_of: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    stamps = {cell.name: (copy_of / "seed_0" / cell.name / "result.json").stat().st_mtime_ns for cell in MICRO_TABLE}
    trained: list[str] = []
    monkeypatch.setattr(benchmark.trainers, "TRAINERS", {name: lambda job: trained.append(job.cell.name) for name in
                                                benchmark.LEARNERS})  # fmt: skip
    results = main(micro_args(copy_of), MICRO_TABLE)
    assert trained == [] and len(results) == len(MICRO_TABLE)
    assert stamps == {
        cell.name: (copy_of / "seed_0" / cell.name / "result.json").stat().st_mtime_ns for cell in MICRO_TABLE
    }


def test_force_and_a_changed_cell_train_again(copy_of: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    trained: list[str] = []
    original = dict(benchmark.trainers.TRAINERS)

    def counting(job: CellJob) -> Any:
        trained.append(job.cell.name)
        return original[job.cell.learner](job)

    monkeypatch.setattr(benchmark.trainers, "TRAINERS", {name: counting for name in benchmark.LEARNERS})
    main(micro_args(copy_of, games=["quoridor"], learners=["ppo"], force=True), MICRO_TABLE)
    changed = tuple(dataclasses.replace(cell, settings=("n_epochs=2",)) if cell.name == "node_conquest-ppo" else cell
                    for cell in MICRO_TABLE)  # fmt: skip
    main(micro_args(copy_of), changed)
    assert trained == ["quoridor-ppo", "node_conquest-ppo"]


# -- killed cells ---------------------------------------------------------------------------------------------
class Killed(Exception):
    """Stands for a kill in the middle of a cell's training."""


def kill_on_call(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str, call: int) -> None:
    """Make ``owner.name`` raise :class:`Killed` on its ``call``-th call (1-based), as a kill would stop it there."""
    original, calls = getattr(owner, name), []

    def dying(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) == call:
            raise Killed(f"killed in {name}")
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, dying)


def test_an_sb3_cell_killed_mid_run_resumes_from_its_checkpoint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from baselines.learners.sb3.runs import EvalRecorder

    args = micro_args(tmp_path, games=["quoridor"], learners=["ppo"])
    with monkeypatch.context() as patch:
        kill_on_call(patch, EvalRecorder, "__call__", 3)  # evaluations at steps 0, 64, then killed at 128
        with pytest.raises(RuntimeError, match=r"1 cell.s. failed: quoridor-ppo \(seed 0\): Killed"):
            main(args, MICRO_TABLE)
    run = tmp_path / "seed_0" / "quoridor-ppo" / "run"
    assert not (tmp_path / "seed_0" / "quoridor-ppo" / "result.json").exists() and (run / "latest.zip").is_file()
    (result,) = main(args, MICRO_TABLE)
    assert "resuming" in capsys.readouterr().out and result["trained"] == 128
    steps = [row.steps for row in read_eval_rows(run / "eval.csv") if row.opponent == "random"]
    assert steps == [0, 64, 128], "every evaluation logged once"


def test_an_alphazero_cell_killed_mid_run_resumes_to_the_same_network(
    finished: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from baselines.learners.alphazero.trainer import AlphaZeroTrainer

    args = micro_args(tmp_path, games=["quoridor"], learners=["alphazero"])
    with monkeypatch.context() as patch:
        kill_on_call(patch, AlphaZeroTrainer, "iterate", 2)  # iteration 1 saved, killed in iteration 2
        with pytest.raises(RuntimeError, match=r"quoridor-alphazero \(seed 0\): Killed"):
            main(args, MICRO_TABLE)
    assert (tmp_path / "seed_0" / "quoridor-alphazero" / "run" / "state.pt").is_file()
    (result,) = main(args, MICRO_TABLE)
    uninterrupted = json.loads((finished / "seed_0" / "quoridor-alphazero" / "result.json").read_text())
    assert result["evaluations"] == uninterrupted["evaluations"] and result["iterations"] == 2


def test_a_killed_cell_without_a_checkpoint_starts_again(copy_of: Path) -> None:
    folder = copy_of / "seed_0" / "node_conquest-ppo"
    before = json.loads((folder / "result.json").read_text())
    (folder / "result.json").unlink()
    for name in ("model.zip", "model.json", "latest.zip", "latest.json", "best.zip", "best.json"):
        (folder / "run" / name).unlink()  # killed before its first checkpoint: eval.csv alone
    main(micro_args(copy_of, games=["node_conquest"], learners=["ppo"]), MICRO_TABLE)
    after = json.loads((folder / "result.json").read_text())
    assert after["evaluations"] == before["evaluations"] and after["trained"] == before["trained"]


def test_tabular_cells_run_in_two_worker_processes(tmp_path: Path) -> None:
    results = main(micro_args(tmp_path, workers=2), TABULAR_TABLE)
    assert [result["cell"] for result in results] == ["quoridor-tabular_q", "node_conquest-tabular_q"]
    assert all(result["trained"] == 40 and result["unit"] == "episodes" for result in results)
    assert all(len(benchmark.learning_curve(tmp_path / "seed_0" / result["cell"], result)) == 4 for result in results)
    assert "| quoridor | board_size=3 (3x3) | tabular_q |" in (tmp_path / "seed_0" / "benchmark.md").read_text()


# -- shipping ----------------------------------------------------------------------------------------------------
def test_ship_copies_each_games_best_ppo_model_into_the_shelf(
    finished: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sb3_pretrained, "MODELS_DIR", tmp_path / "models")
    shipped = benchmark.ship_models(finished / "seed_0", MICRO_TABLE, "micro")
    assert [path.name.split("_ppo_")[0] for path in shipped] == ["quoridor", "node_conquest"]
    entries = sb3_pretrained.shipped()
    assert [entry["game"] for entry in entries] == ["quoridor", "node_conquest"]
    assert all(entry["command"].startswith("python -m scripts.learner_benchmark") for entry in entries)
    game = make_game("quoridor", board_size=3)
    agent = make_agent("ppo:pretrained", "quoridor", 0)
    state = game.initial_state(np.random.default_rng(0))
    assert game.is_legal(state, agent.act(game, state, 0))
    with pytest.raises(ValueError, match=r"finish the PPO cells first .*quoridor-ppo"):
        benchmark.ship_models(tmp_path / "empty", MICRO_TABLE, "micro")


# -- illegal moves --------------------------------------------------------------------------------------------
class IllegalAgent(BaseAgent):
    """Plays action 0 whether it is legal or not."""

    name = "illegal"

    def act(self, game: Game, view: Any, player: int) -> int:
        return 0


def test_illegal_moves_are_counted_replaced_and_flagged() -> None:
    game = make_game("quoridor", board_size=3)
    learner = CountingAgent(IllegalAgent())
    wins, draws, losses = evaluate_against(game, learner, RandomAgent(0), 4, 0)
    assert wins + draws + losses == 4 and learner.illegal > 0
    row = {"opponent": "random", "games": 4, "win_rate": 0.5, "ci_low": 0.1, "ci_high": 0.9, "illegal": learner.illegal}
    result = {"evaluations": [row, row], "trained": 10, "unit": "steps", "train_seconds": 3.0}
    assert f"**{2 * learner.illegal} illegal moves**" in markdown_row(MICRO_TABLE[0], result)


def test_a_row_names_the_best_checkpoint_it_scored_when_it_is_not_the_last() -> None:
    row = {"opponent": "random", "games": 4, "win_rate": 0.5, "ci_low": 0.1, "ci_high": 0.9, "illegal": 0}
    result = {"evaluations": [row, row], "trained": 1_000, "unit": "steps", "train_seconds": 3.0, "model_steps": 400}
    assert "| 1,000 steps; best at 400 |" in markdown_row(MICRO_TABLE[0], result)
    unrecorded = {key: value for key, value in result.items() if key != "model_steps"}
    for last in ({**result, "model_steps": 1_000}, unrecorded):
        assert "| 1,000 steps |" in markdown_row(MICRO_TABLE[0], last)


# -- bad options -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"budget": "medium"}, r"budget must be one of \['micro'\], got 'medium'"),
        ({"games": ["chess"]}, r"games: unknown \['chess'\]; choices: \['node_conquest', 'quoridor'\]"),
        ({"learners": ["a2c"]}, r"learners: unknown \['a2c'\]; choices: \['alphazero', 'ppo'\]"),
        ({"workers": 0}, "workers must be >= 1"),
        ({"ship": True}, "--ship ships the models of a finished full table, not 'micro'"),
    ],
)
def test_bad_options_are_rejected_before_anything_runs(changes: dict[str, Any], message: str, tmp_path) -> None:
    with pytest.raises(ValueError, match=message):
        main(micro_args(tmp_path / "out", **changes), MICRO_TABLE)
    assert not (tmp_path / "out").exists()


def test_bad_cells_are_rejected_before_anything_runs(tmp_path: Path) -> None:
    bad_setting = (dataclasses.replace(MICRO_TABLE[0], settings=("n_epoch=2",)),)
    with pytest.raises(ValueError, match=r"cell quoridor-ppo: unknown setting 'n_epoch' for SB3Settings; choices: "):
        main(micro_args(tmp_path), bad_setting)
    bad_config = (dataclasses.replace(MICRO_TABLE[0], config=("board_size=2",)),)
    with pytest.raises(ValueError, match="cell quoridor-ppo: board_size must be in 3..25"):
        main(micro_args(tmp_path), bad_config)
    with pytest.raises(ValueError, match=r"one cell per game and learner .*\['quoridor-ppo'\]"):
        main(micro_args(tmp_path), (MICRO_TABLE[0], MICRO_TABLE[0]))
    reserved = (dataclasses.replace(MICRO_TABLE[0], settings=("steps=5",)),)
    with pytest.raises(ValueError, match="setting 'steps' is set by the benchmark from the cell"):
        main(micro_args(tmp_path), reserved)
    with pytest.raises(ValueError, match="no cell plays"):
        main(micro_args(tmp_path, games=["quoridor"], learners=["tabular_q"]), (*MICRO_TABLE, *TABULAR_TABLE[1:]))


def test_the_command_line_parses_into_args(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[Args] = []
    monkeypatch.setattr(script, "main", lambda args: seen.append(args) or [])
    script.cli(["--budget", "full", "--games", "quoridor", "gravwell", "--learners", "ppo", "--workers", "2",
                "--ship"])  # fmt: skip
    assert seen == [Args(budget="full", games=["quoridor", "gravwell"], learners=["ppo"], workers=2, ship=True)]


# -- the table itself --------------------------------------------------------------------------------------------
def test_the_table_covers_every_game_and_learner_with_every_budget() -> None:
    benchmark.check_table(TABLE)
    assert {cell.game for cell in TABLE} == set(benchmark.SCRIPTED)
    assert all({budget.name for budget in cell.budgets} == {"small", "standard", "full"} for cell in TABLE)
    evaluations = {tuple(cell.budget(name).eval_games for name in ("small", "standard", "full")) for cell in TABLE}
    assert evaluations == {(40, 100, 200)}
    for cell in TABLE:
        for budget in ("small", "full"):
            benchmark.check_cell(CellJob(cell, budget, Path("unused"), 0))
    assert {cell.game for cell in TABLE if cell.learner == "tabular_q"} == {"quoridor", "node_conquest"}
    assert all(cell.variant for cell in TABLE if cell.learner == "tabular_q")


def test_ppo_is_evaluated_by_sampling_its_policy_and_dqn_by_its_best_move(finished: Path) -> None:
    ppo_job = CellJob(MICRO_TABLE[0], "micro", finished / "seed_0", seed=0)
    assert ppo_job.cell.learner == "ppo"
    assert benchmark.sb3_settings(ppo_job, resume=False).eval_sampled is True
    model = ppo_job.folder / "run" / "model.zip"
    game = make_game("quoridor", board_size=3)
    assert benchmark.trained_agent(ppo_job, model, game).stochastic is True
    dqn_job = CellJob(dataclasses.replace(MICRO_TABLE[0], learner="dqn"), "micro", finished / "seed_0", seed=0)
    assert benchmark.sb3_settings(dqn_job, resume=False).eval_sampled is False
    assert benchmark.trained_agent(dqn_job, model, game).stochastic is False


# -- over seeds ----------------------------------------------------------------------------------------------------
def test_seeds_run_as_whole_tables_and_aggregate_into_iqm_intervals_profiles_and_banded_curves(tmp_path: Path) -> None:
    results = main(micro_args(tmp_path, seeds=3, workers=2), TABULAR_TABLE)
    assert sorted(path.name for path in tmp_path.glob("seed_*")) == ["seed_0", "seed_1", "seed_2"]
    assert len(results) == 3 * len(TABULAR_TABLE) and {result["seed"] for result in results} == {0, 1, 2}
    with open(tmp_path / "aggregate.csv", newline="") as handle:
        rows = {(row["game"], row["learner"], row["role"]): row for row in csv.DictReader(handle)}
    row = rows[("quoridor", "tabular_q", "random")]
    scores = [float(score) for score in row["scores"].split()]
    from scipy.stats import trim_mean

    assert int(row["runs"]) == 3 and abs(float(row["iqm"]) - trim_mean(scores, 0.25)) < 1e-3
    assert float(row["low"]) <= float(row["iqm"]) <= float(row["high"])
    assert rows[("all", "tabular_q", "scripted")]["runs"] == "6"  # both games' seeds, stratified by game
    table = (tmp_path / "aggregate.md").read_text()
    assert "| quoridor | board_size=3 | tabular_q | 3 |" in table and "| tabular_q | 6 |" in table
    for picture in ("profiles.png", "curves_quoridor.png", "curves_node_conquest.png"):
        assert (tmp_path / picture).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    stamps = {path: path.stat().st_mtime_ns for path in tmp_path.rglob("result.json")}
    main(micro_args(tmp_path, seeds=3), TABULAR_TABLE)  # every seed finished: nothing trains again
    assert stamps == {path: path.stat().st_mtime_ns for path in tmp_path.rglob("result.json")}
