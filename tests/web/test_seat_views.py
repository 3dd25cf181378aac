"""What the arena sends a person's browser depends only on what that person's seat may see."""

from __future__ import annotations

import json

import numpy as np
import pytest

from baselines.web.requests import HUMAN
from baselines.web.sessions import Session
from baselines.web.views import seat_view
from boardenvs import make_game
from boardenvs.replay import setup_rng

HIDDEN = [
    ("splendor", {}),
    ("splendor", {"rinascimento": True, "num_players": 3}),
    ("gravwell", {"num_players": 2}),
    ("gravwell", {"num_players": 4}),
    ("battle_sheep", {"num_players": 2, "hidden_counts": True}),
    ("battle_sheep", {"num_players": 4, "hidden_counts": True, "teams": True}),
]


def random_history(game, seed: int) -> tuple[list, list[int]]:
    rng = np.random.default_rng(seed)
    states, actions = [game.initial_state(setup_rng(seed))], []
    while not game.is_terminal(states[-1]) and len(actions) < 400:
        action = int(rng.choice(game.legal_actions(states[-1])))
        actions.append(action)
        states.append(game.apply(states[-1], action))
    return states, actions


def session_at(game, states, actions, seat: int) -> Session:
    seats = tuple(HUMAN if other == seat else "random" for other in range(game.spec.num_players))
    return Session("s", game, seats, seed=0, worker=0, states=list(states), actions=list(actions))


@pytest.mark.parametrize(("name", "config"), HIDDEN)
def test_every_response_is_the_same_for_every_hidden_state_the_seat_cannot_tell_apart(name, config):
    game = make_game(name, **config)
    rng = np.random.default_rng(0)
    states, actions = random_history(game, seed=5)
    for ply in range(0, len(actions) + 1, max(1, len(actions) // 12)):
        for seat in range(game.spec.num_players):
            true_view = seat_view(session_at(game, states[: ply + 1], actions[:ply], seat), seat)
            resampled = [game.determinize(state, seat, rng) for state in states[: ply + 1]]
            other_view = seat_view(session_at(game, resampled, actions[:ply], seat), seat)
            assert json.dumps(true_view) == json.dumps(other_view), (name, ply, seat)


@pytest.mark.parametrize(("name", "config"), HIDDEN[:3])
def test_a_seat_view_differs_from_the_spectators_where_something_is_hidden(name, config):
    game = make_game(name, **config)
    states, actions = random_history(game, seed=2)
    differing = 0
    for ply in range(len(actions) + 1):
        session = session_at(game, states[: ply + 1], actions[:ply], 0)
        differing += seat_view(session, 0)["svg"] != seat_view(session, None)["svg"]
    assert differing > 0


def test_a_seat_view_never_names_the_seed_or_the_state():
    game = make_game("splendor")
    states, actions = random_history(game, seed=1)
    view = seat_view(session_at(game, states[:5], actions[:4], 0), 0)
    assert not {"seed", "state", "states", "deck", "decks"} & set(view)
