"""Italian: Django's DATE_FORMAT gives "12 Novembre 2026"; Italian writes month names in
lower case, and a table reads better with the short month: "12 nov 2026"."""

from __future__ import annotations

DATE_FORMAT = "j b Y"
