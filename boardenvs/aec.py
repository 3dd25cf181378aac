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
``render_seat`` names the seat whose view to show.

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
import warnings
from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle, seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers.order_enforcing import AECOrderEnforcingIterable, AECOrderEnforcingIterator

from boardenvs.core import Game, GameSpec, as_action, check_choice, check_int
from boardenvs.registry import make_game
from boardenvs.rendering import RENDER_FPS, HumanWindow, available_render_modes, check_render_mode, render_view

OBSERVATION_FORMATS: tuple[str, ...] = ("array", "dict")
"""``"array"``: one float32 array; ``"dict"``: a ``spaces.Dict`` of the named fields of ``spec.observation_fields``."""
OBSERVATION_LAYOUTS: tuple[str, ...] = ("channels_first", "channels_last")
"""Board planes as ``(C, H, W)`` (the games' own, torch's) or ``(H, W, C)`` (PettingZoo classic's, RLlib's CNNs)."""
ILLEGAL_ACTION_MODES: tuple[str, ...] = ("end", "replace")
"""What the single-agent and Parallel envs do with an illegal action (``illegal_action=``): ``"end"`` the episode
with the penalty (PettingZoo classic's rule), or ``"replace"`` it by a uniformly random legal action drawn from the
env's ``np_random``, add the penalty to the step's reward, set ``info["illegal_action"]`` and play on (so tools that
never pass a mask, such as rl-zoo3, SB3's ``evaluate_policy`` or SuperSuit, keep a meaningful game)."""

ObsDict = dict[str, Any]

GAME_OVER_MESSAGE = "every agent is done (the game is over): call reset() to start a new game"
"""The ``RuntimeError`` of ``step``/``last`` once ``agents`` is empty."""


# -- spaces and observations (shared with the single-agent env) ---------------------------------
def agent_name(player: int) -> str:
    """The PettingZoo name of game player ``player``: ``"player_<i>"``."""
    return f"player_{player}"


def check_observation_format(observation_format: str) -> None:
    """Raise ``ValueError`` naming ``observation_format`` unless it is one of :data:`OBSERVATION_FORMATS`."""
    check_choice("observation_format", observation_format, OBSERVATION_FORMATS)


def check_illegal_action(illegal_action: str) -> None:
    """Raise ``ValueError`` naming ``illegal_action`` unless it is one of :data:`ILLEGAL_ACTION_MODES`."""
    check_choice("illegal_action", illegal_action, ILLEGAL_ACTION_MODES)


def random_legal_action(mask: np.ndarray, rng: np.random.Generator) -> int:
    """A uniformly random legal action of ``mask`` (non-empty), drawn from ``rng``: what replaces an illegal one."""
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(len(legal))])


def check_observation_layout(spec: GameSpec, observation_layout: str) -> None:
    """Raise ``ValueError`` naming ``observation_layout`` unless it is one of :data:`OBSERVATION_LAYOUTS` and fits
    the game (``"channels_last"`` needs board planes)."""
    check_choice("observation_layout", observation_layout, OBSERVATION_LAYOUTS)
    if observation_layout == "channels_last" and len(spec.observation_shape) != 3:
        raise ValueError(
            f"observation_layout='channels_last' needs board planes (C, H, W), but {spec.name}'s observation is a "
            f"vector of shape {spec.observation_shape}; use observation_layout='channels_first'"
        )


def in_layout(array: np.ndarray, observation_layout: str) -> np.ndarray:
    """``array`` (channels first) in ``observation_layout``: ``(C, H, W)`` as is, or a fresh ``(H, W, C)``."""
    if observation_layout == "channels_last":
        return np.ascontiguousarray(np.moveaxis(array, 0, -1))
    return array


def observation_bounds(spec: GameSpec) -> tuple[np.ndarray, np.ndarray]:
    """Per-element ``(low, high)`` float32 arrays of the observation, from the bounds of its named fields."""
    low = np.full(spec.observation_shape, -np.inf, dtype=np.float32)
    high = np.full(spec.observation_shape, np.inf, dtype=np.float32)
    for f in spec.observation_fields:
        low[f.start : f.stop] = f.low
        high[f.start : f.stop] = f.high
    return low, high


def observation_space(
    spec: GameSpec, observation_format: str = "array", observation_layout: str = "channels_first"
) -> spaces.Space:
    """The space of the game's observation: one float32 ``Box``, or a ``Dict`` of one ``Box`` per named field."""
    check_observation_format(observation_format)
    check_observation_layout(spec, observation_layout)
    if observation_format == "array":
        low, high = observation_bounds(spec)
        return spaces.Box(in_layout(low, observation_layout), in_layout(high, observation_layout), dtype=np.float32)
    rest = tuple(spec.observation_shape[1:])
    boxes = {}
    for f in spec.observation_fields:
        shape = (*rest, f.size) if observation_layout == "channels_last" else (f.size, *rest)
        boxes[f.name] = spaces.Box(f.low, f.high, shape, dtype=np.float32)
    return spaces.Dict(boxes)


def masked_observation_space(
    spec: GameSpec, observation_format: str = "array", observation_layout: str = "channels_first"
) -> spaces.Dict:
    """``Dict(observation=..., action_mask=Box(0, 1, (num_actions,), int8))``."""
    return spaces.Dict(
        {
            "observation": observation_space(spec, observation_format, observation_layout),
            "action_mask": spaces.Box(0, 1, (spec.num_actions,), dtype=np.int8),
        }
    )


def state_space(spec: GameSpec, observation_layout: str = "channels_first") -> spaces.Box:
    """The space of ``Game.global_state``: the observation's bounds once per seat, stacked on the first axis."""
    check_observation_layout(spec, observation_layout)
    low, high = (np.concatenate([bound] * spec.num_players, axis=0) for bound in observation_bounds(spec))
    return spaces.Box(in_layout(low, observation_layout), in_layout(high, observation_layout), dtype=np.float32)


def encode_observation(
    game: Game,
    state: Any,
    player: int,
    observation_format: str,
    mask: np.ndarray | None,
    observation_layout: str = "channels_first",
) -> ObsDict:
    """The masked observation of ``player``: fresh arrays, ``mask=None`` gives an all-zero action mask.

    Uses ``game.observe(state, player)``, which shows only what ``player`` may see and returns a fresh array.
    """
    observation = game.observe(state, player)
    if type(observation) is not np.ndarray or observation.dtype != np.float32:
        observation = np.asarray(observation, dtype=np.float32)
    action_mask = np.zeros(game.spec.num_actions, dtype=np.int8) if mask is None else np.asarray(mask).astype(np.int8)
    if observation_format == "array" and observation_layout == "channels_first":  # the default: as built
        return {"observation": observation, "action_mask": action_mask}
    if observation_format == "dict":
        fields = game.spec.split_observation(observation)
        return {
            "observation": {name: in_layout(part, observation_layout) for name, part in fields.items()},
            "action_mask": action_mask,
        }
    return {"observation": in_layout(observation, observation_layout), "action_mask": action_mask}


def new_events(before: Any, after: Any) -> list[Any] | None:
    """The events ``after`` recorded beyond those of ``before``; ``None`` if states have no ``events``.

    ``state.events`` is read as a log that grows along the game; if ``before``'s events are not a prefix of
    ``after``'s (a game that keeps only the latest events), all of ``after``'s events are new.
    """
    events = getattr(after, "events", None)
    if events is None:
        return None
    previous = list(getattr(before, "events", None) or ())
    events = list(events)
    if events[: len(previous)] == previous:
        return events[len(previous) :]
    return events


def check_reset_options(options: Any, allowed: tuple[str, ...] = (), unknown: str = "warn") -> dict[str, Any]:
    """``options`` of ``reset`` as a dict: ``None`` is ``{}``, anything but a mapping is a ``TypeError``.

    Keys not in ``allowed`` raise ``ValueError`` naming them (``unknown="error"``, the single-agent env) or are
    ignored with a warning (``unknown="warn"``, the PettingZoo envs: PettingZoo's own ``api_test`` and
    ``parallel_api_test`` call ``reset(options={"options": 1})`` and require it to work).
    """
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise TypeError(f"options must be a dict (or None), got {type(options).__name__}")
    extra = sorted(str(key) for key in options if key not in allowed)
    if extra:
        message = f"unknown reset option(s) {extra}; the options are: {list(allowed) or 'none'}"
        if unknown == "error":
            raise ValueError(message)
        warnings.warn(f"{message}; ignored", UserWarning, stacklevel=3)
    return dict(options)


def seat_of(render_seat: Any, num_players: int) -> int | None:
    """The seat ``render_seat`` names: ``None``, a seat ``0..num_players-1`` or its agent name ``"player_<i>"``."""
    if render_seat is None:
        return None
    if isinstance(render_seat, str):
        names = [agent_name(p) for p in range(num_players)]
        if render_seat not in names:
            allowed = f"None, a seat 0..{num_players - 1} or one of {names}"
            raise ValueError(f"render_seat must be {allowed}, got {render_seat!r}")
        return names.index(render_seat)
    check_int("render_seat", render_seat, 0, num_players - 1)
    return int(render_seat)


class LegalMaskCache:
    """The legal-action mask of the latest state asked about, computed once per state object.

    Both adapters read the mask several times per state (observation, legality check, ``action_masks``);
    states are never mutated, so the object identity of the state is a safe key. Callers must not modify
    the returned array.
    """

    def __init__(self) -> None:
        self._state: Any = None
        self._mask: np.ndarray | None = None

    def mask(self, game: Game, state: Any) -> np.ndarray:
        """``game.legal_action_mask(state)``, reused while ``state`` is the same object."""
        if self._mask is None or state is not self._state:
            self._mask = game.legal_action_mask(state)
            self._state = state
        return self._mask


# -- the environment ----------------------------------------------------------------------------
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
        self._play(agent, self._legal_action(action, agent))

    def _play(self, agent: str, action: int) -> None:
        """Apply ``action``, already checked legal for the acting ``agent``, and settle the outcome."""
        self._cumulative_rewards[agent] = 0.0
        before = self.game_state
        self.game_state = self.game.apply(before, action)
        if self.events:  # otherwise every agent's info stays the empty dict of reset (as in PettingZoo classic)
            self.infos = self._step_infos(before, self.game_state)
        if self._settle(agent):  # rewards are all 0 until the game ends: only then are they given out
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _end_with_illegal_action(self, offender: str, illegal_reward: float) -> None:
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
        mask = self._legal_mask()
        if not (0 <= action < mask.shape[0] and mask[action]):
            raise ValueError(
                f"illegal action {action} for agent {agent} in {self.metadata['name']}; "
                "legal actions are those with observation['action_mask'] == 1"
            )
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
        mask = self._legal_mask() if state.current_player == player else None
        return encode_observation(self.game, state, player, self.observation_format, mask, self.observation_layout)

    def state(self) -> np.ndarray:
        """The global state (``state_space``): every seat's observation stacked in seat order, hidden information
        included. For centralized training (a critic); never hand it to a player."""
        return in_layout(self.game.global_state(self._require_state()), self.observation_layout)

    def _legal_mask(self) -> np.ndarray:
        """The legal actions of the current state, computed once per state (``last()`` and ``step`` share it)."""
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


def _forwarded(name: str, before_reset_error: bool) -> property:
    """A read-only attribute of :class:`ClassicWrapper` read straight from the raw env (``BaseWrapper``'s
    ``__getattr__`` would be called for it on every access); like ``OrderEnforcingWrapper``, an
    ``AttributeError`` before ``reset`` for the attributes it guards."""

    def read(self: ClassicWrapper) -> Any:
        if before_reset_error and not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self._raw, name)

    return property(read, doc=f"The raw env's ``{name}``.")


class ClassicWrapper(wrappers.OrderEnforcingWrapper):
    """PettingZoo classic's wrappers ``TerminateIllegal(-1) → AssertOutOfBounds → OrderEnforcing`` in one layer.

    The behaviour is theirs, call for call: an illegal action ends the game with ``illegal_reward`` for the
    offender and 0 for the others (``terminations`` and ``truncations`` both True, PettingZoo's illegal-move
    warning logged); an int outside the action space fails the assertion ``"action is not in action space"``;
    calls before ``reset`` raise PettingZoo's errors and a ``step`` after the game logs its warning. On top,
    a value that is not an action raises the ``TypeError`` of :func:`boardenvs.core.as_action` (not a penalty),
    ``None`` from an agent still playing the raw env's ``ValueError``, and ``last()`` after every agent is done
    ``RuntimeError``.

    Why one layer: stacked, the three wrappers cost 1.6-2.7x the raw env per step (measured in
    ``docs/results/env_speed.md``), almost all of it ``BaseWrapper.__getattr__`` walking down the stack for
    ``agent_selection``, ``terminations``, ... and ``TerminateIllegalWrapper`` building an observation just to
    read its mask. Here the hot attributes are read from the raw env directly and the legality check uses the
    raw env's mask of the current state (computed once per state). It stays an ``OrderEnforcingWrapper``, so
    ``agent_iter`` and PettingZoo's checks that look for one keep working.
    """

    agents = _forwarded("agents", True)
    agent_selection = _forwarded("agent_selection", True)
    rewards = _forwarded("rewards", True)
    terminations = _forwarded("terminations", True)
    truncations = _forwarded("truncations", True)
    infos = _forwarded("infos", True)
    num_agents = _forwarded("num_agents", True)
    _cumulative_rewards = _forwarded("_cumulative_rewards", False)
    possible_agents = _forwarded("possible_agents", False)
    observation_spaces = _forwarded("observation_spaces", False)
    action_spaces = _forwarded("action_spaces", False)

    def __init__(self, raw: BoardGameAEC, illegal_reward: float = -1.0) -> None:
        if not isinstance(raw, BoardGameAEC):
            raise TypeError(f"raw must be a BoardGameAEC (boardenvs.aec.raw_env), got {type(raw).__name__}")
        super().__init__(raw)
        self._raw = raw
        self._illegal_reward = float(illegal_reward)
        self._num_actions = raw.game.spec.num_actions

    def step(self, action: Any) -> None:
        """Step the raw env, or end the game on an illegal action (see the class docstring)."""
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        raw = self._raw
        self._has_updated = True
        if not raw.agents:
            EnvLogger.warn_step_after_terminated_truncated()
            return
        agent = raw.agent_selection
        finished = raw.terminations[agent] or raw.truncations[agent]
        if action is None:
            if not finished:
                raise ValueError(f"action None is only allowed for a finished agent, but {agent} is still playing")
            raw.step(None)
            return
        if type(action) is not int:
            action = as_action(action)
        assert 0 <= action < self._num_actions, "action is not in action space"
        if finished:
            raw.step(action)  # the raw env's "only valid action is None" error
        elif raw._legal_mask()[action]:
            raw._play(agent, action)
        else:
            EnvLogger.warn_on_illegal_move()
            raw._end_with_illegal_action(agent, self._illegal_reward)

    def agent_iter(self, max_iter: int = 2**63) -> Iterable[str]:
        """PettingZoo's order-enforcing ``agent_iter`` (an error before ``reset``; ``step`` or ``reset`` required
        between two agents), reading the raw env directly."""
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _ClassicIterable(self, max_iter)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The raw env's ``last``: PettingZoo's ``AttributeError`` before ``reset``, ``RuntimeError`` after the game."""
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self._raw.last(observe)

    def __str__(self) -> str:
        return str(self.env)  # as PettingZoo's OrderEnforcingWrapper: the env's name


class _ClassicIterable(AECOrderEnforcingIterable):
    def __iter__(self) -> _ClassicIterator:
        return _ClassicIterator(self.env, self.max_iter)


class _ClassicIterator(AECOrderEnforcingIterator):
    """``AECOrderEnforcingIterator`` with its checks, reading ``agents`` and ``agent_selection`` from the raw env."""

    def __next__(self) -> str:
        raw = self.env._raw
        if not raw.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert self.env._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        self.env._has_updated = False
        return raw.agent_selection


def wrap_env(raw: BoardGameAEC, illegal_reward: float = -1.0) -> ClassicWrapper:
    """Wrap a raw env like PettingZoo classic (``TerminateIllegal(-1) → AssertOutOfBounds → OrderEnforcing``), in
    one layer: :class:`ClassicWrapper`.

    An illegal action ends the game with ``illegal_reward`` for the offender and 0 for the others
    (``terminations`` and ``truncations`` both True) instead of raising; an action out of the action space fails
    the assertion; a value of the wrong type raises ``TypeError`` as in the raw env.
    """
    return ClassicWrapper(raw, illegal_reward)


def env(game_name: str | None = None, **kwargs: Any) -> AECEnv:
    """The wrapped AEC env of ``game_name`` (the entry point of ``pettingzoo.make("aec", "boardenvs/<name>-v<n>")``).

    Args:
        game_name: A name from ``boardenvs.list_games()``.
        **kwargs: ``render_mode``, ``render_seat``, ``observation_format``, ``preset`` and game config fields.
    """
    return wrap_env(BoardGameAEC(game_name, **kwargs))
