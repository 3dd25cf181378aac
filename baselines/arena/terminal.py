"""A game in the terminal: one person against agents, typing moves in the game's notation (``scripts/play.py``
is the command line).

Commands: ``help``, ``moves``, ``undo`` (takes back your last move and the replies to it), ``quit``.

Two rules keep ``undo`` from teaching you anything the game would not have shown you:

- **An undo redraws the hidden information.** The position you go back to is
  ``game.determinize(position_before_your_move, your_seat, rng)``: everything you cannot see there (the order of
  the decks, the opponents' face-down cards and pending secret choices) is dealt again at random, consistently
  with what you know. A card the undone move showed you (the top of a deck you reserved from, the face-down card
  of a Gravwell stack you drafted) is as likely to be anywhere unseen as any other card; what you see is exactly
  what you saw before the move. (In a game with perfect information nothing is hidden and nothing changes.)
- **Opponents do not re-roll their replies.** Each opponent decision is seeded from (session seed, ply, seat): the
  same position after the same move gets the same reply. After a redraw the opponents' own hidden cards may differ,
  and so may a reply that depends on them.

Because of the redraw, the final ``PlayResult.actions`` of a game with an undo may not replay from the seed's start.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from baselines.agent import Agent
from baselines.factory import make_agent
from boardenvs.core import Game
from boardenvs.registry import make_game

COMMANDS = {
    "help": "show this help and some legal moves",
    "moves": "list every legal move",
    "undo": "take back your last move and the replies to it (cards you cannot see are shuffled again)",
    "quit": "leave the game (also: exit, or end of input)",
}
HELP_MOVES_SHOWN = 12
REDRAW_STREAM = 1
"""Seed-sequence key of the generator that redraws hidden information at an undo: ``[seed, REDRAW_STREAM]``."""
DECISION_STREAM = 3
"""Seed-sequence key of one opponent decision: ``[seed, DECISION_STREAM, ply, seat]``."""


@dataclass
class PlayResult:
    """How a session ended.

    Attributes:
        finished: True if the game reached its end, False if the player quit.
        returns: final returns per seat (``None`` when the player quit).
        actions: the moves of the game as it stands at the end (undone moves excluded). After an undo in a game
            with hidden information the position was redrawn, so they may not replay from the seed's start.
    """

    finished: bool
    returns: np.ndarray | None
    actions: list[int]


class _Quit(Exception):
    """The player asked to leave."""


class PlaySession:
    """One human against agents; keeps the history so that moves can be taken back (see the module docstring for
    the two rules of ``undo``: hidden information is redrawn, opponents' replies are not re-rolled)."""

    def __init__(
        self,
        game: Game,
        human_seat: int,
        opponents: dict[int, Agent],
        seed: int,
        input_fn: Callable[[str], str],
        output: Callable[[str], Any],
    ) -> None:
        self.game, self.human_seat, self.opponents, self.seed = game, human_seat, opponents, seed
        self.redraw_rng = np.random.default_rng([seed, REDRAW_STREAM])
        self.states = [game.initial_state(np.random.default_rng(seed))]
        self.actions: list[int] = []
        self.input_fn, self.output = input_fn, output

    @property
    def state(self) -> Any:
        return self.states[-1]

    def run(self) -> PlayResult:
        """Play until the game ends or the player quits."""
        rivals = ", ".join(sorted({agent.name for agent in self.opponents.values()}))
        self.output(f"You play seat {self.human_seat} against {rivals}. Type 'help' for commands.")
        try:
            while not self.game.is_terminal(self.state):
                if self.state.current_player == self.human_seat:
                    self._human_turn()
                else:
                    self._agent_turn()
        except _Quit:
            self.output("Bye.")
            return PlayResult(False, None, list(self.actions))
        self._show_result()
        return PlayResult(True, self.game.returns(self.state), list(self.actions))

    def _push(self, action: int) -> None:
        self.states.append(self.game.apply(self.state, action))
        self.actions.append(action)

    def _agent_turn(self) -> None:
        player = self.state.current_player
        agent = self.opponents[player]
        rng = self.decision_rng(player)
        reseed = getattr(agent, "reseed", None)
        if callable(reseed):
            reseed(int(rng.integers(2**63 - 1)))
        action = agent.act(self.game, self.game.determinize(self.state, player, rng), player)
        shown = self.game.action_text_for(self.state, action, self.human_seat)
        self.output(f"{agent.name} (seat {player}) plays {shown}")
        self._push(action)

    def _human_turn(self) -> None:
        """Show the board as the human's seat sees it and read commands until one of them changes the position."""
        self.output(self.game.text_for(self.state, self.human_seat))
        while True:
            try:
                line = self.input_fn(f"your move (seat {self.human_seat})> ").strip()
            except EOFError:
                raise _Quit from None
            if self._handle(line):
                return

    def decision_rng(self, player: int) -> np.random.Generator:
        """The generator of ``player``'s decision now: seeded from (session seed, ply, seat), so the same position
        gets the same reply however often it is reached (it reseeds the agent and draws its view)."""
        return np.random.default_rng([self.seed, DECISION_STREAM, int(self.state.ply), player])

    def _handle(self, line: str) -> bool:
        """Carry out one input line; True when the position changed."""
        command = line.lower()
        if command in ("quit", "exit"):
            raise _Quit
        if command in ("help", "?", "moves"):
            self.output(self._help_text(every_move=command == "moves"))
            return False
        if command == "undo":
            return self._undo()
        try:
            action = self.game.parse_action(self.state, line)
        except ValueError as error:
            self.output(f"{error}. Try again, or type 'help'.")
            return False
        self._push(action)
        return True

    def _undo(self) -> bool:
        """Go back to just before the human's last move, its hidden information redrawn; False if there is none."""
        human_plies = [ply for ply, state in enumerate(self.states[:-1]) if state.current_player == self.human_seat]
        if not human_plies:
            self.output("Nothing to undo.")
            return False
        last = human_plies[-1]
        replies = len(self.actions) - last - 1
        before = self.states[last]
        del self.states[last:], self.actions[last:]
        self.states.append(self.game.determinize(before, self.human_seat, self.redraw_rng))
        redrawn = "" if self.game.spec.perfect_information else " The cards you cannot see were shuffled again."
        self.output(f"Took back your last move and {replies} repl{'y' if replies == 1 else 'ies'}.{redrawn}")
        return True

    def _help_text(self, every_move: bool) -> str:
        moves = [self.game.action_to_str(self.state, int(a)) for a in self.game.legal_actions(self.state)]
        shown = moves if every_move else moves[:HELP_MOVES_SHOWN]
        lines = ["Type a move in the game's notation, or a command:"]
        lines += [f"  {name:6} {meaning}" for name, meaning in COMMANDS.items()]
        more = "" if len(shown) == len(moves) else f" ... ({len(moves)} in all; 'moves' lists them)"
        lines.append(f"Legal moves: {' '.join(shown)}{more}")
        return "\n".join(lines)

    def _show_result(self) -> None:
        returns = self.game.returns(self.state)
        self.output(self.game.to_text(self.state))
        verdict = _verdict(returns, self.human_seat, self.game.is_truncated(self.state))
        self.output(f"Game over after {len(self.actions)} moves. {verdict} Returns: {np.round(returns, 3).tolist()}")


def _verdict(returns: np.ndarray, seat: int, truncated: bool) -> str:
    """A sentence about the result from the point of view of ``seat``."""
    if truncated:
        return "The game reached its length limit."
    best = returns.max()
    if returns[seat] < best:
        return "You lose."
    return "You win!" if (returns == best).sum() == 1 else "Draw."


def new_session(
    game_name: str,
    config: dict[str, Any],
    opponent: str,
    human_seat: int,
    seed: int,
    input_fn: Callable[[str], str],
    output: Callable[[str], Any],
) -> PlaySession:
    """A :class:`PlaySession` of ``game_name`` (with ``config``): the person in ``human_seat``, the agent
    ``opponent`` in every other seat (each seeded from ``seed``); ``ValueError`` for a seat the game lacks."""
    game = make_game(game_name, **config)
    num_players = game.spec.num_players
    if not 0 <= human_seat < num_players:
        raise ValueError(f"human_seat must be in 0..{num_players - 1}, got {human_seat}")
    seeds = np.random.SeedSequence([seed, 2]).generate_state(num_players)
    opponents = {
        seat: make_agent(opponent, game_name, seed=int(seeds[seat]))
        for seat in range(num_players)
        if seat != human_seat
    }
    return PlaySession(game, human_seat, opponents, seed, input_fn, output)
