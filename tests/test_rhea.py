"""BMRH (``baselines.search.rhea.RHEAAgent``): known answers, repair, budgets, every game, parsing of parameters."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from baselines.agent import RandomAgent
from baselines.arena import play_game
from baselines.games.splendor import BuyerAgent
from baselines.search.rhea import (
    PRESETS,
    RHEA_SEARCH_SPACE,
    SRH_SEARCH_SPACE,
    ActionBudget,
    BudgetSpent,
    RHEAAgent,
    SRHAgent,
    _Search,
    _SeedSearch,
    parse_rhea_params,
    seed_action,
)
from boardenvs import list_games, make_game
from boardenvs.registry import list_presets
from tests.toy_games import TicTacToeState

SMALL = {"quoridor": "small", "node_conquest": "small", "gravwell": "2p", "splendor": "2p"}
"""A quick preset per game (games not listed use their defaults)."""
FAST = {"budget": 60, "evaluations": 15, "opponent_model": "random"}


class CountingGame:
    """A game proxy that counts forward-model calls."""

    def __init__(self, game: Any) -> None:
        self.game, self.applies, self.determinizations = game, 0, 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)

    def apply(self, state: Any, action: int) -> Any:
        self.applies += 1
        return self.game.apply(state, action)

    def determinize(self, state: Any, player: int, rng: np.random.Generator) -> Any:
        self.determinizations += 1
        return self.game.determinize(state, player, rng)


def tictactoe_position(cells: str, to_move: int) -> TicTacToeState:
    """A board from 9 characters ``x``, ``o``, ``.``."""
    board = np.array([{"x": 0, "o": 1, ".": -1}[c] for c in cells], dtype=np.int8)
    return TicTacToeState(board, to_move, ply=int((board >= 0).sum()))


# -- known answers ------------------------------------------------------------------------------------
@pytest.mark.parametrize("length", [1, 2, 3])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_takes_the_immediate_win(length: int, seed: int) -> None:
    game = make_game("toy_tictactoe")
    state = tictactoe_position("xx.oo....", to_move=0)  # x wins at 2; o threatens 5
    agent = RHEAAgent(seed=seed, sequence_length=length, opponent_model="random")
    assert agent.act(game, state, 0) == 2


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_blocks_a_win_in_one_with_the_osla_opponent_model(seed: int) -> None:
    game = make_game("toy_tictactoe")
    state = tictactoe_position("xx..o....", to_move=1)  # x wins at 2 unless o blocks
    agent = RHEAAgent(seed=seed, sequence_length=2, opponent_model="osla", opponent_budget_share=0.01)
    assert agent.act(game, state, 1) == 2


def _scoring_position(seed: int) -> tuple[Any, Any]:
    """A Splendor position where the player to move can buy a card with points."""
    game = make_game("splendor")
    state = game.initial_state(np.random.default_rng(seed))
    buyer = BuyerAgent(seed)
    while not game.is_terminal(state):
        player = state.current_player
        gains = [game.scores(game.apply(state, int(a)))[player] - game.scores(state)[player]
                 for a in game.legal_actions(state)]  # fmt: skip
        if max(gains) > 0:
            return game, state
        state = game.apply(state, buyer.act(game, state, player))
    raise AssertionError("no scoring position in this game")


@pytest.mark.parametrize(
    "value", [{"value": "score"}, {"value": "score_diff"}, {"value": "ef", "ef_count": "amounts"}], ids=str
)
def test_takes_a_scoring_move_in_splendor(value: dict) -> None:
    game, state = _scoring_position(4)
    player = state.current_player
    agent = RHEAAgent(seed=0, sequence_length=1, evaluations=300, **value)
    action = agent.act(game, state, player)
    assert game.scores(game.apply(state, action))[player] > game.scores(state)[player]


# -- repair and plans ---------------------------------------------------------------------------------
def test_repair_never_returns_an_illegal_action() -> None:
    game = make_game("toy_tictactoe")
    state = tictactoe_position("xo.xo.o..", to_move=0)
    search = _Search(RHEAAgent(seed=0), game, state, 0)
    legal = set(game.legal_actions(state).tolist())
    for gene in [-1, 0, 1, 3, 4, 6, 2, 5, 7, 8, 99]:
        for avoid in [-1, 2, 5, 0]:
            assert search.repair(state, gene, avoid) in legal
    assert search.repair(state, 8, -1) == 8  # a legal gene is kept
    assert all(search.repair(state, 2, avoid=2) != 2 for _ in range(20))  # flipped where others exist


def test_played_plans_are_repaired_into_legal_sequences() -> None:
    game = make_game("toy_tictactoe")
    state = tictactoe_position("x...o....", to_move=0)
    agent = RHEAAgent(seed=3, sequence_length=3, opponent_model="nothing")
    search = _Search(agent, game, state, 0)
    plan = search.play([0, 4, 4], point=3, parent=None)  # every gene is an occupied cell
    replay = state
    for gene in plan.genes:
        assert game.legal_action_mask(replay)[gene]
        replay = game.apply(replay, gene)
        if not game.is_terminal(replay):
            replay = game.apply(replay, int(game.legal_actions(replay)[0]))  # "nothing" = lowest legal id


def test_flip_makes_the_mutated_gene_differ() -> None:
    game = make_game("toy_tictactoe")
    state = tictactoe_position(".........", to_move=0)
    search = _Search(RHEAAgent(seed=1, sequence_length=2), game, state, 0)
    for _ in range(30):
        child = search.play([4, 0], point=0, parent=[4, 0])
        assert child.genes[0] != 4


def test_exponential_decay_point_stays_in_the_plan_only_with_flip() -> None:
    game = make_game("toy_tictactoe")
    state = tictactoe_position(".........", to_move=0)
    flip = _Search(RHEAAgent(seed=0, mutation_style=2, exponential_decay=0.5, sequence_length=3), game, state, 0)
    plain = _Search(RHEAAgent(seed=0, mutation_style=2, exponential_decay=0.5, sequence_length=3,
                              flip_at_least_one=False), game, state, 0)  # fmt: skip
    assert {flip.mutation_point()[0] for _ in range(300)} <= {0, 1, 2}
    assert 3 in {plain.mutation_point()[0] for _ in range(300)}


def test_gaussian_point_is_clipped_into_the_plan() -> None:
    game = make_game("toy_tictactoe")
    state = tictactoe_position(".........", to_move=0)
    agent = RHEAAgent(seed=0, mutation_style=3, gaussian_mean=0.75, gaussian_std=2.0, sequence_length=4)
    points = {_Search(agent, game, state, 0).mutation_point()[0] for _ in range(200)}
    assert points <= {0, 1, 2, 3} and len(points) > 1


def test_shift_buffer_remembers_the_plan_and_reseed_forgets_it() -> None:
    game = make_game("toy_tictactoe")
    state = tictactoe_position(".........", to_move=0)
    agent = RHEAAgent(seed=0, sequence_length=3)
    agent.act(game, state, 0)
    assert len(agent._plans[0]) == 3 and agent._plans[0][-1] == -1
    agent.reseed(1)
    assert agent._plans == {}
    no_shift = RHEAAgent(seed=0, sequence_length=3, shift_buffer=False)
    no_shift.act(game, state, 0)
    assert no_shift._plans == {}


# -- budgets and hidden information -----------------------------------------------------------------
@pytest.mark.parametrize("budget", [1, 37, 1000])
def test_the_action_budget_bounds_forward_model_calls(budget: int) -> None:
    game = CountingGame(make_game("splendor"))
    state = game.initial_state(np.random.default_rng(0))
    agent = RHEAAgent(seed=0, budget=budget, evaluations=10**6, opponent_model="osla", sequence_length=3)
    action = agent.act(game, state, state.current_player)
    assert game.game.legal_action_mask(state)[action]
    assert 0 < game.applies <= budget


def test_hidden_information_is_determinized_per_evaluation_or_per_act() -> None:
    splendor = CountingGame(make_game("splendor"))
    state = splendor.initial_state(np.random.default_rng(0))
    RHEAAgent(seed=0, evaluations=20).act(splendor, state, state.current_player)
    assert splendor.determinizations == 21
    splendor.determinizations = 0
    RHEAAgent(seed=0, evaluations=20, determinize="act").act(splendor, state, state.current_player)
    assert splendor.determinizations == 0
    tictactoe = CountingGame(make_game("toy_tictactoe"))
    RHEAAgent(seed=0, evaluations=20).act(tictactoe, tictactoe_position(".........", 0), 0)
    assert tictactoe.determinizations == 0  # perfect information: the view itself


def test_seconds_budget_returns_a_legal_action() -> None:
    game = make_game("splendor")
    state = game.initial_state(np.random.default_rng(1))
    agent = RHEAAgent(seed=0, budget="0.02", budget_unit="seconds")
    assert game.legal_action_mask(state)[agent.act(game, state, state.current_player)]


# -- every game, reproducibility ----------------------------------------------------------------------
@pytest.mark.parametrize("name", list_games())
def test_plays_legal_games_in_every_registered_game(name: str) -> None:
    preset = SMALL.get(name)
    game = make_game(name, preset=preset if preset in list_presets(name) else None)
    agents = [RHEAAgent(seed=seat, **FAST) for seat in range(game.spec.num_players - 1)] + [RandomAgent(9)]
    record = play_game(game, agents, seed=1)
    assert record.plies > 0 and record.returns.shape == (game.spec.num_players,)


def test_four_player_splendor() -> None:
    game = make_game("splendor", preset="4p")
    agents = [RHEAAgent(seed=0, **FAST), RandomAgent(1), RHEAAgent(seed=2, preset="bmrh_r2", budget=60), RandomAgent(3)]
    record = play_game(game, agents, seed=5)
    assert record.plies > 0


def test_reproducible_for_a_fixed_seed() -> None:
    game = make_game("splendor", preset="rinascimento")
    records = [play_game(game, [RHEAAgent(seed=0, budget=60), RHEAAgent(seed=1, budget=60, value="ef")], 7)
               for _ in range(2)]  # fmt: skip
    assert records[0].actions == records[1].actions
    assert records[0].returns.tolist() == records[1].returns.tolist()


# -- parameters -----------------------------------------------------------------------------------------
def test_string_values_are_parsed() -> None:
    agent = RHEAAgent(
        sequence_length="3", shift_buffer="false", opponent_model="2", budget="500", exponential_decay="0.7",
        mutation_style="2", flip_at_least_one="T", value="ef", ef_weights="1, 0, 0, 0, -1", ef_w2="0.4",
    )  # fmt: skip
    p = agent.params
    assert (p.sequence_length, p.shift_buffer, p.opponent_model, p.budget) == (3, False, "osla", 500.0)
    assert (p.exponential_decay, p.mutation_style, p.flip_at_least_one) == (0.7, 2, True)
    assert agent.value_function.weights.tolist() == [1.0, 0.0, 0.4, 0.0, -1.0]
    assert RHEAAgent(opponent_model=1).params.opponent_model == "random"


def test_presets_and_the_search_space_are_valid() -> None:
    for name in PRESETS:
        parse_rhea_params(preset=name)
    r2 = RHEAAgent(preset="bmrh_r2", sequence_length=5).params
    assert (r2.sequence_length, r2.shift_buffer, r2.opponent_model) == (5, False, "random")
    for name, values in RHEA_SEARCH_SPACE.items():
        for value in values:
            parse_rhea_params(**{name: value})
            parse_rhea_params(**{name: str(value)})


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"sequence_length": 0}, "sequence_length must be an int in 1..1000"),
        ({"sequence_length": "two"}, "sequence_length must be an int"),
        ({"sequence_length": 2.5}, "sequence_length must be an int"),
        ({"evaluations": -1}, "evaluations must be an int"),
        ({"shift_buffer": "maybe"}, "shift_buffer must be a bool"),
        ({"mutation_style": 4}, "mutation_style must be an int in 0..3"),
        ({"opponent_model": "smart"}, r"opponent_model must be one of \['0/nothing', '1/random', '2/osla'\]"),
        ({"opponent_model": 3}, "opponent_model must be one of"),
        ({"opponent_budget_share": 1.5}, r"opponent_budget_share must be a number in \[0.0, 1.0\]"),
        ({"exponential_decay": 0}, r"exponential_decay must be a number in \(0.0, 1.0\]"),
        ({"gaussian_std": "0"}, "gaussian_std must be a number"),
        ({"gaussian_mean": "nan"}, "gaussian_mean must be a number"),
        ({"budget": 0}, "budget must be a number"),
        ({"budget": 0.5}, "budget must be >= 1 simulated action"),
        ({"budget_unit": "ms"}, r"budget_unit must be one of \['actions', 'seconds'\]"),
        ({"determinize": "never"}, "determinize must be one of"),
        ({"value": "win"}, r"value must be one of \['score_diff', 'score', 'ef'\]"),
        ({"value": "ef", "ef_mapping": "xy"}, "ef_mapping must be one of"),
        ({"value": "ef", "ef_degree": 4}, "ef_degree must be an int in 1..3"),
        ({"value": "ef", "ef_count": "sizes"}, r"ef_count must be one of \['events', 'amounts'\]"),
        ({"value": "ef", "ef_weights": "1,2"}, "ef_weights must have 5 values"),
        ({"value": "ef", "ef_weights": "1,a,2"}, "ef_weights must be a number"),
        ({"value": "ef", "ef_w5": 0.2}, r"ef_w5 is out of range.*ef_w0..ef_w4"),
        ({"preset": "best"}, "preset must be one of"),
        ({"foo": 1}, r"unknown RHEA parameter 'foo'; allowed: \["),
    ],
)
def test_bad_values_raise_naming_the_parameter(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        RHEAAgent(**kwargs)


def test_event_values_need_a_game_that_logs_events() -> None:
    game = make_game("toy_tictactoe")
    with pytest.raises(ValueError, match="needs state.events"):
        RHEAAgent(value="ef").act(game, tictactoe_position(".........", 0), 0)


def test_wrong_player_raises() -> None:
    game = make_game("toy_tictactoe")
    with pytest.raises(ValueError, match="not to move"):
        RHEAAgent().act(game, tictactoe_position(".........", 0), 1)


def test_budget_counter_stops_at_the_limit() -> None:
    budget = ActionBudget(3, "actions")
    for _ in range(3):
        budget.spend()
    with pytest.raises(BudgetSpent):
        budget.spend()
    assert budget.used == 3


# -- Seeding RHEA (SRH) ----------------------------------------------------------------------------------
def test_srh_is_the_srh_star_preset_by_default() -> None:
    p = SRHAgent(seed=0).params
    assert (p.genes, p.value, p.flip_at_least_one, p.mutation_rate) == ("seeds", "score", False, 0.9)
    assert (p.sequence_length, p.evaluations, p.shift_buffer, p.opponent_model) == (2, 200, True, "nothing")
    assert p.opponent_budget_share == 0.05 and SRHAgent(seed=0).name == "srh"
    assert SRHAgent(seed=0, sequence_length="5").params.sequence_length == 5
    for name, values in SRH_SEARCH_SPACE.items():
        for value in values:
            parse_rhea_params(preset="srh_r1", **{name: str(value)})


def test_srh_seed_genes_pick_a_legal_action_in_every_state() -> None:
    legal = np.array([3, 8, 11])
    assert [seed_action(legal, seed) for seed in (0, 1, 2, 3, 2**62 + 1)] == [3, 8, 11, 3, 11]
    game = make_game("splendor", preset="rinascimento")
    agent = SRHAgent(seed=0, budget=100)
    state = game.initial_state(np.random.default_rng(2))
    for _ in range(40):
        legal = game.legal_actions(state)
        for _ in range(5):
            assert seed_action(legal, agent.new_seed()) in set(legal.tolist())
        state = game.apply(state, seed_action(legal, agent.new_seed()))


def test_srh_mutation_redraws_genes_at_the_mutation_rate_plus_one_forced_with_flip() -> None:
    game = make_game("toy_tictactoe")
    state = tictactoe_position(".........", to_move=0)
    plan = [1, 2, 3, 4]

    def changed(**kwargs: Any) -> list[int]:
        search = _SeedSearch(SRHAgent(seed=0, sequence_length=4, **kwargs), game, state, 0)
        return [sum(a != b for a, b in zip(plan, search.mutate(plan))) for _ in range(200)]

    assert set(changed(mutation_rate=0.0, flip_at_least_one=False)) == {0}
    assert set(changed(mutation_rate=0.0, flip_at_least_one=True)) == {1}
    assert set(changed(mutation_rate=1.0)) == {4}
    assert 1.5 < np.mean(changed(mutation_rate=0.5)) < 2.5


def test_srh_reevaluates_the_kept_plan_against_every_mutant() -> None:
    splendor = CountingGame(make_game("splendor"))
    state = splendor.initial_state(np.random.default_rng(0))
    SRHAgent(seed=0, evaluations=20).act(splendor, state, state.current_player)
    assert splendor.determinizations == 40  # the parent and the mutant, every iteration


@pytest.mark.parametrize("budget", [1, 37, 1000])
def test_srh_action_budget_bounds_forward_model_calls(budget: int) -> None:
    game = CountingGame(make_game("splendor"))
    state = game.initial_state(np.random.default_rng(0))
    agent = SRHAgent(seed=0, budget=budget, evaluations=10**6, opponent_model="osla", sequence_length=3)
    action = agent.act(game, state, state.current_player)
    assert game.game.legal_action_mask(state)[action]
    assert game.applies <= budget


def test_srh_takes_a_scoring_move_in_splendor() -> None:
    game, state = _scoring_position(4)
    player = state.current_player
    agent = SRHAgent(seed=0, sequence_length=1, mutation_rate=1.0, evaluations=300, budget=5000)
    action = agent.act(game, state, player)
    assert game.scores(game.apply(state, action))[player] > game.scores(state)[player]


def test_srh_shift_buffer_keeps_the_seeds_shifted_by_one_decision() -> None:
    game = make_game("toy_tictactoe")
    state = tictactoe_position(".........", to_move=0)
    agent = SRHAgent(seed=0, sequence_length=3, evaluations=5)
    agent.act(game, state, 0)
    kept = agent._plans[0]
    assert len(kept) == 3 and all(0 <= seed < 2**63 for seed in kept)
    assert agent._start_plan(0) == kept
    no_shift = SRHAgent(seed=0, sequence_length=3, shift_buffer=False)
    no_shift.act(game, state, 0)
    assert no_shift._plans == {}


def test_srh_plays_legal_games_and_is_reproducible() -> None:
    game = make_game("splendor", preset="rinascimento")
    records = [play_game(game, [SRHAgent(seed=0, budget=60), RHEAAgent(seed=1, budget=60)], 7) for _ in range(2)]
    assert records[0].actions == records[1].actions and records[0].plies > 0


def test_bad_srh_values_raise_naming_the_parameter() -> None:
    with pytest.raises(ValueError, match=r"genes must be one of \['actions', 'seeds'\]"):
        SRHAgent(genes="cards")
    with pytest.raises(ValueError, match=r"mutation_rate must be a number in \[0.0, 1.0\]"):
        SRHAgent(mutation_rate=1.5)
