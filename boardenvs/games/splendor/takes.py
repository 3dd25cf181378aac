"""Splendor's token actions: which take patterns a position allows and why one is not, each rule written once.

Token actions are patterns (``tables.py``). Each rule of the config's rule set (official P1:
:data:`OFFICIAL_TAKE_RULES`; Rinascimento R5, R6: :data:`RINASCIMENTO_TAKE_RULES`) is a :class:`TokenRule`: the
patterns it allows given the one value it reads (a colour's stack and the player's tokens of it, the tokens held,
or the colours on offer), next to its message. :func:`token_factors` evaluates the rules once per config for every
value they tell apart; a position's token mask ANDs one entry per value it reads (:func:`take_bytes`),
:func:`take_mask` ANDs the rules themselves, and :func:`take_reason` asks the rules in order which one excludes a
pattern. The rest of the mask and of the reasons is ``legality.py``'s.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from boardenvs.games.splendor.cards import LETTERS
from boardenvs.games.splendor.config import SplendorConfig
from boardenvs.games.splendor.notation import colour_name
from boardenvs.games.splendor.state import SplendorState
from boardenvs.games.splendor.tables import ActionTables, tables_for

TAKE_CACHE_BYTES = 16_000_000
"""Memory for the token masks kept per config by supply (rule sets that read no hand: the official one)."""
NO_HAND = (0,) * 6
COLOUR, HELD, OFFER = "colour", "held", "offer"
"""What a token rule reads: one colour (its stack and the player's tokens of it), the tokens held, the colours
on offer (:func:`offer`)."""


# -- token actions (official P1; Rinascimento R5, R6) ------------------------------------------------
@dataclass(frozen=True)
class Take:
    """A token action tried in a position: what the rules' messages name."""

    config: SplendorConfig
    tables: ActionTables
    index: int
    player: int
    stacks: list[int]
    row: list[int]

    @property
    def name(self) -> str:
        return self.tables.take_names[self.index]

    @property
    def taken(self) -> int:
        return int(self.tables.take_total[self.index])

    @property
    def given(self) -> int:
        return int(self.tables.give_total[self.index])


@dataclass(frozen=True)
class TokenRule:
    """One condition on token patterns: ``allows(config, tables, *value)`` is ``bool[patterns]`` for the value it
    ``reads`` (:data:`COLOUR`: ``colour, stack, tokens``; :data:`HELD`: ``held``; :data:`OFFER`: ``offer``), and
    ``why(take, *value)`` says why a pattern it excludes is illegal. ``hand``: it reads the player's tokens."""

    allows: Callable[..., np.ndarray]
    why: Callable[..., str]
    reads: str
    hand: bool


def least_offered(config: SplendorConfig) -> int:
    """The stack a colour needs to be on offer to a take-different: ``take_different_amount`` (official P1) or
    one token (Rinascimento R5, whose amount is "up to")."""
    return 1 if config.rinascimento else config.take_different_amount


def colours_offered(config: SplendorConfig, stacks: list[int]) -> list[int]:
    """The colours on offer to a take-different (:func:`least_offered`), for the messages."""
    least = least_offered(config)
    return [colour for colour in range(5) if stacks[colour] >= least]


def offer(config: SplendorConfig, stacks: list[int]) -> int:
    """How many colours a take-different may take here: ``min(take_different_count, len(colours_offered))``
    (counted without building the list: the mask asks this once per position)."""
    least = least_offered(config)
    return min(config.take_different_count, 5 - sum(map(least.__gt__, stacks[:5])))


def same_stack_need(config: SplendorConfig) -> int:
    """The stack a take-same needs: ``take_same_min`` (Rinascimento) and at least the amount taken (official)."""
    return config.take_same_min if config.rinascimento else max(config.take_same_min, config.take_same_amount)


def within_stack(config: SplendorConfig, tables: ActionTables, colour: int, stack: int, tokens: int) -> np.ndarray:
    """A pattern takes at most the ``stack`` of ``colour``."""
    del config, tokens
    return tables.take[:, colour] <= stack


def _within_stack_why(take: Take, colour: int, stack: int, tokens: int) -> str:
    verb = "takes" if take.config.rinascimento else "needs"
    wanted = take.tables.take[take.index, colour]
    return f"the supply has {stack} {colour_name(colour)} left, '{take.name}' {verb} {wanted}"


def same_stack_min(config: SplendorConfig, tables: ActionTables, colour: int, stack: int, tokens: int) -> np.ndarray:
    """A take-same of ``colour`` needs a stack of :func:`same_stack_need`."""
    del tokens
    if stack >= same_stack_need(config):
        return np.ones(len(tables.take), dtype=bool)
    return ~(tables.is_same & (tables.same_colour == colour))


def _same_stack_why(take: Take, colour: int, stack: int, tokens: int) -> str:
    need = same_stack_need(take.config)
    if take.config.rinascimento:
        return (f"taking several of one colour needs a stack of at least {need}; the {colour_name(colour)} stack "
                f"has {stack}")  # fmt: skip
    return f"'{take.name}' needs at least {need} {colour_name(colour)} in the supply, which has {stack}"


def give_within_hand(config: SplendorConfig, tables: ActionTables, colour: int, stack: int, tokens: int) -> np.ndarray:
    """A pattern gives back at most the player's ``tokens`` of ``colour``."""
    del config, stack
    return tables.give[:, colour] <= tokens


def _give_within_hand_why(take: Take, colour: int, stack: int, tokens: int) -> str:
    given = take.tables.give[take.index, colour]
    return f"player {take.player} holds {tokens} {colour_name(colour)}, '{take.name}' gives back {given}"


def _overflows(config: SplendorConfig, tables: ActionTables, held: int) -> np.ndarray:
    """Patterns whose take brings a player holding ``held`` tokens over ``max_tokens``."""
    return held + tables.take_total > config.max_tokens


def no_give_within_cap(config: SplendorConfig, tables: ActionTables, held: int) -> np.ndarray:
    """A take that stays within ``max_tokens`` gives nothing back."""
    return _overflows(config, tables, held) | (tables.give_total == 0)


def _no_give_why(take: Take, held: int) -> str:
    return (f"player {take.player} holds {held} tokens and {take.taken} more stay within the cap of "
            f"{take.config.max_tokens}, so nothing may be given back")  # fmt: skip


def give_exact_excess(config: SplendorConfig, tables: ActionTables, held: int) -> np.ndarray:
    """A take that overflows ``max_tokens`` gives back exactly the excess."""
    return tables.give_total == np.maximum(held + tables.take_total - config.max_tokens, 0)


def _give_excess_why(take: Take, held: int) -> str:
    cap = take.config.max_tokens
    owed = max(held + take.taken - cap, 0)
    return (f"player {take.player} holds {held} tokens; taking {take.taken} goes over the cap of {cap}, so exactly "
            f"{owed} must be given back, '{take.name}' gives back {take.given}")  # fmt: skip


def same_exact_amount(config: SplendorConfig, tables: ActionTables, held: int) -> np.ndarray:
    """A take-same that does not overflow takes exactly ``min(take_same_amount, max_tokens - held)``."""
    exact = min(config.take_same_amount, config.max_tokens - held)
    return ~tables.is_same | _overflows(config, tables, held) | (tables.take_total == exact)


def _same_exact_why(take: Take, held: int) -> str:
    cap = take.config.max_tokens
    exact = min(take.config.take_same_amount, cap - held)
    return (f"a take of one colour within the cap takes exactly {exact} (player {take.player} holds {held} of "
            f"{cap}); '{take.name}' takes {take.taken}")  # fmt: skip


def supply_not_empty(config: SplendorConfig, tables: ActionTables, offered: int) -> np.ndarray:
    """Every token action, "take none" included, needs a colour on offer (a take-same needs its stack anyway)."""
    del config
    return np.full(len(tables.take), offered > 0)


def _supply_empty_why(take: Take, offered: int) -> str:
    return "every gem stack in the supply is empty, so no tokens can be taken"


def at_most_offered(config: SplendorConfig, tables: ActionTables, offered: int) -> np.ndarray:
    """Rinascimento R5: a take-different takes at most :func:`offer` colours."""
    del config
    return tables.is_same | (tables.take_count <= offered)


def _at_most_offered_why(take: Take, offered: int) -> str:
    # (never the first rule broken: a pattern that takes only from non-empty stacks takes at most ``offered`` colours)
    taken = int(take.tables.take_count[take.index])
    return f"a take of different colours takes at most {offered} colours here; '{take.name}' takes {taken}"


def exactly_offered(config: SplendorConfig, tables: ActionTables, offered: int) -> np.ndarray:
    """Official P1: a take-different takes exactly :func:`offer` colours."""
    del config
    return tables.is_same | (tables.take_count == offered)


def _exactly_offered_why(take: Take, offered: int) -> str:
    available = colours_offered(take.config, take.stacks)
    letters = "".join(LETTERS[colour] for colour in available)
    return (f"a take of different colours takes exactly {offered} colours while {len(available)} stacks "
            f"({letters}) can give {take.config.take_different_amount}; '{take.name}' takes "
            f"{int(take.tables.take_count[take.index])}")  # fmt: skip


OFFICIAL_TAKE_RULES = (
    TokenRule(same_stack_min, _same_stack_why, COLOUR, hand=False),
    TokenRule(within_stack, _within_stack_why, COLOUR, hand=False),
    TokenRule(exactly_offered, _exactly_offered_why, OFFER, hand=False),
)
"""P1, in the order the reasons ask them."""
RINASCIMENTO_TAKE_RULES = (
    TokenRule(supply_not_empty, _supply_empty_why, OFFER, hand=False),
    TokenRule(within_stack, _within_stack_why, COLOUR, hand=False),
    TokenRule(same_stack_min, _same_stack_why, COLOUR, hand=False),
    TokenRule(no_give_within_cap, _no_give_why, HELD, hand=True),
    TokenRule(give_within_hand, _give_within_hand_why, COLOUR, hand=True),
    TokenRule(give_exact_excess, _give_excess_why, HELD, hand=True),
    TokenRule(same_exact_amount, _same_exact_why, HELD, hand=True),
    TokenRule(at_most_offered, _at_most_offered_why, OFFER, hand=False),
)
"""``PickDifferentCoins`` / ``PickSameCoins.canPerform`` (R5, R6), in the order the reasons ask them."""


def take_rules(config: SplendorConfig) -> tuple[TokenRule, ...]:
    """The token rules of the config's rule set."""
    return RINASCIMENTO_TAKE_RULES if config.rinascimento else OFFICIAL_TAKE_RULES


def _reads(config: SplendorConfig, stacks: list[int], row: list[int] | tuple[int, ...]) -> dict[str, list[tuple]]:
    """The values the token rules read in a position, by kind of read."""
    return {
        COLOUR: [(colour, stacks[colour], row[colour]) for colour in range(5)],
        HELD: [(sum(row[:6]),)],
        OFFER: [(offer(config, stacks),)],
    }


def take_mask(config: SplendorConfig, tables: ActionTables, supply: np.ndarray, row: np.ndarray) -> np.ndarray:
    """``bool[patterns]``: the token actions every rule of the config's rule set allows with this supply and hand
    (the player's ``players`` row), the AND of the rules themselves (:func:`take_bytes` reads the same from tables)."""
    reads = _reads(config, supply.tolist(), row.tolist())
    ok = np.ones(len(tables.take), dtype=bool)
    for rule in take_rules(config):
        for value in reads[rule.reads]:
            ok &= rule.allows(config, tables, *value)
    return ok


def take_reason(config: SplendorConfig, tables: ActionTables, state: SplendorState, index: int) -> str:
    """The message of the first rule (in the rule set's order) that excludes token pattern ``index``."""
    player = state.current_player
    take = Take(config, tables, index, player, state.supply.tolist(), state.players[player].tolist())
    reads = _reads(config, take.stacks, take.row)
    for rule in take_rules(config):
        for value in reads[rule.reads]:
            if not rule.allows(config, tables, *value)[index]:
                return rule.why(take, *value)
    return ""


@dataclass(frozen=True, eq=False)
class TokenFactors:
    """The token rules of one config evaluated for every value they read, for the mask (:func:`take_bytes`).

    Each entry is an int with one byte per token pattern, 1 where every rule of that read allows it
    (:func:`byte_flags`); a position's mask is the AND of one entry per value it reads.

    Attributes:
        config: the config.
        by_colour: ``by_colour[c][s * (max_tokens_read + 1) + t]``: the :data:`COLOUR` rules for colour ``c`` with
            ``s`` tokens in its stack and ``t`` in the player's hand.
        by_held: ``by_held[h]``: the :data:`HELD` rules for ``h`` tokens held, 0..max_tokens.
        by_offer: ``by_offer[k]``: the :data:`OFFER` rules for ``k`` colours on offer.
        max_stack_read, max_tokens_read: the largest stack and hand the rules tell apart (larger ones read the
            same entry).
        num_patterns: the number of token patterns (bytes of the mask).
        by_supply: masks by supply bytes when no rule reads the hand (official rules), else ``None``.
    """

    config: SplendorConfig
    by_colour: tuple[tuple[int, ...], ...]
    by_held: tuple[int, ...]
    by_offer: tuple[int, ...]
    max_stack_read: int
    max_tokens_read: int
    num_patterns: int
    by_supply: dict[bytes, bytes] | None = field(default=None)


def byte_flags(flags: np.ndarray) -> int:
    """An int whose byte ``i`` is 1 where ``flags[i]`` is true (ANDing two ints ANDs the flags byte by byte)."""
    return int.from_bytes(np.asarray(flags, dtype=np.uint8).tobytes(), "little")


def _flags(config: SplendorConfig, tables: ActionTables, reads: str, *value: int) -> int:
    """:func:`byte_flags` of the AND of the config's token rules that read ``reads``, at ``value``."""
    ok = np.ones(len(tables.take), dtype=bool)
    for rule in take_rules(config):
        if rule.reads == reads:
            ok &= rule.allows(config, tables, *value)
    return byte_flags(ok)


@lru_cache(maxsize=8)
def token_factors(config: SplendorConfig) -> TokenFactors:
    """The :class:`TokenFactors` of a config."""
    tables = tables_for(config)
    most_stack = max(int(tables.take.max()), config.take_same_min)  # larger stacks pass the same patterns
    most_tokens = int(tables.give.max())  # so do larger hands
    reads = [(stack, tokens) for stack in range(most_stack + 1) for tokens in range(most_tokens + 1)]
    supply_only = not any(rule.hand for rule in take_rules(config))
    return TokenFactors(
        config=config,
        by_colour=tuple(tuple(_flags(config, tables, COLOUR, colour, *read) for read in reads) for colour in range(5)),
        by_held=tuple(_flags(config, tables, HELD, held) for held in range(config.max_tokens + 1)),
        by_offer=tuple(_flags(config, tables, OFFER, count) for count in range(config.take_different_count + 1)),
        max_stack_read=most_stack,
        max_tokens_read=most_tokens,
        num_patterns=len(tables.take),
        by_supply={} if supply_only else None,
    )


def take_bytes(factors: TokenFactors, supply: np.ndarray, row: list[int]) -> bytes:
    """:func:`take_mask` as one byte per token action, from the tables of its rules; cached by supply when the
    rules read no hand (official rules)."""
    cache = factors.by_supply
    if cache is None:
        return _factor_bytes(factors, supply.tolist(), row)
    key = supply.tobytes()
    cached = cache.get(key)
    if cached is None:
        cached = _factor_bytes(factors, supply.tolist(), NO_HAND)
        if len(cache) * (len(cached) + 150) < TAKE_CACHE_BYTES:
            cache[key] = cached
    return cached


def _factor_bytes(factors: TokenFactors, supply: list[int], row: list[int] | tuple[int, ...]) -> bytes:
    config = factors.config
    held = sum(row[:6])
    if held > config.max_tokens:  # never in play (a take stops at the cap); the rules themselves
        return take_mask(config, tables_for(config), np.array(supply), np.array(row)).tobytes()
    fits = factors.by_held[held] & factors.by_offer[offer(config, supply)]
    most_stack, most_tokens = factors.max_stack_read, factors.max_tokens_read
    for by_colour, stack, tokens in zip(factors.by_colour, supply, row):  # (conditional clamps: faster than min)
        stack = stack if stack < most_stack else most_stack
        fits &= by_colour[stack * (most_tokens + 1) + (tokens if tokens < most_tokens else most_tokens)]
    return fits.to_bytes(factors.num_patterns, "little")
