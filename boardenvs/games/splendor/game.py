"""The Splendor game object: the contract of ``boardenvs.core.Game`` on top of the rules module."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from boardenvs.core import TERMINAL, Game, GameSpec, shared_win_returns
from boardenvs.games.splendor import reasons, rules
from boardenvs.games.splendor.cards import LETTERS, NUM_LEVELS
from boardenvs.games.splendor.config import SplendorConfig
from boardenvs.games.splendor.events import DRAW_CARD, RESERVE_HIDDEN_CARD, Event
from boardenvs.games.splendor.observation import observation_fields, observe
from boardenvs.games.splendor.state import PAY as PAY_PHASE
from boardenvs.games.splendor.state import PHASE_NAMES, POINTS, SplendorState
from boardenvs.games.splendor.svg import draw_svg
from boardenvs.games.splendor.tables import (
    BUY_FACE_UP,
    BUY_RESERVED,
    KINDS,
    NOBLE_CHOICE,
    PASS,
    PAY,
    PAY_GOLD,
    RESERVE_DECK,
    RESERVE_FACE_UP,
    RETURN,
    TAKE_DIFFERENT,
    TAKE_SAME,
    slot_name,
    tables_for,
)  # fmt: skip


class Move(NamedTuple):
    """A decoded action: ``kind`` (one of ``tables.KINDS``) and its argument (pattern index within the kind,
    face-up slot, level, reserve slot, resource, noble slot or colour; 0 for ``pay`` and ``pass``)."""

    kind: str
    arg: int


_KIND_INDEX = {kind: index for index, kind in enumerate(KINDS)}


class Splendor(Game[SplendorState, Move]):
    """Splendor for 2 to 4 players: official rules (docs/rules/rules.md §3.3, P1-P7) or Rinascimento's (R1, R5-R9).

    Version history: docs/versions.md (``version`` is in the env ids and the module name,
    ``boardenvs.splendor_v<version>``).

    **Setup.** Each level deck (40/30/20 cards) is shuffled by ``initial_state(rng)``; ``face_up`` cards per
    level are revealed, ``nobles`` nobles (default players + 1) are drawn, gem stacks hold
    ``tokens_per_colour`` (default 4/5/7 for 2/3/4 players) and gold ``gold`` (5); the start player is random
    (``first_player``, shown in the observation as ``turn_order``). ``cards_file`` / ``nobles_file`` load
    custom tables for game-design experiments.

    **Actions** (ids in this order; 76 for the default 2-player game, 357 for the Rinascimento preset):
    ``take_different``, ``take_same`` (token patterns, below), ``reserve_face_up`` (3F slots, row-major by
    level), ``reserve_deck`` (3 levels; not from an empty deck, P5), ``buy_face_up`` (3F), ``buy_reserved``
    (``max_reserved`` slots), and for the official rules only ``return`` (6 resources, gold last), ``noble``
    (one per noble slot), ``pay_gold`` (5 colours) and ``pay``; last ``pass`` (only when nothing else is
    legal, P4). A reserve takes one gold if any is left (R7, Rinascimento: only below ``max_tokens``).
    Notation: ``"take WUG"``, ``"take 2 R"``, ``"take WU return K"``, ``"take none"``, ``"reserve L2#3"``,
    ``"reserve deck L1"``, ``"buy L3#1"``, ``"buy reserved 2"``, ``"return Y"``, ``"noble 1"``,
    ``"gold for U"``, ``"pay"``, ``"pass"``.

    **Official token actions.** ``take_different``: one per colour set of size 1..``take_different_count``,
    legal only with exactly ``min(3, colours available)`` colours (P1); ``take_same``: 2 of one colour from a
    stack of at least ``take_same_min`` = 4. Above ``max_tokens`` at the end of the turn the player returns
    one token per sub-decision (phase "return", any resource, P2).

    **Rinascimento token actions (R5, R6) are whole patterns**, as in its ``PickCoins``: every combination
    of tokens taken and tokens given back in the same action is one action id (and its explicit encoder
    ``ATPickDifferentCoinsGeneric`` likewise enumerates whole patterns with returns as negative entries).
    Take-different: "take none", or 1..``take_different_count`` colours with 1..``take_different_amount``
    tokens each, at most ``min(count, non-empty stacks)`` colours; take-same: one colour from a stack of at
    least ``take_same_min``, exactly ``min(take_same_amount, max_tokens - held)`` tokens when that fits and
    more (up to ``take_same_amount``) only with returns. Whenever a take overflows ``max_tokens`` the same
    action gives back tokens of colours not taken (never gold) so the total is exactly ``max_tokens``;
    without overflow nothing is given back. The mask admits exactly the patterns ``canPerform`` accepts
    (``rules.rinascimento_take_mask``). Why not a return sub-phase as in the official rules: a sub-phase
    would split one Rinascimento action into several plies, record a return of two tokens as two events
    instead of one, offer returns of just-taken colours (a different event record for the same net change)
    and stretch the plans of its search agents; whole patterns keep a fixed action space (226 + 100 ids for
    ``defaultx2``; at most about 17,000 at the far ends of the game-design ranges) with an exact mask.

    **Payment.** Cost per colour is the printed cost less the player's bonuses. Rinascimento (R8): coloured
    tokens first, gold only for the shortfall. Official: a gold "can replace any gem" (Dized FAQ), so the
    player may spend gold in place of any coloured token it holds (docs/rules/rules.md §3.6 recommends optional
    gold), also in a colour it is short of: owing 3 red with 2 red and 2 gold, it may pay 2 red + 1 gold or
    1 red + 2 gold. When that choice exists (a gold spare beyond the shortfall and a colour whose tokens the
    payment spends), ``buy`` opens the "pay" phase: each ``gold for <colour>`` replaces one more token of
    that colour by a gold (``gold_plan`` counts them), ``pay`` completes the purchase (the rest coloured
    first, gold for the shortfall); it completes by itself once no further choice is left. Every payment
    is reachable and the action space stays small and fixed; a face-down reserve being bought is shown at
    once. Without a choice the purchase completes within the ``buy`` action.

    **Sub-decisions** by the same player (official rules): "return" and "pay" above; if several nobles
    qualify at the end of the turn the player chooses one (phase "noble"); with one it visits
    automatically. Rinascimento (R9): after every action every player, in seat order from the start player,
    gets the first eligible noble in table order (at most one each).

    **Observation** ``float32[N]`` of raw counts (fields in ``spec.observation_fields``): ``supply`` (6),
    per player from the observer's seat ``tokens`` (6), ``bonuses`` (5), ``points``, ``cards_bought``,
    ``nobles_taken``, ``reserved_count``; ``face_up`` (3F cards x 14 features: present, face_down, level,
    points, bonus one-hot, cost), ``nobles`` (per slot: present, requirement), ``my_reserved``,
    ``others_reserved`` (face-down ones show only present, face_down, level), ``deck_counts``, ``phase``
    (one-hot main/return/noble/pay), ``paying`` (the card being paid for), ``gold_plan``, ``turn_order``
    (one-hot), ``end_triggered``.

    **Codec.** ``decode(state, action)`` gives the :class:`Move` ``(kind, arg)``: ``kind`` one of the names
    above (``tables.KINDS``), ``arg`` the index within that kind's range (token pattern, slot, level, reserve
    slot, resource, noble slot or colour; 0 for ``pay`` and ``pass``); ``encode(state, move)`` is its inverse.
    Both ignore the state (ids mean the same in every position) and raise ``ValueError`` for an unknown kind,
    a kind this config has none of, or an argument out of range.

    **End and returns.** Official: once someone has ``points_to_end`` (15) the round is finished (the game
    ends before the start player's next turn). Rinascimento R1: ends at once. If every player passes in a row
    the game ends (P4). After ``max_plies`` plies (``spec.max_game_length``) the game ends as truncated and is
    ranked like any other end (a game that ends by its rules on the last ply is not truncated). Ranking:
    points, then fewest cards bought; the best players share the win, by the convention of every boardenvs
    game (``boardenvs.core.shared_win_returns``): of n players, k tied winners get (n-k)/(k(n-1)) each (a lone
    winner +1), every other player -1/(n-1); all tied: 0 each (P7). ``scores`` are the points.

    **Symmetries.** None (``spec.symmetries`` is empty): seats differ by the turn order and cards are unique.

    **Hidden information.** Deck order and other players' face-down reserves (reserved from a deck top).
    ``determinize(state, p, rng)`` reshuffles, per level, the deck together with the other players'
    face-down reserves of that level. ``state.events`` holds the last action's Table I events
    (``events.Event``) in Rinascimento's emission order: one pair per colour changed, a "receive card
    points" event for every purchase (0 points included), the table side of a noble visit by the engine
    (``who`` -1); ``visible_events`` blanks the card of another player's face-down reserve.

    Example:
        >>> import numpy as np
        >>> from boardenvs.games.splendor import Splendor
        >>> game = Splendor(num_players=2)
        >>> state = game.initial_state(np.random.default_rng(0))
        >>> game.spec.num_actions, game.spec.observation_shape
        (76, (335,))
        >>> state = game.apply(state, game.parse_action(state, "take WUG"))
        >>> game.observe(state, 0)[:6].tolist()
        [3.0, 3.0, 3.0, 4.0, 4.0, 5.0]
    """

    name = "splendor"
    version = 3
    config_class = SplendorConfig

    def _setup(self) -> None:
        """The config's action tables (shared per config by ``tables_for``; Rinascimento's token-mask factors by
        ``rules.token_factors``) and the move of every action id."""
        self.tables = tables_for(self.config)
        self._token_factors = rules.token_factors(self.config) if self.config.rinascimento else None
        self._kinds: list[int] = self.tables.kind.tolist()
        self._moves = tuple(Move(KINDS[k], a) for k, a in zip(self._kinds, self.tables.arg.tolist()))

    def _make_spec(self) -> GameSpec:
        fields = observation_fields(self.config)
        return GameSpec(
            name=self.name,
            version=self.version,
            num_players=self.config.num_players,
            num_actions=self.tables.num_actions,
            observation_shape=(fields[-1].stop,),
            observation_fields=fields,
            max_game_length=self.config.max_plies,
            perfect_information=False,
            zero_sum=True,
            observation_kind="vector",
        )

    # -- the contract --------------------------------------------------------------------------
    def initial_state(self, rng: np.random.Generator) -> SplendorState:
        return rules.initial_state(self.config, self.tables, rng)

    def legal_action_mask(self, state: SplendorState) -> np.ndarray:
        """A copy of the state's mask (:meth:`_mask`)."""
        return self._mask(state).copy()

    def legal_actions(self, state: SplendorState) -> np.ndarray:
        """The true entries of the state's mask (:meth:`_mask`), without copying it first."""
        return self._mask(state).nonzero()[0]

    def _apply_if_legal(self, state: SplendorState, action: int) -> SplendorState | None:
        """:meth:`_apply` if the mask allows ``action`` (one lookup on the cached mask), else ``None``."""
        mask = state.mask if state.mask is not None else self._mask(state)
        return self._apply(state, action) if 0 <= action < len(mask) and mask[action] else None

    def is_legal(self, state: SplendorState, action: int) -> bool:
        """The test of ``apply`` on the state's mask (:meth:`_mask`; all False once terminal)."""
        mask = self._mask(state)
        return 0 <= action < len(mask) and bool(mask[action])

    def _mask(self, state: SplendorState) -> np.ndarray:
        """The state's mask, built once per state (``rules.legal_mask``) and cached on it (not to be changed)."""
        mask = state.mask
        if mask is None:
            mask = state.mask = rules.legal_mask(self.config, self.tables, state, self._token_factors)
        return mask

    def _apply(self, state: SplendorState, action: int) -> SplendorState:
        new, out = state.copy(), []
        kind = self._kinds[action]
        self._perform(new, kind, action, out)
        rules.settle(self.tables, self.config, new, kind == PASS, out)
        new.ply += 1
        new.events = tuple(out)
        return new

    def illegal_reason(self, state: SplendorState, action: int) -> str:
        """Why the in-range ``action`` cannot be played in ``state`` and what can (``reasons.illegal_reason``):
        the pending sub-decision, a stack too small, the token cap, a missing card, the tokens lacking, ..."""
        return reasons.illegal_reason(self, state, action)

    def _perform(self, state: SplendorState, kind: int, action: int, out: list[Event]) -> None:
        tables, config = self.tables, self.config
        arg = action - tables.starts[kind]
        if kind <= TAKE_SAME:
            rules.take_pattern(tables, state, action - tables.starts[TAKE_DIFFERENT], out)
        elif kind == RESERVE_FACE_UP:
            rules.reserve_face_up(config, state, arg, out)
        elif kind == RESERVE_DECK:
            rules.reserve_deck(config, state, arg, out)
        elif kind == BUY_FACE_UP:
            rules.buy(tables, config, state, arg, out)
        elif kind == BUY_RESERVED:
            rules.buy(tables, config, state, NUM_LEVELS * config.face_up + arg, out)
        elif kind == RETURN:
            rules.return_token(state, arg, out)
        elif kind == NOBLE_CHOICE:
            rules.take_noble(tables, state, state.current_player, arg, out)
        elif kind == PAY_GOLD:
            rules.plan_gold(tables, config, state, arg, out)
        elif kind == PAY:
            rules.finish_payment(tables, config, state, out)

    def returns(self, state: SplendorState) -> np.ndarray:
        """:func:`boardenvs.core.shared_win_returns` of the best players (``rules.winners``); zeros until the end."""
        if state.current_player != TERMINAL:
            return np.zeros(self.config.num_players, dtype=np.float32)
        return shared_win_returns(self.config.num_players, rules.winners(state))

    def scores(self, state: SplendorState) -> np.ndarray:
        return state.players[:, POINTS].astype(np.float32)

    def observe(self, state: SplendorState, player: int) -> np.ndarray:
        return observe(self.config, state, player)

    def determinize(self, state: SplendorState, player: int, rng: np.random.Generator) -> SplendorState:
        """Reshuffle, per level, the deck and the other players' face-down reserves of that level."""
        view = state.copy()
        view.decks = state.decks.copy()
        others = view.hidden.copy()
        if 0 <= player < len(others):
            others[player] = False
        levels = self.tables.cards.level
        for level in range(NUM_LEVELS):
            slots = np.flatnonzero(others.ravel() & (levels[view.reserved.ravel()] == level + 1))
            top = int(view.top[level])
            deck = view.decks[level, top:]
            deck = deck[deck >= 0]
            pool = rng.permutation(np.concatenate([view.reserved.ravel()[slots], deck]))
            flat = view.reserved.reshape(-1)
            flat[slots] = pool[: len(slots)]
            view.decks[level, top : top + len(deck)] = pool[len(slots) :]
        view.events = state.events
        return view

    def visible_events(self, state: SplendorState, events: list[Any], player: int) -> list[Any]:
        """The events with the card of other players' face-down draws and reserves blanked (-1)."""
        del state
        hidden_types = (DRAW_CARD, RESERVE_HIDDEN_CARD)
        return [
            e._replace(card=-1) if e.face_down and e.type in hidden_types and e.who != player else e for e in events
        ]

    # -- codec and text ------------------------------------------------------------------------
    def decode(self, state: SplendorState, action: int) -> Move:
        """The :class:`Move` of an action id (the same in every state); ``ValueError`` out of range."""
        del state
        if not 0 <= action < len(self._moves):
            raise ValueError(f"action {action} is out of range [0, {len(self._moves)})")
        return self._moves[action]

    def encode(self, state: SplendorState, move: Move) -> int:
        """The action id of a :class:`Move` (the same in every state); ``ValueError`` naming what is wrong."""
        del state
        kind, arg = move
        index = _KIND_INDEX.get(kind)
        if index is None:
            raise ValueError(f"unknown move kind {kind!r}; kinds are {', '.join(KINDS)}")
        start, stop = self.tables.starts[index], self.tables.starts[index + 1]
        if start == stop:
            rinascimento = self.config.rinascimento and index in (RETURN, NOBLE_CHOICE, PAY_GOLD, PAY)
            raise ValueError(f"this game has no {kind!r} moves{' under Rinascimento rules' if rinascimento else ''}")
        if isinstance(arg, bool) or not isinstance(arg, (int, np.integer)) or not 0 <= arg < stop - start:
            raise ValueError(f"{kind!r} takes an int argument in [0, {stop - start}), got {arg!r}")
        return start + int(arg)

    def action_to_str(self, state: SplendorState, action: int) -> str:
        kind, arg = self.decode(state, action)
        if kind in ("take_different", "take_same"):
            return self.tables.take_names[action - self.tables.starts[TAKE_DIFFERENT]]
        names = {
            "reserve_face_up": lambda: f"reserve {slot_name(self.config, arg)}",
            "reserve_deck": lambda: f"reserve deck L{arg + 1}",
            "buy_face_up": lambda: f"buy {slot_name(self.config, arg)}",
            "buy_reserved": lambda: f"buy reserved {arg + 1}",
            "return": lambda: f"return {LETTERS[arg]}",
            "noble": lambda: f"noble {arg + 1}",
            "pay_gold": lambda: f"gold for {LETTERS[arg]}",
            "pay": lambda: "pay",
            "pass": lambda: "pass",
        }
        return names[kind]()

    def _render_svg(self, state: SplendorState, seat: int | None, mask: np.ndarray | None) -> str:
        """Nobles, the three levels with their decks, the supply and a panel per seat, drawn as ``seat`` may see
        them, with ``mask``'s actions as click targets (``svg.py``)."""
        return draw_svg(self, state, seat, mask)

    def card_to_str(self, card: int) -> str:
        """``"L1 K+1p (W1 U1)"``: level, bonus colour, points and cost of a card id ("--" for -1)."""
        if card < 0:
            return "--"
        cards = self.tables.cards
        cost = " ".join(f"{LETTERS[c]}{int(v)}" for c, v in enumerate(cards.cost[card]) if v)
        return f"L{int(cards.level[card])} {LETTERS[int(cards.bonus[card])]}+{int(cards.points[card])}p ({cost})"

    def to_text(self, state: SplendorState) -> str:
        return self._text(state, None)

    def text_for(self, state: SplendorState, player: int) -> str:
        """:meth:`to_text` with other players' face-down reserved cards shown only by level (``?L2``)."""
        return self._text(state, player)

    def _text(self, state: SplendorState, viewer: int | None) -> str:
        """The state as text; with a ``viewer`` seat, the others' face-down reserves show only their level."""
        lines = [
            f"ply {state.ply} phase {PHASE_NAMES[state.phase]} to_move {state.current_player} "
            f"first {state.first_player} end_triggered {int(state.end_triggered)} passes {state.passes}"
            f"{' truncated' if state.truncated else ''}{self._paying_to_str(state)}",
            "supply " + " ".join(f"{LETTERS[c]}{int(v)}" for c, v in enumerate(state.supply)),
            "nobles " + " | ".join(self._noble_to_str(int(k)) for k in state.nobles),
        ]
        for level in range(NUM_LEVELS - 1, -1, -1):
            left = len(self.tables.cards.by_level[level]) - int(state.top[level])
            cards = " | ".join(self.card_to_str(int(c)) for c in state.face_up[level])
            lines.append(f"L{level + 1} deck {left}: {cards}")
        for player in range(self.config.num_players):
            hide = viewer is not None and player != viewer
            lines.append(self._player_to_str(state, player, hide_face_down=hide))
        return "\n".join(lines)

    def _paying_to_str(self, state: SplendorState) -> str:
        if state.phase != PAY_PHASE:
            return ""
        slots = NUM_LEVELS * self.config.face_up
        paying = state.paying
        source = slot_name(self.config, paying) if paying < slots else f"reserved {paying - slots + 1}"
        plan = " ".join(f"{LETTERS[c]}{v}" for c, v in enumerate(state.gold_plan))
        return f" paying {source} gold_plan {plan}"

    def _noble_to_str(self, noble: int) -> str:
        if noble < 0:
            return "--"
        req = self.tables.cards.noble_req[noble]
        return " ".join(f"{LETTERS[c]}{int(v)}" for c, v in enumerate(req) if v)

    def _player_to_str(self, state: SplendorState, player: int, hide_face_down: bool = False) -> str:
        row = state.players[player]
        tokens = " ".join(f"{LETTERS[c]}{int(v)}" for c, v in enumerate(row[:6]))
        bonuses = " ".join(f"{LETTERS[c]}{int(v)}" for c, v in enumerate(row[6:11]))
        reserved = [
            self._reserved_to_str(int(card), bool(hidden), hide_face_down)
            for card, hidden in zip(state.reserved[player], state.hidden[player])
            if card >= 0
        ]
        return (
            f"P{player}: {int(row[POINTS])}p cards {int(row[12])} nobles {int(row[13])} tokens {tokens} "
            f"bonuses {bonuses} reserved [{', '.join(reserved)}]"
        )

    def _reserved_to_str(self, card: int, face_down: bool, hide_face_down: bool) -> str:
        """A reserved card; a face-down one is marked ``?`` and, for other players, shown only by level."""
        if face_down and hide_face_down:
            return f"?L{int(self.tables.cards.level[card])}"
        return ("?" if face_down else "") + self.card_to_str(card)
