"""Accounts (``/accounts/``): Django's auth views plus registration and player claims."""

from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.urls import include, path

from accounts import views_claims as views
from accounts import views_tokens
from accounts.forms import RateLimitedAuthenticationForm
from accounts.views_password_reset import PasswordResetView

urlpatterns = [
    # Listed before django.contrib.auth.urls so this rate-limited login wins the name.
    path(
        "login/",
        auth_views.LoginView.as_view(authentication_form=RateLimitedAuthenticationForm),
        name="login",
    ),
    # Before django.contrib.auth.urls too: the reset e-mail goes through the outbox, throttled.
    path(
        "password_reset/",
        PasswordResetView.as_view(),
        name="password_reset",
    ),
    path("register/", views.register, name="register"),
    path("claim/", views.claim_player, name="claim_player"),
    path("claims/", views.pending_claims, name="pending_claims"),
    path(
        "claims/<int:claim_id>/approve/",
        views.decide_claim,
        {"decision": "approve"},
        name="approve_claim",
    ),
    path(
        "claims/<int:claim_id>/reject/",
        views.decide_claim,
        {"decision": "reject"},
        name="reject_claim",
    ),
    path("tokens/", views_tokens.access_tokens, name="access_tokens"),
    path(
        "tokens/<int:token_id>/revoke/",
        views_tokens.revoke_access_token,
        name="revoke_access_token",
    ),
    path("", include("django.contrib.auth.urls")),
]
