"""Generic tabular Q-learning for every registered game (:class:`TabularQAgent`, :func:`train`).

A training run (its folder, resume, arena evaluation and curves) is :func:`.runs.run`, on the shared run skeleton
(:mod:`baselines.learners.runner`).

* **State.** The bytes of what the acting seat observes: ``game.observe(view, player).tobytes()`` (negative
  zeros made positive), where ``view`` is the seat's determinized view. Only what the seat may see enters the
  key, so hidden information never leaks into the table, and every determinization of one position gives the
  same key. Games whose observations are seat-relative (most are) share one table between seats.
* **Values.** ``dict[bytes, float64[num_actions]]``, each row created lazily (filled with ``initial_value``)
  the first time training meets its state.
* **Update.** Between two successive decisions of the learner in one seat (whatever other seats did in
  between, and however many times that seat moves in a row), ``Q(s, a) += α (γ · max_{a' legal in s'} Q(s', a')
  - Q(s, a))`` with no reward on the way; the seat's last decision of a game is updated toward its terminal
  ``game.returns`` (a truncated game ends the same way, with the returns the game gives it).
* **Exploration** while training is ε-greedy (optionally decayed linearly to ``epsilon_final`` over the
  training, :class:`baselines.schedules.LinearDecay`) or Boltzmann with temperature ``T``, both over the legal
  actions only. :class:`TabularQAgent` itself plays greedily over the legal actions (ties broken with its seeded
  generator); a state the table never met gets a uniformly random legal action.

:func:`train` puts a learner in rotating seats against opponents (or in every seat with ``opponents="self"``)
and evaluates it against an opponent every ``eval_every`` episodes. A table is saved as one ``.npz`` file that
also records the game (name, version, config) it was trained for; ``make_agent("tabular_q:table=<path.npz>",
game_name)`` loads it, and playing it in another game raises ``ValueError``.

The modules: :mod:`.settings` (:class:`TabularQSettings`), :mod:`.identity` (what a file records about its game),
:mod:`.table` (:class:`QTable` and its file), :mod:`.policy` (greedy, Boltzmann, ε-greedy), :mod:`.agent`
(:class:`TabularQAgent`), :mod:`.learner` (the updates, one training game), :mod:`.training` (:func:`train`).
"""

from baselines.learners.tabular_q.agent import TabularQAgent
from baselines.learners.tabular_q.identity import game_identity, game_identity_problem
from baselines.learners.tabular_q.learner import SeatLearner, play_training_episode, seat_outcome
from baselines.learners.tabular_q.policy import boltzmann_action, exploring_action, greedy_action
from baselines.learners.tabular_q.settings import EXPLORATIONS, TabularQSettings, as_settings
from baselines.learners.tabular_q.table import FORMAT, FORMAT_VERSION, QTable, observation_key
from baselines.learners.tabular_q.training import SELF_PLAY, QTrainer, TabularQPoint, opponent_seats, train

__all__ = [
    "EXPLORATIONS",
    "FORMAT",
    "FORMAT_VERSION",
    "SELF_PLAY",
    "QTable",
    "QTrainer",
    "SeatLearner",
    "TabularQAgent",
    "TabularQPoint",
    "TabularQSettings",
    "as_settings",
    "boltzmann_action",
    "exploring_action",
    "game_identity",
    "game_identity_problem",
    "greedy_action",
    "observation_key",
    "opponent_seats",
    "play_training_episode",
    "seat_outcome",
    "train",
]
