"""The tournament's tabs (templates/tournaments/_tournament_nav.html) list the published
rounds on every public page of the tournament, whatever the view put in its context; under
them a copy names its original (``_copy_notice.html``, ``archive.copies``)."""

from __future__ import annotations

from django import template
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString

from tournaments.models.rounds import Round
from tournaments.models.tournament import Tournament

register = template.Library()


@register.simple_tag
def published_rounds(tournament: Tournament) -> list[Round]:
    return list(tournament.round_set.counted().order_by("number"))


@register.simple_tag
def original_link(tournament: Tournament) -> SafeString:
    """A link to the tournament ``tournament`` is a copy of, named by its name."""
    original = tournament.copy_of
    assert original is not None  # the template asks for a copy's only
    return format_html(
        '<a href="{}">{}</a>', reverse("tournament", args=[original.slug]), original.name
    )
