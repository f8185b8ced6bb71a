"""Handing out the personal links from the organiser's pages: each link with a copy
button on the dashboard, the printable list, the e-mails (asked first, each once), and a
revoked link refused however it was handed out."""

from __future__ import annotations

import re

import pytest
from django.core import mail

from outbox.models import OutboundEmail
from outbox.tasks import send_email
from tests.factories import EntryFactory, PlayerFactory, TournamentFactory, UserFactory
from tests.tournaments.web.organiser.pages import url
from tournaments.models.tournament import Entry
from tournaments.organising.personal_links import personal_path

pytestmark = pytest.mark.django_db

HOST = "http://testserver"


@pytest.fixture
def field():
    """Agnes and Nanny have accounts with addresses; Magrat has none, Esme no account."""
    t = TournamentFactory(name="Lancre Open")
    people = [
        ("Agnes Nitt", "agnes@example.org"),
        ("Nanny Ogg", "ogg@example.org"),
        ("Magrat Garlick", ""),
        ("Esme Weatherwax", None),
    ]
    for seed, (name, email) in enumerate(people, start=1):
        user = None if email is None else UserFactory(email=email)
        EntryFactory(tournament=t, seed=seed, player=PlayerFactory(name=name, user=user))
    return t


def link(entry: Entry) -> str:
    return HOST + personal_path(Entry.objects.get(pk=entry.pk))


def test_the_dashboard_shows_each_link_with_a_copy_button_to_its_organiser_only(client, field):
    client.force_login(field.owner)
    response = client.get(url(field))
    html = response.content.decode()
    assert "no-store" in response["Cache-Control"]  # no cache, no saved page keeps them
    for e in field.entries.select_related("player"):
        field_html = re.search(
            rf'<input type="text" readonly value="([^"]+)" id="link-{e.pk}"', html
        )
        assert field_html and field_html.group(1) == link(e)
        assert f'data-copy-for="link-{e.pk}"' in html
        assert f"Personal link of {e.player.name}" in html  # the field's name
    client.force_login(UserFactory())
    assert client.get(url(field)).status_code == 403


def test_the_printable_list_has_every_name_and_full_link_for_organisers_only(client, field):
    client.force_login(field.owner)
    response = client.get(url(field, "links/"))
    html = response.content.decode()
    assert response.status_code == 200 and "no-store" in response["Cache-Control"]
    assert url(field, "links/") in client.get(url(field)).content.decode()
    names = re.findall(r'<span class="link-name">([^<]+)</span>', html)
    assert names == ["Agnes Nitt", "Nanny Ogg", "Magrat Garlick", "Esme Weatherwax"]
    for e in field.entries.all():
        shown = re.search(rf'href="{re.escape(link(e))}" rel="noreferrer noopener">(.*?)</a>', html)
        assert shown and re.sub(r"<[^>]+>", "", shown.group(1)) == link(e)  # the whole URL
        assert shown.group(1).count("<wbr>") == 2  # breakable after /p/ and the host only
    assert html.count("<svg") == 4  # a QR code each
    client.logout()
    assert client.get(url(field, "links/")).status_code == 302
    client.force_login(UserFactory())
    assert client.get(url(field, "links/")).status_code == 403


def test_e_mailing_asks_first_saying_who_gets_one_and_who_has_no_address(client, field):
    client.force_login(field.owner)
    dashboard = client.get(url(field)).content.decode()
    assert "E-mail personal links to 2 players with an address" in dashboard
    page = client.get(url(field, "links/email/"))
    html = page.content.decode()
    assert page.status_code == 200
    to = re.search(r'<ul id="email-links-to">(.*?)</ul>', html).group(1)
    without = re.search(r'<ul id="email-links-without">(.*?)</ul>', html).group(1)
    assert "Agnes Nitt" in to and "Nanny Ogg" in to and "Magrat" not in to
    assert "Magrat Garlick" in without and "Esme Weatherwax" in without
    refused = client.post(url(field, "links/email/"))  # no yes: a script, a stale page
    assert refused.status_code == 400 and "email-links-to" in refused.content.decode()
    assert not OutboundEmail.objects.exists()
    client.force_login(UserFactory())
    assert client.post(url(field, "links/email/"), {"confirm": "1"}).status_code == 403
    assert not OutboundEmail.objects.exists()


def test_e_mailing_queues_one_each_and_a_second_post_sends_nothing_twice(client, field):
    client.force_login(field.owner)
    first = client.post(url(field, "links/email/"), {"confirm": "1"}, follow=True)
    text = first.content.decode()
    assert "2 e-mails with personal links are queued to be sent." in text
    assert "Not e-mailed (no e-mail address): Magrat Garlick, Esme Weatherwax." in text
    assert sorted(OutboundEmail.objects.values_list("to_address", flat=True)) == [
        "agnes@example.org",
        "ogg@example.org",
    ]
    again = client.post(url(field, "links/email/"), {"confirm": "1"}, follow=True)  # double tap
    text = again.content.decode()
    assert "0 e-mails with personal links are queued to be sent." in text
    assert "Already e-mailed this link before, not sent again: Agnes Nitt, Nanny Ogg." in text
    assert OutboundEmail.objects.count() == 2


def test_an_e_mailed_link_works_until_it_is_revoked_then_it_is_refused(client, field):
    """The seam of the e-mail and revoking: the link in the message the worker sent opens
    the page; after the organiser revokes it (asked first) the same link answers 404, and
    the dashboard, the list and the next e-mail carry the new one."""
    agnes = field.entries.get(player__name="Agnes Nitt")
    client.force_login(field.owner)
    client.post(url(field, "links/email/"), {"confirm": "1"})
    for row in OutboundEmail.objects.all():
        send_email(row.pk)
    [message] = [m for m in mail.outbox if m.to == ["agnes@example.org"]]
    mailed = re.search(r"https?://\S+/p/\S+/", message.body).group(0)
    assert mailed == link(agnes)
    client.logout()
    assert client.get(mailed.removeprefix(HOST)).status_code == 200
    client.force_login(field.owner)
    revoke = url(field, f"players/{agnes.pk}/revoke-link/")
    assert client.post(revoke).status_code == 400  # asked first: nothing changed
    assert client.get(mailed.removeprefix(HOST)).status_code == 200
    client.post(revoke, {"confirm": "1"})
    client.logout()
    assert client.get(mailed.removeprefix(HOST)).status_code == 404
    client.force_login(field.owner)
    new = link(agnes)
    assert new != mailed
    for page in (url(field), url(field, "links/")):
        html = client.get(page).content.decode()
        assert new in html and mailed not in html
    client.post(url(field, "links/email/"), {"confirm": "1"})
    newest = OutboundEmail.objects.filter(to_address="agnes@example.org").latest("pk")
    assert new in newest.body
