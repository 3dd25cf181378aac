"""The Battle Sheep game object: the contract of ``boardenvs.core.Game`` on top of the package's modules.

Legality (the mask, the test of one action and the reason an action is refused) is ``legality``'s, what an action
does ``transitions``', the scores ``scoring``'s, the move codec and its text ``notation``'s, the state's text
``text``'s.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from boardenvs.core import TERMINAL, Game, GameSpec
from boardenvs.games.battle_sheep import legality, notation
from boardenvs.games.battle_sheep.config import BattleSheepConfig
from boardenvs.games.battle_sheep.legality import (
    can_place,
    has_move,
    placement_cells,
    split_ids,
    split_problem,
    split_sizes,
)
from boardenvs.games.battle_sheep.notation import Move, split_of
from boardenvs.games.battle_sheep.observation import observation_fields, observe
from boardenvs.games.battle_sheep.scoring import RANK_POINTS, rank_points, region_score
from boardenvs.games.battle_sheep.state import FREE, NONFIELD, BattleSheepState
from boardenvs.games.battle_sheep.svg import draw_state
from boardenvs.games.battle_sheep.tables import split_tables, tables_for
from boardenvs.games.battle_sheep.text import to_text
from boardenvs.games.battle_sheep.transitions import new_game, play

MAX_RESAMPLES = 100_000
"""Draws ``determinize`` tries for the mover's stack sizes. A draw succeeds with probability at least
``1 / (sheep - 1)`` (the mover can move, so one of its cells with an open direction can hold 2 sheep), so
running out means a bug."""


class BattleSheep(Game[BattleSheepState, Move]):
    """Battle Sheep, the NYCU AI Capstone 2024 square-grid variant (docs/rules/rules.md §4), for 2 to 4 players.

    Version history: docs/versions.md (``version`` is in the env ids and the module name,
    ``boardenvs.battle_sheep_v<version>``).

    **Board.** ``n x n`` cells (``board_size``); ``initial_state`` grows a random 4-connected field of
    exactly ``field_size`` cells from a random seed cell (docs/rules/rules.md S1); the other cells are not field.
    Cell ``x * n + y`` is the course's ``mapStat[x][y]``; its name is column letter ``y``, row ``x + 1``
    (``"c5"`` is ``x = 4, y = 2``).

    **Players.** 0..p-1 (the course's ids 1..p). Placement: players 0, 1, ... in turn each place all
    ``sheep_per_player`` sheep on one free *border* cell: a field cell on the board edge or 4-adjacent
    (``border_neighbourhood=8``: 8-adjacent) to a non-field cell (docs/rules/rules.md S2). A player with no free
    border cell is skipped and never gets sheep. Moves: players in cyclic order from player 0 split a
    stack of ``s >= 2`` sheep, ``m`` of them (1..s-1) slide in one of 8 directions (course numpad codes
    1,2,3,4,6,7,8,9 = NW,W,SW,N,S,NE,E,SE with north = row 1) until the next cell is off the board,
    outside the field or occupied; the first cell must be free. ``restricted_splits`` allows only
    ``m`` in {1, s // 2, s - 1} (seed 003). A player without a move is skipped (``current_player`` never
    names it, so there is no PASS); the game ends when nobody can move.

    **Actions** (``num_actions = n*n * (1 + 8 * (S - 1))`` with ``S = sheep_per_player``; 17424 for the
    basic 12x12, 16-sheep game): ``[0, n*n)`` place on cell ``c``; then ``n*n + (c * 8 + d) * (S - 1) +
    (m - 1)`` moves ``m`` sheep from cell ``c`` in direction ``d``. This compact encoding is exact: a stack
    never holds more than ``S`` sheep. Notation: ``"place c5"``, ``"c5 NE 3"``.

    **Codec.** ``decode(state, action)`` is the :class:`Move` ``("place", c)`` or ``("move", c, d, m)``
    (``d`` indexes ``tables.DIRECTION_NAMES``); ``encode(state, move)`` is its inverse and raises
    ``ValueError`` for a move without an id (a cell off the board, ``d`` outside 0..7, ``m`` outside
    1..S-1). Both ignore ``state``: cells and directions are the board's, the same for every player.

    **Legality.** The base ``apply`` refuses an illegal id with ``ValueError("action N is illegal here:
    <move>: <why>; <what may be played>")`` (``legality.py``, where every rule is written once with its message;
    it never names another player's hidden stack size). ``is_legal`` answers without building the mask.

    **Observation** ``float32[2p + 5, n, n]`` in [0, 1], players in turn order starting with the
    observer: ``owners`` (p planes), ``stacks`` (p planes, size / S; zeros for other players with
    ``hidden_counts``), ``count_known`` (occupied cells whose size is shown), ``field``, ``free``,
    ``placement_phase``, ``my_turn``.

    **Scores and returns.** ``scores``: each player's ``round(sum over its 4-connected regions of
    size ** 1.25)`` (docs/rules/rules.md §4.5; Python rounding). With ``teams`` (players 0+2 vs 1+3) the ranking
    uses each player's score averaged with its partner's. Ranks earn the course's tournament points 5/3/2/1
    (the first p of them), tied players share their points evenly (so they always sum to the first p
    points and their mean is fixed); ``returns = (points - mean) / (5 - mean)``: zero-sum, in [-1, 1].
    This points-by-rank scoring is Battle Sheep's own, not the ``core.shared_win_returns`` convention of
    the other games: every place counts, not only the winners. It agrees with it where both apply: a sole
    winner gets +1 and the others -1/(p-1) on average (2 players: exactly +1 / -1), a full tie gives zeros.
    Distinct scores: 3 players 1, -0.2, -0.8; 4 players 1, 1/9, -1/3, -7/9; teams: winners 5/9 each.

    **Termination.** ``spec.max_game_length = p * S``. Each player places once and each split adds one
    stack to the mover's, which never exceed ``S``; so the rules end every game within ``p * S`` plies
    (after ``p * S`` plies every stack holds one sheep and nobody can move) and ``truncated`` stays False.
    The base's move cap only ends a state whose ``ply`` was set by hand above its placements and splits:
    terminal, truncated, returns ranked as above.

    **Hidden information** (``hidden_counts``, course game 3): ``determinize(state, p, rng)`` resamples
    every other player's stack sizes uniformly among the compositions of its sheep total (``S`` once
    placed) into its occupied cells, at least one per cell; the player to move, whose turn shows that it
    can move, only among those that give it a move. Ownership is public.

    **Symmetries.** None: the field is random and the turn order tells the players apart.

    Example:
        >>> import numpy as np
        >>> from boardenvs.games.battle_sheep import BattleSheep, Move
        >>> game = BattleSheep(board_size=6, field_size=20, num_players=2, sheep_per_player=4)
        >>> state = game.initial_state(np.random.default_rng(1))
        >>> game.spec.num_actions, game.spec.observation_shape
        (900, (9, 6, 6))
        >>> state = game.apply(state, game.legal_actions(state)[0])
        >>> game.action_to_str(state, game.legal_actions(state)[0]), state.current_player
        ('place f1', 1)
        >>> move = Move("move", cell=14, direction=6, split=2)
        >>> game.encode(state, move), game.action_to_str(state, game.encode(state, move))
        (391, 'c3 E 2')
        >>> game.decode(state, 391) == move
        True
    """

    name = "battle_sheep"
    version = 1
    config_class = BattleSheepConfig

    def _setup(self) -> None:
        """The board's lookup tables and the sizes the action encoding needs."""
        config: BattleSheepConfig = self.config
        self.tables = tables_for(config.board_size)
        self.cells, self.splits = self.tables.cells, config.sheep_per_player - 1
        sizes = tuple(split_sizes(count, config.restricted_splits) for count in range(config.sheep_per_player + 1))
        self.split_tables = split_tables(config.board_size, sizes)

    def _make_spec(self) -> GameSpec:
        config: BattleSheepConfig = self.config
        p, n = config.num_players, config.board_size
        return GameSpec(
            self.name,
            self.version,
            p,
            self.cells * (1 + 8 * self.splits),
            (2 * p + 5, n, n),
            observation_fields(p),
            p * config.sheep_per_player,
            perfect_information=not config.hidden_counts,
            zero_sum=True,
        )

    # -- the contract ----------------------------------------------------------------------------
    def initial_state(self, rng: np.random.Generator) -> BattleSheepState:
        """A new random field, nobody placed yet, player 0 (or the first who can place) to move."""
        return new_game(self.tables, self.split_tables, self.config, rng)

    def legal_action_mask(self, state: BattleSheepState) -> np.ndarray:
        mask = np.zeros(self.spec.num_actions, dtype=np.bool_)
        if state.current_player == TERMINAL:
            return mask
        if self.in_placement(state):
            mask[: self.cells] = placement_cells(self.tables, state.owner, self.config.border_neighbourhood)
        else:
            mask[self.legal_actions(state)] = True
        return mask

    def legal_actions(self, state: BattleSheepState) -> np.ndarray:
        """Sorted ids of the legal actions, listed directly (not from the mask): the placement cells while
        placing, else every legal split of the mover's stacks (``legality.split_ids``)."""
        if state.current_player == TERMINAL:
            return np.zeros(0, dtype=np.int64)
        if self.in_placement(state):
            return np.flatnonzero(placement_cells(self.tables, state.owner, self.config.border_neighbourhood))
        owner, counts, cells = memoryview(state.owner), memoryview(state.counts), state.stacks[state.current_player]
        return np.array(split_ids(self.split_tables, owner, counts, cells), dtype=np.int64)

    def is_legal(self, state: BattleSheepState, action: int) -> bool:
        """Whether the int ``action`` is legal (False when terminal or out of range), by the rules of
        ``legality`` for this one action, without the mask."""
        if state.current_player == TERMINAL or not 0 <= action < self._num_actions:
            return False
        if action < self.cells:
            return self.in_placement(state) and can_place(
                self.tables, state.owner, action, self.config.border_neighbourhood
            )
        if self.in_placement(state):
            return False
        return not split_problem(self.tables, self.split_tables, state, *split_of(self.cells, self.splits, action))

    def _apply(self, state: BattleSheepState, action: int) -> BattleSheepState:
        """Place the starting stack, or split a stack and slide the group (``transitions.play``)."""
        return play(self.tables, self.split_tables, self.config, state, action)

    def illegal_reason(self, state: BattleSheepState, action: int) -> str:
        """Why ``action`` cannot be played now and what may be played instead (``legality.illegal_reason``);
        never names another player's stack size."""
        move = self.decode(state, int(action))
        text = notation.move_text(self.config.board_size, move)
        t, s, placing = self.tables, self.split_tables, self.in_placement(state)
        return legality.illegal_reason(t, s, self.config, state, move, text, placing)

    def returns(self, state: BattleSheepState) -> np.ndarray:
        if state.current_player != TERMINAL:
            return np.zeros(self.config.num_players, dtype=np.float32)
        points = rank_points(self.ranking_scores(state))
        return ((points - points.mean()) / (RANK_POINTS[0] - points.mean())).astype(np.float32)

    def scores(self, state: BattleSheepState) -> np.ndarray:
        """Each player's region score ``round(sum |region| ** 1.25)``."""
        values = [region_score(self.tables, state.owner, p) for p in range(self.config.num_players)]
        return np.array(values, dtype=np.float32)

    def observe(self, state: BattleSheepState, player: int) -> np.ndarray:
        c = self.config
        return observe(state, player, c.num_players, c.board_size, c.sheep_per_player, c.hidden_counts)

    def determinize(self, state: BattleSheepState, player: int, rng: np.random.Generator) -> BattleSheepState:
        """A copy with every other player's stack sizes resampled (``hidden_counts`` only).

        Each other player's sizes are a uniform composition of its sheep total into its cells. The player to
        move (when not ``player``) is known to have a move, so its sizes are drawn uniformly among the
        compositions that give it one (rejection sampling): a determinized view is a legal state, in which
        the player to move can move.
        """
        view = state.copy()
        if not self.config.hidden_counts:
            return view
        for other in range(self.config.num_players):
            cells = np.flatnonzero(state.owner[: self.cells] == other + 1)
            if other != player and cells.size:
                self._resample_stacks(state, view, other, cells, rng)
        return view

    def _resample_stacks(
        self, state: BattleSheepState, view: BattleSheepState, other: int, cells: np.ndarray, rng: np.random.Generator
    ) -> None:
        """Set ``other``'s stack sizes on ``cells`` of ``view``: a uniform composition of its total, redrawn
        until ``other`` has a move if it is to move (and can move in ``state``)."""
        total = int(state.counts[cells].sum())
        needs_move = other == state.current_player and not self.in_placement(state)
        needs_move = needs_move and has_move(self.tables, self.split_tables, state, other)
        for _ in range(MAX_RESAMPLES):
            cuts = np.sort(rng.choice(np.arange(1, total), size=cells.size - 1, replace=False))
            view.counts[cells] = np.diff(np.concatenate(([0], cuts, [total])))
            if not needs_move or has_move(self.tables, self.split_tables, view, other):
                return
        raise RuntimeError(f"determinize found no stack sizes that let player {other} move")  # pragma: no cover

    def action_to_str(self, state: BattleSheepState, action: int) -> str:
        return notation.move_text(self.config.board_size, self.decode(state, action))

    def to_text(self, state: BattleSheepState) -> str:
        return to_text(state, self.config.board_size, self.config.num_players)

    def text_for(self, state: BattleSheepState, player: int) -> str:
        """With ``hidden_counts``, other players' stack sizes are ``?``."""
        viewer = player if self.config.hidden_counts else None
        return to_text(state, self.config.board_size, self.config.num_players, viewer)

    def action_text_for(self, state: BattleSheepState, action: int, player: int) -> str:
        """With ``hidden_counts``, another player's split size is ``?`` (``c3 NE ?``)."""
        text = self.action_to_str(state, action)
        if self.config.hidden_counts and state.current_player != player and not text.startswith("place"):
            return text.rsplit(" ", 1)[0] + " ?"
        return text

    def _render_svg(self, state: BattleSheepState, seat: int | None, mask: np.ndarray | None) -> str:
        """The board, the players' panel and the mover's targets (see ``battle_sheep.svg``); a seat with
        ``hidden_counts`` sees ``?`` on the other players' stacks."""
        return draw_state(self, state, seat, mask)

    # -- the course's board format ---------------------------------------------------------------
    def to_course(self, state: BattleSheepState) -> tuple[list[list[int]], list[list[int]], int]:
        """``(mapStat, sheepStat, current_player)``: mapStat -1 not field, 0 free, ``k + 1`` owned by player
        ``k`` (the course's ids 1..4); sheepStat the stack sizes; current_player in our ids (0..p-1, -1 at
        the end)."""
        n = self.config.board_size
        map_stat = state.owner[: self.cells].reshape(n, n).astype(int).tolist()
        sheep_stat = state.counts[: self.cells].reshape(n, n).astype(int).tolist()
        return map_stat, sheep_stat, state.current_player

    def state_from_course(self, map_stat: Any, sheep_stat: Any, current_player: int) -> BattleSheepState:
        """The state of a course board with ``current_player`` (our id 0..p-1) to move.

        It is in the placement phase, with ``placed = current_player``, when the player to move owns no
        cell; else in the move phase. ``ply`` is reconstructed as placements plus splits made. ``ValueError``
        when the boards disagree, name an unknown player or hold a stack above ``sheep_per_player`` (which
        no game reaches, and which the action encoding cannot split).
        """
        n, p = self.config.board_size, self.config.num_players
        owner = np.full(self.cells + 1, NONFIELD, dtype=np.int8)
        counts = np.zeros(self.cells + 1, dtype=np.int16)
        owner[: self.cells] = np.asarray(map_stat, dtype=np.int8).reshape(n * n)
        counts[: self.cells] = np.asarray(sheep_stat, dtype=np.int16).reshape(n * n)
        occupied = owner[: self.cells] > FREE
        if owner.min() < NONFIELD or owner.max() > p or np.any(occupied != (counts[: self.cells] > 0)):
            raise ValueError("mapStat/sheepStat disagree or name an unknown player")
        if counts.max() > self.config.sheep_per_player:
            raise ValueError(f"sheepStat has a stack above sheep_per_player={self.config.sheep_per_player}")
        placing = current_player >= 0 and not np.any(owner == current_player + 1)
        placed = current_player if placing else p
        stacks = [int(np.sum(owner == k + 1)) for k in range(p)]
        ply = sum(1 for s in stacks if s) + sum(max(0, s - 1) for s in stacks)
        return BattleSheepState(owner, counts, placed, current_player, ply)

    # -- codec and helpers -----------------------------------------------------------------------
    def decode(self, state: BattleSheepState, action: int) -> Move:
        """The :class:`Move` of action id ``action`` (the encoding does not depend on ``state``)."""
        del state
        return notation.decode(self.cells, self.splits, action)

    def encode(self, state: BattleSheepState, move: Move) -> int:
        """The action id of ``move`` (whatever ``state``); ``ValueError`` if no id means that move."""
        del state
        return notation.encode(self.config.board_size, self.splits, move)

    def _parse_action(self, state: BattleSheepState, text: str) -> int:
        """The legal action written ``text`` (``"place c5"`` or ``"c5 NE 3"``); ``ValueError`` otherwise."""
        action = notation.parse_move(self.config.board_size, self.splits, text)
        if self.is_terminal(state):
            raise ValueError(f"move {text!r} is not legal here: the game is over")
        if not self.is_legal(state, action):
            raise ValueError(f"move {text!r} is not legal here: {self.illegal_reason(state, action)}")
        return action

    def in_placement(self, state: BattleSheepState) -> bool:
        """Whether the state is in the placement phase."""
        return state.placed < self.config.num_players and state.current_player != TERMINAL

    def ranking_scores(self, state: BattleSheepState) -> np.ndarray:
        """The scores that are ranked: ``scores``, averaged with the partner's when ``teams``."""
        values = self.scores(state).astype(np.float64)
        if self.config.teams:
            values = (values + np.roll(values, 2)) / 2
        return values
