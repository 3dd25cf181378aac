"""What a wheel installs: the three packages under names that do not clash, and commands that start.

``scripts/`` is installed as ``boardenvs_scripts`` (``setup.py``), so a user's own ``scripts`` package is never
shadowed and the installed commands run from any folder.
"""

from __future__ import annotations

import configparser
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
INSTALLED_NAMES = {"boardenvs", "baselines", "boardenvs_scripts"}


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    command = [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", str(ROOT), "-w", out]
    subprocess.run(command, check=True, capture_output=True, cwd=out)
    return next(out.glob("boardenvs-*.whl"))


def wheel_text(wheel: Path, name: str) -> str:
    with zipfile.ZipFile(wheel) as archive:
        member = next(m for m in archive.namelist() if m.endswith(f".dist-info/{name}"))
        return archive.read(member).decode()


@pytest.mark.slow
def test_the_wheel_installs_boardenvs_baselines_and_boardenvs_scripts_and_no_scripts_package(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        tops = {name.split("/")[0] for name in archive.namelist() if not name.split("/")[0].endswith(".dist-info")}
        assert tops == INSTALLED_NAMES
        assert "boardenvs_scripts/tournament.py" in archive.namelist()
        assert "boardenvs_scripts/_args.py" in archive.namelist()


@pytest.mark.slow
def test_every_installed_command_names_a_module_of_the_wheel(wheel: Path) -> None:
    entry_points = configparser.ConfigParser()
    entry_points.read_string(wheel_text(wheel, "entry_points.txt"))
    commands = dict(entry_points["console_scripts"])
    assert "boardenvs-tournament" in commands
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    for command, target in commands.items():
        module = target.split(":")[0]
        assert module.startswith("boardenvs_scripts."), command
        assert module.replace(".", "/") + ".py" in names, command


def test_no_script_imports_its_siblings_by_the_repository_name() -> None:
    for path in sorted((ROOT / "scripts").glob("*.py")):
        text = path.read_text()
        assert "from scripts" not in text and "import scripts" not in text, f"{path.name}: import siblings relatively"


def test_the_installed_scripts_run_from_a_folder_that_has_its_own_scripts_package(tmp_path: Path) -> None:
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "__init__.py").write_text("")
    (tmp_path / "scripts" / "tournament.py").write_text("raise SystemExit('the user's own scripts.tournament')\n")
    out = subprocess.run(
        [sys.executable, "-m", "boardenvs_scripts.tournament", "--help"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert out.returncode == 0, out.stderr
    assert "usage: python -m boardenvs_scripts.tournament" in out.stdout
