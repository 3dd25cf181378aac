"""Tests of the neuro-evolution Gravwell agent (seed 000 §3.3), its evolution and its script."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from baselines.arena import play_game
from baselines.factory import make_agent
from baselines.games.gravwell import RandomEmergencyStopAgent
from baselines.learners.neuroevolution import (
    NUM_INPUTS,
    NUM_OUTPUTS,
    EvolutionSettings,
    Network,
    NeuroevolutionAgent,
    evolve,
    input_names,
    load_network,
    mutate,
    network_inputs,
    save_network,
    score_network,
    shipped_network,
)
from boardenvs.games.gravwell import Gravwell
from boardenvs.games.gravwell.cards import TYPES, VALUES
from scripts import evolve_gravwell

CONFIGS = [
    {"num_players": 2},
    {"num_players": 3, "no_secrets": True},
    {"num_players": 4, "inert_tractors": True},
    {"num_players": 4, "hardcore": True},
]


def _slot_network(slot_input: int) -> Network:
    """Every output reads input ``slot_input`` of its own slot: slot k's preference is its card's part."""
    return Network((), tuple(3 * slot + slot_input for slot in range(NUM_OUTPUTS)))


def test_inputs_are_hand_cards_own_tile_and_relative_tiles() -> None:
    pos = [10, 14, 3, 20, 36, 26]  # four players, then the two hulks
    values = network_inputs(pos, [2, 7], player=1, num_players=4)
    assert len(values) == NUM_INPUTS == len(input_names())
    assert values[:6] == [3.0, VALUES[2], TYPES[2] + 1.0, 8.0, VALUES[7], TYPES[7] + 1.0]
    assert values[6:18] == [0.0] * 12  # empty hand slots
    assert values[18] == 14.0  # own tile
    assert values[19:22] == [3 - 14, 20 - 14, 10 - 14]  # the others in turn order after player 1
    assert values[22:24] == [36 - 14, 26 - 14]


def test_inputs_of_absent_ships_and_hulks_are_zero() -> None:
    values = network_inputs([5, 9, 36], [0], player=0, num_players=2)
    assert values[19:] == [4.0, 0.0, 0.0, 31.0, 0.0]


def test_the_card_with_the_highest_preference_is_chosen_among_the_hand() -> None:
    by_power = _slot_network(1)
    inputs = network_inputs([0, 0, 36], [0, 3, 5], 0, 2)
    powers = [VALUES[0], VALUES[3], VALUES[5]]
    assert by_power.choose(inputs, 3) == int(np.argmax(powers))
    assert by_power.choose(inputs, 1) == 0  # only the first slot holds a card


def test_ties_go_to_the_earlier_card_and_non_numbers_rank_last() -> None:
    network = Network((("subtract", 0, 0), ("multiply", 24, 18)), (24, 25, 24, 24, 24, 24))
    assert network.choose([1.0] * NUM_INPUTS, 3) == 0  # all zero: the first card
    inputs = [1.0] * NUM_INPUTS
    inputs[18] = float("inf")
    network = Network((("multiply", 18, 23), ("subtract", 24, 24)), (25, 0, 0, 0, 0, 0))  # inf - inf = NaN
    assert network.choose(inputs, 2) == 1


def test_nodes_add_subtract_and_multiply_earlier_nodes() -> None:
    network = Network((("add", 0, 1), ("subtract", 24, 2), ("multiply", 25, 3)), (24, 25, 26, 0, 1, 2))
    inputs = [float(index + 1) for index in range(NUM_INPUTS)]
    assert network.preferences(inputs) == [3.0, 0.0, 0.0, 1.0, 2.0, 3.0]


@pytest.mark.parametrize(
    ("nodes", "outputs", "match"),
    [
        ((("divide", 0, 1),), (0,) * 6, "operation"),
        ((("add", 0, 24),), (0,) * 6, "ids must be below 24"),
        ((), (0,) * 5, "outputs must hold 6"),
        ((), (0, 0, 0, 0, 0, 24), "past the network"),
    ],
)
def test_malformed_networks_are_refused(nodes, outputs, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        Network(nodes, outputs)


def test_the_initial_network_wires_every_output_to_an_input() -> None:
    network = Network.initial(np.random.default_rng(3))
    assert network.nodes == () and all(0 <= output < NUM_INPUTS for output in network.outputs)


def test_mutations_grow_and_shrink_networks_that_stay_feed_forward() -> None:
    rng = np.random.default_rng(0)
    network = Network.initial(rng)
    sizes = []
    for _ in range(600):
        network = mutate(network, rng)  # the constructor checks that every node reads earlier ids only
        sizes.append(network.size())
        reachable = set()
        for output in network.outputs:
            stack = [output]
            while stack:
                node = stack.pop()
                reachable.add(node)
                if node >= NUM_INPUTS:
                    stack.extend(network.nodes[node - NUM_INPUTS][1:])
        assert all(NUM_INPUTS + index in reachable for index in range(network.size()))  # no dead nodes kept
    assert max(sizes) >= 5 and any(later < earlier for earlier, later in zip(sizes, sizes[1:]))


def test_adding_a_node_puts_it_between_the_output_and_its_old_node() -> None:
    network = Network((), (3, 4, 5, 6, 7, 8))
    grown = [mutate(network, np.random.default_rng(seed)) for seed in range(40)]
    added = [child for child in grown if child.size() == 1]
    assert added
    for child in added:
        changed = [index for index in range(NUM_OUTPUTS) if child.outputs[index] != network.outputs[index]]
        assert len(changed) == 1 and child.outputs[changed[0]] == NUM_INPUTS
        assert network.outputs[changed[0]] in child.nodes[0][1:]


def test_deleting_a_hidden_node_reconnects_its_readers_to_its_arguments() -> None:
    network = Network((("add", 1, 2), ("multiply", 24, 3)), (25, 0, 0, 0, 0, 0))
    results = [mutate(network, np.random.default_rng(seed)) for seed in range(200)]
    single = [child for child in results if child.size() == 1 and child.nodes[0][0] == "multiply"]
    assert single  # the "add" node was deleted: "multiply" now reads one of its arguments
    assert all(child.nodes[0][1] in (1, 2) and child.nodes[0][2] == 3 for child in single)


def test_evolution_is_reproducible_and_keeps_the_best_candidate() -> None:
    settings = EvolutionSettings(generations=3, start_runs=6, num_players=2, seed=5)
    network, history = evolve(settings)
    again, history_again = evolve(settings)
    assert network == again and history == history_again
    assert [row.generation for row in history] == [0, 1, 2] and all(row.runs >= 6 for row in history)
    game = Gravwell(num_players=2)
    from baselines.arena import game_seeds

    seeds = game_seeds(123, 8)
    assert score_network(game, network, seeds) == score_network(game, network, seeds)  # pre-seeded: no noise


def test_score_is_wins_plus_mean_final_tile_over_54() -> None:
    game = Gravwell(num_players=2)
    score, wins, mean_tile = score_network(game, _slot_network(1), [11, 12, 13, 14])
    assert 0 <= wins <= 4 and 0 <= mean_tile <= 54
    assert score == pytest.approx(wins + mean_tile / 54)


@pytest.mark.parametrize(
    ("field", "value"), [("generations", 0), ("children", 0), ("start_runs", 0), ("max_runs", 3), ("num_players", 5)]
)
def test_bad_evolution_settings_name_the_field(field: str, value: int) -> None:
    with pytest.raises(ValueError, match=field):
        EvolutionSettings(**{field: value})


@pytest.mark.parametrize("config", CONFIGS, ids=lambda config: "-".join(f"{k}={v}" for k, v in config.items()))
def test_the_agent_plays_every_config_to_the_end_and_never_uses_the_stop(config: dict) -> None:
    game = Gravwell(**config)
    agent = NeuroevolutionAgent(0, _slot_network(0))
    others = [RandomEmergencyStopAgent(seat) for seat in range(1, game.n)]
    own = []
    for seed in range(3):
        record = play_game(game, [agent, *others], seed)
        assert record.plies > 0 and any(record.returns)
        own += [action for action, player in zip(record.actions, record.players) if player == 0]
    assert game.stop_action not in own  # offered stops are all declined (stop_action + 1)
    assert game.stop_action + 1 in own or config.get("hardcore")


def test_the_agent_reads_only_its_hand_and_public_tiles() -> None:
    game = Gravwell(num_players=3)
    rng = np.random.default_rng(2)
    state = game.initial_state(rng)
    agent = NeuroevolutionAgent(0, Network((("multiply", 0, 19), ("add", 24, 1)), (25, 4, 7, 10, 13, 16)))
    checked = 0
    while not game.is_terminal(state) and checked < 40:
        player = state.current_player
        if state.phase == 1:  # COMMIT
            choices = {agent.act(game, game.determinize(state, player, rng), player) for _ in range(4)}
            assert len(choices) == 1
            checked += 1
        legal = game.legal_actions(state)
        state = game.apply(state, int(legal[rng.integers(len(legal))]))
    assert checked > 10


def test_save_and_load_round_trip_and_errors(tmp_path: Path) -> None:
    network = Network((("add", 0, 1),), (24, 1, 2, 3, 4, 5))
    path = save_network(network, tmp_path / "net.json", {"generations": 2})
    assert load_network(path) == network
    assert json.loads(path.read_text())["inputs"] == input_names()
    with pytest.raises(FileNotFoundError, match="network"):
        load_network(tmp_path / "missing.json")
    (tmp_path / "bad.json").write_text('{"nodes": []}')
    with pytest.raises(ValueError, match="not a saved Gravwell network"):
        load_network(tmp_path / "bad.json")
    with pytest.raises(ValueError, match="network must be"):
        NeuroevolutionAgent(0, 42)  # type: ignore[arg-type]


@pytest.mark.parametrize("inert", [False, True])
def test_make_agent_plays_the_shipped_network_of_the_game(inert: bool) -> None:
    agent = make_agent("neuroevolution", "gravwell", 0)
    assert isinstance(agent, NeuroevolutionAgent) and agent.network is None
    game = Gravwell(num_players=4, inert_tractors=inert)
    record = play_game(game, [agent, *(RandomEmergencyStopAgent(seat) for seat in (1, 2, 3))], seed=7)
    assert record.plies > 0 and agent.loaded_for is inert and agent.network == shipped_network(inert)
    assert agent.network.size() >= 1


def test_make_agent_takes_a_network_file(tmp_path: Path) -> None:
    path = save_network(_slot_network(1), tmp_path / "net.json")
    agent = make_agent(f"neuroevolution:network={path}", "gravwell", 0)
    assert agent.network == _slot_network(1)


def test_script_writes_its_files_and_a_resumed_run_equals_a_straight_one(tmp_path: Path) -> None:
    def args(out: Path, generations: int, **changes) -> evolve_gravwell.Args:
        settings = EvolutionSettings(generations=generations, start_runs=4, num_players=2, seed=1)
        return evolve_gravwell.Args(settings, out=str(out), progress=False, **changes)

    evolve_gravwell.main(args(tmp_path / "a", 2))
    resumed = evolve_gravwell.main(args(tmp_path / "a", 4, resume=True))
    straight = evolve_gravwell.main(args(tmp_path / "b", 4, export_json=str(tmp_path / "x.json")))
    assert resumed.network == straight.network and resumed.history == straight.history
    assert (tmp_path / "a" / "history.csv").read_text() == (tmp_path / "b" / "history.csv").read_text()
    assert (tmp_path / "b" / "evolution.png").exists() and load_network(tmp_path / "x.json") == straight.network
    with pytest.raises(FileExistsError, match="--resume"):
        evolve_gravwell.main(args(tmp_path / "a", 4))


# -- a run's files: a damaged history, resuming ---------------------------------------------------------------
HISTORY = """generation,runs,score,wins,mean_tile,nodes,child_won
0,2,2.3333333333333335,2.0,18.0,0,False
1,4,1.4907407407407407,1.0,26.5,0,False
"""


HISTORY_DAMAGE = {
    "header": ("generation,runs", "generation,games", r"line 1: damaged header \(the header must be generation,"),
    "not-a-number": ("0,2,2.33", "0,two,2.33", r"line 2: damaged row \(column 2 \('runs'\) is 'two', not an int"),
    "nan": ("26.5", "nan", r"line 3: damaged row \(column 5 \('mean_tile'\) is 'nan', not a finite number"),
    "inf": ("26.5", "inf", r"line 3: damaged row \(column 5 \('mean_tile'\) is 'inf'"),
    "extra-cell": (",False\n1", ",False,7\n1", r"line 2: damaged row \(8 cells, the header has 7 columns"),
    "missing-cells": (",0,False\n1", "\n1", r"line 2: damaged row \(5 cells"),
    "cut-last-line": ("26.5,0,False\n", "26.5,0,F", r"line 3: damaged row \(cut short: no newline"),
    "blank-line": ("26.5,0,False\n", "26.5,0,False\n\n", r"line 4: damaged row \(1 cells"),
    "renumbered": ("1,4,1.49", "2,4,1.49", r"line 3: damaged row \(column 1 \('generation'\) is 2, but this row"),
    "flag": ("0,False\n1", "0,false\n1", r"line 2: damaged row \(column 7 \('child_won'\) is 'false', not True"),
    "score": ("2.3333333333333335", "2.5", r"line 2: damaged row \(column 3 \('score'\) is 2.5, but wins"),
    "wins-over-runs": ("0,2,2.3333333333333335", "0,1,2.3333333333333335", r"line 2: damaged row \(.*more than"),
    "not-utf8": ("18.0", "\xe9", r"line 2: damaged row \(bytes that are not UTF-8"),
    "empty": (HISTORY, "", r"line 1: damaged header"),
}


@pytest.mark.parametrize("kind", list(HISTORY_DAMAGE))
def test_a_damaged_history_is_an_error_naming_file_line_and_column(tmp_path: Path, kind: str) -> None:
    from baselines.learners.neuroevolution import read_history

    old, new, where = HISTORY_DAMAGE[kind]
    path = tmp_path / "history.csv"
    path.write_text(HISTORY)
    assert [row.generation for row in read_history(path)] == [0, 1]
    assert old in HISTORY
    path.write_bytes(HISTORY.replace(old, new).encode("latin-1"))
    with pytest.raises(ValueError, match=rf"history.csv' {where}"):
        read_history(path)


def evolve_args(out: Path, generations: int, resume: bool = False, seed: int = 1, **changes) -> evolve_gravwell.Args:
    settings = EvolutionSettings(generations=generations, start_runs=2, children=1, num_players=2, seed=seed)
    return evolve_gravwell.Args(settings, out=str(out), resume=resume, progress=False, **changes)


def test_resume_without_a_run_says_there_is_nothing_to_resume_and_creates_nothing(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match=r"no run to resume in .*nowhere', nothing to continue .*without --re"):
        evolve_gravwell.main(evolve_args(tmp_path / "nowhere", 2, resume=True))
    assert not (tmp_path / "nowhere").exists()
    (tmp_path / "empty").mkdir()
    with pytest.raises(FileNotFoundError, match="nothing to continue"):
        evolve_gravwell.main(evolve_args(tmp_path / "empty", 2, resume=True))


def test_a_run_killed_between_its_history_and_its_network_resumes_to_the_straight_run(tmp_path: Path) -> None:
    straight = evolve_gravwell.main(evolve_args(tmp_path / "straight", 3))
    killed = tmp_path / "killed"
    evolve_gravwell.main(evolve_args(killed, 2))
    network_after_two = (killed / "network.json").read_bytes()
    evolve_gravwell.main(evolve_args(killed, 3, resume=True))
    (killed / "network.json").write_bytes(network_after_two)  # the kill: generation 2's row written, not its network
    resumed = evolve_gravwell.main(evolve_args(killed, 3, resume=True))
    assert resumed.network == straight.network and resumed.history == straight.history
    assert (killed / "history.csv").read_text() == (tmp_path / "straight" / "history.csv").read_text()
    assert _games(killed / "eval.csv") == _games(tmp_path / "straight" / "eval.csv")


def test_resume_refuses_other_settings_a_changed_history_and_files_of_two_runs(tmp_path: Path) -> None:
    out = tmp_path / "run"
    evolve_gravwell.main(evolve_args(out, 2))
    with pytest.raises(ValueError, match=r"settings \['seed'\] differ from the run's in .*network.json"):
        evolve_gravwell.main(evolve_args(out, 3, resume=True, seed=2))
    text = (out / "history.csv").read_text()
    (out / "history.csv").write_text(text.replace(",False\n", ",True\n", 1))  # a valid row, but not the run's
    with pytest.raises(ValueError, match=r"history.csv' is not the history .*network.json' was saved with"):
        evolve_gravwell.main(evolve_args(out, 3, resume=True))
    (out / "history.csv").write_text("".join(text.splitlines(keepends=True)[:2]))  # one generation of two
    with pytest.raises(ValueError, match=r"network.json' was saved after generation 2 but .*history.csv' records 1"):
        evolve_gravwell.main(evolve_args(out, 3, resume=True))


# -- the shared run skeleton: arena evaluations of the parent -------------------------------------------------
def _games(path: Path) -> list[tuple]:
    """The rows of an ``eval.csv`` without their wall time (which no two runs share)."""
    from baselines.learners.evaluation import read_eval_rows

    return [(row.steps, row.opponent, row.wins, row.draws, row.losses) for row in read_eval_rows(path)]


def test_a_run_evaluates_its_parent_into_the_shared_eval_log_and_learning_curve(tmp_path: Path) -> None:
    from baselines.learners.neuroevolution.runs import EvolutionEvaluation

    evaluation = EvolutionEvaluation(eval_every=2, eval_games=4, eval_opponents="random_no_es,tree")
    result = evolve_gravwell.main(evolve_args(tmp_path / "run", 5, evaluation=evaluation))
    games = _games(tmp_path / "run" / "eval.csv")
    assert [(steps, opponent) for steps, opponent, *_ in games] == [
        (2, "random_no_es"), (2, "tree"), (4, "random_no_es"), (4, "tree"), (5, "random_no_es"), (5, "tree")
    ]  # fmt: skip
    assert all(wins + draws + losses == 4 for _, _, wins, draws, losses in games)
    assert result.steps == 5 and [row.steps for row in result.final_eval] == [5, 5]
    assert result.curve_png.stat().st_size > 0 and result.eval_csv == tmp_path / "run" / "eval.csv"
    assert result.wall_seconds > 0 and result.network_path.is_file()
    evolve_gravwell.main(evolve_args(tmp_path / "again", 5, evaluation=evaluation))
    assert _games(tmp_path / "again" / "eval.csv") == games  # seeded: the same games, the same results


def test_no_evaluation_games_write_no_eval_log(tmp_path: Path) -> None:
    from baselines.learners.neuroevolution.runs import EvolutionEvaluation

    result = evolve_gravwell.main(evolve_args(tmp_path / "run", 2, evaluation=EvolutionEvaluation(eval_games=0)))
    assert not (tmp_path / "run" / "eval.csv").exists() and result.final_eval == []


def test_an_unknown_evaluation_opponent_is_refused_before_the_folder_is_made(tmp_path: Path, capsys) -> None:
    from baselines.learners.neuroevolution.runs import EvolutionEvaluation

    bad = EvolutionEvaluation(eval_opponents="random_no_es,nobody")
    with pytest.raises(ValueError, match=r"eval_opponents: unknown agent 'nobody' for game 'gravwell'; choices"):
        evolve_gravwell.main(evolve_args(tmp_path / "run", 2, evaluation=bad))
    assert not (tmp_path / "run").exists()
    with pytest.raises(SystemExit) as stop:
        evolve_gravwell.cli(["--out", str(tmp_path / "run"), "--eval-opponents", "nobody", "--generations", "1"])
    assert stop.value.code == 2 and "--eval-opponents: unknown agent 'nobody'" in capsys.readouterr().err
    assert not (tmp_path / "run").exists()
