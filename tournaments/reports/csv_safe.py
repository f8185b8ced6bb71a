"""CSV output that a spreadsheet opens as data, never as formulas ("CSV injection").

Every CSV the project writes goes through ``writer`` or ``DictWriter`` here. A text
cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return is what
Excel, LibreOffice and Google Sheets may run as a formula (``=HYPERLINK(…)``), so it is
written with a leading ``'``, which spreadsheets show as text (OWASP's advice). Only
``str`` cells change: numbers, negative differentials included, stay numbers.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Mapping
from typing import Any

FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: Any) -> Any:
    """``value``, with a ``'`` in front when it is text a spreadsheet would evaluate.

    >>> safe_cell("=1+2"), safe_cell("Vimes"), safe_cell(-5)
    ("'=1+2", 'Vimes', -5)
    """
    if isinstance(value, str) and value.startswith(FORMULA_PREFIXES):
        return "'" + value
    return value


class _SafeWriter:
    """``csv.writer`` whose rows are neutralised cell by cell."""

    def __init__(self, inner) -> None:
        self._inner = inner
        self.dialect = inner.dialect

    def writerow(self, row: Iterable[Any]):
        return self._inner.writerow([safe_cell(cell) for cell in row])

    def writerows(self, rows: Iterable[Iterable[Any]]) -> None:
        for row in rows:
            self.writerow(row)


def writer(stream, *args, **kwargs) -> _SafeWriter:
    """Like ``csv.writer``, neutralising formula cells."""
    return _SafeWriter(csv.writer(stream, *args, **kwargs))


class DictWriter(csv.DictWriter):
    """Like ``csv.DictWriter``, neutralising formula cells (``writeheader`` calls
    ``writerow``, so the header too; ``writerows`` would bypass it, hence its override)."""

    def writerow(self, rowdict: Mapping[str, Any]):
        return super().writerow({key: safe_cell(value) for key, value in rowdict.items()})

    def writerows(self, rowdicts: Iterable[Mapping[str, Any]]) -> None:
        for rowdict in rowdicts:
            self.writerow(rowdict)
