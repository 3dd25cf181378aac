"""What a seat is shown (``Game.text_for``, ``Game.action_text_for``, used by ``scripts/play.py``). That
``text_for`` does not change under ``determinize`` is part of ``check_game``, which every game passes."""

from __future__ import annotations

import numpy as np

from boardenvs.registry import make_game


def _positions(game, seed: int, plies: int = 60):
    rng = np.random.default_rng(seed)
    state = game.initial_state(rng)
    for _ in range(plies):
        if game.is_terminal(state):
            break
        yield state
        state = game.apply(state, int(rng.choice(game.legal_actions(state))))


def test_perfect_information_games_show_the_plain_text() -> None:
    game = make_game("quoridor", board_size=5)
    for state in _positions(game, seed=0, plies=10):
        assert game.text_for(state, 1) == game.to_text(state)
        assert all(game.action_text_for(state, int(a), 1) == game.action_to_str(state, int(a))
                   for a in game.legal_actions(state))  # fmt: skip


def test_gravwell_hides_other_hands_commits_and_face_down_stacks() -> None:
    game = make_game("gravwell", num_players=3)
    for state in _positions(game, seed=3, plies=80):
        mover = state.current_player
        for action in game.legal_actions(state):
            seen = game.action_text_for(state, int(action), (mover + 1) % 3)
            full = game.action_to_str(state, int(action))
            assert seen == ("play (secret)" if full.startswith("play ") else full)
            assert game.action_text_for(state, int(action), mover) == full
    text = game.text_for(state, 0)
    assert "?" in text and "commit=" in text


def test_splendor_shows_others_face_down_reserves_by_level_only() -> None:
    game = make_game("splendor")
    state = game.initial_state(np.random.default_rng(0))
    reserver = state.current_player
    state = game.apply(state, game.parse_action(state, "reserve deck L2"))
    own, other = game.text_for(state, reserver), game.text_for(state, 1 - reserver)
    assert "reserved [?L2]" in other and "reserved [?L2 " in own  # the owner sees the card itself
    assert game.to_text(state).count("?L2 ") == 1


def test_battle_sheep_hides_other_stack_sizes_only_with_hidden_counts() -> None:
    hidden = make_game("battle_sheep", preset="imperfect")
    open_game = make_game("battle_sheep", preset="basic")
    for game, expect_hidden in ((hidden, True), (open_game, False)):
        states = list(_positions(game, seed=2, plies=12))
        state = states[-1]
        assert (" ?" in game.text_for(state, 0)) == expect_hidden
        moves = [a for a in game.legal_actions(state) if not game.action_to_str(state, int(a)).startswith("place")]
        viewer = (state.current_player + 1) % game.spec.num_players
        for action in moves[:5]:
            assert game.action_text_for(state, int(action), viewer).endswith(" ?") == expect_hidden
