"""The tournament tables: people, tournaments and entries, rounds and matches, result versions.

Django registers an app's models by importing its ``models`` module, so this package imports
its modules for that alone; callers import each model from the module that defines it.
"""

from __future__ import annotations

from tournaments.models import (  # noqa: F401
    entries,
    imports,
    people,
    ratings,
    results,
    rounds,
    tournament,
)
