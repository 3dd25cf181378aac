"""A core install (numpy, Gymnasium, PettingZoo): the checkers pass, and what needs an extra says which.

Each case runs in a fresh interpreter where the optional modules are made unimportable (``sys.modules[name] =
None``), so it tests the same thing in the dev environment and in CI's core install (``.ci/core``).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
OPTIONAL = ("torch", "stable_baselines3", "sb3_contrib", "PIL", "pygame", "matplotlib", "tqdm", "ray")


def run_without(modules: tuple[str, ...], code: str) -> subprocess.CompletedProcess[str]:
    blocker = "import sys\n" + "".join(f"sys.modules[{m!r}] = None\n" for m in modules)
    return subprocess.run([sys.executable, "-c", blocker + code], capture_output=True, text=True, cwd=ROOT)


def test_an_agent_that_needs_torch_names_the_train_extra() -> None:
    code = (
        "from baselines.factory import make_agent\n"
        "for spec in ('ppo:pretrained', 'alphazero:pretrained', 'sb3:model.pt'):\n"
        "    try:\n"
        "        make_agent(spec, 'quoridor')\n"
        "    except ImportError as error:\n"
        "        print(error)\n"
        "print(type(make_agent('mcts', 'quoridor')).__name__)\n"
    )
    out = run_without(OPTIONAL, code)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert len(lines) == 4 and lines[-1] == "MCTSAgent"
    for spec, line in zip(("ppo:pretrained", "alphazero:pretrained", "sb3:model.pt"), lines):
        assert f"the agent '{spec}' needs torch" in line and 'pip install "boardenvs[train]"' in line


def test_a_missing_module_that_is_no_extra_is_not_disguised() -> None:
    from baselines.extras import missing_extra

    assert missing_extra(ModuleNotFoundError("No module named 'nope'", name="nope"), "x") is None
    error = missing_extra(ModuleNotFoundError("No module named 'torch.nn'", name="torch.nn"), "the agent 'x'")
    assert error is not None and str(error) == "the agent 'x' needs torch, which is not installed: " + (
        'pip install "boardenvs[train]"'
    )


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_gymnasiums_and_pettingzoos_checkers_pass_without_any_extra() -> None:
    code = (
        "import gymnasium, boardenvs\n"
        "from gymnasium.utils.env_checker import check_env\n"
        "from pettingzoo.test import api_test, parallel_api_test\n"
        "from boardenvs import quoridor_v0\n"
        "env = gymnasium.make('boardenvs/Quoridor-v0', board_size=5)\n"
        "print(env.metadata['render_modes'])\n"
        "check_env(env.unwrapped)\n"
        "api_test(quoridor_v0.env(board_size=5), num_cycles=50)\n"
        "parallel_api_test(quoridor_v0.parallel_env(board_size=5), num_cycles=50)\n"
        "print('checked')\n"
    )
    out = run_without(OPTIONAL, code)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[0] == "['ansi']" and out.stdout.splitlines()[-1] == "checked"


def test_a_render_mode_that_needs_an_extra_names_it() -> None:
    code = (
        "import gymnasium, boardenvs\n"
        "from boardenvs import quoridor_v0\n"
        "for mode in ('rgb_array', 'human'):\n"
        "    try:\n"
        "        gymnasium.make('boardenvs/Quoridor-v0', board_size=5, render_mode=mode)\n"
        "    except ImportError as error:\n"
        "        print(error)\n"
        "    env = quoridor_v0.env(board_size=5, render_mode=mode)\n"  # PettingZoo's render_test builds it first
        "    try:\n"
        "        env.reset(seed=0)\n"  # human mode draws the first frame here
        "        env.render()\n"
        "    except ImportError as error:\n"
        "        print(error)\n"
    )
    out = run_without(("PIL", "pygame"), code)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert len(lines) == 4
    for mode, line in zip(("rgb_array", "rgb_array", "human", "human"), lines):
        assert f"render_mode={mode!r} needs PIL" in line and 'pip install "boardenvs[render]"' in line


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_pettingzoos_render_test_passes_without_the_render_extra() -> None:
    code = (
        "from pettingzoo.test import render_test\n"
        "from boardenvs import quoridor_v0\n"
        "render_test(lambda render_mode=None: quoridor_v0.env(board_size=5, render_mode=render_mode))\n"
        "print(quoridor_v0.env().metadata['render_modes'])\n"
    )
    out = run_without(("PIL", "pygame"), code)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[-1] == "['ansi']"


def test_with_pillow_but_no_pygame_rgb_array_is_offered_and_human_is_not() -> None:
    pytest.importorskip("PIL", reason="extra: render")
    code = (
        "import gymnasium, boardenvs\n"
        "env = gymnasium.make('boardenvs/Quoridor-v0', board_size=5, render_mode='rgb_array')\n"
        "env.reset(seed=0)\n"
        "print(env.metadata['render_modes'], env.render().shape)\n"
    )
    out = run_without(("pygame",), code)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("['ansi', 'rgb_array'] (")
