"""Tests of ``baselines.learners.sb3``: extractors, masked DQN, SB3Agent, self-play pool, on every registered game."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

from sb3_contrib import MaskablePPO  # noqa: E402
from stable_baselines3.common.vec_env import DummyVecEnv  # noqa: E402

from baselines.agent import RandomAgent  # noqa: E402
from baselines.arena import play_game, tournament  # noqa: E402
from baselines.factory import make_agent  # noqa: E402
from baselines.learners.evaluation import evaluate_against  # noqa: E402
from baselines.learners.sb3 import MASKED_Q_VALUE, MaskedDQN, SB3Agent, SnapshotPool, make_model, policy_kwargs_for  # noqa: E402
from baselines.learners.sb3.dqn import mask_q_values  # noqa: E402
from baselines.learners.sb3.loading import load_model  # noqa: E402
from baselines.learners.sb3.model_card import read_model_card  # noqa: E402
from baselines.learners.sb3.model_files import sidecar_path, weights_path  # noqa: E402
from baselines.learners.sb3.policies import (  # noqa: E402
    MASK_FEATURES_MAX,
    PlanesExtractor,
    VectorExtractor,
)
from baselines.learners.sb3.saving import save_model  # noqa: E402
from baselines.learners.sb3.selfplay import SnapshotCallback, list_snapshots, snapshot_path  # noqa: E402
from baselines.learners.sb3.training import IllegalActionCounter, OpponentMix, make_training_env, make_vec_env  # noqa: E402
from boardenvs.registry import list_games, make_game  # noqa: E402
from boardenvs.single_agent import SingleAgentEnv  # noqa: E402

SMALL_CONFIGS: dict[str, dict[str, Any]] = {
    "quoridor": {"board_size": 5},
    "battle_sheep": {"board_size": 5, "field_size": 12, "num_players": 2, "sheep_per_player": 4},
}
"""Configs that keep the per-game runs fast (Battle Sheep's default has 17,424 actions: most of a run was the
Q-network's output layer); other games use their default config."""
QUICK_PPO = {"n_steps": 128, "batch_size": 128, "n_epochs": 2}
QUICK_DQN = {"learning_starts": 200, "buffer_size": 5_000, "target_update_interval": 250, "exploration_fraction": 0.5}


@pytest.fixture(autouse=True)
def one_torch_thread() -> None:
    torch.set_num_threads(1)


def small_game(name: str) -> Any:
    return make_game(name, **SMALL_CONFIGS.get(name, {}))


def vec_env(name: str, n_envs: int, scripted: tuple[str, ...] = ("random",)) -> DummyVecEnv:
    return make_vec_env(name, SMALL_CONFIGS.get(name, {}), OpponentMix(scripted), n_envs=n_envs)


def quick_model(algo: str, name: str = "quoridor", n_envs: int = 2, seed: int = 0) -> Any:
    env = vec_env(name, n_envs)
    return make_model(algo, env, small_game(name), seed=seed, **(QUICK_PPO if algo == "ppo" else QUICK_DQN))


@pytest.fixture(scope="module")
def saved_models(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A briefly trained PPO and DQN model for Quoridor 5x5, saved with their sidecars."""
    torch.set_num_threads(1)
    directory = tmp_path_factory.mktemp("models")
    paths = {}
    for algo in ("ppo", "dqn"):
        model = quick_model(algo)
        model.learn(512)
        paths[algo] = save_model(model, directory / algo, small_game("quoridor"))
    return paths


# -- every game, both algorithms ------------------------------------------------------------------
@pytest.mark.parametrize("algo", ["ppo", "dqn"])
@pytest.mark.parametrize("game_name", list_games())
def test_short_run_plays_no_illegal_move_and_saves_a_reloadable_model(game_name: str, algo: str, tmp_path) -> None:
    game = small_game(game_name)
    model = quick_model(algo, game_name, n_envs=2 if algo == "ppo" else 3)
    counter = IllegalActionCounter()
    model.learn(1_500, callback=counter)
    assert counter.illegal == 0 and counter.episodes > 0
    path = save_model(model, tmp_path / "model", game)
    agent = SB3Agent.load(path)
    assert agent.algo == algo and read_model_card(path).game == game_name
    for seed in range(4):
        seats = range(game.spec.num_players)
        play_game(game, [agent if seat == seed % len(seats) else RandomAgent(seed) for seat in seats], seed)
    assert agent.illegal_predictions == 0


def test_masked_dqn_on_a_single_env_never_plays_illegal_moves() -> None:
    env = SingleAgentEnv("quoridor", board_size=5)
    model = make_model("dqn", env, env.game, seed=1, learning_starts=300, exploration_fraction=1.0)
    counter = IllegalActionCounter()
    model.learn(1_000, callback=counter)
    assert counter.illegal == 0 and counter.episodes > 0


def test_ppo_beats_random_on_quoridor_3x3() -> None:
    game = make_game("quoridor", board_size=3)
    model = make_model("ppo", make_vec_env("quoridor", {"board_size": 3}, OpponentMix(), n_envs=2), game, seed=0)
    model.learn(4_096)
    wins, draws, _ = evaluate_against(game, SB3Agent(model, game), RandomAgent(0), 40, seed=123)
    random_wins, random_draws, _ = evaluate_against(game, RandomAgent(1), RandomAgent(0), 40, seed=123)
    assert (random_wins + random_draws / 2) / 40 < 0.6  # the bar is not met by playing at random
    assert (wins + draws / 2) / 40 >= 0.7


# -- extractors -----------------------------------------------------------------------------------
def test_policy_kwargs_pick_a_cnn_for_planes_and_an_mlp_for_vectors() -> None:
    planes = policy_kwargs_for(make_game("quoridor", board_size=5))
    vector = policy_kwargs_for(make_game("toy_countdown").spec)
    assert planes["features_extractor_class"] is PlanesExtractor and planes["normalize_images"] is False
    assert vector["features_extractor_class"] is VectorExtractor
    assert policy_kwargs_for(make_game("toy_countdown"), net_arch=[8])["net_arch"] == [8]


@pytest.mark.parametrize("board_size", [3, 9, 25])
def test_cnn_extractor_fits_every_board_size_and_appends_the_mask(board_size: int) -> None:
    env = SingleAgentEnv("quoridor", board_size=board_size)
    extractor = PlanesExtractor(env.observation_space, hidden=32, channels=(8,))
    obs, _ = env.reset(seed=0)
    batch = {key: torch.as_tensor(value[None]) for key, value in obs.items()}
    features = extractor(batch)
    assert features.shape == (1, 32 + env.game.spec.num_actions) == (1, extractor.features_dim)
    assert torch.equal(features[0, 32:], torch.as_tensor(obs["action_mask"], dtype=torch.float32))
    assert PlanesExtractor(env.observation_space, use_mask=False, hidden=32, channels=(8,)).features_dim == 32


def test_the_mask_is_a_feature_by_default_only_for_games_with_few_actions() -> None:
    small, large = make_game("quoridor", board_size=5), make_game("battle_sheep", board_size=6, field_size=16)
    assert small.spec.num_actions <= MASK_FEATURES_MAX < large.spec.num_actions
    assert policy_kwargs_for(small)["features_extractor_kwargs"]["use_mask"] is True
    assert policy_kwargs_for(large)["features_extractor_kwargs"]["use_mask"] is False
    assert policy_kwargs_for(large, use_mask=True)["features_extractor_kwargs"]["use_mask"] is True


# -- masked DQN -----------------------------------------------------------------------------------
def one_legal_action_observation(model: MaskedDQN, actions: list[int]) -> dict[str, np.ndarray]:
    """A batched observation whose row ``i`` allows only ``actions[i]``."""
    space = model.observation_space
    masks = np.zeros((len(actions), model.action_space.n), dtype=np.int8)
    masks[np.arange(len(actions)), actions] = 1
    planes = np.zeros((len(actions), *space["observation"].shape), dtype=np.float32)
    return {"observation": planes, "action_mask": masks}


def test_dqn_warm_up_samples_only_legal_actions() -> None:
    model = quick_model("dqn", n_envs=3)
    model._last_obs = one_legal_action_observation(model, [5, 17, 40])
    for _ in range(50):
        actions, buffer_actions = model._sample_action(learning_starts=10**6, n_envs=3)
        assert actions.tolist() == [5, 17, 40] and buffer_actions.tolist() == [5, 17, 40]


def test_dqn_exploration_samples_only_legal_actions() -> None:
    model = quick_model("dqn", n_envs=3)
    model.exploration_rate = 1.0
    obs = one_legal_action_observation(model, [3, 9, 57])
    for _ in range(50):
        assert model.predict(obs, deterministic=False)[0].tolist() == [3, 9, 57]
        model._last_obs = obs
        assert model._sample_action(learning_starts=0, n_envs=3)[0].tolist() == [3, 9, 57]
    single = {key: value[0] for key, value in obs.items()}
    assert int(model.predict(single, deterministic=False)[0]) == 3


def test_dqn_predict_accepts_action_masks_like_maskable_ppo() -> None:
    model = quick_model("dqn", n_envs=1)
    obs = one_legal_action_observation(model, [0])
    only_seven = np.zeros(model.action_space.n, dtype=bool)
    only_seven[7] = True
    for deterministic in (True, False):
        model.exploration_rate = 0.0 if deterministic else 1.0
        single = {key: value[0] for key, value in obs.items()}
        action, _ = model.predict(single, deterministic=deterministic, action_masks=only_seven)
        assert int(action) == 7


def test_q_values_of_illegal_actions_are_minus_1e9_and_targets_stay_finite() -> None:
    q_values = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    masked = mask_q_values(q_values, torch.tensor([[1, 0, 1], [0, 0, 0]], dtype=torch.int8))
    assert masked.tolist() == [[1.0, MASKED_Q_VALUE, 3.0], [0.0, 0.0, 0.0]]
    model = quick_model("dqn", n_envs=2)
    obs = one_legal_action_observation(model, [4, 4])
    obs["action_mask"][1] = 0  # the observation after a game ended: no legal action
    with torch.no_grad():
        q = model.q_net(model.policy.obs_to_tensor(obs)[0])
        next_q = model.q_net_target(model.policy.obs_to_tensor(obs)[0]).max(dim=1).values
    assert (q[0, :4] == MASKED_Q_VALUE).all() and q[0, 4] != MASKED_Q_VALUE and (q[1] == 0).all()
    targets = 1.0 + (1 - torch.tensor([0.0, 0.0])) * 0.99 * next_q  # no done flag: bootstraps
    assert torch.isfinite(targets).all() and abs(float(targets[1]) - 1.0) < 1e-6


def test_the_replay_buffer_stores_each_final_observation_with_no_legal_move() -> None:
    model = quick_model("dqn", n_envs=2)
    model.learn(600)
    buffer = model.replay_buffer
    stored = buffer.size() if not buffer.full else buffer.buffer_size
    dones = buffer.dones[:stored].astype(bool)
    next_masks = buffer.next_observations["action_mask"][:stored]
    assert dones.any()  # the env shows those final observations with an all-ones mask
    assert not next_masks[dones].any() and next_masks[~dones].any(axis=-1).all()


def test_dqn_training_keeps_parameters_and_bootstrap_values_finite() -> None:
    model = quick_model("dqn", n_envs=2)
    model.learn(1_500)
    assert all(torch.isfinite(parameter).all() for parameter in model.policy.parameters())
    batch = model.replay_buffer.sample(256)
    assert batch.dones.sum() > 0  # terminal transitions (all-zero next masks) are in the sample
    with torch.no_grad():
        next_values = model.q_net_target(batch.next_observations).max(dim=1).values
    assert torch.isfinite(next_values).all() and (next_values.abs() < 1e3).all()  # no -1e9 leaks into targets


# -- SB3Agent -------------------------------------------------------------------------------------
@pytest.mark.parametrize("algo", ["ppo", "dqn"])
def test_saved_agent_plays_legal_moves_in_games_and_tournaments(saved_models: dict[str, Path], algo: str) -> None:
    game = small_game("quoridor")
    agent = SB3Agent.load(saved_models[algo], game, name=f"sb3-{algo}")
    record = play_game(game, [agent, make_agent("heuristic", "quoridor", 0)], seed=3)
    assert record.plies > 0
    agents = {agent.name: agent, "random": RandomAgent, "path": make_agent("path", "quoridor", 1)}
    result = tournament(game, agents, games_per_pairing=2, seed=0)
    assert len(result.records) == 3 * 2 and agent.illegal_predictions == 0


def test_four_player_games_work_end_to_end(tmp_path) -> None:
    game = make_game("quoridor", board_size=5, num_players=4)
    env = make_vec_env("quoridor", {"board_size": 5, "num_players": 4}, OpponentMix(), n_envs=2)
    model = make_model("ppo", env, game, seed=0, **QUICK_PPO)
    counter = IllegalActionCounter()
    model.learn(512, callback=counter)
    agent = SB3Agent.load(save_model(model, tmp_path / "four", game))
    assert counter.illegal == 0 and evaluate_against(game, agent, RandomAgent(0), 4, seed=0)


def test_loading_for_another_board_size_names_both_shapes(saved_models: dict[str, Path]) -> None:
    with pytest.raises(ValueError, match=r"\(10, 5, 5\) with 58 actions.*\(10, 7, 7\) with 122 actions"):
        SB3Agent.load(saved_models["ppo"], make_game("quoridor", board_size=7))
    agent = SB3Agent.load(saved_models["ppo"])
    big = make_game("quoridor", board_size=7)
    with pytest.raises(ValueError, match=r"\(10, 5, 5\).*\(10, 7, 7\)"):
        agent.act(big, big.initial_state(np.random.default_rng(0)), 0)


def test_make_agent_builds_sb3_agents_by_path(saved_models: dict[str, Path]) -> None:
    agent = make_agent(f"sb3:{saved_models['dqn']}", "quoridor", seed=0)
    assert isinstance(agent, SB3Agent) and agent.name == f"sb3:{saved_models['dqn']}"
    with pytest.raises(ValueError, match="trained on game 'quoridor', not 'toy_tictactoe'"):
        make_agent(f"sb3:{saved_models['dqn']}", "toy_tictactoe")
    with pytest.raises(FileNotFoundError):
        make_agent("sb3:no/such/model.zip", "quoridor")
    with pytest.raises(ValueError, match="unknown agent"):
        make_agent("no_such_agent", "quoridor")


def test_trusted_zips_without_sidecar_load_with_the_right_class(saved_models: dict[str, Path], tmp_path) -> None:
    for algo, path in saved_models.items():
        copy = tmp_path / f"{algo}.zip"
        copy.write_bytes(path.read_bytes())
        assert not sidecar_path(copy).exists()
        model, card = load_model(copy, small_game("quoridor"), trusted=True)
        assert isinstance(model, MaskablePPO if algo == "ppo" else MaskedDQN) and card.algo == algo
        assert card.steps == model.num_timesteps > 0


def test_an_illegal_prediction_is_replaced_by_the_best_legal_action(saved_models: dict[str, Path]) -> None:
    game = small_game("quoridor")
    agent = SB3Agent.load(saved_models["ppo"], game)
    state = game.initial_state(np.random.default_rng(0))
    illegal = int(np.flatnonzero(~game.legal_action_mask(state))[0])
    agent.model.predict = lambda *args, **kwargs: (np.array(illegal), None)  # type: ignore[method-assign]
    with pytest.warns(RuntimeWarning, match=f"illegal action {illegal}"):
        action = agent.act(game, state, 0)
    assert game.legal_action_mask(state)[action] and agent.illegal_predictions == 1


def test_stochastic_agents_are_legal_and_reproducible(saved_models: dict[str, Path]) -> None:
    game = small_game("quoridor")
    for path in saved_models.values():
        agent = SB3Agent.load(path, game, stochastic=True)
        records = [play_game(game, [agent, RandomAgent(0)], seed=5).actions for _ in range(2)]
        assert records[0] == records[1]


# -- self-play ------------------------------------------------------------------------------------
@pytest.fixture()
def snapshot_dir(saved_models: dict[str, Path], tmp_path) -> Path:
    """A directory with two snapshots (steps 100 and 200) of the PPO model (zip, sidecar and weights)."""
    directory = tmp_path / "snapshots"
    directory.mkdir()
    source = saved_models["ppo"]
    for steps in (100, 200):
        target = snapshot_path(directory, steps)
        for file_of in (Path, sidecar_path, weights_path):
            file_of(target).write_bytes(file_of(source).read_bytes())
    return directory


def drawn_labels(pool: SnapshotPool, seed: int, count: int) -> list[str]:
    rng = np.random.default_rng(seed)
    labels = []
    for _ in range(count):
        pool.start_episode(rng)
        labels.append(pool.current_label)
    return labels


def test_pool_draws_reproducibly_from_scripted_agents_and_snapshots(snapshot_dir: Path) -> None:
    def pool(**kwargs: Any) -> SnapshotPool:
        return SnapshotPool("quoridor", snapshot_dir, scripted=("random", "heuristic"), seed=0, **kwargs)

    labels = drawn_labels(pool(), seed=7, count=40)
    assert labels == drawn_labels(pool(), seed=7, count=40)
    assert set(labels) == {"random", "heuristic", "snapshot_000000000100.zip", "snapshot_000000000200.zip"}
    assert set(drawn_labels(pool(snapshot_share=0.0), seed=1, count=20)) == {"random", "heuristic"}
    assert set(drawn_labels(pool(snapshot_share=1.0, latest_share=1.0), 1, 10)) == {"snapshot_000000000200.zip"}
    assert set(drawn_labels(pool(snapshot_share=1.0, max_snapshots=1), 1, 10)) == {"snapshot_000000000200.zip"}


def test_pool_picks_up_new_snapshot_files(saved_models: dict[str, Path], tmp_path) -> None:
    directory = tmp_path / "snapshots"
    pool = SnapshotPool("quoridor", directory, scripted=(), seed=0, latest_share=1.0)
    assert drawn_labels(pool, seed=0, count=3) == ["random"] * 3  # nothing saved yet: plays randomly
    model, _ = load_model(saved_models["ppo"], trusted=True)
    save_model(model, snapshot_path(directory, 300), small_game("quoridor"))
    assert drawn_labels(pool, seed=0, count=2) == ["snapshot_000000000300.zip"] * 2
    save_model(model, snapshot_path(directory, 400), small_game("quoridor"))
    assert drawn_labels(pool, seed=0, count=1) == ["snapshot_000000000400.zip"]
    assert [path.name for path in list_snapshots(directory)] == [
        "snapshot_000000000300.zip",
        "snapshot_000000000400.zip",
    ]


def test_pool_is_an_env_opponent_told_of_every_episode(snapshot_dir: Path) -> None:
    pool = SnapshotPool("quoridor", snapshot_dir, scripted=("random", "path"))
    env = SingleAgentEnv("quoridor", opponent=pool, board_size=5)
    obs, _ = env.reset(seed=0)
    episodes, rng = 1, np.random.default_rng(0)
    for _ in range(300):
        obs, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert not info.get("illegal_action", False)
        if terminated or truncated:
            obs, _ = env.reset()
            episodes += 1
    assert sum(pool.draws.values()) == episodes and len(pool.draws) > 2


def test_snapshot_callback_saves_every_n_steps_for_a_selfplay_env(tmp_path) -> None:
    directory = tmp_path / "snapshots"
    mix = OpponentMix((), snapshot_dir=str(directory), snapshot_share=1.0)
    env = DummyVecEnv([lambda: make_training_env("quoridor", {"board_size": 5}, mix)] * 2)
    model = make_model("ppo", env, small_game("quoridor"), seed=0, **QUICK_PPO)
    callback = SnapshotCallback(directory, every_steps=256, game=small_game("quoridor"))
    counter = IllegalActionCounter()
    model.learn(1_024, callback=[callback, counter])
    assert [path.name for path in callback.saved] == [snapshot_path(directory, s).name for s in (256, 512, 768, 1024)]
    assert list_snapshots(directory) == callback.saved and counter.illegal == 0
    pools = [e.unwrapped.opponents[0].agent for e in env.envs]
    assert any(label.startswith("snapshot_") for pool in pools for label in pool.draws)


def test_saving_writes_no_partial_files(saved_models: dict[str, Path]) -> None:
    directory = saved_models["ppo"].parent
    assert not [path for path in directory.iterdir() if path.name.startswith(".")]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert read_model_card(saved_models["ppo"]).observation_shape == [10, 5, 5]
