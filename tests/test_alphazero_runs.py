"""AlphaZero runs on disk: a killed run resumes to the same networks, files are written atomically, an existing
run is never overwritten by accident, damaged files and bad devices are clear errors, and the shipped networks
load by name."""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
import torch

import tests.toy_games  # noqa: F401  (registers toy_tictactoe)
from baselines import make_agent, play_game
from baselines.learners.alphazero import AlphaZeroSettings, AlphaZeroTrainer, NetworkConfig, SelfPlaySettings
from baselines.learners.alphazero.network import (
    PolicyValueNet,
    atomic_write,
    load_checkpoint,
    resolve_device,
    save_checkpoint,
)
from baselines.learners.alphazero.pretrained import pretrained_checkpoint, ship, shipped
from baselines.learners.evaluation import read_eval_rows
from baselines.runs import RunDirectory
from boardenvs.registry import make_game
from scripts import train_alphazero
from scripts._args import parse_args

ROOT = Path(__file__).resolve().parents[1]
SETTINGS = AlphaZeroSettings(
    iterations=3,
    games_per_iteration=2,
    selfplay=SelfPlaySettings(simulations=4, batch_size=2, determinizations=1, fast_simulations=2),
    network=NetworkConfig(channels=4, blocks=1, hidden=8),
    buffer_iterations=2,
    epochs=1,
    batch_size=8,
    eval_games=2,
    eval_opponents=("random",),
    seed=3,
)
KILL_IN_TRAINING = """
import os, signal, torch
import tests.toy_games
from baselines.learners.alphazero import AlphaZeroTrainer
from tests.test_alphazero_runs import SETTINGS

torch.set_num_threads(1)

def kill(stage, iteration):
    if (stage, iteration) == ({stage!r}, {iteration!r}):
        os.kill(os.getpid(), signal.SIGKILL)

AlphaZeroTrainer("toy_tictactoe", {}, SETTINGS, {out!r}, progress=False, on_stage=kill).run()
"""


def eval_games(path: Path) -> list[tuple]:
    """The rows of an ``eval.csv`` without their wall time (which no two runs share)."""
    return [(row.steps, row.opponent, row.wins, row.draws, row.losses) for row in read_eval_rows(path)]


def weights(path: Path) -> list[torch.Tensor]:
    return list(load_checkpoint(path)[0].state_dict().values())


@pytest.mark.parametrize(("stage", "iteration"), [("train", 2), ("train", 3), ("save", 3)])
def test_a_run_killed_mid_iteration_resumes_to_the_networks_of_an_uninterrupted_run(tmp_path, stage, iteration) -> None:
    """Iteration 3 is the first whose window (2 iterations) drops an older replay file: a kill there must still
    leave every file the saved state names."""
    torch.set_num_threads(1)
    whole = AlphaZeroTrainer("toy_tictactoe", {}, SETTINGS, tmp_path / "whole", progress=False)
    whole.run()
    killed = tmp_path / "killed"
    code = KILL_IN_TRAINING.replace("{out!r}", repr(str(killed)))
    code = code.replace("{stage!r}", repr(stage)).replace("{iteration!r}", repr(iteration))
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == -signal.SIGKILL, result.stderr
    done = iteration - 1
    assert (killed / f"iteration_{done:03d}.pt").is_file() and not (killed / "iteration_003.pt").exists()
    assert not [path for path in killed.rglob("*") if ".tmp" in path.name]
    with pytest.raises(FileExistsError, match="--resume"):
        AlphaZeroTrainer("toy_tictactoe", {}, SETTINGS, killed, progress=False)
    resumed = AlphaZeroTrainer("toy_tictactoe", {}, SETTINGS, killed, progress=False, resume=True)
    assert resumed.completed == done and [number for number, _ in resumed.buffer] == list(range(1, done + 1))
    history = resumed.run()
    assert [row["iteration"] for row in history] == [1, 2, 3]
    for name in ("best.pt", "iteration_002.pt", "iteration_003.pt"):
        assert all(torch.equal(a, b) for a, b in zip(weights(killed / name), weights(tmp_path / "whole" / name)))
    losses = [(row["policy_loss"], row["value_loss"], row["vs_random"]) for row in history]
    assert losses == [(row["policy_loss"], row["value_loss"], row["vs_random"]) for row in whole.history]
    assert eval_games(killed / "eval.csv") == eval_games(tmp_path / "whole" / "eval.csv")
    assert sorted(path.name for path in (killed / "replay").iterdir()) == ["iteration_002.npz", "iteration_003.npz"]


SELF_PLAY_WITH_WORKERS = """
import sys
import tests.toy_games
from scripts import train_alphazero
from scripts._args import parse_args

train_alphazero.cli(sys.argv[1:])
"""


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="lists processes through /proc")
def test_a_trainer_killed_during_self_play_with_workers_leaves_no_process_behind(tmp_path) -> None:
    from tests.test_tournament_script import child_pids, kill_when, wait_until_gone

    flags = ["--game", "toy_tictactoe", "--iterations", "1", "--games", "200", "--simulations", "8",
             "--channels", "4", "--blocks", "1", "--hidden", "8", "--eval-games", "0", "--workers", "2",
             "--threads", "1", "--out", str(tmp_path), "--no-progress"]  # fmt: skip
    process = subprocess.Popen([sys.executable, "-c", SELF_PLAY_WITH_WORKERS, *flags], cwd=ROOT)
    delay, started = random.Random().uniform(0.0, 2.0), []  # a random point of self-play (the assertion holds at any)

    def workers_running_for_a_while() -> bool:
        if not started and len(child_pids(process.pid)) >= 3:  # two workers and the resource tracker
            started.append(time.monotonic())
        return bool(started) and time.monotonic() >= started[0] + delay

    children = kill_when(process, workers_running_for_a_while)
    assert process.returncode == -signal.SIGKILL and len(children) >= 3, children
    # a worker still importing when its parent dies ends when it gets to ``die_with_parent`` (which sees the parent
    # gone): on a loaded machine that can take longer than the default wait (seen: > 10 s at a load of 5 on 2 cores)
    left = wait_until_gone(children, seconds=60.0)
    assert left == set(), f"killed {delay:.2f} s into self-play; left running: {left}"
    assert not (tmp_path / "iteration_001.pt").exists()


def test_resuming_a_finished_run_with_more_iterations_continues_it(tmp_path) -> None:
    AlphaZeroTrainer("toy_tictactoe", {}, SETTINGS, tmp_path, progress=False).run()
    more = AlphaZeroSettings(**{**SETTINGS.__dict__, "iterations": 4})
    trainer = AlphaZeroTrainer("toy_tictactoe", {}, more, tmp_path, progress=False, resume=True)
    assert [row["iteration"] for row in trainer.run()] == [1, 2, 3, 4]


def test_an_existing_run_is_replaced_only_with_force(tmp_path) -> None:
    AlphaZeroTrainer("toy_tictactoe", {}, SETTINGS, tmp_path, progress=False).run()
    with pytest.raises(FileExistsError, match="already holds a run"):
        AlphaZeroTrainer("toy_tictactoe", {}, SETTINGS, tmp_path, progress=False)
    AlphaZeroTrainer("toy_tictactoe", {}, SETTINGS, tmp_path, progress=False, force=True)
    assert not (tmp_path / "best.pt").exists() and not (tmp_path / "iteration_003.pt").exists()


@pytest.mark.parametrize(
    ("change", "error", "message"),
    [
        ({"resume": True}, FileNotFoundError, "no run to resume"),
        ({"resume": True, "force": True}, ValueError, "exclude each other"),
    ],
)
def test_resume_without_a_run_and_resume_with_force_are_refused(tmp_path, change, error, message) -> None:
    with pytest.raises(error, match=message):
        AlphaZeroTrainer("toy_tictactoe", {}, SETTINGS, tmp_path, progress=False, **change)


def test_resume_refuses_other_settings_or_another_game(tmp_path) -> None:
    AlphaZeroTrainer("toy_tictactoe", {}, SETTINGS, tmp_path, progress=False).run()
    other = AlphaZeroSettings(**{**SETTINGS.__dict__, "learning_rate": 0.01})
    with pytest.raises(ValueError, match=r"settings \['learning_rate'\] differ"):
        AlphaZeroTrainer("toy_tictactoe", {}, other, tmp_path, progress=False, resume=True)
    with pytest.raises(ValueError, match="trained toy_tictactoe"):
        AlphaZeroTrainer("toy_tictactoe", {"first_player": 1}, SETTINGS, tmp_path, progress=False, resume=True)


def test_damaged_run_files_are_named_in_the_error(tmp_path) -> None:
    AlphaZeroTrainer("toy_tictactoe", {}, SETTINGS, tmp_path, progress=False).run()
    (tmp_path / "replay" / "iteration_003.npz").write_bytes(b"not a zip")
    with pytest.raises(ValueError, match="iteration_003.npz' is damaged"):
        AlphaZeroTrainer("toy_tictactoe", {}, SETTINGS, tmp_path, progress=False, resume=True)
    (tmp_path / "replay" / "iteration_003.npz").unlink()
    with pytest.raises(FileNotFoundError, match="iteration_003.npz' of the run is missing"):
        AlphaZeroTrainer("toy_tictactoe", {}, SETTINGS, tmp_path, progress=False, resume=True)
    (tmp_path / "state.pt").write_bytes(b"\x00" * 100)
    with pytest.raises(ValueError, match="state.pt' is not a readable AlphaZero run state"):
        AlphaZeroTrainer("toy_tictactoe", {}, SETTINGS, tmp_path, progress=False, resume=True)


def test_a_truncated_or_foreign_checkpoint_is_a_clear_error(tmp_path) -> None:
    game = make_game("toy_tictactoe")
    path = save_checkpoint(tmp_path / "net.pt", PolicyValueNet.for_game(game, SETTINGS.network, seed=0), game)
    path.write_bytes(path.read_bytes()[:200])
    with pytest.raises(ValueError, match="net.pt. is not a readable AlphaZero checkpoint"):
        load_checkpoint(path)
    torch.save({"something": "else"}, tmp_path / "other.pt")
    with pytest.raises(ValueError, match="is not an AlphaZero checkpoint of version"):
        load_checkpoint(tmp_path / "other.pt")


def test_atomic_write_keeps_the_old_file_when_the_writer_dies(tmp_path) -> None:
    path = tmp_path / "best.pt"
    path.write_bytes(b"old")

    def half_then_fail(temporary: Path) -> None:
        temporary.write_bytes(b"half")
        raise RuntimeError("killed")

    with pytest.raises(RuntimeError):
        atomic_write(path, half_then_fail)
    assert path.read_bytes() == b"old" and os.listdir(tmp_path) == ["best.pt"]


def test_a_run_folder_is_claimed_by_one_process_and_cleared_of_temporaries(tmp_path) -> None:
    (tmp_path / ".latest.123.tmp.zip").write_bytes(b"half")  # left by a writer killed in atomic_write
    (tmp_path / "history.csv").write_text("iteration\n")
    with pytest.raises(FileExistsError, match=r"already holds a run \(history.csv\): pass --resume .* --force"):
        RunDirectory(tmp_path, ["history.csv"]).__enter__()
    with RunDirectory(tmp_path, ["history.csv"], resume=True):
        assert not (tmp_path / ".latest.123.tmp.zip").exists()
        with pytest.raises(RuntimeError, match="in use by a run still going"):
            RunDirectory(tmp_path, ["history.csv"], resume=True).__enter__()
    with RunDirectory(tmp_path, ["history.csv"], force=True):
        assert not (tmp_path / "history.csv").exists()


def test_devices_resolve_and_a_missing_gpu_is_named() -> None:
    assert resolve_device("cpu").type == "cpu"
    assert resolve_device("auto").type == ("cuda" if torch.cuda.is_available() else "cpu")
    if not torch.cuda.is_available():
        with pytest.raises(ValueError, match="device 'cuda': torch sees no CUDA GPU"):
            resolve_device("cuda")
        with pytest.raises(ValueError, match="device 'cuda'"):
            AlphaZeroSettings(device="cuda")


def test_the_script_refuses_an_existing_out_and_resumes_it(tmp_path, capsys) -> None:
    flags = ["--game", "toy_tictactoe", "--iterations", "1", "--games", "1", "--simulations", "3",
             "--fast-simulations", "1", "--channels", "4", "--blocks", "1", "--hidden", "8", "--batch-size", "8",
             "--eval-games", "0", "--out", str(tmp_path), "--no-progress"]  # fmt: skip
    train_alphazero.cli(flags)
    with pytest.raises(SystemExit) as exit_info:
        train_alphazero.cli(flags)
    assert exit_info.value.code == 2 and "--force" in capsys.readouterr().err
    with pytest.raises(FileExistsError, match="--force"):
        train_alphazero.cli([*flags, "--debug"])
    train_alphazero.cli([*flags, "--resume", "--iterations", "2"])
    assert "resuming" in capsys.readouterr().out and (tmp_path / "iteration_002.pt").is_file()
    with pytest.raises(SystemExit):
        train_alphazero.cli([*flags, "--force", "--search", "mtcs"])
    assert "error: --search: must be one of" in capsys.readouterr().err


# -- shipped networks ----------------------------------------------------------------------------------------
def test_pretrained_picks_the_network_of_the_games_config_or_names_the_configs_that_have_one(tmp_path) -> None:
    small = make_game("node_conquest", rows=3, cols=3)
    checkpoint = save_checkpoint(tmp_path / "best.pt", PolicyValueNet.for_game(small, SETTINGS.network, seed=1), small)
    models = tmp_path / "models"
    shipped_path = ship(checkpoint, "python -m scripts.train_alphazero ...", models_dir=models)
    assert pretrained_checkpoint(small, models) == shipped_path
    with pytest.raises(ValueError, match=r"configs with one .*'rows': 3, 'cols': 3"):
        pretrained_checkpoint(make_game("node_conquest"), models)
    with pytest.raises(ValueError, match="no network is shipped for 'quoridor'"):
        pretrained_checkpoint(make_game("quoridor"), models)


@pytest.mark.parametrize("entry", shipped(), ids=lambda entry: entry["file"])
def test_every_shipped_network_loads_by_name_and_plays_its_config(entry) -> None:
    game = make_game(entry["game"], **entry["config"])
    agent = make_agent("alphazero:pretrained:simulations=4", entry["game"], 0)
    record = play_game(game, [agent] + [make_agent("random", entry["game"], 1)] * (game.spec.num_players - 1), 0)
    assert record.plies > 0 and agent.metadata["game"] == entry["game"]
    assert entry["command"].startswith("python -m scripts.train_alphazero")
    size = (Path(__file__).resolve().parents[1] / "baselines/learners/alphazero/models" / entry["file"]).stat().st_size
    assert size < 4_000_000


def test_pretrained_for_a_config_without_a_network_is_a_clear_error() -> None:
    agent = make_agent("alphazero:pretrained", "node_conquest", 0)
    game = make_game("node_conquest", rows=4, cols=7)
    state = game.initial_state(np.random.default_rng(0))
    with pytest.raises(ValueError, match="alphazero:pretrained: no network is shipped"):
        agent.act(game, state, 0)


def test_the_comparison_script_plots_runs_side_by_side_and_names_a_missing_history(tmp_path, capsys) -> None:
    from scripts import compare_alphazero

    for name in ("a", "b"):
        AlphaZeroTrainer("toy_tictactoe", {}, SETTINGS, tmp_path / name, progress=False).run()
    png = tmp_path / "compare.png"
    compare_alphazero.cli(["--runs", f"gumbel={tmp_path / 'a'}", f"puct={tmp_path / 'b'}", "--png", str(png)])
    assert png.stat().st_size > 0 and "gumbel" in capsys.readouterr().out
    for argv, message in (
        (["--runs", f"x={tmp_path / 'missing'}"], "error: --runs: '"),
        (["--runs", f"a={tmp_path / 'a'}", "--opponent", "greedy"], "--opponent: run 'a' has no column 'vs_greedy'"),
    ):
        with pytest.raises(SystemExit):
            compare_alphazero.cli([*argv, "--png", str(png)])
        assert message in capsys.readouterr().err


def test_the_ship_script_copies_a_checkpoint_into_a_models_folder_and_refuses_a_missing_command(tmp_path) -> None:
    from scripts import ship_alphazero

    with pytest.raises(ValueError, match="--command must be the training command"):
        ship_alphazero.main(ship_alphazero.Args(checkpoint="x.pt", command="train it"))
    with pytest.raises(ValueError, match="--checkpoint is required"):
        ship_alphazero.main(ship_alphazero.Args())


# -- resuming a run stopped before its first state.pt; damaged state --------------------------------------------
ONE_ITERATION = AlphaZeroSettings(**{**SETTINGS.__dict__, "iterations": 1})


class Stop(Exception):
    """Raised from ``on_stage`` to stop a trainer where a kill would (every file written so far is whole)."""


def stop_at(stage: str, iteration: int):
    def on_stage(current: str, number: int) -> None:
        if (current, number) == (stage, iteration):
            raise Stop

    return on_stage


@pytest.mark.parametrize("stage", ["train", "eval"])
def test_a_run_stopped_before_its_first_state_resumes_from_the_start_to_an_uninterrupted_runs_network(
    tmp_path, stage: str
) -> None:
    """At ``train`` the folder holds the first replay file; at ``eval`` also ``best.pt`` and ``iteration_001.pt``."""
    torch.set_num_threads(1)
    whole = AlphaZeroTrainer("toy_tictactoe", {}, ONE_ITERATION, tmp_path / "whole", progress=False)
    whole.run()
    stopped = tmp_path / "stopped"
    with pytest.raises(Stop):
        AlphaZeroTrainer("toy_tictactoe", {}, ONE_ITERATION, stopped, progress=False, on_stage=stop_at(stage, 1)).run()
    assert (stopped / "replay" / "iteration_001.npz").is_file() and not (stopped / "state.pt").exists()
    with pytest.raises(FileExistsError, match="--resume"):
        AlphaZeroTrainer("toy_tictactoe", {}, ONE_ITERATION, stopped, progress=False)
    resumed = AlphaZeroTrainer("toy_tictactoe", {}, ONE_ITERATION, stopped, progress=False, resume=True)
    assert resumed.restarted and resumed.completed == 0 and not (stopped / "replay").exists()
    history = resumed.run()
    assert [row["policy_loss"] for row in history] == [row["policy_loss"] for row in whole.history]
    assert all(torch.equal(a, b) for a, b in zip(weights(stopped / "best.pt"), weights(tmp_path / "whole" / "best.pt")))


def test_the_script_says_a_run_stopped_before_its_first_state_starts_again(tmp_path, capsys) -> None:
    (tmp_path / "replay").mkdir()
    (tmp_path / "replay" / "iteration_001.npz").write_bytes(b"a replay file of the stopped iteration")
    (tmp_path / "replay" / ".iteration_001.4242.tmp.npz").write_bytes(b"half of one, its writer killed")
    flags = ["--game", "toy_tictactoe", "--iterations", "1", "--games", "1", "--simulations", "3",
             "--fast-simulations", "1", "--channels", "4", "--blocks", "1", "--hidden", "8", "--batch-size", "8",
             "--eval-games", "0", "--no-progress", "--resume", "--out", str(tmp_path)]  # fmt: skip
    args = parse_args(train_alphazero.Args, flags)
    train_alphazero.main(args)
    assert "stopped before its first iteration finished, so it starts again" in capsys.readouterr().out
    assert (tmp_path / "state.pt").is_file() and not list(tmp_path.rglob("*.tmp*"))


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory) -> Path:
    """A finished run of ``SETTINGS`` (trained once for the tests that damage a copy of it)."""
    out = tmp_path_factory.mktemp("finished") / "run"
    AlphaZeroTrainer("toy_tictactoe", {}, SETTINGS, out, progress=False).run()
    return out


def test_a_missing_state_with_files_of_later_iterations_is_refused_and_nothing_is_deleted(
    tmp_path, finished_run
) -> None:
    tmp_path = Path(shutil.copytree(finished_run, tmp_path / "run"))
    (tmp_path / "state.pt").unlink()
    before = sorted(path.name for path in tmp_path.rglob("*"))
    with pytest.raises(ValueError, match=r"state.pt' is missing but the run has files of later iterations \(.*"
                       r"iteration_002.pt.*\): its state is lost; pass force=True \(--force\)"):  # fmt: skip
        AlphaZeroTrainer("toy_tictactoe", {}, SETTINGS, tmp_path, progress=False, resume=True)
    assert sorted(path.name for path in tmp_path.rglob("*")) == before


def tampered_state(state: dict, change: str) -> None:
    if change == "nan-weight":
        next(iter(state["net"].values())).view(-1)[0] = float("nan")
    elif change == "weight-shape":
        key = next(iter(state["best"]))
        state["best"][key] = torch.zeros(3)
    elif change == "history-renumbered":
        state["history"][1]["iteration"] = 5
    elif change == "history-nan":
        state["history"][0]["policy_loss"] = float("nan")
    elif change == "iteration":
        state["iteration"] = 2
    elif change == "replay-window":
        state["replay"] = [3, 3]
    elif change == "no-optimizer":
        del state["optimizer"]
    elif change == "optimizer-nan":
        exp_avg = next(iter(state["optimizer"]["state"].values()))["exp_avg"]
        exp_avg.view(-1)[0] = float("inf")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ("nan-weight", "training network's weights hold a value that is not finite"),
        ("weight-shape", "best network's weights do not fit the network"),
        ("history-renumbered", "history row 2: not the row of iteration 2"),
        ("history-nan", "history row 1: 'policy_loss' is nan, not a finite number"),
        ("iteration", "its 'iteration' is 2 but its history holds 3 iterations"),
        ("replay-window", r"its 'replay' must list distinct iterations 0..3, got \[3, 3\]"),
        ("no-optimizer", "it has no 'optimizer'"),
        ("optimizer-nan", "optimizer state hold a value that is not finite"),
    ],
)
def test_a_tampered_state_is_refused_naming_the_file(tmp_path, finished_run, change: str, message: str) -> None:
    tmp_path = Path(shutil.copytree(finished_run, tmp_path / "run"))
    state = torch.load(tmp_path / "state.pt", weights_only=True)
    tampered_state(state, change)
    torch.save(state, tmp_path / "state.pt")
    with pytest.raises(ValueError, match=rf"state.pt'.*{message}"):
        AlphaZeroTrainer("toy_tictactoe", {}, SETTINGS, tmp_path, progress=False, resume=True)
