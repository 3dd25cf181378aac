"""The documentation site's generated parts: a page per game written from the code (:mod:`.game_pages`)."""

from baselines.docs_site.game_pages import game_page, game_picture, package_games, written_pages

__all__ = ["game_page", "game_picture", "package_games", "written_pages"]
