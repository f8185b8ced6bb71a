"""The tournament formats' stored names: one definition, read by the model's choices
(``Tournament.Format``, which adds their labels) and by the pure rules that need a format
without the models (``organising.settings_changes``).

Pure: no Django.
"""

from __future__ import annotations

SWISS = "swiss"
ROUND_ROBIN = "round_robin"
SINGLE_ELIMINATION = "single_elimination"
