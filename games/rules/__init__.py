"""The games' pure rules, whatever the game: the Game protocol, the clock, presence,
records, the analysis maths and the bots' levels. No Django, no Celery (``ruff.toml``)."""
