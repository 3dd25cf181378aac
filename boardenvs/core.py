"""The game contract every boardenvs game implements (``docs/design.md`` §2).

A :class:`Game` holds no game in progress: only its frozen config, its :class:`GameSpec`, its symmetries and the
tables built from the config (with caches of pure functions of them). Everything about one game in progress lives
in a :class:`State`. ``apply`` returns a new state and never changes what its input means: ``state.key()`` is the
same before and after (``check_game`` verifies it). A state may carry memos that the game writes on it lazily (its
legal-action mask, Quoridor's wall and path caches): pure functions of the state, outside ``key()``, so filling one
never changes the state's meaning.
Randomness enters at two doors only: :meth:`Game.initial_state` and :meth:`Game.determinize`.
"""

from __future__ import annotations

import dataclasses
import math
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Protocol, TypeVar, cast

import numpy as np

from boardenvs.raster import svg_to_rgb
from boardenvs.svg import text_svg

TERMINAL: int = -1
"""``state.current_player`` of a finished game."""


@dataclass(frozen=True)
class ObservationField:
    """One named part of an observation array.

    For board games (``kind="planes"``) the field is the planes ``start:stop`` of the
    channel-first array; for card games (``kind="vector"``) it is the slice ``start:stop``.
    """

    name: str
    start: int
    stop: int
    low: float
    high: float
    description: str

    @property
    def size(self) -> int:
        return self.stop - self.start


@dataclass(frozen=True)
class GameSpec:
    """Static facts about a configured game that algorithms read instead of probing it."""

    name: str
    version: int
    num_players: int
    num_actions: int
    observation_shape: tuple[int, ...]
    observation_fields: tuple[ObservationField, ...]
    max_game_length: int
    perfect_information: bool
    zero_sum: bool
    observation_kind: str = "planes"  # "planes" (C, H, W) or "vector" (N,)
    symmetries: tuple[str, ...] = field(default=())

    def field(self, name: str) -> ObservationField:
        """The observation field called ``name``."""
        for f in self.observation_fields:
            if f.name == name:
                return f
        known = ", ".join(f.name for f in self.observation_fields)
        raise KeyError(f"no observation field {name!r}; fields are: {known}")

    def split_observation(self, observation: np.ndarray) -> dict[str, np.ndarray]:
        """The typed view of one observation array: a fresh array per named field."""
        return {f.name: observation[f.start : f.stop].copy() for f in self.observation_fields}

    @property
    def state_shape(self) -> tuple[int, ...]:
        """Shape of :meth:`Game.global_state`: every seat's observation stacked along the first axis."""
        first, *rest = self.observation_shape
        return (self.num_players * first, *rest)


class State(Protocol):
    """What every game state offers; each game defines its own concrete class."""

    current_player: int
    ply: int
    truncated: bool

    def copy(self) -> State: ...

    def key(self) -> bytes: ...


S = TypeVar("S", bound=State)
"""A game's state type: any class with the :class:`State` members."""
M = TypeVar("M")
"""A game's move type (a NamedTuple)."""


class Symmetry(ABC, Generic[S]):
    """A transformation of a game onto itself: equivalent positions, observations and action ids.

    Seat ``p`` of a state is seat ``players[p]`` of the transformed state, and action id ``a`` of the player to
    move is ``actions[a]`` there. A symmetry commutes with the rules, which ``boardenvs.testing.check_game``
    verifies on every position it plays: the transformed state's mover is ``players[mover]``, its mask is the
    mask permuted by ``actions``, ``observe(state(s), players[p]) == observation(observe(s, p))``,
    ``apply(state(s), actions[a]) == state(apply(s, a))`` and its returns are the returns permuted by ``players``.
    Learners use the three ``*_of`` helpers to augment training data with any game's symmetries.

    Attributes:
        name: Short name, listed in ``GameSpec.symmetries``.
        actions: ``int64[num_actions]`` (read-only): the image of every action id.
        players: The image of every seat.
    """

    def __init__(self, name: str, actions: np.ndarray, players: tuple[int, ...]) -> None:
        actions = np.asarray(actions, dtype=np.int64).copy()
        if sorted(actions.tolist()) != list(range(len(actions))):
            raise ValueError(f"symmetry {name!r}: actions must be a permutation of range({len(actions)})")
        if sorted(players) != list(range(len(players))):
            raise ValueError(f"symmetry {name!r}: players must be a permutation of range({len(players)})")
        actions.flags.writeable = False
        self.name, self.actions, self.players = name, actions, tuple(players)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"

    @abstractmethod
    def state(self, state: S) -> S:
        """The transformed position (a new state; ``state`` is not changed)."""

    @abstractmethod
    def observation(self, observation: np.ndarray) -> np.ndarray:
        """Seat ``players[p]``'s observation of the transformed state, from seat ``p``'s of the original."""

    def mover_of(self, state: S) -> int:
        """The seat to move in the transformed state (``TERMINAL`` stays)."""
        player = state.current_player
        return player if player == TERMINAL else self.players[player]

    def action_values_of(self, values: np.ndarray) -> np.ndarray:
        """Per-action values (a policy, a mask, logits) moved to the transformed action ids."""
        moved = np.empty_like(values)
        moved[self.actions] = values
        return moved

    def seat_values_of(self, values: np.ndarray) -> np.ndarray:
        """Per-seat values (returns, value targets by seat) moved to the transformed seats."""
        moved = np.empty_like(values)
        moved[list(self.players)] = values
        return moved


class Game(ABC, Generic[S, M]):
    """Base class of every game: the contract of ``docs/design.md`` §2, with the parts every game shares.

    A subclass sets ``name``, ``version`` and ``config_class`` and implements the abstract members. The base class
    owns what would otherwise be repeated:

    * **Construction.** ``Game(config)`` or ``Game(**fields)`` validates the config, calls the :meth:`_setup` hook
      (per-config tables, caches), then builds the pure :meth:`_make_spec` and the :meth:`_make_symmetries`.
      Games pickle by config (:meth:`__reduce__`) and compare equal when their configs do.
    * **Moves.** ``encode(state, move)`` and ``decode(state, action)`` convert between the game's typed move
      (a NamedTuple, type parameter ``M``) and its action id, in the frame of the player to move.
    * **Legality.** :meth:`apply` checks the action (fast path :meth:`is_legal`, or one pass of
      :meth:`_apply_if_legal`; errors from :meth:`check_action` with :meth:`illegal_reason`) and only then calls the
      game's :meth:`_apply`.
    * **The move cap.** After ``spec.max_game_length`` plies :meth:`apply` ends the game as truncated
      (:meth:`_end_at_move_cap`); the game's :meth:`returns` ranks a truncated game by its own rule.
    * **Shared wins.** :func:`shared_win_returns` is the one convention for wins and draws of every game.
    """

    name: ClassVar[str]
    version: ClassVar[int]
    config_class: ClassVar[type]
    cap_overrides_final_win: ClassVar[bool] = False
    """True when a game that reaches the move cap is a truncated draw even if its last ply won (OpenSpiel's
    Quoridor); by default a win on the last ply stands."""

    def __init__(self, config: Any = None, **kwargs: Any) -> None:
        if config is None:
            config = build_config(self.config_class, kwargs)
        elif kwargs:
            raise TypeError("pass either a config object or keyword arguments, not both")
        elif not isinstance(config, self.config_class):
            raise TypeError(f"config must be a {self.config_class.__name__}, got {type(config).__name__}")
        self.config = config
        self._setup()
        spec = self._make_spec()
        self.symmetries: tuple[Symmetry[S], ...] = self._make_symmetries()
        self.spec: GameSpec = dataclasses.replace(spec, symmetries=tuple(s.name for s in self.symmetries))
        self._move_cap = spec.max_game_length
        self._num_actions = spec.num_actions

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.config!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and type(other) is type(self) and other.config == self.config

    def __hash__(self) -> int:
        return hash((type(self), self.config))

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its class and config: tables and caches are rebuilt by :meth:`_setup`."""
        return (type(self), (self.config,))

    # -- construction hooks ------------------------------------------------------------------------
    def _setup(self) -> None:
        """Build what depends only on ``self.config`` (tables, caches); runs before :meth:`_make_spec`."""

    @abstractmethod
    def _make_spec(self) -> GameSpec:
        """The spec of this configured game (pure: reads ``self.config`` and what :meth:`_setup` built)."""

    def _make_symmetries(self) -> tuple[Symmetry[S], ...]:
        """The symmetries of this configured game (none by default); their names become ``spec.symmetries``."""
        return ()

    # -- required ------------------------------------------------------------------------------
    @abstractmethod
    def initial_state(self, rng: np.random.Generator) -> S:
        """A new game; every setup random choice comes from ``rng``."""

    @abstractmethod
    def legal_action_mask(self, state: S) -> np.ndarray:
        """``bool[num_actions]``: non-empty iff the state is not terminal.

        The array may be read-only and shared between calls (engines cache masks): copy it before changing it.
        """

    @abstractmethod
    def _apply(self, state: S, action: int) -> S:
        """The successor of ``state`` after the legal ``action`` (a Python int), with ``ply`` one higher.

        Called by :meth:`apply` after the legality check; leaves ``state`` meaning what it meant (memos aside, see
        the module docstring). The move cap is not its job.
        """

    @abstractmethod
    def returns(self, state: S) -> np.ndarray:
        """``float32[num_players]`` in [-1, 1]: the final outcome, zeros until terminal."""

    @abstractmethod
    def observe(self, state: S, player: int) -> np.ndarray:
        """``float32[spec.observation_shape]``: what ``player`` may see, from its point of view."""

    @abstractmethod
    def encode(self, state: S, move: M) -> int:
        """The action id of ``move`` for the player to move in ``state``; ``ValueError`` if it has none."""

    @abstractmethod
    def decode(self, state: S, action: int) -> M:
        """The move of action id ``action`` for the player to move in ``state``."""

    @abstractmethod
    def action_to_str(self, state: S, action: int) -> str:
        """The action in the game's standard notation."""

    @abstractmethod
    def to_text(self, state: S) -> str:
        """Canonical human-readable form of the state."""

    # -- playing -------------------------------------------------------------------------------
    def apply(self, state: S, action: int) -> S:
        """The state after ``action``: ``TypeError``/``ValueError`` saying why if it is not a legal action id.

        Checks legality, calls the game's :meth:`_apply`, and ends the game at the move cap.
        """
        new = self._apply_if_legal(state, action) if type(action) is int else None
        if new is None:
            new = self._apply(state, self.check_action(state, action))
        if new.ply >= self._move_cap and (new.current_player != TERMINAL or self.cap_overrides_final_win):
            self._end_at_move_cap(new)
        return new

    def _apply_if_legal(self, state: S, action: int) -> S | None:
        """The successor of the Python int ``action`` if it is legal, else ``None``: :meth:`apply`'s fast path.

        By default :meth:`is_legal` then :meth:`_apply`; an engine that can test legality while it dispatches on
        the phase overrides this with one pass (errors still come from :meth:`check_action`).
        """
        return self._apply(state, action) if self.is_legal(state, action) else None

    def is_legal(self, state: S, action: int) -> bool:
        """Whether the Python int ``action`` is legal in ``state`` (games override it with a faster test)."""
        return (
            state.current_player != TERMINAL
            and 0 <= action < self._num_actions
            and bool(self.legal_action_mask(state)[action])
        )

    def check_action(self, state: S, action: int) -> int:
        """``int(action)`` if legal in ``state``, else a ``TypeError`` (not an int, see :func:`as_action`) or a
        ``ValueError`` (after the end, out of range, illegal here) saying why."""
        action = as_action(action)
        if self.is_terminal(state):
            raise ValueError(f"action {action} played after the game ended")
        if not 0 <= action < self.spec.num_actions:
            raise ValueError(f"action {action} is out of range [0, {self.spec.num_actions})")
        if not self.is_legal(state, action):
            reason = self.illegal_reason(state, action)
            raise ValueError(f"action {action} is illegal here" + (f": {reason}" if reason else ""))
        return action

    def illegal_reason(self, state: S, action: int) -> str:
        """Why the in-range ``action`` is illegal in ``state``, for the error message ("" = no detail)."""
        del state, action
        return ""

    def _end_at_move_cap(self, state: S) -> None:
        """End ``state`` (fresh from :meth:`_apply`, not shared) at the move cap: terminal and truncated.

        Games that record the outcome on the state (winners by ranking) extend this and call ``super()``.
        """
        state.current_player = TERMINAL
        state.truncated = True

    # -- defaults ------------------------------------------------------------------------------
    def scores(self, state: S) -> np.ndarray:
        """Raw game points per player; by default the returns."""
        return self.returns(state)

    def is_terminal(self, state: S) -> bool:
        return state.current_player == TERMINAL

    def is_truncated(self, state: S) -> bool:
        """True when the game ended by reaching ``spec.max_game_length`` rather than by its rules."""
        return bool(state.truncated)

    def legal_actions(self, state: S) -> np.ndarray:
        """Sorted ids of the legal actions (``int64``; may be read-only and shared, like the mask)."""
        return self.legal_action_mask(state).nonzero()[0]

    def global_state(self, state: S) -> np.ndarray:
        """``float32[spec.state_shape]``: every seat's :meth:`observe` stacked in seat order, for centralized
        training (a critic that sees what any player knows). It holds every player's hidden information, so it is
        never given to a player; what no player knows yet (the order of undealt cards) is not in it."""
        views = [np.asarray(self.observe(state, player), dtype=np.float32) for player in range(self.spec.num_players)]
        return np.concatenate(views, axis=0)

    def simultaneous_players(self, state: S) -> tuple[int, ...]:
        """The players who choose their next actions at once, none seeing the others' choices: the player to
        move, unless the game is in a secret simultaneous phase (Gravwell's card commit). Their actions are
        applied in this order; ``()`` once the game is over."""
        return () if self.is_terminal(state) else (state.current_player,)

    def legal_action_mask_of(self, state: S, player: int) -> np.ndarray:
        """The legal actions of ``player``, one of :meth:`simultaneous_players` (``ValueError`` for another)."""
        if player != state.current_player:
            raise ValueError(f"player {player} does not act in this state; {self.simultaneous_players(state)} do")
        return self.legal_action_mask(state)

    def determinize(self, state: S, player: int, rng: np.random.Generator) -> S:
        """A state ``player`` cannot tell apart from ``state``; a plain copy for perfect information."""
        del player, rng
        return cast(S, state.copy())

    def visible_events(self, state: S, events: list[Any], player: int) -> list[Any]:
        """The part of ``events`` (new entries of ``state.events``) that ``player`` may see.

        Adapters pass events to each agent through this filter; games whose events can carry hidden
        information (a face-down card drawn by another player) override it. By default all are visible.
        """
        del state, player
        return list(events)

    def text_for(self, state: S, player: int) -> str:
        """The state as seat ``player`` may see it: what a front end shows a human in that seat.

        The default is :meth:`to_text`, right for perfect information; a game with hidden information
        overrides it to leave out what :meth:`determinize` would resample for ``player``.
        """
        del player
        return self.to_text(state)

    def action_text_for(self, state: S, action: int, player: int) -> str:
        """How seat ``player`` sees ``action`` played in ``state`` by the player to move: :meth:`action_to_str`,
        unless the move itself is secret from ``player`` (a game with hidden information overrides this)."""
        del player
        return self.action_to_str(state, action)

    def parse_action(self, state: S, text: str) -> int:
        """The legal action whose notation is ``text``; ``TypeError`` unless ``text`` is a ``str``, ``ValueError``
        naming the move if it is not legal (games with a parser of their own override :meth:`_parse_action`)."""
        check_move_text(text)
        return self._parse_action(state, text)

    def _parse_action(self, state: S, text: str) -> int:
        """By default the legal action whose :meth:`action_to_str` is ``text`` (stripped)."""
        wanted = text.strip()
        for action in self.legal_actions(state):
            if self.action_to_str(state, int(action)) == wanted:
                return int(action)
        raise ValueError(f"move {text!r} is not legal here")

    def render_rgb(self, state: S, seat: int | None = None) -> np.ndarray:
        """The picture :meth:`render_svg` draws (no click targets) as a ``uint8[H, W, 3]`` frame: the spectator's
        (``seat=None``) or what ``seat`` may see. One size per config, width and height multiples of 16
        (:func:`boardenvs.raster.svg_to_rgb`; needs Pillow, the ``render`` extra, or raises ``ImportError``)."""
        return svg_to_rgb(self.render_svg(state, seat))

    def render_svg(self, state: S, seat: int | None = None, mask: np.ndarray | None = None) -> str:
        """The state drawn as an SVG document: for a spectator (``seat=None``, everything) or as seat ``seat`` may
        see it (what :meth:`determinize` would resample for that seat is drawn face down or left out, so the
        picture of ``state`` and of any of its determinizations for ``seat`` are the same string).

        Args:
            state: The position.
            seat: ``None`` for the spectator's view, or the seat (0..n-1) whose view to draw.
            mask: The legal actions of the player to move (``bool[num_actions]``) to draw as clickable targets
                (``<g class="target" data-actions="...">``, see :mod:`boardenvs.svg`), or ``None`` for none.

        Raises:
            ValueError: ``seat`` is not ``None`` or a seat of this game, or ``mask`` has the wrong shape.
        """
        if seat is not None:
            check_int("seat", seat, 0, self.spec.num_players - 1)
        if mask is not None:
            mask = np.asarray(mask)
            if mask.shape != (self.spec.num_actions,):
                raise ValueError(f"mask must have shape ({self.spec.num_actions},), got {mask.shape}")
            mask = mask.astype(bool)
        return self._render_svg(state, seat, mask)

    def _render_svg(self, state: S, seat: int | None, mask: np.ndarray | None) -> str:
        """The game's SVG drawing (arguments checked by :meth:`render_svg`); by default the state's text."""
        del mask
        text = self.to_text(state) if seat is None else self.text_for(state, seat)
        return text_svg(text, self.spec.name)


# -- actions and move texts -----------------------------------------------------------------------
def as_action(action: Any) -> int:
    """``action`` as a Python int, or ``TypeError("action must be an int, got ...")``.

    The one check of an action's type for :meth:`Game.check_action` and every adapter (AEC, Parallel,
    single-agent): Python ints, numpy integer scalars and 0-d integer arrays are accepted; ``bool``, floats
    (even ``2.0``), strings (even ``"2"``), ``None`` and arrays of any other shape or dtype are not.

    >>> as_action(np.int64(3)), as_action(np.array(4))
    (3, 4)
    """
    if isinstance(action, np.ndarray):
        if action.ndim == 0 and action.dtype.kind in "iu":
            return int(action)
        raise TypeError(f"action must be an int, got ndarray of shape {action.shape} and dtype {action.dtype}")
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise TypeError(f"action must be an int, got {type(action).__name__}")
    return int(action)


def check_move_text(text: Any) -> None:
    """Raise ``TypeError`` unless ``text`` (a move in a game's notation, for ``parse_action``) is a ``str``."""
    if not isinstance(text, str):
        raise TypeError(f"a move must be written as a str, got {type(text).__name__}")


# -- configs ------------------------------------------------------------------------------------
def build_config(config_class: type, kwargs: dict[str, Any]) -> Any:
    """``config_class(**kwargs)`` with an error naming unknown parameters and the allowed ones."""
    names = {f.name for f in dataclasses.fields(config_class)}
    unknown = sorted(set(kwargs) - names)
    if unknown:
        raise TypeError(f"unknown config parameter(s) {unknown}; allowed: {sorted(names)}")
    return config_class(**kwargs)


def check_int(name: str, value: Any, low: int, high: int | None = None) -> None:
    """Raise ``ValueError`` naming ``name`` unless ``low <= value (<= high)`` and ``value`` is an int."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{name} must be an int, got {value!r}")
    if value < low or (high is not None and value > high):
        allowed = f"{low}..{high}" if high is not None else f">= {low}"
        raise ValueError(f"{name} must be in {allowed}, got {value}")


def check_finite(name: str, value: Any) -> float:
    """``float(value)``, or ``ValueError`` naming ``name`` unless ``value`` is a finite real number (not a bool)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise ValueError(f"{name} must be a finite number, got {value!r}")
    try:
        number = float(value)
    except OverflowError:
        number = math.inf
    if not math.isfinite(number):
        raise ValueError(f"{name} must be a finite number, got {value!r}")
    return number


def check_choice(name: str, value: Any, allowed: tuple[Any, ...]) -> None:
    """Raise ``ValueError`` naming ``name`` unless ``value`` is one of ``allowed``."""
    if value not in allowed:
        raise ValueError(f"{name} must be one of {list(allowed)}, got {value!r}")


# -- small helpers shared by games --------------------------------------------------------------
def shared_win_returns(num_players: int, winners: Sequence[int]) -> np.ndarray:
    """The returns of every game: zero-sum, in [-1, 1], a loser's share independent of how many won.

    With ``k`` of ``n`` players winning, each winner gets ``(n - k) / (k (n - 1))`` and each loser ``-1 / (n - 1)``:
    a sole winner +1, as in a two-player win; no winners, or everybody winning, is a draw (all zeros).

    >>> shared_win_returns(4, [2]) * 3, shared_win_returns(4, [0, 1]) * 3
    (array([-1., -1.,  3., -1.], dtype=float32), array([ 1.,  1., -1., -1.], dtype=float32))
    """
    returns = np.zeros(num_players, dtype=np.float32)
    k = len(winners)
    if 0 < k < num_players:
        returns[:] = -1.0 / (num_players - 1)
        returns[list(winners)] = (num_players - k) / (k * (num_players - 1))
    return returns
