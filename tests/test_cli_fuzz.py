"""Every option of every script refuses what it cannot use, before any work starts, with one clear line.

Each script's ``cli(argv)`` is run in process with its ``main`` replaced by a stub that raises :class:`Reached`.
For every field of its ``Args`` the test feeds bad values through the real command line: for a number the
universal ones (text, empty, 10**30, NaN and infinities for floats, a fraction for ints) and the two values just
outside the range the option declares (``baselines.settings.Option.range``); ``--flag=maybe`` for a switch; for names,
paths, agent specs, configs and JSON the values listed in :data:`CASES`. Each must exit with status 2, print no
traceback, name the flag, and never reach ``main``. The base command of each script (valid options) must reach
``main``, and so must every numeric default given explicitly.
"""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from baselines.settings import Option, options_of
from scripts._args import flag_of

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = sorted(path.stem for path in (ROOT / "scripts").glob("*.py") if not path.stem.startswith("_"))
ALPHAZERO_MODEL = next((ROOT / "baselines/learners/alphazero/models").glob("node_conquest_*.pt"))
HUGE = str(10**30)
NAME = "nosuch"
CONFIG = ["malformed", "nosuchkey=1"]
"""Bad items of a ``key=value`` game config."""


class Reached(Exception):
    """The stub ``main`` was called: the options were accepted."""


@dataclass
class Case:
    """How to fuzz one script.

    Attributes:
        base: options that reach ``main`` (with the fixture files).
        bad: str and list options -> values they must refuse (a list option gets each as its one item).
        needs: options whose value is checked only with other options -> those options.
        free: str options that take any text (output paths, titles) -> why.
        alone: options fuzzed without the base (it would hide them) -> their own base.
    """

    base: list[str] = field(default_factory=list)
    bad: dict[str, list[str]] = field(default_factory=dict)
    needs: dict[str, list[str]] = field(default_factory=dict)
    free: dict[str, str] = field(default_factory=dict)
    alone: dict[str, list[str]] = field(default_factory=dict)


OUTPUT = "an output path: any text names one"


def cases(files: dict[str, str]) -> dict[str, Case]:
    """The :class:`Case` of every script, with the fixture ``files``."""
    game = {"game": [NAME, ""], "config": CONFIG}
    backend = {"backend": [NAME, ""], "ray_address": ["10.0.0.1:6379"]}  # the address needs --backend ray
    return {
        "arena": Case(bad={"allow_agent": ["", " "]}, free={"host": "any name or address (bound by uvicorn)"}),
        "battle_sheep_paper": Case(
            bad={"q_table": [files["missing"], files["not_json"]]},
            free={"out": OUTPUT, "log": "a log to write or resume"},
        ),
        "bench": Case(
            bad={
                "games": [NAME],
                "config": CONFIG,
                **dict.fromkeys(("alphazero_game", "alphazero_search", "alphazero_device"), [NAME, ""]),
            },
            needs=dict.fromkeys(("alphazero_game", "alphazero_search", "alphazero_device"), ["--alphazero"]),
            free={"json_out": OUTPUT},
        ),
        "bench_compare": Case(bad={"before": [NAME, ""], "games": [NAME], "config": CONFIG}),
        "bench_distributed": Case(bad={**game, "agents": [NAME, "", "random"], "setups": [NAME]}, free={"out": OUTPUT}),
        "ladder": Case(
            bad={
                "game": [NAME, ""],
                "agents": [NAME, ",", "greedy,greedy"],
                "rate": [NAME],
                "label": ["a/b", " "],
                "anchors": [","],
                "results_dir": [files["missing"]],
                **backend,
            },
            needs={"label": ["--rate", "random"], "results_dir": ["--publish"]},
            free={"out": OUTPUT},
        ),
        "learner_benchmark": Case(
            bad={"budget": [NAME, ""], "games": [NAME], "learners": [NAME]}, free={"out": OUTPUT}
        ),
        "compare_alphazero": Case(
            base=["--runs", f"a={files['alphazero_run']}", "--png", files["png"]],
            bad={"runs": ["malformed", f"x={files['missing']}", "=x"], "opponent": [NAME, ""]},
            free={"png": OUTPUT, "title": "any title"},
        ),
        "compare_runs": Case(
            base=["--runs", f"a={files['sb3_run']}", "--png", files["png"]],
            bad={"runs": ["malformed", f"x={files['missing']}", "=x"], "opponent": [NAME, ""]},
            free={"png": OUTPUT, "title": "any title"},
        ),
        "convert_sb3": Case(
            base=["--model", files["zip"]],
            bad={"model": [files["missing"], ""], "game": [NAME], "config": CONFIG},
            needs={"config": ["--game", "quoridor"]},
            free={"out": OUTPUT},
        ),
        "docs_site": Case(bad={"root": [files["missing"], ""]}),
        "evaluate": Case(bad={**game, "agent": [NAME, ""], "opponents": [NAME, "", "random,nosuch"]}),
        "evolve_gravwell": Case(bad={"eval_opponents": [NAME, ""]}, free={"out": OUTPUT, "export_json": OUTPUT}),
        "gravwell_ceiling": Case(bad={"kind": [NAME, ""], "opponent": [NAME, ""]}, free={"json_out": OUTPUT}),
        "gravwell_paper": Case(
            bad={
                "neuro_network": [files["missing"], files["not_json"]],
                "q_table": [files["missing"]],
                "presets": [NAME, ""],
            },
            free={"out": OUTPUT},
        ),
        "placement_points": Case(
            base=["--log", files["log"]], bad={"log": [files["missing"], ""], "points": ["a,b", "nan", "", "1,inf"]}
        ),
        "play": Case(bad={**game, "opponent": [NAME, ""]}),
        "replay": Case(
            base=["--new", "quoridor", "--config", "board_size=5"],
            bad={"source": [files["missing"], ""], "new": [NAME], "agents": [NAME], "config": CONFIG},
            alone={"source": []},
            free={"out": OUTPUT, "json": OUTPUT},
        ),
        "rl_zoo": Case(
            bad={"command": [NAME, ""]}, free={"zoo_args": "rl-zoo3's own arguments, which its own parser checks"}
        ),
        "screenshots": Case(
            base=["--chromium", sys.executable], bad={"chromium": [files["missing"]]}, free={"out": OUTPUT}
        ),
        "ship_alphazero": Case(
            base=["--checkpoint", str(ALPHAZERO_MODEL), "--command", "python -m scripts.train_alphazero --game x"],
            bad={"checkpoint": [files["missing"], files["not_json"], ""], "command": [NAME, ""]},
            free={"notes": "any notes"},
        ),
        "splendor_paper": Case(
            bad={
                "osla_presets": [NAME],
                "preset": [NAME, ""],
                "ef_agent": [NAME, ""],
                "tune_space": [NAME, files["not_json"]],
                "round_robin_agents": [NAME],
                **backend,
            },
            needs={"round_robin_agents": ["--round-robin-games", "2"]},
            free={"out": OUTPUT},
        ),
        "tournament": Case(
            bad={**game, "agents": [NAME, "", "random"], "field": [NAME], **backend},
            free={"csv": OUTPUT, "png": OUTPUT, "html": OUTPUT, "log": "a log to write or resume"},
        ),
        "train_alphazero": Case(
            bad={
                **game,
                "search": [NAME, ""],
                "eval_opponents": [NAME, ""],
                "sparring": [NAME],
                "warm_start": [NAME],
                "device": [NAME, ""],
                **backend,
            },
            free={"out": OUTPUT},
        ),
        "train_gravwell_q": Case(
            bad={"reward_timing": [NAME, ""], "opponents": [NAME, ""]}, free={"out": OUTPUT, "export_json": OUTPUT}
        ),
        "train_qlnn": Case(
            bad={
                **game,
                "opponents": [NAME, ""],
                "activation": [NAME, ""],
                "optimizer": [NAME, ""],
                "eval_opponent": [NAME, ""],
            },
            free={"out": OUTPUT},
        ),
        "train_rllib": Case(
            bad={**game, "opponents": [NAME, ""], "eval_opponents": [NAME, ""]}, free={"out": "empty: the default"}
        ),
        "train_sb3": Case(
            bad={
                **game,
                "algo": [NAME, ""],
                "opponents": [NAME, ""],
                "vec": [NAME, ""],
                "eval_opponents": [NAME, ""],
                "teacher": [NAME],
                "resume": [files["missing"]],
            },
            free={"out": OUTPUT},
        ),
        "train_tabular_q": Case(
            bad={
                **game,
                "opponents": [NAME, ""],
                "exploration": [NAME, ""],
                "eval_opponent": [NAME, ""],
            },
            free={"out": OUTPUT},
        ),
        "tune_ntbea": Case(
            bad={
                **game,
                "agent": [NAME, ""],
                "opponent": [NAME, ""],
                "space": [NAME, "", files["not_json"], files["json_list"]],
                **backend,
            },
            free={"out": OUTPUT},
        ),
    }


# -- fixtures -------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Files the base commands name: runs to compare, a log, a zip, broken JSON, and a path that does not exist."""
    from baselines.learners.evaluation import EvalRow, write_eval_rows

    folder = tmp_path_factory.mktemp("fuzz")
    (folder / "alphazero").mkdir()
    (folder / "alphazero" / "history.csv").write_text(
        "iteration,elapsed_seconds,vs_random,vs_random_low,vs_random_high\n1,60,0.5,0.3,0.7\n"
    )
    (folder / "sb3").mkdir()
    write_eval_rows(folder / "sb3" / "eval.csv", [EvalRow(64, 1.0, "random", 4, 2, 0, 2, 0.5, 0.2, 0.8, 0, 0)])
    (folder / "log.jsonl").write_text("{}\n")
    (folder / "model.zip").write_bytes(b"PK")
    (folder / "broken.json").write_text("{not json")
    (folder / "list.json").write_text(json.dumps([1, 2]))
    return {
        "alphazero_run": str(folder / "alphazero"),
        "sb3_run": str(folder / "sb3"),
        "log": str(folder / "log.jsonl"),
        "zip": str(folder / "model.zip"),
        "not_json": str(folder / "broken.json"),
        "json_list": str(folder / "list.json"),
        "missing": str(folder / "missing" / "nothing.json"),
        "png": str(folder / "out.png"),
    }


@pytest.fixture(scope="module")
def all_cases(files: dict[str, str]) -> dict[str, Case]:
    return cases(files)


def script(name: str) -> ModuleType:
    """The script module (its test is skipped when an optional dependency is missing)."""
    try:
        return importlib.import_module(f"scripts.{name}")
    except ImportError as error:  # pragma: no cover - the dev environment has every extra
        pytest.skip(f"scripts.{name} needs {error.name}")


def fields_of(name: str) -> list[str]:
    """The options of the script ``name`` (a field of its ``Args`` each, nested settings flattened)."""
    try:
        return [option.name for option in options_of(importlib.import_module(f"scripts.{name}").Args)]
    except ImportError:  # pragma: no cover
        return []


OPTIONS = [pytest.param(name, option, id=f"{name}-{option}") for name in SCRIPTS for option in fields_of(name)]


@dataclass
class Outcome:
    """What one command line did."""

    code: int | None
    reached: bool
    stderr: str


def run(module: ModuleType, argv: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: Any) -> Outcome:
    """``module.cli(argv)`` with ``main`` stubbed: its exit status (``None`` if none), whether ``main`` was reached,
    and what it printed to stderr."""

    def stub(*args: Any, **kwargs: Any) -> Any:
        raise Reached

    monkeypatch.setattr(module, "main", stub)
    capsys.readouterr()
    code, reached = None, False
    try:
        module.cli(argv)
    except Reached:
        reached = True
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else 1
    return Outcome(code, reached, capsys.readouterr().err)


def option_of(cls: type, name: str) -> Option:
    """The option ``name`` of the ``Args`` class ``cls``."""
    return next(option for option in options_of(cls) if option.name == name)


def bad_values(cls: type, option: str, case: Case) -> Iterator[str]:
    """The values ``option`` of ``cls`` must refuse (see the module docstring)."""
    hint, kind = option_of(cls, option).hint, option_of(cls, option).kind
    if hint is bool:
        yield "maybe"
    elif kind in (int, float):
        bounds = option_of(cls, option).range
        yield from ("x", "", HUGE, "-" + HUGE)
        if kind is int:
            yield from ("1.5", str(int(bounds.low) - 1), str(int(bounds.high) + 1))
        else:
            yield from ("nan", "inf", "-inf", "1e400", repr(bounds.low if bounds.open_low else bounds.low - 1))
            yield repr(bounds.high * 2 + 1)
    else:
        yield from case.bad.get(option, [])


# -- the tests ------------------------------------------------------------------------------------
def test_every_script_has_a_case_and_runs_through_the_common_runner(all_cases: dict[str, Case]) -> None:
    assert sorted(all_cases) == SCRIPTS
    for name in SCRIPTS:
        source = (ROOT / "scripts" / f"{name}.py").read_text()
        cli_source = source[source.index("def cli(") :]
        assert "run_cli(" in cli_source and "sys.exit(" not in source, name


@pytest.mark.parametrize("name", SCRIPTS)
def test_the_base_command_reaches_main(name: str, all_cases: dict[str, Case], capsys, monkeypatch) -> None:
    outcome = run(script(name), all_cases[name].base, capsys, monkeypatch)
    assert outcome.reached, outcome.stderr


@pytest.mark.parametrize(("name", "option"), OPTIONS)
def test_every_bad_value_of_every_option_is_refused_by_name(
    name: str, option: str, all_cases: dict[str, Case], capsys, monkeypatch
) -> None:
    module, case = script(name), all_cases[name]
    cls = module.Args
    values = list(bad_values(cls, option, case))
    if not values:
        reason = f"{name} --{option}: give bad values or a reason"
        assert option_of(cls, option).kind is str and option in case.free, reason
        return
    base = case.alone.get(option, case.base) + case.needs.get(option, [])
    flag = flag_of(option)
    failures = []
    for value in values:
        outcome = run(module, [*base, f"{flag}={value}"], capsys, monkeypatch)
        if outcome.reached or outcome.code != 2 or "Traceback" in outcome.stderr or flag not in outcome.stderr:
            failures.append(f"{flag}={value!r}: {outcome}")
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("name", SCRIPTS)
def test_every_numeric_default_is_in_its_range(name: str, all_cases: dict[str, Case], capsys, monkeypatch) -> None:
    module, case = script(name), all_cases[name]
    for option in options_of(module.Args):
        if option.hint in (int, float):
            outcome = run(module, [*case.base, f"{flag_of(option.name)}={option.default}"], capsys, monkeypatch)
            assert outcome.reached, (option.name, outcome)


@pytest.mark.parametrize("name", [name for name in SCRIPTS if "seed" in fields_of(name)])
def test_a_negative_seed_names_seed(name: str, all_cases: dict[str, Case], capsys, monkeypatch) -> None:
    outcome = run(script(name), [*all_cases[name].base, "--seed", "-1"], capsys, monkeypatch)
    assert outcome.code == 2 and "error: --seed: must be an int in 0..2147483647, got '-1'" in outcome.stderr


def test_train_sb3_refuses_a_nan_entropy_coefficient_before_training(capsys, monkeypatch) -> None:
    outcome = run(script("train_sb3"), ["--ent-coef", "nan"], capsys, monkeypatch)
    assert outcome.code == 2 and not outcome.reached and "error: --ent-coef: must be a finite number" in outcome.stderr


def test_tune_ntbea_names_space_and_the_json_error(files: dict[str, str], capsys, monkeypatch) -> None:
    outcome = run(script("tune_ntbea"), ["--space", files["not_json"]], capsys, monkeypatch)
    assert outcome.code == 2 and "error: --space:" in outcome.stderr
    assert "is not a JSON file: Expecting property name" in outcome.stderr and "Traceback" not in outcome.stderr


def test_train_sb3_resume_and_another_out_names_both_folders(tmp_path, capsys, monkeypatch) -> None:
    resumed, other = tmp_path / "A", tmp_path / "B"
    outcome = run(script("train_sb3"), ["--resume", str(resumed), "--out", str(other)], capsys, monkeypatch)
    assert outcome.code == 2 and "error: --out:" in outcome.stderr
    assert f"continues the run in {str(resumed)!r}" in outcome.stderr and repr(str(other)) in outcome.stderr


def test_an_error_in_main_is_one_line_naming_its_option_and_debug_shows_the_traceback(capsys, monkeypatch) -> None:
    module = script("evaluate")

    def failing(args: Any, *more: Any) -> Any:
        raise ValueError("games must be >= 1, got 0")

    monkeypatch.setattr(module, "main", failing)
    with pytest.raises(SystemExit) as exit_info:
        module.cli([])
    assert exit_info.value.code == 2
    assert capsys.readouterr().err.startswith("error: --games: must be >= 1, got 0\n")
    with pytest.raises(ValueError, match="games must be >= 1"):
        module.cli(["--debug"])
    with pytest.raises(ValueError, match="unknown agent 'nosuch'"):
        module.cli(["--agent", "nosuch", "--debug"])


def test_an_unknown_option_and_a_missing_value_are_refused(capsys, monkeypatch) -> None:
    module = script("tournament")
    assert run(module, ["--no-such-option"], capsys, monkeypatch).code == 2
    outcome = run(module, ["--games-per-pairing"], capsys, monkeypatch)
    assert outcome.code == 2 and "error: --games-per-pairing: expected one argument" in outcome.stderr
