"""Docstrings as Markdown: the Sphinx roles our docstrings use (``:class:`~.x.Y```) become inline code (``Y``)."""

from __future__ import annotations

import re

ROLE = re.compile(r":(?:mod|class|func|meth|attr|data|exc|obj):`(?P<tilde>~?)(?P<target>[^`]+)`")
"""A cross-reference role; ``~`` shows only the last part of the dotted name, as Sphinx does."""


def docstring_markdown(text: str) -> str:
    """``text`` with every Sphinx role replaced by inline code of the name it shows."""

    def shown(match: re.Match[str]) -> str:
        target = match["target"].lstrip(".")
        return f"`{target.rsplit('.', 1)[-1] if match['tilde'] else target}`"

    return ROLE.sub(shown, text)


__all__ = ["docstring_markdown"]
