"""Single-agent Gymnasium adapter: the learner plays one seat, opponents act inside ``reset``/``step``.

One class serves every registered game (``docs/design.md`` §3). Observations are
``{"observation": float32 (or a Dict of named fields), "action_mask": int8}`` as in the AEC env, and
:meth:`SingleAgentEnv.action_masks` gives the bool mask sb3-contrib's ``MaskablePPO`` looks for. The reward is
the learner's return at the end of the game (0 before), including a loss caused by an opponent's reply.

An illegal action (an int that is not a legal action id, out of range included) ends the episode with
``illegal_action_penalty``, or with ``illegal_action="replace"`` is replaced by a uniformly random legal action
(the penalty added to the step's reward, ``info["illegal_action"] = True``, the game goes on): the fair setting for
tools that never pass a mask (rl-zoo3, SB3's ``evaluate_policy``, SuperSuit). A value that is not an action at all
(``bool``, a float, a string, ``None``, an array that is not a 0-d integer array) raises the ``TypeError`` of
:func:`boardenvs.core.as_action` and changes nothing.

Once the episode is over, the mask (observation, info and :meth:`SingleAgentEnv.action_masks`) is all ones, as
pgx does: no move is left, and a masked sampler (a ``Categorical`` over masked logits) fed the final observation by a
Gymnasium vector env's next-step autoreset gets a valid distribution instead of NaNs; that action is discarded.
``render()`` shows the game as the learner's seat sees it, never the opponents' hidden cards.

Example:
    >>> import gymnasium, boardenvs
    >>> env = gymnasium.make("boardenvs/Quoridor-v0", opponent="random", board_size=5)  # doctest: +SKIP
    >>> obs, info = env.reset(seed=0)  # doctest: +SKIP
    >>> action = env.action_space.sample(obs["action_mask"])  # doctest: +SKIP
    >>> obs, reward, terminated, truncated, info = env.step(action)  # doctest: +SKIP

Opponents (``opponent=``, or a list with one per opponent seat, given in increasing seat order):

- ``"random"``: uniform over the legal actions, drawn from the env's ``np_random``;
- ``"heuristic"``: the game's default scripted agent, or any other opponent name registered for the game
  (``boardenvs.registry.register_opponent``; this project's agent package registers its scripted agents,
  e.g. ``"path"``);
- an agent object with ``act(game, view, player) -> int``; it gets ``game.determinize(state, player, rng)``;
- a callable ``f(obs, action_mask, np_random) -> int`` with the opponent's own observation dict and bool mask.

Agents (built from names or given) that have ``reseed(seed: int)`` are reseeded from ``np_random`` at every
``reset(seed=...)``, so seeded episodes are reproducible; agents that have ``start_episode(rng)`` are told at
every ``reset`` (an opponent pool uses it to draw this episode's opponent from the env's generator).
"""

from __future__ import annotations

from typing import Any, Protocol

import gymnasium
import numpy as np
from gymnasium import spaces

from boardenvs.conventions import check_illegal_action, check_reset_options, illegal_reason, random_legal_action
from boardenvs.core import as_action, check_finite, check_int
from boardenvs.observations import (
    LegalMaskCache,
    ObsDict,
    check_observation_format,
    check_observation_layout,
    encode_observation,
    masked_observation_space,
)
from boardenvs.registry import make_game, make_opponent_agent
from boardenvs.rendering import (
    RENDER_FPS,
    HumanWindow,
    available_render_modes,
    check_render_mode,
    render_view,
    require_render_modules,
)

MAX_NEW_GAMES: int = 100
"""How many new games ``reset`` starts at most when a game ends before the learner's first move."""

RESET_OPTIONS: tuple[str, ...] = ("learner_seat",)
"""The keys ``reset(options=...)`` understands; any other key is a ``ValueError``."""

_OPPONENT_KINDS = (
    "'random', 'heuristic' or another registered opponent name, an agent with act(game, view, player) -> int, "
    "a callable f(obs, action_mask, np_random) -> int, or a list of these (one per opponent seat)"
)


# -- opponents ----------------------------------------------------------------------------------
class Opponent(Protocol):
    """How the env asks one opponent seat for its move."""

    def choose(self, env: SingleAgentEnv, player: int) -> int:
        """The action of ``player`` in ``env.game_state``."""
        ...


class RandomOpponent:
    """Uniform over the legal actions, drawn from the env's ``np_random``.

    ``legal[np_random.integers(len(legal))]`` draws exactly what ``np_random.choice(legal)`` draws (the same
    stream), at a seventh of the cost.
    """

    def choose(self, env: SingleAgentEnv, player: int) -> int:
        del player
        legal = np.flatnonzero(env.legal_mask())
        return int(legal[env.np_random.integers(len(legal))])


class AgentOpponent:
    """An agent with ``act(game, view, player)``; it sees ``game.determinize(state, player, np_random)``."""

    def __init__(self, agent: Any) -> None:
        self.agent = agent

    def choose(self, env: SingleAgentEnv, player: int) -> int:
        view = env.game.determinize(env.game_state, player, env.np_random)
        return int(self.agent.act(env.game, view, player))


class CallableOpponent:
    """A function ``f(obs, action_mask, np_random) -> int`` of the opponent's own observation and bool mask."""

    def __init__(self, function: Any) -> None:
        self.agent = function

    def choose(self, env: SingleAgentEnv, player: int) -> int:
        obs = env.observation_of(player)
        return int(self.agent(obs, obs["action_mask"].astype(bool), env.np_random))


def make_opponent(spec: Any, game_name: str) -> Opponent:
    """The :class:`Opponent` described by one ``opponent=`` value (see the module docstring)."""
    if isinstance(spec, str):
        if spec == "random":
            return RandomOpponent()
        return AgentOpponent(make_opponent_agent(game_name, spec))
    if isinstance(spec, type):
        raise TypeError(f"opponent must be an instance, not the class {spec.__name__}; allowed: {_OPPONENT_KINDS}")
    if callable(getattr(spec, "act", None)):
        return AgentOpponent(spec)
    if callable(spec):
        return CallableOpponent(spec)
    raise TypeError(f"opponent must be one of {_OPPONENT_KINDS}; got {type(spec).__name__}")


def make_opponents(opponent: Any, game_name: str, num_opponents: int) -> list[Opponent]:
    """One :class:`Opponent` per opponent seat (names build a separate agent per seat)."""
    if isinstance(opponent, (list, tuple)):
        if len(opponent) != num_opponents:
            raise ValueError(
                f"opponent list must have {num_opponents} entries (one per opponent seat), got {len(opponent)}"
            )
        return [make_opponent(spec, game_name) for spec in opponent]
    return [make_opponent(opponent, game_name) for _ in range(num_opponents)]


# -- the environment ----------------------------------------------------------------------------
class SingleAgentEnv(gymnasium.Env[ObsDict, np.int64]):
    """A registered game from one seat's point of view, against opponents that move inside the env.

    Args:
        game_name: A name from ``boardenvs.list_games()``.
        opponent: See the module docstring; a list gives one opponent per opponent seat, in increasing seat order.
        learner_seat: The learner's player id, or ``None`` for a random seat each episode (from ``np_random``).
        observation_format: ``"array"`` or ``"dict"`` (named fields of ``spec.observation_fields``).
        observation_layout: ``"channels_first"`` (``(C, H, W)``) or ``"channels_last"`` (``(H, W, C)``; board
            games only).
        illegal_action_penalty: The reward of an illegal action (a finite number).
        illegal_action: ``"end"``: an illegal action ends the episode with the penalty. ``"replace"``: it is replaced
            by a uniformly random legal action from ``np_random``, the penalty is added to the step's reward and
            ``info["illegal_action"]`` is True; the final step's info counts them (``info["illegal_actions"]``).
        render_mode: ``None``, ``"ansi"``, ``"rgb_array"`` or ``"human"``; every mode shows the learner seat's view
            (see :meth:`render`).
        preset: A named config preset of the game.
        **config: Fields of the game's config, e.g. ``board_size=5``.

    Attributes:
        game: The ``Game`` object.
        game_state: The current (true) game state.
        learner_seat: The learner's seat in the current episode (``None`` before ``reset``).
    """

    metadata: dict[str, Any] = {"render_modes": available_render_modes(), "render_fps": RENDER_FPS}

    def __init__(
        self,
        game_name: str,
        opponent: Any = "random",
        learner_seat: int | None = None,
        observation_format: str = "array",
        illegal_action_penalty: float = -1.0,
        render_mode: str | None = None,
        preset: str | None = None,
        observation_layout: str = "channels_first",
        illegal_action: str = "end",
        **config: Any,
    ) -> None:
        check_render_mode(render_mode)
        if render_mode is not None:  # now, not at the first frame: Gymnasium's checker asserts there first
            require_render_modules(render_mode)
        check_illegal_action(illegal_action)
        check_observation_format(observation_format)
        self.game = make_game(game_name, preset=preset, **config)
        spec = self.game.spec
        check_observation_layout(spec, observation_layout)
        self.observation_layout = observation_layout
        if learner_seat is not None:
            check_int("learner_seat", learner_seat, 0, spec.num_players - 1)
        self.game_name = game_name
        self.fixed_seat = None if learner_seat is None else int(learner_seat)
        self.observation_format = observation_format
        self.illegal_action_penalty = check_finite("illegal_action_penalty", illegal_action_penalty)
        self.illegal_action = illegal_action
        self._illegal_actions = 0
        self.render_mode = render_mode
        self.metadata = {**type(self).metadata, "render_modes": available_render_modes()}
        self.observation_space = masked_observation_space(spec, observation_format, observation_layout)
        self.action_space = spaces.Discrete(spec.num_actions)
        self.opponents = make_opponents(opponent, game_name, spec.num_players - 1)
        self.game_state: Any = None
        self._masks = LegalMaskCache()
        self.learner_seat: int | None = None
        self._seat_opponent: dict[int, Opponent] = {}
        self._done = True
        self._window: HumanWindow | None = None

    # -- reset / step ---------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[ObsDict, dict]:
        """Start a game and let opponents move until the learner's turn.

        Args:
            seed: Reseeds ``np_random`` (and the opponents that have ``reseed``).
            options: ``None`` or a dict; ``{"learner_seat": int}`` overrides the seat for this episode.

        Returns:
            The learner's observation and ``{"action_mask": bool array, "learner_seat": int}``.

        Raises:
            TypeError: ``options`` is not a dict.
            ValueError: ``options`` has a key other than those of :data:`RESET_OPTIONS`, or a bad ``learner_seat``
                (checked before anything changes).
        """
        seat_option = check_reset_options(options, RESET_OPTIONS, unknown="error").get("learner_seat", self.fixed_seat)
        if seat_option is not None:
            check_int("learner_seat", seat_option, 0, self.game.spec.num_players - 1)
        super().reset(seed=seed)
        if seed is not None:
            self._reseed_opponents()
        self._start_opponent_episodes()
        for _ in range(MAX_NEW_GAMES):
            self._start_game(self._choose_seat(seat_option))
            if not self.game.is_terminal(self.game_state):
                break
        else:
            raise RuntimeError(f"every one of {MAX_NEW_GAMES} new games ended before the learner's first move")
        self._done = False
        self._illegal_actions = 0
        if self.render_mode == "human":
            self.render()
        return self._observation_and_info()

    def step(self, action: Any) -> tuple[ObsDict, float, bool, bool, dict]:
        """Play the learner's ``action``, then the opponents' moves until the learner's turn or the end.

        An illegal action does not raise (checkers sample unmasked actions): it ends the episode with
        ``illegal_action_penalty`` and ``info["illegal_action"] = True``, or with ``illegal_action="replace"`` a
        random legal action is played in its place and the penalty added to the reward; either way
        ``info["illegal_reason"]`` says why the action was illegal (the game's reason).

        Raises:
            TypeError: ``action`` is not an int (:func:`boardenvs.core.as_action`); nothing changes.
            RuntimeError: the episode is over, or ``reset`` was never called.
        """
        if self.game_state is None or self._done:
            raise RuntimeError("the episode is over (or never started): call reset()")
        action = as_action(action)
        replaced = not self._is_legal(action)
        reason = illegal_reason(self.game, self.game_state, action) if replaced else ""
        if replaced and self.illegal_action == "end":
            return self._illegal_step(reason)
        if replaced:
            action = random_legal_action(self.legal_mask(), self.np_random)
            self._illegal_actions += 1
        self.game_state = self.game.apply(self.game_state, action)
        self._play_opponents()
        terminal = self.game.is_terminal(self.game_state)
        truncated = terminal and self.game.is_truncated(self.game_state)
        reward = float(self.game.returns(self.game_state)[self.learner_seat]) if terminal else 0.0
        self._done = terminal
        if self.render_mode == "human":
            self.render()
        observation, info = self._observation_and_info()
        if replaced:
            reward += self.illegal_action_penalty
            info["illegal_action"] = True
            info["illegal_reason"] = reason
        if terminal and self.illegal_action == "replace":
            info["illegal_actions"] = self._illegal_actions
        return observation, reward, bool(terminal and not truncated), bool(truncated), info

    def action_masks(self) -> np.ndarray:
        """``bool[num_actions]``: the learner's legal actions now; all True once the episode is over (see the module
        docstring: a masked sampler fed the final observation must not fail) and all False before ``reset``."""
        state = self.game_state
        if state is None:
            return np.zeros(self.game.spec.num_actions, dtype=bool)
        if self._done or state.current_player != self.learner_seat:
            return np.ones(self.game.spec.num_actions, dtype=bool)
        return np.array(self.legal_mask(), dtype=bool)

    def legal_mask(self) -> np.ndarray:
        """The legal actions of the player to move now, computed once per state (do not modify it)."""
        return self._masks.mask(self.game, self.game_state)

    def observation_of(self, player: int, mask: np.ndarray | None = None) -> ObsDict:
        """The observation dict of ``player`` now, with ``mask``, or by default its legal actions if it is to act
        (used for callable opponents)."""
        state = self.game_state
        if mask is None and state.current_player == player:
            mask = self.legal_mask()
        return encode_observation(self.game, state, player, self.observation_format, mask, self.observation_layout)

    # -- internals ------------------------------------------------------------------------------
    def _choose_seat(self, seat_option: Any) -> int:
        num_players = self.game.spec.num_players
        if seat_option is None:
            return int(self.np_random.integers(num_players))
        check_int("learner_seat", seat_option, 0, num_players - 1)
        return int(seat_option)

    def _start_game(self, seat: int) -> None:
        self.learner_seat = seat
        self.game_state = self.game.initial_state(self.np_random)
        others = [p for p in range(self.game.spec.num_players) if p != seat]
        self._seat_opponent = dict(zip(others, self.opponents))
        self._play_opponents()

    def _opponent_agents_with(self, method: str) -> list[Any]:
        """The distinct opponent agent objects that have a callable ``method``."""
        agents: dict[int, Any] = {}
        for opponent in self.opponents:
            agent = getattr(opponent, "agent", None)
            if agent is not None and callable(getattr(agent, method, None)):
                agents.setdefault(id(agent), agent)
        return list(agents.values())

    def _reseed_opponents(self) -> None:
        for agent in self._opponent_agents_with("reseed"):
            agent.reseed(int(self.np_random.integers(2**31 - 1)))

    def _start_opponent_episodes(self) -> None:
        for agent in self._opponent_agents_with("start_episode"):
            agent.start_episode(self.np_random)

    def _play_opponents(self) -> None:
        while not self.game.is_terminal(self.game_state) and self.game_state.current_player != self.learner_seat:
            player = self.game_state.current_player
            action = self._seat_opponent[player].choose(self, player)
            if not self._is_legal(action):
                reason = illegal_reason(self.game, self.game_state, as_action(action))
                raise ValueError(f"the opponent in seat {player} chose the illegal action {action}: {reason}")
            self.game_state = self.game.apply(self.game_state, action)

    def _is_legal(self, action: int) -> bool:
        mask = self.legal_mask()
        return 0 <= action < mask.shape[0] and bool(mask[action])

    def _illegal_step(self, reason: str) -> tuple[ObsDict, float, bool, bool, dict]:
        self._done = True
        observation, info = self._observation_and_info()
        info["illegal_action"] = True
        info["illegal_reason"] = reason
        return observation, self.illegal_action_penalty, True, False, info

    def _observation_and_info(self) -> tuple[ObsDict, dict[str, Any]]:
        """The learner's observation and ``{"action_mask": bool array, "learner_seat": int}``, one mask for both."""
        mask = self.action_masks()
        observation = self.observation_of(self.learner_seat, mask)
        return observation, {"action_mask": mask, "learner_seat": int(self.learner_seat)}

    # -- rendering and housekeeping -------------------------------------------------------------
    def render(self) -> str | np.ndarray | None:
        """The game as the learner's seat sees it: the env hands it to the learner, so it shows no hidden card.

        ``ansi``: ``game.text_for(state, learner_seat)``; ``rgb_array``: ``uint8[H, W, 3]``, the game's picture as
        that seat may see it (``game.render_rgb(state, learner_seat)``: its own reserves and hand face up, the
        opponents' hidden cards face down; one size per config, so ``RecordVideo`` works); ``human``: that picture
        in a window, returns None. See :func:`boardenvs.rendering.render_view`.
        """
        if self.render_mode is None:
            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        if self.game_state is None:
            raise RuntimeError("call reset() before render()")
        if self.render_mode == "human" and self._window is None:
            self._window = HumanWindow(f"{self.game.spec.name} (single agent)", self.metadata["render_fps"])
        return render_view(self.game, self.game_state, self.render_mode, self._window, self.learner_seat)

    def close(self) -> None:
        """Close the window of ``human`` rendering, if any; safe to call repeatedly."""
        if self._window is not None:
            self._window.close()
            self._window = None

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_window"] = None
        return state


__all__ = [
    "AgentOpponent",
    "CallableOpponent",
    "Opponent",
    "RandomOpponent",
    "SingleAgentEnv",
    "make_opponent",
    "make_opponents",
]
