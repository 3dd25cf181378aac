"""Rating ladders: every agent the suite ships, at stated budgets, rated together per game.

* :mod:`.roster`: who stands on each game's ladder (label -> agent spec with its budget), on the benchmark config;
  ``random`` is the anchor at 0.
* :mod:`.fit`: Bradley-Terry ratings on the Elo scale from pairwise results, stratified bootstrap intervals, and
  the rating of a new agent against fixed anchors.
* :mod:`.runs`: a ladder as a folder of resumable round logs, fitted from those logs alone into ``ratings.csv``,
  ``bootstrap.csv`` and ``ladder.png``; rating a new agent against a fitted ladder.

``python -m scripts.ladder`` is the command line. It sits on the apps rung of ``docs/design.md`` §1 (it reads the
benchmark's configs and builds agents of every family by name).
"""

from baselines.ladder.fit import LadderFit, NewRating, fit_ladder, rate_against
from baselines.ladder.roster import ANCHOR, CONFIGS, Roster, roster
from baselines.ladder.runs import PlaySettings, fit_folder, load_fit, play_ladder, rate_agent

__all__ = [
    "ANCHOR", "CONFIGS", "LadderFit", "NewRating", "PlaySettings", "Roster", "fit_folder", "fit_ladder", "load_fit",
    "play_ladder", "rate_against", "rate_agent", "roster",
]  # fmt: skip
