from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from accounts.models import UserProfile
from games.models.battle import MAX_CORRESPONDENCE_DAYS

from . import computer
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


class ComputerForm(forms.Form):
    """A battle against the computer: game, level, who moves first, time control."""

    game = forms.ChoiceField(label=_("Game"), widget=forms.RadioSelect)
    level = forms.TypedChoiceField(
        label=_("Level"),
        coerce=int,
        choices=[(n, str(n)) for n in (1, 2, 3, 4, 5)],
        initial=1,
        help_text=_("1 is a beginner who blunders; 5 plays as well as it can."),
        widget=forms.RadioSelect,
    )
    side = forms.ChoiceField(
        label=_("Who moves first"),
        choices=[
            (computer.YOU_FIRST, _("You")),
            (computer.COMPUTER_FIRST, _("The computer")),
            (computer.RANDOM, _("Toss a coin")),
        ],
        initial=computer.RANDOM,
        widget=forms.RadioSelect,
    )
    time_control = forms.ChoiceField(
        label=_("Time control"),
        choices=[
            (computer.QUICKFIRE, _("Quickfire: 15 s to think, then 5 s to move")),
            (computer.UNTIMED, _("Untimed: no clock")),
        ],
        initial=computer.QUICKFIRE,
        widget=forms.RadioSelect,
    )

    def __init__(self, *args, **kwargs) -> None:
        # Beside the challenge form on one page: ids of its own, or the labels of one
        # form's "Thud" and "Battaglia di Cavalli" would check the other's buttons.
        kwargs.setdefault("auto_id", "computer_%s")
        super().__init__(*args, **kwargs)
        offered = computer.games_offered()
        field = self.fields["game"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = [(game.key, _(game.name)) for game in offered]  # noqa: INT001
        if offered:
            field.initial = offered[0].key
