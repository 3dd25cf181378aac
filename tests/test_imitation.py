"""Behaviour cloning (``baselines.learners.sb3.imitation``): the teacher's recorded decisions are legal, whole,
seeded and carry their discounted returns; cloning makes the policy play the teacher's moves; ``--teacher``
warm-starts a PPO run before its step-0 evaluation and not again on resume."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

from baselines.learners.sb3.imitation import collect_demonstrations, pretrain_policy  # noqa: E402
from baselines.learners.sb3.policies import make_model  # noqa: E402
from baselines.learners.sb3.runs import SB3Settings, train  # noqa: E402
from baselines.learners.sb3.training import OpponentMix, make_vec_env  # noqa: E402
from boardenvs.registry import make_game  # noqa: E402

SMALL = {"rows": 3, "cols": 3}


@pytest.fixture(autouse=True)
def one_torch_thread() -> None:
    torch.set_num_threads(1)


@pytest.fixture(scope="module")
def greedy_demos():
    return collect_demonstrations("node_conquest", SMALL, "greedy", OpponentMix(), steps=300, seed=5, gamma=0.9)


def test_demonstrations_are_whole_episodes_of_legal_teacher_moves(greedy_demos) -> None:
    demos = greedy_demos
    assert demos.size >= 300 and demos.episodes >= 1
    masks = demos.observations["action_mask"].astype(bool)
    assert masks[np.arange(demos.size), demos.actions].all()
    assert demos.observations["observation"].shape[0] == demos.size == demos.returns.shape[0]
    assert -1.0 <= demos.teacher_return <= 1.0


def test_returns_are_discounted_from_each_decision_to_its_episode_end(greedy_demos) -> None:
    returns = greedy_demos.returns
    outcomes = {-1.0, 0.0, 1.0}  # the game's reward, paid after an episode's last decision
    for now, later in zip(returns[:-1], returns[1:]):
        assert np.isclose(now, 0.9 * later) or float(now) in outcomes
    assert float(returns[-1]) in outcomes
    assert sum(float(value) in outcomes for value in returns) >= greedy_demos.episodes


def test_demonstrations_are_seeded() -> None:
    first, second = (
        collect_demonstrations("node_conquest", SMALL, "greedy", OpponentMix(), steps=60, seed=9) for _ in range(2)
    )
    assert np.array_equal(first.actions, second.actions)
    assert np.array_equal(first.observations["observation"], second.observations["observation"])
    other = collect_demonstrations("node_conquest", SMALL, "greedy", OpponentMix(), steps=60, seed=10)
    assert not np.array_equal(first.observations["observation"], other.observations["observation"])


def test_cloning_makes_the_policy_play_the_teachers_moves_whatever_ppos_own_rate(greedy_demos) -> None:
    """Cloning has its own optimizer: a PPO set up to fine-tune gently (3e-5) clones as fast, and its optimizer
    keeps its rate and an empty state for reinforcement learning."""
    game = make_game("node_conquest", **SMALL)
    env = make_vec_env("node_conquest", SMALL, OpponentMix(), 1)
    model = make_model("ppo", env, game, seed=0, learning_rate=3e-5)
    history = pretrain_policy(model, greedy_demos, epochs=25, seed=0, batch_size=64, learning_rate=1e-3)
    assert history[-1]["policy_loss"] < 0.5 * history[0]["policy_loss"]
    assert history[-1]["agreement"] > history[0]["agreement"] + 0.2
    assert model.policy.optimizer.param_groups[0]["lr"] == pytest.approx(3e-5)
    assert not model.policy.optimizer.state
    env.close()


def test_cloning_refuses_bad_numbers_and_a_model_without_masked_policy(greedy_demos) -> None:
    game = make_game("node_conquest", **SMALL)
    env = make_vec_env("node_conquest", SMALL, OpponentMix(), 1)
    ppo = make_model("ppo", env, game, seed=0)
    with pytest.raises(ValueError, match="epochs must be an int >= 1, got 0"):
        pretrain_policy(ppo, greedy_demos, epochs=0, seed=0)
    with pytest.raises(ValueError, match="batch_size must be an int >= 1"):
        pretrain_policy(ppo, greedy_demos, epochs=1, seed=0, batch_size=0)
    with pytest.raises(ValueError, match="learning_rate must be a finite number > 0, got 0"):
        pretrain_policy(ppo, greedy_demos, epochs=1, seed=0, learning_rate=0)
    with pytest.raises(ValueError, match="needs a MaskablePPO model, got MaskedDQN"):
        pretrain_policy(make_model("dqn", env, game, seed=0), greedy_demos, epochs=1, seed=0)
    with pytest.raises(ValueError, match="steps must be an int >= 1, got 0"):
        collect_demonstrations("node_conquest", SMALL, "greedy", OpponentMix(), steps=0, seed=0)
    with pytest.raises(ValueError, match="unknown agent"):
        collect_demonstrations("node_conquest", SMALL, "nobody", OpponentMix(), steps=5, seed=0)
    env.close()


def test_a_teacher_warm_starts_the_run_before_step_0_and_not_again_on_resume(tmp_path: Path, capsys) -> None:
    settings = SB3Settings(
        game="node_conquest", config=["rows=3", "cols=3"], steps=64, n_envs=1, n_steps=64, batch_size=64,
        eval_every=64, eval_games=20, eval_sampled=True, eval_opponents="random", out=str(tmp_path / "run"),
        progress=False, teacher="greedy", teacher_steps=400, teacher_epochs=20, learning_rate=1e-3,
    )  # fmt: skip
    result = train(settings)
    assert "behaviour cloning of greedy:" in capsys.readouterr().out
    plain = train(SB3Settings(**{**settings.__dict__, "teacher": "", "out": str(tmp_path / "plain")}))
    cloned_start = next(row for row in _rows(result.eval_csv) if row["steps"] == "0")
    plain_start = next(row for row in _rows(plain.eval_csv) if row["steps"] == "0")
    assert float(cloned_start["win_rate"]) > float(plain_start["win_rate"])
    train(SB3Settings(**{**settings.__dict__, "steps": 64, "resume": str(tmp_path / "run"), "out": ""}))
    assert "behaviour cloning" not in capsys.readouterr().out


def _rows(path: Path) -> list[dict[str, str]]:
    with open(path, newline="") as handle:
        return list(csv.DictReader(handle))
