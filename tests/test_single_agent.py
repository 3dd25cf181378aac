"""Tests of the single-agent Gymnasium adapter (``boardenvs.single_agent``) and its ``gymnasium.make`` ids.

Cases, toy games and helpers come from ``tests.test_aec`` (importing it registers the toy games).
"""

from __future__ import annotations

import copy
import os
import pickle
import subprocess
import sys
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import gymnasium  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

from boardenvs.envs import gym_env_id  # noqa: E402
from boardenvs.registry import game_entry, list_games, list_opponents, make_opponent_agent  # noqa: E402
from boardenvs.rendering import available_render_modes  # noqa: E402
from boardenvs.single_agent import SingleAgentEnv  # noqa: E402
from tests.env_cases import CASES, Case, random_legal  # noqa: E402
from tests.toy_games import CountDownState, FirstLegalAgent  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]

pytestmark = [
    pytest.mark.filterwarnings("ignore::UserWarning:gymnasium"),
    pytest.mark.filterwarnings("ignore::UserWarning:stable_baselines3"),
]


def make(case: Case, **kwargs: Any) -> SingleAgentEnv:
    return SingleAgentEnv(case.name, **case.config, **kwargs)


def scripted(moves: list[int]) -> Any:
    """An opponent callable that plays ``moves`` in order."""
    queue = list(moves)
    return lambda obs, mask, rng: queue.pop(0)


def play_episode(env: SingleAgentEnv, seed: int) -> list[tuple[Any, ...]]:
    """A seeded episode with random legal learner moves; checks every transition against the spaces."""
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    trace: list[tuple[Any, ...]] = [(env.game_state.key(), info["learner_seat"])]
    done = False
    while not done:
        assert env.observation_space.contains(obs)
        np.testing.assert_array_equal(info["action_mask"], obs["action_mask"].astype(bool))
        np.testing.assert_array_equal(env.action_masks(), info["action_mask"])
        assert env.game_state.current_player == env.learner_seat
        obs, reward, terminated, truncated, info = env.step(random_legal(rng, env.action_masks()))
        assert type(reward) is float and type(terminated) is bool and type(truncated) is bool
        done = terminated or truncated
        trace.append((env.game_state.key(), reward, terminated, truncated))
    assert env.action_masks().all() and obs["action_mask"].all()  # over: all ones, safe for masked samplers
    assert reward == float(env.game.returns(env.game_state)[env.learner_seat])
    assert truncated == env.game.is_truncated(env.game_state)
    return trace


# -- checkers ------------------------------------------------------------------------------------
@pytest.mark.parametrize("case", CASES)
def test_gymnasium_check_env_passes(case: Case) -> None:
    check_env(make(case))
    check_env(make(case, observation_format="dict", learner_seat=0))


@pytest.mark.parametrize("case", CASES)
def test_gymnasium_check_env_passes_on_gymnasium_make(case: Case, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(SingleAgentEnv.metadata, "render_fps", 1000)  # keep the human mode fast
    made = gymnasium.make(gym_env_id(case.name), **case.config)
    check_env(made.unwrapped)
    check_env(made)  # also builds every render mode through the spec


@pytest.mark.parametrize("case", CASES)
def test_sb3_check_env_passes(case: Case) -> None:
    sb3_check_env = pytest.importorskip("stable_baselines3.common.env_checker", reason="extra: train").check_env
    sb3_check_env(make(case))
    sb3_check_env(make(case, opponent="random", learner_seat=case_seats(case) - 1))


def case_seats(case: Case) -> int:
    return make(case).game.spec.num_players


@pytest.mark.parametrize("case", CASES)
def test_random_episodes_stay_in_the_spaces_and_pay_the_final_return(case: Case) -> None:
    env = make(case)
    for seed in range(3):
        play_episode(env, seed)


@pytest.mark.parametrize("case", CASES)
def test_same_seed_gives_the_same_episode(case: Case) -> None:
    assert play_episode(make(case), 4) == play_episode(make(case), 4)


# -- seats -----------------------------------------------------------------------------------------
def test_a_random_seat_visits_every_seat_and_the_learner_moves_first_after_reset() -> None:
    env = SingleAgentEnv("toy_countdown", num_players=3)
    seats = set()
    for seed in range(30):
        _, info = env.reset(seed=seed)
        seats.add(info["learner_seat"])
        assert env.game_state.current_player == info["learner_seat"] == env.learner_seat
    assert seats == {0, 1, 2}


def test_a_fixed_seat_is_kept_and_options_can_override_it() -> None:
    env = SingleAgentEnv("toy_countdown", num_players=4, learner_seat=2)
    assert {env.reset(seed=s)[1]["learner_seat"] for s in range(8)} == {2}
    assert env.reset(options={"learner_seat": 3})[1]["learner_seat"] == 3
    with pytest.raises(ValueError, match="learner_seat"):
        env.reset(options={"learner_seat": 4})


def test_a_game_that_ends_before_the_learners_turn_is_replaced() -> None:
    env = SingleAgentEnv("toy_countdown", start=1, learner_seat=1)
    for seed in range(5):
        env.reset(seed=seed)
        assert env.game_state.current_player == 1 and env.action_masks().any()
    env.game.initial_state = lambda rng: CountDownState(1, 0)  # the opponent always wins at once
    with pytest.raises(RuntimeError, match="ended before the learner's first move"):
        env.reset()


# -- rewards and episode ends ----------------------------------------------------------------------
def test_the_learner_wins_with_plus_one() -> None:
    env = SingleAgentEnv("toy_tictactoe", opponent=scripted([3, 4]), learner_seat=0)
    env.reset(seed=0)
    assert env.step(0)[1:4] == (0.0, False, False)
    env.step(1)
    _, reward, terminated, truncated, _ = env.step(2)
    assert (reward, terminated, truncated) == (1.0, True, False)


def test_a_loss_caused_by_the_opponents_reply_is_seen_in_the_learners_step() -> None:
    env = SingleAgentEnv("toy_tictactoe", opponent=scripted([3, 4, 5]), learner_seat=0)
    env.reset(seed=0)
    env.step(0)
    env.step(8)
    obs, reward, terminated, truncated, info = env.step(7)  # the opponent completes the middle row
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert obs["action_mask"].all() and info["action_mask"].all()


def test_the_move_cap_truncates() -> None:
    env = SingleAgentEnv("toy_countdown", opponent=lambda obs, mask, rng: 0, learner_seat=0, cap=3)
    env.reset(seed=0)
    done = False
    while not done:
        _, reward, terminated, truncated, _ = env.step(0)
        done = terminated or truncated
    assert (reward, terminated, truncated) == (0.0, False, True)


def test_an_illegal_action_ends_the_episode_with_the_penalty() -> None:
    env = SingleAgentEnv("toy_tictactoe", opponent=scripted([4]), learner_seat=0, illegal_action_penalty=-5)
    env.reset()
    env.step(0)
    obs, reward, terminated, truncated, info = env.step(4)  # taken by the opponent
    assert (reward, terminated, truncated) == (-5.0, True, False) and type(reward) is float
    assert info["illegal_action"] is True and info["learner_seat"] == 0
    assert obs["action_mask"].all() and env.action_masks().all()
    with pytest.raises(RuntimeError, match="reset"):
        env.step(1)
    env.reset()
    _, reward, terminated, truncated, info = env.step(99)  # out of range
    assert (reward, terminated, truncated, info["illegal_action"]) == (-5.0, True, False, True)


NOT_ACTIONS = [2.7, 2.0, "2", True, np.bool_(False), None, np.array([2]), np.array(2.0), [2]]
"""Not actions: ``step`` raises ``TypeError`` and changes nothing (a legal 2 is near each of them)."""


@pytest.mark.parametrize("bad", NOT_ACTIONS, ids=repr)
def test_a_value_that_is_not_an_int_is_a_type_error_not_an_illegal_move(bad: Any) -> None:
    env = SingleAgentEnv("toy_tictactoe", learner_seat=0)
    env.reset(seed=0)
    key = env.game_state.key()
    with pytest.raises(TypeError, match="^action must be an int, got"):
        env.step(bad)
    assert env.game_state.key() == key and env.action_masks().any()
    env.step(2)
    assert env.game_state.board[2] == 0


@pytest.mark.parametrize("action", [np.int64(2), np.uint8(2), np.array(2)], ids=repr)
def test_numpy_integers_and_0d_integer_arrays_are_actions(action: Any) -> None:
    env = SingleAgentEnv("toy_tictactoe", learner_seat=0)
    env.reset(seed=0)
    env.step(action)
    assert env.game_state.board[2] == 0


def test_reset_options_are_a_dict_of_known_keys_checked_before_anything_changes() -> None:
    env = SingleAgentEnv("toy_countdown", num_players=3, learner_seat=1)
    env.reset(seed=0)
    key, seat, generator = env.game_state.key(), env.learner_seat, env.np_random.bit_generator.state
    with pytest.raises(TypeError, match="options must be a dict"):
        env.reset(options="x")
    with pytest.raises(ValueError, match=r"unknown reset option\(s\) \['seat'\]; the options are: \['learner_seat'\]"):
        env.reset(seed=5, options={"seat": 2})
    with pytest.raises(ValueError, match="learner_seat must be in 0..2, got 3"):
        env.reset(seed=5, options={"learner_seat": 3})
    assert env.game_state.key() == key and env.learner_seat == seat
    assert env.np_random.bit_generator.state == generator
    assert env.reset(options={"learner_seat": 2})[1]["learner_seat"] == 2


def test_step_before_reset_or_after_the_end_asks_for_reset() -> None:
    env = SingleAgentEnv("toy_tictactoe", learner_seat=0, render_mode="ansi")
    for call in (lambda: env.step(0), env.render):
        with pytest.raises(RuntimeError, match="call reset"):
            call()
    env.reset(seed=0)
    env.step(99)  # illegal: the episode is over
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(0)


class DeckReserver:
    """An opponent that reserves the top of the level-1 deck (face down) whenever it can."""

    name = "deck_reserver"

    def act(self, game: Any, view: Any, player: int) -> int:
        try:
            return game.parse_action(view, "reserve deck L1")
        except ValueError:
            return int(game.legal_actions(view)[0])


@pytest.mark.skipif("splendor" not in list_games(), reason="needs a game with hidden information")
@pytest.mark.parametrize("mode", ["ansi", "rgb_array"])
def test_render_shows_the_learners_view_never_an_opponents_hidden_card(mode: str) -> None:
    if mode == "rgb_array":
        pytest.importorskip("PIL", reason="rgb_array frames need the render extra")
    env = SingleAgentEnv("splendor", opponent=DeckReserver(), learner_seat=1, render_mode=mode)
    env.reset(seed=0)
    if not env.game_state.hidden[0, 0]:  # the learner moved first
        env.step(env.game.parse_action(env.game_state, "take WUG"))
    state, game = env.game_state, env.game
    assert state.hidden[0, 0]  # the opponent (seat 0) reserved face down
    if mode == "ansi":
        assert env.render() == game.text_for(state, 1) != game.to_text(state)
        assert game.card_to_str(int(state.reserved[0, 0])) not in env.render()
    else:
        np.testing.assert_array_equal(env.render(), game.render_rgb(state, 1))  # the learner's own picture
        assert not np.array_equal(env.render(), game.render_rgb(state))  # the spectator's shows the reserve


@pytest.mark.parametrize("case", CASES)
def test_render_is_the_learner_seats_text(case: Case) -> None:
    env = make(case, render_mode="ansi")
    env.reset(seed=1)
    assert env.render() == env.game.text_for(env.game_state, env.learner_seat)


def test_infos_and_observations_are_fresh_objects() -> None:
    env = SingleAgentEnv("toy_tictactoe", learner_seat=0)
    obs0, info0 = env.reset(seed=0)
    obs1, _, _, _, info1 = env.step(0)
    assert info0 is not info1 and info0["action_mask"] is not info1["action_mask"]
    assert obs0["observation"] is not obs1["observation"]
    mask = env.action_masks()
    mask[:] = False
    assert env.action_masks().any()


# -- opponents --------------------------------------------------------------------------------------
def test_random_opponents_move_before_the_learners_first_turn() -> None:
    env = SingleAgentEnv("toy_tictactoe", learner_seat=1)
    env.reset(seed=0)
    assert (env.game_state.board >= 0).sum() == 1


def test_the_heuristic_opponent_is_the_registered_agent_and_is_reseeded() -> None:
    env = SingleAgentEnv("toy_tictactoe", opponent="heuristic", learner_seat=1)
    agent = env.opponents[0].agent
    assert isinstance(agent, FirstLegalAgent)
    env.reset(seed=1)
    assert env.game_state.board[0] == 0  # it played its first legal action
    assert agent.views[-1] is not env.game_state  # a determinized copy, never the true state
    env.reset()
    assert len(agent.seeds) == 1  # unseeded resets leave the agent's stream alone
    env.reset(seed=1)
    assert agent.seeds[1] == agent.seeds[0]


class EpisodeCountingAgent(FirstLegalAgent):
    """Records every ``start_episode`` call and the generator it was given."""

    def __init__(self) -> None:
        super().__init__()
        self.episode_generators: list[Any] = []

    def start_episode(self, rng: np.random.Generator) -> None:
        self.episode_generators.append(rng)


def test_opponents_with_start_episode_hear_of_every_reset() -> None:
    agent = EpisodeCountingAgent()
    env = SingleAgentEnv("toy_tictactoe", opponent=agent)
    env.reset(seed=3)
    env.reset()
    assert len(agent.episode_generators) == 2
    assert all(rng is env.np_random for rng in agent.episode_generators)


def test_each_seat_gets_its_own_heuristic_agent() -> None:
    env = SingleAgentEnv("toy_tictactoe", opponent="heuristic")
    other = SingleAgentEnv("toy_tictactoe", opponent=["heuristic"])
    assert isinstance(other.opponents[0].agent, FirstLegalAgent)
    assert env.opponents[0].agent is not other.opponents[0].agent


def test_heuristic_needs_a_registered_agent() -> None:
    with pytest.raises(ValueError, match="no registered opponent 'heuristic'; opponents: \\['random'\\]"):
        SingleAgentEnv("toy_countdown", opponent="heuristic")


def test_an_unknown_opponent_name_lists_the_registered_ones() -> None:
    with pytest.raises(ValueError, match="no registered opponent 'nobody'.*'heuristic', 'first_legal'"):
        SingleAgentEnv("toy_tictactoe", opponent="nobody")


def test_a_registered_opponent_is_found_by_its_own_name() -> None:
    env = SingleAgentEnv("toy_tictactoe", opponent="first_legal")
    assert isinstance(env.opponents[0].agent, FirstLegalAgent)


def test_the_quoridor_heuristic_agent_plays_whole_games_as_an_opponent_object() -> None:
    def make_env() -> SingleAgentEnv:
        return SingleAgentEnv("quoridor", opponent=make_opponent_agent("quoridor", "heuristic"), board_size=5)

    check_env(make_env())
    assert play_episode(make_env(), 1) == play_episode(make_env(), 1)


def test_the_quoridor_heuristic_opponent_is_found_by_name() -> None:
    env = SingleAgentEnv("quoridor", opponent="heuristic", board_size=5)
    assert type(env.opponents[0].agent).__name__ == "HeuristicAgent"
    play_episode(env, 0)


def test_every_game_has_a_default_scripted_opponent() -> None:
    for name in ("quoridor", "node_conquest", "battle_sheep", "gravwell", "splendor"):
        assert list_opponents(name)[0] == "heuristic"
        assert callable(make_opponent_agent(name, "heuristic").act)


def test_callable_opponents_see_their_own_observation_mask_and_the_env_rng() -> None:
    calls = []

    def opponent(obs: dict, mask: np.ndarray, rng: np.random.Generator) -> int:
        calls.append((obs, mask, rng, env.game_state.copy()))
        return int(np.flatnonzero(mask)[0])

    env = SingleAgentEnv("toy_tictactoe", opponent=opponent, learner_seat=1)
    env.reset(seed=0)
    env.step(8)
    for obs, mask, rng, state in calls:
        assert env.observation_space.contains(obs) and rng is env.np_random
        assert mask.dtype == bool and np.array_equal(mask, obs["action_mask"].astype(bool))
        np.testing.assert_array_equal(obs["observation"], env.game.observe(state, 0))
    assert len(calls) == 2


def test_agent_objects_get_a_determinized_view_and_their_seat() -> None:
    class Recorder(FirstLegalAgent):
        def act(self, game: Any, view: Any, player: int) -> int:
            self.players = [*getattr(self, "players", []), player]
            return super().act(game, view, player)

    first, second = Recorder(), Recorder()
    env = SingleAgentEnv("toy_countdown", opponent=[first, second], num_players=3, learner_seat=0, start=30)
    env.reset(seed=0)
    for _ in range(3):
        env.step(0)
    assert set(first.players) == {1} and set(second.players) == {2}
    assert all(view is not env.game_state for view in first.views)
    env.reset(seed=3)
    assert len(first.seeds) == len(second.seeds) == 2 and first.seeds != second.seeds


def test_one_agent_object_serves_every_opponent_seat() -> None:
    agent = FirstLegalAgent()
    env = SingleAgentEnv("toy_countdown", opponent=agent, num_players=4, start=40)
    assert [o.agent for o in env.opponents] == [agent, agent, agent]
    env.reset(seed=0)
    assert agent.seeds and len(agent.seeds) == 1


def test_an_opponent_that_plays_an_illegal_action_is_reported() -> None:
    env = SingleAgentEnv("toy_tictactoe", opponent=lambda obs, mask, rng: 0, learner_seat=0)
    env.reset()
    with pytest.raises(ValueError, match="opponent in seat 1 chose the illegal action 0"):
        env.step(0)


@pytest.mark.parametrize(
    ("opponent", "error", "match"),
    [
        ("minimax", ValueError, "no registered opponent .minimax."),
        (42, TypeError, "opponent must be one of"),
        (FirstLegalAgent, TypeError, "opponent must be an instance"),
        (["random", "random"], ValueError, "opponent list must have 1 entries"),
    ],
)
def test_bad_opponents_raise_naming_the_parameter(opponent: Any, error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        SingleAgentEnv("toy_tictactoe", opponent=opponent)


# -- parameters, copying, rendering, registration -----------------------------------------------------
@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"learner_seat": 2}, r"learner_seat must be in 0..1, got 2"),
        ({"learner_seat": True}, "learner_seat must be an int"),
        ({"observation_format": "flat"}, "observation_format must be one of"),
        ({"render_mode": "screen"}, "render_mode must be one of"),
        ({"illegal_action_penalty": "high"}, "illegal_action_penalty must be a finite number"),
        ({"illegal_action_penalty": float("nan")}, "illegal_action_penalty must be a finite number, got nan"),
        ({"illegal_action_penalty": float("-inf")}, "illegal_action_penalty must be a finite number"),
        ({"illegal_action_penalty": True}, "illegal_action_penalty must be a finite number"),
        ({"first_player": 3}, "first_player"),
    ],
)
def test_bad_parameters_raise_naming_them(kwargs: dict[str, Any], match: str) -> None:
    with pytest.raises(ValueError, match=match):
        SingleAgentEnv("toy_tictactoe", **kwargs)


@pytest.mark.parametrize("case", CASES)
def test_deepcopy_and_pickle_continue_the_same_episode(case: Case) -> None:
    env = make(case)
    env.reset(seed=3)
    action = int(np.flatnonzero(env.action_masks())[0])
    for clone in (copy.deepcopy(env), pickle.loads(pickle.dumps(env))):
        assert clone.game_state.key() == env.game_state.key()
        original, copied = copy.deepcopy(env).step(action), clone.step(action)
        assert original[1:4] == copied[1:4]
        np.testing.assert_array_equal(original[0]["observation"], copied[0]["observation"])


def test_render_modes_return_text_pictures_and_nothing() -> None:
    for mode, check in [
        ("ansi", lambda r: isinstance(r, str)),
        ("rgb_array", lambda r: r.dtype == np.uint8 and r.ndim == 3 and r.shape[2] == 3),
        ("human", lambda r: r is None),
    ]:
        if mode not in available_render_modes():
            continue  # needs the render extra
        env = SingleAgentEnv("toy_tictactoe", render_mode=mode)
        env.metadata["render_fps"] = 1000
        env.reset(seed=0)
        env.step(int(np.flatnonzero(env.action_masks())[0]))
        assert check(env.render())
        env.close()
        env.close()


@pytest.mark.parametrize("name", list_games())
def test_gymnasium_make_builds_every_registered_game(name: str) -> None:
    made = gymnasium.make(gym_env_id(name), opponent="random", learner_seat=0)
    assert isinstance(made.unwrapped, SingleAgentEnv) and made.unwrapped.game.spec.name == name
    obs, info = made.reset(seed=0)
    assert info["learner_seat"] == 0
    assert made.get_wrapper_attr("action_masks")().dtype == bool


def test_gymnasium_make_forwards_the_game_config() -> None:
    made = gymnasium.make("boardenvs/ToyCountdown-v0", num_players=4, observation_format="dict")
    assert made.unwrapped.game.spec.num_players == 4
    assert set(made.observation_space["observation"].spaces) == {"counter", "to_move"}


@pytest.mark.skipif("quoridor" not in list_games(), reason="the quoridor game is not registered yet")
def test_quoridor_is_registered_for_gymnasium_make() -> None:
    version = game_entry("quoridor").game_class.version
    assert gym_env_id("quoridor") == f"boardenvs/Quoridor-v{version}"
    made = gymnasium.make(f"boardenvs/Quoridor-v{version}", opponent="random", board_size=5)
    assert made.unwrapped.game.config.board_size == 5
    obs, info = made.reset(seed=0)
    assert made.observation_space.contains(obs)


def test_the_gymnasium_env_runs_without_importing_pettingzoo() -> None:
    code = (
        "import sys, gymnasium, boardenvs\n"
        "env = gymnasium.make('boardenvs/Quoridor-v0', board_size=5)\n"
        "env.reset(seed=0)\n"
        "env.step(int(env.unwrapped.action_masks().nonzero()[0][0]))\n"
        "print('pettingzoo' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.stdout.strip() == "False", out.stderr
