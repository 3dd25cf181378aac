"""The Quoridor game object: the contract of ``boardenvs.core.Game`` on top of the bitboard engine."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from boardenvs.core import TERMINAL, Game, GameSpec, Symmetry, check_int, shared_win_returns
from boardenvs.games.quoridor.config import QuoridorConfig
from boardenvs.games.quoridor.legality import illegal_reason, legal_moves
from boardenvs.games.quoridor.notation import (
    Move,
    move_name,
    move_of_unified,
    parse_move,
    unified_of_move,
)
from boardenvs.games.quoridor.observation import Observer, observation_fields
from boardenvs.games.quoridor.state import NO_WINNER, QuoridorState
from boardenvs.games.quoridor.svg import quoridor_svg
from boardenvs.games.quoridor.symmetry import MirrorLeftRight
from boardenvs.games.quoridor.tables import tables_for
from boardenvs.games.quoridor.text import to_text
from boardenvs.games.quoridor.transitions import start_position, successor
from boardenvs.games.quoridor.walls import Walls


class Quoridor(Game[QuoridorState, Move]):
    """Quoridor (Gigamic) for 2 or 4 players, official rules, OpenSpiel's notation and move cap.

    Version history: docs/versions.md (``version`` is in the env ids and the module name,
    ``boardenvs.quoridor_v<version>``).

    Rules and sources: ``docs/rules/rules.md`` §5 (official rules §5.2, OpenSpiel's implementation §5.3,
    the source paper's liberal jumps §5.4).

    **Players.** 2 or 4, moving in turn order 0, 1, (2, 3); player 0 always moves first (the
    adapters randomise seats). Seats (row 0 is the top, the centre is square
    ``(n - n % 2) // 2`` as in OpenSpiel): player 0 starts bottom centre and must reach the top
    row; with 2 players, player 1 starts top centre (goal: bottom row); with 4 players, clockwise:
    1 left (goal: right column), 2 top (goal: bottom row), 3 right (goal: left column).

    **Rules.** A turn is a pawn move or a wall. Pawns step orthogonally; next to a pawn a player
    jumps straight over it if nothing (wall, edge, pawn) is behind; with a wall or the edge
    behind it, it side-steps diagonally (not through a wall, not onto a pawn); with a third pawn
    behind there is no move that way at all (OpenSpiel). With ``liberal_jumps`` a player next to a
    pawn may move to every free square that pawn could step to. Walls are 2 squares long, may not
    overlap or cross, and must leave every pawn a path to its goal (pawns do not block paths).
    PASS is legal only when nothing else is. ``apply`` rejects an illegal id with a ``ValueError``
    naming the move and the rule it breaks (``action 40 is illegal here: wall c3h crosses an
    existing wall``).

    **Actions** (``num_actions = n*n + 2*(n-1)**2 + 1``; 210 on 9x9), always in the frame of the
    player to move (see below): ``[0, n*n)`` pawn to square ``r * n + c``; then ``(n-1)**2``
    horizontal walls at anchor ``r * (n-1) + c`` (under squares (r, c) and (r, c+1)); then
    ``(n-1)**2`` vertical walls (right of squares (r, c) and (r+1, c)); last, PASS.

    **Egocentric frame.** Action ids and observations are expressed on the board turned by
    quarter turns so that the acting/observing player's goal is at the top: player 0 unturned,
    2-player player 1 by 180 degrees; with 4 players player 1 a quarter turn counter-clockwise,
    player 2 by 180 degrees, player 3 a quarter turn clockwise (turning by 90 degrees makes
    horizontal walls vertical). One shared policy can so play every seat.

    **Codec.** ``encode(state, move)`` and ``decode(state, action)`` convert between an action id in
    the frame of the player to move (player 0's once the game is over) and an absolute
    :class:`~boardenvs.games.quoridor.Move`: ``Move("pawn", row, col)`` (target square),
    ``Move("wall", row, col, horizontal)`` (anchor) or ``Move("pass", -1, -1)``. The notation
    (``action_to_str``, ``parse_action``) is absolute and identical to OpenSpiel's: ``e8``, ``c3h``,
    ``a4v``, ``pass``.

    **Observation** ``float32[3p + 4, n, n]`` in the observer's frame, values in [0, 1]:
    ``pawns`` (p planes, turn order starting with the observer), ``horizontal_walls``,
    ``vertical_walls`` (1 on wall anchors), ``distances`` (p planes, same order: each player's
    shortest-path distance to its goal from every square / n², 1 where cut off), ``walls_left``
    (p constant planes, walls left / max(1, walls_per_player)), ``my_turn``, ``ones``.

    **Symmetries.** With 2 players ``spec.symmetries == ("mirror_left_right",)``:
    :class:`~boardenvs.games.quoridor.symmetry.MirrorLeftRight` mirrors the board (squares
    ``c -> n-1-c``, wall anchors ``c -> n-2-c``), keeps the seats, permutes the action ids (the same
    permutation in both players' frames) and flips the observation planes. With 4 players there is
    none: a mirror swaps the left and right seats and so reverses the clockwise turn order.

    **Returns** (``boardenvs.core.shared_win_returns``, one winner): the first pawn on its goal line
    wins, +1 for it and -1/(p-1) for every other player. After ``max_moves`` plies (default
    ``4 * n * n``, 324 on 9x9) the game is a draw: all zeros and ``state.truncated``, even if that
    last ply reached a goal (as in OpenSpiel: ``cap_overrides_final_win``). Perfect information;
    ``determinize`` is a copy.

    Example:
        >>> import numpy as np
        >>> from boardenvs.games.quoridor import Move, Quoridor
        >>> game = Quoridor(board_size=5)
        >>> state = game.initial_state(np.random.default_rng(0))
        >>> state = game.apply(state, game.encode(state, Move("pawn", 3, 2)))  # player 0 steps up to c4
        >>> state.current_player, game.decode(state, 17)  # ids are in player 1's turned frame
        (1, Move(kind='pawn', row=1, col=2, horizontal=False))
        >>> game.action_to_str(state, 17), game.distance_to_goal(state, 0), game.walls_left(state, 1)
        ('c2', 3, 3)
        >>> mirror = game.symmetries[0]  # mirror_left_right: wall anchor b -> c on 5x5 (columns a..d)
        >>> game.action_to_str(state, int(mirror.actions[game.parse_action(state, "b1h")]))
        'c1h'
    """

    name = "quoridor"
    version = 0
    config_class = QuoridorConfig
    cap_overrides_final_win = True  # OpenSpiel: the ply that reaches the cap is a draw, even on the goal line

    def _setup(self) -> None:
        """Per-config attributes: ``tables`` (geometry and frames, shared per size), ``observer`` and ``liberal``
        (the jump rule)."""
        config: QuoridorConfig = self.config
        self.tables = tables_for(config.board_size, config.num_players)
        self.observer = Observer(self.tables, config.walls)
        self.liberal = config.liberal_jumps

    def _make_spec(self) -> GameSpec:
        config: QuoridorConfig = self.config
        return GameSpec(
            self.name,
            self.version,
            config.num_players,
            self.tables.num_actions,
            self.observer.shape,
            observation_fields(config.num_players),
            config.move_cap,
            perfect_information=True,
            zero_sum=True,
        )

    def _make_symmetries(self) -> tuple[Symmetry[QuoridorState], ...]:
        """The left-right mirror with 2 players; none with 4 (a mirror reverses the clockwise turn order)."""
        if self.config.num_players != 2:
            return ()
        return (MirrorLeftRight(self.tables),)

    # -- the contract ----------------------------------------------------------------------------
    def initial_state(self, rng: np.random.Generator | None = None) -> QuoridorState:
        """The start position (deterministic: ``rng`` is accepted and unused; player 0 moves first)."""
        del rng
        return start_position(self.tables, self.config.walls)

    def legal_action_mask(self, state: QuoridorState) -> np.ndarray:
        t = self.tables
        legal = legal_moves(t, state, self.liberal)
        player = state.current_player
        if legal >> t.cells:  # walls or pass: gather all bits through the player's frame
            raw = np.frombuffer(legal.to_bytes(t.unified_bytes, "little"), dtype=np.uint8)
            return np.unpackbits(raw, bitorder="little")[t.gather[player]].view(np.bool_)
        mask = np.zeros(t.num_actions, dtype=np.bool_)
        if legal:
            frame = t.unified_to_frame[player]
            while legal:
                low = legal & -legal
                mask[frame[low.bit_length() - 1]] = True
                legal ^= low
        return mask

    def is_legal(self, state: QuoridorState, action: int) -> bool:
        """One bit test of the engine's legal-move mask through the mover's frame; False for a finished game,
        an id out of range or anything but an int."""
        if type(action) is not int:
            if isinstance(action, (bool, np.bool_)) or not isinstance(action, np.integer):
                return False
            action = int(action)
        player = state.current_player
        if player == TERMINAL or not 0 <= action < self._num_actions:
            return False
        move = self.tables.frame_to_unified[player][action]
        return (legal_moves(self.tables, state, self.liberal) >> move) & 1 == 1

    def _apply(self, state: QuoridorState, action: int) -> QuoridorState:
        return successor(self.tables, state, self.tables.frame_to_unified[state.current_player][action])

    def illegal_reason(self, state: QuoridorState, action: int) -> str:
        """Why the in-range id ``action`` is illegal, naming the move (e.g. ``wall c3h crosses an existing wall``)."""
        return illegal_reason(self.tables, state, self.tables.frame_to_unified[state.current_player][action])

    def _end_at_move_cap(self, state: QuoridorState) -> None:
        """A draw at the cap, even if the last ply reached a goal (OpenSpiel): the winner is cleared."""
        super()._end_at_move_cap(state)
        state.winner = NO_WINNER

    def returns(self, state: QuoridorState) -> np.ndarray:
        if state.current_player != TERMINAL:
            return np.zeros(self.tables.num_players, dtype=np.float32)
        return shared_win_returns(self.tables.num_players, () if state.winner == NO_WINNER else (state.winner,))

    def observe(self, state: QuoridorState, player: int) -> np.ndarray:
        return self.observer.observe(state, player)

    def action_to_str(self, state: QuoridorState, action: int) -> str:
        """Absolute notation of an action id of the player to move (player 0's frame once the game is over)."""
        return move_name(self.tables, self._unified_of_id(state, action))

    def _parse_action(self, state: QuoridorState, text: str) -> int:
        """The action id of ``text`` for the player to move; ``ValueError`` saying why it is unreadable or illegal."""
        move = unified_of_move(self.tables, parse_move(self.tables, text))
        if state.current_player == TERMINAL:
            raise ValueError(f"illegal move {text!r}: the game is over")
        if not (legal_moves(self.tables, state, self.liberal) >> move) & 1:
            raise ValueError(f"illegal move {text!r}: {illegal_reason(self.tables, state, move)}")
        return self.tables.unified_to_frame[state.current_player][move]

    def to_text(self, state: QuoridorState) -> str:
        return to_text(self.tables, state)

    def _render_svg(self, state: QuoridorState, seat: int | None, mask: np.ndarray | None) -> str:
        """The board, walls, pawns, goals and walls left (:mod:`boardenvs.games.quoridor.svg`); with ``mask``,
        a click target on every legal pawn move and wall."""
        return quoridor_svg(self.tables, state, seat, mask)

    # -- codec -------------------------------------------------------------------------------------
    def encode(self, state: QuoridorState, move: Move) -> int:
        """The action id of an absolute ``Move`` in the frame of the player to move (player 0's once over)."""
        unified = unified_of_move(self.tables, Move(*move))
        player = max(state.current_player, 0)
        return self.tables.unified_to_frame[player][unified]

    def decode(self, state: QuoridorState, action: int) -> Move:
        """The absolute ``Move`` of an action id in the frame of the player to move (player 0's once over)."""
        return move_of_unified(self.tables, self._unified_of_id(state, action))

    def _unified_of_id(self, state: QuoridorState, action: int) -> int:
        if not 0 <= int(action) < self.tables.num_actions:
            raise ValueError(f"action {action} is out of range [0, {self.tables.num_actions})")
        return self.tables.frame_to_unified[max(state.current_player, 0)][int(action)]

    # -- building positions ------------------------------------------------------------------------
    def position(
        self,
        pawns: Sequence[str],
        walls: Iterable[str] = (),
        to_move: int = 0,
        walls_left: Sequence[int] | None = None,
        ply: int = 0,
    ) -> QuoridorState:
        """A position from notation, for tests and puzzles: ``game.position(["e5", "e4"], ["d4h"], to_move=1)``.

        ``pawns`` lists each player's square; ``walls`` are placed regardless of anyone's stock
        (``walls_left`` defaults to the full stock). ``ValueError`` for squares or walls that
        cannot stand together (shared squares, overlapping or crossing walls, a pawn cut off or
        already on its goal).
        """
        t = self.tables
        if len(pawns) != t.num_players:
            raise ValueError(f"pawns must list {t.num_players} squares, got {len(pawns)}")
        cells = tuple(self._square(text) for text in pawns)
        if len(set(cells)) != len(cells):
            raise ValueError(f"two pawns share a square: {list(pawns)}")
        board = self._walls_from(walls)
        for player, cell in enumerate(cells):
            if (t.goals[player] >> cell) & 1 or board.distance(cell, t.goals[player]) < 0:
                raise ValueError(f"player {player}'s pawn on {pawns[player]} is on its goal or cut off from it")
        check_int("to_move", to_move, 0, t.num_players - 1)
        check_int("ply", ply, 0, self.spec.max_game_length - 1)
        stock = tuple(walls_left) if walls_left is not None else (self.config.walls,) * t.num_players
        if len(stock) != t.num_players or min(stock) < 0:
            raise ValueError(f"walls_left must list {t.num_players} counts >= 0, got {walls_left}")
        return QuoridorState(cells, tuple(int(w) for w in stock), board, int(to_move), int(ply))

    def _square(self, text: str) -> int:
        move = parse_move(self.tables, text)
        if move.kind != "pawn":
            raise ValueError(f"expected a square like 'e2', got {text!r}")
        return unified_of_move(self.tables, move)

    def _walls_from(self, walls: Iterable[str]) -> Walls:
        board = Walls.empty(self.tables)
        for text in walls:
            move = parse_move(self.tables, text)
            if move.kind != "wall":
                raise ValueError(f"expected a wall like 'c3h', got {text!r}")
            bit = unified_of_move(self.tables, move) - self.tables.cells
            if not (board.free >> bit) & 1:
                raise ValueError(f"wall {text!r} overlaps or crosses an earlier wall")
            board = board.add(bit)
        return board

    # -- helpers for agents ------------------------------------------------------------------------
    def distance_to_goal(self, state: QuoridorState, player: int) -> int:
        """Shortest number of steps from ``player``'s pawn to its goal through the walls (pawns ignored)."""
        return state.board.distance(state.pawns[player], self.tables.goals[player])

    def walls_left(self, state: QuoridorState, player: int) -> int:
        """Walls ``player`` still has in stock."""
        return state.walls_left[player]

    def pawn_square(self, state: QuoridorState, player: int) -> tuple[int, int]:
        """Absolute ``(row, col)`` of ``player``'s pawn (row 0 is the top)."""
        return divmod(state.pawns[player], self.tables.n)
