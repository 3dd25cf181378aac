"""The documentation site's generated parts, written from the code: a page per game (:mod:`.game_pages`, with the
rules notes of :mod:`.rules_notes`) and a page per agent family (:mod:`.agent_pages`)."""

from pathlib import Path

from baselines.docs_site.agent_pages import FAMILIES, agent_page, written_agent_pages
from baselines.docs_site.game_pages import game_page, game_picture, package_games, written_game_pages


def written_pages(root: Path) -> dict[Path, str]:
    """Every generated file of the site (game pages, pictures, replays, agent pages) and its text."""
    return {**written_game_pages(root), **written_agent_pages(root)}


__all__ = ["FAMILIES", "agent_page", "game_page", "game_picture", "package_games", "written_pages"]
