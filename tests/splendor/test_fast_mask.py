"""The table-driven mask (``legality.legal_mask``) against a straightforward one, on many random positions.

The engine builds the main-phase mask from precomputed tables: the token patterns from the factors of the
token rules (``takes.token_factors``, whose direct AND is ``takes.take_mask``), every card's
affordability at once (``legality.affordable_bytes``) and card slots read as bytes (``legality.per_card``).
Here the mask is rebuilt the plain way (numpy, one condition after another, as the engine did before) on
positions from random play and on the same positions with random supplies and hands, for the presets, odd
configs and a deck of 300 cards (ids beyond a byte).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from boardenvs.games.splendor import Splendor, SplendorState, legality, takes
from boardenvs.games.splendor.cards import GOLD
from boardenvs.games.splendor.state import BONUSES, MAIN
from tests.splendor.helpers import write_random_cards

CONFIGS = {
    "2p": {},
    "4p": {"num_players": 4},
    "rinascimento": {"rinascimento": True, "deck": "rinascimento_native"},
    "rinascimento_4p": {"num_players": 4, "rinascimento": True, "deck": "rinascimento_native"},
    "rinascimento_amounts": {"rinascimento": True, "take_different_amount": 2, "take_same_amount": 3,
                             "take_same_min": 2, "max_tokens": 6, "gold": 4},
    "rinascimento_wide": {"rinascimento": True, "take_different_count": 5, "take_different_amount": 3,
                          "take_same_amount": 5, "max_tokens": 12, "tokens_per_colour": 9, "face_up": 5,
                          "max_reserved": 0, "gold": 0},
    "odd": {"num_players": 3, "face_up": 2, "max_reserved": 1, "gold": 9, "max_tokens": 5, "take_same_min": 2,
            "take_different_count": 2, "take_different_amount": 2, "nobles": 0},
}  # fmt: skip


def reference_mask(game: Splendor, state: SplendorState) -> np.ndarray:
    """The legal-action mask of ``state`` written out condition by condition (other phases: the engine's)."""
    config, tables, player = game.config, game.tables, state.current_player
    if player < 0 or state.phase != MAIN:
        return legality.legal_mask(config, tables, state)
    mask, s, row = np.zeros(tables.num_actions, dtype=bool), tables.starts, state.players[player]
    if config.rinascimento:
        mask[s[0] : s[2]] = takes.take_mask(config, tables, state.supply, row)
    else:
        mask[s[0] : s[2]] = official_takes(game, state.supply[:5].tolist())
    if config.max_reserved and state.reserved[player, -1] < 0:
        mask[s[2] : s[3]] = state.face_up.ravel() >= 0
        mask[s[3] : s[4]] = state.top < tables.deck_sizes
    cards = np.concatenate([state.face_up.ravel(), state.reserved[player]])
    mask[s[4] : s[6]] = affordable(game, row, cards) & (cards >= 0)
    mask[s[-2]] = not mask.any()
    return mask


def official_takes(game: Splendor, stacks: list[int]) -> list[bool]:
    """P1: exactly ``min(count, colours available)`` different colours; take-same from a stack of ``take_same_min``."""
    config = game.config
    available = {c for c in range(5) if stacks[c] >= config.take_different_amount}
    size = min(config.take_different_count, len(available))
    different = [set(combo) <= available and len(combo) == size for combo in game.tables.combos]
    return different + [stack >= max(config.take_same_min, config.take_same_amount) for stack in stacks]


def affordable(game: Splendor, player_row: np.ndarray, card_ids: np.ndarray) -> np.ndarray:
    """Which cards the player can pay for: the shortfalls ``max(cost - bonus - tokens, 0)`` add up to at most its
    gold (-1, an empty slot, never: its cost row is the sentinel)."""
    shortfall = game.tables.cards.cost[card_ids] - (player_row[BONUSES] + player_row[:5])
    np.maximum(shortfall, 0, out=shortfall)
    return shortfall.sum(axis=1) <= player_row[GOLD]


def shaken(game: Splendor, state: SplendorState, rng: np.random.Generator) -> SplendorState:
    """``state`` with a random supply and random tokens and bonuses for the player to move."""
    config, new = game.config, state.copy()
    new.supply = rng.integers(0, config.tokens_per_colour + 3, size=6).astype(np.int16)
    new.supply[:5][rng.random(5) < 0.3] = 0
    held = int(rng.integers(0, config.max_tokens + (3 if rng.random() < 0.2 else 1)))
    row = new.players[new.current_player]
    row[:6] = rng.multinomial(held, np.full(6, 1 / 6))
    row[6:11] = rng.integers(0, 9, size=5)
    return new


def positions(game: Splendor, games: int, seed: int):
    """Every position of ``games`` random games, each also with a random supply and hand."""
    rng = np.random.default_rng(seed)
    for _ in range(games):
        state = game.initial_state(rng)
        while not game.is_terminal(state):
            yield state
            if state.phase == MAIN:
                yield shaken(game, state, rng)
            legal = game.legal_actions(state)
            state = game.apply(state, int(legal[rng.integers(len(legal))]))
        yield state


def check_masks(game: Splendor, games: int, seed: int) -> int:
    checked = 0
    for state in positions(game, games, seed):
        expected = reference_mask(game, state)
        mask = game.legal_action_mask(state)
        assert np.array_equal(mask, expected), (game.to_text(state), np.flatnonzero(mask ^ expected))
        checked += 1
    return checked


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_the_mask_equals_the_straightforward_one(name: str) -> None:
    games = 4 if name == "rinascimento_wide" else 12  # (16,790 token actions)
    assert check_masks(Splendor(**CONFIGS[name]), games=games, seed=len(name)) > 500


@pytest.mark.parametrize("rinascimento", [False, True], ids=["official", "rinascimento"])
def test_the_mask_equals_the_straightforward_one_with_300_cards(tmp_path: Path, rinascimento: bool) -> None:
    cards = write_random_cards(tmp_path)
    game = Splendor(cards_file=str(cards), rinascimento=rinascimento)
    assert not game.tables.byte_ids
    assert check_masks(game, games=4, seed=5) > 200


def test_affordable_bytes_is_affordable_for_every_card() -> None:
    game = Splendor(rinascimento=True, deck="rinascimento_native")
    tables, rng = game.tables, np.random.default_rng(0)
    cards = np.arange(-1, tables.cards.num_cards, dtype=np.int16)
    for _ in range(300):
        row = np.zeros(14, dtype=np.int16)
        row[:6], row[6:11] = rng.integers(0, 6, size=6), rng.integers(0, 12, size=5)
        can_pay = legality.affordable_bytes(tables, row.tolist())
        expected = affordable(game, row, cards) & (cards >= 0)
        assert list(legality.per_card(tables, cards, can_pay)) == expected.tolist()


def test_the_token_mask_above_the_cap_is_the_rule() -> None:
    game = Splendor(rinascimento=True, deck="rinascimento_native")
    supply, row = np.array([4, 4, 1, 0, 4, 5], dtype=np.int16), np.zeros(14, dtype=np.int16)
    factors = takes.token_factors(game.config)
    for held in ([4, 3, 2, 2, 1, 0], [4, 3, 2, 1, 0, 0]):  # 12 tokens (never in play), 10
        row[:6] = held
        fast = takes.take_bytes(factors, supply, row.tolist())
        assert fast == takes.take_mask(game.config, game.tables, supply, row).tobytes()


def test_the_returned_mask_is_a_copy_of_the_cached_one() -> None:
    game = Splendor(rinascimento=True, deck="rinascimento_native")
    state = game.initial_state(np.random.default_rng(0))
    mask = game.legal_action_mask(state)
    mask[:] = False
    assert game.legal_action_mask(state).any() and len(game.legal_actions(state)) > 0
