"""The Django admin's actions on tournaments: views (each answers an administrator's
request), so each reads the clock once, here, and passes ``now`` down (ARCHITECTURE
"Time is an argument"). ``tournaments.admin`` lists them on its model admins."""

from __future__ import annotations

from django.contrib import admin, messages
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.models.tournament import Tournament
from tournaments.rating.update import after_rounds_changed


@admin.action(
    description=gettext_lazy("Mark rated and rate its finished rounds"),
    permissions=["change"],
)
def mark_rated(modeladmin: admin.ModelAdmin, request, queryset) -> None:
    """A site administrator's decision: an imported tournament is unrated until then
    (``tournaments.archive.writer``); its players are rated at once. A copy of a
    tournament the site already holds (``archive.copies``) is refused: it would count
    the same rounds twice."""
    now = timezone.now()
    for copy in queryset.filter(copy_of__isnull=False).select_related("copy_of"):
        modeladmin.message_user(request, copy_refused(copy), messages.ERROR)
    originals = queryset.filter(copy_of__isnull=True)
    for tournament in originals.filter(rated=False):
        tournament.rated = True
        tournament.save(update_fields=["rated"])
        after_rounds_changed(tournament, now=now)
    if originals.exists():
        modeladmin.message_user(request, _("Marked rated."), messages.SUCCESS)


def copy_refused(copy: Tournament) -> str:
    assert copy.copy_of is not None
    return _(
        "“%(name)s” was not marked rated: it is a copy of “%(original)s”, already on this "
        "site, and a copy is never rated (its rounds would count twice)."
    ) % {"name": copy.name, "original": copy.copy_of.name}
