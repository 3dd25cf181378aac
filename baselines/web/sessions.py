"""The live arena's games, held on the server: validation of every request, seat views, bots' turns.

An :class:`Arena` holds a bounded number of :class:`Session` objects (one game each: the true states, the moves,
who sits where). Everything a browser sends passes through here first and is checked — an unknown game, config
value, agent or field, a malformed value, a move that is illegal, not the sender's or stale — and refused with
a :class:`RequestError` (an HTTP status and a message naming what was wrong) that leaves the game unchanged.

What a browser gets back is a *seat view* (:func:`seat_view`): the picture and move list as one seat may see them
(``Game.render_svg(state, seat)``, ``Game.action_text_for``), that seat's legal moves when it is to play, and the
result. The true state, the deck order and the game seed (which would reveal the deck) are never sent while a
person plays a game with hidden information; the spectator's view (everything) is served only for games between
bots, and only when asked. Undo takes back the last move of a person and the bots' replies to it exactly (the
bots' decisions are seeded by position, so the same position gets the same reply); in a game with hidden
information the person keeps what the undone move showed them, like a take-back at a real table.
"""

from __future__ import annotations

import functools
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from baselines.factory import RLLIB_PREFIX, SB3_PREFIX, agent_choices, expand_pretrained, parse_spec
from baselines.web.bots import BotFailure, BotPool, BotRequest
from boardenvs.core import Game
from boardenvs.registry import list_games, list_presets, make_game
from boardenvs.replay import Replay, config_from_json, config_to_json, record_replay, setup_rng
from boardenvs.replay_html import outcome_text

HUMAN = "human"
"""The seat spec of a person playing in the browser."""
SPECTATOR = "spectator"
FILE_SETTINGS = frozenset({"checkpoint", "model", "weights", "table"})
"""Agent settings that name a file to load (only ``pretrained`` is allowed from a browser)."""
DECISION_STREAM = 3
"""Seed-sequence key of one bot decision: ``[seed, DECISION_STREAM, ply, seat]`` (as ``scripts.play``)."""
SUGGESTED_SPECS = ("random", "mcts:simulations=200", "rhea", "alphazero:pretrained", "ppo:pretrained")


class RequestError(Exception):
    """A request the arena refuses: ``status`` is the HTTP status, the message says what was wrong."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass(frozen=True)
class ArenaSettings:
    """Limits of one arena server.

    Attributes:
        max_sessions: Games held at once; when full, the least recently used game idle for ``idle_seconds`` is
            closed to make room, otherwise a new game is refused (503).
        idle_seconds: How long an untouched game is kept when room is needed.
        think_seconds: The most a bot may think about one move; past it the game ends with a message.
        bot_workers: Worker processes that run the bots.
        allowed_agents: Agent specs that load files (``sb3:...``, ``rllib:...``, ``...:checkpoint=...``), allowed
            because the server's owner named them at start; a browser may choose no other spec that names a file.
        max_plies: Games whose move cap is longer are refused (they would hold too many positions).
    """

    max_sessions: int = 16
    idle_seconds: float = 1800.0
    think_seconds: float = 10.0
    bot_workers: int = 2
    allowed_agents: tuple[str, ...] = ()
    max_plies: int = 5000


@dataclass
class Session:
    """One game in the arena: its settings and the true history (never sent to a browser as such)."""

    id: str
    game: Game
    seats: tuple[str, ...]
    seed: int
    worker: int
    states: list[Any]
    actions: list[int] = field(default_factory=list)
    message: str | None = None
    used: float = field(default_factory=time.monotonic)
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def state(self) -> Any:
        """The current true state."""
        return self.states[-1]

    @property
    def humans(self) -> tuple[int, ...]:
        """The seats played by people."""
        return tuple(seat for seat, spec in enumerate(self.seats) if spec == HUMAN)

    @property
    def over(self) -> bool:
        """Whether the game ended (by its rules, the move cap, or a bot's failure)."""
        return self.game.is_terminal(self.state) or self.message is not None

    def push(self, action: int) -> None:
        """Play ``action`` (already checked)."""
        self.states.append(self.game.apply(self.state, action))
        self.actions.append(action)


# -- checking requests ----------------------------------------------------------------------------
def check_fields(body: Any, allowed: set[str], where: str) -> Mapping[str, Any]:
    """``body`` as a JSON object with no fields but ``allowed``; 400 otherwise."""
    if not isinstance(body, Mapping):
        raise RequestError(400, f"{where}: the request body must be a JSON object")
    unknown = sorted(set(body) - allowed)
    if unknown:
        raise RequestError(400, f"{where}: unknown field(s) {unknown}; allowed: {sorted(allowed)}")
    return body


def int_field(body: Mapping[str, Any], name: str, low: int, high: int, required: bool = True) -> int | None:
    """The integer field ``name`` of ``body`` in ``low..high``; 400 naming it otherwise."""
    if name not in body or body[name] is None:
        if required:
            raise RequestError(400, f"field {name!r} is required (an integer in {low}..{high})")
        return None
    value = body[name]
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise RequestError(400, f"field {name!r} must be an integer in {low}..{high}, got {value!r}")
    return value


def check_agent_spec(spec: Any, game_name: str, allowed: tuple[str, ...]) -> str:
    """A seat's spec from a browser: ``human``, a spec the server allowed, or an agent spec naming no file."""
    if not isinstance(spec, str) or not spec.strip() or len(spec) > 200:
        raise RequestError(400, f"seats: each seat must be 'human' or an agent spec (text), got {spec!r}")
    spec = spec.strip()
    if spec == HUMAN or spec in allowed:
        return spec
    if spec.startswith((SB3_PREFIX, RLLIB_PREFIX)):
        raise RequestError(403, f"seats: {spec!r} loads a file; only the specs the server was started with "
                                f"(--allow-agent) may: {list(allowed)}")  # fmt: skip
    try:
        name, settings = parse_spec(expand_pretrained(spec))
    except ValueError as error:
        raise RequestError(400, f"seats: {error}") from None
    for key, value in settings.items():
        if (key in FILE_SETTINGS and value != "pretrained") or _looks_like_path(value):
            raise RequestError(403, f"seats: {spec!r} names a file ({key}={value}); only 'pretrained' or the specs "
                                    f"the server was started with (--allow-agent) may load files")  # fmt: skip
    del name
    return spec


def _looks_like_path(value: Any) -> bool:
    return isinstance(value, str) and any(mark in value for mark in ("/", "\\", "~", ".."))


def build_game(body: Mapping[str, Any], max_plies: int) -> Game:
    """The game a create request names (``game``, ``preset``, ``config``); 400 naming what is wrong."""
    name = body.get("game")
    if name not in list_games():
        raise RequestError(400, f"game: unknown game {name!r}; games: {list_games()}")
    preset = body.get("preset")
    if preset is not None and preset not in list_presets(name):
        raise RequestError(400, f"preset: {name} has no preset {preset!r}; presets: {list_presets(name)}")
    config = body.get("config") or {}
    if not isinstance(config, Mapping):
        raise RequestError(400, "config: must be a JSON object of config fields")
    try:
        game = make_game(name, preset, **config_from_json(config))
    except (TypeError, ValueError) as error:
        raise RequestError(400, f"config: {error}") from None
    if game.spec.max_game_length > max_plies:
        raise RequestError(400, f"config: games longer than {max_plies} plies are not served "
                                f"(this config's move cap is {game.spec.max_game_length})")  # fmt: skip
    return game


# -- views ------------------------------------------------------------------------------------
def seat_view(session: Session, viewer: int | None) -> dict[str, Any]:
    """What a browser is sent: the game as ``viewer`` may see it (``None``: the spectator, everything)."""
    game, state = session.game, session.state
    to_move = None if session.over else int(state.current_player)
    playing = to_move is not None and to_move == viewer and session.seats[to_move] == HUMAN
    mask = game.legal_action_mask(state) if playing else None
    legal = [{"action": int(a), "text": game.action_to_str(state, int(a))} for a in np.flatnonzero(mask)] if playing \
        else []  # fmt: skip
    return {
        "id": session.id,
        "game": game.spec.name,
        "seats": [{"seat": seat, "player": spec} for seat, spec in enumerate(session.seats)],
        "viewer": SPECTATOR if viewer is None else viewer,
        "ply": int(state.ply),
        "to_move": to_move,
        "your_turn": playing,
        "svg": game.render_svg(state, viewer, mask),
        "legal": legal,
        "moves": _move_list(session, viewer),
        "over": session.over,
        "result": _result(session),
        "message": session.message,
        "can_undo": _last_human_ply(session) is not None,
    }


def _move_list(session: Session, viewer: int | None) -> list[dict[str, Any]]:
    game, moves = session.game, []
    for state, action in zip(session.states, session.actions):
        text = game.action_to_str(state, action) if viewer is None else game.action_text_for(state, action, viewer)
        moves.append({"player": int(state.current_player), "text": text})
    return moves


def _result(session: Session) -> str | None:
    if session.message is not None:
        return f"game stopped: {session.message}"
    if not session.game.is_terminal(session.state):
        return None
    names = [spec if spec != HUMAN else "you" for spec in session.seats]
    return outcome_text(session.game.returns(session.state), names, session.game.is_truncated(session.state))


def _last_human_ply(session: Session) -> int | None:
    plies = [ply for ply, state in enumerate(session.states[:-1]) if session.seats[state.current_player] == HUMAN]
    return plies[-1] if plies else None


@functools.cache
def game_summary(name: str) -> dict[str, Any]:
    """A game as the arena's setup form shows it: its default config, presets and suggested agents."""
    game = make_game(name)
    scripted = sorted(set(agent_choices(name)) - {"random", "mcts", "rhea", "alphabeta"})
    return {
        "name": name,
        "doc": (type(game).__doc__ or "").strip().splitlines()[0],
        "presets": list_presets(name),
        "config": config_to_json(game),
        "num_players": game.spec.num_players,
        "agents": [*scripted, *SUGGESTED_SPECS],
        "perfect_information": game.spec.perfect_information,
    }


# -- the arena --------------------------------------------------------------------------------
class Arena:
    """The games of one server and what can be done with them (every method checks its request).

    Args:
        settings: The server's limits.
        bots: The worker processes that run bots (default: a pool sized by ``settings``).
    """

    def __init__(self, settings: ArenaSettings | None = None, bots: BotPool | None = None) -> None:
        self.settings = settings or ArenaSettings()
        self.bots = bots or BotPool(self.settings.bot_workers, self.settings.think_seconds)
        self._sessions: OrderedDict[str, Session] = OrderedDict()
        self._lock = threading.Lock()
        self._next_worker = 0

    def close(self) -> None:
        """Stop the bots' workers."""
        self.bots.close()

    # -- what can be played --------------------------------------------------------------------
    def catalog(self) -> dict[str, Any]:
        """The games, their presets and config fields with defaults, and suggested agent specs."""
        return {"games": [game_summary(name) for name in list_games()], "human": HUMAN,
                "allowed_agents": list(self.settings.allowed_agents)}  # fmt: skip

    # -- sessions -----------------------------------------------------------------------------
    def create(self, body: Any) -> Session:
        """Start a game: ``{"game", "preset"?, "config"?, "seats": [spec, ...], "seed"?}``."""
        body = check_fields(body, {"game", "preset", "config", "seats", "seed"}, "new game")
        game = build_game(body, self.settings.max_plies)
        seats = body.get("seats")
        if not isinstance(seats, list) or len(seats) != game.spec.num_players:
            raise RequestError(400, f"seats: {game.spec.name} with this config has {game.spec.num_players} seats; "
                                    f"give a list of {game.spec.num_players} specs ('human' or an agent)")  # fmt: skip
        seats = [check_agent_spec(spec, game.spec.name, self.settings.allowed_agents) for spec in seats]
        seed = self._seed(body, game, seats)
        session = Session(secrets.token_urlsafe(16), game, tuple(seats), seed, self._take_worker(),
                          [game.initial_state(setup_rng(seed))])  # fmt: skip
        self._build_bots(session)
        self._store(session)
        self.run_bots(session)
        return session

    def _seed(self, body: Mapping[str, Any], game: Game, seats: list[str]) -> int:
        seed = int_field(body, "seed", 0, 2**63 - 1, required=False)
        if seed is not None and HUMAN in seats and not game.spec.perfect_information:
            raise RequestError(400, "seed: a person cannot choose the seed of a game with hidden information "
                                    "(it would tell them the hidden cards); leave it out")  # fmt: skip
        return seed if seed is not None else secrets.randbelow(2**63)

    def _take_worker(self) -> int:
        with self._lock:
            self._next_worker += 1
            return self._next_worker % self.bots.size

    def _build_bots(self, session: Session) -> None:
        for seat, spec in enumerate(session.seats):
            if spec != HUMAN:
                try:
                    self.bots.build(self._request(session, seat, session.state, 0), session.worker)
                except BotFailure as error:
                    raise RequestError(400, f"seats: seat {seat}: {error}") from None

    def _store(self, session: Session) -> None:
        with self._lock:
            if len(self._sessions) >= self.settings.max_sessions:
                self._evict_idle()
            self._sessions[session.id] = session

    def _evict_idle(self) -> None:
        now = time.monotonic()
        for key, old in self._sessions.items():
            if now - old.used >= self.settings.idle_seconds:
                del self._sessions[key]
                return
        raise RequestError(503, f"the arena holds {self.settings.max_sessions} games, all in use; close one "
                                f"(or wait {self.settings.idle_seconds:g} s for an idle one to expire)")  # fmt: skip

    def session(self, session_id: str) -> Session:
        """The game ``session_id`` (404 if there is none: unknown, closed or expired)."""
        with self._lock:
            session = self._sessions.get(session_id)
            if session is None:
                raise RequestError(404, f"no game {session_id!r}: it does not exist, was closed or expired")
            self._sessions.move_to_end(session_id)
        session.used = time.monotonic()
        return session

    def remove(self, session_id: str) -> None:
        """Close a game."""
        self.session(session_id)
        with self._lock:
            self._sessions.pop(session_id, None)

    def viewer(self, session: Session, seat: Any, view: Any) -> int | None:
        """The seat whose view a request asks for (``?seat=k`` or ``?view=spectator``); 400/403 when not allowed."""
        if view not in (None, "", SPECTATOR):
            raise RequestError(400, f"view must be {SPECTATOR!r} or left out, got {view!r}")
        if view == SPECTATOR:
            if session.humans:
                raise RequestError(403, "view: the spectator's view (every hidden card) is only for games between bots")
            return None
        if seat in (None, ""):
            return self._default_viewer(session)
        try:
            seat = int(seat)
        except (TypeError, ValueError):
            raise RequestError(400, f"seat must be an integer, got {seat!r}") from None
        allowed = session.humans or tuple(range(session.game.spec.num_players))
        if seat not in allowed:
            raise RequestError(403, f"seat {seat} is not yours to view; seats you may view: {list(allowed)}")
        return seat

    def _default_viewer(self, session: Session) -> int:
        if not session.humans:
            return 0
        to_move = session.state.current_player
        return to_move if to_move in session.humans else session.humans[0]

    # -- playing -----------------------------------------------------------------------------
    def move(self, session: Session, body: Any) -> None:
        """A person's move ``{"seat", "action", "ply"}``, then the bots' replies until a person is to move."""
        body = check_fields(body, {"seat", "action", "ply"}, "move")
        game = session.game
        seat = int_field(body, "seat", 0, game.spec.num_players - 1)
        action = int_field(body, "action", 0, game.spec.num_actions - 1)
        ply = int_field(body, "ply", 0, 2**31)
        with session.lock:
            self._check_turn(session, seat, ply)
            try:
                game.check_action(session.state, action)
            except (TypeError, ValueError) as error:
                raise RequestError(400, f"action {action} is illegal here: {error}") from None
            session.push(action)
            self.run_bots(session)

    def _check_turn(self, session: Session, seat: int | None, ply: int | None) -> None:
        if session.over:
            raise RequestError(409, "the game is over; start over or undo")
        if ply != session.state.ply:
            raise RequestError(409, f"stale move: it was sent for ply {ply}, the game is at ply {session.state.ply}")
        if session.seats[seat] != HUMAN:
            raise RequestError(403, f"seat {seat} is played by a bot, not by you")
        if session.state.current_player != seat:
            raise RequestError(409, f"it is seat {session.state.current_player}'s turn, not seat {seat}'s")

    def advance(self, session: Session, body: Any) -> None:
        """One bot move (``{"ply"}``), for watching bots play at the browser's pace."""
        body = check_fields(body, {"ply"}, "advance")
        ply = int_field(body, "ply", 0, 2**31)
        with session.lock:
            if session.over:
                raise RequestError(409, "the game is over")
            if ply != session.state.ply:
                raise RequestError(409, f"stale request: sent for ply {ply}, the game is at ply {session.state.ply}")
            if session.seats[session.state.current_player] == HUMAN:
                raise RequestError(409, "a person is to move, not a bot")
            self.run_bots(session, limit=1)

    def run_bots(self, session: Session, limit: int | None = None) -> None:
        """Let bots move until a person is to move, the game ends, or ``limit`` moves were made (people's games run
        to the next person's turn; games between bots move only when asked)."""
        if not session.humans and limit is None:
            return
        moves = 0
        while not session.over and session.seats[session.state.current_player] != HUMAN:
            if limit is not None and moves >= limit:
                return
            player = session.state.current_player
            try:
                action = self.bots.act(self._request(session, player, session.state, session.state.ply),
                                       session.worker)  # fmt: skip
                session.game.check_action(session.state, action)
            except (BotFailure, TypeError, ValueError) as error:
                session.message = str(error)
                return
            session.push(action)
            moves += 1

    def _request(self, session: Session, player: int, state: Any, ply: int) -> BotRequest:
        rng = np.random.default_rng([session.seed, DECISION_STREAM, ply, player])
        decision_seed = int(rng.integers(2**63 - 1))
        view = session.game.determinize(state, player, rng)
        agent_seed = int(np.random.SeedSequence([session.seed, 2, player]).generate_state(1)[0])
        return BotRequest((session.id, player), session.seats[player], agent_seed, decision_seed, session.game,
                          view, player)  # fmt: skip

    def undo(self, session: Session, body: Any) -> None:
        """Take back the last move of a person and the bots' replies to it."""
        check_fields(body, set(), "undo")
        with session.lock:
            ply = _last_human_ply(session)
            if ply is None:
                raise RequestError(409, "nothing to undo: no person has moved yet")
            del session.states[ply + 1 :], session.actions[ply:]
            session.message = None

    def restart(self, session: Session, body: Any) -> None:
        """Start the same game again from its first position."""
        check_fields(body, set(), "restart")
        with session.lock:
            del session.states[1:], session.actions[:]
            session.message = None
            self.run_bots(session)

    def replay(self, session: Session) -> Replay:
        """The game as a replay; in a game with hidden information and a person, only once it is over (the seed
        and the moves would reveal the hidden cards)."""
        if session.humans and not session.game.spec.perfect_information and not session.over:
            raise RequestError(409, "the replay of a game with hidden information is available when the game is over")
        names = [spec if spec != HUMAN else "person" for spec in session.seats]
        meta = {"source": "boardenvs live arena", "stopped": session.message}
        return record_replay(session.game, session.seed, session.actions, names, meta)


