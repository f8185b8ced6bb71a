"""Which language a visitor gets: Accept-Language on a first visit, then the switcher's
cookie, and for a logged-in user the language saved on their profile (applied on login)."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.language import SESSION_KEY
from accounts.models import UserProfile
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

COOKIE = settings.LANGUAGE_COOKIE_NAME


@pytest.fixture(autouse=True)
def _fast_hasher(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def page_language(response) -> str:
    match = re.search(r'<html lang="([^"]+)">', response.content.decode())
    assert match, "no <html lang> on the page"
    return match.group(1)


def switch(client, language: str, next_url: str = "/"):
    return client.post(reverse("set_language"), {"language": language, "next": next_url})


@pytest.mark.parametrize(
    ("accept", "expected"),
    [("it", "it"), ("it-IT,it;q=0.9,en;q=0.5", "it"), ("nb-NO,nb;q=0.9", "nb"), ("de", "en")],
)
def test_first_visit_follows_the_browsers_accept_language(client, accept, expected):
    response = client.get("/", HTTP_ACCEPT_LANGUAGE=accept)
    assert page_language(response) == expected
    assert response.headers["Content-Language"] == expected


def test_every_page_has_the_switcher_and_the_rules_link(client):
    html = client.get("/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    # The switcher is in the header beside the menu button (outside the collapsed menu).
    header = html[html.index('<header class="site-header"') : html.index("</header>")]
    nav = header[header.index('<nav class="site-nav"') : header.index("</nav>")]
    switcher = header[: header.index('<nav class="site-nav"')]
    assert f'action="{reverse("set_language")}"' in switcher
    assert 'href="/rules/"' in nav
    buttons = re.findall(
        r'<button type="submit" class="link" name="language" value="(\w+)"', switcher
    )
    assert buttons == ["en", "it", "nb"]
    assert re.search(r'value="it"[^>]*aria-pressed="true"', switcher)
    assert 'name="next" value="/"' in switcher


def test_switching_sets_the_cookie_and_goes_back_to_the_page(client):
    response = switch(client, "it", next_url="/rules/")
    assert response.status_code == 302 and response["Location"] == "/rules/"
    assert client.cookies[COOKIE].value == "it"
    # The cookie now beats the browser's Accept-Language.
    assert page_language(client.get("/rules/", HTTP_ACCEPT_LANGUAGE="en")) == "it"


def test_switching_needs_a_post(client):
    assert client.get(reverse("set_language"), {"language": "it"}).status_code == 405
    assert COOKIE not in client.cookies


def test_anonymous_switch_saves_no_profile(client):
    switch(client, "nb")
    assert not UserProfile.objects.exists()


def test_logged_in_switch_is_saved_on_the_profile(client):
    user = UserFactory()
    client.force_login(user)
    switch(client, "nb")
    assert UserProfile.objects.get(user=user).language == "nb"
    switch(client, "it")
    assert UserProfile.objects.get(user=user).language == "it"


def test_a_language_the_site_does_not_offer_is_not_saved(client):
    user = UserFactory()
    client.force_login(user)
    switch(client, "de")
    assert not UserProfile.objects.filter(user=user).exists()


def test_login_applies_the_profile_language_and_sets_the_cookie(client):
    user = UserFactory(username="magrat")
    UserProfile.objects.create(user=user, language="it")
    response = client.post(
        reverse("login"),
        {"username": "magrat", "password": PASSWORD},
        HTTP_ACCEPT_LANGUAGE="en",
        follow=True,
    )
    assert response.context["user"] == user
    assert page_language(response) == "it"
    assert client.cookies[COOKIE].value == "it"
    # Logged out again, the cookie keeps the choice.
    client.post(reverse("logout"))
    assert page_language(client.get("/", HTTP_ACCEPT_LANGUAGE="en")) == "it"


def test_the_profile_beats_an_older_cookie_after_login(client):
    user = UserFactory()
    UserProfile.objects.create(user=user, language="nb")
    switch(client, "it")  # anonymous, on this browser
    client.force_login(user)
    response = client.get("/")
    assert page_language(response) == "nb"
    assert response.cookies[COOKIE].value == "nb"


def test_switching_while_logged_in_wins_over_the_saved_language(client):
    user = UserFactory()
    UserProfile.objects.create(user=user, language="it")
    client.force_login(user)
    # The switch is the first request of the session: no cookie matches the profile yet,
    # and the switcher's own cookie must not be replaced by the profile's.
    response = switch(client, "en")
    assert response.cookies[COOKIE].value == "en"
    assert page_language(client.get("/")) == "en"
    assert UserProfile.objects.get(user=user).language == "en"
    response = switch(client, "it")
    assert response.cookies[COOKIE].value == "it"
    assert page_language(client.get("/")) == "it"


def test_the_profile_is_read_once_per_session_not_per_request(client):
    user = UserFactory()
    UserProfile.objects.create(user=user, language="it")
    client.force_login(user)
    client.get("/")
    assert client.session[SESSION_KEY] == "it"
    with CaptureQueriesContext(connection) as queries:
        assert page_language(client.get("/")) == "it"
    assert not [q for q in queries if "accounts_userprofile" in q["sql"]]


def test_a_user_without_a_saved_language_keeps_the_browsers(client):
    client.force_login(UserFactory())
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="it")
    assert page_language(response) == "it"
    assert COOKIE not in response.cookies
