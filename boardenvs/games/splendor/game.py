"""The Splendor game object: the contract of ``boardenvs.core.Game`` on top of the rules module."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from boardenvs.core import TERMINAL, Game, GameSpec
from boardenvs.games.splendor import rules
from boardenvs.games.splendor.cards import LETTERS, NUM_LEVELS
from boardenvs.games.splendor.config import SplendorConfig
from boardenvs.games.splendor.events import DRAW_CARD, RESERVE_HIDDEN_CARD, Event
from boardenvs.games.splendor.observation import observation_fields, observe
from boardenvs.games.splendor.state import PHASE_NAMES, POINTS, SplendorState
from boardenvs.games.splendor.tables import KINDS, colours_name, slot_name, tables_for


class Move(NamedTuple):
    """A decoded action: ``kind`` (one of ``tables.KINDS``) and its argument (combination index, colour,
    face-up slot, level, reserve slot or noble slot; 0 for a pass)."""

    kind: str
    arg: int


class Splendor(Game[SplendorState]):
    """Splendor for 2 to 4 players: official rules (RULES.md §3.3, P1-P7) or Rinascimento's (R1, R5-R9).

    **Setup.** Each level deck (40/30/20 cards) is shuffled by ``initial_state(rng)``; ``face_up`` cards per
    level are revealed, ``nobles`` nobles (default players + 1) are drawn, gem stacks hold
    ``tokens_per_colour`` (default 4/5/7 for 2/3/4 players) and gold ``gold`` (5); the start player is random
    (``first_player``, shown in the observation as ``turn_order``).

    **Actions** (ids in this order; 70 for the default 2-player game):
    ``take_different`` (one per colour set of size 1..``take_different_count``; official P1: exactly
    ``min(3, colours available)`` colours; R5: any available set), ``take_same`` (5; the stack needs
    ``take_same_min`` = 4), ``reserve_face_up`` (3F slots, row-major by level), ``reserve_deck`` (3 levels;
    not from an empty deck, P5), ``buy_face_up`` (3F), ``buy_reserved`` (``max_reserved`` slots), ``return``
    (6 resources, gold last), ``noble`` (one per noble slot), ``pass`` (only when nothing else is legal, P4).
    Payment is automatic: coloured tokens first, gold only for the shortfall (R8; never better for a player
    to pay gold while holding the colour). A reserve takes one gold if any is left (R7: and below the cap).
    Notation: ``"take WUG"``, ``"take 2 R"``, ``"reserve L2#3"``, ``"reserve deck L1"``, ``"buy L3#1"``,
    ``"buy reserved 2"``, ``"return Y"``, ``"noble 1"``, ``"pass"``.

    **Sub-decisions** by the same player: above ``max_tokens`` at the end of the turn, return one token per
    decision (phase "return"; R5: gold cannot be returned); official rules: if several nobles qualify, choose
    one (phase "noble"); with one it visits automatically. Rinascimento (R9): every player gets the first
    eligible noble in table order after each action.

    **Observation** ``float32[N]`` of raw counts (fields in ``spec.observation_fields``): ``supply`` (6),
    per player from the observer's seat ``tokens`` (6), ``bonuses`` (5), ``points``, ``cards_bought``,
    ``nobles_taken``, ``reserved_count``; ``face_up`` (3F cards x 14 features: present, face_down, level,
    points, bonus one-hot, cost), ``nobles`` (per slot: present, requirement), ``my_reserved``,
    ``others_reserved`` (face-down ones show only present, face_down, level), ``deck_counts``, ``phase``
    (one-hot), ``turn_order`` (one-hot), ``end_triggered``.

    **End and returns.** Official: once someone has ``points_to_end`` (15) the round is finished (the game
    ends before the start player's next turn). Rinascimento R1: ends at once. If every player passes in a row
    the game ends (P4); ``max_plies`` ends it as truncated. Ranking: points, then fewest cards bought;
    ``returns``: the best players share the win (a lone winner +1, the others -1/(n-1); k tied winners
    (n-k)/(k(n-1)) each; all tied: 0). ``scores`` are the points.

    **Hidden information.** Deck order and other players' face-down reserves (reserved from a deck top).
    ``determinize(state, p, rng)`` reshuffles, per level, the deck together with the other players'
    face-down reserves of that level. ``state.events`` holds the last action's Table I events
    (``events.Event``); ``visible_events`` blanks the card of another player's face-down draw.

    Example:
        >>> import numpy as np
        >>> from boardenvs.games.splendor import Splendor
        >>> game = Splendor(num_players=2)
        >>> state = game.initial_state(np.random.default_rng(0))
        >>> game.spec.num_actions, game.spec.observation_shape
        (70, (315,))
        >>> state = game.apply(state, game.parse_action(state, "take WUG"))
        >>> game.observe(state, 0)[:6].tolist()
        [3.0, 3.0, 3.0, 4.0, 4.0, 5.0]
    """

    name = "splendor"
    version = 1
    config_class = SplendorConfig

    def __init__(self, config: SplendorConfig | None = None, **kwargs: Any) -> None:
        super().__init__(config, **kwargs)
        self.tables = tables_for(self.config)

    def __getstate__(self) -> dict[str, Any]:
        return {"config": self.config}

    def __setstate__(self, data: dict[str, Any]) -> None:
        self.__init__(data["config"])

    def _make_spec(self) -> GameSpec:
        fields = observation_fields(self.config)
        return GameSpec(
            name=self.name,
            version=self.version,
            num_players=self.config.num_players,
            num_actions=tables_for(self.config).num_actions,
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
        if state.mask is None:
            state.mask = rules.legal_mask(self.config, self.tables, state)
        return state.mask.copy()

    def apply(self, state: SplendorState, action: int) -> SplendorState:
        if not _known_legal(state, action):
            action = self.check_action(state, action)
        new, out = state.copy(), []
        kind = int(self.tables.kind[action])
        self._perform(new, kind, int(self.tables.arg[action]), out)
        rules.settle(self.tables, self.config, new, kind == 8, out)
        new.ply += 1
        if new.current_player != TERMINAL and new.ply >= self.config.max_plies:
            new.current_player, new.truncated = TERMINAL, True
        new.events = tuple(out)
        return new

    def _perform(self, state: SplendorState, kind: int, arg: int, out: list[Event]) -> None:
        tables, config = self.tables, self.config
        if kind == 0:
            rules.take_different(tables, config, state, arg, out)
        elif kind == 1:
            rules.take_same(config, state, arg, out)
        elif kind == 2:
            rules.reserve_face_up(tables, config, state, arg, out)
        elif kind == 3:
            rules.reserve_deck(config, state, arg, out)
        elif kind == 4:
            rules.buy_face_up(tables, config, state, arg, out)
        elif kind == 5:
            rules.buy_reserved(tables, state, arg, out)
        elif kind == 6:
            rules.move_tokens(state, state.current_player, arg, -1, out)
        elif kind == 7:
            rules.take_noble(tables, state, state.current_player, arg, out)

    def returns(self, state: SplendorState) -> np.ndarray:
        if state.current_player != TERMINAL:
            return np.zeros(self.config.num_players, dtype=np.float32)
        return rules.outcome(state)

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
        """The :class:`Move` of an action id."""
        del state
        return Move(KINDS[int(self.tables.kind[action])], int(self.tables.arg[action]))

    def encode(self, move: Move) -> int:
        """The action id of a :class:`Move`."""
        return self.tables.starts[KINDS.index(move.kind)] + move.arg

    def action_to_str(self, state: SplendorState, action: int) -> str:
        kind, arg = self.decode(state, action)
        if kind == "take_different":
            return f"take {colours_name(self.tables.combos[arg])}"
        if kind == "take_same":
            return f"take {self.config.take_same_amount} {LETTERS[arg]}"
        names = {
            "reserve_face_up": lambda: f"reserve {slot_name(self.config, arg)}",
            "reserve_deck": lambda: f"reserve deck L{arg + 1}",
            "buy_face_up": lambda: f"buy {slot_name(self.config, arg)}",
            "buy_reserved": lambda: f"buy reserved {arg + 1}",
            "return": lambda: f"return {LETTERS[arg]}",
            "noble": lambda: f"noble {arg + 1}",
            "pass": lambda: "pass",
        }
        return names[kind]()

    def card_to_str(self, card: int) -> str:
        """``"L1 K+1p (W1 U1)"``: level, bonus colour, points and cost of a card id ("--" for -1)."""
        if card < 0:
            return "--"
        cards = self.tables.cards
        cost = " ".join(f"{LETTERS[c]}{int(v)}" for c, v in enumerate(cards.cost[card]) if v)
        return f"L{int(cards.level[card])} {LETTERS[int(cards.bonus[card])]}+{int(cards.points[card])}p ({cost})"

    def to_text(self, state: SplendorState) -> str:
        lines = [
            f"ply {state.ply} phase {PHASE_NAMES[state.phase]} to_move {state.current_player} "
            f"first {state.first_player} end_triggered {int(state.end_triggered)} passes {state.passes}"
            f"{' truncated' if state.truncated else ''}",
            "supply " + " ".join(f"{LETTERS[c]}{int(v)}" for c, v in enumerate(state.supply)),
            "nobles " + " | ".join(self._noble_to_str(int(k)) for k in state.nobles),
        ]
        for level in range(NUM_LEVELS - 1, -1, -1):
            left = len(self.tables.cards.by_level[level]) - int(state.top[level])
            cards = " | ".join(self.card_to_str(int(c)) for c in state.face_up[level])
            lines.append(f"L{level + 1} deck {left}: {cards}")
        for player in range(self.config.num_players):
            lines.append(self._player_to_str(state, player))
        return "\n".join(lines)

    def _noble_to_str(self, noble: int) -> str:
        if noble < 0:
            return "--"
        req = self.tables.cards.noble_req[noble]
        return " ".join(f"{LETTERS[c]}{int(v)}" for c, v in enumerate(req) if v)

    def _player_to_str(self, state: SplendorState, player: int) -> str:
        row = state.players[player]
        tokens = " ".join(f"{LETTERS[c]}{int(v)}" for c, v in enumerate(row[:6]))
        bonuses = " ".join(f"{LETTERS[c]}{int(v)}" for c, v in enumerate(row[6:11]))
        reserved = [
            ("?" if hidden else "") + self.card_to_str(int(card))
            for card, hidden in zip(state.reserved[player], state.hidden[player])
            if card >= 0
        ]
        return (
            f"P{player}: {int(row[POINTS])}p cards {int(row[12])} nobles {int(row[13])} tokens {tokens} "
            f"bonuses {bonuses} reserved [{', '.join(reserved)}]"
        )


def _known_legal(state: SplendorState, action: Any) -> bool:
    """True when ``action`` is an int marked legal in the state's cached mask (the fast path of ``apply``)."""
    mask = state.mask
    if mask is None or isinstance(action, bool) or not isinstance(action, (int, np.integer)):
        return False
    return 0 <= action < len(mask) and bool(mask[action])
