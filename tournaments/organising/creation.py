"""Creating a tournament with a unique web address (its slug).

A slug left empty is made from the name (``free_slug``): the name slugified, with -2,
-3, … added while taken. Organisers creating tournaments of one name at once all read
the same free slug; the unique index lets one insert win, and each other one retries in
a savepoint with the next slug free by then, so every creation succeeds. A slug the
organiser typed is their choice: taken meanwhile, it is refused (``SlugTaken``), never
changed behind their back.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from tournaments.models.tournament import Tournament

# Each retry follows a creation that won, so parallel posts of one name need at most
# one try each beyond the first; the bound only stops a loop that cannot end.
MAX_ATTEMPTS = 50


class SlugTaken(ValueError):
    """A typed slug is taken; the message is shown next to the field."""


def slug_taken_message(slug: str) -> str:
    return _("The address %(slug)s is taken by another tournament; choose another.") % {
        "slug": slug
    }


def free_slug(base: str) -> str:
    """``base`` cut to the field's length, with -2, -3, … added when it is taken."""
    max_length = Tournament._meta.get_field("slug").max_length
    assert max_length is not None  # the slug field declares one
    base = base[:max_length].strip("-")
    if not base:
        return ""
    taken = set(
        Tournament.objects.filter(slug__startswith=base[: max_length - 4]).values_list(
            "slug", flat=True
        )
    )
    slug, n = base, 1
    while slug in taken:
        n += 1
        suffix = f"-{n}"
        slug = base[: max_length - len(suffix)].rstrip("-") + suffix
    return slug


def create_tournament(tournament: Tournament, *, owner: User, slug_from_name: bool) -> Tournament:
    """Insert the unsaved ``tournament`` owned by ``owner``; raises ``SlugTaken``."""
    tournament.owner = owner
    for _attempt in range(MAX_ATTEMPTS):
        try:
            with transaction.atomic():  # a savepoint: the caller's transaction survives
                tournament.save(force_insert=True)
            return tournament
        except IntegrityError:
            if not Tournament.objects.filter(slug=tournament.slug).exists():
                raise  # not the slug: a bug, not a race
            if not slug_from_name:
                raise SlugTaken(slug_taken_message(tournament.slug)) from None
            tournament.slug = free_slug(slugify(tournament.name))
    raise IntegrityError(f"no free slug for {tournament.name!r} in {MAX_ATTEMPTS} attempts")
