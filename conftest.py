"""pytest at the repository root: modules of an optional integration are not collected (doctests) when the
library they adapt is not installed; their tests in ``tests/pipelines`` skip themselves the same way. Nor are the
deprecated module names (``boardenvs/<game>_v<old>.py``, docs/versions.md): they hold no doctests, and importing
them warns (``tests/test_versions.py`` checks that warning)."""

import importlib.util
from pathlib import Path

OPTIONAL_MODULES = {
    "boardenvs/openspiel.py": "pyspiel",
    "boardenvs/rllib.py": "ray",
    "baselines/web/app.py": "starlette",
    "boardenvs/raster.py": "PIL",
}

DEPRECATED_MODULES = [
    path.relative_to(Path(__file__).parent).as_posix()
    for path in sorted(Path(__file__).parent.glob("boardenvs/*_v[0-9]*.py"))
    if "deprecated_module(__name__" in path.read_text()
]

collect_ignore = [path for path, library in OPTIONAL_MODULES.items() if importlib.util.find_spec(library) is None]
collect_ignore += DEPRECATED_MODULES
