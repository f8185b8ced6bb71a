from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from accounts.models import UserProfile
from games.models.battle import MAX_CORRESPONDENCE_DAYS

from .models import Challenge


class ChallengeForm(forms.ModelForm):
    """A challenge to a named user, or a public seek when the username is left empty."""

    username = forms.CharField(
        label=_("Opponent's username"),
        required=False,
        max_length=150,
        help_text=_("Leave empty to open a seek any player may accept."),
    )
    days = forms.IntegerField(
        label=_("Days per move"),
        min_value=1,
        max_value=MAX_CORRESPONDENCE_DAYS,
        initial=3,
        help_text=_("Correspondence only."),
    )

    class Meta:
        model = Challenge
        fields = ["game", "timing", "days", "first", "rated_match"]

    def __init__(self, *args, user, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.user = user
        for name in ("game", "timing"):
            field = self.fields[name]
            assert isinstance(field, forms.ChoiceField)  # model fields with choices
            # django-stubs types the choices getter as the setter's input (a list here).
            field.widget = forms.RadioSelect(choices=field.choices)  # type: ignore[arg-type]

    def clean_username(self):
        name = self.cleaned_data["username"].strip()
        if not name:
            return None
        try:
            opponent = get_user_model().objects.get(username__iexact=name, is_active=True)
        except get_user_model().DoesNotExist:
            raise forms.ValidationError(_("There is no user with that name.")) from None
        if opponent.pk == self.user.pk:
            raise forms.ValidationError(_("You cannot challenge yourself."))
        return opponent


class NotificationsForm(forms.ModelForm):
    class Meta:
        model = UserProfile
        fields = ["email_notifications"]
