"""The Gravwell game object (docs/rules/rules.md §1): the contract of ``boardenvs.core.Game`` on the package's modules.

``Game.apply`` checks legality (:meth:`Gravwell._apply_if_legal`: one bit of the phase's rule in ``legality``) and ends
the game at the move cap; the move itself is one transition of ``transitions`` (``draft``, ``commit``, ``reveal``,
``stop_decision``), which moves ships with ``movement.resolve``. Masks and legal-action arrays are assembled from the
rules' bitsets with the byte tables of ``tables.ActionTables``; moves and their text are ``notation``'s, the state's
text is ``text``'s.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from boardenvs.core import TERMINAL, Game, GameSpec, shared_win_returns
from boardenvs.games.gravwell import legality, notation
from boardenvs.games.gravwell.cards import NUM_CARDS, bits_to_cards
from boardenvs.games.gravwell.config import GravwellConfig
from boardenvs.games.gravwell.legality import STOP_OR_GO, cards_in_hand, open_stacks
from boardenvs.games.gravwell.notation import Move
from boardenvs.games.gravwell.observation import field_sizes, observation_fields, observe
from boardenvs.games.gravwell.state import COMMIT, DRAFT, STOP, GravwellState
from boardenvs.games.gravwell.svg import draw_state
from boardenvs.games.gravwell.tables import CHUNK, CHUNK_BITS, ROUNDS, TURNS, action_tables, make_tables
from boardenvs.games.gravwell.text import state_text
from boardenvs.games.gravwell.transitions import commit, draft, new_game, reveal, stop_decision

ALL_CARDS = (1 << NUM_CARDS) - 1
TAKEN = (-1, -1)
"""What ``determinize`` leaves of a stack already taken (its cards are in hands, dealt again)."""
_frombuffer = np.frombuffer
_INT64, _BOOL = np.dtype(np.int64), np.dtype(np.bool_)


class Gravwell(Game[GravwellState, Move]):
    """Gravwell: Escape from the 9th Dimension, as the Gravitas engine plays it (docs/rules/rules.md §1), 2-4 players.

    Version history: docs/versions.md (``version`` is in the env ids and the module name,
    ``boardenvs.gravwell_v<version>``).

    **Board.** Tiles 0 (Singularity) .. 54 (Warp Gate). Every ship starts on 0; hulks sit on 36 (and 26
    with 3+ players). 26 fuel cards (``cards.csv``), indexed 0..25 in resolution (symbol) order.

    **Flow.** 6 rounds. Each round: the 6n first cards of the round's pre-drawn deck form 3n stacks
    ``(face up, face down)``; players draft whole stacks in the round's order (ships in the Singularity
    first, in the pre-drawn random order, then furthest from the Warp Gate first), 3 passes with the same
    order. Then 6 turns: seats 0..n-1 each commit a card in secret, one after another (nobody's
    observation shows earlier commits); the last commit reveals all of them and they resolve in card
    order. Before a player's own card resolves (unless it is a non-tractor card of a stuck ship), a player
    whose Emergency Stop is unused this round (this game with ``hardcore``) decides whether to cancel it:
    that decision is a separate ply of that player. Normal cards move towards the nearest ship, repulsors
    away from it, tractors pull every other ship off the Singularity towards the player (nearest first,
    ties: the ship behind first; ``inert_tractors``: nothing). Code path of a move: ``Game.apply`` (legality
    by the phase's rule in ``legality``, the move cap) -> :meth:`_apply_if_legal` -> ``transitions.draft`` /
    ``commit`` / ``reveal`` / ``stop_decision`` -> ``movement.resolve`` for each card (the function the agents call
    too).

    **Actions** (``num_actions = 3n + 28``) and their :class:`Move` (``encode(state, move)`` /
    ``decode(state, action)``; the codec does not depend on the state): ``[0, 3n)`` draft stack ``s``,
    ``Move("draft", s)`` ("draft 4"); ``[3n, 3n + 26)`` commit card ``c``, ``Move("play", c)`` ("play Mg");
    ``3n + 26`` use the Emergency Stop, ``Move("stop", 1)`` ("stop"); ``3n + 27`` decline, ``Move("stop", 0)``
    ("go"). The attributes ``play_base`` (``3n``) and ``stop_action`` (``3n + 26``) name the ranges.

    **Observation** ``float32[N]`` in [0, 1], seats rotated so the observer comes first: ``ships``,
    ``hulks``, ``my_hand``, ``known_cards`` (others' cards drafted face up), ``hand_sizes``, ``stacks``,
    ``emergency_stop``, ``committed``, ``revealed`` (latest reveal), ``pending``, ``round``, ``turn``,
    ``phase``, ``to_move`` (see ``observation.field_sizes``; N = 169 for 2 players).

    **End, scores and returns.** A player whose ship reaches tile 54 wins at once (later cards do not
    resolve). Otherwise, after 6 rounds, the ship nearest the Warp Gate wins; ties (only possible in the
    Singularity) share the win. The move cap ``spec.max_game_length`` (``max_plies``, at most the longest
    possible game) ends the game as truncated (``Game.apply``), ranked the same way; an escape on the last
    ply stands. ``scores`` are the tiles; ``returns`` are ``boardenvs.core.shared_win_returns`` of the
    winners, the convention of every game: each of ``k`` winners gets ``(n - k) / (k (n - 1))``, every
    other player ``-1 / (n - 1)`` (a lone winner +1; all tied: zeros).

    **Hidden information.** Others' face-down drafted cards, the face-down cards on the table (unless
    ``no_secrets``), the undealt cards, future decks and tie orders, and others' pending commits.
    ``determinize`` reshuffles all of them consistently with what the seat knows.

    **Symmetries.** None (the seats are not interchangeable: the draft order and the resolution order
    depend on them).

    Example:
        >>> import numpy as np
        >>> from boardenvs.games.gravwell import Gravwell, Move
        >>> game = Gravwell(num_players=2)
        >>> state = game.initial_state(np.random.default_rng(0))
        >>> game.spec.num_actions, game.spec.observation_shape, len(game.legal_actions(state))
        (34, (169,), 6)
        >>> game.action_to_str(state, 0), game.decode(state, 0), game.encode(state, Move("stop", 0))
        ('draft 0', Move(kind='draft', index=0), 33)
        >>> game.apply(state, 0).ply
        1
    """

    name = "gravwell"
    version = 1
    config_class = GravwellConfig

    def _setup(self) -> None:
        """The transitions' :class:`tables.Tables`, the action ranges and the mask tables of this config."""
        n = self.config.num_players
        self.n, self.num_stacks = n, 3 * n
        self.play_base, self.stop_action = 3 * n, 3 * n + NUM_CARDS
        self.tables = make_tables(self.config)
        self.actions = actions = action_tables(n)
        self._no_mask, self._no_actions = actions.no_mask, actions.no_actions
        self._draft_masks, self._draft_ids = actions.by_bits_masks[DRAFT], actions.by_bits_ids[DRAFT]
        self._stop_mask, self._stop_ids = actions.by_bits_masks[STOP][STOP_OR_GO], actions.by_bits_ids[STOP][STOP_OR_GO]
        self._hand_mask_low, self._hand_mask_high = actions.hand_mask_low, actions.hand_mask_high
        self._hand_ids_low, self._hand_ids_high = actions.hand_ids_low, actions.hand_ids_high
        # Each row shuffled by ``Generator.permuted`` draws the same numbers as one ``rng.permutation`` call.
        self._deck_rows = np.tile(np.arange(NUM_CARDS), (ROUNDS, 1))
        self._tie_rows = np.tile(np.arange(n), (ROUNDS, 1))

    def _make_spec(self) -> GameSpec:
        n = self.n
        max_plies = min(self.config.max_plies, ROUNDS * (3 * n + TURNS * 2 * n))  # a full game's longest
        fields = observation_fields(n)
        size = sum(size for _, size, _ in field_sizes(n))
        return GameSpec(
            self.name, self.version, n, 3 * n + NUM_CARDS + 2, (size,), fields, max_plies,
            perfect_information=False, zero_sum=True, observation_kind="vector",
        )  # fmt: skip

    # -- the contract ----------------------------------------------------------------------------
    def initial_state(self, rng: np.random.Generator) -> GravwellState:
        """Ships in the Singularity; every round's deck and Singularity tie order are drawn now."""
        decks = tuple(map(tuple, rng.permuted(self._deck_rows, axis=1).tolist()))
        ties = tuple(map(tuple, rng.permuted(self._tie_rows, axis=1).tolist()))
        return new_game(self.tables, decks, ties)

    def legal_action_mask(self, state: GravwellState) -> np.ndarray:
        """The phase's rule (``legality``) as a mask: a read-only array, shared between calls (copy it before
        changing it)."""
        player = state.current_player
        if player < 0:
            return self._no_mask
        phase = state.phase
        if phase == COMMIT:
            return self._hand_mask(cards_in_hand(state, player))
        if phase == DRAFT:
            return self._draft_masks[open_stacks(state, player)]
        return self._stop_mask

    def _hand_mask(self, hand: int) -> np.ndarray:
        """The mask of the cards of ``hand`` (card bits), from its two 13-card halves."""
        return _frombuffer(self._hand_mask_low[hand & CHUNK] + self._hand_mask_high[hand >> CHUNK_BITS], _BOOL)

    def simultaneous_players(self, state: GravwellState) -> tuple[int, ...]:
        """In the commit phase every seat that has not committed yet (seats commit in order, in secret)."""
        player = state.current_player
        if player >= 0 and state.phase == COMMIT:
            return tuple(range(player, self.config.num_players))
        return super().simultaneous_players(state)

    def legal_action_mask_of(self, state: GravwellState, player: int) -> np.ndarray:
        """A committing seat may play any card of its own hand (``legality.cards_in_hand``), whatever the seats
        before it chose."""
        if player != state.current_player and player in self.simultaneous_players(state):
            return self._hand_mask(cards_in_hand(state, player))
        return super().legal_action_mask_of(state, player)

    def legal_actions(self, state: GravwellState) -> np.ndarray:
        """The phase's rule as sorted ids: a read-only array, shared between calls (copy it before changing it)."""
        player = state.current_player
        if player < 0:
            return self._no_actions
        phase = state.phase
        if phase == COMMIT:
            hand = cards_in_hand(state, player)
            return _frombuffer(self._hand_ids_low[hand & CHUNK] + self._hand_ids_high[hand >> CHUNK_BITS], _INT64)
        if phase == DRAFT:
            return self._draft_ids[open_stacks(state, player)]
        return self._stop_ids

    def is_legal(self, state: GravwellState, action: int) -> bool:
        """One bit of the phase's rule (``legality.is_legal``); False for a finished game and any other int."""
        return legality.is_legal(self.actions, state, action)

    def _apply(self, state: GravwellState, action: int) -> GravwellState:
        """The legal ``action`` by one transition of ``transitions`` (see :meth:`_apply_if_legal`)."""
        new = self._apply_if_legal(state, action)
        assert new is not None, "_apply is called with legal actions only"
        return new

    def _apply_if_legal(self, state: GravwellState, action: int) -> GravwellState | None:
        """One pass over the phase: the bit of ``action`` in the phase's rule (as :meth:`is_legal`), then the
        transition (``None`` for an illegal action; the base class then raises with :meth:`illegal_reason`)."""
        player = state.current_player
        if player < 0:
            return None
        phase = state.phase
        if phase == COMMIT:
            card = action - self.play_base
            if card < 0 or not cards_in_hand(state, player) >> card & 1:
                return None
            return commit(state, player, card) if player + 1 < self.n else reveal(self.tables, state, card)
        if phase == DRAFT:
            if action < 0 or not open_stacks(state, player) >> action & 1:
                return None
            return draft(self.tables, state, player, action)
        answer = action - self.stop_action
        if answer < 0 or not STOP_OR_GO >> answer & 1:
            return None
        return stop_decision(self.tables, state, answer == 0)

    def illegal_reason(self, state: GravwellState, action: int) -> str:
        """The message of the phase's rule (``legality.REASONS``)."""
        return legality.illegal_reason(self.actions, state, action)

    def returns(self, state: GravwellState) -> np.ndarray:
        """``shared_win_returns`` of the escaped player, else of the leaders; zeros until the end."""
        if state.current_player != TERMINAL:
            return np.zeros(self.n, dtype=np.float32)
        return shared_win_returns(self.n, [state.winner] if state.winner >= 0 else self.leaders(state))

    def scores(self, state: GravwellState) -> np.ndarray:
        """The tile of each player's ship."""
        return np.array(state.pos[: self.n], dtype=np.float32)

    def leaders(self, state: GravwellState) -> list[int]:
        """The players whose ships are nearest the Warp Gate."""
        best = max(state.pos[: self.n])
        return [p for p in range(self.n) if state.pos[p] == best]

    def ranking(self, state: GravwellState) -> list[int]:
        """Players from first to last by position (an escaped player first; ties by seat)."""
        return sorted(range(self.n), key=lambda p: (p != state.winner, -state.pos[p], p))

    def observe(self, state: GravwellState, player: int) -> np.ndarray:
        return observe(state, player, self.n, self.config.no_secrets)

    def determinize(self, state: GravwellState, player: int, rng: np.random.Generator) -> GravwellState:
        """Reshuffle what ``player`` cannot know: others' face-down cards, table face-down cards, undealt
        cards, pending commits of others (a random card of their new hand), future decks and tie orders."""
        s = state.copy()
        public = state.hands[player] | state.spent
        for other in range(self.n):
            public |= state.known[other]
        for _, up, down in state.open_stacks():
            public |= 1 << up | (1 << down if self.config.no_secrets else 0)
        pool = rng.permutation(bits_to_cards(ALL_CARDS & ~public)).tolist()
        self._deal_hidden(s, player, pool, rng)
        new_decks = rng.permuted(self._deck_rows[s.round :], axis=1).tolist()
        s.decks = s.decks[: s.round] + tuple(map(tuple, new_decks))
        new_ties = rng.permuted(self._tie_rows[s.round + 1 :], axis=1).tolist()
        s.ties = s.ties[: s.round + 1] + tuple(map(tuple, new_ties))
        return s

    def _deal_hidden(self, s: GravwellState, player: int, pool: list[int], rng: np.random.Generator) -> None:
        for other in range(self.n):
            if other == player:
                continue
            hidden = (s.hands[other] & ~s.known[other]).bit_count()
            s.hands[other] = (s.hands[other] & s.known[other]) | sum(1 << pool.pop() for _ in range(hidden))
            if s.commits[other] >= 0:
                s.commits[other] = int(rng.choice(bits_to_cards(s.hands[other])))
        if not self.config.no_secrets:
            dealt = {index: (up, pool.pop()) for index, up, _ in s.open_stacks()}
            s.stacks = tuple(dealt.get(index, TAKEN) for index in range(len(s.stacks)))  # taken: in hands

    def visible_events(self, state: GravwellState, events: list[Any], player: int) -> list[Any]:
        """Events never name a committed card before the reveal or a face-down card, so all are visible."""
        del state, player
        return [event for event in events if not (event.kind == "commit" and event.card >= 0)]

    # -- codec -------------------------------------------------------------------------------
    def decode(self, state: GravwellState, action: int) -> Move:
        """The :class:`Move` of an action id (``state`` is not needed); ``ValueError`` if out of range."""
        del state
        return notation.decode(self.n, action)

    def encode(self, state: GravwellState, move: Move) -> int:
        """The action id of ``move`` (``state`` is not needed); ``ValueError`` for an unknown kind or an index
        out of its range (stacks ``0..3n-1``, cards ``0..25``, stop ``0``/``1``)."""
        del state
        return notation.encode(self.n, move)

    def action_to_str(self, state: GravwellState, action: int) -> str:
        del state
        return notation.action_text(self.n, action)

    def text_for(self, state: GravwellState, player: int) -> str:
        """:meth:`to_text` without what ``player`` cannot know: others' face-down cards (``?``) and pending
        commits (``hidden``), and face-down draft cards unless ``no_secrets``."""
        return state_text(state, self.n, self.config.no_secrets, player)

    def action_text_for(self, state: GravwellState, action: int, player: int) -> str:
        """Another player's card play is secret until the reveal: ``play (secret)``."""
        text = self.action_to_str(state, action)
        if state.current_player != player and text.startswith("play "):
            return "play (secret)"
        return text

    def to_text(self, state: GravwellState) -> str:
        return state_text(state, self.n, self.config.no_secrets)

    def _render_svg(self, state: GravwellState, seat: int | None, mask: np.ndarray | None) -> str:
        """The track, the draft or the turn, the players' rows and the targets (see ``gravwell.svg``); a seat sees
        what :meth:`text_for` shows it: others' face-down cards and pending commits face down."""
        return draw_state(self, state, seat, mask)
