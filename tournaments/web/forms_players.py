"""Entering players: one by hand or a CSV file of them, within the limits of a CSV import
(``tournaments.organising.csv_rows``), or a bot account by its username."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.models.countries import UnknownCountryError, country_code, country_name
from tournaments.models.tournament import Tournament
from tournaments.organising.csv_rows import (
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


def _country(text: str) -> str:
    """The ISO code of a country typed as a name or a code (``models.countries``)."""
    try:
        return country_code(text)
    except UnknownCountryError as exc:
        raise forms.ValidationError(str(exc)) from None


class PlayerForm(forms.Form):
    """One player; the limits are those of a CSV import (``tournaments.organising.csv_rows``)."""

    name = forms.CharField(
        label=_("Player's name"),
        max_length=TEXT_MAX_LENGTH["name"],
        help_text=_("As it should appear on pairings and standings, e.g. Anna Berg."),
        error_messages={"required": _("Type the player's name.")},
    )
    club = forms.CharField(
        label=_("Club"),
        max_length=TEXT_MAX_LENGTH["club"],
        required=False,
        help_text=_("Optional, e.g. Lancre Thud Club; tells two players of one name apart."),
    )
    country = forms.CharField(
        label=_("Country"),
        max_length=TEXT_MAX_LENGTH["country"],
        required=False,
        help_text=_("Optional: its name or its ISO code, e.g. Norway or NO."),
    )
    rating = forms.IntegerField(
        label=_("Rating"),
        required=False,
        min_value=RATING_MIN,
        max_value=RATING_MAX,
        help_text=_(
            "Optional, a whole number from 0 to 4000; players are seeded in the order "
            "they are entered."
        ),
        error_messages=dict.fromkeys(
            ("invalid", "min_value", "max_value"),
            _("A rating is a whole number from 0 to 4000."),
        ),
    )
    late_from_round = forms.IntegerField(
        label=_("Joins late, at round"),
        required=False,
        min_value=2,
        help_text=_(
            "Only for a player who arrives after the start, e.g. 3; leave it empty to "
            "play from round 1."
        ),
        error_messages=dict.fromkeys(
            ("invalid", "min_value"), _("A late entry joins at round 2 or later.")
        ),
    )
    initial_points = forms.IntegerField(
        label=_("Match points on entry"),
        required=False,
        min_value=0,
        max_value=INITIAL_POINTS_MAX,
        initial=0,
        help_text=_(
            "Only for a late entry: the points they start with, e.g. 1 for the rounds they missed."
        ),
        error_messages=dict.fromkeys(
            ("invalid", "min_value", "max_value"),
            _("Match points on entry are a whole number from 0 to 1000."),
        ),
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
        return _country(self._text("country"))

    def clean_late_from_round(self) -> int | None:
        late = self.cleaned_data["late_from_round"]
        if late is not None and late > self.tournament.rounds:
            raise forms.ValidationError(
                _("The tournament has %(n)d rounds; a late entry joins at round %(n)d at most.")
                % {"n": self.tournament.rounds}
            )
        return late

    def clean(self):
        super().clean()
        data = self.cleaned_data
        if data.get("initial_points") and not data.get("late_from_round"):
            self.add_error("initial_points", _("Only a late entry starts with match points."))
        return data


class BotEntryForm(forms.Form):
    """A bot account, by username; whether it may be entered is ``organising.bots``'s word."""

    username = forms.CharField(
        label=_("The bot account's username"),
        max_length=150,
        help_text=_(
            "The name the bot logs in with, e.g. koom_valley_bot; its owner made it a bot "
            "account in its play settings."
        ),
        error_messages={"required": _("Type the bot account's username.")},
    )

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("auto_id", "id_bot_%s")  # the referee form has a username too
        super().__init__(*args, **kwargs)


class CsvUploadForm(forms.Form):
    file = forms.FileField(
        label=_("Spreadsheet of players (CSV file)"),
        help_text=_(
            "A header row name,club,country,rating, then one player a row, e.g. "
            "Anna Berg,Lancre,Norway,1500; only the name is required."
        ),
        error_messages={"required": _("Choose a CSV file of players to upload.")},
    )

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


class EntryForm(forms.Form):
    """An entry's correction: the player's name, club, country and rating, and the seed.
    The rules (a unique name and seed) are ``tournaments.organising.entries``'s."""

    name = forms.CharField(
        label=_("Player's name"),
        max_length=TEXT_MAX_LENGTH["name"],
        error_messages={"required": _("Type the player's name.")},
    )
    club = forms.CharField(label=_("Club"), max_length=TEXT_MAX_LENGTH["club"], required=False)
    country = forms.CharField(
        label=_("Country"),
        max_length=TEXT_MAX_LENGTH["country"],
        required=False,
        help_text=_("Its name or its ISO code, e.g. Norway or NO."),
    )
    rating = forms.IntegerField(
        label=_("Rating"),
        required=False,
        min_value=RATING_MIN,
        max_value=RATING_MAX,
        help_text=_("Optional, a whole number from 0 to 4000."),
        error_messages=dict.fromkeys(
            ("invalid", "min_value", "max_value"),
            _("A rating is a whole number from 0 to 4000."),
        ),
    )
    seed = forms.IntegerField(
        label=_("Seed"),
        min_value=1,
        help_text=_("1 is the strongest; two players cannot share a seed."),
        error_messages={
            "required": _("Give the seed, a whole number from 1."),
            "invalid": _("A seed is a whole number from 1."),
            "min_value": _("A seed is a whole number from 1."),
        },
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # The stored code is shown as the country's name in the reader's language.
        if self.initial.get("country"):
            self.initial["country"] = country_name(self.initial["country"])

    def clean_country(self) -> str:
        return _country(self.cleaned_data["country"])
