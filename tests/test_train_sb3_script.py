"""Tests of ``scripts/train_sb3.py`` (through ``main(Args)`` and ``cli(argv)``) and ``baselines.learners.sb3.runs``."""

from __future__ import annotations

import csv
import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

from baselines.learners.sb3.runs import SB3Settings, plan_training  # noqa: E402
from baselines.settings import settings_from  # noqa: E402
from scripts.train_sb3 import Args, cli, main  # noqa: E402

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(autouse=True)
def one_torch_thread() -> None:
    torch.set_num_threads(1)


def small_args(out: Path | None, **overrides: Any) -> Args:
    """Quick settings on Quoridor 3x3; ``out=None`` leaves the output directory to the script."""
    settings: dict[str, Any] = {
        "config": ["board_size=3"],
        "steps": 1_024,
        "n_envs": 2,
        "eval_every": 512,
        "eval_games": 6,
        "out": "" if out is None else str(out),
        "progress": False,
        "n_steps": 128,
        "batch_size": 128,
    }
    return Args(**{**settings, **overrides})


def csv_rows(path: Path) -> list[dict[str, str]]:
    with open(path, newline="") as handle:
        return list(csv.DictReader(handle))


@pytest.fixture(scope="module")
def trained_run(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A small PPO run on Quoridor 3x3 (the model later tests resume from or load)."""
    torch.set_num_threads(1)
    return main(small_args(tmp_path_factory.mktemp("run") / "ppo"))


def test_small_run_writes_model_sidecar_csv_and_plot(trained_run: Any) -> None:
    out = trained_run.out
    assert trained_run.model_path == out / "model.zip" and trained_run.model_path.exists()
    assert trained_run.steps == 1_024 and trained_run.train_illegal == 0
    card = json.loads((out / "model.json").read_text())
    assert card["game"] == "quoridor" and card["config"]["board_size"] == 3 and card["algo"] == "ppo"
    assert card["steps"] == 1_024 and card["extra"]["args"]["n_envs"] == 2
    rows = csv_rows(out / "eval.csv")
    assert [(row["steps"], row["opponent"]) for row in rows] == [
        (steps, opponent) for steps in ("0", "512", "1024") for opponent in ("random", "heuristic")
    ]
    assert all(row["games"] == "6" and row["illegal"] == "0" for row in rows)
    assert all(float(row["ci_low"]) <= float(row["win_rate"]) <= float(row["ci_high"]) for row in rows)
    assert (out / "learning_curve.png").read_bytes()[:8] == PNG_MAGIC and (out / "latest.zip").exists()
    assert [row.opponent for row in trained_run.final_eval] == ["random", "heuristic"]


def test_best_zip_holds_the_evaluation_with_the_highest_mean_win_rate(trained_run: Any) -> None:
    rows = csv_rows(trained_run.out / "eval.csv")
    mean_by_steps: dict[int, float] = {}
    for steps in {int(row["steps"]) for row in rows}:
        rates = [float(row["win_rate"]) for row in rows if int(row["steps"]) == steps]
        mean_by_steps[steps] = sum(rates) / len(rates)
    best = max(mean_by_steps.values())
    first_best = min(steps for steps, mean in mean_by_steps.items() if mean == best)
    card = json.loads(trained_run.best_model_path.with_suffix(".json").read_text())
    assert trained_run.best_model_path == trained_run.out / "best.zip"
    assert card["steps"] == first_best


def test_resume_continues_the_step_count_and_appends_to_the_csv(trained_run: Any, tmp_path) -> None:
    out = tmp_path / "resumed"
    out.mkdir()
    for name in ("model.zip", "model.json", "eval.csv"):
        (out / name).write_bytes((trained_run.out / name).read_bytes())
    before = csv_rows(out / "eval.csv")
    result = main(small_args(None, resume=str(out / "model.zip"), steps=512, config=[]))  # config from model.json
    assert result.out == out and result.steps == 1_024 + 512
    rows = csv_rows(out / "eval.csv")
    assert rows[: len(before)] == before and {row["steps"] for row in rows[len(before) :]} == {"1536"}
    card = json.loads((out / "model.json").read_text())
    assert card["steps"] == 1_536 and card["wall_seconds"] >= trained_run.wall_seconds


def test_dqn_with_selfplay_on_subprocess_envs(tmp_path) -> None:
    args = small_args(
        tmp_path / "dqn",
        algo="dqn",
        opponents="random,selfplay",
        vec="subproc",
        snapshot_every=256,
        learning_starts=128,
        batch_size=32,
        eval_opponents="random",
    )
    result = main(args)
    assert result.steps == 1_024 and result.train_illegal == 0 and len(result.snapshots) == 4
    assert all(path.exists() and path.with_suffix(".json").exists() for path in result.snapshots)
    assert [row.opponent for row in result.final_eval] == ["random"] and result.final_eval[0].illegal == 0


def test_cli_prints_the_final_evaluation(capsys, tmp_path) -> None:
    out = tmp_path / "cli"
    argv = ["--game", "toy_countdown", "--steps", "256", "--n-envs", "1", "--eval-games", "4", "--out", str(out)]
    cli([*argv, "--n-steps", "64", "--batch-size", "64", "--no-progress"])
    printed = capsys.readouterr().out
    assert "toy_countdown  ppo: 256 steps" in printed and "vs random: win rate" in printed
    assert "illegal moves: 0 in training, 0 in eval" in printed and (out / "model.zip").exists()


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"algo": "sac"}, r"algo must be one of \['ppo', 'dqn'\], got 'sac'"),
        ({"game": "chess"}, r"game: unknown game 'chess'"),
        ({"config": ["board_size=2"]}, r"config \['board_size=2'\]: board_size must be in 3..25"),
        ({"config": ["colour=red"]}, r"config \['colour=red'\]: unknown config parameter"),
        ({"n_envs": 0}, r"n_envs must be in >= 1, got 0"),
        ({"steps": 0}, r"steps must be in >= 1, got 0"),
        ({"steps": -100}, r"steps must be in >= 1, got -100"),
        ({"eval_every": 0}, r"eval_every must be in >= 1"),
        ({"eval_games": 0}, r"eval_games must be in >= 1"),
        ({"vec": "threads"}, r"vec must be one of"),
        ({"opponents": "random,alphazero"}, r"opponents: unknown opponent\(s\) \['alphazero'\].*choices"),
        ({"opponents": ""}, r"opponents: unknown opponent"),
        ({"eval_opponents": "random,bogus"}, r"eval_opponents: unknown agent 'bogus'"),
        ({"snapshot_share": 1.5}, r"snapshot_share must be in \[0, 1\]"),
        ({"resume": "no/such/model.zip"}, r"resume: no saved model at no/such/model.zip"),
    ],
)
def test_bad_arguments_are_rejected_before_training(overrides: dict[str, Any], message: str, tmp_path) -> None:
    with pytest.raises(ValueError, match=message):
        main(small_args(tmp_path / "out", **overrides))
    assert not (tmp_path / "out").exists()


def test_resuming_a_model_of_another_shape_or_algorithm_is_rejected(trained_run: Any, tmp_path) -> None:
    resume = str(trained_run.model_path)
    with pytest.raises(ValueError, match=r"resume: .*\(10, 3, 3\) with 18 actions.*\(10, 5, 5\) with 58 actions"):
        plan_training(settings_from(small_args(tmp_path, config=["board_size=5"], resume=resume), SB3Settings))
    with pytest.raises(ValueError, match=r"resume: .* is a ppo model, but algo='dqn'"):
        plan_training(settings_from(small_args(tmp_path, algo="dqn", resume=resume), SB3Settings))


def test_trained_models_play_in_the_tournament_script(trained_run: Any) -> None:
    from scripts.tournament import Args as TournamentArgs
    from scripts.tournament import main as tournament_main

    name = f"sb3:{trained_run.model_path}"
    args = TournamentArgs(config=["board_size=3"], agents=f"random,{name}", games_per_pairing=4, csv="", png="")
    result = tournament_main(dataclasses.replace(args, progress=False))
    assert {stats.name for stats in result.stats} == {"random", name} and len(result.records) == 4
