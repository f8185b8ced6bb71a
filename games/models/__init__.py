"""The games tables: battles (the row is the clock), their moves and clock events, and the
web processes' heartbeats.

Django registers an app's models by importing its ``models`` module, so this package imports
its modules for that alone; callers import each model from the module that defines it.
"""

from __future__ import annotations

from games.models import analysis, battle, heartbeat, history  # noqa: F401
