"""PettingZoo AEC adapter: one class serves every registered game (docs/design.md §3).

It follows PettingZoo classic (connect_four, chess): agents ``player_0 .. player_{n-1}`` (agent ``player_i``
is the game's player ``i``), observations ``{"observation": float32, "action_mask": int8}`` with an all-zero
mask for agents that are not acting, cached spaces, zero-sum terminal rewards to every agent in the deciding
step, ``terminations`` at a natural end and ``truncations`` at the game's move cap.

Bad input gets a clear error and leaves the env unchanged: an action that is not an int (``bool``, a float, a
string, an array that is not a 0-d integer array; see :func:`boardenvs.core.as_action`) raises ``TypeError`` in the
raw and in the wrapped env alike (a type error is not an illegal move, so it is never penalised); in the raw env an
illegal action raises ``ValueError``, and ``step``/``last``/``observe``/``render`` before ``reset`` or ``step``/
``last`` after every agent is done raise ``RuntimeError``. ``render()`` shows the whole game to a spectator unless
``render_seat`` names the seat whose view to show. The raw env's ``ValueError`` for an illegal action carries the
game's reason (``Game.illegal_reason``).

The one-layer PettingZoo classic wrapper is :mod:`boardenvs.aec_classic`; the spaces and observations every adapter
shares are :mod:`boardenvs.observations`, their other conventions :mod:`boardenvs.conventions`.

Example:
    >>> import boardenvs
    >>> from boardenvs.aec import env
    >>> e = env("quoridor", board_size=5)  # doctest: +SKIP
    >>> e.reset(seed=0)  # doctest: +SKIP
    >>> for agent in e.agent_iter():  # doctest: +SKIP
    ...     obs, reward, terminated, truncated, info = e.last()
    ...     action = None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
    ...     e.step(action)
"""

from __future__ import annotations

import copy
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle, seeding
from pettingzoo import AECEnv

from boardenvs.aec_classic import ClassicWrapper
from boardenvs.conventions import (
    GAME_OVER_MESSAGE,
    agent_name,
    check_reset_options,
    illegal_action_message,
    illegal_reason,
    new_events,
    seat_of,
)
from boardenvs.core import Game, GameSpec, as_action
from boardenvs.observations import (
    LegalMaskCache,
    ObsDict,
    check_observation_format,
    check_observation_layout,
    encode_observation,
    in_layout,
    masked_observation_space,
    state_space,
)
from boardenvs.registry import make_game
from boardenvs.rendering import RENDER_FPS, HumanWindow, available_render_modes, check_render_mode, render_view

__all__ = ["BoardGameAEC", "ClassicWrapper", "agent_name", "env", "new_events", "raw_env", "wrap_env"]


class BoardGameAEC(AECEnv[str, ObsDict, int], EzPickle):
    """A registered game as a PettingZoo AEC environment.

    Args:
        game_name: A name from ``boardenvs.list_games()``; subclasses made for one game set ``default_game``.
        render_mode: ``None``, ``"ansi"`` (text), ``"rgb_array"`` (``uint8[H, W, 3]``) or ``"human"`` (pygame).
        render_seat: ``None`` (the default): ``render()`` is a spectator's view, every hidden card included, as in
            PettingZoo classic. A seat (``0..n-1`` or ``"player_<i>"``): ``render()`` shows only what that seat may
            see (see :func:`boardenvs.rendering.render_view`), to show a game to the human or agent in that seat.
        observation_format: ``"array"`` or ``"dict"`` (named fields, see ``GameSpec.observation_fields``).
        observation_layout: ``"channels_first"`` (``(C, H, W)``) or ``"channels_last"`` (``(H, W, C)``, PettingZoo
            classic's layout; board games only) for the observation and :meth:`state`.
        events: put the new events each agent may see in ``infos[agent]["events"]`` after every step (games that
            log events: Splendor, Gravwell). Off by default: a list whose length varies cannot be stored by
            replay buffers (Tianshou); search agents read events from the game state, not from ``infos``.
        preset: A named config preset of the game (``boardenvs.list_presets``).
        **config: Fields of the game's config, e.g. ``board_size=5``.

    Attributes:
        game: The ``Game`` object.
        state_space: The space of :meth:`state` (every seat's observation stacked; for centralized training).
        game_state: The current game state (``None`` before ``reset``); agents and tools may read it.
        np_random: The generator every setup random choice comes from (reseeded by ``reset(seed=...)``).

    Pickling rebuilds a fresh env from the constructor arguments (``EzPickle``, as PettingZoo classic does);
    ``copy.deepcopy`` copies the current game too.
    """

    metadata: dict[str, Any] = {
        "name": "",  # filled per instance with "<game>_v<version>" unless a subclass names itself
        "render_modes": available_render_modes(),
        "is_parallelizable": False,
        "render_fps": RENDER_FPS,
    }
    default_game: ClassVar[str | None] = None

    def __init__(
        self,
        game_name: str | None = None,
        *,
        render_mode: str | None = None,
        observation_format: str = "array",
        observation_layout: str = "channels_first",
        events: bool = False,
        preset: str | None = None,
        render_seat: int | str | None = None,
        **config: Any,
    ) -> None:
        game_name = self._resolve_game_name(game_name)
        check_render_mode(render_mode)
        check_observation_format(observation_format)
        if not isinstance(events, bool):
            raise ValueError(f"events must be True or False, got {events!r}")
        EzPickle.__init__(
            self,
            game_name,
            render_mode=render_mode,
            observation_format=observation_format,
            observation_layout=observation_layout,
            events=events,
            preset=preset,
            render_seat=render_seat,
            **config,
        )
        super().__init__()
        self.game: Game = make_game(game_name, preset=preset, **config)
        check_observation_layout(self.game.spec, observation_layout)
        self.render_seat = seat_of(render_seat, self.game.spec.num_players)
        self.game_state: Any = None
        self._masks = LegalMaskCache()
        self.render_mode = render_mode
        self.observation_format = observation_format
        self.observation_layout = observation_layout
        self.events = events
        self.state_space = state_space(self.game.spec, observation_layout)
        self.metadata = self._instance_metadata(self.game.spec)
        self._build_agents_and_spaces(self.game.spec)
        self.np_random, self.np_random_seed = seeding.np_random()
        self._window: HumanWindow | None = None

    def _resolve_game_name(self, game_name: str | None) -> str:
        default = type(self).default_game
        if game_name is None and default is None:
            raise TypeError("game_name is required (one of boardenvs.list_games())")
        if game_name is not None and default is not None and game_name != default:
            raise ValueError(f"game_name must be {default!r} for {type(self).__name__}, got {game_name!r}")
        return game_name if game_name is not None else default  # type: ignore[return-value]

    def _instance_metadata(self, spec: GameSpec) -> dict[str, Any]:
        metadata = dict(type(self).metadata)
        metadata["render_modes"] = list(metadata["render_modes"])
        if not metadata.get("name"):
            metadata["name"] = f"{spec.name}_v{spec.version}"
        return metadata

    def _build_agents_and_spaces(self, spec: GameSpec) -> None:
        self.possible_agents = [agent_name(p) for p in range(spec.num_players)]
        self._player_of = {agent: p for p, agent in enumerate(self.possible_agents)}
        self.observation_spaces = {
            agent: masked_observation_space(spec, self.observation_format, self.observation_layout)
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(spec.num_actions) for agent in self.possible_agents}

    # -- spaces ---------------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        """The (cached) observation space of ``agent``."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        """The (cached) ``Discrete(num_actions)`` action space of ``agent``."""
        return self.action_spaces[agent]

    # -- reset / step ---------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; ``seed`` reseeds ``np_random``. Seats are fixed: ``player_i`` is player ``i``.

        No options are defined: ``options`` must be ``None`` or a dict (``TypeError`` otherwise); keys in it are
        ignored with a warning (see :func:`check_reset_options`).
        """
        check_reset_options(options)
        if seed is not None:
            self.np_random, self.np_random_seed = seeding.np_random(seed)
        self.game_state = self.game.initial_state(self.np_random)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self._skip_agent_selection = None
        self.agent_selection = self.possible_agents[0]
        self._settle(self.possible_agents[-1])
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def step(self, action: Any) -> None:
        """Apply ``action`` for ``agent_selection``; a terminated/truncated agent must pass ``None``.

        A rejected call changes nothing.

        Raises:
            TypeError: ``action`` is not an int (:func:`boardenvs.core.as_action`); also in the wrapped env.
            ValueError: ``action`` is illegal for the acting agent (the ``env()`` factory penalises it instead),
                ``None`` for an agent still playing, or not ``None`` for a finished one.
            RuntimeError: before ``reset``, or after every agent is done.
        """
        self._require_live_agents()
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.play_legal(agent, self._legal_action(action, agent))

    def play_legal(self, agent: str, action: int) -> None:
        """Apply ``action``, already checked legal for the acting ``agent``, and settle the outcome (the step of a
        wrapper that checked the action against :meth:`legal_mask` itself)."""
        self._cumulative_rewards[agent] = 0.0
        before = self.game_state
        self.game_state = self.game.apply(before, action)
        if self.events:  # otherwise every agent's info stays the empty dict of reset (as in PettingZoo classic)
            self.infos = self._step_infos(before, self.game_state)
        if self._settle(agent):  # rewards are all 0 until the game ends: only then are they given out
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def end_with_illegal_action(self, offender: str, illegal_reward: float) -> None:
        """End the game because ``offender`` (the acting agent) chose an illegal action, as PettingZoo's
        ``TerminateIllegalWrapper`` does: ``illegal_reward`` to it, 0 to the others, every agent terminated and
        truncated, the finished agents stepped out first."""
        self._cumulative_rewards[offender] = 0.0
        self.terminations = dict.fromkeys(self.agents, True)
        self.truncations = dict.fromkeys(self.agents, True)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.rewards[offender] = float(illegal_reward)
        self._accumulate_rewards()
        self._deads_step_first()

    def _legal_action(self, action: Any, agent: str) -> int:
        if action is None:
            raise ValueError(f"action None is only allowed for a finished agent, but {agent} is still playing")
        action = as_action(action)
        mask = self.legal_mask()
        if not (0 <= action < mask.shape[0] and mask[action]):
            reason = illegal_reason(self.game, self.game_state, action)
            raise ValueError(illegal_action_message(action, agent, self.metadata["name"], reason))
        return action

    def _step_infos(self, before: Any, after: Any) -> dict[str, dict[str, Any]]:
        events = new_events(before, after)
        if events is None:
            return {agent: {} for agent in self.agents}
        return {
            agent: {"events": self.game.visible_events(after, events, self._player_of[agent])} for agent in self.agents
        }

    def _settle(self, acting_agent: str) -> bool:
        """Select the next agent from the state, or give out the outcome if the game is over (then True)."""
        state = self.game_state
        if not self.game.is_terminal(state):
            self.agent_selection = self.possible_agents[state.current_player]
            return False
        returns = self.game.returns(state)
        self.rewards = {agent: float(returns[self._player_of[agent]]) for agent in self.agents}
        flags = self.truncations if self.game.is_truncated(state) else self.terminations
        for agent in self.agents:
            flags[agent] = True
        following = (self._player_of[acting_agent] + 1) % len(self.possible_agents)
        self.agent_selection = self.possible_agents[following]
        return True

    def last(self, observe: bool = True) -> tuple[ObsDict | None, float, bool, bool, dict[str, Any]]:
        """PettingZoo's ``last``; ``RuntimeError`` before ``reset`` or after every agent is done."""
        if self.game_state is None or not self.agents:
            self._require_live_agents()
        agent = self.agent_selection
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def agent_iter(self, max_iter: int = 2**63) -> Any:
        """PettingZoo's ``agent_iter``; ``RuntimeError`` before ``reset``."""
        self._require_state()
        return super().agent_iter(max_iter)

    def _require_live_agents(self) -> None:
        self._require_state()
        if not self.agents:
            raise RuntimeError(GAME_OVER_MESSAGE)

    # -- observations ---------------------------------------------------------------------------
    def observe(self, agent: str) -> ObsDict:
        """What ``agent`` sees now (fresh arrays); the mask is all zeros unless ``agent`` is to act."""
        state = self.game_state
        player = self._player_of.get(agent)
        if state is None or player is None:
            self._require_state()
            self._player_index(agent)
        mask = self.legal_mask() if state.current_player == player else None
        return encode_observation(self.game, state, player, self.observation_format, mask, self.observation_layout)

    def state(self) -> np.ndarray:
        """The global state (``state_space``): every seat's observation stacked in seat order, hidden information
        included. For centralized training (a critic); never hand it to a player."""
        return in_layout(self.game.global_state(self._require_state()), self.observation_layout)

    def legal_mask(self) -> np.ndarray:
        """The legal actions of the current state (do not modify), computed once per state: ``last()``, ``step``
        and the wrapper share it."""
        return self._masks.mask(self.game, self.game_state)

    def _player_index(self, agent: str) -> int:
        try:
            return self._player_of[agent]
        except KeyError:
            raise ValueError(f"unknown agent {agent!r}; agents are {self.possible_agents}") from None

    def _require_state(self) -> Any:
        if self.game_state is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game_state

    # -- rendering ------------------------------------------------------------------------------
    def render(self) -> str | np.ndarray | None:
        """``ansi``: the game's text; ``rgb_array``: ``uint8[H, W, 3]``; ``human``: draws a window, returns None.

        A spectator's view, every hidden card shown (``Game.to_text``/``Game.render_rgb``), unless the env was
        made with ``render_seat``: then only what that seat may see (:func:`boardenvs.rendering.render_view`).
        ``rgb_array`` frames are the game's SVG picture rasterised, one size per config (multiples of 16).
        """
        if self.render_mode is None:
            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        state = self._require_state()
        if self.render_mode == "human" and self._window is None:
            self._window = HumanWindow(self.metadata["name"], self.metadata["render_fps"])
        return render_view(self.game, state, self.render_mode, self._window, self.render_seat)

    def close(self) -> None:
        """Close the window of ``human`` rendering, if any; safe to call repeatedly."""
        if self._window is not None:
            self._window.close()
            self._window = None

    def __deepcopy__(self, memo: dict[int, Any]) -> BoardGameAEC:
        clone = type(self).__new__(type(self))
        memo[id(self)] = clone
        memo[id(self.game)] = self.game  # games are immutable: share it
        for key, value in self.__dict__.items():
            clone.__dict__[key] = None if key == "_window" else copy.deepcopy(value, memo)
        return clone


raw_env = BoardGameAEC
"""PettingZoo-style alias: ``raw_env(game_name, **kwargs)`` is the unwrapped env."""


def wrap_env(raw: BoardGameAEC, illegal_reward: float = -1.0) -> ClassicWrapper:
    """Wrap a raw env like PettingZoo classic (``TerminateIllegal(-1) → AssertOutOfBounds → OrderEnforcing``), in
    one layer: :class:`ClassicWrapper`.

    An illegal action ends the game with ``illegal_reward`` for the offender and 0 for the others
    (``terminations`` and ``truncations`` both True) instead of raising; an action out of the action space fails
    the assertion; a value of the wrong type raises ``TypeError`` as in the raw env.
    """
    if not isinstance(raw, BoardGameAEC):
        raise TypeError(f"raw must be a BoardGameAEC (boardenvs.aec.raw_env), got {type(raw).__name__}")
    return ClassicWrapper(raw, illegal_reward)


def env(game_name: str | None = None, **kwargs: Any) -> AECEnv:
    """The wrapped AEC env of ``game_name`` (the entry point of ``pettingzoo.make("aec", "boardenvs/<name>-v<n>")``).

    Args:
        game_name: A name from ``boardenvs.list_games()``.
        **kwargs: ``render_mode``, ``render_seat``, ``observation_format``, ``preset`` and game config fields.
    """
    return wrap_env(BoardGameAEC(game_name, **kwargs))
