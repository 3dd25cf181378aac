"""Which Gravwell actions are legal and why an action is not (docs/rules/rules.md §1).

Each phase opens one range of action ids (``tables.ActionTables.first``) and has one rule, which says which indices of
that range the player to move may choose, as a bitset (bit ``k``: action ``first + k``), and whose message says why
another action is refused:

* draft: :func:`open_stacks`, the stacks still on the table (a stack already taken, or a card or a stop decision
  instead, is refused by :func:`draft_reason`);
* commit: :func:`cards_in_hand`, the cards of the player's own hand (:func:`commit_reason`);
* Emergency Stop decision: :func:`stop_or_go`, "stop" or "go" and nothing else (:func:`stop_reason`).

:data:`RULES` and :data:`REASONS` list them by phase. The game assembles its mask and its legal ids from a rule's
bitset with the byte tables of ``tables.ActionTables``, and tests one action (``is_legal``, ``_apply_if_legal``) by one
bit of the same bitset: no rule is stated anywhere else. The messages name only what the player to move may see (its
own hand, the open stacks): never another player's hand or commit.
"""

from __future__ import annotations

from collections.abc import Callable

from boardenvs.games.gravwell.cards import SYMBOLS, bits_to_cards
from boardenvs.games.gravwell.notation import decode
from boardenvs.games.gravwell.state import COMMIT, DRAFT, STOP, GravwellState
from boardenvs.games.gravwell.tables import ActionTables

Rule = Callable[[GravwellState, int], int]
"""``(state, player) -> bitset`` of the indices ``player`` may choose in the range of the state's phase."""
STOP_OR_GO = 0b11
"""Both answers to the Emergency Stop question: "stop" (index 0) and "go" (index 1)."""


# -- draft ---------------------------------------------------------------------------------------------------------
def open_stacks(state: GravwellState, player: int) -> int:
    """Draft: the player takes one of the stacks still on the table (bit ``s``: stack ``s``)."""
    del player
    return state.free


def draft_reason(state: GravwellState, player: int, kind: str, index: int) -> str:
    """Why the draft move ``(kind, index)`` is refused: that stack is gone, or it is no draft at all."""
    stacks = [stack for stack, _, _ in state.open_stacks()]
    if kind == "draft":
        return f"stack {index} was already taken this round; open stacks: {stacks}"
    return f"player {player} is drafting: take one of the open stacks {stacks}"


# -- commit --------------------------------------------------------------------------------------------------------
def cards_in_hand(state: GravwellState, player: int) -> int:
    """Commit: the player commits one card of its own hand (bit ``c``: card ``c``)."""
    return state.hands[player]


def commit_reason(state: GravwellState, player: int, kind: str, index: int) -> str:
    """Why the commit move ``(kind, index)`` is refused: the card is not in the hand, or it is no card."""
    hand = " ".join(SYMBOLS[card] for card in bits_to_cards(state.hands[player]))
    if kind == "play":
        return f"card {SYMBOLS[index]} is not in player {player}'s hand ({hand})"
    if kind == "stop" and not state.stops[player]:
        return f"player {player} has already used its Emergency Stop this round; play a card ({hand})"
    return f"player {player} must play a card from its hand ({hand})"


# -- Emergency Stop decision ---------------------------------------------------------------------------------------
def stop_or_go(state: GravwellState, player: int) -> int:
    """Emergency Stop: the owner of the next card answers "stop" or "go" (:data:`STOP_OR_GO`), nothing else."""
    del state, player
    return STOP_OR_GO


def stop_reason(state: GravwellState, player: int, kind: str, index: int) -> str:
    """Why a move other than "stop" or "go" is refused while the Emergency Stop question is open."""
    del state, kind, index
    return f"player {player} must decide on the Emergency Stop first: 'stop' or 'go'"


RULES: tuple[Rule, Rule, Rule] = (open_stacks, cards_in_hand, stop_or_go)
"""The rule of each phase, indexed by ``DRAFT``, ``COMMIT``, ``STOP``."""
REASONS: tuple[Callable[[GravwellState, int, str, int], str], ...] = (draft_reason, commit_reason, stop_reason)
"""The message of each phase's rule, indexed like :data:`RULES`."""
assert (DRAFT, COMMIT, STOP) == (0, 1, 2), "RULES and REASONS are indexed by phase"


# -- one action ----------------------------------------------------------------------------------------------------
def is_legal(actions: ActionTables, state: GravwellState, action: int) -> bool:
    """Whether the int ``action`` is allowed by the rule of the state's phase (False once the game is over)."""
    player = state.current_player
    if player < 0:
        return False
    phase = state.phase
    index = action - actions.first[phase]
    return index >= 0 and RULES[phase](state, player) >> index & 1 == 1


def illegal_reason(actions: ActionTables, state: GravwellState, action: int) -> str:
    """Why the in-range ``action`` is refused in the unfinished ``state``: the message of its phase's rule."""
    kind, index = decode(actions.n, action)
    return REASONS[state.phase](state, state.current_player, kind, index)
