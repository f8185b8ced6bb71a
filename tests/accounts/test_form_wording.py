"""The account forms in plain words (issue 22): a label and one line of help per field, in
English and Norwegian or Italian, and a mistake answered beside its field."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.urls import reverse

from accounts.forms import ClaimForm, RateLimitedAuthenticationForm, RegistrationForm
from tests.factories import EntryFactory, UserFactory

pytestmark = pytest.mark.django_db


def page_of(client, name: str, language: str = "en") -> str:
    html = client.get(reverse(name), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    return re.sub(r"\s+", " ", unescape(html))


def field_block(page: str, field: str) -> str:
    """The page from ``field``'s label to the next field's label (or the form's end)."""
    start = page.index(f'for="id_{field}"')
    following = [page.find(m, start + 1) for m in ('<label for="id_', "</form>")]
    return page[start : min(i for i in following if i != -1)]


@pytest.mark.parametrize(
    ("form", "fields"),
    [
        (RegistrationForm, ("username", "password1", "password2", "player")),
        (ClaimForm, ("player", "message")),
    ],
)
def test_every_account_field_has_help(form, fields):
    EntryFactory()  # someone to claim: the player field is offered
    bound = form()
    assert tuple(bound.fields) == fields
    assert all(str(bound.fields[name].help_text).strip() for name in fields)


def test_every_login_field_has_help():
    form = RateLimitedAuthenticationForm()
    assert all(str(field.help_text).strip() for field in form.fields.values())


def test_the_registration_page_explains_each_field(client):
    page = page_of(client, "register")
    assert "The name you log in with and others see, e.g. anna_b" in field_block(page, "username")
    assert "At least 8 characters" in field_block(page, "password1")
    assert ">Password again<" in page or ">Password again:<" in page
    # Django's own list of password rules is replaced by one sentence.
    assert "Your password can’t be entirely numeric" not in page


def test_the_registration_page_reads_in_norwegian(client):
    page = page_of(client, "register", "nb")
    assert "Navnet du logger inn med og andre ser" in field_block(page, "username")
    assert "Passord igjen" in field_block(page, "password2")
    assert "The name you log in with" not in page


def test_a_mistake_is_answered_beside_its_field(client):
    data = {"username": "nobby", "password1": "b4shfull-Dwarf", "password2": "typo-Dwarf"}
    response = client.post(reverse("register"), data, HTTP_ACCEPT_LANGUAGE="en")
    page = re.sub(r"\s+", " ", unescape(response.content.decode()))
    assert "errorlist" in field_block(page, "password2")
    assert "errorlist" not in field_block(page, "username")


def test_the_claim_page_says_who_checks_the_claim(client):
    EntryFactory(player__name="Nobby Nobbs")
    client.force_login(UserFactory())
    page = page_of(client, "claim_player", "it")
    assert "un organizzatore verifica la richiesta" in field_block(page, "player")
