"""Organiser forms. Validation messages are shown next to the field; nothing is saved
unless the whole form is valid."""

from __future__ import annotations

from decimal import Decimal

from django import forms
from django.contrib.auth import get_user_model
from django.utils.text import format_lazy, slugify
from django.utils.translation import gettext_lazy as _

from tournaments.models import Entry, Round, Tournament
from tournaments.organising import settings_changes
from tournaments.organising.creation import free_slug, slug_taken_message
from tournaments.organising.imports import (
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

PAIRING_SEED_HELP = _(
    "A number that makes the random choices of pairing repeatable: the same players, "
    "results and seed always give the same pairings. Any number will do."
)
# A date input speaks ISO 8601 whatever the page's language (not the locale's format).
DATE_WIDGETS = {
    "start_date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    "end_date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
}


class _TournamentChecks(forms.ModelForm):
    """The checks the new-tournament and settings forms share."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # Not posted (an older page, a script): the tournament keeps its game (Thud when new).
        self.fields["game"].required = False

    def clean_game(self) -> str:
        return self.cleaned_data.get("game") or self.instance.game

    def clean(self):
        data = super().clean()
        start, end = data.get("start_date"), data.get("end_date")
        if start and end and end < start:
            self.add_error("end_date", _("The end date is before the start date."))
        win, draw, loss = (data.get(f"points_{k}") for k in ("win", "draw", "loss"))
        if None not in (win, draw, loss) and not win >= draw >= loss:
            self.add_error(
                "points_draw",
                _("A win must be worth at least a draw, and a draw at least a loss."),
            )
        return data


class TournamentForm(_TournamentChecks):
    """A new tournament. Left empty, the slug is made from the name."""

    class Meta:
        model = Tournament
        fields = [
            "name",
            "slug",
            "format",
            "rounds",
            "game",
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
        widgets = DATE_WIDGETS
        help_texts = {"pairing_seed": PAIRING_SEED_HELP}

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.slug_from_name = False  # made by clean(); creation may then change it
        slug = self.fields["slug"]
        slug.required = False
        slug.help_text = _(
            "The tournament's web address (letters, digits and hyphens). "
            "Leave it empty to make it from the name."
        )

    def clean_slug(self) -> str:
        slug = self.cleaned_data["slug"]
        if slug and Tournament.objects.filter(slug=slug).exists():
            raise forms.ValidationError(slug_taken_message(slug))
        return slug

    def validate_unique(self) -> None:
        # Not the slug: clean_slug refuses a typed one that is taken, and
        # creation.create_tournament settles races at the insert, which a check here
        # could only lose with a vaguer message.
        exclude = self._get_validation_exclusions() | {"slug"}
        try:
            self.instance.validate_unique(exclude=exclude)
        except forms.ValidationError as error:
            self._update_errors(error)

    def clean(self):
        data = super().clean()
        if not data.get("slug") and data.get("name") and "slug" not in self.errors:
            slug = free_slug(slugify(data["name"]))
            if slug:
                data["slug"] = slug
                self.slug_from_name = True
            else:
                self.add_error(
                    "slug",
                    _("No web address can be made from this name; please choose a slug."),
                )
        return data


class _Seconds(forms.DecimalField):
    """A clock duration typed in seconds and stored in milliseconds."""

    def __init__(self, *, label, min_seconds: str, max_seconds: str, **kwargs) -> None:
        super().__init__(
            label=label,
            min_value=Decimal(min_seconds),
            max_value=Decimal(max_seconds),
            decimal_places=3,  # whole milliseconds
            max_digits=6,
            **kwargs,
        )
        self.widget.attrs["step"] = "any"


# Model field -> form field, where the form shows a field in other units.
FORM_FIELD = {"think_ms": "think_s", "move_ms": "move_s"}


class TournamentSettingsForm(_TournamentChecks):
    """A tournament's settings once created; the fields ``locked`` names are shown
    disabled with their reason, and a changed value posted for one anyway is refused."""

    think_s = _Seconds(
        label=_("Thinking time (seconds)"),
        min_seconds="1",
        max_seconds="600",
        help_text=_("Per turn, before the move must be made."),
    )
    move_s = _Seconds(
        label=_("Moving time (seconds)"),
        min_seconds="1",
        max_seconds="600",
        help_text=_("After a touch, or after thinking time: the move must be completed."),
    )
    grace_ms = forms.IntegerField(
        label=_("Grace (milliseconds)"),
        min_value=0,
        max_value=5_000,
        help_text=_("Allowed for network delay before a late move counts as expired."),
    )
    max_consecutive_forfeits = forms.IntegerField(
        label=_("Consecutive forfeits before a referee is called"),
        min_value=1,
        max_value=99,
    )

    class Meta:
        model = Tournament
        fields = [
            "name",
            "venue",
            "start_date",
            "end_date",
            "format",
            "rounds",
            "top_cut",
            "knockout_draw_rule",
            "game",
            "variant",
            "capture_policy",
            "record_otb_moves",
            "points_win",
            "points_draw",
            "points_loss",
            "commit_rule",
            "move_unit",
            "grace_ms",
            "max_consecutive_forfeits",
            "pairing_seed",
        ]
        widgets = DATE_WIDGETS
        help_texts = {"pairing_seed": PAIRING_SEED_HELP}

    # The order the fields appear in, by group (the template draws one fieldset each).
    GROUPS = (
        (_("Tournament"), ("name", "venue", "start_date", "end_date")),
        (
            _("Format and rules"),
            (
                "format",
                "rounds",
                "top_cut",
                "knockout_draw_rule",
                "game",
                "variant",
                "capture_policy",
                "record_otb_moves",
            ),
        ),
        (_("Match points"), ("points_win", "points_draw", "points_loss")),
        (
            _("Clock (timed variants)"),
            (
                "think_s",
                "move_s",
                "grace_ms",
                "commit_rule",
                "move_unit",
                "max_consecutive_forfeits",
            ),
        ),
    )

    def __init__(self, *args, facts: settings_changes.TournamentFacts, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.facts = facts
        self.fields["think_s"].initial = Decimal(self.instance.think_ms) / 1000
        self.fields["move_s"].initial = Decimal(self.instance.move_ms) / 1000
        self.fields["rounds"].widget.attrs["min"] = settings_changes.min_rounds(facts)
        self.locked = {
            FORM_FIELD.get(name, name): reason
            for name, reason in settings_changes.locked_fields(facts).items()
        }
        for name, reason in self.locked.items():
            field = self.fields[name]
            field.disabled = True
            field.help_text = format_lazy("{}: {}", _("Locked"), reason)

    def fieldsets(self) -> list[tuple[str, list[forms.BoundField]]]:
        return [(legend, [self[name] for name in names]) for legend, names in self.GROUPS]

    def clean_rounds(self) -> int:
        rounds = self.cleaned_data["rounds"]
        try:
            settings_changes.check_rounds(self.facts, rounds)
        except settings_changes.SettingsError as exc:
            raise forms.ValidationError(str(exc)) from None
        return rounds

    def clean(self):
        data = super().clean()
        top_cut, fmt = data.get("top_cut"), data.get("format")
        if top_cut is not None and fmt and "top_cut" not in self.locked:
            try:
                settings_changes.check_top_cut(self.facts, fmt, top_cut)
            except settings_changes.SettingsError as exc:
                self.add_error("top_cut", str(exc))
        # A disabled field silently keeps its value; a value posted for one anyway
        # (an old page, a hand-made request) is refused aloud rather than ignored.
        for name, reason in self.locked.items():
            key = self.add_prefix(name)
            if key not in self.data:
                continue
            field = self.fields[name]
            try:
                posted = field.clean(field.widget.value_from_datadict(self.data, self.files, key))
            except forms.ValidationError:
                posted = None
            if posted != field.to_python(self.get_initial_for_field(field, name)):
                self.add_error(
                    name,
                    format_lazy("{} {}", _("This setting can no longer change."), reason),
                )
        return data

    def save(self, commit: bool = True) -> Tournament:
        self.instance.think_ms = int(self.cleaned_data["think_s"] * 1000)
        self.instance.move_ms = int(self.cleaned_data["move_s"] * 1000)
        return super().save(commit=commit)


class TiebreakOrderForm(forms.Form):
    """The whole tiebreak order, one ``order`` value per key (the up/down buttons post it)."""

    order = forms.Field(
        widget=forms.MultipleHiddenInput,
        error_messages={"required": _("Choose at least one tiebreak.")},
    )

    def clean_order(self) -> list[str]:
        try:
            return settings_changes.check_tiebreak_order(self.cleaned_data["order"])
        except settings_changes.SettingsError as exc:
            raise forms.ValidationError(str(exc)) from None


class PlayerForm(forms.Form):
    """One player; the limits are those of a CSV import (``tournaments.organising.imports``)."""

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


class UsernameForm(forms.Form):
    """A user picked by username: a referee, a co-organiser, an organiser."""

    username = forms.CharField(label=_("Username"), max_length=150)

    def clean_username(self):
        username = self.cleaned_data["username"].strip()
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise forms.ValidationError(_("No user named %(name)s.") % {"name": username})
        return user


RefereeForm = UsernameForm


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


class PlayoffSidesForm(forms.Form):
    """The higher seeds' choice of sides for the playoff matches about to be paired:
    checked = that higher seed takes the second side in battle 1 (default: the first).
    Each choice names the game's sides (``GameScale.wording["playoff_choice"]``)."""

    second_side_first = forms.TypedMultipleChoiceField(
        label=_("Playoff: the higher seed chooses sides"),
        coerce=int,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args, choices: list[tuple[int, str]], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["second_side_first"].choices = choices
