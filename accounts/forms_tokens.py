"""The account page's form for a new personal access token (``accounts.tokens``)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.models import TOKEN_NAME_MAX, TokenScope


class TokenForm(forms.Form):
    name = forms.CharField(
        label=_("Name"),
        max_length=TOKEN_NAME_MAX,
        help_text=_("What the token is for, to recognise it in the list, e.g. “club bot”."),
        error_messages={"required": _("Give the token a name.")},
    )
    scopes = forms.MultipleChoiceField(
        label=_("What it may do"),
        choices=TokenScope.choices,
        widget=forms.CheckboxSelectMultiple,
        help_text=_(
            "Choose only what the program needs. A token never does more than your "
            "account may: tournament administration acts only on tournaments you run."
        ),
        error_messages={"required": _("Choose at least one scope.")},
    )
