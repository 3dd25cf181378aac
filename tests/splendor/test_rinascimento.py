"""Rinascimento's rule implementation (docs/rules/rules.md R1, R5-R9) in the ``rinascimento`` preset.

The token mask is checked against a line-by-line transcription of ``PickDifferentCoins.canPerform`` and
``PickSameCoins.canPerform`` (with ``PickCoins.canPerform``): every enumerated pattern is legal exactly when
the transcription accepts it, and every pattern the transcription accepts is an action.
"""

from __future__ import annotations

from itertools import product

import numpy as np
import pytest

import boardenvs
from boardenvs.games.splendor import Splendor
from boardenvs.games.splendor import events as ev
from boardenvs.games.splendor.state import MAIN, POINTS
from boardenvs.games.splendor.takes import take_mask
from tests.splendor.helpers import edit, event_types, legal_moves, play, start, with_player

RINA = boardenvs.make_game("splendor", preset="rinascimento")


def takes(game: Splendor, state) -> list[str]:
    return [m for m in legal_moves(game, state) if m.startswith("take")]


# -- a transcription of Rinascimento's canPerform ------------------------------------------------
def pick_coins_ok(config, pattern, stacks, coins, gold) -> bool:
    """``PickCoins.canPerform``."""
    held = sum(coins) + gold
    if sum(stacks) == 0 or sum(pattern) < 0 or held + sum(pattern) > config.max_tokens:
        return False
    return all((p <= 0 or stacks[i] >= p) and (p >= 0 or coins[i] >= -p) for i, p in enumerate(pattern))


def pick_different_ok(config, pattern, stacks, coins, gold) -> bool:
    """``PickDifferentCoins.canPerform``."""
    if not pick_coins_ok(config, pattern, stacks, coins, gold):
        return False
    held, take_amount = sum(coins) + gold, sum(p for p in pattern if p > 0)
    limit = min(config.take_different_count, sum(1 for s in stacks if s >= 1))
    take_count, give_count = sum(1 for p in pattern if p > 0), sum(1 for p in pattern if p < 0)
    if take_count > limit:
        return False
    if held + take_amount > config.max_tokens:
        if held + sum(pattern) != config.max_tokens:
            return False
    elif give_count > 0:
        return False
    return all(p <= config.take_different_amount for p in pattern)


def pick_same_ok(config, pattern, stacks, coins, gold) -> bool:
    """``PickSameCoins.canPerform``."""
    if not pick_coins_ok(config, pattern, stacks, coins, gold):
        return False
    held, take_amount, delta = sum(coins) + gold, sum(p for p in pattern if p > 0), sum(pattern)
    if sum(1 for p in pattern if p > 0) > 1 or not any(s >= config.take_same_min for s in stacks):
        return False
    if held + take_amount > config.max_tokens:
        if held + delta != config.max_tokens:
            return False
        return all(p <= config.take_same_amount and (p <= 0 or stacks[i] >= config.take_same_min)
                   for i, p in enumerate(pattern))  # fmt: skip
    if any(p < 0 for p in pattern) or delta != min(config.take_same_amount, config.max_tokens - held):
        return False
    return all(p <= 0 or (stacks[i] >= config.take_same_min and p <= min(stacks[i], config.take_same_amount))
               for i, p in enumerate(pattern))  # fmt: skip


CONFIGS = [
    {},
    {"take_different_amount": 2, "take_same_amount": 3, "take_same_min": 2, "max_tokens": 6, "gold": 4},
    {"take_different_count": 2, "take_same_min": 1, "max_tokens": 4, "tokens_per_colour": 3},
]


def random_positions(game: Splendor, count: int, seed: int):
    """``(supply, player row)`` pairs with at most ``max_tokens`` held."""
    rng = np.random.default_rng(seed)
    config = game.config
    row = np.zeros(14, dtype=np.int16)
    for index in range(count):
        supply = rng.integers(0, config.tokens_per_colour + 1, size=6).astype(np.int16)
        supply[:5][rng.random(5) < (0.2 if index % 5 else 1.0)] = 0  # every fifth table has no gems left
        held = rng.integers(0, config.max_tokens + 1)
        tokens = rng.multinomial(held, np.full(6, 1 / 6)).astype(np.int16)
        tokens[5] = min(tokens[5], config.gold)
        row[:6] = tokens
        yield supply, row.copy()


@pytest.mark.parametrize("kwargs", CONFIGS, ids=["defaultx2", "amounts", "small"])
def test_the_token_mask_is_exactly_can_perform(kwargs: dict) -> None:
    game = Splendor(rinascimento=True, deck="rinascimento_native", **kwargs)
    config, tables = game.config, game.tables
    patterns = (tables.take - tables.give).tolist()
    for supply, row in random_positions(game, 60, seed=len(kwargs)):
        mask = take_mask(config, tables, supply, row)
        stacks, coins, gold = supply[:5].tolist(), row[:5].tolist(), int(row[5])
        for index, pattern in enumerate(patterns):
            check = pick_same_ok if tables.is_same[index] else pick_different_ok
            assert mask[index] == check(config, pattern, stacks, coins, gold), (tables.take_names[index], supply, row)


@pytest.mark.parametrize("kwargs", CONFIGS[1:], ids=["amounts", "small"])
def test_every_pattern_can_perform_accepts_is_a_legal_action(kwargs: dict) -> None:
    game = Splendor(rinascimento=True, deck="rinascimento_native", **kwargs)
    config, tables = game.config, game.tables
    actions: dict[tuple[tuple[int, ...], bool], int] = {}
    for index, pattern in enumerate((tables.take - tables.give).tolist()):
        actions[tuple(pattern), bool(tables.is_same[index])] = index
    values = range(-3, max(config.take_different_amount, config.take_same_amount) + 1)
    vectors = list(product(values, repeat=5))
    for supply, row in random_positions(game, 6, seed=7):
        mask = take_mask(config, tables, supply, row)
        stacks, coins, gold = supply[:5].tolist(), row[:5].tolist(), int(row[5])
        for vector in vectors:
            for same, check in ((False, pick_different_ok), (True, pick_same_ok)):
                if check(config, list(vector), stacks, coins, gold):
                    key = (vector, same) if any(vector) else ((0,) * 5, False)  # one "take none" for both
                    assert key in actions and mask[actions[key]], (vector, same, supply, row)


# -- scenarios ------------------------------------------------------------------------------------
def test_r1_the_game_ends_at_once() -> None:
    state = play(RINA, with_player(start(RINA), 0, points=15), "take WUG")
    assert RINA.is_terminal(state) and RINA.returns(state).tolist() == [1.0, -1.0]


def test_r5_up_to_three_colours_none_included() -> None:
    moves = takes(RINA, start(RINA))
    assert {"take none", "take W", "take WU", "take WUG"} <= set(moves)
    assert not any(len(m.split()[1]) > 3 for m in moves if m.split()[1] != "none" and " 2 " not in m)
    scarce = edit(start(RINA), supply=[0, 0, 0, 1, 2, 5])
    assert takes(RINA, scarce) == ["take none", "take R", "take K", "take RK"]


def test_r5_an_overflowing_take_returns_exactly_down_to_the_cap_in_the_same_action() -> None:
    state = with_player(start(RINA), 0, tokens=(2, 2, 2, 2, 1, 0))  # 9 held
    wug = [m for m in takes(RINA, state) if m.startswith("take WUG")]
    assert wug == ["take WUG return RR", "take WUG return RK"]  # one black only: no KK
    assert "take W" in takes(RINA, state) and "take W return R" not in takes(RINA, state)
    after = play(RINA, state, "take WUG return RR")
    assert after.players[0, :6].tolist() == [3, 3, 3, 0, 1, 0] and after.phase == MAIN and after.current_player == 1
    assert event_types(after) == [ev.DECREASE_TOKENS, ev.INCREASE_PLAYER_TOKENS] * 3 + [
        ev.INCREASE_TOKENS, ev.DECREASE_PLAYER_TOKENS]  # fmt: skip
    assert after.events[-1].amount == 2 and after.events[-1].stack == 3 and after.supply[3] == 6


def test_r5_gold_is_never_given_back() -> None:
    game = Splendor(rinascimento=True, deck="rinascimento_native", gold=10)
    state = with_player(start(game), 0, tokens=(3, 3, 0, 0, 0, 4))
    moves = takes(game, state)
    assert "take G return W" in moves and "take G return U" in moves and not any("Y" in m for m in moves)
    only_gold = with_player(start(game), 0, tokens=(0, 0, 0, 0, 0, 10))
    assert takes(game, only_gold) == ["take none"]


def test_r6_take_same_takes_up_to_the_cap_or_returns_down_to_it() -> None:
    nine = with_player(start(RINA), 0, tokens=(2, 2, 2, 2, 1, 0))
    assert {"take 1 R", "take 2 R return W"} <= set(takes(RINA, nine)) and "take 2 R" not in takes(RINA, nine)
    eight = with_player(start(RINA), 0, tokens=(2, 2, 2, 1, 1, 0))
    assert "take 2 R" in takes(RINA, eight) and "take 1 R" not in takes(RINA, eight)
    ten = with_player(start(RINA), 0, tokens=(2, 2, 2, 2, 2, 0))
    assert {"take 1 R return W", "take 2 R return WU"} <= set(takes(RINA, ten)) and "take 2 R" not in takes(RINA, ten)
    after = play(RINA, nine, "take 1 R")
    assert after.players[0, 3] == 3 and after.players[0, :6].sum() == 10
    short = edit(start(RINA), supply=[3, 4, 4, 4, 4, 5])
    assert not any(m.startswith("take 2 W") or m.startswith("take 1 W") for m in takes(RINA, short))


def test_r7_a_reserve_at_the_cap_gives_no_gold_and_no_discard() -> None:
    at_cap = play(RINA, with_player(start(RINA), 0, tokens=(2, 2, 2, 2, 2, 0)), "reserve L1#1")
    assert at_cap.players[0, :6].tolist() == [2] * 5 + [0] and at_cap.supply[5] == 5 and at_cap.current_player == 1
    below = play(RINA, with_player(start(RINA), 0, tokens=(2, 2, 2, 2, 1, 0)), "reserve deck L2")
    assert below.players[0, 5] == 1 and below.hidden[0, 0]
    assert event_types(below) == [ev.RESERVE_HIDDEN_CARD, ev.DECREASE_GOLD, ev.INCREASE_PLAYER_GOLD]


def test_r8_payment_is_automatic_coloured_first() -> None:
    state = start(RINA)
    card = int(state.face_up[0, 0])
    cost = [int(v) for v in RINA.tables.cards.cost[card]]
    after = play(RINA, with_player(state, 0, tokens=cost + [2]), "buy L1#1")
    assert after.phase == MAIN and after.players[0, :6].tolist() == [0] * 5 + [2] and after.current_player == 1


def test_r8_a_short_colour_spends_all_its_tokens_before_gold() -> None:
    """Rinascimento keeps its own rule: no gold choice, even for a colour the player is short of."""
    state = start(RINA)
    card = int(state.face_up[0, 0])
    cost = [int(v) for v in RINA.tables.cards.cost[card]]
    short = next(c for c, v in enumerate(cost) if v)
    tokens = list(cost) + [2]
    tokens[short] -= 1
    after = play(RINA, with_player(state, 0, tokens=tokens), "buy L1#1")
    assert after.phase == MAIN and after.players[0, :6].tolist() == [0] * 5 + [1]


def test_r9_every_player_takes_the_first_eligible_noble_after_any_action() -> None:
    state = edit(start(RINA), nobles=[0, 1, 5])  # W4 U4, W4 K4, U4 G4
    state = with_player(state, 0, bonuses=(4, 4, 0, 0, 4), bought=12)  # eligible for all three
    state = with_player(state, 1, bonuses=(0, 4, 4, 0, 0), bought=8)  # eligible for the third
    state.first_player = 1  # seat order from the start player: player 1 is checked first
    after = play(RINA, state, "take WUG")
    assert after.nobles.tolist() == [-1, 1, -1] and after.players[:, POINTS].tolist() == [3, 3]
    noble_events = [e for e in after.events if e.type == ev.NOBLE_TAKEN]
    assert [e.who for e in noble_events] == [ev.ENGINE, ev.ENGINE]  # the table side is the engine's
    after = play(RINA, after, "take WUG")  # player 1 acts; player 0 gets its second noble now
    assert after.nobles.tolist() == [-1, -1, -1] and after.players[0, POINTS] == 6
