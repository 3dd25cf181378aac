"""Splendor's notation: the :class:`Move` of an action id and back, action and card texts, message wording.

Moves read ``"take WUG"``, ``"take 2 R"``, ``"take WU return K"``, ``"take none"``, ``"reserve L2#3"``,
``"reserve deck L1"``, ``"buy L3#1"``, ``"buy reserved 2"``, ``"return Y"``, ``"noble 1"``, ``"gold for U"``,
``"pay"``, ``"pass"`` (token patterns are named with their table, ``tables.py``); cards read ``"L1 K+1p (W1 U1)"``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from boardenvs.games.splendor.cards import COLOURS, GOLD, LETTERS
from boardenvs.games.splendor.config import SplendorConfig
from boardenvs.games.splendor.tables import KINDS, NOBLE_CHOICE, PAY, PAY_GOLD, RETURN, TAKE_DIFFERENT, ActionTables


class Move(NamedTuple):
    """A decoded action: ``kind`` (one of ``tables.KINDS``) and its argument (pattern index within the kind,
    face-up slot, level, reserve slot, resource, noble slot or colour; 0 for ``pay`` and ``pass``)."""

    kind: str
    arg: int


KIND_INDEX = {kind: index for index, kind in enumerate(KINDS)}


def moves_of(tables: ActionTables) -> tuple[Move, ...]:
    """The :class:`Move` of every action id (the same in every state)."""
    return tuple(Move(KINDS[k], a) for k, a in zip(tables.kind.tolist(), tables.arg.tolist()))


def encode_move(config: SplendorConfig, tables: ActionTables, move: Move) -> int:
    """The action id of a :class:`Move` (the same in every state); ``ValueError`` naming what is wrong."""
    kind, arg = move
    index = KIND_INDEX.get(kind)
    if index is None:
        raise ValueError(f"unknown move kind {kind!r}; kinds are {', '.join(KINDS)}")
    start, stop = tables.starts[index], tables.starts[index + 1]
    if start == stop:
        rinascimento = config.rinascimento and index in (RETURN, NOBLE_CHOICE, PAY_GOLD, PAY)
        raise ValueError(f"this game has no {kind!r} moves{' under Rinascimento rules' if rinascimento else ''}")
    if isinstance(arg, bool) or not isinstance(arg, (int, np.integer)) or not 0 <= arg < stop - start:
        raise ValueError(f"{kind!r} takes an int argument in [0, {stop - start}), got {arg!r}")
    return start + int(arg)


def action_text(config: SplendorConfig, tables: ActionTables, move: Move, action: int) -> str:
    """The action id ``action``, whose move is ``move``, in notation."""
    kind, arg = move
    if kind in ("take_different", "take_same"):
        return tables.take_names[action - tables.starts[TAKE_DIFFERENT]]
    if kind in ("reserve_face_up", "buy_face_up"):
        return f"{kind.split('_')[0]} {slot_name(config, arg)}"
    if kind == "reserve_deck":
        return f"reserve deck L{arg + 1}"
    if kind == "buy_reserved":
        return f"buy reserved {arg + 1}"
    if kind in ("return", "pay_gold"):
        return f"{'return' if kind == 'return' else 'gold for'} {LETTERS[arg]}"
    return f"noble {arg + 1}" if kind == "noble" else kind  # "pay", "pass"


def slot_name(config: SplendorConfig, slot: int) -> str:
    """``"L2#3"``: face-up slot ``slot`` (row-major over levels) as level and 1-based column."""
    level, column = divmod(slot, config.face_up)
    return f"L{level + 1}#{column + 1}"


def card_text(tables: ActionTables, card: int) -> str:
    """``"L1 K+1p (W1 U1)"``: level, bonus colour, points and cost of a card id ("--" for -1)."""
    if card < 0:
        return "--"
    cards = tables.cards
    cost = " ".join(f"{LETTERS[c]}{int(v)}" for c, v in enumerate(cards.cost[card]) if v)
    return f"L{int(cards.level[card])} {LETTERS[int(cards.bonus[card])]}+{int(cards.points[card])}p ({cost})"


def colour_name(colour: int) -> str:
    """``"red (R)"``; gold is ``"gold (Y)"``."""
    return f"{'gold' if colour == GOLD else COLOURS[colour]} ({LETTERS[colour]})"


def amounts(values: list[int] | tuple[int, ...]) -> str:
    """``"R2 K1"``: the non-zero entries of a per-colour vector, ``"none"`` when all are zero."""
    return " ".join(f"{LETTERS[c]}{v}" for c, v in enumerate(values) if v) or "none"
