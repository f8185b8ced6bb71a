"""E-mailing the personal links (``organising.link_emails``): one e-mail per player with an
address, through the outbox, each link to each address queued once."""

from __future__ import annotations

import pytest
from django.core import mail
from django.utils import timezone

from accounts.models import UserProfile
from outbox.models import OutboundEmail
from outbox.tasks import send_email
from tests.factories import EntryFactory, PlayerFactory, TournamentFactory, UserFactory
from tournaments.organising import link_emails
from tournaments.organising.link_emails import email_personal_links, recipients
from tournaments.organising.personal_links import personal_path, revoke_personal_link

pytestmark = pytest.mark.django_db


def absolute(path: str) -> str:
    return f"https://thud.example.org{path}"


def field(addresses: dict[str, str]):
    """A tournament whose players are the keys; a value is the account's address, or ""
    for an account without one; a name missing from ``addresses`` has no account."""
    t = TournamentFactory(name="Lancre Open")
    names = ["Agnes Nitt", "Magrat Garlick", "Nanny Ogg", "Esme Weatherwax"]
    for seed, name in enumerate(names, start=1):
        user = UserFactory(email=addresses[name]) if name in addresses else None
        EntryFactory(tournament=t, seed=seed, player=PlayerFactory(name=name, user=user))
    return t


def test_recipients_are_the_players_with_an_address_the_others_are_listed_apart():
    t = field({"Agnes Nitt": "agnes@example.org", "Magrat Garlick": "", "Nanny Ogg": "ogg@x.org"})
    found = recipients(t)
    assert [e.player.name for e in found.with_address] == ["Agnes Nitt", "Nanny Ogg"]
    assert [e.player.name for e in found.without_address] == ["Magrat Garlick", "Esme Weatherwax"]


def test_each_player_with_an_address_gets_their_own_link_once():
    t = field({"Agnes Nitt": "agnes@example.org", "Nanny Ogg": "ogg@x.org"})
    now = timezone.now()
    sent = email_personal_links(t, absolute=absolute, now=now)
    assert [e.player.name for e in sent.queued] == ["Agnes Nitt", "Nanny Ogg"]
    assert [e.player.name for e in sent.without_address] == ["Magrat Garlick", "Esme Weatherwax"]
    rows = {r.to_address: r for r in OutboundEmail.objects.filter(kind=link_emails.KIND)}
    for entry in sent.queued:
        row = rows[entry.player.user.email]
        assert absolute(personal_path(entry)) in row.body  # their own link, not another's
        assert row.subject == "Your personal link for Lancre Open"
        assert row.recipient == entry.player.user
    again = email_personal_links(t, absolute=absolute, now=now)  # a retry, a double tap
    assert again.queued == [] and len(again.queued_before) == 2
    assert OutboundEmail.objects.count() == 2


def test_a_new_link_or_a_new_address_is_e_mailed_again():
    t = field({"Agnes Nitt": "agnes@example.org", "Nanny Ogg": "ogg@x.org"})
    email_personal_links(t, absolute=absolute, now=timezone.now())
    agnes = t.entries.get(player__name="Agnes Nitt")
    revoke_personal_link(agnes)
    ogg = t.entries.get(player__name="Nanny Ogg").player.user
    ogg.email = "gytha@x.org"
    ogg.save()
    sent = email_personal_links(t, absolute=absolute, now=timezone.now())
    assert [e.player.name for e in sent.queued] == ["Agnes Nitt", "Nanny Ogg"]
    newest = OutboundEmail.objects.filter(to_address="agnes@example.org").latest("pk")
    assert absolute(personal_path(agnes)) in newest.body


def test_the_e_mail_is_in_the_players_language_and_the_worker_sends_it():
    t = field({"Agnes Nitt": "agnes@example.org"})
    user = t.entries.get(player__name="Agnes Nitt").player.user
    UserProfile.objects.create(user=user, language="it")
    email_personal_links(t, absolute=absolute, now=timezone.now())
    row = OutboundEmail.objects.get()
    send_email(row.pk)
    [message] = mail.outbox
    assert message.to == ["agnes@example.org"]
    assert (
        "Lancre Open" in message.subject and message.subject != "Your personal link for Lancre Open"
    )
    assert absolute(personal_path(t.entries.get(player__name="Agnes Nitt"))) in message.body
