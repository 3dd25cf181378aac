"""AlphaZero: network, evaluator, self-play examples, training, trainer outputs and the agent."""

from __future__ import annotations

import csv

import numpy as np
import pytest
import torch

import tests.toy_games  # noqa: F401  (registers toy_tictactoe)
from baselines import make_agent, play_game
from baselines.learners.alphazero import (
    AlphaZeroSettings,
    AlphaZeroTrainer,
    NetworkConfig,
    NetworkEvaluator,
    PolicyValueNet,
    SelfPlaySettings,
    load_checkpoint,
    play_selfplay_game,
    save_checkpoint,
)
from baselines.learners.alphazero.network import masked_log_softmax
from baselines.learners.alphazero.selfplay import Example
from baselines.learners.alphazero.trainer import losses_of, train_network
from baselines.search.mcts import MCTSAgent
from boardenvs.registry import list_games, make_game
from tests.toy_games import TicTacToe

TINY = NetworkConfig(channels=8, blocks=1, hidden=16)
QUICK = SelfPlaySettings(simulations=6, temperature_plies=4, batch_size=3, determinizations=1)


def tiny_net(game, seed: int = 0) -> PolicyValueNet:
    torch.manual_seed(seed)
    return PolicyValueNet.for_game(game, TINY).eval()


@pytest.mark.parametrize(("name", "config"), [("node_conquest", {"rows": 3, "cols": 3}), ("gravwell", {})])
def test_network_gives_logits_per_action_and_a_bounded_value_per_seat(name, config) -> None:
    game = make_game(name, **config)
    net = tiny_net(game)
    state = game.initial_state(np.random.default_rng(0))
    batch = torch.as_tensor(np.stack([game.observe(state, p) for p in range(game.spec.num_players)]))
    logits, values = net(batch)
    assert logits.shape == (game.spec.num_players, game.spec.num_actions)
    assert values.shape == (game.spec.num_players, game.spec.num_players)
    assert bool(((values >= -1) & (values <= 1)).all())


def test_masked_log_softmax_gives_illegal_actions_probability_zero() -> None:
    logits = torch.tensor([[5.0, 1.0, 0.0, 2.0]])
    mask = torch.tensor([[False, True, True, False]])
    probabilities = masked_log_softmax(logits, mask).exp()
    assert probabilities[0, 0] == 0 and probabilities[0, 3] == 0
    assert torch.isclose(probabilities.sum(), torch.tensor(1.0))
    assert probabilities[0, 1] > probabilities[0, 2]


def test_evaluator_priors_cover_only_legal_actions_and_values_come_back_by_seat() -> None:
    game = make_game("gravwell", num_players=3)
    net = tiny_net(game)
    rng = np.random.default_rng(1)
    state = game.initial_state(rng)
    while state.current_player != 1:
        state = game.apply(state, int(rng.choice(game.legal_actions(state))))
    values, priors = NetworkEvaluator(net).evaluate(game, state)
    mask = game.legal_action_mask(state)
    assert priors is not None and np.isclose(priors.sum(), 1.0) and not priors[~mask].any()
    with torch.no_grad():
        relative = net(torch.as_tensor(game.observe(state, 1)[None]))[1][0].numpy()
    assert np.allclose(values, [relative[2], relative[0], relative[1]], atol=1e-6)  # seat s = relative[s - 1]


def test_evaluator_rejects_a_network_built_for_another_game() -> None:
    net = tiny_net(make_game("node_conquest", rows=3, cols=3))
    with pytest.raises(ValueError, match="do not fit"):
        NetworkEvaluator(net).check(make_game("node_conquest"))


def test_selfplay_records_every_decision_with_its_mirror_and_the_final_returns() -> None:
    game = make_game("node_conquest", rows=3, cols=3, max_plies=30)
    evaluator = NetworkEvaluator(tiny_net(game))
    examples, returns = play_selfplay_game(game, evaluator, QUICK, seed=3)
    again, _ = play_selfplay_game(game, evaluator, QUICK, seed=3)
    assert len(examples) % 2 == 0 and len(examples) == len(again)
    assert all(np.array_equal(a.policy, b.policy) for a, b in zip(examples, again))
    for example in examples:
        assert np.isclose(example.policy.sum(), 1.0) and not example.policy[~example.mask].any()
    first, mirror = examples[0], examples[1]
    start = game.initial_state(np.random.default_rng(0))
    assert np.array_equal(first.observation, game.observe(start, 0))
    assert np.array_equal(first.value, returns)  # player 0 moved first: its seat order is the seat order
    assert np.array_equal(examples[2].value, returns[::-1])  # player 1's decision, in its own seat order
    half_turn = game.symmetries[0]
    turned = half_turn.state(start)
    assert np.array_equal(mirror.observation, game.observe(turned, 1))
    assert np.array_equal(mirror.mask, game.legal_action_mask(turned))
    chosen = int(np.argmax(first.policy))
    assert mirror.policy[half_turn.actions[chosen]] == first.policy[chosen]


def test_training_fits_the_policy_and_value_targets() -> None:
    game = make_game("toy_tictactoe")
    net = tiny_net(game, seed=1)
    rng = np.random.default_rng(0)
    examples = []
    for _ in range(24):
        board = rng.choice([-1, 0, 1], size=9)
        mask = board < 0
        if not mask.any():
            continue
        target = int(np.flatnonzero(mask)[0])
        observation = np.stack([(board == 0), (board == 1), np.ones(9, bool)]).reshape(3, 3, 3).astype(np.float32)
        policy = np.zeros(9, np.float32)
        policy[target] = 1.0
        examples.append(Example(observation, mask, policy, np.array([0.5, -0.5], np.float32)))
    tensors = [
        torch.as_tensor(np.stack([getattr(e, f) for e in examples])) for f in ("observation", "mask", "policy", "value")
    ]
    with torch.no_grad():
        before = [float(loss) for loss in losses_of(net, *tensors)]
    settings = AlphaZeroSettings(epochs=60, batch_size=8, learning_rate=3e-3)
    train_network(net, examples, settings, seed=0)
    with torch.no_grad():
        after = [float(loss) for loss in losses_of(net, *tensors)]
        logits, values = net(tensors[0])
    assert after[0] < 0.5 * before[0] and after[1] < 0.5 * before[1]
    chosen = masked_log_softmax(logits, tensors[1]).argmax(dim=1)
    assert (chosen == tensors[2].argmax(dim=1)).float().mean() > 0.9


def test_trainer_writes_checkpoint_history_and_plot_and_the_agent_plays_it(tmp_path) -> None:
    settings = AlphaZeroSettings(iterations=2, games_per_iteration=2, selfplay=QUICK, network=TINY, epochs=1,
                                 batch_size=16, arena_games=2, eval_games=2, seed=5)  # fmt: skip
    trainer = AlphaZeroTrainer("toy_tictactoe", {}, settings, tmp_path / "az", progress=False)
    history = trainer.run()
    assert [row.iteration for row in history] == [1, 2] and history[1].examples >= history[0].examples
    assert all(0 <= row.eval_score <= 1 and row.eval_low <= row.eval_score <= row.eval_high for row in history)
    with open(tmp_path / "az" / "history.csv") as handle:
        assert [row["iteration"] for row in csv.DictReader(handle)] == ["1", "2"]
    assert (tmp_path / "az" / "learning_curve.png").stat().st_size > 0
    assert sorted(p.name for p in (tmp_path / "az").glob("iteration_*.pt")) == ["iteration_001.pt", "iteration_002.pt"]
    game = make_game("toy_tictactoe")
    agent = make_agent(f"alphazero:checkpoint={tmp_path / 'az' / 'best.pt'}:simulations=8", "toy_tictactoe", 0)
    record = play_game(game, [agent, make_agent("random", "toy_tictactoe", 1)], seed=0)
    assert record.plies >= 5


def test_checkpoints_round_trip_and_refuse_the_wrong_game(tmp_path) -> None:
    game = make_game("node_conquest", rows=3, cols=3)
    net = tiny_net(game, seed=2)
    path = save_checkpoint(tmp_path / "net.pt", net, game, {"iteration": 7})
    loaded, metadata = load_checkpoint(path, game)
    observation = torch.as_tensor(game.observe(game.initial_state(np.random.default_rng(0)), 0)[None])
    with torch.no_grad():
        assert all(torch.equal(a, b) for a, b in zip(net(observation), loaded(observation)))
    assert metadata["extra"] == {"iteration": 7} and metadata["game_config"]["rows"] == 3
    with pytest.raises(ValueError, match="differ from this game's config"):
        load_checkpoint(path, make_game("node_conquest"))
    with pytest.raises(ValueError, match="trained for game 'node_conquest', not 'gravwell'"):
        load_checkpoint(path, make_game("gravwell"))
    with pytest.raises(FileNotFoundError):
        load_checkpoint(tmp_path / "missing.pt")


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: AlphaZeroSettings(iterations=0), "iterations"),
        (lambda: AlphaZeroSettings(accept_threshold=1.5), "accept_threshold"),
        (lambda: SelfPlaySettings(simulations=0), "simulations"),
        (lambda: NetworkConfig(channels=0), "channels"),
        (lambda: make_agent("alphazero", "quoridor"), "needs checkpoint"),
    ],
)
def test_bad_settings_name_the_parameter(make, message) -> None:
    with pytest.raises(ValueError, match=message):
        make()


@pytest.mark.parametrize("name", [name for name in list_games() if not name.startswith("toy_")])
def test_a_network_search_plays_legal_moves_in_every_game(name) -> None:
    game = make_game(name)
    agent = MCTSAgent(0, simulations=4, evaluator=NetworkEvaluator(tiny_net(game)), selection="puct", batch_size=2,
                      determinizations=1)  # fmt: skip
    rng = np.random.default_rng(0)
    state = game.initial_state(rng)
    for _ in range(3):
        player = state.current_player
        action = agent.act(game, game.determinize(state, player, rng), player)
        assert game.legal_action_mask(state)[action]
        state = game.apply(state, action)


def test_self_play_in_worker_processes_plays_every_game(tmp_path) -> None:
    settings = AlphaZeroSettings(games_per_iteration=3, selfplay=QUICK, network=TINY, workers=2, seed=1)
    examples = AlphaZeroTrainer("toy_tictactoe", {}, settings, tmp_path, progress=False).self_play(3, seed=9)
    copies = 1 + len(TicTacToe().symmetries)  # each decision and its mirror image
    assert len(examples) >= 3 * 5 * copies  # a tic-tac-toe game has at least 5 moves
    for example in examples:
        assert np.isclose(example.policy.sum(), 1.0) and not example.policy[~example.mask].any()
    empty_boards = [e for e in examples if not e.observation[:2].any()]
    assert len(empty_boards) == 3 * copies  # every game starts once
