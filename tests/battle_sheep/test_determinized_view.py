"""Rule: a determinized view of Battle Sheep with hidden stack sizes is a legal state of the game (issue 16).

The player to move is known to have a move (it is its turn), so ``determinize`` for another seat only draws the
mover's hidden stack sizes among those that leave it a move; ``check_game`` checks this for every
hidden-information game.
"""

from __future__ import annotations

import numpy as np
import pytest

from boardenvs.games.battle_sheep import BattleSheep, BattleSheepState
from boardenvs.testing import ContractError, check_game
from tests.battle_sheep.helpers import board, small_game

# B (player 1, to move) has a boxed-in stack on a1 and a stack on d3 that can move; 4 sheep in all.
BOXED_IN = ["B1 A1 # . .", "A1 # . . .", ". . . B3 .", ". . . . .", ". . . . A2"]


def boxed_in_position() -> tuple[BattleSheep, BattleSheepState]:
    game = small_game(field_size=23, hidden_counts=True)
    return game, board(game, BOXED_IN, 1)


def test_a_determinized_view_lets_the_player_to_move_move() -> None:
    game, state = boxed_in_position()
    seen = set()
    for seed in range(60):
        view = game.determinize(state, 0, np.random.default_rng(seed))
        assert game.legal_action_mask(view).any()
        assert np.array_equal(game.observe(view, 0), game.observe(state, 0))  # what seat 0 sees is kept
        seen.add((int(view.counts[0]), int(view.counts[13])))
    assert seen == {(1, 3), (2, 2)}  # still resampled; (3, 1) would leave B without a move


def test_the_player_to_move_keeps_its_own_stack_sizes() -> None:
    game, state = boxed_in_position()
    view = game.determinize(state, 1, np.random.default_rng(0))
    assert np.array_equal(view.counts[state.owner == 2], state.counts[state.owner == 2])
    assert np.array_equal(game.legal_action_mask(view), game.legal_action_mask(state))


class UnconditionedDeterminize(BattleSheep):
    """The rule broken on purpose: every other player's sizes drawn without looking at who is to move."""

    def determinize(self, state: BattleSheepState, player: int, rng: np.random.Generator) -> BattleSheepState:
        view = state.copy()
        for other in range(self.config.num_players):
            cells = np.flatnonzero(state.owner[: self.cells] == other + 1)
            if other != player and cells.size:
                total = int(state.counts[cells].sum())
                cuts = np.sort(rng.choice(np.arange(1, total), size=cells.size - 1, replace=False))
                view.counts[cells] = np.diff(np.concatenate(([0], cuts, [total])))
        return view


def test_check_game_rejects_a_determinized_view_without_a_move_for_the_mover() -> None:
    config = {"board_size": 7, "field_size": 25, "num_players": 3, "sheep_per_player": 6, "hidden_counts": True}
    check_game(BattleSheep(**config), num_games=10, seed=0)
    with pytest.raises(ContractError, match="no legal action"):
        check_game(UnconditionedDeterminize(**config), num_games=10, seed=0)
