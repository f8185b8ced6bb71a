"""The test suite's settings: the site's (``thud_site/settings.py``) with a third game.

Tiny (``tests/games/tiny/``, a scored 3×3 game) is added as any game kept outside
``games/`` is (ARCHITECTURE.md, "A new game"): one line in ``GAMES``, its templates',
static files' and catalogues' directories. Every test, and every server and worker the
tests start (``tests/processes.py``), runs with it, so each feature meets a game it was
not written for.
"""

from __future__ import annotations

from thud_site.settings import *  # noqa: F403
from thud_site.settings import BASE_DIR, GAMES, LOCALE_PATHS, STATICFILES_DIRS, TEMPLATES

TINY = BASE_DIR / "tests" / "games" / "tiny"

GAMES = [*GAMES, ("tests.games.tiny.game.TinyGame", "tests.games.tiny.web.PRESENTATION")]
TEMPLATES = [{**TEMPLATES[0], "DIRS": [*TEMPLATES[0]["DIRS"], TINY / "templates"]}]
STATICFILES_DIRS = [*STATICFILES_DIRS, TINY / "static"]
LOCALE_PATHS = [*LOCALE_PATHS, TINY / "locale"]
