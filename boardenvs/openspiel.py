"""Every boardenvs game as an OpenSpiel game: ``pyspiel.load_game("boardenvs_<game>", {params})``.

Importing this module registers each game of :func:`boardenvs.list_games` with OpenSpiel as
``boardenvs_<name>`` (:func:`register_games`; games registered later are added by calling it again). One
adapter pair serves every game: :class:`OpenSpielGame` holds a configured ``boardenvs`` game and
:class:`OpenSpielState` wraps its states, so OpenSpiel's algorithms (MCTS, IS-MCTS, CFR, exploitability,
``evaluate_bots``) run on the same rules as the rest of the project.

**Parameters.** Every int, float, bool or string field of the game's config, with the config's default
(an optional int field such as Quoridor's ``walls_per_player`` takes ``-1`` for "the game's default"), plus
``preset`` (``""`` = none) for games with presets (:func:`boardenvs.list_presets`) and ``chance_outcomes``. A
field left at its default keeps the preset's value. Parameters are checked before OpenSpiel's C++ side sees them
(:func:`check_parameters`; importing this module makes ``pyspiel.load_game`` the checked :func:`load_game`): an
unknown name or a wrong type (a bool for an int) is an error naming the parameter, and a bad value (an int of
2**31 or more included) is the game config's error naming the field and its allowed range.

**Actions.** Every entry point that takes an action or a player (``apply_action``, ``child``,
``action_to_string``, ``legal_actions``, ...) takes an int (numpy ints too) and refuses a bool, a float or a
string (``TypeError``), a negative or out-of-range id (``ValueError``), before pybind converts it.

**Chance.** A game draws all its randomness in ``initial_state(rng)`` (deals, shuffles, random maps); moves
are deterministic. When that rng matters (detected per configured game by comparing the initial states of
a few seeds), the game starts with one chance node of ``chance_outcomes`` equally likely outcomes (default
64): outcome ``k`` is the setup ``game.initial_state(np.random.default_rng(k))``, the same as seed ``k``
anywhere else in boardenvs. 64 keeps the tree walkers (CFR, exploitability, expectimax), which enumerate
every outcome, and ``chance_outcomes()`` itself cheap, while sampling algorithms still see 64 different
setups; raise it (up to 2**20) for training. Deterministic games have no chance node.

**Information.** A game is ``PERFECT_INFORMATION`` when its spec says so for this config (Quoridor, Node
Conquest, Battle Sheep without ``hidden_counts``), else ``IMPERFECT_INFORMATION`` (Splendor, Gravwell, Battle
Sheep's ``imperfect`` preset).

* Observation: the tensor is ``game.observe(state, player)`` (``spec.observation_shape``), the string
  ``game.text_for(state, player)``; both leave out what the player may not see.
* Information state: the string is perfect-recall: the player's view at the start and, for every move, the
  move as that player saw it (``game.action_text_for``: another player's secret card is ``play (secret)``)
  with a digest of the player's view after it, then the player's full current view. The tensor is the
  observation followed by the fraction of the move cap played: the Markov view networks use, not a
  perfect-recall encoding.
* ``resample_from_infostate(player, sampler)`` (IS-MCTS) is ``game.determinize`` seeded by ``sampler``.
  The resampled state's past is known only as ``player`` saw it: its ``history()`` is empty and its
  information strings carry ``player``'s view of the moves made before the resampling.

Example:
    >>> import pyspiel
    >>> import boardenvs.openspiel
    >>> game = pyspiel.load_game("boardenvs_quoridor", {"board_size": 5})
    >>> game.num_distinct_actions(), game.observation_tensor_shape()
    (58, [10, 5, 5])
    >>> state = game.new_initial_state()
    >>> state.apply_action(state.legal_actions()[0])
    >>> state.current_player(), state.is_terminal()
    (1, False)
    >>> splendor = pyspiel.load_game("boardenvs_splendor", {"chance_outcomes": 8})
    >>> splendor.new_initial_state().chance_outcomes()[:2]
    [(0, 0.125), (1, 0.125)]
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import re
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

import numpy as np
import pyspiel

from boardenvs.core import Game, as_action
from boardenvs.registry import game_entry, list_games, list_presets, make_game

PREFIX = "boardenvs_"
"""OpenSpiel name of game ``name``: ``PREFIX + name``."""
DEFAULT_CHANCE_OUTCOMES = 64
C_INT_MIN, C_INT_MAX = -(2**31), 2**31 - 1
"""The ints an OpenSpiel game parameter can hold (C++ ``int``)."""
MAX_CHANCE_OUTCOMES = 1 << 20
UNSET_INT = -1
"""Value of an optional int config field that means ``None`` (the game's own default)."""
PROBE_SEEDS = 8
"""Seeds whose initial states are compared to tell a game with setup randomness."""
MAX_PLAYERS_PROBED = 8
CHANCE_TEXT = "setup not drawn yet (chance node)"
CHANCE = int(pyspiel.PlayerId.CHANCE)
"""OpenSpiel's id of the chance player (-1)."""
_RESERVED = ("preset", "chance_outcomes")
GAME_CLASSES: dict[str, type[OpenSpielGame]] = {}
"""The :class:`OpenSpielGame` subclass of every registered game, by boardenvs name."""
_PYSPIEL_LOAD_GAME: Callable[..., Any] = getattr(pyspiel, "_boardenvs_unchecked_load_game", pyspiel.load_game)
"""OpenSpiel's own ``load_game`` (kept once, so reloading this module does not wrap the wrapper)."""


# -- parameters ------------------------------------------------------------------------------------
class ConfigParameter(NamedTuple):
    """One scalar config field offered as an OpenSpiel parameter."""

    name: str
    default: Any
    """The OpenSpiel default: the field's default, or ``UNSET_INT`` / ``""`` for an optional field."""
    optional: bool
    """True when ``UNSET_INT`` / ``""`` stands for ``None``."""


def openspiel_name(name: str) -> str:
    """The OpenSpiel short name of boardenvs game ``name``."""
    return PREFIX + name


def _scalar_type(hint: Any) -> tuple[type | None, bool]:
    """``(type, optional)`` of a config field annotation: ``int``, ``float``, ``bool``, ``str``, or ``None``."""
    optional = False
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        args = [arg for arg in typing.get_args(hint) if arg is not type(None)]
        optional = len(args) < len(typing.get_args(hint))
        hint = args[0] if len(args) == 1 else None
    return (hint if hint in (bool, int, float, str) else None), optional


def config_parameters(config_class: type) -> tuple[ConfigParameter, ...]:
    """The config fields that OpenSpiel can carry (ints, floats, bools, strings and optional ints/strings)."""
    hints = typing.get_type_hints(config_class)
    offered = []
    for field in dataclasses.fields(config_class):
        kind, optional = _scalar_type(hints.get(field.name))
        if kind is None or field.default is dataclasses.MISSING or field.name in _RESERVED:
            continue
        if field.default is None:
            if kind not in (int, str):
                continue
            default: Any = UNSET_INT if kind is int else ""
        else:
            default = field.default
        offered.append(ConfigParameter(field.name, default, field.default is None and optional))
    return tuple(offered)


def parameter_specification(name: str) -> dict[str, Any]:
    """The OpenSpiel parameters of game ``name`` with their defaults."""
    spec = {p.name: p.default for p in config_parameters(game_entry(name).game_class.config_class)}
    if list_presets(name):
        spec["preset"] = ""
    spec["chance_outcomes"] = DEFAULT_CHANCE_OUTCOMES
    return spec


def _full_parameters(name: str, params: dict[str, Any] | None) -> dict[str, Any]:
    """``params`` with the defaults filled in; ``ValueError`` naming unknown parameters."""
    spec = parameter_specification(name)
    unknown = sorted(set(params or {}) - set(spec))
    if unknown:
        raise ValueError(f"unknown parameter(s) {unknown} for {openspiel_name(name)}; parameters: {sorted(spec)}")
    return {**spec, **(params or {})}


def _checked_chance_outcomes(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_CHANCE_OUTCOMES:
        raise ValueError(f"chance_outcomes must be an int in 1..{MAX_CHANCE_OUTCOMES}, got {value!r}")
    return value


def _typed_parameter(key: str, value: Any, default: Any) -> Any:
    """``value`` as the Python type of the parameter's ``default`` (numpy scalars converted), or ``TypeError``
    naming ``key``: OpenSpiel carries bools, ints and strings and refuses one for another."""
    kind = type(default)
    if kind is bool and isinstance(value, (bool, np.bool_)):
        return bool(value)
    if kind is int and isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        return int(value)
    if kind is str and isinstance(value, str):
        return value
    article = "an" if kind is int else "a"
    raise TypeError(f"parameter {key} must be {article} {kind.__name__}, got {value!r} ({type(value).__name__})")


def check_parameters(name: str, params: Mapping[str, Any] | None) -> dict[str, Any]:
    """Every OpenSpiel parameter of game ``name``: ``params`` checked, with the defaults filled in.

    This runs before any value reaches OpenSpiel's C++ side (whose ints are 32-bit and whose errors name no
    parameter): unknown names, wrong types, ``chance_outcomes`` and every config value (by the game's config,
    whose error names the field and its allowed range) are refused here.

    Raises:
        ValueError: an unknown parameter, or a value out of its range (the message names both).
        TypeError: a value of the wrong type (a bool for an int, a float, a numpy array, ...).
    """
    return _checked_parameters(name, params)[0]


def _checked_parameters(name: str, params: Mapping[str, Any] | None) -> tuple[dict[str, Any], Game]:
    """:func:`check_parameters` and the boardenvs game the parameters describe."""
    spec = parameter_specification(name)
    full = _full_parameters(name, dict(params) if params is not None else None)
    full = {key: _typed_parameter(key, full[key], default) for key, default in spec.items()}
    _checked_chance_outcomes(full["chance_outcomes"])
    engine = engine_game(name, full)  # the config refuses a bad value naming the field and its range
    for key, value in full.items():
        if isinstance(value, int) and not isinstance(value, bool) and not C_INT_MIN <= value <= C_INT_MAX:
            raise ValueError(f"parameter {key} must be in {C_INT_MIN}..{C_INT_MAX} (OpenSpiel's int), got {value}")
    return full, engine


def _boardenvs_name(short_name: str) -> str | None:
    """The boardenvs game that the OpenSpiel ``short_name`` names, or ``None`` for another game."""
    name = short_name[len(PREFIX) :] if short_name.startswith(PREFIX) else None
    return name if name is not None and name in list_games() else None


def _parameter_from_text(text: str) -> Any:
    """A parameter value written in a game string, read as OpenSpiel reads it (``GameParameterFromString``)."""
    if text in ("True", "true", "False", "false"):
        return text in ("True", "true")
    if text and set(text) <= set("+-0123456789"):
        try:
            return int(text)
        except ValueError:
            return text  # OpenSpiel refuses it itself
    if text and set(text) <= set("+-0123456789."):
        try:
            return float(text)
        except ValueError:
            return text
    return text


def _parameters_from_string(text: str) -> tuple[str, dict[str, Any] | None]:
    """``("boardenvs_quoridor", {"board_size": 5})`` from ``"boardenvs_quoridor(board_size=5)"``; a string
    without parameters (or with nested ones, which no boardenvs game has) gives ``None`` for them."""
    match = re.fullmatch(r"([^()]+)\(([^()]*)\)", text.strip())
    if match is None:
        return text.strip(), None
    params: dict[str, Any] = {}
    for part in filter(None, match.group(2).split(",")):
        key, _, value = part.partition("=")
        params[key.strip()] = _parameter_from_text(value.strip())
    return match.group(1).strip(), params


def load_game(game: Any, params: Mapping[str, Any] | None = None) -> pyspiel.Game:
    """``pyspiel.load_game`` with a boardenvs game's parameters checked first (:func:`check_parameters`).

    Importing this module installs it as ``pyspiel.load_game``: OpenSpiel converts parameters to C++ types
    before any Python code of the game runs, so a value it cannot hold (an int of 2**31 or more) would fail
    there with an error naming no parameter. Other games, and a ``GameParametersStruct``, pass through unchanged.
    """
    if isinstance(game, str):
        short_name, written = _parameters_from_string(game) if params is None else (game, dict(params))
        name = _boardenvs_name(short_name)
        if name is not None and written is not None:
            full = check_parameters(name, written)
            params = None if params is None else {key: full[key] for key in params}
    return _PYSPIEL_LOAD_GAME(game) if params is None else _PYSPIEL_LOAD_GAME(game, params)


def engine_game(name: str, params: dict[str, Any]) -> Game:
    """The boardenvs game that the OpenSpiel parameters ``params`` (all of them, defaults included) describe.

    Only fields that differ from their defaults are passed on, so a preset's values stand unless overridden.
    """
    config = {}
    for parameter in config_parameters(game_entry(name).game_class.config_class):
        value = params[parameter.name]
        if value != parameter.default:  # an optional field at UNSET_INT / "" keeps its default, None
            config[parameter.name] = value
    return make_game(name, preset=params.get("preset") or None, **config)


# -- game type and info ------------------------------------------------------------------------------
def uses_setup_randomness(game: Game) -> bool:
    """Whether ``game.initial_state(rng)`` depends on ``rng`` (setups of ``PROBE_SEEDS`` seeds compared)."""
    keys = {game.initial_state(np.random.default_rng(seed)).key() for seed in range(PROBE_SEEDS)}
    return len(keys) > 1


@functools.cache
def player_range(name: str) -> tuple[int, int]:
    """The fewest and most players of game ``name`` (configs with ``num_players`` 1..8 tried)."""
    entry = game_entry(name)
    if "num_players" not in {f.name for f in dataclasses.fields(entry.game_class.config_class)}:
        players = make_game(name).spec.num_players
        return players, players
    valid = []
    for players in range(1, MAX_PLAYERS_PROBED + 1):
        try:
            make_game(name, num_players=players)
        except (TypeError, ValueError):
            continue
        valid.append(players)
    return min(valid), max(valid)


def game_type(name: str, game: Game, stochastic: bool) -> pyspiel.GameType:
    """The OpenSpiel ``GameType`` of the configured ``game`` (registered with the default config's)."""
    kind = pyspiel.GameType
    fewest, most = player_range(name)
    return kind(
        short_name=openspiel_name(name),
        long_name=f"boardenvs {name.replace('_', ' ').title()}",
        dynamics=kind.Dynamics.SEQUENTIAL,
        chance_mode=kind.ChanceMode.EXPLICIT_STOCHASTIC if stochastic else kind.ChanceMode.DETERMINISTIC,
        information=(
            kind.Information.PERFECT_INFORMATION
            if game.spec.perfect_information
            else kind.Information.IMPERFECT_INFORMATION
        ),
        utility=kind.Utility.ZERO_SUM if game.spec.zero_sum else kind.Utility.GENERAL_SUM,
        reward_model=kind.RewardModel.TERMINAL,
        max_num_players=most,
        min_num_players=fewest,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameter_specification(name),
    )


def game_info(game: Game, stochastic: bool, chance_outcomes: int) -> pyspiel.GameInfo:
    """The OpenSpiel ``GameInfo`` of the configured ``game``: one extra ply for the chance node."""
    spec = game.spec
    return pyspiel.GameInfo(
        num_distinct_actions=spec.num_actions,
        max_chance_outcomes=chance_outcomes if stochastic else 0,
        num_players=spec.num_players,
        min_utility=-1.0,
        max_utility=1.0,
        utility_sum=0.0 if spec.zero_sum else None,
        max_game_length=spec.max_game_length + int(stochastic),
    )


# -- registration -------------------------------------------------------------------------------------
def register_games() -> list[str]:
    """Register every boardenvs game not yet known to OpenSpiel; returns the OpenSpiel names added."""
    known = set(pyspiel.registered_names())
    added = []
    for name in list_games():
        if openspiel_name(name) in known:
            continue
        default = make_game(name)
        pyspiel.register_game(game_type(name, default, uses_setup_randomness(default)), game_class(name))
        added.append(openspiel_name(name))
    return added


def game_class(name: str) -> type[OpenSpielGame]:
    """The :class:`OpenSpielGame` subclass of game ``name``: ``game_class(name)(params)`` is what OpenSpiel calls.

    OpenSpiel keeps a game's factory in a C++ registry destroyed after the interpreter; a factory that only
    this registry references (a closure, a ``functools.partial``) would be freed then, without the GIL, and
    abort the process at exit. A class is never freed that way (it references itself through its MRO).
    """
    if name not in GAME_CLASSES:
        class_name = "".join(part.title() for part in name.split("_")) + "OpenSpielGame"
        GAME_CLASSES[name] = type(class_name, (OpenSpielGame,), {"game_name": name, "__module__": __name__})
    return GAME_CLASSES[name]


# -- the adapter ----------------------------------------------------------------------------------------
def _digest(text: str) -> str:
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


class _Context:
    """What every state of one configured game shares (never copied by ``clone``)."""

    def __init__(self, game: Game, stochastic: bool, chance_outcomes: int) -> None:
        self.game = game
        self.stochastic = stochastic
        self.chance_outcomes = chance_outcomes
        self.start = None if stochastic else game.initial_state(np.random.default_rng(0))

    def __deepcopy__(self, memo: dict[int, Any]) -> _Context:
        return self


class _Run:
    """The mutable record of one OpenSpiel state: the engine state and the past it was reached by.

    Engine states are never mutated (``apply`` returns new ones), so copies share them. ``base`` holds
    history lines fixed before ``origin`` (after ``resample_from_infostate``: the resampler's view of the
    past); ``moves`` are ``(state before, action)`` since ``origin``; ``lines`` caches each player's lines.
    """

    def __init__(self, context: _Context, state: Any, base: tuple[str, ...] = ()) -> None:
        self.context = context
        self.state = state
        self.setup: int | None = None
        self.base = base
        self.origin = state
        self.moves: list[tuple[Any, int]] = []
        self.lines: dict[int, list[str]] = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> _Run:
        copy = _Run(self.context, self.state, self.base)
        copy.setup, copy.origin, copy.moves = self.setup, self.origin, list(self.moves)
        copy.lines = {player: list(lines) for player, lines in self.lines.items()}
        return copy

    def draw_setup(self, outcome: int) -> None:
        """Resolve the chance node: the setup of seed ``outcome``."""
        self.setup = outcome
        self.state = self.origin = self.context.game.initial_state(np.random.default_rng(outcome))

    def play(self, action: int) -> None:
        self.moves.append((self.state, action))
        self.state = self.context.game.apply(self.state, action)

    def history_lines(self, player: int) -> list[str]:
        """``player``'s view of the past: its first view, then every move and the view after it."""
        game = self.context.game
        lines = self.lines.setdefault(player, [])
        if not self.base and not lines:
            lines.append(f"start: view {_digest(game.text_for(self.origin, player))}")
        done = len(lines) - (0 if self.base else 1)
        for index in range(done, len(self.moves)):
            before, action = self.moves[index]
            after = self.moves[index + 1][0] if index + 1 < len(self.moves) else self.state
            move = game.action_text_for(before, action, player)
            view = _digest(game.text_for(after, player))
            lines.append(f"{before.ply}: p{before.current_player} {move}; view {view}")
        return [*self.base, *lines]

    def resampled(self, player: int, rng: np.random.Generator) -> _Run:
        """A run at ``game.determinize(state, player, rng)`` whose past is ``player``'s view of this one."""
        determinized = self.context.game.determinize(self.state, player, rng)
        return _Run(self.context, determinized, tuple(self.history_lines(player)))


class OpenSpielGame(pyspiel.Game):
    """A configured boardenvs game as an OpenSpiel game (see the module docstring); one subclass per game.

    Attributes:
        game_name: The boardenvs name of the game (set by each subclass, see :func:`game_class`).
        engine: The boardenvs :class:`~boardenvs.core.Game` that plays the rules.
        chance_outcomes: Outcomes of the chance node (unused by deterministic games).
    """

    game_name: str

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        name = self.game_name
        params, engine = _checked_parameters(name, params)
        chance_outcomes = params["chance_outcomes"]
        stochastic = uses_setup_randomness(engine)
        super().__init__(game_type(name, engine, stochastic), game_info(engine, stochastic, chance_outcomes), params)
        self.engine = engine
        self.chance_outcomes = chance_outcomes
        self._context = _Context(engine, stochastic, chance_outcomes)

    def new_initial_state(self) -> OpenSpielState:
        """The chance node of the setup, or the start position of a deterministic game."""
        return OpenSpielState(self, _Run(self._context, self._context.start))

    def state_at(self, engine_state: Any) -> OpenSpielState:
        """A state at the boardenvs ``engine_state`` (no chance node; its past starts there)."""
        return OpenSpielState(self, _Run(self._context, engine_state))

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: dict[str, Any] | None = None
    ) -> Observer:
        """The observer of ``iig_obs_type``: perfect recall gives the information state, else the observation."""
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        iig_obs_type = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        hidden = not self.engine.spec.perfect_information
        if hidden and (
            not iig_obs_type.public_info or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
        ):
            raise ValueError(f"only the single-player observer with public information is supported: {iig_obs_type}")
        return Observer(self.engine, information_state=iig_obs_type.perfect_recall)


class OpenSpielState(pyspiel.State):
    """One position of an :class:`OpenSpielGame` (all its data lives in one ``_Run``, copied by ``clone``)."""

    def __init__(self, game: OpenSpielGame, run: _Run) -> None:
        super().__init__(game)
        self._run = run

    # -- what the adapter adds ------------------------------------------------------------------
    @property
    def engine_state(self) -> Any:
        """The boardenvs state (``None`` at the chance node)."""
        return self._run.state

    @property
    def setup(self) -> int | None:
        """The chance outcome drawn (the seed of the setup), ``None`` before it or without a chance node."""
        return self._run.setup

    def information_lines(self, player: int) -> list[str]:
        """``player``'s view of the past, one line per move (the middle of its information state string)."""
        return [] if self._run.state is None else self._run.history_lines(player)

    # -- checked entry points: what Python callers give is checked before pybind converts it ----------
    def apply_action(self, action: Any) -> None:
        """Play ``action`` (a chance outcome at the chance node); ``TypeError`` unless it is an int (a bool is
        not), ``ValueError`` out of range or illegal."""
        super().apply_action(self._checked_action(action))

    def apply_action_with_legality_check(self, action: Any) -> None:
        """:meth:`apply_action` (which checks legality anyway)."""
        super().apply_action_with_legality_check(self._checked_action(action))

    def child(self, action: Any) -> OpenSpielState:
        """A copy of this state with ``action`` played (checked as in :meth:`apply_action`)."""
        return super().child(self._checked_action(action))

    def action_to_string(self, *args: Any) -> str:
        """``action_to_string(action)`` for the player to move, or ``action_to_string(player, action)``."""
        if len(args) == 1:
            return super().action_to_string(self._checked_action(args[0]))
        player, action = args
        player = self._checked_player(player)
        return super().action_to_string(player, self._checked_action(action, chance=player == CHANCE))

    def legal_actions(self, *args: Any) -> list[int]:
        """The legal actions of the player to move, or of ``player`` (empty unless it is to move)."""
        return super().legal_actions(*(self._checked_player(player) for player in args))

    def legal_actions_mask(self, *args: Any) -> list[int]:
        """The legal-action mask of the player to move, or of ``player``."""
        return super().legal_actions_mask(*(self._checked_player(player) for player in args))

    def _checked_action(self, action: Any, chance: bool | None = None) -> int:
        """``action`` as an int id in range (a chance outcome at the chance node, or when ``chance``)."""
        action = as_action(action)
        chance = self._run.state is None if chance is None else chance
        count = self._run.context.chance_outcomes if chance else self._run.context.game.spec.num_actions
        if not 0 <= action < count:
            raise ValueError(f"{'chance outcome' if chance else 'action'} {action} is out of range [0, {count})")
        return action

    def _checked_player(self, player: Any) -> int:
        """``player`` as an int: a seat or the chance player (-1)."""
        if isinstance(player, (bool, np.bool_)) or not isinstance(player, (int, np.integer)):
            raise TypeError(f"player must be an int, got {type(player).__name__}")
        count = self._run.context.game.spec.num_players
        if player != CHANCE and not 0 <= player < count:
            raise ValueError(f"player must be a seat in 0..{count - 1} or {CHANCE} (chance), got {player}")
        return int(player)

    # -- the OpenSpiel state API ------------------------------------------------------------------
    def current_player(self) -> int:
        state = self._run.state
        if state is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self._run.context.game.is_terminal(state):
            return int(pyspiel.PlayerId.TERMINAL)
        return int(state.current_player)

    def _legal_actions(self, player: int) -> list[int]:
        del player  # OpenSpiel only asks for the player to move
        return np.flatnonzero(self._run.context.game.legal_action_mask(self._run.state)).tolist()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        count = self._run.context.chance_outcomes
        return [(outcome, 1.0 / count) for outcome in range(count)]

    def _apply_action(self, action: int) -> None:
        if self._run.state is None:
            if not 0 <= action < self._run.context.chance_outcomes:
                raise ValueError(f"chance outcome {action} is out of range [0, {self._run.context.chance_outcomes})")
            self._run.draw_setup(int(action))
        else:
            self._run.play(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        action = self._checked_action(action, chance=player == CHANCE)
        if player == CHANCE:
            return f"setup {action}"
        if self._run.state is None:
            raise ValueError(f"player {player} has no actions at the chance node (the setup is not drawn yet)")
        return self._run.context.game.action_to_str(self._run.state, action)

    def is_terminal(self) -> bool:
        return self._run.state is not None and self._run.context.game.is_terminal(self._run.state)

    def returns(self) -> list[float]:
        if self._run.state is None:
            return [0.0] * self.num_players()
        return [float(value) for value in self._run.context.game.returns(self._run.state)]

    def rewards(self) -> list[float]:
        """Terminal rewards only: the returns at the end, zeros before."""
        return self.returns() if self.is_terminal() else [0.0] * self.num_players()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> OpenSpielState:
        """A state ``player_id`` cannot tell from this one: ``game.determinize`` seeded by ``probability_sampler``.

        Perfect-information states and the chance node come back as clones.
        """
        run = self._run
        if run.state is None or run.context.game.spec.perfect_information:
            return self.clone()
        seed = [int(probability_sampler() * 2**32) for _ in range(4)]
        state = self.get_game().new_initial_state()
        state._run = run.resampled(int(player_id), np.random.default_rng(seed))
        return state

    def __str__(self) -> str:
        return CHANCE_TEXT if self._run.state is None else self._run.context.game.to_text(self._run.state)


class Observer:
    """The observation or the information state of a player, as OpenSpiel's python observers offer them.

    ``tensor`` is flat ``float32``; ``dict["observation"]`` is its view of shape ``spec.observation_shape``
    and, for the information state, ``dict["progress"]`` is the fraction of the move cap played.
    """

    def __init__(self, game: Game, information_state: bool) -> None:
        self.game = game
        self.information_state = information_state
        shape = game.spec.observation_shape
        size = int(np.prod(shape))
        self.tensor = np.zeros(size + int(information_state), dtype=np.float32)
        self.dict = {"observation": self.tensor[:size].reshape(shape)}
        if information_state:
            self.dict["progress"] = self.tensor[size:]

    def set_from(self, state: OpenSpielState, player: int) -> None:
        """Fill ``tensor`` with ``state`` as ``player`` sees it (zeros at the chance node)."""
        engine_state = state.engine_state
        if engine_state is None:
            self.tensor.fill(0.0)
            return
        self.dict["observation"][...] = self.game.observe(engine_state, player)
        if self.information_state:
            self.dict["progress"][0] = engine_state.ply / self.game.spec.max_game_length

    def string_from(self, state: OpenSpielState, player: int) -> str:
        """``game.text_for`` (observation), or the player's view of the whole past then its current view."""
        engine_state = state.engine_state
        if engine_state is None:
            return CHANCE_TEXT
        view = self.game.text_for(engine_state, player)
        if not self.information_state:
            return view
        return "\n".join([f"seat {player}", *state.information_lines(player), "now:", view])


def install_checked_load_game() -> None:
    """Make ``pyspiel.load_game`` the checked :func:`load_game` (once; importing this module does it)."""
    pyspiel._boardenvs_unchecked_load_game = _PYSPIEL_LOAD_GAME  # type: ignore[attr-defined]
    pyspiel.load_game = load_game


register_games()
install_checked_load_game()
