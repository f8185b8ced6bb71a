"""Personal links: the secret, revocable URL of an entry's own page (``/p/<token>/``).

Terminology: the *token* is ``Entry.personal_token`` (128 random bits). Whoever holds the
link sees the entry's own page without logging in, so it never appears on a public page;
the organiser hands it out by copying it from the dashboard, on the printable list of
links, on a player card (PDF), by e-mail (``organising.link_emails``) or by
``manage.py player_links``. Each of them shows the one URL ``personal_url`` makes.
*Revoking* draws a new token: the old link answers 404 from then on, however it was
handed out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from django.urls import reverse

from tournaments.models.tournament import Entry, Tournament, new_personal_token


def personal_path(entry: Entry) -> str:
    """The path of the entry's personal link (make it absolute with the request's host)."""
    return reverse("personal_page", args=[entry.personal_token])


def personal_url(entry: Entry, absolute: Callable[[str], str]) -> str:
    """The full URL of the entry's personal link; ``absolute`` adds the site's address
    (the request's ``build_absolute_uri``)."""
    return absolute(personal_path(entry))


def revoke_personal_link(entry: Entry) -> Entry:
    """Replace the entry's token: the old link stops working at once."""
    entry.personal_token = new_personal_token()
    entry.save(update_fields=["personal_token"])
    return entry


def personal_links(tournament: Tournament) -> Iterator[tuple[Entry, str]]:
    """Every entry of the tournament with its personal link's path, in seed order."""
    for entry in tournament.entries.select_related("player").order_by("seed", "player__name"):
        yield entry, personal_path(entry)
