"""Conformance checker shipped with the package: ``check_game(game)`` (``docs/design.md`` §5.1).

Plays seeded random games and checks every promise of the game contract. Raises
:class:`ContractError` with the game, seed and ply of the first violation.
"""

from __future__ import annotations

import pickle
from dataclasses import dataclass
from xml.etree import ElementTree

import numpy as np

from boardenvs.core import Game, Symmetry


class ContractError(AssertionError):
    """A game broke the contract of ``boardenvs.core.Game``."""


@dataclass
class CheckReport:
    """What ``check_game`` exercised."""

    games: int = 0
    plies: int = 0
    truncated_games: int = 0
    max_plies: int = 0


def check_game(game: Game, num_games: int = 20, seed: int = 0) -> CheckReport:
    """Play ``num_games`` seeded random games and check the contract at every position.

    Checks: mask shape/dtype and non-emptiness, ``apply`` never mutates (every earlier state's
    ``key()`` is unchanged), determinism (same seed and actions give the same keys), observation
    shape/dtype/bounds and field layout, no hidden-information leak through ``determinize``
    (observations and ``text_for``), determinized views that are legal states (hidden-information games: the
    player to move has a legal action), termination within ``spec.max_game_length``, returns
    shape/range/zero-sum, pickling, the notation round trip of ``action_to_str``/``parse_action``, the codec
    round trip ``encode(state, decode(state, a)) == a``, ``ply`` counting every ``apply``, and that every
    declared symmetry commutes with the rules (:func:`check_symmetry`), and the SVG picture (well-formed, click targets
    only on legal actions, each seat's picture unchanged by ``determinize``; every fifth ply).
    """
    _check_spec(game)
    report = CheckReport()
    for index in range(num_games):
        game_seed = seed + index
        keys, actions = _play_and_check(game, game_seed, report)
        _check_replay(game, game_seed, actions, keys)
    _expect(pickle.loads(pickle.dumps(game)) == game, game, "the game object does not survive pickling")
    return report


def _expect(condition: bool, game: Game, message: str, where: str = "") -> None:
    if not condition:
        raise ContractError(f"{game!r}{' ' + where if where else ''}: {message}")


def _check_spec(game: Game) -> None:
    spec = game.spec
    _expect(spec.num_players >= 1 and spec.num_actions >= 1, game, "spec needs players and actions")
    _expect(spec.max_game_length >= 1, game, "spec.max_game_length must be positive")
    _expect(spec.observation_kind in ("planes", "vector"), game, "observation_kind is planes or vector")
    covered = np.zeros(spec.observation_shape[0], dtype=int)
    for f in spec.observation_fields:
        _expect(0 <= f.start < f.stop <= spec.observation_shape[0], game, f"field {f.name} out of range")
        _expect(f.low <= f.high, game, f"field {f.name} has low > high")
        covered[f.start : f.stop] += 1
    _expect(bool(np.all(covered == 1)), game, "observation fields must tile the first axis exactly once")


def _play_and_check(game: Game, seed: int, report: CheckReport) -> tuple[list[bytes], list[int]]:
    rng = np.random.default_rng(seed)
    state = game.initial_state(rng)
    states, keys, actions = [state], [state.key()], []
    while True:
        where = f"seed {seed} ply {len(actions)}"
        _check_position(game, state, rng, where)
        action = None if game.is_terminal(state) else int(rng.choice(game.legal_actions(state)))
        for symmetry in game.symmetries:
            check_symmetry(game, symmetry, state, action, where)
        if action is None:
            break
        state = game.apply(state, action)
        actions.append(action)
        _expect(state.ply == states[-1].ply + 1, game, "apply must count one ply", where)
        _expect(keys[-1] == states[-1].key(), game, "apply mutated its input state", where)
        states.append(state)
        keys.append(state.key())
        _expect(len(actions) <= game.spec.max_game_length, game, "game runs past max_game_length", where)
    _expect(all(s.key() == k for s, k in zip(states, keys)), game, "an earlier state changed", f"seed {seed}")
    report.games += 1
    report.plies += len(actions)
    report.max_plies = max(report.max_plies, len(actions))
    report.truncated_games += int(game.is_truncated(state))
    return keys, actions


def _check_position(game: Game, state, rng: np.random.Generator, where: str) -> None:
    spec = game.spec
    terminal = game.is_terminal(state)
    mask = game.legal_action_mask(state)
    _expect(mask.dtype == np.bool_ and mask.shape == (spec.num_actions,), game, "mask must be bool[num_actions]", where)
    _expect(bool(mask.any()) != terminal, game, "mask must be non-empty iff the game is not terminal", where)
    legal = game.legal_actions(state)
    _expect(np.array_equal(legal, np.flatnonzero(mask)), game, "legal_actions must list the mask's true ids", where)
    if not terminal:
        _expect(0 <= state.current_player < spec.num_players, game, "current_player out of range", where)
        _check_notation(game, state, mask, where)
    _check_returns(game, state, terminal, where)
    for player in range(spec.num_players):
        _check_observation(game, state, player, rng, where)
    if state.ply % PICTURE_EVERY == 0 or terminal:
        _check_picture(game, state, mask, rng, where)
    restored = pickle.loads(pickle.dumps(state))
    _expect(restored.key() == state.key(), game, "state does not survive pickling", where)
    _expect(restored.copy().key() == state.key(), game, "copy() changes the key", where)
    _expect(isinstance(game.to_text(state), str), game, "to_text must return str", where)


def _check_notation(game: Game, state, mask: np.ndarray, where: str) -> None:
    for action in np.flatnonzero(mask)[:8]:
        move = game.decode(state, int(action))
        _expect(game.encode(state, move) == action, game, f"encode(decode({action})) gives another id", where)
    names = [game.action_to_str(state, int(a)) for a in np.flatnonzero(mask)]
    _expect(len(set(names)) == len(names), game, f"two legal actions share a name: {names}", where)
    for action in np.flatnonzero(mask)[:8]:
        text = game.action_to_str(state, int(action))
        _expect(game.parse_action(state, text) == action, game, f"parse_action({text!r}) != {action}", where)


def _check_returns(game: Game, state, terminal: bool, where: str) -> None:
    returns = game.returns(state)
    n = game.spec.num_players
    _expect(returns.dtype == np.float32 and returns.shape == (n,), game, "returns must be float32[n]", where)
    _expect(bool(np.all((returns >= -1) & (returns <= 1))), game, "returns must lie in [-1, 1]", where)
    if not terminal:
        _expect(not returns.any(), game, "returns must be zero before the end", where)
    elif game.spec.zero_sum:
        _expect(abs(float(returns.sum())) < 1e-5, game, f"zero-sum game returned {returns}", where)
    _expect(game.scores(state).shape == (n,), game, "scores must have one entry per player", where)


def _check_observation(game: Game, state, player: int, rng: np.random.Generator, where: str) -> None:
    spec = game.spec
    obs = game.observe(state, player)
    place = f"{where} player {player}"
    _expect(obs.dtype == np.float32 and obs.shape == spec.observation_shape, game, "bad observation shape/dtype", place)
    for f in spec.observation_fields:
        part = obs[f.start : f.stop]
        _expect(bool(np.all((part >= f.low) & (part <= f.high))), game, f"field {f.name} out of bounds", place)
    _expect(obs is not game.observe(state, player), game, "observe must return a fresh array", place)
    key = state.key()
    view = game.determinize(state, player, rng)
    _expect(state.key() == key, game, "determinize mutated the true state", place)
    unchanged = np.array_equal(game.observe(view, player), obs)
    _expect(unchanged, game, "observation changes under determinize (leak)", place)
    same_text = game.text_for(view, player) == game.text_for(state, player)
    _expect(same_text, game, "text_for changes under determinize (a human would see hidden information)", place)
    same_player = view.current_player == state.current_player
    _expect(same_player, game, "determinize changed the player to move", place)
    if not game.spec.perfect_information:
        _check_view_is_legal(game, state, view, place)
    if player == state.current_player:
        same_mask = np.array_equal(game.legal_action_mask(view), game.legal_action_mask(state))
        _expect(same_mask, game, "determinize changed the mover's legal actions", place)


PICTURE_EVERY = 5
"""``render_svg`` is checked at every fifth ply (and at the end): drawing costs more than the rest of a check."""


def _check_picture(game: Game, state, mask: np.ndarray, rng: np.random.Generator, where: str) -> None:
    """The SVG picture parses, its click targets hold only legal actions of the player to move, and each seat's
    picture is the same for every determinization of the state (what a seat cannot see is not drawn)."""
    targets = _svg_targets(game, game.render_svg(state, None, mask if mask.any() else None), where)
    _expect(targets <= set(np.flatnonzero(mask).tolist()), game, f"SVG targets of illegal actions {targets}", where)
    _expect(not _svg_targets(game, game.render_svg(state), where), game, "SVG targets without a mask", where)
    for player in range(game.spec.num_players):
        view = game.determinize(state, player, rng)
        same = game.render_svg(view, player) == game.render_svg(state, player)
        _expect(same, game, "render_svg(state, seat) changes under determinize (leak)", f"{where} player {player}")


def _svg_targets(game: Game, svg: str, where: str) -> set[int]:
    try:
        root = ElementTree.fromstring(svg)
    except ElementTree.ParseError as error:
        raise ContractError(f"{game!r} {where}: render_svg is not well-formed XML: {error}") from None
    actions: set[int] = set()
    for element in root.iter():
        if "data-actions" in element.attrib:
            actions.update(int(a) for a in element.attrib["data-actions"].split())
    return actions


def _check_view_is_legal(game: Game, state, view, place: str) -> None:
    """A determinized view of an unfinished game is a legal state: its player to move (the true one, checked
    before) has a legal action. Hidden-information games only; perfect-information views are copies."""
    if not game.is_terminal(state):
        movable = bool(game.legal_action_mask(view).any())
        _expect(movable, game, "determinize gave the player to move no legal action (not a legal state)", place)


def check_symmetry(game: Game, symmetry: Symmetry, state, action: int | None, where: str = "") -> None:
    """Check that ``symmetry`` commutes with the rules at ``state`` and with the legal ``action`` (if any).

    The transformed state has the transformed mover, the permuted mask, the transformed observation of every
    seat and the permuted returns; transforming then playing the transformed action equals playing then
    transforming. ``ContractError`` otherwise.
    """
    place = f"{where} symmetry {symmetry.name}"
    key = state.key()
    image = symmetry.state(state)
    _expect(state.key() == key, game, "the symmetry mutated the state", place)
    _expect(image.current_player == symmetry.mover_of(state), game, "the mover is not the mover's image", place)
    mask = game.legal_action_mask(state)
    moved = symmetry.action_values_of(np.asarray(mask))
    _expect(np.array_equal(game.legal_action_mask(image), moved), game, "the mask does not permute", place)
    for player in range(game.spec.num_players):
        expected = symmetry.observation(game.observe(state, player))
        seen = game.observe(image, symmetry.players[player])
        _expect(np.array_equal(seen, expected), game, f"player {player}'s observation does not transform", place)
    returns = symmetry.seat_values_of(game.returns(state))
    _expect(np.array_equal(game.returns(image), returns), game, "the returns do not permute", place)
    if action is not None:
        after = game.apply(image.copy(), int(symmetry.actions[action])).key()
        played = game.apply(state.copy(), action)  # a copy: mutation is the main loop's check, not this one's
        _expect(after == symmetry.state(played).key(), game, "apply does not commute", place)


def _check_replay(game: Game, seed: int, actions: list[int], keys: list[bytes]) -> None:
    state = game.initial_state(np.random.default_rng(seed))
    _expect(state.key() == keys[0], game, "initial_state is not deterministic", f"seed {seed}")
    for ply, action in enumerate(actions):
        state = game.apply(state, action)
        _expect(state.key() == keys[ply + 1], game, "apply is not deterministic", f"seed {seed} ply {ply + 1}")
