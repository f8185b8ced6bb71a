"""The tournament's forms: a new tournament, its settings once created, its tiebreak
order. Validation messages are shown next to the field; nothing is saved unless the whole
form is valid."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import TYPE_CHECKING, cast

from django import forms
from django.utils.functional import Promise
from django.utils.text import format_lazy, slugify
from django.utils.translation import gettext_lazy as _

from tournaments.models.tournament import Tournament
from tournaments.organising import settings_changes
from tournaments.organising.creation import free_slug, slug_taken_message
from tournaments.web.forms_wording import (
    CLOCK_HELP,
    CLOCK_LABELS,
    HELP,
    LABELS,
    MOVE_UNIT_LABELS,
    variant_choices,
)

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

# A date input speaks ISO 8601 whatever the page's language (not the locale's format);
# the few choices each organiser should read side by side are radio buttons.
WIDGETS = {
    "start_date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    "end_date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    "format": forms.RadioSelect,
    "variant": forms.RadioSelect,
    "capture_policy": forms.RadioSelect,
    "knockout_draw_rule": forms.RadioSelect,
    "commit_rule": forms.RadioSelect,
    "move_unit": forms.RadioSelect,
}


def _plain_choices(field: forms.Field, labels: Mapping[str, StrOrPromise]) -> None:
    """Replace a choice field's labels by the plain ones, keeping any value ``labels``
    does not know (a game's option added later) with its own label."""
    choice_field = cast(forms.ChoiceField, field)
    choices = cast(Iterable[tuple[str, str]], choice_field.choices)
    choice_field.choices = [(value, labels.get(value, label)) for value, label in choices]


class _TournamentChecks(forms.ModelForm):
    """The checks the new-tournament and settings forms share, and their plain words."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # Not posted (an older page, a script): the tournament keeps its game (Thud when new).
        self.fields["game"].required = False
        cast(forms.ChoiceField, self.fields["variant"]).choices = variant_choices(
            move_unit=self.instance.move_unit,
            think_ms=self.instance.think_ms,
            move_ms=self.instance.move_ms,
        )
        if "move_unit" in self.fields:
            _plain_choices(self.fields["move_unit"], MOVE_UNIT_LABELS)

    def clean_game(self) -> str:
        return self.cleaned_data.get("game") or self.instance.game

    def clean(self):
        super().clean()
        data = self.cleaned_data
        start, end = data.get("start_date"), data.get("end_date")
        if start and end and end < start:
            self.add_error("end_date", _("The end date is before the start date."))
        win, draw, loss = (data.get(f"points_{k}") for k in ("win", "draw", "loss"))
        if win is not None and draw is not None and loss is not None and not win >= draw >= loss:
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
            "check_in_required",
            "rated",
            "points_win",
            "points_draw",
            "points_loss",
            "pairing_seed",
        ]
        widgets = WIDGETS
        labels = LABELS
        help_texts = HELP

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.slug_from_name = False  # made by clean(); creation may then change it
        # On for every new tournament made here (the model's default keeps scripts as
        # they were): the players at the hall are the ones paired.
        self.fields["check_in_required"].initial = True
        slug = self.fields["slug"]
        slug.required = False
        slug.error_messages["invalid"] = _(
            "A web address may hold only letters, digits, hyphens and underscores, "
            "e.g. dragon-con-2026."
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
        exclude = self._get_validation_exclusions() | {"slug"}  # type: ignore[attr-defined]  # django-stubs omits BaseModelForm's private helpers
        try:
            self.instance.validate_unique(exclude=exclude)
        except forms.ValidationError as error:
            self._update_errors(error)  # type: ignore[attr-defined]  # as above

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
                    _("No web address can be made from this name; please type one."),
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
        label=CLOCK_LABELS["think_s"],
        min_seconds="1",
        max_seconds="600",
        help_text=CLOCK_HELP["think_s"],
    )
    move_s = _Seconds(
        label=CLOCK_LABELS["move_s"],
        min_seconds="1",
        max_seconds="600",
        help_text=CLOCK_HELP["move_s"],
    )
    grace_ms = forms.IntegerField(
        label=CLOCK_LABELS["grace_ms"],
        min_value=0,
        max_value=5_000,
        help_text=CLOCK_HELP["grace_ms"],
    )
    max_consecutive_forfeits = forms.IntegerField(
        label=CLOCK_LABELS["max_consecutive_forfeits"],
        min_value=1,
        max_value=99,
        help_text=CLOCK_HELP["max_consecutive_forfeits"],
    )

    class Meta:
        model = Tournament
        fields = [
            "name",
            "venue",
            "time_zone",
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
            "check_in_required",
            "rated",
            "allow_bots",
            "points_win",
            "points_draw",
            "points_loss",
            "commit_rule",
            "move_unit",
            "grace_ms",
            "max_consecutive_forfeits",
            "join_window_s",
            "pairing_seed",
        ]
        widgets = WIDGETS
        labels = LABELS
        help_texts = HELP

    # The order the fields appear in, by group (the template draws one fieldset each).
    GROUPS = (
        (_("Tournament"), ("name", "venue", "time_zone", "start_date", "end_date")),
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
                "check_in_required",
                "rated",
                "allow_bots",
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
                "join_window_s",
            ),
        ),
    )

    def __init__(self, *args, facts: settings_changes.TournamentFacts, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.facts = facts
        # Not posted (an older page, a script): the tournament keeps its time zone.
        self.fields["time_zone"].required = False
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

    def clean_time_zone(self) -> str:
        return self.cleaned_data.get("time_zone") or self.instance.time_zone

    def fieldsets(self) -> list[tuple[str | Promise, list[forms.BoundField]]]:
        return [(legend, [self[name] for name in names]) for legend, names in self.GROUPS]

    def clean_allow_bots(self) -> bool:
        allow_bots = self.cleaned_data["allow_bots"]
        try:
            settings_changes.check_allow_bots(self.facts, allow_bots)
        except settings_changes.SettingsError as exc:
            raise forms.ValidationError(str(exc)) from None
        return allow_bots

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
