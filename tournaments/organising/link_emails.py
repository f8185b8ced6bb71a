"""E-mailing the players their personal links (``organising.personal_links``).

Terminology: a player's *address* is the e-mail address of the account linked to their
player record; a player without an account (or whose account has no address) has none
and is never e-mailed. A *recipient* is an entry with an address.

Invariants: each message goes through the outbox (``outbox.emails``), queued in one
transaction and sent by a worker. Its idempotency key is a digest of the entry, its
current token and the address, so the same link to the same address is queued once
however often the organiser's request is repeated (a retry, a double tap, a second tab);
after the link is revoked, or the address changes, the new link can be sent.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext as _

from outbox.emails import queue_email
from tournaments.models.tournament import Entry, Tournament
from tournaments.organising.personal_links import personal_url

KIND = "personal_link"


def address(entry: Entry) -> str:
    """The player's e-mail address, or "" when there is none."""
    user = entry.player.user
    return (user.email or "").strip() if user is not None else ""


@dataclass(frozen=True)
class Recipients:
    """Who would get an e-mail and who has no address, both in seed order."""

    with_address: list[Entry]
    without_address: list[Entry]


@dataclass
class Sent:
    """What one request did: queued now, queued before (same link, same address), and
    not e-mailed (no address)."""

    queued: list[Entry] = field(default_factory=list)
    queued_before: list[Entry] = field(default_factory=list)
    without_address: list[Entry] = field(default_factory=list)


def recipients(tournament: Tournament) -> Recipients:
    entries = tournament.entries.select_related("player__user__profile").order_by(
        "seed", "player__name"
    )
    with_address: list[Entry] = []
    without_address: list[Entry] = []
    for entry in entries:
        (with_address if address(entry) else without_address).append(entry)
    return Recipients(with_address, without_address)


def message_key(entry: Entry, to: str) -> str:
    """The outbox key of this link to this address (a digest: no secret in the key)."""
    text = f"{KIND}:{entry.pk}:{entry.personal_token}:{to.lower()}"
    return hashlib.sha256(text.encode()).hexdigest()


def _language(entry: Entry) -> str:
    """The recipient's profile language (the accounts app's ``UserProfile``, read through
    the account: tournaments does not import accounts), else the site's."""
    profile = getattr(entry.player.user, "profile", None)
    return (profile and profile.language) or settings.LANGUAGE_CODE


def _message(entry: Entry, url: str) -> tuple[str, str]:
    tournament = entry.tournament.name
    with translation.override(_language(entry)):
        subject = _("Your personal link for %(tournament)s") % {"tournament": tournament}
        body = _(
            "Hello %(name)s,\n\n"
            "this is your own page for %(tournament)s: your table, opponent, sides and "
            "result, live. No login needed; keep the link to yourself.\n\n"
            "%(url)s\n\n"
            "If the organiser gives you a new link, this one stops working."
        ) % {"name": entry.player.name, "tournament": tournament, "url": url}
    return subject, body


def email_personal_links(
    tournament: Tournament, *, absolute: Callable[[str], str], now: datetime
) -> Sent:
    """Queue one e-mail with their personal link to every player with an address."""
    found = recipients(tournament)
    sent = Sent(without_address=found.without_address)
    with transaction.atomic():
        for entry in found.with_address:
            to = address(entry)
            subject, body = _message(entry, personal_url(entry, absolute))
            queued = queue_email(
                kind=KIND,
                to=to,
                recipient=entry.player.user,
                subject=subject,
                body=body,
                now=now,
                key=message_key(entry, to),
            )
            (sent.queued if queued is not None else sent.queued_before).append(entry)
    return sent
