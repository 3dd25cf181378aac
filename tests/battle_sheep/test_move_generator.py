"""The engine's fast move generation against a straightforward reference, on many random states.

The engine lists legal splits, finds the next player and grows the field with per-cell Python loops over
precomputed tables (``legality.split_ids``, ``legality.can_move``, ``transitions.generate_field``). The reference
below is the plain whole-board numpy version of the same rules (the engine's code before issue 18): every mask,
action list, successor and field must agree, and a field must consume the same random numbers.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from boardenvs.core import TERMINAL
from boardenvs.games.battle_sheep import PRESETS, BattleSheep, BattleSheepState
from boardenvs.games.battle_sheep.legality import movable_cells, open_directions, placement_cells
from boardenvs.games.battle_sheep.state import FREE, NONFIELD
from boardenvs.games.battle_sheep.tables import Tables
from boardenvs.games.battle_sheep.transitions import slide_end

CONFIGS: list[dict[str, Any]] = [
    PRESETS["basic"],
    PRESETS["overcrowded"],
    PRESETS["imperfect"],
    {"board_size": 7, "field_size": 24, "num_players": 3, "sheep_per_player": 5, "restricted_splits": True},
    {"board_size": 8, "field_size": 30, "num_players": 2, "sheep_per_player": 9, "restricted_splits": True},
    {"board_size": 6, "field_size": 20, "num_players": 4, "sheep_per_player": 3, "border_neighbourhood": 8},
    {"board_size": 5, "field_size": 25, "num_players": 2, "sheep_per_player": 6},
    {"board_size": 4, "field_size": 4, "num_players": 4, "sheep_per_player": 2},
]


def reference_field(t: Tables, field_size: int, rng: np.random.Generator) -> np.ndarray:
    """The field grown with a plain frontier list (filtered and searched in full at every step)."""
    owner = np.full(t.cells + 1, NONFIELD, dtype=np.int8)
    start = int(rng.integers(t.cells))
    owner[start] = FREE
    frontier = [int(c) for c in t.orthogonal[:, start] if c < t.cells]
    for _ in range(field_size - 1):
        cell = frontier.pop(int(rng.integers(len(frontier))))
        owner[cell] = FREE
        frontier = [c for c in frontier if c != cell]
        new = [int(c) for c in t.orthogonal[:, cell] if c < t.cells and owner[c] == NONFIELD]
        frontier += [c for c in new if c not in frontier]
    return owner


def reference_mask(game: BattleSheep, state: BattleSheepState) -> np.ndarray:
    """The legal action mask from whole-board numpy: movable cells x open directions x allowed sizes."""
    mask = np.zeros(game.spec.num_actions, dtype=np.bool_)
    if state.current_player == TERMINAL:
        return mask
    if game.in_placement(state):
        mask[: game.cells] = placement_cells(game.tables, state.owner, game.config.border_neighbourhood)
        return mask
    cells = movable_cells(game.tables, state, state.current_player)
    open_ = open_directions(game.tables, state.owner, cells).T
    sizes, counts = np.arange(1, game.splits + 1)[None, :], state.counts[cells][:, None]
    ok = sizes < counts
    if game.config.restricted_splits:
        ok &= (sizes == 1) | (sizes == counts // 2) | (sizes == counts - 1)
    mask[game.cells :].reshape(game.cells, 8, game.splits)[cells] = open_[:, :, None] & ok[:, None, :]
    return mask


def reference_has_move(game: BattleSheep, state: BattleSheepState, player: int) -> bool:
    cells = movable_cells(game.tables, state, player)
    return bool(cells.size) and bool(open_directions(game.tables, state.owner, cells).any())


def reference_apply(game: BattleSheep, state: BattleSheepState, action: int) -> tuple[Any, ...]:
    """``(owner, counts, placed, current_player, ply)`` after ``action``, computed without ``stacks``."""
    owner, counts, placed, player = state.owner.copy(), state.counts.copy(), state.placed, state.current_player
    if action < game.cells:
        owner[action], counts[action], placed = player + 1, game.config.sheep_per_player, placed + 1
    else:
        move = game.decode(state, action)
        end = slide_end(game.tables, state.owner, move.cell, move.direction)
        counts[move.cell] -= move.split
        owner[end], counts[end] = player + 1, move.split
    p, probe = game.config.num_players, BattleSheepState(owner, counts, placed, player)
    while placed < p and not placement_cells(game.tables, owner, game.config.border_neighbourhood).any():
        placed += 1
    if placed < p:
        return owner, counts, placed, placed, state.ply + 1
    movers = [(player + k) % p for k in range(1, p + 1) if reference_has_move(game, probe, (player + k) % p)]
    return owner, counts, placed, movers[0] if movers else TERMINAL, state.ply + 1


def check_state(game: BattleSheep, state: BattleSheepState, rng: np.random.Generator) -> None:
    """Mask, action list, ``is_legal`` and ``stacks`` of ``state`` agree with the reference."""
    expected = reference_mask(game, state)
    assert np.array_equal(game.legal_action_mask(state), expected)
    actions = game.legal_actions(state)
    assert actions.dtype == np.int64 and np.array_equal(actions, np.flatnonzero(expected))
    probes = np.concatenate([actions, rng.integers(game.spec.num_actions, size=20)])
    assert [game.is_legal(state, int(a)) for a in probes] == expected[probes].tolist()
    derived = tuple(tuple(np.flatnonzero(state.owner == k + 1).tolist()) for k in range(4))
    assert state.stacks == derived


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items()))
def test_fast_move_generation_agrees_with_the_reference(config: dict[str, Any]) -> None:
    game, rng = BattleSheep(**config), np.random.default_rng(7)
    games = 30 if game.config.board_size >= 12 else 60
    for seed in range(games):
        field_rng, reference_rng = np.random.default_rng(seed), np.random.default_rng(seed)
        state = game.initial_state(field_rng)
        assert np.array_equal(state.owner, reference_field(game.tables, game.config.field_size, reference_rng))
        assert field_rng.bit_generator.state == reference_rng.bit_generator.state
        while not game.is_terminal(state):
            check_state(game, state, rng)
            if game.config.hidden_counts:  # resampled stack sizes: stacks kept, counts changed
                observer = (state.current_player + 1) % game.config.num_players
                check_state(game, game.determinize(state, observer, rng), rng)
            action = int(rng.choice(game.legal_actions(state)))
            new = game.apply(state, action)
            owner, counts, placed, player, ply = reference_apply(game, state, action)
            assert np.array_equal(new.owner, owner) and np.array_equal(new.counts, counts)
            assert (new.placed, new.current_player, new.ply) == (placed, player, ply)
            state = new
        check_state(game, state, rng)


def test_a_state_built_from_arrays_derives_its_stacks() -> None:
    game = BattleSheep(board_size=4, field_size=16, num_players=2, sheep_per_player=4)
    state = game.state_from_course(
        [[1, 0, 0, 2], [1, 0, 0, 0], [0, 0, 0, 0], [-1, 0, 0, 2]],
        [[2, 0, 0, 3], [2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 1]],
        0,
    )
    assert state.stacks == ((0, 4), (3, 15), (), ())
    assert game.legal_actions(state).tolist() == np.flatnonzero(reference_mask(game, state)).tolist()


def test_a_course_board_with_a_stack_above_sheep_per_player_is_refused() -> None:
    game = BattleSheep(board_size=2, field_size=4, num_players=2, sheep_per_player=4)
    with pytest.raises(ValueError, match="above sheep_per_player=4"):
        game.state_from_course([[1, 0], [0, 2]], [[5, 0], [0, 4]], 0)
