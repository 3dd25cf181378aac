"""Tests of the PettingZoo AEC adapter (``boardenvs.aec``) and the env registration (``boardenvs.envs``).

Every test that takes a ``case`` runs for the toy games below and for every game in ``boardenvs.list_games()``
(its default config plus the configs of ``EXTRA_CONFIGS``, or its presets), so new games are covered
automatically (see ``tests/env_cases.py``); the toy games are in ``tests/toy_games.py``.
"""

from __future__ import annotations

import copy
import functools
import importlib.util
import os
import pickle
import subprocess
import sys
import warnings
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import numpy as np  # noqa: E402
import pettingzoo  # noqa: E402
import pytest  # noqa: E402

with warnings.catch_warnings():  # pettingzoo.test imports classic envs through their deprecated modules
    warnings.simplefilter("ignore", DeprecationWarning)
    from pettingzoo.test import api_test, parallel_api_test, render_test, seed_test
from pettingzoo.utils import wrappers  # noqa: E402
from pettingzoo.utils.conversions import turn_based_aec_to_parallel  # noqa: E402
from pettingzoo.utils.wrappers import OrderEnforcingWrapper  # noqa: E402

import boardenvs  # noqa: E402
from boardenvs.aec import BoardGameAEC, ClassicWrapper, agent_name, env, new_events  # noqa: E402
from boardenvs.envs import aec_env_id, register_envs  # noqa: E402
from boardenvs.parallel import BoardGameParallel, parallel_env  # noqa: E402
from boardenvs.registry import game_entry, list_games  # noqa: E402
from boardenvs.rendering import available_render_modes  # noqa: E402
from tests.env_cases import CASES, Case, aec_books, random_legal  # noqa: E402

pytestmark = [
    pytest.mark.filterwarnings("ignore::UserWarning:pettingzoo"),
    pytest.mark.filterwarnings("ignore::UserWarning:gymnasium"),
]


def play_tictactoe(raw: BoardGameAEC, moves: list[int]) -> None:
    for move in moves:
        raw.step(move)


# -- PettingZoo's own test suite -------------------------------------------------------------------
@pytest.mark.parametrize("case", CASES)
def test_api_test_passes(case: Case) -> None:
    api_test(case.make_env(), num_cycles=40)


@pytest.mark.parametrize("case", CASES)
def test_api_test_passes_with_dict_observations(case: Case) -> None:
    api_test(case.make_env(observation_format="dict"), num_cycles=20)


@pytest.mark.parametrize("case", CASES)
def test_seed_test_passes(case: Case) -> None:
    seed_test(functools.partial(case.make_env), num_cycles=30)


@pytest.mark.parametrize("case", CASES)
def test_render_test_passes(case: Case) -> None:
    def make(render_mode: str | None = None) -> Any:
        wrapped = case.make_env(render_mode=render_mode)
        wrapped.unwrapped.metadata["render_fps"] = 1000  # keep the human mode fast
        return wrapped

    render_test(make)


@pytest.mark.parametrize("case", CASES)
def test_parallel_api_test_passes_on_turn_based_conversion(case: Case) -> None:
    parallel_api_test(turn_based_aec_to_parallel(case.make_env()), num_cycles=30)


# -- spaces, observations, metadata --------------------------------------------------------------
@pytest.mark.parametrize("case", CASES)
def test_spaces_are_cached_and_built_from_the_fields(case: Case) -> None:
    raw = case.make_raw()
    spec = raw.game.spec
    assert raw.possible_agents == [f"player_{i}" for i in range(spec.num_players)]
    for agent in raw.possible_agents:
        assert raw.observation_space(agent) is raw.observation_space(agent)
        assert raw.action_space(agent) is raw.action_space(agent)
        assert raw.action_space(agent).n == spec.num_actions
        box = raw.observation_space(agent)["observation"]
        assert box.dtype == np.float32 and box.shape == spec.observation_shape
        mask_space = raw.observation_space(agent)["action_mask"]
        assert mask_space.dtype == np.int8 and mask_space.shape == (spec.num_actions,)
    for f in spec.observation_fields:
        assert np.all(box.low[f.start : f.stop] == f.low) and np.all(box.high[f.start : f.stop] == f.high)


@pytest.mark.parametrize("case", CASES)
def test_dict_observations_are_the_named_fields(case: Case) -> None:
    raw, flat = case.make_raw(observation_format="dict"), case.make_raw()
    raw.reset(seed=3)
    flat.reset(seed=3)
    spec = raw.game.spec
    space = raw.observation_space("player_0")["observation"]
    assert set(space.spaces) == {f.name for f in spec.observation_fields}
    for agent in raw.possible_agents:
        obs, array = raw.observe(agent), flat.observe(agent)["observation"]
        assert raw.observation_space(agent).contains(obs)
        for f in spec.observation_fields:
            np.testing.assert_array_equal(obs["observation"][f.name], array[f.start : f.stop])
            assert space[f.name].low.min() == f.low and space[f.name].high.max() == f.high


@pytest.mark.parametrize("case", CASES)
def test_observe_works_for_every_agent_and_returns_fresh_arrays(case: Case) -> None:
    raw = case.make_raw()
    raw.reset(seed=1)
    state = raw.game_state
    for player, agent in enumerate(raw.possible_agents):
        acting = player == state.current_player
        expected_mask = raw.game.legal_action_mask(state) if acting else np.zeros(raw.game.spec.num_actions)
        obs = raw.observe(agent)
        np.testing.assert_array_equal(obs["observation"], raw.game.observe(state, player))
        np.testing.assert_array_equal(obs["action_mask"], expected_mask.astype(np.int8))
        assert obs["action_mask"].dtype == np.int8
        obs["observation"][...] = 123.0
        obs["action_mask"][...] = 1
        again = raw.observe(agent)
        np.testing.assert_array_equal(again["observation"], raw.game.observe(state, player))
        np.testing.assert_array_equal(again["action_mask"], expected_mask.astype(np.int8))


@pytest.mark.parametrize("case", CASES)
def test_metadata_follows_pettingzoo_classic(case: Case) -> None:
    raw = case.make_raw()
    spec = raw.game.spec
    assert raw.metadata == {
        "name": f"{spec.name}_v{spec.version}",
        "render_modes": available_render_modes(),  # all three with the render extra (tests/test_core_install.py)
        "is_parallelizable": False,
        "render_fps": 2,
    }
    assert str(raw) == f"{spec.name}_v{spec.version}"


# -- rewards, terminations, truncations -------------------------------------------------------------
@pytest.mark.parametrize("case", CASES)
def test_a_random_game_keeps_the_books_right(case: Case) -> None:
    raw = case.make_raw()
    raw.reset(seed=7)
    rng = np.random.default_rng(7)
    game, plies = raw.game, 0
    while not game.is_terminal(raw.game_state):
        state = raw.game_state
        assert raw.agent_selection == agent_name(state.current_player)
        obs = raw.observe(raw.agent_selection)
        raw.step(random_legal(rng, obs["action_mask"]))
        plies += 1
        if not game.is_terminal(raw.game_state):
            assert all(r == 0.0 for r in raw.rewards.values())
            assert not any(raw.terminations.values()) and not any(raw.truncations.values())
    assert plies <= game.spec.max_game_length
    returns = game.returns(raw.game_state)
    assert raw.rewards == {agent_name(p): float(returns[p]) for p in range(len(returns))}
    assert all(type(r) is float for r in raw.rewards.values())
    truncated = game.is_truncated(raw.game_state)
    assert all(v is truncated for v in raw.truncations.values())
    assert all(v is (not truncated) for v in raw.terminations.values())
    finish_with_dead_steps(raw, returns)


def finish_with_dead_steps(raw: BoardGameAEC, returns: np.ndarray) -> None:
    """Step every finished agent with None; ``last()`` must report each one's final return."""
    seen = set()
    while raw.agents:
        agent = raw.agent_selection
        _, reward, terminated, truncated, info = raw.last()
        assert terminated or truncated
        assert reward == pytest.approx(float(returns[int(agent.split("_")[1])]))
        assert isinstance(info, dict)
        seen.add(agent)
        raw.step(None)
    assert seen == set(raw.possible_agents)


def test_winner_gets_plus_one_and_loser_minus_one_in_the_deciding_step() -> None:
    raw = BoardGameAEC("toy_tictactoe")
    raw.reset(seed=0)
    play_tictactoe(raw, [0, 3, 1, 4])
    assert raw.rewards == {"player_0": 0.0, "player_1": 0.0}
    raw.step(2)  # x completes the top row
    assert raw.rewards == {"player_0": 1.0, "player_1": -1.0}
    assert raw._cumulative_rewards == {"player_0": 1.0, "player_1": -1.0}
    assert raw.terminations == {"player_0": True, "player_1": True}
    assert raw.truncations == {"player_0": False, "player_1": False}
    assert raw.agent_selection == "player_1"
    assert raw.last()[1:4] == (-1.0, True, False)
    assert not raw.observe("player_0")["action_mask"].any()
    raw.step(None)
    assert raw.agents == ["player_0"] and raw.last()[1] == 1.0
    raw.step(None)
    assert raw.agents == []


def test_last_reports_accumulated_rewards_through_the_wrappers() -> None:
    wrapped = env("toy_tictactoe")
    wrapped.reset(seed=0)
    for move in [3, 0, 4, 1, 8, 2]:  # o (player_1) completes the top row
        wrapped.step(move)
    assert wrapped.rewards == {"player_0": -1.0, "player_1": 1.0}
    assert wrapped.agent_selection == "player_0"
    assert wrapped.last()[1] == -1.0


def test_a_draw_terminates_with_zero_rewards() -> None:
    raw = BoardGameAEC("toy_tictactoe")
    raw.reset()
    play_tictactoe(raw, [0, 1, 2, 4, 3, 5, 7, 6, 8])
    assert raw.rewards == {"player_0": 0.0, "player_1": 0.0}
    assert all(raw.terminations.values()) and not any(raw.truncations.values())


def test_the_move_cap_truncates_every_agent() -> None:
    raw = BoardGameAEC("toy_countdown", num_players=3, cap=3)
    raw.reset(seed=0)
    for _ in range(3):
        raw.step(0)
    assert raw.truncations == dict.fromkeys(raw.possible_agents, True)
    assert raw.terminations == dict.fromkeys(raw.possible_agents, False)
    assert raw.rewards == dict.fromkeys(raw.possible_agents, 0.0)
    finish_with_dead_steps(raw, np.zeros(3))


def test_turn_order_comes_from_the_state_never_assumed_to_alternate() -> None:
    raw = BoardGameAEC("toy_countdown", num_players=3, start=20)
    raw.reset(seed=0)
    first = raw.game_state.current_player
    raw.step(1)  # takes two and moves again
    assert raw.agent_selection == agent_name(first)
    raw.step(2)  # takes one and skips the next player
    assert raw.agent_selection == agent_name((first + 2) % 3)
    raw.step(0)
    assert raw.agent_selection == agent_name(first)


def test_rewards_of_a_repeating_winner_are_counted_once() -> None:
    raw = BoardGameAEC("toy_countdown", start=4)
    raw.reset(seed=0)
    winner = raw.game_state.current_player
    raw.step(1)
    raw.step(1)  # the same player again, reaching zero
    expected = {agent_name(winner): 1.0, agent_name(1 - winner): -1.0}
    assert raw.rewards == expected and raw._cumulative_rewards == expected


def test_infos_carry_no_events_unless_asked_for() -> None:
    raw = BoardGameAEC("toy_countdown", num_players=3, start=20)
    raw.reset(seed=0)
    raw.step(2)
    assert raw.infos == {agent: {} for agent in raw.possible_agents}
    with pytest.raises(ValueError, match="events must be True or False"):
        BoardGameAEC("toy_countdown", events="yes")


def test_new_events_are_passed_through_infos() -> None:
    raw = BoardGameAEC("toy_countdown", num_players=3, start=20, events=True)
    raw.reset(seed=0)
    assert raw.infos == {agent: {} for agent in raw.possible_agents}
    first = raw.game_state.current_player
    raw.step(2)
    assert all(info == {"events": [(first, 2)]} for info in raw.infos.values())
    raw.step(0)
    assert all(info["events"] == [((first + 2) % 3, 0)] for info in raw.infos.values())
    assert raw.infos["player_0"] is not raw.infos["player_1"]
    tictactoe = BoardGameAEC("toy_tictactoe", events=True)
    tictactoe.reset()
    tictactoe.step(0)
    assert tictactoe.infos == {"player_0": {}, "player_1": {}}


def test_each_agent_gets_only_the_events_the_game_lets_it_see(monkeypatch) -> None:
    raw = BoardGameAEC("toy_countdown", num_players=3, start=20, events=True)
    own_events_only = lambda state, events, player: [e for e in events if e[0] == player]  # noqa: E731
    monkeypatch.setattr(raw.game, "visible_events", own_events_only)
    raw.reset(seed=0)
    mover = raw.game_state.current_player
    raw.step(0)
    assert raw.infos[agent_name(mover)] == {"events": [(mover, 0)]}
    assert all(raw.infos[agent_name(p)] == {"events": []} for p in range(3) if p != mover)


def test_new_events_reads_a_growing_log_or_a_fresh_list() -> None:
    class S:
        def __init__(self, events: Any) -> None:
            self.events = events

    assert new_events(S([1, 2]), S([1, 2, 3])) == [3]
    assert new_events(S([1, 2]), S([7])) == [7]
    assert new_events(object(), object()) is None


# -- illegal actions ------------------------------------------------------------------------------
def test_an_illegal_action_raises_in_the_raw_env_naming_action_and_agent() -> None:
    raw = BoardGameAEC("toy_tictactoe")
    raw.reset()
    raw.step(4)
    key = raw.game_state.key()
    with pytest.raises(ValueError, match=r"illegal action 4 for agent player_1"):
        raw.step(4)
    with pytest.raises(ValueError, match="player_1"):
        raw.step(None)
    assert raw.game_state.key() == key and raw.agent_selection == "player_1"


def test_the_env_factory_penalises_an_illegal_action() -> None:
    wrapped = env("toy_tictactoe")
    wrapped.reset()
    wrapped.step(4)
    wrapped.last()
    wrapped.step(4)  # illegal for player_1
    assert wrapped.rewards == {"player_0": 0, "player_1": -1.0}
    assert all(wrapped.terminations.values()) and all(wrapped.truncations.values())
    rewards = {}
    for agent in wrapped.agent_iter():
        rewards[agent] = wrapped.last()[1]
        wrapped.step(None)
    assert rewards == {"player_0": 0, "player_1": -1.0}


def test_the_env_factory_is_one_classic_wrapper_over_the_raw_env() -> None:
    wrapped = env("toy_tictactoe")
    assert type(wrapped) is ClassicWrapper and isinstance(wrapped, OrderEnforcingWrapper)
    assert str(wrapped) == "toy_tictactoe_v0"
    assert type(wrapped.env) is BoardGameAEC and wrapped.unwrapped is wrapped.env
    wrapped.reset()
    with pytest.raises(AssertionError, match="action is not in action space"):
        wrapped.step(99)
    with pytest.raises(AssertionError, match="action is not in action space"):
        wrapped.step(-1)
    assert wrapped.unwrapped.game_state.ply == 0


def test_the_classic_wrapper_guards_the_attributes_order_enforcing_guards_before_reset() -> None:
    wrapped = env("toy_tictactoe")
    for name in ("agents", "agent_selection", "rewards", "terminations", "truncations", "infos", "num_agents"):
        with pytest.raises(AttributeError, match=f"{name} cannot be accessed before reset"):
            getattr(wrapped, name)
    assert wrapped.possible_agents == ["player_0", "player_1"]
    with pytest.raises(AttributeError, match="private attribute"):
        wrapped._skip_agent_selection  # noqa: B018  (BaseWrapper's rule for private names)


def play_random_with_illegal_moves(aec: Any, seed: int) -> list[tuple[Any, ...]]:
    """A record of a game where, now and then, an illegal action is tried (it ends the game in a wrapped env)."""
    rng = np.random.default_rng(seed)
    aec.reset(seed=seed)
    record = []
    for agent in aec.agent_iter():
        obs, reward, terminated, truncated, info = aec.last()
        record.append(
            (agent, obs["observation"].tobytes(), obs["action_mask"].tobytes(), reward, terminated, truncated)
        )
        if terminated or truncated:
            action = None
        elif rng.random() < 0.02 and not obs["action_mask"].all():
            action = int(rng.choice(np.flatnonzero(obs["action_mask"] == 0)))
        else:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        aec.step(action)
        record.append((dict(aec.rewards), dict(aec._cumulative_rewards), dict(aec.terminations), dict(aec.truncations)))
    return record


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("case", CASES)
def test_the_classic_wrapper_plays_exactly_like_pettingzoos_three_wrappers(case: Case) -> None:
    reference = wrappers.OrderEnforcingWrapper(
        wrappers.AssertOutOfBoundsWrapper(wrappers.TerminateIllegalWrapper(case.make_raw(), -1))
    )
    for seed in range(3):
        assert play_random_with_illegal_moves(case.make_env(), seed) == play_random_with_illegal_moves(reference, seed)


# -- bad input and calls out of order (issue 15) ----------------------------------------------------
class Thing:
    """An object of no action type (with a fixed repr for stable test ids)."""

    def __repr__(self) -> str:
        return "Thing()"


NOT_ACTIONS = [4.7, 4.0, "4", True, np.bool_(True), np.array([4]), np.array(4.0), np.array(True), [4], Thing()]
"""Values that are not actions: every env rejects them with ``TypeError`` (a legal 4 is near each of them)."""
ACTIONS_OF_4 = [4, np.int64(4), np.uint8(4), np.int32(4), np.array(4), np.array(4, dtype=np.int16)]


@pytest.mark.parametrize("bad", NOT_ACTIONS, ids=repr)
def test_a_value_that_is_not_an_int_is_a_type_error_in_the_raw_env_and_changes_nothing(bad: Any) -> None:
    raw = BoardGameAEC("toy_tictactoe")
    raw.reset(seed=0)
    before = aec_books(raw)
    with pytest.raises(TypeError, match="^action must be an int, got"):
        raw.step(bad)
    assert aec_books(raw) == before
    raw.step(4)  # still playing
    assert raw.game_state.board[4] == 0


@pytest.mark.parametrize("bad", NOT_ACTIONS, ids=repr)
def test_a_value_that_is_not_an_int_is_a_type_error_in_the_wrapped_env_not_a_penalty(bad: Any) -> None:
    wrapped = env("toy_tictactoe")
    wrapped.reset(seed=0)
    before = aec_books(wrapped)
    with pytest.raises(TypeError, match="^action must be an int, got"):
        wrapped.step(bad)
    assert aec_books(wrapped) == before and not any(wrapped.terminations.values())
    wrapped.step(4)
    assert wrapped.unwrapped.game_state.board[4] == 0


@pytest.mark.parametrize("make", [BoardGameAEC, env], ids=["raw", "wrapped"])
@pytest.mark.parametrize("action", ACTIONS_OF_4, ids=repr)
def test_python_and_numpy_integers_and_0d_integer_arrays_are_actions(make: Any, action: Any) -> None:
    aec = make("toy_tictactoe")
    aec.reset(seed=0)
    aec.step(action)
    assert aec.unwrapped.game_state.board[4] == 0 and aec.agent_selection == "player_1"


def test_none_for_an_agent_still_playing_is_a_clear_value_error_in_both_envs() -> None:
    for aec in (BoardGameAEC("toy_tictactoe"), env("toy_tictactoe")):
        aec.reset(seed=0)
        with pytest.raises(ValueError, match="action None is only allowed for a finished agent, but player_0"):
            aec.step(None)


def test_calls_before_reset_raise_call_reset_in_the_raw_env() -> None:
    raw = BoardGameAEC("toy_tictactoe", render_mode="ansi")
    for call in (lambda: raw.step(0), raw.last, raw.agent_iter, raw.render, raw.state, lambda: raw.observe("player_0")):
        with pytest.raises(RuntimeError, match=r"call reset\(\)"):
            call()
    raw.reset(seed=0)
    raw.step(0)


def finished_toy_game(make: Any) -> Any:
    aec = make("toy_tictactoe")
    aec.reset(seed=0)
    play_tictactoe(aec, [0, 3, 1, 4, 2])  # x wins
    while aec.agents:
        aec.step(None)
    return aec


def test_step_and_last_after_every_agent_is_done_raise_a_clear_error_in_the_raw_env() -> None:
    raw = finished_toy_game(BoardGameAEC)
    for call in (lambda: raw.step(None), lambda: raw.step(0), raw.last):
        with pytest.raises(RuntimeError, match="every agent is done"):
            call()
    assert raw.observe("player_1")["action_mask"].sum() == 0  # observing any agent still works
    raw.reset(seed=1)
    assert raw.agents == ["player_0", "player_1"]


def test_the_wrapped_env_after_every_agent_is_done_warns_on_step_and_raises_on_last(caplog: Any) -> None:
    wrapped = finished_toy_game(env)
    wrapped.step(None)  # PettingZoo's OrderEnforcingWrapper logs a warning and does nothing
    assert "step() called after all agents are terminated or truncated" in caplog.text
    with pytest.raises(RuntimeError, match="every agent is done"):
        wrapped.last()
    with pytest.raises(AttributeError, match="before reset"):  # PettingZoo's error
        env("toy_tictactoe").last()


@pytest.mark.parametrize("make", [BoardGameAEC, env], ids=["raw", "wrapped"])
def test_reset_options_must_be_a_dict_and_unknown_keys_are_reported(make: Any) -> None:
    aec = make("toy_tictactoe")
    with pytest.raises(TypeError, match="options must be a dict"):
        aec.reset(options="x")
    with pytest.warns(UserWarning, match=r"unknown reset option\(s\) \['seat'\]; the options are: none; ignored"):
        aec.reset(seed=0, options={"seat": 1})
    aec.reset(seed=0, options={})


def test_the_parallel_env_rejects_non_int_actions_and_bad_options_and_rewards() -> None:
    for penalised in (True, False):
        par = parallel_env("toy_tictactoe") if penalised else BoardGameParallel("toy_tictactoe")
        par.reset(seed=0)
        mover = par.acting_agents()[0]
        for bad in NOT_ACTIONS:
            with pytest.raises(TypeError, match=f"^{mover}: action must be an int, got"):
                par.step({mover: bad})
        assert par.game_state.board.tolist() == [-1] * 9 and par.agents == ["player_0", "player_1"]
        par.step({mover: np.array(4)})
        assert par.game_state.board[4] == 0
    with pytest.raises(TypeError, match="options must be a dict"):
        par.reset(options="x")
    with pytest.warns(UserWarning, match="unknown reset option"):
        par.reset(options={"seat": 0})
    for reward in (float("nan"), float("inf"), True):
        with pytest.raises(ValueError, match="illegal_reward must be a number or None"):
            BoardGameParallel("toy_tictactoe", illegal_reward=reward)


# -- the render seat -------------------------------------------------------------------------------------
def splendor_with_a_hidden_reserve(**kwargs: Any) -> BoardGameAEC:
    """Splendor after player 0 reserved the top of the level-1 deck (face down)."""
    raw = BoardGameAEC("splendor", **kwargs)
    raw.reset(seed=0)
    state = raw.game_state
    if state.current_player != 0:
        raw.step(raw.game.parse_action(state, "take WUG"))
    raw.step(raw.game.parse_action(raw.game_state, "reserve deck L1"))
    return raw


@pytest.mark.skipif("splendor" not in list_games(), reason="needs a game with hidden information")
def test_render_is_a_spectators_view_unless_a_render_seat_is_given() -> None:
    spectator = splendor_with_a_hidden_reserve(render_mode="ansi")
    game, state = spectator.game, spectator.game_state
    card = game.card_to_str(int(state.reserved[0, 0]))
    assert spectator.render() == game.to_text(state) and card in spectator.render()
    for seat in (1, "player_1"):
        other = splendor_with_a_hidden_reserve(render_mode="ansi", render_seat=seat)
        assert other.render() == game.text_for(state, 1) and card not in other.render()
    owner = splendor_with_a_hidden_reserve(render_mode="ansi", render_seat=0)
    assert owner.render() == game.text_for(state, 0) and card in owner.render()
    if importlib.util.find_spec("PIL") is not None:  # rgb_array frames need the render extra
        picture = splendor_with_a_hidden_reserve(render_mode="rgb_array", render_seat=1)
        np.testing.assert_array_equal(picture.render(), game.render_rgb(state, 1))  # the seat's own picture
        assert not np.array_equal(picture.render(), game.render_rgb(state))  # the spectator sees the reserve
    assert type(pickle.loads(pickle.dumps(other))).__name__ == "BoardGameAEC"
    assert pickle.loads(pickle.dumps(other)).render_seat == 1


def test_a_render_seat_of_a_game_with_perfect_information_shows_the_game_picture() -> None:
    pytest.importorskip("PIL", reason="extra: render")
    raw = BoardGameAEC("toy_tictactoe", render_mode="rgb_array", render_seat=1)
    spectator = BoardGameAEC("toy_tictactoe", render_mode="rgb_array")
    for aec in (raw, spectator):
        aec.reset(seed=0)
        aec.step(4)
    np.testing.assert_array_equal(raw.render(), spectator.render())


@pytest.mark.parametrize("seat", [2, -1, "player_2", 1.0, True])
def test_a_bad_render_seat_is_an_error_naming_it(seat: Any) -> None:
    with pytest.raises(ValueError, match="render_seat"):
        BoardGameAEC("toy_tictactoe", render_seat=seat)


# -- seeding, copying, rendering ------------------------------------------------------------------
@pytest.mark.parametrize("case", CASES)
def test_same_seed_gives_the_same_game(case: Case) -> None:
    def trajectory(seed: int) -> list[bytes]:
        raw = case.make_raw()
        raw.reset(seed=seed)
        rng = np.random.default_rng(seed)
        keys = [raw.game_state.key()]
        for _ in range(12):
            if raw.game.is_terminal(raw.game_state):
                break
            raw.step(random_legal(rng, raw.observe(raw.agent_selection)["action_mask"]))
            keys.append(raw.game_state.key())
        return keys

    assert trajectory(5) == trajectory(5)


def test_reset_with_a_seed_reseeds_np_random() -> None:
    raw = BoardGameAEC("toy_countdown", num_players=4)
    firsts = set()
    for seed in range(12):
        raw.reset(seed=seed)
        firsts.add(raw.game_state.current_player)
        raw.reset(seed=seed)
        assert raw.np_random_seed == seed
    assert len(firsts) > 1
    raw.reset()  # unseeded resets work too


@pytest.mark.parametrize("case", CASES)
def test_pickle_rebuilds_and_deepcopy_keeps_the_game(case: Case) -> None:
    raw = case.make_raw(render_mode="ansi")
    raw.reset(seed=2)
    raw.step(int(np.flatnonzero(raw.observe(raw.agent_selection)["action_mask"])[0]))
    clone = copy.deepcopy(raw)
    assert clone.game_state is not raw.game_state and clone.game_state.key() == raw.game_state.key()
    assert clone.agent_selection == raw.agent_selection and clone.render() == raw.render()
    action = int(np.flatnonzero(clone.observe(clone.agent_selection)["action_mask"])[0])
    clone.step(action)
    assert clone.game_state.key() != raw.game_state.key()
    rebuilt = pickle.loads(pickle.dumps(raw))
    assert type(rebuilt) is type(raw) and rebuilt.game == raw.game and rebuilt.render_mode == "ansi"
    wrapped = pickle.loads(pickle.dumps(case.make_env()))
    wrapped.reset(seed=0)


def test_render_modes_return_text_pictures_and_nothing() -> None:
    for mode, check in [
        ("ansi", lambda r: r == "x..\n...\n..."),
        ("rgb_array", lambda r: r.dtype == np.uint8 and r.ndim == 3 and r.shape[2] == 3),
        ("human", lambda r: r is None),
    ]:
        if mode not in available_render_modes():
            continue  # needs the render extra
        raw = BoardGameAEC("toy_tictactoe", render_mode=mode)
        raw.metadata["render_fps"] = 1000
        assert raw._window is None  # nothing is opened before the first frame
        raw.reset()
        raw.step(0)
        assert check(raw.render())
        raw.close()
        raw.close()
        assert raw._window is None


def test_render_without_a_mode_warns_and_returns_none() -> None:
    raw = BoardGameAEC("toy_tictactoe")
    raw.reset()
    with pytest.warns(UserWarning, match="render"):
        assert raw.render() is None


# -- bad parameters ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"render_mode": "screen"}, ValueError, r"render_mode must be one of \[None, 'ansi', 'rgb_array', 'human'\]"),
        ({"observation_format": "flat"}, ValueError, r"observation_format must be one of \['array', 'dict'\]"),
        ({"first_player": 5}, ValueError, "first_player"),
        ({"board": 3}, TypeError, "unknown config parameter"),
        ({"preset": "nope"}, ValueError, "unknown preset"),
    ],
)
def test_bad_parameters_raise_naming_them(kwargs: dict[str, Any], error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        BoardGameAEC("toy_tictactoe", **kwargs)


def test_unknown_game_and_missing_game_name_raise() -> None:
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        env("chess")
    with pytest.raises(TypeError, match="game_name"):
        BoardGameAEC()


def test_using_the_raw_env_before_reset_raises() -> None:
    raw = BoardGameAEC("toy_tictactoe")
    with pytest.raises(RuntimeError, match="reset"):
        raw.observe("player_0")
    raw.reset()
    with pytest.raises(ValueError, match="unknown agent"):
        raw.observe("player_9")


# -- registration and the per-game module -------------------------------------------------------------
@pytest.mark.parametrize("name", list_games())
def test_pettingzoo_make_builds_every_registered_game(name: str) -> None:
    entry = game_entry(name)
    env_id = f"boardenvs/{name}-v{entry.game_class.version}"
    assert aec_env_id(name) == env_id
    made = pettingzoo.make("aec", env_id, render_mode="ansi")
    assert isinstance(made.unwrapped, BoardGameAEC) and made.unwrapped.game.spec.name == name
    made.reset(seed=0)
    assert isinstance(made.render(), str)
    assert type(pettingzoo.make("aec", f"boardenvs/{name}").unwrapped) is BoardGameAEC  # latest version


def test_pettingzoo_make_forwards_config() -> None:
    made = pettingzoo.make("aec", "boardenvs/toy_countdown-v0", num_players=4, observation_format="dict")
    assert made.possible_agents == ["player_0", "player_1", "player_2", "player_3"]
    assert made.unwrapped.observation_format == "dict"


def test_registering_again_is_harmless() -> None:
    register_envs("toy_tictactoe")
    boardenvs.envs.register_gymnasium_envs()
    boardenvs.envs.register_pettingzoo_envs()


def test_importing_boardenvs_imports_neither_torch_nor_pygame() -> None:
    code = "import sys, boardenvs; print(sorted(m for m in sys.modules if m.split('.')[0] in ('torch', 'pygame')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.skipif("quoridor" not in list_games(), reason="the quoridor game is not registered yet")
def test_quoridor_v0_is_importable_pettingzoo_style() -> None:
    from boardenvs import quoridor_v0

    assert issubclass(quoridor_v0.raw_env, BoardGameAEC)
    assert quoridor_v0.raw_env.metadata["name"] == "quoridor_v0"
    assert quoridor_v0.raw_env.__module__ == "boardenvs.quoridor_v0"
    wrapped = quoridor_v0.env(board_size=5, render_mode="ansi")
    assert wrapped.metadata["name"] == "quoridor_v0"
    assert type(wrapped.unwrapped) is quoridor_v0.raw_env
    api_test(wrapped, num_cycles=10)
    raw = quoridor_v0.raw_env(board_size=5)
    assert type(pickle.loads(pickle.dumps(raw))) is quoridor_v0.raw_env
    with pytest.raises(ValueError, match="game_name must be 'quoridor'"):
        quoridor_v0.raw_env("toy_tictactoe")
