"""Seed 004's Q-learning neural network (``baselines/learners/qlnn/``, ``scripts/train_qlnn.py``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from baselines.arena import evaluate_against  # noqa: E402
from baselines.factory import make_agent  # noqa: E402
from baselines.learners.qlnn import QLNNAgent, QLNNSettings, QNetwork, train  # noqa: E402
from baselines.learners.tabular_q.identity import game_identity  # noqa: E402
from boardenvs.registry import make_game  # noqa: E402

TINY = QLNNSettings(hidden=(16,), epsilon=0.5, learning_rate=0.05)


def play_checked(game, agent, opponent, seed: int) -> int:  # noqa: ANN001 - test helper
    """Play one game, asserting that every move of ``agent`` (seat 0) is legal; returns the number of moves."""
    rng = np.random.default_rng(seed)
    state, moves = game.initial_state(rng), 0
    while not game.is_terminal(state) and moves < 2000:
        player = state.current_player
        mover = agent if player == 0 else opponent
        action = mover.act(game, state, player)
        assert action in set(int(a) for a in game.legal_actions(state))
        state, moves = game.apply(state, action), moves + 1
    return moves


@pytest.mark.parametrize("board_size", [5, 9])
def test_plays_only_legal_moves(board_size: int) -> None:
    game = make_game("quoridor", board_size=board_size)
    agent = QLNNAgent(0, weights=QNetwork.empty(game, TINY, seed=1))
    opponent = make_agent("random", "quoridor", seed=2)
    for seed in range(2):
        play_checked(game, agent, opponent, seed)


def test_loads_shipped_network_by_name() -> None:
    game = make_game("quoridor", board_size=5)
    agent = make_agent("qlnn", "quoridor", seed=0)
    assert play_checked(game, agent, make_agent("random", "quoridor", seed=1), 0) > 0
    wins, _, losses = evaluate_against(game, agent, make_agent("path", "quoridor", seed=3), 10, 5)
    assert wins > losses


def test_loads_weights_file(tmp_path: Path) -> None:
    game = make_game("quoridor", board_size=5)
    path = QNetwork.empty(game, TINY).save(tmp_path / "net.pt")
    agent = make_agent(f"qlnn:weights={path}", "quoridor", seed=0)
    assert isinstance(agent, QLNNAgent)
    play_checked(game, agent, make_agent("path", "quoridor", seed=1), 0)


def test_errors_name_the_bad_value(tmp_path: Path) -> None:
    game9 = make_game("quoridor", board_size=9)
    with pytest.raises(ValueError, match="board_size.*9.*shipped configs"):
        make_agent("qlnn", "quoridor").act(game9, game9.initial_state(np.random.default_rng(0)), 0)
    with pytest.raises(FileNotFoundError, match="nope.pt"):
        make_agent(f"qlnn:weights={tmp_path / 'nope.pt'}", "quoridor")
    with pytest.raises(ValueError, match="depth"):
        make_agent("qlnn:depth=3", "quoridor")
    bad = tmp_path / "bad.pt"
    bad.write_text("not a network")
    with pytest.raises(ValueError, match="bad.pt"):
        make_agent(f"qlnn:weights={bad}", "quoridor")
    with pytest.raises(ValueError, match="activation"):
        QLNNSettings(activation="softsign")
    net5 = QNetwork.empty(make_game("quoridor", board_size=5), TINY)
    with pytest.raises(ValueError, match="config"):
        QLNNAgent(0, weights=net5).act(game9, game9.initial_state(np.random.default_rng(0)), 0)


def test_update_moves_only_played_actions_outputs() -> None:
    game = make_game("quoridor", board_size=5)
    init = np.random.SeedSequence(4).spawn(5)[0]  # train() seeds its initial network from the first child
    torch.manual_seed(int(init.generate_state(1)[0]))
    initial = QNetwork(game_identity(game), TINY)
    agent, _, learner = train(game, 3, "path", TINY, seed=4)
    assert agent.network is not None
    before = list(initial.module.parameters())
    after = list(agent.network.module.parameters())
    assert torch.equal(before[0], initial.module[0].weight) and not torch.equal(before[0], after[0])
    weight_rows = torch.nonzero((before[-2] != after[-2]).any(dim=1))[:, 0].tolist()
    bias_rows = torch.nonzero(before[-1] != after[-1])[:, 0].tolist()
    assert weight_rows and set(weight_rows) <= learner.played and set(bias_rows) <= learner.played
    assert len(learner.played) < game.spec.num_actions


def test_training_is_seeded() -> None:
    game = make_game("quoridor", board_size=5)
    first, history1, _ = train(game, 4, "path", TINY, seed=7, eval_every=2, eval_games=2)
    second, history2, _ = train(game, 4, "path", TINY, seed=7, eval_every=2, eval_games=2)
    assert first.network is not None and second.network is not None
    for a, b in zip(first.network.module.state_dict().values(), second.network.module.state_dict().values()):
        assert torch.equal(a, b)
    assert [p.eval_wins for p in history1] == [p.eval_wins for p in history2]


def test_train_script_writes_outputs(tmp_path: Path) -> None:
    from scripts.train_qlnn import cli

    out = tmp_path / "run"
    cli(["--config", "board_size=5", "--episodes", "4", "--eval-games", "2", "--hidden", "8", "--out", str(out)])
    assert (out / "qlnn.pt").exists() and (out / "history.csv").exists() and (out / "learning_curve.png").exists()
    QNetwork.load(out / "qlnn.pt")
