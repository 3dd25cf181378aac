"""Fuzz tests of every env (issue 15): seeded random valid and invalid calls, bounded in time.

Each test drives one env kind (raw AEC, wrapped AEC, Parallel, single-agent) of one game config with a seeded
stream of calls: legal moves (as Python ints, numpy integer scalars or 0-d integer arrays), illegal action ids,
values of the wrong type, ``None`` where it is not allowed, calls out of order (before ``reset``, after the game),
``reset`` in the middle of a game (sometimes with bad options), ``observe`` of any agent, ``last``, ``state`` and
``render``. After every call it checks that

- a rejected call raised the documented error (``TypeError`` for a value that is not an action, ``ValueError``
  for an illegal one in a raw env, ``RuntimeError`` out of order, ...) and left the env exactly as it was;
- an accepted call kept the books (agents, rewards, terminations, masks) consistent with the game state;
- nothing hidden reaches a seat: what the env shows a seat (its observation, the learner's ``render``) is what
  ``game.observe``/``game.text_for`` give for that seat, and those are the same for the true state and for
  ``game.determinize(state, seat, rng)``, a state in which everything the seat cannot see is redrawn.

Each test stops after ``FUZZ_SECONDS`` (env ``BOARDENVS_FUZZ_SECONDS``, default 0.4) or ``FUZZ_CALLS`` calls
(``BOARDENVS_FUZZ_CALLS``, default 2000), whichever comes first, so the calls made are a seeded prefix of the same
stream on every machine. The end of the file checks that every numeric field of every game's config has a range.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import time
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

from boardenvs.aec import BoardGameAEC, env
from boardenvs.parallel import BoardGameParallel
from boardenvs.registry import game_entry, list_games, list_presets, make_game
from boardenvs.single_agent import SingleAgentEnv
from tests.env_cases import aec_books

FUZZ_SECONDS = float(os.environ.get("BOARDENVS_FUZZ_SECONDS", "0.4"))
FUZZ_CALLS = int(os.environ.get("BOARDENVS_FUZZ_CALLS", "2000"))

FUZZ_CONFIGS: dict[str, list[dict[str, Any]]] = {
    "battle_sheep": [
        {"preset": "imperfect"},
        {"num_players": 2, "board_size": 6, "field_size": 20, "sheep_per_player": 8},
    ],
    "gravwell": [{"preset": "2p"}, {"preset": "4p"}],
    "node_conquest": [{"preset": "small"}, {"preset": "4p"}],
    "quoridor": [{"board_size": 5}, {"board_size": 5, "num_players": 4}],
    "splendor": [{}, {"preset": "rinascimento_3p"}],
    "toy_countdown": [{"num_players": 3}],
    "toy_tictactoe": [{}],
}
"""Two configs per game (one or two of them with hidden information where the game has any); a game not listed
here is fuzzed with its default config and its first preset."""

pytestmark = [
    pytest.mark.filterwarnings("ignore::UserWarning"),  # "unknown reset option" and PettingZoo's illegal-move notes
]


def fuzz_cases() -> list[Any]:
    cases = []
    for name in list_games():
        presets = list_presets(name)
        configs = FUZZ_CONFIGS.get(name, [{}] + [{"preset": p} for p in presets[:1]])
        for index, config in enumerate(configs):
            label = ",".join(f"{k}={v}" for k, v in config.items()) or "default"
            cases.append(pytest.param(name, config, index, id=f"{name}[{label}]"))
    return cases


CASES = fuzz_cases()


# -- the fuzzing machinery ----------------------------------------------------------------------------
def budget(seconds: float = FUZZ_SECONDS, calls: int = FUZZ_CALLS) -> Iterator[int]:
    """Call numbers until ``calls`` are made or ``seconds`` have passed."""
    deadline = time.perf_counter() + seconds
    for call in range(calls):
        if time.perf_counter() > deadline:
            return
        yield call


def pick(rng: np.random.Generator, weights: dict[str, float]) -> str:
    """One key of ``weights``, drawn with probability proportional to its weight."""
    names = list(weights)
    p = np.array([weights[n] for n in names], dtype=float)
    return names[int(rng.choice(len(names), p=p / p.sum()))]


def as_some_int(rng: np.random.Generator, action: int) -> Any:
    """``action`` as one of the accepted integer forms: int, numpy scalar or 0-d integer array."""
    forms: list[Callable[[int], Any]] = [int, np.int64, np.int32, np.uint32, np.array]
    if action < 2**15:
        forms += [np.int16, lambda a: np.array(a, dtype=np.int16)]
    return forms[int(rng.integers(len(forms)))](action)


def not_an_action(rng: np.random.Generator, near: int) -> Any:
    """A value that is not an action, made to look like the action ``near``."""
    values = [
        near + 0.7,
        float(near),
        str(near),
        True,
        False,
        np.bool_(True),
        np.array([near]),
        np.array(float(near)),
        np.array([[near]]),
        [near],
        (near,),
        {"action": near},
        b"1",
        complex(near, 0),
    ]
    return values[int(rng.integers(len(values)))]


def illegal_action(rng: np.random.Generator, mask: np.ndarray) -> int:
    """An int that is not a legal action: an illegal id in range if there is one, else one out of range."""
    illegal = np.flatnonzero(~mask.astype(bool))
    if len(illegal) and rng.random() < 0.7:
        return int(rng.choice(illegal))
    return int(rng.choice([-1, -(2**40), len(mask), len(mask) + 7, 2**62]))


def random_legal(rng: np.random.Generator, mask: np.ndarray) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


def assert_rejected(call: Callable[[], Any], error: type, books: Callable[[], Any], match: str | None = None) -> None:
    """``call`` raises ``error`` and leaves ``books()`` unchanged."""
    before = books()
    with pytest.raises(error, match=match):
        call()
    assert books() == before, f"a rejected call ({error.__name__}) changed the env"


def assert_no_leak(game: Any, state: Any, seat: int, rng: np.random.Generator) -> None:
    """What ``seat`` sees of ``state`` is the same as what it sees of a state redrawn for it."""
    view = game.determinize(state, seat, rng)
    np.testing.assert_array_equal(game.observe(view, seat), game.observe(state, seat))
    assert game.text_for(view, seat) == game.text_for(state, seat)


def seat_of(agent: str) -> int:
    return int(agent.split("_")[1])


# -- raw and wrapped AEC ------------------------------------------------------------------------------------
class AECFuzz:
    """One seeded stream of calls to a raw (``wrapped=False``) or wrapped AEC env."""

    WEIGHTS = {
        "legal": 12.0,
        "illegal": 1.0,
        "not_an_action": 1.5,
        "none_while_playing": 0.5,
        "observe": 2.0,
        "last": 1.0,
        "state": 0.3,
        "render": 0.5,
        "reset": 0.1,
        "bad_options": 0.2,
    }

    def __init__(self, name: str, config: dict[str, Any], wrapped: bool, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.wrapped = wrapped
        seat = int(self.rng.integers(make_game(name, **config).spec.num_players))
        kwargs: dict[str, Any] = {"render_mode": "ansi", "render_seat": seat, "events": not wrapped, **config}
        self.aec = env(name, **kwargs) if wrapped else BoardGameAEC(name, **kwargs)
        self.raw: BoardGameAEC = self.aec.unwrapped
        self.game = self.raw.game

    def books(self) -> tuple[Any, ...]:
        return aec_books(self.aec)

    def run(self) -> int:
        self.before_reset()
        self.aec.reset(seed=int(self.rng.integers(2**31)))
        calls = 0
        for _ in budget():
            calls += 1
            if not self.raw.agents:
                self.after_the_game()
                continue
            getattr(self, pick(self.rng, self.WEIGHTS))()
        return calls

    # -- calls --------------------------------------------------------------------------------------
    def before_reset(self) -> None:
        if self.wrapped:
            with pytest.raises(Exception, match="before reset|reset"):  # PettingZoo's own errors
                self.aec.step(0)
            return
        for call in (lambda: self.aec.step(0), self.aec.last, self.aec.render, self.aec.state):
            with pytest.raises(RuntimeError, match=r"call reset\(\)"):
                call()

    def after_the_game(self) -> None:
        with pytest.raises(RuntimeError, match="every agent is done"):
            self.aec.last()
        if not self.wrapped:
            with pytest.raises(RuntimeError, match="every agent is done"):
                self.aec.step(None)
        self.observe()
        self.aec.reset(seed=int(self.rng.integers(2**31)))

    def acting(self) -> tuple[str, bool, np.ndarray]:
        agent = self.aec.agent_selection
        done = self.aec.terminations[agent] or self.aec.truncations[agent]
        return agent, done, self.aec.observe(agent)["action_mask"]

    def legal(self) -> None:
        agent, done, mask = self.acting()
        if done:
            self.aec.step(None)
            return
        assert mask.any(), "the acting agent was shown an all-zero mask"
        self.aec.step(as_some_int(self.rng, random_legal(self.rng, mask)))
        self.check_books()

    def illegal(self) -> None:
        agent, done, mask = self.acting()
        if done:
            assert_rejected(lambda: self.aec.step(0), ValueError, self.books, "only valid action is None")
            return
        action = illegal_action(self.rng, mask)
        if not self.wrapped:
            assert_rejected(lambda: self.aec.step(action), ValueError, self.books, f"illegal action {action}")
        elif not 0 <= action < len(mask):
            assert_rejected(lambda: self.aec.step(action), AssertionError, self.books)
        else:
            self.aec.step(action)  # TerminateIllegalWrapper: -1 for the offender, the game over for all
            assert self.aec.rewards[agent] == -1.0 and all(self.aec.terminations.values())

    def not_an_action(self) -> None:
        _, done, mask = self.acting()
        near = random_legal(self.rng, mask) if mask.any() else 0
        bad = not_an_action(self.rng, near)
        if done and not self.wrapped:
            assert_rejected(lambda: self.aec.step(bad), ValueError, self.books, "only valid action is None")
        else:
            assert_rejected(lambda: self.aec.step(bad), TypeError, self.books, "^action must be an int, got")

    def none_while_playing(self) -> None:
        agent, done, _ = self.acting()
        if not done:
            assert_rejected(lambda: self.aec.step(None), ValueError, self.books, f"finished agent, but {agent}")

    def observe(self) -> None:
        agent = self.raw.possible_agents[int(self.rng.integers(len(self.raw.possible_agents)))]
        seat, state = seat_of(agent), self.raw.game_state
        obs = self.aec.observe(agent)
        assert self.raw.observation_space(agent).contains(obs)
        if self.raw.observation_format == "array":
            np.testing.assert_array_equal(obs["observation"], self.game.observe(state, seat))
        if state.current_player != seat:
            assert not obs["action_mask"].any()
        assert_no_leak(self.game, state, seat, self.rng)

    def last(self) -> None:
        obs, reward, terminated, truncated, info = self.aec.last()
        agent = self.aec.agent_selection
        assert reward == self.raw._cumulative_rewards[agent] and isinstance(info, dict)
        if not (terminated or truncated):
            assert obs["action_mask"].any()

    def state(self) -> None:
        assert self.aec.state().shape == self.raw.state_space.shape

    def render(self) -> None:
        seat, state = self.raw.render_seat, self.raw.game_state
        text = self.aec.render()
        assert (
            text
            == self.game.text_for(state, seat)
            == self.game.text_for(self.game.determinize(state, seat, self.rng), seat)
        )

    def reset(self) -> None:
        self.aec.reset(seed=int(self.rng.integers(2**31)))
        assert not any(self.aec.terminations.values()) and not any(self.aec.truncations.values())

    def bad_options(self) -> None:
        assert_rejected(lambda: self.aec.reset(options="x"), TypeError, self.books, "options must be a dict")

    def check_books(self) -> None:
        raw, state = self.raw, self.raw.game_state
        if not self.game.is_terminal(state):
            assert raw.agent_selection == f"player_{state.current_player}"
            assert all(reward == 0.0 for reward in raw.rewards.values())
            return
        returns = self.game.returns(state)
        assert raw.rewards == {agent: float(returns[seat_of(agent)]) for agent in raw.agents}
        assert all(raw.terminations[a] or raw.truncations[a] for a in raw.agents)


@pytest.mark.parametrize(("name", "config", "index"), CASES)
@pytest.mark.parametrize("wrapped", [False, True], ids=["raw", "wrapped"])
def test_fuzz_aec(name: str, config: dict[str, Any], index: int, wrapped: bool) -> None:
    logging.getLogger("pettingzoo").setLevel(logging.ERROR)
    calls = AECFuzz(name, config, wrapped, seed=100 + index).run()
    assert calls > 0


# -- Parallel ---------------------------------------------------------------------------------------------
class ParallelFuzz:
    """One seeded stream of calls to a Parallel env (``illegal_reward=None`` raises, a number penalises)."""

    WEIGHTS = {
        "legal": 12.0,
        "illegal": 0.7,
        "not_an_action": 1.5,
        "missing": 0.5,
        "stranger": 0.3,
        "not_a_dict": 0.3,
        "observe": 2.0,
        "state": 0.3,
        "reset": 0.1,
        "bad_options": 0.2,
    }

    def __init__(self, name: str, config: dict[str, Any], illegal_reward: float | None, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.par = BoardGameParallel(name, illegal_reward=illegal_reward, **config)
        self.game = self.par.game
        self.observations: dict[str, Any] = {}

    def books(self) -> tuple[Any, ...]:
        return self.par.game_state.key(), list(self.par.agents)

    def run(self) -> int:
        with pytest.raises(RuntimeError, match="call reset"):
            self.par.step({})
        self.reset()
        calls = 0
        for _ in budget():
            calls += 1
            if not self.par.agents:
                assert_rejected(lambda: self.par.step({}), RuntimeError, self.books, "call reset")
                self.reset()
                continue
            getattr(self, pick(self.rng, self.WEIGHTS))()
        return calls

    def chosen(self) -> dict[str, Any]:
        """A legal action for every acting agent, and sometimes junk for a waiting one (it is ignored)."""
        acting = self.par.acting_agents()
        actions: dict[str, Any] = {}
        for agent in acting:
            actions[agent] = as_some_int(self.rng, random_legal(self.rng, self.observations[agent]["action_mask"]))
        waiting = [agent for agent in self.par.agents if agent not in acting]
        if waiting and self.rng.random() < 0.3:
            actions[waiting[0]] = not_an_action(self.rng, 0)
        return actions

    def legal(self) -> None:
        observations, rewards, terminations, truncations, _ = self.par.step(self.chosen())
        self.observations = observations
        for agent, obs in observations.items():
            acting = agent in self.par.acting_agents()
            assert obs["action_mask"].any() == acting or not self.par.agents
        if not self.par.agents:
            returns = self.game.returns(self.par.game_state)
            assert rewards == {agent: float(returns[seat_of(agent)]) for agent in rewards}
            assert all(terminations[a] or truncations[a] for a in terminations)

    def illegal(self) -> None:
        actions = self.chosen()
        agent = self.par.acting_agents()[0]
        actions[agent] = illegal_action(self.rng, self.observations[agent]["action_mask"])
        if self.par.illegal_reward is None:
            assert_rejected(lambda: self.par.step(actions), ValueError, self.books, f"illegal action {actions[agent]}")
            return
        _, rewards, terminations, _, infos = self.par.step(actions)
        assert rewards[agent] == self.par.illegal_reward and infos[agent]["illegal_action"] and not self.par.agents

    def not_an_action(self) -> None:
        actions = self.chosen()
        agent = self.par.acting_agents()[-1]
        actions[agent] = not_an_action(self.rng, 0)
        assert_rejected(lambda: self.par.step(actions), TypeError, self.books, f"^{agent}: action must be an int")

    def missing(self) -> None:
        actions = self.chosen()
        del actions[self.par.acting_agents()[0]]
        assert_rejected(lambda: self.par.step(actions), ValueError, self.books, "no action for")

    def stranger(self) -> None:
        actions = {**self.chosen(), "player_9": 0}
        assert_rejected(lambda: self.par.step(actions), ValueError, self.books, "not playing")

    def not_a_dict(self) -> None:
        assert_rejected(lambda: self.par.step([0]), ValueError, self.books, "actions must be a dict")

    def observe(self) -> None:
        agent = self.par.possible_agents[int(self.rng.integers(len(self.par.possible_agents)))]
        seat, state = seat_of(agent), self.par.game_state
        np.testing.assert_array_equal(self.par.observe(agent)["observation"], self.game.observe(state, seat))
        assert_no_leak(self.game, state, seat, self.rng)

    def state(self) -> None:
        assert self.par.state().shape == self.par.state_space.shape

    def reset(self) -> None:
        self.observations, infos = self.par.reset(seed=int(self.rng.integers(2**31)))
        assert set(self.observations) == set(infos) == set(self.par.possible_agents)

    def bad_options(self) -> None:
        assert_rejected(lambda: self.par.reset(options=["x"]), TypeError, self.books, "options must be a dict")


@pytest.mark.parametrize(("name", "config", "index"), CASES)
def test_fuzz_parallel(name: str, config: dict[str, Any], index: int) -> None:
    illegal_reward = None if index % 2 == 0 else -1.0
    assert ParallelFuzz(name, config, illegal_reward, seed=200 + index).run() > 0


# -- single agent -----------------------------------------------------------------------------------------
class SingleAgentFuzz:
    """One seeded stream of calls to a single-agent env against random opponents, the learner's seat random."""

    WEIGHTS = {
        "legal": 12.0,
        "illegal": 0.5,
        "not_an_action": 1.5,
        "render": 0.7,
        "reset": 0.1,
        "bad_options": 0.3,
    }

    def __init__(self, name: str, config: dict[str, Any], seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.env = SingleAgentEnv(name, opponent="random", render_mode="ansi", **config)
        self.game = self.env.game
        self.done = True

    def books(self) -> tuple[Any, ...]:
        return self.env.game_state.key(), self.env.learner_seat, self.done, self.env.action_masks().tolist()

    def run(self) -> int:
        with pytest.raises(RuntimeError, match="call reset"):
            self.env.step(0)
        self.reset()
        calls = 0
        for _ in budget():
            calls += 1
            if self.done:
                assert_rejected(lambda: self.env.step(0), RuntimeError, self.books, "call reset")
                self.reset()
                continue
            getattr(self, pick(self.rng, self.WEIGHTS))()
        return calls

    def check(self, obs: Any, info: dict[str, Any]) -> None:
        seat, state = self.env.learner_seat, self.env.game_state
        assert self.env.observation_space.contains(obs) and info["learner_seat"] == seat
        np.testing.assert_array_equal(obs["observation"], self.game.observe(state, seat))
        np.testing.assert_array_equal(obs["action_mask"].astype(bool), self.env.action_masks())
        assert self.done or state.current_player == seat
        assert_no_leak(self.game, state, seat, self.rng)

    def legal(self) -> None:
        action = as_some_int(self.rng, random_legal(self.rng, self.env.action_masks()))
        obs, reward, terminated, truncated, info = self.env.step(action)
        self.done = terminated or truncated
        assert type(reward) is float and (reward == 0.0 or self.done)
        self.check(obs, info)

    def illegal(self) -> None:
        action = illegal_action(self.rng, self.env.action_masks())
        obs, reward, terminated, truncated, info = self.env.step(action)
        assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
        self.done = True

    def not_an_action(self) -> None:
        bad = not_an_action(self.rng, random_legal(self.rng, self.env.action_masks()))
        assert_rejected(lambda: self.env.step(bad), TypeError, self.books, "^action must be an int, got")

    def render(self) -> None:
        seat, state = self.env.learner_seat, self.env.game_state
        assert self.env.render() == self.game.text_for(state, seat)

    def reset(self) -> None:
        seat = None if self.rng.random() < 0.5 else int(self.rng.integers(self.game.spec.num_players))
        obs, info = self.env.reset(seed=int(self.rng.integers(2**31)), options={"learner_seat": seat})
        self.done = False
        self.check(obs, info)

    def bad_options(self) -> None:
        options = [("x", TypeError), ({"seat": 0}, ValueError), ({"learner_seat": 99}, ValueError)]
        value, error = options[int(self.rng.integers(len(options)))]
        assert_rejected(lambda: self.env.reset(options=value), error, self.books)


@pytest.mark.parametrize(("name", "config", "index"), CASES)
def test_fuzz_single_agent(name: str, config: dict[str, Any], index: int) -> None:
    assert SingleAgentFuzz(name, config, seed=300 + index).run() > 0


# -- config bounds ----------------------------------------------------------------------------------------
def int_fields() -> list[Any]:
    """``(game, field)`` for every int field (optional or not, not bool or tuple) of every shipped game's config."""
    cases = []
    for name in list_games():
        game_class = game_entry(name).game_class
        if not game_class.__module__.startswith("boardenvs.games."):
            continue  # the test suite's toy games
        for f in dataclasses.fields(game_class.config_class):
            kind = str(f.type)
            if "int" in kind and "tuple" not in kind and "bool" not in kind:
                cases.append(pytest.param(name, f.name, id=f"{name}.{f.name}"))
    return cases


BAD_INTS = {"2^63": 2**63, "2^63-3": 2**63 - 3, "-2^63": -(2**63), "10^12": 10**12, "-1": -1}


@pytest.mark.parametrize(("name", "field"), int_fields())
@pytest.mark.parametrize("value", list(BAD_INTS.values()), ids=list(BAD_INTS))
def test_every_int_config_field_has_a_range_checked_at_construction(name: str, field: str, value: int) -> None:
    with pytest.raises(ValueError, match=field):
        game_entry(name).game_class(**{field: value})


@pytest.mark.parametrize("name", list_games())
@pytest.mark.parametrize("text", [None, 5, b"c4", ["c4"]], ids=["None", "int", "bytes", "list"])
def test_parse_action_of_something_that_is_not_a_str_is_a_type_error(name: str, text: Any) -> None:
    game = make_game(name)
    state = game.initial_state(np.random.default_rng(0))
    with pytest.raises(TypeError, match="^a move must be written as a str, got"):
        game.parse_action(state, text)
