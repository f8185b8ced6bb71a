"""Norwegian Bokmål: the medium date "12. nov. 2026" ("12. mai 2026": N, the abbreviated
month, carries its own full stop only where the name is shortened)."""

from __future__ import annotations

DATE_FORMAT = "j. N Y"
