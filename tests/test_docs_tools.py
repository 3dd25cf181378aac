"""Every Python block of ``docs/tools.md`` runs as written (each in a fresh namespace, in order)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[1] / "docs" / "tools.md"
BLOCK = re.compile(r"```python\n(.*?)```", re.S)


def python_blocks() -> list[str]:
    return BLOCK.findall(DOC.read_text())


def test_the_page_has_its_recipes() -> None:
    assert len(python_blocks()) >= 3


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("index", range(len(python_blocks())))
def test_each_python_block_runs(index: int, capsys: pytest.CaptureFixture[str]) -> None:
    code = python_blocks()[index]
    if "baselines" in code:
        pytest.importorskip("torch", reason="the block uses the SB3 learners (extra: train)")
    exec(compile(code, f"{DOC.name}[block {index}]", "exec"), {"__name__": f"docs_tools_{index}"})
