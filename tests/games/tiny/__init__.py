"""Tiny, a third game that lives only under ``tests/``: a scored Hexapawn on a 3×3 board
(the rules: :mod:`.core.position`). Structured like the engines (``games/thud``,
``games/cavalli``): ``core/`` below ``bot/`` below ``game.py``; pure Python, the standard
library and ``games.rules`` only. ``web.py`` (its board presenter, Django) and
``templates/``, ``static/`` are what the site will draw it with.
"""
