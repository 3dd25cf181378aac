"""The Splendor observation: one ``float32`` vector of raw counts, seen from the observer's seat."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from boardenvs.core import ObservationField
from boardenvs.games.splendor.cards import NUM_LEVELS, CardTable
from boardenvs.games.splendor.config import SplendorConfig
from boardenvs.games.splendor.rules import paying_card
from boardenvs.games.splendor.state import PAY, SplendorState
from boardenvs.games.splendor.tables import tables_for

CARD_FEATURES = 14
"""Per card: present, face_down, level, points, bonus one-hot (5), cost (5)."""


@lru_cache(maxsize=8)
def card_features(cards: CardTable) -> tuple[np.ndarray, np.ndarray]:
    """``float32[N + 1, 14]`` features per card id (row -1: empty slot) and ``float32[4, 14]`` per hidden level."""
    n = cards.num_cards
    features = np.zeros((n + 1, CARD_FEATURES), dtype=np.float32)
    features[:n, 0] = 1
    features[:n, 2] = cards.level[:n]
    features[:n, 3] = cards.points[:n]
    features[np.arange(n), 4 + cards.bonus[:n]] = 1
    features[:n, 9:14] = cards.cost[:n]
    hidden = np.zeros((NUM_LEVELS + 1, CARD_FEATURES), dtype=np.float32)
    hidden[1:, :2] = 1
    hidden[1:, 2] = np.arange(1, NUM_LEVELS + 1)
    return features, hidden


def _layout(config: SplendorConfig) -> list[tuple[str, int, float, str]]:
    cards = tables_for(config).cards
    n, slots, r = config.num_players, NUM_LEVELS * config.face_up, config.max_reserved
    stack = float(max(config.tokens_per_colour, config.gold))
    most_points = float(cards.points.sum() + cards.noble_points[:-1].sum())
    deck = float(max(len(ids) for ids in cards.by_level))
    card_high = float(max(7, int(cards.cost[:-1].max())))
    noble_high = float(max(1, int(cards.noble_req[:-1].max()) if cards.num_nobles else 1))
    return [
        ("supply", 6, stack, "tokens on the table: white, blue, green, red, black, gold"),
        ("tokens", 6 * n, stack, "each player's 6 token counts, observer first, then in turn order"),
        ("bonuses", 5 * n, float(cards.num_cards), "each player's card bonuses per colour"),
        ("points", n, most_points, "each player's prestige points"),
        ("cards_bought", n, float(cards.num_cards), "each player's purchased cards (the tie-break)"),
        ("nobles_taken", n, float(cards.num_nobles), "each player's nobles"),
        ("reserved_count", n, float(r), "each player's reserved cards"),
        ("face_up", slots * CARD_FEATURES, card_high, "face-up cards level by level: 14 features each"),
        ("nobles", config.nobles * 6, noble_high, "per noble slot: present, requirement per colour"),
        ("my_reserved", r * CARD_FEATURES, card_high, "my reserved cards (all visible to me)"),
        ("others_reserved", (n - 1) * r * CARD_FEATURES, card_high,
         "other players' reserves; face-down ones show only present, face_down and level"),
        ("deck_counts", NUM_LEVELS, deck, "cards left in each level's deck"),
        ("phase", 4, 1.0, "one-hot: main action, returning tokens, choosing a noble, paying with gold"),
        ("paying", CARD_FEATURES, card_high, "phase pay: the card being bought (14 features)"),
        ("gold_plan", 5, stack, "phase pay: gold chosen so far per colour"),
        ("turn_order", n, 1.0, "one-hot: my position after the start player (0 = I started)"),
        ("end_triggered", 1, 1.0, "someone reached the points to end; the round finishes"),
    ]  # fmt: skip


@lru_cache(maxsize=64)
def observation_fields(config: SplendorConfig) -> tuple[ObservationField, ...]:
    """The named slices of the observation (fields of size 0 are left out)."""
    fields, start = [], 0
    for name, size, high, description in _layout(config):
        if size:
            fields.append(ObservationField(name, start, start + size, 0.0, high, description))
            start += size
    return tuple(fields)


def observe(config: SplendorConfig, state: SplendorState, player: int) -> np.ndarray:
    """``float32`` vector of :func:`observation_fields` for ``player``."""
    cards = tables_for(config).cards
    features, hidden_features = card_features(cards)
    n = config.num_players
    order = [(player + i) % n for i in range(n)]
    players = state.players[order]
    reserved = state.reserved[order]
    others = features[reserved[1:]]
    face_down = state.hidden[order][1:]
    others[face_down] = hidden_features[cards.level[reserved[1:][face_down]]]
    nobles = np.zeros((config.nobles, 6), dtype=np.float32)
    nobles[:, 0] = state.nobles >= 0
    nobles[:, 1:] = np.where(state.nobles[:, None] >= 0, cards.noble_req[state.nobles], 0)
    sizes = np.array([len(ids) for ids in cards.by_level])
    phase = np.zeros(4, dtype=np.float32)
    phase[state.phase] = 1
    paying = features[paying_card(config, state)] if state.phase == PAY else features[-1]
    turn = np.zeros(n, dtype=np.float32)
    turn[(player - state.first_player) % n] = 1
    parts = [
        state.supply, players[:, :6].ravel(), players[:, 6:11].ravel(), players[:, 11], players[:, 12],
        players[:, 13], (reserved >= 0).sum(axis=1), features[state.face_up.ravel()].ravel(), nobles.ravel(),
        features[reserved[0]].ravel(), others.ravel(), sizes - state.top, phase, paying, state.gold_plan, turn,
        [float(state.end_triggered)],
    ]  # fmt: skip
    return np.concatenate([np.asarray(part, dtype=np.float32).ravel() for part in parts])
