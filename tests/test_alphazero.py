"""AlphaZero: network, evaluator, self-play examples, training, trainer outputs and the agent.

Resumable runs, checkpoints on disk and the shipped networks are in ``test_alphazero_runs.py``."""

from __future__ import annotations

import csv
import dataclasses

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
from baselines.learners.alphazero.evaluator import relative_values, seat_values
from baselines.learners.alphazero.network import masked_log_softmax
from baselines.learners.alphazero.selfplay import Example, has_scores, play_demonstration_game, score_margins
from baselines.learners.alphazero.trainer import losses_of, train_network
from baselines.learners.evaluation import read_eval_rows
from baselines.search.mcts import MCTSAgent
from boardenvs.registry import list_games, make_game
from tests.toy_games import TicTacToe

TINY = NetworkConfig(channels=8, blocks=1, hidden=16)
QUICK = SelfPlaySettings(simulations=6, temperature_plies=4, batch_size=3, determinizations=1, fast_simulations=2)
QUICK_PUCT = SelfPlaySettings("puct", simulations=6, temperature_plies=4, batch_size=3, determinizations=1,
                              fast_simulations=2)  # fmt: skip


def tiny_net(game, seed: int = 0) -> PolicyValueNet:
    return PolicyValueNet.for_game(game, TINY, seed=seed).eval()


@pytest.mark.parametrize(("name", "config"), [("node_conquest", {"rows": 3, "cols": 3}), ("gravwell", {})])
def test_network_gives_logits_per_action_and_a_bounded_value_per_seat(name, config) -> None:
    game = make_game(name, **config)
    net = tiny_net(game)
    state = game.initial_state(np.random.default_rng(0))
    batch = torch.as_tensor(np.stack([game.observe(state, p) for p in range(game.spec.num_players)]))
    logits, values, scores = net.heads(batch)
    assert logits.shape == (game.spec.num_players, game.spec.num_actions)
    assert values.shape == scores.shape == (game.spec.num_players, game.spec.num_players)
    assert bool(((values >= -1) & (values <= 1)).all()) and bool(((scores >= -1) & (scores <= 1)).all())
    assert all(torch.equal(a, b) for a, b in zip(net(batch), (logits, values)))


def test_a_seeded_network_is_reproducible_and_leaves_torch_global_generator_alone() -> None:
    game = make_game("node_conquest", rows=3, cols=3)
    before = torch.random.get_rng_state()
    first, second = tiny_net(game, seed=4), tiny_net(game, seed=4)
    assert torch.equal(torch.random.get_rng_state(), before)
    assert all(torch.equal(a, b) for a, b in zip(first.state_dict().values(), second.state_dict().values()))


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


@pytest.mark.parametrize("settings", [QUICK, QUICK_PUCT], ids=["gumbel", "puct"])
def test_selfplay_records_every_decision_with_its_mirror_and_the_final_returns(settings) -> None:
    game = make_game("node_conquest", rows=3, cols=3, max_plies=30)
    evaluator = NetworkEvaluator(tiny_net(game))
    examples, returns = play_selfplay_game(game, evaluator, settings, seed=3)
    again, _ = play_selfplay_game(game, evaluator, settings, seed=3)
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
    # the half turn swaps the seats: the mirror's mover is player 1, whose values come first again
    assert np.array_equal(mirror.value, first.value) and np.array_equal(mirror.score, first.score)


def test_score_targets_are_the_final_node_margins_in_the_movers_seat_order() -> None:
    game = make_game("node_conquest", rows=3, cols=3, max_plies=30)
    evaluator = NetworkEvaluator(tiny_net(game))
    examples, _ = play_selfplay_game(game, evaluator, QUICK, seed=5)
    assert has_scores(game) and not has_scores(make_game("quoridor"))
    movers_first = [example.score for example in examples[::2]]  # player 0 and 1 alternate, mirrors between
    assert np.allclose(movers_first[0], -movers_first[1]) and np.allclose(movers_first[0].sum(), 0)
    assert all(np.all(np.abs(score) <= 1) for score in movers_first)


def test_score_margins_are_centred_and_scaled_by_the_largest_score() -> None:
    game = make_game("node_conquest", rows=3, cols=3)
    state = game.initial_state(np.random.default_rng(0))
    state.owner[:] = [0, 0, 0, 0, 0, 1, 1, -1, -1]
    assert np.allclose(score_margins(game, state), [(5 - 3.5) / 5, (2 - 3.5) / 5])
    quoridor = make_game("quoridor", board_size=5)
    assert not score_margins(quoridor, quoridor.initial_state(np.random.default_rng(0))).any()


def test_playout_cap_randomisation_records_only_the_fully_searched_moves() -> None:
    game = make_game("node_conquest", rows=3, cols=3, max_plies=40)
    evaluator = NetworkEvaluator(tiny_net(game))
    every, _ = play_selfplay_game(game, evaluator, QUICK, seed=2)
    capped_settings = SelfPlaySettings(simulations=6, full_search_fraction=0.25, fast_simulations=2, batch_size=3)
    capped, _ = play_selfplay_game(game, evaluator, capped_settings, seed=2)
    assert 0 < len(capped) < 0.6 * len(every)  # about a quarter of 40 plies (x2 with the mirrors)


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
        value = np.array([0.5, -0.5], np.float32)
        examples.append(Example(observation, mask, policy, value, value * 0.4))
    fields = ("observation", "mask", "policy", "value", "score")
    tensors = [torch.as_tensor(np.stack([getattr(e, f) for e in examples])) for f in fields]
    with torch.no_grad():
        before = [float(loss) for loss in losses_of(net, *tensors)]
    settings = AlphaZeroSettings(epochs=60, batch_size=8, learning_rate=3e-3, score_weight=1.0)
    optimizer = torch.optim.Adam(net.parameters(), lr=settings.learning_rate)
    means = train_network(net, optimizer, examples, settings, seed=0)
    with torch.no_grad():
        after = [float(loss) for loss in losses_of(net, *tensors)]
        logits, values = net(tensors[0])
    assert set(means) == {"policy_loss", "value_loss", "score_loss"}
    assert all(a < 0.5 * b for a, b in zip(after, before))
    chosen = masked_log_softmax(logits, tensors[1]).argmax(dim=1)
    assert (chosen == tensors[2].argmax(dim=1)).float().mean() > 0.9


@pytest.mark.parametrize("selfplay", [QUICK, QUICK_PUCT], ids=["gumbel", "puct"])
def test_trainer_writes_checkpoint_history_and_plot_and_the_agent_plays_it(tmp_path, selfplay) -> None:
    settings = AlphaZeroSettings(iterations=2, games_per_iteration=2, selfplay=selfplay, network=TINY, epochs=1,
                                 batch_size=16, arena_games=2, eval_games=2, eval_opponents=("random",),
                                 seed=5)  # fmt: skip
    trainer = AlphaZeroTrainer("toy_tictactoe", {}, settings, tmp_path / "az", progress=False)
    history = trainer.run()
    assert [row["iteration"] for row in history] == [1, 2] and history[1]["examples"] >= history[0]["examples"]
    assert all(0 <= row["vs_random_low"] <= row["vs_random"] <= row["vs_random_high"] <= 1 for row in history)
    assert all(0 <= row["arena_score"] <= 1 and row["elapsed_seconds"] > 0 for row in history)
    with open(tmp_path / "az" / "history.csv") as handle:
        assert [row["iteration"] for row in csv.DictReader(handle)] == ["1", "2"]
    assert (tmp_path / "az" / "learning_curve.png").stat().st_size > 0 and (tmp_path / "az" / "history.png").is_file()
    evaluations = read_eval_rows(tmp_path / "az" / "eval.csv")  # the shared log: one row per opponent and evaluation
    assert [(row.steps, row.opponent, row.games) for row in evaluations] == [(1, "random", 2), (2, "random", 2)]
    assert [row.win_rate for row in evaluations] == [row["vs_random"] for row in history]
    result = trainer.result()
    assert (result.steps, result.best_path, result.final_eval) == (2, tmp_path / "az" / "best.pt", evaluations[-1:])
    assert sorted(p.name for p in (tmp_path / "az").glob("iteration_*.pt")) == ["iteration_001.pt", "iteration_002.pt"]
    game = make_game("toy_tictactoe")
    agent = make_agent(f"alphazero:checkpoint={tmp_path / 'az' / 'best.pt'}:simulations=8", "toy_tictactoe", 0)
    record = play_game(game, [agent, make_agent("random", "toy_tictactoe", 1)], seed=0)
    assert record.plies >= 5
    assert agent.search.selection == selfplay.search  # "auto": the search it was trained with


def test_checkpoints_round_trip_and_refuse_the_wrong_game(tmp_path) -> None:
    game = make_game("node_conquest", rows=3, cols=3)
    net = tiny_net(game, seed=2)
    path = save_checkpoint(tmp_path / "net.pt", net, game, {"iteration": 7})
    loaded, metadata = load_checkpoint(path, game)
    observation = torch.as_tensor(game.observe(game.initial_state(np.random.default_rng(0)), 0)[None])
    with torch.no_grad():
        assert all(torch.equal(a, b) for a, b in zip(net(observation), loaded(observation)))
    assert metadata["extra"] == {"iteration": 7} and metadata["game_config"]["rows"] == 3
    with pytest.raises(ValueError, match="not this game's config"):
        load_checkpoint(path, make_game("node_conquest"))
    with pytest.raises(ValueError, match="not this game's config"):  # same sizes, another rule
        load_checkpoint(path, make_game("node_conquest", rows=3, cols=3, max_plies=50))
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
        (lambda: SelfPlaySettings(search="mcts"), "search must be one of"),
        (lambda: SelfPlaySettings(simulations=8, fast_simulations=9), "fast_simulations"),
        (lambda: SelfPlaySettings(full_search_fraction=0), "full_search_fraction"),
        (lambda: AlphaZeroSettings(device="tpu"), "device must be 'auto', 'cpu' or 'cuda'"),
        (lambda: AlphaZeroSettings(eval_opponents=("",)), "eval_opponents"),
        (lambda: AlphaZeroSettings(time_budget_minutes=0), "time_budget_minutes"),
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
    settings = AlphaZeroSettings(games_per_iteration=3, selfplay=QUICK, network=TINY, workers=2, eval_games=0, seed=1)
    examples = AlphaZeroTrainer("toy_tictactoe", {}, settings, tmp_path, progress=False).self_play(3, seed=9)
    copies = 1 + len(TicTacToe().symmetries)  # each decision and its mirror image
    assert len(examples) >= 3 * 5 * copies  # a tic-tac-toe game has at least 5 moves
    for example in examples:
        assert np.isclose(example.policy.sum(), 1.0) and not example.policy[~example.mask].any()
    empty_boards = [e for e in examples if not e.observation[:2].any()]
    assert len(empty_boards) == 3 * copies  # every game starts once


def test_sparring_games_record_only_the_networks_seat_and_the_trainer_mixes_them_in(tmp_path) -> None:
    game = make_game("node_conquest", rows=3, cols=3, max_plies=30)
    evaluator = NetworkEvaluator(tiny_net(game))
    greedy = make_agent("greedy", "node_conquest", 0)
    examples, returns = play_selfplay_game(game, evaluator, QUICK, seed=4, sparring=greedy)
    own = examples[::2]  # without the half-turn mirrors
    assert own and all(np.array_equal(example.value, own[0].value) for example in own)  # one seat, one outcome
    assert {float(own[0].value[0])} <= {float(returns[0]), float(returns[1])}
    settings = AlphaZeroSettings(iterations=1, games_per_iteration=2, selfplay=QUICK, network=TINY, batch_size=8,
                                 eval_games=0, sparring="scripted", sparring_fraction=0.5, seed=2)  # fmt: skip
    trainer = AlphaZeroTrainer("node_conquest", {"rows": 3, "cols": 3, "max_plies": 30}, settings, tmp_path, False)
    assert trainer.sparring == "greedy" and trainer.run()[0]["examples"] > 0


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"sparring_fraction": 0.5}, "needs a sparring agent spec"),
        ({"sparring": "nobody", "sparring_fraction": 0.5}, "sparring: 'nobody' is not an agent"),
        ({"sparring_fraction": 1.5}, "sparring_fraction"),
    ],
)
def test_bad_sparring_settings_are_named(tmp_path, settings, message) -> None:
    with pytest.raises(ValueError, match=message):
        full = AlphaZeroSettings(eval_games=0, **settings)
        AlphaZeroTrainer("node_conquest", {"rows": 3, "cols": 3}, full, tmp_path, progress=False)


def test_a_warm_start_trains_on_the_teachers_moves_and_keeps_them_as_iteration_zero(tmp_path) -> None:
    game = make_game("node_conquest", rows=3, cols=3, max_plies=30)
    examples = play_demonstration_game(game, make_agent("greedy", "node_conquest", 0), seed=1)
    assert all(example.policy.sum() == 1.0 and example.policy.max() == 1.0 for example in examples)
    assert all(example.mask[int(example.policy.argmax())] for example in examples)
    settings = AlphaZeroSettings(iterations=1, games_per_iteration=1, selfplay=QUICK, network=TINY, batch_size=8,
                                 eval_games=0, warm_start="scripted", warm_start_games=3, seed=2)  # fmt: skip
    trainer = AlphaZeroTrainer("node_conquest", {"rows": 3, "cols": 3, "max_plies": 30}, settings, tmp_path, False)
    trainer.run()
    assert [number for number, _ in trainer.buffer] == [0, 1] and (tmp_path / "replay" / "iteration_000.npz").is_file()
    with pytest.raises(ValueError, match="needs a teacher agent spec"):
        AlphaZeroSettings(warm_start_games=3)


def test_kept_warm_start_examples_stay_in_every_window_and_survive_a_resume(tmp_path) -> None:
    config = {"rows": 3, "cols": 3, "max_plies": 30}
    settings = AlphaZeroSettings(iterations=3, games_per_iteration=1, selfplay=QUICK, network=TINY, batch_size=8,
                                 buffer_iterations=1, eval_games=0, warm_start="scripted", warm_start_games=2,
                                 keep_warm_start=True, seed=2)  # fmt: skip
    trainer = AlphaZeroTrainer("node_conquest", config, dataclasses.replace(settings, iterations=2), tmp_path, False)
    trainer.run()
    assert [number for number, _ in trainer.demonstrations] == [0] and [n for n, _ in trainer.buffer] == [2]
    assert sorted(path.name for path in (tmp_path / "replay").iterdir()) == ["iteration_000.npz", "iteration_002.npz"]
    resumed = AlphaZeroTrainer("node_conquest", config, settings, tmp_path, False, resume=True)
    assert [number for number, _ in resumed.demonstrations] == [0]
    resumed.run()
    assert [number for number, _ in resumed.buffer] == [3] and resumed.history[-1]["examples"] > len(
        resumed.buffer[0][1]
    )
    with pytest.raises(ValueError, match="keep_warm_start=True needs a warm start"):
        AlphaZeroSettings(keep_warm_start=True)


def test_a_batch_of_planes_is_valued_in_channels_last_order_with_the_values_of_the_plain_order() -> None:
    from baselines.learners.alphazero.evaluator import network_input

    game = make_game("node_conquest")
    net = PolicyValueNet.for_game(game, seed=0).eval()
    rng = np.random.default_rng(0)
    states = [game.initial_state(rng) for _ in range(6)]
    observations = np.stack([game.observe(state, 0) for state in states])
    batch = network_input(observations, torch.device("cpu"))
    assert batch.is_contiguous(memory_format=torch.channels_last) and batch.dtype == torch.float32
    assert network_input(observations[:1], torch.device("cpu")).is_contiguous()  # one position: plain order
    with torch.inference_mode():
        plain = net(torch.as_tensor(observations, dtype=torch.float32))
        fast = net(batch)
    for a, b in zip(plain, fast):
        assert torch.allclose(a, b, atol=1e-5)
    valued = NetworkEvaluator(net).evaluate_batch(game, states)
    masks = torch.as_tensor(np.stack([game.legal_action_mask(state) for state in states]))
    for (values, priors), expected_priors, value_row in zip(
        valued, masked_log_softmax(plain[0], masks).exp(), plain[1]
    ):
        assert np.allclose(values, value_row.numpy(), atol=1e-5)
        assert np.allclose(priors, expected_priors.numpy(), atol=1e-5)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_seat_values_roll_the_observers_row_and_relative_values_undo_it(players: int) -> None:
    row = np.arange(players, dtype=np.float64) + 0.5
    for observer in range(players):
        seats = seat_values(row, observer)
        assert seats.tolist() == np.roll(row, observer).tolist()
        assert relative_values(seats, observer).tolist() == row.tolist()
        assert seats.dtype == row.dtype and seats is not row
