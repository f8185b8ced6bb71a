"""The password-reset page: Django's view, with the outbox form given the view's clock."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import views as auth_views
from django.utils import timezone

from accounts.password_reset import OutboxPasswordResetForm


class PasswordResetView(auth_views.PasswordResetView):
    form_class = OutboxPasswordResetForm

    def get_form_kwargs(self) -> dict[str, Any]:
        # The view's clock, read once for every e-mail of this request.
        return super().get_form_kwargs() | {"now": timezone.now()}
