"""Every boardenvs game as an OpenSpiel game: ``pyspiel.load_game("boardenvs_<game>", {params})``.

Importing this module registers each game of :func:`boardenvs.list_games` with OpenSpiel as
``boardenvs_<name>`` (:func:`register_games`; games registered later are added by calling it again). One
adapter pair serves every game: :class:`OpenSpielGame` holds a configured ``boardenvs`` game and
:class:`OpenSpielState` wraps its states, so OpenSpiel's algorithms (MCTS, IS-MCTS, CFR, exploitability,
``evaluate_bots``) run on the same rules as the rest of the project.

**Parameters.** Every scalar field of the game's config, plus ``preset`` and ``chance_outcomes``, checked before
OpenSpiel's C++ side sees them (:mod:`boardenvs.openspiel_parameters`; importing this module makes
``pyspiel.load_game`` the checked :func:`load_game`).

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

Examples:
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
from typing import Any

import numpy as np
import pyspiel

from boardenvs.core import Game, as_action
from boardenvs.openspiel_parameters import (
    C_INT_MAX,
    MAX_CHANCE_OUTCOMES,
    PREFIX,
    check_parameters,
    checked_parameters,
    install_checked_load_game,
    load_game,
    openspiel_name,
    parameter_specification,
)
from boardenvs.registry import game_entry, list_games, make_game

__all__ = [
    "C_INT_MAX",
    "MAX_CHANCE_OUTCOMES",
    "PREFIX",
    "OpenSpielGame",
    "OpenSpielState",
    "check_parameters",
    "load_game",
    "parameter_specification",
    "register_games",
]

PROBE_SEEDS = 8
"""Seeds whose initial states are compared to tell a game with setup randomness."""
MAX_PLAYERS_PROBED = 8
CHANCE_TEXT = "setup not drawn yet (chance node)"
CHANCE = int(pyspiel.PlayerId.CHANCE)
"""OpenSpiel's id of the chance player (-1)."""
GAME_CLASSES: dict[str, type[OpenSpielGame]] = {}
"""The :class:`OpenSpielGame` subclass of every registered game, by boardenvs name."""


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
        params, engine = checked_parameters(name, params)
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


register_games()
install_checked_load_game()
