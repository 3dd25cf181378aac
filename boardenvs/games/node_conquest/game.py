"""The Node Conquest game object: the contract of ``boardenvs.core.Game`` on top of the rule tables."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from boardenvs.core import TERMINAL, Game, GameSpec, check_int
from boardenvs.games.node_conquest.board import board_for
from boardenvs.games.node_conquest.config import NodeConquestConfig
from boardenvs.games.node_conquest.observation import Observer, observation_fields
from boardenvs.games.node_conquest.render import OWNER_LETTERS, render_rgb, to_text
from boardenvs.games.node_conquest.rules import Rules, shared_returns
from boardenvs.games.node_conquest.state import NEUTRAL, NodeConquestState

ROTATE_180 = "rotate_180_swap_players"


class Move(NamedTuple):
    """A decoded action: units go from ``origin`` to ``target`` through neighbour ``slot`` (PASS: all -1)."""

    origin: int
    slot: int
    target: int


PASS_MOVE = Move(-1, -1, -1)


class NodeConquest(Game[NodeConquestState]):
    """Node Conquest, the states.io-like grid game of seed 001, on grids, hex maps or any connected graph.

    **Players.** 2..4, moving in turn order 0, 1, ... and skipping eliminated players. Default starts:
    the corners, player 0 top-left, 1 bottom-right, 2 top-right, 3 bottom-left (graphs: node
    ``i * nodes // num_players``), each with ``start_units`` (15) units; every other node is neutral with
    ``neutral_garrison`` (0) units.

    **Rules** (RULES.md §2, resolutions N1-N9). A move sends units from an owned node to a neighbour:
    all but one (N3; with ``move_all_units`` all of them, the origin stays owned with 0). A node needs 2
    units (1 with ``move_all_units``) to move from. Arriving on an own node the units add up; on a neutral
    or enemy node a > d captures it with a - d, a < d leaves the defender d - a, a = d leaves it neutral
    with 0 (N4). After each ply every owned node of every player gains its growth rate (1 by default;
    ``growth_timing="mover_only"``: only the mover's nodes); neutral nodes never grow. A player owning no
    node is eliminated; the last player standing wins (N6). PASS exists only in variants where a player
    owning nodes can be stuck (``move_all_units``, mover-only growth, a node with growth 0, or fewer than 2
    start units) and is legal only when nothing else is.

    **Actions** ``num_actions = N * D (+ 1 PASS)``: id ``origin * D + slot`` moves from node ``origin``
    (``row * cols + col`` on grids/hexes) through neighbour slot ``slot``; ``D`` is 4 on grids (slots
    U, R, D, L), 6 on hexes (E, SE, SW, W, NW, NE; odd rows are shifted half a cell right), the largest
    degree on graphs (slot ``s`` = the ``s``-th smallest neighbour id, ``game.adjacency[origin][s]``).
    The default game has 100 actions (4n² as in the paper) and no PASS. Notation: ``"b3>R"`` (column
    letter, row number from 1 at the top, slot name), ``"n12>n7"`` on graphs, ``"pass"``.

    **Observation** from the observer's point of view, every field in [0, 1], ``F = 2p + 5`` features per
    node: ``owners`` (p: observer first, then the others in turn order), ``units`` (p, same order: units /
    ``unit_scale`` clipped to 1; the rules have no unit cap), ``neutral_units``, ``growth`` (rate / largest
    rate), ``node_exists``, ``time_elapsed`` (ply / max_plies), ``my_turn``. Grids and hexes give planes
    ``float32[F, rows, cols]``; graphs (``observation_kind="vector"``) give ``float32[F * N]``,
    feature-major (``obs[f * N + node]``), with the map itself in ``game.adjacency``.

    **Returns.** Elimination: the survivor +1, every other player -1/(p-1). At ``max_plies`` (200; the
    game is ``truncated``) the players with the most nodes win (``tie_break="units"``: then the most
    units); the k winners share +1 (+1/k each) and the losers share -1; all tied is a draw (zeros).
    ``scores`` are the nodes owned. Perfect information; ``determinize`` is a copy.
    ``spec.symmetries == ("rotate_180_swap_players",)`` for 2 players on a grid whose starts and growth
    are symmetric under a half turn (the default): see ``symmetric_action``/``symmetric_observation``.

    Example:
        >>> import numpy as np
        >>> from boardenvs.games.node_conquest import NodeConquest
        >>> game = NodeConquest()
        >>> state = game.initial_state(np.random.default_rng(0))
        >>> game.spec.num_actions, [game.action_to_str(state, int(a)) for a in game.legal_actions(state)]
        (100, ['a1>R', 'a1>D'])
        >>> state = game.apply(state, game.parse_action(state, "a1>R"))
        >>> print(game.to_text(state).splitlines()[1:3])
        ['      a   b   c   d   e', '  1  A2 A15  .0  .0  .0']
    """

    name = "node_conquest"
    version = 0
    config_class = NodeConquestConfig

    def _make_spec(self) -> GameSpec:
        config: NodeConquestConfig = self.config
        self.board = board_for(config)
        self.rules = Rules(config, self.board)
        self.observer = Observer(config, self.board)
        fields = observation_fields(config.num_players, self.board.num_nodes, self.observer.vector)
        return GameSpec(
            self.name,
            self.version,
            config.num_players,
            self.rules.num_actions,
            self.observer.shape,
            fields,
            config.max_plies,
            perfect_information=True,
            zero_sum=True,
            observation_kind="vector" if self.observer.vector else "planes",
            symmetries=(ROTATE_180,) if self._half_turn_symmetric() else (),
        )

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.config,))

    @property
    def adjacency(self) -> tuple[tuple[int, ...], ...]:
        """The neighbours of every node, in slot order."""
        return self.board.adjacency

    # -- the contract ----------------------------------------------------------------------------
    def initial_state(self, rng: np.random.Generator | None = None) -> NodeConquestState:
        """The start position (deterministic: ``rng`` is accepted and unused; player 0 moves first)."""
        del rng
        return self.rules.initial_state()

    def legal_action_mask(self, state: NodeConquestState) -> np.ndarray:
        return self.rules.mask(state)

    def apply(self, state: NodeConquestState, action: int) -> NodeConquestState:
        """The state after ``action``; ``ValueError`` naming the move if it is illegal."""
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise TypeError(f"action must be an int, got {type(action).__name__}")
        action = int(action)
        if state.current_player == TERMINAL:
            raise ValueError(f"action {action} played after the game ended")
        if not 0 <= action < self.rules.num_actions:
            raise ValueError(f"action {action} is out of range [0, {self.rules.num_actions})")
        if not self.rules.is_legal(state, action):
            reason = self.illegal_reason(state, action)
            raise ValueError(f"action {action} ({self._name(action)}) is illegal here: {reason}")
        return self.rules.successor(state, action)

    def illegal_reason(self, state: NodeConquestState, action: int) -> str:
        player, names = state.current_player, self.board.node_names
        if action == self.rules.pass_action:
            return f"player {player} can still move: pass is legal only when no move is"
        origin, slot = divmod(action, self.board.max_degree)
        where = names[origin]
        if self.board.neighbours[origin, slot] < 0:
            return f"{where} has no neighbour that way (slot {slot} leads off the map)"
        if state.owner[origin] != player:
            owner = "neutral" if state.owner[origin] == NEUTRAL else f"player {state.owner[origin]}'s"
            return f"{where} is {owner}, not player {player}'s"
        return f"{where} has {state.units[origin]} unit(s); a move needs at least {self.rules.min_units}"

    def returns(self, state: NodeConquestState) -> np.ndarray:
        if state.current_player != TERMINAL:
            return np.zeros(self.spec.num_players, dtype=np.float32)
        return shared_returns(self.spec.num_players, state.winners)

    def scores(self, state: NodeConquestState) -> np.ndarray:
        """Nodes owned by each player."""
        counts = np.bincount(state.owner[state.owner >= 0], minlength=self.spec.num_players)
        return counts.astype(np.float32)

    def observe(self, state: NodeConquestState, player: int) -> np.ndarray:
        return self.observer.observe(state, player)

    def action_to_str(self, state: NodeConquestState, action: int) -> str:
        """``"b3>R"``, ``"n12>n7"`` or ``"pass"`` (the notation does not depend on the state)."""
        del state
        if not 0 <= int(action) < self.rules.num_actions:
            raise ValueError(f"action {action} is out of range [0, {self.rules.num_actions})")
        return self._name(int(action))

    def parse_action(self, state: NodeConquestState, text: str) -> int:
        """The legal action written ``text``; ``ValueError`` saying whether it is unreadable or illegal."""
        action = self._ids_by_name().get(text.strip())
        if action is None:
            raise ValueError(f"cannot read move {text!r}; moves look like {self._name(0)!r}")
        if state.current_player == TERMINAL or not self.rules.is_legal(state, action):
            raise ValueError(f"move {text!r} is not legal here")
        return action

    def to_text(self, state: NodeConquestState) -> str:
        return to_text(self.board, state)

    def render_rgb(self, state: NodeConquestState) -> np.ndarray:
        return render_rgb(self.board, state, self.config.unit_scale)

    # -- codec -------------------------------------------------------------------------------------
    def decode(self, action: int) -> Move:
        """The ``Move`` of an action id (``PASS_MOVE`` for PASS)."""
        if int(action) == self.rules.pass_action:
            return PASS_MOVE
        origin, slot = divmod(int(action), self.board.max_degree)
        return Move(origin, slot, int(self.board.neighbours[origin, slot]))

    def encode(self, origin: int, target: int) -> int:
        """The action id moving from ``origin`` to its neighbour ``target``."""
        slots = self.board.adjacency[origin]
        if target not in self.board.neighbours[origin]:
            raise ValueError(f"node {target} is not a neighbour of node {origin} (neighbours: {slots})")
        return origin * self.board.max_degree + int(np.flatnonzero(self.board.neighbours[origin] == target)[0])

    def moving_amount(self, state: NodeConquestState, origin: int) -> int:
        """Units a move from ``origin`` sends (all but one, or all with ``move_all_units``)."""
        return int(state.units[origin]) - self.rules.keep

    def _name(self, action: int) -> str:
        if action == self.rules.pass_action:
            return "pass"
        origin, slot = divmod(action, self.board.max_degree)
        return f"{self.board.node_names[origin]}>{self.board.slot_names[origin][slot]}"

    def _ids_by_name(self) -> dict[str, int]:
        names = self.__dict__.get("_names")
        if names is None:
            valid = np.flatnonzero(self.board.valid.ravel()).tolist()
            names = {self._name(a): a for a in valid + ([self.rules.pass_action] if self.rules.has_pass else [])}
            self.__dict__["_names"] = names
        return names

    # -- building positions ------------------------------------------------------------------------
    def position(self, cells: str, to_move: int = 0, ply: int = 0) -> NodeConquestState:
        """A position from tokens in node order, for tests and puzzles: ``"A5 .0 B3 ..."``.

        Each token is an owner letter (``A``..``D``) or ``.`` (neutral) followed by the units. Players
        owning no node are eliminated; ``to_move`` must own a node.
        """
        tokens = cells.split()
        if len(tokens) != self.board.num_nodes:
            raise ValueError(f"cells must list {self.board.num_nodes} nodes, got {len(tokens)}")
        owner = np.array([OWNER_LETTERS.find(t[0]) if t[0] != "." else NEUTRAL for t in tokens], dtype=np.int8)
        units = np.array([int(t[1:] or 0) for t in tokens], dtype=np.int64)
        if owner.max() >= self.spec.num_players or (owner < NEUTRAL).any() or (units < 0).any():
            raise ValueError(f"bad owner letter or unit count in {cells!r}")
        check_int("ply", ply, 0, self.config.max_plies - 1)
        alive = tuple(bool((owner == p).any()) for p in range(self.spec.num_players))
        check_int("to_move", to_move, 0, self.spec.num_players - 1)
        if not alive[to_move]:
            raise ValueError(f"player {to_move} owns no node and cannot move")
        return NodeConquestState(owner, units, alive, int(to_move), int(ply))

    # -- symmetry ----------------------------------------------------------------------------------
    def _half_turn_symmetric(self) -> bool:
        board = self.board
        if self.config.topology != "grid" or self.config.num_players != 2:
            return False
        last = board.num_nodes - 1
        return board.starts[1] == last - board.starts[0] and bool(np.array_equal(board.growth, board.growth[::-1]))

    def _require_symmetry(self) -> None:
        if ROTATE_180 not in self.spec.symmetries:
            raise ValueError(f"{self!r} has no {ROTATE_180} symmetry")

    def symmetric_action(self, action: int) -> int:
        """The action of the half-turned board (node ``i`` -> ``N - 1 - i``, U <-> D, L <-> R)."""
        self._require_symmetry()
        if int(action) == self.rules.pass_action:
            return int(action)
        origin, slot = divmod(int(action), 4)
        return (self.board.num_nodes - 1 - origin) * 4 + (slot + 2) % 4

    def symmetric_observation(self, observation: np.ndarray) -> np.ndarray:
        """The observation of the other player in the half-turned, colour-swapped position."""
        self._require_symmetry()
        return observation[:, ::-1, ::-1].copy()

    def symmetric_state(self, state: NodeConquestState) -> NodeConquestState:
        """The half-turned position with players 0 and 1 swapped."""
        self._require_symmetry()
        owner = state.owner[::-1].copy()
        owner[owner >= 0] = 1 - owner[owner >= 0]
        player = state.current_player if state.current_player == TERMINAL else 1 - state.current_player
        winners = tuple(sorted(1 - w for w in state.winners))
        return NodeConquestState(owner, state.units[::-1].copy(), state.alive[::-1], player, state.ply,
                                 state.truncated, winners)  # fmt: skip
