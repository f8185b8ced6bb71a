from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse

from tests.factories import PASSWORD, EntryFactory, PlayerFactory, TournamentFactory, UserFactory
from tournaments.forms_accounts import LOGIN_MAX_FAILURES
from tournaments.models import PlayerClaim

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def local_cache(settings):
    # A private in-memory cache: failed-login counts never leak between tests or runs.
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "test-accounts",
        }
    }
    from django.core.cache import cache

    cache.clear()


def login(client, username, password, addr="10.0.0.1"):
    return client.post(
        reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=addr
    )


def test_login_succeeds_with_the_right_password(client):
    user = UserFactory()
    response = login(client, user.username, PASSWORD)
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(user.pk)


def test_login_is_refused_after_five_failures_even_with_the_right_password(client):
    user = UserFactory()
    for _ in range(LOGIN_MAX_FAILURES):
        assert login(client, user.username, "wrong").status_code == 200
    response = login(client, user.username, PASSWORD)
    assert response.status_code == 200
    assert "Too many failed log-in attempts" in response.content.decode()
    assert "_auth_user_id" not in client.session
    # Another address is not blocked by someone else's guessing.
    assert login(client, user.username, PASSWORD, addr="10.0.0.2").status_code == 302


def test_a_success_clears_the_failure_count(client):
    user = UserFactory()
    for _ in range(LOGIN_MAX_FAILURES - 1):
        login(client, user.username, "wrong")
    assert login(client, user.username, PASSWORD).status_code == 302
    client.logout()
    for _ in range(LOGIN_MAX_FAILURES - 1):
        login(client, user.username, "wrong")
    assert login(client, user.username, PASSWORD).status_code == 302


def test_login_keeps_csrf_protection():
    from django.test import Client

    user = UserFactory()
    strict = Client(enforce_csrf_checks=True)
    response = strict.post(reverse("login"), {"username": user.username, "password": PASSWORD})
    assert response.status_code == 403


def test_logout_is_a_post(client):
    client.force_login(UserFactory())
    assert client.post(reverse("logout")).status_code == 302
    assert "_auth_user_id" not in client.session


def test_password_change(client):
    user = UserFactory()
    client.force_login(user)
    assert client.get(reverse("password_change")).status_code == 200
    response = client.post(
        reverse("password_change"),
        {
            "old_password": PASSWORD,
            "new_password1": "n3w-Secret-pass",
            "new_password2": "n3w-Secret-pass",
        },
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password("n3w-Secret-pass")


def test_password_reset_sends_a_link_by_email(client, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    user = UserFactory(email="mustrum@example.org")
    assert client.get(reverse("password_reset")).status_code == 200
    response = client.post(reverse("password_reset"), {"email": user.email})
    assert response.status_code == 302
    assert len(mail.outbox) == 1 and "/accounts/reset/" in mail.outbox[0].body


def test_registration_with_a_claim_creates_a_pending_claim(client):
    player = PlayerFactory(name="Grag Bashfull")
    response = client.post(
        reverse("register"),
        {
            "username": "grag",
            "password1": "b4shfull-Dwarf",
            "password2": "b4shfull-Dwarf",
            "player": player.pk,
        },
    )
    assert response.status_code == 302
    user = get_user_model().objects.get(username="grag")
    claim = PlayerClaim.objects.get(user=user)
    assert claim.player == player and claim.status == PlayerClaim.Status.PENDING
    player.refresh_from_db()
    assert player.user is None  # linked only when an organiser approves


def test_a_player_with_a_pending_claim_cannot_be_claimed_again(client):
    player = PlayerFactory()
    PlayerClaim.objects.create(user=UserFactory(), player=player)
    client.force_login(UserFactory())
    response = client.post(reverse("claim_player"), {"player": player.pk})
    assert response.status_code == 200 and "errorlist" in response.content.decode()
    assert PlayerClaim.objects.count() == 1


def test_organiser_approves_a_claim_on_a_player_of_their_tournament(client):
    entry = EntryFactory()
    claimant = UserFactory()
    claim = PlayerClaim.objects.create(user=claimant, player=entry.player)
    client.force_login(entry.tournament.owner)
    assert f"claim-{claim.pk}" in client.get(reverse("pending_claims")).content.decode()
    assert client.post(reverse("approve_claim", args=[claim.pk])).status_code == 302
    entry.player.refresh_from_db()
    claim.refresh_from_db()
    assert entry.player.user == claimant and claim.status == PlayerClaim.Status.APPROVED


def test_organiser_rejects_a_claim(client):
    entry = EntryFactory()
    claim = PlayerClaim.objects.create(user=UserFactory(), player=entry.player)
    client.force_login(entry.tournament.owner)
    client.post(reverse("reject_claim", args=[claim.pk]))
    claim.refresh_from_db()
    entry.player.refresh_from_db()
    assert claim.status == PlayerClaim.Status.REJECTED and entry.player.user is None


def test_organiser_of_another_tournament_cannot_decide_a_claim(client):
    entry = EntryFactory()
    claim = PlayerClaim.objects.create(user=UserFactory(), player=entry.player)
    client.force_login(TournamentFactory().owner)
    assert f"claim-{claim.pk}" not in client.get(reverse("pending_claims")).content.decode()
    assert client.post(reverse("approve_claim", args=[claim.pk])).status_code == 404
    entry.player.refresh_from_db()
    assert entry.player.user is None


def test_claim_decisions_need_a_post(client):
    entry = EntryFactory()
    claim = PlayerClaim.objects.create(user=UserFactory(), player=entry.player)
    client.force_login(entry.tournament.owner)
    assert client.get(reverse("approve_claim", args=[claim.pk])).status_code == 405
