"""Forms for entering, confirming and correcting match results.

The forms only parse and range-check the numbers so that every error is shown beside
its field; the workflow rules live in ``tournaments/results/`` (entry, corrections, final).
"""

from __future__ import annotations

from dataclasses import dataclass

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.models.results import ResultVersion
from tournaments.models.wording import say
from tournaments.results.fields import result_fields
from tournaments.results.keyed import key_error
from tournaments.results.once import new_key
from tournaments.rules.result import MatchResult, MatchResultError
from tournaments.rules.scales import FIELDS as SURVIVOR_FIELDS
from tournaments.standings.scoring import score


def _survivor_field(label: str, limit: int) -> forms.IntegerField:
    return forms.IntegerField(
        label=label,
        min_value=0,
        max_value=limit,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "min": 0, "max": limit}),
    )


class MatchResultForm(forms.Form):
    """The four numbers of a match result in ``game``'s scale (Thud: survivor counts);
    A has the first side in battle 1, B in battle 2. Limits are the game's; labels name
    the players when ``names`` (A's, B's) are given."""

    def __init__(self, *args, game: str, names: tuple[str, str] | None = None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.game = game
        # Inserted first, in ``FIELDS`` order, before any field a subclass declares.
        own = dict(self.fields)
        self.fields = {
            field.name: _survivor_field(field.label, field.limit)
            for field in result_fields(game, names)
        } | own

    def clean(self):
        super().clean()
        cleaned = self.cleaned_data
        if all(cleaned.get(name) is not None for name in SURVIVOR_FIELDS):
            try:
                MatchResult.parse([cleaned[name] for name in SURVIVOR_FIELDS], game=self.game)
            except MatchResultError as exc:
                self.add_error(exc.field, say(exc))
        return cleaned

    def survivors(self) -> MatchResult:
        return MatchResult.parse(
            [self.cleaned_data[name] for name in SURVIVOR_FIELDS], game=self.game
        )

    def survivor_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in SURVIVOR_FIELDS]

    def enable_preview(self, url: str) -> None:
        """Ask the server for the live score as the referee types (no client arithmetic).

        Each field asks on its own, so the fields share one queue on their wrapper (which no
        preview replaces): while one request is out, only the newest next one waits, and
        it is sent once the first is answered. Unsynchronised, an older request's answer
        (fewer numbers) could land after the newer one was sent and leave the newer answer
        to a replaced element. Queued, not aborted: htmx logs an abort as an error.
        """
        for name in SURVIVOR_FIELDS:
            self.fields[name].widget.attrs.update(
                {
                    "hx-post": url,
                    "hx-trigger": "input changed delay:300ms",
                    "hx-sync": "closest .survivor-fields:queue last",
                    "hx-target": "#result-preview",
                    "hx-swap": "outerHTML",
                    "hx-include": "closest form",
                }
            )

    def preview(self) -> Preview | None:
        """The score of the bound values if they are valid, else of the initial values."""
        if self.is_bound:
            return preview(self.survivors()) if self.is_valid() else None
        try:
            values = MatchResult.parse(
                [self.initial[name] for name in SURVIVOR_FIELDS], game=self.game
            )
        except (KeyError, MatchResultError):
            return None
        return preview(values)


def _key_field() -> forms.CharField:
    """The submission's idempotency key (``tournaments.results.once``): optional, so a
    form from before keys still works; a fresh one in every unbound form."""
    return forms.CharField(required=False, max_length=200, widget=forms.HiddenInput)


def _check_key(form: forms.Form) -> None:
    error = key_error(form.cleaned_data.get("key") or "")
    if error is not None:
        form.add_error(None, error)


class KeyedResultForm(MatchResultForm):
    """The result form with a submission key: the referee's entry and a player's report
    (the over-the-board survivors form, games' own, has the same fields and checks:
    ``results.fields``, ``results.keyed``)."""

    key = _key_field()

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if not self.is_bound:
            self.initial.setdefault("key", new_key())

    def clean(self):
        cleaned = super().clean()
        _check_key(self)
        return cleaned


class ResultForm(KeyedResultForm):
    lock_version = forms.IntegerField(min_value=0, widget=forms.HiddenInput)


class DecisionForm(MatchResultForm):
    """The organiser's final decision: stands without a second person, so it needs a reason."""

    lock_version = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    reason = forms.CharField(
        label=_("Reason for the decision"), max_length=500, widget=forms.TextInput
    )

    def __init__(self, *args, **kwargs) -> None:
        # Shown beside the entry or correction form: its own ids keep the labels apart.
        kwargs.setdefault("auto_id", "decision_%s")
        super().__init__(*args, **kwargs)


class CorrectionForm(MatchResultForm):
    lock_version = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    reason = forms.CharField(
        label=_("Reason for the correction"), max_length=500, widget=forms.TextInput
    )


class ConfirmForm(forms.Form):
    version_id = forms.IntegerField(widget=forms.HiddenInput)
    lock_version = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    key = _key_field()

    def clean(self):
        cleaned = super().clean()
        _check_key(self)
        return cleaned


def initial_from(version: ResultVersion | None, lock_version: int) -> dict[str, int]:
    initial = {"lock_version": lock_version}
    if version is not None:
        initial.update(version.survivors.as_dict())
    return initial


@dataclass(frozen=True)
class BattleLine:
    number: int
    a_points: int
    b_points: int
    winner: str  # "a", "b" or "draw"


@dataclass(frozen=True)
class Preview:
    battles: list[BattleLine]
    differential: int
    outcome: str


def preview(survivors: MatchResult) -> Preview:
    """Battle points, battle winners and A's differential, for the live preview."""
    result = score(survivors)
    battles = []
    for i in range(2):
        a, b = result.a_points[i], result.b_points[i]
        battles.append(BattleLine(i + 1, a, b, "a" if a > b else "b" if b > a else "draw"))
    return Preview(battles=battles, differential=result.differential, outcome=result.outcome)
