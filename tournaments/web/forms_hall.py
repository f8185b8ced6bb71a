"""The organiser's hall screen controls: the announcement and the round timer."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.rules import timer


class AnnouncementForm(forms.Form):
    announcement = forms.CharField(
        label=_("Announcement on the hall screen"),
        required=False,
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("Shown between the pairings and the standings; leave empty for none."),
    )


class RoundTimerForm(forms.Form):
    minutes = forms.IntegerField(
        label=_("Round time (minutes)"),
        min_value=1,
        max_value=timer.MAX_MINUTES,
        initial=45,
        help_text=_("Shown counting down on the hall screen, with a warning at 5 minutes."),
    )
