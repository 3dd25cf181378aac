"""Tiny games that follow the contract, used to test the generic machinery without a real game.

``tests/conftest.py`` registers them (with their envs) for every test session; the package never sees them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from boardenvs.core import TERMINAL, Game, GameSpec, ObservationField, Symmetry, check_int, shared_win_returns
from boardenvs.envs import register_envs
from boardenvs.registry import list_games, register_game, register_opponent

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


@dataclass(frozen=True)
class TicTacToeConfig:
    first_player: int = 0

    def __post_init__(self) -> None:
        check_int("first_player", self.first_player, 0, 1)


class TicTacToeState:
    def __init__(self, board: np.ndarray, current_player: int, ply: int = 0) -> None:
        self.board = board  # -1 empty, else player id
        self.current_player = current_player
        self.ply = ply
        self.truncated = False

    def copy(self) -> TicTacToeState:
        return TicTacToeState(self.board.copy(), self.current_player, self.ply)

    def key(self) -> bytes:
        return self.board.tobytes() + bytes([self.current_player + 1, self.ply])


class Cell(NamedTuple):
    """A tic-tac-toe move: the cell marked."""

    row: int
    col: int


class MirrorColumns(Symmetry[TicTacToeState]):
    """Tic-tac-toe mirrored left-right: column c becomes 2 - c; seats and the player to move unchanged."""

    def __init__(self) -> None:
        super().__init__("mirror_left_right", np.array([3 * (a // 3) + 2 - a % 3 for a in range(9)]), (0, 1))

    def state(self, state: TicTacToeState) -> TicTacToeState:
        new = state.copy()
        new.board = state.board.reshape(3, 3)[:, ::-1].ravel().copy()
        return new

    def observation(self, observation: np.ndarray) -> np.ndarray:
        return observation[:, :, ::-1].copy()


class TicTacToe(Game[TicTacToeState, Cell]):
    """Tic-tac-toe: 2 players, actions 0..8 are cells, planes [mine, theirs, ones]; a left-right mirror."""

    name = "toy_tictactoe"
    version = 0
    config_class = TicTacToeConfig

    def _make_spec(self) -> GameSpec:
        fields = (
            ObservationField("mine", 0, 1, 0, 1, "my marks"),
            ObservationField("theirs", 1, 2, 0, 1, "opponent marks"),
            ObservationField("ones", 2, 3, 1, 1, "constant plane"),
        )
        return GameSpec(self.name, self.version, 2, 9, (3, 3, 3), fields, 9, True, True)

    def initial_state(self, rng: np.random.Generator) -> TicTacToeState:
        del rng
        return TicTacToeState(np.full(9, -1, dtype=np.int8), self.config.first_player)

    def legal_action_mask(self, state: TicTacToeState) -> np.ndarray:
        if state.current_player == TERMINAL:
            return np.zeros(9, dtype=bool)
        return state.board < 0

    def _make_symmetries(self) -> tuple[Symmetry[TicTacToeState], ...]:
        return (MirrorColumns(),)

    def encode(self, state: TicTacToeState, move: Cell) -> int:
        return 3 * move.row + move.col

    def decode(self, state: TicTacToeState, action: int) -> Cell:
        return Cell(*divmod(action, 3))

    def _apply(self, state: TicTacToeState, action: int) -> TicTacToeState:
        new = state.copy()
        new.board[action] = state.current_player
        new.ply += 1
        if self._winner(new) is not None or new.ply == 9:
            new.current_player = TERMINAL
        else:
            new.current_player = 1 - state.current_player
        return new

    def _winner(self, state: TicTacToeState) -> int | None:
        for a, b, c in LINES:
            if state.board[a] >= 0 and state.board[a] == state.board[b] == state.board[c]:
                return int(state.board[a])
        return None

    def returns(self, state: TicTacToeState) -> np.ndarray:
        if state.current_player != TERMINAL:
            return np.zeros(2, dtype=np.float32)
        winner = self._winner(state)
        return shared_win_returns(2, [] if winner is None else [winner])

    def observe(self, state: TicTacToeState, player: int) -> np.ndarray:
        board = state.board.reshape(3, 3)
        return np.stack([board == player, (board >= 0) & (board != player), np.ones((3, 3))]).astype(np.float32)

    def action_to_str(self, state: TicTacToeState, action: int) -> str:
        return "abc"[action % 3] + str(action // 3 + 1)

    def to_text(self, state: TicTacToeState) -> str:
        symbols = {-1: ".", 0: "x", 1: "o"}
        rows = ["".join(symbols[int(v)] for v in state.board[r * 3 : r * 3 + 3]) for r in range(3)]
        return "\n".join(rows)


# -- a second toy game: irregular turn order, vector observations, events, a move cap -----------
@dataclass(frozen=True)
class CountDownConfig:
    num_players: int = 2
    start: int = 10
    cap: int = 50

    def __post_init__(self) -> None:
        check_int("num_players", self.num_players, 2, 4)
        check_int("start", self.start, 1)
        check_int("cap", self.cap, 1)


class CountDownState:
    def __init__(self, counter: int, current_player: int, ply: int = 0) -> None:
        self.counter = counter
        self.current_player = current_player
        self.ply = ply
        self.truncated = False
        self.winner: int | None = None
        self.events: tuple[tuple[int, int], ...] = ()

    def copy(self) -> CountDownState:
        new = CountDownState(self.counter, self.current_player, self.ply)
        new.truncated, new.winner, new.events = self.truncated, self.winner, self.events
        return new

    def key(self) -> bytes:
        return repr((self.counter, self.current_player, self.ply, self.truncated, self.winner)).encode()


class CountDown(Game[CountDownState, int]):
    """Players count down a shared counter; whoever brings it to 0 wins; ``cap`` plies end it as a draw.

    Actions: 0 takes one (next player moves), 1 takes two and moves again, 2 takes one and skips the next
    player. The first player comes from the rng. Observation (vector): [counter / start, one-hot of the player
    to move relative to me]. ``state.events`` logs ``(player, action)``.
    """

    name = "toy_countdown"
    version = 0
    config_class = CountDownConfig

    def _make_spec(self) -> GameSpec:
        n = self.config.num_players
        fields = (
            ObservationField("counter", 0, 1, 0, 1, "counter / start"),
            ObservationField("to_move", 1, 1 + n, 0, 1, "player to move, relative to me"),
        )
        return GameSpec(self.name, self.version, n, 3, (1 + n,), fields, self.config.cap, True, True, "vector")

    def initial_state(self, rng: np.random.Generator) -> CountDownState:
        return CountDownState(self.config.start, int(rng.integers(self.config.num_players)))

    def legal_action_mask(self, state: CountDownState) -> np.ndarray:
        if state.current_player == TERMINAL:
            return np.zeros(3, dtype=bool)
        return np.array([True, state.counter >= 2, True])

    def encode(self, state: CountDownState, move: int) -> int:
        return move

    def decode(self, state: CountDownState, action: int) -> int:
        return action

    def _apply(self, state: CountDownState, action: int) -> CountDownState:
        player, n = state.current_player, self.config.num_players
        new = state.copy()
        new.counter -= 2 if action == 1 else 1
        new.ply += 1
        new.events = state.events + ((player, action),)
        new.current_player = (player + (0, 0, 1)[action] + (1, 0, 1)[action]) % n
        if new.counter <= 0:
            new.current_player, new.winner = TERMINAL, player
        return new

    def returns(self, state: CountDownState) -> np.ndarray:
        if state.current_player != TERMINAL:
            return np.zeros(self.config.num_players, dtype=np.float32)
        return shared_win_returns(self.config.num_players, [] if state.winner is None else [state.winner])

    def observe(self, state: CountDownState, player: int) -> np.ndarray:
        obs = np.zeros(1 + self.config.num_players, dtype=np.float32)
        obs[0] = max(state.counter, 0) / self.config.start
        if state.current_player != TERMINAL:
            obs[1 + (state.current_player - player) % self.config.num_players] = 1.0
        return obs

    def action_to_str(self, state: CountDownState, action: int) -> str:
        return ("one", "two", "skip")[action]

    def to_text(self, state: CountDownState) -> str:
        return f"counter {state.counter}, to move {state.current_player}"


class FirstLegalAgent:
    """A scripted agent for tests: plays the lowest legal action and records what it was given."""

    name = "first_legal"

    def __init__(self) -> None:
        self.seeds: list[int] = []
        self.views: list[Any] = []

    def act(self, game: Game, view: Any, player: int) -> int:
        self.views.append(view)
        return int(game.legal_actions(view)[0])

    def reseed(self, seed: int) -> None:
        self.seeds.append(seed)


TOY_GAMES: dict[str, type[Game]] = {"toy_tictactoe": TicTacToe, "toy_countdown": CountDown}


def ensure_toy_games_registered() -> None:
    """Register the toy games and their envs (tests only; the package never sees them)."""
    for name, game_class in TOY_GAMES.items():
        if name not in list_games():
            register_game(name, game_class, gym_name=name.title().replace("_", ""))
        register_envs(name)
    register_opponent("toy_tictactoe", "first_legal", FirstLegalAgent, default=True)


ensure_toy_games_registered()
