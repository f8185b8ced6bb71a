from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core import mail
from django.db import connections
from django.test import Client
from django.urls import reverse

from accounts.forms import LOGIN_MAX_FAILURES
from outbox.models import OutboundEmail
from outbox.tasks import send_email
from tests.factories import PASSWORD, EntryFactory, TournamentFactory, UserFactory
from tournaments.models.people import PlayerClaim

pytestmark = pytest.mark.django_db


class CountingBackend(ModelBackend):
    """Django's own backend, counting how often a password is actually checked.

    The limiter's job is to stop guesses before they reach the backend, so the count
    is what the login-limit tests assert on; authentication itself is unchanged.
    """

    calls = 0
    lock = threading.Lock()

    def authenticate(self, request, username=None, password=None, **kwargs):
        with CountingBackend.lock:
            CountingBackend.calls += 1
        return super().authenticate(request, username=username, password=password, **kwargs)


@pytest.fixture
def counting_backend(settings):
    settings.AUTHENTICATION_BACKENDS = [f"{__name__}.CountingBackend"]
    CountingBackend.calls = 0
    return CountingBackend


def login(client, username, password, addr="10.0.0.1", url_name="login", **headers):
    return client.post(
        reverse(url_name),
        {"username": username, "password": password},
        REMOTE_ADDR=addr,
        **headers,
    )


def is_rate_limited(response) -> bool:
    return response.status_code == 200 and "Too many failed log-in attempts" in (
        response.content.decode()
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


@pytest.mark.django_db(transaction=True)  # the threads' own connections must see the user
def test_parallel_wrong_logins_reach_the_password_check_at_most_the_limit(
    counting_backend, redis_cache
):
    user = UserFactory()
    attempts = 40
    barrier = threading.Barrier(attempts)

    def guess(i: int) -> int:
        try:
            barrier.wait()  # release all guesses at once, as an attacker would
            return login(Client(), user.username, f"wrong-{i}").status_code
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=attempts) as pool:
        statuses = list(pool.map(guess, range(attempts)))

    assert statuses == [200] * attempts
    assert counting_backend.calls == LOGIN_MAX_FAILURES
    # The limit is reached, so even the right password is refused without a check.
    client = Client()
    assert is_rate_limited(login(client, user.username, PASSWORD))
    assert "_auth_user_id" not in client.session
    assert counting_backend.calls == LOGIN_MAX_FAILURES


def test_admin_login_shares_the_limit_with_the_site_login(client, counting_backend):
    staff = UserFactory(is_staff=True, is_superuser=True)
    # Guesses split between the two login pages count against one budget.
    for _ in range(LOGIN_MAX_FAILURES - 2):
        login(client, staff.username, "wrong")
    for _ in range(2):
        login(client, staff.username, "wrong", url_name="admin:login")
    response = login(client, staff.username, PASSWORD, url_name="admin:login")
    assert is_rate_limited(response)
    assert "_auth_user_id" not in client.session
    assert counting_backend.calls == LOGIN_MAX_FAILURES


def test_admin_login_alone_is_limited(client, counting_backend):
    staff = UserFactory(is_staff=True, is_superuser=True)
    for _ in range(LOGIN_MAX_FAILURES + 3):
        login(client, staff.username, "wrong", url_name="admin:login")
    assert counting_backend.calls == LOGIN_MAX_FAILURES
    assert is_rate_limited(login(client, staff.username, PASSWORD, url_name="admin:login"))
    assert "_auth_user_id" not in client.session


def test_behind_a_trusted_proxy_each_forwarded_address_has_its_own_limit(client, settings):
    settings.THUD_CLIENT_IP_HEADER = "HTTP_X_FORWARDED_FOR"
    settings.THUD_TRUSTED_PROXY_COUNT = 1
    proxy = "10.0.0.254"  # every request arrives from the proxy
    user = UserFactory()
    for i in range(LOGIN_MAX_FAILURES):
        # The client forges a different first entry each time; the proxy appends the
        # address it saw, and only that one counts.
        login(
            client,
            user.username,
            "wrong",
            addr=proxy,
            HTTP_X_FORWARDED_FOR=f"1.2.3.{i}, 203.0.113.1",
        )
    blocked = login(client, user.username, PASSWORD, addr=proxy, HTTP_X_FORWARDED_FOR="203.0.113.1")
    assert is_rate_limited(blocked)
    other = login(client, user.username, PASSWORD, addr=proxy, HTTP_X_FORWARDED_FOR="203.0.113.2")
    assert other.status_code == 302


def test_without_a_configured_header_a_spoofed_forwarded_for_is_ignored(client):
    user = UserFactory()
    for i in range(LOGIN_MAX_FAILURES):
        login(client, user.username, "wrong", HTTP_X_FORWARDED_FOR=f"198.51.100.{i}")
    response = login(client, user.username, PASSWORD, HTTP_X_FORWARDED_FOR="198.51.100.99")
    assert is_rate_limited(response)


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
    send_email(OutboundEmail.objects.get().pk)  # what the worker does after the commit
    assert len(mail.outbox) == 1 and "/accounts/reset/" in mail.outbox[0].body


def test_registration_with_a_claim_creates_a_pending_claim(client):
    player = EntryFactory(player__name="Grag Bashfull").player
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
    player = EntryFactory().player
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
