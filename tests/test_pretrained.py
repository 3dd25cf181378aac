"""Tests of the shelves of shipped models (``baselines.pretrained``) and ``ppo:pretrained`` / ``dqn:pretrained``
(``baselines.learners.sb3.pretrained``); AlphaZero's shipped networks are still found through the shared shelf."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

from baselines.arena import play_game  # noqa: E402
from baselines.factory import make_agent  # noqa: E402
from baselines.learners.alphazero import pretrained as alphazero_pretrained  # noqa: E402
from baselines.learners.sb3 import pretrained as sb3_pretrained  # noqa: E402
from baselines.learners.sb3.model_card import read_model_card  # noqa: E402
from baselines.learners.sb3.runs import SB3Settings, train  # noqa: E402
from baselines.pretrained import Shelf, game_config  # noqa: E402
from boardenvs.registry import make_game  # noqa: E402

COMMAND = "python -m scripts.learner_benchmark --budget full --games quoridor --learners ppo"


@pytest.fixture(scope="module")
def tiny_ppo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A PPO model trained for a few hundred steps on Quoridor 3x3 (its ``model.zip``)."""
    torch.set_num_threads(1)
    out = tmp_path_factory.mktemp("ppo")
    settings = SB3Settings(game="quoridor", config=["board_size=3"], steps=256, n_envs=1, n_steps=128, batch_size=64,
                           n_epochs=1, eval_every=256, eval_games=2, out=str(out), progress=False)  # fmt: skip
    return train(settings).model_path


@pytest.fixture
def shelf_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty SB3 shelf that ``ppo:pretrained`` reads instead of the package's."""
    folder = tmp_path / "models"
    monkeypatch.setattr(sb3_pretrained, "MODELS_DIR", folder)
    return folder


# -- the shared shelf ----------------------------------------------------------------------------------------------
def test_a_shelf_finds_the_model_of_the_exact_config_and_names_the_configs_that_have_one(tmp_path: Path) -> None:
    source = tmp_path / "net.pt"
    source.write_bytes(b"weights")
    shelf = Shelf(tmp_path / "shelf", "thing:pretrained", "model")
    small = make_game("quoridor", board_size=3)
    config = game_config(small)
    shipped = shelf.ship(source, "quoridor", config, "python -m train ...", "notes")
    assert shelf.find(small) == shipped and shipped.read_bytes() == b"weights"
    with pytest.raises(ValueError, match=r"thing:pretrained: no model is shipped for quoridor with config "
                                         r"\{\}; configs with one .*\{'board_size': 3\}"):  # fmt: skip
        shelf.find(make_game("quoridor"))
    with pytest.raises(ValueError, match=r"no model is shipped for 'splendor'; games with one: \['quoridor'\]"):
        shelf.find(make_game("splendor"))


def test_shipping_the_same_game_and_config_again_replaces_its_entry_and_keeps_the_others(tmp_path: Path) -> None:
    source = tmp_path / "net.pt"
    source.write_bytes(b"one")
    shelf = Shelf(tmp_path / "shelf", "thing:pretrained")
    shelf.ship(source, "quoridor", {"board_size": 3}, "first")
    shelf.ship(source, "quoridor", {"board_size": 5}, "other config")
    source.write_bytes(b"two")
    again = shelf.ship(source, "quoridor", {"board_size": 3}, "second")
    commands = sorted(entry["command"] for entry in shelf.entries())
    assert commands == ["other config", "second"] and again.read_bytes() == b"two"
    assert not list(shelf.folder.glob(".*tmp*")), "atomic writes leave no temporary file"
    with pytest.raises(FileNotFoundError, match="nothing to ship"):
        shelf.ship(tmp_path / "missing.pt", "quoridor", {"board_size": 3}, "x")


def test_entries_of_another_kind_are_not_found(tmp_path: Path) -> None:
    source = tmp_path / "model.zip"
    source.write_bytes(b"dqn")
    shelf = Shelf(tmp_path / "shelf", "ppo:pretrained")
    config = game_config(make_game("quoridor", board_size=3))
    path = shelf.ship(source, "quoridor", config, "x", match={"algo": "dqn"})
    assert path.name.startswith("quoridor_dqn_")
    assert shelf.find(make_game("quoridor", board_size=3), {"algo": "dqn"}) == path
    with pytest.raises(ValueError, match="no model is shipped for 'quoridor'"):
        shelf.find(make_game("quoridor", board_size=3), {"algo": "ppo"})


# -- ppo:pretrained ---------------------------------------------------------------------------------------------
def test_a_shipped_ppo_model_loads_by_name_and_plays_legal_moves(tiny_ppo: Path, shelf_dir: Path) -> None:
    shipped = sb3_pretrained.ship(tiny_ppo, COMMAND, "a test model")
    assert shipped.parent == shelf_dir and shipped.with_suffix(".json").is_file()
    assert shipped.stat().st_size < tiny_ppo.stat().st_size / 2, "the optimizer's state is not shipped"
    card = read_model_card(shipped)
    assert card is not None and (card.game, card.config["board_size"], card.algo) == ("quoridor", 3, "ppo")
    (entry,) = sb3_pretrained.shipped()
    assert (entry["file"], entry["algo"], entry["command"]) == (shipped.name, "ppo", COMMAND)
    game = make_game("quoridor", board_size=3)
    agent = make_agent("ppo:pretrained", "quoridor", seed=0)
    for seed in range(4):
        record = play_game(game, [agent, make_agent("random", "quoridor", seed)][:: 1 if seed % 2 else -1], seed)
        assert record.plies > 0  # play_game raises IllegalActionError on an illegal move
    assert agent.illegal_predictions == 0 and agent.name == "ppo:pretrained"
    assert play_game(game, [agent, agent], 5).actions == play_game(game, [agent, agent], 5).actions


def test_the_shipped_model_plays_as_the_trained_one(tiny_ppo: Path, shelf_dir: Path) -> None:
    sb3_pretrained.ship(tiny_ppo, COMMAND)
    game = make_game("quoridor", board_size=3)
    random = make_agent("random", "quoridor", 1)
    trained = make_agent(f"sb3:{tiny_ppo}", "quoridor")
    shipped = make_agent("ppo:pretrained", "quoridor")
    assert play_game(game, [trained, random], 3).actions == play_game(game, [shipped, random], 3).actions


def test_a_shipped_model_plays_the_way_its_run_evaluated_it(tiny_ppo: Path, tmp_path: Path, shelf_dir: Path) -> None:
    assert sb3_pretrained.evaluated_sampled(tiny_ppo) is False
    sampled_run = tmp_path / "sampled"
    settings = SB3Settings(game="quoridor", config=["board_size=3"], steps=128, n_envs=1, n_steps=128, batch_size=64,
                           n_epochs=1, eval_every=128, eval_games=2, eval_sampled=True, out=str(sampled_run),
                           progress=False)  # fmt: skip
    sampled_model = train(settings).model_path
    assert sb3_pretrained.evaluated_sampled(sampled_model) is True
    sb3_pretrained.ship(sampled_model, COMMAND)
    game = make_game("quoridor", board_size=3)
    agent, forced = make_agent("ppo:pretrained", "quoridor", seed=0), make_agent("ppo:pretrained:stochastic=false",
                                                                                 "quoridor", seed=0)  # fmt: skip
    play_game(game, [agent, forced], 0)
    assert agent.agent.stochastic is True and forced.agent.stochastic is False


def test_ppo_pretrained_for_a_config_without_a_model_is_a_clear_error(tiny_ppo: Path, shelf_dir: Path) -> None:
    agent = make_agent("ppo:pretrained", "quoridor", seed=0)
    game = make_game("quoridor", board_size=5)
    state = game.initial_state(np.random.default_rng(0))
    with pytest.raises(ValueError, match=r"ppo:pretrained: no model is shipped for 'quoridor'; games with one: \[\]"):
        agent.act(game, state, 0)
    sb3_pretrained.ship(tiny_ppo, COMMAND)
    with pytest.raises(ValueError, match=r"ppo:pretrained: no model is shipped for quoridor with config "
                                         r"\{'board_size': 5\}; configs with one .*\{'board_size': 3\}"):  # fmt: skip
        agent.act(game, state, 0)
    with pytest.raises(ValueError, match=r"dqn:pretrained: no model is shipped for 'quoridor'"):
        make_agent("dqn:pretrained", "quoridor").act(make_game("quoridor", board_size=3), state, 0)


@pytest.mark.parametrize(
    ("spec", "message"),
    [("ppo", "write 'ppo:pretrained'"), ("dqn:model=runs/x.zip", "played with 'sb3:")],
)
def test_the_sb3_names_play_only_shipped_models(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_agent(spec, "quoridor")


def test_the_package_shelf_index_is_a_list_of_shipped_files() -> None:
    entries: list[dict[str, Any]] = sb3_pretrained.shipped()
    assert isinstance(entries, list)
    for entry in entries:
        path = sb3_pretrained.MODELS_DIR / entry["file"]
        # small files: a slim PPO model is 1-2 MB (Battle Sheep 8x8 with its 7744 actions was 17 MB on 2026-11-24)
        assert path.is_file() and path.with_suffix(".json").is_file() and path.stat().st_size < 20_000_000
        assert entry["algo"] in ("ppo", "dqn") and entry["command"].startswith("python -m scripts.")


@pytest.mark.parametrize("entry", sb3_pretrained.shipped(), ids=lambda entry: entry["file"])
def test_every_shipped_ppo_model_plays_a_whole_legal_game_for_its_config(entry: dict[str, Any]) -> None:
    config = {key: value for key, value in entry["config"].items() if value is not None}
    game = make_game(entry["game"], **config)
    spec = f"{entry['algo']}:pretrained"
    agents = [make_agent(spec, entry["game"], 0), make_agent("random", entry["game"], 1)]
    record = play_game(game, agents, seed=4, names=[spec, "random"])
    assert record.plies > 0 and len(record.actions) == record.plies  # play_game raises on an illegal action


# -- alphazero:pretrained through the shared shelf ----------------------------------------------------------------
def test_alphazero_pretrained_is_still_found_for_its_config() -> None:
    game = make_game("quoridor", board_size=5)
    path = alphazero_pretrained.pretrained_checkpoint(game)
    (entry,) = [entry for entry in alphazero_pretrained.shipped() if entry["file"] == path.name]
    assert entry["game"] == "quoridor" and entry["config"]["board_size"] == 5 and path.is_file()
    agent = make_agent("alphazero:pretrained:simulations=2", "quoridor", 0)
    state = game.initial_state(np.random.default_rng(0))
    assert game.is_legal(state, agent.act(game, state, 0))
    with pytest.raises(ValueError, match=r"alphazero:pretrained: no network is shipped for quoridor with config"):
        alphazero_pretrained.pretrained_checkpoint(make_game("quoridor", board_size=7))
