"""The training env of :mod:`baselines.learners.rllib`: a game as an RLlib ``MultiAgentEnv`` whose every episode is
played at a *table* drawn from an :class:`OpponentMix`.

At each reset the env draws, with its own seeded generator, one opponent kind from the mix and a learner seat:

- ``"self"``: every seat is the trained shared policy (plain self-play; every move trains it);
- ``"snapshot"``: the learner seat is the trained policy, every other seat one frozen snapshot of it, drawn from
  ``snapshot_slots`` non-trained RLlib modules ``snapshot_0 .. snapshot_{k-1}`` (the trainer copies the learner's
  weights into them; see :mod:`baselines.learners.rllib.runs`);
- a scripted agent's ``make_agent`` name (``"random"``, ``"path"``, ...): the learner seat is the trained policy and
  the scripted agent plays every other seat *inside the env*, from its determinized view of the game state (an
  RLlib module would only get the observation tensor, from which a scripted agent cannot rebuild the state).

The env names each seat by who plays it this episode, so that RLlib's agent-to-module mapping is a pure function
of the agent id (:func:`module_for_agent`) and every random choice stays in the env's seeded generator: a seat of
the trained policy is ``player_<i>`` (module ``shared``), a seat of a frozen snapshot ``snapshot_<k>/player_<i>``
(module ``snapshot_<k>``), and scripted seats never reach RLlib. Only the agent to move gets an observation; at
the end of the game every RLlib agent of the episode gets its final observation and reward (zero-sum returns).

Observations are those of :class:`boardenvs.rllib.RLlibObservations` (``{"observations", "action_mask"}``, float32,
board planes channels-last). An illegal action ends the game with -1 for the offender (the penalising env); its
info says ``{"illegal_action": True}``, which the trainer counts.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from baselines.agent import Agent
from baselines.factory import make_agent
from baselines.learners.rllib.masked_ppo import SHARED_POLICY
from baselines.learners.runner.opponents import SELF, SNAPSHOT, OpponentMix
from boardenvs.rllib import make_aec_for_rllib

try:  # ray is optional: this module imports without it (doctest collection); the env itself needs it
    from ray.rllib.env.multi_agent_env import MultiAgentEnv
except ImportError:  # pragma: no cover - exercised only without ray
    MultiAgentEnv = object  # type: ignore[assignment,misc]

SNAPSHOT_PREFIX = "snapshot_"
"""Frozen snapshot modules are ``snapshot_<k>``."""
TABLE_STREAM = 7_202
"""Mixed into the reset seed for the table generator, so tables and game setups are independent streams."""


def snapshot_module_id(slot: int) -> str:
    """The module id of snapshot slot ``slot``: ``snapshot_<slot>``."""
    return f"{SNAPSHOT_PREFIX}{slot}"


def seat_agent_id(seat: int, slot: int | None = None) -> str:
    """The RLlib agent id of ``seat`` played by the trained policy (``slot=None``) or by snapshot ``slot``."""
    player = f"player_{seat}"
    return player if slot is None else f"{snapshot_module_id(slot)}/{player}"


def seat_of(agent_id: str) -> int:
    """The seat of an agent id made by :func:`seat_agent_id`."""
    return int(agent_id.rpartition("player_")[2])


def module_for_agent(agent_id: Any, episode: Any = None, **kwargs: Any) -> str:
    """RLlib's ``policy_mapping_fn``: ``snapshot_<k>/player_<i>`` -> ``snapshot_<k>``, anything else -> ``shared``."""
    module, slash, _ = str(agent_id).partition("/")
    return module if slash else SHARED_POLICY


def snapshot_modules(mix: OpponentMix) -> list[str]:
    """The frozen snapshot modules ``mix`` needs (none without ``"snapshot"``)."""
    return [snapshot_module_id(slot) for slot in range(mix.snapshot_slots)] if SNAPSHOT in mix.opponents else []


class TableEnv(MultiAgentEnv):
    """A game as an RLlib ``MultiAgentEnv``, each episode at a table drawn from an :class:`OpponentMix`.

    Args:
        env_config: ``{"game": name, "game_config": {...}, "opponents": [...], "snapshot_slots": k}`` (as
            :meth:`OpponentMix.env_config` makes it; RLlib passes it as an ``EnvContext``).

    Attributes:
        game: The game.
        table: The current episode's agent id per seat (``None`` for a scripted seat).
        opponent: The current episode's opponent kind.
    """

    def __init__(self, env_config: dict[str, Any]) -> None:
        super().__init__()
        self.game_name = str(env_config["game"])
        opponents = tuple(env_config.get("opponents", (SELF,)))
        self.mix = OpponentMix(opponents, snapshot_slots=int(env_config.get("snapshot_slots", 4)))
        self.aec = make_aec_for_rllib(self.game_name, **dict(env_config.get("game_config", {})))
        self.game = self.aec.unwrapped.game
        self.num_players = self.game.spec.num_players
        self.scripted: dict[str, Agent] = {name: make_agent(name, self.game_name) for name in self.mix.scripted}
        self._define_agents()
        self.rng = np.random.default_rng()
        self.table: list[str | None] = []
        self.opponent = SELF
        self._mask = np.zeros(self.game.spec.num_actions, dtype=np.float32)

    def _define_agents(self) -> None:
        seats = range(self.num_players)
        slots = range(self.mix.snapshot_slots) if SNAPSHOT in self.mix.opponents else []
        self.possible_agents = [seat_agent_id(seat) for seat in seats]
        self.possible_agents += [seat_agent_id(seat, slot) for slot in slots for seat in seats]
        self.agents = list(self.possible_agents[: self.num_players])
        space = self.aec.observation_space(self.aec.possible_agents[0])
        action_space = self.aec.action_space(self.aec.possible_agents[0])
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = dict.fromkeys(self.possible_agents, action_space)

    # -- the table --------------------------------------------------------------------------------
    def _draw_table(self) -> None:
        """Draw this episode's opponent kind, learner seat and (for snapshots) slot; reseed scripted agents."""
        self.opponent = str(self.mix.opponents[int(self.rng.integers(len(self.mix.opponents)))])
        learner = int(self.rng.integers(self.num_players))
        slot = int(self.rng.integers(self.mix.snapshot_slots)) if self.opponent == SNAPSHOT else None
        self.table = [self._seat_id(seat, learner, slot) for seat in range(self.num_players)]
        self.agents = [agent for agent in self.table if agent is not None]
        if self.opponent in self.scripted:
            reseed = getattr(self.scripted[self.opponent], "reseed", None)
            if callable(reseed):
                reseed(int(self.rng.integers(2**63)))

    def _seat_id(self, seat: int, learner: int, slot: int | None) -> str | None:
        if self.opponent == SELF or seat == learner:
            return seat_agent_id(seat)
        return seat_agent_id(seat, slot) if self.opponent == SNAPSHOT else None

    # -- the RLlib API ----------------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Start a game at a new table; ``seed`` reseeds the game and the table draws."""
        if seed is not None:
            self.rng = np.random.default_rng((seed, TABLE_STREAM))
        self.aec.reset(seed=seed, options=options)
        self._draw_table()
        self._play_scripted_seats()
        if self._game_over():
            raise RuntimeError(f"{self.game_name}: the game ended before the learner's first move")
        observations, _, _, _, infos = self._report()
        return observations, infos

    def step(
        self, action_dict: dict[str, Any]
    ) -> tuple[dict[str, Any], dict[str, float], dict[str, bool], dict[str, bool], dict[str, Any]]:
        """Play the one action of the agent to move, then the scripted seats until an RLlib agent moves or the
        game ends."""
        (agent, action), *others = action_dict.items()
        mover = self.table[self._seat_to_move()]
        if others or agent != mover:
            raise ValueError(f"expected one action, for {mover!r}; got actions for {sorted(action_dict)}")
        action = int(action)
        illegal = not (0 <= action < self._mask.size and self._mask[action])
        self.aec.step(action)
        self._play_scripted_seats()
        observations, rewards, terminateds, truncateds, infos = self._report()
        if illegal:
            infos.setdefault(agent, {})["illegal_action"] = True
        return observations, rewards, terminateds, truncateds, infos

    # -- helpers ----------------------------------------------------------------------------------
    def _seat_to_move(self) -> int:
        return self.aec.possible_agents.index(self.aec.agent_selection)

    def _game_over(self) -> bool:
        selected = self.aec.agent_selection
        return bool(self.aec.terminations[selected] or self.aec.truncations[selected])

    def _play_scripted_seats(self) -> None:
        """Let scripted agents move (from their determinized views) until an RLlib seat moves or the game ends."""
        while not self._game_over() and self.table[self._seat_to_move()] is None:
            seat = self._seat_to_move()
            state = self.aec.unwrapped.game_state
            view = self.game.determinize(state, seat, self.rng)
            self.aec.step(int(self.scripted[self.opponent].act(self.game, view, seat)))

    def _report(self) -> tuple[dict[str, Any], dict[str, float], dict[str, bool], dict[str, bool], dict[str, Any]]:
        """What RLlib gets now: the agent to move, or every RLlib agent of the episode at the game's end."""
        if not self._game_over():
            seat = self._seat_to_move()
            agents = {self.table[seat]: seat}
        else:
            agents = {agent: seat for seat, agent in enumerate(self.table) if agent is not None}
        observations, rewards, terminateds, truncateds = {}, {}, {}, {}
        for agent, seat in agents.items():
            name = self.aec.possible_agents[seat]
            observations[agent] = self.aec.observe(name)
            rewards[agent] = float(self.aec._cumulative_rewards[name])
            terminateds[agent] = bool(self.aec.terminations[name])
            truncateds[agent] = bool(self.aec.truncations[name])
        if not self._game_over():
            self._mask = observations[next(iter(agents))]["action_mask"]
        terminateds["__all__"] = self._game_over() and all(terminateds.values())
        truncateds["__all__"] = self._game_over() and not terminateds["__all__"]
        return observations, rewards, terminateds, truncateds, {agent: {} for agent in observations}
