"""The Splendor game object: the contract of ``boardenvs.core.Game``, each method a thin call into the package.

Legality is ``legality.py``'s, transitions ``transitions.py``'s, the codec and action texts ``notation.py``'s, the
text ``text.py``'s, the observation ``observation.py``'s and the picture ``svg.py``'s.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np

from boardenvs.core import TERMINAL, Game, GameSpec, shared_win_returns
from boardenvs.games.splendor.cards import NUM_LEVELS
from boardenvs.games.splendor.config import SplendorConfig
from boardenvs.games.splendor.events import DRAW_CARD, RESERVE_HIDDEN_CARD
from boardenvs.games.splendor.legality import illegal_reason, legal_mask
from boardenvs.games.splendor.notation import Move, action_text, card_text, encode_move, moves_of
from boardenvs.games.splendor.observation import observation_fields, observe
from boardenvs.games.splendor.state import POINTS, SplendorState
from boardenvs.games.splendor.svg import draw_svg
from boardenvs.games.splendor.tables import tables_for
from boardenvs.games.splendor.takes import token_factors
from boardenvs.games.splendor.text import state_text
from boardenvs.games.splendor.transitions import initial_state, play, winners


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
    (``takes.take_mask``). Why not a return sub-phase as in the official rules: a sub-phase
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
        """The config's action tables (shared per config by ``tables_for``), its token-rule tables
        (``takes.token_factors``) and the move of every action id."""
        self.tables = tables_for(self.config)
        self._token_factors = token_factors(self.config)
        self._moves = moves_of(self.tables)

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
        return initial_state(self.config, self.tables, rng)

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
        """The state's mask, built once per state (``legality.legal_mask``) and cached on it (not to be changed)."""
        mask = state.mask
        if mask is None:
            mask = state.mask = legal_mask(self.config, self.tables, state, self._token_factors)
        return mask

    def _apply(self, state: SplendorState, action: int) -> SplendorState:
        return play(self.config, self.tables, state, action)

    def illegal_reason(self, state: SplendorState, action: int) -> str:
        """Why the in-range ``action`` cannot be played in ``state`` and what can (``legality.illegal_reason``):
        the pending sub-decision, a stack too small, the token cap, a missing card, the tokens lacking, ..."""
        text = partial(self.action_to_str, state)
        return illegal_reason(self.config, self.tables, state, action, self._mask(state), text)

    def returns(self, state: SplendorState) -> np.ndarray:
        """:func:`boardenvs.core.shared_win_returns` of the best players (``transitions.winners``); zeros until the
        end."""
        if state.current_player != TERMINAL:
            return np.zeros(self.config.num_players, dtype=np.float32)
        return shared_win_returns(self.config.num_players, winners(state))

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
        return encode_move(self.config, self.tables, move)

    def action_to_str(self, state: SplendorState, action: int) -> str:
        return action_text(self.config, self.tables, self.decode(state, action), action)

    def _render_svg(self, state: SplendorState, seat: int | None, mask: np.ndarray | None) -> str:
        """Nobles, the three levels with their decks, the supply and a panel per seat, drawn as ``seat`` may see
        them, with ``mask``'s actions as click targets (``svg.py``)."""
        return draw_svg(self, state, seat, mask)

    def card_to_str(self, card: int) -> str:
        """``"L1 K+1p (W1 U1)"``: level, bonus colour, points and cost of a card id ("--" for -1)."""
        return card_text(self.tables, card)

    def to_text(self, state: SplendorState) -> str:
        return state_text(self.config, self.tables, state)

    def text_for(self, state: SplendorState, player: int) -> str:
        """:meth:`to_text` with other players' face-down reserved cards shown only by level (``?L2``)."""
        return state_text(self.config, self.tables, state, player)
