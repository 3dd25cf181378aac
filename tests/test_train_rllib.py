"""Tests of ``scripts/train_rllib.py`` (through ``main(Args)`` and ``cli(argv)``) and ``baselines.learners.rllib``:
a tiny self-play run with snapshots and a scripted opponent writes its checkpoints, log and plot, resumes to one
history, and its checkpoint plays legal moves as an arena agent; the table env lets scripted agents act inside it;
bad settings fail before Ray starts, naming the parameter."""

from __future__ import annotations

import csv
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("ray.rllib")
torch = pytest.importorskip("torch")
import ray  # noqa: E402

from baselines.arena import play_game  # noqa: E402
from baselines.factory import make_agent  # noqa: E402
from baselines.learners.rllib.agent import RLlibAgent, load_module  # noqa: E402
from baselines.learners.rllib.algorithm import ILLEGAL_METRIC, log_illegal_actions, network_config  # noqa: E402
from baselines.learners.rllib.checkpoints import CARD_NAME, RLlibCard, checkpoint_path, list_checkpoints  # noqa: E402
from baselines.learners.rllib.env import OpponentMix, TableEnv, module_for_agent  # noqa: E402
from baselines.learners.rllib.runs import crossed, plan_training, snapshot_slot  # noqa: E402
from baselines.learners.rllib.settings import RLlibSettings  # noqa: E402
from baselines.runs import atomic_write_text  # noqa: E402
from boardenvs.registry import make_game  # noqa: E402
from boardenvs.rllib import encode_rllib_observation  # noqa: E402
from scripts.train_rllib import Args, cli, main  # noqa: E402

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning", "ignore:.*Overriding environment")


@pytest.fixture(scope="module")
def ray_session() -> Iterator[None]:
    """One small local Ray for the whole module (start-up takes seconds)."""
    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield
    if started:
        ray.shutdown()


def small_args(out: Path, **overrides: Any) -> Args:
    """Quick settings on Quoridor 3x3: self-play, snapshots and the random agent, 128-step iterations."""
    settings: dict[str, Any] = {
        "config": ["board_size=3"],
        "opponents": "self,snapshot,random",
        "steps": 384,
        "envs_per_worker": 2,
        "eval_every": 256,
        "eval_games": 4,
        "snapshot_every": 128,
        "snapshot_slots": 2,
        "keep_checkpoints": 2,
        "train_batch_size": 128,
        "minibatch_size": 64,
        "num_epochs": 2,
        "out": str(out),
        "progress": False,
    }
    return Args(**{**settings, **overrides})


def csv_rows(path: Path) -> list[dict[str, str]]:
    with open(path, newline="") as handle:
        return list(csv.DictReader(handle))


@pytest.fixture(scope="module")
def trained_run(ray_session: None, tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The tiny run later tests resume from or load."""
    return main(small_args(tmp_path_factory.mktemp("rllib") / "run"))


# -- a whole run ----------------------------------------------------------------------------------------
def test_a_small_run_writes_checkpoints_log_and_plot(trained_run: Any) -> None:
    out = trained_run.out
    assert trained_run.steps >= 384 and trained_run.train_illegal == 0 and trained_run.iterations >= 3
    rows = csv_rows(out / "eval.csv")
    evaluated = sorted({int(row["steps"]) for row in rows})
    assert evaluated[0] == 0 and 256 <= evaluated[1] < 384 <= evaluated[-1] == trained_run.steps
    assert [row["opponent"] for row in rows] == ["random", "heuristic"] * len(evaluated)
    assert all(row["games"] == "4" and row["illegal"] == "0" for row in rows)
    assert all(float(row["ci_low"]) <= float(row["win_rate"]) <= float(row["ci_high"]) for row in rows)
    assert (out / "learning_curve.png").read_bytes()[:8] == PNG_MAGIC
    kept = list_checkpoints(out)
    assert [checkpoint.name for checkpoint in kept] == [checkpoint_path(out, s).name for s in evaluated[-2:]]
    card = json.loads((trained_run.checkpoint / CARD_NAME).read_text())
    assert card["game"] == "quoridor" and card["config"]["board_size"] == 3 and card["steps"] == trained_run.steps
    assert card["extra"]["args"]["opponents"] == "self,snapshot,random" and card["extra"]["target_steps"] == 384


def test_the_newest_snapshot_slot_holds_the_learner_and_the_older_one_does_not(trained_run: Any) -> None:
    """Snapshots were taken at the crossings of 128, 256 and 384 steps, into slots 0, 1, 0: at the final
    checkpoint slot 0 is the learner itself and slot 1 an older copy."""
    shared, newest, older = (
        load_module(trained_run.checkpoint, module_id).state_dict()
        for module_id in ("shared", "snapshot_0", "snapshot_1")
    )
    assert all(torch.equal(shared[key], newest[key]) for key in shared)
    assert not all(torch.equal(shared[key], older[key]) for key in shared)


def test_the_checkpoint_plays_only_legal_moves_as_an_arena_agent(trained_run: Any) -> None:
    game = make_game("quoridor", board_size=3)
    agent = make_agent(f"rllib:unsafe:{trained_run.out}", "quoridor")
    assert isinstance(agent, RLlibAgent) and agent.card.steps == trained_run.steps
    opponent = make_agent("random", "quoridor")
    for seed in range(6):
        record = play_game(game, [agent, opponent] if seed % 2 else [opponent, agent], seed)  # raises on illegal
        assert record.plies > 0
    assert agent.illegal_predictions == 0
    with pytest.raises(ValueError, match="trained on 'quoridor', not 'splendor'"):
        make_agent(f"rllib:unsafe:{trained_run.checkpoint}", "splendor")
    with pytest.raises(FileNotFoundError, match="no RLlib checkpoint"):
        make_agent(f"rllib:unsafe:{trained_run.out}/nowhere", "quoridor")


def test_another_board_size_is_refused_by_the_agent(trained_run: Any) -> None:
    agent = make_agent(f"rllib:unsafe:{trained_run.checkpoint}", "quoridor")
    game = make_game("quoridor", board_size=5)
    with pytest.raises(ValueError, match=r"shape \(10, 3, 3\) with 18 actions"):
        agent.act(game, game.initial_state(np.random.default_rng(0)), 0)


def test_resume_continues_one_history_with_the_checkpoints_config(trained_run: Any, tmp_path, capsys) -> None:
    out = tmp_path / "resumed"
    shutil.copytree(trained_run.out, out, ignore=shutil.ignore_patterns(".lock"))
    before = csv_rows(out / "eval.csv")
    with open(out / "eval.csv", "a") as handle:  # a row logged after the newest checkpoint (a kill before saving)
        handle.write(",".join(["99999", "1.0", "random", "4", "4", "0", "0", "1.0", "0.5", "1.0", "0", "0"]) + "\n")
    argv = ["--out", str(out), "--resume", "--steps", "128", "--opponents", "self,snapshot,random"]
    argv += ["--snapshot-slots", "2", "--train-batch-size", "128", "--minibatch-size", "64", "--envs-per-worker", "2"]
    result = cli([*argv, "--eval-games", "4", "--num-epochs", "2", "--no-progress"])
    assert result.steps >= trained_run.steps + 128 and result.iterations == 1
    assert result.wall_seconds > trained_run.wall_seconds
    after = csv_rows(out / "eval.csv")
    assert after[: len(before)] == before and {row["steps"] for row in after[len(before) :]} == {str(result.steps)}
    printed = capsys.readouterr().out
    assert "dropped 1 row(s) logged after step" in printed and "vs random: win rate" in printed
    card = json.loads((result.checkpoint / CARD_NAME).read_text())
    assert card["config"]["board_size"] == 3 and "board_size=3" in card["extra"]["args"]["config"]


def test_a_new_run_refuses_a_folder_that_holds_one(trained_run: Any) -> None:
    with pytest.raises(FileExistsError, match=r"already holds a run.*--resume.*--force"):
        main(small_args(trained_run.out))


def test_a_killed_continuation_finishes_its_target(tmp_path) -> None:
    """The newest checkpoint of a continuation killed before its target: rerunning with --resume trains to the same
    target; a finished run's checkpoint is continued by ``steps`` more."""
    for steps, extra, expected in ((300, {"start_steps": 200, "target_steps": 400}, (200, 250)), (400, {}, (400, 450))):
        out = tmp_path / str(steps)
        checkpoint = checkpoint_path(out, steps)
        checkpoint.mkdir(parents=True)
        config = {
            "board_size": 3,
            "num_players": 2,
            "walls_per_player": None,
            "max_moves": None,
            "liberal_jumps": False,
        }
        card = RLlibCard("quoridor", config, steps, 1.0, [10, 3, 3], 18, extra=extra)
        atomic_write_text(checkpoint / CARD_NAME, json.dumps(card.__dict__))
        plan = plan_training(RLlibSettings(out=str(out), resume=True, steps=50))
        assert (plan.start_steps, plan.target_steps) == expected and plan.resume == checkpoint
        assert plan.config["board_size"] == 3
    with pytest.raises(ValueError, match=r"opponents/snapshot_slots: the checkpoint holds the snapshot modules \[\]"):
        plan_training(RLlibSettings(out=str(out), resume=True, opponents="self,snapshot"))


# -- the table env (no Ray needed) ----------------------------------------------------------------------------
def test_scripted_opponents_act_inside_the_env() -> None:
    env = TableEnv(OpponentMix(("path",)).env_config("quoridor", {"board_size": 5}))
    rng = np.random.default_rng(0)
    for seed in range(4):
        observations, _ = env.reset(seed=seed)
        learner = f"player_{env.table.index(next(iter(observations)))}"
        assert env.opponent == "path" and env.table.count(None) == 1 and env.agents == [learner]
        learner_moves = 0
        while True:
            ((agent, observation),) = observations.items()
            assert agent == learner and env.aec.agent_selection == agent
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            observations, rewards, terminateds, truncateds, _ = env.step({agent: action})
            learner_moves += 1
            if terminateds["__all__"] or truncateds["__all__"]:
                break
        assert set(rewards) == {learner} and rewards[learner] in (-1.0, 0.0, 1.0)
        assert env.aec.unwrapped.game_state.ply >= 2 * learner_moves - 1, "the path agent moved in between"


def test_the_agent_encodes_the_observation_the_env_gives() -> None:
    env = TableEnv(OpponentMix(("self",)).env_config("quoridor", {"board_size": 5}))
    observations, _ = env.reset(seed=0)
    for _ in range(6):
        ((agent, observation),) = observations.items()
        state, seat = env.aec.unwrapped.game_state, int(agent.rpartition("_")[2])
        encoded = encode_rllib_observation(env.game, state, seat, env.game.legal_action_mask(state))
        assert encoded.keys() == observation.keys()
        assert all(
            np.array_equal(encoded[key], observation[key]) and encoded[key].dtype == np.float32 for key in encoded
        )
        action = int(np.flatnonzero(observation["action_mask"])[0])
        observations, *_ = env.step({agent: action})


def test_tables_name_each_seat_by_its_module() -> None:
    env = TableEnv(OpponentMix(("self", "snapshot"), snapshot_slots=3).env_config("quoridor", {"board_size": 3}))
    seen = set()
    for seed in range(30):
        env.reset(seed=seed)
        modules = [module_for_agent(agent) for agent in env.table]
        seen.add(env.opponent)
        if env.opponent == "self":
            assert modules == ["shared", "shared"]
        else:
            frozen = [module for module in modules if module != "shared"]
            assert len(frozen) == 1 and frozen[0] in {"snapshot_0", "snapshot_1", "snapshot_2"}
    assert seen == {"self", "snapshot"}
    env.reset(seed=3)
    first = list(env.table)
    env.reset(seed=3)
    assert env.table == first, "the table is drawn from the reset seed"


def test_an_illegal_action_ends_the_game_and_is_counted() -> None:
    env = TableEnv(OpponentMix(("random",)).env_config("quoridor", {"board_size": 3}))
    observations, _ = env.reset(seed=0)
    ((agent, observation),) = observations.items()
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    _, rewards, terminateds, _, infos = env.step({agent: illegal})
    assert rewards[agent] == -1.0 and terminateds["__all__"] and infos[agent]["illegal_action"] is True

    class Episode:
        def get_infos(self, index: int) -> dict[str, Any]:
            return infos

    class Logger:
        logged: dict[str, Any] = {}

        def log_value(self, key: str, value: Any, reduce: str) -> None:
            self.logged[key] = (value, reduce)

    logger = Logger()
    log_illegal_actions(episode=Episode(), metrics_logger=logger)
    assert logger.logged == {ILLEGAL_METRIC: (1, "sum")}


def test_snapshots_cycle_through_the_slots_oldest_first() -> None:
    assert [snapshot_slot(steps, 100, 3) for steps in (100, 250, 300, 410, 520)] == [
        "snapshot_0",
        "snapshot_1",
        "snapshot_2",
        "snapshot_0",
        "snapshot_1",
    ]
    assert crossed(99, 100, 100) and crossed(90, 310, 100) and not crossed(100, 199, 100)


def test_the_network_settings_shape_rllibs_model_config() -> None:
    default = network_config(RLlibSettings(), (5, 5, 10))
    assert default["conv_filters"] == [[16, 3, 1], [32, 3, 1]] and default["vf_share_layers"] is True
    wide = network_config(RLlibSettings(conv_channels=[32, 64], hidden=[256, 128], share_layers=False), (12, 12, 13))
    assert wide["conv_filters"] == [[32, 3, 1], [64, 3, 2]] and wide["head_fcnet_hiddens"] == [256, 128]
    assert wide["vf_share_layers"] is False
    assert network_config(RLlibSettings(hidden=[128]), (335,))["fcnet_hiddens"] == [128]


# -- bad input ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"game": "chess"}, r"game: unknown game 'chess'"),
        ({"opponents": "random,grandmaster"}, r"opponents: unknown agent 'grandmaster' for game 'quoridor'; choices"),
        ({"opponents": " , "}, r"opponents: name at least one agent, got ' , '"),
        ({"eval_opponents": "nobody"}, r"eval_opponents: unknown agent 'nobody'"),
        ({"steps": 0}, r"steps must be in >= 1, got 0"),
        ({"steps": -5}, r"steps must be in >= 1"),
        ({"workers": -1}, r"workers must be in >= 0"),
        ({"gamma": 1.5}, r"gamma must be in \[0, 1\]"),
        ({"lr": 0.0}, r"lr must be a finite number > 0"),
        ({"hidden": [64, 0]}, r"hidden must be in >= 1, got 0"),
        ({"config": ["board_size=2"]}, r"config \['board_size=2'\]: board_size must be in 3..25"),
        ({"resume": True, "force": True}, r"resume and force exclude each other"),
        ({"resume": True}, r"resume: no checkpoint in"),
    ],
)
def test_bad_settings_are_rejected_before_ray_starts(overrides: dict[str, Any], message: str, tmp_path) -> None:
    with pytest.raises(ValueError, match=message):
        main(small_args(tmp_path / "bad", **overrides))
    assert not (tmp_path / "bad" / "checkpoints").exists()
