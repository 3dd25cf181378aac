"""A tiny game that follows the contract, used to test the generic machinery without a real game."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from boardenvs.core import TERMINAL, Game, GameSpec, ObservationField, check_int, winner_returns

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


class TicTacToe(Game[TicTacToeState]):
    """Tic-tac-toe: 2 players, actions 0..8 are cells, planes [mine, theirs, ones]."""

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

    def apply(self, state: TicTacToeState, action: int) -> TicTacToeState:
        action = self.check_action(state, action)
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
        return winner_returns(2, self._winner(state))

    def observe(self, state: TicTacToeState, player: int) -> np.ndarray:
        board = state.board.reshape(3, 3)
        return np.stack([board == player, (board >= 0) & (board != player), np.ones((3, 3))]).astype(np.float32)

    def action_to_str(self, state: TicTacToeState, action: int) -> str:
        return "abc"[action % 3] + str(action // 3 + 1)

    def to_text(self, state: TicTacToeState) -> str:
        symbols = {-1: ".", 0: "x", 1: "o"}
        rows = ["".join(symbols[int(v)] for v in state.board[r * 3 : r * 3 + 3]) for r in range(3)]
        return "\n".join(rows)
