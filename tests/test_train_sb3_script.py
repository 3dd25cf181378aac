"""Tests of ``scripts/train_sb3.py`` (through ``main(Args)`` and ``cli(argv)``) and ``baselines.learners.sb3.runs``,
killed runs and damaged files included."""

from __future__ import annotations

import csv
import dataclasses
import json
import random
import shutil
import signal
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

from baselines.learners.sb3.agent import SB3Agent  # noqa: E402
from baselines.learners.sb3.loading import model_steps  # noqa: E402
from baselines.learners.sb3.model_card import CARD_IN_ZIP  # noqa: E402
from baselines.learners.sb3.runs import find_checkpoint, plan_training, read_checkpoint  # noqa: E402
from scripts.train_sb3 import Args, cli, main  # noqa: E402

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
ROOT = Path(__file__).resolve().parents[1]


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
        ({"opponents": "random,alphazero"}, r"opponents: unknown agent 'alphazero' for game 'quoridor'; choices"),
        ({"opponents": ""}, r"opponents: name at least one agent, got ''"),
        ({"eval_opponents": "random,bogus"}, r"eval_opponents: unknown agent 'bogus'"),
        ({"snapshot_share": 1.5}, r"snapshot_share must be in \[0, 1\]"),
        ({"resume": "no/such/model.zip"}, r"resume: no saved model at no/such/model.zip"),
        ({"teacher": "heuristic", "algo": "dqn"}, r"teacher: behaviour cloning warm-starts a PPO policy only"),
        ({"teacher": "greedy"}, r"teacher: unknown agent 'greedy' for game 'quoridor'; choices: \[.*'heuristic'"),
        ({"teacher": "heuristic", "teacher_steps": 0}, r"teacher_steps must be in >= 1"),
        ({"teacher": "heuristic", "teacher_epochs": 0}, r"teacher_epochs must be in >= 1"),
    ],
)
def test_bad_arguments_are_rejected_before_training(overrides: dict[str, Any], message: str, tmp_path) -> None:
    with pytest.raises(ValueError, match=message):
        main(small_args(tmp_path / "out", **overrides))
    assert not (tmp_path / "out").exists()


def test_resuming_a_model_of_another_shape_or_algorithm_is_rejected(trained_run: Any, tmp_path) -> None:
    resume = str(trained_run.model_path)
    with pytest.raises(ValueError, match=r"resume: .*\(10, 3, 3\) with 18 actions.*\(10, 5, 5\) with 58 actions"):
        plan_training(small_args(tmp_path, config=["board_size=5"], resume=resume))
    with pytest.raises(ValueError, match=r"resume: .* is a ppo model, but algo='dqn'"):
        plan_training(small_args(tmp_path, algo="dqn", resume=resume))


def test_trained_models_play_in_the_tournament_script(trained_run: Any) -> None:
    from scripts.tournament import Args as TournamentArgs
    from scripts.tournament import main as tournament_main

    name = f"sb3:{trained_run.model_path}"
    args = TournamentArgs(config=["board_size=3"], agents=f"random,{name}", games_per_pairing=4, csv="", png="",
                          html="")  # fmt: skip
    result = tournament_main(dataclasses.replace(args, progress=False))
    assert {stats.name for stats in result.stats} == {"random", name} and len(result.records) == 4


# -- killed runs, damaged files, existing runs ------------------------------------------------------------------
KILL_AT_A_WRITE = """
import os, signal, sys
import tests.toy_games
from scripts import train_sb3

kill_at, before = int(sys.argv[1]), sys.argv[2] == "before"
renames, rename = [0], os.replace

def rename_or_die(source, target):  # every file of a run is written to a temporary file, then renamed
    renames[0] += 1
    if renames[0] == kill_at and before:
        os.kill(os.getpid(), signal.SIGKILL)
    rename(source, target)
    if renames[0] == kill_at:
        os.kill(os.getpid(), signal.SIGKILL)

os.replace = rename_or_die
train_sb3.cli(sys.argv[3:])
"""


def countdown_flags(out: Path, steps: int) -> list[str]:
    """A quick run on toy_countdown that evaluates (and saves latest.zip) every 128 steps."""
    return ["--game", "toy_countdown", "--steps", str(steps), "--n-envs", "1", "--n-steps", "64", "--batch-size",
            "64", "--eval-every", "128", "--eval-games", "4", "--eval-opponents", "random", "--out", str(out),
            "--no-progress"]  # fmt: skip


def random_kill_point(rng: random.Random, first: int, last: int) -> tuple[int, str]:
    """A rename to die at, from ``first`` to ``last``, and whether before or after it (never after ``last``)."""
    points = [(index, when) for index in range(first, last + 1) for when in ("before", "after")]
    return rng.choice(points[:-1])


@pytest.mark.parametrize("killed", ["new", "continued"])
def test_a_run_killed_at_a_random_point_resumes_to_one_history_and_its_full_step_count(killed, tmp_path) -> None:
    out, steps = tmp_path / "run", 512 if killed == "new" else 384
    if killed == "continued":  # the case: rerunning a killed --resume run mixed two runs in eval.csv
        cli(countdown_flags(out, 256))
    evaluations = steps // 128
    # renames: eval.csv, plot, then latest.pt, latest.json and latest.zip (a model's safe files, then its zip) per
    # evaluation, best.pt, best.json and best.zip too on a new run's first (at step 0; later ones only when it
    # improves), model.pt, model.json and model.zip at the end. Kill points: from just after the first latest.zip
    # (a new run's first checkpoint) to just before model.zip (after it, the run is finished, and --resume would
    # add --steps more)
    first = 6 if killed == "new" else 1
    last = 5 * evaluations + (11 if killed == "new" else 3)
    kill_at, when = random_kill_point(random.Random(), first, last)
    extra = ["--resume", str(out)] if killed == "continued" else []
    flags = countdown_flags(out, steps) + extra
    code = [sys.executable, "-c", KILL_AT_A_WRITE, str(kill_at), when, *flags]
    process = subprocess.run(code, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert process.returncode == -signal.SIGKILL, (kill_at, when, process.stderr[-2000:])
    if killed == "new":
        before = (out / "eval.csv").read_bytes()
        with pytest.raises(FileExistsError, match=r"already holds a run.*--resume.*--force"):
            cli([*countdown_flags(out, steps), "--debug"])  # rerunning the fresh command must not delete the killed run
        assert (out / "eval.csv").read_bytes() == before
    result = cli(countdown_flags(out, steps) + ["--resume", str(out)])
    final = steps + (256 if killed == "continued" else 0)
    logged = [int(row["steps"]) for row in csv_rows(out / "eval.csv")]
    assert logged == list(range(0, final + 1, 128)), (kill_at, when, logged)  # every evaluation once, in order
    assert result.steps == final and json.loads((out / "model.json").read_text())["steps"] == final
    assert json.loads((out / "best.json").read_text())["steps"] in logged
    assert not [path.name for path in out.rglob("*") if ".tmp" in path.name]
    for name in ("model", "latest", "best"):  # each zip's safe files are whole and of its step (resume rewrites them)
        assert SB3Agent.load(out / f"{name}.pt").card.steps == model_steps(out / f"{name}.zip"), (kill_at, when, name)


def copied_run(trained_run: Any, out: Path) -> Path:
    """A copy of the trained run's folder to damage."""
    shutil.copytree(trained_run.out, out, ignore=shutil.ignore_patterns(".lock"))
    return out


def test_a_half_written_last_row_is_dropped_and_a_garbled_row_is_named(trained_run: Any, tmp_path) -> None:
    out = copied_run(trained_run, tmp_path / "run")
    lines = (out / "eval.csv").read_text().splitlines(keepends=True)
    (out / "eval.csv").write_text("".join(lines) + lines[-1][:15])  # killed in the middle of writing a row
    result = main(small_args(None, resume=str(out), steps=512))
    logged = [row["steps"] for row in csv_rows(out / "eval.csv")]
    assert logged == [steps for steps in ("0", "512", "1024", "1536") for _ in range(2)] and result.steps == 1_536
    garbled = (out / "eval.csv").read_text().splitlines(keepends=True)
    garbled[2] = "512,oops\n"
    (out / "eval.csv").write_text("".join(garbled))
    with pytest.raises(ValueError, match=r"eval.csv' line 3: damaged row \(2 field\(s\) where the header has 12"):
        main(small_args(None, resume=str(out), steps=512))
    assert (out / "eval.csv").read_text().splitlines()[2] == "512,oops"  # nothing was rewritten


def test_a_new_run_refuses_a_folder_that_holds_one_and_force_replaces_it(trained_run: Any, tmp_path) -> None:
    out = copied_run(trained_run, tmp_path / "run")
    best = (out / "best.zip").read_bytes()
    with pytest.raises(FileExistsError, match=r"already holds a run \(eval.csv, .*best.zip.*\): pass --resume"):
        main(small_args(out))
    assert (out / "best.zip").read_bytes() == best
    with pytest.raises(ValueError, match="resume and force exclude each other"):
        main(small_args(out, resume=str(out), force=True))
    result = main(small_args(out, force=True, steps=256, eval_every=256))
    assert [row["steps"] for row in csv_rows(out / "eval.csv")] == ["0", "0", "256", "256"] and result.steps == 256


def test_resume_takes_the_newest_intact_checkpoint_and_names_the_broken_ones(trained_run: Any, tmp_path) -> None:
    out = copied_run(trained_run, tmp_path / "run")
    card = json.loads((out / "latest.json").read_text())
    (out / "latest.json").write_text(json.dumps({**card, "steps": 99_999}))  # a sidecar out of step with its zip
    assert read_checkpoint(out / "latest.zip").card.steps == 1_024  # the card inside the zip is the one read
    (out / "model.zip").write_bytes((out / "model.zip").read_bytes()[:1000])  # cut short
    assert find_checkpoint(str(out / "model.zip")).path == out / "latest.zip"
    with zipfile.ZipFile(trained_run.out / "latest.zip") as source, zipfile.ZipFile(out / "latest.zip", "w") as copy:
        for name in source.namelist():  # a zip saved without its card inside, paired with a newer sidecar
            if name != CARD_IN_ZIP:
                copy.writestr(name, source.read(name))
    with pytest.raises(ValueError, match=r"model.zip' is not a readable SB3 model.*latest.json says 99999"):
        find_checkpoint(str(out))
    with pytest.raises(ValueError, match="resume: no saved model at"):
        find_checkpoint(str(tmp_path / "nothing"))
    (out / "model.zip").unlink()
    (out / "latest.zip").unlink()
    with pytest.raises(ValueError, match="holds no saved model yet .* start it again with --force"):
        find_checkpoint(str(out))
