"""Organiser forms. Validation messages are shown next to the field; nothing is saved
unless the whole form is valid."""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from .imports import (
    INITIAL_POINTS_MAX,
    MAX_FILE_BYTES,
    RATING_MAX,
    RATING_MIN,
    TEXT_MAX_LENGTH,
    CsvImportError,
    limits_text,
    read_bounded,
    text_problem,
)
from .models import Entry, Round, Tournament


class TournamentForm(forms.ModelForm):
    class Meta:
        model = Tournament
        fields = [
            "name",
            "slug",
            "format",
            "rounds",
            "variant",
            "capture_policy",
            "venue",
            "start_date",
            "end_date",
            "points_win",
            "points_draw",
            "points_loss",
            "pairing_seed",
        ]
        widgets = {
            "start_date": forms.DateInput(attrs={"type": "date"}),
            "end_date": forms.DateInput(attrs={"type": "date"}),
        }

    def clean(self):
        data = super().clean()
        start, end = data.get("start_date"), data.get("end_date")
        if start and end and end < start:
            self.add_error("end_date", _("The end date is before the start date."))
        return data


class PlayerForm(forms.Form):
    """One player; the limits are those of a CSV import (``tournaments.imports``)."""

    name = forms.CharField(label=_("Name"), max_length=TEXT_MAX_LENGTH["name"])
    club = forms.CharField(label=_("Club"), max_length=TEXT_MAX_LENGTH["club"], required=False)
    country = forms.CharField(
        label=_("Country"), max_length=TEXT_MAX_LENGTH["country"], required=False
    )
    rating = forms.IntegerField(
        label=_("Rating"), required=False, min_value=RATING_MIN, max_value=RATING_MAX
    )
    late_from_round = forms.IntegerField(
        label=_("Late entry at round"), required=False, min_value=2
    )
    initial_points = forms.IntegerField(
        label=_("Match points on entry"),
        required=False,
        min_value=0,
        max_value=INITIAL_POINTS_MAX,
        initial=0,
    )

    def __init__(self, *args, tournament: Tournament, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        self.fields["late_from_round"].widget.attrs["max"] = tournament.rounds

    def _text(self, field: str) -> str:
        value = self.cleaned_data[field]
        problem = text_problem(field, value)
        if problem:
            raise forms.ValidationError(problem)
        return value

    def clean_name(self) -> str:
        name = self._text("name")
        if self.tournament.entries.filter(player__name__iexact=name).exists():
            raise forms.ValidationError(_("%(name)s is already entered.") % {"name": name})
        return name

    def clean_club(self) -> str:
        return self._text("club")

    def clean_country(self) -> str:
        return self._text("country")

    def clean_late_from_round(self) -> int | None:
        late = self.cleaned_data["late_from_round"]
        if late is not None and late > self.tournament.rounds:
            raise forms.ValidationError(
                _("The tournament has %(n)d rounds; a late entry joins at round %(n)d at most.")
                % {"n": self.tournament.rounds}
            )
        return late

    def clean(self):
        data = super().clean()
        if data.get("initial_points") and not data.get("late_from_round"):
            self.add_error("initial_points", _("Only a late entry starts with match points."))
        return data


class CsvUploadForm(forms.Form):
    file = forms.FileField(label=_("CSV file (name,club,country,rating)"))

    def clean_file(self) -> str:
        upload = self.cleaned_data["file"]
        # Refuse an oversized upload by its size, without reading it.
        if upload.size > MAX_FILE_BYTES:
            raise forms.ValidationError(
                _("The file is too large: %(limits)s.") % {"limits": limits_text()}
            )
        try:
            return read_bounded(upload)
        except CsvImportError as exc:
            raise forms.ValidationError(str(exc)) from None


class RefereeForm(forms.Form):
    username = forms.CharField(label=_("Username"), max_length=150)

    def clean_username(self):
        username = self.cleaned_data["username"].strip()
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise forms.ValidationError(_("No user named %(name)s.") % {"name": username})
        return user


class _EntryField(forms.ModelChoiceField):
    def label_from_instance(self, obj: Entry) -> str:
        return obj.player.name


class TwoEntriesForm(forms.Form):
    """Swap two players in a draft round, or forbid a pair."""

    first = _EntryField(label=_("Player"), queryset=Entry.objects.none())
    second = _EntryField(label=_("Other player"), queryset=Entry.objects.none())

    def __init__(self, *args, tournament: Tournament, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        entries = tournament.entries.select_related("player").order_by("player__name")
        self.fields["first"].queryset = entries
        self.fields["second"].queryset = entries

    def clean(self):
        data = super().clean()
        if data.get("first") and data.get("first") == data.get("second"):
            raise forms.ValidationError(_("Choose two different players."))
        return data


class ByeForm(forms.Form):
    entry = _EntryField(label=_("Player"), queryset=Entry.objects.none())

    def __init__(self, *args, round_: Round, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["entry"].queryset = round_.tournament.entries.select_related("player").order_by(
            "player__name"
        )
