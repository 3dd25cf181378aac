"""Gravwell on the ``Game`` contract: the codec, ``is_legal``, the move cap, the registry presets, and the one
resolution path (the game moves ships with ``movement.resolve``, the function the agents call)."""

from __future__ import annotations

import numpy as np
import pytest

import boardenvs
from boardenvs.core import TERMINAL, shared_win_returns
from boardenvs.games.gravwell import Gravwell, GravwellState, Move, card_of_symbol, transitions
from boardenvs.games.gravwell.cards import NUM_CARDS
from boardenvs.games.gravwell.movement import resolve
from boardenvs.games.gravwell.state import COMMIT, DRAFT, STOP
from boardenvs.games.gravwell.tables import make_tables
from boardenvs.testing import check_game
from tests.gravwell.helpers import play_turn, turn_state
from tests.playouts import random_game_positions


def _positions(game: Gravwell, seed: int, games: int = 3) -> list[GravwellState]:
    """Every position of a few seeded random games, the final ones included."""
    return random_game_positions(game, np.random.default_rng(seed), games)


# -- codec ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 3, 4])
def test_codec_round_trip_for_every_kind_of_move(n: int) -> None:
    game = Gravwell(num_players=n)
    s = game.initial_state(np.random.default_rng(0))
    moves = [Move("draft", k) for k in range(3 * n)] + [Move("play", c) for c in range(NUM_CARDS)]
    moves += [Move("stop", 1), Move("stop", 0)]
    assert [game.encode(s, move) for move in moves] == list(range(game.spec.num_actions))
    assert [game.decode(s, a) for a in range(game.spec.num_actions)] == moves


def test_action_ranges_name_the_moves() -> None:
    game = Gravwell(num_players=2)
    s = game.initial_state(np.random.default_rng(0))
    assert (game.play_base, game.stop_action, game.spec.num_actions) == (6, 32, 34)
    assert game.decode(s, game.play_base + card_of_symbol("Mg")) == Move("play", card_of_symbol("Mg"))
    assert [game.action_to_str(s, a) for a in (5, game.play_base, 32, 33)] == ["draft 5", "play Ar", "stop", "go"]


@pytest.mark.parametrize("move", [Move("pass", 0), Move("draft", 6), Move("play", -1), Move("play", 26),
                                  Move("stop", 2), Move("stop", True)])  # fmt: skip
def test_encode_rejects_a_move_without_an_id(move: Move) -> None:
    game = Gravwell(num_players=2)
    with pytest.raises(ValueError, match="kind|index"):
        game.encode(game.initial_state(np.random.default_rng(0)), move)


@pytest.mark.parametrize("action", [-1, 34])
def test_decode_rejects_an_id_out_of_range(action: int) -> None:
    game = Gravwell(num_players=2)
    with pytest.raises(ValueError, match="out of range"):
        game.decode(game.initial_state(np.random.default_rng(0)), action)


# -- legality -------------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 4])
def test_is_legal_is_the_mask_for_every_id_in_every_phase(n: int) -> None:
    game = Gravwell(num_players=n)
    phases = set()
    for s in _positions(game, seed=n):
        mask = game.legal_action_mask(s)
        assert [game.is_legal(s, a) for a in range(game.spec.num_actions)] == mask.tolist()
        phases.add(s.phase)
    assert phases == {DRAFT, COMMIT, STOP}


def test_is_legal_is_false_out_of_range_and_after_the_end_and_never_raises() -> None:
    game = Gravwell(num_players=2)
    states = _positions(game, seed=1, games=1)
    for s in states:
        assert not any(game.is_legal(s, a) for a in (-1, -40, 34, 10**30, -(10**30)))
    assert game.is_terminal(states[-1])
    assert not any(game.is_legal(states[-1], a) for a in range(34))


def test_numpy_int_actions_are_accepted_and_non_ints_rejected() -> None:
    game = Gravwell(num_players=2)
    s = game.initial_state(np.random.default_rng(0))
    assert game.apply(s, np.int64(2)).key() == game.apply(s, 2).key()
    for bad in (2.0, "2", True, None):
        with pytest.raises(TypeError, match="must be an int"):
            game.apply(s, bad)


# -- the move cap ---------------------------------------------------------------------------------
def _capped(max_plies: int, seed: int = 0) -> tuple[Gravwell, GravwellState, GravwellState]:
    """A 3-player game played at random up to its cap: the game, the last state before it and the capped one."""
    game, rng = Gravwell(num_players=3, max_plies=max_plies), np.random.default_rng(seed)
    s = game.initial_state(rng)
    while s.ply < max_plies - 1:
        s = game.apply(s, int(rng.choice(game.legal_actions(s))))
    return game, s, game.apply(s, int(rng.choice(game.legal_actions(s))))


@pytest.mark.parametrize(
    "max_plies", [8, 9, 11, 12, 13], ids=["draft", "last draft", "commit", "reveal", "emergency stop decision"]
)
def test_the_ply_before_the_cap_is_ordinary_and_the_capped_state_is_terminal_truncated_and_ranked(
    max_plies: int,
) -> None:
    game, before, capped = _capped(max_plies)
    assert before.current_player != TERMINAL and not before.truncated and not game.returns(before).any()
    assert capped.ply == max_plies == game.spec.max_game_length
    assert game.is_terminal(capped) and game.is_truncated(capped) and capped.winner == -1
    assert game.returns(capped).tolist() == shared_win_returns(3, game.leaders(capped)).tolist()
    assert not game.legal_action_mask(capped).any()


def test_apply_does_not_change_its_input_or_a_shared_list_at_the_cap() -> None:
    game, before, _ = _capped(12)  # the capping ply is a reveal
    key, lists = before.key(), [before.pos, before.hands, before.known, before.commits, before.stops]
    copies = [list(x) for x in lists]
    capped = game.apply(before, int(game.legal_actions(before)[0]))
    assert before.key() == key and [list(x) for x in lists] == copies
    assert before.current_player != TERMINAL and not before.truncated
    assert capped.__dict__ is not before.__dict__ and capped.truncated


def test_an_escape_on_the_capping_ply_is_a_win_not_a_truncation() -> None:
    game = Gravwell(num_players=2, max_plies=10)
    s = turn_state(game, [52, 10, 36], [["Kr"], ["Zr"]], stops=False)
    s.ply = 8
    s = game.apply(s, game.play_base + card_of_symbol("Kr"))
    assert s.ply == 9 and not game.is_terminal(s)
    s = game.apply(s, game.play_base + card_of_symbol("Zr"))
    assert s.ply == 10 and s.winner == 0 and not game.is_truncated(s)
    assert game.returns(s).tolist() == [1.0, -1.0]


def test_the_cap_is_never_above_the_longest_game() -> None:
    assert Gravwell(num_players=4).spec.max_game_length == 6 * (3 * 4 + 6 * 2 * 4)
    assert Gravwell(num_players=2, max_plies=50).spec.max_game_length == 50


# -- registry presets -----------------------------------------------------------------------------
@pytest.mark.parametrize("preset", boardenvs.list_presets("gravwell"))
def test_every_registry_preset_passes_check_game(preset: str) -> None:
    check_game(boardenvs.make_game("gravwell", preset=preset), num_games=3)


# -- one resolution path --------------------------------------------------------------------------
def _free_tiles(game: Gravwell, rng: np.random.Generator, count: int) -> list[int]:
    """``count`` distinct random tiles below the Warp Gate, none of them a hulk's."""
    tiles = [tile for tile in range(54) if tile not in game.tables.hulks]
    return [int(tile) for tile in rng.choice(tiles, size=count, replace=False)]


def _resolved_by_rules(pos: list[int], queue: list[tuple[int, int]], n: int, inert: bool):
    """The turn resolved card by card with ``movement.resolve``: the tiles, the "move" events and the winner."""
    pos, moves = list(pos), []
    for card, owner in sorted(queue):
        winner = resolve(pos, owner, card, n, inert, moves=moves)
        if winner >= 0:
            return pos, moves, winner
    return pos, moves, -1


@pytest.mark.parametrize("n, inert", [(2, False), (3, False), (4, False), (3, True)])
def test_the_game_moves_ships_exactly_as_rules_resolve_does(n: int, inert: bool) -> None:
    game, rng = Gravwell(num_players=n, inert_tractors=inert), np.random.default_rng(n)
    for _ in range(150):
        pos = _free_tiles(game, rng, n) + list(game.tables.hulks)
        cards = [int(c) for c in rng.choice(NUM_CARDS, size=n, replace=False)]
        s = turn_state(game, pos, [[]] * n, stops=False)
        s.hands = [1 << card for card in cards]
        for card in cards:
            s = game.apply(s, game.play_base + card)
        expected = _resolved_by_rules(pos, [(card, p) for p, card in enumerate(cards)], n, inert)
        assert (s.pos, [e for e in s.raw_events if e[0] == "move"], s.winner) == expected


def test_declining_the_emergency_stop_resolves_as_if_there_were_none() -> None:
    game, rng = Gravwell(num_players=3), np.random.default_rng(7)
    for _ in range(100):
        pos = _free_tiles(game, rng, 3) + [36, 26]
        cards = [str(c) for c in rng.choice(["Ar", "B", "Kr", "Mg", "Qt", "Jo", "Zr", "C", "Ne"], 3, replace=False)]
        hands = [[card] for card in cards]
        with_stops = play_turn(game, turn_state(game, pos, hands, stops=True), cards, stop=False)
        without = play_turn(game, turn_state(game, pos, hands, stops=False), cards)
        assert (with_stops.pos, with_stops.winner) == (without.pos, without.winner)


def test_the_transitions_are_plain_functions_of_the_tables() -> None:
    game = Gravwell(num_players=2)
    s = game.initial_state(np.random.default_rng(3))
    stack = int(game.legal_actions(s)[0])
    assert transitions.draft(game.tables, s, s.current_player, stack).key() == game.apply(s, stack).key()
    t = turn_state(game, [0, 0, 36], [["Ar"], ["B"]])
    assert transitions.commit(t, 0, card_of_symbol("Ar")).key() == game.apply(t, game.play_base).key()
    assert game.tables == make_tables(game.config) and hash(game.tables) == hash(make_tables(game.config))
