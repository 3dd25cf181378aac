"""Contract, hidden information, registry and agents of Gravwell (golden playthroughs: ``test_golden``)."""

from __future__ import annotations

import numpy as np
import pytest

import boardenvs
from boardenvs.games.gravwell import Gravwell
from boardenvs.testing import check_game


@pytest.mark.parametrize(
    "config",
    [{"num_players": 2}, {"num_players": 3}, {"num_players": 4}, {"inert_tractors": True},
     {"no_secrets": True, "hardcore": True, "num_players": 3}, {"max_plies": 50}],
)  # fmt: skip
def test_check_game(config: dict) -> None:
    check_game(Gravwell(**config), num_games=6)


def test_registered_with_presets() -> None:
    game = boardenvs.make_game("gravwell", num_players=3)
    assert game.spec.num_players == 3 and "paper_engine" in boardenvs.list_presets("gravwell")


def test_no_observation_or_event_reveals_a_commit_or_hidden_hand() -> None:
    game = Gravwell(num_players=3)
    rng = np.random.default_rng(5)
    s = game.initial_state(rng)
    while not game.is_terminal(s):
        s = game.apply(s, int(rng.choice(game.legal_actions(s))))
        for event in game.visible_events(s, list(s.events), 0):
            assert not (event.kind == "commit" and event.card >= 0)
        for player in range(3):
            obs = game.observe(s, player)
            for other in range(3):
                if other == player:
                    continue
                twin = s.copy()
                twin.hands = s.hands[:]
                twin.hands[other] = twin.known[other] & s.hands[other]  # forget the hidden cards
                twin.commits = [(c + 1) % 26 if (q == other and c >= 0) else c for q, c in enumerate(s.commits)]
                twin.stacks = tuple((u, -1) for u, _ in s.stacks)
                twin_obs = game.observe(twin, player)
                f = game.spec.field("hand_sizes")
                keep = np.ones(obs.shape, bool)
                keep[f.start : f.stop] = False
                assert np.array_equal(obs[keep], twin_obs[keep])


def _play(game: Gravwell, agents: list, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    s = game.initial_state(rng)
    while not game.is_terminal(s):
        p = s.current_player
        s = game.apply(s, agents[p].act(game, game.determinize(s, p, rng), p))
    return game.returns(s)


def test_decision_tree_beats_random_more_often_than_a_fair_share() -> None:
    # agents: imported only by their tests
    from baselines.games.gravwell import DecisionTreeAgent, RandomEmergencyStopAgent

    game = Gravwell(num_players=4)
    wins = sum(_play(game, [DecisionTreeAgent(i)] + [RandomEmergencyStopAgent(10 * i + k) for k in range(3)], i)[0] > 0
               for i in range(60))  # fmt: skip
    assert wins > 60 / 4


def test_random_no_stop_never_uses_the_emergency_stop() -> None:
    from baselines.games.gravwell import RandomNoStopAgent

    game = Gravwell(num_players=2)
    rng = np.random.default_rng(1)
    s, agent = game.initial_state(rng), RandomNoStopAgent(1)
    while not game.is_terminal(s):
        action = agent.act(game, s, s.current_player)
        assert action != game.stop_action
        s = game.apply(s, action)


def test_apply_shares_only_untouched_lists_and_copy_is_independent() -> None:
    game = Gravwell(num_players=2)
    s = game.initial_state(np.random.default_rng(2))
    after = game.apply(s, 0)
    assert after.hands is not s.hands and after.pos is s.pos  # a draft changes hands, not ships
    twin = after.copy()
    twin.pos[0], twin.hands[0], twin.stops[0] = 9, 0, False
    assert after.pos[0] == 0 and after.hands[0] != 0 and after.stops[0]
    assert [type(e).__name__ for e in after.events] == ["GravwellEvent"] and after.events[0].kind == "draft"
    assert after.events[0].ply == s.ply == after.ply - 1
    assert twin.events == after.events


def test_masks_and_legal_actions_are_shared_read_only_arrays_that_match() -> None:
    game = Gravwell(num_players=4)
    rng = np.random.default_rng(5)
    s = game.initial_state(rng)
    phases = set()
    while not game.is_terminal(s):
        mask, legal = game.legal_action_mask(s), game.legal_actions(s)
        assert legal.dtype == np.int64 and legal.tolist() == np.flatnonzero(mask).tolist()
        assert not mask.flags.writeable and not legal.flags.writeable
        with pytest.raises(ValueError):
            mask[0] = not mask[0]
        phases.add(s.phase)
        s = game.apply(s, int(rng.choice(legal)))
    assert phases == {0, 1, 2}
    assert not game.legal_action_mask(s).any() and game.legal_actions(s).size == 0
