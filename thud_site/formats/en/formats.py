"""English: day-month-year as en-GB writes it ("24 November 2026", "24/11/2026"), on a 24-hour
clock; Django's own "en" formats are American (month first, a.m./p.m.)."""

from __future__ import annotations

DATE_FORMAT = "j F Y"
SHORT_DATE_FORMAT = "d/m/Y"
DATETIME_FORMAT = "j F Y, H:i"
SHORT_DATETIME_FORMAT = "d/m/Y H:i"
TIME_FORMAT = "H:i"
MONTH_DAY_FORMAT = "j F"
YEAR_MONTH_FORMAT = "F Y"
FIRST_DAY_OF_WEEK = 1  # Monday
