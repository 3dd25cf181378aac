"""Action layout and precomputed lookup tables of one Splendor config (built once per config)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

import numpy as np

from boardenvs.games.splendor.cards import LETTERS, NUM_LEVELS, CardTable, card_table
from boardenvs.games.splendor.config import SplendorConfig

KINDS = ("take_different", "take_same", "reserve_face_up", "reserve_deck", "buy_face_up", "buy_reserved",
         "return", "noble", "pass")  # fmt: skip
"""Action kinds in the order of their id ranges."""


@dataclass(frozen=True, eq=False)
class ActionTables:
    """Where each action kind lives and the arrays the mask and the rules read.

    Attributes:
        starts: first action id of each kind in :data:`KINDS` order, plus ``num_actions`` at the end.
        kind: ``int8[num_actions]`` kind index of each action.
        arg: ``int16[num_actions]`` argument of each action (combination index, colour, slot, level, ...).
        combos: colour tuples of the take-different combinations (sizes 1..take_different_count).
        combo_vectors: ``int16[C, 5]`` tokens taken by each combination.
        combo_mask: ``bool[2, 32, C]`` legal combinations by [rinascimento][bitmask of available colours].
        cards: the card table of the config's deck.
        deck_sizes: ``int16[3]`` cards per level deck.
        min_noble_total: the smallest total requirement of a noble (fewer bonuses never qualify).
    """

    starts: tuple[int, ...]
    kind: np.ndarray
    arg: np.ndarray
    combos: tuple[tuple[int, ...], ...]
    combo_vectors: np.ndarray
    combo_mask: np.ndarray
    cards: CardTable
    deck_sizes: np.ndarray
    min_noble_total: int

    @property
    def num_actions(self) -> int:
        return self.starts[-1]

    def span(self, kind: str) -> slice:
        """The id range of ``kind``."""
        index = KINDS.index(kind)
        return slice(self.starts[index], self.starts[index + 1])


def _combo_mask(combos: tuple[tuple[int, ...], ...], count: int) -> np.ndarray:
    """Legal take-different combinations per available-colour bitmask: official P1 (exactly
    ``min(count, available)`` colours) and Rinascimento R5 (any 1..count available colours)."""
    table = np.zeros((2, 32, len(combos)), dtype=bool)
    for bits in range(32):
        available = {c for c in range(5) if bits >> c & 1}
        for index, combo in enumerate(combos):
            if set(combo) <= available:
                table[1, bits, index] = True
                table[0, bits, index] = len(combo) == min(count, len(available))
    return table


@lru_cache(maxsize=64)
def tables_for(config: SplendorConfig) -> ActionTables:
    """The :class:`ActionTables` of ``config``."""
    combos = tuple(c for size in range(1, config.take_different_count + 1) for c in combinations(range(5), size))
    slots = NUM_LEVELS * config.face_up
    sizes = (len(combos), 5, slots, NUM_LEVELS, slots, config.max_reserved, 6, config.nobles, 1)
    starts = tuple(int(x) for x in np.concatenate([[0], np.cumsum(sizes)]))
    kind = np.concatenate([np.full(size, k, dtype=np.int8) for k, size in enumerate(sizes)])
    arg = np.concatenate([np.arange(size, dtype=np.int16) for size in sizes])
    vectors = np.zeros((len(combos), 5), dtype=np.int16)
    for index, combo in enumerate(combos):
        vectors[index, list(combo)] = config.take_different_amount
    return ActionTables(
        starts=starts,
        kind=kind,
        arg=arg,
        combos=combos,
        combo_vectors=vectors,
        combo_mask=_combo_mask(combos, config.take_different_count),
        cards=card_table(config.deck),
        deck_sizes=np.array([len(ids) for ids in card_table(config.deck).by_level], dtype=np.int16),
        min_noble_total=int(card_table(config.deck).noble_req.sum(axis=1).min()),
    )


def slot_name(config: SplendorConfig, slot: int) -> str:
    """``"L2#3"``: face-up slot ``slot`` (row-major over levels) as level and 1-based column."""
    level, column = divmod(slot, config.face_up)
    return f"L{level + 1}#{column + 1}"


def colours_name(colours: tuple[int, ...] | list[int]) -> str:
    """``"WUG"``: resource indices as letters."""
    return "".join(LETTERS[c] for c in colours)
