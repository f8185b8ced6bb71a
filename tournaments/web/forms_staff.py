"""Picking a user by username: a referee, a co-organiser, an organiser."""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _


class UsernameForm(forms.Form):
    """A user picked by username: a referee, a co-organiser, an organiser."""

    username = forms.CharField(
        label=_("Their username"),
        max_length=150,
        help_text=_(
            "The name the person logs in with, e.g. anna_b; they need an account on this "
            "site first."
        ),
        error_messages={"required": _("Type the person's username.")},
    )

    def clean_username(self):
        username = self.cleaned_data["username"].strip()
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise forms.ValidationError(_("No user named %(name)s.") % {"name": username})
        return user
