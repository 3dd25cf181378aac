"""Illegal Splendor actions say why, in both rule sets: the phase pending, the rule broken, what is legal instead."""

from __future__ import annotations

import re

import numpy as np
import pytest

import boardenvs
from boardenvs.games.splendor import Splendor, SplendorState
from boardenvs.games.splendor.state import NOBLE, PAY, RETURN
from tests.splendor.helpers import edit, legal_moves, play, start, with_player

GAME = Splendor()
RINA = boardenvs.make_game("splendor", preset="rinascimento")
CARD_R2_K1 = 0
"""Official card 0: a level-1 white card costing red 2, black 1."""
CARD_TEXT = re.compile(r"\[(L\d [WUGRK]\+\d+p \([^)]*\))\]")
"""A card named in a message (``Splendor.card_to_str`` in brackets)."""


def action_id(game: Splendor, state: SplendorState, move: str) -> int:
    """The id of ``move`` in notation, legal or not (``parse_action`` finds legal moves only)."""
    for action in range(game.spec.num_actions):
        if game.action_to_str(state, action) == move:
            return action
    raise AssertionError(f"no action is written {move!r}")


def refuse(game: Splendor, state: SplendorState, move: str, pattern: str) -> None:
    """``move`` is illegal in ``state`` and the error's reason matches ``pattern``."""
    with pytest.raises(ValueError, match=r"is illegal here: .*" + pattern):
        game.apply(state, action_id(game, state, move))


# -- official rules: main actions ---------------------------------------------------------------
def test_official_take_from_an_empty_stack_names_the_colour_and_the_count() -> None:
    state = edit(start(GAME), supply=[4, 4, 4, 0, 4, 5])
    refuse(GAME, state, "take WUR", r"the supply has 0 red \(R\) left, 'take WUR' needs 1; legal takes: take WUG")


def test_official_take_of_too_few_colours_says_how_many_are_needed() -> None:
    refuse(GAME, start(GAME), "take WU", r"takes exactly 3 colours while 5 stacks \(WUGRK\) can give 1")
    scarce = edit(start(GAME), supply=[0, 0, 0, 1, 2, 5])
    refuse(GAME, scarce, "take K", r"exactly 2 colours while 2 stacks \(RK\).*legal takes: take RK$")


def test_official_take_two_names_the_stack_size_needed() -> None:
    state = edit(start(GAME), supply=[3, 4, 4, 4, 4, 5])
    refuse(GAME, state, "take 2 W", r"'take 2 W' needs at least 4 white \(W\) in the supply, which has 3")


def buying_position(game: Splendor, tokens) -> SplendorState:
    state = with_player(start(game), 0, tokens=tokens)
    state.face_up[0, 0] = CARD_R2_K1
    return state


def test_official_buy_says_what_is_missing_with_gold_counted() -> None:
    state = buying_position(GAME, (0, 0, 0, 1, 0, 1))
    refuse(GAME, state, "buy L1#1", r"cannot afford L1#1 \[L1 W\+0p \(R2 K1\)\]: after bonuses and tokens it lacks "
                                    r"R1 K1 \(2 tokens\) and has 1 gold to cover them; no buys are legal")  # fmt: skip
    with_bonus = with_player(state, 0, tokens=(0, 0, 0, 0, 0, 0), bonuses=(0, 0, 0, 1, 0), bought=1)
    refuse(GAME, with_bonus, "buy L1#1", r"lacks R1 K1 \(2 tokens\) and has 0 gold")


def test_official_buy_of_an_empty_reserve_slot() -> None:
    refuse(GAME, start(GAME), "buy reserved 1", r"player 0 has 0 reserved card\(s\), so reserve slot 1 is empty")
    state = play(GAME, start(GAME), "reserve L1#1", "take WUG")
    refuse(GAME, state, "buy reserved 2", r"player 0 has 1 reserved card\(s\), so reserve slot 2 is empty")


def test_official_reserve_limit_and_empty_deck_and_slot() -> None:
    full = play(GAME, start(GAME), "reserve deck L1", "take WUG", "reserve deck L2", "take WUG", "reserve L3#4",
                "take WUG")  # fmt: skip
    refuse(GAME, full, "reserve L1#1", r"player 0 already holds 3 reserved cards, the limit; no reserves are legal")
    refuse(GAME, full, "reserve deck L3", r"already holds 3 reserved cards")
    state = start(GAME)
    state.top[2] = 20
    state = play(GAME, state, "reserve L3#1", "take WUG")
    refuse(GAME, state, "reserve deck L3", r"the level 3 deck is empty; legal reserves: reserve L1#1")
    refuse(GAME, state, "reserve L3#1", r"slot L3#1 is empty \(the level 3 deck has run out\)")
    refuse(GAME, state, "buy L3#1", r"slot L3#1 is empty")


def test_official_reserving_off_says_so() -> None:
    game = Splendor(max_reserved=0)
    refuse(game, start(game), "reserve L2#2", r"reserving is off in this game \(max_reserved 0\)")


def test_official_pass_while_other_actions_exist() -> None:
    refuse(GAME, start(GAME), "pass", r"pass is legal only when nothing else is; legal: take WUG, .*\(\+\d+ more\)$")


def test_official_sub_decisions_when_none_is_pending() -> None:
    state = start(GAME)
    refuse(GAME, state, "return W", r"no token return is pending: player 0 chooses a main action")
    refuse(GAME, state, "noble 1", r"no noble choice is pending")
    refuse(GAME, state, "gold for R", r"no payment is pending")
    refuse(GAME, state, "pay", r"no payment is pending: .*legal: take WUG")


# -- official rules: sub-decision phases --------------------------------------------------------
def test_official_return_phase() -> None:
    state = play(GAME, with_player(start(GAME), 0, tokens=(2, 2, 2, 2, 1, 0)), "take WUG")
    assert state.phase == RETURN
    refuse(GAME, state, "take WUG", r"player 0 holds 12 tokens, over the cap of 10, and must first return 2 one at "
                                    r"a time; legal: return W, return U, return G, return R, return K$")  # fmt: skip
    refuse(GAME, state, "return Y", r"player 0 holds no gold \(Y\) token to return; legal: return W")
    refuse(GAME, state, "pass", r"must first return 2")


def test_official_noble_phase() -> None:
    state = edit(start(GAME), nobles=[0, 1, 5])  # W4 U4, W4 K4, U4 G4
    state = play(GAME, with_player(state, 0, bonuses=(4, 4, 0, 0, 4), bought=12), "take WUG")
    assert state.phase == NOBLE
    refuse(GAME, state, "noble 3", r"noble 3 needs bonuses U4 G4 and player 0 has W4 U4 K4 \(missing G4\); "
                                   r"legal: noble 1, noble 2$")  # fmt: skip
    refuse(GAME, state, "buy L1#1", r"qualifies for several nobles and must first choose the one that visits; "
                                    r"legal: noble 1, noble 2$")  # fmt: skip
    taken = edit(state, nobles=[0, 1, -1])
    refuse(GAME, taken, "noble 3", r"noble slot 3 is empty \(that noble has already visited\)")


def test_official_pay_phase() -> None:
    state = play(GAME, buying_position(GAME, (0, 0, 0, 2, 1, 1)), "buy L1#1")
    assert state.phase == PAY
    refuse(GAME, state, "take WUG", r"player 0 is paying for L1#1 \[L1 W\+0p \(R2 K1\)\] and must first spend gold "
                                    r"on a colour or pay; legal: gold for R, gold for K, pay$")  # fmt: skip
    refuse(GAME, state, "gold for W", r"\[L1 W\+0p \(R2 K1\)\] needs no white \(W\) \(bonuses counted\)")
    refuse(GAME, state, "return R", r"is paying for L1#1")
    no_red = play(GAME, buying_position(GAME, (0, 0, 0, 0, 1, 3)), "buy L1#1")
    assert no_red.phase == PAY and legal_moves(GAME, no_red) == ["gold for K", "pay"]
    refuse(GAME, no_red, "gold for R", r"player 0 holds no red \(R\), so gold pays the 2 owed anyway; "
                                       r"legal: gold for K, pay$")  # fmt: skip
    planned = play(GAME, buying_position(GAME, (0, 0, 0, 2, 1, 2)), "buy L1#1", "gold for K")
    refuse(GAME, planned, "gold for K", r"the 1 black \(K\) the payment would spend are all replaced by gold "
                                        r"already \(1 planned\)")  # fmt: skip


# -- Rinascimento -------------------------------------------------------------------------------
def test_rinascimento_take_from_a_short_stack() -> None:
    state = edit(start(RINA), supply=[0, 4, 4, 4, 4, 5])
    refuse(RINA, state, "take W", r"the supply has 0 white \(W\) left, 'take W' takes 1; legal takes: take none")
    short = edit(start(RINA), supply=[3, 4, 4, 4, 4, 5])
    refuse(RINA, short, "take 2 W", r"needs a stack of at least 4; the white \(W\) stack has 3")
    empty = edit(start(RINA), supply=[0, 0, 0, 0, 0, 5])
    refuse(RINA, empty, "take none", r"every gem stack in the supply is empty, so no tokens can be taken; no takes")


def test_rinascimento_token_cap() -> None:
    nine = with_player(start(RINA), 0, tokens=(2, 2, 2, 2, 1, 0))
    refuse(RINA, nine, "take WUG", r"holds 9 tokens; taking 3 goes over the cap of 10, so exactly 2 must be given "
                                   r"back, 'take WUG' gives back 0")  # fmt: skip
    refuse(RINA, nine, "take 2 R", r"exactly 1 must be given back, 'take 2 R' gives back 0")
    refuse(RINA, nine, "take W return R", r"holds 9 tokens and 1 more stay within the cap of 10, so nothing may be "
                                          r"given back")  # fmt: skip
    refuse(RINA, nine, "take WUG return KK", r"player 0 holds 1 black \(K\), 'take WUG return KK' gives back 2")


def test_rinascimento_take_same_takes_exactly_up_to_the_cap() -> None:
    refuse(RINA, start(RINA), "take 1 W", r"a take of one colour within the cap takes exactly 2 \(player 0 holds 0 of "
                                          r"10\); 'take 1 W' takes 1")  # fmt: skip
    nine = with_player(start(RINA), 0, tokens=(2, 2, 2, 2, 1, 0))
    assert "take 1 R" in legal_moves(RINA, nine)


def test_rinascimento_buy_reserve_and_pass() -> None:
    state = buying_position(RINA, (0, 0, 0, 0, 1, 0))
    card = re.escape(f"[{RINA.card_to_str(CARD_R2_K1)}]")
    lacking = [max(cost - held, 0) for cost, held in zip(RINA.tables.costs[CARD_R2_K1], (0, 0, 0, 0, 1))]
    assert RINA.tables.cards.level[CARD_R2_K1] == 1 and sum(lacking) > 0
    lacks = " ".join(f"{letter}{v}" for letter, v in zip("WUGRK", lacking) if v)
    refuse(RINA, state, "buy L1#1", rf"cannot afford L1#1 {card}: after bonuses and tokens it lacks {lacks} "
                                    rf"\({sum(lacking)} tokens\) and has 0 gold to cover them; no buys")  # fmt: skip
    refuse(RINA, start(RINA), "buy reserved 3", r"player 0 has 0 reserved card\(s\), so reserve slot 3 is empty")
    full = play(RINA, start(RINA), "reserve deck L1", "take WUG", "reserve deck L2", "take WUG", "reserve deck L3",
                "take WUG")  # fmt: skip
    refuse(RINA, full, "reserve L2#1", r"player 0 already holds 3 reserved cards, the limit")
    state = start(RINA)
    state.top[0] = len(RINA.tables.cards.by_level[0])
    refuse(RINA, state, "reserve deck L1", r"the level 1 deck is empty; legal reserves: reserve L1#1")
    refuse(RINA, start(RINA), "pass", r"pass is legal only when nothing else is; legal: take none")


# -- every illegal action of random games has a reason, and it names no hidden card -------------
def visible_cards(game: Splendor, state: SplendorState) -> set[str]:
    """Card texts the player to move can see: face-up cards, its own reserves, others' face-up reserves."""
    ids = [int(c) for c in state.face_up.ravel()]
    for player in range(game.config.num_players):
        for card, hidden in zip(state.reserved[player], state.hidden[player]):
            if card >= 0 and (player == state.current_player or not hidden):
                ids.append(int(card))
    return {game.card_to_str(card) for card in ids if card >= 0}


@pytest.mark.parametrize("game", [GAME, RINA], ids=["official", "rinascimento"])
def test_every_illegal_action_of_random_games_has_a_one_line_reason(game: Splendor) -> None:
    rng = np.random.default_rng(11)
    checked = 0
    for seed in range(4):
        state = game.initial_state(np.random.default_rng(seed))
        for _ in range(150):
            if game.is_terminal(state):
                break
            mask = game.legal_action_mask(state)
            illegal = np.flatnonzero(~mask)
            for action in rng.choice(illegal, size=min(8, len(illegal)), replace=False).tolist():
                with pytest.raises(ValueError, match=rf"^action {action} is illegal here: \S") as error:
                    game.apply(state, action)
                message = str(error.value)
                assert "\n" not in message and len(message) < 400, message
                assert set(CARD_TEXT.findall(message)) <= visible_cards(game, state), message
                checked += 1
            state = game.apply(state, int(rng.choice(np.flatnonzero(mask))))
    assert checked > 1000
