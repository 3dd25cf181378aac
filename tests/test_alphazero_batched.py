"""Batched self-play (baselines/learners/alphazero/batched.py): many games' leaves valued in one forward pass, the
same examples as each game alone, reproducible chunks, and its bad input."""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

pytest.importorskip("torch")
pytest.importorskip("greenlet")

import tests.toy_games  # noqa: F401,E402  (registers toy_tictactoe)
from baselines.learners.alphazero import AlphaZeroSettings, AlphaZeroTrainer, PolicyValueNet  # noqa: E402
from baselines.learners.alphazero.batched import MAX_BATCH_GAMES, play_batch  # noqa: E402
from baselines.learners.alphazero.evaluator import NetworkEvaluator  # noqa: E402
from baselines.learners.alphazero.network import NetworkConfig  # noqa: E402
from baselines.learners.alphazero.selfplay import SelfPlaySettings, play_selfplay_game  # noqa: E402
from baselines.learners.alphazero.selfplay_games import SelfPlayGames, check_batch_memory  # noqa: E402
from baselines.search.evaluators import Evaluator  # noqa: E402
from boardenvs.registry import make_game  # noqa: E402

QUICK = SelfPlaySettings(simulations=6, batch_size=3, fast_simulations=2, temperature_plies=2)
TINY = NetworkConfig(channels=4, blocks=1, hidden=8)


class KeyedEvaluator(Evaluator):
    """Values and priors that depend on the state alone (hashed from its key), never on the batch around it: a
    batched game must then play exactly as it plays alone. Counts the leaves it values and its passes (a call of
    ``evaluate_batch``, or of ``evaluate`` from outside one)."""

    name = "keyed"

    def __init__(self) -> None:
        self.leaves, self.passes, self.largest = 0, 0, 0

    def evaluate(self, game: Any, state: Any) -> tuple[np.ndarray, np.ndarray]:
        self.passes += 1
        return self._value(game, state)

    def evaluate_batch(self, game: Any, states: Sequence[Any]) -> list[Any]:
        self.passes, self.largest = self.passes + 1, max(self.largest, len(states))
        return [self._value(game, state) for state in states]

    def _value(self, game: Any, state: Any) -> tuple[np.ndarray, np.ndarray]:
        self.leaves += 1
        rng = np.random.default_rng(list(hashlib.sha256(state.key()).digest()[:8]))
        return rng.uniform(-1, 1, game.spec.num_players), rng.dirichlet(np.ones(game.spec.num_actions))


def _same(a: list, b: list) -> bool:
    return len(a) == len(b) and all(
        all(np.array_equal(getattr(x, f.name), getattr(y, f.name)) for f in dataclasses.fields(x)) for x, y in zip(a, b)
    )


@pytest.mark.parametrize("search", ["gumbel", "puct"])
def test_games_played_together_make_the_examples_each_game_makes_alone(search: str) -> None:
    game, settings = make_game("toy_tictactoe"), dataclasses.replace(QUICK, search=search)
    alone_evaluator, together_evaluator = KeyedEvaluator(), KeyedEvaluator()
    alone = [play_selfplay_game(game, alone_evaluator, settings, seed) for seed in range(5)]
    jobs = [lambda ev, seed=seed: play_selfplay_game(game, ev, settings, seed) for seed in range(5)]
    together, counts = play_batch(together_evaluator, jobs)
    for (examples, returns), (batched_examples, batched_returns) in zip(alone, together):
        assert _same(examples, batched_examples) and np.array_equal(returns, batched_returns)
    assert together_evaluator.leaves == alone_evaluator.leaves == counts.leaves  # the same leaves valued
    assert counts.calls == together_evaluator.passes < alone_evaluator.passes / 3  # in far fewer passes
    assert together_evaluator.largest > settings.batch_size  # several games' leaves in one pass


def test_a_failing_game_stops_the_batch_with_its_error() -> None:
    game = make_game("toy_tictactoe")

    def broken(evaluator: Evaluator) -> None:
        evaluator.evaluate_batch(game, [game.initial_state(np.random.default_rng(0))])
        raise RuntimeError("game 1 broke")

    jobs = [lambda ev: play_selfplay_game(game, ev, QUICK, 0), broken]
    with pytest.raises(RuntimeError, match="game 1 broke"):
        play_batch(KeyedEvaluator(), jobs)


@pytest.fixture
def one_torch_thread() -> Any:
    """One torch thread, as in the workers (and the training script): the same arithmetic everywhere."""
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


def test_the_examples_of_an_iteration_do_not_depend_on_the_workers(one_torch_thread: None) -> None:
    game = make_game("toy_tictactoe")
    net = PolicyValueNet.for_game(game, TINY, seed=0)
    base = AlphaZeroSettings(selfplay=dataclasses.replace(QUICK, batch_games=3), network=TINY, seed=0)
    inline = SelfPlayGames(game, base, "cpu", "", progress=False).play(net, 7, seed=11)
    pooled = SelfPlayGames(game, dataclasses.replace(base, workers=2), "cpu", "", False).play(net, 7, seed=11)
    assert _same(inline, pooled)
    again = SelfPlayGames(game, base, "cpu", "", progress=False).play(net, 7, seed=11)
    assert _same(inline, again)


def test_batched_self_play_with_a_network_values_many_leaves_per_forward_pass() -> None:
    game = make_game("toy_tictactoe")
    net = PolicyValueNet.for_game(game, TINY, seed=0)
    passes = [0]
    net.register_forward_hook(lambda *_: passes.__setitem__(0, passes[0] + 1))
    jobs = [lambda ev, seed=seed: play_selfplay_game(game, ev, QUICK, seed) for seed in range(8)]
    results, counts = play_batch(NetworkEvaluator(net), jobs)
    assert passes[0] == counts.calls and counts.leaves / counts.calls > QUICK.batch_size
    assert all(len(examples) > 0 for examples, _ in results)


@pytest.mark.parametrize("value", [0, -1, MAX_BATCH_GAMES + 1, 2.5, "many"])
def test_batch_games_outside_its_range_is_refused_by_name(value: Any) -> None:
    with pytest.raises(ValueError, match=rf"batch_games must be an int in 1..{MAX_BATCH_GAMES}"):
        SelfPlaySettings(batch_games=value)


def test_a_batch_beyond_memory_is_refused_naming_batch_games(monkeypatch, tmp_path) -> None:
    from baselines.learners.alphazero import selfplay_games

    game = make_game("toy_tictactoe")
    net = PolicyValueNet.for_game(game, TINY, seed=0)
    monkeypatch.setattr(selfplay_games, "free_memory_bytes", lambda device: 10**6)
    check_batch_memory(net, SelfPlaySettings(batch_games=1), net.device)  # small: fine
    huge = SelfPlaySettings(batch_games=MAX_BATCH_GAMES, batch_size=64)
    with pytest.raises(ValueError, match=r"batch_games: 4096 games x batch_size 64 leaves = 262144 leaves .* GiB"):
        check_batch_memory(net, huge, net.device)
    settings = AlphaZeroSettings(selfplay=huge, network=TINY, eval_opponents=("random",))
    with pytest.raises(ValueError, match="lower batch_games or batch_size"):
        AlphaZeroTrainer("toy_tictactoe", {}, settings, tmp_path / "run", progress=False)
    assert not (tmp_path / "run").exists()


def test_a_resumed_run_must_keep_its_batch_games(tmp_path) -> None:
    settings = AlphaZeroSettings(iterations=1, games_per_iteration=2, selfplay=QUICK, network=TINY, epochs=1,
                                 batch_size=8, eval_games=0, seed=0)  # fmt: skip
    AlphaZeroTrainer("toy_tictactoe", {}, settings, tmp_path, progress=False).run()
    other = dataclasses.replace(settings, iterations=2, selfplay=dataclasses.replace(QUICK, batch_games=3))
    with pytest.raises(ValueError, match=r"settings \['selfplay.batch_games'\] differ"):
        AlphaZeroTrainer("toy_tictactoe", {}, other, tmp_path, progress=False, resume=True)


def test_the_training_script_refuses_batch_games_below_one(tmp_path, capsys) -> None:
    from scripts import train_alphazero

    with pytest.raises(SystemExit) as stop:
        train_alphazero.cli(["--game", "toy_tictactoe", "--batch-games", "0", "--out", str(tmp_path / "run")])
    assert stop.value.code == 2 and "--batch-games" in capsys.readouterr().err
    assert not (tmp_path / "run").exists()
