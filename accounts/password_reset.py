"""The password-reset form: its e-mail goes through the outbox, and resets are throttled.

Two limits, both silent (the page answers "check your inbox" either way, so it never
tells whether an account has that address):

- per client address: ``REQUESTS_PER_CLIENT`` reset requests an hour, counted before the
  address is even looked up (``thud_site.limits``: Redis, or each process's memory while
  Redis is down);
- per account and e-mail address: ``EMAILS_PER_ADDRESS`` reset e-mails an hour, counted
  as outbox rows, so the limit holds with Redis down and whichever client asks.

Beyond either limit nothing is queued. A reset link stays valid for
``PASSWORD_RESET_TIMEOUT``, so the owner can use one of the e-mails already sent.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.forms import PasswordResetForm
from django.template import loader

from accounts.forms import client_address
from outbox.emails import Limit, queue_email
from thud_site import limits

log = logging.getLogger(__name__)

KIND = "password_reset"
EMAILS_PER_ADDRESS = Limit(count=3, window=timedelta(hours=1))
REQUESTS_PER_CLIENT = 10
CLIENT_WINDOW_S = 3600
CLIENT_SCOPE = "password-reset"


class OutboxPasswordResetForm(PasswordResetForm):
    """Django's reset form, given the view's clock (``now``), read once for every e-mail
    of the request."""

    def __init__(self, *args: Any, now: datetime, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.now = now

    def save(self, *args: Any, **kwargs: Any) -> None:
        client = client_address(kwargs.get("request"))
        if not limits.allow(
            CLIENT_SCOPE, client, limit=REQUESTS_PER_CLIENT, window_s=CLIENT_WINDOW_S
        ):
            log.info("password reset refused: too many requests from one client address")
            return
        super().save(*args, **kwargs)

    def send_mail(
        self,
        subject_template_name,
        email_template_name,
        context,
        from_email,
        to_email,
        html_email_template_name=None,
    ) -> None:
        """Queue what Django would send (same templates, same context)."""
        subject = "".join(loader.render_to_string(subject_template_name, context).splitlines())
        html = ""
        if html_email_template_name is not None:
            html = loader.render_to_string(html_email_template_name, context)
        queued = queue_email(
            kind=KIND,
            to=to_email,
            recipient=context["user"],
            subject=subject,
            body=loader.render_to_string(email_template_name, context),
            html_body=html,
            now=self.now,
            limit=EMAILS_PER_ADDRESS,
        )
        if queued is None:
            log.info("password reset e-mail not queued: the account's hourly limit is reached")
