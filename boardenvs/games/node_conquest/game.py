"""The Node Conquest game object: the contract of ``boardenvs.core.Game`` as thin methods over the rule modules."""

from __future__ import annotations

import numpy as np

from boardenvs.core import TERMINAL, Game, GameSpec, Symmetry, check_int, shared_win_returns
from boardenvs.games.node_conquest.config import NodeConquestConfig
from boardenvs.games.node_conquest.legality import Legality
from boardenvs.games.node_conquest.notation import (
    Move,
    action_name,
    action_of_move,
    actions_by_name,
    move_of_action,
)
from boardenvs.games.node_conquest.observation import Observer, observation_fields
from boardenvs.games.node_conquest.state import NEUTRAL, NodeConquestState
from boardenvs.games.node_conquest.svg import node_conquest_svg
from boardenvs.games.node_conquest.symmetry import HalfTurn, half_turn_symmetric
from boardenvs.games.node_conquest.tables import board_for
from boardenvs.games.node_conquest.text import OWNER_LETTERS, to_text
from boardenvs.games.node_conquest.transitions import Transitions


class NodeConquest(Game[NodeConquestState, Move]):
    """Node Conquest, the states.io-like grid game of seed 001, on grids, hex maps or any connected graph.

    Version history: docs/versions.md (``version`` is in the env ids and the module name,
    ``boardenvs.node_conquest_v<version>``).

    **Players.** 2..4, moving in turn order 0, 1, ... and skipping eliminated players. Default starts:
    the corners, player 0 top-left, 1 bottom-right, 2 top-right, 3 bottom-left (graphs: node
    ``i * nodes // num_players``), each with ``start_units`` (16) units, so that the opening move sends the
    15 units of the paper's Fig. 2 and keeps one (N1); every other node is neutral with ``neutral_garrison``
    (0) units.

    **Rules** (docs/rules/rules.md §2, resolutions N1-N9). A move sends units from an owned node to a neighbour:
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
    PASS, where it exists, is the last id. The default game has 100 actions (4n² as in the paper) and no
    PASS. Notation: ``"b3>R"`` (column letter, row number from 1 at the top, slot name), ``"n12>n7"`` on
    graphs, ``"pass"``. The codec does not depend on the state: ``decode(state, a)`` is the :class:`Move`
    ``(origin, slot, target)`` (``PASS_MOVE`` for PASS); ``encode(state, move)`` reads ``origin`` and the
    ``target`` or the ``slot`` (-1: not given; both given must agree), ``ValueError`` if no id has that move.

    **Observation** from the observer's point of view, every field in [0, 1], ``F = 2p + 5`` features per
    node: ``owners`` (p: observer first, then the others in turn order), ``units`` (p, same order: units /
    ``unit_scale`` clipped to 1; the rules have no unit cap), ``neutral_units``, ``growth`` (rate / largest
    rate), ``node_exists``, ``time_elapsed`` (ply / max_plies), ``my_turn``. Grids and hexes give planes
    ``float32[F, rows, cols]``; graphs (``observation_kind="vector"``) give ``float32[F * N]``,
    feature-major (``obs[f * N + node]``), with the map itself in ``game.adjacency``.

    **Returns** (``boardenvs.core.shared_win_returns``, the convention of every game). Elimination: the
    survivor +1, every other player -1/(p-1). At ``max_plies`` (200; the game is ``truncated``, ended by
    ``Game.apply``; an elimination on the last ply still ends it by elimination) the players with the most
    nodes win (``tie_break="units"``: then the most units): each of the k winners gets (p-k)/(k(p-1)), each
    loser -1/(p-1) (4 players, two tied leaders: +1/3, +1/3, -1/3, -1/3); all tied is a draw (zeros).
    ``state.winners`` records the winners. ``scores`` are the nodes owned. Perfect information;
    ``determinize`` is a copy.

    **Symmetries.** For 2 players on a grid whose starts and growth are symmetric under a half turn (the
    default), ``game.symmetries`` holds one :class:`~boardenvs.games.node_conquest.symmetry.HalfTurn`,
    ``"rotate_180_swap_players"``: node ``i`` -> ``N - 1 - i``, slots U <-> D and L <-> R, PASS stays,
    players 0 <-> 1. Other configs have none.

    Example:
        >>> import numpy as np
        >>> from boardenvs.games.node_conquest import Move, NodeConquest
        >>> game = NodeConquest()
        >>> state = game.initial_state(np.random.default_rng(0))
        >>> game.spec.num_actions, [game.action_to_str(state, int(a)) for a in game.legal_actions(state)]
        (100, ['a1>R', 'a1>D'])
        >>> game.decode(state, 1), game.encode(state, Move(0, -1, 1))
        (Move(origin=0, slot=1, target=1), 1)
        >>> turn = game.symmetries[0]
        >>> turn.name, game.action_to_str(state, int(turn.actions[1])), turn.players
        ('rotate_180_swap_players', 'e5>L', (1, 0))
        >>> state = game.apply(state, game.parse_action(state, "a1>R"))
        >>> print(game.to_text(state).splitlines()[1:3])
        ['      a   b   c   d   e', '  1  A2 A16  .0  .0  .0']
    """

    name = "node_conquest"
    version = 2
    config_class = NodeConquestConfig

    # -- construction ------------------------------------------------------------------------------
    def _setup(self) -> None:
        """The map (``board``), its ``legality`` and ``transitions``, the observer and the id of every move text."""
        config: NodeConquestConfig = self.config
        self.board = board_for(config)
        self.legality = Legality(config, self.board)
        self.transitions = Transitions(config, self.board, self.legality.pass_action)
        self.observer = Observer(config, self.board)
        self._ids_by_name = actions_by_name(self.board, self.legality.pass_action)

    def _make_spec(self) -> GameSpec:
        config: NodeConquestConfig = self.config
        return GameSpec(
            self.name,
            self.version,
            config.num_players,
            self.legality.num_actions,
            self.observer.shape,
            observation_fields(config.num_players, self.board.num_nodes, self.observer.vector),
            config.max_plies,
            perfect_information=True,
            zero_sum=True,
            observation_kind="vector" if self.observer.vector else "planes",
        )

    def _make_symmetries(self) -> tuple[Symmetry[NodeConquestState], ...]:
        """The half turn where it holds (see the class docstring), else none."""
        if not half_turn_symmetric(self.config, self.board):
            return ()
        return (HalfTurn(self.board, self.legality.num_actions),)

    @property
    def adjacency(self) -> tuple[tuple[int, ...], ...]:
        """The neighbours of every node, in slot order."""
        return self.board.adjacency

    # -- the contract ----------------------------------------------------------------------------
    def initial_state(self, rng: np.random.Generator | None = None) -> NodeConquestState:
        """The start position (deterministic: ``rng`` is accepted and unused; player 0 moves first)."""
        del rng
        return self.transitions.initial_state()

    def legal_action_mask(self, state: NodeConquestState) -> np.ndarray:
        return self.legality.mask(state)

    def is_legal(self, state: NodeConquestState, action: int) -> bool:
        """Whether the int ``action`` is legal, without building the mask (False once over or out of range)."""
        return self.legality.is_legal(state, action)

    def _apply_if_legal(self, state: NodeConquestState, action: int) -> NodeConquestState | None:
        """The fast path of ``apply``: the legality test, then the transition, with no wrapper in between."""
        return self.transitions.successor(state, action) if self.legality.is_legal(state, action) else None

    def _apply(self, state: NodeConquestState, action: int) -> NodeConquestState:
        """Move and combat, elimination, growth, the next player (the move cap is the base class's)."""
        return self.transitions.successor(state, action)

    def _end_at_move_cap(self, state: NodeConquestState) -> None:
        """Truncated at ``max_plies``: the leaders (most nodes, then the tie-break) are the winners."""
        super()._end_at_move_cap(state)
        state.winners = self.transitions.leaders(state)

    def illegal_reason(self, state: NodeConquestState, action: int) -> str:
        """Why the in-range ``action`` is illegal: the first rule of :mod:`.legality` that excludes it."""
        return self.legality.reason(state, action)

    def returns(self, state: NodeConquestState) -> np.ndarray:
        """``shared_win_returns`` of ``state.winners`` once the game is over (see the class docstring)."""
        if state.current_player != TERMINAL:
            return np.zeros(self.spec.num_players, dtype=np.float32)
        return shared_win_returns(self.spec.num_players, state.winners)

    def scores(self, state: NodeConquestState) -> np.ndarray:
        """Nodes owned by each player."""
        counts = np.bincount(state.owner[state.owner >= 0], minlength=self.spec.num_players)
        return counts.astype(np.float32)

    def observe(self, state: NodeConquestState, player: int) -> np.ndarray:
        return self.observer.observe(state, player)

    def action_to_str(self, state: NodeConquestState, action: int) -> str:
        """``"b3>R"``, ``"n12>n7"`` or ``"pass"`` (the notation does not depend on the state)."""
        del state
        return self._name(self._in_range(action))

    def _parse_action(self, state: NodeConquestState, text: str) -> int:
        """The legal action written ``text``; ``ValueError`` saying whether it is unreadable or illegal."""
        action = self._ids_by_name.get(text.strip())
        if action is None:
            raise ValueError(f"cannot read move {text!r}; moves look like {self._name(0)!r}")
        if not self.is_legal(state, action):
            raise ValueError(f"move {text!r} is not legal here")
        return action

    def to_text(self, state: NodeConquestState) -> str:
        return to_text(self.board, state)

    def _render_svg(self, state: NodeConquestState, seat: int | None, mask: np.ndarray | None) -> str:
        """Every node with its owner and units, the edges, the score (:mod:`boardenvs.games.node_conquest.svg`);
        with ``mask``, an arrowhead target on the edge of every legal move."""
        return node_conquest_svg(self.config, state, seat, mask)

    # -- codec -------------------------------------------------------------------------------------
    def decode(self, state: NodeConquestState, action: int) -> Move:
        """The ``Move`` of an action id (``PASS_MOVE`` for PASS; ``state`` is not needed)."""
        del state
        return move_of_action(self.board, self.legality.pass_action, self._in_range(action))

    def encode(self, state: NodeConquestState, move: Move) -> int:
        """The action id of ``move`` (``state`` is not needed): from ``origin`` to the ``target`` or through the
        ``slot`` (-1: not given; both given must agree), or PASS for ``PASS_MOVE``. ``ValueError`` if none."""
        del state
        return action_of_move(self.board, self.legality.pass_action, move)

    def moving_amount(self, state: NodeConquestState, origin: int) -> int:
        """Units a move from ``origin`` sends (all but one, or all with ``move_all_units``)."""
        return self.transitions.moving_amount(state, origin)

    def _in_range(self, action: int) -> int:
        if not 0 <= int(action) < self.legality.num_actions:
            raise ValueError(f"action {action} is out of range [0, {self.legality.num_actions})")
        return int(action)

    def _name(self, action: int) -> str:
        return action_name(self.board, self.legality.pass_action, action)

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
