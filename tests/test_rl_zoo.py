"""rl-zoo3 through ``scripts/rl_zoo.py``: ``ppo_mask`` trains, evaluates and plays every game with masks.

For every game the entry point trains ``ppo_mask`` in-process for 256 steps with one evaluation of rl-zoo3's own
``EvalCallback`` (SB3's ``evaluate_policy``, which passes no mask), then runs rl-zoo3's ``enjoy`` on the saved model.
Checked: the training rollouts collected the env's masks at every step and played no illegal move; rl-zoo3's
evaluation and ``enjoy`` report exactly the episodes (returns and lengths) that our masked evaluation
(``baselines.learners.sb3.evaluate.evaluate_model``) plays with the same model and seed, none ending on an illegal
move; and the zip converts to the safe format. One test runs the real command line in a subprocess.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")
pytest.importorskip("rl_zoo3")

import yaml  # noqa: E402  (PyYAML comes with rl-zoo3)
from stable_baselines3.common.callbacks import BaseCallback  # noqa: E402
from stable_baselines3.common.vec_env import VecEnvWrapper  # noqa: E402

from baselines.learners.sb3 import rl_zoo  # noqa: E402
from baselines.learners.sb3.convert import convert_zip  # noqa: E402
from baselines.learners.sb3.evaluate import evaluate_model  # noqa: E402
from baselines.learners.sb3.loading import load_model  # noqa: E402
from baselines.learners.sb3.policies import PPO_DEFAULTS, policy_kwargs_for  # noqa: E402
from baselines.learners.sb3.ppo import SelfMaskingMultiInputPolicy  # noqa: E402
from boardenvs.envs import game_entry, gym_env_id  # noqa: E402
from boardenvs.registry import list_games, make_game  # noqa: E402
from scripts import rl_zoo as rl_zoo_script  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
GAMES = [name for name in list_games() if game_entry(name).game_class.__module__.startswith("boardenvs.")]
"""The package's games (not the test session's toy games)."""
TINY: dict[str, dict[str, Any] | None] = {
    "quoridor": None,  # the hyperparameter file's own config (5x5), which the entry point passes as --env-kwargs
    "node_conquest": {"preset": "small"},
    "splendor": None,  # the default config (the file gives none)
    "gravwell": {"num_players": 2},
    "battle_sheep": {"num_players": 2, "board_size": 5, "field_size": 8, "sheep_per_player": 4},
}
"""Small configs of each game for the runs (``None``: no --env-kwargs, the hyperparameter file's config)."""
QUICK = ["n_envs:1", "n_steps:128", "batch_size:64", "n_epochs:1", "callback:'tests.test_rl_zoo.TrainingRecorder'"]
"""rl-zoo3 ``-params`` that keep a run short, and the callback that watches its rollouts."""
TRAIN_SEED, ENJOY_SEED, EVAL_EPISODES, STEPS = 7, 11, 3, 256


class TrainingRecorder(BaseCallback):
    """Counts the rollout steps, those whose masks MaskablePPO collected from the env, and illegal moves."""

    runs: ClassVar[list[TrainingRecorder]] = []

    def __init__(self) -> None:
        super().__init__()
        self.steps = self.masked_steps = self.illegal = self.episodes = 0
        TrainingRecorder.runs.append(self)

    def _on_step(self) -> bool:
        self.steps += 1
        self.masked_steps += int(self.locals.get("action_masks") is not None)
        for info, done in zip(self.locals["infos"], self.locals["dones"]):
            self.illegal += int(bool(info.get("illegal_action", False)))
            self.episodes += int(bool(done))
        return True


class EpisodeRecorder(VecEnvWrapper):
    """Records the returns and lengths of the finished episodes of its (one) env, and the illegal moves."""

    def __init__(self, venv: Any) -> None:
        super().__init__(venv)
        self.returns: list[float] = []
        self.lengths: list[int] = []
        self.illegal = 0
        self._return, self._length = 0.0, 0

    def reset(self) -> Any:
        return self.venv.reset()

    def step_wait(self) -> Any:
        observations, rewards, dones, infos = self.venv.step_wait()
        self._return, self._length = self._return + float(rewards[0]), self._length + 1
        self.illegal += int(bool(infos[0].get("illegal_action", False)))
        if dones[0]:
            self.returns.append(self._return)
            self.lengths.append(self._length)
            self._return, self._length = 0.0, 0
        return observations, rewards, dones, infos


@pytest.fixture(autouse=True)
def one_torch_thread() -> None:
    torch.set_num_threads(1)


def env_kwargs_of(name: str) -> dict[str, Any]:
    """The env kwargs a run of ``name`` uses: :data:`TINY`'s, or the hyperparameter file's."""
    tiny = TINY[name]
    return tiny if tiny is not None else rl_zoo.hyperparameters(gym_env_id(name)).get("env_kwargs", {})


def run_folder(log_folder: Path, env_id: str) -> Path:
    return log_folder / rl_zoo.ALGO / f"{env_id.replace('/', '-')}_1"


# -- the entry point's defaults and the hyperparameter file -----------------------------------------------------------
def test_the_defaults_come_first_so_the_users_own_options_win() -> None:
    argv = rl_zoo.zoo_argv("train", ["--env", "boardenvs/Quoridor-v0"])
    assert argv[:4] == ["--algo", "ppo_mask", "--gym-packages", "boardenvs"]
    assert argv[argv.index("--conf-file") + 1] == str(rl_zoo.HYPERPARAMS)
    assert argv[argv.index("--env-kwargs") + 1] == "board_size:5" and argv[-2:] == ["--env", "boardenvs/Quoridor-v0"]
    own = rl_zoo.zoo_argv("train", ["--env", "boardenvs/Quoridor-v0", "--env-kwargs", "board_size:3"])
    assert own.count("--env-kwargs") == 1, "the user's --env-kwargs replaces the file's entry"
    plain = rl_zoo.zoo_argv("train", ["--algo", "ppo", "--env", "boardenvs/Quoridor-v0"])
    assert "--conf-file" not in plain and "--env-kwargs" not in plain, "another algorithm keeps rl-zoo3's files"
    enjoy = rl_zoo.zoo_argv("enjoy", ["--env", "x"])
    assert enjoy == ["--algo", "ppo_mask", "--gym-packages", "boardenvs", "--env", "x"]
    with pytest.raises(ValueError, match="command must be one of"):
        rl_zoo.zoo_argv("optimize", [])
    with pytest.raises(ValueError, match=r"hyperparameter search \(-optimize\) is not supported for ppo_mask"):
        rl_zoo.zoo_argv("train", ["--env", "boardenvs/Quoridor-v0", "--optimize"])


def test_the_hyperparameter_file_has_every_game_with_the_trainers_settings() -> None:
    entries = yaml.safe_load(rl_zoo.HYPERPARAMS.read_text())
    assert sorted(entries) == sorted(gym_env_id(name) for name in GAMES)
    for name in GAMES:
        entry = entries[gym_env_id(name)]
        assert entry["policy"] == "MultiInputPolicy" and entry["n_timesteps"] > 0
        assert {key: entry[key] for key in PPO_DEFAULTS} == PPO_DEFAULTS, name
        game = make_game(name, **entry.get("env_kwargs", {}))
        expected, written = policy_kwargs_for(game), rl_zoo.resolve_names(entry["policy_kwargs"])
        assert written["features_extractor_class"] is expected["features_extractor_class"], name
        assert written["features_extractor_kwargs"]["use_mask"] == expected["features_extractor_kwargs"]["use_mask"]
        assert (written["net_arch"], written["normalize_images"]) == (expected["net_arch"], False), name


def test_policy_kwargs_name_only_known_classes() -> None:
    assert rl_zoo.resolve_names({"activation_fn": "ReLU"})["activation_fn"] is torch.nn.ReLU
    with pytest.raises(ValueError, match=r"features_extractor_class: unknown name 'os.system'; known: \["):
        rl_zoo.resolve_names({"features_extractor_class": "os.system"})


def test_the_script_refuses_an_unknown_command_and_passes_the_rest_on(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        rl_zoo_script.cli(["optimize", "--env", "boardenvs/Quoridor-v0"])
    assert exit_.value.code == 2 and "error: --command: must be one of ['train', 'enjoy']" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_:
        rl_zoo_script.cli(["train", "--algo", "nosuch"])  # rl-zoo3's own parser: its choices now hold ppo_mask
    assert exit_.value.code == 2 and "'ppo_mask'" in capsys.readouterr().err


# -- training, evaluation and enjoy for every game --------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_ppo_mask_trains_evaluates_and_plays_legally_and_rl_zoo_scores_equal_ours(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    env_id, env_kwargs, folder = gym_env_id(name), env_kwargs_of(name), tmp_path / "logs"
    kwargs_argv = rl_zoo.env_kwargs_argv(env_kwargs) if TINY[name] is not None else []
    before = len(TrainingRecorder.runs)
    rl_zoo_script.cli(["train", "--env", env_id, *kwargs_argv, "-n", str(STEPS), "--eval-freq", str(STEPS),
                       "--eval-episodes", str(EVAL_EPISODES), "--seed", str(TRAIN_SEED), "-f", str(folder),
                       "--num-threads", "1", "--verbose", "0", "-params", *QUICK])  # fmt: skip
    recorder = TrainingRecorder.runs[before]
    assert recorder.steps == STEPS and recorder.masked_steps == STEPS, "MaskablePPO collected the env's masks"
    assert recorder.illegal == 0
    run = run_folder(folder, env_id)
    game = make_game(name, **env_kwargs)

    # rl-zoo3's EvalCallback (SB3's evaluate_policy, no masks) == our masked evaluation of the model it evaluated
    evaluations = np.load(run / "evaluations.npz")
    assert evaluations["timesteps"].tolist() == [STEPS]
    best, _ = load_model(run / "best_model.zip", game, trusted=True)
    assert isinstance(best.policy, SelfMaskingMultiInputPolicy)
    ours = evaluate_model(best, env_id, EVAL_EPISODES, seed=TRAIN_SEED, **env_kwargs)
    assert ours.illegal_moves == 0
    assert evaluations["results"][0].tolist() == ours.returns
    assert evaluations["ep_lengths"][0].tolist() == ours.lengths

    # rl-zoo3's enjoy (no masks either, the env kwargs from the run's args.yml) == our evaluation of the final model
    recorders = record_enjoy_episodes(monkeypatch)
    capsys.readouterr()
    rl_zoo_script.cli(["enjoy", "--env", env_id, "-f", str(folder), "--no-render", "-n", "300",
                       "--seed", str(ENJOY_SEED), "--num-threads", "1", "--device", "cpu"])  # fmt: skip
    printed = [float(value) for value in re.findall(r"Episode Reward: (-?[\d.]+)", capsys.readouterr().out)]
    (played,) = recorders
    assert played.returns and played.illegal == 0
    zoo_zip = run / f"{env_id.replace('/', '-')}.zip"
    final, _ = load_model(zoo_zip, game, trusted=True)
    again = evaluate_model(final, env_id, len(played.returns), seed=ENJOY_SEED, **env_kwargs)
    assert (played.returns, played.lengths, again.illegal_moves) == (again.returns, again.lengths, 0)
    assert printed == [round(value, 2) for value in again.returns]

    # the rl-zoo3 zip converts to the safe files (then sb3:<path>.pt plays it anywhere), which play as it does
    written, agreement = convert_zip(zoo_zip, tmp_path / "safe" / "model", game=game, positions=20)
    assert agreement is not None and agreement.identical
    safe, _ = load_model(written, game)
    assert evaluate_model(safe, env_id, len(again.returns), seed=ENJOY_SEED, **env_kwargs) == again


@pytest.mark.slow
def test_training_collects_the_masks_through_subprocess_envs_too(tmp_path: Path) -> None:
    before = len(TrainingRecorder.runs)
    rl_zoo_script.cli(["train", "--env", "boardenvs/Quoridor-v0", "--env-kwargs", "board_size:3", "-n", "128",
                       "--eval-freq", "-1", "--vec-env", "subproc", "--seed", "2", "-f", str(tmp_path / "logs"),
                       "--num-threads", "1", "--device", "cpu", "--verbose", "0",
                       "-params", "n_envs:2", "n_steps:32", "batch_size:64", "n_epochs:1", QUICK[-1]])  # fmt: skip
    recorder = TrainingRecorder.runs[before]
    assert recorder.steps == 64 and recorder.masked_steps == 64 and recorder.illegal == 0


def record_enjoy_episodes(monkeypatch: pytest.MonkeyPatch) -> list[EpisodeRecorder]:
    """The :class:`EpisodeRecorder` around each env rl-zoo3's ``enjoy`` creates from now on."""
    import rl_zoo3.enjoy

    recorders: list[EpisodeRecorder] = []
    create_test_env = rl_zoo3.enjoy.create_test_env

    def recorded(*args: Any, **kwargs: Any) -> EpisodeRecorder:
        recorders.append(EpisodeRecorder(create_test_env(*args, **kwargs)))
        return recorders[-1]

    monkeypatch.setattr(rl_zoo3.enjoy, "create_test_env", recorded)
    return recorders


@pytest.mark.slow
def test_the_command_line_trains_and_enjoys_in_a_subprocess(tmp_path: Path) -> None:
    common = ["--env", "boardenvs/Quoridor-v0", "--env-kwargs", "board_size:3", "-f", str(tmp_path / "logs"),
              "--num-threads", "1", "--device", "cpu"]  # fmt: skip
    quick = ["-params", "n_envs:1", "n_steps:64", "batch_size:64", "n_epochs:1"]
    train = [sys.executable, "-m", "scripts.rl_zoo", "train", *common, "-n", "128", "--eval-freq", "128",
             "--eval-episodes", "2", "--seed", "1", *quick]  # fmt: skip
    done = subprocess.run(train, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    run = run_folder(tmp_path / "logs", "boardenvs/Quoridor-v0")
    assert (run / "boardenvs-Quoridor-v0.zip").is_file() and (run / "evaluations.npz").is_file()
    enjoy = [sys.executable, "-m", "scripts.rl_zoo", "enjoy", *common, "--no-render", "-n", "60"]
    done = subprocess.run(enjoy, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Episode Reward" in done.stdout and "Mean reward" in done.stdout
