"""The Gravwell game object (docs/rules/rules.md §1): the contract of ``boardenvs.core.Game`` on top of ``engine``.

``Game.apply`` checks legality (:meth:`Gravwell.is_legal`: a few integer operations) and ends the game at the
move cap; :meth:`Gravwell._apply` hands the move to one transition of ``engine`` (``draft``, ``commit``,
``reveal``, ``stop_decision``), which moves ships with ``rules.resolve``. Masks and legal-action arrays come
from tables.
"""

from __future__ import annotations

import functools
from typing import Any, NamedTuple

import numpy as np

from boardenvs.core import TERMINAL, Game, GameSpec, shared_win_returns
from boardenvs.games.gravwell import engine
from boardenvs.games.gravwell.cards import NUM_CARDS, SYMBOLS, bits_to_cards, card_name
from boardenvs.games.gravwell.config import GravwellConfig
from boardenvs.games.gravwell.observation import field_sizes, observation_fields, observe
from boardenvs.games.gravwell.rules import ROUNDS, TURNS
from boardenvs.games.gravwell.state import COMMIT, DRAFT, PHASE_NAMES, GravwellState
from boardenvs.games.gravwell.svg import draw_state

ALL_CARDS = (1 << NUM_CARDS) - 1
TAKEN = (-1, -1)
"""What ``determinize`` leaves of a stack already taken (its cards are in hands, dealt again)."""
_frombuffer = np.frombuffer
_INT64, _BOOL = np.dtype(np.int64), np.dtype(np.bool_)
_BYTES_13: tuple[bytes, ...] = tuple(bytes(bits >> k & 1 for k in range(13)) for bits in range(1 << 13))
"""Per 13-bit chunk, its bits as 0/1 bytes (low bit first): a mask is 4 chunks (at most 52 action ids)."""


class _Masks(NamedTuple):
    """What every ``n``-player game shares (read-only arrays: callers must copy before changing them)."""

    draft_masks: tuple[np.ndarray, ...]
    """Draft-phase masks by bitmask of the free stacks."""
    draft_actions: tuple[np.ndarray, ...]
    """Draft-phase legal action ids by bitmask of the free stacks."""
    low_half: tuple[bytes, ...]
    """Commit-phase masks as bytes in two halves: the ``3n`` draft ids then cards 0..12 (by those 13 bits) ..."""
    high_half: tuple[bytes, ...]
    """... and cards 13..25 then the 2 stop ids."""
    low_ids: tuple[bytes, ...]
    """Commit-phase legal action ids (``int64`` bytes) in two halves: those of cards 0..12 ..."""
    high_ids: tuple[bytes, ...]
    """... and those of cards 13..25."""


@functools.cache
def _masks(n: int) -> _Masks:
    size = 3 * n + NUM_CARDS + 2
    free_sets = range(1 << 3 * n)
    return _Masks(
        tuple(_bits_to_mask(free, size) for free in free_sets),
        tuple(_read_only(np.array(bits_to_cards(free), dtype=np.int64)) for free in free_sets),
        tuple(bytes(3 * n) + chunk for chunk in _BYTES_13),
        tuple(chunk + bytes(2) for chunk in _BYTES_13),
        tuple(_ids_bytes(chunk, 3 * n) for chunk in range(8192)),
        tuple(_ids_bytes(chunk, 3 * n + 13) for chunk in range(8192)),
    )


def _ids_bytes(bits: int, first: int) -> bytes:
    """The ``int64`` bytes of ``first + k`` for every set bit ``k`` of ``bits``."""
    return np.array([first + k for k in range(bits.bit_length()) if bits >> k & 1], dtype=np.int64).tobytes()


def _read_only(array: np.ndarray) -> np.ndarray:
    array.flags.writeable = False
    return array


def _bits_to_mask(bits: int, size: int) -> np.ndarray:
    """The read-only ``bool[size]`` mask whose true entries are the set bits of ``bits`` (action ids)."""
    chunks = _BYTES_13[bits & 8191] + _BYTES_13[bits >> 13 & 8191] + _BYTES_13[bits >> 26 & 8191]
    return np.frombuffer((chunks + _BYTES_13[bits >> 39])[:size], dtype=np.bool_)


class Move(NamedTuple):
    """A typed move: ``kind`` is "draft" (``index`` = stack), "play" (``index`` = card) or "stop"
    (``index`` 1 = use the Emergency Stop, 0 = let the card resolve)."""

    kind: str
    index: int


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
    by :meth:`is_legal`, the move cap) -> :meth:`_apply` -> ``engine.draft`` / ``commit`` / ``reveal`` /
    ``stop_decision`` -> ``rules.resolve`` for each card (the function the agents call too).

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
        """The engine's :class:`engine.Tables`, the action ranges and the mask tables of this config."""
        n = self.config.num_players
        self.n, self.num_stacks = n, 3 * n
        self.play_base, self.stop_action = 3 * n, 3 * n + NUM_CARDS
        self.tables = engine.make_tables(self.config)
        masks, num_actions = _masks(n), 3 * n + NUM_CARDS + 2
        self._draft_masks, self._draft_actions = masks.draft_masks, masks.draft_actions
        self._low_half, self._high_half = masks.low_half, masks.high_half
        self._low_ids, self._high_ids = masks.low_ids, masks.high_ids
        self._stop_mask = _bits_to_mask(3 << self.stop_action, num_actions)
        self._stop_actions = _read_only(np.array([self.stop_action, self.stop_action + 1], dtype=np.int64))
        self._no_mask = _bits_to_mask(0, num_actions)
        self._no_actions = _read_only(np.zeros(0, dtype=np.int64))
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
        return engine.new_game(self.tables, decks, ties)

    def legal_action_mask(self, state: GravwellState) -> np.ndarray:
        """A read-only array shared between calls (copy it before changing it)."""
        player = state.current_player
        if player < 0:
            return self._no_mask
        phase = state.phase
        if phase == COMMIT:
            return self._hand_mask(state.hands[player])
        if phase == DRAFT:
            return self._draft_masks[state.free]
        return self._stop_mask

    def _hand_mask(self, hand: int) -> np.ndarray:
        """The commit mask of a hand (card bits), from its two 13-card halves."""
        return _frombuffer(self._low_half[hand & 8191] + self._high_half[hand >> 13], _BOOL)

    def simultaneous_players(self, state: GravwellState) -> tuple[int, ...]:
        """In the commit phase every seat that has not committed yet (seats commit in order, in secret)."""
        player = state.current_player
        if player >= 0 and state.phase == COMMIT:
            return tuple(range(player, self.config.num_players))
        return super().simultaneous_players(state)

    def legal_action_mask_of(self, state: GravwellState, player: int) -> np.ndarray:
        """A committing seat may play any card of its own hand, whatever the seats before it chose."""
        if player != state.current_player and player in self.simultaneous_players(state):
            return self._hand_mask(state.hands[player])
        return super().legal_action_mask_of(state, player)

    def legal_actions(self, state: GravwellState) -> np.ndarray:
        """A read-only array shared between calls (copy it before changing it)."""
        player = state.current_player
        if player < 0:
            return self._no_actions
        phase = state.phase
        if phase == COMMIT:
            hand = state.hands[player]
            return _frombuffer(self._low_ids[hand & 8191] + self._high_ids[hand >> 13], _INT64)
        if phase == DRAFT:
            return self._draft_actions[state.free]
        return self._stop_actions

    def is_legal(self, state: GravwellState, action: int) -> bool:
        """A few integer tests: a card in the mover's hand, an open stack, or stop/go in the Emergency Stop
        phase (False for a finished game and for any other int)."""
        player = state.current_player
        if player < 0:
            return False
        phase = state.phase
        if phase == COMMIT:
            card = action - self.play_base
            return card >= 0 and state.hands[player] >> card & 1 == 1
        if phase == DRAFT:
            return 0 <= action < self.num_stacks and state.free >> action & 1 == 1
        return action == self.stop_action or action == self.stop_action + 1

    def _apply(self, state: GravwellState, action: int) -> GravwellState:
        """The legal ``action`` by one transition of ``engine`` (see :meth:`_apply_if_legal`)."""
        new = self._apply_if_legal(state, action)
        assert new is not None, "_apply is called with legal actions only"
        return new

    def _apply_if_legal(self, state: GravwellState, action: int) -> GravwellState | None:
        """One pass over the phase: the tests of :meth:`is_legal`, then the transition of ``engine`` (``None``
        for an illegal action; the base class then raises with :meth:`illegal_reason`)."""
        player = state.current_player
        if player < 0:
            return None
        phase = state.phase
        if phase == COMMIT:
            card = action - self.play_base
            if card < 0 or not state.hands[player] >> card & 1:
                return None
            if player + 1 < self.n:
                return engine.commit(state, player, card)
            return engine.reveal(self.tables, state, card)
        if phase == DRAFT:
            if not 0 <= action < self.num_stacks or not state.free >> action & 1:
                return None
            return engine.draft(self.tables, state, player, action)
        if action != self.stop_action and action != self.stop_action + 1:
            return None
        return engine.stop_decision(self.tables, state, action == self.stop_action)

    def illegal_reason(self, state: GravwellState, action: int) -> str:
        player, (kind, index) = state.current_player, self.decode(state, action)
        if state.phase == DRAFT:
            open_stacks = [index for index, _, _ in state.open_stacks()]
            if kind == "draft":
                return f"stack {index} was already taken this round; open stacks: {open_stacks}"
            return f"player {player} is drafting: take one of the open stacks {open_stacks}"
        if state.phase == COMMIT:
            hand = " ".join(SYMBOLS[card] for card in bits_to_cards(state.hands[player]))
            if kind == "play":
                return f"card {SYMBOLS[index]} is not in player {player}'s hand ({hand})"
            if kind == "stop" and not state.stops[player]:
                return f"player {player} has already used its Emergency Stop this round; play a card ({hand})"
            return f"player {player} must play a card from its hand ({hand})"
        return f"player {player} must decide on the Emergency Stop first: 'stop' or 'go'"

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
        action = int(action)
        if not 0 <= action < self.spec.num_actions:
            raise ValueError(f"action {action} is out of range [0, {self.spec.num_actions})")
        if action < self.play_base:
            return Move("draft", action)
        if action < self.stop_action:
            return Move("play", action - self.play_base)
        return Move("stop", int(action == self.stop_action))

    def encode(self, state: GravwellState, move: Move) -> int:
        """The action id of ``move`` (``state`` is not needed); ``ValueError`` for an unknown kind or an index
        out of its range (stacks ``0..3n-1``, cards ``0..25``, stop ``0``/``1``)."""
        del state
        kind, index = move
        sizes = {"draft": self.num_stacks, "play": NUM_CARDS, "stop": 2}
        if kind not in sizes:
            raise ValueError(f"unknown move kind {kind!r}; kinds are {list(sizes)}")
        if isinstance(index, bool) or not 0 <= index < sizes[kind]:
            raise ValueError(f"{kind} index must be in 0..{sizes[kind] - 1}, got {index!r}")
        if kind == "draft":
            return int(index)
        if kind == "play":
            return self.play_base + int(index)
        return self.stop_action + (0 if index else 1)

    def action_to_str(self, state: GravwellState, action: int) -> str:
        kind, index = self.decode(state, action)
        if kind == "draft":
            return f"draft {index}"
        if kind == "play":
            return f"play {SYMBOLS[index]}"
        return "stop" if index else "go"

    def text_for(self, state: GravwellState, player: int) -> str:
        """:meth:`to_text` without what ``player`` cannot know: others' face-down cards (``?``) and pending
        commits (``hidden``), and face-down draft cards unless ``no_secrets``."""
        return self._text(state, player)

    def action_text_for(self, state: GravwellState, action: int, player: int) -> str:
        """Another player's card play is secret until the reveal: ``play (secret)``."""
        text = self.action_to_str(state, action)
        if state.current_player != player and text.startswith("play "):
            return "play (secret)"
        return text

    def to_text(self, state: GravwellState) -> str:
        return self._text(state, None)

    def _render_svg(self, state: GravwellState, seat: int | None, mask: np.ndarray | None) -> str:
        """The track, the draft or the turn, the players' rows and the targets (see ``gravwell.svg``); a seat sees
        what :meth:`text_for` shows it: others' face-down cards and pending commits face down."""
        return draw_state(self, state, seat, mask)

    def _text(self, state: GravwellState, viewer: int | None) -> str:
        """The state as text; with a ``viewer`` seat, only what that seat may see."""
        n = self.n
        mover = "over" if state.current_player == TERMINAL else f"player {state.current_player}"
        lines = [
            f"round {state.round + 1}/6 turn {state.turn + 1}/6 {PHASE_NAMES[state.phase]} {mover} ply {state.ply}",
            "ships " + " ".join(f"P{p}@{state.pos[p]}" for p in range(n)) + " hulks " + str(state.pos[n:]),
        ]
        for p in range(n):
            hidden = viewer is not None and p != viewer
            lines.append(f"P{p} stop={'yes' if state.stops[p] else 'no'} {self._hand_text(state, p, hidden)}")
        down_hidden = viewer is not None and not self.config.no_secrets
        stacks = " ".join(f"{i}:{SYMBOLS[u]}/{'?' if down_hidden else SYMBOLS[d]}" for i, u, d in state.open_stacks())
        lines.append(f"order {list(state.order)} stacks {stacks}")
        lines.append("queue " + " ".join(f"{card_name(c)}<P{o}" for c, o in state.queue))
        if state.winner >= 0:
            lines.append(f"winner P{state.winner}")
        return "\n".join(lines)

    @staticmethod
    def _hand_text(state: GravwellState, p: int, hidden: bool) -> str:
        """``commit=... hand: ...`` of seat ``p``; ``hidden`` shows only its face-up (``*``) cards, ``?`` for the
        rest, and whether it has committed."""
        known = state.known[p]
        if hidden:
            cards = [SYMBOLS[c] + "*" for c in bits_to_cards(state.hands[p] & known)]
            cards += ["?"] * (state.hands[p] & ~known).bit_count()
            commit = "hidden" if state.commits[p] >= 0 else "-"
        else:
            cards = [SYMBOLS[c] + ("*" if known >> c & 1 else "") for c in bits_to_cards(state.hands[p])]
            commit = str(state.commits[p])
        return f"commit={commit} hand: {' '.join(cards)}"
