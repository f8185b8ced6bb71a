"""Editing entries: an entry's name, club, country, rating and seed, and re-seeding
every entry by rating before round 1. Each changed field is kept as an ``EntryChange``
(who, when, before, after), the history shown on the organiser's pages.

Invariants: a name is not empty and not another entry's of the same tournament; a country
is stored as its ISO code (``models.countries.country_code`` reads a code or a name); a rating
is a whole number from ``RATING_MIN`` to ``RATING_MAX`` or none; a seed is at least 1 and
not another entry's. Bad input raises ``EntryEditError`` and changes nothing. Re-seeding is
refused once round 1 is paired (the pairings use the seeds).

The name, club, country and rating are the ``Player``'s: a player entered in two
tournaments of the same organiser shows the corrected name in both.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.models.countries import UnknownCountryError, country_code
from tournaments.models.entries import EntryChange
from tournaments.models.rounds import Round
from tournaments.models.state_version import (
    bump_state_version,
    bump_tournaments_of_players_on_commit,
)
from tournaments.models.tournament import Entry, Tournament
from tournaments.organising.csv_rows import RATING_MAX, RATING_MIN, text_problem
from tournaments.pairing.seeding import SeedRecord, order_by_rating
from tournaments.rating.reads import site_ratings
from tournaments.rounds.locks import lock_tournament

if TYPE_CHECKING:
    from django.contrib.auth.models import User


class EntryEditError(ValueError):
    """An edit refused; ``field`` names the field at fault ("" for the whole edit)."""

    def __init__(self, message: str, *, field: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.field = field


@dataclass(frozen=True)
class EntryValues:
    name: str
    club: str
    country: str  # an ISO code; what was typed until ``edit_entry`` reads it
    rating: int | None
    seed: int


def current_values(entry: Entry) -> EntryValues:
    p = entry.player
    return EntryValues(p.name, p.club, str(p.country), p.rating, entry.seed)


def _check(entry: Entry, values: EntryValues) -> None:
    if not values.name.strip():
        raise EntryEditError(_("Type the player's name."), field="name")
    for field in ("name", "club", "country"):
        problem = text_problem(field, getattr(values, field))
        if problem:
            raise EntryEditError(problem, field=field)
    if values.rating is not None and not RATING_MIN <= values.rating <= RATING_MAX:
        raise EntryEditError(_("A rating is a whole number from 0 to 4000."), field="rating")
    if values.seed < 1:
        raise EntryEditError(_("A seed is a whole number from 1."), field="seed")
    others = Entry.objects.filter(tournament_id=entry.tournament_id).exclude(pk=entry.pk)
    taken = others.filter(seed=values.seed).select_related("player").first()
    if taken is not None:
        raise EntryEditError(
            _("Seed %(seed)d is %(name)s's; give another seed or change theirs first.")
            % {"seed": values.seed, "name": taken.player.name},
            field="seed",
        )
    if others.filter(player__name__iexact=values.name.strip()).exists():
        raise EntryEditError(
            _("%(name)s is already entered.") % {"name": values.name.strip()}, field="name"
        )


def _text(value: object) -> str:
    return "" if value is None else str(value)


def edit_entry(
    entry: Entry, *, values: EntryValues, by: User | None, now: datetime
) -> list[EntryChange]:
    """Store ``values`` on the entry and its player; one ``EntryChange`` per changed field."""
    problem = text_problem("country", values.country)
    if problem:
        raise EntryEditError(problem, field="country")
    try:
        country = country_code(values.country)
    except UnknownCountryError as exc:
        raise EntryEditError(str(exc), field="country") from None
    values = EntryValues(
        values.name.strip(), values.club.strip(), country, values.rating, values.seed
    )
    with transaction.atomic():
        # The tournament row lock serialises seeds as entering players does.
        lock_tournament(entry.tournament)
        entry = Entry.objects.select_related("player").get(pk=entry.pk)
        bump_state_version(entry.tournament_id)
        # The player's name, club, country and rating show in every tournament it entered;
        # the others are bumped after the commit (no second tournament row lock here).
        bump_tournaments_of_players_on_commit([entry.player_id], besides=entry.tournament_id)
        _check(entry, values)
        before = current_values(entry)
        changes = [
            EntryChange(
                entry=entry,
                field=field,
                before=_text(getattr(before, field)),
                after=_text(getattr(values, field)),
                changed_by=by,
                changed_at=now,
            )
            for field in EntryChange.Field.values
            if getattr(before, field) != getattr(values, field)
        ]
        player = entry.player
        player.name, player.club, player.country = values.name, values.club, values.country
        player.rating = values.rating
        player.save(update_fields=["name", "club", "country", "rating"])
        entry.seed = values.seed
        entry.save(update_fields=["seed"])
        return EntryChange.objects.bulk_create(changes)


def reseed_by_rating(
    tournament: Tournament, *, by: User | None, now: datetime
) -> list[EntryChange]:
    """Seed every entry by rating (``pairing.seeding``): the site rating in the tournament's
    game where the player has one, else the entered one; refused once round 1 is paired."""
    with transaction.atomic():
        lock_tournament(tournament)
        bump_state_version(tournament.pk)
        if Round.objects.filter(tournament=tournament).exists():
            raise EntryEditError(
                _("Round 1 is paired: the seeds can no longer change by re-seeding.")
            )
        entries = {e.pk: e for e in tournament.entries.select_related("player")}
        site = site_ratings((e.player_id for e in entries.values()), tournament.game)
        order = order_by_rating(
            [
                SeedRecord(e.pk, e.player.rating, e.pk, site_rating=site.get(e.player_id))
                for e in entries.values()
            ]
        )
        changes = []
        for seed, pk in enumerate(order, start=1):
            entry = entries[pk]
            if entry.seed == seed:
                continue
            changes.append(
                EntryChange(
                    entry=entry,
                    field=EntryChange.Field.SEED,
                    before=str(entry.seed),
                    after=str(seed),
                    changed_by=by,
                    changed_at=now,
                )
            )
            entry.seed = seed
        Entry.objects.bulk_update(entries.values(), ["seed"])
        return EntryChange.objects.bulk_create(changes)


def history(tournament: Tournament, *, limit: int = 50) -> list[EntryChange]:
    """The latest changes to the tournament's entries, newest first."""
    changes = EntryChange.objects.filter(entry__tournament=tournament)
    return list(changes.select_related("entry__player", "changed_by")[:limit])
