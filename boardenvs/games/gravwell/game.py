"""The Gravwell game object: the contract of ``boardenvs.core.Game`` on top of ``rules`` (RULES.md §1)."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from boardenvs.core import TERMINAL, Game, GameSpec
from boardenvs.games.gravwell.cards import NUM_CARDS, SYMBOLS, bits_to_cards, card_name
from boardenvs.games.gravwell.config import GravwellConfig
from boardenvs.games.gravwell.observation import TURNS, field_sizes, observation_fields, observe
from boardenvs.games.gravwell.rules import escaped, is_stuck_for, resolve
from boardenvs.games.gravwell.state import COMMIT, DRAFT, PHASE_NAMES, STOP, GravwellEvent, GravwellState

ROUNDS = 6
HULKS_2P, HULKS_MORE = (36,), (36, 26)
ALL_CARDS = (1 << NUM_CARDS) - 1
MASK_CACHE = 200_000
"""Most legal-action masks remembered per game object (keyed by phase and the hand or open-stack bits)."""


class Action(NamedTuple):
    """A decoded action: ``kind`` is "draft" (``index`` = stack), "play" (``index`` = card) or "stop"
    (``index`` 1 = use the Emergency Stop, 0 = let the card resolve)."""

    kind: str
    index: int


class Gravwell(Game[GravwellState]):
    """Gravwell: Escape from the 9th Dimension, as the Gravitas engine plays it (RULES.md §1), 2-4 players.

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
    ties: the ship behind first; ``inert_tractors``: nothing). Movement rules: ``rules.py``.

    **Actions** (``num_actions = 3n + 28``): ``[0, 3n)`` draft stack ``s`` ("draft 4"); ``[3n, 3n + 26)``
    commit card ``c`` ("play Mg"); ``3n + 26`` use the Emergency Stop ("stop"); ``3n + 27`` decline
    ("go").

    **Observation** ``float32[N]`` in [0, 1], seats rotated so the observer comes first: ``ships``,
    ``hulks``, ``my_hand``, ``known_cards`` (others' cards drafted face up), ``hand_sizes``, ``stacks``,
    ``emergency_stop``, ``committed``, ``revealed`` (latest reveal), ``pending``, ``round``, ``turn``,
    ``phase``, ``to_move`` (see ``observation.field_sizes``; N = 169 for 2 players).

    **End, scores and returns.** A player whose ship reaches tile 54 wins at once (later cards do not
    resolve). Otherwise, after 6 rounds (or at ``max_plies``), the ship nearest the Warp Gate wins; ties
    (only possible in the Singularity) share the win. ``scores`` are the tiles; ``returns``: each of the
    ``k`` tied winners gets ``(n - k) / (k (n - 1))``, every other player ``-1 / (n - 1)`` (lone winner
    +1; zero-sum).

    **Hidden information.** Others' face-down drafted cards, the face-down cards on the table (unless
    ``no_secrets``), the undealt cards, future decks and tie orders, and others' pending commits.
    ``determinize`` reshuffles all of them consistently with what the seat knows.

    Example:
        >>> import numpy as np
        >>> from boardenvs.games.gravwell import Gravwell
        >>> game = Gravwell(num_players=2)
        >>> state = game.initial_state(np.random.default_rng(0))
        >>> game.spec.num_actions, game.spec.observation_shape, len(game.legal_actions(state))
        (34, (169,), 6)
        >>> game.action_to_str(state, 0)
        'draft 0'
    """

    name = "gravwell"
    version = 0
    config_class = GravwellConfig

    def _make_spec(self) -> GameSpec:
        n = self.config.num_players
        self.n, self.num_stacks = n, 3 * n
        self.play_base, self.stop_action = 3 * n, 3 * n + NUM_CARDS
        fields = observation_fields(n)
        self.offsets = {f.name: f.start for f in fields}
        self.obs_size = sum(size for _, size, _ in field_sizes(n))
        self.hulks = HULKS_2P if n == 2 else HULKS_MORE
        self._masks: dict[tuple[int, int], np.ndarray] = {}
        natural = ROUNDS * (3 * n + TURNS * 2 * n)
        return GameSpec(
            self.name, self.version, n, 3 * n + NUM_CARDS + 2, (self.obs_size,), fields,
            min(self.config.max_plies, natural), perfect_information=False, zero_sum=True,
            observation_kind="vector",
        )  # fmt: skip

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.config,))

    # -- the contract ----------------------------------------------------------------------------
    def initial_state(self, rng: np.random.Generator) -> GravwellState:
        """Ships in the Singularity; every round's deck and Singularity tie order are drawn now."""
        s = GravwellState.__new__(GravwellState)
        n = self.n
        s.pos = [0] * n + list(self.hulks)
        s.hands, s.known, s.commits, s.stops = [0] * n, [0] * n, [-1] * n, [True] * n
        s.decks = tuple(tuple(int(c) for c in rng.permutation(NUM_CARDS)) for _ in range(ROUNDS))
        s.ties = tuple(tuple(int(p) for p in rng.permutation(n)) for _ in range(ROUNDS))
        s.queue, s.revealed, s.round, s.turn, s.winner = (), (-1,) * n, 0, 0, -1
        s.ply, s.truncated, s.events = 0, False, ()
        self._start_round(s, [])
        s.events = ()
        return s

    def legal_action_mask(self, state: GravwellState) -> np.ndarray:
        if state.current_player == TERMINAL:
            return np.zeros(self.spec.num_actions, dtype=bool)
        bits = self._mask_bits(state)
        mask = self._masks.get((state.phase, bits))
        if mask is None:
            mask = self._build_mask(state.phase, bits)
            if len(self._masks) < MASK_CACHE:
                self._masks[(state.phase, bits)] = mask
        return mask.copy()

    def _checked(self, state: GravwellState, action: int) -> int:
        """``action`` if legal (fast path of ``check_action``), else the same errors."""
        if type(action) is int and state.current_player != TERMINAL and 0 <= action < self.spec.num_actions:
            mask = self._masks.get((state.phase, self._mask_bits(state)))
            if mask is not None and mask[action]:
                return action
        return self.check_action(state, action)

    def _mask_bits(self, state: GravwellState) -> int:
        if state.phase == DRAFT:
            return sum(1 << i for i, stack in enumerate(state.stacks) if stack[0] >= 0)
        return state.hands[state.current_player] if state.phase == COMMIT else 0

    def _build_mask(self, phase: int, bits: int) -> np.ndarray:
        mask = np.zeros(self.spec.num_actions, dtype=bool)
        if phase == STOP:
            mask[self.stop_action :] = True
            return mask
        base = 0 if phase == DRAFT else self.play_base
        for index in range(NUM_CARDS):
            if bits >> index & 1:
                mask[base + index] = True
        return mask

    def apply(self, state: GravwellState, action: int) -> GravwellState:
        kind, index = self.decode(self._checked(state, action))
        s = state.copy()
        events: list[GravwellEvent] = []
        player = s.current_player
        if kind == "draft":
            self._draft(s, player, index, events)
        elif kind == "play":
            self._commit(s, player, index, events)
        else:
            self._stop(s, player, bool(index), events)
        s.ply += 1
        s.events = tuple(events)
        if s.current_player != TERMINAL and s.ply >= self.spec.max_game_length:
            s.current_player, s.truncated = TERMINAL, True
        return s

    def returns(self, state: GravwellState) -> np.ndarray:
        out = np.zeros(self.n, dtype=np.float32)
        if state.current_player != TERMINAL:
            return out
        winners = [state.winner] if state.winner >= 0 else self.leaders(state)
        k = len(winners)
        out[:] = -1.0 / (self.n - 1)
        out[winners] = (self.n - k) / (k * (self.n - 1))
        return out

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
        return observe(state, player, self.n, self.offsets, self.obs_size, self.config.no_secrets)

    def determinize(self, state: GravwellState, player: int, rng: np.random.Generator) -> GravwellState:
        """Reshuffle what ``player`` cannot know: others' face-down cards, table face-down cards, undealt
        cards, pending commits of others (a random card of their new hand), future decks and tie orders."""
        s = state.copy()
        public = state.hands[player] | state.spent
        for other in range(self.n):
            public |= state.known[other]
        for up, down in state.stacks:
            public |= (1 << up if up >= 0 else 0) | (1 << down if down >= 0 and self.config.no_secrets else 0)
        pool = [int(c) for c in rng.permutation(bits_to_cards(ALL_CARDS & ~public))]
        self._deal_hidden(s, player, pool, rng)
        s.decks = s.decks[: s.round] + tuple(
            tuple(int(c) for c in rng.permutation(NUM_CARDS)) for _ in range(ROUNDS - s.round)
        )
        future = len(s.ties) - s.round - 1
        s.ties = s.ties[: s.round + 1] + tuple(tuple(int(p) for p in rng.permutation(self.n)) for _ in range(future))
        return s

    def _deal_hidden(self, s: GravwellState, player: int, pool: list[int], rng: np.random.Generator) -> None:
        for other in range(self.n):
            if other == player:
                continue
            hidden = (s.hands[other] & ~s.known[other]).bit_count()
            s.hands[other] = s.known[other] | sum(1 << pool.pop() for _ in range(hidden))
            if s.commits[other] >= 0:
                s.commits[other] = int(rng.choice(bits_to_cards(s.hands[other])))
        if not self.config.no_secrets:
            s.stacks = tuple((up, pool.pop()) if up >= 0 else (up, down) for up, down in s.stacks)

    def visible_events(self, state: GravwellState, events: list[Any], player: int) -> list[Any]:
        """Events never name a committed card before the reveal or a face-down card, so all are visible."""
        del state, player
        return [event for event in events if not (event.kind == "commit" and event.card >= 0)]

    # -- codec -------------------------------------------------------------------------------
    def decode(self, action: int) -> Action:
        """The readable form of an action id."""
        if action < self.play_base:
            return Action("draft", action)
        if action < self.stop_action:
            return Action("play", action - self.play_base)
        return Action("stop", int(action == self.stop_action))

    def encode(self, move: Action) -> int:
        """The action id of a decoded action."""
        if move.kind == "draft":
            return move.index
        if move.kind == "play":
            return self.play_base + move.index
        return self.stop_action + (0 if move.index else 1)

    def action_to_str(self, state: GravwellState, action: int) -> str:
        kind, index = self.decode(int(action))
        if kind == "draft":
            return f"draft {index}"
        if kind == "play":
            return f"play {SYMBOLS[index]}"
        return "stop" if index else "go"

    def to_text(self, state: GravwellState) -> str:
        n = self.n
        mover = "over" if state.current_player == TERMINAL else f"player {state.current_player}"
        lines = [
            f"round {state.round + 1}/6 turn {state.turn + 1}/6 {PHASE_NAMES[state.phase]} {mover} ply {state.ply}",
            "ships " + " ".join(f"P{p}@{state.pos[p]}" for p in range(n)) + " hulks " + str(state.pos[n:]),
        ]
        for p in range(n):
            cards = bits_to_cards(state.hands[p])
            hand = " ".join(SYMBOLS[c] + ("*" if state.known[p] >> c & 1 else "") for c in cards)
            lines.append(f"P{p} stop={'yes' if state.stops[p] else 'no'} commit={state.commits[p]} hand: {hand}")
        stacks = " ".join(f"{i}:{SYMBOLS[u]}/{SYMBOLS[d]}" for i, (u, d) in enumerate(state.stacks) if u >= 0)
        lines.append(f"order {list(state.order)} stacks {stacks}")
        lines.append("queue " + " ".join(f"{card_name(c)}<P{o}" for c, o in state.queue))
        if state.winner >= 0:
            lines.append(f"winner P{state.winner}")
        return "\n".join(lines)

    # -- phases ------------------------------------------------------------------------------
    def _start_round(self, s: GravwellState, events: list[GravwellEvent]) -> None:
        n, deck = self.n, s.decks[s.round]
        s.stacks = tuple((deck[2 * i], deck[2 * i + 1]) for i in range(3 * n))
        s.hands, s.known, s.spent = [0] * n, [0] * n, 0
        if not self.config.hardcore:
            s.stops = [True] * n
        waiting = [p for p in s.ties[s.round] if s.pos[p] == 0]
        s.order = tuple(waiting + sorted((p for p in range(n) if s.pos[p] > 0), key=lambda p: s.pos[p]))
        s.picks, s.phase, s.turn, s.current_player = 0, DRAFT, 0, s.order[0]
        events.append(GravwellEvent(s.ply, "round", -1, detail=s.round))

    def _draft(self, s: GravwellState, player: int, stack: int, events: list[GravwellEvent]) -> None:
        up, down = s.stacks[stack]
        s.hands[player] |= (1 << up) | (1 << down)
        s.known[player] |= (1 << up) | ((1 << down) if self.config.no_secrets else 0)
        s.stacks = s.stacks[:stack] + ((-1, -1),) + s.stacks[stack + 1 :]
        events.append(GravwellEvent(s.ply, "draft", player, up, stack))
        s.picks += 1
        if s.picks == self.num_stacks:
            s.phase, s.current_player = COMMIT, 0
        else:
            s.current_player = s.order[s.picks % self.n]

    def _commit(self, s: GravwellState, player: int, card: int, events: list[GravwellEvent]) -> None:
        s.commits[player] = card
        events.append(GravwellEvent(s.ply, "commit", player))
        if player + 1 < self.n:
            s.current_player = player + 1
            return
        s.revealed = tuple(s.commits)
        for owner, played in enumerate(s.commits):
            s.hands[owner] &= ~(1 << played)
            s.known[owner] &= ~(1 << played)
            s.spent |= 1 << played
            events.append(GravwellEvent(s.ply, "reveal", owner, played))
        s.queue = tuple(sorted((played, owner) for owner, played in enumerate(s.commits)))
        s.commits = [-1] * self.n
        self._resolve_queue(s, events)

    def _stop(self, s: GravwellState, player: int, use: bool, events: list[GravwellEvent]) -> None:
        card, owner = s.queue[0]
        s.queue = s.queue[1:]
        if use:
            s.stops[owner] = False
            events.append(GravwellEvent(s.ply, "emergency_stop", owner, card))
        elif self._play(s, card, owner, events):
            return
        self._resolve_queue(s, events)

    def _resolve_queue(self, s: GravwellState, events: list[GravwellEvent]) -> None:
        """Resolve queued cards until one needs an Emergency Stop decision, someone escapes or the turn ends."""
        while s.queue:
            card, owner = s.queue[0]
            if is_stuck_for(s.pos, owner, card):
                events.append(GravwellEvent(s.ply, "stuck", owner, card, tile=s.pos[owner]))
            elif s.stops[owner]:
                s.phase, s.current_player = STOP, owner
                return
            elif self._play(s, card, owner, events):
                return
            s.queue = s.queue[1:]
        self._end_turn(s, events)

    def _play(self, s: GravwellState, card: int, owner: int, events: list[GravwellEvent]) -> bool:
        """Resolve ``card`` of ``owner``; True if somebody escaped (the game is then over)."""
        moves = resolve(s.pos, owner, card, self.n, self.config.inert_tractors)
        for ship, _, tile in moves:
            events.append(GravwellEvent(s.ply, "move", owner, card, ship, tile))
        winner = escaped(s.pos, moves, self.n)
        if winner < 0:
            return False
        s.winner, s.current_player, s.queue = winner, TERMINAL, ()
        events.append(GravwellEvent(s.ply, "escape", winner, card, tile=54))
        return True

    def _end_turn(self, s: GravwellState, events: list[GravwellEvent]) -> None:
        s.turn += 1
        if s.turn < TURNS:
            s.phase, s.current_player = COMMIT, 0
            return
        s.round += 1
        if s.round == ROUNDS:
            s.turn, s.current_player = TURNS - 1, TERMINAL
            s.round = ROUNDS - 1
            return
        self._start_round(s, events)
