"""PettingZoo conventions every game keeps: ``<game>_v<version>`` modules, the Parallel API (with Gravwell's secret
commits as one parallel step), ``state()``/``state_space``, channels-last planes and opt-in events."""

from __future__ import annotations

import importlib
import pickle
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import parallel_api_test, parallel_seed_test, state_test

from boardenvs.aec import BoardGameAEC, agent_name
from boardenvs.envs import module_name
from boardenvs.parallel import BoardGameParallel
from boardenvs.single_agent import SingleAgentEnv
from tests.env_cases import CASES, Case, random_legal

GAMES = ("battle_sheep", "gravwell", "node_conquest", "quoridor", "splendor")
PLANE_GAMES = ("battle_sheep", "node_conquest", "quoridor")


def parallel_of(case: Case, **kwargs: Any) -> BoardGameParallel:
    return BoardGameParallel(case.name, **case.config, **kwargs)


def random_parallel_actions(env: BoardGameParallel, observations: dict, rng: np.random.Generator) -> dict:
    return {agent: random_legal(rng, observations[agent]["action_mask"]) for agent in env.acting_agents()}


# -- modules ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_a_pettingzoo_style_module(game: str) -> None:
    module = importlib.import_module(module_name(game))
    raw = module.raw_env()
    assert issubclass(module.raw_env, BoardGameAEC) and raw.game.spec.name == game
    assert type(module.env().unwrapped) is module.raw_env
    assert isinstance(module.parallel_env(), BoardGameParallel)
    raw.reset(seed=0)
    assert type(pickle.loads(pickle.dumps(raw))) is module.raw_env


def test_the_modules_import_from_the_package() -> None:
    from boardenvs import battle_sheep_v1, gravwell_v1, node_conquest_v2, quoridor_v0, splendor_v3

    names = [m.raw_env().metadata["name"] for m in (battle_sheep_v1, gravwell_v1, node_conquest_v2, quoridor_v0)]
    assert names == ["battle_sheep_v1", "gravwell_v1", "node_conquest_v2", "quoridor_v0"]
    assert splendor_v3.parallel_env().metadata["name"] == "splendor_v3"


def test_pettingzoo_make_builds_the_parallel_env_of_every_game() -> None:
    import pettingzoo

    for game in GAMES:
        env_id = next(key for key in pettingzoo.parallel_registry if key.startswith(f"boardenvs/{game}-"))
        env = pettingzoo.make("parallel", env_id)
        assert isinstance(env, BoardGameParallel) and env.game.spec.name == game and env.illegal_reward == -1.0


# -- the Parallel API -------------------------------------------------------------------------------
@pytest.mark.parametrize("case", CASES)
def test_parallel_api_test_passes(case: Case) -> None:
    parallel_api_test(parallel_of(case), num_cycles=300)


@pytest.mark.parametrize("case", CASES)
def test_state_test_passes(case: Case) -> None:
    """PettingZoo's state test samples unmasked actions: the penalising envs take them."""
    state_test(case.make_env(), parallel_of(case, illegal_reward=-1.0))


@pytest.mark.parametrize("game", GAMES)
def test_parallel_seed_test_passes(game: str) -> None:
    """PettingZoo's seed test samples unmasked actions: the penalising env takes them."""
    parallel_seed_test(lambda: BoardGameParallel(game, illegal_reward=-1.0))


@pytest.mark.parametrize("case", [c for c in CASES if not c.values[0].name.startswith("toy")])
def test_a_parallel_game_replays_the_aec_game_with_the_same_seed(case: Case) -> None:
    """Same seed, same moves: the parallel env's observations and rewards are the AEC env's."""
    rng = np.random.default_rng(1)
    parallel, raw = parallel_of(case), case.make_raw()
    observations, _ = parallel.reset(seed=3)
    raw.reset(seed=3)
    rewards: dict[str, float] = {}
    while parallel.agents:
        actions = random_parallel_actions(parallel, observations, rng)
        for agent in parallel.acting_agents():
            assert raw.agent_selection == agent
            raw.step(actions[agent])
        observations, rewards, terminations, truncations, _ = parallel.step(actions)
        for agent in observations:
            np.testing.assert_array_equal(observations[agent]["observation"], raw.observe(agent)["observation"])
    assert rewards == raw.rewards and terminations == raw.terminations and truncations == raw.truncations


def test_gravwell_commits_are_one_parallel_step_with_every_hand_masked() -> None:
    env = BoardGameParallel("gravwell", num_players=3)
    observations, _ = env.reset(seed=0)
    rng = np.random.default_rng(0)
    while len(env.acting_agents()) == 1:  # the draft: one agent at a time
        observations, *_ = env.step(random_parallel_actions(env, observations, rng))
    assert env.acting_agents() == ["player_0", "player_1", "player_2"]
    hands = env.game_state.hands
    for player in range(3):
        mask = observations[agent_name(player)]["action_mask"].astype(bool)
        cards = env.game.legal_action_mask_of(env.game_state, player)
        assert mask.tolist() == cards.tolist() and mask.sum() == bin(hands[player]).count("1")
    commit_ply = env.game_state.ply
    env.step(random_parallel_actions(env, observations, rng))
    assert env.game_state.ply > commit_ply + 2  # three commits and the reveal


def test_a_committer_cannot_see_the_card_committed_before_it_in_the_same_step() -> None:
    """Player 1 chooses from the observation at the start of the step, whatever player 0 commits."""
    seen = []
    for first_card in range(2):
        env = BoardGameParallel("gravwell", num_players=2)
        observations, _ = env.reset(seed=5)
        rng = np.random.default_rng(0)
        while len(env.acting_agents()) == 1:
            observations, *_ = env.step(random_parallel_actions(env, observations, rng))
        seen.append(observations["player_1"]["observation"])
        cards = np.flatnonzero(observations["player_0"]["action_mask"])
        assert len(cards) > 1 and first_card < len(cards)
    np.testing.assert_array_equal(seen[0], seen[1])


# -- the Parallel API's bad input -------------------------------------------------------------------
def test_a_missing_action_of_an_acting_agent_is_an_error_naming_it() -> None:
    env = BoardGameParallel("quoridor", board_size=5)
    env.reset(seed=0)
    mover = env.acting_agents()[0]
    with pytest.raises(ValueError, match=rf"no action for \['{mover}'\]"):
        env.step({})


def test_an_action_for_an_agent_not_playing_is_an_error_naming_it() -> None:
    env = BoardGameParallel("quoridor", board_size=5)
    observations, _ = env.reset(seed=0)
    actions = random_parallel_actions(env, observations, np.random.default_rng(0))
    with pytest.raises(ValueError, match=r"agents that are not playing: \['player_7'\]"):
        env.step({**actions, "player_7": 0})


def test_waiting_agents_may_send_an_action_that_is_ignored() -> None:
    env = BoardGameParallel("quoridor", board_size=5)
    observations, _ = env.reset(seed=0)
    actions = {agent: 0 for agent in env.agents} | random_parallel_actions(env, observations, np.random.default_rng(0))
    env.step(actions)
    assert env.game_state.ply == 1


def test_an_illegal_parallel_action_raises_or_ends_the_game_with_the_penalty() -> None:
    from boardenvs import quoridor_v0

    raw = BoardGameParallel("quoridor", board_size=5)
    observations, _ = raw.reset(seed=0)
    mover = raw.acting_agents()[0]
    illegal = int(np.flatnonzero(observations[mover]["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match=f"illegal action {illegal} for agent {mover}"):
        raw.step({mover: illegal})
    wrapped = quoridor_v0.parallel_env(board_size=5)
    wrapped.reset(seed=0)
    _, rewards, terminations, _, infos = wrapped.step({mover: illegal})
    assert rewards[mover] == -1.0 and sum(rewards.values()) == -1.0
    assert all(terminations.values()) and infos[mover]["illegal_action"] and wrapped.agents == []
    with pytest.raises(RuntimeError, match="call reset"):
        wrapped.step({mover: 0})


def test_bad_parallel_arguments_raise_naming_them() -> None:
    with pytest.raises(ValueError, match="illegal_reward must be a number or None"):
        BoardGameParallel("quoridor", illegal_reward="big")
    with pytest.raises(ValueError, match="actions must be a dict"):
        env = BoardGameParallel("quoridor", board_size=5)
        env.reset(seed=0)
        env.step([0])


# -- state ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("case", CASES)
def test_the_state_stacks_every_seats_view_and_stays_in_its_space(case: Case) -> None:
    raw = case.make_raw()
    raw.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(30):
        if raw.terminations[raw.agent_selection] or raw.truncations[raw.agent_selection]:
            break
        state = raw.state()
        assert state in raw.state_space
        views = [raw.observe(agent)["observation"] for agent in raw.possible_agents]
        np.testing.assert_array_equal(state, np.concatenate(views, axis=0))
        raw.step(random_legal(rng, raw.observe(raw.agent_selection)["action_mask"]))


def test_the_state_holds_hidden_information_the_observation_does_not() -> None:
    raw = BoardGameAEC("splendor", num_players=2)
    raw.reset(seed=0)
    raw.step(raw.game.parse_action(raw.game_state, "reserve deck L1"))
    reserver = 1 - raw.game_state.current_player
    other_view = raw.observe(agent_name(1 - reserver))["observation"]
    own_view = raw.observe(agent_name(reserver))["observation"]
    assert not np.array_equal(other_view, own_view)
    size = raw.game.spec.observation_shape[0]
    np.testing.assert_array_equal(raw.state()[reserver * size : (reserver + 1) * size], own_view)


# -- layouts ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("game", PLANE_GAMES)
def test_channels_last_is_the_channels_first_planes_moved(game: str) -> None:
    first, last = BoardGameAEC(game), BoardGameAEC(game, observation_layout="channels_last")
    first.reset(seed=0)
    last.reset(seed=0)
    channels, height, width = first.game.spec.observation_shape
    assert last.observation_space("player_0")["observation"].shape == (height, width, channels)
    for agent in first.possible_agents:
        expected = np.moveaxis(first.observe(agent)["observation"], 0, -1)
        np.testing.assert_array_equal(last.observe(agent)["observation"], expected)
        assert last.observe(agent) in last.observation_space(agent)
    np.testing.assert_array_equal(last.state(), np.moveaxis(first.state(), 0, -1))
    assert last.state() in last.state_space


def test_channels_last_dict_fields_and_single_agent_env() -> None:
    raw = BoardGameAEC("quoridor", board_size=5, observation_format="dict", observation_layout="channels_last")
    raw.reset(seed=0)
    observation = raw.observe("player_0")
    assert observation in raw.observation_space("player_0")
    assert all(part.shape[:2] == (5, 5) for part in observation["observation"].values())
    single = SingleAgentEnv("node_conquest", observation_layout="channels_last")
    obs, _ = single.reset(seed=0)
    assert obs["observation"].shape == (5, 5, 9) and obs in single.observation_space


@pytest.mark.parametrize("make", [BoardGameAEC, BoardGameParallel, SingleAgentEnv])
@pytest.mark.parametrize("game", ["splendor", "gravwell"])
def test_channels_last_on_a_vector_game_is_an_error_naming_the_layout(make: Any, game: str) -> None:
    with pytest.raises(ValueError, match="observation_layout='channels_last' needs board planes"):
        make(game, observation_layout="channels_last")


def test_an_unknown_layout_is_an_error_naming_the_choices() -> None:
    with pytest.raises(ValueError, match="observation_layout must be one of"):
        BoardGameAEC("quoridor", observation_layout="hwc")


# -- events -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("game", ["splendor", "gravwell"])
def test_events_are_opt_in_and_fixed_infos_by_default(game: str) -> None:
    default, opted = BoardGameAEC(game), BoardGameAEC(game, events=True)
    for env in (default, opted):
        env.reset(seed=0)
        rng = np.random.default_rng(0)
        for _ in range(5):
            env.step(random_legal(rng, env.observe(env.agent_selection)["action_mask"]))
    assert all(info == {} for info in default.infos.values())
    assert all(isinstance(info["events"], list) for info in opted.infos.values())
