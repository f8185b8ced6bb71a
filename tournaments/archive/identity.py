"""Which tournament an archive document is, whatever its address: its **identity** (pure).

Terminology and invariants:
- The **identity** is a SHA-256 fingerprint (64 hex digits) of the document's *content*:
  the game, the tournament's name, its start and end dates, the names of its entries, and
  each round (number, stage) with its pairings (table, player A's and B's names) and each
  match's counted result (the four numbers of its confirmed version, else nothing).
- It is re-derived here from what the document *says happened*, never read from the file:
  the archive has no field for it, so a file cannot claim to be, or not to be, a copy.
- Not part of it: the address (slug), anything this or another installation numbered (entry
  keys, version numbers, database ids), times (created, exported, entered, confirmed), the
  people who organised, refereed, entered or confirmed, the settings and the rated flag. So
  the same tournament exported twice, under any address, from any installation, has one
  identity; a file whose content was edited (a renamed tournament or player, a result
  changed, a round removed) is another tournament.
- Names are compared in Unicode normal form C, so one name typed two ways is one name.
- The canonical form is a JSON text with sorted keys and no spaces, with entries and
  matches sorted, so neither the order of the file's lists nor its keys matter.

Pure: plain values in (the document as ``validation.read_archive`` returns it, or as
``document.content_document`` builds it), a string out; no database.
"""

from __future__ import annotations

import hashlib
import json
import unicodedata
from collections.abc import Mapping
from typing import Any

#: Bumped when the canonical form changes: identities of another form never match.
FORM = 1


def _name(text: str) -> str:
    return unicodedata.normalize("NFC", text)


def _counted_result(match: Mapping[str, Any]) -> list[int] | None:
    number = match["confirmed_version"]
    if number is None:
        return None
    for version in match["versions"]:
        if version["number"] == number:
            return list(version["result"])
    return None  # a checked document always has it (``validation``)


def canonical(document: Mapping[str, Any]) -> dict[str, Any]:
    """The content the identity is made of, as plain JSON values.

    >>> doc = {
    ...     "tournament": {"game": "thud", "name": "Open", "start_date": None, "end_date": None},
    ...     "entries": [
    ...         {"key": 2, "player": {"name": "Vimes"}},
    ...         {"key": 1, "player": {"name": "Angua"}},
    ...     ],
    ...     "rounds": [{"number": 1, "stage": "main", "matches": [
    ...         {"table": 1, "a": 2, "b": 1, "confirmed_version": None, "versions": []}]}],
    ... }
    >>> canonical(doc)["entries"], canonical(doc)["rounds"]
    (['Angua', 'Vimes'], [[1, 'main', [[1, 'Vimes', 'Angua', None]]]])
    """
    t = document["tournament"]
    names = {e["key"]: _name(e["player"]["name"]) for e in document["entries"]}
    rounds = [
        [
            r["number"],
            r["stage"],
            sorted(
                (
                    [
                        m["table"],
                        names[m["a"]],
                        None if m["b"] is None else names[m["b"]],
                        _counted_result(m),
                    ]
                    for m in r["matches"]
                ),
                key=lambda row: row[0],
            ),
        ]
        for r in sorted(document["rounds"], key=lambda r: r["number"])
    ]
    return {
        "form": FORM,
        "game": t["game"],
        "name": _name(t["name"]),
        "start_date": t["start_date"],
        "end_date": t["end_date"],
        "entries": sorted(names.values()),
        "rounds": rounds,
    }


def fingerprint(document: Mapping[str, Any]) -> str:
    """The document's identity: SHA-256 of its canonical form, 64 hex digits."""
    text = json.dumps(canonical(document), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
