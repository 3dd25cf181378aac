"""The live arena's games, held on the server: sessions, the requests that play them, bots' turns.

An :class:`Arena` holds a bounded number of :class:`Session` objects (one game each: the true states, the moves,
who sits where). Every request is checked before it changes anything: its fields by :mod:`baselines.web.requests`,
and here whether a move is legal, the sender's and not stale; a refusal is a
:class:`~baselines.web.requests.RequestError` that leaves the game unchanged. What a browser gets back is a seat
view (:mod:`baselines.web.views`). Undo takes back the last move of a person and the bots' replies to it exactly
(the bots' decisions are seeded by position, so the same position gets the same reply); in a game with hidden
information the person keeps what the undone move showed them, like a take-back at a real table.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from baselines.web.bots import BotFailure, BotPool, BotRequest
from baselines.web.requests import HUMAN, RequestError, build_game, check_agent_spec, check_fields, int_field
from baselines.web.views import SPECTATOR, game_summary
from boardenvs.core import Game
from boardenvs.registry import list_games
from boardenvs.replay import Replay, record_replay, setup_rng

DECISION_STREAM = 3
"""Seed-sequence key of one bot decision: ``[seed, DECISION_STREAM, ply, seat]`` (as ``scripts.play``)."""


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

    @property
    def last_human_ply(self) -> int | None:
        """The ply of the last move a person made (what undo takes back), ``None`` before any."""
        plies = [ply for ply, state in enumerate(self.states[:-1]) if self.seats[state.current_player] == HUMAN]
        return plies[-1] if plies else None


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
            ply = session.last_human_ply
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
