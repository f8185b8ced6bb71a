"""What other apps add to a tournament archive, and what they are given to do it.

Terminology and invariants:
- A **section** is one named part of the archive's ``sections`` object, written and read
  by the app that owns its tables (the games app's ``battles``). This app never imports
  them: the app registers its sections with ``tournaments.contributions`` (in its
  ``AppConfig.ready``, as a section needs the app's models).
- Inside the archive nothing is named by a database id: an entry by its **key** (1, 2, …
  in the archive), a match by ``(round number, table)``, a user by username (a name
  only: nobody here is found by it).
  ``ExportRefs`` maps this installation's ids to those names, ``ImportRefs`` maps them
  back to the rows just written; ``DocumentIndex`` is what a pure check may rely on.
- Times travel as ISO 8601 with the UTC offset, to the microsecond (``iso``,
  ``parse_time``), so a history reads the same on the other installation.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from tournaments.models.rounds import Match
from tournaments.models.tournament import Entry, Tournament

MatchKey = tuple[int, int]  # (round number, table)


def iso(value: datetime | None) -> str | None:
    """A stored time as the archive writes it (``None`` stays ``None``)."""
    return None if value is None else value.isoformat()


def parse_time(text: str | None) -> datetime | None:
    """An archive time back (the schema has checked it has an offset)."""
    return None if text is None else datetime.fromisoformat(text)


def time_of(text: str) -> datetime:
    """A time the archive must have (``parse_time`` of a required field)."""
    return datetime.fromisoformat(text)


@dataclass(frozen=True)
class DocumentIndex:
    """What a section's pure check may rely on: the archive's entry keys, its matches'
    players (entry keys; ``None``: a bye) and the tournament's game."""

    game: str
    entries: frozenset[int]
    matches: Mapping[MatchKey, tuple[int, int | None]]


@dataclass(frozen=True)
class ExportRefs:
    """This installation's ids as the archive names them."""

    entry_keys: Mapping[int, int]
    match_keys: Mapping[int, MatchKey]


@dataclass
class ImportRefs:
    """The archive's names as the rows just written. Users are not among them: an
    archive's usernames are only names (``writer``)."""

    tournament: Tournament
    entries: Mapping[int, Entry]
    matches: Mapping[MatchKey, Match]


class ArchiveSection(Protocol):
    """One section of the archive, offered by the app that owns its tables."""

    @property
    def name(self) -> str: ...
    @property
    def schema(self) -> Mapping[str, Any]: ...

    def export(self, tournament: Tournament, refs: ExportRefs) -> Any:
        """The section's JSON value for ``tournament``."""

    def check(self, data: Any, index: DocumentIndex) -> Iterable[str]:
        """Problems of a value that passed ``schema``, each ``"where: what"`` (pure)."""

    def write(self, data: Any, refs: ImportRefs) -> None:
        """Write a checked value; runs inside the import's transaction."""


#: The registered sections, by name, in the order they were registered
#: (``tournaments.contributions.register``).
_registered: dict[str, ArchiveSection] = {}


def register(sections: Iterable[ArchiveSection]) -> None:
    """Add ``sections`` (a section registered again replaces the old one)."""
    for section in sections:
        _registered[section.name] = section


def registered() -> dict[str, ArchiveSection]:
    """Every registered section, by name, in the order they were registered."""
    return dict(_registered)
