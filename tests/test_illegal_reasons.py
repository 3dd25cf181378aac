"""The game's own reason for an illegal action reaches the users of every adapter (issue 31: one rule, one place).

``Game.illegal_reason`` explains an illegal action in the game's notation; the raw AEC and Parallel envs put it in
their ``ValueError``, the single-agent env in ``info["illegal_reason"]``, the penalising Parallel env in the offender's
info. Out-of-range actions say so.
"""

from __future__ import annotations

import numpy as np
import pytest

import boardenvs
from boardenvs.aec import BoardGameAEC
from boardenvs.parallel import BoardGameParallel
from boardenvs.single_agent import SingleAgentEnv

GAMES = ("quoridor", "splendor", "gravwell", "battle_sheep", "node_conquest")
SMALL = {"quoridor": {"board_size": 5}}


def first_illegal_with_reason(game: boardenvs.core.Game, state: object) -> tuple[int, str]:
    mask = game.legal_action_mask(state)
    for action in np.flatnonzero(~mask):
        reason = game.illegal_reason(state, int(action))
        if reason:
            return int(action), reason
    raise AssertionError(f"{game.spec.name}: no illegal action with a reason in the first position")


@pytest.mark.parametrize("game_name", GAMES)
def test_the_raw_aec_env_raises_the_games_reason(game_name: str) -> None:
    env = BoardGameAEC(game_name, **SMALL.get(game_name, {}))
    env.reset(seed=3)
    action, reason = first_illegal_with_reason(env.game, env.game_state)
    with pytest.raises(ValueError, match="illegal action") as error:
        env.step(action)
    assert reason in str(error.value) and env.agent_selection in str(error.value)


@pytest.mark.parametrize("game_name", GAMES)
def test_the_single_agent_env_puts_the_reason_in_info(game_name: str) -> None:
    env = SingleAgentEnv(game_name, opponent="random", **SMALL.get(game_name, {}))
    env.reset(seed=3)
    action, reason = first_illegal_with_reason(env.game, env.game_state)
    _, reward, terminated, _, info = env.step(action)
    assert terminated and reward == env.illegal_action_penalty
    assert info["illegal_action"] is True and info["illegal_reason"] == reason


def test_the_replacing_single_agent_env_puts_the_reason_in_info_and_plays_on() -> None:
    env = SingleAgentEnv("quoridor", opponent="random", illegal_action="replace", board_size=5)
    env.reset(seed=3)
    action, reason = first_illegal_with_reason(env.game, env.game_state)
    _, _, terminated, _, info = env.step(action)
    assert not terminated and info["illegal_reason"] == reason


@pytest.mark.parametrize("game_name", GAMES)
def test_the_parallel_env_raises_or_reports_the_games_reason(game_name: str) -> None:
    raw = BoardGameParallel(game_name, **SMALL.get(game_name, {}))
    raw.reset(seed=3)
    agent = raw.acting_agents()[0]
    action, reason = first_illegal_with_reason(raw.game, raw.game_state)
    actions = {a: int(np.flatnonzero(raw.observe(a)["action_mask"])[0]) for a in raw.acting_agents()}
    with pytest.raises(ValueError, match="illegal action") as error:
        raw.step({**actions, agent: action})
    assert reason in str(error.value)
    penalising = BoardGameParallel(game_name, illegal_reward=-1.0, **SMALL.get(game_name, {}))
    penalising.reset(seed=3)
    *_, infos = penalising.step({**actions, agent: action})
    assert infos[agent]["illegal_action"] is True and infos[agent]["illegal_reason"] == reason


def test_an_out_of_range_action_is_named_as_such() -> None:
    env = BoardGameAEC("quoridor", board_size=5)
    env.reset(seed=0)
    with pytest.raises(ValueError, match=r"out of range \[0, "):
        env.step(env.game.spec.num_actions)
