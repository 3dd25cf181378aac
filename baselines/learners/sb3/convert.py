"""Converting a trusted SB3 zip to the safe format, and checking that the converted policy plays as the zip does.

:func:`convert_zip` loads a zip with SB3, which unpickles it and so runs any code its author put in it: it is for
zips you trust (your own runs, the package's), and says so on stderr. It writes the safe files next to the zip (or at
``out``): ``<stem>.pt`` with the policy's tensors and ``<stem>.json`` with the zip's card and the description of the
network (:mod:`baselines.learners.sb3.safe`), then loads them back the safe way and compares the two policies on
positions of seeded random games (:func:`compare_agents`): the best legal action, every legal action's score (PPO's
logit, DQN's Q-value) and, for PPO, the masked policy's probabilities. ``scripts/convert_sb3.py`` is the command line.

Example:
    >>> written, agreement = convert_zip("runs/q5/model.zip")  # doctest: +SKIP
    >>> agreement.identical  # doctest: +SKIP
    True
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from baselines.learners.sb3.agent import SB3Agent
from baselines.learners.sb3.loading import load_model
from baselines.learners.sb3.model_files import model_stem, zip_path
from baselines.learners.sb3.saving import write_safe_files
from boardenvs.core import Game
from boardenvs.observations import encode_observation


@dataclass(frozen=True)
class Agreement:
    """How alike two policies play on the same positions.

    Attributes:
        positions: Positions compared.
        same_actions: Positions where both choose the same best legal action.
        max_score_difference: The largest difference of a legal action's score (PPO's logit, DQN's Q-value).
        max_probability_difference: PPO: the largest difference of a legal action's probability under the masked
            policy (0 for DQN).
    """

    positions: int
    same_actions: int
    max_score_difference: float
    max_probability_difference: float

    @property
    def identical(self) -> bool:
        """Whether every choice and every score agree exactly."""
        return self.same_actions == self.positions and self.max_score_difference == 0.0


def sample_positions(game: Game, count: int, seed: int = 0) -> list[tuple[Any, int]]:
    """``count`` non-terminal positions ``(state, player to move)`` of random games seeded by ``seed``."""
    rng = np.random.default_rng(seed)
    positions: list[tuple[Any, int]] = []
    while len(positions) < count:
        state = game.initial_state(rng)
        while not game.is_terminal(state) and len(positions) < count:
            positions.append((state, int(state.current_player)))
            state = game.apply(state, int(rng.choice(np.flatnonzero(game.legal_action_mask(state)))))
    return positions


def compare_agents(first: SB3Agent, second: SB3Agent, game: Game, positions: int = 200, seed: int = 0) -> Agreement:
    """Compare the choices, scores and (PPO) probabilities of two agents on ``positions`` positions of ``game``."""
    same, score_gap, probability_gap = 0, 0.0, 0.0
    for state, player in sample_positions(game, positions, seed):
        mask = np.array(game.legal_action_mask(state), dtype=bool)
        legal = np.flatnonzero(mask)
        observation = encode_observation(game, state, player, "array", mask)
        scores = [agent.action_scores(observation)[legal].astype(np.float64) for agent in (first, second)]
        same += int(np.argmax(scores[0]) == np.argmax(scores[1]))
        score_gap = max(score_gap, float(np.max(np.abs(scores[0] - scores[1]))))
        if first.algo == "ppo":
            probabilities = [np.exp(row - row.max()) / np.exp(row - row.max()).sum() for row in scores]
            probability_gap = max(probability_gap, float(np.max(np.abs(probabilities[0] - probabilities[1]))))
    return Agreement(positions, same, score_gap, probability_gap)


def convert_zip(
    model: str | Path, out: str | Path = "", game: Game | None = None, positions: int = 200, seed: int = 0
) -> tuple[Path, Agreement | None]:
    """Write the safe files of the trusted SB3 zip ``model`` and check them against it.

    Args:
        model: The zip (unpickled: only one you trust).
        out: Where to write (``<out>.pt`` and ``<out>.json``, any suffix dropped); empty: next to the zip.
        game: The game it plays; default: its card's (a zip saved without a card needs it).
        positions: Positions on which the safe policy must play as the zip does (0: no check).
        seed: Seed of the random games the positions come from.

    Returns:
        The ``.pt`` written, and the :class:`Agreement` (``None`` without a check).

    Raises:
        FileNotFoundError: no such zip.
        ValueError: a damaged zip, a model that does not fit ``game``, a zip without a card and no ``game``, a policy
            the safe format cannot rebuild, or a converted policy that plays differently (all named).
    """
    source = zip_path(model)
    print(
        f"unpickling {str(source)!r} to convert it: loading an SB3 zip runs any code its author put in it; it is "
        "trusted because you asked to convert it",
        file=sys.stderr,
    )
    trained, card = load_model(source, game, trusted=True)
    if not card.game:
        raise ValueError(f"{str(source)!r} has no model card naming its game: give the game it plays")
    target = model_stem(out) if str(out) else model_stem(source)
    written = write_safe_files(trained, target, card)
    played = game if game is not None else card.make_game()
    converted = SB3Agent.load(written, played)
    if positions <= 0:
        return written, None
    agreement = compare_agents(SB3Agent(trained, played), converted, played, positions, seed)
    if not agreement.identical:
        raise ValueError(f"the safe model {str(written)!r} does not play as {str(source)!r}: {agreement}")
    return written, agreement


__all__ = ["Agreement", "compare_agents", "convert_zip", "sample_positions"]
