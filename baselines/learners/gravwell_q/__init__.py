"""Tabular Q-learning agent for Gravwell, as §3.4 of seed 000 (Gravitas) describes it.

* **Card play.** State: the distance to the nearest opponent ship ahead and behind (hulks and ships in the
  Singularity, tile 0, are ignored; so are opponents on the agent's own tile, which only happens in the
  Singularity). Per direction 12 values: the exact distance 1..10, "a ship further than 10", "no ship on this
  side". 144 states, or 6 × 144 = 864 with the turn number. Actions: the 26 cards (only cards in hand are
  legal). Reward of a turn: the ship's movement ``l × d`` over the turn, multiplied by the negative factor
  ``γ`` when it went backwards (``reward_timing="turn"``), or 0 for turns 1-5 and the round's total
  movement (same factor) on turn 6 (``"round"``). Updates follow equation (6) with the next commit
  decision's legal cards as ``A``; a finished game is terminal (value 0).
* **Emergency Stop.** State ``(turn, direction, distance)``: 6 × 2 × 10 = 120 states (distance clipped to
  1..10; a move of 0 counts as forward 1). Actions: use / decline. Reward: ``-direction × distance`` when
  used, 0 when declined; the next ES decision of the same round is the next state (using the ES, the end of
  the round and the end of the game are terminal). ``use_stop=False`` (the paper's "disable ES") declines
  always.
* **Drafting** is not learned (the paper learns only card play and the ES): a uniformly random stack.

Exploration is Boltzmann (equation 5) with temperature ``T`` while training; a non-training agent plays
greedily (ties broken with its seeded generator). Only public facts of the view are used (ship tiles,
turn, the own hand and the own card about to resolve), so every determinization gives the same state.

Trained tables ship with the package (``models/gravwell_q_*.json`` in this package, written by
``python -m scripts.train_gravwell_q --export-json ...``): :class:`PretrainedQAgent` (registered as
``make_agent("qlearning", "gravwell")``) loads the one that matches the game's ``inert_tractors`` setting.

The modules: :mod:`.settings` (:class:`GravwellQSettings`), :mod:`.states` (the state indices), :mod:`.agent`
(:class:`GravwellQAgent`: acting and learning), :mod:`.files` (its files and the shipped tables),
:mod:`.pretrained` (:class:`PretrainedQAgent`), :mod:`.training` (:func:`learn`).
"""

from baselines.factory import register_agent
from baselines.learners.gravwell_q.agent import GravwellQAgent, boltzmann_choice, greedy_choice
from baselines.learners.gravwell_q.files import MODELS_DIR, SHIPPED_TABLES, TABLE_DECIMALS, shipped_table
from baselines.learners.gravwell_q.pretrained import PretrainedQAgent
from baselines.learners.gravwell_q.settings import REPRESENTATIONS, REWARD_TIMINGS, GravwellQSettings
from baselines.learners.gravwell_q.states import (
    SIGHT,
    STOP_STATES,
    nearest_opponents,
    pending_movement,
    play_state,
    state_144,
    state_864,
    stop_state,
)
from baselines.learners.gravwell_q.training import OPPONENTS, learn, train_game
from boardenvs.registry import register_opponent

__all__ = [
    "MODELS_DIR",
    "OPPONENTS",
    "REPRESENTATIONS",
    "REWARD_TIMINGS",
    "SHIPPED_TABLES",
    "SIGHT",
    "STOP_STATES",
    "TABLE_DECIMALS",
    "GravwellQAgent",
    "GravwellQSettings",
    "PretrainedQAgent",
    "boltzmann_choice",
    "greedy_choice",
    "learn",
    "nearest_opponents",
    "pending_movement",
    "play_state",
    "shipped_table",
    "state_144",
    "state_864",
    "stop_state",
    "train_game",
]

register_agent("qlearning", PretrainedQAgent, games=("gravwell",))
register_opponent("gravwell", "qlearning", PretrainedQAgent)
