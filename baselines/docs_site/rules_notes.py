"""A game page's rules notes, cut from the rules reference (``docs/rules/rules.md``) so they are written once.

A game's spec sheet names its section of the rules reference (``docs/rules/rules.md`` §5 for Quoridor). From that
section the page takes, verbatim: the sources (which seed paper, which edition, which code), every subsection that
records a resolution (a table of numbered ambiguities such as ``G1``/``N1``/``P1``, or a heading about ambiguities,
unknowns, differences or the OpenSpiel implementation), links to the other subsections, and the rows of §6 (other
public implementations: OpenSpiel, PettingZoo, Gym and the papers' own code) that name the game.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

RULES_FILE = Path("docs") / "rules" / "rules.md"
"""The rules reference, relative to the repository root."""
SECTION_REFERENCE = re.compile(r"rules\.md\W{0,4}§(\d+)")
"""How a spec sheet names its section of the rules reference (the first such mention is the game's section)."""
RESOLUTION_TABLE = re.compile(r"^\| [A-Z]{1,2}\d+ \|", re.MULTILINE)
"""A row of a table of numbered resolutions (``| G1 | Tractor pull direction | ...``)."""
INLINED_HEADING = re.compile(r"sources|ambiguit|unknowns|differences|openspiel", re.IGNORECASE)
"""Subsections shown in full on the page besides those holding a resolution table."""
IMPLEMENTATIONS_SECTION = 6
"""The section of the rules reference that lists other public implementations, one table row per repository."""
IMPLEMENTATION_LABELS = {
    "quoridor": ("Quoridor",),
    "splendor": ("Splendor",),
    "gravwell": ("Gravwell",),
    "battle_sheep": ("Sheep game", "Battle Sheep (hex)"),
    "node_conquest": ("Node-grid game",),
}
"""The labels of §6's first column that stand for each game."""


@dataclass(frozen=True)
class Subsection:
    """One ``###`` subsection of the rules reference."""

    heading: str
    body: str

    @property
    def anchor(self) -> str:
        """The heading's anchor on the built site (MkDocs' ``toc`` slug of its text)."""
        return heading_anchor(self.heading)

    @property
    def inlined(self) -> bool:
        """Whether a game page shows it in full (sources and resolutions) rather than as a link."""
        return bool(INLINED_HEADING.search(self.heading) or RESOLUTION_TABLE.search(self.body))


@dataclass(frozen=True)
class RulesSection:
    """One numbered ``##`` section of the rules reference: its title and subsections."""

    number: int
    title: str
    subsections: tuple[Subsection, ...]


def section_number(docstring: str) -> int:
    """The rules-reference section a game's spec sheet names (``... docs/rules/rules.md`` §5 ...)."""
    match = SECTION_REFERENCE.search(docstring)
    if match is None:
        raise ValueError("the spec sheet names no section of docs/rules/rules.md (write 'docs/rules/rules.md §N')")
    return int(match.group(1))


def rules_section(text: str, number: int) -> RulesSection:
    """Section ``number`` of the rules reference ``text``."""
    title, body = _raw_section(text, number)
    return RulesSection(number, title, _subsections(body))


def heading_anchor(heading: str) -> str:
    """MkDocs' default ``toc`` slug of a heading: its text in ASCII, word characters and hyphens, lower case."""
    text = re.sub(r"[`*]", "", heading)
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    text = re.sub(r"[^\w\s-]", "", text).strip().lower()
    return re.sub(r"[-\s]+", "-", text)


def implementation_rows(text: str, game_name: str) -> list[str]:
    """The rows of §6's table (other public implementations) that name the game, as Markdown table rows."""
    labels = IMPLEMENTATION_LABELS.get(game_name, ())
    _, body = _raw_section(text, IMPLEMENTATIONS_SECTION)
    return [line for line in body.splitlines() if any(line.startswith(f"| {label} |") for label in labels)]


def implementation_remarks(text: str, game_name: str) -> list[str]:
    """The lines of §6 outside its table that name the game (``OpenSpiel has no Splendor.``)."""
    labels = [label.lower() for label in IMPLEMENTATION_LABELS.get(game_name, ())]
    _, body = _raw_section(text, IMPLEMENTATIONS_SECTION)
    lines = [line for line in body.splitlines() if line.strip() and not line.startswith(("|", "**"))]
    return [line for line in lines if any(label in line.lower() for label in labels)]


def rules_notes(docstring: str, game_name: str, root: Path) -> str:
    """The game page's section on where its rules come from, how we resolved their ambiguities, and the other
    public implementations of the game."""
    text = (root / RULES_FILE).read_text()
    section = rules_section(text, section_number(docstring))
    link = f"../rules/rules.md#{heading_anchor(f'{section.number}. {section.title}')}"
    parts = [
        f"## Rules source and our resolutions\n\nThe rules are §{section.number} of the "
        f"[rules reference]({link}), *{section.title}*. Its sources and the resolutions of what they leave open, "
        "as the research note records them (the spec sheet above is what the code does; where a recommendation "
        "below and the spec sheet differ, the spec sheet holds):"
    ]
    parts += [f"### {sub.heading}\n\n{sub.body}" for sub in section.subsections if sub.inlined]
    others = [f"[{sub.heading}](../rules/rules.md#{sub.anchor})" for sub in section.subsections if not sub.inlined]
    if others:
        parts.append("The rest of the section: " + "; ".join(others) + ".")
    parts.append(_implementations(text, game_name))
    return "\n\n".join(parts)


def _implementations(text: str, game_name: str) -> str:
    rows = implementation_rows(text, game_name)
    if not rows:
        return ""
    title, _ = _raw_section(text, IMPLEMENTATIONS_SECTION)
    anchor = heading_anchor(f"{IMPLEMENTATIONS_SECTION}. {title}")
    return (
        f"### Other implementations\n\nFrom [§{IMPLEMENTATIONS_SECTION} of the rules reference]"
        f'(../rules/rules.md#{anchor}) ("verified": its code or data was read; "README": only its description):\n\n'
        "| Game | Repository | What it supports | Trust |\n|---|---|---|---|\n"
        + "\n".join(rows)
        + "".join(f"\n\n{line}" for line in implementation_remarks(text, game_name))
    )


def _raw_section(text: str, number: int) -> tuple[str, str]:
    """``(title, body)`` of section ``number``; its body ends at the next section or at a ``---`` rule."""
    for chunk in text.split("\n## ")[1:]:
        heading, _, body = chunk.partition("\n")
        if heading.startswith(f"{number}. "):
            return heading.split(". ", 1)[1].strip(), body.split("\n---", 1)[0]
    raise ValueError(f"docs/rules/rules.md has no section {number}")


def _subsections(body: str) -> tuple[Subsection, ...]:
    chunks = body.split("\n### ")[1:]
    return tuple(Subsection(heading.strip(), rest.strip()) for heading, _, rest in (c.partition("\n") for c in chunks))


__all__ = [
    "RulesSection",
    "Subsection",
    "heading_anchor",
    "implementation_remarks",
    "implementation_rows",
    "rules_notes",
    "rules_section",
]
